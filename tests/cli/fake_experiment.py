# A stand-in experiment executable that speaks the protocol of harness/src
# (describe, run, verify, bench) and misbehaves on request, so that the driver's
# tests do not depend on any real experiment. The tests copy it into a folder as
# lifebench-exp-<name>, beside <name>.fake.json:
#   {"family": "square", "backend": "cpu", "axes": [...], "available": true,
#    "reason": null, "describe": "ok" | "crash" | "hang" | "garbage"}
# The parameter "mode" chooses what `bench` does: ok, crash, hang (with a child and a
# temporary file, their pid and path in <name>.grandchild and <name>.litter), exit3,
# nowrite, garbage, unsupported, partial (writes half a file, then is killed),
# stubborn (ignores SIGTERM and hangs), flood (writes to standard output nonstop),
# sleep (sleeps a second and records its GPU and span: <name>.spans, one JSON line each),
# slow (writes its pid to <name>.pid, then sleeps an hour).
# A describe that hangs first creates <name>.describing.
# Every bench call is appended to <name>.log as one JSON line.
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(sys.argv[0]))
NAME = os.path.basename(sys.argv[0])[len("lifebench-exp-"):]


def config():
    with open(os.path.join(HERE, NAME + ".fake.json")) as f:
        return json.load(f)


def fail(message, code=1):
    print("lifebench: error: " + message, file=sys.stderr)
    sys.exit(code)


def options(args):
    params, values = {}, {}
    i = 0
    while i < len(args):
        key = args[i]
        if i + 1 >= len(args):
            fail("option " + key + " needs a value")
        value = args[i + 1]
        if key == "--param":
            k, _, v = value.partition("=")
            params[k] = v
        else:
            values[key] = value
        i += 2
    return params, values


def describe(conf):
    mode = conf.get("describe", "ok")
    if mode == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "hang":
        open(os.path.join(HERE, NAME + ".describing"), "w").close()
        time.sleep(3600)
    if mode == "garbage":
        print("this is not JSON")
        return
    print(json.dumps({
        "name": NAME, "family": conf.get("family", "square"),
        "backend": conf.get("backend", "cpu"), "source": "test", "technique": "fake",
        "axes": conf.get("axes", []), "available": conf.get("available", True),
        "reason": conf.get("reason")}))


def write_whole(path, text):
    """Writes `text` beside `path` and renames it into place: a reader (a test that waits for
    the file to exist, or the driver) never sees it half written."""
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.rename(path + ".tmp", path)


def bench(conf, args):
    params, values = options(args)
    with open(os.path.join(HERE, NAME + ".log"), "a") as log:
        log.write(json.dumps({"params": params, "problem": values.get("--problem"),
                              "generations": values.get("--generations"),
                              "repetitions": values.get("--repetitions"),
                              "max_repetitions": values.get("--max-repetitions"),
                              "target_rel_ci": values.get("--target-rel-ci"),
                              "timing_budget_s": values.get("--timing-budget-s"),
                              "warmup": values.get("--warmup"),
                              "density": values.get("--density"),
                              # Logged where given, so that calls without them read as before.
                              **{k[2:]: values[k] for k in ("--pattern", "--offset")
                                 if k in values}}) + "\n")
    out = values["--json-out"]
    mode = params.get("mode", "ok")
    print("fake bench starting", file=sys.stderr, flush=True)
    if mode == "crash":
        print("about to crash", file=sys.stderr, flush=True)
        os.kill(os.getpid(), signal.SIGSEGV)
    if mode == "hang":
        # A grandchild in the same process group: the driver must kill it too.
        child = subprocess.Popen(["sleep", "3600"])
        write_whole(os.path.join(HERE, NAME + ".grandchild"), str(child.pid))
        # A temporary file, as an out-of-core run's universe, that only the driver can remove.
        with tempfile.NamedTemporaryFile(delete=False) as litter:
            write_whole(os.path.join(HERE, NAME + ".litter"), litter.name)
        time.sleep(3600)
    if mode == "slow":
        write_whole(os.path.join(HERE, NAME + ".pid"), str(os.getpid()))
        time.sleep(3600)
    if mode == "stubborn":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        time.sleep(3600)
    if mode == "flood":
        chunk = b"x" * 65536
        while True:
            sys.stdout.buffer.write(chunk)
    if mode == "exit3":
        fail("something went wrong\nboom: the last line", 3)
    if mode == "nowrite":
        return
    if mode == "garbage":
        with open(out, "w") as f:
            f.write("{not json")
        return
    if mode == "partial":
        with open(out + ".partial", "w") as f:
            f.write('{"status": "o')
        os.kill(os.getpid(), signal.SIGKILL)
    started = time.time()
    if mode == "sleep":
        time.sleep(1)
    problem = values["--problem"]
    generations = int(values["--generations"])
    # A result as harness/results.schema.json describes it, as the real ones are.
    rule, _, grid = problem.partition(":")
    sizes = [int(size) for size in grid[1:].split(",")]
    cells = 1
    for size in sizes:
        cells *= size
    density = float(values["--density"]) if "--density" in values else None
    result = {"experiment": NAME, "backend": conf.get("backend", "cpu"),
              "family": conf.get("family", "square"), "params": params, "problem": problem,
              "rule": rule, "shape": "x".join(map(str, sizes)),
              "boundary": "torus" if grid.startswith("T") else "dead", "cells": cells,
              "generations": generations, "density": density, "status": "ok", "reason": None,
              "verification": {"status": "passed", "problem": problem, "generations": 1,
                               "soup": "x".join(map(str, sizes)) + ",0.5,1",
                               "reference_hash": "0x1234", "first_difference": None}}
    if mode == "unsupported":
        result.update(status="unsupported", reason="width must be a multiple of 64",
                      verification={"status": "not_run"})
    else:
        repetitions = int(values["--repetitions"])
        result["timing"] = {"clock": "steady_clock", "median_s": 0.5, "min_s": 0.5,
                            "max_s": 0.5, "cv": 0.0, "seconds": [0.5] * repetitions,
                            "repetitions": repetitions, "warmup": int(values["--warmup"]),
                            "target_rel_ci": float(values["--target-rel-ci"])}
        result["throughput"] = {"cell_updates_per_second": 1.234e9,
                                "seconds_per_generation": 0.5 / generations,
                                "bytes_per_generation": None, "bytes_per_second": None}
        result["device"] = {"name": "fake device"}
    if mode == "sleep":
        with open(os.path.join(HERE, NAME + ".spans"), "a") as spans:
            spans.write(json.dumps({"gpu": os.environ.get("CUDA_VISIBLE_DEVICES"),
                                    "start": started, "end": time.time(),
                                    "threads": params.get("threads")}) + "\n")
    write_whole(out, json.dumps(result))


def main():
    conf = config()
    if len(sys.argv) < 2:
        fail("a subcommand is required")
    command, args = sys.argv[1], sys.argv[2:]
    if not conf.get("available", True) and command in ("run", "verify"):
        fail(NAME + " is unavailable: " + str(conf.get("reason")), 77)
    if command == "describe":
        describe(conf)
    elif command == "bench":
        bench(conf, args)
    elif command == "run":
        print("fake run " + " ".join(args))
        sys.exit(conf.get("run_exit", 0))
    elif command == "verify":
        print("fake verify " + NAME)
        sys.exit(conf.get("verify_exit", 0))
    else:
        fail("unknown subcommand " + command)


main()
