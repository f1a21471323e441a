"""A results folder in use is locked: a second bench into it is refused, naming the process
that holds it; each manifest notes what else loaded the machine (the load average, other
lifebench processes)."""
import os
import signal
import subprocess
import sys

import lbtest

SWEEP = '[[run]]\nexperiment = "fake"\nshape = "8x8"\ngenerations = 1\nparams = { mode = "%s" }\n'


class FolderLock(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("fake")

    def start_slow_bench(self):
        """A driver measuring the slow experiment into out, and the experiment's pid, once it
        runs."""
        return self.box.start_bench(self, self.box.write("slow.toml", SWEEP % "slow"))

    def stop(self, driver):
        driver.send_signal(signal.SIGINT)
        self.assertEqual(driver.wait(timeout=60), 130)

    def test_a_second_run_into_a_folder_in_use_is_refused(self):
        # Both measured every configuration, each under the other's load, and the folder kept
        # whichever wrote last.
        driver, _ = self.start_slow_bench()
        sweep = self.box.write("ok.toml", SWEEP % "ok")
        for args in (["--resume"], []):
            with self.subTest(args=args):
                proc = self.box.run("bench", "--sweep", sweep, "--out", "out", *args)
                line = self.assertOneErrorLine(
                    proc, "results folder out is in use by process %d: 'lifebench bench --sweep"
                    % driver.pid)
                self.assertIn("wait for it to end, or use another --out", line)
        self.assertEqual(len(self.box.bench_calls("fake")), 1)  # the slow one alone
        # A dry run writes nothing and may look.
        dry = self.box.run("bench", "--sweep", sweep, "--out", "out", "--resume", "--dry-run")
        self.assertEqual(dry.returncode, 0, dry.stderr)
        self.stop(driver)
        proc = self.box.run("bench", "--sweep", sweep, "--out", "out", "--resume")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)

    def test_the_manifest_notes_what_else_ran(self):
        driver, experiment = self.start_slow_bench()
        sweep = self.box.write("ok.toml", SWEEP % "ok")
        proc = self.box.run("bench", "--sweep", sweep, "--out", "beside")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        load = self.box.manifest("beside")["load"]
        self.assertIsInstance(load["load_average_start"], float)
        self.assertIsInstance(load["load_average_end"], float)
        others = load["other_processes"]
        self.assertTrue(any(p.startswith("%d: 'lifebench bench" % driver.pid) for p in others),
                        others)
        self.assertTrue(any(p.startswith("%d: " % experiment) for p in others), others)
        self.stop(driver)
        self.assertIsNone(self.box.manifest("out")["load"]["load_average_end"])  # never ended


    def test_arguments_that_are_not_utf8_are_noted_as_well_as_they_can_be(self):
        # A process's arguments and a path are bytes: ones that are not UTF-8 once made every
        # bench on the machine fail to write its manifest.
        odd = self.box.path("lifebench-odd")  # a lifebench process, to the driver
        os.symlink(sys.executable, odd)
        other = subprocess.Popen([odd, "-c", "import time; time.sleep(60)", b"\xff\xfe"])
        self.addCleanup(other.wait)
        self.addCleanup(other.kill)
        sweep = os.fsencode(self.box.path("ok")) + b"\xff.toml"
        with open(sweep, "w") as f:
            f.write(SWEEP % "ok")
        proc = subprocess.run([self.box.lifebench, "bench", "--sweep", sweep, "--out", "out"],
                              cwd=self.box.work, env=self.box.environment(), capture_output=True,
                              text=True, timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        manifest = self.box.manifest("out")
        others = manifest["load"]["other_processes"]
        if len(others) < 16:  # the most it notes, of the tests beside this one too
            self.assertIn("%d: 'lifebench-odd -c import time; time.sleep(60) \ufffd\ufffd'"
                          % other.pid, others)
        self.assertEqual(manifest["command"][3], sweep.decode("utf-8", "replace"))
        again = subprocess.run([self.box.lifebench, "bench", "--sweep", sweep, "--out", "out",
                                "--resume"], cwd=self.box.work, env=self.box.environment(),
                               capture_output=True, text=True, timeout=300)
        self.assertEqual(again.returncode, 0, again.stdout + again.stderr)
        self.assertIn("1 done earlier", again.stdout)

if __name__ == "__main__":
    lbtest.main()
