"""Results folders (harness/RESULTS.md): manifest.json + one <experiment>.json per experiment.

What may legitimately be absent is tolerated and reported as a warning: the folder itself (the
sweep failed before creating it), manifest.json, any experiment file. What is present must be
well formed: malformed JSON or a file that harness/results.schema.json does not describe stops
the generator with one line, because a report built on half-understood input would be wrong
without saying so.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .errors import ReportError
from .machines import Machine, machine_of, one_description
from .schema import check as check_against_schema
from .units import NotConvertible

SCHEMA = 1


@dataclass(frozen=True)
class Tie:
    """A published table cell a result fills."""

    table: str
    row: str
    column: str

    def __str__(self) -> str:
        return f"{self.table} / {self.row} / {self.column}"


@dataclass
class Result:
    """One configuration of one experiment, as one results file records it."""

    raw: dict[str, Any]
    run: "Run"
    file: Path
    index: int
    experiment: str
    status: str
    reason: str | None
    verification: str  # passed | failed | not_run
    first_difference: str | None
    rate: float | None  # cell updates per second, ok results only
    bytes_per_second: float | None
    ties: tuple[Tie, ...]  # the cells it fills, none for an untied result
    median_s: float | None = None  # timing.median_s, the time the rate was computed from
    phases: dict[str, float] = field(default_factory=dict)  # timing.phases: median s per phase

    @property
    def verified(self) -> bool:
        return self.status == "ok" and self.verification == "passed"

    @property
    def params(self) -> dict[str, str]:
        params = self.raw.get("params")
        return {str(k): _text(v) for k, v in params.items()} if isinstance(params, dict) else {}

    @property
    def params_text(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.params.items()) or "defaults"

    @property
    def family(self) -> str | None:
        """The experiment's family of grids ("square", "hex", "3d"), as the result records it."""
        family = self.raw.get("family")
        return family if isinstance(family, str) and family else None

    @property
    def problem(self) -> str:
        return _text(self.raw.get("problem")) or "?"

    @property
    def rule(self) -> str | None:
        return _text(self.raw.get("rule")) or None

    @property
    def boundary(self) -> str | None:
        return _text(self.raw.get("boundary")) or None

    @property
    def shape(self) -> str | None:
        return _text(self.raw.get("shape")) or None

    @property
    def cells(self) -> int | None:
        return _positive_int(self.raw.get("cells"))

    @property
    def generations(self) -> int | None:
        return _positive_int(self.raw.get("generations"))

    @property
    def density(self) -> float | None:
        """The soup density the sweep gave (its config_id then ends with |density=D);
        None for the family's own soup density, as in every result written before."""
        density = self.raw.get("density")
        given = "|density=" in self.config_id
        return float(density) if given and _is_number(density) else None

    @property
    def pattern(self) -> str | None:
        """The pattern file that started the run instead of soups, as the sweep named it;
        None for soups."""
        pattern = self.raw.get("pattern")
        return _text(pattern.get("path")) if isinstance(pattern, dict) else None

    @property
    def problem_text(self) -> str:
        """The problem, with the soup density the sweep gave (sparse and dense soups differ)
        or the pattern that started it."""
        start = f" density {self.density:g}" if self.density is not None else ""
        return self.problem + start + (f" pattern {self.pattern}" if self.pattern else "")

    @property
    def backend(self) -> str:
        return _text(self.raw.get("backend")) or "?"

    @property
    def config_id(self) -> str:
        return _text(self.raw.get("config_id")) or f"{self.experiment} #{self.index + 1}"

    @property
    def configuration(self) -> str:
        """What names the same configuration in every run: the config_id with the parameters
        the result records it ran with, defaults included, so that a default given in one
        sweep and left out in another is one configuration (as `lifebench compare` matches)."""
        parts = self.config_id.split("|")
        if not self.params or len(parts) < 4:
            return self.config_id
        parts[3] = ",".join(f"{k}={v}" for k, v in sorted(self.params.items()))
        return "|".join(parts)

    @property
    def device(self) -> dict[str, str]:
        device = self.raw.get("device")
        return {str(k): _text(v) for k, v in device.items()} if isinstance(device, dict) else {}

    @property
    def device_name(self) -> str | None:
        device = self.raw.get("device")
        if isinstance(device, dict) and isinstance(device.get("name"), str):
            return device["name"]
        return None

    @property
    def device_label(self) -> str:
        """The device it ran on: the result's device name, else (CPU experiments record
        none) its host's CPU."""
        return self.device_name or self.run.host_cpu or "device not recorded"

    @property
    def external(self) -> bool:
        """An original program run as an experiment (not lifebench's code): a result or
        manifest entry marked `external`, or an experiment named external-*."""
        info = self.run.section("experiments").get(self.experiment)
        marked = self.raw.get("external") or (isinstance(info, dict) and info.get("external"))
        return bool(marked) or self.experiment.startswith("external-")

    @property
    def anchor(self) -> str:
        """The id of its row in a configurations list, which its numbers link to."""
        where = f"{self.run.label}-{self.file.stem}-{self.index}"
        return "r-" + re.sub(r"[^A-Za-z0-9_.-]", "_", where)

    @property
    def source(self) -> str:
        """`<machine> · <folder> @ <commit>`: the run a number comes from."""
        return f"{self.run.machine.label} \u00b7 {self.run.label} @ {self.run.commit}"

    @property
    def stderr_tail(self) -> str | None:
        return _text(self.raw.get("stderr_tail")) or None

    def phase_fraction(self, phase: str) -> float:
        """The phase's median seconds over the run's: the share of a converted time it took."""
        if phase not in self.phases:
            raise NotConvertible(f'the result records no phase "{phase}"')
        if self.median_s is None:
            raise NotConvertible("the result records no timing.median_s")
        return self.phases[phase] / self.median_s

    @property
    def why_not(self) -> str:
        """One line: why this result carries no number (empty for a verified one)."""
        if self.status == "ok" and self.verification != "passed":
            return (
                f"timed but verification {self.verification.replace('_', ' ')}: no number is shown"
            )
        if self.status == "failed" and self.verification == "failed":
            return f"verification failed: {self.first_difference or self.reason or 'no detail'}"
        return self.reason or f"{self.status}, no reason recorded"


@dataclass
class Run:
    """One results folder."""

    folder: Path
    manifest: dict[str, Any] | None = None
    results: list[Result] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    # The folder's name where it lies now, which a reader can find; the manifest's run id is
    # the name it was measured into, which a folder moved into results/reference no longer has.
    label: str = ""

    def __post_init__(self) -> None:
        self.label = self.label or self.folder.name

    def section(self, name: str) -> dict[str, Any]:
        value = self.manifest.get(name) if self.manifest else None
        return value if isinstance(value, dict) else {}

    @cached_property
    def machine(self) -> Machine:
        return machine_of(self)

    @property
    def started(self) -> str:
        """The manifest's start time (ISO 8601, so that text order is time order); empty
        where not recorded, older than any."""
        started = (self.manifest or {}).get("started")
        return started if isinstance(started, str) else ""

    @property
    def short_commit(self) -> str:
        """The short commit it was built from, `(dirty)` marked."""
        build = self.section("build")
        commit = build.get("git_commit")
        text = str(commit)[:9] if commit else "commit not recorded"
        if commit and build.get("git_dirty"):
            text += " (dirty)"
        return text

    @property
    def commit(self) -> str:
        """short_commit, and the source tree's hash where the manifest records one."""
        tree = self.section("build").get("source_hash")
        if isinstance(tree, str) and tree:
            return f"{self.short_commit}, tree {tree.removeprefix('sha256:')[:9]}"
        return self.short_commit

    @property
    def host_cpu(self) -> str | None:
        cpu = self.section("host").get("cpu")
        return cpu if isinstance(cpu, str) and cpu else None

    @property
    def parallel_gpus(self) -> int:
        """How many one-GPU configurations ran at once (--parallel-gpus); 1 when not recorded."""
        n = (self.manifest or {}).get("parallel_gpus", 1)
        return n if isinstance(n, int) and n > 1 else 1

    @property
    def devices(self) -> list[str]:
        """Device names: the manifest's `devices` if it has them, then those results report."""
        names: list[str] = []
        listed = self.manifest.get("devices") if self.manifest else None
        items = (
            listed.values()
            if isinstance(listed, dict)
            else listed if isinstance(listed, list) else []
        )
        for item in items:
            name = item.get("name") if isinstance(item, dict) else item
            if isinstance(name, str) and name not in names:
                names.append(name)
        for result in self.results:
            if result.device_name and result.device_name not in names:
                names.append(result.device_name)
        return names


def load_runs(folders: list[Path]) -> list[Run]:
    runs = [load_run(folder) for folder in folders]
    one_description(runs)
    # Two folders of one name: told apart by the folder above them, else also by their place
    # among the folders given (never by their paths, which a site must not show).
    longer_labels = (
        lambda run, _: f"{run.folder.parent.name}/{run.folder.name}",
        lambda run, place: f"{run.folder.parent.name}/{run.folder.name} ({place})",
    )
    for longer in longer_labels:
        labels = [run.label for run in runs]
        for place, run in enumerate(runs, start=1):
            if labels.count(run.label) > 1:
                run.label = longer(run, place)
    return runs


def load_run(folder: Path) -> Run:
    run = Run(folder=folder.resolve())
    if not folder.exists():
        run.warnings.append("the results folder does not exist: nothing was recorded")
        return run
    if not folder.is_dir():
        raise ReportError(f"results path {folder} is not a folder")
    manifest_path = folder / "manifest.json"
    if manifest_path.exists():
        run.manifest = _load_manifest(manifest_path)
        if run.manifest.get("finished") is None:
            run.warnings.append(
                "the run did not finish (manifest.json has no 'finished' time): "
                "results may be incomplete"
            )
    else:
        run.warnings.append("manifest.json is missing: the environment of this run is unknown")
    # Writers rename complete files into place; dot files and *.tmp are theirs, not ours.
    # benchmarks.json holds the same results in Google Benchmark's format.
    files = sorted(
        p
        for p in folder.glob("*.json")
        if p.name not in ("manifest.json", "benchmarks.json")
        and not p.name.startswith(".")
        and p.is_file()
    )
    for path in files:
        run.results.extend(_load_experiment(path, run))
    if not files:
        run.warnings.append("no experiment results in this folder")
    expected = _positive_int(run.section("configurations").get("total"))
    if expected is not None and expected > len(run.results):
        run.warnings.append(
            f"the manifest announces {expected} configurations, "
            f"the folder records {len(run.results)}"
        )
    return run


def _read_json(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise ReportError(f"{path}: not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise ReportError(f"{path}: cannot read: {e.strerror}") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise ReportError(
            f"{path}: malformed JSON at line {e.lineno} column {e.colno}: {e.msg}"
        ) from None
    except ValueError as e:
        raise ReportError(f"{path}: malformed JSON: {e}") from None


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _check_schema(path: Path, data: Any, kind: str):
    """The results schema's version first (another one is refused as such), then the whole
    file against harness/results.schema.json's definition of its kind."""
    if not isinstance(data, dict):
        raise ReportError(f"{path}: expected a JSON object")
    version = data.get("schema", SCHEMA)
    if version != SCHEMA:
        raise ReportError(
            f"{path}: results schema {version!r}, this generator reads schema {SCHEMA}"
        )
    check_against_schema(path, data, kind)


def _load_manifest(path: Path) -> dict[str, Any]:
    data = _read_json(path)
    _check_schema(path, data, "manifest")
    return data


def _load_experiment(path: Path, run: Run) -> list[Result]:
    data = _read_json(path)
    _check_schema(path, data, "experiment_results")
    return [_result(path, i, item, run) for i, item in enumerate(data["configurations"])]


def _result(path: Path, index: int, item: dict[str, Any], run: Run) -> Result:
    """A result the schema has checked."""
    status = item["status"]
    verification = item["verification"]
    throughput = item.get("throughput", {})
    rate = throughput.get("cell_updates_per_second") if status == "ok" else None
    bytes_per_second = throughput.get("bytes_per_second") if status == "ok" else None
    timing = item.get("timing", {})
    median_s = timing.get("median_s")
    return Result(
        raw=item,
        run=run,
        file=path,
        index=index,
        experiment=item["experiment"],
        status=status,
        reason=item["reason"],
        verification=verification["status"],
        first_difference=verification.get("first_difference"),
        rate=float(rate) if rate is not None else None,
        bytes_per_second=float(bytes_per_second) if bytes_per_second is not None else None,
        ties=_ties(item),
        median_s=float(median_s) if median_s else None,
        phases={str(k): float(v) for k, v in timing.get("phases", {}).items()},
    )


def _ties(item: dict) -> tuple[Tie, ...]:
    """`ties`, or `tag` (one cell or null) of results written before ties."""
    cells = item["ties"] if "ties" in item else [item["tag"]] if item.get("tag") else []
    return tuple(Tie(cell["table"], cell["row"], cell["column"]) for cell in cells)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _positive_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value)
