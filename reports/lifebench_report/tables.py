"""Published tables: reading and validating reports/tables/*.toml (schema in reports/README.md).

Validation is strict: an unknown field, a wrong type, a row of the wrong length or a ratio
naming an unknown row stops the generator with one line naming the file and the field, so
that a typo never turns into a silently empty report.
"""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bounds import KINDS
from .errors import ReportError
from .units import RATIO_UNIT, TIME_UNITS, UNITS, unit_label

NO_VALUE = "-"  # a cell the paper leaves empty
_STEM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
_SHAPE = re.compile(r"^[1-9][0-9]*(x[1-9][0-9]*){1,2}$")

_TABLE_KEYS = {
    "title",
    "source",
    "unit",
    "scale",
    "unit_label",
    "problem",
    "hardware",
    "columns",
    "rows",
    "notes",
    "model",
}
# The document a table comes from, as a reader cites it: authors, title, venue or site, year
# and link, each given where the document states it; seed names its copy in shared/seeds/.
_SOURCE_KEYS = {"seed", "table", "authors", "title", "venue", "year", "url", "note"}
_PROBLEM_KEYS = {"rule", "shape", "boundary", "generations", "density", "description"}
# Only in the table's [problem]: what of it the source does not give, and whether a run of
# another generation count measures its rate.
_TABLE_PROBLEM_KEYS = _PROBLEM_KEYS | {"not_published", "any_generations"}
_MATCHED = ("rule", "shape", "boundary", "generations", "density")  # what not_published may name
_DEVICE_KEYS = {"name", *KINDS}
_CEILING_KEYS = {"value", "unit", "source"}
_COLUMN_KEYS = {
    "name",
    "group",
    "hardware",
    "problem",
    "unit",
    "scale",
    "unit_label",
    "ratio",
    "note",
    "phase",
}
_ROW_KEYS = _COLUMN_KEYS - {"group"} | {"published"}
_BOUNDARIES = ("torus", "dead")


@dataclass(frozen=True)
class Problem:
    """The workload a published number was measured on; a result fills the cell only when
    it ran this problem (`differences`)."""

    rule: str | None
    shape: str
    boundary: str | None
    generations: int
    description: str | None = None
    density: float | None = None  # the soup's; None: the family's own
    not_published: frozenset[str] = frozenset()  # keys whose value is ours, not the source's
    any_generations: str | None = None  # why any generation count measures the same rate

    @property
    def cells(self) -> int:
        return math.prod(int(n) for n in self.shape.split("x"))

    @property
    def published(self) -> bool:
        """Whether the source states the grid and the generations it measured."""
        return not {"shape", "generations"} & self.not_published

    def differences(self, result) -> list[str]:
        """What of the result's problem is not this one, e.g. "grid 256x256" (empty: the
        same problem). Keys this problem leaves open (no rule, any generations) match all."""
        out = []
        if self.rule and result.rule != self.rule:
            out.append(f"rule {result.rule or '?'}")
        if self.boundary and result.boundary != self.boundary:
            out.append(f"boundary {result.boundary or '?'}")
        if (result.shape != self.shape) if result.shape else (result.cells != self.cells):
            out.append(f"grid {result.shape or result.cells}")
        if not self.any_generations and result.generations != self.generations:
            out.append(f"{result.generations} generations")
        if not _same_density(result.density, self.density):
            out.append(f"soup density {result.density or 'default'}")
        if result.pattern:
            out.append(f"pattern {result.pattern}")
        return out

    def golly(self) -> str | None:
        """`B3/S23:T16384,16384`, the form results carry in `problem`; None without a rule."""
        if not self.rule or not self.boundary:
            return None
        letter = "T" if self.boundary == "torus" else "P"
        return f"{self.rule}:{letter}{self.shape.replace('x', ',')}"


def _same_density(a: float | None, b: float | None) -> bool:
    return a == b or (a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9))


@dataclass(frozen=True)
class Ceiling:
    """A device's peak of one kind of bound (bounds.py), with the document it comes from."""

    value: float
    unit: str
    source: str


@dataclass(frozen=True)
class Device:
    """A published device ([hardware] entry): its name and the ceilings the table gives."""

    key: str
    name: str
    ceilings: dict[str, Ceiling] = field(default_factory=dict)  # by bound kind


@dataclass
class Entry:
    """One row or one column of a table."""

    name: str
    group: str | None = None
    hardware: str | None = None
    problem: dict[str, Any] = field(default_factory=dict)
    unit: str | None = None
    scale: float | None = None
    unit_label: str | None = None
    ratio: tuple[str, str] | None = None  # (numerator, denominator): a derived entry
    note: str | None = None
    phase: str | None = None  # a phase of the results' timing.phases: its share of the time
    published: list[float | None] = field(default_factory=list)  # rows only

    @property
    def derived(self) -> bool:
        return self.ratio is not None


@dataclass
class Table:
    stem: str
    path: Path
    title: str
    source: dict[str, str]
    unit: str
    scale: float
    label: str
    problem: dict[str, Any]
    hardware: dict[str, Device]
    columns: list[Entry]
    rows: list[Entry]
    notes: str | None = None
    model: dict[str, Any] | None = None  # {"kind": ..., "tile": {column: d}} (models.py)

    @property
    def page(self) -> str:
        return f"{self.stem}.html"

    def row(self, name: str) -> Entry | None:
        return next((r for r in self.rows if r.name == name), None)

    def column(self, name: str) -> Entry | None:
        return next((c for c in self.columns if c.name == name), None)

    def cell_problem(self, row: Entry, column: Entry) -> Problem:
        """The table's problem, overridden by the column's, then by the row's."""
        merged = {**self.problem, **column.problem, **row.problem}
        return Problem(
            rule=merged.get("rule"),
            shape=merged["shape"],
            boundary=merged.get("boundary"),
            generations=merged["generations"],
            description=merged.get("description"),
            density=merged.get("density"),
            not_published=frozenset(self.problem.get("not_published", ())),
            any_generations=self.problem.get("any_generations"),
        )

    def device(self, row: Entry, column: Entry) -> Device | None:
        """The published device of a cell: its row's [hardware] key, else its column's."""
        key = row.hardware or column.hardware
        return self.hardware.get(key) if key else None

    def cell_unit(self, row: Entry, column: Entry) -> tuple[str, float, str]:
        """(unit, scale, label) of a cell; a derived row or column is a plain ratio."""
        if row.derived or column.derived:
            return RATIO_UNIT, 1.0, unit_label(RATIO_UNIT, 1.0)
        for entry in (row, column):
            if entry.unit is not None:
                scale = entry.scale if entry.scale is not None else 1.0
                return entry.unit, scale, entry.unit_label or unit_label(entry.unit, scale)
        return self.unit, self.scale, self.label

    def cell_phase(self, row: Entry, column: Entry) -> str | None:
        """The phase a cell shows (the row's, else the column's), or None for the whole run."""
        return row.phase or column.phase

    def published(self, row: Entry, column: Entry) -> float | None:
        return row.published[self.columns.index(column)]


def load_tables(folder: Path) -> list[Table]:
    """Every *.toml of `folder`, sorted by name; a missing or empty folder is an error."""
    if not folder.is_dir():
        raise ReportError(f"tables folder {folder} does not exist")
    paths = sorted(folder.glob("*.toml"))
    if not paths:
        raise ReportError(f"tables folder {folder} holds no *.toml table")
    return [load_table(path) for path in paths]


def load_table(path: Path) -> Table:
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ReportError(f"{path}: invalid TOML: {e}") from None
    except OSError as e:
        raise ReportError(f"{path}: cannot read: {e.strerror}") from None
    return _Validator(path).table(data)


class _Validator:
    def __init__(self, path: Path):
        self.path = path

    def fail(self, where: str, message: str) -> ReportError:
        return ReportError(f"{self.path}: {where}: {message}")

    def keys(self, where: str, data: dict, allowed: set[str], required: tuple[str, ...] = ()):
        for key in data:
            if key not in allowed:
                raise self.fail(
                    where, f"unknown field '{key}' (allowed: {', '.join(sorted(allowed))})"
                )
        for key in required:
            if key not in data:
                raise self.fail(where, f"missing field '{key}'")

    def string(self, where: str, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"expected a non-empty string, got {value!r}")
        return value

    def number(self, where: str, value: Any) -> float:
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            raise self.fail(where, f"expected a number, got {value!r}")
        return float(value)

    def table(self, data: dict) -> Table:
        stem = self.path.stem
        if not _STEM.match(stem):
            raise self.fail(
                "file name",
                f"'{stem}' must be letters, digits, '.', '_' or '-' "
                "(it names the page and the table of the results' ties)",
            )
        self.keys(
            "table", data, _TABLE_KEYS, ("title", "source", "unit", "problem", "columns", "rows")
        )
        title = self.string("title", data["title"])
        source = self.source(data["source"])
        unit, scale, label = self.unit("table", data, required=True)
        problem = self.problem(
            "problem", data["problem"], required=("shape", "generations"), table=True
        )
        hardware = self.hardware(data.get("hardware", {}))
        columns = self.entries("columns", data["columns"], _COLUMN_KEYS, hardware)
        rows = self.entries("rows", data["rows"], _ROW_KEYS, hardware)
        notes = self.string("notes", data["notes"]) if "notes" in data else None
        for key in ("unit", "phase"):
            if any(getattr(c, key) for c in columns) and any(
                getattr(r, key) for r in rows if not r.derived
            ):
                raise self.fail(key, "set either on rows or on columns, not on both")
        self.ratios("rows", rows)
        self.ratios("columns", columns)
        for row in rows:
            row.published = self.published(row, data_row=row.published, columns=columns)
        table = Table(
            stem=stem,
            path=self.path,
            title=title,
            source=source,
            unit=unit,
            scale=scale,
            label=label,
            problem=problem,
            hardware=hardware,
            columns=columns,
            rows=rows,
            notes=notes,
            model=self.model(data["model"], rows, columns) if "model" in data else None,
        )
        self.phases(table)
        return table

    def phases(self, table: Table):
        """A phase is a share of the run's time: its cells must be in a time unit."""
        for row in (r for r in table.rows if not r.derived):
            for column in (c for c in table.columns if not c.derived):
                phase = table.cell_phase(row, column)
                unit = table.cell_unit(row, column)[0]
                if phase and unit not in TIME_UNITS:
                    raise self.fail(
                        f"rows '{row.name}' / columns '{column.name}'",
                        f"phase '{phase}' needs a time unit ({', '.join(TIME_UNITS)}), "
                        f"the cell is in {unit!r}",
                    )

    def model(self, value: Any, rows: list[Entry], columns: list[Entry]) -> dict[str, Any]:
        """`[model]`: kind = "multistep" and tile = {column = d}; rows are steps t."""
        if not isinstance(value, dict):
            raise self.fail("model", 'expected a table {kind = "multistep", tile = {...}}')
        self.keys("model", value, {"kind", "tile"}, ("kind", "tile"))
        if value["kind"] != "multistep":
            raise self.fail("model.kind", f"unknown model {value['kind']!r} (known: multistep)")
        tile = value["tile"]
        if not isinstance(tile, dict) or not tile:
            raise self.fail("model.tile", "expected a table of column name = tile size d")
        names = {c.name for c in columns}
        for name, d in tile.items():
            if name not in names:
                raise self.fail("model.tile", f"no column named '{name}'")
            if isinstance(d, bool) or not isinstance(d, int) or d <= 2:
                raise self.fail(f"model.tile.{name}", f"expected an integer above 2, got {d!r}")
        for row in rows:
            if not row.derived and not (row.name.isdigit() and int(row.name) > 0):
                raise self.fail(
                    f"rows '{row.name}'", "a multistep model's rows are steps t: positive integers"
                )
        return {"kind": "multistep", "tile": dict(tile)}

    def source(self, value: Any) -> dict[str, str]:
        if not isinstance(value, dict):
            raise self.fail("source", "expected a table {seed = ..., table = ...}")
        self.keys("source", value, _SOURCE_KEYS, ("seed", "table"))
        return {k: self.string(f"source.{k}", v) for k, v in value.items()}

    def unit(self, where: str, data: dict, required: bool) -> tuple[str | None, float, str | None]:
        if "unit" not in data:
            if required:
                raise self.fail(where, "missing field 'unit'")
            for key in ("scale", "unit_label"):
                if key in data:
                    raise self.fail(where, f"'{key}' needs 'unit' beside it")
            return None, 1.0, None
        unit = data["unit"]
        if unit not in UNITS:
            raise self.fail(f"{where}.unit", f"unknown unit {unit!r} (known: {', '.join(UNITS)})")
        scale = self.number(f"{where}.scale", data["scale"]) if "scale" in data else 1.0
        if scale <= 0:
            raise self.fail(f"{where}.scale", "must be positive")
        label = (
            self.string(f"{where}.unit_label", data["unit_label"])
            if "unit_label" in data
            else unit_label(unit, scale)
        )
        return unit, scale, label

    def problem(
        self, where: str, value: Any, required: tuple[str, ...] = (), table: bool = False
    ) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, "expected a table {shape = ..., generations = ...}")
        self.keys(where, value, _TABLE_PROBLEM_KEYS if table else _PROBLEM_KEYS, required)
        out: dict[str, Any] = {}
        for key, item in value.items():
            if key == "generations":
                if isinstance(item, bool) or not isinstance(item, int) or item <= 0:
                    raise self.fail(
                        f"{where}.generations", f"expected a positive integer, got {item!r}"
                    )
                out[key] = item
                continue
            if key == "density":
                out[key] = self.number(f"{where}.density", item)
                if not 0 < out[key] <= 1:
                    raise self.fail(f"{where}.density", f"expected a number in (0, 1], got {item}")
                continue
            if key == "not_published":
                if not isinstance(item, list) or not all(k in _MATCHED for k in item):
                    raise self.fail(
                        f"{where}.not_published",
                        f"expected a list of {', '.join(_MATCHED)}, got {item!r}",
                    )
                out[key] = list(item)
                continue
            out[key] = self.string(f"{where}.{key}", item)
        if "shape" in out and not _SHAPE.match(out["shape"]):
            raise self.fail(f"{where}.shape", f"expected WxH or WxHxD, got {out['shape']!r}")
        if "boundary" in out and out["boundary"] not in _BOUNDARIES:
            raise self.fail(f"{where}.boundary", f"expected torus or dead, got {out['boundary']!r}")
        return out

    def hardware(self, value: Any) -> dict[str, Device]:
        """key = "description", or [hardware.key] with name and the device's ceilings, each
        {value, unit, source}: a ceiling without its unit or its source is refused."""
        if not isinstance(value, dict):
            raise self.fail("hardware", 'expected a table of key = "description" or [hardware.key]')
        devices = {}
        for key, item in value.items():
            where = f"hardware.{key}"
            if not isinstance(item, dict):
                devices[key] = Device(key, self.string(where, item))
                continue
            self.keys(where, item, _DEVICE_KEYS, ("name",))
            ceilings = {}
            for kind in (k for k in KINDS if k in item):
                ceiling = item[kind]
                at = f"{where}.{kind}"
                if not isinstance(ceiling, dict):
                    raise self.fail(at, "expected { value = ..., unit = ..., source = ... }")
                self.keys(at, ceiling, _CEILING_KEYS, ("value", "unit", "source"))
                unit = self.string(f"{at}.unit", ceiling["unit"])
                if unit != KINDS[kind].unit:
                    raise self.fail(
                        f"{at}.unit", f"a {kind} ceiling is in {KINDS[kind].unit}, not {unit!r}"
                    )
                number = self.number(f"{at}.value", ceiling["value"])
                if number <= 0:
                    raise self.fail(f"{at}.value", "must be positive")
                source = self.string(f"{at}.source", ceiling["source"])
                ceilings[kind] = Ceiling(number, unit, source)
            devices[key] = Device(key, self.string(f"{where}.name", item["name"]), ceilings)
        return devices

    def entries(self, where: str, value: Any, allowed: set[str], hardware: dict) -> list[Entry]:
        if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
            raise self.fail(where, f"expected one or more [[{where}]] tables")
        entries = []
        for i, item in enumerate(value):
            name = item.get("name")
            at = f"{where}[{i}]" if not isinstance(name, str) else f"{where} '{name}'"
            self.keys(at, item, allowed, ("name", "published") if where == "rows" else ("name",))
            entry = Entry(name=self.string(f"{at}.name", name))
            if any(e.name == entry.name for e in entries):
                raise self.fail(at, "duplicate name")
            if "group" in item:
                entry.group = self.string(f"{at}.group", item["group"])
            if "note" in item:
                entry.note = self.string(f"{at}.note", item["note"])
            if "phase" in item:
                entry.phase = self.string(f"{at}.phase", item["phase"])
            if "hardware" in item:
                entry.hardware = self.string(f"{at}.hardware", item["hardware"])
                if entry.hardware not in hardware:
                    raise self.fail(
                        f"{at}.hardware", f"'{entry.hardware}' is not a key of [hardware]"
                    )
            if "problem" in item:
                entry.problem = self.problem(f"{at}.problem", item["problem"])
            if "ratio" in item:
                ratio = item["ratio"]
                if (
                    not isinstance(ratio, list)
                    or len(ratio) != 2
                    or not all(isinstance(r, str) for r in ratio)
                ):
                    raise self.fail(f"{at}.ratio", 'expected ["numerator", "denominator"]')
                for key in ("unit", "scale", "unit_label", "problem", "hardware", "phase"):
                    if key in item:
                        raise self.fail(at, f"a ratio {where[:-1]} takes no '{key}'")
                entry.ratio = (ratio[0], ratio[1])
            entry.unit, scale, entry.unit_label = self.unit(at, item, required=False)
            entry.scale = scale if entry.unit else None
            if where == "rows":
                entry.published = item["published"]  # checked once the columns are known
            entries.append(entry)
        return entries

    def ratios(self, where: str, entries: list[Entry]):
        for entry in entries:
            if not entry.ratio:
                continue
            for name in entry.ratio:
                other = next((e for e in entries if e.name == name), None)
                if other is None:
                    raise self.fail(
                        f"{where} '{entry.name}'.ratio", f"no {where[:-1]} named '{name}'"
                    )
                if other.derived:
                    raise self.fail(f"{where} '{entry.name}'.ratio", f"'{name}' is itself a ratio")
            if entry.ratio[0] == entry.ratio[1]:
                raise self.fail(
                    f"{where} '{entry.name}'.ratio", "numerator and denominator are the same"
                )

    def published(self, row: Entry, data_row: Any, columns: list[Entry]) -> list[float | None]:
        at = f"rows '{row.name}'.published"
        if not isinstance(data_row, list) or len(data_row) != len(columns):
            raise self.fail(
                at,
                f"expected a list of {len(columns)} values (one per column), "
                f'numbers or "{NO_VALUE}"',
            )
        values: list[float | None] = []
        for value in data_row:
            if value == NO_VALUE:
                values.append(None)
                continue
            number = self.number(at, value)
            if number <= 0:
                raise self.fail(at, f"published values must be positive, got {value!r}")
            values.append(number)
        return values
