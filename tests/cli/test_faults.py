"""A crashing and a hanging experiment (tests/experiments) inside one sweep: each
is recorded as failed with the reason, and the sweep goes on to the next one."""
import json
import os
import textwrap
import time

import lbtest

SWEEP = os.path.join(lbtest.HERE, "sweeps", "faults.toml")


class Faults(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        if not (lbtest.test_experiment("test-crash") and lbtest.test_experiment("test-hang")):
            self.skipTest("test-crash and test-hang are not built")
        if not lbtest.optimised_build():
            self.skipTest("experiments refuse to bench in a %s build" % (lbtest.BUILD_TYPE or "?"))

    def test_crash_and_hang_inside_a_sweep(self):
        start = time.monotonic()
        proc = self.box.run("bench", "--sweep", SWEEP, "--out", "out",
                            "--experiments", lbtest.TEST_EXPERIMENTS_DIR)
        self.assertLess(time.monotonic() - start, 120)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        lines = [l for l in proc.stdout.splitlines() if l.startswith("[")]
        self.assertEqual(len(lines), 4, proc.stdout)
        # "[1/4 0:00] ...": the place, the time since the sweep started, the configuration.
        self.assertRegex(lines[0], r"^\[1/4 \d+:\d\d\] test-crash B3/S23:T32,32 g16 … FAILED: "
                                   r"killed by signal 11 \(Segmentation fault\)")
        self.assertRegex(lines[1], r"^\[2/4 \d+:\d\d\] test-crash B3/S23:T32,32 g4 … ok")
        self.assertRegex(lines[2], r"^\[3/4 \d+:\d\d\] test-hang B3/S23:T32,32 g16 … FAILED: time "
                                   r"limit of 10 s exceeded")
        self.assertRegex(lines[3], r"^\[4/4 \d+:\d\d\] test-hang B3/S23:T32,32 g4 … ok")

        crash = self.box.results("out", "test-crash")["configurations"]
        hang = self.box.results("out", "test-hang")["configurations"]
        self.assertEqual([c["status"] for c in crash + hang], ["failed", "ok", "failed", "ok"])
        self.assertEqual(crash[0]["reason"], "killed by signal 11 (Segmentation fault)")
        self.assertEqual(hang[0]["reason"], "time limit of 10 s exceeded")
        self.assertEqual(crash[0]["config_id"], "test-crash|B3/S23:T32,32|g16|")
        self.assertIn("stderr_tail", crash[0])
        self.assertEqual(crash[1]["verification"]["status"], "passed")
        self.assertGreater(crash[1]["throughput"]["cell_updates_per_second"], 0)
        # Its simulator's phase: the median over the repetitions, each within its timed seconds.
        timing = crash[1]["timing"]
        self.assertGreaterEqual(timing["repetitions"], 3)  # more until the noise is measured
        self.assertEqual(len(timing["seconds"]), timing["repetitions"])
        self.assertEqual(list(timing["phases"]), ["simulate"])
        self.assertGreater(timing["phases"]["simulate"], 0)
        self.assertLessEqual(timing["phases"]["simulate"], timing["median_s"])
        manifest = self.box.manifest("out")
        self.assertEqual(manifest["configurations"],
                         {"total": 4, "done": 4, "ok": 2, "failed": 2, "unsupported": 0,
                          "unavailable": 0})
        # Nothing half-written: only whole JSON files, no temporaries.
        folder = self.box.path("out")
        self.assertEqual(sorted(os.listdir(folder)),
                         ["benchmarks.json", "manifest.json", "test-crash.json", "test-hang.json"])
        for name in os.listdir(folder):
            with open(os.path.join(folder, name)) as f:
                json.load(f)


class FinalState(lbtest.CliTestCase):
    """The timed simulator's own state after timing, checked against the reference."""

    def setUp(self):
        super().setUp()
        if not lbtest.test_experiment("test-drift"):
            self.skipTest("test-drift is not built")
        if not lbtest.optimised_build():
            self.skipTest("experiments refuse to bench in a %s build" % (lbtest.BUILD_TYPE or "?"))

    def test_a_wrong_final_state_fails_the_result(self):
        sweep = self.box.write("drift.toml", textwrap.dedent("""\
            [defaults]
            shape = "32x32"
            warmup = 1
            repetitions = 3
            [[run]]
            experiment = "test-drift"
            generations = 16
            [[run]]
            experiment = "test-drift"
            generations = 4
            """))
        proc = self.box.run("bench", "--sweep", sweep, "--out", "out",
                            "--experiments", lbtest.TEST_EXPERIMENTS_DIR)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        wrong, right = self.box.results("out", "test-drift")["configurations"]
        # Timed more than 8 generations at once, it spoils a cell, after passing verification.
        self.assertEqual(wrong["status"], "failed")
        self.assertRegex(wrong["reason"], r"^final state after timing differs from the "
                                          r"reference: after \d+ generations: cell \(")
        final = wrong["verification"]["final_state"]
        self.assertEqual(final["status"], "failed")
        self.assertEqual(final["generations"] % 16, 0)
        self.assertGreaterEqual(final["generations"], 16 * (1 + 3))
        self.assertEqual(wrong["verification"]["status"], "passed")  # the check before timing
        self.assertNotIn("timing", wrong)
        # Four generations at once are right: the timed problem itself is verified.
        self.assertEqual(right["status"], "ok")
        verification = right["verification"]
        self.assertEqual(verification["scope"], "timed_problem")
        self.assertEqual(verification["final_state"],
                         {"status": "passed",
                          "generations": 4 * (1 + right["timing"]["repetitions"])})
        timing = right["timing"]
        self.assertIn(timing["stop"], ("converged", "max_repetitions", "time_budget"))
        self.assertEqual(timing["target_rel_ci"], 0.01)
        self.assertLessEqual(timing["median_ci"]["low_s"], timing["median_s"])
        self.assertGreaterEqual(timing["median_ci"]["high_s"], timing["median_s"])


if __name__ == "__main__":
    lbtest.main()
