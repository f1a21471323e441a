"""lifebench run: the experiment's own `run`, through the driver; bad input gives
one error line and no output file."""
import os
import resource
import shutil
import signal
import subprocess

import lbtest


class RunFake(lbtest.CliTestCase):
    def test_arguments_pass_through_verbatim(self):
        self.box.add_fake("fake")
        proc = self.box.run("run", "--param", "threads=2", "--impl", "fake", "--soup",
                            "16x16,0.5,1", "--generations", "3", "--output", "x.rle")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.strip(),
                         "fake run --param threads=2 --soup 16x16,0.5,1 --generations 3 "
                         "--output x.rle")

    def test_exit_status_passes_through(self):
        self.box.add_fake("fake", run_exit=3)
        self.assertEqual(self.box.run("run", "--impl", "fake").returncode, 3)

    def test_unavailable(self):
        self.box.add_fake("gpu", available=False, reason="no CUDA device: none found")
        self.assertOneErrorLine(self.box.run("run", "--impl", "gpu", "--generations", "1"),
                                "gpu is unavailable: no CUDA device: none found", code=77)

    def test_unknown_impl(self):
        self.box.add_fake("fake")
        self.assertOneErrorLine(self.box.run("run", "--impl", "fak"),
                                "unknown experiment 'fak' (known: fake)")


class RunReal(lbtest.CliTestCase):
    """With cpu-trivial, the first experiment; checks the harness and core as the user sees them."""

    def setUp(self):
        super().setUp()
        binary = lbtest.real_experiment("cpu-trivial")
        if binary is None:
            self.skipTest("cpu-trivial is not built")
        self.folder = os.path.dirname(binary)

    def run_trivial(self, *args):
        return self.box.run("run", "--impl", "cpu-trivial", "--experiments", self.folder, *args,
                            "--output", self.box.path("out.rle"))

    def assertNoOutput(self):
        self.assertFalse(os.path.exists(self.box.path("out.rle")))
        leftovers = [f for f in os.listdir(self.box.work) if f.startswith(".") or "tmp" in f]
        self.assertEqual(leftovers, [])

    def advance(self, source, generations):
        """The live cells (x, y) of the grid that `run` writes, and its header."""
        proc = self.run_trivial("--input", source, "--generations", str(generations))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(self.box.path("out.rle")) as f:
            text = f.read()
        header = next(l for l in text.splitlines() if l.startswith("x"))
        return lbtest.rle_cells(text), header

    def test_glider_on_the_torus_as_golly(self):
        # Golly centres the 3x3 glider on the 64x64 torus: its box's top-left at (31, 31).
        glider = os.path.join(lbtest.DATASETS_DIR, "glider.rle")
        home = {(32, 31), (33, 32), (31, 33), (32, 33), (33, 33)}
        cells, header = self.advance(glider, 0)
        self.assertEqual(cells, home)
        self.assertEqual(header, "x = 64, y = 64, rule = B3/S23:T64,64")
        cells, _ = self.advance(glider, 4)
        self.assertEqual(cells, {(x + 1, y + 1) for x, y in home})
        # 128 generations take it 32 cells, across both edges; 256 bring it home.
        cells, _ = self.advance(glider, 128)
        self.assertEqual(cells, {((x + 32) % 64, (y + 32) % 64) for x, y in home})
        cells, _ = self.advance(glider, 256)
        self.assertEqual(cells, home)

    def test_blinker_at_the_edge_of_a_plane_and_a_torus(self):
        # A row-0 blinker: on the plane the cell above its centre is outside, so it
        # turns into a vertical domino and dies; on the torus it oscillates across the edge.
        plane = self.box.write("plane.rle", "x = 8, y = 6, rule = B3/S23:P8,6\nb3o!\n")
        self.assertEqual(self.advance(plane, 1)[0], {(2, 0), (2, 1)})
        self.assertEqual(self.advance(plane, 2)[0], set())
        torus = self.box.write("torus.rle", "x = 8, y = 6, rule = B3/S23:T8,6\nb3o!\n")
        self.assertEqual(self.advance(torus, 1)[0], {(2, 5), (2, 0), (2, 1)})
        self.assertEqual(self.advance(torus, 2)[0], {(1, 0), (2, 0), (3, 0)})

    def test_malformed_rle_gives_line_and_column(self):
        bad = self.box.write("bad.rle", "x = 3, y = 3, rule = B3/S23:T16,16\nbo$2bo$3q!\n")
        line = self.assertOneErrorLine(self.run_trivial("--input", bad, "--generations", "1"),
                                       bad + ":2:9:")
        self.assertIn("'q'", line)
        self.assertNoOutput()

    def test_universe_files(self):
        # RLE -> universe file -> 4 generations -> RLE: the glider one cell down-right.
        glider = os.path.join(lbtest.DATASETS_DIR, "glider.rle")
        universe = self.box.path("glider.lbu")
        proc = self.box.run("run", "--impl", "cpu-trivial", "--experiments", self.folder,
                            "--input", glider, "--generations", "0", "--output", universe)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        home = {(32, 31), (33, 32), (31, 33), (32, 33), (33, 33)}
        self.assertEqual(self.advance(universe, 4)[0], {(x + 1, y + 1) for x, y in home})
        os.remove(self.box.path("out.rle"))

        with open(universe, "rb") as f:
            data = f.read()
        truncated = self.box.path("truncated.lbu")
        with open(truncated, "wb") as f:
            f.write(data[:-8])
        self.assertOneErrorLine(self.run_trivial("--input", truncated, "--generations", "1"),
                                truncated, "(truncated)")
        # A universe of 10^12 cells (a sparse file): refused before reading, not the OOM killer.
        huge = self.box.path("huge.lbu")
        header = b"lifebench-universe 1\nrule B3/S23:T1000000,1000000\ngeneration 0\n"
        with open(huge, "wb") as f:
            f.write(header.ljust(4095) + b"\n")
            f.truncate(4096 + 1000000 * 15625 * 8)
        self.assertOneErrorLine(self.run_trivial("--input", huge, "--generations", "1"),
                                "1000000x1000000", "a run holds about three copies")
        self.assertNoOutput()

    def test_unknown_rule(self):
        self.assertOneErrorLine(self.run_trivial("--soup", "16x16,0.5,1", "--rule",
                                                 "B3/S23Q:T16,16", "--generations", "1"),
                                "B3/S23Q")
        self.assertNoOutput()

    def test_unsupported_size(self):
        self.assertOneErrorLine(self.run_trivial("--soup", "2000000x2000000,0.5,1",
                                                 "--generations", "1"),
                                "2000000x2000000", "more than 2^40 cells")
        self.assertOneErrorLine(
            self.run_trivial("--input", os.path.join(lbtest.DATASETS_DIR, "glider.rle"),
                             "--rule", "B3/S23:T2,2", "--generations", "1"),
            "larger than the 2x2 grid")
        self.assertNoOutput()

    def test_grid_larger_than_memory(self):
        # 10^12 cells pass the 2^40 bound of a problem but not this machine's memory,
        # whether asked for as a soup or by an RLE's rule.
        self.assertOneErrorLine(self.run_trivial("--soup", "1000000x1000000,0.5,1",
                                                 "--generations", "1"),
                                "1000000x1000000", "a run holds about three copies")
        huge = self.box.write("huge.rle", "x = 1, y = 1, rule = B3/S23:T1000000,1000000\no!\n")
        self.assertOneErrorLine(self.run_trivial("--input", huge, "--generations", "1"),
                                "1000000x1000000", "a run holds about three copies")
        # A pattern that claims as many cells is refused as larger than its grid, first.
        wide = self.box.write("wide.rle", "x = 1000000, y = 1000000, rule = B3/S23:T64,64\no!\n")
        self.assertOneErrorLine(self.run_trivial("--input", wide, "--generations", "1"),
                                "the 1000000x1000000 pattern is larger than the 64x64 grid")
        self.assertNoOutput()

    def test_wrong_family(self):
        self.assertOneErrorLine(self.run_trivial("--soup", "16x16,0.5,1", "--rule",
                                                 "B2/S34H:T16,16", "--generations", "1"),
                                "cpu-trivial cannot run B2/S34H:T16,16")
        self.assertNoOutput()


class RunStreamed(lbtest.CliTestCase):
    """cpu-outofcore between universe files: streamed band by band, stopped and resumed."""

    SOUP = ("--soup", "256x96,0.4,5", "--rule", "B3/S23:T256,96")
    # Rows of 32 bytes: two band buffers of 16 + 2 x 4 rows.
    PARAMS = ("--param", "memory=1536", "--param", "halo_steps=4")

    def setUp(self):
        super().setUp()
        binary = lbtest.real_experiment("cpu-outofcore")
        if binary is None:
            self.skipTest("cpu-outofcore is not built")
        self.folder = os.path.dirname(binary)
        self.start = self.box.path("start.lbu")
        proc = self.lifebench_run(*self.SOUP, "--generations", "0", "--output", self.start)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def lifebench_run(self, *args, impl="cpu-outofcore"):
        return self.box.run("run", "--impl", impl, "--experiments", self.folder, *args)

    def advance(self, generations, output, *extra):
        return self.lifebench_run(*self.PARAMS, "--input", self.start, "--generations",
                                  str(generations), "--output", output, *extra)

    @staticmethod
    def contents(path):
        with open(path, "rb") as f:
            return f.read()

    def test_streamed_run_equals_the_in_memory_one(self):
        memory = self.box.path("memory.rle")
        proc = self.lifebench_run("--input", self.start, "--generations", "10", "--output",
                                  memory, impl="cpu-trivial")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        streamed = self.box.path("streamed.lbu")
        self.assertEqual(self.advance(10, streamed).returncode, 0)
        as_rle = self.box.path("streamed.rle")
        proc = self.lifebench_run("--input", streamed, "--generations", "0", "--output", as_rle)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.contents(memory), self.contents(as_rle))

    def test_the_folder_checked_is_the_outputs(self):
        # A streamed run writes its passes beside --output: the experiment's folder parameter,
        # which its in-memory runs use, is not where it needs room.
        streamed = self.box.path("streamed.lbu")
        proc = self.advance(10, streamed, "--param", "folder=" + self.box.path("no-such-folder"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.converted(streamed), self.converted_reference(10))

    def converted_reference(self, generations):
        memory = self.box.path("reference-%d.rle" % generations)
        proc = self.lifebench_run("--input", self.start, "--generations", str(generations),
                                  "--output", memory, impl="cpu-trivial")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return self.contents(memory)

    def converted(self, universe):
        """The universe file as RLE text, converted by a plain run."""
        as_rle = universe[:-len(".lbu")] + ".rle"
        proc = self.lifebench_run("--input", universe, "--generations", "0", "--output", as_rle)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return self.contents(as_rle)

    def test_a_soup_is_written_into_a_universe_file_a_row_at_a_time(self):
        # Alone, or advanced from beside the output: the soup the in-memory run makes, and
        # no temporary left behind.
        for generations in ("0", "10"):
            memory = self.box.path("memory-%s.rle" % generations)
            proc = self.lifebench_run(*self.SOUP, "--generations", generations, "--output",
                                      memory, impl="cpu-trivial")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            streamed = self.box.path("soup-%s.lbu" % generations)
            proc = self.lifebench_run(*self.PARAMS, *self.SOUP, "--generations", generations,
                                      "--output", streamed)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(self.converted(streamed), self.contents(memory), generations)
        self.assertEqual([f for f in os.listdir(self.box.work) if f.startswith(".")], [])

    def test_an_input_named_as_a_leftover_of_the_output_is_refused(self):
        # The run would remove it as a killed run's leftover before reading it.
        for name in (".out.lbu.tmp-mine.lbu", "..out.lbu.tmp-soup.tmp-mine.lbu"):
            shutil.copy(self.start, self.box.path(name))
            proc = self.lifebench_run(*self.PARAMS, "--input", self.box.path(name),
                                      "--generations", "4", "--output", self.box.path("out.lbu"))
            self.assertOneErrorLine(proc, "named as a killed run's leftover", "rename it")
            self.assertEqual(self.contents(self.box.path(name)), self.contents(self.start))
            self.assertFalse(os.path.exists(self.box.path("out.lbu")))

    def test_only_square_grid_soups_become_universe_files(self):
        # Refused before anything is made or simulated: one error line and no file.
        cases = [
            ("hex-cpu-serial", "64x64,0.4,1", "0", "square-grid states only"),
            ("hex-cpu-serial", "64x64,0.4,1", "3", "square-grid states only"),
            ("cpu3d-threads", "32x32x32,0.3,1", "0", "3D state cannot be written"),
            ("cpu-outofcore", "64x64x4,0.4,1", "0", "takes a WxH shape, not 64x64x4"),
            ("cpu-outofcore", "64x64x4,0.4,1", "3", "takes a WxH shape, not 64x64x4"),
        ]
        for impl, soup, generations, message in cases:
            proc = self.lifebench_run("--soup", soup, "--generations", generations, "--output",
                                      self.box.path("soup.lbu"), impl=impl)
            self.assertOneErrorLine(proc, message)
            self.assertEqual(os.listdir(self.box.work), ["start.lbu"], (impl, soup))

    def test_a_soup_larger_than_the_memory_allowed(self):
        # 16384 x 16384 cells: a 32 MiB universe file, but 256 MiB as a grid of a byte a
        # cell. Under a 192 MiB address-space limit only the row-by-row path can make it.
        def small_memory():
            resource.setrlimit(resource.RLIMIT_AS, (192 << 20, 192 << 20))

        def run(output, impl="cpu-outofcore", generations="0"):
            return subprocess.run(
                [self.box.lifebench, "run", "--impl", impl, "--experiments", self.folder,
                 "--soup", "16384x16384,0.5,1", "--generations", generations, "--output",
                 output], cwd=self.box.work, capture_output=True, text=True, timeout=300,
                preexec_fn=small_memory)

        proc = run(self.box.path("big.lbu"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # A hexagonal soup is refused before its grid is made, which would not fit.
        self.assertOneErrorLine(run(self.box.path("hex.lbu"), "hex-cpu-serial", "10"),
                                "square-grid states only")
        self.assertEqual(os.path.getsize(self.box.path("big.lbu")), 4096 + 16384 * 16384 // 8)
        self.assertOneErrorLine(run(self.box.path("big.rle")), "cannot allocate")  # as a grid
        self.assertFalse(os.path.exists(self.box.path("big.rle")))

    def test_resume_goes_on_from_the_last_whole_pass(self):
        whole = self.box.path("whole.lbu")
        self.assertEqual(self.advance(10, whole).returncode, 0)
        # A run stopped after 4 generations, with a killed write's temporary beside it.
        stopped = self.box.path("stopped.lbu")
        self.assertEqual(self.advance(4, stopped).returncode, 0)
        self.box.write(".stopped.lbu.tmp-0123456789abcdef", "half a universe")
        # And a killed soup run's start, and a killed write of that start.
        self.box.write(".stopped.lbu.tmp-soup", "a soup")
        self.box.write("..stopped.lbu.tmp-soup.tmp-0123456789abcdef", "half a soup")
        proc = self.advance(10, stopped, "--resume")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("resuming from generation 4", proc.stderr)
        self.assertEqual(self.contents(stopped), self.contents(whole))
        self.assertEqual(sorted(os.listdir(self.box.work)),
                         ["start.lbu", "stopped.lbu", "whole.lbu"])

        # An output past the target, or of another problem, is refused and left as it was.
        self.assertOneErrorLine(self.advance(2, stopped, "--resume"),
                                "cannot resume from", "at generation 10")
        self.assertEqual(self.contents(stopped), self.contents(whole))
        other = self.box.path("other.lbu")
        proc = self.lifebench_run("--soup", "256x64,0.4,5", "--rule", "B3/S23:T256,64",
                                  "--generations", "0", "--output", other)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertOneErrorLine(self.advance(10, other, "--resume"),
                                "cannot resume from", "B3/S23:T256,64")

    def test_resume_only_from_this_runs_own_files(self):
        # A stopped run's file used to be gone on from whatever input or parameters were
        # named, or after its generation had been edited.
        stopped = self.box.path("stopped.lbu")
        self.assertEqual(self.advance(4, stopped).returncode, 0)
        kept = self.contents(stopped)
        another = self.box.path("another.lbu")
        proc = self.lifebench_run("--soup", "256x96,0.4,6", "--rule", "B3/S23:T256,96",
                                  "--generations", "0", "--output", another)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertOneErrorLine(
            self.lifebench_run(*self.PARAMS, "--input", another, "--generations", "10",
                               "--output", stopped, "--resume"),
            "cannot resume from " + stopped, "a run from another input, or with other "
            "parameters, wrote it")
        self.assertOneErrorLine(
            self.lifebench_run("--param", "memory=1536", "--param", "halo_steps=2", "--input",
                               self.start, "--generations", "10", "--output", stopped,
                               "--resume"),
            "a run from another input, or with other parameters, wrote it")
        self.assertEqual(self.contents(stopped), kept)
        # A file no streamed run wrote (a conversion) holds no record of one.
        self.assertOneErrorLine(self.advance(10, another, "--resume"),
                                "cannot resume from " + another, "holds no record of the run")
        # Its generation moved on by hand: the header's seal no longer matches.
        with open(stopped, "r+b") as f:
            header = f.read(4096)
            self.assertIn(b"\ngeneration 4\n", header)
            f.seek(0)
            f.write(header.replace(b"\ngeneration 4\n", b"\ngeneration 8\n"))
        self.assertOneErrorLine(self.advance(10, stopped, "--resume"),
                                "the header was edited after it was written")

    def test_resume_needs_two_streamed_files(self):
        self.assertOneErrorLine(self.advance(1, self.start, "--resume"),
                                "--output other than the --input")
        self.assertOneErrorLine(self.advance(1, self.box.path("x.rle"), "--resume"),
                                "--resume needs")
        # In place without --resume is a plain run.
        before = self.contents(self.start)
        self.assertEqual(self.advance(3, self.start).returncode, 0)
        self.assertNotEqual(self.contents(self.start), before)

    def test_memory_budgets_that_hold_no_band(self):
        run = (*self.SOUP, "--generations", "3", "--output", self.box.path("x.lbu"))
        self.assertOneErrorLine(self.lifebench_run("--param", "memory=12Q", *run),
                                "memory=12Q is not a count of bytes")
        self.assertOneErrorLine(self.lifebench_run("--param", "memory=1K", *run),
                                "memory=1K holds no band", "34 rows of 32 bytes")
        self.assertFalse(os.path.exists(self.box.path("x.lbu")))

    def test_a_full_disk_fails_the_run_and_leaves_the_previous_output(self):
        # The file size limit stands in for a disk that fills up: growing a file past it
        # fails (EFBIG) as it would with ENOSPC, lifebench ignoring the signal (SIGXFSZ)
        # that would end it otherwise. Each pass reserves the whole next generation's
        # 7168 bytes (a 256x96 universe) before it writes any.
        out = self.box.path("out.lbu")
        self.assertEqual(self.advance(2, out).returncode, 0)
        before = self.contents(out)

        def small_disk():
            resource.setrlimit(resource.RLIMIT_FSIZE, (6000, 6000))
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL)

        proc = subprocess.run(
            [self.box.lifebench, "run", "--impl", "cpu-outofcore", "--experiments", self.folder,
             *self.PARAMS, "--input", self.start, "--generations", "10", "--output", out],
            cwd=self.box.work, capture_output=True, text=True, timeout=120,
            preexec_fn=small_disk)
        self.assertOneErrorLine(proc, "cannot reserve 7168 bytes", "File too large")
        self.assertEqual(self.contents(out), before)  # the previous run's universe, whole
        self.assertEqual(sorted(os.listdir(self.box.work)), ["out.lbu", "start.lbu"])


if __name__ == "__main__":
    lbtest.main()
