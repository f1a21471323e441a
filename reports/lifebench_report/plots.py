"""The report's figures, as PNG files beside the pages (no network, no JavaScript).

Each function writes one PNG (WIDTH_IN inches wide at DPI, shown at half its pixel size for
sharp lines on dense screens) and returns the size to show it at, in CSS pixels; a figure
with nothing to show is not drawn: the function writes no file and returns None.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from .bounds import KINDS, Kind, fraction
from .compare import PASSED, TableView
from .figures import Figure, Point
from .machines import current, on_machine
from .results import Run
from .units import NotConvertible, fmt3

WIDTH_IN, HEIGHT_IN, DPI = 10.0, 5.0, 160
FACE = "#fbfaf5"  # figure background: a tint the page itself never uses
PUBLISHED_COLOUR = "#9a9a9a"
MEASURED_COLOUR = "#1f77b4"
ORIGINAL_COLOUR = "#6a3d9a"
_SUPERSCRIPT = str.maketrans(
    "0123456789-", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079\u207b"
)


def _safe(text: str) -> str:
    """Names come from results and table files: a '$' must not start math text."""
    return text.replace("$", r"\$")


def _short(text: str, limit: int = 30) -> str:
    """Legend entries stay inside the figure."""
    return _safe(text if len(text) <= limit else text[: limit - 1] + "\u2026")


def _wrapped(text: str, width: int = 40) -> str:
    """A long legend entry (a series with its machine) on several lines, none cut off."""
    return "\n".join(textwrap.wrap(_safe(text), width)) or _safe(text)


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


def _save(fig, path: Path) -> tuple[int, int]:
    width, height = fig.get_size_inches()
    fig.savefig(path, dpi=DPI, metadata={"Software": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    return int(width * DPI) // 2, int(height * DPI) // 2


FAMILY_TITLES = {"square": "square grids", "hex": "hexagonal grids", "3d": "3D grids"}
# Ten colours, then the same ten with another marker and dashes: a panel of 30 series still
# tells every one apart.
_MARKERS, _LINES = "os^Dv", ["-", "--", "-.", ":", (0, (5, 1, 1, 1))]


def throughput_plot(runs: list[Run], path: Path) -> tuple[int, int] | None:
    """Cell updates per second against grid size (cells), one panel per family of grids (square,
    hex, 3D) and machine, one series per experiment, each panel as tall as its legend needs.

    For each experiment, machine and grid size, the newest run that measured it: its every ok
    result is a point (hollow when it was not verified); the line joins its best verified.
    Soups only: a run started from a pattern is another problem (the patterns page's).
    """
    ok = [r for run in runs for r in run.results if r.status == "ok" and r.cells and not r.pattern]
    panels: dict[tuple[str, object], dict[str, list]] = {}
    for (machine, (experiment, _)), results in current(
        ok, lambda r: (r.experiment, r.cells)
    ).items():
        family = results[0].family or "other"
        panels.setdefault((family, machine), {}).setdefault(experiment, []).extend(results)
    if not panels:
        return None
    families = list(FAMILY_TITLES)
    order = sorted(panels, key=lambda p: (families.index(p[0]) if p[0] in families
                                          else len(families), p[0], p[1].name))
    legend_rows = [-(-len(panels[p]) // 2) for p in order]  # two columns a legend
    heights = [max(2.6, 0.19 * rows + 0.9) for rows in legend_rows]
    plt = _pyplot()
    fig, axes = plt.subplots(
        len(order), 1, figsize=(WIDTH_IN, sum(heights) + 0.5), layout="constrained",
        gridspec_kw={"height_ratios": heights}, squeeze=False,
    )
    for ax, (family, machine) in zip(axes[:, 0], order):
        _throughput_panel(ax, panels[(family, machine)])
        title = f"{FAMILY_TITLES.get(family, family)} on {machine.label}"
        ax.set_title(_safe(title), fontsize=10, loc="left")
    fig.suptitle(
        "Throughput against grid size (best verified configuration per size, newest run)"
    )
    return _save(fig, path)


def _throughput_panel(ax, points: dict[str, list]) -> None:
    from matplotlib.ticker import LogLocator, NullFormatter

    for i, (experiment, results) in enumerate(sorted(points.items())):
        style = {"color": f"C{i % 10}", "marker": _MARKERS[i // 10 % len(_MARKERS)]}
        verified = [r for r in results if r.verified]
        unverified = [r for r in results if not r.verified]
        best: dict[int, float] = {}
        for r in verified:
            best[r.cells] = max(best.get(r.cells, 0.0), r.rate)
        xs = sorted(best)
        ax.plot(xs, [best[x] for x in xs], linestyle=_LINES[i // 10 % len(_LINES)],
                linewidth=1.8, markersize=5, label=_short(experiment), **style)
        ax.plot([r.cells for r in verified], [r.rate for r in verified], linestyle="none",
                markersize=3, alpha=0.5, **style)
        if unverified:
            ax.plot([r.cells for r in unverified], [r.rate for r in unverified], linestyle="none",
                    markerfacecolor="none", markersize=7,
                    label=_short(experiment) + " (not verified)", **style)
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_locator(LogLocator(base=4))  # every other power of two: readable
    ax.xaxis.set_minor_locator(LogLocator(base=2))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_yscale("log")
    ax.set_xlabel("grid size (cells)")
    ax.set_ylabel("cell updates/s")
    ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=7, frameon=False, ncols=2)


def table_plot(view: TableView, path: Path) -> tuple[int, int] | None:
    """Published and measured values of the table's cells in the table's own unit (and an
    original program's, where one was measured), one row of horizontal bars per cell, so that
    no label meets another; None (no file) where no cell has a value."""
    fig = table_figure(view)
    return _save(fig, path) if fig is not None else None


def table_figure(view: TableView):
    """table_plot's figure, not yet saved; None where no cell has a value."""
    table = view.table
    def charted(c) -> bool:
        return c.published is not None or any(
            g.cells[(c.row.name, c.column.name)].value is not None for g in view.grids
        )

    cells = [
        c
        for c in view.grids[0].cells.values()
        if not c.derived and (c.unit, c.scale) == (table.unit, table.scale) and charted(c)
    ]
    if not cells:
        return None
    series = [("published", PUBLISHED_COLOUR, [(c.published, "") for c in cells])]
    for i, grid in enumerate(view.grids):
        series.extend(_measured_series(grid, cells, i, len(view.grids)))
    plt = _pyplot()
    per_cell = 0.21 * len(series)
    fig, ax = plt.subplots(
        figsize=(WIDTH_IN, 1.4 + (per_cell + 0.08) * len(cells)), layout="constrained"
    )
    height = 0.8 / len(series)
    ys = [-i for i in range(len(cells))]  # the table's order, top down
    values = []
    for k, (label, colour, bars) in enumerate(series):
        offset = 0.4 - height * (k + 0.5)  # the first series on top
        ax.barh([y + offset for y in ys], [v or 0 for v, _ in bars], height, color=colour,
                label=label)
        for y, (value, note) in zip(ys, bars):
            if value:
                values.append(value)
                ax.annotate(_safe(fmt3(value) + note), (value, y + offset), va="center",
                            ha="left", fontsize=8, color="#1d2330", xytext=(3, 0),
                            textcoords="offset points")
    ax.set_yticks(ys, [_safe(f"{c.row.name} / {c.column.name}") for c in cells], fontsize=8)
    ax.set_xscale("log")
    ax.set_xlim(min(values) / 3, max(values) * 30)  # room for the value labels
    ax.set_xlabel(_plain(table.label))
    ax.grid(True, axis="x", which="major", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)
    ax.set_title(
        _safe(f"{table.source['table']}: published and measured") + f" ({_plain(table.label)})"
    )
    return fig


def _measured_series(grid, cells, i: int, machines: int) -> list:
    """A machine's bars, ours and, where measured, an original program's, for the cells
    (keys of the first grid) of the chart."""
    mine = [grid.cells[(c.row.name, c.column.name)] for c in cells]

    def ours(c) -> bool:
        return c.status == PASSED and not c.chosen.external

    def original(c) -> float | None:  # beside ours, or alone in its cell
        return c.original_value if ours(c) else c.value if c.status == PASSED else None

    where = f"measured on {grid.machine.label}" if grid.machine else "measured here"
    colour = MEASURED_COLOUR if i == 0 else f"C{(i + 1) % 10}"
    out = [
        (_short(where, 48), colour, [(c.value if ours(c) else None, _on_other_device(c))
                                     for c in mine])
    ]
    if any(original(c) is not None for c in mine):
        out.append(
            (
                _short(f"original program, {where}", 48),
                ORIGINAL_COLOUR if i == 0 else f"C{(i + 5) % 10}",
                [(original(c), " original" + _on_other_device(c)) for c in mine],
            )
        )
    return out


def _on_other_device(cell) -> str:
    """` on <our device>` where the cell's published figure is another device's."""
    ours = cell.chosen.device_label if cell.chosen is not None else None
    published = cell.device.name if cell.device is not None else None
    return f" on {ours}" if ours and published and ours != published else ""


def figure_plot(figure: Figure, points: list[Point], path: Path) -> tuple[int, int] | None:
    """One figure file's plot: a line per series through its best point per x; None (no
    file) without points."""
    if not points:
        return None
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
            label=_wrapped(name),
        )
    if figure.ideal:
        _ideal_scaling(ax, series)
    if figure.log_x:
        ax.set_xscale("log", base=2)
    if figure.log_y:
        ax.set_yscale("log")
    ax.set_xlabel(_plain(figure.x_label))
    ax.set_ylabel(_plain(figure.y_label))
    ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.set_title(_safe(figure.title))
    return _save(fig, path)


def _ideal_scaling(ax, series: dict[str, list[Point]]) -> None:
    """Each series' ideal, x times its rate at its least x, dashed in its colour, with each
    point's efficiency against it (weak and strong scaling alike); the y axis from 0. The
    efficiencies stand in a column below each point, a row a series, so that series that
    scale alike (whose points coincide) keep their labels apart."""
    for i, (_, line) in enumerate(sorted(series.items())):
        first = min(line, key=lambda p: p.x)
        if first.x <= 0:  # x times the rate at x = 0 is no ideal
            continue
        xs = sorted({p.x for p in line})
        ax.plot(xs, [first.y * x / first.x for x in xs], "--", color=f"C{i % 10}", linewidth=1)
        for p in line:
            if p.x != first.x:
                ax.annotate(
                    f"{p.y / (first.y * p.x / first.x):.1%}",
                    (p.x, p.y),
                    textcoords="offset points",
                    xytext=(0, -15 - 11 * i),
                    ha="center",
                    fontsize=8,
                    color=f"C{i % 10}",
                )
    ax.set_ylim(bottom=0)
    ax.plot([], [], "--", color="#777777", linewidth=1, label="ideal (dashed), efficiency")


def roofline_plot(
    family: str, runs: list[Run], bounds: dict[str, Kind], path: Path
) -> tuple[int, int] | None:
    """Rate against cost per cell update for one family's verified results, one panel per
    kind of bound (instructions or bytes per update), each bound drawn as the line
    rate = measured ceiling / cost; None (no file) where no result has both."""
    panels: dict[str, dict[str, list[tuple[float, float]]]] = {}  # kind -> experiment -> pts
    ceilings: dict[str, dict[str, tuple[float, str]]] = {}  # kind -> device -> ceiling, label
    verified = [r for run in runs for r in run.results if r.verified and r.family == family]
    groups = current(verified, lambda r: r.experiment)
    machines = len({machine for machine, _ in groups})
    for (machine, experiment), results in groups.items():
        kind = bounds.get(experiment)
        for result in results if kind else []:
            try:
                share = fraction(result, kind)
            except NotConvertible:
                continue
            series = on_machine(experiment, machine, machines)
            panels.setdefault(kind.name, {}).setdefault(series, []).append(
                (share.cost, result.rate)
            )
            # A CPU's ceiling is that of the threads a result ran on: the device's line is
            # its highest, which bounds each of its points (the best at each cost is drawn).
            device = on_machine(result.device_label, machine, machines)
            threads = result.device.get("threads")
            line = (kind.measured(result), device + (f", {threads} threads" if threads else ""))
            devices = ceilings.setdefault(kind.name, {})
            devices[device] = max(devices.get(device, line), line)
    if not panels:
        return None
    plt = _pyplot()
    kinds = sorted(panels)
    fig, axes = plt.subplots(
        1, len(kinds), figsize=(WIDTH_IN, HEIGHT_IN), layout="constrained", squeeze=False
    )
    for ax, name in zip(axes[0], kinds):
        lines = {label: ceiling for ceiling, label in ceilings[name].values()}
        _roofline_panel(ax, KINDS[name], panels[name], lines)
    return _save(fig, path)


def _roofline_panel(ax, kind: Kind, points, ceilings: dict[str, float]):
    from matplotlib.ticker import NullFormatter

    costs = [x for pts in points.values() for x, _ in pts]
    low, high = min(costs) / 4, max(costs) * 4
    for i, (device, ceiling) in enumerate(sorted(ceilings.items())):
        ax.plot([low, high], [ceiling / low, ceiling / high], "--", color="#555555",
                linewidth=max(1.2 - 0.3 * i, 0.5), label=_wrapped(f"bound: {device}"))
    for i, (experiment, pts) in enumerate(sorted(points.items())):
        best: dict[float, float] = {}
        for x, y in pts:
            best[x] = max(best.get(x, 0.0), y)
        ax.plot(list(best), list(best.values()), "o", color=f"C{i % 10}", markersize=6,
                label=_wrapped(experiment))
    ax.set_xscale("log")
    ax.set_yscale("log")
    # The costs span about a decade or two: labels on the minor ticks overlap one another.
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(kind.per_update)
    ax.set_ylabel("cell updates per second")
    ax.set_title(f"{kind.name}: {kind.what}", fontsize=9)
    ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
    ax.legend(loc="lower left", fontsize=7, frameon=False)
