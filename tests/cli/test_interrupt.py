"""An interrupt while the experiments describe themselves: every command stops
with status 130, before it reports or runs anything."""
import os
import signal
import subprocess
import time

import lbtest


class InterruptDuringDiscovery(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("slow", describe="hang")
        self.marker = os.path.join(self.box.experiments, "slow.describing")

    def interrupt(self, *args):
        """Runs the driver, interrupts it while `slow` describes itself; returns its status."""
        driver = subprocess.Popen([self.box.lifebench, *args], cwd=self.box.work,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 15
            while not os.path.exists(self.marker):
                self.assertLess(time.monotonic(), deadline, "describe never started")
                time.sleep(0.05)
            driver.send_signal(signal.SIGINT)
            out, err = driver.communicate(timeout=30)
        finally:
            if driver.poll() is None:
                driver.kill()
        os.remove(self.marker)
        return driver.returncode, out + err

    def test_every_command_stops(self):
        sweep = self.box.write("sweep.toml", '[[run]]\nexperiment = "slow"\nshape = "8x8"\n'
                                             'generations = 1\n')
        for args in (["list"], ["verify"], ["run", "--impl", "slow"],
                     ["bench", "--sweep", sweep, "--out", "out"]):
            with self.subTest(command=args[0]):
                status, output = self.interrupt(*args)
                self.assertEqual(status, 130, output)
                self.assertNotIn("slow", output)
        self.assertFalse(os.path.exists(self.box.path("out")))


if __name__ == "__main__":
    lbtest.main()
