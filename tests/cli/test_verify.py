"""lifebench verify: each matching experiment's verification and a summary;
unavailable ones are listed as such, neither failures nor left out."""
import lbtest


class Verify(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("cpu-good")
        self.box.add_fake("cpu-bad", verify_exit=1)
        self.box.add_fake("cuda-away", available=False, reason="no CUDA device")

    def summary(self, proc):
        lines = proc.stdout.splitlines()
        start = next(i for i, l in enumerate(lines) if l.startswith("verify: "))
        return lines[start], [l.split() for l in lines[start + 1:]]

    def test_summary_and_exit_status(self):
        proc = self.box.run("verify")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        head, rows = self.summary(proc)
        self.assertEqual(head, "verify: 1 passed, 1 failed, 1 unavailable")
        self.assertEqual(rows[0][:2], ["FAILED", "cpu-bad:"])
        self.assertEqual(rows[1], ["passed", "cpu-good"])
        self.assertEqual(rows[2][:2], ["unavailable", "cuda-away:"])
        self.assertIn("fake verify cpu-good", proc.stdout)  # its own output, as it came

    def test_glob(self):
        proc = self.box.run("verify", "--impl", "c*-g*")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        head, rows = self.summary(proc)
        self.assertEqual(head, "verify: 1 passed, 0 failed, 0 unavailable")

    def test_only_unavailable_is_not_a_failure(self):
        proc = self.box.run("verify", "--impl", "cuda-*")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("unavailable  cuda-away: no CUDA device", proc.stdout)

    def test_broken_experiment_fails(self):
        self.box.add_fake("cpu-broken", describe="garbage")
        proc = self.box.run("verify", "--impl", "cpu-broken")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("FAILED       cpu-broken: bad describe output", proc.stdout)


if __name__ == "__main__":
    lbtest.main()
