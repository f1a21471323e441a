"""lifebench compare OLD NEW on results folders written here (harness/RESULTS.md): verdicts
against the noise, the regression gate (also on the committed reference folders made ten
times slower), configurations in one folder only, bad folders and times, and the U test's
p-values against scipy's (skipped where scipy is not installed)."""
import json
import os
import random
import re
import shutil
import subprocess

import lbtest


def result(experiment, problem, seconds, params="", status="ok", verification="passed",
           reason=None, generations=16, cells=65536):
    """One result as the driver records it; its rate from the median of `seconds`."""
    config_id = "%s|%s|g%d|%s" % (experiment, problem, generations, params)
    entry = {"config_id": config_id, "experiment": experiment, "problem": problem,
             "generations": generations, "cells": cells, "status": status, "reason": reason,
             "verification": {"status": verification}}
    if status == "ok":
        ordered = sorted(seconds)
        n = len(ordered)
        median = ordered[n // 2] if n % 2 else (ordered[n // 2 - 1] + ordered[n // 2]) / 2
        entry["timing"] = {"seconds": ordered, "median_s": median, "repetitions": n}
        entry["throughput"] = {"cell_updates_per_second": cells * generations / median}
        entry["device"] = {"name": "Test CPU"}
    return entry


def write_run(folder, results, schema=1):
    """A results folder: its manifest and one file per experiment."""
    os.makedirs(folder, exist_ok=True)
    by_experiment = {}
    for r in results:
        by_experiment.setdefault(r["experiment"], []).append(r)
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump({"schema": schema, "run_id": os.path.basename(folder),
                   "started": "2026-01-01T00:00:00Z", "finished": "2026-01-01T00:01:00Z",
                   "host": {"cpu": "Test CPU"},
                   "configurations": {"total": len(results), "done": len(results)}}, f)
    for experiment, entries in by_experiment.items():
        with open(os.path.join(folder, experiment + ".json"), "w") as f:
            json.dump({"schema": schema, "experiment": experiment,
                       "configurations": entries}, f)
    return folder


FAST = [1.00, 1.01, 1.02, 1.03, 1.04]
SLOW = [1.20, 1.21, 1.22, 1.23, 1.24]  # 20 % more time


class CompareTest(lbtest.CliTestCase):
    def compare(self, old, new, *args):
        return self.box.run("compare", old, new, *args)

    def line_of(self, proc, problem):
        """The one line holding `problem`, its columns one space apart."""
        lines = [line for line in proc.stdout.splitlines() if problem in line]
        self.assertEqual(len(lines), 1, proc.stdout)
        return " ".join(lines[0].split())

    def test_verdicts_rates_and_ratio(self):
        old = write_run(self.box.path("old"), [
            result("cpu-a", "B3/S23:T256,256", FAST),
            result("cpu-a", "B3/S23:T512,512", SLOW),
            result("cpu-a", "B3/S23:T64,64", [1.0, 1.1, 0.9, 1.05, 0.95]),
            result("cpu-b", "B3/S23:T256,256", FAST[:3], params="threads=4"),
        ])
        new = write_run(self.box.path("new"), [
            result("cpu-a", "B3/S23:T256,256", SLOW),
            result("cpu-a", "B3/S23:T512,512", FAST),
            result("cpu-a", "B3/S23:T64,64", [1.02, 1.08, 0.92, 1.0, 0.97]),
            result("cpu-b", "B3/S23:T256,256", SLOW[:3], params="threads=4"),
        ])
        proc = self.compare(old, new)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # OLD / NEW median time, within [old min / new max, old max / new min]: each side's
        # five values hold their median with probability 0.9375, both 0.88.
        slower = self.line_of(proc, "T256,256  g16   -")
        self.assertRegex(slower, r"^cpu-a\s+B3/S23:T256,256\s+g16\s+-\s+\S+\s+\S+\s+"
                                 r"0\.836 \[0\.806, 0\.867\]\s+slower \(5 vs 5 repetitions, "
                                 r"interval level >= 0\.88; p = 0\.00794\)$")
        self.assertIn("1.196 [1.154, 1.240] faster (5 vs 5", self.line_of(proc, "T512,512"))
        self.assertIn("same within the noise (5 vs 5 repetitions, interval level >= 0.88; p = ",
                      self.line_of(proc, "T64,64"))
        # Three repetitions a side cannot give p below 0.1, but their ranges are apart.
        three = self.line_of(proc, "threads=4")
        self.assertIn("slower (3 vs 3 repetitions, interval level >= 0.56; p = 0.1: too few "
                      "repetitions for p <= 0.05)", three)
        self.assertIn("4 configurations in both: 1 faster, 2 slower, 1 same; 0 only in OLD, "
                      "0 only in NEW", proc.stdout)
        # At a level they can reach, the U test has its say too.
        proc = self.compare(old, new, "--alpha", "0.1")
        self.assertIn("slower (3 vs 3 repetitions, interval level >= 0.56; p = 0.1)",
                      self.line_of(proc, "threads=4"))
        # Where they cannot reach it, the intervals alone decide.
        proc = self.compare(old, new, "--alpha", "0.005")
        self.assertIn("slower (5 vs 5 repetitions, interval level >= 0.88; p = 0.00794: too "
                      "few repetitions for p <= 0.005)", self.line_of(proc, "T256,256  g16   -"))

    def test_direction_and_significance_from_the_seconds(self):
        old = write_run(self.box.path("old"), [result("cpu-a", "B3/S23:T256,256", FAST)])
        slower = result("cpu-a", "B3/S23:T256,256", SLOW)
        slower["throughput"]["cell_updates_per_second"] *= 10  # says faster, the times do not
        new = write_run(self.box.path("new"), [slower])
        proc = self.compare(old, new, "--fail-on-regression", "10")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("0.836 [0.806, 0.867] slower (5 vs 5", self.line_of(proc, "T256,256"))

    def test_gate_fails_on_a_slowdown_beyond_the_percentage(self):
        old = write_run(self.box.path("old"), [result("cpu-a", "B3/S23:T256,256", FAST)])
        new = write_run(self.box.path("new"), [result("cpu-a", "B3/S23:T256,256", SLOW)])
        proc = self.compare(old, new, "--fail-on-regression", "10")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("lifebench: regression: 1 configuration slower beyond the noise by more "
                      "than 10 %", proc.stderr)
        # 20 % more time is within a 25 % allowance; faster is never a regression.
        self.assertEqual(self.compare(old, new, "--fail-on-regression", "25").returncode, 0)
        self.assertEqual(self.compare(new, old, "--fail-on-regression", "0").returncode, 0)

    def test_one_repetition_is_judged_by_its_ratio_alone(self):
        old = write_run(self.box.path("old"), [result("cpu-a", "B3/S23:T256,256", [1.0])])
        new = write_run(self.box.path("new"), [result("cpu-a", "B3/S23:T256,256", [1.2])])
        proc = self.compare(old, new, "--fail-on-regression", "10")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("0.833 [0.833, 0.833] no noise measured (1 vs 1 repetitions)",
                      self.line_of(proc, "T256,256"))
        self.assertEqual(self.compare(old, new, "--fail-on-regression", "25").returncode, 0)
        self.assertEqual(self.compare(old, old, "--fail-on-regression", "0").returncode, 0)

    def test_a_folder_compared_with_itself_passes_the_gate(self):
        run = write_run(self.box.path("run"), [result("cpu-a", "B3/S23:T256,256", FAST),
                                               result("cpu-a", "B3/S23:T64,64", [2.0, 2.0, 2.0])])
        proc = self.compare(run, run, "--fail-on-regression", "0")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("1.000 [0.962, 1.040] same within the noise (5 vs 5 repetitions, interval "
                      "level >= 0.88; p = 1)", self.line_of(proc, "T256,256"))
        self.assertIn("1.000 [1.000, 1.000] same within the noise", self.line_of(proc, "T64,64"))

    def test_failed_verification_is_never_faster(self):
        old = write_run(self.box.path("old"), [result("cpu-a", "B3/S23:T256,256", SLOW),
                                               result("cpu-a", "B3/S23:T64,64", SLOW)])
        failed = result("cpu-a", "B3/S23:T256,256", [], status="failed",
                        verification="failed",
                        reason="verification failed: cell (3, 7): expected 1, got 0")
        # Timed but not verified: its rate is not compared either.
        unverified = result("cpu-a", "B3/S23:T64,64", FAST, verification="not_run")
        new = write_run(self.box.path("new"), [failed, unverified])
        proc = self.compare(old, new)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        line = self.line_of(proc, "T256,256")
        self.assertIn("not compared: NEW failed: verification failed: cell (3, 7)", line)
        self.assertNotIn("faster", line)
        line = self.line_of(proc, "T64,64")
        self.assertIn("not compared: NEW not verified", line)
        self.assertNotIn("faster", line)
        self.assertIn("2 not compared", proc.stdout)
        # Failing where it passed before fails the gate whatever the percentage.
        proc = self.compare(old, new, "--fail-on-regression", "1000")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        # The other way round a failure before is no regression now.
        self.assertEqual(self.compare(new, old, "--fail-on-regression", "0").returncode, 0)

    def test_configurations_in_one_folder_are_listed_apart(self):
        old = write_run(self.box.path("old"), [result("cpu-a", "B3/S23:T256,256", FAST),
                                               result("cpu-a", "B3/S23:T64,64", FAST)])
        new = write_run(self.box.path("new"), [result("cpu-a", "B3/S23:T256,256", FAST),
                                               result("cpu-c", "B36/S23:T32,32", FAST,
                                                      params="tile=8")])
        proc = self.compare(old, new)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("only in OLD (1):\n  cpu-a B3/S23:T64,64 g16 -\n", proc.stdout)
        self.assertIn("only in NEW (1):\n  cpu-c B36/S23:T32,32 g16 tile=8\n", proc.stdout)
        self.assertIn("1 configurations in both", proc.stdout)

    def test_a_default_given_and_left_out_is_one_configuration(self):
        """Matched by the parameters each result records it ran with, defaults included; a
        parameter that differs, or two ids of one run with the same parameters, stay apart."""
        def folder(name, *entries):
            """gpu-a results of (size, seconds, the id's parameters, steps it ran with)."""
            results = []
            for size, seconds, params, steps in entries:
                entry = result("gpu-a", "B3/S23:T%d,%d" % (size, size), seconds, params=params)
                entry["params"] = {"rows": "64", "steps": steps}
                results.append(entry)
            return write_run(self.box.path(name), results)
        old = folder("old", (256, FAST, "rows=64", "8"), (512, FAST, "rows=64", "8"),
                     (64, FAST, "rows=64", "8"))
        new = folder("new", (256, SLOW, "rows=64,steps=8", "8"),
                     (512, SLOW, "rows=64,steps=4", "4"),
                     (64, FAST, "rows=64,steps=8", "8"), (64, FAST, "steps=8", "8"))
        proc = self.compare(old, new)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("gpu-a B3/S23:T256,256 g16 rows=64,steps=8", self.line_of(proc, "T256,256"))
        self.assertIn("slower", self.line_of(proc, "T256,256"))
        self.assertIn("only in OLD (2):\n  gpu-a B3/S23:T512,512 g16 rows=64\n"
                      "  gpu-a B3/S23:T64,64 g16 rows=64\n", proc.stdout)
        self.assertIn("only in NEW (3):", proc.stdout)
        self.assertIn("1 configurations in both: 1 slower", proc.stdout)

    def test_different_devices_are_named(self):
        old = write_run(self.box.path("old"), [result("cpu-a", "B3/S23:T256,256", FAST)])
        other = result("cpu-a", "B3/S23:T256,256", FAST)
        other["device"] = {"name": "Other CPU"}
        new = write_run(self.box.path("new"), [other])
        proc = self.compare(old, new)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("lifebench: warning: the runs measured different devices (Test CPU; "
                      "Other CPU)", proc.stderr)

    def test_devices_are_those_of_the_configurations_compared(self):
        # A GPU sweep's folder beside a CPU sweep's: only their CPU configurations compare.
        gpu = result("gpu-a", "B3/S23:T256,256", FAST)
        gpu["device"] = {"name": "Test GPU"}
        old = write_run(self.box.path("old"), [result("cpu-a", "B3/S23:T256,256", FAST), gpu])
        new = write_run(self.box.path("new"), [result("cpu-a", "B3/S23:T256,256", FAST)])
        proc = self.compare(old, new)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("1 configurations in both", proc.stdout)
        self.assertNotIn("different devices", proc.stderr)


REFERENCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "results",
                         "reference")


def ten_times_slower(source, target):
    """A copy of the results folder `source` whose every time is ten times longer."""
    shutil.copytree(source, target)
    for name in os.listdir(target):
        path = os.path.join(target, name)
        if name in ("manifest.json", "benchmarks.json") or not name.endswith(".json"):
            continue
        with open(path) as f:
            data = json.load(f)
        for r in data["configurations"]:
            timing = r.get("timing")
            if timing:
                timing["seconds"] = [10 * s for s in timing["seconds"]]
                for key in ("median_s", "min_s", "max_s"):
                    timing[key] *= 10
            throughput = r.get("throughput")
            if throughput:
                throughput["cell_updates_per_second"] /= 10
                throughput["seconds_per_generation"] *= 10
        with open(path, "w") as f:
            json.dump(data, f)
    return target


class ReferenceFoldersTest(lbtest.CliTestCase):
    """Issue 33's gate: each committed reference folder against itself passes, against a
    copy ten times slower fails, also where a configuration has only one or three
    repetitions."""

    def test_every_reference_folder(self):
        folders = sorted(name for name in os.listdir(REFERENCE)
                         if os.path.exists(os.path.join(REFERENCE, name, "manifest.json")))
        self.assertGreater(len(folders), 0)
        for name in folders:
            with self.subTest(folder=name):
                reference = os.path.join(REFERENCE, name)
                slower = ten_times_slower(reference, self.box.path(name + "-x10"))
                same = self.box.run("compare", reference, reference, "--fail-on-regression", "10")
                self.assertEqual(same.returncode, 0, same.stdout + same.stderr)
                proc = self.box.run("compare", reference, slower, "--fail-on-regression", "10")
                self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
                # Every configuration measured in both is caught, not only one of them.
                compared = [line for line in proc.stdout.splitlines()
                            if re.search(r"\s0\.100 \[", line)]
                self.assertGreater(len(compared), 0, proc.stdout)
                for line in compared:
                    self.assertRegex(line, r"(slower|no noise measured) \(")
                self.assertIn("lifebench: regression: %d configuration" % len(compared),
                              proc.stderr)


class LargeFilesTest(lbtest.CliTestCase):
    """compare's memory follows the configurations it compares, not the files' size: a
    result's Google Benchmark entries and benchmarks.json's list are read, not kept."""

    def test_a_large_results_file_is_read_in_little_memory(self):
        folder = self.box.path("large")
        shutil.copytree(os.path.join(REFERENCE, sorted(
            name for name in os.listdir(REFERENCE)
            if os.path.exists(os.path.join(REFERENCE, name, "manifest.json")))[0]), folder)
        experiment = sorted(name for name in os.listdir(folder)
                            if name not in ("manifest.json", "benchmarks.json"))[0]
        with open(os.path.join(folder, experiment)) as f:
            results = json.load(f)
        entry = {"name": "x" * 100, "run_type": "iteration", "real_time": 1.0}
        results["configurations"][0]["benchmark"] = [entry] * 200000  # about 30 MB
        with open(os.path.join(folder, experiment), "w") as f:
            json.dump(results, f)
        with open(os.path.join(folder, "benchmarks.json")) as f:
            benchmarks = json.load(f)
        benchmarks["benchmarks"] = [entry] * 200000
        with open(os.path.join(folder, "benchmarks.json"), "w") as f:
            json.dump(benchmarks, f)
        child = subprocess.Popen([self.box.lifebench, "compare", folder, folder],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0, child.stderr.read())
        child.stderr.close()
        self.assertLess(usage.ru_maxrss / 1024, 64, "peak MiB")


class BadFoldersTest(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.good = write_run(self.box.path("good"), [result("cpu-a", "B3/S23:T256,256", FAST)])

    def refused(self, *fragments, old=None, new=None, args=()):
        proc = self.box.run("compare", old or self.good, new or self.good, *args)
        self.assertOneErrorLine(proc, *fragments)
        self.assertEqual(proc.stdout, "")
        return proc

    def test_different_schema_versions(self):
        newer = write_run(self.box.path("newer"), [result("cpu-a", "B3/S23:T256,256", FAST)],
                          schema=2)
        self.refused("are of different results schemas (1 and 2)", new=newer)
        self.refused("manifest.json has results schema 2; this lifebench reads schema 1",
                     old=newer, new=newer)

    def test_schema_1_written_as_1_0_is_schema_1(self):
        same = write_run(self.box.path("same"), [result("cpu-a", "B3/S23:T256,256", FAST)],
                         schema=1.0)
        proc = self.box.run("compare", self.good, same)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("cpu-a", proc.stdout)

    def test_an_experiment_file_of_another_schema(self):
        path = os.path.join(self.good, "cpu-a.json")
        with open(path) as f:
            data = json.load(f)
        data["schema"] = 7
        with open(path, "w") as f:
            json.dump(data, f)
        self.refused("cpu-a.json has results schema 7")

    def test_an_empty_folder(self):
        os.makedirs(self.box.path("empty"))
        self.refused("results folder", "is empty", new=self.box.path("empty"))

    def test_a_folder_that_is_not_a_results_folder(self):
        self.box.write("notes/readme.txt", "hello\n")
        self.refused("is not a results folder: it has no manifest.json",
                     old=self.box.path("notes"))

    def test_a_missing_folder_and_a_file(self):
        self.refused("does not exist", new=self.box.path("nowhere"))
        self.refused("is not a folder", new=self.box.write("file.json", "{}"))

    def test_a_corrupted_benchmarks_json(self):
        self.box.write("good/benchmarks.json", '{"context": {}, "benchmarks": [{"name": "x"')
        self.refused("benchmarks.json is not a JSON object", new=self.good)
        self.box.write("good/benchmarks.json", '{"context": {}}')
        self.refused("benchmarks.json is not Google Benchmark JSON", new=self.good)

    def test_a_corrupted_results_file(self):
        self.box.write("good/cpu-a.json", '{"schema": 1, "experiment": "cpu-a", "configu')
        self.refused("cpu-a.json is not a JSON object")

    def test_a_file_nested_deeper_than_results_are(self):
        # Copying, comparing and writing JSON recurse once a level: 100000 levels crashed.
        path = os.path.join(self.good, "cpu-a.json")
        with open(path) as f:
            text = f.read()
        deep = 100000
        with open(path, "w") as f:
            f.write(text.replace('"verification": {',
                                 '"verification": {"x": %s%s, ' % ("[" * deep, "]" * deep), 1))
        self.refused("cpu-a.json nests deeper than 64 levels: not a file lifebench wrote")

    def test_a_file_that_is_not_a_regular_file(self):
        manifest = os.path.join(self.good, "manifest.json")
        os.remove(manifest)
        os.mkfifo(manifest)  # its read would never end
        self.refused("manifest.json is not a regular file")
        os.remove(manifest)
        os.mkdir(manifest)
        self.refused("manifest.json is not a regular file")

    def test_folders_recording_nothing(self):
        write_run(self.box.path("none"), [])
        self.refused("record no configuration", old=self.box.path("none"),
                     new=self.box.path("none"))

    def test_bad_times(self):
        for bad, shown in ((-1.5, "-1.5"), (0, "0"), ("1.2", "a string"), (1e308, "1e+308"),
                           (5e-324, "5e-324")):
            seconds = list(FAST)
            seconds[2] = bad
            entry = result("cpu-a", "B3/S23:T256,256", FAST)
            entry["timing"]["seconds"] = seconds
            bad_run = write_run(self.box.path("bad"), [entry])
            self.refused(os.path.join(bad_run, "cpu-a.json") + ": configuration "
                         "cpu-a|B3/S23:T256,256|g16|: timing.seconds[2] is " + shown +
                         ", not a number of seconds from 1e-9 to 1e9", new=bad_run)

    def test_bad_options(self):
        for args in (["--fail-on-regression", "-5"], ["--fail-on-regression", "nan"],
                     ["--alpha", "2"], ["--alpha", "nan"], ["--alpha", "0"], ["--alpha", "1"],
                     ["--alpha", "-0.1"], ["--alpha", "0.05x"]):
            proc = self.box.run("compare", self.good, self.good, *args)
            self.assertOneErrorLine(proc, args[0], code=2)
        proc = self.box.run("compare", self.good, self.good, "--alpha", "nan")
        self.assertOneErrorLine(proc, "expected a number between 0 and 1 (both excluded), "
                                "not \"nan\"")
        self.assertEqual(self.box.run("compare", self.good).returncode, 2)


class PValuesTest(lbtest.CliTestCase):
    """The p-values against scipy's mannwhitneyu, as Google Benchmark's compare.py calls it
    (two-sided, method "auto": exact below 9 values a side without ties, else normal)."""

    def test_p_values_match_scipy(self):
        try:
            from scipy.stats import mannwhitneyu
        except ImportError:
            self.skipTest("scipy is not installed (tools/setup.sh installs it)")
        rng = random.Random(21)
        cases = []
        for n1, n2, tied in [(3, 3, False), (4, 4, False), (5, 5, False), (3, 5, False),
                             (2, 9, False), (8, 30, False), (10, 12, False), (5, 5, True),
                             (9, 9, True), (12, 7, True), (2, 2, False), (6, 2, False)]:
            shift = rng.uniform(-0.3, 0.3)
            old = [1 + rng.gauss(0, 0.1) for _ in range(n1)]
            new = [1 + shift + rng.gauss(0, 0.1) for _ in range(n2)]
            if tied:  # times on a coarse clock
                old = [round(x, 1) for x in old]
                new = [round(x, 1) for x in new]
            cases.append((old, new))
        problems = ["B3/S23:T%d,64" % (64 + i) for i in range(len(cases))]
        old_dir = write_run(self.box.path("old"), [result("cpu-a", problem, old) for problem, (
            old, _) in zip(problems, cases)])
        new_dir = write_run(self.box.path("new"), [result("cpu-a", problem, new) for problem, (
            _, new) in zip(problems, cases)])
        proc = self.box.run("compare", old_dir, new_dir, "--alpha", "1e-9")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for i, (old, new) in enumerate(cases):
            line = self.line_of(proc, "T%d,64 " % (64 + i))
            ours = float(re.search(r"; p = ([0-9.e-]+)", line).group(1))
            theirs = mannwhitneyu(old, new, alternative="two-sided").pvalue
            self.assertAlmostEqual(ours, theirs, delta=theirs * 0.01 + 1e-12,
                                   msg="%s vs scipy %r" % (line, theirs))

    line_of = CompareTest.line_of


if __name__ == "__main__":
    lbtest.main()
