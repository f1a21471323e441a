"""An interrupt while the experiments describe themselves: every command stops
with status 130, before it reports or runs anything; and SIGINT, SIGTERM or SIGHUP while
`run` writes its output: one line, status 128 + the signal, no temporary left; the same when
a file a streamed run reads is cut short under it; a run of ranks ends them too."""
import os
import signal
import subprocess
import time

import lbtest


class InterruptDuringDiscovery(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("slow", describe="hang")
        self.marker = os.path.join(self.box.experiments, "slow.describing")

    def interrupt(self, *args):
        """Runs the driver, interrupts it while `slow` describes itself; returns its status."""
        proc = self.box.interrupt(*args, when=self.marker, timeout=30)
        os.remove(self.marker)
        return proc.returncode, proc.stdout + proc.stderr

    def test_every_command_stops(self):
        sweep = self.box.write("sweep.toml", '[[run]]\nexperiment = "slow"\nshape = "8x8"\n'
                                             'generations = 1\n')
        for args in (["list"], ["verify"], ["run", "--impl", "slow"],
                     ["bench", "--sweep", sweep, "--out", "out"]):
            with self.subTest(command=args[0]):
                status, output = self.interrupt(*args)
                self.assertEqual(status, 130, output)
                self.assertNotIn("slow", output)
        self.assertFalse(os.path.exists(self.box.path("out")))


class InterruptDuringTheOutputsWrite(lbtest.CliTestCase):
    def test_the_temporary_is_removed_and_one_line_says_why(self):
        # Each used to end the run with no message, leaving a hidden temporary of up to a
        # whole universe beside the output.
        folder = lbtest.experiment_folder(self, "cpu-trivial")
        out = self.box.path("out")
        os.makedirs(out)

        def writing():
            return any(name.startswith(".o.rle.tmp-") for name in os.listdir(out))

        for signum, name in ((signal.SIGINT, "Interrupt"), (signal.SIGTERM, "Terminated"),
                             (signal.SIGHUP, "Hangup")):
            with self.subTest(signal=name):
                proc = self.box.interrupt("run", "--impl", "cpu-trivial", "--experiments",
                                          folder, "--soup", "8192x8192,0.5,1", "--generations",
                                          "0", "--output", os.path.join(out, "o.rle"),
                                          when=writing, signum=signum)
                self.assertOneErrorLine(proc, "interrupted by signal %d (%s)" % (signum, name),
                                        code=128 + signum)
                self.assertEqual(os.listdir(out), [])

    def test_a_streamed_run_leaves_neither_its_pass_nor_its_soup(self):
        # A soup written beside the output, then advanced from there by passes: a signal
        # during a pass removes the pass's temporary and the soup's start.
        folder = lbtest.experiment_folder(self, "cpu-outofcore")
        out = self.box.path("out")
        os.makedirs(out)

        def passing():
            names = os.listdir(out)
            return ".o.lbu.tmp-soup" in names and any(
                name.startswith(".o.lbu.tmp-") and name != ".o.lbu.tmp-soup" for name in names)

        proc = self.box.interrupt("run", "--impl", "cpu-outofcore", "--experiments", folder,
                                  "--soup", "4096x4096,0.5,1", "--generations", "1000",
                                  "--output", os.path.join(out, "o.lbu"), when=passing,
                                  signum=signal.SIGTERM)
        self.assertOneErrorLine(proc, "interrupted by signal 15 (Terminated)", code=143)
        # The output a completed pass left, if one did, is a whole generation and stays.
        self.assertLessEqual(set(os.listdir(out)), {"o.lbu"})

    def test_a_streamed_file_cut_short_while_read_ends_the_run_as_an_error(self):
        # The file a pass reads is mapped; another process truncating it faulted the read of
        # the pages it lost (SIGBUS) and ended the run with no message, its temporary left.
        folder = lbtest.experiment_folder(self, "cpu-outofcore")
        out = self.box.path("out")
        os.makedirs(out)
        run = subprocess.Popen(
            [self.box.lifebench, "run", "--impl", "cpu-outofcore", "--experiments", folder,
             "--soup", "4096x4096,0.5,1", "--generations", "100000", "--param", "memory=1M",
             "--output", os.path.join(out, "o.lbu")], cwd=self.box.work,
            env=self.box.environment(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True)
        self.addCleanup(lambda: run.poll() is None and run.kill())
        deadline = time.monotonic() + 60
        while run.poll() is None and time.monotonic() < deadline:
            for name in ("o.lbu", ".o.lbu.tmp-soup"):  # what a pass reads
                try:
                    os.truncate(os.path.join(out, name), 8192)
                except FileNotFoundError:
                    pass
            time.sleep(0.02)
        stdout, stderr = run.communicate(timeout=10)
        proc = subprocess.CompletedProcess(run.args, run.returncode, stdout, stderr)
        # Cut short before a pass maps it, the file is refused by its size; during the pass,
        # the fault ends the run.
        self.assertIn(proc.returncode, (1, 128 + signal.SIGBUS), proc.stderr)
        line = self.assertOneErrorLine(proc)
        if proc.returncode != 1:
            self.assertIn("a file being read was cut short by another process, stopped by "
                          "signal 7 (Bus error)", line)
        self.assertLessEqual(set(os.listdir(out)), {"o.lbu"})

    def test_a_run_of_ranks_ends_its_ranks_and_their_files(self):
        # mpirun and its ranks outlived the interrupted run, the soup they read left beside.
        folder = lbtest.experiment_folder(self, "cpu-mpi")
        temporary = self.box.path("tmp")  # where the ranks' files go, named in their arguments
        os.makedirs(temporary)
        run = subprocess.Popen(
            [os.path.join(folder, "lifebench-exp-cpu-mpi"), "run", "--soup", "2048x2048,0.5,1",
             "--generations", "1000000", "--output", self.box.path("o.rle")],
            cwd=self.box.work, env=self.box.environment({"TMPDIR": temporary}),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.addCleanup(lambda: run.poll() is None and run.kill())

        def ours():
            found = []
            for pid in filter(str.isdigit, os.listdir("/proc")):
                try:
                    with open("/proc/%s/cmdline" % pid, "rb") as f:
                        if temporary.encode() in f.read():
                            found.append(int(pid))
                except OSError:
                    pass
            return found

        def kill_ours():
            for pid in ours():
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass

        self.addCleanup(kill_ours)  # should the test fail with them running

        def computing():
            """Whether a rank has run for half a second: past mpirun's start, which a signal
            may disturb."""
            for pid in ours():
                try:
                    with open("/proc/%d/stat" % pid) as f:
                        fields = f.read().rsplit(")", 1)[1].split()
                    with open("/proc/%d/cmdline" % pid, "rb") as f:
                        rank = b"lifebench-rank-" in f.read().split(b"\0")[0]
                except OSError:
                    continue
                ticks = int(fields[11]) + int(fields[12])  # utime + stime
                if rank and ticks >= os.sysconf("SC_CLK_TCK") // 2:
                    return True
            return False

        deadline = time.monotonic() + 120
        while not computing() and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if run.poll() == 77:
            self.skipTest(run.communicate()[1])
        self.assertTrue(computing(), "the ranks never computed")
        run.send_signal(signal.SIGTERM)
        _, err = run.communicate(timeout=30)
        self.assertOneErrorLine(subprocess.CompletedProcess(run.args, run.returncode, "", err),
                                "interrupted by signal 15 (Terminated)", code=143)
        for pid in ours():
            self.assertTrue(lbtest.wait_until_gone(pid, 20), "process %d outlived the run" % pid)
        self.assertEqual(os.listdir(temporary), [])

if __name__ == "__main__":
    lbtest.main()
