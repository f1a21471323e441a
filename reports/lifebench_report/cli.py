"""The command line: `generate.py --results DIR [--results DIR ...] --out DIR | --site DIR
[--link-results]`, and `generate.py history DIR...` (a machine's results over commits, as
text)."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from .baseline import before_after
from .bounds import load_bounds
from .cells import table_view
from .errors import ReportError
from .figures import load_figures
from .machines import slug
from .output import copy_results, linked_results, staged
from .results import Run, load_runs
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
        "copied inside (or linked: --link-results) and no path of this machine on any page",
    )
    parser.add_argument(
        "--link-results",
        action="store_true",
        help="with --site: link each results folder where it lies, by a path relative to the "
        "site, instead of copying it inside (a site kept beside its results folders, all in "
        "the site's parent folder)",
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
    parser.add_argument(
        "--history",
        action="append",
        default=[],
        metavar="DIR",
        type=Path,
        help="a results folder of an earlier commit (repeatable), drawn on the history page "
        "only: the tables and figures show --results",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the path of index.html")
    return parser


def _history_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=f"{PROG} history",
        description="Print each machine's headline configurations over the commits of the "
        "given results folders: the rate at each commit, its 95 %% interval, and the steps "
        "beyond the noise (as the report's history page).",
    )
    parser.add_argument("folders", nargs="+", metavar="DIR", type=Path,
                        help="results folders written by `lifebench bench`")
    return parser


def history_main(argv: list[str]) -> int:
    from .history import histories, summary

    args = _history_parser().parse_args(argv)
    _require_manifests(args.folders, "history")
    print("\n".join(summary(histories(load_runs(args.folders)))))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        if argv[:1] == ["history"]:
            return history_main(argv[1:])
        parser = _parser()
        args = parser.parse_args(argv)
        if args.link_results and args.site is None:
            parser.error("--link-results needs --site")
        index = generate(
            args.results,
            args.tables,
            args.site or args.out,
            args.plots,
            quiet=args.quiet,
            site=args.site is not None,
            link_results=args.link_results,
            experiments=args.experiments,
            baseline=args.baseline,
            history_folders=args.history,
        )
    except ReportError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    print(index)
    return 0


def _require_manifests(folders: list[Path], what: str) -> None:
    missing = [str(f) for f in folders if not (f / "manifest.json").is_file()]
    if missing:
        raise ReportError(f"{what}: not a results folder (no manifest.json): {', '.join(missing)}")


def _earlier(folders: list[Path], runs: list[Run]) -> list[Run]:
    """The --history folders that are not --results folders too."""
    shown = {run.folder for run in runs}
    _require_manifests(folders, "--history")
    return [run for run in load_runs(folders) if run.folder not in shown]


def _site_data(runs: list[Run], stage: Path, out: Path, link: bool) -> dict[int, str]:
    return linked_results(runs, out) if link else copy_results(runs, stage)


def generate(
    results: list[Path],
    tables_dir: Path,
    out: Path,
    figures_dir: Path = DEFAULT_FIGURES,
    quiet: bool = False,
    site: bool = False,
    link_results: bool = False,
    experiments: Path = DEFAULT_EXPERIMENTS,
    baseline: Path | None = None,
    history_folders: list[Path] | None = None,
) -> Path:
    """Writes the report (a static site with the results inside: `site`, or linked where
    they lie: `link_results`); returns the absolute path of its index.html."""
    try:
        import matplotlib  # noqa: F401  (fail with one line, before any work)
    except ImportError as e:
        raise ReportError(
            f"{sys.executable} cannot import matplotlib ({e}): run tools/setup.sh"
        ) from None
    # After the check: all need matplotlib.
    from . import (downloads, glossary, history, html, pages, patterns_page, plots,
                   scaling_page, table_page)

    tables = load_tables(tables_dir)
    figures = load_figures(figures_dir)
    bounds = load_bounds(experiments)
    runs = load_runs(results)
    if baseline is not None and not baseline.is_dir():
        raise ReportError(f"--baseline {baseline} is not a results folder")
    before = load_runs([baseline]) if baseline is not None else None
    views = [table_view(table, runs, bounds) for table in tables]
    out = out.resolve()
    generated = html.now()
    with staged(out) as stage, plots.written_together():
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
            shown.append((figure, points, (figure.image, size) if size else None))
        rooflines = []
        for family in FAMILIES:
            image = f"roofline-{family}.png"
            size = plots.roofline_plot(family, runs, bounds, stage / image)
            rooflines.append((family, (image, size) if size else None))
        size = plots.throughput_plot(runs, stage / pages.THROUGHPUT_PNG)
        histories = history.histories(runs + _earlier(history_folders or [], runs))
        history_images = {}
        for machine_history in histories:
            image = f"history-{slug(machine_history.machine.name)}.png"
            drawn = plots.history_plot(machine_history, stage / image)
            history_images[machine_history.machine.name] = (image, drawn) if drawn else None
        site_pages = {
            html.INDEX: pages.index_page(
                runs, views, generated,
                before_after(runs, before) if before is not None else None,
            ),
            html.FIGURES: pages.figures_page(
                generated, (pages.THROUGHPUT_PNG, size) if size else None, shown, rooflines
            ),
            html.RUNS: pages.runs_page(
                runs, generated, _site_data(runs, stage, out, link_results) if site else None
            ),
            html.HISTORY: pages.history_page(histories, history_images, generated),
            html.CONFIGURATIONS: pages.configurations_page(runs, views, generated, bounds),
            html.PATTERNS: patterns_page.patterns_page(runs, stage, generated),
            html.SCALING: scaling_page.scaling_page(runs, stage, generated),
            glossary.GLOSSARY: html.page(
                "lifebench report: glossary", glossary.glossary_body(), generated
            ),
        }
        for name, text in site_pages.items():
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
