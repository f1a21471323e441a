"""Figure files: reports/plots/*.toml, each one plot of verified results (schema in README.md).

A figure selects results (experiments, problem, parameters), places each at an x (grid size,
generations or a parameter) and a y (a table unit, or the speed-up over a baseline experiment
on the same problem in the same run), and joins the best point per x of one run for each
series and machine (the run with the most of the series' x values, the newest of equals), so
that a line never joins runs; several machines are several series. Each point carries its
interval (its result's noise, and a speed-up's baseline's). Validation
is as strict as for tables: an unknown field or a wrong type stops the generator with one
line.
"""

from __future__ import annotations

import fnmatch
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ReportError
from .evidence import rate_interval
from .machines import fullest, on_machine
from .results import Result, Run
from .tables import _STEM
from .units import UNITS, NotConvertible, convert, unit_label

_KEYS = {
    "title", "x", "y", "scale", "unit_label", "series", "log_x", "log_y", "ideal", "baseline",
    "select",
}
_SELECT_KEYS = {"experiments", "shape", "rule", "boundary", "generations", "density", "params"}
_FIELDS = ("experiment", "shape", "rule", "boundary", "generations")


@dataclass
class Point:
    series: str
    x: float
    y: float
    result: Result
    # The y's interval, (low, high): its result's noise (and a speed-up's baseline's); None
    # where one ran once or records no timing.
    bounds: tuple[float, float] | None = None


@dataclass
class Figure:
    stem: str
    path: Path
    title: str
    x: str  # "cells", "generations", "density" or "param:<name>"
    y: str | None  # a unit; None with a baseline (the y is a speed-up)
    scale: float = 1.0
    label: str = ""
    series: list[str] = field(default_factory=lambda: ["experiment"])
    log_x: bool = False
    log_y: bool = False
    ideal: bool = False  # scaling: each series against x times its rate at its least x
    baseline: str | None = None
    select: dict[str, Any] = field(default_factory=dict)

    @property
    def image(self) -> str:
        return f"figure-{self.stem}.png"

    @property
    def x_label(self) -> str:
        if self.x == "cells":
            return "grid size (cells)"
        if self.x == "generations":
            return "generations"
        if self.x == "density":
            return "soup density"
        return self.x.removeprefix("param:")

    @property
    def y_label(self) -> str:
        # A ratio, not always a speed-up: an out-of-core run over the in-memory one is a fraction.
        return f"rate ÷ {self.baseline}'s rate" if self.baseline else self.label

    def matches(self, result: Result) -> bool:
        """Whether a result is selected (its experiment, problem and parameters)."""
        wanted = self.select
        if "experiments" in wanted and not any(
            fnmatch.fnmatchcase(result.experiment, p) for p in wanted["experiments"]
        ):
            return False
        for key in ("shape", "rule", "boundary"):
            if key in wanted and getattr(result, key) != wanted[key]:
                return False
        if "generations" in wanted and result.generations != wanted["generations"]:
            return False
        # Sparse and dense soups are different problems: none given keeps the family's soup
        # (a figure against density takes every density given); a pattern is no soup.
        if result.pattern is not None:
            return False
        if self.x != "density" and result.density != wanted.get("density"):
            return False
        params = result.params
        return all(params.get(k) in v for k, v in wanted.get("params", {}).items())

    def points(self, runs: list[Run]) -> list[Point]:
        """Each series of each machine from one run, the one with the most of its x values
        (the newest of equals), its best verified point at each x; a result with no x or y is
        left out. A speed-up divides by the baseline's best in the same run."""
        results = [r for run in runs for r in run.results if r.verified]
        baselines: dict[tuple, Result] = {}
        if self.baseline:
            for r in results:
                if r.experiment == self.baseline:
                    key = (id(r.run), _problem(r))
                    if key not in baselines or r.rate > baselines[key].rate:
                        baselines[key] = r
        higher_is_better = self.baseline is not None or UNITS[self.y].higher_is_better
        placed = [
            Point(self._series(r), x, y, r)
            for r in results
            if self.matches(r) and r.experiment != self.baseline
            for x, y in [(self._x(r), self._y(r, baselines))]
            if x is not None and y is not None
        ]
        ys = {id(p.result): p for p in placed}
        lines = fullest((p.result for p in placed), lambda r: ys[id(r)].series,
                        lambda r: ys[id(r)].x)
        machines = len({machine for machine, _ in lines})
        pick = max if higher_is_better else min
        best = []
        for (machine, _), members in lines.items():
            at: dict[float, list[Result]] = {}
            for r in members:
                at.setdefault(ys[id(r)].x, []).append(r)
            for results_at_x in at.values():
                point = ys[id(pick(results_at_x, key=lambda r: ys[id(r)].y))]
                point.series = on_machine(point.series, machine, machines)
                point.bounds = y_interval(point.y, point.result,
                                          _base(point.result, baselines), higher_is_better)
                best.append(point)
        return sorted(best, key=lambda p: (p.series, p.x))

    def _x(self, r: Result) -> float | None:
        if self.x == "cells":
            return r.cells
        if self.x == "generations":
            return r.generations
        if self.x == "density":
            return r.density  # none: the family's soup, no point of the figure
        try:
            return float(r.params[self.x.removeprefix("param:")])
        except (KeyError, ValueError):
            return None

    def _y(self, r: Result, baselines: dict[tuple, Result]) -> float | None:
        if self.baseline:
            base = _base(r, baselines)
            return r.rate / base.rate if base else None
        try:
            return convert(
                self.y,
                self.scale,
                cell_updates_per_second=r.rate,
                bytes_per_second=r.bytes_per_second,
                cells=r.cells or 0,
                generations=r.generations or 0,
                device=r.device,
            )
        except NotConvertible:
            return None

    def _series(self, r: Result) -> str:
        parts = []
        for part in self.series:
            if part.startswith("param:"):
                name = part.removeprefix("param:")
                # A result from before its experiment had the parameter names no value.
                if name in r.params:
                    parts.append(f"{name}={r.params[name]}")
            else:
                parts.append(str(getattr(r, part)))
        return " ".join(parts)


def y_interval(y: float, result: Result, base: Result | None = None,
               higher_is_better: bool = True) -> tuple[float, float] | None:
    """The interval of `y`, a value of `result` (over `base`'s: a speed-up): its rate's
    factors (rate_interval), inverted for a time; None where a side ran once."""
    factors = rate_interval(result, base)
    if factors is None:
        return None
    low, high = factors if higher_is_better else (1 / factors[1], 1 / factors[0])
    return y * low, y * high


def _base(r: Result, baselines: dict[tuple, Result]) -> Result | None:
    """The baseline's best result on `r`'s problem in `r`'s run."""
    return baselines.get((id(r.run), _problem(r)))


def _problem(r: Result) -> tuple:
    return (r.rule, r.shape, r.boundary, r.generations, r.density)


def load_figures(folder: Path) -> list[Figure]:
    """Every *.toml of `folder`, sorted by name; a folder that does not exist holds none."""
    if not folder.is_dir():
        return []
    return [_load(path) for path in sorted(folder.glob("*.toml"))]


def _load(path: Path) -> Figure:
    def fail(message: str) -> ReportError:
        return ReportError(f"{path}: {message}")

    if not _STEM.match(path.stem):
        raise fail("a figure file name is letters, digits, '.', '_' and '-'")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise fail(f"cannot read: {e}") from None
    except tomllib.TOMLDecodeError as e:
        raise fail(f"not valid TOML: {e}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise fail(f"unknown field {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})")

    def text(key: str, required: bool = False) -> str | None:
        value = data.get(key)
        if value is None and not required:
            return None
        if not isinstance(value, str) or not value:
            raise fail(f"'{key}' must be a non-empty string")
        return value

    def flag(key: str) -> bool:
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise fail(f"'{key}' must be true or false")
        return value

    title = text("title", required=True)
    x = text("x", required=True)
    if x not in ("cells", "generations", "density") and not (
        x.startswith("param:") and len(x) > 6
    ):
        raise fail("'x' must be \"cells\", \"generations\", \"density\" or \"param:<name>\"")
    baseline = text("baseline")
    y = text("y", required=baseline is None)
    if y is not None and y not in UNITS:
        raise fail(f"'y' must be a unit: {', '.join(UNITS)}")
    scale = data.get("scale", 1.0)
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not scale > 0:
        raise fail("'scale' must be a positive number")
    series = data.get("series", ["experiment"])
    if (
        not isinstance(series, list)
        or not series
        or not all(
            isinstance(s, str) and (s in _FIELDS or (s.startswith("param:") and len(s) > 6))
            for s in series
        )
    ):
        raise fail(f"'series' must be a list of {', '.join(_FIELDS)} or \"param:<name>\"")
    ideal = flag("ideal")
    if ideal and (y is None or not UNITS[y].higher_is_better or flag("log_y")):
        raise fail("'ideal' needs a rate for 'y' (updates/s, FPS, B/s) on a linear axis")
    return Figure(
        stem=path.stem,
        path=path,
        title=title,
        x=x,
        y=y,
        scale=float(scale),
        label=text("unit_label") or (unit_label(y, float(scale)) if y else ""),
        series=series,
        log_x=flag("log_x"),
        log_y=flag("log_y"),
        ideal=ideal,
        baseline=baseline,
        select=_select(data.get("select", {}), fail),
    )


def _select(select: Any, fail) -> dict[str, Any]:
    if not isinstance(select, dict):
        raise fail("'select' must be a table")
    unknown = sorted(set(select) - _SELECT_KEYS)
    if unknown:
        raise fail(f"unknown field select.{unknown[0]} (known: {', '.join(sorted(_SELECT_KEYS))})")
    out: dict[str, Any] = {}
    for key in ("shape", "rule", "boundary"):
        if key in select:
            if not isinstance(select[key], str):
                raise fail(f"'select.{key}' must be a string")
            out[key] = select[key]
    if "generations" in select:
        if isinstance(select["generations"], bool) or not isinstance(select["generations"], int):
            raise fail("'select.generations' must be an integer")
        out["generations"] = select["generations"]
    if "density" in select:
        density = select["density"]
        if isinstance(density, bool) or not isinstance(density, (int, float)):
            raise fail("'select.density' must be a number")
        out["density"] = float(density)
    if "experiments" in select:
        names = select["experiments"]
        if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
            raise fail("'select.experiments' must be a non-empty list of names or globs")
        out["experiments"] = names
    params = select.get("params", {})
    if not isinstance(params, dict):
        raise fail("'select.params' must be a table of name = value or [values]")
    out["params"] = {}
    for name, value in params.items():
        values = value if isinstance(value, list) else [value]
        if not values or not all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in values):
            raise fail(f"'select.params.{name}' must be a string, an integer or a list of them")
        out["params"][name] = [str(v) for v in values]
    return out
