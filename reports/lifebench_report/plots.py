"""The report's figures, as PNG files beside the pages (no network, no JavaScript).

Each function writes one PNG of a fixed size (WIDTH_IN x HEIGHT_IN inches at DPI, shown at
half its pixel size, SHOWN, for sharp lines on dense screens) and returns nothing; the
pages show them at SHOWN.
"""

from __future__ import annotations

import re
from pathlib import Path

from .compare import PASSED, TableView
from .figures import Figure, Point
from .results import Run
from .units import fmt3

WIDTH_IN, HEIGHT_IN, DPI = 10.0, 5.0, 160
SHOWN = (int(WIDTH_IN * DPI) // 2, int(HEIGHT_IN * DPI) // 2)  # CSS pixels on the page
FACE = "#fbfaf5"  # figure background: a tint the page itself never uses
PUBLISHED_COLOUR = "#9a9a9a"
MEASURED_COLOUR = "#1f77b4"
_SUPERSCRIPT = str.maketrans(
    "0123456789-", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b"
)


def _safe(text: str) -> str:
    """Names come from results and table files: a '$' must not start math text."""
    return text.replace("$", r"\$")


def _short(text: str, limit: int = 30) -> str:
    """Legend entries stay inside the figure."""
    return _safe(text if len(text) <= limit else text[: limit - 1] + "\u2026")


def _plain(label: str) -> str:
    """`10^9 updates/s` -> `10\u2079 updates/s`, with no math text."""
    return _safe(re.sub(r"\^(-?[0-9]+)", lambda m: m.group(1).translate(_SUPERSCRIPT), label))


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {"font.size": 10, "axes.titlesize": 11, "figure.facecolor": FACE, "savefig.facecolor": FACE}
    )
    return plt


def _save(fig, path: Path):
    fig.savefig(path, dpi=DPI, metadata={"Software": None})
    import matplotlib.pyplot as plt

    plt.close(fig)


def throughput_plot(runs: list[Run], path: Path):
    """Cell updates per second against grid size (cells), one series per experiment.

    Every ok result is a point (hollow when it was not verified); the line joins each
    experiment's best verified throughput per grid size.
    """
    plt = _pyplot()
    from matplotlib.ticker import LogLocator, NullFormatter

    fig, ax = plt.subplots(figsize=(WIDTH_IN, HEIGHT_IN), layout="constrained")
    points: dict[str, list] = {}
    for run in runs:
        for result in run.results:
            if result.status == "ok" and result.cells:
                points.setdefault(result.experiment, []).append(result)
    if not points:
        ax.text(
            0.5,
            0.5,
            "no successful measurement in the results",
            ha="center",
            va="center",
            transform=ax.transAxes,
            fontsize=13,
            color="#555555",
        )
        ax.set_xticks([])
        ax.set_yticks([])
    for i, (experiment, results) in enumerate(sorted(points.items())):
        colour = f"C{i % 10}"
        verified = [r for r in results if r.verified]
        unverified = [r for r in results if not r.verified]
        best: dict[int, float] = {}
        for r in verified:
            best[r.cells] = max(best.get(r.cells, 0.0), r.rate)
        xs = sorted(best)
        ax.plot(
            xs,
            [best[x] for x in xs],
            "-o",
            color=colour,
            linewidth=2,
            markersize=6,
            label=_short(experiment),
        )
        ax.plot(
            [r.cells for r in verified],
            [r.rate for r in verified],
            "o",
            color=colour,
            markersize=4,
            alpha=0.5,
        )
        if unverified:
            ax.plot(
                [r.cells for r in unverified],
                [r.rate for r in unverified],
                "o",
                markerfacecolor="none",
                color=colour,
                markersize=7,
                label=_short(experiment) + " (not verified)",
            )
    if points:
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_locator(LogLocator(base=4))  # every other power of two: readable
        ax.xaxis.set_minor_locator(LogLocator(base=2))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_yscale("log")
        ax.set_xlabel("grid size (cells)")
        ax.set_ylabel("cell updates per second")
        ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.set_title("Throughput against grid size (best verified configuration per size)")
    _save(fig, path)


def table_plot(view: TableView, path: Path) -> bool:
    """Published and measured values of the table's cells in the table's own unit; False
    (and no file) where no cell has either."""
    table = view.table
    cells = [
        c
        for c in view.cells.values()
        if not c.derived
        and (c.unit, c.scale) == (table.unit, table.scale)
        and (c.published is not None or c.value is not None)
    ]
    if not cells:
        return False
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(WIDTH_IN, HEIGHT_IN), layout="constrained")
    width = 0.38
    xs = range(len(cells))
    published = [c.published or 0 for c in cells]
    measured = [c.value if c.status == PASSED and c.value else 0 for c in cells]
    ax.bar([x - width / 2 for x in xs], published, width, color=PUBLISHED_COLOUR, label="published")
    ax.bar([x + width / 2 for x in xs], measured, width, color=MEASURED_COLOUR, label="measured")
    for x, value in zip(xs, measured):
        if value:
            ax.annotate(
                fmt3(value),
                (x + width / 2, value),
                ha="center",
                va="bottom",
                fontsize=8,
                xytext=(0, 2),
                textcoords="offset points",
            )
        else:
            ax.annotate(
                "not\nmeasured",
                (x + width / 2, 0),
                xycoords=("data", "axes fraction"),
                ha="center",
                va="bottom",
                fontsize=7,
                color="#777777",
                xytext=(0, 3),
                textcoords="offset points",
            )
    ax.set_xticks(list(xs), [_safe(f"{c.row.name}\n{c.column.name}") for c in cells], fontsize=8)
    if any(published) or any(measured):
        ax.set_yscale("log")
    ax.set_ylabel(_plain(table.label))
    ax.grid(True, axis="y", which="major", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", frameon=False)
    ax.set_title(
        _safe(f"{table.source['table']}: published and measured") + f" ({_plain(table.label)})"
    )
    _save(fig, path)
    return True


def figure_plot(figure: Figure, points: list[Point], path: Path):
    """One figure file's plot: a line per series through its best point per x."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(WIDTH_IN, HEIGHT_IN), layout="constrained")
    series: dict[str, list[Point]] = {}
    for point in points:
        series.setdefault(point.series, []).append(point)
    for i, (name, line) in enumerate(sorted(series.items())):
        ax.plot(
            [p.x for p in line],
            [p.y for p in line],
            "-o",
            color=f"C{i % 10}",
            linewidth=2,
            markersize=5,
            label=_short(name, 40),
        )
    if not points:
        ax.text(
            0.5,
            0.5,
            "no verified measurement in the results matches this figure",
            ha="center",
            va="center",
            transform=ax.transAxes,
            fontsize=13,
            color="#555555",
        )
        ax.set_xticks([])
        ax.set_yticks([])
    else:
        if figure.log_x:
            ax.set_xscale("log", base=2)
        if figure.log_y:
            ax.set_yscale("log")
        ax.set_xlabel(_plain(figure.x_label))
        ax.set_ylabel(_plain(figure.y_label))
        ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.set_title(_safe(figure.title))
    _save(fig, path)
