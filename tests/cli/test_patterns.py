"""A run's `pattern` (a pattern file in place of soups) reaches the experiment's bench as
--pattern with the file found (datasets/ beside the driver, golly: in Golly's collection
beside bgolly), joins the configuration id, and is placed, verified and recorded by the real
experiments; a missing file, a pattern too large for its grid or of another rule is refused
before anything runs, in one error line naming the run. The named sweep patterns-quick runs
in seconds."""
import json
import os
import subprocess
import textwrap

import lbtest

RUN = lbtest.SHORT_RUN
ACORN = "datasets/acorn.rle"
GUN = "datasets/gosper-glider-gun.rle"


def link_datasets(box):
    """The sandbox's driver finds datasets/ beside itself, as the build's does."""
    os.symlink(os.path.abspath(lbtest.DATASETS_DIR), os.path.join(box.bin, "datasets"))


class PatternsFake(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("fake")
        link_datasets(self.box)

    def bench(self, text, *args, env=None):
        sweep = self.box.write("sweep.toml", textwrap.dedent(text))
        return self.box.run("bench", "--sweep", sweep, "--out", "out", *args, env=env)

    def assertRefused(self, proc, *fragments):
        self.assertOneErrorLine(proc, "sweep.toml:2: run #1", *fragments)
        self.assertFalse(os.path.exists(self.box.path("out")))
        self.assertEqual(self.box.bench_calls("fake"), [])

    def test_pattern_list_reaches_bench_and_joins_the_id(self):
        text = (RUN.format(experiment="fake", shape="64x64")
                + f'pattern = ["{ACORN}", "{GUN}"]\noffset = "3,4"\n')
        proc = self.bench(text, "--dry-run")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn(f"[1/2] fake B3/S23:T64,64 g2 pattern={ACORN}@3,4\n", proc.stdout)

        proc = self.bench(text)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        calls = self.box.bench_calls("fake")
        self.assertEqual([c["pattern"] for c in calls],
                         [os.path.join(self.box.bin, ACORN), os.path.join(self.box.bin, GUN)])
        self.assertEqual([c["offset"] for c in calls], ["3,4", "3,4"])
        self.assertEqual([c["density"] for c in calls], [None, None])
        ids = [c["config_id"] for c in self.box.results("out", "fake")["configurations"]]
        self.assertEqual(ids, [f"fake|B3/S23:T64,64|g2||pattern={ACORN}@3,4",
                               f"fake|B3/S23:T64,64|g2||pattern={GUN}@3,4"])

    def test_missing_file_refused(self):
        text = RUN.format(experiment="fake", shape="64x64") + 'pattern = "datasets/none.rle"\n'
        self.assertRefused(self.bench(text), "pattern datasets/none.rle: no file")

    def test_pattern_too_large_refused(self):
        text = RUN.format(experiment="fake", shape="32x32") + f'pattern = "{GUN}"\n'
        self.assertRefused(self.bench(text),
                           "pattern gosper-glider-gun (36x9 cells) does not fit the 32x32 grid")
        text = (RUN.format(experiment="fake", shape="64x64")
                + f'pattern = "{ACORN}"\noffset = "60,0"\n')
        self.assertRefused(self.bench(text), "does not fit the 64x64 grid at offset 60,0")

    def test_rule_mismatch_refused(self):
        text = (RUN.format(experiment="fake", shape="64x64")
                + f'rule = "B36/S23"\npattern = "{ACORN}"\n')
        self.assertRefused(self.bench(text), "pattern acorn runs B3/S23, the run B36/S23")

    def test_bad_keys_are_one_error_line(self):
        for extra, fault in [(f'pattern = "{ACORN}"\ndensity = 0.1\n', "exclude each other"),
                             ('offset = "1,2"\n', "offset without a pattern"),
                             (f'pattern = "{ACORN}"\noffset = "1"\n', "expected X,Y"),
                             ("pattern = 3\n", "pattern must be a string or a list")]:
            with self.subTest(extra=extra):
                proc = self.bench(RUN.format(experiment="fake", shape="64x64") + extra)
                self.assertOneErrorLine(proc, "sweep.toml:", "run #1", fault)
                self.assertEqual(self.box.bench_calls("fake"), [])

    def test_golly_pattern_found_beside_bgolly(self):
        prefix = self.box.path("prefix")
        patterns = os.path.join(prefix, "usr", "share", "golly", "Patterns", "Life")
        os.makedirs(patterns)
        os.makedirs(os.path.join(prefix, "usr", "bin"))
        bgolly = os.path.join(prefix, "usr", "bin", "bgolly")
        with open(bgolly, "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(bgolly, 0o755)
        with open(os.path.join(lbtest.DATASETS_DIR, "acorn.rle")) as f:
            acorn = f.read()
        with open(os.path.join(patterns, "acorn.rle"), "w") as f:
            f.write(acorn)
        text = RUN.format(experiment="fake", shape="64x64") + 'pattern = "golly:Life/acorn.rle"\n'
        proc = self.bench(text, env={"LIFEBENCH_BGOLLY": bgolly})
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.box.bench_calls("fake")[0]["pattern"],
                         os.path.join(patterns, "acorn.rle"))

        proc = self.box.run("bench", "--sweep", self.box.path("sweep.toml"), "--out", "other",
                            env={"LIFEBENCH_BGOLLY": None, "PATH": "/nonexistent"})
        self.assertOneErrorLine(proc, "run #1", "Golly's patterns are found beside bgolly")


class PatternsReal(lbtest.CliTestCase):
    """cpu-trivial places the pattern, verifies on it and records it."""

    def setUp(self):
        super().setUp()
        self.folder = lbtest.experiment_folder(self, "cpu-trivial")
        if not lbtest.optimised_build():
            self.skipTest("bench needs an optimised build")
        link_datasets(self.box)

    def bench(self, text):
        sweep = self.box.write("sweep.toml", text)
        proc = self.box.run("bench", "--experiments", self.folder, "--sweep", sweep,
                            "--out", "out")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        return self.box.results("out", "cpu-trivial")["configurations"]

    def test_pattern_placed_verified_and_recorded(self):
        [result] = self.bench(RUN.format(experiment="cpu-trivial", shape="64x64")
                              + f'pattern = "{ACORN}"\noffset = "10,20"\n')
        self.assertEqual(result["status"], "ok", result.get("reason"))
        self.assertIsNone(result["density"])
        self.assertEqual(result["pattern"], {"name": "acorn", "path": ACORN,
                                             "hash": result["pattern"]["hash"],
                                             "offset": [10, 20]})
        self.assertRegex(result["pattern"]["hash"], "^0x[0-9a-f]{16}$")
        verification = result["verification"]
        self.assertEqual(verification["status"], "passed")
        self.assertEqual(verification["pattern"], "acorn")
        self.assertNotIn("soup", verification)
        self.assertEqual(verification["final_state"]["status"], "passed")

    def test_each_repetition_starts_from_the_pattern(self):
        # A soup's warmup and three repetitions continue one another (4 x 8 generations); a
        # pattern is put back before each repetition, the last checked after its own 8.
        run = ("[[run]]\nexperiment = \"cpu-trivial\"\nshape = \"64x64\"\ngenerations = 8\n"
               "warmup = 1\nrepetitions = 3\nmax_repetitions = 3\n")
        soup, pattern = self.bench(run + run + f'pattern = "{ACORN}"\n')
        for result in (soup, pattern):
            self.assertEqual(result["status"], "ok", result.get("reason"))
            self.assertEqual(result["timing"]["repetitions"], 3)
            self.assertEqual(result["verification"]["final_state"]["status"], "passed")
        self.assertEqual(soup["verification"]["final_state"]["generations"], 32)
        self.assertEqual(pattern["verification"]["final_state"]["generations"], 8)

    def test_verification_on_a_smaller_grid_where_the_pattern_fits(self):
        # Capped at 2^22 cells; at offset 3000 the pattern needs the whole width.
        text = (RUN.format(experiment="cpu-trivial", shape="4096x2048") + f'pattern = "{GUN}"\n'
                + RUN.format(experiment="cpu-trivial", shape="4096x2048")
                + f'pattern = "{GUN}"\noffset = "3000,0"\n')
        results = self.bench(text)
        self.assertEqual([r["status"] for r in results], ["ok", "ok"])
        self.assertEqual([r["verification"]["problem"] for r in results],
                         ["B3/S23:T2048,2048", "B3/S23:T4096,2048"])
        self.assertEqual(results[0]["verification"]["pattern"], "gosper-glider-gun")

    def test_the_experiment_refuses_a_pattern_it_cannot_place(self):
        binary = lbtest.real_experiment("cpu-trivial")
        acorn = os.path.join(lbtest.DATASETS_DIR, "acorn.rle")
        for problem, fault in [("B3/S23:T4,4", "does not fit the 4x4 grid centred"),
                               ("B36/S23:T64,64", "runs B3/S23, the run B36/S23")]:
            with self.subTest(problem=problem):
                proc = subprocess.run([binary, "bench", "--problem", problem, "--generations",
                                       "1", "--pattern", acorn, "--json-out",
                                       self.box.path("r.json")],
                                      capture_output=True, text=True, timeout=60)
                self.assertOneErrorLine(proc, fault)
                self.assertFalse(os.path.exists(self.box.path("r.json")))


class PatternsQuickSweep(lbtest.CliTestCase):
    """The named sweep patterns-quick, CI's short form of patterns, on the built experiments."""

    def test_every_result_verified(self):
        folder = lbtest.experiment_folder(self, "cpu-trivial")
        if not lbtest.optimised_build():
            self.skipTest("bench needs an optimised build")
        link_datasets(self.box)
        proc = self.box.run("bench", "--experiments", folder, "--sweep", "patterns-quick",
                            "--out", "out")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        manifest = self.box.manifest("out")
        results = [r for name in manifest["experiments"]
                   for r in self.box.results("out", name)["configurations"]]
        self.assertGreaterEqual(len(results), 2)
        for result in results:
            with self.subTest(config=result["config_id"]):
                self.assertIn(result["status"], ("ok", "unavailable"), result["reason"])
                self.assertIn(result["pattern"]["name"], ("acorn", "gosper-glider-gun"))
                if result["status"] == "ok":
                    self.assertEqual(result["verification"]["status"], "passed")


if __name__ == "__main__":
    lbtest.main()
