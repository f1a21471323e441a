"""External experiments (harness/external) on fake programs (fake_program.py): a bad
description or a missing program makes the experiment unavailable, a program that fails
fails its configuration, each with one line naming the description and the problem, and
the sweep goes on; a program that answers right is verified, then timed by the time it
prints or by its process."""
import json
import os
import shutil
import sys
from unittest import mock

import lbtest

ADAPTER = os.path.join(lbtest.TEST_EXPERIMENTS_DIR, "lifebench-external-adapter")
SWEEP = """[[run]]
sweeps = ["test"]
shape = "64x64"
generations = 4
repetitions = 2
max_repetitions = 2
"""
PRINTED = """timer = "printed"
pattern = '^took ([0-9.]+) ms$'
unit = "ms"
"""


def description(program, mode, timing=PRINTED, limit=60, simulator="-", extra="",
                files="rle", family="square"):
    return """family = "%s"
backend = "cpu"
source = "a fake program"
technique = "misbehaves on purpose"
%s
[program]
name = "%s"
time_limit_s = %d

[run]
command = ["{program}", "%s", "{input}", "{output}", "{generations}", "%s"]
input = "%s"
output = "%s"

[timing]
%s""" % (family, extra, program, limit, mode, simulator, files, files, timing)


class External(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        if not os.access(ADAPTER, os.X_OK):
            self.skipTest("the external adapter (tests/experiments) is not built")
        self.program = os.path.join(self.box.root, "fake_program")
        with open(os.path.join(lbtest.HERE, "fake_program.py")) as f:
            source = f.read()
        with open(self.program, "w") as f:
            f.write("#!" + sys.executable + "\n" + source)
        os.chmod(self.program, 0o755)
        self.simulator = lbtest.real_experiment("cpu-trivial")
        self.descriptions = {}

    def add(self, name, text):
        """The external experiment `name`: the adapter linked under its name, its
        description and sweep beside it."""
        path = os.path.join(self.box.experiments, "lifebench-exp-" + name)
        try:
            os.link(ADAPTER, path)
        except OSError:
            shutil.copy2(ADAPTER, path)
        self.descriptions[name] = os.path.join(self.box.experiments, name + ".external.toml")
        with open(self.descriptions[name], "w") as f:
            f.write(text)
        with open(os.path.join(self.box.experiments, name + ".sweep.toml"), "w") as f:
            f.write(SWEEP)

    def add_simulating(self, name, mode="simulate", timing=PRINTED, files="rle"):
        if not self.simulator:
            self.skipTest("cpu-trivial, which the fake program runs, is not built")
        self.add(name, description(self.program, mode, timing, simulator=self.simulator,
                                   files=files))

    def bench(self, env=None):
        if not lbtest.optimised_build():
            self.skipTest("experiments refuse to bench in a %s build" % (lbtest.BUILD_TYPE or "?"))
        proc = self.box.run("bench", "--sweep", "test", "--out", "out", env=env)
        results = {}
        for name in self.descriptions:
            (result,) = self.box.results("out", name)["configurations"]
            results[name] = result
        return proc, results

    def progress_line(self, proc, name):
        (line,) = [l for l in proc.stdout.splitlines() if " %s B" % name in l]
        return line

    def test_bad_descriptions_and_a_missing_program_are_unavailable(self):
        good = description(self.program, "nowrite")
        self.add("external-unknown-key", good.replace('technique', 'colour = "red"\ntechnique'))
        self.add("external-bad-placeholder", good.replace("{output}", "{outptu}"))
        self.add("external-no-output", good.replace('"{output}", ', ""))
        self.add("external-no-group", good.replace("([0-9.]+)", "[0-9.]+"))
        self.add("external-missing", description("lifebench-no-such-program", "nowrite"))
        self.add("external-hex-universe", description(self.program, "nowrite", files="lbu",
                                                      family="hex"))
        self.add("external-mc-input", description(self.program, "nowrite", files="mc"))
        place = '\n[place]\ncommand = %s\nstep = "step 1"\nthen = "edges"\npattern = \'%s\'\n'
        self.add("external-place-no-script",
                 good + place % ('["{program}", "{input}"]', "^at (-?[0-9]+) (-?[0-9]+)$"))
        self.add("external-place-one-group",
                 good + place % ('["{program}", "{script}", "{input}"]', "^at (-?[0-9]+)$"))
        self.add("external-script-in-run", good.replace('"{output}"', '"{output}", "{script}"'))
        self.add("external-place-output",
                 good + place % ('["{program}", "{script}", "{input}", "{output}"]',
                                 "^at (-?[0-9]+) (-?[0-9]+)$"))
        expected = {
            "external-unknown-key": ":4: unknown key 'colour' (keys: ",
            "external-bad-placeholder": ":11: run.command: unknown placeholder {outptu} "
                                        "(placeholders: {program}, {input}, {output}, ",
            "external-no-output": ":11: run.command has no {output}",
            "external-no-group": ":17: timing.pattern '^took [0-9.]+ ms$' has no group",
            "external-missing": "lifebench-no-such-program is not on PATH",
            "external-hex-universe": ":12: run.input must be rle for the hex family",
            "external-mc-input": ":12: run.input cannot be mc: lifebench reads macrocell files "
                                 "but writes none",
            "external-place-no-script": "place.command has no {script}",
            "external-place-one-group": "place.pattern '^at (-?[0-9]+)$' has one group ( ) where "
                                        "it needs two around the numbers",
            "external-script-in-run": "run.command cannot hold {script}: only place.command runs "
                                      "a script",
            "external-place-output": "place.command cannot hold {output}: the place run writes "
                                     "no state",
        }
        proc = self.box.run("list")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for name, fragment in expected.items():
            (line,) = [l for l in proc.stdout.splitlines() if l.startswith(name + " ")]
            self.assertIn("unavailable: ", line)
            self.assertIn(fragment, line)
            if name != "external-missing":
                self.assertIn(self.descriptions[name] + ":", line)

        if not lbtest.optimised_build():
            return
        proc, results = self.bench()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        for name, fragment in expected.items():
            self.assertIn("unavailable: ", self.progress_line(proc, name))
            self.assertEqual(results[name]["status"], "unavailable")
            self.assertIn(fragment, results[name]["reason"])
            self.assertEqual(results[name]["external"]["description"], self.descriptions[name])

    def test_failing_programs_fail_their_configuration_and_the_sweep_goes_on(self):
        for mode in ("exit3", "nowrite", "garbage", "wrongsize", "copy"):
            self.add("external-" + mode, description(self.program, mode))
        self.add("external-hang", description(self.program, "hang", limit=2))
        self.add_simulating("external-silent", "silent")
        self.add_simulating("external-good")
        pids = os.path.join(self.box.root, "pids")
        proc, results = self.bench(env={"FAKE_PIDS": pids})
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)

        run = " (2 generations of B3/S23:T64,64): "  # the verification's first advance
        expected = {
            "external-exit3": run + "exited with code 3: fake_program: out of cheese",
            "external-nowrite": run + "wrote no output.rle",
            "external-garbage": run + "wrote a malformed state: output.rle:2:1: ",
            "external-wrongsize": run + "wrote output.rle for B3/S23:T65,64, not B3/S23:T64,64",
            "external-hang": run + "ran past its time limit of 2 s (program.time_limit_s)",
            "external-silent": " (4 generations of B3/S23:T64,64): printed no line on its "
                               "standard output that timing.pattern '^took ([0-9.]+) ms$' matches",
        }
        for name, fragment in expected.items():
            result = results[name]
            self.assertEqual(result["status"], "failed", name)
            self.assertIn(self.descriptions[name] + ": " + self.program + fragment,
                          result["reason"])
            self.assertIn("FAILED: " + result["reason"], self.progress_line(proc, name))
        self.assertEqual(results["external-silent"]["verification"]["status"], "passed")

        wrong = results["external-copy"]
        self.assertEqual(wrong["status"], "failed")
        self.assertEqual(wrong["verification"]["status"], "failed")
        self.assertRegex(wrong["verification"]["first_difference"],
                         r"^after 5 generations: cell \(\d+, \d+\): expected \d, got \d$")

        # The hung program and its child were stopped with it.
        with open(pids) as f:
            for pid in f.read().split():
                self.assertTrue(lbtest.wait_until_gone(int(pid)), pid)

        good = results["external-good"]
        self.assertEqual(good["status"], "ok", good.get("reason"))
        self.assertEqual(good["verification"]["status"], "passed")
        self.assertEqual(good["timing"]["clock"], "program_printed")
        self.assertEqual(good["timing"]["seconds"], [0.25, 0.25])
        self.assertEqual(good["external"], {"description": self.descriptions["external-good"],
                                            "program": self.program, "version": ""})
        manifest = self.box.manifest("out")
        self.assertEqual(manifest["experiments"]["external-good"]["external"], good["external"])
        self.assertEqual(manifest["configurations"]["failed"], 7)

    def test_universe_files_carry_the_states(self):
        self.add_simulating("external-universe", files="lbu")
        proc, results = self.bench()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        result = results["external-universe"]
        self.assertEqual(result["status"], "ok", result.get("reason"))
        self.assertEqual(result["verification"]["status"], "passed")
        self.assertEqual(result["timing"]["seconds"], [0.25, 0.25])

    def test_a_process_timer_times_the_whole_run(self):
        self.add_simulating("external-good", timing='timer = "process"\n')
        proc, results = self.bench()
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        timing = results["external-good"]["timing"]
        self.assertEqual(timing["clock"], "process_wall")
        self.assertEqual(len(timing["seconds"]), 2)
        self.assertTrue(all(s > 0 and s != 0.25 for s in timing["seconds"]), timing)

    def test_run_fails_with_one_line_and_writes_nothing(self):
        self.add("external-exit3", description(self.program, "exit3"))
        proc = self.box.run("run", "--impl", "external-exit3", "--soup", "64x64,0.5,1",
                            "--generations", "3", "--output", "out.rle")
        self.assertOneErrorLine(proc, self.descriptions["external-exit3"], self.program,
                                "(3 generations of B3/S23:T64,64): exited with code 3")
        self.assertFalse(os.path.exists(self.box.path("out.rle")))

    def test_an_interrupted_sweep_leaves_no_program_running(self):
        self.add("external-hang", description(self.program, "hang"))
        if not lbtest.optimised_build():
            self.skipTest("experiments refuse to bench in a %s build" % (lbtest.BUILD_TYPE or "?"))
        pids = os.path.join(self.box.root, "pids")
        scratch = os.path.join(self.box.root, "tmp")  # where the adapter's files go
        os.makedirs(scratch)
        with mock.patch.dict(os.environ, {"FAKE_PIDS": pids, "TMPDIR": scratch}):
            proc = self.box.interrupt("bench", "--sweep", "test", "--out", "out", when=pids)
        self.assertEqual(proc.returncode, 130, proc.stdout + proc.stderr)
        with open(pids) as f:
            listed = f.read().split()
        self.assertEqual(len(listed), 2, listed)
        for pid in listed:
            self.assertTrue(lbtest.wait_until_gone(int(pid)), pid)
        self.assertEqual([f for f in os.listdir(scratch) if f.startswith("lifebench-external")],
                         [])


if __name__ == "__main__":
    lbtest.main()
