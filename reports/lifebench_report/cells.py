"""Tying results to table cells: one grid of cells per machine, each cell the best verified
configuration of its problem in the newest run on that machine that measured it, derived
rows and columns computed from measured cells, the ratio measured / published and that ratio
normalised to the two devices' ceilings of the experiment's bound.

A cell takes only results of its problem (tables.Problem.differences); the others tied to it
are listed as other problems, never compared. A cell never takes the best across runs: older
runs of the machine are superseded, other machines have grids of their own. A derived cell
divides the two cells of one run: the cells shown where one run measured both, else the newest
run that did; where none did, the two shown, and it says so and names both. An original program's
result (an external experiment) is shown beside our reproduction, not in its place.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterator

from .bounds import Kind
from .evidence import QuotientSpread, Spread, quotient_spread, spread
from .machines import Machine, by_machine, newest
from .results import Result, Run, Tie
from .tables import Ceiling, Device, Entry, Problem, Table
from .units import RATIO_UNIT, UNITS, NotConvertible, convert

NO_TIE = "no configuration of this machine's runs is tied to this cell"
# Units that are already a fraction of the device's own ceiling: nothing to normalise.
_SELF_NORMALISED = ("%copy", "%lop3")

# Cell statuses, in the order a cell with several results prefers to show them when none passed:
# a failure must be seen, an unsupported size is only an explanation.
PASSED, FAILED, UNVERIFIED, NOT_RUN = "passed", "failed", "unverified", "not_run"


@dataclass
class Normalised:
    """Measured / published over our ceiling / theirs, for the chosen experiment's bound."""

    value: float | None = None
    why: str | None = None  # why there is no value
    kind: Kind | None = None
    theirs: Ceiling | None = None
    ours: float | None = None  # in kind.unit

    @property
    def factor(self) -> float | None:
        """How many times the published device's ceiling ours is."""
        return self.ours / self.theirs.value if self.ours and self.theirs else None


@dataclass
class RunValue:
    """A cell's value as one run measured it, and the results it comes from."""

    run: Run
    value: float
    sources: list[Result]


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
    candidates: list[Result] = field(default_factory=list)  # of the cell's problem
    others: list[Result] = field(default_factory=list)  # tied, of other problems: listed only
    original: Result | None = None  # an original program's best, beside ours (external)
    original_value: float | None = None  # its value in the cell's unit
    device: Device | None = None  # the published device
    normalised: Normalised | None = None
    notes: list[str] = field(default_factory=list)
    sources: list[Result] = field(default_factory=list)  # the results its value comes from
    superseded: list[Run] = field(default_factory=list)  # older runs of this machine and problem
    # Each run's value of the cell (its best verified configuration there), by id of the run:
    # a derived cell divides two cells' values of one run where a run measured both.
    by_run: dict[int, RunValue] = field(default_factory=dict)
    quotient: tuple[float, float] | None = None  # a derived value's numerator and denominator

    @property
    def different_runs(self) -> bool:
        """A derived value whose two sides come from different results folders."""
        return len({id(r.run) for r in self.sources}) > 1

    @property
    def derived(self) -> bool:
        return self.row.derived or self.column.derived

    @property
    def noise(self) -> Spread | QuotientSpread | None:
        """The noise shown beside a measured number: its result's, or a ratio's sides' added."""
        if self.status != PASSED:
            return None
        return quotient_spread(self.sources) if self.derived else spread(self.chosen)

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
class Grid:
    """A table's cells as one machine measured them (machine None: no result is tied)."""

    machine: Machine | None
    cells: dict[tuple[str, str], Cell]

    def cell(self, row: Entry, column: Entry) -> Cell:
        return self.cells[(row.name, column.name)]


@dataclass
class TableView:
    table: Table
    grids: list[Grid]  # one per machine, in name order
    tied: list[Result]  # every result with a tie to this table
    stray: list[tuple[Result, Tie, str]]  # ties to this table that fit no cell, with why
    hardware: list[tuple[Device, list[str]]]  # (published device, where ours were measured)
    several_runs: bool = False  # numbers then name their results folder too
    bounds: dict[str, Kind] = field(default_factory=dict)  # experiment -> its bound

    def all_cells(self) -> Iterator[Cell]:
        return (cell for grid in self.grids for cell in grid.cells.values())

    @cached_property
    def published_only(self) -> list[str]:
        """Columns of other published devices (with a `hardware` key) that no result is tied
        to, and ratio columns over one of them: the measured grids leave them out, for no run
        of ours measures there. A column of an algorithm or a problem always stays ("not run"
        where nothing is tied), and every column stays where no result is tied to the table."""
        tied = {
            c.column.name
            for c in self.all_cells()
            if not c.derived and (c.candidates or c.others)
        }
        if not tied:
            return []
        other = {c.name for c in self.table.columns if c.hardware and c.name not in tied}
        return [
            c.name
            for c in self.table.columns
            if c.name in other or (c.derived and any(name in other for name in c.ratio))
        ]

    @property
    def measured_columns(self) -> list[Entry]:
        """The columns of the measured, ratio and normalised grids."""
        return [c for c in self.table.columns if c.name not in self.published_only]

    def counts(self) -> Counter:
        """Statuses of the measured (not derived) cells of every machine's grid,
        published-only columns left out."""
        return Counter(
            cell.status
            for cell in self.all_cells()
            if not cell.derived and cell.column.name not in self.published_only
        )


def where(result: Result, several_runs: bool) -> str:
    """`<device> on <machine>`, with the results folder when several are shown."""
    place = f"{result.device_label} on {result.run.machine.label}"
    return place + (f", results {result.run.label}" if several_runs else "")


def table_view(table: Table, runs: list[Run], bounds: dict[str, Kind] | None = None) -> TableView:
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

    machines = by_machine(tied)
    grids = [
        Grid(machine, _cells(table, by_cell, set(map(id, results)), bounds or {}))
        for machine, results in machines.items()
    ] or [Grid(None, _cells(table, {}, set(), bounds or {}))]
    several = len(runs) > 1
    return TableView(
        table=table,
        grids=grids,
        tied=tied,
        stray=stray,
        hardware=_hardware(table, grids, several),
        several_runs=several,
        bounds=bounds or {},
    )


def _cells(
    table: Table, by_cell: dict[tuple[str, str], list[Result]], mine: set[int],
    bounds: dict[str, Kind],
) -> dict[tuple[str, str], Cell]:
    """One machine's grid: `mine` are the ids of its results."""
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
                cell.device = table.device(row, column)
                tied = by_cell.get((row.name, column.name), [])
                _measure(cell, [r for r in tied if id(r) in mine])
                cell.normalised = _normalise(cell, bounds)
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
    return cells


def _measure(cell: Cell, tied: list[Result]):
    """The cell's value from one machine's results of its problem, those of the newest run
    that has any; an original program's only where no reproduction of ours is tied."""
    same = [r for r in tied if not cell.problem.differences(r)]
    cell.others = sorted(
        (r for r in tied if cell.problem.differences(r)),
        key=lambda r: (not r.verified, -(r.rate or 0)),
    )
    ours, older = newest(r for r in same if not r.external)
    originals, older_originals = newest(r for r in same if r.external)
    cell.superseded = older if ours else older_originals
    _choose(cell, ours or originals)
    cell.by_run = _by_run(cell, [r for r in same if not r.external])
    if same and not cell.problem.published:
        cell.notes.insert(0, f"no published problem: {_ours(cell.problem)}")
    if not same:
        cell.reason = (
            f"no configuration of this problem is tied; {len(cell.others)} of other "
            "problems below"
            if cell.others
            else NO_TIE
        )
    best = [r for r in originals if r.verified] if ours else []
    for original in sorted(best, key=lambda r: r.rate, reverse=True):
        try:
            cell.original_value = _value(cell, original)
        except NotConvertible:
            continue
        cell.original = original
        break


def _by_run(cell: Cell, results: list[Result]) -> dict[int, RunValue]:
    """Each run's best verified value of the cell among `results` (its problem's)."""
    values: dict[int, RunValue] = {}
    for result in sorted((r for r in results if r.verified), key=lambda r: r.rate, reverse=True):
        if id(result.run) in values:
            continue
        try:
            values[id(result.run)] = RunValue(result.run, _value(cell, result), [result])
        except NotConvertible:
            continue
    return values


def _value(cell: Cell, result: Result) -> float:
    """A verified result in the cell's unit (and phase); NotConvertible says why not."""
    value = convert(
        cell.unit,
        cell.scale,
        cell_updates_per_second=result.rate,
        bytes_per_second=result.bytes_per_second,
        cells=cell.problem.cells,
        generations=cell.problem.generations,
        device=result.device,
    )
    return value * (result.phase_fraction(cell.phase) if cell.phase else 1.0)


def _ours(problem: Problem) -> str:
    """The table's problem where the source states none, e.g. "ours is 32768x32768, torus"."""
    given = [problem.shape]
    if problem.boundary:
        given.append(problem.boundary)
    if problem.any_generations:
        given.append("any generation count")
    else:
        given.append(f"{problem.generations} generations")
    return "ours is " + ", ".join(given)


def _choose(cell: Cell, results: list[Result]):
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
        cell.notes.append(f"{len(results)} configurations of one run ({detail})")

    verified = sorted((r for r in results if r.verified), key=lambda r: r.rate, reverse=True)
    unconvertible = None
    for result in verified:
        try:
            value = _value(cell, result)
        except NotConvertible as e:
            unconvertible = unconvertible or (result, str(e))
            continue
        cell.status, cell.value, cell.chosen = PASSED, value, result
        cell.sources = [result]
        if len(results) > 1:
            cell.notes[-1] = "best of " + cell.notes[-1]
        cell.notes.extend(_problem_notes(cell.problem, result, cell.unit))
        if cell.phase:
            share = result.phase_fraction(cell.phase)
            cell.notes.append(f"{cell.phase}: {100 * share:.3g}% of the timed run")
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
    """A result of the cell's problem may differ only in what the problem leaves open: its
    generation count, where the table compares any; then the rate is converted."""
    if result.generations is None or result.generations == problem.generations:
        return []
    note = f"{result.generations} generations, the problem {problem.generations}"
    if unit in UNITS and unit not in ("updates/s", "B/s") + _SELF_NORMALISED:
        note += f" (converted to {problem.generations})"
    return [note]


def _normalise(cell: Cell, bounds: dict[str, Kind]) -> Normalised | None:
    """The raw ratio over our ceiling / theirs; None where there is no raw ratio."""
    if cell.ratio is None or cell.chosen is None or cell.unit in _SELF_NORMALISED:
        return None
    result = cell.chosen
    if cell.device is None:
        return Normalised(why="the table names no published device for this cell")
    kind = bounds.get(result.experiment)
    if kind is None:
        return Normalised(why=f"{result.experiment}'s README names no bound")
    theirs = cell.device.ceilings.get(kind.name)
    if theirs is None:
        return Normalised(
            why=f"the table gives no {kind.name} ceiling for {cell.device.name}", kind=kind
        )
    try:
        ours = kind.peak(result)
    except NotConvertible as e:
        return Normalised(why=f"our {kind.name} ceiling is not recorded: {e}", kind=kind)
    factor = ours / theirs.value
    faster = UNITS[cell.unit].higher_is_better
    value = cell.ratio / factor if faster else cell.ratio * factor
    return Normalised(value=value, kind=kind, theirs=theirs, ours=ours)


def _derive(cell: Cell, numerator: Cell, denominator: Cell):
    """numerator / denominator: of the cells shown where one run gave both; else of the
    newest run that measured both, where there is one; else of the two runs, named."""
    parts = (numerator, denominator)
    names = [c.row.name if c.column is cell.column else c.column.name for c in parts]
    pairs = {
        key: (n, d)
        for key, n in numerator.by_run.items()
        if (d := denominator.by_run.get(key)) is not None
    }
    cell.by_run = {
        key: RunValue(n.run, n.value / d.value, n.sources + d.sources)
        for key, (n, d) in pairs.items()
    }
    if all(c.status == PASSED for c in parts):
        cell.status = PASSED
        _divide(cell, numerator.value, denominator.value, numerator.sources + denominator.sources)
        cell.notes.append(f"{names[0]} / {names[1]}")
        shown = f"{names[0]} {_runs(numerator)}, {names[1]} {_runs(denominator)}"
        if cell.different_runs and pairs:
            n, d = max(pairs.values(), key=lambda nd: (nd[0].run.started, nd[0].run.label))
            _divide(cell, n.value, d.value, n.sources + d.sources)
            cell.notes.append(
                f"both of one run, {cell.sources[0].source}: {n.value:.4g} / {d.value:.4g}, the "
                f"newest run that measured both (the cells shown: {shown})"
            )
        elif cell.different_runs:
            cell.notes.append(f"different runs: {shown}")
        return
    missing = [
        f"{name} {c.status.replace('_', ' ')}"
        for name, c in zip(names, parts)
        if c.status != PASSED
    ]
    cell.status = FAILED if any(c.status in (FAILED, UNVERIFIED) for c in parts) else NOT_RUN
    cell.reason = f"needs {names[0]} and {names[1]} measured ({'; '.join(missing)})"


def _divide(cell: Cell, numerator: float, denominator: float, sources: list[Result]):
    cell.quotient, cell.sources = (numerator, denominator), sources
    cell.value = numerator / denominator


def _runs(cell: Cell) -> str:
    """Where a cell's values come from: `<machine> · <folder> @ <commit>`, each run once."""
    sources = list(dict.fromkeys(r.source for r in cell.sources))
    return " and ".join(sources)


def _hardware(table: Table, grids: list[Grid], several_runs: bool):
    """Per published device, where the cells that name it were measured (device, machine
    and, with several results folders, which); an entry of the results' `device` named as
    the key (storage) comes from every cell."""
    rows = []
    for key, device in table.hardware.items():
        ours: list[str] = []
        for cell in (c for grid in grids for c in grid.cells.values()):
            if cell.status != PASSED:  # a failure or a refusal was measured nowhere
                continue
            for result in (cell.chosen, cell.original):
                if result is None:
                    continue
                values = [result.device.get(key)]
                if key in (cell.row.hardware, cell.column.hardware):
                    values.insert(0, where(result, several_runs))
                for value in values:
                    if value and value not in ours:
                        ours.append(value)
        rows.append((device, ours))
    return rows
