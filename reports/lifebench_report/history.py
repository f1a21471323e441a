"""A machine's results over commits: each experiment's headline configuration, one point a
commit measured on that machine, with the interval of its median as a band, and the steps
between consecutive commits that the noise does not explain.

A machine's folders are grouped by the commit they were built from (several sweeps of one
commit are several folders; where two measured a configuration, the newer folder's point
stands) and the commits ordered by their commit time (the manifest's `git_commit_time`) where
every commit records one, else all by the start time of their first folder (a run starts after
its commit: the two orders agree unless an old commit is measured late). An
experiment's headline configuration is the one of its configurations tied to a published table
cell that the most of the machine's commits measured and verified (of equal counts, the
fastest in the newest commit): the same configuration at every commit (Result.configuration:
a default given or left out alike), so that a step is the
code's or the machine's, never another configuration's. A step is beyond the noise where the
two intervals of the rate do not overlap and the rates differ by what two runs of one commit
do not (5 % on a GPU, 40 % on the host's CPU); a point without an interval (one repetition, or an
older folder's fewer than five repetitions without a recorded interval) makes no step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

from .evidence import spread
from .machines import Machine, by_machine, runs_by_machine
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
    """The runs grouped by commit, oldest first: by commit time where every commit records
    one, else by the start of each commit's first folder (one clock for all, never a mix)."""
    groups: dict[str, list[Run]] = {}
    for run in sorted(runs, key=lambda run: (run.started, run.label)):
        build = run.section("build")
        commit = build.get("git_commit")
        key = f"{commit}{' (dirty)' if build.get('git_dirty') else ''}" if commit else run.label
        groups.setdefault(key, []).append(run)
    times = {key: _commit_time(members) for key, members in groups.items()}
    if None in times.values():
        epoch = datetime.fromtimestamp(0, timezone.utc)  # no start either: first
        times = {key: _time(members[0].started) or epoch for key, members in groups.items()}
    ordered = sorted(groups.items(), key=lambda group: times[group[0]])
    return [Commit(key, _short(key, members[0]), members) for key, members in ordered]


def _commit_time(members: list[Run]) -> datetime | None:
    for run in members:
        when = _time(run.section("build").get("git_commit_time"))
        if when is not None:
            return when
    return None


def _time(text) -> datetime | None:
    """An ISO 8601 time (UTC where it names no zone), or None."""
    if not isinstance(text, str):
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def _short(key: str, first: Run) -> str:
    if key == first.label:  # no commit recorded: the folder's name
        return key
    return key[:7] + (" (dirty)" if key.endswith("(dirty)") else "")


# Without a recorded interval, the fastest to slowest of n repetitions holds the median with
# probability 1 - 2^(1-n) whatever the distribution: 94 % from five on, as the recorded ones.
_RANGE_AS_INTERVAL = 5


def _point(run: Run, result: Result) -> Point:
    noise = spread(result)
    usable = noise is not None and (noise.interval or noise.n >= _RANGE_AS_INTERVAL)
    if not usable or noise.n < 2:
        return Point(run, result, result.rate, result.rate, result.rate)
    # A rate is inversely proportional to the time: the slow end of the time is the low rate.
    scale = result.rate * noise.median_s
    return Point(run, result, result.rate, scale / noise.high_s, scale / noise.low_s)


# An interval is one run's noise; two runs of one commit on one machine move more: up to
# 2.4 % on the one-H100 machine's GPU, 10 to 40 % on its host's CPU (results/reference/
# README.md). A smaller step is not one.
MIN_STEP = {"cuda": 0.05, "opencl": 0.05}
MIN_STEP_CPU = 0.40  # the CPU backends (cpu, simd) and the external programs on the host


def _mark_steps(points: list[Point]) -> None:
    for before, after in zip(points, points[1:]):
        if before.low == before.high or after.low == after.high:
            continue  # no interval: nothing to tell noise from a step
        least = MIN_STEP.get(after.result.backend, MIN_STEP_CPU)
        if abs(after.rate / before.rate - 1) < least:
            continue
        if after.low > before.high:
            after.step = "up"
        elif after.high < before.low:
            after.step = "down"


def _headline(results: list[Result], order: dict[int, int]) -> str:
    """The tied configuration measured and verified at the most commits; of equal counts, the
    fastest at the newest commit. `order`: a folder's commit's place, by id of the folder."""
    at: dict[str, set[int]] = {}
    for result in results:
        at.setdefault(result.configuration, set()).add(order[id(result.run)])

    def rank(configuration: str):
        mine = [r for r in results if r.configuration == configuration]
        last = max(mine, key=lambda r: (order[id(r.run)], r.run.started))
        return len(at[configuration]), order[id(last.run)], last.rate

    return max(at, key=rank)


def histories(runs: list[Run]) -> list[MachineHistory]:
    """Every machine's history, machines in name order."""
    verified = [r for run in runs for r in run.results if r.verified and r.ties and r.rate]
    measured = by_machine(verified)
    out = []
    for machine, machine_runs in runs_by_machine(runs).items():
        mine = commits(machine_runs)
        order = {id(run): i for i, commit in enumerate(mine) for run in commit.runs}
        experiments: dict[str, list[Result]] = {}
        for result in measured.get(machine, []):
            experiments.setdefault(result.experiment, []).append(result)
        series = []
        for experiment, results in sorted(experiments.items()):
            configuration = _headline(results, order)
            newest: dict[int, Result] = {}  # a commit's point: its newest folder's result
            for result in results:
                if result.configuration != configuration:
                    continue
                place = order[id(result.run)]
                if place not in newest or result.run.started > newest[place].run.started:
                    newest[place] = result
            points = [_point(newest[i].run, newest[i]) for i in sorted(newest)]
            if len(points) >= 2:
                _mark_steps(points)
                series.append(Series(experiment, points[-1].result.config_id, points))
        out.append(MachineHistory(machine, mine, series))
    return out


def summary(histories: list[MachineHistory]) -> list[str]:
    """The histories as lines of text: per machine its commits, then per experiment the
    headline configuration's rate at each commit, its interval and the steps beyond it."""
    lines = []
    for history in histories:
        label = {id(run): commit.label for commit in history.commits for run in commit.runs}
        commits = ", ".join(commit.label for commit in history.commits)
        lines.append(f"{history.machine.name}: {len(history.commits)} commit"
                     f"{'s' if len(history.commits) != 1 else ''} ({commits})")
        if not history.series:
            lines.append("  no configuration was measured at two of its commits")
        for series in history.series:
            lines.append(f"  {series.experiment}  {series.config_id}")
            before = None
            for point in series.points:
                step = f"  {point.step} {point.rate / before.rate:.3f}x" if point.step else ""
                lines.append(f"    {label[id(point.run)]:<18} {point.rate:.3e} "
                             f"[{point.low:.3e}, {point.high:.3e}] updates/s{step}")
                before = point
    return lines
