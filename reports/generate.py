#!/usr/bin/env python3
"""lifebench's report generator: published tables beside measured results, as static HTML.

    python3 reports/generate.py --results results/sweep-cpu --tables reports/tables --out report

Writes OUT/index.html, one page per reports/tables/*.toml and PNG plots; prints the absolute
path of index.html last. Bad input: one line `lifebench-report: error: ...` and exit status 1.
The code is in lifebench_report/ beside this file; reports/README.md documents the table files.
"""

import sys
from pathlib import Path

if sys.version_info < (3, 11):
    version = sys.version.split()[0]
    sys.exit(f"lifebench-report: error: python 3.11 or newer is needed (tomllib), not {version}")

sys.dont_write_bytecode = True  # keep __pycache__ out of the source tree
sys.path.insert(0, str(Path(__file__).resolve().parent))

from lifebench_report.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
