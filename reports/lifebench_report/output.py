"""Writing the report folder so that a failure never leaves half a report.

The report is built in a temporary folder beside the destination, then swapped in with two
renames; the previous report, if any, is removed only after the new one is in place. A folder
is replaced only if it is empty or was written by this generator (it holds MARKER), so that a
mistyped --out never deletes someone's files.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import ReportError
from .results import Run

MARKER = ".lifebench-report"
DATA = "data"  # a static site's copy of its results folders


def check_destination(out: Path):
    if not out.exists():
        return
    if not out.is_dir():
        raise ReportError(f"--out {out} exists and is not a folder")
    if (out / MARKER).exists():
        return
    if any(out.iterdir()):
        raise ReportError(
            f"refusing to replace {out}: it is not empty and not a lifebench report "
            f"(no {MARKER} inside); choose another --out"
        )


@contextmanager
def staged(out: Path) -> Iterator[Path]:
    """Yields an empty folder to write the report into; on success it becomes `out`."""
    check_destination(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    except OSError as e:
        raise ReportError(f"cannot create a folder beside {out}: {e.strerror}") from None
    try:
        os.chmod(stage, 0o755)  # mkdtemp's 0700 would hide the report from a web server
        (stage / MARKER).write_text(
            "written by lifebench reports/generate.py; replaced on each run\n"
        )
        yield stage
        _swap(stage, out)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def _swap(stage: Path, out: Path):
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        old.rmdir()
        os.rename(out, old)
    try:
        os.rename(stage, out)
    except OSError as e:
        if old is not None:
            os.rename(old, out)
        raise ReportError(f"cannot move the new report into {out}: {e.strerror}") from None
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def linked_results(runs: list[Run], out: Path) -> dict[int, str]:
    """Each run's folder as a path relative to the site `out`: for a site kept beside its
    results folders (results/reference/report), which then need no copy inside. A folder
    outside the site's parent is refused: its link would climb towards this machine's root
    and name its folders."""
    beside = out.resolve().parent
    links = {}
    for run in runs:
        folder = run.folder.resolve()
        if not folder.is_relative_to(beside):
            raise ReportError(f"--link-results: {run.folder} is not in {beside}, beside the "
                              "site: copy it into the site (leave out --link-results)")
        links[id(run)] = Path(os.path.relpath(folder, out.resolve())).as_posix()
    return links


def copy_results(runs: list[Run], stage: Path) -> dict[int, str]:
    """Copies each run's JSON files into stage/data/<folder name> (a suffix where two
    share a name); returns those folders relative to the stage, by id of the run."""
    copied: dict[int, str] = {}
    for run in runs:
        name = run.folder.name or "results"
        folder = Path(DATA) / name
        n = 1
        while (stage / folder).exists():
            n += 1
            folder = Path(DATA) / f"{name}-{n}"
        try:
            (stage / folder).mkdir(parents=True)
            if run.folder.is_dir():
                for path in sorted(run.folder.glob("*.json")):
                    if path.is_file() and not path.name.startswith("."):
                        shutil.copyfile(path, stage / folder / path.name)
        except OSError as e:
            raise ReportError(f"cannot copy {run.folder} into the site: {e.strerror}") from None
        copied[id(run)] = folder.as_posix()
    return copied
