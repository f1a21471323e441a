"""Cost models fitted to a table's cells (a table's optional `[model]`).

`multistep` is Fujita, Nakano and Ito's model of multi-step simulation on d x d tiles (seed
003, Section 7): a launch simulates t generations of a d x d tile and keeps its clean
(d - 2t) x (d - 2t) centre, so the time per cell update is proportional to
(t + c) / (t (d - 2t)^2), where c is the cost of a launch's global-memory traffic in units
of one step's computation. Rows are t, each column gives its d. Per column, c is fitted to
the measured cells (and, for comparison, to the published ones) by least squares on the
logarithm of the time, the scale factor solved exactly for each c; the predicted best t is
the one of the table's rows that minimises the fitted cost.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .cells import PASSED, Grid
from .tables import Table

KINDS = ("multistep",)
_C_GRID = [0.0] + [10 ** (k / 100) for k in range(-300, 501)]  # 1e-3 ... 1e5


@dataclass
class Fit:
    column: str
    d: int
    source: str  # "measured" or "published"
    points: int  # cells the fit used
    c: float | None  # None with fewer than two points
    predicted_t: int | None
    best_t: int | None  # the row with the highest rate among the cells used


def _cost(t: int, d: int, c: float) -> float:
    return (t + c) / (t * (d - 2 * t) ** 2)


def _fit_c(points: list[tuple[int, float]], d: int) -> float:
    """c minimising the squared log error of time = k * cost(t, c); points are (t, rate)."""

    def error(c: float) -> float:
        logs = [math.log(1 / rate) - math.log(_cost(t, d, c)) for t, rate in points]
        mean = sum(logs) / len(logs)
        return sum((x - mean) ** 2 for x in logs)

    return min(_C_GRID, key=error)


def multistep_fits(table: Table, grid: Grid) -> list[Fit]:
    """Per modelled column, the fit to one machine's measured cells and to the published."""
    tiles = table.model["tile"]
    steps = [(row, int(row.name)) for row in table.rows if not row.derived]
    fits = []
    for column in table.columns:
        if column.name not in tiles:
            continue
        d = tiles[column.name]
        valid = [(row, t) for row, t in steps if d - 2 * t > 0]
        for source in ("measured", "published"):
            points = []
            for row, t in valid:
                cell = grid.cell(row, column)
                value = cell.value if source == "measured" and cell.status == PASSED else None
                if source == "published":
                    value = cell.published
                if value:
                    points.append((t, value))
            c = _fit_c(points, d) if len(points) >= 2 else None
            fits.append(
                Fit(
                    column=column.name,
                    d=d,
                    source=source,
                    points=len(points),
                    c=c,
                    predicted_t=(
                        min((t for _, t in valid), key=lambda t: _cost(t, d, c))
                        if c is not None
                        else None
                    ),
                    best_t=max(points, key=lambda p: p[1])[0] if points else None,
                )
            )
    return fits
