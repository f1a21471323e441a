"""Tying results to table cells: the best verified result of each cell, derived rows and
columns computed from measured cells, and the ratio measured / published.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .results import Result, Run, Tie
from .tables import Entry, Problem, Table
from .units import RATIO_UNIT, UNITS, NotConvertible, convert

NO_TIE = "no configuration of this run is tied to this cell"

# Cell statuses, in the order a cell with several results prefers to show them when none passed:
# a failure must be seen, an unsupported size is only an explanation.
PASSED, FAILED, UNVERIFIED, NOT_RUN = "passed", "failed", "unverified", "not_run"


@dataclass
class Cell:
    row: Entry
    column: Entry
    unit: str
    scale: float
    label: str
    problem: Problem | None
    published: float | None
    phase: str | None = None  # the cell is this phase's share of the run's time
    status: str = NOT_RUN
    value: float | None = None  # measured, in the cell's unit; only when status is passed
    reason: str | None = None  # why there is no number
    chosen: Result | None = None
    candidates: list[Result] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def derived(self) -> bool:
        return self.row.derived or self.column.derived

    @property
    def ratio(self) -> float | None:
        """Measured / published."""
        if self.value is None or self.published is None:
            return None
        return self.value / self.published

    @property
    def better(self) -> bool | None:
        """Whether the measurement beats the published number; None for a plain ratio."""
        if self.ratio is None or self.unit == RATIO_UNIT:
            return None
        return self.ratio >= 1 if UNITS[self.unit].higher_is_better else self.ratio <= 1


@dataclass
class TableView:
    table: Table
    cells: dict[tuple[str, str], Cell]
    tied: list[Result]  # every result with a tie to this table
    stray: list[tuple[Result, Tie, str]]  # ties to this table that fit no cell, with why
    hardware: list[tuple[str, str, list[str]]]  # (key, published, ours)

    def cell(self, row: Entry, column: Entry) -> Cell:
        return self.cells[(row.name, column.name)]

    def counts(self) -> Counter:
        """Statuses of the measured (not derived) cells."""
        return Counter(cell.status for cell in self.cells.values() if not cell.derived)


def compare(table: Table, runs: list[Run]) -> TableView:
    tied = [r for run in runs for r in run.results if any(t.table == table.stem for t in r.ties)]
    stray: list[tuple[Result, Tie, str]] = []
    by_cell: dict[tuple[str, str], list[Result]] = {}
    for result in tied:
        for tie in (t for t in result.ties if t.table == table.stem):
            row, column = table.row(tie.row), table.column(tie.column)
            if row is None or column is None:
                missing = [f"row '{tie.row}'"] if row is None else []
                missing += [f"column '{tie.column}'"] if column is None else []
                stray.append((result, tie, f"the table has no {' and no '.join(missing)}"))
            elif row.derived or column.derived:
                stray.append(
                    (result, tie, "tied to a ratio, which is computed from the measured cells")
                )
            else:
                by_cell.setdefault((row.name, column.name), []).append(result)

    cells: dict[tuple[str, str], Cell] = {}
    for row in table.rows:
        for column in table.columns:
            unit, scale, label = table.cell_unit(row, column)
            derived = row.derived or column.derived
            cell = Cell(
                row=row,
                column=column,
                unit=unit,
                scale=scale,
                label=label,
                problem=None if derived else table.cell_problem(row, column),
                published=table.published(row, column),
                phase=None if derived else table.cell_phase(row, column),
            )
            if not derived:
                _measure(cell, by_cell.get((row.name, column.name), []))
            cells[(row.name, column.name)] = cell
    # Derived columns of measured rows first: a derived row may divide them in turn.
    for cell in cells.values():
        if cell.column.derived and not cell.row.derived:
            num, den = cell.column.ratio
            _derive(cell, cells[(cell.row.name, num)], cells[(cell.row.name, den)])
    for cell in cells.values():
        if cell.row.derived:
            num, den = cell.row.ratio
            _derive(cell, cells[(num, cell.column.name)], cells[(den, cell.column.name)])

    return TableView(
        table=table, cells=cells, tied=tied, stray=stray, hardware=_hardware(table, cells, runs)
    )


def _measure(cell: Cell, results: list[Result]):
    cell.candidates = results
    if not results:
        cell.reason = NO_TIE
        return
    if len(results) > 1:
        counts = Counter(
            "verified" if r.verified else r.status if r.status != "ok" else "unverified"
            for r in results
        )
        detail = ", ".join(f"{n} {what}" for what, n in sorted(counts.items()))
        cell.notes.append(f"{len(results)} configurations ({detail})")

    verified = sorted((r for r in results if r.verified), key=lambda r: r.rate, reverse=True)
    unconvertible = None
    for result in verified:
        try:
            value = convert(
                cell.unit,
                cell.scale,
                cell_updates_per_second=result.rate,
                bytes_per_second=result.bytes_per_second,
                cells=cell.problem.cells,
                generations=cell.problem.generations,
                device=result.device,
            )
            fraction = result.phase_fraction(cell.phase) if cell.phase else 1.0
            value *= fraction
        except NotConvertible as e:
            unconvertible = unconvertible or (result, str(e))
            continue
        cell.status, cell.value, cell.chosen = PASSED, value, result
        if len(results) > 1:
            cell.notes[-1] = "best of " + cell.notes[-1]
        cell.notes.extend(_problem_notes(cell.problem, result, cell.unit))
        if cell.phase:
            cell.notes.append(f"{cell.phase}: {100 * fraction:.3g}% of the timed run")
        return
    if unconvertible:
        cell.status, cell.chosen = NOT_RUN, unconvertible[0]
        cell.reason = f"not measurable in {cell.unit}: {unconvertible[1]}"
        return

    def rank(r: Result) -> int:
        if r.status == "failed":
            return 0 if r.verification == "failed" else 1
        return {"ok": 2, "unsupported": 3, "unavailable": 4}[r.status]

    chosen = min(results, key=rank)
    cell.chosen = chosen
    if chosen.status == "failed":
        cell.status, cell.reason = FAILED, chosen.why_not
    elif chosen.status == "ok":
        cell.status, cell.reason = UNVERIFIED, chosen.why_not
    else:
        cell.status, cell.reason = NOT_RUN, f"{chosen.status}: {chosen.why_not}"


def _problem_notes(problem: Problem, result: Result, unit: str) -> list[str]:
    """What differs between the measured and the published problem (the rate is compared anyway)."""
    notes = []
    if result.rule and problem.rule and result.rule != problem.rule:
        notes.append(f"rule {result.rule}, published {problem.rule}")
    if result.boundary and problem.boundary and result.boundary != problem.boundary:
        notes.append(f"boundary {result.boundary}, published {problem.boundary}")
    if result.cells is not None and result.cells != problem.cells:
        notes.append(f"grid {result.shape or result.cells}, published {problem.shape}")
    if result.generations is not None and result.generations != problem.generations:
        notes.append(f"{result.generations} generations, published {problem.generations}")
    if notes and unit != "updates/s" and unit != "B/s":
        notes.append(f"converted to {problem.shape}, {problem.generations} generations")
    return notes


def _derive(cell: Cell, numerator: Cell, denominator: Cell):
    parts = (numerator, denominator)
    names = [c.row.name if c.column is cell.column else c.column.name for c in parts]
    if all(c.status == PASSED for c in parts):
        cell.status, cell.value = PASSED, numerator.value / denominator.value
        cell.notes.append(f"{names[0]} / {names[1]}")
        return
    missing = [
        f"{name} {c.status.replace('_', ' ')}"
        for name, c in zip(names, parts)
        if c.status != PASSED
    ]
    cell.status = FAILED if any(c.status in (FAILED, UNVERIFIED) for c in parts) else NOT_RUN
    cell.reason = f"needs {names[0]} and {names[1]} measured ({'; '.join(missing)})"


def _hardware(table: Table, cells: dict[tuple[str, str], Cell], runs: list[Run]):
    rows = []
    for key, published in table.hardware.items():
        ours: list[str] = []
        for cell in cells.values():
            if cell.chosen is None:
                continue
            # Device names come from the cells run on that hardware; an entry of the results'
            # `device` named as the key (storage) from every cell.
            values = [cell.chosen.device.get(key)]
            if key in (cell.row.hardware, cell.column.hardware):
                values.insert(0, cell.chosen.device_name)
            for value in values:
                if value and value not in ours:
                    ours.append(value)
        if "cpu" in key.lower():
            for run in runs:
                cpu = run.section("host").get("cpu")
                if isinstance(cpu, str) and cpu not in ours:
                    ours.append(cpu)
        rows.append((key, published, ours))
    return rows
