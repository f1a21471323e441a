"""An interrupt while the experiments describe themselves: every command stops
with status 130, before it reports or runs anything."""
import os

import lbtest


class InterruptDuringDiscovery(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("slow", describe="hang")
        self.marker = os.path.join(self.box.experiments, "slow.describing")

    def interrupt(self, *args):
        """Runs the driver, interrupts it while `slow` describes itself; returns its status."""
        proc = self.box.interrupt(*args, when=self.marker, timeout=30)
        os.remove(self.marker)
        return proc.returncode, proc.stdout + proc.stderr

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
