"""What a measured number rests on: the noise of its repetitions and what verified it.

Noise: the interval of the median time (`timing.median_ci`) where the result records one,
as ± half its width relative to the median; else, for results written before it, the range
of `timing.seconds` (min to max) relative to the median, marked ↕; with one repetition,
none. Verification: `verification.scope` where recorded, else derived by comparing the
verified problem and generation count with the timed ones; `verification.final_state`, the
timed problem's own last state checked, where recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .results import Result
from .units import fmt3

TIMED, SMALLER = "timed_problem", "smaller_problem"


@dataclass
class Spread:
    n: int
    low_s: float
    high_s: float
    median_s: float
    interval: bool  # the median's interval; else the min-max range
    level: float | None = None  # the interval's coverage, where recorded
    stop: str | None = None  # why the repetitions stopped, where recorded

    @property
    def relative(self) -> float:
        """Half the interval's (or the range's) width over the median."""
        return (self.high_s - self.low_s) / 2 / self.median_s

    @property
    def text(self) -> str:
        """`±0.4%` (interval), `↕0.8%` (min-max range) or `n=1`."""
        return _noise_text(self.n < 2, self.interval, self.relative)

    @property
    def title(self) -> str:
        times = f"{fmt3(self.low_s)} to {fmt3(self.high_s)} s, median {fmt3(self.median_s)} s"
        if self.interval:
            level = f"{100 * self.level:.3g}% " if self.level else ""
            what = f"{level}interval of the median time: {times}"
        elif self.n < 2:
            what = f"one repetition, {fmt3(self.median_s)} s: no spread"
        else:
            what = f"fastest to slowest repetition (no interval recorded): {times}"
        stop = f", stopped: {self.stop.replace('_', ' ')}" if self.stop else ""
        return f"n={self.n} repetitions{stop}; {what}"


def _noise_text(single: bool, interval: bool, relative: float) -> str:
    if single:
        return "n=1"
    mark = "\u00b1" if interval else "\u2195"
    percent = 100 * relative  # one digit is what a reader compares: 0.4%, 0.008%
    return f"{mark}{percent:.1f}%" if percent >= 1 else f"{mark}{percent:.1g}%"


@dataclass
class QuotientSpread:
    """The noise of a value divided from several results (a derived cell): the sum of their
    relative half-widths, to first order the quotient's own."""

    parts: list[tuple[Result, Spread]]

    @property
    def relative(self) -> float:
        return sum(noise.relative for _, noise in self.parts)

    @property
    def text(self) -> str:
        return _noise_text(
            any(noise.n < 2 for _, noise in self.parts),
            all(noise.interval for _, noise in self.parts),
            self.relative,
        )

    @property
    def title(self) -> str:
        sides = "; ".join(f"{r.experiment}: {noise.text}, {noise.title}" for r, noise in self.parts)
        return f"a quotient: its sides' relative noise added ({self.text}); {sides}"


def quotient_spread(results: list[Result]) -> QuotientSpread | None:
    """None where a side records no timing."""
    parts = [(r, spread(r)) for r in results]
    if any(noise is None for _, noise in parts):
        return None
    return QuotientSpread(parts)


def rate_interval(result: Result, base: Result | None = None) -> tuple[float, float] | None:
    """The factors below and above 1 within which `result`'s rate (over `base`'s: a speed-up)
    lies, from each one's median interval or, where it records none, its repetitions' range;
    None where one of them ran once or records no timing."""
    parts = [spread(r) for r in [result] + ([base] if base else [])]
    if any(p is None or p.n < 2 for p in parts):
        return None
    low, high = parts[0].median_s / parts[0].high_s, parts[0].median_s / parts[0].low_s
    for p in parts[1:]:  # the baseline's rate divides: its time multiplies
        low, high = low * p.low_s / p.median_s, high * p.high_s / p.median_s
    return low, high


def spread(result: Result) -> Spread | None:
    timing = result.raw.get("timing")
    if not isinstance(timing, dict) or not result.median_s:
        return None
    seconds = [s for s in timing.get("seconds", []) if _number(s)]
    n = timing.get("repetitions") if isinstance(timing.get("repetitions"), int) else len(seconds)
    stop = timing.get("stop") if isinstance(timing.get("stop"), str) else None
    ci = timing.get("median_ci")
    if isinstance(ci, dict) and _number(ci.get("low_s")) and _number(ci.get("high_s")):
        level = ci.get("level") if _number(ci.get("level")) else None
        return Spread(n, ci["low_s"], ci["high_s"], result.median_s, True, level, stop)
    if not seconds:
        return None
    return Spread(n, min(seconds), max(seconds), result.median_s, False, None, stop)


@dataclass
class Checked:
    scope: str | None  # TIMED or SMALLER; None where nothing was verified
    recorded: bool  # scope as the result records it, else derived here
    problem: str
    generations: Any
    final: dict[str, Any] | None  # verification.final_state

    @property
    def mark(self) -> str:
        """The badge of a verified number."""
        return "verified" if self.scope == TIMED else "verified small"

    @property
    def final_mark(self) -> str | None:
        status = (self.final or {}).get("status")
        return {"passed": "final \u2713", "failed": "final \u2717"}.get(status)

    @property
    def title(self) -> str:
        if self.scope == TIMED:
            text = "verified: the timed problem itself"
        else:
            text = (
                f"verified on a smaller problem, {self.problem} for {self.generations} "
                "generations, then the timed problem was run"
            )
        if not self.recorded:
            text += " (told from the verified problem: the result records no scope)"
        final = self.final or {}
        if final.get("status"):
            text += f"; the timed run's final state: {str(final['status']).replace('_', ' ')}"
            if final.get("generations"):
                text += f" after {final['generations']} generations"
            if final.get("reason"):
                text += f" ({final['reason']})"
        return text


def checked(result: Result) -> Checked | None:
    """How a verified result was verified; None for one that was not."""
    verification = result.raw.get("verification")
    if not isinstance(verification, dict) or verification.get("status") != "passed":
        return None
    problem = verification.get("problem", "?")
    generations = verification.get("generations", "?")
    scope = verification.get("scope")
    recorded = scope in (TIMED, SMALLER)
    if not recorded:
        same = problem == result.problem and generations == result.generations
        scope = TIMED if same else SMALLER
    final = verification.get("final_state")
    final = final if isinstance(final, dict) else None
    return Checked(scope, recorded, problem, generations, final)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0
