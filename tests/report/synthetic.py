"""Synthetic results folders as harness/results.schema.json describes them, for the report tests.

`standard_run` writes one run that exercises every kind of table cell of
fujita2017-table1 (best of several, verified, failed verification, unsupported, computed
speed-up, ratios, a faster run of another problem that must not fill the cell) plus untagged
configurations for the throughput plot and hostile text that must come out escaped.
`STANDARD_EXPECT` says what each cell must show. Two rows of fujita2017-table3 come from an
out-of-core run of the published problem: one with its phases (`PHASES_EXPECT`), one whose
result records none. seed000-gpu's CUDA cell holds a reproduction on an H100 beside the
original program run on the same machine (`SEED000_GPU`). GPU results record the ceilings
kernels/cuda/ceilings.cuh measures, as the C++ writes them; CPU results no device name.
`write_experiments` writes README files naming each experiment's bound.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TABLE = "fujita2017-table1"
H100 = "NVIDIA H100 80GB HBM3"
CPU = "AMD EPYC 9654 96-Core Processor"
HOST = "gpu-node-1"
# The machine the report derives for a folder of the standard manifest with H100 results,
# which records none.
MACHINE = "h100-80gb-hbm3-epyc-16t (derived)"
# An H100's device(): runtime.cuh's device_info() plus ceilings.cuh's measured ceilings,
# numbers as std::to_string writes them.
H100_DEVICE = {
    "api": "CUDA",
    "name": H100,
    "compute_capability": "9.0",
    "sm_count": "132",
    "sm_clock_max_mhz": "1980",
    "memory_clock_max_mhz": "2619",
    "memory_bus_width_bits": "5120",
    "memory_bandwidth_peak_gb_per_s": "3352",
    "global_memory_bytes": "84929347584",
    "copy_bandwidth_measured_gb_per_s": "2905.183471",
    "lop3_per_s_measured": "16203847125331.000000",
}
H100_LOP3 = 16203847125331.0
H100_PEAK_BANDWIDTH = 3352e9
# Bounds the standard run's experiments name (write_experiments).
BOUNDS = {
    "cpu-trivial": "logic",
    "cpu-bpbc": "logic",
    "cuda-byte-naive": "memory",
    "cuda-bpbc": "memory",
    "cuda-lop3-shuffle": "logic",
    "cuda-outofcore": "memory",
}
DIFFERENCE = "cell (3, 7): expected 1, got 0"
UNSUPPORTED = "width must be a multiple of 128"
HOSTILE = '<script>alert("x")</script>'
BINARY_HASH = "0x0123456789abcdef"


def machine(name: str) -> dict[str, Any]:
    """A manifest's `machine`, named as with --machine."""
    return {"name": name, "name_source": "given", "cpu": CPU, "physical_cores": 8,
            "logical_cores": 16, "memory_bytes": 64 << 30, "gpus": [], "os": "Linux",
            "compilers": {"cxx": "GNU 12.2.0", "cuda": "off"}}


def manifest(run_id: str = "synthetic", **overrides: Any) -> dict[str, Any]:
    data = {
        "schema": 1,
        "run_id": run_id,
        "started": "2026-11-22T15:30:00Z",
        "finished": "2026-11-22T15:40:00Z",
        "sweeps": ["cpu", "gpu"],
        "impl": "*",
        "time_limit_s": None,
        "command": ["lifebench", "bench", "--sweep", "cpu", "--sweep", "gpu"],
        "build": {
            "version": "0.1.0",
            "build_type": "Release",
            "preset": "sweep-gpu",
            "cxx_compiler": "GNU 12.2.0",
            "cxx_flags": "-O3 -DNDEBUG",
            "cuda_compiler": "NVIDIA 13.0.48",
            "cuda_architectures": "90",
            "highway": "1.0.3",
            "git_commit": "0123456789abcdef0123456789abcdef01234567",
            "git_dirty": False,
        },
        "host": {
            "cpu": CPU,
            "logical_cores": 16,
            "hwy_targets": ["AVX3", "AVX2", "SSE4"],
            "hostname": HOST,
            "os": "Linux 6.1.0 x86_64",
        },
        "experiments": {
            "cpu-trivial": {
                "available": True,
                "reason": None,
                "backend": "cpu",
                "family": "square",
                "source": "seed 003 section 9",
                "technique": "word-per-cell",
                "binary": "/build/bin/experiments/lifebench-exp-cpu-trivial",
                "binary_hash": BINARY_HASH,
            },
            "opencl-basic": {
                "available": False,
                "reason": "no OpenCL platform",
                "backend": "opencl",
                "family": "square",
                "source": "seed 000",
                "technique": "basic",
                "binary": "/build/bin/experiments/lifebench-exp-opencl-basic",
                "binary_hash": BINARY_HASH,
            },
        },
        "configurations": {
            "total": 0,
            "done": 0,
            "ok": 0,
            "failed": 0,
            "unsupported": 0,
            "unavailable": 0,
        },
    }
    data.update(overrides)
    return data


def result(
    experiment: str,
    *,
    backend: str = "cpu",
    shape: str = "16384x16384",
    generations: int = 1024,
    rate: float | None = None,
    status: str = "ok",
    verification: str | None = None,
    first_difference: str | None = None,
    reason: str | None = None,
    tie: tuple[str, str] | tuple[str, str, str] | None = None,
    ties: list[tuple[str, str] | tuple[str, str, str]] | None = None,
    params: dict[str, str] | None = None,
    device: str | None = None,
    bytes_per_second: float | None = None,
    phases: dict[str, float] | None = None,
    instructions: float | None = None,
    rule: str = "B3/S23",
) -> dict[str, Any]:
    """One configuration. `tie`, or each of `ties`, is (row, column) of fujita2017-table1 or
    (table, row, column). `phases` gives each phase's seconds as a fraction of the median.
    `device` H100 records the H100's ceilings; `instructions` (per cell update) too."""
    cells = 1
    for n in shape.split("x"):
        cells *= int(n)
    params = params or {}
    problem = f"{rule}:T{shape.replace('x', ',')}"
    if verification is None:
        verification = {"ok": "passed", "failed": "failed"}.get(status, "not_run")
    data: dict[str, Any] = {
        "config_id": f"{experiment}|{problem}|g{generations}|"
        + ",".join(f"{k}={v}" for k, v in params.items()),
        "experiment": experiment,
        "backend": backend,
        "family": "square",
        "params": params,
        "problem": problem,
        "rule": rule,
        "shape": shape,
        "boundary": "torus",
        "cells": cells,
        "generations": generations,
        "status": status,
        "reason": reason,
        "verification": {
            "status": verification,
            "problem": "B3/S23:T1024,1024",
            "generations": 5,
            "soup": "1024x1024,0.5,1",
            "reference_hash": "0x1234",
            "first_difference": first_difference,
        },
        "host": {"hwy_target": "AVX3"},
        "binary_hash": BINARY_HASH,
        "ties": [],
    }
    for cell in ([tie] if tie is not None else []) + (ties or []):
        table, row, column = cell if len(cell) == 3 else (TABLE, *cell)
        data["ties"].append({"table": table, "row": row, "column": column})
    if status == "ok":
        median = cells * generations / rate
        data["timing"] = {
            "clock": "steady_clock",
            "warmup": 1,
            "repetitions": 3,
            "seconds": [median] * 3,
            "median_s": median,
            "min_s": median,
            "max_s": median,
            "cv": 0.0,
        }
        if phases is not None:  # fractions of the median, as the harness's medians would be
            data["timing"]["phases"] = {k: f * median for k, f in phases.items()}
        data["throughput"] = {
            "cell_updates_per_second": rate,
            "seconds_per_generation": median / generations,
            "bytes_per_generation": (
                bytes_per_second * median / generations if bytes_per_second else None
            ),
            "bytes_per_second": bytes_per_second,
        }
        if device == H100:
            data["device"] = dict(H100_DEVICE)
        elif device is not None:
            data["device"] = {"name": device}
        else:  # CPU experiments record their threads, no name: the host's CPU is theirs
            data["device"] = {"threads": params.get("threads", "1")}
        if instructions is not None:
            data["device"]["instructions_per_cell_update"] = f"{instructions:f}"
    if status == "failed" and verification == "failed" and reason is None:
        data["reason"] = f"verification failed: {first_difference}"
    return data


def with_interval(result: dict[str, Any], relative: float) -> dict[str, Any]:
    """`result` with its median's 95 % interval `relative` of the median either side."""
    median = result["timing"]["median_s"]
    result["timing"]["median_ci"] = {"low_s": median * (1 - relative),
                                     "high_s": median * (1 + relative), "level": 0.95}
    return result


def write_run(
    folder: Path,
    results: list[dict[str, Any]],
    manifest_data: dict[str, Any] | None = None,
    with_manifest: bool = True,
) -> Path:
    """Writes manifest.json and one <experiment>.json per experiment, as `lifebench bench` does."""
    folder.mkdir(parents=True, exist_ok=True)
    by_experiment: dict[str, list] = {}
    for item in results:
        by_experiment.setdefault(item["experiment"], []).append(item)
    for i, (experiment, items) in enumerate(by_experiment.items()):
        name = experiment if experiment.replace("-", "").isalnum() else f"experiment-{i}"
        (folder / f"{name}.json").write_text(
            json.dumps({"schema": 1, "experiment": experiment, "configurations": items}, indent=1)
        )
    if with_manifest:
        data = manifest_data or manifest()
        counts = data["configurations"]
        counts["total"] = counts["done"] = len(results)
        for status in ("ok", "failed", "unsupported", "unavailable"):
            counts[status] = sum(1 for r in results if r["status"] == status)
        (folder / "manifest.json").write_text(json.dumps(data, indent=1))
    return folder


def named_run(folder: Path, results: list[dict[str, Any]], machine_name: str | None = None,
              commit: str | None = None, started: str = "2026-11-22T15:30:00Z") -> Path:
    """write_run() of a run whose id is the folder's name, started at `started`, of
    `machine_name` (as with --machine; None: no machine recorded) at `commit` (None: the
    manifest's)."""
    data = manifest(folder.name, started=started)
    if commit is not None:
        data["build"]["git_commit"] = commit
    if machine_name is not None:
        data["machine"] = machine(machine_name)
    return write_run(folder, results, data)


# Measured rates (cell updates/s) of the standard run's table cells.
CPU_WORD = (0.2e9, 0.3e9, 0.25e9)  # three configurations: the best (0.3e9) is shown
CPU_SINGLE = 8.0e9
GPU_WORD = 20e9
GPU_SINGLE = 600e9
# fujita2017-table3's problem, and the phases' fractions of the run's time (pipelined: they
# add up to more than the run).
TABLE3 = "fujita2017-table3"
TABLE3_COLUMNS = ["SSD read", "SSD write", "simulation", "total", "total rate"]
OUTOFCORE = 1.5e12
OUTOFCORE_PHASES = {"read": 0.1, "write": 0.05, "simulate": 0.9}


# seed000-gpu's CUDA cell: ours on the table's problem (the blog states none) beside the
# original program run on the same machine, and a faster run of another problem.
SEED000_GPU = "seed000-gpu"
LOP3_SHUFFLE = 17.0e12
LOP3_SHUFFLE_OTHER = 19.0e12  # 65536x65536: another problem, never in the cell
ORIGINAL = 23.49e12
ORIGINAL_NAME = "external-blog-gol-cu"
LOP3_SHUFFLE_INSTRUCTIONS = 0.3125  # 10 LOP3 per 32 cells
CPU_WORD_OTHER = 0.49e9  # 256x256: another problem than Table 1's, never in the cell


def standard_results() -> list[dict[str, Any]]:
    return [
        *[
            result(
                "cpu-trivial",
                rate=r,
                generations=32,
                params={"threads": str(t)},
                tie=("CPU", "word-per-cell"),
            )
            for t, r in zip((1, 2, 3), CPU_WORD)
        ],
        result(
            "cpu-trivial",
            rate=CPU_WORD_OTHER,
            shape="256x256",
            generations=256,
            tie=("CPU", "word-per-cell"),
        ),
        *[
            result(
                name,
                backend="cuda",
                rate=rate,
                device=H100,
                shape=shape,
                generations=2048,
                params=params,
                instructions=instructions,
                tie=(SEED000_GPU, "CUDA", "A40"),
            )
            for name, rate, shape, params, instructions in (
                ("cuda-lop3-shuffle", LOP3_SHUFFLE, "32768x32768",
                 {"work_per_thread": "16", "steps_per_launch": "16"}, LOP3_SHUFFLE_INSTRUCTIONS),
                ("cuda-lop3-shuffle", LOP3_SHUFFLE_OTHER, "65536x65536",
                 {"work_per_thread": "16", "steps_per_launch": "16"}, LOP3_SHUFFLE_INSTRUCTIONS),
                (ORIGINAL_NAME, ORIGINAL, "32768x32768", {}, None),
            )
        ],
        result("cpu-bpbc", rate=CPU_SINGLE, params={"words": "single"}, tie=("CPU", "SINGLE-WORD")),
        result(
            "cpu-bpbc",
            status="failed",
            params={"words": "double"},
            first_difference=DIFFERENCE,
            tie=("CPU", "DOUBLE-WORD"),
        ),
        result(
            "cuda-byte-naive",
            backend="cuda",
            rate=GPU_WORD,
            device=H100,
            tie=("GPU", "word-per-cell"),
        ),
        result(
            "cuda-bpbc",
            backend="cuda",
            rate=GPU_SINGLE,
            device=H100,
            params={"words": "single"},
            tie=("GPU", "SINGLE-WORD"),
        ),
        result(
            "cuda-bpbc",
            backend="cuda",
            status="unsupported",
            reason=UNSUPPORTED,
            params={"words": "double"},
            tie=("GPU", "DOUBLE-WORD"),
        ),
        *[
            result(
                "cuda-outofcore",
                backend="cuda",
                rate=OUTOFCORE,
                device=H100,
                shape="524288x524288",
                generations=16384,
                params={"halo_steps": str(steps)},
                phases=phases,
                ties=[(TABLE3, row, column) for column in TABLE3_COLUMNS],
            )
            for row, steps, phases in (("8K", 8192, OUTOFCORE_PHASES), ("16K", 16384, None))
        ],
        # Untagged: the throughput plot's size sweep.
        *[
            result("cpu-trivial", rate=r, shape=s, generations=64)
            for s, r in (("256x256", 0.9e9), ("1024x1024", 0.8e9), ("4096x4096", 0.35e9))
        ],
        *[
            result("cuda-byte-naive", backend="cuda", rate=r, shape=s, generations=64, device=H100)
            for s, r in (("1024x1024", 5e9), ("4096x4096", 18e9))
        ],
        result("opencl-basic", backend="opencl", status="unavailable", reason="no OpenCL platform"),
        result(
            "test-crash",
            status="failed",
            verification="not_run",
            reason="killed by signal 11 (Segmentation fault)",
        ),
        # Hostile text: must appear escaped, never as markup.
        result(HOSTILE, rate=1e8, shape="512x512", generations=16, params={"x": HOSTILE}),
    ]


def standard_run(folder: Path) -> Path:
    return write_run(folder, standard_results())


def write_experiments(folder: Path, bounds: dict[str, str] | None = None) -> Path:
    """experiments/<name>/README.md naming each experiment's bound, as the real ones do."""
    for name, kind in (bounds or BOUNDS).items():
        (folder / name).mkdir(parents=True, exist_ok=True)
        (folder / name / "README.md").write_text(
            f"# {name}\n\n**Technique.** Synthetic.\n\n**Bound.** `{kind}`: synthetic.\n"
        )
    return folder


def _ratio(a: float, b: float) -> float:
    return a / b


# What each cell of fujita2017-table1 must show for the standard run:
# (row, column) -> (status, measured value in 10^9 updates/s or None, text the cell must contain).
STANDARD_EXPECT: dict[tuple[str, str], tuple[str, float | None, str]] = {
    ("CPU", "word-per-cell"): ("passed", max(CPU_WORD) / 1e9, "best of 3"),  # not 256x256
    ("CPU", "SINGLE-WORD"): ("passed", CPU_SINGLE / 1e9, "verified"),
    ("CPU", "DOUBLE-WORD"): ("failed", None, DIFFERENCE),
    ("GPU", "word-per-cell"): ("passed", GPU_WORD / 1e9, "verified"),
    ("GPU", "SINGLE-WORD"): ("passed", GPU_SINGLE / 1e9, "verified"),
    ("GPU", "DOUBLE-WORD"): ("not_run", None, UNSUPPORTED),
    ("speed-up", "word-per-cell"): ("passed", _ratio(GPU_WORD, max(CPU_WORD)), "GPU / CPU"),
    ("speed-up", "SINGLE-WORD"): ("passed", _ratio(GPU_SINGLE, CPU_SINGLE), "GPU / CPU"),
    ("speed-up", "DOUBLE-WORD"): ("failed", None, "needs GPU and CPU"),
}


# fujita2017-table3's cells for the same run: times of the published problem at the measured
# rate, each phase its fraction of the total; the row without phases has totals only.
_TABLE3_SECONDS = 524288**2 * 16384 / OUTOFCORE
PHASES_EXPECT: dict[tuple[str, str], tuple[str, float | None, str]] = {
    ("8K", "SSD read"): ("passed", 0.1 * _TABLE3_SECONDS, "read: 10% of the timed run"),
    ("8K", "SSD write"): ("passed", 0.05 * _TABLE3_SECONDS, "write: 5% of the timed run"),
    ("8K", "simulation"): ("passed", 0.9 * _TABLE3_SECONDS, "simulate: 90% of the timed run"),
    ("8K", "total"): ("passed", _TABLE3_SECONDS, "verified"),
    ("8K", "total rate"): ("passed", OUTOFCORE / 1e9, "verified"),
    ("16K", "SSD read"): ("not_run", None, 'the result records no phase "read"'),
    ("16K", "simulation"): ("not_run", None, 'the result records no phase "simulate"'),
    ("16K", "total"): ("passed", _TABLE3_SECONDS, "verified"),
}


if __name__ == "__main__":  # synthetic.py DIR: write the standard run into DIR (for CTest)
    import shutil
    import sys

    if len(sys.argv) != 2:
        sys.exit("usage: synthetic.py DIR")
    shutil.rmtree(sys.argv[1], ignore_errors=True)
    print(standard_run(Path(sys.argv[1])))
