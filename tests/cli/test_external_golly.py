"""The external experiments that run Golly (experiments/external-golly-*): listed as
available where bgolly is installed and unavailable with the reason where it is not,
verified against the reference and timed by bgolly's own timestamps. Skipped where bgolly
is not installed or the experiments are not built."""
import os
import re
import shutil
import tomllib
import unittest

import lbtest

NAMES = ["external-golly-quicklife", "external-golly-hashlife"]
SOURCE = os.path.join(lbtest.HERE, "..", "..", "experiments")
SWEEP = """[[run]]
experiment = "%s"
shape = "128x128"
generations = 16
repetitions = 2
max_repetitions = 2
"""


class TimingLines(unittest.TestCase):
    """The descriptions' timing pattern takes every line bgolly prints, those of generation
    1,000 on too (thousands separators): the timed span is the whole run, not its first 1000
    generations."""

    def test_every_generation_line_matches(self):
        for name in NAMES:
            with open(os.path.join(SOURCE, name, "external.toml"),
                      "rb") as file:
                pattern = re.compile(tomllib.load(file)["timing"]["pattern"])
            for line, seconds in [("0.0015161 0", "0.0015161"), ("0.0284491 995", "0.0284491"),
                                  ("0.0285561 1,000", "0.0285561"),
                                  ("0.374329 8,192", "0.374329"),
                                  ("12.5 1,048,576", "12.5")]:
                with self.subTest(experiment=name, line=line):
                    match = pattern.search(line)
                    self.assertIsNotNone(match)
                    self.assertEqual(match.group(1), seconds)


class Golly(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.bgolly = shutil.which("bgolly")
        if not self.bgolly:
            self.skipTest("bgolly is not installed (Debian's golly package: tools/setup.sh)")
        built = os.path.dirname(lbtest.real_experiment(NAMES[0]) or "")
        if not all(lbtest.real_experiment(name) for name in NAMES):
            self.skipTest("the external-golly experiments are not built")
        for name in NAMES:
            for file in ("lifebench-exp-" + name, name + ".external.toml"):
                try:
                    os.link(os.path.join(built, file), os.path.join(self.box.experiments, file))
                except OSError:
                    shutil.copy2(os.path.join(built, file), self.box.experiments)

    def listed(self, env=None):
        proc = self.box.run("list", env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return {line.split()[0]: line for line in proc.stdout.splitlines()[1:]}

    def test_listed_with_its_program_or_the_reason_it_is_missing(self):
        bgolly = os.path.realpath(self.bgolly)
        for name, line in self.listed(env={"LIFEBENCH_BGOLLY": bgolly}).items():
            self.assertIn("available: external program %s 3.3" % bgolly, line)
        missing = self.listed(env={"LIFEBENCH_BGOLLY": "/nonexistent/bgolly"})
        for name in NAMES:
            self.assertIn("unavailable: LIFEBENCH_BGOLLY names /nonexistent/bgolly, which is not "
                          "an executable file", missing[name])
        nowhere = self.listed(env={"PATH": "/nonexistent", "LIFEBENCH_BGOLLY": ""})
        for name in NAMES:
            self.assertIn("unavailable: bgolly is not on PATH and LIFEBENCH_BGOLLY is not set "
                          "(Debian's golly package", nowhere[name])

    def test_verify(self):
        proc = self.box.run("verify", "--impl", "external-golly-*")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("verify: 2 passed, 0 failed, 0 unavailable", proc.stdout)
        for name in NAMES:
            self.assertIn("%s: 16 passed, 0 failed, 32 skipped" % name, proc.stdout)
        # Torus only, 64 x 64 and more: what the descriptions check Golly's bounded grids on.
        self.assertIn("skip B3/S23:P64,64: it runs no dead boundary", proc.stdout)
        self.assertIn("skip B3/S23:T96,40: height 40 is under 64", proc.stdout)

    def test_cells_that_do_not_span_the_grid_are_placed(self):
        # QuickLife's RLE of a bounded grid gives the box of the live cells without its place
        # (a 3x3 glider in a 64x64 torus was refused): a second bgolly run prints it
        # (external.toml's [place]).
        glider = self.box.write("glider.rle", "x = 3, y = 3, rule = B3/S23:T64,64\nbo$2bo$3o!\n")
        for name in NAMES:
            out = self.box.path(name + ".rle")
            proc = self.box.run("run", "--impl", name, "--input", glider, "--generations", "40",
                                "--output", out)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(out) as f:  # 10 cells down and right, the glider's phase after 40
                self.assertEqual(lbtest.rle_body(f.read()), "41$42bo$43bo$41b3o!")

    def test_bench(self):
        if not lbtest.optimised_build():
            self.skipTest("experiments refuse to bench in a %s build" % (lbtest.BUILD_TYPE or "?"))
        sweep = self.box.write("golly.toml", "\n".join(SWEEP % name for name in NAMES))
        proc = self.box.run("bench", "--sweep", sweep, "--out", "out")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        for name in NAMES:
            (result,) = self.box.results("out", name)["configurations"]
            self.assertEqual(result["status"], "ok", result.get("reason"))
            self.assertEqual(result["verification"]["status"], "passed")
            self.assertEqual(result["verification"]["problem"], "B3/S23:T128,128")
            self.assertEqual(result["timing"]["clock"], "program_printed")
            self.assertEqual(len(result["timing"]["seconds"]), 2)
            # Each repetition from the soup again: the final state after one repetition's 16.
            self.assertEqual(result["verification"]["final_state"]["generations"], 16)
            self.assertGreater(result["throughput"]["cell_updates_per_second"], 0)
            self.assertEqual(result["external"]["program"], self.bgolly)
            self.assertEqual(result["external"]["version"], "3.3")


if __name__ == "__main__":
    lbtest.main()
