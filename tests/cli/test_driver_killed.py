"""A driver killed outright (SIGKILL, which it cannot catch) takes its running experiment
along, and the next run removes the scratch folder it left."""
import os

import lbtest

SLOW = '[[run]]\nexperiment = "fake"\nshape = "8x8"\ngenerations = 1\nparams = { mode = "slow" }\n'


class DriverKilled(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("fake")
        self.tmp = self.box.path("tmp")
        os.makedirs(self.tmp)
        self.env = {"TMPDIR": self.tmp}

    def start_slow_bench(self):
        """A driver running the slow experiment into out; returns it and the experiment's pid."""
        return self.box.start_bench(self, self.box.write("sweep.toml", SLOW), self.env)

    def test_the_experiment_dies_with_the_driver(self):
        driver, experiment = self.start_slow_bench()
        scratch = os.listdir(self.tmp)
        driver.kill()
        driver.wait()
        self.assertTrue(lbtest.wait_until_gone(experiment, 2),
                        "the experiment outlived the driver killed with SIGKILL")
        # The scratch folder is named after its process.
        self.assertEqual(len(scratch), 1, scratch)
        self.assertTrue(scratch[0].startswith("lifebench-bench-%d-" % driver.pid), scratch)

        # The next run goes on in the folder (the dead driver's lock went with it) and
        # removes the scratch folder it left.
        proc = self.box.run("bench", "--sweep", self.box.path("sweep.toml"), "--out", "out",
                            "--resume", "--time-limit", "0.5", env=self.env)
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("time limit of 0.5 s exceeded", proc.stdout)
        self.assertEqual(os.listdir(self.tmp), [])


if __name__ == "__main__":
    lbtest.main()
