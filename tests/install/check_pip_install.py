"""pip installs the report generator from the tree (reports/pyproject.toml) into a fresh
virtual environment, offline, and its `lifebench-report` command writes a report with the
published tables it carries: one page per reports/tables/*.toml.

    python3 check_pip_install.py WORK
"""
import pathlib
import shutil
import subprocess
import sys

REPORTS = pathlib.Path(__file__).resolve().parents[2] / "reports"


def run(*command):
    proc = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit("check_pip_install: %s failed (%d):\n%s%s" % (
            " ".join(map(str, command)), proc.returncode, proc.stdout, proc.stderr))
    return proc


def main():
    work = pathlib.Path(sys.argv[1])
    shutil.rmtree(work, ignore_errors=True)
    # A copy, so that the build's files (build/, *.egg-info) stay out of the source tree.
    source = work / "reports"
    shutil.copytree(REPORTS, source, ignore=shutil.ignore_patterns(
        "__pycache__", "build", "*.egg-info"))
    venv = work / "venv"
    # The system's site packages give matplotlib and setuptools: nothing is downloaded.
    run(sys.executable, "-m", "venv", "--system-site-packages", venv)
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", "--no-deps",
        "--no-build-isolation", "--no-index", source)
    command = venv / "bin" / "lifebench-report"
    run(command, "--help")
    # No results: every cell reads "not run", and every table has its page.
    index = run(command, "--results", work / "no-results", "--out", work / "report",
                "--quiet").stdout.strip().splitlines()[-1]
    pages = sorted(p.stem for p in (work / "report").glob("*.html") if p.name != "index.html")
    tables = sorted(p.stem for p in (REPORTS / "tables").glob("*.toml"))
    if pathlib.Path(index) != (work / "report" / "index.html").resolve() or not set(tables) <= set(
            pages):
        sys.exit("check_pip_install: the installed command wrote %s with pages %s, not %s"
                 % (index, pages, tables))
    print("check_pip_install: lifebench-report installed by pip wrote %d table pages"
          % len(tables))


if __name__ == "__main__":
    main()
