"""A run's `density` reaches the experiment's bench as --density, joins the
configuration id only when given, and is recorded in the results; a bad one is
one error line naming the file and line."""
import os
import subprocess
import textwrap

import lbtest

RUN = lbtest.SHORT_RUN


class DensityFake(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("fake")

    def bench(self, text, *args):
        sweep = self.box.write("sweep.toml", textwrap.dedent(text))
        return self.box.run("bench", "--sweep", sweep, "--out", "out", *args)

    def test_density_list_sweeps_and_joins_the_id(self):
        text = (RUN.format(experiment="fake", shape="8x8") + "density = [0.01, 1]\n"
                + RUN.format(experiment="fake", shape="8x8"))
        proc = self.bench(text, "--dry-run")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("[1/3] fake B3/S23:T8,8 g2 density=0.01\n", proc.stdout)
        self.assertIn("[2/3] fake B3/S23:T8,8 g2 density=1\n", proc.stdout)
        self.assertIn("[3/3] fake B3/S23:T8,8 g2\n", proc.stdout)

        proc = self.bench(text)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual([c["density"] for c in self.box.bench_calls("fake")],
                         ["0.01", "1", None])
        ids = [c["config_id"] for c in self.box.results("out", "fake")["configurations"]]
        self.assertEqual(ids, ["fake|B3/S23:T8,8|g2||density=0.01",
                               "fake|B3/S23:T8,8|g2||density=1",
                               "fake|B3/S23:T8,8|g2|"])  # unchanged without a density

    def test_bad_density_is_one_error_line(self):
        for value, fault in [("0", "not 0"), ("1.5", "not 1.5"), ('"x"', "not a string"),
                             ("[]", "must not be an empty list"),
                             ("[0.1, 0.1]", "density 0.1 given twice")]:
            with self.subTest(value=value):
                text = RUN.format(experiment="fake", shape="8x8") + f"density = {value}\n"
                proc = self.bench(text)
                self.assertOneErrorLine(proc, "sweep.toml:8: run #1", "density", fault)
                self.assertFalse(os.path.exists(self.box.path("out")))
                self.assertEqual(self.box.bench_calls("fake"), [])


class DensityReal(lbtest.CliTestCase):
    """cpu-trivial and hex-cpu-serial verify and time on the sparse soup asked for."""

    def setUp(self):
        super().setUp()
        binaries = [lbtest.real_experiment(n) for n in ("cpu-trivial", "hex-cpu-serial")]
        if None in binaries:
            self.skipTest("cpu-trivial or hex-cpu-serial is not built")
        if not lbtest.optimised_build():
            self.skipTest("bench needs an optimised build")
        self.folder = os.path.dirname(binaries[0])

    def test_density_recorded(self):
        text = (RUN.format(experiment="cpu-trivial", shape="64x64") + "density = 0.01\n"
                + RUN.format(experiment="hex-cpu-serial", shape="64x64") + "density = 0.01\n"
                + RUN.format(experiment="hex-cpu-serial", shape="64x64"))
        sweep = self.box.write("sweep.toml", text)
        proc = self.box.run("bench", "--experiments", self.folder, "--sweep", sweep,
                            "--out", "out")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        trivial = self.box.results("out", "cpu-trivial")["configurations"]
        hexes = self.box.results("out", "hex-cpu-serial")["configurations"]
        for result in trivial + hexes[:1]:
            self.assertEqual(result["status"], "ok", result.get("reason"))
            self.assertEqual(result["density"], 0.01)
            self.assertEqual(result["verification"]["soup"].split(",")[1], "0.01")
        self.assertEqual(hexes[1]["status"], "ok", hexes[1].get("reason"))
        self.assertNotIn("density=", hexes[1]["config_id"])
        self.assertNotEqual(hexes[1]["density"], 0.01)  # the family's own soup density

    def test_experiment_refuses_a_bad_density(self):
        binary = lbtest.real_experiment("cpu-trivial")
        for value in ("0", "1.5", "x"):
            with self.subTest(value=value):
                proc = subprocess.run([binary, "bench", "--problem", "B3/S23:T8,8",
                                       "--generations", "1", "--density", value,
                                       "--json-out", self.box.path("r.json")],
                                      capture_output=True, text=True, timeout=60)
                self.assertOneErrorLine(proc, "--density", "(0, 1]", value, code=2)



class DensitySweep(lbtest.CliTestCase):
    """The named sweep density gives each square kernel built here the densities 0.5, 0.1
    and 0.01 (QuickLife the first two) on one problem."""

    def test_every_square_kernel_on_three_densities(self):
        folder = lbtest.experiment_folder(self, "cpu-trivial")
        proc = self.box.run("bench", "--experiments", folder, "--sweep", "density",
                            "--dry-run", "--out", "out")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        densities = {}
        for line in proc.stdout.splitlines():
            if line.startswith("["):
                # "[i/n] experiment problem gG [param=value ...] density=D[ … unavailable: why]"
                words = line.split(" ")
                density = next(w for w in words if w.startswith("density="))
                densities.setdefault((words[1], words[2]), []).append(density)
        self.assertIn(("cpu-trivial", "B3/S23:T2048,2048"), densities)
        for key, given in densities.items():
            self.assertEqual(given, ["density=0.5", "density=0.1", "density=0.01"], key)


if __name__ == "__main__":
    lbtest.main()
