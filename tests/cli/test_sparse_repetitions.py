"""Kernels that skip dead cells (hex-cuda-skipdead, hex-cuda-activelist) go faster as a soup
dies down: bench starts each of their timed repetitions from the soup again, so the final
state it checks is that of one repetition's generations. Skipped where they are not built or
no CUDA device is there."""
import shutil

import lbtest

NAMES = ["hex-cuda-skipdead", "hex-cuda-activelist"]
SWEEP = """[[run]]
experiment = "%s"
rule = "B2/S34H"
boundary = "torus"
shape = "256x256"
density = 0.01
generations = 8
repetitions = 3
max_repetitions = 3
"""


class SparseRepetitions(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        if not lbtest.optimised_build():
            self.skipTest("experiments refuse to bench in a %s build" % (lbtest.BUILD_TYPE or "?"))
        for name in NAMES:
            binary = lbtest.real_experiment(name)
            if binary is None:
                self.skipTest("%s is not built" % name)
            shutil.copy2(binary, self.box.experiments)

    def test_each_repetition_starts_from_the_soup(self):
        sweep = self.box.write("sparse.toml", "\n".join(SWEEP % name for name in NAMES))
        proc = self.box.run("bench", "--sweep", sweep, "--out", "out")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        for name in NAMES:
            (result,) = self.box.results("out", name)["configurations"]
            if result["status"] == "unavailable":
                self.skipTest("%s: %s" % (name, result.get("reason")))
            self.assertEqual(result["status"], "ok", result.get("reason"))
            self.assertEqual(len(result["timing"]["seconds"]), 3)
            # 8, not the 32 of a warm-up and three repetitions in a row.
            self.assertEqual(result["verification"]["final_state"]["generations"], 8)


if __name__ == "__main__":
    lbtest.main()
