"""The command line: `generate.py --results DIR [--results DIR ...] --out DIR | --site DIR`."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from .baseline import before_after
from .bounds import load_bounds
from .compare import compare
from .errors import ReportError
from .figures import load_figures
from .machines import slug
from .output import copy_results, staged
from .results import load_runs
from .tables import load_tables

PROG = "lifebench-report"


def _data_folder(name: str) -> Path:
    """reports/<name> of the source tree, or the copy `pip install` puts in the package."""
    package = Path(__file__).resolve().parent
    installed = package / name
    return installed if installed.is_dir() else package.parent / name


DEFAULT_TABLES = _data_folder("tables")
DEFAULT_FIGURES = _data_folder("plots")
DEFAULT_EXPERIMENTS = Path(__file__).resolve().parent.parent.parent / "experiments"
FAMILIES = ("square", "hex", "3d")


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
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="report folder to write (replaced as a whole; index.html inside)",
    )
    where.add_argument(
        "--site",
        type=Path,
        metavar="DIR",
        help="the report as a static site to publish: as --out, with the results folders "
        "copied inside and no path of this machine on any page",
    )
    parser.add_argument(
        "--experiments",
        type=Path,
        default=DEFAULT_EXPERIMENTS,
        metavar="DIR",
        help="experiment folders, whose READMEs name each experiment's bound "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--plots",
        type=Path,
        default=DEFAULT_FIGURES,
        metavar="DIR",
        help="folder of figure files, *.toml; a folder that does not exist holds none "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="DIR",
        help="a results folder to compare with: the index gets a before and after section, "
        "each configuration's rate in DIR and in --results (the same config_id)",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the path of index.html")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
        index = generate(
            args.results,
            args.tables,
            args.site or args.out,
            args.plots,
            quiet=args.quiet,
            site=args.site is not None,
            experiments=args.experiments,
            baseline=args.baseline,
        )
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
    site: bool = False,
    experiments: Path = DEFAULT_EXPERIMENTS,
    baseline: Path | None = None,
) -> Path:
    """Writes the report (a static site with the results inside: `site`); returns the
    absolute path of its index.html."""
    try:
        import matplotlib  # noqa: F401  (fail with one line, before any work)
    except ImportError as e:
        raise ReportError(
            f"{sys.executable} cannot import matplotlib ({e}): run tools/setup.sh"
        ) from None
    # After the check: all need matplotlib.
    from . import downloads, glossary, history, html, patterns_page, plots, table_page

    tables = load_tables(tables_dir)
    figures = load_figures(figures_dir)
    bounds = load_bounds(experiments)
    runs = load_runs(results)
    if baseline is not None and not baseline.is_dir():
        raise ReportError(f"--baseline {baseline} is not a results folder")
    before = load_runs([baseline]) if baseline is not None else None
    views = [compare(table, runs, bounds) for table in tables]
    out = out.resolve()
    generated = html.now()
    with staged(out) as stage:
        for view in views:
            plot = f"{view.table.stem}.png"
            size = plots.table_plot(view, stage / plot)
            (stage / view.table.page).write_text(
                table_page.table_page(view, (plot, size) if size else None, generated),
                encoding="utf-8",
            )
            downloads.write(view, stage)
        shown = []
        for figure in figures:
            points = figure.points(runs)
            size = plots.figure_plot(figure, points, stage / figure.image)
            shown.append((figure, len(points), (figure.image, size) if size else None))
        rooflines = []
        for family in FAMILIES:
            image = f"roofline-{family}.png"
            size = plots.roofline_plot(family, runs, bounds, stage / image)
            rooflines.append((family, (image, size) if size else None))
        size = plots.throughput_plot(runs, stage / html.THROUGHPUT_PNG)
        histories = history.histories(runs)
        history_images = {}
        for machine_history in histories:
            image = f"history-{slug(machine_history.machine.name)}.png"
            drawn = plots.history_plot(machine_history, stage / image)
            history_images[machine_history.machine.name] = (image, drawn) if drawn else None
        pages = {
            html.INDEX: html.index_page(
                runs, views, generated,
                before_after(runs, before) if before is not None else None,
            ),
            html.FIGURES: html.figures_page(
                generated, (html.THROUGHPUT_PNG, size) if size else None, shown, rooflines
            ),
            html.RUNS: html.runs_page(
                runs, generated, copy_results(runs, stage) if site else None
            ),
            html.HISTORY: html.history_page(histories, history_images, generated),
            html.CONFIGURATIONS: html.configurations_page(runs, views, generated, bounds),
            html.PATTERNS: patterns_page.patterns_page(runs, stage, generated),
            glossary.GLOSSARY: html.page(
                "lifebench report: glossary", glossary.glossary_body(), generated
            ),
        }
        for name, text in pages.items():
            (stage / name).write_text(text, encoding="utf-8")

    if not quiet:
        for run in runs:
            for warning in run.warnings:
                print(f"{PROG}: warning: {run.folder}: {warning}", file=sys.stderr)
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
