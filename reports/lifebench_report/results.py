"""Results folders (harness/RESULTS.md): manifest.json + one <experiment>.json per experiment.

What may legitimately be absent is tolerated and reported as a warning: the folder itself (the
sweep failed before creating it), manifest.json, any experiment file. What is present must be
well formed: malformed JSON or a result of the wrong shape stops the generator with one line,
because a report built on half-understood input would be wrong without saying so.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ReportError
from .units import NotConvertible

STATUSES = ("ok", "failed", "unsupported", "unavailable")
VERIFICATIONS = ("passed", "failed", "not_run")
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
    def problem_text(self) -> str:
        """The problem, with the soup density the sweep gave (sparse and dense soups differ)."""
        return self.problem + (f" density {self.density:g}" if self.density is not None else "")

    @property
    def backend(self) -> str:
        return _text(self.raw.get("backend")) or "?"

    @property
    def config_id(self) -> str:
        return _text(self.raw.get("config_id")) or f"{self.experiment} #{self.index + 1}"

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
    def measured_on(self) -> str:
        """`<device> on <host>`: where the number was measured."""
        return f"{self.device_label} on {self.run.host_label}"

    @property
    def external(self) -> bool:
        """An original program run as an experiment (not lifebench's code): a result or
        manifest entry marked `external`, or an experiment named external-*."""
        info = self.run.section("experiments").get(self.experiment)
        marked = self.raw.get("external") or (isinstance(info, dict) and info.get("external"))
        return bool(marked) or self.experiment.startswith("external-")

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

    @property
    def label(self) -> str:
        run_id = self.manifest.get("run_id") if self.manifest else None
        return run_id if isinstance(run_id, str) and run_id else self.folder.name

    def section(self, name: str) -> dict[str, Any]:
        value = self.manifest.get(name) if self.manifest else None
        return value if isinstance(value, dict) else {}

    @property
    def host_cpu(self) -> str | None:
        cpu = self.section("host").get("cpu")
        return cpu if isinstance(cpu, str) and cpu else None

    @property
    def host_label(self) -> str:
        """The host's name as the manifest records it."""
        name = self.section("host").get("hostname")
        return f"host {name}" if isinstance(name, str) and name else "an unrecorded host"

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
    labels = [run.label for run in runs]
    for run in runs:  # two folders of one run id: tell them apart by folder
        if labels.count(run.label) > 1 and run.manifest is not None:
            run.manifest = {**run.manifest, "run_id": f"{run.label} ({run.folder})"}
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


def _check_schema(path: Path, data: dict):
    schema = data.get("schema", SCHEMA)
    if schema != SCHEMA:
        raise ReportError(
            f"{path}: results schema {schema!r}, this generator reads schema {SCHEMA}"
        )


def _load_manifest(path: Path) -> dict[str, Any]:
    data = _read_json(path)
    if not isinstance(data, dict):
        raise ReportError(f"{path}: expected a JSON object")
    _check_schema(path, data)
    for key in ("build", "host", "experiments", "configurations"):
        if key in data and data[key] is not None and not isinstance(data[key], dict):
            raise ReportError(f"{path}: '{key}' must be an object")
    return data


def _load_experiment(path: Path, run: Run) -> list[Result]:
    data = _read_json(path)
    if not isinstance(data, dict):
        raise ReportError(f"{path}: expected a JSON object with 'configurations'")
    _check_schema(path, data)
    configurations = data.get("configurations")
    if not isinstance(configurations, list):
        raise ReportError(f"{path}: 'configurations' must be a list")
    experiment = data.get("experiment")
    if experiment is not None and not isinstance(experiment, str):
        raise ReportError(f"{path}: 'experiment' must be a string")
    return [
        _result(path, i, item, experiment or path.stem, run)
        for i, item in enumerate(configurations)
    ]


def _result(path: Path, index: int, item: Any, experiment: str, run: Run) -> Result:
    where = f"{path}: configurations[{index}]"

    def fail(message: str) -> ReportError:
        return ReportError(f"{where}: {message}")

    if not isinstance(item, dict):
        raise fail("expected an object")
    name = item.get("experiment", experiment)
    if not isinstance(name, str) or not name:
        raise fail("'experiment' must be a non-empty string")
    status = item.get("status")
    if status not in STATUSES:
        raise fail(f"'status' must be one of {', '.join(STATUSES)}, got {status!r}")
    reason = item.get("reason")
    if reason is not None and not isinstance(reason, str):
        raise fail("'reason' must be a string or null")

    verification_data = item.get("verification") or {}
    if not isinstance(verification_data, dict):
        raise fail("'verification' must be an object")
    verification = verification_data.get("status", "not_run")
    if verification not in VERIFICATIONS:
        raise fail(
            f"'verification.status' must be one of {', '.join(VERIFICATIONS)}, "
            f"got {verification!r}"
        )
    first_difference = verification_data.get("first_difference")
    if first_difference is not None and not isinstance(first_difference, str):
        raise fail("'verification.first_difference' must be a string or null")

    rate = bytes_per_second = None
    if status == "ok":
        throughput = item.get("throughput")
        if not isinstance(throughput, dict):
            raise fail("status ok but no 'throughput' object")
        rate = throughput.get("cell_updates_per_second")
        if not _is_number(rate) or rate <= 0:
            raise fail(
                f"'throughput.cell_updates_per_second' must be a positive number, got {rate!r}"
            )
        bytes_per_second = throughput.get("bytes_per_second")
        if bytes_per_second is not None and (
            not _is_number(bytes_per_second) or bytes_per_second <= 0
        ):
            raise fail("'throughput.bytes_per_second' must be a positive number or null")

    ties = _ties(item, fail)
    for key in ("params", "device", "timing"):
        if item.get(key) is not None and not isinstance(item[key], dict):
            raise fail(f"'{key}' must be an object")
    timing = item.get("timing") or {}
    median_s = timing.get("median_s")
    phases = timing.get("phases", {})
    if not isinstance(phases, dict) or not all(
        _is_number(v) and v >= 0 for v in phases.values()
    ):
        raise fail("'timing.phases' must be an object of phase name: seconds (numbers >= 0)")

    return Result(
        raw=item,
        run=run,
        file=path,
        index=index,
        experiment=name,
        status=status,
        reason=reason,
        verification=verification,
        first_difference=first_difference,
        rate=float(rate) if rate is not None else None,
        bytes_per_second=float(bytes_per_second) if bytes_per_second is not None else None,
        ties=ties,
        median_s=float(median_s) if _is_number(median_s) and median_s > 0 else None,
        phases={str(k): float(v) for k, v in phases.items()},
    )


def _ties(item: dict, fail) -> tuple[Tie, ...]:
    """`ties`, or `tag` (one object or null) of results written before ties."""
    cell = '{"table": ..., "row": ..., "column": ...} of strings'

    def tie(value: Any, what: str) -> Tie:
        if not isinstance(value, dict) or not all(
            isinstance(value.get(k), str) for k in ("table", "row", "column")
        ):
            raise fail(f"{what} must be {cell}, got {value!r}")
        return Tie(value["table"], value["row"], value["column"])

    if "ties" in item:
        if "tag" in item:
            raise fail("both 'ties' and 'tag' (the format before ties)")
        ties = item["ties"]
        if not isinstance(ties, list):
            raise fail(f"'ties' must be a list of {cell}")
        return tuple(tie(value, f"'ties[{i}]'") for i, value in enumerate(ties))
    tag = item.get("tag")
    return () if tag is None else (tie(tag, "'tag' (null or one cell)"),)


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
