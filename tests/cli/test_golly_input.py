"""Golly-compatible input through `lifebench run`: patterns of Golly's collection (Debian's
golly package) of each kind lifebench reads, run unchanged for a few dozen generations and
compared with bgolly's cells and their place on Golly's plane (golly_oracle.py), and the
refusals of bad input, each one error line with nothing written. The whole collection is
checked by golly_collection.py (by hand: it takes long)."""
import gzip
import os
import shutil

import golly_oracle
import lbtest

GENERATIONS = 40

# A few of each kind: RLE with no bounded grid (with and without a rule), Life 1.05, gzipped
# RLE (one gzipped, one plain text named .gz, which Golly reads as it stands), macrocell, a
# Life-like rule by B/S and a bounded grid.
COLLECTION = [
    "Life/Methuselahs/rabbits-relation-17423.rle",
    "Life/Guns/period-52-glider-gun.rle",
    "Life/Puffers/puffer-train.rle",
    "Life/Methuselahs/acorn.lif",
    "Life/Breeders/breeder.lif",
    "Life-Like/persian-rugs.lif",
    "Life/Signal-Circuitry/signal-turns-and-fizzles.rle.gz",
    "Life/Rakes/weekender-distaff.rle.gz",
    "HashLife/puzzle.mc",
    "HashLife/totalperiodic.mc",
    "Life-Like/replicator.rle",
    "Life-Like/Morley/breeder2.rle",
    "Life/Bounded-Grids/agar-p3.rle",
]

ACORN_106 = "#Life 1.06\n-2 -1\n0 0\n-3 1\n-2 1\n1 1\n2 1\n3 1\n"


class Cpu(lbtest.CliTestCase):
    """With cpu-trivial, which runs every rule lifebench knows."""

    def setUp(self):
        super().setUp()
        self.folder = lbtest.experiment_folder(self, "cpu-trivial")

    def run_input(self, source, *args, generations=GENERATIONS, output="out.rle"):
        return self.box.run("run", "--impl", "cpu-trivial", "--experiments", self.folder,
                            "--input", source, "--generations", str(generations), *args,
                            "--output", self.box.path(output))

    def assertNothingWritten(self):
        self.assertEqual(sorted(f for f in os.listdir(self.box.work) if f.startswith("out") or
                                f.startswith(".")), [])


class AgainstGolly(Cpu):
    def setUp(self):
        super().setUp()
        self.bgolly = shutil.which("bgolly")
        if not self.bgolly:
            self.skipTest("bgolly is not installed (Debian's golly package: tools/setup.sh)")
        if not os.path.isdir(golly_oracle.COLLECTION):
            self.skipTest("Golly's collection is not in %s" % golly_oracle.COLLECTION)
        self.scratch = os.path.join(self.box.root, "oracle")
        os.makedirs(self.scratch)

    def assertMatches(self, pattern):
        outcome = golly_oracle.check(pattern, GENERATIONS, self.box.lifebench, self.folder,
                                     self.scratch, bgolly=self.bgolly)
        self.assertEqual(outcome.status, "matched", "%s: %s" % (pattern, outcome.why))
        return outcome

    def test_collection_runs_unchanged(self):
        for name in COLLECTION:
            with self.subTest(pattern=name):
                outcome = self.assertMatches(os.path.join(golly_oracle.COLLECTION, name))
                # Only the bounded grid is compared without its place on the plane.
                self.assertEqual(outcome.why, "bounded grid B3/S23:T72,48"
                                 if "Bounded-Grids" in name else "")

    def test_rule_named_life_and_life_106(self):
        # Golly reads "rule = Life" with its rule table Rules/Life.rule (bgolly: RuleLoader).
        with open(os.path.join(golly_oracle.COLLECTION, "Life/Guns/period-52-glider-gun.rle")) as f:
            text = f.read().replace("rule = B3/S23", "rule = Life")
        self.assertMatches(self.box.write("gun-life.rle", text))
        self.assertMatches(self.box.write("acorn.life", ACORN_106))

    def test_gzipped_text_is_the_same_pattern(self):
        source = os.path.join(golly_oracle.COLLECTION, "Life/Methuselahs/ark1.rle")
        packed = self.box.path("ark1.rle.gz")
        with open(source, "rb") as f, gzip.open(packed, "wb") as out:
            out.write(f.read())
        self.assertMatches(packed)


class BadInput(Cpu):
    def assertRefused(self, proc, *fragments):
        self.assertOneErrorLine(proc, *fragments)
        self.assertNothingWritten()

    def test_not_gzip(self):
        path = self.box.write("noise.rle.gz", "\x00\x01 this is neither gzip nor RLE\n")
        self.assertRefused(self.run_input(path), "noise.rle.gz: not gzip data (no 1f 8b at its "
                           "start), nor a pattern as it stands: ")
        packed = self.box.path("cut.rle.gz")
        with open(packed, "wb") as f:
            f.write(gzip.compress(b"x = 3, y = 1\n3o!\n" * 100)[:30])
        self.assertRefused(self.run_input(packed), "cut.rle.gz: the gzip data ends early")

    def test_broken_macrocell_tree(self):
        path = self.box.write("broken.mc", "[M2] (golly 3.3)\n#R B3/S23\n**$**$\n5 1 0 0 0\n")
        self.assertRefused(self.run_input(path), "broken.mc:4:3: node 1 is of level 3, not 4 "
                           "as a quarter of this one")
        path = self.box.write("forward.mc", "[M2]\n4 0 0 0 2\n**$\n")
        self.assertRefused(self.run_input(path), "forward.mc:2:9: node \"2\" is not defined above")

    def test_unknown_and_multi_state_rules(self):
        path = self.box.write("named.rle", "x = 1, y = 1, rule = HighLive\no!\n")
        self.assertRefused(self.run_input(path), "named.rle:1:22: rule \"HighLive\": unknown "
                           "rule name; lifebench runs B/S rules")
        glider = self.box.write("glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n")
        self.assertRefused(self.run_input(glider, "--rule", "Bogus"), "rule \"Bogus\": unknown")
        for rule in ("LifeHistory", "B2/S/C3", "/2/3"):
            path = self.box.write("multi.rle", "x = 1, y = 1, rule = %s\no!\n" % rule)
            self.assertRefused(self.run_input(path), "multi-state rules are not supported")

    def test_planes_larger_than_memory(self):
        glider = self.box.write("glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n")
        self.assertRefused(self.run_input(glider, generations=500000),
                           "glider.rle: the 3x3 pattern with a margin of 500000 generations on "
                           "every side needs a 1000003x1000003 plane, 1000006000009 cells; a "
                           "run holds about three copies at a byte a cell: 2861040 MiB, more "
                           "than this machine's")
        self.assertRefused(self.run_input(glider, generations=600000),
                           "needs a 1200003x1200003 plane: more than 2^40 cells")

    def test_b0_on_the_plane_and_outputs_without_a_place(self):
        path = self.box.write("b0.rle", "x = 1, y = 1, rule = B013568/S01\no!\n")
        self.assertRefused(self.run_input(path), "has births on 0 live neighbours, which fill "
                           "Golly's unbounded plane")
        glider = self.box.write("glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n")
        self.assertRefused(self.run_input(glider, output="out.lbu"),
                           "a pattern of Golly's unbounded plane is written as RLE (.rle)")
        self.assertRefused(self.run_input(glider, output="out.mc"),
                           "lifebench writes .rle (2D), .lbu (2D universe file) and .dat/.bin")


    def test_an_experiment_that_runs_no_plane(self):
        folder = lbtest.experiment_folder(self, "hex-cpu-serial")
        glider = self.box.write("glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n")
        proc = self.box.run("run", "--impl", "hex-cpu-serial", "--experiments", folder, "--input",
                            glider, "--generations", "20", "--output", self.box.path("out.rle"))
        self.assertRefused(proc, "hex-cpu-serial runs B3/S23 on no plane of 43x43 cells or more "
                           "(dead or torus, the sides rounded up to multiples of 1, 2, 4, ... "
                           "1024): hex-cpu-serial simulates the hex family, not square rules")


class Conveniences(Cpu):
    def test_a_differing_rule_warns_in_one_line(self):
        path = self.box.write("torus.rle", "x = 3, y = 3, rule = B3/S23:T16,16\nbo$2bo$3o!\n")
        proc = self.run_input(path, "--rule", "HighLife:T16,16")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        warnings = [l for l in proc.stderr.splitlines() if l.startswith("lifebench: warning: ")]
        self.assertEqual(warnings, ["lifebench: warning: %s: the rule given, B36/S23:T16,16, "
                                    "replaces the file's B3/S23:T16,16" % path])
        # The same rule with a bounded grid for a pattern of the plane: no warning.
        proc = self.run_input(self.box.write("plane.rle", "x = 3, y = 1\n3o!\n"), "--rule",
                              "Life:T8,8")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("warning", proc.stderr)

    def test_the_plane_is_rounded_up_where_the_experiment_needs_it(self):
        lbtest.experiment_folder(self, "cpu-bitadder")
        glider = self.box.write("glider.rle", "#CXRLE Pos=-1,-1\nx = 3, y = 3\nbo$2bo$3o!\n")
        proc = self.box.run("run", "--impl", "cpu-bitadder", "--experiments", self.folder,
                            "--input", glider, "--generations", "8", "--output",
                            self.box.path("out.rle"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # Width a multiple of 64 (64-bit words), height of the rows updated together.
        self.assertIn("of B3/S23:P64,64 ", proc.stderr)
        with open(self.box.path("out.rle")) as f:
            self.assertEqual(f.read(), "#CXRLE Pos=1,1 Gen=8\nx = 3, y = 3, rule = B3/S23\n"
                                       "bo$2bo$3o!\n")


if __name__ == "__main__":
    lbtest.main()
