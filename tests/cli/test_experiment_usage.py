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

    def test_numbers_are_whole_and_in_range(self):
        # CLI11 alone reads "-1" into an unsigned as 2^64 - 1 and "" as 0.
        bench = ("bench", "--problem", "B3/S23:T64,64", "--json-out", "r.json")
        verify = ("verify", "--problem", "B3/S23:T64,64")
        cases = [
            (bench + ("--generations", "-1"), "--generations", "from 1 to 9223372036854775807"),
            (bench + ("--generations", "1", "--repetitions", ""), "--repetitions",
             "from 1 to 1000000"),
            (bench + ("--generations", "1", "--warmup", "1000001"), "--warmup",
             "from 0 to 1000000"),
            (verify + ("--generations", "99999999999999999999"), "--generations",
             "from 0 to 9223372036854775807"),
            (verify + ("--seed", "-1"), "--seed", "from 0 to 18446744073709551615"),
        ]
        for args, option, range_text in cases:
            self.assertUsageError(self.run_experiment(*args), option, range_text)

    def test_verify_generations_and_seed_need_a_problem(self):
        for option in ("--generations", "--seed"):
            self.assertUsageError(self.run_experiment("verify", option, "3"), option, "--problem")

    def test_shards_refused_unless_k_of_n(self):
        for text in ("0/2", "3/2", "1/0", "1/65", "1", "a/2", "1/2/3", "", " 1/2"):
            self.assertUsageError(self.run_experiment("verify", "--shard", text), "--shard",
                                  "expected K/N with 1 <= K <= N <= 64")
        self.assertUsageError(self.run_experiment("verify", "--shard", "1/2", "--problem",
                                                  "B3/S23:T64,64"), "--shard", "--problem")

    def test_shards_together_are_the_whole_matrix(self):
        def cases(*args):
            proc = self.run_experiment("verify", *args)
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            return [line for line in proc.stdout.splitlines()
                    if line.startswith(("pass ", "skip "))]
        whole = cases()
        parts = [cases("--shard", "%d/3" % k) for k in (1, 2, 3)]
        self.assertTrue(all(parts), "a part ran nothing")
        self.assertEqual(sorted(whole), sorted(sum(parts, [])))

    def test_help_succeeds(self):
        for args in (["--help"], ["bench", "--help"]):
            proc = self.run_experiment(*args)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertTrue(proc.stdout.strip())


if __name__ == "__main__":
    lbtest.main()
