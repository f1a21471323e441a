"""Small habits of the command line: run --help without --impl, run's time and rate on
standard error (standard output left empty), list --json."""
import json
import os
import shutil

import lbtest


class Habits(lbtest.CliTestCase):
    def test_run_help_needs_no_impl(self):
        proc = self.box.run("run", "--help")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("--impl", proc.stdout)
        self.assertIn("lifebench run --impl NAME --soup WxH,density,seed", proc.stdout)
        self.assertEqual(proc.stderr, "")

    def test_run_without_impl_is_a_usage_error(self):
        proc = self.box.run("run", "--soup", "8x8,0.5,1", "--generations", "1", "--output", "x")
        self.assertOneErrorLine(proc, "run needs --impl NAME", code=2)

    def test_list_json(self):
        self.box.add_fake("fake-a")
        self.box.add_fake("gpu-fake", backend="cuda", available=False, reason="no CUDA device")
        proc = self.box.run("list", "--json")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        document = json.loads(proc.stdout)
        self.assertEqual(document["broken"], [])
        by_name = {e["name"]: e for e in document["experiments"]}
        self.assertEqual(sorted(by_name), ["fake-a", "gpu-fake"])
        self.assertTrue(by_name["fake-a"]["available"])
        self.assertIsNone(by_name["fake-a"]["reason"])
        self.assertEqual(by_name["gpu-fake"]["backend"], "cuda")
        self.assertFalse(by_name["gpu-fake"]["available"])
        self.assertEqual(by_name["gpu-fake"]["reason"], "no CUDA device")
        self.assertEqual([a["name"] for a in by_name["fake-a"]["axes"]], ["mode", "threads"])
        self.assertEqual(by_name["fake-a"]["axes"][0]["default"], "ok")

    def test_list_json_with_nothing_found_is_an_error(self):
        self.assertOneErrorLine(self.box.run("list", "--json"), "no experiment executables")

    def test_run_prints_its_time_and_rate_on_standard_error(self):
        trivial = lbtest.real_experiment("cpu-trivial")
        if not trivial:
            self.skipTest("cpu-trivial is not built")
        shutil.copy2(trivial, self.box.experiments)
        out = self.box.path("out.rle")
        proc = self.box.run("run", "--impl", "cpu-trivial", "--soup", "64x32,0.5,7",
                            "--generations", "20", "--output", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout, "")
        self.assertRegex(proc.stderr, r"^cpu-trivial: 20 generations of B3/S23:T64,32 in "
                                      r"[0-9.e+-]+ s \([0-9.e+-]+ cell updates/s, steady_clock\)\n$")
        self.assertTrue(os.path.exists(out))
        # A conversion advances nothing: no line.
        proc = self.box.run("run", "--impl", "cpu-trivial", "--input", out, "--generations", "0",
                            "--output", self.box.path("copy.rle"))
        self.assertEqual((proc.returncode, proc.stdout, proc.stderr), (0, "", ""))


if __name__ == "__main__":
    lbtest.main()
