"""The report's figures, as PNG files beside the pages (no network, no JavaScript).

Each function writes one PNG (WIDTH_IN inches wide at DPI, shown at half its pixel size for
sharp lines on dense screens) and returns the size to show it at, in CSS pixels; a figure
with nothing to show is not drawn: the function writes no file and returns None.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import signal
import textwrap
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .bounds import LOP3_RATE_KEY, Kind, fraction
from .cells import PASSED, TableView
from .figures import Figure, Point
from .machines import Machine, current, fullest, on_machine
from .results import Result, Run
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


# Figures drawn inside written_together(), not yet written: (figure, path).
_pending: list[tuple[Any, Path]] | None = None


def _write(fig, path: Path) -> None:
    fig.savefig(path, dpi=DPI, metadata={"Software": None})


def _write_pending(index: int) -> None:
    _write(*_pending[index])


def _workers(figures: int) -> int:
    """Processes to write `figures` with: one where the system does not fork."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return 1
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return min(figures, cores or 1)


def _write_all(figures: int) -> None:
    workers = _workers(figures)
    if workers < 2:
        for index in range(figures):
            _write_pending(index)
        return
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                             initializer=signal.signal,
                             initargs=(signal.SIGINT, signal.SIG_IGN)) as pool:
        list(pool.map(_write_pending, range(figures)))


@contextmanager
def written_together() -> Iterator[None]:
    """The figures drawn inside are written on leaving it, side by side in forked processes
    where the system forks (laying out and encoding a figure takes most of a report's time);
    the children read them from the memory they share with this process, not from a copy.
    A child that fails or dies fails the report; Ctrl-C is the parent's to handle."""
    global _pending
    if _pending is not None:
        raise RuntimeError("written_together() is not re-entrant")
    import matplotlib

    _pending = []
    try:
        # All stay open till the end; written with the settings they were drawn with.
        with matplotlib.rc_context({"figure.max_open_warning": 0}):
            yield
            _write_all(len(_pending))
    finally:
        import matplotlib.pyplot as plt

        for fig, _ in _pending:
            plt.close(fig)
        _pending = None


def _save(fig, path: Path) -> tuple[int, int]:
    """Writes `fig` to `path` now, or on leaving written_together(); its size on the page."""
    width, height = fig.get_size_inches()
    if _pending is None:
        _write(fig, path)
        import matplotlib.pyplot as plt

        plt.close(fig)
    else:
        _pending.append((fig, path))
    return int(width * DPI) // 2, int(height * DPI) // 2


FAMILY_TITLES = {"square": "square grids", "hex": "hexagonal grids", "3d": "3D grids"}
# Ten colours, then the same ten with another marker and dashes: a panel of 30 series still
# tells every one apart.
_MARKERS, _LINES = "os^Dv", ["-", "--", "-.", ":", (0, (5, 1, 1, 1))]


def throughput_lines(runs: list[Run]) -> dict[tuple[str, Machine], dict[str, list[Result]]]:
    """The throughput figure's panels, (family, machine), and each panel's lines by experiment:
    every ok result of one run of that machine (the run that measured the most of the
    experiment's grid sizes, the newest of equals), so that a line joins the points of one run.
    Soups of the family's own density only: other densities are the density figures' problem,
    and a run started from a pattern the patterns page's."""
    ok = [r for run in runs for r in run.results
          if r.status == "ok" and r.cells and not r.pattern and r.density is None]
    panels: dict[tuple[str, Machine], dict[str, list[Result]]] = {}
    for (machine, (family, experiment)), results in fullest(
            ok, lambda r: (r.family or "other", r.experiment), lambda r: r.cells).items():
        panels.setdefault((family, machine), {})[experiment] = results
    return panels


def throughput_plot(runs: list[Run], path: Path) -> tuple[int, int] | None:
    """Cell updates per second against grid size (cells), one panel per family of grids (square,
    hex, 3D) and machine, one series per line of throughput_lines, each panel as tall as its
    legend needs: its every ok result is a point (hollow when it was not verified); the line
    joins its best verified.
    """
    panels = throughput_lines(runs)
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
        "Throughput against grid size (best verified configuration per size, one run a line)"
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
    """table_plot's figure, not yet saved; None where no cell has a value. The cells in the
    table's unit first; below them, in a panel of their own, its ratio rows and columns (a
    table whose published numbers are only ratios, such as speed-ups, shows them there)."""
    table = view.table

    def charted(c) -> bool:
        return c.published is not None or any(
            g.cells[(c.row.name, c.column.name)].value is not None for g in view.grids
        )

    first = [c for c in view.grids[0].cells.values() if charted(c)]
    panels = [
        (cells, label)
        for cells, label in (
            ([c for c in first if not c.derived and (c.unit, c.scale) == (table.unit, table.scale)],
             _plain(table.label)),
            ([c for c in first if c.derived], "ratio (\u00d7)"),
        )
        if cells
    ]
    if not panels:
        return None
    series = 1 + sum(len(_measured_series(g, first, i, len(view.grids)))
                     for i, g in enumerate(view.grids))
    heights = [1.0 + (0.21 * series + 0.08) * len(cells) for cells, _ in panels]
    plt = _pyplot()
    fig, axes = plt.subplots(len(panels), 1, figsize=(WIDTH_IN, 0.4 + sum(heights)),
                             layout="constrained", gridspec_kw={"height_ratios": heights},
                             squeeze=False)
    for ax, (cells, label) in zip(axes[:, 0], panels):
        bars = [("published", PUBLISHED_COLOUR, [(c.published, "") for c in cells])]
        for i, grid in enumerate(view.grids):
            bars.extend(_measured_series(grid, cells, i, len(view.grids)))
        _bars(ax, cells, bars, label)
    axes[0, 0].set_title(
        _safe(f"{table.source['table']}: published and measured") + f" ({_plain(table.label)})"
    )
    return fig


def _bars(ax, cells, series, label: str) -> None:
    """One row of horizontal bars per cell, a bar per series, each with its value."""
    height = 0.8 / len(series)
    ys = [-i for i in range(len(cells))]  # the table's order, top down
    values = []
    for k, (name, colour, bars) in enumerate(series):
        offset = 0.4 - height * (k + 0.5)  # the first series on top
        ax.barh([y + offset for y in ys], [v or 0 for v, _ in bars], height, color=colour,
                label=name)
        for y, (value, note) in zip(ys, bars):
            if value:
                values.append(value)
                ax.annotate(_safe(fmt3(value) + note), (value, y + offset), va="center",
                            ha="left", fontsize=8, color="#1d2330", xytext=(3, 0),
                            textcoords="offset points")
    ax.set_yticks(ys, [_safe(f"{c.row.name} / {c.column.name}") for c in cells], fontsize=8)
    ax.set_xscale("log")
    if values:
        ax.set_xlim(min(values) / 3, max(values) * 30)  # room for the value labels
    ax.set_xlabel(label)
    ax.grid(True, axis="x", which="major", color="#dddddd", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, fontsize=8)


def _measured_series(grid, cells, i: int, machines: int) -> list:
    """A machine's bars, ours and, where measured, an original program's, for the cells
    (keys of the first grid) of the chart."""
    mine = [grid.cells[(c.row.name, c.column.name)] for c in cells]

    def ours(c) -> bool:  # a derived cell has no chosen result: it divides two of ours
        return c.status == PASSED and (c.chosen is None or not c.chosen.external)

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
        # Series that coincide (two kernels of one rate) must all stay visible: each its own
        # hollow marker and dashes, the earlier drawn wider and larger beneath the later.
        ax.plot(
            [p.x for p in line],
            [p.y for p in line],
            color=f"C{i % 10}",
            linestyle=_LINES[i % len(_LINES)],
            linewidth=max(3.2 - 0.3 * i, 1.2),
            marker=_HOLLOW[i % len(_HOLLOW)],
            markerfacecolor="none",
            markeredgewidth=1.5,
            markersize=max(10 - 0.7 * i, 5),
            label=_wrapped(name, 48),
        )
        noisy = [p for p in line if p.bounds]
        if noisy:  # each point's interval (its median's, or its repetitions' range)
            below = [p.y - p.bounds[0] for p in noisy]
            above = [p.bounds[1] - p.y for p in noisy]
            ax.errorbar([p.x for p in noisy], [p.y for p in noisy], yerr=[below, above],
                        fmt="none", ecolor=f"C{i % 10}", elinewidth=1.2, capsize=3)
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


# The width of the vector registers of a Highway target, for a CPU's logic axis.
_VECTOR_BITS = {"AVX3": 512, "AVX3_DL": 512, "AVX3_ZEN4": 512, "AVX3_SPR": 512, "AVX2": 256,
                "SSE4": 128, "SSSE3": 128, "SSE2": 128, "NEON": 128, "NEON_BF16": 128}
# A bound's line: dark colours none of the points use, each with its own dashes.
_BOUND_COLOURS = ["#222222", "#b2182b", "#2166ac", "#1b7837", "#8c510a"]
_HOLLOW = "osD^vPX*"


def _panel(kind: Kind, result) -> tuple[str, str, str]:
    """The panel a result's point goes to, its title and its x axis: a GPU's 32-bit LOP3s and
    a CPU's vector instructions are not one unit, so logic has a panel of each."""
    if kind.name != "logic":
        return kind.name, f"{kind.name}: {kind.what}", kind.per_update
    if LOP3_RATE_KEY in result.device:
        return "logic GPU", "logic, GPU: 32-bit LOP3 instructions per second", (
            "32-bit LOP3 instructions per cell update")
    target = result.device.get("hwy_target", "")
    bits = _VECTOR_BITS.get(target)
    width = f"{bits}-bit {target} " if bits else (f"{target} " if target else "")
    return f"logic CPU {width}", f"logic, CPU: {width}vector instructions per second", (
        f"{width}vector instructions per cell update")


def roofline_plot(
    family: str, runs: list[Run], bounds: dict[str, Kind], path: Path
) -> tuple[int, int] | None:
    """Rate against cost per cell update for one family's verified results, one panel per
    kind of bound and instruction (a GPU's 32-bit and a CPU's vector instructions apart),
    each bound drawn as the line rate = measured ceiling / cost in a colour of its own; None
    (no file) where no result has both."""
    panels: dict[str, dict[str, list[tuple[float, float]]]] = {}  # panel -> series -> pts
    ceilings: dict[str, dict[str, tuple[float, str]]] = {}  # panel -> device -> ceiling, label
    axes_text: dict[str, tuple[str, str]] = {}  # panel -> title, x label
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
            panel, title, x_label = _panel(kind, result)
            axes_text[panel] = (title, x_label)
            series = on_machine(experiment, machine, machines)
            panels.setdefault(panel, {}).setdefault(series, []).append((share.cost, result.rate))
            # A CPU's ceiling is that of the threads a result ran on: the device's line is
            # its highest, which bounds each of its points (the best at each cost is drawn).
            device = on_machine(result.device_label, machine, machines)
            threads = result.device.get("threads")
            line = (kind.measured(result), device + (f", {threads} threads" if threads else ""))
            devices = ceilings.setdefault(panel, {})
            devices[device] = max(devices.get(device, line), line)
    if not panels:
        return None
    plt = _pyplot()
    names = sorted(panels, key=lambda p: (not p.startswith("logic GPU"), p))
    legend_rows = max(len(panels[n]) + len(ceilings[n]) for n in names)
    fig, axes = plt.subplots(
        1, len(names), figsize=(WIDTH_IN, HEIGHT_IN + 0.32 * legend_rows), layout="constrained",
        squeeze=False,
    )
    for ax, name in zip(axes[0], names):
        lines = {label: ceiling for ceiling, label in ceilings[name].values()}
        _roofline_panel(ax, axes_text[name], panels[name], lines)
    return _save(fig, path)


def _roofline_panel(ax, text: tuple[str, str], points, ceilings: dict[str, float]):
    from matplotlib.ticker import NullFormatter

    costs = [x for pts in points.values() for x, _ in pts]
    low, high = min(costs) / 4, max(costs) * 4
    for i, (device, ceiling) in enumerate(sorted(ceilings.items())):
        ax.plot([low, high], [ceiling / low, ceiling / high], color=_BOUND_COLOURS[i % 5],
                linestyle=_LINES[1 + i % 4], linewidth=1.4, label=_wrapped(f"bound: {device}"))
    for i, (experiment, pts) in enumerate(sorted(points.items())):
        best: dict[float, float] = {}
        for x, y in pts:
            best[x] = max(best.get(x, 0.0), y)
        # Hollow markers of shapes of their own, the earlier larger: series on the same
        # spot (two kernels of one cost and rate) stay visible, one around the other.
        ax.plot(list(best), list(best.values()), linestyle="none", color=f"C{i % 10}",
                marker=_HOLLOW[i % len(_HOLLOW)], markerfacecolor="none", markeredgewidth=1.6,
                markersize=max(11 - 1.5 * (i % 4), 5), label=_wrapped(experiment, 48))
    ax.set_xscale("log")
    ax.set_yscale("log")
    # The costs span about a decade or two: labels on the minor ticks overlap one another.
    ax.xaxis.set_minor_formatter(NullFormatter())
    title, x_label = text
    ax.set_xlabel(x_label)
    ax.set_ylabel("cell updates per second")
    ax.set_title(_wrapped(title, 36), fontsize=9)
    ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), fontsize=7, frameon=False)


def history_plot(history, path: Path) -> tuple[int, int] | None:
    """One machine's history (history.MachineHistory): a small panel per experiment, its
    headline configuration's rate at each commit with the interval as a band, a step beyond
    the noise marked (up green, down red); None (no file) without a series."""
    if not history.series:
        return None
    columns = 3
    rows = -(-len(history.series) // columns)
    plt = _pyplot()
    fig, axes = plt.subplots(rows, columns, figsize=(WIDTH_IN, 2.3 * rows + 0.4),
                             layout="constrained", squeeze=False)
    labels = [commit.label for commit in history.commits]
    place = {id(run): i for i, commit in enumerate(history.commits) for run in commit.runs}
    for ax, series in zip(axes.flat, history.series):
        xs = [place[id(p.run)] for p in series.points]
        giga = 1e9  # 10^9 updates/s, the unit of the configurations' list
        ax.fill_between(xs, [p.low / giga for p in series.points],
                        [p.high / giga for p in series.points], color=MEASURED_COLOUR,
                        alpha=0.25, linewidth=0)
        ax.plot(xs, [p.rate / giga for p in series.points], "-o", color=MEASURED_COLOUR,
                markersize=4)
        for x, p in zip(xs, series.points):
            if p.step:
                up = p.step == "up"
                ax.plot([x], [p.rate / giga], "^" if up else "v",
                        color="#17693a" if up else "#a8221b", markersize=10)
        ax.ticklabel_format(axis="y", useOffset=False, style="plain")
        # At least ±10 % of the rates in view: a change of 0.01 % must not fill a panel.
        low = min(p.low for p in series.points) / giga
        high = max(p.high for p in series.points) / giga
        middle = (low + high) / 2
        low, high = min(low, 0.9 * middle), max(high, 1.1 * middle)
        ax.set_ylim(low - 0.06 * (high - low), high + 0.06 * (high - low))
        ax.set_title(_short(series.experiment, 40), fontsize=9)
        ax.set_xticks(range(len(labels)), [_safe(label) for label in labels], fontsize=7,
                      rotation=30, ha="right")
        ax.set_xlim(-0.5, len(labels) - 0.5)
        ax.tick_params(axis="y", labelsize=7)
        ax.grid(True, color="#dddddd", linewidth=0.8)
    for ax in list(axes.flat)[len(history.series):]:
        ax.set_visible(False)
    fig.suptitle(_safe(f"10\u2079 cell updates/s over commits on {history.machine.label}\n"
                       "band: the median's interval; \u25b2\u25bc a step beyond it; each axis spans "
                       "\u00b110 % at least"),
                 fontsize=10)
    return _save(fig, path)


def scaling_plot(curves: dict[tuple[str, str], list[float]], hosts: tuple[int, ...],
                 path: Path) -> tuple[int, int]:
    """Predicted efficiency against hosts (scaling_page.predicted): a line per link, solid for
    strong scaling and dashed for weak."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(WIDTH_IN, HEIGHT_IN * 0.8), layout="constrained")
    colours = {}
    for (link, kind), values in curves.items():
        colour = colours.setdefault(link, f"C{len(colours)}")
        ax.plot(hosts, [100 * v for v in values], "-o" if kind == "strong" else "--s",
                color=colour, markersize=4, label=_safe(f"{link}, {kind}"))
    ax.set_xscale("log", base=2)
    ax.set_xticks(hosts, [str(n) for n in hosts])
    ax.set_xlabel("hosts (one GPU each)")
    ax.set_ylabel("efficiency (%)")
    ax.set_ylim(min(90.0, min(100 * min(v) for v in curves.values()) - 2), 100.5)
    ax.grid(True, color="#dddddd", linewidth=0.8)
    ax.legend(fontsize=8, loc="lower left")
    ax.set_title("Predicted efficiency of one universe in bands across hosts", fontsize=10)
    return _save(fig, path)
