"""lifebench bench --parallel-gpus N: one-GPU CUDA configurations run N at once, each with
CUDA_VISIBLE_DEVICES naming its own GPU; configurations on the CPU, on several GPUs (an axis
of role gpu_count), through the host's disk (role host_folder) or on OpenCL (whose platform
may be the CPU) run alone."""
import json
import os

import lbtest

ONE_GPU = '''[[run]]
experiment = "kernel"
shape = "8x8"
generations = 1
params = { mode = "sleep", threads = ["1", "2", "3", "4", "5", "6"] }
'''

ALONE = '''[[run]]
experiment = "host"
shape = "8x8"
generations = 1
params = { mode = "sleep", threads = ["1", "2"] }

[[run]]
experiment = "spread"
shape = "8x8"
generations = 1
params = { mode = "sleep", gpus = "2" }

[[run]]
experiment = "opencl"
shape = "8x8"
generations = 1
params = { mode = "sleep", threads = ["1", "2"] }
'''


class ParallelGpus(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("kernel", backend="cuda")
        self.box.add_fake("host", backend="cpu")
        self.box.add_fake("opencl", backend="opencl")
        self.box.add_fake("spread", backend="cuda", axes=lbtest.FAKE_AXES + [
            {"name": "gpus", "default": "1", "allowed": [], "description": "GPUs",
             "role": "gpu_count"}])

    def bench(self, sweep, *args, env=None):
        path = self.box.write("sweep.toml", sweep)
        return self.box.run("bench", "--sweep", path, "--out", "out", *args, env=env)

    def spans(self, name):
        path = os.path.join(self.box.experiments, name + ".spans")
        with open(path) as f:
            return [json.loads(line) for line in f]

    @staticmethod
    def most_at_once(spans):
        """The largest number of spans that overlap at one moment."""
        events = sorted([(s["start"], 1) for s in spans] + [(s["end"], -1) for s in spans])
        running = most = 0
        for _, step in events:
            running += step
            most = max(most, running)
        return most

    def test_one_gpu_configurations_share_the_gpus(self):
        env = {"CUDA_VISIBLE_DEVICES": None}
        proc = self.bench(ONE_GPU + ALONE, "--parallel-gpus", "3", env=env)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("one-GPU configurations 3 at once, on GPUs 0, 1, 2", proc.stdout)

        kernel = self.spans("kernel")
        self.assertEqual(len(kernel), 6)
        self.assertEqual(self.most_at_once(kernel), 3)
        self.assertEqual({s["gpu"] for s in kernel}, {"0", "1", "2"})
        # Never two on one GPU.
        for gpu in "012":
            self.assertEqual(self.most_at_once([s for s in kernel if s["gpu"] == gpu]), 1)

        # The others alone, seeing every GPU, after the one-GPU runs before them.
        alone = self.spans("host") + self.spans("spread") + self.spans("opencl")
        self.assertEqual(len(alone), 5)
        self.assertEqual(self.most_at_once(kernel + alone), 3)
        self.assertEqual(self.most_at_once(alone), 1)
        self.assertEqual({s["gpu"] for s in alone}, {None})
        self.assertGreaterEqual(min(s["start"] for s in alone), max(s["end"] for s in kernel))

        # Results in sweep order, each one-GPU result naming its GPU.
        results = self.box.results("out", "kernel")["configurations"]
        self.assertEqual([r["params"]["threads"] for r in results], ["1", "2", "3", "4", "5", "6"])
        for r in results:
            self.assertIn(r["device"]["cuda_visible_devices"], {"0", "1", "2"})
        for r in self.box.results("out", "host")["configurations"]:
            self.assertNotIn("cuda_visible_devices", r["device"])
        self.assertEqual(self.box.manifest("out")["parallel_gpus"], 3)
        self.assertEqual(self.box.manifest("out")["configurations"]["ok"], 11)
        for line in proc.stdout.splitlines():
            if "kernel" in line and "mode=sleep" in line:
                self.assertRegex(line, r" on GPU [012] … ok ")

    def test_resume_measures_alone_what_no_longer_runs_beside_others(self):
        self.assertEqual(self.bench(ONE_GPU, "--parallel-gpus", "2").returncode, 0)
        self.assertEqual(len(self.spans("kernel")), 6)
        proc = self.bench(ONE_GPU, "--parallel-gpus", "2", "--resume")
        self.assertEqual(proc.stdout.count("… done earlier"), 6, proc.stdout)  # kept
        # The experiment now runs alone (its backend changed): each result measured beside
        # others is measured again, alone.
        conf = os.path.join(self.box.experiments, "kernel.fake.json")
        with open(conf) as f:
            changed = dict(json.load(f), backend="opencl")
        with open(conf, "w") as f:
            json.dump(changed, f)
        proc = self.bench(ONE_GPU, "--parallel-gpus", "2", "--resume")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        again = self.spans("kernel")[6:]
        self.assertEqual(len(again), 6)
        self.assertEqual(self.most_at_once(again), 1)
        for r in self.box.results("out", "kernel")["configurations"]:
            self.assertNotIn("cuda_visible_devices", r["device"])

    def test_estimate_counts_a_share_of_each_configuration_run_at_once(self):
        self.assertEqual(self.bench(ONE_GPU + ALONE, "--parallel-gpus", "3").returncode, 0)
        for name in ("kernel", "host", "spread", "opencl"):
            path = self.box.path("out/%s.json" % name)
            with open(path) as f:
                data = json.load(f)
            for result in data["configurations"]:  # another binary, ten minutes each
                result["binary_hash"] = "0x0000000000000000"
                result["wall_s"] = 600.0
            with open(path, "w") as f:
                json.dump(data, f)
        # Six one-GPU configurations on three GPUs, five alone: 2 + 5 times ten minutes.
        proc = self.bench(ONE_GPU + ALONE, "--parallel-gpus", "3", "--resume")
        self.assertIn("about 1:10:00 left by the earlier run's times", proc.stdout)

    def test_dry_run_says_what_runs_alone(self):
        proc = self.bench(ONE_GPU + ALONE, "--parallel-gpus", "2", "--dry-run")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        lines = [l for l in proc.stdout.splitlines() if l.startswith("[")]
        self.assertEqual(len(lines), 11)
        for line in lines:
            self.assertEqual(line.endswith(" … alone"), " kernel " not in line, line)

    def test_gpus_come_from_cuda_visible_devices(self):
        proc = self.bench(ONE_GPU, "--parallel-gpus", "2", env={"CUDA_VISIBLE_DEVICES": "5,,3,7"})
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual({s["gpu"] for s in self.spans("kernel")}, {"5", "3"})

    def test_fewer_visible_gpus_is_refused_before_anything_runs(self):
        proc = self.bench(ONE_GPU, "--parallel-gpus", "2", env={"CUDA_VISIBLE_DEVICES": "1"})
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(proc.stderr.strip().splitlines(),
                         ["lifebench: error: --parallel-gpus 2: CUDA_VISIBLE_DEVICES names 1 "
                          "GPUs ('1')"])
        self.assertEqual(self.box.bench_calls("kernel"), [])
        self.assertFalse(os.path.exists(self.box.path("out")))

    def test_one_is_the_default_and_changes_nothing(self):
        proc = self.bench(ONE_GPU, env={"CUDA_VISIBLE_DEVICES": "4"})
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        kernel = self.spans("kernel")
        self.assertEqual(self.most_at_once(kernel), 1)
        self.assertEqual({s["gpu"] for s in kernel}, {"4"})
        self.assertEqual(self.box.manifest("out")["parallel_gpus"], 1)

    def test_interrupt_stops_every_gpu_and_resume_finishes(self):
        sweep = ONE_GPU.replace('mode = "sleep"', 'mode = ["hang", "ok"]')
        path = self.box.write("sweep.toml", sweep)
        proc = self.box.interrupt("bench", "--sweep", path, "--out", "out", "--parallel-gpus",
                                  "4", when=os.path.join(self.box.experiments,
                                                         "kernel.grandchild"))
        self.assertEqual(proc.returncode, 130, proc.stdout + proc.stderr)
        self.assertIn("--resume", proc.stderr)
        with open(os.path.join(self.box.experiments, "kernel.grandchild")) as f:
            grandchild = int(f.read())
        self.assertTrue(lbtest.wait_until_gone(grandchild), "an experiment's child outlived it")
        self.assertIsNone(self.box.manifest("out")["finished"])

        proc = self.box.run("bench", "--sweep", path, "--out", "out", "--resume",
                            "--parallel-gpus", "4", "--time-limit", "1")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        statuses = {(r["params"]["mode"], r["status"])
                    for r in self.box.results("out", "kernel")["configurations"]}
        self.assertEqual(statuses, {("hang", "failed"), ("ok", "ok")})
        self.assertIsNotNone(self.box.manifest("out")["finished"])


if __name__ == "__main__":
    lbtest.main()
