"""The progress of lifebench bench: the time since the sweep started on each line, the time
left after each measured configuration (from those measured so far, and from an earlier
run's times when resuming), the total time at the end, and wall_s in the results."""
import json
import re
import subprocess

import lbtest

SWEEP = """[[run]]
experiment = "fake"
shape = "8x8"
generations = 1
params = { threads = ["1", "2", "3"] }
"""


class Progress(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("fake")
        self.box.write("sweep.toml", SWEEP)

    def bench(self, *args):
        proc = self.box.run("bench", "--sweep", "sweep.toml", "--out", "out", *args)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        return proc, [l for l in proc.stdout.splitlines() if l.startswith("[")]

    def test_lines_give_the_elapsed_time_and_the_total(self):
        proc, lines = self.bench()
        self.assertEqual(len(lines), 3, proc.stdout)
        for i, line in enumerate(lines):
            self.assertRegex(line, r"^\[%d/3 \d+:\d\d\] fake B3/S23:T8,8 g1 threads=%d … ok " %
                             (i + 1, i + 1))
        self.assertRegex(proc.stdout, r"\nlifebench: 3 configurations in \d+:\d\d: 3 ok, 0 failed")
        for result in self.box.results("out", "fake")["configurations"]:
            self.assertGreater(result["wall_s"], 0)

    def test_resuming_estimates_from_the_earlier_times(self):
        self.bench()
        # The earlier results stand no more (another binary) but say how long each took.
        path = self.box.path("out/fake.json")
        with open(path) as f:
            data = json.load(f)
        for result in data["configurations"]:
            result["binary_hash"] = "0x0000000000000000"
            result["wall_s"] = 600.0
        with open(path, "w") as f:
            json.dump(data, f)
        proc, lines = self.bench("--resume")
        self.assertIn("lifebench: 3 configurations, 3 to measure again (the binaries of fake "
                      "changed); results in out; about 30:00 left by the earlier run's times",
                      proc.stdout)
        self.assertRegex(lines[0], r"; about 20:00 left$")
        self.assertRegex(lines[1], r"; about 10:00 left$")
        self.assertNotIn("left", lines[2])

    def test_estimates_from_the_configurations_measured_so_far(self):
        # Nothing earlier: after the first, the mean of those measured (the fake takes well
        # under a second, so there is nothing to estimate worth a line but the format).
        proc, lines = self.bench()
        for line in lines:
            match = re.search(r"; about (\d+):(\d\d) left$", line)
            if match:
                self.assertLess(int(match.group(1)), 5, line)

    def test_show_stderr_copies_each_experiments_standard_error(self):
        proc, _ = self.bench()
        self.assertNotIn("fake bench starting", proc.stderr)
        # Both streams in one, as on a terminal: each configuration's line whole before its
        # standard error and again, with its outcome, after it.
        shown = subprocess.run(
            [self.box.lifebench, "bench", "--sweep", "sweep.toml", "--out", "shown",
             "--show-stderr"], cwd=self.box.work, env=self.box.environment(),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
        self.assertEqual(shown.returncode, 0, shown.stdout)
        self.assertEqual(shown.stdout.count("fake bench starting\n"), 3, shown.stdout)
        for i in range(1, 4):
            label = r"\[%d/3 \d+:\d\d\] fake B3/S23:T8,8 g1 threads=%d …" % (i, i)
            self.assertRegex(shown.stdout, r"%s\nfake bench starting\n(?:.*\n)*?%s ok " %
                             (label, label))

if __name__ == "__main__":
    lbtest.main()
