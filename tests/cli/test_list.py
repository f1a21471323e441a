"""lifebench list: every experiment found, with its availability; a broken one is reported."""
import os

import lbtest


class List(lbtest.CliTestCase):
    def rows(self, proc):
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[0].split(), ["NAME", "FAMILY", "BACKEND", "AVAILABILITY"])
        return {line.split()[0]: line for line in lines[1:]}

    def test_available_and_unavailable(self):
        self.box.add_fake("cpu-fake")
        self.box.add_fake("cuda-fake", backend="cuda", available=False,
                          reason="no CUDA device: cudaGetDeviceCount returned 0")
        self.box.add_fake("hex-fake", family="hex")
        rows = self.rows(self.box.run("list"))
        self.assertEqual(sorted(rows), ["cpu-fake", "cuda-fake", "hex-fake"])
        self.assertEqual(rows["cpu-fake"].split(), ["cpu-fake", "square", "cpu", "available"])
        self.assertIn("unavailable: no CUDA device: cudaGetDeviceCount returned 0",
                      rows["cuda-fake"])
        self.assertIn("hex", rows["hex-fake"])

    def test_broken_describe_is_reported_not_fatal(self):
        self.box.add_fake("good")
        self.box.add_fake("crashes", describe="crash")
        self.box.add_fake("babbles", describe="garbage")
        rows = self.rows(self.box.run("list"))
        self.assertIn("available", rows["good"])
        self.assertIn("broken: describe failed: killed by signal 11", rows["crashes"])
        self.assertIn("broken: bad describe output", rows["babbles"])

    def test_folders_from_option_and_environment(self):
        extra = os.path.join(self.box.root, "extra")
        more = os.path.join(self.box.root, "more")
        self.box.add_fake("from-option", folder=extra)
        self.box.add_fake("from-env", folder=more)
        rows = self.rows(self.box.run("list", "--experiments", extra,
                                      env={"LIFEBENCH_EXPERIMENTS_PATH": "/no/such:" + more}))
        self.assertEqual(sorted(rows), ["from-env", "from-option"])
        # The option also works before the command.
        rows = self.rows(self.box.run("--experiments", extra, "list"))
        self.assertEqual(sorted(rows), ["from-option"])

    def test_first_folder_wins_for_a_name_found_twice(self):
        extra = os.path.join(self.box.root, "extra")
        self.box.add_fake("twice", folder=extra, family="hex")
        self.box.add_fake("twice", family="square")
        proc = self.box.run("list", "--experiments", extra)
        rows = self.rows(proc)
        self.assertIn("hex", rows["twice"])
        self.assertIn("ignored", proc.stderr)

    def test_a_name_found_twice_is_reported_once(self):
        extra = os.path.join(self.box.root, "extra")
        self.box.add_fake("twice", folder=extra)
        self.box.add_fake("twice")
        for args in (["run", "--impl", "nope"], ["verify", "--impl", "nope"]):
            proc = self.box.run("--experiments", extra, *args)
            self.assertOneErrorLine(proc, "'nope'", "(known: twice)")
            self.assertEqual(proc.stderr.count("ignored"), 1, proc.stderr)

    def test_a_copy_that_keeps_another_experiments_ties_is_warned_about(self):
        tie = ('[[run]]\nsweeps = ["cpu"]\nshape = "64x64"\ngenerations = 4\n'
               'table = "t"\nrow = "r"\ncolumn = ["a", "b"]\n')
        self.box.add_fake("cuda-one", sweep=tie)
        self.box.add_fake("cuda-two", sweep=tie.replace('["a", "b"]', '"b"'))
        self.box.add_fake("cuda-own", sweep=tie.replace('row = "r"', 'row = "s"'))
        self.box.add_fake("external-original", sweep=tie)  # beside its reproduction on purpose
        proc = self.box.run("list")
        self.assertEqual(sorted(self.rows(proc)),
                         ["cuda-one", "cuda-own", "cuda-two", "external-original"])
        warnings = [line for line in proc.stderr.splitlines() if "warning" in line]
        self.assertEqual(len(warnings), 1, proc.stderr)
        self.assertIn("cuda-two's sweep ties cells already tied by cuda-one (t / r / b)",
                      warnings[0])
        self.assertIn("delete them from the copy", warnings[0])

    def test_nothing_found_is_an_error(self):
        self.assertOneErrorLine(self.box.run("list"), "no experiment executables")

    def test_test_experiments(self):
        if not lbtest.TEST_EXPERIMENTS_DIR or not os.path.isdir(lbtest.TEST_EXPERIMENTS_DIR):
            self.skipTest("test experiments not built")
        rows = self.rows(self.box.run("list", "--experiments", lbtest.TEST_EXPERIMENTS_DIR))
        for name in ("test-crash", "test-hang"):
            self.assertIn(name, rows)
            self.assertIn("available", rows[name])


if __name__ == "__main__":
    lbtest.main()
