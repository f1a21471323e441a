"""cpu-mpi through the driver: its ranks, started by mpirun, give the single process's cells;
a rank that dies is one error line naming it, no rank is left running and no output is
written; in a sweep it is a failed configuration and the sweep goes on; without mpirun the
experiment is unavailable. Skipped where cpu-mpi is not built (no MPI)."""
import os
import signal
import subprocess
import time

import lbtest

RANK_PROGRAM = "lifebench-rank-cpu-mpi"


def stat_fields(pid):
    """The fields of /proc/PID/stat after the process's name (state, parent, ...); [] when
    the process is gone. The name, in parentheses, may hold spaces and parentheses."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def parent_of(pid):
    fields = stat_fields(pid)
    return int(fields[1]) if fields else 0


def cpu_seconds(pid):
    """User and system time of process `pid` so far (0 when it is gone)."""
    fields = stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") if fields else 0


def ranks_under(ancestor):
    """{pid: rank} of the cpu-mpi ranks running below process `ancestor`."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        pid = int(entry)
        try:
            if os.path.basename(os.readlink("/proc/%d/exe" % pid)) != RANK_PROGRAM:
                continue
            with open("/proc/%d/environ" % pid, "rb") as f:
                variables = dict(v.split(b"=", 1) for v in f.read().split(b"\0") if b"=" in v)
        except OSError:
            continue
        up = pid
        while up > 1 and up != ancestor:
            up = parent_of(up)
        if up == ancestor and b"OMPI_COMM_WORLD_RANK" in variables:
            found[pid] = int(variables[b"OMPI_COMM_WORLD_RANK"])
    return found


class Ranks(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        binary = lbtest.real_experiment("cpu-mpi")
        if binary is None or lbtest.real_experiment("cpu-blocked") is None:
            self.skipTest("cpu-mpi or cpu-blocked is not built")
        self.folder = os.path.dirname(binary)

    def run_impl(self, impl, output, *args, env=None):
        return self.box.run("run", "--impl", impl, "--experiments", self.folder, *args,
                            "--output", self.box.path(output), env=env)

    def start(self, *args):
        return subprocess.Popen([self.box.lifebench, *args, "--experiments", self.folder],
                                cwd=self.box.work, env=self.box.environment(),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def kill_rank(self, driver, rank, of, timeout=120):
        """Kills rank `rank` of the first run of `of` ranks under `driver` that are all past
        their start (each has computed for a while) with SIGKILL; returns the pids of that
        run's ranks. A rank killed during MPI's start is not named by Open MPI 4's mpirun."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ranks = ranks_under(driver.pid)
            victims = [pid for pid, r in ranks.items() if r == rank]
            started = len(ranks) == of and all(cpu_seconds(pid) > 0.3 for pid in ranks)
            if victims and started:
                try:
                    os.kill(victims[0], signal.SIGKILL)
                    return list(ranks)
                except ProcessLookupError:  # a short run of ranks (a verification) just ended
                    pass
            if driver.poll() is not None:
                break
            time.sleep(0.05)
        driver.kill()
        raise AssertionError("no rank %d appeared: %s" % (rank, driver.communicate()))

    def assertGone(self, pids):
        for pid in pids:
            self.assertTrue(lbtest.wait_until_gone(pid, seconds=20), "rank %d left running" % pid)

    def test_ranks_give_the_single_process_cells(self):
        # Uneven bands of 64 and 48 rows, exchanges every 7 generations, tiles that cross them.
        soup = ["--soup", "256x192,0.5,11", "--rule", "B3/S23:T256,192", "--generations", "40"]
        proc = self.run_impl("cpu-blocked", "one.rle", *soup)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(self.box.path("one.rle")) as f:
            expected = f.read()
        self.assertIn("o", expected.split("\n", 2)[-1])
        for ranks in ("1", "3", "4"):
            output = "ranks%s.rle" % ranks
            proc = self.run_impl("cpu-mpi", output, *soup, "--param", "ranks=" + ranks,
                                 "--param", "halo_steps=7", "--param", "tile_rows=5",
                                 "--param", "tile_words=2")
            self.assertEqual(proc.returncode, 0, proc.stderr)
            with open(self.box.path(output)) as f:
                self.assertEqual(f.read(), expected, "ranks=" + ranks)

    def test_a_killed_rank_is_one_line_and_leaves_nothing(self):
        driver = self.start("run", "--impl", "cpu-mpi", "--param", "ranks=3", "--soup",
                            "2048x2048,0.5,3", "--rule", "B3/S23:T2048,2048", "--generations",
                            "100000000", "--output", self.box.path("out.rle"))
        pids = self.kill_rank(driver, 1, of=3)
        out, err = driver.communicate(timeout=120)
        self.assertOneErrorLine(subprocess.CompletedProcess(driver.args, driver.returncode, out,
                                                            err),
                                "rank 1: killed by signal 9 (Killed)", code=1)
        self.assertGone(pids)
        self.assertEqual(os.listdir(self.box.work), [])

    def test_an_mpirun_that_hangs_after_aborting_is_killed_with_its_ranks(self):
        # As Open MPI 4.1's mpirun did where a rank was killed during its start: the note that
        # it aborts the job, then no end; here a stand-in whose "rank" outlives the note.
        rank_pid = self.box.path("rank.pid")
        mpirun = self.box.write("mpirun", """#!/bin/sh
sleep 1000 &
echo $! > %s
echo "mpirun noticed that process rank 1 with PID 0 on node here exited on signal 9 (Killed)."
exec sleep 1000
""" % rank_pid)
        os.chmod(mpirun, 0o755)
        started = time.monotonic()
        proc = self.run_impl("cpu-mpi", "out.rle", "--soup", "256x64,0.5,1", "--rule",
                             "B3/S23:T256,64", "--generations", "4", "--param", "ranks=2",
                             env={"LIFEBENCH_MPIEXEC": mpirun})
        self.assertLess(time.monotonic() - started, 60)
        self.assertOneErrorLine(proc, "rank 1: killed by signal 9 (Killed)", code=1)
        with open(rank_pid) as f:
            self.assertGone([int(f.read())])
        self.assertEqual(sorted(os.listdir(self.box.work)), ["mpirun", "rank.pid"])

    def test_a_sweep_records_a_failed_run_of_ranks_and_goes_on(self):
        if not lbtest.optimised_build():
            self.skipTest("experiments refuse to bench in a %s build" % (lbtest.BUILD_TYPE or "?"))
        sweep = self.box.write("ranks.toml", """
[[run]]
experiment = "cpu-mpi"
shape = "2048x2048"
generations = 100000000
repetitions = 1
time_limit_s = 240
params = { ranks = 3 }

[[run]]
experiment = "cpu-mpi"
shape = "256x256"
generations = 8
repetitions = 2
params = { ranks = 2 }
""")
        driver = self.start("bench", "--sweep", sweep, "--out", "out")
        pids = self.kill_rank(driver, 1, of=3)
        out, err = driver.communicate(timeout=240)
        self.assertEqual(driver.returncode, 1, out + err)
        self.assertGone(pids)
        failed, passed = self.box.results("out", "cpu-mpi")["configurations"]
        self.assertEqual(failed["status"], "failed")
        self.assertIn("rank 1: killed by signal 9 (Killed)", failed["reason"])
        self.assertEqual(passed["status"], "ok")
        self.assertEqual(passed["verification"]["status"], "passed")
        self.assertEqual(passed["timing"]["clock"], "mpi_wtime")
        device = passed["device"]
        self.assertEqual((device["ranks"], device["hosts"], device["threads_per_rank"]),
                         ("2", "1", "1"))
        self.assertEqual(float(device["halo_bytes_per_generation"]), 2 * 2 * 256 / 8)
        self.assertIn("MPI", device["mpi_library"])
        # Each rank's passes and waits, as their longest and shortest over the ranks; no
        # rank computes longer than the advance the ranks timed together.
        timing = passed["timing"]
        phases = timing["phases"]
        self.assertEqual(set(phases), {"compute longest", "compute shortest",
                                       "halo wait longest", "halo wait shortest"})
        self.assertGreater(phases["compute shortest"], 0)
        self.assertLessEqual(phases["compute shortest"], phases["compute longest"])
        self.assertLessEqual(phases["halo wait shortest"], phases["halo wait longest"])
        self.assertLessEqual(phases["compute longest"], timing["median_s"])

    def test_unavailable_without_mpirun(self):
        env = {"LIFEBENCH_MPIEXEC": "/nonexistent/mpirun"}
        proc = self.box.run("list", "--experiments", self.folder, env=env)
        line = next(l for l in proc.stdout.splitlines() if l.startswith("cpu-mpi "))
        self.assertIn("unavailable: mpirun /nonexistent/mpirun cannot be run", line)
        proc = self.run_impl("cpu-mpi", "out.rle", "--soup", "256x64,0.5,1", "--rule",
                             "B3/S23:T256,64", "--generations", "4", env=env)
        self.assertOneErrorLine(proc, "cpu-mpi is unavailable: mpirun /nonexistent/mpirun",
                                code=77)

    def test_bands_shorter_than_their_halo_are_refused(self):
        proc = self.run_impl("cpu-mpi", "out.rle", "--soup", "256x64,0.5,1", "--rule",
                             "B3/S23:T256,64", "--generations", "4", "--param", "ranks=5")
        self.assertOneErrorLine(proc, "the height 64 does not split into 5 bands of at least "
                                      "halo_steps=16 rows")
        self.assertEqual(os.listdir(self.box.work), [])


if __name__ == "__main__":
    lbtest.main()
