#!/usr/bin/env python3
"""Render test on synthetic results: generate a report, open it in headless Chromium, check it.

    test_render.py [--work DIR]    (DIR keeps the results, the report, DOM dumps and screenshots)

Checks everything render_check.py checks on any report, plus the value, status and reason of
every cell of fujita2017-table1 for the synthetic run, that hostile text from the results is
shown as text, and — so that the check itself is known to work — that a copy of the report
with its plots deleted fails it. Fails (does not skip) when chromium is not installed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import dom  # noqa: E402
import render_check  # noqa: E402
import synthetic  # noqa: E402

ROOT = HERE.parent.parent
GENERATOR = ROOT / "reports" / "generate.py"
TABLES = ROOT / "reports" / "tables"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--work", type=Path, help="keep everything here (default: a temporary folder)"
    )
    args = parser.parse_args()
    work = (
        args.work.resolve()
        if args.work
        else Path(tempfile.mkdtemp(prefix="lifebench-render-test-"))
    )
    try:
        failures = run(work)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(
        "render test passed "
        + (f"(screenshots in {work / 'shots'})" if args.work else "(work folder removed)")
    )
    return 0


def run(work: Path) -> list[str]:
    try:
        render_check.find_chromium()
    except render_check.CheckFailed as e:
        return [str(e)]
    for name in ("results", "report", "shots", "broken", "shots-broken"):
        shutil.rmtree(work / name, ignore_errors=True)
    results = synthetic.standard_run(work / "results")
    report = work / "report"
    generated = subprocess.run(
        [
            sys.executable,
            str(GENERATOR),
            "--results",
            str(results),
            "--tables",
            str(TABLES),
            "--out",
            str(report),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if generated.returncode != 0:
        return [f"generate.py exited {generated.returncode}: {generated.stderr.strip()}"]
    last = generated.stdout.strip().splitlines()[-1]
    failures = []
    if last != str(report / "index.html"):
        failures.append(f"generate.py printed {last!r} last, not the path of index.html")

    failures += render_check.check_report(
        report, TABLES, work / "shots", synthetic.STANDARD_EXPECT, synthetic.TABLE
    )

    # Hostile text shows as text in the rendered DOM (render_check already refused <script>);
    # the configurations and the runs have pages of their own.
    configurations_dom = work / "shots" / "configurations.dom.html"
    if configurations_dom.exists():
        root = dom.parse(configurations_dom.read_text())
        if synthetic.HOSTILE not in root.text:
            failures.append("configurations.html: the hostile experiment name is not shown")
        configs = root.find_all("tr", cls="status-ok") + root.find_all("tr", cls="status-failed")
        configs += root.find_all("tr", cls="status-unsupported") + root.find_all(
            "tr", cls="status-unavailable"
        )
        if len(configs) != len(synthetic.standard_results()):
            failures.append(
                f"configurations.html: {len(configs)} configuration rows, "
                f"expected {len(synthetic.standard_results())}"
            )
        text = root.text + dom.parse((report / "runs.html").read_text()).text
        for shown in (synthetic.H100, synthetic.CPU, "0123456789ab", "no OpenCL platform"):
            if shown not in text:
                failures.append(f"configurations and runs do not show {shown!r}")
    else:
        failures.append("configurations.html was not rendered")

    # The check must notice plots that are not there.
    broken = work / "broken"
    shutil.copytree(report, broken)
    for png in broken.glob("*.png"):
        png.unlink()
    broken_failures = render_check.check_report(broken, TABLES, work / "shots-broken")
    if not any("plot" in f for f in broken_failures):
        failures.append("render_check did not notice a report whose plots were deleted")
    return failures


if __name__ == "__main__":
    sys.exit(main())
