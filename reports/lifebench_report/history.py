"""A machine's results over commits: each experiment's headline configuration, one point a
commit measured on that machine, with the interval of its median as a band, and the steps
between consecutive commits that the noise does not explain.

A machine's folders are grouped by the commit they were built from (several sweeps of one
commit are several folders; where two measured a configuration, the newer folder's point
stands) and the commits ordered by the start time of their first folder (the manifest's
`started`): the manifest records no commit time. An experiment's headline configuration is
the one of its configurations tied to a published table cell that the most of the machine's
commits measured and verified (of equal counts, the fastest in the newest commit): the same
config_id at every commit, so that a step is the code's or the machine's, never another
configuration's. A step is beyond the noise where the two intervals of the rate do not
overlap; a point without an interval (one repetition) makes no step.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .evidence import spread
from .machines import Machine, by_machine
from .results import Result, Run


@dataclass
class Point:
    run: Run
    result: Result
    rate: float
    low: float  # the rate's interval, from the median time's
    high: float
    step: str = ""  # "up" or "down": beyond the noise against the point before; else ""


@dataclass
class Series:
    experiment: str
    config_id: str
    points: list[Point] = field(default_factory=list)

    @property
    def steps(self) -> list[Point]:
        return [p for p in self.points if p.step]


@dataclass
class Commit:
    key: str  # the manifest's git_commit (dirty marked), or the folder's name without one
    label: str  # short, for an axis
    runs: list[Run]  # its folders, oldest first


@dataclass
class MachineHistory:
    machine: Machine
    commits: list[Commit]  # oldest first
    series: list[Series]  # experiments in name order, each with two points or more


def commits(runs: list[Run]) -> list[Commit]:
    """The runs grouped by commit, oldest first (by their first folder's start time)."""
    groups: dict[str, list[Run]] = {}
    for run in sorted(runs, key=lambda run: (run.started, run.label)):
        build = run.section("build")
        commit = build.get("git_commit")
        key = f"{commit}{' (dirty)' if build.get('git_dirty') else ''}" if commit else run.label
        groups.setdefault(key, []).append(run)
    return [Commit(key, _short(key, members[0]), members) for key, members in groups.items()]


def _short(key: str, first: Run) -> str:
    if key == first.label:  # no commit recorded: the folder's name
        return key
    return key[:7] + (" (dirty)" if key.endswith("(dirty)") else "")


def _point(run: Run, result: Result) -> Point:
    noise = spread(result)
    if noise is None or not noise.interval or noise.n < 2:
        return Point(run, result, result.rate, result.rate, result.rate)
    # A rate is inversely proportional to the time: the slow end of the time is the low rate.
    scale = result.rate * noise.median_s
    return Point(run, result, result.rate, scale / noise.high_s, scale / noise.low_s)


def _mark_steps(points: list[Point]) -> None:
    for before, after in zip(points, points[1:]):
        if before.low == before.high or after.low == after.high:
            continue  # no interval: nothing to tell noise from a step
        if after.low > before.high:
            after.step = "up"
        elif after.high < before.low:
            after.step = "down"


def _headline(results: list[Result], order: dict[int, int]) -> str:
    """The tied config_id measured and verified at the most commits; of equal counts, the
    fastest at the newest commit. `order`: a folder's commit's place, by id of the folder."""
    at: dict[str, set[int]] = {}
    for result in results:
        at.setdefault(result.config_id, set()).add(order[id(result.run)])

    def rank(config_id: str):
        mine = [r for r in results if r.config_id == config_id]
        last = max(mine, key=lambda r: (order[id(r.run)], r.run.started))
        return len(at[config_id]), order[id(last.run)], last.rate

    return max(at, key=rank)


def histories(runs: list[Run]) -> list[MachineHistory]:
    """Every machine's history, machines in name order."""
    verified = [r for run in runs for r in run.results if r.verified and r.ties and r.rate]
    measured = by_machine(verified)
    machine_runs: dict[Machine, list[Run]] = {}
    for run in runs:
        machine_runs.setdefault(run.machine, []).append(run)
    out = []
    for machine in sorted(machine_runs, key=lambda m: m.name):
        mine = commits(machine_runs[machine])
        order = {id(run): i for i, commit in enumerate(mine) for run in commit.runs}
        experiments: dict[str, list[Result]] = {}
        for result in measured.get(machine, []):
            experiments.setdefault(result.experiment, []).append(result)
        series = []
        for experiment, results in sorted(experiments.items()):
            config_id = _headline(results, order)
            newest: dict[int, Result] = {}  # a commit's point: its newest folder's result
            for result in results:
                if result.config_id != config_id:
                    continue
                place = order[id(result.run)]
                if place not in newest or result.run.started > newest[place].run.started:
                    newest[place] = result
            points = [_point(newest[i].run, newest[i]) for i in sorted(newest)]
            if len(points) >= 2:
                _mark_steps(points)
                series.append(Series(experiment, config_id, points))
        out.append(MachineHistory(machine, mine, series))
    return out
