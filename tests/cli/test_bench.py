"""lifebench bench with the fake experiment: progress, the results folder of
harness/RESULTS.md, and faults that cost one configuration and no more."""
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import textwrap
import time

import lbtest


def sweep(*runs):
    text = ""
    for run in runs:
        text += "[[run]]\n" + textwrap.dedent(run).strip() + "\n\n"
    return text


class Bench(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("fake")

    def bench(self, sweep_text, *args, out="out", timeout=300):
        path = self.box.write("sweep.toml", sweep_text)
        return self.box.run("bench", "--sweep", path, "--out", out, *args, timeout=timeout)

    def assertResultsFolderClean(self, out, experiments):
        """Only manifest.json, benchmarks.json and <experiment>.json, each a whole JSON
        document."""
        folder = self.box.path(out)
        self.assertEqual(sorted(os.listdir(folder)),
                         sorted(["manifest.json", "benchmarks.json"] +
                                [e + ".json" for e in experiments]))
        for name in os.listdir(folder):
            with open(os.path.join(folder, name)) as f:
                json.load(f)

    def test_results_folder(self):
        self.box.add_fake("gpu-fake", backend="cuda", available=False, reason="no CUDA device")
        proc = self.bench(sweep(
            """experiment = "fake"
               shape = ["16x16", "32x32"]
               generations = 4
               repetitions = 3
               warmup = 0
               params = { threads = [1, 2], mode = "ok" }
               table = "fujita2017-table1"
               row = "CPU"
               column = "word-per-cell"
            """,
            """experiment = "fake"
               rule = "B36/S23"
               boundary = "dead"
               shape = "8x8"
               generations = 1
               params = { mode = "unsupported" }
            """,
            """experiment = "gpu-fake"
               shape = "8x8"
               generations = 1
            """))
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        lines = [l for l in proc.stdout.splitlines() if l.startswith("[")]
        self.assertEqual(len(lines), 6, proc.stdout)
        # Each line gives the time since the sweep started and, once a configuration is
        # measured, the time the others should take.
        self.assertRegex(lines[0], r"^\[1/6 0:\d\d\] fake B3/S23:T16,16 g4 mode=ok threads=1 … ok "
                                   r"1\.23e9 cells/s \([0-9.]+ s\)(; about \d+:\d\d left)?$")
        self.assertRegex(proc.stdout, r"\nlifebench: 6 configurations in 0:\d\d: 4 ok, 0 failed, "
                                      r"1 unsupported, 1 unavailable; results in out\n")
        self.assertIn("unsupported: width must be a multiple of 64", lines[4])
        self.assertRegex(lines[5],
                         r"^\[6/6 0:\d\d\] gpu-fake B3/S23:T8,8 g1 … unavailable: no CUDA device$")

        self.assertResultsFolderClean("out", ["fake", "gpu-fake"])
        manifest = self.box.manifest("out")
        self.assertEqual(manifest["schema"], 1)
        self.assertEqual(manifest["run_id"], "out")
        self.assertRegex(manifest["started"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertRegex(manifest["finished"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        self.assertEqual(manifest["configurations"],
                         {"total": 6, "done": 6, "ok": 4, "failed": 0, "unsupported": 1,
                          "unavailable": 1})
        self.assertIn("build_type", manifest["build"])
        self.assertIn("git_commit", manifest["build"])
        self.assertIn("logical_cores", manifest["host"])
        self.assertEqual(manifest["experiments"]["gpu-fake"]["available"], False)
        self.assertEqual(manifest["experiments"]["gpu-fake"]["reason"], "no CUDA device")

        fake = self.box.results("out", "fake")
        self.assertEqual(fake["schema"], 1)
        self.assertEqual(fake["experiment"], "fake")
        ids = [c["config_id"] for c in fake["configurations"]]
        self.assertEqual(ids, [
            "fake|B3/S23:T16,16|g4|mode=ok,threads=1",
            "fake|B3/S23:T16,16|g4|mode=ok,threads=2",
            "fake|B3/S23:T32,32|g4|mode=ok,threads=1",
            "fake|B3/S23:T32,32|g4|mode=ok,threads=2",
            "fake|B36/S23:P8,8|g1|mode=unsupported",
        ])
        first = fake["configurations"][0]
        self.assertEqual(first["ties"], [{"table": "fujita2017-table1", "row": "CPU",
                                          "column": "word-per-cell"}])
        self.assertNotIn("tag", first)
        self.assertRegex(first["binary_hash"], r"^0x[0-9a-f]{16}$")
        self.assertEqual(fake["configurations"][4]["ties"], [])
        self.assertEqual(fake["configurations"][4]["status"], "unsupported")

        gpu = self.box.results("out", "gpu-fake")["configurations"]
        self.assertEqual(len(gpu), 1)
        self.assertEqual(gpu[0]["status"], "unavailable")
        self.assertEqual(gpu[0]["reason"], "no CUDA device")
        self.assertEqual(gpu[0]["config_id"], "gpu-fake|B3/S23:T8,8|g1|")
        self.assertEqual(gpu[0]["params"], {"mode": "ok", "threads": "1"})  # defaults filled in
        self.assertEqual(self.box.bench_calls("gpu-fake"), [])  # never spawned

        # What the experiment was asked for.
        calls = self.box.bench_calls("fake")
        self.assertEqual(len(calls), 5)
        self.assertEqual(calls[0], {"params": {"mode": "ok", "threads": "1"},
                                    "problem": "B3/S23:T16,16", "generations": "4",
                                    "repetitions": "3", "max_repetitions": "100",
                                    "target_rel_ci": "0.01", "timing_budget_s": "5",
                                    "warmup": "0",
                                    "density": None})  # none given: the family's own soup
        self.assertEqual(calls[4]["repetitions"], "5")  # defaults
        self.assertEqual(calls[4]["warmup"], "1")

    def test_faults_cost_one_configuration(self):
        modes = ["crash", "ok", "hang", "ok", "exit3", "nowrite", "garbage", "ok"]
        start = time.monotonic()
        # One run per mode, generations telling the three "ok" ones apart.
        proc = self.bench(sweep(*[
            'experiment = "fake"\nshape = "8x8"\ngenerations = %d\ntime_limit_s = 1\n'
            'params = { mode = "%s" }' % (i + 1, mode) for i, mode in enumerate(modes)]))
        self.assertLess(time.monotonic() - start, 60)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertRegex(proc.stdout, r"8 configurations in \d+:\d\d: 3 ok, 5 failed")
        configurations = self.box.results("out", "fake")["configurations"]
        self.assertEqual([c["params"]["mode"] for c in configurations], modes)
        self.assertEqual([c["status"] for c in configurations],
                         ["failed", "ok", "failed", "ok", "failed", "failed", "failed", "ok"])
        results = {c["params"]["mode"]: c for c in configurations}
        self.assertEqual(results["ok"]["status"], "ok")
        expected = {
            "crash": "killed by signal 11 (Segmentation fault)",
            "hang": "time limit of 1 s exceeded",
            "exit3": "exited with code 3: boom: the last line",
            "nowrite": "no result written",
        }
        for mode, reason in expected.items():
            self.assertEqual(results[mode]["status"], "failed", mode)
            self.assertEqual(results[mode]["reason"], reason, mode)
            self.assertIn("fake bench starting", results[mode]["stderr_tail"])
        self.assertEqual(results["garbage"]["status"], "failed")
        self.assertIn("about to crash", results["crash"]["stderr_tail"])
        self.assertEqual(results["crash"]["ties"], [])
        self.assertRegex(results["crash"]["binary_hash"], r"^0x[0-9a-f]{16}$")
        # The progress line of a failure says why.
        self.assertRegex(proc.stdout, r"\[1/8 0:\d\d\] fake B3/S23:T8,8 g1 mode=crash … FAILED: "
                                      r"killed by signal 11 \(Segmentation fault\)")
        self.assertResultsFolderClean("out", ["fake"])

    def test_hang_kills_the_whole_process_group_and_its_temporary_files_go(self):
        proc = self.bench(sweep('experiment = "fake"\nshape = "8x8"\ngenerations = 1\n'
                                'params = { mode = "hang" }'), "--time-limit", "5")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("time limit of 5 s exceeded", proc.stdout)
        with open(os.path.join(self.box.experiments, "fake.grandchild")) as f:
            grandchild = int(f.read())
        self.assertTrue(lbtest.wait_until_gone(grandchild),
                        "the experiment's child process outlived the time limit")
        with open(os.path.join(self.box.experiments, "fake.litter")) as f:
            litter = f.read()
        self.assertTrue(os.path.basename(os.path.dirname(os.path.dirname(litter))).startswith(
            "lifebench-bench-"), litter)  # in the driver's scratch folder
        self.assertFalse(os.path.exists(os.path.dirname(litter)), litter)

    def test_sigterm_ignored_gets_sigkill(self):
        start = time.monotonic()
        proc = self.bench(sweep('experiment = "fake"\nshape = "8x8"\ngenerations = 1\n'
                                'params = { mode = ["stubborn", "ok"] }'), "--time-limit", "0.5")
        self.assertLess(time.monotonic() - start, 30)
        self.assertIn("time limit of 0.5 s exceeded", proc.stdout)
        self.assertRegex(proc.stdout, r"\[2/2 \d+:\d\d\] fake B3/S23:T8,8 g1 mode=ok … ok")

    def test_output_nonstop_still_meets_the_time_limit(self):
        start = time.monotonic()
        proc = self.bench(sweep('experiment = "fake"\nshape = "8x8"\ngenerations = 1\n'
                                'params = { mode = ["flood", "ok"] }'), "--time-limit", "1")
        self.assertLess(time.monotonic() - start, 30)
        self.assertIn("FAILED: time limit of 1 s exceeded", proc.stdout)
        self.assertRegex(proc.stdout, r"\[2/2 \d+:\d\d\] fake B3/S23:T8,8 g1 mode=ok … ok")

    def test_killed_while_writing_leaves_nothing_half_written(self):
        proc = self.bench(sweep('experiment = "fake"\nshape = "8x8"\ngenerations = 1\n'
                                'params = { mode = ["ok", "partial"] }',
                                'experiment = "fake"\nshape = "8x8"\ngenerations = 2'))
        self.assertEqual(proc.returncode, 1)
        results = self.box.results("out", "fake")["configurations"]
        self.assertEqual([r["status"] for r in results], ["ok", "failed", "ok"])
        self.assertEqual(results[1]["reason"], "killed by signal 9 (Killed)")
        self.assertResultsFolderClean("out", ["fake"])

    def test_a_disk_full_at_the_start_leaves_no_folder(self):
        # The first files written, the manifest last: once a folder kept only the results file,
        # which neither --resume (no manifest) nor a new run (not empty) would take.
        def small_files():
            resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write fails instead

        path = self.box.write("sweep.toml", sweep('experiment = "fake"\nshape = "8x8"\n'
                                                  'generations = 1'))
        proc = subprocess.run([self.box.lifebench, "bench", "--sweep", path, "--out", "out"],
                              cwd=self.box.work, env=self.box.environment(), capture_output=True,
                              text=True, timeout=300, preexec_fn=small_files)
        self.assertOneErrorLine(proc, "cannot write out/", "File too large")
        self.assertFalse(os.path.exists(self.box.path("out")))
        self.assertEqual(self.box.bench_calls("fake"), [])
        self.assertEqual(self.bench(sweep('experiment = "fake"\nshape = "8x8"\n'
                                          'generations = 1')).returncode, 0)

    def test_existing_results_folder_needs_resume(self):
        text = sweep('experiment = "fake"\nshape = "8x8"\ngenerations = 1')
        self.assertEqual(self.bench(text).returncode, 0)
        with open(self.box.path("out/fake.json")) as f:
            before = f.read()
        self.assertOneErrorLine(self.bench(text), "results folder out exists",
                                "use --resume or another --out")
        with open(self.box.path("out/fake.json")) as f:
            self.assertEqual(f.read(), before)

    def test_an_empty_results_folder_name(self):
        # Was a raw filesystem exception.
        text = sweep('experiment = "fake"\nshape = "8x8"\ngenerations = 1')
        for args in ([], ["--resume"], ["--dry-run"]):
            with self.subTest(args=args):
                line = self.assertOneErrorLine(self.bench(text, *args, out=""), "--out",
                                               "expected a folder, not an empty name")
                self.assertNotIn("filesystem", line)
        self.assertEqual(self.box.bench_calls("fake"), [])

    def test_default_results_folder(self):
        path = self.box.write("s.toml", sweep('experiment = "fake"\nshape = "8x8"\ngenerations = 1'))
        proc = self.box.run("bench", "--sweep", path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        runs = os.listdir(self.box.path("results"))
        self.assertEqual(len(runs), 1)
        self.assertRegex(runs[0], r"^\d{8}T\d{6}Z$")

    def test_impl_filter_and_dry_run(self):
        self.box.add_fake("other")
        text = sweep('experiment = "fake"\nshape = "8x8"\ngenerations = 1',
                     'experiment = "other"\nshape = ["8x8", "16x16"]\ngenerations = 1')
        proc = self.bench(text, "--dry-run")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("[3/3] other B3/S23:T16,16 g1", proc.stdout)
        self.assertFalse(os.path.exists(self.box.path("out")))
        self.assertEqual(self.box.bench_calls("fake") + self.box.bench_calls("other"), [])

        proc = self.bench(text, "--impl", "oth*")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(self.box.bench_calls("other")), 2)
        self.assertEqual(self.box.bench_calls("fake"), [])
        self.assertFalse(os.path.exists(self.box.path("out/fake.json")))
        self.assertOneErrorLine(self.bench(text, "--impl", "nothing*", out="o2"), "--impl")

    def test_named_sweeps_union(self):
        self.box.add_fake("a", sweep=sweep('sweeps = ["cpu"]\nshape = "8x8"\ngenerations = 1',
                                           'sweeps = ["cpu", "gpu"]\nshape = "16x16"\ngenerations = 1'))
        self.box.add_fake("b", sweep=sweep('sweeps = ["gpu"]\nshape = "8x8"\ngenerations = 2'))
        proc = self.box.run("bench", "--sweep", "cpu", "--sweep", "gpu", "--out", "out")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        ids = [c["config_id"] for c in self.box.results("out", "a")["configurations"]]
        self.assertEqual(ids, ["a|B3/S23:T8,8|g1|", "a|B3/S23:T16,16|g1|"])  # each run once
        self.assertEqual(len(self.box.results("out", "b")["configurations"]), 1)
        self.assertEqual(self.box.manifest("out")["sweeps"], ["cpu", "gpu"])

    def test_same_configuration_twice_runs_once(self):
        run = 'experiment = "fake"\nshape = "8x8"\ngenerations = 1\nparams = { threads = [1, 1] }'
        proc = self.bench(sweep(run, run))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(self.box.bench_calls("fake")), 1)


class FolderSpace(lbtest.CliTestCase):
    def test_a_universe_larger_than_the_free_disk_is_unsupported_before_any_write(self):
        folder = lbtest.experiment_folder(self, "cpu-outofcore")
        universe = self.box.path("universe")
        os.makedirs(universe)
        two_files = 2 * (1 << 40) // 8  # the file and the next pass of 2^40 cells, a bit a cell
        if shutil.disk_usage(universe).free >= two_files:
            self.skipTest("this disk holds two universe files of 2^40 cells")
        path = self.box.write("sweep.toml", sweep(
            f"""experiment = "cpu-outofcore"
                shape = "1048576x1048576"
                generations = 1
                params = {{ folder = "{universe}" }}
            """))
        proc = self.box.run("bench", "--sweep", path, "--out", "out", "--experiments", folder)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("1 unsupported", proc.stdout + proc.stderr)
        with open(self.box.path("out/cpu-outofcore.json")) as f:
            (result,) = json.load(f)["configurations"]
        self.assertEqual(result["status"], "unsupported")
        self.assertRegex(result["reason"], r"^2 universe files of 137438957568 bytes need "
                                           r"274877915136 bytes free in .*universe: \d+ are$")
        self.assertEqual(os.listdir(universe), [])  # nothing written, nothing reserved


if __name__ == "__main__":
    lbtest.main()
