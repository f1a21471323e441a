"""benchmarks.json, a results folder in Google Benchmark's JSON format: written beside the
results, names stable across runs of the same configuration, failures left out, read by
Google Benchmark's own tools/compare.py (Debian's libbenchmark-tools; skipped where it or
scipy is not installed) and by lifebench compare. Runs cpu-trivial on tiny grids; skipped
where it is not built or the build is not optimised."""
import json
import os
import shutil
import subprocess
import sys

import lbtest

COMPARE_PY = os.environ.get("LIFEBENCH_GBENCH_COMPARE", "/usr/share/benchmark/compare.py")

# A fixed number of repetitions (as many at most as at least), so that runs differ in it.
SWEEP = """
[defaults]
repetitions = %d
max_repetitions = %d

[[run]]
experiment = "cpu-trivial"
shape = ["64x64", "128x128"]
generations = 8

[[run]]
experiment = "fake-crash"
shape = "64x64"
generations = 8
params = { mode = "crash" }
"""


def iterations(document, name):
    return [b for b in document["benchmarks"]
            if b["name"] == name and b["run_type"] == "iteration"]


class BenchmarksJsonTest(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        trivial = lbtest.real_experiment("cpu-trivial")
        if not trivial or not lbtest.optimised_build():
            self.skipTest("needs cpu-trivial from an optimised build")
        shutil.copy2(trivial, self.box.experiments)
        self.box.add_fake("fake-crash")

    def bench(self, out, repetitions=3, *extra):
        self.box.write("sweep%d.toml" % repetitions, SWEEP % (repetitions, repetitions))
        proc = self.box.run("bench", "--sweep", "sweep%d.toml" % repetitions, "--out", out, *extra)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)  # the crash fails
        with open(self.box.path(os.path.join(out, "benchmarks.json"))) as f:
            return json.load(f)

    def test_entries_follow_the_results(self):
        document = self.bench("a")
        self.assertEqual(document["context"]["json_schema_version"], 1)
        self.assertEqual(document["context"]["lifebench_run_id"], "a")
        results = self.box.results("a", "cpu-trivial")["configurations"]
        names = sorted({b["name"] for b in document["benchmarks"] if b["run_type"] == "iteration"})
        # The crashed configuration failed: it is not there.
        self.assertEqual(names, sorted(r["config_id"] for r in results))
        for r in results:
            name = r["config_id"]
            self.assertNotIn("repeats", name)
            runs = iterations(document, name)
            self.assertEqual([b["repetition_index"] for b in runs], [0, 1, 2])
            for ms, s in zip(sorted(b["real_time"] for b in runs), r["timing"]["seconds"]):
                self.assertAlmostEqual(ms, s * 1e3, places=9)
            self.assertTrue(all(b["time_unit"] == "ms" and b["cpu_time"] > 0 for b in runs))
            aggregates = {b["aggregate_name"]: b for b in document["benchmarks"]
                          if b["run_type"] == "aggregate" and b["run_name"] == name}
            self.assertEqual(sorted(aggregates), ["cv", "mean", "median", "stddev"])
            self.assertEqual(aggregates["median"]["name"], name + "_median")
            self.assertAlmostEqual(aggregates["median"]["real_time"],
                                   r["timing"]["median_s"] * 1e3, places=9)
            self.assertAlmostEqual(aggregates["cv"]["real_time"], r["timing"]["cv"], places=9)

    def test_names_do_not_change_with_the_repetitions(self):
        three = self.bench("a")
        five = self.bench("b", 5)
        self.assertEqual({b["name"] for b in three["benchmarks"]},
                         {b["name"] for b in five["benchmarks"]})
        for name in {b["run_name"] for b in five["benchmarks"]}:
            self.assertEqual(len(iterations(five, name)), 5)

    def test_resume_keeps_the_folder_readable(self):
        first = self.bench("a")
        again = self.bench("a", 3, "--resume")
        self.assertEqual([b["name"] for b in first["benchmarks"]],
                         [b["name"] for b in again["benchmarks"]])

    def test_lifebench_compare_reads_two_runs_of_one_sweep(self):
        self.bench("a")
        self.bench("b")
        proc = self.box.run("compare", "a", "b")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("3 configurations in both: ", proc.stdout)
        self.assertRegex(proc.stdout,
                         r"fake-crash .* not compared: OLD failed: killed by signal 11")
        proc = self.box.run("compare", "a", "a", "--fail-on-regression", "0")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)

    def test_google_benchmark_compare_py_reads_them(self):
        if not os.path.exists(COMPARE_PY):
            self.skipTest("%s is not installed (libbenchmark-tools)" % COMPARE_PY)
        try:
            import scipy  # noqa: F401  (compare.py's U test)
        except ImportError:
            self.skipTest("scipy is not installed")
        three = self.bench("a")
        self.bench("b", 5)
        dump = self.box.path("diff.json")
        proc = subprocess.run([sys.executable, COMPARE_PY, "--no-color", "-d", dump, "benchmarks",
                               self.box.path("a/benchmarks.json"),
                               self.box.path("b/benchmarks.json")],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        with open(dump) as f:
            report = {entry["name"]: entry for entry in json.load(f)}
        for name in {b["run_name"] for b in three["benchmarks"]}:
            # Matched across 3 and 5 repetitions, with a U test over them.
            self.assertEqual(len(report[name]["measurements"]), 3)
            self.assertEqual(report[name]["utest"]["nr_of_repetitions"], 3)
            self.assertEqual(report[name]["utest"]["nr_of_repetitions_other"], 5)
            self.assertIn(name + "_median", report)
        self.assertIn("U Test, Repetitions: 3 vs 5", proc.stdout)


if __name__ == "__main__":
    lbtest.main()
