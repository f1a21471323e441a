"""bench --resume: keeps what is done with the same binary, runs the rest; an
interrupted sweep keeps all finished work."""
import json
import os

import lbtest

SWEEP = """
[[run]]
experiment = "fake"
shape = ["8x8", "16x16"]
generations = 1
params = { threads = [1, 2] }
"""


class Resume(lbtest.CliTestCase):
    def setUp(self):
        super().setUp()
        self.fake = self.box.add_fake("fake")

    def bench(self, text, *args):
        path = self.box.write("sweep.toml", text)
        return self.box.run("bench", "--sweep", path, "--out", "out", *args)

    def bench_ok(self, text, *args):
        """bench, which must succeed: what it said otherwise is the failure's message."""
        proc = self.bench(text, *args)
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        return proc

    def ids(self):
        return [c["config_id"] for c in self.box.results("out", "fake")["configurations"]]

    def test_resume_skips_done_configurations(self):
        self.assertEqual(self.bench(SWEEP).returncode, 0)
        self.assertEqual(len(self.box.bench_calls("fake")), 4)
        with open(self.box.path("out/fake.json")) as f:
            before = json.load(f)
        proc = self.bench(SWEEP, "--resume")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(len(self.box.bench_calls("fake")), 4)  # nothing ran again
        self.assertEqual(proc.stdout.count("done earlier: ok"), 4)
        self.assertEqual(self.box.results("out", "fake"), before)
        self.assertEqual(self.box.manifest("out")["configurations"]["done"], 4)

    def test_resume_runs_new_configurations_and_keeps_old_ones(self):
        self.assertEqual(self.bench(SWEEP).returncode, 0)
        changed = SWEEP.replace('["8x8", "16x16"]', '["16x16", "32x32"]')
        proc = self.bench(changed, "--resume")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        calls = self.box.bench_calls("fake")
        self.assertEqual(len(calls), 6)
        self.assertEqual({c["problem"] for c in calls[4:]}, {"B3/S23:T32,32"})
        self.assertIn("lifebench: 4 configurations, 2 done earlier; 2 results of configurations "
                      "outside this run kept in the folder as they were; results in out",
                      proc.stdout.splitlines()[0])
        # This run's configurations in its order, then those it does not include.
        self.assertEqual(self.ids(), [
            "fake|B3/S23:T16,16|g1|threads=1", "fake|B3/S23:T16,16|g1|threads=2",
            "fake|B3/S23:T32,32|g1|threads=1", "fake|B3/S23:T32,32|g1|threads=2",
            "fake|B3/S23:T8,8|g1|threads=1", "fake|B3/S23:T8,8|g1|threads=2"])

    def test_resume_with_another_sweep_drops_no_result(self):
        # Another sweep sharing one configuration with the folder's kept that one and dropped
        # the other two from fake.json, benchmarks.json and the manifest, saying nothing.
        mine = SWEEP.replace('["8x8", "16x16"]', '["8x8", "16x16", "32x32"]').replace(
            "threads = [1, 2]", "threads = 1")
        self.assertEqual(self.bench(mine).returncode, 0)
        other = self.box.write("other.toml", mine.replace('"8x8", "16x16", "32x32"',
                                                          '"16x16", "64x64"'))
        proc = self.box.run("bench", "--sweep", other, "--out", "out", "--resume")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("lifebench: 2 configurations, 1 done earlier; 2 results of configurations "
                      "outside this run kept in the folder as they were; results in out",
                      proc.stdout.splitlines()[0])
        self.assertEqual(len(self.box.bench_calls("fake")), 4)  # 64x64 alone ran
        shapes = ["64,64", "16,16", "32,32", "8,8"]
        self.assertEqual(sorted(self.ids()),
                         sorted("fake|B3/S23:T%s|g1|threads=1" % s for s in shapes))
        manifest = self.box.manifest("out")
        self.assertEqual(manifest["configurations"],
                         {"total": 4, "done": 4, "ok": 4, "failed": 0, "unsupported": 0,
                          "unavailable": 0})
        with open(self.box.path("out/benchmarks.json")) as f:
            names = {b["name"] for b in json.load(f)["benchmarks"] if b["run_type"] == "iteration"}
        self.assertEqual(names, set(self.ids()))
        dry = self.box.run("bench", "--sweep", other, "--out", "out", "--resume", "--dry-run")
        self.assertIn("(2 done earlier) would go to out; 2 results of configurations outside "
                      "this run kept in the folder as they were;", dry.stdout)

    def edit_results(self, edit):
        """Applies `edit` to the folder's fake.json."""
        path = self.box.path(os.path.join("out", "fake.json"))
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        edit(data)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)

    def assertResumeRefused(self, *fragments):
        with open(self.box.path("out/fake.json")) as f:
            before = f.read()
        proc = self.bench(SWEEP, "--resume")
        line = self.assertOneErrorLine(proc, "cannot resume: ", *fragments)
        self.assertNotIn("json.exception", proc.stderr)
        self.assertEqual(len(self.box.bench_calls("fake")), 4)  # nothing ran
        with open(self.box.path("out/fake.json")) as f:
            self.assertEqual(f.read(), before)
        return line

    def test_resume_refuses_a_record_the_schema_does_not_describe(self):
        self.assertEqual(self.bench(SWEEP).returncode, 0)
        with open(self.box.path("out/fake.json")) as f:
            measured = f.read()

        def refused(edit, *fragments):
            with open(self.box.path("out/fake.json"), "w") as f:
                f.write(measured)
            self.edit_results(edit)
            self.assertResumeRefused("out/fake.json: configurations[0].", *fragments)

        def weird(data):  # was kept as done
            data["configurations"][0]["status"] = "weird"
            del data["configurations"][0]["timing"]
        refused(weird, "status", '"weird"', "results.schema.json")
        # Was a raw [json.exception.type_error.302] naming no file.
        refused(lambda data: data["configurations"][0].update(binary_hash=12),
                "binary_hash", "(found 12)")
        refused(lambda data: data["configurations"][0].update(generations="1"),
                "generations", '(found "1")')

    def test_resume_refuses_one_configuration_recorded_twice(self):
        self.assertEqual(self.bench(SWEEP).returncode, 0)
        copy = self.box.path(os.path.join("out", "copy.json"))
        with open(self.box.path("out/fake.json")) as f:
            data = json.load(f)
        data["experiment"] = "other"
        with open(copy, "w") as f:
            json.dump(data, f)
        self.assertResumeRefused("copy.json and ", "fake.json both hold configuration "
                                 "'fake|B3/S23:T8,8|g1|threads=1': keep one of them")
        data["experiment"] = "fake"
        data["configurations"] = []
        with open(copy, "w") as f:
            json.dump(data, f)
        self.assertResumeRefused("both hold the results of experiment 'fake'")
        os.remove(copy)
        self.edit_results(lambda data: data["configurations"].append(data["configurations"][0]))
        self.assertResumeRefused("out/fake.json holds configuration 'fake|B3/S23:T8,8|g1|threads=1' "
                                 "twice")

    def test_resume_reads_schema_1_written_as_1_0(self):
        self.assertEqual(self.bench(SWEEP).returncode, 0)
        self.edit_results(lambda data: data.update(schema=1.0))
        manifest = self.box.path("out/manifest.json")
        with open(manifest) as f:
            text = f.read()
        with open(manifest, "w") as f:
            f.write(text.replace('"schema": 1,', '"schema": 1.0,'))
        proc = self.bench(SWEEP, "--resume")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertEqual(proc.stdout.count("done earlier: ok"), 4)

    def test_resume_reruns_what_a_changed_binary_measured(self):
        self.assertEqual(self.bench(SWEEP).returncode, 0)
        old_hash = self.box.results("out", "fake")["configurations"][0]["binary_hash"]
        with open(self.fake, "a") as f:
            f.write("# rebuilt\n")
        proc = self.bench(SWEEP, "--resume")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # The first line says why nothing was kept.
        self.assertIn("4 configurations, 4 to measure again (the binaries of fake changed);",
                      proc.stdout.splitlines()[0])
        self.assertEqual(len(self.box.bench_calls("fake")), 8)
        hashes = {c["binary_hash"] for c in self.box.results("out", "fake")["configurations"]}
        self.assertEqual(len(hashes), 1)
        self.assertNotEqual(hashes.pop(), old_hash)

    def test_resume_says_nothing_of_what_cannot_run_now(self):
        self.assertEqual(self.bench(SWEEP).returncode, 0)
        self.box.add_fake("fake", available=False, reason="no device")
        with open(self.fake, "a") as f:  # and rebuilt
            f.write("# rebuilt\n")
        proc = self.bench(SWEEP, "--resume")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(self.box.bench_calls("fake")[4:], [])
        self.assertIn("lifebench: 4 configurations; results in out", proc.stdout.splitlines()[0])

    def test_resume_counts_what_it_keeps_and_what_it_measures_again(self):
        two = SWEEP.replace('["8x8", "16x16"]', '"8x8"') + SWEEP.replace('["8x8", "16x16"]',
                                                                          '"16x16"')
        self.assertEqual(self.bench(two).returncode, 0)
        proc = self.bench(two + "repetitions = 7\n", "--resume")  # the second run's
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("lifebench: 4 configurations, 2 done earlier, 2 to measure again; ",
                      proc.stdout.splitlines()[0])

    def test_resume_reruns_what_fewer_repetitions_another_target_or_warmup_measured(self):
        self.bench_ok(SWEEP + "repetitions = 3\n")
        # At least the repetitions asked now, at the same target: the results stand.
        self.bench_ok(SWEEP + "repetitions = 2\n", "--resume")
        self.assertEqual(len(self.box.bench_calls("fake")), 4)
        more = SWEEP + "repetitions = 5\n"
        proc = self.bench_ok(more, "--resume")
        self.assertIn("4 configurations, 4 to measure again;", proc.stdout.splitlines()[0])
        self.assertEqual(len(self.box.bench_calls("fake")), 8)
        tighter = more + "target_rel_ci = 0.005\n"
        self.bench_ok(tighter, "--resume")
        self.assertEqual(len(self.box.bench_calls("fake")), 12)
        colder = tighter + "warmup = 0\n"
        self.bench_ok(colder, "--resume")
        self.assertEqual(len(self.box.bench_calls("fake")), 16)
        self.bench_ok(colder, "--resume")
        self.assertEqual(len(self.box.bench_calls("fake")), 16)
        timings = {(c["timing"]["repetitions"], c["timing"]["warmup"],
                    c["timing"]["target_rel_ci"])
                   for c in self.box.results("out", "fake")["configurations"]}
        self.assertEqual(timings, {(5, 0, 0.005)})

    def test_resume_records_the_current_ties(self):
        tied = SWEEP + 'table = "fujita2017-table1"\nrow = "CPU"\ncolumn = "word-per-cell"\n'
        self.assertEqual(self.bench(tied).returncode, 0)
        retied = tied.replace('row = "CPU"', 'row = "GPU"').replace(
            '"word-per-cell"', '["word-per-cell", "bit-per-cell"]')
        self.assertEqual(self.bench(retied, "--resume").returncode, 0)
        self.assertEqual(len(self.box.bench_calls("fake")), 4)  # nothing ran again
        ties = [c["ties"] for c in self.box.results("out", "fake")["configurations"]]
        self.assertEqual(ties, [[{"table": "fujita2017-table1", "row": "GPU",
                                  "column": "word-per-cell"},
                                 {"table": "fujita2017-table1", "row": "GPU",
                                  "column": "bit-per-cell"}]] * 4)
        self.assertEqual(self.bench(SWEEP, "--resume").returncode, 0)
        ties = [c["ties"] for c in self.box.results("out", "fake")["configurations"]]
        self.assertEqual(ties, [[]] * 4)

    def test_resume_rewrites_an_old_tag_as_ties(self):
        self.assertEqual(self.bench(SWEEP).returncode, 0)
        path = self.box.path(os.path.join("out", "fake.json"))
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        for c in data["configurations"]:  # as results were written before ties
            del c["ties"]
            c["tag"] = {"table": "fujita2017-table1", "row": "CPU", "column": "word-per-cell"}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f)
        tied = SWEEP + 'ties = [{ table = "t", row = "r", column = "c" }]\n'
        self.assertEqual(self.bench(tied, "--resume").returncode, 0)
        self.assertEqual(len(self.box.bench_calls("fake")), 4)  # nothing ran again
        for c in self.box.results("out", "fake")["configurations"]:
            self.assertNotIn("tag", c)
            self.assertEqual(c["ties"], [{"table": "t", "row": "r", "column": "c"}])

    def test_resume_that_fails_to_write_keeps_earlier_results(self):
        self.assertEqual(self.bench(SWEEP).returncode, 0)
        before = self.box.results("out", "fake")
        # The longest name an executable can have: its results file fits in a folder,
        # the temporary it is written through does not. The write after "fake.json" fails.
        long_name = "z" * (255 - len("lifebench-exp-"))
        self.box.add_fake(long_name)
        proc = self.bench(SWEEP + SWEEP.replace('"fake"', '"%s"' % long_name), "--resume")
        self.assertOneErrorLine(proc, long_name)
        self.assertEqual(len(self.box.bench_calls("fake")), 4)
        self.assertEqual(self.box.results("out", "fake"), before)

    def test_resume_keeps_failures_but_retries_unavailable(self):
        text = SWEEP.replace("threads = [1, 2]", 'mode = ["ok", "crash"]')
        self.box.add_fake("fake", available=False, reason="no device")
        self.assertEqual(self.bench(text).returncode, 0)
        self.assertEqual(self.box.bench_calls("fake"), [])
        self.box.add_fake("fake")  # the device is back; the same program
        proc = self.bench(text, "--resume")
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(len(self.box.bench_calls("fake")), 4)
        # Results of an unavailable experiment were never measurements to measure again.
        self.assertNotIn("to measure again", proc.stdout.splitlines()[0])
        proc = self.bench(text, "--resume")
        self.assertEqual(len(self.box.bench_calls("fake")), 4)  # the crashes are kept
        self.assertEqual(proc.stdout.count("done earlier: FAILED: killed by signal 11"), 2)

    def test_resume_in_a_folder_that_is_not_a_results_folder(self):
        self.box.write("out/notes.txt", "mine\n")
        self.assertOneErrorLine(self.bench(SWEEP, "--resume"), "no manifest.json")

    def test_resume_with_no_folder_starts_afresh(self):
        self.assertEqual(self.bench(SWEEP, "--resume").returncode, 0)
        self.assertEqual(len(self.ids()), 4)

    def test_interrupted_sweep_keeps_finished_work(self):
        text = ('[[run]]\nexperiment = "fake"\nshape = "8x8"\ngenerations = 1\n'
                'params = { mode = ["ok", "hang", "unsupported"] }\n')
        path = self.box.write("sweep.toml", text)
        proc = self.box.interrupt("bench", "--sweep", path, "--out", "out",
                                  when=os.path.join(self.box.experiments, "fake.grandchild"))
        self.assertEqual(proc.returncode, 130, proc.stdout + proc.stderr)
        self.assertIn("interrupted", proc.stderr)
        self.assertIn("--resume", proc.stderr)
        manifest = self.box.manifest("out")
        self.assertIsNone(manifest["finished"])
        self.assertEqual(manifest["configurations"]["done"], 1)
        self.assertEqual(self.ids(), ["fake|B3/S23:T8,8|g1|mode=ok"])
        self.assertEqual(sorted(os.listdir(self.box.path("out"))),
                         ["benchmarks.json", "fake.json", "manifest.json"])
        with open(os.path.join(self.box.experiments, "fake.grandchild")) as f:
            grandchild = int(f.read())
        self.assertTrue(lbtest.wait_until_gone(grandchild), "the experiment's child outlived it")

        proc = self.box.run("bench", "--sweep", path, "--out", "out", "--resume",
                            "--time-limit", "1")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertEqual([c["params"]["mode"] for c in self.box.bench_calls("fake")],
                         ["ok", "hang", "hang", "unsupported"])
        statuses = [c["status"] for c in self.box.results("out", "fake")["configurations"]]
        self.assertEqual(statuses, ["ok", "failed", "unsupported"])
        self.assertIsNotNone(self.box.manifest("out")["finished"])

    def test_resume_for_other_experiments_keeps_the_folder_whole(self):
        self.box.add_fake("other")
        two = SWEEP + SWEEP.replace('"fake"', '"other"').replace("threads = [1, 2]",
                                                                  'mode = ["ok", "exit3"]')
        self.assertEqual(self.bench(two, "--impl", "other").returncode, 1)  # exit3 fails
        with open(self.box.path("out/other.json")) as f:
            other_before = f.read()
        proc = self.bench(two, "--resume", "--impl", "fake")
        # This run's configurations decide the exit code and the last line; the other
        # experiment's failure is not this run's.
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn("4 configurations in", proc.stdout)
        self.assertIn(": 4 ok, 0 failed,", proc.stdout)
        with open(self.box.path("out/other.json")) as f:
            self.assertEqual(f.read(), other_before)  # untouched
        manifest = self.box.manifest("out")
        self.assertEqual(sorted(manifest["experiments"]), ["fake", "other"])
        self.assertEqual(manifest["configurations"],
                         {"total": 8, "done": 8, "ok": 6, "failed": 2, "unsupported": 0,
                          "unavailable": 0})
        with open(self.box.path("out/benchmarks.json")) as f:
            names = {b["name"].split("|")[0] for b in json.load(f)["benchmarks"]}
        self.assertEqual(names, {"fake", "other"})


if __name__ == "__main__":
    lbtest.main()
