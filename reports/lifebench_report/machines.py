"""Which machine measured a result, and which of a machine's runs a number comes from.

A results folder records its machine (manifest `machine`: a name given with --machine or
derived by the bench from the hardware). A folder written before that is given a name derived
here from what it does record: the GPUs its results ran on, the host's CPU model and logical
cores, e.g. `h100-80gb-hbm3-xeon-16t`; such a name is marked as derived by the report, for two
machines of one kind get one name and a CPU-only folder of a GPU machine knows no GPU.

Numbers are never the best across runs: for each machine a cell or a plot point takes the
newest run (the manifest's `started`) that holds a result for it, and only that run's results.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from .results import Result, Run

# CPU model words that say nothing of the model: "Intel(R) Xeon(R) Processor" is a Xeon.
_CPU_NOISE = re.compile(r"\((R|TM)\)|\b(Intel|AMD|CPU|Processor|[0-9]+-Core)\b|@.*$", re.I)


@dataclass(frozen=True)
class Machine:
    name: str
    derived_here: bool = False  # named by the report from an older folder's host and devices
    # What the manifest records of it, for the index; one name is one machine, whatever the
    # driver or the OS was at the time.
    facts: tuple[tuple[str, str], ...] = field(default=(), compare=False)

    @property
    def label(self) -> str:
        return self.name + (" (derived)" if self.derived_here else "")

    @property
    def how(self) -> str:
        """One sentence: where the name comes from."""
        if self.derived_here:
            return (
                "named by the report from the folder's host (CPU model, logical cores) and the "
                "GPUs its results ran on: the folder records no machine"
            )
        if dict(self.facts).get("name_source") == "assigned":
            return f"assigned afterwards: {dict(self.facts).get('note', '')}"
        return "as the results folder records it"


def machine_of(run: Run) -> Machine:
    recorded = run.section("machine")
    if isinstance(recorded.get("name"), str) and recorded["name"]:
        facts = tuple(
            (key, _fact(value)) for key, value in recorded.items() if key != "name" and value
        )
        return Machine(recorded["name"], False, facts)
    return Machine(_derived_name(run), True)


def one_description(runs: Iterable[Run]) -> None:
    """Gives every run of one machine the same Machine: a recorded one's over one assigned
    afterwards, over one derived here, whatever order the folders were given in."""
    runs = list(runs)

    def trust(machine: Machine) -> int:
        if machine.derived_here:
            return 0
        return 1 if dict(machine.facts).get("name_source") == "assigned" else 2

    chosen: dict[Machine, Machine] = {}
    for run in runs:
        held = chosen.get(run.machine)
        if held is None or trust(run.machine) > trust(held):
            chosen[run.machine] = run.machine
    for run in runs:
        run.machine = chosen[run.machine]  # the cached property's value, replaced


def _fact(value) -> str:
    if isinstance(value, list):
        return "; ".join(_fact(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _derived_name(run: Run) -> str:
    host = run.section("host")
    if run.manifest is None:
        return f"unrecorded-{slug(run.label)}"
    cpu = slug(_CPU_NOISE.sub(" ", str(host.get("cpu", "")))).split("-")[0] or "cpu"
    cores = host.get("logical_cores")
    parts = [f"{cpu}-{cores}t" if isinstance(cores, int) else cpu]
    gpus, count = _gpus(run)
    if gpus:
        gpu = slug(re.sub(r"^NVIDIA\s+", "", gpus[0]))
        parts.insert(0, f"{count}x-{gpu}" if count > 1 else gpu)
    return "-".join(parts)


def _gpus(run: Run) -> tuple[list[str], int]:
    """The GPU models the folder's results ran on, and how many GPUs the host had at least
    (distinct CUDA_VISIBLE_DEVICES of one-GPU runs, or a multi-GPU run's count)."""
    names: list[str] = []
    visible: set[str] = set()
    count = 1
    for result in run.results:
        device = result.device
        # CPU experiments name no device; an OpenCL CPU device's name holds the host's CPU.
        if not result.device_name or (run.host_cpu and run.host_cpu in result.device_name):
            continue
        if result.device_name not in names:
            names.append(result.device_name)
        if device.get("cuda_visible_devices"):
            visible.add(device["cuda_visible_devices"])
        if device.get("gpus", "").isdigit():
            count = max(count, int(device["gpus"]))
    return names, max(count, len(visible))


def newest(results: Iterable[Result]) -> tuple[list[Result], list[Run]]:
    """Of one machine's results, those of the newest run among them, and the older runs
    that also hold some (superseded: listed, never shown)."""
    results = list(results)
    runs: list[Run] = []
    for result in results:
        if all(result.run is not run for run in runs):
            runs.append(result.run)
    if not runs:
        return [], []
    runs.sort(key=lambda run: (run.started, run.label), reverse=True)
    return [r for r in results if r.run is runs[0]], runs[1:]


def by_machine(results: Iterable[Result]) -> dict[Machine, list[Result]]:
    """Results grouped by machine, machines in name order."""
    groups: dict[Machine, list[Result]] = {}
    for result in results:
        groups.setdefault(result.run.machine, []).append(result)
    return dict(sorted(groups.items(), key=lambda item: item[0].name))


def runs_by_machine(runs: Iterable[Run]) -> dict[Machine, list[Run]]:
    """Runs grouped by machine, machines in name order."""
    groups: dict[Machine, list[Run]] = {}
    for run in runs:
        groups.setdefault(run.machine, []).append(run)
    return dict(sorted(groups.items(), key=lambda item: item[0].name))


def current(results: Iterable[Result], key) -> dict[tuple[Machine, Any], list[Result]]:
    """For each machine and `key(result)` (a plot's series and x), the results of the newest
    run that has any: a point is one run's, never the best across runs."""
    return fullest(results, key, lambda result: None)  # every run one place: the newest


def fullest(results: Iterable[Result], key, place) -> dict[tuple[Machine, Any], list[Result]]:
    """For each machine and `key(result)` (a plot's series), the results of one run: the one
    with the most distinct `place(result)` (a line's x values), the newest of equals, so that a
    line joins the points of one run."""
    groups: dict[tuple[Machine, Any], dict[int, list[Result]]] = {}
    for result in results:
        runs = groups.setdefault((result.run.machine, key(result)), {})
        runs.setdefault(id(result.run), []).append(result)

    def size(members: list[Result]) -> tuple:
        run = members[0].run
        return (len({place(r) for r in members}), run.started, run.label)

    return {group: max(runs.values(), key=size) for group, runs in groups.items()}


def on_machine(label: str, machine: Machine, machines: int) -> str:
    """A series' label, with its machine where a figure shows several."""
    return f"{label} on {machine.label}" if machines > 1 else label
