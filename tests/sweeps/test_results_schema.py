"""A real results folder against harness/results.schema.json: a small CPU sweep of the built
experiments (a measured configuration, one started from a pattern, an out-of-core one with its file's device entries, an
unsupported one, one whose process crashed, which the driver records itself) is written by
`lifebench bench`, and every file the report reads validates, as the report reads it."""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "reports"))

from lifebench_report import results, schema  # noqa: E402
from lifebench_report.errors import ReportError  # noqa: E402

LIFEBENCH = os.environ.get("LIFEBENCH", "")
TEST_EXPERIMENTS_DIR = os.environ.get("LIFEBENCH_TEST_EXPERIMENTS_DIR", "")
NEEDED = ("cpu-trivial", "cpu-bitadder", "cpu-outofcore")

SWEEP = """\
[defaults]
shape = "64x64"
generations = 4
repetitions = 2
time_limit_s = 120

[[run]]
experiment = "cpu-trivial"
density = 0.25
table = "fujita2017-table1"
row = "CPU"
column = "word-per-cell"

[[run]]
experiment = "cpu-trivial"
pattern = "datasets/acorn.rle"
offset = "3,4"

[[run]]
experiment = "cpu-outofcore"
params = { halo_steps = 2, memory = "64K" }

[[run]]
experiment = "cpu-bitadder"
rule = "B36/S23"

[[run]]
experiment = "test-crash"
generations = 16
"""


class RealResultsFolder(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        experiments = pathlib.Path(LIFEBENCH).parent / "experiments"
        missing = [n for n in NEEDED if not (experiments / f"lifebench-exp-{n}").exists()]
        crash = pathlib.Path(TEST_EXPERIMENTS_DIR or "/nonexistent") / "lifebench-exp-test-crash"
        if missing or not crash.exists():
            raise unittest.SkipTest(f"not built: {', '.join(missing) or 'test-crash'}")
        cls.work = pathlib.Path(tempfile.mkdtemp(prefix="lifebench-schema-"))
        sweep = cls.work / "sweep.toml"
        sweep.write_text(SWEEP)
        cls.out = cls.work / "results"
        env = {k: v for k, v in os.environ.items() if k != "LIFEBENCH_EXPERIMENTS_PATH"}
        cls.proc = subprocess.run(
            [LIFEBENCH, "bench", "--sweep", sweep, "--out", cls.out,
             "--experiments", TEST_EXPERIMENTS_DIR],
            capture_output=True, text=True, timeout=600, env=env)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def test_every_file_validates(self):
        self.assertEqual(self.proc.returncode, 1, self.proc.stdout + self.proc.stderr)  # the crash
        files = sorted(self.out.glob("*.json"))
        self.assertEqual([f.name for f in files],
                         ["benchmarks.json", "cpu-bitadder.json", "cpu-outofcore.json",
                          "cpu-trivial.json", "manifest.json", "test-crash.json"])
        for file in files:
            if file.name == "benchmarks.json":  # Google Benchmark's format
                continue
            kind = "manifest" if file.name == "manifest.json" else "experiment_results"
            with self.subTest(file=file.name):
                schema.check(file, json.loads(file.read_text()), kind)
        [run] = results.load_runs([self.out])
        by_experiment = {r.experiment: r for r in run.results}
        self.assertEqual({name: r.status for name, r in by_experiment.items()},
                         {"cpu-trivial": "ok", "cpu-outofcore": "ok",
                          "cpu-bitadder": "unsupported", "test-crash": "failed"})
        self.assertTrue(by_experiment["cpu-trivial"].verified)
        trivial = json.loads((self.out / "cpu-trivial.json").read_text())["configurations"]
        self.assertEqual([r["pattern"]["path"] for r in trivial if "pattern" in r],
                         ["datasets/acorn.rle"])
        self.assertEqual([r["status"] for r in trivial], ["ok", "ok"])
        self.assertIn("storage", by_experiment["cpu-outofcore"].device)
        self.assertIn("killed by signal 11", by_experiment["test-crash"].reason)
        self.assertTrue(by_experiment["test-crash"].stderr_tail)

    def test_a_result_the_schema_does_not_describe_is_refused(self):
        file = self.out / "cpu-trivial.json"
        data = json.loads(file.read_text())
        data["configurations"][0]["timing"]["fastest_s"] = 0.1
        with self.assertRaises(ReportError) as caught:
            schema.check(file, data, "experiment_results")
        self.assertIn(f"{file}: configurations[0].timing: Additional properties are not allowed "
                      "('fastest_s' was unexpected)", str(caught.exception))


if __name__ == "__main__":
    if not os.access(LIFEBENCH, os.X_OK):
        print("LIFEBENCH does not name the built driver", file=sys.stderr)
        sys.exit(77)
    program = unittest.main(exit=False, verbosity=2)
    result = program.result
    skipped_all = bool(result.skipped) and len(result.skipped) >= result.testsRun
    sys.exit(77 if skipped_all else (0 if result.wasSuccessful() else 1))
