"""Bad command lines given to an experiment executable itself (cpu-trivial): one
`lifebench: error:` line and status 2, as the driver."""
import subprocess

import lbtest


class ExperimentUsage(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.binary = lbtest.real_experiment("cpu-trivial")
        if self.binary is None:
            self.skipTest("cpu-trivial is not built")

    def run_experiment(self, *args):
        return subprocess.run([self.binary, *args], cwd=self.box.work, capture_output=True,
                              text=True, timeout=60)

    def assertUsageError(self, proc, *fragments):
        line = self.assertOneErrorLine(proc, *fragments, code=2)
        self.assertTrue(line.endswith("(see --help)"), line)
        self.assertEqual(proc.stderr.strip(), line)

    def test_unknown_option(self):
        self.assertUsageError(self.run_experiment("describe", "--colour"), "--colour")

    def test_no_subcommand(self):
        self.assertUsageError(self.run_experiment(), "subcommand")

    def test_bench_refuses_zero_generations(self):
        self.assertUsageError(self.run_experiment("bench", "--problem", "B3/S23:T64,64",
                                                  "--generations", "0", "--json-out", "r.json"),
                              "--generations")

    def test_verify_generations_and_seed_need_a_problem(self):
        for option in ("--generations", "--seed"):
            self.assertUsageError(self.run_experiment("verify", option, "3"), option, "--problem")

    def test_help_succeeds(self):
        for args in (["--help"], ["bench", "--help"]):
            proc = self.run_experiment(*args)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertTrue(proc.stdout.strip())


if __name__ == "__main__":
    lbtest.main()
