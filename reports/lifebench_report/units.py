"""Table units: conversion of a measured throughput into a table's unit, and number formatting.

Every result gives cell updates per second (cells x generations / median time). A published
table may be in another unit; the conversion needs the problem the table was measured on
(cells, generations), which the table file declares. Bandwidth units need the bytes per
second the experiment itself reports.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class UnitSpec:
    """One unit a table cell may be in."""

    name: str
    description: str
    higher_is_better: bool


# The vocabulary of `unit = "..."` in a table file; README.md documents it.
UNITS: dict[str, UnitSpec] = {
    spec.name: spec
    for spec in (
        UnitSpec("updates/s", "cell updates per second", True),
        UnitSpec("FPS", "generations per second (frames per second) on the table's grid", True),
        UnitSpec("B/s", "bytes moved per second, as the experiment reports it", True),
        UnitSpec("s", "seconds for the table's generations on the table's grid", False),
        UnitSpec("ms", "milliseconds for the table's generations on the table's grid", False),
        UnitSpec("us", "microseconds for the table's generations on the table's grid", False),
        UnitSpec("s/gen", "seconds per generation on the table's grid", False),
        UnitSpec("ms/gen", "milliseconds per generation on the table's grid", False),
        UnitSpec("us/gen", "microseconds per generation on the table's grid", False),
        UnitSpec(
            "%copy",
            "bytes moved per second as a percentage of the device copy bandwidth measured in "
            "the same process (device key copy_bandwidth_measured_gb_per_s)",
            True,
        ),
        UnitSpec(
            "%lop3",
            "logic instructions issued per second (cell updates/s x the experiment's "
            "instructions_per_cell_update) as a percentage of the LOP3 rate measured in the "
            "same process (device key lop3_per_s_measured)",
            True,
        ),
    )
}

# The unit of a derived row or column (the ratio of two others).
RATIO_UNIT = "x"

_TIME_FACTORS = {"s": 1.0, "ms": 1e3, "us": 1e6}
# Units of a whole run's time: the only ones a phase (a share of that time) may be given in.
TIME_UNITS = tuple(_TIME_FACTORS)

# Keys of a result's `device` that the ceiling units read (kernels/cuda/ceilings.cuh; on a
# CPU, the vector logic rate of kernels/cpu/blocked_tiles.hpp).
COPY_BANDWIDTH_KEY = "copy_bandwidth_measured_gb_per_s"
LOP3_RATE_KEY = "lop3_per_s_measured"
VECTOR_LOGIC_RATE_KEY = "vector_logic_per_s_measured"
INSTRUCTIONS_KEY = "instructions_per_cell_update"


class NotConvertible(Exception):
    """A measurement that cannot be given in the cell's unit; the message says why."""


def convert(
    unit: str,
    scale: float,
    *,
    cell_updates_per_second: float,
    bytes_per_second: float | None,
    cells: int,
    generations: int,
    device: dict[str, str] | None = None,
) -> float:
    """The measured throughput in `unit`, divided by `scale` (the number shown in the table)."""
    rate = cell_updates_per_second
    if not rate > 0:
        raise NotConvertible(f"throughput {rate!r} is not positive")
    if unit == "updates/s":
        value = rate
    elif unit == "FPS":
        value = rate / cells
    elif unit == "B/s":
        if bytes_per_second is None:
            raise NotConvertible("the experiment reports no bytes moved per generation")
        value = bytes_per_second
    elif unit == "%copy":
        if bytes_per_second is None:
            raise NotConvertible("the experiment reports no bytes moved per generation")
        value = 100.0 * bytes_per_second / (1e9 * device_number(device, COPY_BANDWIDTH_KEY))
    elif unit == "%lop3":
        per_update = device_number(device, INSTRUCTIONS_KEY)
        value = 100.0 * rate * per_update / device_number(device, LOP3_RATE_KEY)
    elif unit in _TIME_FACTORS:
        value = _TIME_FACTORS[unit] * cells * generations / rate
    elif unit.endswith("/gen") and unit[:-4] in _TIME_FACTORS:
        value = _TIME_FACTORS[unit[:-4]] * cells / rate
    else:  # tables.py validates units; reaching here is a bug
        raise ValueError(f"unknown unit {unit!r}")
    return value / scale


def device_number(device: dict[str, str] | None, key: str | tuple[str, ...]) -> float:
    """A positive number of a result's `device` (of the first of several keys it records);
    NotConvertible says why there is none."""
    if isinstance(key, tuple):
        recorded = [k for k in key if k in (device or {})]
        if not recorded and len(key) != 1:
            raise NotConvertible(f"the result's device records none of {', '.join(key)}")
        key = (recorded or list(key))[0]
    try:
        value = float((device or {})[key])
    except KeyError:
        raise NotConvertible(f"the result's device records no {key}") from None
    except (TypeError, ValueError):
        raise NotConvertible(f"the result's device {key} is not a number") from None
    if not (math.isfinite(value) and value > 0):
        raise NotConvertible(f"the result's device {key} is not positive")
    return value


def unit_label(unit: str, scale: float) -> str:
    """`10^9 updates/s` for unit updates/s and scale 1e9 (html.py turns ^9 into a superscript)."""
    if unit == RATIO_UNIT:
        return "ratio"
    if scale == 1:
        return unit
    exponent = round(math.log10(scale))
    if math.isclose(10.0**exponent, scale, rel_tol=1e-12):
        return f"10^{exponent} {unit}"
    return f"{fmt3(scale)} {unit}"


def fmt3(value: float) -> str:
    """Three significant digits, written as a paper writes them: 0.298, 7.71, 10.9, 478, 1990.

    Plain decimals from 0.001 to below 1e6, otherwise mantissa and exponent (`1.23e9`).
    """
    if value is None or not math.isfinite(value):
        return "n/a"
    if value == 0:
        return "0"
    exponent = math.floor(math.log10(abs(value)))
    rounded = round(value, 2 - exponent)
    # Rounding may carry into the next decade (999.6 -> 1000): recompute the exponent.
    if rounded != 0:
        exponent = math.floor(math.log10(abs(rounded)))
    if -3 <= exponent < 6:
        decimals = max(0, 2 - exponent)
        return f"{rounded:.{decimals}f}"
    mantissa = rounded / 10.0**exponent
    return f"{mantissa:.2f}e{exponent}"
