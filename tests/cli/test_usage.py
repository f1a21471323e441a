"""Bad command lines: each gives one `lifebench: error:` line and a non-zero exit."""
import lbtest


class Usage(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("fake")

    def test_no_command(self):
        self.assertOneErrorLine(self.box.run(), "subcommand", code=2)

    def test_unknown_command(self):
        self.assertOneErrorLine(self.box.run("frobnicate"), "unknown command 'frobnicate'", code=2)

    def test_unknown_option(self):
        self.assertOneErrorLine(self.box.run("list", "--colour"), "--colour", code=2)

    def test_bench_needs_a_sweep(self):
        self.assertOneErrorLine(self.box.run("bench"), "--sweep", code=2)

    def test_time_limit_not_a_finite_positive_number(self):
        for command in (["bench", "--sweep", "cpu"], ["verify"]):
            for limit in ("-3", "0", "inf", "nan", "", "5s", "1e400"):
                self.assertOneErrorLine(self.box.run(*command, "--time-limit", limit),
                                        "--time-limit", "finite number of seconds above 0",
                                        code=2)

    def test_run_needs_impl(self):
        self.assertOneErrorLine(self.box.run("run", "--generations", "1"), "--impl", code=2)

    def test_run_unknown_impl_lists_known(self):
        line = self.assertOneErrorLine(self.box.run("run", "--impl", "nope"),
                                       "unknown experiment 'nope'")
        self.assertIn("fake", line)

    def test_verify_glob_matching_nothing(self):
        self.assertOneErrorLine(self.box.run("verify", "--impl", "cuda-*"),
                                "no experiment matches 'cuda-*'")

    def test_missing_experiments_folder(self):
        self.assertOneErrorLine(self.box.run("list", "--experiments", "no/such/folder"),
                                "no/such/folder")

    def test_help_and_version_succeed(self):
        for args in (["--help"], ["bench", "--help"], ["--version"]):
            proc = self.box.run(*args)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertTrue(proc.stdout.strip())


if __name__ == "__main__":
    lbtest.main()
