"""Sweep files are checked before anything runs: one line naming the file, the
line, the run and the fault; a non-zero exit; no results folder."""
import os
import subprocess
import tempfile
import textwrap
import threading

import lbtest

GOOD_RUN = """
[[run]]
experiment = "fake"
shape = "16x16"
generations = 2
"""


class SweepValidation(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("fake")
        self.box.add_fake("fake3d", family="3d")

    def refused(self, sweep_text, *fragments):
        sweep = self.box.write("sweep.toml", textwrap.dedent(sweep_text))
        proc = self.box.run("bench", "--sweep", sweep, "--out", "out")
        line = self.assertOneErrorLine(proc, sweep, *fragments)
        self.assertFalse(os.path.exists(self.box.path("out")), "results folder written")
        self.assertEqual(self.box.bench_calls("fake"), [], "an experiment was run")
        return line

    def test_unknown_experiment(self):
        line = self.refused(GOOD_RUN + """
            [[run]]
            experiment = "no-such-experiment"
            shape = "16x16"
            generations = 2
            """, "run #2", "unknown experiment 'no-such-experiment'")
        self.assertIn("fake", line)  # the known ones are listed

    def test_unknown_parameter(self):
        self.refused(GOOD_RUN + 'params = { colour = "red" }\n',
                     "run #1", "unknown parameter 'colour'", "mode, threads")

    def test_disallowed_parameter_value(self):
        self.refused(GOOD_RUN + 'params = { mode = ["ok", "explode"] }\n',
                     "run #1", "mode=explode", "allowed: ok, crash")

    def test_malformed_toml_gives_the_line(self):
        self.refused('[[run]]\nexperiment = "fake"\nshape = "16x16\ngenerations = 2\n',
                     "sweep.toml:3:")

    def test_unknown_key(self):
        self.refused(GOOD_RUN + GOOD_RUN.replace("shape", "shapes"),
                     "sweep.toml:9: run #2", "unknown key 'shapes'")

    def test_wrong_types(self):
        self.refused(GOOD_RUN.replace("2", '"two"'), "generations must be an integer")
        self.refused(GOOD_RUN + "params = { mode = true }\n", "strings or integers")
        for limit in ("-1", "0", "inf", "+inf", "nan"):
            self.refused(GOOD_RUN + "time_limit_s = %s\n" % limit,
                         "time_limit_s must be a finite number above 0, not " + limit.strip("+"))
        self.refused(GOOD_RUN + 'sweeps = "cpu"\n', "sweeps must be a list of strings")

    def test_lists_that_multiply_past_the_limit(self):
        # 6 KB that made 27 million configurations, 2.5 GB of the driver's memory.
        shapes = ", ".join('"%dx8"' % (8 + i) for i in range(300))
        densities = ", ".join("%g" % ((i + 1) / 1000) for i in range(300))
        threads = ", ".join(str(i + 1) for i in range(300))
        self.refused('[[run]]\nexperiment = "fake"\nshape = [%s]\ndensity = [%s]\n'
                     'generations = 1\nparams = { threads = [%s] }\n' % (shapes, densities, threads),
                     "run #1", "more than 100000 configurations", "split it")

    def bench_measured(self, *args):
        """`lifebench bench ARGS` in the sandbox: the process, its peak resident memory in MiB
        (its own and its children's, each alone) and its CPU seconds (not the wall clock's,
        which tests running side by side stretch)."""
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            proc = subprocess.Popen([self.box.lifebench, "bench", *args], cwd=self.box.work,
                                    env=self.box.environment(), stdout=out, stderr=err, text=True)
            timer = threading.Timer(120, proc.kill)  # a sweep that runs is no refusal
            timer.start()
            _, status, usage = os.wait4(proc.pid, 0)
            timer.cancel()
            proc.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            done = subprocess.CompletedProcess(proc.args, proc.returncode, out.read(), err.read())
        return done, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime

    def test_a_sweep_past_the_limit_is_refused_before_it_is_expanded(self):
        # 1 MB: [defaults] of 100,000 shapes that 20 runs take, which made 2 million
        # configurations at 1 GiB of the driver's memory in 22 s of CPU, in --dry-run too.
        shapes = ", ".join('"%dx%d"' % (8 + i // 400, 8 + i % 400) for i in range(100000))
        runs = "".join('[[run]]\nexperiment = "fake"\ngenerations = %d\n' % (i + 1)
                       for i in range(20))
        sweep = self.box.write("sweep.toml", "[defaults]\nshape = [%s]\n" % shapes + runs)
        for args in (["--dry-run"], []):  # in turn: a sweep that ran would take hours
            proc, peak_mib, seconds = self.bench_measured("--sweep", sweep, "--out", "out", *args)
            self.assertOneErrorLine(proc, "sweep.toml:", "run #2",
                                    "more than 100000 configurations in the file")
            self.assertLess(peak_mib, 200)
            self.assertLess(seconds, 5, "CPU seconds")  # about 0.6 refused, 22 expanded
            self.assertFalse(os.path.exists(self.box.path("out")))

    def test_sweeps_past_the_limit_together_are_refused(self):
        # Each file's 60,000 configurations pass; the run of both would make 120,000.
        shapes = ", ".join('"%dx8"' % (8 + i) for i in range(200))
        threads = ", ".join(str(i + 1) for i in range(300))
        text = ('[[run]]\nexperiment = "fake"\nshape = [%s]\ngenerations = 1\n'
                'params = { threads = [%s] }\n' % (shapes, threads))
        self.box.write("first.toml", text)
        self.box.write("second.toml", text.replace("generations = 1", "generations = 2"))
        # Named as given, relative to the run's folder: a long absolute path would be cut
        # (the message shortens long values) before the second file's name.
        self.assertOneErrorLine(
            self.box.run("bench", "--sweep", "first.toml", "--sweep", "second.toml", "--dry-run"),
            "more than 100000 configurations in the sweeps", "first.toml, second.toml")

    def test_long_values_are_cut_in_messages(self):
        # A 50 MB shape was echoed whole: a 50 MB error line.
        for text, fragment in ((GOOD_RUN.replace("16x16", "1" * 50_000_000), "shape '1111"),
                               (GOOD_RUN + 'rule = "B3/S23%s"\n' % ("X" * 1_000_000), "rule \"B3/S23XX"),
                               (GOOD_RUN + 'params = { %s = 1 }\n' % ("c" * 1_000_000),
                                "unknown parameter 'cccc")):
            with self.subTest(fragment=fragment):
                line = self.refused(text, fragment, "…")
                # The sweep's own path is named in full, however long the test's folder.
                self.assertLess(len(line.replace(self.box.path("sweep.toml"), "")), 400)

    def test_missing_keys(self):
        self.refused('[[run]]\nshape = "16x16"\ngenerations = 2\n', "no experiment")
        self.refused('[[run]]\nexperiment = "fake"\ngenerations = 2\n', "no shape")
        self.refused('[[run]]\nexperiment = "fake"\nshape = "16x16"\n', "no generations")

    def test_bad_rule_shape_boundary(self):
        self.refused(GOOD_RUN + 'rule = "B3/S23X"\n', "B3/S23X")
        self.refused(GOOD_RUN + 'rule = "B6/S567/3D"\n', "3d rule", "square experiment")
        self.refused(GOOD_RUN + 'rule = "B3/S23:T16,16"\n', "bounded grid")
        self.refused(GOOD_RUN.replace("16x16", "16x16x16"), "WxH")
        self.refused(GOOD_RUN.replace("16x16", "0x16"), "positive")
        self.refused(GOOD_RUN + 'boundary = "klein"\n', "klein")
        self.refused(GOOD_RUN.replace('"fake"', '"fake3d"'), "WxHxD")

    def test_tie_needs_all_three(self):
        self.refused(GOOD_RUN + 'table = "fujita2017-table1"\n', "table, row and column")
        self.refused(GOOD_RUN + 'table = "t"\nrow = "r"\ncolumn = []\n', "column must not be empty")
        self.refused(GOOD_RUN + 'table = "t"\nrow = ["r"]\ncolumn = "c"\n',
                     "row must be a string, not an array")
        self.refused(GOOD_RUN + 'table = "t"\nrow = "r"\ncolumn = ["c", "c"]\n',
                     "tie 't / r / c' given twice")

    def test_ties_exclude_table_row_column(self):
        self.refused(GOOD_RUN + 'table = "t"\nrow = "r"\ncolumn = "c"\n'
                     'ties = [{ table = "t", row = "r", column = "d" }]\n',
                     "sweep.toml:9: run #1", "ties and table/row/column exclude each other")
        self.refused(GOOD_RUN + 'column = "c"\nties = [{ table = "t", row = "r", column = "d" }]\n',
                     "exclude each other")

    def test_bad_ties(self):
        self.refused(GOOD_RUN + 'ties = []\n', "ties must be a non-empty list", "an empty list")
        self.refused(GOOD_RUN + 'ties = { table = "t", row = "r", column = "c" }\n',
                     "ties must be a non-empty list", "not a table")
        self.refused(GOOD_RUN + 'ties = ["t"]\n', "ties must hold tables", "not a string")
        self.refused(GOOD_RUN + 'ties = [{ table = "t", row = "r" }]\n', "a tie without column")
        self.refused(GOOD_RUN + 'ties = [{ table = "t", row = "r", column = 3 }]\n',
                     "a tie's column must be a non-empty string, not an integer")
        self.refused(GOOD_RUN + 'ties = [{ table = "t", row = "r", column = "c", cell = 1 }]\n',
                     "unknown key 'cell' in a tie")
        self.refused(GOOD_RUN + 'ties = [{ table = "t", row = "r", column = "c" },\n'
                     '        { table = "t", row = "r", column = "c" }]\n', "given twice")

    def test_not_a_sweep_file(self):
        self.refused("foo = 1\n", "unknown key 'foo'")
        self.refused("# nothing\n", "no [[run]]")

    def test_conflicting_duplicate_configuration(self):
        self.refused(GOOD_RUN + GOOD_RUN + "repetitions = 9\n", "run #2",
                     "fake|B3/S23:T16,16|g2|", "repetitions 9, warmup 1 against 5, 1")

    def test_bad_stopping_rule(self):
        self.refused(GOOD_RUN + "repetitions = 9\nmax_repetitions = 8\n",
                     "max_repetitions 8 is below repetitions 9")
        for bad in ("0", "1", "-0.5", "nan", '"0.01"'):
            self.refused(GOOD_RUN + "target_rel_ci = %s\n" % bad,
                         "target_rel_ci must be a number between 0 and 1 (both excluded)")
        self.refused(GOOD_RUN + "timing_budget_s = 0\n",
                     "timing_budget_s must be a finite number above 0")
        self.refused(GOOD_RUN + "max_repetitions = 0\n", "max_repetitions must be at least 1")
        self.refused(GOOD_RUN + GOOD_RUN + "target_rel_ci = 0.02\n", "run #2",
                     "with different repetitions, warmup or stopping rule")

    def test_duplicate_configuration_keeps_the_union_of_its_ties(self):
        cell = lambda t, r, c: {"table": t, "row": r, "column": c}
        sweep = self.box.write("sweep.toml", GOOD_RUN + 'table = "l40"\nrow = "3D"\n'
                               'column = ["FPS", "ms/gen"]\n' + GOOD_RUN.replace("16x16", "8x8"))
        other = self.box.write("other.toml", GOOD_RUN.replace('"16x16"', '["16x16", "8x8"]') +
                               'ties = [{ table = "a100", row = "3D", column = "FPS" },\n'
                               '        { table = "l40", row = "3D", column = "FPS" }]\n')
        proc = self.box.run("bench", "--sweep", sweep, "--sweep", other, "--out", "out",
                            "--dry-run")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("[1/2] fake B3/S23:T16,16 g2 → l40 / 3D / FPS; l40 / 3D / ms/gen; "
                      "a100 / 3D / FPS\n", proc.stdout)
        proc = self.box.run("bench", "--sweep", sweep, "--sweep", other, "--out", "out")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        configurations = self.box.results("out", "fake")["configurations"]
        self.assertEqual([c["config_id"] for c in configurations],
                         ["fake|B3/S23:T16,16|g2|", "fake|B3/S23:T8,8|g2|"])
        self.assertEqual(configurations[0]["ties"], [cell("l40", "3D", "FPS"),
                                                     cell("l40", "3D", "ms/gen"),
                                                     cell("a100", "3D", "FPS")])
        self.assertEqual(configurations[1]["ties"], [cell("a100", "3D", "FPS"),
                                                     cell("l40", "3D", "FPS")])
        self.assertEqual(len(self.box.bench_calls("fake")), 2)  # each measured once

    def test_missing_sweep_file(self):
        self.assertOneErrorLine(self.box.run("bench", "--sweep", "nowhere.toml"),
                                "nowhere.toml does not exist")

    def test_a_sweep_path_that_is_not_a_regular_file(self):
        os.mkfifo(self.box.path("fifo.toml"))  # whose read would wait for a writer
        os.mkdir(self.box.path("folder.toml"))
        for name in ("fifo.toml", "folder.toml"):
            self.assertOneErrorLine(self.box.run("bench", "--sweep", name, "--dry-run"),
                                    "sweep file %s is not a regular file" % name)

    def test_control_characters_are_shown_not_sent(self):
        # A NUL cut the message short where it came; an escape sequence reached the terminal.
        line = self.refused(GOOD_RUN + 'rule = "B3/S23\\u0000x\\u001b[31m"\n')
        self.assertIn('rule "B3/S23\\x00x\\x1b[31m": \'\\x00\' in the survival counts', line)
        self.assertNotIn("\x1b", line)

    def test_named_sweep_selecting_nothing(self):
        self.box.add_fake("own", sweep='[[run]]\nsweeps = ["cpu"]\nshape = "16x16"\ngenerations = 2\n')
        line = self.assertOneErrorLine(self.box.run("bench", "--sweep", "gpu", "--out", "out"),
                                       "sweep 'gpu' selects no run")
        self.assertIn("cpu", line)
        self.assertFalse(os.path.exists(self.box.path("out")))

    def test_experiment_sweep_file_checked_too(self):
        self.box.add_fake(
            "own", sweep='[[run]]\nsweeps = ["cpu"]\nshape = "16x16"\ngenerations = 2\n'
                         'params = { threads = 2, colour = "red" }\n')
        self.assertOneErrorLine(self.box.run("bench", "--sweep", "cpu"),
                                os.path.join(self.box.experiments, "own.sweep.toml"),
                                "unknown parameter 'colour'")

    def test_experiment_sweep_file_rules(self):
        self.box.add_fake("own", sweep='[[run]]\nshape = "16x16"\ngenerations = 2\n')
        self.assertOneErrorLine(self.box.run("bench", "--sweep", "cpu"), "own.sweep.toml:1: run #1",
                                "no sweeps")
        self.box.add_fake("own", sweep='[[run]]\nsweeps = ["cpu"]\nexperiment = "fake"\n'
                                       'shape = "16x16"\ngenerations = 2\n')
        self.assertOneErrorLine(self.box.run("bench", "--sweep", "cpu"),
                                "experiment 'fake' in the sweep file of own")

    def test_defaults_fill_what_a_run_does_not_give(self):
        sweep = self.box.write("sweep.toml", textwrap.dedent("""\
            [defaults]
            rule = "B36/S23"
            boundary = "dead"
            shape = "16x16"
            density = 0.25
            generations = 4
            repetitions = 2
            warmup = 0
            params = { mode = "ok", threads = 3 }

            [[run]]
            experiment = "fake"

            [[run]]
            experiment = "fake"
            boundary = "torus"
            shape = ["8x8", "32x8"]
            density = 0.5
            generations = 6
            repetitions = 1
            warmup = 2
            params = { threads = [5, 6] }
            """))
        proc = self.box.run("bench", "--sweep", sweep, "--out", "out")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        calls = [(c["problem"], c["generations"], c["repetitions"], c["warmup"], c["density"],
                  c["params"]) for c in self.box.bench_calls("fake")]
        own = [(f"B36/S23:T{shape}", "6", "1", "2", "0.5", {"mode": "ok", "threads": threads})
               for shape in ("8,8", "32,8") for threads in ("5", "6")]
        self.assertEqual(calls, [("B36/S23:P16,16", "4", "2", "0", "0.25",
                                  {"mode": "ok", "threads": "3"}), *own])

    def test_default_time_limit_and_sweeps(self):
        self.box.add_fake("own", sweep=textwrap.dedent("""\
            [defaults]
            sweeps = ["cpu"]
            time_limit_s = 1
            shape = "16x16"
            generations = 2

            [[run]]
            params = { mode = "hang" }

            [[run]]
            sweeps = ["gpu"]
            time_limit_s = 60
            """))
        proc = self.box.run("bench", "--sweep", "cpu", "--out", "out")
        self.assertNotEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        [result] = self.box.results("out", "own")["configurations"]
        self.assertEqual(result["reason"], "time limit of 1 s exceeded")
        proc = self.box.run("bench", "--sweep", "gpu", "--out", "out-gpu")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(len(self.box.results("out-gpu", "own")["configurations"]), 1)

    def test_default_table_ties_the_runs_that_name_a_cell(self):
        sweep = self.box.write("sweep.toml", textwrap.dedent("""\
            [defaults]
            table = "t"
            shape = "16x16"
            generations = 2

            [[run]]
            experiment = "fake"
            row = "r"
            column = ["a", "b"]

            [[run]]
            experiment = "fake"
            generations = 3

            [[run]]
            experiment = "fake"
            generations = 4
            ties = [{ table = "u", row = "r", column = "c" }]

            [[run]]
            experiment = "fake"
            generations = 5
            table = "v"
            row = "r"
            column = "c"
            """))
        proc = self.box.run("bench", "--sweep", sweep, "--out", "out", "--dry-run")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[:4], [
            "[1/4] fake B3/S23:T16,16 g2 → t / r / a; t / r / b",
            "[2/4] fake B3/S23:T16,16 g3",
            "[3/4] fake B3/S23:T16,16 g4 → u / r / c",
            "[4/4] fake B3/S23:T16,16 g5 → v / r / c"])

    def test_bad_defaults(self):
        for key in ("row", "column", "ties", "experiment", "shapes"):
            with self.subTest(key=key):
                self.refused('[defaults]\n%s = "x"\n' % key + GOOD_RUN, "sweep.toml:2:",
                             "unknown key '%s' in [defaults]" % key, "time_limit_s, params, table")
        self.refused('defaults = 3\n' + GOOD_RUN, "sweep.toml:1:", "'defaults' must be a table")
        self.refused('[[defaults]]\n' + GOOD_RUN, "'defaults' must be a table")
        # A default is checked in each run that takes it, at the default's line.
        self.refused('[defaults]\ngenerations = "two"\n' + GOOD_RUN.replace("generations = 2", ""),
                     "sweep.toml:2: run #1", "generations must be an integer")
        self.refused('[defaults]\nparams = { colour = "red" }\n' + GOOD_RUN,
                     "sweep.toml:2: run #1", "unknown parameter 'colour'")
        self.refused('[defaults]\nparams = 3\n' + GOOD_RUN, "sweep.toml:2: run #1",
                     "params must be a table")
        self.refused('[defaults]\ntable = "t"\n' + GOOD_RUN + 'row = "r"\n',
                     "table, row and column go together")

    def test_experiment_that_cannot_describe_itself(self):
        self.box.add_fake("broken", describe="crash")
        self.refused(GOOD_RUN.replace('"fake"', '"broken"'), "'broken' cannot be used",
                     "killed by signal 11")


if __name__ == "__main__":
    lbtest.main()
