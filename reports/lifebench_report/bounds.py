"""What bounds an experiment, the ceilings of that bound, and each result's fraction of it.

An experiment names its bound in its README, one line `**Bound.** `logic`: why ...` (or
`memory`), so that the documentation and the report cannot disagree. A bound is a device
ceiling: the issue rate of integer and logic instructions, or the memory bandwidth.

Our side reads the ceilings a result records in its `device` (kernels/cuda/ceilings.cuh and
kernels/cuda/runtime.cuh): the LOP3 rate and the copy bandwidth measured in the same process,
and the memory's peak bandwidth from its clock and bus width. On a CPU the logic ceiling is
the rate at which the experiment's threads, all at once, issue the vector logic instruction
its kernel is made of (VPTERNLOGQ on AVX-512: a LOP3 of 512 bits), measured in its process.
A published device's ceilings are its vendor's peak figures, given in the table file's
[hardware].
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .errors import ReportError
from .results import Result
from .units import (
    COPY_BANDWIDTH_KEY,
    INSTRUCTIONS_KEY,
    LOP3_RATE_KEY,
    VECTOR_LOGIC_RATE_KEY,
    NotConvertible,
    device_number,
)

PEAK_BANDWIDTH_KEY = "memory_bandwidth_peak_gb_per_s"
_LINE = re.compile(r"^\*\*Bound\.\*\*\s+`([^`]*)`", re.MULTILINE)


@dataclass(frozen=True)
class Kind:
    """One kind of bound: its ceilings' unit and where a result records them."""

    name: str
    unit: str  # of the ceilings, ours and the published devices'
    what: str  # what the ceiling counts
    per_update: str  # what one cell update costs of it
    # Device keys (with `scale`; the first a result records) of our ceiling as measured, the
    # fraction's, and as a peak, compared with the vendors' peaks.
    measured_keys: tuple[str, ...]
    peak_keys: tuple[str, ...]
    scale: float  # the device keys' unit in `unit`

    def measured(self, result: Result) -> float:
        """Our ceiling as measured in the result's process (raises NotConvertible)."""
        return self.scale * device_number(result.device, self.measured_keys)

    def peak(self, result: Result) -> float:
        """Our ceiling as comparable with a vendor's peak (raises NotConvertible)."""
        return self.scale * device_number(result.device, self.peak_keys)

    def cost(self, result: Result) -> float:
        """Instructions or bytes one cell update takes (raises NotConvertible)."""
        if self.name == "logic":
            return device_number(result.device, INSTRUCTIONS_KEY)
        if result.bytes_per_second is None or result.rate is None:
            raise NotConvertible("the result records no bytes moved per generation")
        return result.bytes_per_second / result.rate


# The LOP3 ceiling kernel issues independent LOP3s on every SM at full occupancy: its rate is
# within a few per cent of the peak (16.2e12 of 16.7e12 a second on an H100), so it stands for
# the peak too. A CPU's chains of independent vector logic on all of a run's threads stand for
# its peak as well: no vendor figure gives what its threads issue together. The copy
# bandwidth falls further below the memory's peak (about 87 % on an H100), so a vendor's peak
# bandwidth is compared with our memory's peak.
KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind(
            "logic",
            "instructions/s",
            "logic instructions per second (32-bit on a GPU, vectors on a CPU)",
            "instructions per cell update",
            (LOP3_RATE_KEY, VECTOR_LOGIC_RATE_KEY),
            (LOP3_RATE_KEY, VECTOR_LOGIC_RATE_KEY),
            1.0,
        ),
        Kind(
            "memory",
            "B/s",
            "memory bandwidth, bytes read and written per second",
            "bytes per cell update",
            (COPY_BANDWIDTH_KEY,),
            (PEAK_BANDWIDTH_KEY,),
            1e9,
        ),
    )
}


@dataclass(frozen=True)
class Fraction:
    """A result's rate over the rate its bound allows."""

    kind: Kind
    value: float  # rate / allowed
    allowed: float  # cell updates per second the measured ceiling allows at this cost
    cost: float  # instructions or bytes per cell update


def fraction(result: Result, kind: Kind) -> Fraction:
    """The result's fraction of its bound (raises NotConvertible with the reason)."""
    if result.rate is None:
        raise NotConvertible("the result has no rate")
    ceiling = kind.measured(result)
    cost = kind.cost(result)
    allowed = ceiling / cost
    return Fraction(kind=kind, value=result.rate / allowed, allowed=allowed, cost=cost)


def load_bounds(folder: Path | None) -> dict[str, Kind]:
    """Experiment name -> the bound its README names (folder/<name>/README.md); experiments
    whose README names none are absent. A bound of an unknown kind is an error."""
    bounds: dict[str, Kind] = {}
    if folder is None or not folder.is_dir():
        return bounds
    for readme in sorted(folder.glob("*/README.md")):
        try:
            text = readme.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ReportError(f"{readme}: cannot read: {e}") from None
        named = _LINE.findall(text)
        if not named:
            continue
        if len(named) > 1 or named[0] not in KINDS:
            raise ReportError(
                f"{readme}: the **Bound.** line must name one of {', '.join(KINDS)} once, "
                f"found {', '.join(repr(n) for n in named)}"
            )
        bounds[readme.parent.name] = KINDS[named[0]]
    return bounds
