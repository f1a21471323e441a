"""The synthetic results the report tests run on (synthetic.py) against
harness/results.schema.json, the one description of the results format; the report reads a
file only once it validates, and refuses one that does not in one line naming the file and
the place in it.

python3 tests/report/test_schema.py [-v]
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "reports"))

import synthetic  # noqa: E402
from lifebench_report import schema  # noqa: E402
from lifebench_report.errors import ReportError  # noqa: E402

SCHEMA = ROOT / "harness" / "results.schema.json"


class SyntheticResults(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="lifebench-schema-test-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.folder = synthetic.standard_run(self.tmp / "results")

    def test_the_package_reads_the_harness_schema(self):
        self.assertEqual(schema.SCHEMA_FILE.read_bytes(), SCHEMA.read_bytes())

    def test_the_schema_is_a_valid_json_schema(self):
        import jsonschema

        jsonschema.Draft202012Validator.check_schema(json.loads(SCHEMA.read_text()))

    def test_every_synthetic_file_validates(self):
        files = sorted(self.folder.glob("*.json"))
        self.assertGreater(len(files), 5)
        for file in files:
            kind = "manifest" if file.name == "manifest.json" else "experiment_results"
            with self.subTest(file=file.name):
                schema.check(file, json.loads(file.read_text()), kind)

    def test_what_the_schema_refuses(self):
        def refused(change, where, message, kind="experiment_results"):
            file = self.folder / ("manifest.json" if kind == "manifest" else "cpu-bpbc.json")
            data = json.loads(file.read_text())
            change(data)
            with self.assertRaises(ReportError) as caught:
                schema.check(file, data, kind)
            text = str(caught.exception)
            self.assertIn(f"{file}: {where}: {message}", text)
            self.assertNotIn("\n", text)

        first = lambda data: data["configurations"][0]  # noqa: E731
        refused(lambda d: first(d).pop("throughput"), "configurations[0]",
                "'throughput' is a required property")
        refused(lambda d: first(d).update(colour="red"), "configurations[0]",
                "Additional properties are not allowed ('colour' was unexpected)")
        refused(lambda d: first(d).update(boundary="klein"), "configurations[0].boundary",
                "'klein' is not one of ['torus', 'dead']")
        refused(lambda d: first(d)["timing"].update(seconds=["1"]),
                "configurations[0].timing.seconds[0]", "'1' is not of type 'number'")
        refused(lambda d: first(d)["device"].update(sm_count=132),
                "configurations[0].device.sm_count", "132 is not of type 'string'")
        refused(lambda d: first(d).update(reason="x"), "configurations[0].reason",
                "'x' is not of type 'null'")
        refused(lambda d: d["configurations"][1].update(reason=None), "configurations[1].reason",
                "None is not of type 'string'")
        refused(lambda d: d.update(schema=2), "schema", "1 was expected")
        refused(lambda d: d["build"].pop("git_commit"), "build", "'git_commit' is a required",
                kind="manifest")
        refused(lambda d: d["configurations"].update(done=-1), "configurations.done",
                "-1 is less than the minimum of 0", kind="manifest")

    def test_the_generator_refuses_a_result_in_one_line(self):
        file = self.folder / "cpu-bpbc.json"
        data = json.loads(file.read_text())
        data["configurations"][0]["timing"]["median_s"] = "fast"
        file.write_text(json.dumps(data))
        proc = subprocess.run(
            [sys.executable, str(ROOT / "reports" / "generate.py"), "--results", self.folder,
             "--out", self.tmp / "report"], capture_output=True, text=True, timeout=300)
        self.assertNotEqual(proc.returncode, 0)
        self.assertEqual(proc.stderr.strip().splitlines(), [
            f"lifebench-report: error: {file}: configurations[0].timing.median_s: 'fast' is not "
            "of type 'number' (harness/results.schema.json)"])
        self.assertFalse((self.tmp / "report").exists())


if __name__ == "__main__":
    unittest.main()
