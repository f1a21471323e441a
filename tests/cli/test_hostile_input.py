"""Inputs made to hang, wrap or leak: each ends in one `lifebench: error:` line and a
non-zero exit, within a second of CPU time, under a 512 MiB address-space limit, with
nothing left in the output folder."""
import gzip
import os
import resource
import signal
import subprocess

import lbtest

MEMORY_LIMIT = 512 << 20
CPU_SECONDS = 1.0


class HostileInput(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        binary = lbtest.real_experiment("cpu-trivial")
        if binary is None:
            self.skipTest("cpu-trivial is not built")
        self.folder = os.path.dirname(binary)
        self.out = self.box.path("out")
        os.makedirs(self.out)

    def run_limited(self, *args, file_size=None, impl="cpu-trivial"):
        """`lifebench run --impl IMPL ARGS` under the memory limit (and a file size limit,
        with the signal's default action, which ends the process); returns the process
        and the CPU seconds it took."""
        def limits():
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
            if file_size is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
            signal.signal(signal.SIGXFSZ, signal.SIG_DFL)

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        proc = subprocess.run(
            [self.box.lifebench, "run", "--impl", impl, "--experiments", self.folder, *args],
            cwd=self.box.work, capture_output=True, text=True, timeout=60, preexec_fn=limits)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return proc, seconds

    def run_measured(self, *args):
        """`lifebench run --impl cpu-trivial ARGS` under the memory limit; returns the process,
        its CPU seconds and its peak resident memory in MiB (its own or an experiment's it
        ran, whichever is larger: wait4's ru_maxrss)."""
        def limits():
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

        with open(self.box.path("stdout"), "w+") as out, open(self.box.path("stderr"), "w+") as err:
            child = subprocess.Popen(
                [self.box.lifebench, "run", "--impl", "cpu-trivial", "--experiments",
                 self.folder, *args], cwd=self.box.work, stdout=out, stderr=err, text=True,
                preexec_fn=limits)
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            proc = subprocess.CompletedProcess(child.args, child.returncode, out.read(),
                                               err.read())
        return proc, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024

    def assertRefused(self, args, *fragments, **kwargs):
        proc, seconds = self.run_limited(*args, **kwargs)
        line = self.assertOneErrorLine(proc, *fragments)
        self.assertLess(seconds, CPU_SECONDS, line)
        self.assertEqual(os.listdir(self.out), [], line)
        return line

    def output(self, name):
        return os.path.join(self.out, name)

    def test_generations_parsed_strictly(self):
        # Each used to be read as 2^64 - 1 (a run that never ends) or as 0.
        for text in ("-1", "99999999999999999999", "18446744073709551615", "", "+3", "0x10",
                     " 3", "3 ", "1e3"):
            self.assertRefused(("--soup", "16x16,0.5,1", "--generations", text, "--output",
                                self.output("o.rle")),
                               "--generations", "expected a whole number from 0 to "
                               "9223372036854775807, not \"%s\"" % text)

    def test_a_generation_near_2_to_the_64_does_not_wrap(self):
        pattern = self.box.write("late.rle", "#CXRLE Gen=18446744073709551615\n"
                                             "x = 1, y = 1, rule = B3/S23:T64,64\no!\n")
        universe = self.box.path("late.lbu")
        proc = self.box.run("run", "--impl", "cpu-trivial", "--experiments", self.folder,
                            "--input", pattern, "--generations", "0", "--output", universe)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for source in (pattern, universe):
            for output in ("o.rle", "o.lbu"):
                self.assertRefused(("--input", source, "--generations", "3", "--output",
                                    self.output(output)),
                                   "generation 18446744073709551615 + 3 does not fit in 64 bits")
        # The same through an experiment that streams universe files.
        if lbtest.real_experiment("cpu-outofcore"):
            self.assertRefused(("--input", universe, "--generations", "3", "--output",
                                self.output("o.lbu")),
                               "generation 18446744073709551615 + 3 does not fit in 64 bits",
                               impl="cpu-outofcore")

    def test_a_header_larger_than_its_grid_is_refused_before_allocation(self):
        # 43 bytes that claimed 2 GiB before the pattern was checked against its 1x70 grid.
        header = self.box.write("wide.rle", "x = 2147483648, y = 1, rule = B3/S23:P1,70\n")
        self.assertEqual(os.path.getsize(header), 43)
        self.assertRefused(("--input", header, "--generations", "1", "--output",
                            self.output("o.rle")),
                           "the 2147483648x1 pattern is larger than the 1x70 grid")
        # The grid given by --rule instead, and a body that fills the claimed row.
        filled = self.box.write("filled.rle", "x = 2147483648, y = 1\n2147483648o!\n")
        self.assertRefused(("--input", filled, "--rule", "B3/S23:P1,70", "--generations", "1",
                            "--output", self.output("o.rle")),
                           "the 2147483648x1 pattern is larger than the 1x70 grid")

    def test_a_file_size_limit_fails_the_write_and_leaves_nothing(self):
        # The signal used to end the run with no message and a temporary left behind.
        for output in ("o.rle", "o.lbu"):
            self.assertRefused(("--soup", "64x64,0.5,1", "--generations", "1", "--output",
                                self.output(output)),
                               "File too large", self.output(output), file_size=100)
        # A soup made beside the output and then advanced from there, by a streaming run.
        if lbtest.real_experiment("cpu-outofcore"):
            line = self.assertRefused(("--soup", "64x64,0.5,1", "--generations", "3", "--output",
                                       self.output("o.lbu")),
                                      "File too large", self.output("o.lbu"), file_size=100,
                                      impl="cpu-outofcore")
            self.assertNotIn(".tmp-", line)
        # And a killed run's temporary is removed by the next run that writes the output.
        with open(self.output(".o.rle.tmp-0123456789abcdef"), "w") as f:
            f.write("half a pattern")
        proc, _ = self.run_limited("--soup", "64x64,0.5,1", "--generations", "1", "--output",
                                   self.output("o.rle"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(os.listdir(self.out), ["o.rle"])

    def test_a_universe_that_is_a_fifo_is_refused_not_awaited(self):
        # Its open waited for a writer that never came: the run hung, as an input and as the
        # output a --resume reads.
        if not lbtest.real_experiment("cpu-outofcore"):
            self.skipTest("cpu-outofcore is not built")
        fifo = self.box.path("fifo.lbu")
        os.mkfifo(fifo)
        self.assertRefused(("--input", fifo, "--generations", "3", "--output",
                            self.output("o.lbu")),
                           "fifo.lbu: not a regular file (a universe is mapped)",
                           impl="cpu-outofcore")
        universe = self.output("start.lbu")
        proc, _ = self.run_limited("--soup", "64x64,0.5,1", "--generations", "0", "--output",
                                   universe)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        os.mkfifo(self.output("o.lbu"))
        proc, seconds = self.run_limited("--input", universe, "--generations", "3", "--output",
                                         self.output("o.lbu"), "--resume", impl="cpu-outofcore")
        self.assertOneErrorLine(proc, "o.lbu: not a regular file (a universe is mapped)")
        self.assertLess(seconds, CPU_SECONDS)

    def test_errors_name_the_users_paths(self):
        glider = os.path.join(lbtest.DATASETS_DIR, "glider.rle")
        missing = os.path.join(self.out, "nodir", "x.rle")
        line = self.assertRefused(("--input", glider, "--generations", "0", "--output", missing),
                                  "cannot write " + missing, "does not exist")
        self.assertNotIn(".tmp-", line)
        folder = self.output("d.rle")
        os.mkdir(folder)
        proc, _ = self.run_limited("--input", glider, "--generations", "0", "--output", folder)
        line = self.assertOneErrorLine(proc, "cannot write " + folder, "is a folder")
        self.assertNotIn(".tmp-", line)
        self.assertEqual(os.listdir(self.out), ["d.rle"])
        self.assertEqual(os.listdir(folder), [])

    def test_a_plane_a_run_cannot_hold_is_refused_before_allocation(self):
        # A plane of one grid's size fits this machine's memory but a run's three copies do
        # not: it used to pass the check and be killed by the kernel once filled.
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        side = int((memory // 2) ** 0.5)
        glider = self.box.write("glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n")
        generations = (side - 3) // 2
        line = self.assertRefused(("--input", glider, "--generations", str(generations),
                                   "--output", self.output("o.rle")),
                                  "glider.rle: the 3x3 pattern with a margin of %d generations"
                                  % generations, "a run holds about three copies at a byte a "
                                  "cell", "MiB, more than this machine's %d MiB" % (memory >> 20))
        self.assertIn("%d cells" % (2 * generations + 3) ** 2, line)
        # A few bytes whose header claims that plane, with two cells at its corners.
        wide = self.box.write("wide.rle", "x = %d, y = %d\no%d$%dbo!\n"
                              % (side, side, side - 1, side - 1))
        self.assertLess(os.path.getsize(wide), 50)
        self.assertRefused(("--input", wide, "--generations", "0", "--output",
                            self.output("o.rle")),
                           "wide.rle: the %dx%d pattern" % (side, side), "three copies")

    def test_a_bounded_grid_a_run_cannot_hold_is_refused_before_allocation(self):
        # A soup, or a few bytes whose RLE header names a bounded grid, of one grid's size fits
        # this machine's memory but a run's three copies do not: each passed the check at a
        # byte a cell and was killed by the kernel once filled.
        memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        side = int((memory // 2) ** 0.5) // 64 * 64  # in whole words, for cpu-outofcore
        estimate = ("%d cells; a run holds about three copies at a byte a cell: %d MiB, more "
                    "than this machine's %d MiB" % (side ** 2, 3 * side ** 2 >> 20, memory >> 20))
        soup = "%dx%d,0.5,1" % (side, side)
        header = "x = 1, y = 1, rule = B3/S23:%s%d,%d\no!\n"
        torus = self.box.write("torus.rle", header % ("T", side, side))
        dead = self.box.write("dead.rle", header % ("P", side, side))
        glider = os.path.join(lbtest.DATASETS_DIR, "glider.rle")
        grid = "the %dx%d grid of B3/S23:" % (side, side)
        bounded = "%d,%d" % (side, side)
        for source, named in ((("--soup", soup), "--soup %s: %s" % (soup, grid)),
                              (("--input", torus), "torus.rle: %sT%s" % (grid, bounded)),
                              (("--input", dead), "dead.rle: %sP%s" % (grid, bounded)),
                              (("--input", glider, "--rule", "B3/S23:T" + bounded),
                               "glider.rle: %sT%s" % (grid, bounded))):
            for output in ("o.rle", "o.lbu"):
                proc, seconds, peak = self.run_measured(*source, "--generations", "1",
                                                        "--output", self.output(output))
                line = self.assertOneErrorLine(proc, named, estimate)
                self.assertLess(seconds, CPU_SECONDS, line)
                self.assertLess(peak, 32, line)
                self.assertEqual(os.listdir(self.out), [], line)
        # A streamed run holds no grid and is not refused: the same soup written a row at a
        # time into a universe file gets as far as the file size limit.
        streams = [("cpu-trivial", "0")]
        if lbtest.real_experiment("cpu-outofcore"):
            streams.append(("cpu-outofcore", "1"))
        for impl, generations in streams:
            line = self.assertRefused(("--soup", soup, "--generations", generations, "--output",
                                       self.output("o.lbu")),
                                      "File too large", self.output("o.lbu"), file_size=100,
                                      impl=impl)
            self.assertNotIn("three copies", line)

    def test_what_we_write_far_from_the_origin_we_read(self):
        # Planes far out on Golly's plane are written with their place ("#CXRLE Pos"), which
        # used to be refused on reading as "number too large".
        # A glider at the last coordinates a Life 1.06 file takes, 2^40, run past them.
        at = (1 << 40) - 2
        glider = self.box.write("far.lif", "#Life 1.06\n" + "".join(
            "%d %d\n" % (at + x, at + y) for x, y in ((1, 0), (2, 1), (0, 2), (1, 2), (2, 2))))
        # A block in the corner of a macrocell tree of level 62, at -2^61.
        tree = "[M2]\n**$**$\n" + "".join("%d %d 0 0 0\n" % (level, level - 3)
                                          for level in range(4, 63))
        block = self.box.write("far.mc", tree)
        for source, generations, place in ((glider, 16, "Pos=1099511627778,1099511627778"),
                                           (block, 1, "Pos=%d,%d" % (-(1 << 61), 1 - (1 << 61)))):
            first, second = self.output("first.rle"), self.output("second.rle")
            proc, _ = self.run_limited("--input", source, "--generations", str(generations),
                                       "--output", first)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(first) as f:
                written = f.read()
            self.assertIn(place, written)
            proc, _ = self.run_limited("--input", first, "--generations", "0", "--output", second)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(second) as f:
                self.assertEqual(f.read(), written)
            os.remove(first)
            os.remove(second)

    def test_a_gzip_bomb_is_refused_early_in_bounded_memory(self):
        # 64 MiB of text from 64 KiB in each format, a thousand times: it used to be inflated
        # whole and copied before parsing (a 1 MiB file to 1 GiB took 3 GiB and 8 s).
        filler = {"rle": ("#C " + "a" * 1021 + "\n", "x = 3, y = 3\nbo$2bo$3o!\n"),
                  "lif": ("0 0\n", ""), "mc": ("#C " + "a" * 1021 + "\n", "")}
        headers = {"rle": "", "lif": "#Life 1.06\n", "mc": "[M2]\n"}
        for extension, (line, end) in filler.items():
            path = self.box.path("bomb.%s.gz" % extension)
            # gzip members one after another, as gzip itself concatenates files.
            block = gzip.compress((line * ((1 << 20) // len(line))).encode())
            with open(path, "wb") as f:
                f.write(gzip.compress(headers[extension].encode()) + block * 64 +
                        gzip.compress(end.encode()))
            self.assertLess(os.path.getsize(path), 200 << 10)
            proc, seconds, peak = self.run_measured("--input", path, "--generations", "1",
                                                    "--output", self.output("o.rle"))
            line = self.assertOneErrorLine(proc, "bomb.%s.gz: the gzip data expands more "
                                           "than 256 times" % extension,
                                           "refused as a decompression bomb")
            self.assertLess(seconds, CPU_SECONDS, line)
            self.assertLess(peak, 32, line)
            self.assertEqual(os.listdir(self.out), [], line)

    def test_a_cell_listed_millions_of_times_takes_the_memory_of_one(self):
        # Four million times the same cell (16 MB): each used to be kept, 200 MiB at the peak.
        path = self.box.write("again.lif", "#Life 1.06\n" + "5 7\n" * (4 << 20))
        proc, _, peak = self.run_measured("--input", path, "--generations", "0", "--output",
                                          self.output("o.rle"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertLess(peak, 32)
        with open(self.output("o.rle")) as f:
            self.assertEqual(lbtest.rle_cells(f.read(), placed=True), {(5, 7)})

    def test_an_rle_body_longer_than_its_header_allows_is_refused(self):
        # Blanks that repeat to no end after a 1x1 header: refused past four bytes a cell.
        path = self.box.write("long.rle", "x = 1, y = 1\n" + " " * (2 << 20) + "o!\n")
        self.assertRefused(("--input", path, "--generations", "1", "--output",
                            self.output("o.rle")),
                           "long.rle:2:1048586: the body of a 1x1 pattern takes at most "
                           "1048584 bytes")

    def test_an_output_that_is_a_symbolic_link_is_written_through(self):
        # The link used to be replaced by a file. Now the file it leads to is replaced, through
        # a temporary beside that file: a link to another folder, a link to a link, a link to
        # a file not yet there, as .rle and .lbu.
        elsewhere = self.box.path("elsewhere")
        os.makedirs(elsewhere)
        for output, target in (("near.rle", "real.rle"),
                               ("far.rle", os.path.join(elsewhere, "far-real.rle")),
                               ("twice.rle", "near.rle"),
                               ("new.lbu", os.path.join(elsewhere, "new-real.lbu"))):
            with self.subTest(output=output):
                link = self.output(output)
                os.symlink(target, link)
                if not output.startswith(("twice", "new")):
                    with open(os.path.join(self.out, target), "w") as f:
                        f.write("old\n")
                proc, _ = self.run_limited("--soup", "64x64,0.5,1", "--generations", "1",
                                           "--output", link)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertTrue(os.path.islink(link))
                self.assertEqual(os.readlink(link), target)
                with open(link, "rb") as f:
                    self.assertTrue(f.read().startswith(
                        b"lifebench-universe" if output.endswith(".lbu") else b"#CXRLE"))
        self.assertEqual(sorted(os.listdir(elsewhere)), ["far-real.rle", "new-real.lbu"])
        self.assertEqual(sorted(f for f in os.listdir(self.out) if not os.path.islink(
            self.output(f))), ["real.rle"])

    def test_time_limits_are_finite(self):
        self.box.add_fake("fake")
        for limit in ("inf", "nan"):
            sweep = self.box.write("sweep.toml", '[[run]]\nexperiment = "fake"\nshape = "8x8"\n'
                                                 'generations = 1\ntime_limit_s = %s\n' % limit)
            proc = self.box.run("bench", "--sweep", sweep, "--out", self.out)
            self.assertOneErrorLine(proc, "time_limit_s must be a finite number above 0")
            proc = self.box.run("bench", "--sweep", "cpu", "--time-limit", limit, "--out",
                                self.out)
            self.assertOneErrorLine(proc, "--time-limit", "finite number of seconds above 0")
            self.assertEqual(os.listdir(self.out), [])
            self.assertEqual(self.box.bench_calls("fake"), [])


if __name__ == "__main__":
    lbtest.main()
