"""bench's machine record: --machine names it, else its hardware does (nvidia-smi's GPUs, the
CPU and its cores); a results folder is one machine and one source tree, and resuming it on
another machine or with binaries of another source tree is refused."""
import json
import os
import stat

import lbtest

SWEEP = """
[[run]]
experiment = "fake"
shape = "8x8"
generations = 1
params = { threads = [1, 2] }
"""

H100 = "NVIDIA H100 80GB HBM3, 81559, 580.159.04"


class Machine(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.box.add_fake("fake")
        self.box.add_fake("other")
        self.sweep = self.box.write("sweep.toml", SWEEP + SWEEP.replace('"fake"', '"other"'))

    def nvidia_smi(self, output, code=0):
        """A PATH holding only an nvidia-smi that prints `output` for the query bench makes."""
        folder = os.path.join(self.box.root, "path")
        os.makedirs(folder, exist_ok=True)
        script = os.path.join(folder, "nvidia-smi")
        lines = "".join("echo '%s'\n" % line for line in output.splitlines())
        with open(script, "w") as f:  # builtins only: PATH holds nothing else
            f.write("#!/bin/sh\n"
                    '[ "$*" = "--query-gpu=name,memory.total,driver_version '
                    '--format=csv,noheader,nounits" ] || exit 2\n'
                    "%sexit %d\n" % (lines, code))
        os.chmod(script, stat.S_IRWXU)
        return {"PATH": folder}

    def bench(self, *args, env=None):
        return self.box.run("bench", "--sweep", self.sweep, "--out", "out", *args, env=env)

    def edit_manifest(self, change):
        path = self.box.path("out/manifest.json")
        manifest = self.box.manifest("out")
        change(manifest)
        with open(path, "w") as f:
            json.dump(manifest, f)

    def folder_files(self):
        out = self.box.path("out")
        return {name: open(os.path.join(out, name)).read() for name in sorted(os.listdir(out))}

    def test_a_given_name_and_the_machine_it_names(self):
        proc = self.bench("--machine", "lab_3.node-07", env=self.nvidia_smi(H100 + "\n"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        machine = self.box.manifest("out")["machine"]
        self.assertEqual(machine["name"], "lab_3.node-07")
        self.assertEqual(machine["name_source"], "given")
        self.assertEqual(machine["gpus"], [{"name": "NVIDIA H100 80GB HBM3",
                                            "memory_bytes": 81559 * 2**20,
                                            "driver": "580.159.04"}])
        self.assertGreaterEqual(machine["logical_cores"], machine["physical_cores"])
        self.assertGreater(machine["physical_cores"], 0)
        self.assertGreater(machine["memory_bytes"], 0)
        self.assertTrue(machine["cpu"])
        self.assertTrue(machine["os"])
        self.assertTrue(machine["compilers"]["cxx"])
        self.assertIn("cuda", machine["compilers"])

    def test_a_name_derived_from_the_gpus_cpu_and_cores(self):
        proc = self.bench(env=self.nvidia_smi(H100 + "\n" + H100 + "\n"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        machine = self.box.manifest("out")["machine"]
        self.assertEqual(machine["name_source"], "derived")
        self.assertEqual(len(machine["gpus"]), 2)
        self.assertRegex(machine["name"],
                         r"^2x-h100-80gb-hbm3-[a-z][a-z0-9]*-%dc$" % machine["physical_cores"])

    def test_a_name_derived_without_a_gpu(self):
        # nvidia-smi of a machine without the driver's GPU fails; none at all is the same.
        for env in (self.nvidia_smi("NVIDIA-SMI has failed\n", code=9), {"PATH": "/nonexistent"}):
            self.box.run("bench", "--sweep", self.sweep, "--out", "out", "--resume", env=env)
            machine = self.box.manifest("out")["machine"]
            self.assertEqual(machine["gpus"], [])
            self.assertRegex(machine["name"], r"^[a-z][a-z0-9]*-%dc$" % machine["physical_cores"])

    def test_a_name_from_the_environment(self):
        proc = self.bench(env={"LIFEBENCH_MACHINE": "from-env"})
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.box.manifest("out")["machine"]["name"], "from-env")
        self.assertEqual(self.box.manifest("out")["machine"]["name_source"], "given")
        proc = self.bench("--resume", "--machine", "other", env={"LIFEBENCH_MACHINE": "from-env"})
        self.assertOneErrorLine(proc, "'from-env'", "'other'")  # --machine wins
        self.assertOneErrorLine(self.bench(env={"LIFEBENCH_MACHINE": "a/b"}), "letters, digits")

    def test_names_refused(self):
        for name in ("", ".", "../up", ".hidden", "-x", "a b", "a/b", "x" * 65):
            proc = self.bench("--machine", name)
            self.assertOneErrorLine(proc, "--machine", "letters, digits")
            self.assertFalse(os.path.exists(self.box.path("out")), name)

    def test_resume_on_another_machine_is_refused(self):
        self.assertEqual(self.bench("--machine", "box-a").returncode, 0)
        before = self.folder_files()
        for impl in ("*", "other"):
            proc = self.bench("--resume", "--machine", "box-b", "--impl", impl)
            self.assertOneErrorLine(proc, "cannot resume in out", "'box-a'", "'box-b'",
                                    "another --out")
            self.assertEqual(self.folder_files(), before)  # untouched
        self.assertEqual(len(self.box.bench_calls("fake")), 2)
        proc = self.bench("--resume", "--machine", "box-a", "--impl", "other")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("2 done earlier", proc.stdout)

    def test_resume_with_binaries_of_another_source_tree_is_refused(self):
        self.assertEqual(self.bench("--machine", "box").returncode, 0)
        build = self.box.manifest("out")["build"]
        self.assertRegex(build["source_hash"], r"^sha256:[0-9a-f]{64}$")
        self.assertIn(build["commit_source"], ("git", "stamp", "unknown"))

        def older_tree(manifest):
            manifest["build"]["source_hash"] = "sha256:" + "ab" * 32
            manifest["build"]["git_commit"] = "0123456789" * 4
            manifest["build"]["git_dirty"] = False

        self.edit_manifest(older_tree)
        proc = self.bench("--resume", "--machine", "box", "--impl", "other")
        error = self.assertOneErrorLine(proc, "cannot resume in out", "sha256:abababababab",
                                        "commit 0123456", build["source_hash"][:19])
        self.assertNotIn("0123456, dirty", error)

    def test_resume_of_a_folder_of_an_older_lifebench_is_refused(self):
        self.assertEqual(self.bench("--machine", "box").returncode, 0)
        self.edit_manifest(lambda manifest: manifest.pop("machine"))
        self.assertOneErrorLine(self.bench("--resume", "--machine", "box"),
                                "names no machine or source hash")

    def test_the_build_records_its_commit(self):
        self.assertEqual(self.bench().returncode, 0)
        build = self.box.manifest("out")["build"]
        if build["commit_source"] == "unknown":
            self.assertIsNone(build["git_commit"])
            self.assertIsNone(build["git_dirty"])
            self.assertIsNone(build["git_commit_time"])
        else:
            self.assertRegex(build["git_commit"], r"^[0-9a-f]{40}$")
            self.assertIsInstance(build["git_dirty"], bool)
        if build["commit_source"] == "git":  # a stamp of an older tools/stamp-commit has none
            self.assertRegex(build["git_commit_time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")


if __name__ == "__main__":
    lbtest.main()
