"""The command line: `generate.py --results DIR [--results DIR ...] --tables DIR --out DIR`."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from .compare import compare
from .errors import ReportError
from .figures import load_figures
from .output import staged
from .results import load_runs
from .tables import load_tables

PROG = "lifebench-report"
DEFAULT_TABLES = Path(__file__).resolve().parent.parent / "tables"
DEFAULT_FIGURES = Path(__file__).resolve().parent.parent / "plots"


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, like every other error
        raise ReportError(
            f"{message} (usage: {' '.join(self.format_usage().split()).removeprefix('usage: ')})"
        )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Write lifebench's HTML report: each published table beside this run's "
        "measurements, the run's environment and every configuration.",
    )
    parser.add_argument(
        "--results",
        action="append",
        required=True,
        metavar="DIR",
        type=Path,
        help="a results folder written by `lifebench bench` (repeatable); a missing "
        "folder is reported, and its table cells are 'not run'",
    )
    parser.add_argument(
        "--tables",
        type=Path,
        default=DEFAULT_TABLES,
        metavar="DIR",
        help="folder of published tables, *.toml (default: %(default)s)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        metavar="DIR",
        help="report folder to write (replaced as a whole; index.html inside)",
    )
    parser.add_argument(
        "--plots",
        type=Path,
        default=DEFAULT_FIGURES,
        metavar="DIR",
        help="folder of figure files, *.toml; a folder that does not exist holds none "
        "(default: %(default)s)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the path of index.html")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        index = generate(args.results, args.tables, args.out, args.plots, quiet=args.quiet)
    except ReportError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    print(index)
    return 0


def generate(
    results: list[Path],
    tables_dir: Path,
    out: Path,
    figures_dir: Path = DEFAULT_FIGURES,
    quiet: bool = False,
) -> Path:
    """Writes the report; returns the absolute path of its index.html."""
    try:
        import matplotlib  # noqa: F401  (fail with one line, before any work)
    except ImportError as e:
        raise ReportError(
            f"{sys.executable} cannot import matplotlib ({e}): run tools/setup.sh"
        ) from None
    from . import html, plots  # after the check: both need matplotlib

    tables = load_tables(tables_dir)
    figures = load_figures(figures_dir)
    runs = load_runs(results)
    views = [compare(table, runs) for table in tables]
    out = out.resolve()
    generated = html.now()
    with staged(out) as stage:
        plots.throughput_plot(runs, stage / html.THROUGHPUT_PNG)
        for view in views:
            plot = f"{view.table.stem}.png"
            if not plots.table_plot(view, stage / plot):
                plot = None
            (stage / view.table.page).write_text(
                html.table_page(view, plot, generated), encoding="utf-8"
            )
        shown = []
        for figure in figures:
            points = figure.points(runs)
            plots.figure_plot(figure, points, stage / figure.image)
            shown.append((figure, len(points)))
        (stage / html.INDEX).write_text(
            html.index_page(runs, views, html.THROUGHPUT_PNG, generated, shown), encoding="utf-8"
        )

    if not quiet:
        for run in runs:
            for warning in run.warnings:
                print(f"{PROG}: warning: {run.label}: {warning}", file=sys.stderr)
        statuses = Counter(r.status for run in runs for r in run.results)
        for view in views:
            counts = view.counts()
            print(
                f"{PROG}: {view.table.stem}: "
                + ", ".join(
                    f"{counts[s]} {s.replace('_', ' ')}"
                    for s in ("passed", "failed", "unverified", "not_run")
                    if counts[s]
                )
                + " of the measured cells"
            )
        print(
            f"{PROG}: {sum(statuses.values())} configurations"
            + (
                " (" + ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) + ")"
                if statuses
                else ""
            )
        )
    return out / html.INDEX
