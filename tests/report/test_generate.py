#!/usr/bin/env python3
"""Unit tests of the report generator (reports/generate.py) on synthetic results.

python3 tests/report/test_generate.py [-v]
"""

from __future__ import annotations

import csv
import json
import math
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "reports"))

import dom  # noqa: E402
import synthetic  # noqa: E402
from lifebench_report import (  # noqa: E402
    bounds,
    cells,
    figures,
    models,
    results,
    table_page,
    tables,
    units,
)
from lifebench_report.errors import ReportError  # noqa: E402

GENERATOR = ROOT / "reports" / "generate.py"
TABLES = ROOT / "reports" / "tables"
PREFIX = "lifebench-report: error: "


def run_generator(*args: str | Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(GENERATOR), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=300,
    )


def cell(root: dom.Node, kind: str, row: str, column: str) -> dom.Node:
    found = root.find("td", data_kind=kind, data_row=row, data_col=column)
    if found is None:
        raise AssertionError(f"no {kind} cell {row} / {column}")
    return found


class TempDir(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="lifebench-report-test-"))
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def write_table(self, text: str, name: str = "t.toml") -> Path:
        folder = self.tmp / "tables"
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))
        return folder

    def shipped_tables(self, *stems: str) -> Path:
        """A folder of only the shipped tables a test reads: the generator draws a plot of
        every table it is given, a second or more each."""
        folder = self.tmp / "shipped-tables"
        folder.mkdir(exist_ok=True)
        for stem in stems:
            shutil.copy(TABLES / f"{stem}.toml", folder)
        return folder

    def one_table(self) -> Path:
        """Fujita's table 1 alone, for what a report does with any table (fewer plots)."""
        return self.shipped_tables("fujita2017-table1")

    def assert_one_line_error(self, proc: subprocess.CompletedProcess, *needles: str):
        self.assertNotEqual(proc.returncode, 0, proc.stdout)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, f"expected one error line, got:\n{proc.stderr}")
        self.assertTrue(lines[0].startswith(PREFIX), lines[0])
        for needle in needles:
            self.assertIn(needle, lines[0])


MS_TABLE = """\
    title = "3D life, times"
    unit = "ms"
    [source]
    seed = "001_40e87a320ecadc3a.txt"
    table = "L40"
    [problem]
    rule = "B6/S567/3D"
    shape = "256x256x256"
    boundary = "torus"
    generations = 2048
    any_generations = "one generation per launch"
    [hardware]
    gpu = "NVIDIA L40"
    [[columns]]
    name = "256/2048"
    [[columns]]
    name = "512/1024"
    problem = { shape = "512x512x512", generations = 1024 }
    [[rows]]
    name = "v0"
    hardware = "gpu"
    published = [473, 2137]
    [[rows]]
    name = "v2"
    hardware = "gpu"
    published = [51, "-"]
    [[rows]]
    name = "v2 over v0"
    ratio = ["v0", "v2"]
    published = [9.27, "-"]
"""


class UnitsTest(unittest.TestCase):
    def test_three_significant_digits(self):
        cases = {
            0.298: "0.298",
            7.71: "7.71",
            10.9: "10.9",
            478: "478",
            1990: "1990",
            62: "62.0",
            0.3: "0.300",
            1234567: "1.23e6",
            999.6: "1000",
            0.00012345: "1.23e-4",
            0: "0",
            66.666: "66.7",
            12345: "12300",
            float("nan"): "n/a",
        }
        for value, text in cases.items():
            self.assertEqual(units.fmt3(value), text, value)

    def test_conversions(self):
        kw = dict(bytes_per_second=None, cells=1000, generations=10)
        self.assertAlmostEqual(
            units.convert("updates/s", 1e9, cell_updates_per_second=5e9, **kw), 5.0
        )
        # 1000 cells x 10 generations at 1e6 updates/s = 0.01 s = 10 ms
        self.assertAlmostEqual(units.convert("ms", 1, cell_updates_per_second=1e6, **kw), 10.0)
        self.assertAlmostEqual(
            units.convert("us/gen", 1, cell_updates_per_second=1e6, **kw), 1000.0
        )
        self.assertAlmostEqual(units.convert("FPS", 1, cell_updates_per_second=1e6, **kw), 1000.0)
        with self.assertRaises(units.NotConvertible):
            units.convert("B/s", 1e9, cell_updates_per_second=1e6, **kw)
        self.assertAlmostEqual(
            units.convert(
                "B/s",
                1e9,
                cell_updates_per_second=1e6,
                bytes_per_second=5e11,
                cells=1,
                generations=1,
            ),
            500.0,
        )

    def test_fractions_of_measured_ceilings(self):
        kw = dict(cells=1, generations=1)
        device = {"copy_bandwidth_measured_gb_per_s": "2500", "lop3_per_s_measured": "1.6e13"}
        self.assertAlmostEqual(
            units.convert(
                "%copy", 1, cell_updates_per_second=1, bytes_per_second=2e12, device=device, **kw
            ),
            80.0,
        )
        # 4e13 updates/s x 0.25 instructions per update = 1e13 of 1.6e13 instructions/s
        device["instructions_per_cell_update"] = "0.25"
        self.assertAlmostEqual(
            units.convert(
                "%lop3", 1, cell_updates_per_second=4e13, bytes_per_second=None, device=device, **kw
            ),
            62.5,
        )
        for missing in ({}, {"lop3_per_s_measured": "x", "instructions_per_cell_update": "1"}):
            with self.assertRaises(units.NotConvertible):
                units.convert(
                    "%lop3",
                    1,
                    cell_updates_per_second=1,
                    bytes_per_second=None,
                    device=missing,
                    **kw,
                )
        with self.assertRaises(units.NotConvertible):
            units.convert("%copy", 1, cell_updates_per_second=1, bytes_per_second=1, **kw)

    def test_labels(self):
        self.assertEqual(units.unit_label("updates/s", 1e9), "10^9 updates/s")
        self.assertEqual(units.unit_label("ms", 1), "ms")


class TablesTest(TempDir):
    def test_shipped_tables_load_and_their_ratio_rows_agree(self):
        loaded = tables.load_tables(TABLES)
        self.assertIn("fujita2017-table1", [t.stem for t in loaded])
        for table in loaded:
            for row in table.rows:
                if not row.ratio:
                    continue
                num, den = table.row(row.ratio[0]), table.row(row.ratio[1])
                for column in table.columns:
                    a, b, r = (table.published(x, column) for x in (num, den, row))
                    if None not in (a, b, r):
                        self.assertTrue(
                            math.isclose(a / b, r, rel_tol=0.01),
                            f"{table.stem}: {row.name} / {column.name}: {a}/{b} != {r}",
                        )

    def test_fujita_table_1(self):
        t = tables.load_table(TABLES / "fujita2017-table1.toml")
        self.assertEqual(
            [c.name for c in t.columns],
            ["word-per-cell", "SINGLE-WORD", "DOUBLE-WORD", "DOUBLE / SINGLE"],
        )
        self.assertEqual(
            [r.published for r in t.rows],
            [[0.298, 7.71, 10.9, None], [14.8, 478, 398, None], [49.7, 62.0, 36.5, None]],
        )
        self.assertEqual(t.rows[2].ratio, ("GPU", "CPU"))
        self.assertEqual((t.unit, t.scale, t.label), ("updates/s", 1e9, "10^9 updates/s"))
        p = t.cell_problem(t.rows[0], t.columns[0])
        self.assertEqual(
            (p.golly(), p.generations, p.cells), ("B3/S23:T16384,16384", 1024, 16384**2)
        )

    def test_fujita_table_3(self):
        t = tables.load_table(TABLES / "fujita2017-table3.toml")
        self.assertEqual([c.name for c in t.columns], synthetic.TABLE3_COLUMNS)
        self.assertEqual([r.name for r in t.rows][:5], ["1K", "2K", "4K", "8K", "16K"])
        row = t.row("8K")
        self.assertEqual(
            [(t.cell_unit(row, c)[:2], t.cell_phase(row, c)) for c in t.columns],
            [
                (("s", 1.0), "read"),
                (("s", 1.0), "write"),
                (("s", 1.0), "simulate"),
                (("s", 1.0), None),
                (("updates/s", 1e9), None),
            ],
        )
        self.assertEqual(row.published, [310, 170, 2860, 3340, 1350])
        self.assertEqual(t.row("CPU (T=128, DOUBLE-WORD)").published, [None] * 4 + [13.4])
        p = t.cell_problem(row, t.columns[0])
        self.assertEqual((p.golly(), p.generations), ("B3/S23:T524288,524288", 16384))
        for r in t.rows[:5]:  # the published rate is the published total's
            total, rate = r.published[3], r.published[4]
            self.assertTrue(math.isclose(p.cells * p.generations / total / 1e9, rate, rel_tol=0.01))

    def test_phase_needs_a_time_unit(self):
        cases = (
            (MS_TABLE.replace('name = "256/2048"', 'name = "256/2048"\n    phase = "read"'), None),
            (
                MS_TABLE.replace('name = "256/2048"', 'name = "256/2048"\n    phase = "read"')
                .replace('unit = "ms"', 'unit = "FPS"'),
                "phase 'read' needs a time unit (s, ms, us), the cell is in 'FPS'",
            ),
            (
                MS_TABLE.replace('name = "256/2048"', 'name = "256/2048"\n    phase = "read"')
                .replace('name = "v2"', 'name = "v2"\n    unit = "updates/s"'),
                "the cell is in 'updates/s'",  # the row's unit, as for any cell
            ),
            (
                MS_TABLE.replace('name = "256/2048"', 'name = "256/2048"\n    phase = "read"')
                .replace('name = "v2"', 'name = "v2"\n    phase = "write"'),
                "phase: set either on rows or on columns",
            ),
            (
                MS_TABLE.replace('ratio = ["v0", "v2"]', 'ratio = ["v0", "v2"]\n    phase = "x"'),
                "takes no 'phase'",
            ),
            (MS_TABLE.replace('name = "v2"', 'name = "v2"\n    phase = ""'), "non-empty string"),
        )
        for text, needle in cases:
            with self.subTest(needle=needle):
                path = self.write_table(text) / "t.toml"
                if needle is None:
                    t = tables.load_table(path)
                    self.assertEqual(t.cell_phase(t.row("v2"), t.column("256/2048")), "read")
                    self.assertIsNone(t.cell_phase(t.row("v2"), t.column("512/1024")))
                    continue
                with self.assertRaises(ReportError) as caught:
                    tables.load_table(path)
                self.assertIn(needle, str(caught.exception))
                self.assertIn(str(path), str(caught.exception))

    def test_readme_examples_are_valid_tables(self):
        text = (ROOT / "reports" / "README.md").read_text().split("### More examples", 1)[1]
        text = text.split("\n## ", 1)[0].split("\n### ", 1)[0]
        complete = [b.split("```", 1)[0] for b in text.split("```toml\n")[1:]]
        self.assertEqual(len(complete), 2)
        for i, block in enumerate(complete):
            with self.subTest(example=i):
                table = tables.load_table(
                    self.write_table(block, f"example{i}.toml") / f"example{i}.toml"
                )
                self.assertTrue(table.rows and table.columns)

    def test_unknown_field_is_a_clear_error(self):
        for bad, field in (
            (MS_TABLE.replace('title = "3D', 'titel = "x"\n    title = "3D'), "titel"),
            (MS_TABLE.replace('name = "v0"', 'name = "v0"\n    publshed = [1, 2]'), "publshed"),
            (MS_TABLE.replace('boundary = "torus"', 'boundry = "torus"'), "boundry"),
        ):
            with self.subTest(field=field):
                folder = self.write_table(bad)
                proc = run_generator(
                    "--results", self.tmp / "none", "--tables", folder, "--out", self.tmp / "out"
                )
                self.assert_one_line_error(proc, f"unknown field '{field}'", "t.toml")
                self.assertFalse((self.tmp / "out").exists())

    def test_other_table_errors(self):
        cases = (
            (MS_TABLE.replace("published = [473, 2137]", "published = [473]"), "one per column"),
            (MS_TABLE.replace('ratio = ["v0", "v2"]', 'ratio = ["v0", "v9"]'), "no row named 'v9'"),
            (MS_TABLE.replace('unit = "ms"', 'unit = "parsecs"'), "unknown unit"),
            (
                MS_TABLE.replace('hardware = "gpu"', 'hardware = "tpu"', 1),
                "not a key of [hardware]",
            ),
            (MS_TABLE.replace('shape = "256x256x256"', 'shape = "big"'), "WxH"),
            (
                MS_TABLE.replace('published = [51, "-"]', 'published = [51, "n/a"]'),
                "expected a number",
            ),
            (MS_TABLE + '[[rows]]\nname = "v0"\npublished = [1, 2]\n', "duplicate name"),
            ("title = [", "invalid TOML"),
        )
        for text, needle in cases:
            with self.subTest(needle=needle):
                path = self.write_table(text) / "t.toml"
                with self.assertRaises(ReportError) as caught:
                    tables.load_table(path)
                self.assertIn(needle, str(caught.exception))
                self.assertIn(str(path), str(caught.exception))


def measured(table: tables.Table, rows: list[dict]) -> cells.TableView:
    folder = Path(tempfile.mkdtemp(prefix="lifebench-report-test-"))
    try:
        synthetic.write_run(folder, rows)
        return cells.table_view(table, results.load_runs([folder]))
    finally:
        shutil.rmtree(folder)


class CompareTest(TempDir):
    def setUp(self):
        super().setUp()
        self.fujita = tables.load_table(TABLES / "fujita2017-table1.toml")

    def test_ratio_row_and_ratio_to_published_are_computed_from_measurements(self):
        view = measured(
            self.fujita,
            [
                synthetic.result("a", rate=0.5e9, tie=("CPU", "word-per-cell")),
                synthetic.result("b", rate=30e9, tie=("GPU", "word-per-cell")),
            ],
        )
        grid_cells = view.grids[0].cells
        cpu, gpu, speedup = (grid_cells[(r, "word-per-cell")] for r in ("CPU", "GPU", "speed-up"))
        self.assertAlmostEqual(cpu.value, 0.5)
        self.assertAlmostEqual(gpu.value, 30.0)
        self.assertEqual(speedup.status, cells.PASSED)
        self.assertAlmostEqual(speedup.value, 60.0)  # measured GPU / measured CPU, not typed in
        self.assertAlmostEqual(speedup.ratio, 60.0 / 49.7)
        self.assertAlmostEqual(cpu.ratio, 0.5 / 0.298)
        self.assertTrue(cpu.better)
        other = view.grids[0].cells[("speed-up", "SINGLE-WORD")]
        self.assertEqual(other.status, cells.NOT_RUN)
        self.assertIsNone(other.value)
        self.assertIn("needs GPU and CPU", other.reason)

    def test_best_verified_of_several(self):
        view = measured(
            self.fujita,
            [
                synthetic.result("a", rate=2e9, tie=("CPU", "SINGLE-WORD")),
                synthetic.result("a", rate=9e9, tie=("CPU", "SINGLE-WORD"), verification="not_run"),
                synthetic.result(
                    "a",
                    status="failed",
                    first_difference=synthetic.DIFFERENCE,
                    tie=("CPU", "SINGLE-WORD"),
                ),
                synthetic.result("a", rate=3e9, tie=("CPU", "SINGLE-WORD")),
            ],
        )
        c = view.grids[0].cells[("CPU", "SINGLE-WORD")]
        self.assertEqual(c.status, cells.PASSED)
        self.assertAlmostEqual(c.value, 3.0)  # the unverified 9e9 is never shown
        self.assertIn("best of 4 configurations", c.notes[0])

    def test_failed_verification_has_no_number(self):
        view = measured(
            self.fujita,
            [
                synthetic.result(
                    "a",
                    status="failed",
                    first_difference=synthetic.DIFFERENCE,
                    tie=("GPU", "DOUBLE-WORD"),
                ),
                synthetic.result(
                    "a",
                    status="unsupported",
                    reason=synthetic.UNSUPPORTED,
                    tie=("GPU", "DOUBLE-WORD"),
                ),
            ],
        )
        c = view.grids[0].cells[("GPU", "DOUBLE-WORD")]
        self.assertEqual((c.status, c.value, c.ratio), (cells.FAILED, None, None))
        self.assertIn(synthetic.DIFFERENCE, c.reason)
        self.assertEqual(view.grids[0].cells[("speed-up", "DOUBLE-WORD")].status, cells.FAILED)

    def test_unverified_timing_has_no_number(self):
        view = measured(
            self.fujita,
            [synthetic.result("a", rate=1e9, verification="not_run", tie=("CPU", "DOUBLE-WORD"))],
        )
        c = view.grids[0].cells[("CPU", "DOUBLE-WORD")]
        self.assertEqual((c.status, c.value), (cells.UNVERIFIED, None))

    def test_not_run_reasons(self):
        view = measured(
            self.fujita,
            [
                synthetic.result(
                    "a", status="unavailable", reason="no CUDA device", tie=("GPU", "SINGLE-WORD")
                )
            ],
        )
        self.assertEqual(view.grids[0].cells[("GPU", "SINGLE-WORD")].status, cells.NOT_RUN)
        self.assertEqual(
            view.grids[0].cells[("GPU", "SINGLE-WORD")].reason, "unavailable: no CUDA device"
        )
        self.assertEqual(view.grids[0].cells[("CPU", "SINGLE-WORD")].reason, cells.NO_TIE)

    def test_one_result_fills_cells_of_two_tables(self):
        folder = self.write_table(MS_TABLE)
        self.write_table(MS_TABLE.replace('table = "L40"', 'table = "A100"'), "u.toml")
        t, u = (tables.load_table(folder / name) for name in ("t.toml", "u.toml"))
        both = synthetic.result(
            "v0",
            shape="512x512x512",
            rule="B6/S567/3D",
            generations=1024,
            rate=512**3 * 1024 / 2.0,
            ties=[("t", "v0", "512/1024"), ("u", "v0", "512/1024"), ("u", "v2", "512/1024")],
        )
        folder = self.tmp / "results"
        synthetic.write_run(folder, [both])
        runs = results.load_runs([folder])
        self.assertEqual(len(runs[0].results), 1)
        for table, rows in ((t, ["v0"]), (u, ["v0", "v2"])):
            view = cells.table_view(table, runs)
            self.assertEqual(len(view.tied), 1)
            self.assertEqual(view.stray, [])
            for row in ("v0", "v2"):
                cell = view.grids[0].cells[(row, "512/1024")]
                if row in rows:
                    self.assertAlmostEqual(cell.value, 2000.0)
                    self.assertIs(cell.chosen, runs[0].results[0])
                else:
                    self.assertEqual(cell.status, cells.NOT_RUN)

        out = self.tmp / "report"
        proc = run_generator("--results", folder, "--tables", self.tmp / "tables", "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        index = (out / "configurations.html").read_text()
        self.assertIn('<a href="t.html">t</a>: v0 / 512/1024<br><a href="u.html">u</a>: v0', index)
        page = (out / "u.html").read_text()
        self.assertIn("v0 / 512/1024 <strong>(shown)</strong><br>"
                      "v2 / 512/1024 <strong>(shown)</strong>", page)
        self.assertNotIn("t.html", page)

    def test_results_with_the_old_tag_load_as_one_tie(self):
        old = synthetic.result("a", rate=1e9, tie=("CPU", "word-per-cell"))
        del old["ties"]
        old["tag"] = {"table": synthetic.TABLE, "row": "CPU", "column": "word-per-cell"}
        untied = synthetic.result("b", rate=1e9)
        del untied["ties"]
        untied["tag"] = None
        view = measured(self.fujita, [old, untied])
        self.assertEqual([r.ties for r in view.tied],
                         [(results.Tie(synthetic.TABLE, "CPU", "word-per-cell"),)])
        self.assertAlmostEqual(view.grids[0].cells[("CPU", "word-per-cell")].value, 1.0)

    def test_malformed_ties(self):
        cases = [
            ({"ties": {"table": "t"}}, "configurations[0].ties: the object is not of type 'array'"),
            ({"ties": [{"table": "t", "row": "r"}]},
             "configurations[0].ties[0]: 'column' is a required property"),
            ({"ties": [], "tag": None}, "{'required': ['ties', 'tag']}"),
            ({"tag": "CPU"}, "configurations[0].tag: 'CPU' is not valid"),
        ]
        for change, needle in cases:
            with self.subTest(needle=needle):
                item = synthetic.result("a", rate=1e9)
                del item["ties"]
                item.update(change)
                with self.assertRaises(ReportError) as caught:
                    measured(self.fujita, [item])
                self.assertIn(needle, str(caught.exception))

    def test_stray_ties(self):
        view = measured(
            self.fujita,
            [
                synthetic.result("a", rate=1e9, tie=("TPU", "word-per-cell")),
                synthetic.result("a", rate=1e9, tie=("speed-up", "word-per-cell")),
                synthetic.result("a", rate=1e9, tie=("other-table", "CPU", "word-per-cell")),
            ],
        )
        self.assertEqual(len(view.tied), 2)
        self.assertEqual(
            [why for _, _, why in view.stray],
            [
                "the table has no row 'TPU'",
                "tied to a ratio, which is computed from the measured cells",
            ],
        )

    def test_time_units_with_per_column_problems_and_missing_values(self):
        table = tables.load_table(self.write_table(MS_TABLE) / "t.toml")
        cells = 256**3
        view = measured(
            table,
            [
                synthetic.result(
                    "v0",
                    shape="256x256x256",
                    rule="B6/S567/3D",
                    generations=16,
                    rate=cells * 2048 / 0.5,
                    tie=("t", "v0", "256/2048"),
                ),
                synthetic.result(
                    "v2",
                    shape="256x256x256",
                    rule="B6/S567/3D",
                    generations=2048,
                    rate=cells * 2048 / 0.05,
                    tie=("t", "v2", "256/2048"),
                ),
                synthetic.result(
                    "v0",
                    shape="512x512x512",
                    rule="B6/S567/3D",
                    generations=1024,
                    rate=512**3 * 1024 / 2.0,
                    tie=("t", "v0", "512/1024"),
                ),
            ],
        )
        v0, v2 = view.grids[0].cells[("v0", "256/2048")], view.grids[0].cells[("v2", "256/2048")]
        self.assertAlmostEqual(v0.value, 500.0)  # ms for the published 2048 generations
        self.assertAlmostEqual(v2.value, 50.0)
        self.assertFalse(v0.better)  # 500 ms against 473: slower
        self.assertIn("16 generations, the problem 2048 (converted to 2048)", v0.notes)
        self.assertAlmostEqual(view.grids[0].cells[("v0", "512/1024")].value, 2000.0)
        speed = view.grids[0].cells[("v2 over v0", "256/2048")]
        self.assertAlmostEqual(speed.value, 10.0)
        self.assertAlmostEqual(speed.ratio, 10.0 / 9.27)
        self.assertIsNone(view.grids[0].cells[("v2", "512/1024")].published)
        self.assertIsNone(view.grids[0].cells[("v2", "512/1024")].ratio)


TABLE3 = {"shape": "524288x524288", "generations": 16384}  # fujita2017-table3's problem


class HonestCellsTest(TempDir):
    """A cell holds only runs of its problem; its ratio also normalised to the hardware."""

    def setUp(self):
        super().setUp()
        self.fujita = tables.load_table(TABLES / "fujita2017-table1.toml")
        self.seed000 = tables.load_table(TABLES / "seed000-gpu.toml")
        self.bounds = bounds.load_bounds(synthetic.write_experiments(self.tmp / "experiments"))

    def view(self, table, items):
        folder = Path(tempfile.mkdtemp(dir=self.tmp))
        return cells.table_view(table, results.load_runs([synthetic.write_run(folder, items)]),
                               self.bounds)

    def test_another_problem_is_listed_never_compared(self):
        r = synthetic.result
        tie = ("CPU", "word-per-cell")
        view = self.view(
            self.fujita,
            [
                r("cpu-trivial", rate=0.49e9, shape="256x256", generations=256, tie=tie),
                r("cpu-trivial", rate=0.3e9, generations=32, tie=tie),  # any count: the table
            ],
        )
        c = view.grids[0].cells[tie]
        self.assertEqual(c.status, cells.PASSED)
        self.assertAlmostEqual(c.value, 0.3)
        self.assertEqual([o.shape for o in c.others], ["256x256"])
        self.assertIn("32 generations, the problem 1024", c.notes)
        self.assertEqual(c.problem.differences(c.others[0]), ["grid 256x256"])

        smaller = r("cpu-trivial", rate=0.49e9, shape="256x256", tie=tie)
        only_other = self.view(self.fujita, [smaller])
        c = only_other.grids[0].cells[tie]
        self.assertEqual((c.status, c.value, c.ratio), (cells.NOT_RUN, None, None))
        self.assertIn("no configuration of this problem is tied; 1 of other problems", c.reason)

    def test_every_key_of_the_problem_is_matched(self):
        r = synthetic.result
        tie = ("GPU", "SINGLE-WORD")
        t = self.fujita
        problem = t.cell_problem(t.row("GPU"), t.column("SINGLE-WORD"))
        dead = r("x", rate=1e9, tie=tie)
        dead["boundary"] = "dead"
        sparse = r("x", rate=1e9, tie=tie)
        sparse["config_id"] += "|density=0.001"
        sparse["density"] = 0.001
        cases = {
            "rule B36/S23": r("x", rate=1e9, rule="B36/S23", tie=tie),
            "boundary dead": dead,
            "grid 16384x8192": r("x", rate=1e9, shape="16384x8192", tie=tie),
            "soup density 0.001": sparse,
        }
        loaded = results.load_runs([synthetic.write_run(self.tmp / "k", list(cases.values()))])
        for (want, _), result in zip(cases.items(), loaded[0].results):
            self.assertEqual(problem.differences(result), [want])
        table2 = tables.load_table(TABLES / "fujita2017-table2.toml")  # no any_generations
        p2 = table2.cell_problem(table2.rows[0], table2.columns[0])
        self.assertEqual(p2.differences(loaded[0].results[0]), ["rule B36/S23"])
        fewer = results.load_runs(
            [synthetic.write_run(self.tmp / "g", [r("x", rate=1, generations=8)])]
        )
        self.assertEqual(p2.differences(fewer[0].results[0]), ["8 generations"])

    def test_a_table_without_a_published_problem_says_so(self):
        view = self.view(
            self.seed000,
            [r for r in synthetic.standard_results() if r["experiment"] == "cuda-lop3-shuffle"],
        )
        c = view.grids[0].cells[("CUDA", "A40")]
        self.assertFalse(c.problem.published)
        self.assertTrue(c.notes[0].startswith("no published problem: ours is 32768x32768, torus"))

    def test_columns_no_result_is_tied_to_are_published_only(self):
        view = self.view(self.seed000, synthetic.standard_results())
        self.assertEqual([c.name for c in view.measured_columns], ["A40"])
        counts = view.counts()
        self.assertEqual(sum(counts.values()), 8)  # A40's measured rows, not the 40 elsewhere
        html = table_page.table_page(view, None, "now")
        root = dom.parse(html)
        self.assertIsNone(root.find("td", data_kind="measured", data_col="V100"))
        self.assertIsNotNone(root.find("td", data_kind="published", data_col="V100"))
        hidden = root.find(id="published-only").text
        self.assertIn("1050 Notebook, 1080Ti, V100, 2080Ti, 7900XTX", hidden)
        nothing = self.view(self.seed000, [])
        self.assertEqual(len(nothing.measured_columns), len(self.seed000.columns))
        # Columns of algorithms (no published device) stay, "not run", however few are tied.
        one = self.view(self.fujita, [synthetic.result("a", rate=1e9, tie=("CPU", "SINGLE-WORD"))])
        self.assertEqual(one.published_only, [])
        self.assertEqual(sum(one.counts().values()), 6)
        page = dom.parse(table_page.table_page(nothing, None, "now"))
        self.assertIsNone(page.find(id="published-only"))

    def test_normalised_ratio_for_the_bound_the_readme_names(self):
        view = self.view(self.seed000, synthetic.standard_results())
        c = view.grids[0].cells[("CUDA", "A40")]
        self.assertAlmostEqual(c.value, synthetic.LOP3_SHUFFLE / 1e12)  # not the 65536^2 run
        a40 = self.seed000.hardware["a40"].ceilings["logic"].value
        n = c.normalised
        self.assertEqual(n.kind.name, "logic")
        self.assertAlmostEqual(n.ours, synthetic.H100_LOP3)
        self.assertAlmostEqual(n.value, (17.0 / 11.72) / (synthetic.H100_LOP3 / a40))
        self.assertLess(n.value, 1)  # 1.45x raw, slower than the A40 on equal hardware
        # The original program beside ours, not in its place.
        self.assertEqual(c.chosen.experiment, "cuda-lop3-shuffle")
        self.assertEqual(c.original.experiment, synthetic.ORIGINAL_NAME)
        self.assertAlmostEqual(c.original_value, synthetic.ORIGINAL / 1e12)

    def test_why_there_is_no_normalised_ratio(self):
        r = synthetic.result
        cases = (
            (r("cpu-trivial", rate=0.3e9, generations=32, tie=("CPU", "word-per-cell")),
             "the table gives no logic ceiling for Intel Core i7-4790 (3.6 GHz, the paper says "
             "3.66 GHz)"),
            (r("nameless", rate=1e9, tie=("CPU", "SINGLE-WORD")),
             "nameless's README names no bound"),
            (r("cuda-bpbc", rate=5e11, device="a GPU", tie=("GPU", "SINGLE-WORD")),
             "our memory ceiling is not recorded: the result's device records no "
             "memory_bandwidth_peak_gb_per_s"),
        )
        for item, why in cases:
            with self.subTest(why=why):
                view = self.view(self.fujita, [item])
                cell = next(c for c in view.all_cells() if c.chosen is not None)
                self.assertIsNone(cell.normalised.value)
                self.assertEqual(cell.normalised.why, why)
        (grid,) = self.view(self.fujita, [cases[0][0]]).grids
        speedup = grid.cells[("speed-up", "word-per-cell")]
        self.assertIsNone(speedup.normalised)

    def test_an_external_flag_marks_an_original_program(self):
        item = synthetic.result("blog-kernel", backend="cuda", rate=2e13, device=synthetic.H100,
                                shape="32768x32768", tie=("seed000-gpu", "CUDA", "A40"))
        item["external"] = {"description": "blog.external.toml", "program": "/usr/bin/gol",
                            "version": ""}
        view = self.view(self.seed000, [item])
        c = view.grids[0].cells[("CUDA", "A40")]
        self.assertTrue(c.chosen.external)  # alone in its cell: shown, as the original
        self.assertIsNone(c.original)

    def test_hardware_ceilings_need_a_source_and_a_unit(self):
        L40 = '[hardware]\n    gpu = "NVIDIA L40"\n'  # noqa: N806 (MS_TABLE's device)
        device = (
            '[hardware.gpu]\n    name = "NVIDIA L40"\n'
            '    logic = {{ value = 22.6e12{unit}{source} }}\n'
        )
        cases = (
            (device.format(unit="", source=', source = "L40 data sheet"'), "missing field 'unit'"),
            (device.format(unit=', unit = "instructions/s"', source=""), "missing field 'source'"),
            (device.format(unit=', unit = "B/s"', source=', source = "x"'),
             "a logic ceiling is in instructions/s, not 'B/s'"),
            (device.format(unit=', unit = "instructions/s"', source=', source = ""'),
             "non-empty string"),
            ('[hardware.gpu]\n    name = "L40"\n    flops = 1\n', "unknown field 'flops'"),
        )
        for text, needle in cases:
            with self.subTest(needle=needle):
                folder = self.write_table(MS_TABLE.replace(L40, text))
                proc = run_generator(
                    "--results", self.tmp / "none", "--tables", folder, "--out", self.tmp / "out"
                )
                self.assert_one_line_error(proc, needle, "t.toml", "hardware.gpu")
                self.assertFalse((self.tmp / "out").exists())
        good = device.format(unit=', unit = "instructions/s"', source=', source = "data sheet"')
        t = tables.load_table(self.write_table(MS_TABLE.replace(L40, good)) / "t.toml")
        self.assertEqual(t.hardware["gpu"].ceilings["logic"].source, "data sheet")

    def test_shipped_tables_give_every_ceiling_a_source_and_their_problems_honestly(self):
        for table in tables.load_tables(TABLES):
            for device in table.hardware.values():
                for kind, ceiling in device.ceilings.items():
                    self.assertIn(ceiling.unit, bounds.KINDS[kind].unit, (table.stem, device.key))
                    self.assertTrue(ceiling.source, (table.stem, device.key))
        by_stem = {t.stem: t for t in tables.load_tables(TABLES)}
        for stem in ("seed000-cpu", "seed000-gpu", "hex-attempts"):  # the sources state none
            self.assertIn("shape", by_stem[stem].problem["not_published"], stem)
        for stem in ("fujita2017-table1", "fujita2017-table2", "fujita2017-table3", "blog3d-l40"):
            self.assertNotIn("not_published", by_stem[stem].problem, stem)

    def test_bound_lines_of_the_readmes(self):
        shipped = bounds.load_bounds(ROOT / "experiments")
        self.assertEqual(shipped["cuda-lop3-shuffle"].name, "logic")
        self.assertEqual(shipped["cuda-byte-naive"].name, "memory")
        for bad in ("`flops`", "`logic`: x.\n\n**Bound.** `memory`"):
            with self.subTest(bad=bad):
                folder = self.tmp / f"e{len(bad)}"
                (folder / "x").mkdir(parents=True)
                (folder / "x" / "README.md").write_text(f"# x\n\n**Bound.** {bad}: why.\n")
                with self.assertRaises(ReportError) as caught:
                    bounds.load_bounds(folder)
                self.assertIn("must name one of logic, memory once", str(caught.exception))

    def test_fraction_of_bound(self):
        standard = synthetic.write_run(self.tmp / "f", synthetic.standard_results())
        loaded = results.load_runs([standard])
        shuffle = next(r for r in loaded[0].results if r.experiment == "cuda-lop3-shuffle")
        share = bounds.fraction(shuffle, bounds.KINDS["logic"])
        allowed = synthetic.H100_LOP3 / synthetic.LOP3_SHUFFLE_INSTRUCTIONS
        self.assertAlmostEqual(share.allowed / allowed, 1.0)
        self.assertAlmostEqual(share.value, synthetic.LOP3_SHUFFLE / allowed)
        naive = synthetic.result(
            "cuda-byte-naive", backend="cuda", rate=1e11, device=synthetic.H100,
            bytes_per_second=2e11,
        )
        run = results.load_runs([synthetic.write_run(self.tmp / "m", [naive])])[0]
        share = bounds.fraction(run.results[0], bounds.KINDS["memory"])
        self.assertAlmostEqual(share.cost, 2.0)  # bytes per cell update
        self.assertAlmostEqual(share.value, 2e11 / 2905.183471e9)
        with self.assertRaises(units.NotConvertible) as caught:
            bounds.fraction(loaded[0].results[0], bounds.KINDS["logic"])  # a CPU result
        self.assertIn("records none of lop3_per_s_measured, vector_logic_per_s_measured",
                      str(caught.exception))
        # A CPU result that records its threads' vector logic rate has a logic fraction.
        blocked = synthetic.result("cpu-blocked", rate=1.2e12, params={"threads": "16"},
                                   instructions=12 / 512)
        blocked["device"]["vector_logic_per_s_measured"] = "8e10"
        run = results.load_runs([synthetic.write_run(self.tmp / "c", [blocked])])[0]
        share = bounds.fraction(run.results[0], bounds.KINDS["logic"])
        allowed = 8e10 * 512 / 12
        self.assertAlmostEqual(share.allowed / allowed, 1.0, places=4)  # 6 digits recorded
        self.assertAlmostEqual(share.value / (1.2e12 / allowed), 1.0, places=4)

    def test_a_cpu_is_one_line_of_the_roofline_at_its_highest_ceiling(self):
        from unittest import mock

        from lifebench_report import plots

        def blocked(threads: str, ceiling: str, rate: float) -> dict:
            item = synthetic.result("cpu-blocked", rate=rate, params={"threads": threads},
                                    instructions=12 / 512)
            item["device"]["vector_logic_per_s_measured"] = ceiling
            return item

        run = results.load_runs([synthetic.write_run(
            self.tmp / "threads", [blocked("1", "5e9", 1e11), blocked("16", "4e10", 1e12),
                                   blocked("4", "2e10", 4e11)])])
        drawn: dict[str, float] = {}
        with mock.patch.object(plots, "_roofline_panel",
                               lambda ax, kind, points, lines: drawn.update(lines)):
            plots.roofline_plot("square", run, {"cpu-blocked": bounds.KINDS["logic"]},
                                self.tmp / "roofline.png")
        self.assertEqual(drawn, {f"{synthetic.CPU}, 16 threads": 4e10})

    def test_a_gpu_and_a_cpu_have_logic_panels_of_their_own(self):
        from unittest import mock

        from lifebench_report import plots

        cpu = synthetic.result("cpu-blocked", rate=1e12, params={"threads": "16"},
                               instructions=12 / 512)
        cpu["device"].update(vector_logic_per_s_measured="4e10", hwy_target="AVX3_DL")
        gpu = synthetic.result("cuda-lop3", backend="cuda", rate=1e13, device=synthetic.H100,
                               instructions=0.5)
        run = results.load_runs([synthetic.write_run(self.tmp / "both", [cpu, gpu])])
        titles = []
        with mock.patch.object(plots, "_roofline_panel",
                               lambda ax, text, points, lines: titles.append(text)):
            plots.roofline_plot("square", run, {"cpu-blocked": bounds.KINDS["logic"],
                                                "cuda-lop3": bounds.KINDS["logic"]},
                                self.tmp / "roofline.png")
        self.assertEqual(
            [x for _, x in titles],
            ["32-bit LOP3 instructions per cell update",
             "512-bit AVX3_DL vector instructions per cell update"],
        )

    def test_published_ratios_are_charted_when_the_table_publishes_only_those(self):
        from lifebench_report import plots

        findings = tables.load_table(TABLES / "hex-findings.toml")
        items = [
            synthetic.result(experiment, rate=rate, shape="1024x1024", generations=100,
                             rule="B2/S34H", tie=("hex-findings", row, "100 generations"))
            for experiment, row, rate in (("hex-cpu-serial", "serial", 1e8),
                                          ("hex-cuda-naive", "naive", 4e10))
        ]
        figure = plots.table_figure(self.view(findings, items))
        self.assertEqual(len(figure.axes), 2)  # the times, then the ratios
        ratios = figure.axes[1]
        published = [c for c in ratios.containers if c.get_label() == "published"][0]
        self.assertTrue(any(bar.get_width() > 0 for bar in published))  # published bars drawn
        import matplotlib.pyplot as plt

        plt.close(figure)

    def test_series_that_coincide_stay_apart(self):
        from unittest import mock

        from lifebench_report import figures as figs
        from lifebench_report import plots

        figure = figs.Figure(stem="f", path=self.tmp / "f.toml", title="t", x="cells",
                             y="updates/s")
        points = [figs.Point(series, x, 1e9, None) for series in ("a", "b", "c")
                  for x in (1, 2)]
        saved = []
        with mock.patch.object(plots, "_save", lambda fig, path: saved.append(fig) or (1, 1)):
            plots.figure_plot(figure, points, self.tmp / "f.png")
        lines = [line for line in saved[0].axes[0].get_lines()]
        styles = {(line.get_marker(), str(line.get_linestyle())) for line in lines}
        self.assertEqual(len(styles), 3)  # each its own marker and dashes
        self.assertGreater(lines[0].get_linewidth(), lines[2].get_linewidth())  # under, wider

    def test_bar_labels_never_overlap(self):
        from lifebench_report import plots

        seed000_cpu = tables.load_table(TABLES / "seed000-cpu.toml")
        items = [
            synthetic.result("simd-hwy", rate=rate, generations=32, params={"threads": t},
                             tie=("seed000-cpu", row, "i9-11900K"))
            for row, rate, t in (("Trivial", 0.39e9, "1"), ("SIMD", 47e9, "1"),
                                 ("SIMD Multi-threaded", 290e9, "16"),
                                 ("ours: cpu-blocked", 1.05e12, "16"),
                                 ("Packed Nibbles", 4.4e9, "1"), ("Packed Bits", 6.6e9, "1"))
        ]
        figure = plots.table_figure(self.view(seed000_cpu, items))
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        ax = figure.axes[0]
        boxes = [t.get_window_extent(renderer) for t in ax.texts]
        boxes += [t.get_window_extent(renderer) for t in ax.get_yticklabels() if t.get_text()]
        self.assertGreater(len(ax.texts), 15)
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                self.assertFalse(a.overlaps(b), (a, b))
        import matplotlib.pyplot as plt

        plt.close(figure)


class PhaseTest(TempDir):
    def setUp(self):
        super().setUp()
        self.table = tables.load_table(TABLES / "fujita2017-table3.toml")

    def test_phase_cells_are_their_share_of_the_converted_time(self):
        standard = synthetic.standard_results()
        view = measured(self.table, [r for r in standard if r["experiment"] == "cuda-outofcore"])
        for (row, column), (status, value, text) in synthetic.PHASES_EXPECT.items():
            with self.subTest(cell=(row, column)):
                c = view.grids[0].cells[(row, column)]
                self.assertEqual(c.status, status)
                if value is None:
                    self.assertIsNone(c.value)
                    self.assertIn(text, c.reason)
                    self.assertTrue(c.reason.startswith("not measurable in s: "), c.reason)
                else:
                    self.assertAlmostEqual(c.value / value, 1.0)
                    if text != "verified":  # the page's word for a passed cell, not a note
                        self.assertIn(text, c.notes)
        read = view.grids[0].cells[("8K", "SSD read")]
        self.assertAlmostEqual(read.ratio, read.value / 310)
        self.assertTrue(read.better)  # about 300 s against 310: faster
        self.assertEqual(
            view.grids[0].cells[("CPU (T=128, DOUBLE-WORD)", "total")].reason, cells.NO_TIE
        )

    def test_a_faster_result_without_the_phase_gives_way_to_one_with_it(self):
        r = synthetic.result
        tie = [(synthetic.TABLE3, "4K", "SSD read")]
        view = measured(
            self.table,
            [
                r("x", rate=2e12, ties=tie, **TABLE3),
                r("x", rate=1e12, ties=tie, phases={"read": 0.25}, **TABLE3),
            ],
        )
        c = view.grids[0].cells[("4K", "SSD read")]
        self.assertEqual(c.status, cells.PASSED)
        self.assertAlmostEqual(c.value, 0.25 * 524288**2 * 16384 / 1e12)

    def test_storage_row_from_the_chosen_results_device(self):
        nvme = "ext4 on nvme0n1 (Samsung SSD 980 PRO 1TB, solid state)"
        sda = "xfs on sda (rotating)"

        def on(storage: str, row: str, rate: float) -> dict:
            tie = [(synthetic.TABLE3, row, "total")]
            item = synthetic.result("x", rate=rate, device=synthetic.H100, ties=tie, **TABLE3)
            item["device"]["storage"] = storage
            return item

        chosen = [on(nvme, "8K", 1e12), on(nvme, "16K", 1e12), on(sda, "4K", 2e12)]
        # A slower result of 4K is not the cell's, so its storage is not this run's.
        view = measured(self.table, [*chosen, on("tmpfs", "4K", 1e12)])
        ours = {device.key: values for device, values in view.hardware}
        self.assertEqual(ours["storage"], [sda, nvme])
        self.assertEqual(ours["gpu"], [f"{synthetic.H100} on {synthetic.MACHINE}"])
        self.assertEqual(ours["cpu"], [])  # no CPU row measured: no host is named

    def test_malformed_phases(self):
        for phases in ([1.0], {"read": -1}, {"read": "1"}):
            with self.subTest(phases=phases):
                item = synthetic.result("a", rate=1e9)
                item["timing"]["phases"] = phases
                with self.assertRaises(ReportError) as caught:
                    measured(self.table, [item])
                self.assertIn("configurations[0].timing.phases", str(caught.exception))


def generate_standard(
    tmp: Path, *more: str | Path, tables: Path = TABLES
) -> tuple[subprocess.CompletedProcess, Path]:
    """The report of the standard results (and `more` options) in tmp/report, of every
    shipped table or of those in `tables`."""
    res = synthetic.standard_run(tmp / "results")
    experiments = synthetic.write_experiments(tmp / "experiments")
    out = tmp / "report"
    return (
        run_generator(
            "--results", res, *more, "--tables", tables, "--experiments", experiments,
            "--out", out,
        ),
        out,
    )


class ReportTest(TempDir):
    @classmethod
    def setUpClass(cls):
        # The standard report with no other option, generated once: the tests that only read
        # it share it (a generation draws every table's plot, seconds each).
        shared = Path(tempfile.mkdtemp(prefix="lifebench-report-test-"))
        cls.addClassCleanup(shutil.rmtree, shared, True)
        cls.standard = generate_standard(shared)

    def generate_one_table(self, *more: str | Path) -> tuple[subprocess.CompletedProcess, Path]:
        """The standard report of Fujita's table 1 only: for what one table shows as well as
        all (each table draws a plot, seconds each)."""
        return generate_standard(self.tmp, *more, tables=self.one_table())

    def test_a_cell_lists_other_problems_and_says_where_it_was_measured(self):
        proc, out = self.standard
        self.assertEqual(proc.returncode, 0, proc.stderr)
        root = dom.parse((out / "fujita2017-table1.html").read_text())
        c = cell(root, "measured", "CPU", "word-per-cell")
        self.assertEqual(c.attrs["data-value"], "0.300")  # not the faster 256x256 run
        details = c.find("details", cls="cell")  # folded: the number stands alone
        self.assertIn("1 other problem", details.find("summary").text)
        self.assertIn("B3/S23:T256,256, 256 generations: 0.490", details.text)
        self.assertIn("cpu-trivial (threads=2)", details.text)
        self.assertIsNone(c.find(cls="note"))
        title = c.find(cls="num").attrs["title"]
        self.assertIn(f"on {synthetic.MACHINE} ({synthetic.CPU})", title)
        self.assertIn("cpu-trivial (threads=2), 3 repetitions, folder results, commit 012345678",
                      title)
        self.assertIn("other problem: grid 256x256", root.find("table", cls="configs").text)

    def test_seed000_gpu_our_device_beside_the_a40_and_the_original(self):
        proc, out = self.standard
        self.assertEqual(proc.returncode, 0, proc.stderr)
        root = dom.parse((out / "seed000-gpu.html").read_text())
        measured_grid = root.find("table", id="measured")
        headers = [th.text for th in measured_grid.find_all("th", cls="col")]
        self.assertTrue(any(h.startswith(synthetic.H100) and "published: A40" in h
                            for h in headers), headers)
        self.assertFalse(any(h.strip() == "A40" for h in headers), headers)
        c = cell(root, "measured", "CUDA", "A40")
        self.assertEqual(c.attrs["data-value"], "17.0")
        original = c.find(cls="original").text
        self.assertIn("original program (same run): external-blog-gol-cu at 23.5", original)
        self.assertIn(f"ours {units.fmt3(17.0 / 23.49)}", original)
        self.assertIn("no published problem", c.text)
        self.assertIn("B3/S23:T65536,65536, 2048 generations: 19.0",
                      c.find("details", cls="cell").text)
        self.assertEqual(cell(root, "ratio", "CUDA", "A40").attrs["data-value"], "1.45")
        a40 = 9.35e12
        normalised = (17.0 / 11.72) / (synthetic.H100_LOP3 / a40)
        self.assertEqual(
            cell(root, "normalised", "CUDA", "A40").attrs["data-value"], units.fmt3(normalised)
        )
        row = root.find("tr", data_row="CUDA", data_col="A40")
        self.assertIn("NVIDIA A40", row.text)
        self.assertIn("logic", row.text)
        self.assertIn("divided by how many times the published device's ceiling ours is",
                      root.text)
        self.assertTrue((out / "seed000-gpu.png").is_file())

    def test_several_results_folders_name_theirs(self):
        xeon = synthetic.manifest("xeon")
        xeon["host"] = {
            **xeon["host"], "cpu": "Intel Xeon Platinum 8480+", "hostname": "cpu-node-2"
        }
        second = synthetic.write_run(
            self.tmp / "xeon",
            [synthetic.result("cpu-bpbc", rate=9e9, params={"words": "double"},
                              tie=("CPU", "DOUBLE-WORD"))],
            xeon,
        )
        proc, out = self.generate_one_table("--results", second)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        root = dom.parse((out / "fujita2017-table1.html").read_text())
        c = root.find("td", data_kind="measured", data_row="CPU", data_col="DOUBLE-WORD",
                      data_machine="xeon-16t")
        self.assertIn("folder xeon", c.find(cls="num").attrs["title"])
        # The standard run was measured as run "synthetic" into a folder now named "results":
        # the reader is given the folder's name, which they can find.
        c = cell(root, "measured", "CPU", "SINGLE-WORD")
        self.assertIn("folder results,", c.find(cls="num").attrs["title"])
        self.assertNotIn("synthetic", c.find(cls="num").attrs["title"])
        cpu_row = root.find("tr", data_device="cpu").text
        self.assertIn("Intel Xeon Platinum 8480+ on xeon-16t (derived), results xeon", cpu_row)
        self.assertIn(f"{synthetic.CPU} on {synthetic.MACHINE}, results results", cpu_row)
        gpu_row = root.find("tr", data_device="gpu").text
        self.assertNotIn("Xeon", gpu_row)  # hosts are not listed together

    def test_two_folders_of_one_name_are_told_apart_by_their_paths(self):
        other = synthetic.write_run(
            self.tmp / "elsewhere" / "results",
            [synthetic.result("cpu-bpbc", rate=9e9, params={"words": "double"},
                              tie=("CPU", "DOUBLE-WORD"))],
            synthetic.manifest("synthetic"),
        )
        proc, out = self.generate_one_table("--results", other)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        root = dom.parse((out / "fujita2017-table1.html").read_text())
        elsewhere = root.find("td", data_kind="measured", data_row="CPU", data_col="DOUBLE-WORD",
                              data_machine="epyc-16t")
        self.assertIn("folder elsewhere/results", elsewhere.find(cls="num").attrs["title"])
        standard = root.find("td", data_kind="measured", data_row="CPU", data_col="SINGLE-WORD",
                             data_machine="h100-80gb-hbm3-epyc-16t")
        self.assertIn(f"folder {self.tmp.resolve().name}/results",
                      standard.find(cls="num").attrs["title"])

    def test_index_is_a_dashboard_and_every_table_downloads_what_its_page_shows(self):
        proc, out = self.standard
        self.assertEqual(proc.returncode, 0, proc.stderr)
        index = dom.parse((out / "index.html").read_text())
        stems = sorted(p.stem for p in TABLES.glob("*.toml"))
        rows = {tr.attrs["data-table"]: tr for tr in index.find_all("tr")
                if "data-table" in tr.attrs}
        self.assertEqual(sorted(rows), stems)  # one line per table, nothing else tabled there
        self.assertIsNone(index.find("table", cls="configs"))
        self.assertIsNone(index.find("img"))
        row = rows[synthetic.TABLE]
        self.assertIn(synthetic.MACHINE, row.text)
        best = next(td for td in row.find_all("td") if "data-best" in td.attrs)
        self.assertNotEqual(best.attrs["data-best"], "")
        # Its title names the measured number's run and noise, and the published number.
        self.assertRegex(best.attrs["title"],
                         r"measured \(.* \u00b7 .* @ .*, (n=|\u00b1|\u2195).*\) / .* published")
        self.assertIn("Fujita et al. (2017)", row.text)
        table1 = dom.parse((out / f"{synthetic.TABLE}.html").read_text())
        self.assertIn("Toru Fujita, Koji Nakano, Yasuaki Ito: Fast Simulation", table1.text)
        self.assertNotIn("003_a582801d164ddc27.txt", " ".join(
            n.text for n in table1.find_all("p", cls="lead")))
        for stem in stems:
            page = dom.parse((out / f"{stem}.html").read_text())
            self.assertIsNotNone(rows[stem].find("a", href=f"{stem}.csv"))
            self.assertIsNotNone(page.find("a", href=f"{stem}.json"))
            shown = {
                (td.attrs["data-kind"], td.attrs.get("data-machine", ""), td.attrs["data-row"],
                 td.attrs["data-col"]): td.attrs["data-value"]
                for td in page.find_all("td") if td.attrs.get("data-value")
            }
            with (out / f"{stem}.csv").open(newline="") as f:
                from_csv = list(csv.DictReader(f))
            from_json = json.loads((out / f"{stem}.json").read_text())["records"]
            self.assertEqual(from_csv, from_json, stem)
            downloaded = {
                (r["grid"], r["machine"].replace(" (derived)", ""), r["row"], r["column"]):
                r["value"] for r in from_csv
            }
            shown = {(k[0], k[1].replace(" (derived)", ""), k[2], k[3]): v
                     for k, v in shown.items()}
            self.assertEqual(downloaded, shown, stem)
            for record in from_csv:
                if record["grid"] == "measured" and record["status"] == "passed":
                    self.assertTrue(record["machine"] and record["commit"] and record["folder"])
                    self.assertTrue(record["config_id"], record)
                    # The noise shown beside it, and what verified each of its sources.
                    self.assertRegex(record["noise"], r"^(n=1|[\u00b1\u2195][0-9.]+%)$", record)
                    self.assertRegex(record["verification"],
                                     r"^(timed|smaller)_problem(; (timed|smaller)_problem)*$")

    def test_measured_headers_keep_the_technique_and_replace_only_a_device(self):
        standard = cells.table_view(
            tables.load_table(TABLES / "fujita2017-table1.toml"),
            results.load_runs([synthetic.standard_run(self.tmp / "results")]),
        )
        root = dom.parse(table_page._grid(standard, standard.grids[0], "measured", ""))
        rows = [th.text for th in root.find_all("th", cls="row")]
        self.assertTrue(rows[0].startswith(synthetic.CPU), rows)  # "CPU": a published device
        blog = synthetic.write_run(self.tmp / "blog", [
            synthetic.result(
                "cuda3d-naive", backend="cuda", shape="256x256x256", generations=2048,
                rule="B6/S567/3D", rate=1e10, device=synthetic.H100,
                tie=("blog3d-a100", name, "256/2048"),
            ) for name in ("v0", "v1", "v2")
        ], synthetic.manifest("blog"))
        view = cells.table_view(
            tables.load_table(TABLES / "blog3d-a100.toml"), results.load_runs([blog])
        )
        self.assertEqual(view.counts()[cells.PASSED], 3)
        # Rows v0, v1, v2 each keep their name in every grid, measured or not.
        for grid in view.grids:
            html_text = table_page._grid(view, grid, "measured", "")
            for name in ("v0", "v1", "v2"):
                self.assertIn(f'<th class="row">{name}<small>', html_text)

    def test_gpus_at_once_are_said(self):
        parallel = synthetic.write_run(
            self.tmp / "parallel",
            [synthetic.result("cpu-bpbc", rate=9e9, params={"words": "double"})],
            synthetic.manifest("parallel", parallel_gpus=4),
        )
        proc, out = self.generate_one_table("--results", parallel)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        text = " ".join(dom.parse((out / "runs.html").read_text()).text.split())
        self.assertIn("4 GPUs at once", text)
        self.assertIn("4: the one-GPU configurations ran 4 at once, each on a GPU of its own", text)
        self.assertEqual(text.count("GPUs at once"), 2)  # the other run ran one at a time

    def test_fraction_of_bound_and_rooflines(self):
        proc, out = self.standard
        self.assertEqual(proc.returncode, 0, proc.stderr)
        index = dom.parse((out / "configurations.html").read_text())
        figures = dom.parse((out / "figures.html").read_text())
        row = index.find("tr", data_config=next(
            r["config_id"] for r in synthetic.standard_results()
            if r["experiment"] == "cuda-lop3-shuffle"))
        share = synthetic.LOP3_SHUFFLE * synthetic.LOP3_SHUFFLE_INSTRUCTIONS / synthetic.H100_LOP3
        fraction = next(td for td in row.find_all("td") if "data-fraction" in td.attrs)
        self.assertEqual(fraction.attrs["data-fraction"], units.fmt3(share))
        self.assertIn(f"logic {units.fmt3(100 * share)} %", fraction.text)
        self.assertIsNotNone(figures.find("h3", data_roofline="square"))
        self.assertTrue((out / "roofline-square.png").is_file())
        for family in ("hex", "3d"):  # no data: not drawn
            self.assertFalse((out / f"roofline-{family}.png").exists())
            self.assertIsNone(figures.find("h3", data_roofline=family))

    def test_a_figure_without_data_is_not_drawn(self):
        plots = self.tmp / "plots"
        plots.mkdir()
        (plots / "none.toml").write_text(
            'title = "3D nothing"\nx = "cells"\ny = "updates/s"\n[select]\nrule = "B6/S567/3D"\n'
        )
        (plots / "some.toml").write_text('title = "Some"\nx = "cells"\ny = "updates/s"\n')
        proc, out = self.generate_one_table("--plots", plots)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertFalse((out / "figure-none.png").exists())
        self.assertTrue((out / "figure-some.png").is_file())
        index = dom.parse((out / "figures.html").read_text())
        self.assertIsNone(index.find("h2", data_figure="none"))
        self.assertIsNotNone(index.find("img", src="figure-some.png"))
        self.assertIn("Not drawn, no verified measurement in these results matches them: "
                      "3D nothing.", " ".join(index.text.split()))

    def test_site_is_self_contained(self):
        res = synthetic.standard_run(self.tmp / "results")
        site = self.tmp / "site"
        proc = run_generator("--results", res, "--results", self.tmp / "gone", "--tables", TABLES,
                             "--site", site)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.strip().splitlines()[-1], str(site / "index.html"))
        copied = sorted(p.name for p in (site / "data" / "results").iterdir())
        self.assertEqual(copied, sorted(p.name for p in res.glob("*.json")))
        pages = sorted(site.glob("*.html"))
        self.assertGreater(len(pages), 10)
        for page in pages:
            text = page.read_text()
            self.assertNotIn(str(self.tmp), text, page.name)
            self.assertNotIn("**", text, page.name)  # no raw markdown (the Bound line's)
            for node in dom.parse(text).iter():
                for attr in ("href", "src"):
                    link = node.attrs.get(attr)
                    if link is None:
                        continue
                    if link.startswith("#"):  # a number's link to its configuration's row
                        self.assertIn(f'id="{link[1:]}"', text, (page.name, link))
                        continue
                    if link.startswith("https://"):  # a table's source, cited
                        continue
                    self.assertFalse(link.startswith("/") or ":" in link, (page.name, link))
                    target, _, anchor = link.partition("#")
                    self.assertTrue((site / target).is_file(), (page.name, link))
                    if anchor:  # a glossary term: its entry is there
                        self.assertIn(f'id="{anchor}"', (site / target).read_text(), link)
        index = (site / "runs.html").read_text()
        self.assertIn('href="data/results/manifest.json"', index)
        self.assertIn("gone: the results folder does not exist", index)
        self.assert_one_line_error(
            run_generator("--results", res, "--out", site, "--site", site), "not allowed with"
        )

    def test_site_links_results_beside_it(self):
        res = synthetic.standard_run(self.tmp / "results")
        site = self.tmp / "site"
        table1 = self.one_table()
        proc = run_generator("--results", res, "--results", self.tmp / "gone", "--tables",
                             table1, "--site", site, "--link-results")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertFalse((site / "data").exists())
        runs = (site / "runs.html").read_text()
        self.assertIn('href="../results/manifest.json"', runs)
        self.assertTrue((site / "../results/manifest.json").is_file())
        self.assertIn("gone: the results folder does not exist", runs)
        for page in site.glob("*.html"):
            self.assertNotIn(str(self.tmp), page.read_text(), page.name)
        self.assert_one_line_error(
            run_generator("--results", res, "--out", site, "--link-results"),
            "--link-results needs --site",
        )
        # Two folders of one name under folders of one name: told apart without their paths.
        twins = [synthetic.standard_run(self.tmp / side / "x" / "results") for side in "ab"]
        proc = run_generator("--results", twins[0], "--results", twins[1], "--tables", table1,
                             "--site", site)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        runs = (site / "runs.html").read_text()
        self.assertIn("x/results (1)", runs)
        self.assertIn("x/results (2)", runs)
        for page in site.glob("*.html"):
            self.assertNotIn(str(self.tmp), page.read_text(), page.name)
        # One folder twice, and as the baseline: still no path of this machine.
        proc = run_generator("--results", twins[0], "--results", twins[0], "--baseline",
                             twins[1], "--tables", table1, "--site", site)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for page in site.glob("*.html"):
            self.assertNotIn(str(self.tmp), page.read_text(), page.name)
        # A folder outside the site's parent: its link would climb to this machine's root.
        deeper = self.tmp / "deeper" / "site"
        proc = run_generator("--results", res, "--tables", table1, "--site", deeper,
                             "--link-results")
        self.assert_one_line_error(proc, "is not in")
        self.assertFalse(deeper.exists())

    def test_standard_report(self):
        proc, out = self.standard
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.strip().splitlines()[-1], str((out / "index.html").resolve()))
        for name in (
            "index.html",
            "fujita2017-table1.html",
            "fujita2017-table1.png",
            "throughput.png",
        ):
            self.assertTrue((out / name).is_file(), name)
        root = dom.parse((out / "fujita2017-table1.html").read_text())
        for (row, column), (status, value, text) in synthetic.STANDARD_EXPECT.items():
            c = cell(root, "measured", row, column)
            self.assertEqual(c.attrs["data-status"], status, (row, column))
            self.assertIn(text, c.text, (row, column))
            if value is None:
                self.assertEqual(c.attrs["data-value"], "", (row, column))
            else:
                self.assertEqual(c.attrs["data-value"], units.fmt3(value), (row, column))
        self.assertEqual(
            cell(root, "measured", "speed-up", "word-per-cell").attrs["data-value"], "66.7"
        )
        self.assertEqual(
            cell(root, "ratio", "speed-up", "word-per-cell").attrs["data-value"], "1.34"
        )
        self.assertEqual(cell(root, "ratio", "CPU", "SINGLE-WORD").attrs["data-value"], "1.04")
        self.assertEqual(cell(root, "published", "GPU", "SINGLE-WORD").attrs["data-value"], "478")
        self.assertEqual(
            cell(root, "published", "speed-up", "SINGLE-WORD").attrs["data-value"], "62.0"
        )
        self.assertIn("NVIDIA GeForce GTX TITAN X", root.text)
        self.assertIn(synthetic.H100, root.text)
        index = dom.parse((out / "index.html").read_text())
        self.assertIsNotNone(index.find("a", href="fujita2017-table1.html"))
        configurations = dom.parse((out / "configurations.html").read_text())
        self.assertEqual(
            len([n for n in configurations.iter() if "data-config" in n.attrs]),
            len(synthetic.standard_results()),
        )

    def test_phase_cells_in_the_standard_report(self):
        proc, out = self.standard
        self.assertEqual(proc.returncode, 0, proc.stderr)
        root = dom.parse((out / "fujita2017-table3.html").read_text())
        for (row, column), (status, value, text) in synthetic.PHASES_EXPECT.items():
            c = cell(root, "measured", row, column)
            self.assertEqual(c.attrs["data-status"], status, (row, column))
            self.assertIn(text, c.text, (row, column))
            expected = "" if value is None else units.fmt3(value)
            self.assertEqual(c.attrs["data-value"], expected, (row, column))
        headers = [th.text for th in root.find_all("th", cls="col")]
        self.assertTrue(any("SSD read" in h and "phase read" in h for h in headers), headers)

    def test_results_text_is_escaped(self):
        proc, out = self.standard
        self.assertEqual(proc.returncode, 0, proc.stderr)
        text = (out / "configurations.html").read_text()
        self.assertNotIn("<script>", text)
        self.assertIn("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;", text)
        self.assertIsNone(dom.parse(text).find("script"))

    def test_no_results_at_all(self):
        table1 = self.one_table()
        out = self.tmp / "report"
        proc = run_generator(
            "--results", self.tmp / "never-written", "--tables", table1, "--out", out
        )
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("does not exist", proc.stderr)
        root = dom.parse((out / "fujita2017-table1.html").read_text())
        measured_cells = root.find_all("td", data_kind="measured")
        self.assertEqual(len(measured_cells), 12)
        for c in measured_cells:
            self.assertIn(c.attrs["data-status"], ("not_run",))
            self.assertIn("not run", c.text)
        self.assertIn(cells.NO_TIE, cell(root, "measured", "CPU", "word-per-cell").text)
        self.assertFalse((out / "throughput.png").exists())  # nothing to draw: not drawn
        index = (out / "figures.html").read_text()
        self.assertIn("Not drawn: no successful measurement", index)
        self.assertIsNone(dom.parse(index).find("img"))

    def test_missing_manifest_and_empty_folder(self):
        table1 = self.one_table()
        (self.tmp / "empty").mkdir()
        res = synthetic.write_run(
            self.tmp / "partial",
            [synthetic.result("a", rate=1e9, tie=("CPU", "word-per-cell"))],
            with_manifest=False,
        )
        proc = run_generator(
            "--results",
            self.tmp / "empty",
            "--results",
            res,
            "--tables",
            table1,
            "--out",
            self.tmp / "report",
        )
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("manifest.json is missing", proc.stderr)
        root = dom.parse((self.tmp / "report" / "fujita2017-table1.html").read_text())
        self.assertEqual(cell(root, "measured", "CPU", "word-per-cell").attrs["data-value"], "1.00")

    def test_malformed_results_json(self):
        table1 = self.one_table()
        res = synthetic.standard_run(self.tmp / "results")
        out = self.tmp / "report"
        self.assertEqual(
            run_generator("--results", res, "--tables", table1, "--out", out).returncode, 0
        )
        before = {p.name: p.read_bytes() for p in out.iterdir()}
        (res / "cpu-bpbc.json").write_text('{"schema": 1, "configurations": [{"status": "ok",')
        proc = run_generator("--results", res, "--tables", table1, "--out", out)
        self.assert_one_line_error(proc, "cpu-bpbc.json", "malformed JSON", "line 1")
        self.assertEqual(
            {p.name: p.read_bytes() for p in out.iterdir()}, before
        )  # old report intact
        self.assertEqual(
            sorted(p.name for p in self.tmp.iterdir()), ["report", "results", "shipped-tables"]
        )  # no leftovers
        proc = run_generator("--results", res, "--tables", table1, "--out", self.tmp / "fresh")
        self.assert_one_line_error(proc, "malformed JSON")
        self.assertFalse((self.tmp / "fresh").exists())

    def test_results_of_the_wrong_shape(self):
        weird = synthetic.result("a", rate=1e9)
        weird["status"] = "weird"
        unmeasured = synthetic.result("a", rate=1e9)
        del unmeasured["throughput"]

        def file(*configurations, **keys):
            return {"schema": 1, "experiment": "a", "configurations": list(configurations), **keys}

        cases = (
            (file(weird), "configurations[0].status: 'weird' is not one of ['ok', "),
            (file(schema=2), "schema 2"),
            (file(configurations={}), "configurations: the object is not of type 'array'"),
            (file(unmeasured), "configurations[0]: 'throughput' is a required property"),
            ({"schema": 1, "configurations": []}, "the document: 'experiment' is a required"),
            ([1, 2], "expected a JSON object"),
        )
        for data, needle in cases:
            with self.subTest(needle=needle):
                folder = self.tmp / "bad"
                shutil.rmtree(folder, ignore_errors=True)
                folder.mkdir()
                (folder / "a.json").write_text(json.dumps(data))
                proc = run_generator(
                    "--results", folder, "--tables", TABLES, "--out", self.tmp / "out"
                )
                self.assert_one_line_error(proc, needle, "a.json")
                self.assertFalse((self.tmp / "out").exists())

    def test_replaces_an_old_report_but_not_other_folders(self):
        proc, out = self.generate_one_table()
        self.assertEqual(proc.returncode, 0)
        (out / "stale.html").write_text("old")
        table1 = self.one_table()
        proc = run_generator("--results", self.tmp / "results", "--tables", table1, "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertFalse((out / "stale.html").exists())
        self.assertEqual(
            sorted(p.name for p in self.tmp.iterdir()),
            ["experiments", "report", "results", "shipped-tables"],
        )
        precious = self.tmp / "precious"
        precious.mkdir()
        (precious / "thesis.tex").write_text("keep me")
        proc = run_generator(
            "--results", self.tmp / "results", "--tables", table1, "--out", precious
        )
        self.assert_one_line_error(proc, "refusing to replace")
        self.assertEqual((precious / "thesis.tex").read_text(), "keep me")

    def test_usage_errors_are_one_line(self):
        self.assert_one_line_error(run_generator("--out", self.tmp / "x"), "--results")
        self.assert_one_line_error(
            run_generator(
                "--results", self.tmp, "--out", self.tmp / "x", "--tables", self.tmp / "nothing"
            ),
            "does not exist",
        )



class OneRunTest(TempDir):
    """Issue 33: every number from one run of one named machine, with its noise and what
    verified it; a ratio of two runs says so."""

    def setUp(self):
        super().setUp()
        self.fujita = tables.load_table(TABLES / "fujita2017-table1.toml")

    def folder(self, name: str, items: list[dict], machine: str | None = None,
               commit: str = "1" * 40, started: str = "2026-11-22T15:30:00Z") -> Path:
        return synthetic.named_run(self.tmp / name, items, machine, commit, started)

    def view(self, *folders: Path) -> cells.TableView:
        return cells.table_view(self.fujita, results.load_runs(list(folders)))

    def page(self, *folders: Path) -> dom.Node:
        out = self.tmp / "report"
        args = [a for f in folders for a in ("--results", f)]
        proc = run_generator(*args, "--tables", self.shipped_tables(self.fujita.stem),
                             "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return dom.parse((out / self.fujita.page).read_text())

    def test_two_machines_are_two_grids(self):
        cpu = ("CPU", "SINGLE-WORD")
        alpha = self.folder("a", [synthetic.result("cpu-bpbc", rate=2e9, tie=cpu)], "alpha")
        beta = self.folder("b", [synthetic.result("cpu-bpbc", rate=5e9, tie=cpu)], "beta")
        view = self.view(alpha, beta)
        self.assertEqual([g.machine.name for g in view.grids], ["alpha", "beta"])
        self.assertEqual([g.cells[cpu].value for g in view.grids], [2.0, 5.0])
        root = self.page(alpha, beta)
        for machine, value in (("alpha", "2.00"), ("beta", "5.00")):
            grid = root.find("div", cls="machine-grids", data_machine=machine)
            self.assertIn(f"Measured on {machine}", grid.find("figcaption").text)
            c = grid.find("td", data_kind="measured", data_row="CPU", data_col="SINGLE-WORD")
            self.assertEqual(c.attrs["data-value"], value)
            ratio = grid.find("td", data_kind="ratio", data_row="CPU", data_col="SINGLE-WORD")
            self.assertIn(f"on {machine}", ratio.find(cls="num").attrs["title"])

    def test_the_newest_run_of_a_machine_not_the_fastest(self):
        cpu = ("CPU", "SINGLE-WORD")
        old = self.folder("old", [synthetic.result("cpu-bpbc", rate=9e9, tie=cpu)], "alpha",
                          commit="a" * 40, started="2026-11-20T10:00:00Z")
        new = self.folder("new", [synthetic.result("cpu-bpbc", rate=3e9, tie=cpu),
                                  synthetic.result("cpu-bpbc", rate=4e9, tie=cpu)], "alpha",
                          commit="b" * 40, started="2026-11-21T10:00:00Z")
        (grid,) = self.view(old, new).grids
        c = grid.cells[cpu]
        self.assertAlmostEqual(c.value, 4.0)  # the best of the newest run, not the old 9.0
        self.assertEqual(c.chosen.run.label, "new")
        self.assertEqual([run.label for run in c.superseded], ["old"])
        self.assertIn("best of 2 configurations of one run", c.notes[0])
        title = cell(self.page(old, new), "measured", *cpu).find(cls="num").attrs["title"]
        self.assertIn("folder new, commit bbbbbbbbb", title)
        self.assertIn("newer than old @ aaaaaaaaa", title)

    def test_a_ratio_of_two_runs_says_so_and_names_both(self):
        old = self.folder("cpu-run", [synthetic.result("cpu", rate=0.5e9,
                                                       tie=("CPU", "word-per-cell"))],
                          "alpha", commit="a" * 40, started="2026-11-20T10:00:00Z")
        new = self.folder("gpu-run", [synthetic.result("gpu", rate=30e9,
                                                       tie=("GPU", "word-per-cell"))],
                          "alpha", commit="b" * 40, started="2026-11-21T10:00:00Z")
        (grid,) = self.view(old, new).grids
        speedup = grid.cells[("speed-up", "word-per-cell")]
        self.assertAlmostEqual(speedup.value, 60.0)
        self.assertTrue(speedup.different_runs)
        shown = cell(self.page(old, new), "measured", "speed-up", "word-per-cell")
        self.assertIn("different runs: GPU alpha \u00b7 gpu-run @ bbbbbbbbb, "
                      "CPU alpha \u00b7 cpu-run @ aaaaaaaaa", shown.text)
        # Seen without unfolding: a mark naming both runs, the sides' noise added, and the
        # badge of the less verified side (both were verified on smaller problems here).
        self.assertIn("different runs", shown.find("span", cls="runs").attrs["title"])
        self.assertIn("a quotient", shown.find("span", cls="spread").attrs["title"])
        badge = shown.find("span", cls="badge")
        self.assertEqual((badge.text, badge.attrs["data-scope"]),
                         ("verified small", "smaller_problem"))
        same = self.folder("both", [
            synthetic.result("cpu", rate=0.5e9, tie=("CPU", "word-per-cell")),
            synthetic.result("gpu", rate=30e9, tie=("GPU", "word-per-cell"))], "beta")
        (grid,) = self.view(same).grids
        speedup = grid.cells[("speed-up", "word-per-cell")]
        self.assertFalse(speedup.different_runs)
        self.assertNotIn("different runs", " ".join(speedup.notes))

    def test_a_ratio_takes_the_newest_run_that_measured_both_sides(self):
        both = self.folder("both", [
            synthetic.result("cpu", rate=0.5e9, tie=("CPU", "word-per-cell")),
            synthetic.result("gpu", rate=30e9, tie=("GPU", "word-per-cell"))], "alpha",
            commit="a" * 40, started="2026-11-20T10:00:00Z")
        gpu_only = self.folder("gpu-only", [
            synthetic.result("gpu", rate=40e9, tie=("GPU", "word-per-cell"))], "alpha",
            commit="b" * 40, started="2026-11-21T10:00:00Z")
        (grid,) = self.view(both, gpu_only).grids
        self.assertAlmostEqual(grid.cells[("GPU", "word-per-cell")].value, 40.0)  # the newest
        speedup = grid.cells[("speed-up", "word-per-cell")]
        self.assertAlmostEqual(speedup.value, 60.0)  # 30 / 0.5 of one run, not 40 / 0.5
        self.assertFalse(speedup.different_runs)
        self.assertEqual({r.run.label for r in speedup.sources}, {"both"})
        self.assertIn("both of one run, alpha \u00b7 both @ aaaaaaaaa", " ".join(speedup.notes))
        shown = cell(self.page(both, gpu_only), "measured", "speed-up", "word-per-cell")
        self.assertIsNone(shown.find("span", cls="runs"))

    def test_every_number_names_its_machine(self):
        standard = synthetic.standard_run(self.tmp / "results")
        other = self.folder("other", [synthetic.result(
            "cpu-bpbc", rate=9e9, tie=("CPU", "SINGLE-WORD"))], "beta")
        root = self.page(standard, other)
        numbers = 0
        for grid in root.find_all("div", cls="machine-grids"):
            machine = grid.attrs["data-machine"]
            for td in grid.find_all("td"):
                if td.attrs.get("data-value"):
                    numbers += 1
                    self.assertIn(f"on {machine}", td.find(cls="num").attrs["title"], td.text)
        self.assertGreater(numbers, 10)
        for row in root.find("table", cls="comparisons").find_all("tr")[1:]:
            self.assertRegex(row.find(cls="num").attrs["title"], r"^on (beta|h100-)")

    def test_a_derived_machine_name_is_marked(self):
        (run,) = results.load_runs([synthetic.standard_run(self.tmp / "results")])
        self.assertEqual(run.machine.label, synthetic.MACHINE)
        self.assertTrue(run.machine.derived_here)
        x4 = synthetic.manifest("x4")
        x4["host"] = {**x4["host"], "cpu": "Intel(R) Xeon(R) Processor", "logical_cores": 64}
        items = [synthetic.result("g", rate=1e9, device=synthetic.H100) for _ in range(4)]
        for i, item in enumerate(items):
            item["device"]["cuda_visible_devices"] = str(i)
        (run,) = results.load_runs([synthetic.write_run(self.tmp / "x4", items, x4)])
        self.assertEqual(run.machine.name, "4x-h100-80gb-hbm3-xeon-64t")

    def test_noise_and_verification_are_shown(self):
        cpu = ("CPU", "SINGLE-WORD")
        item = synthetic.result("cpu-bpbc", rate=2e9, tie=cpu)
        item["verification"].update(problem=item["problem"], generations=item["generations"])
        median = item["timing"]["median_s"]
        item["timing"]["seconds"] = [0.99 * median, median, 1.03 * median]
        old = self.folder("old", [item], "alpha")  # min-max, scope told from the problem
        root = self.page(old)
        c = cell(root, "measured", *cpu)
        self.assertEqual(c.find(cls="spread").text, "\u21952.0%")
        self.assertIn("n=3 repetitions", c.find(cls="spread").attrs["title"])
        badge = c.find(cls="badge")
        self.assertEqual((badge.text, badge.attrs["data-scope"]), ("verified", "timed_problem"))

        item = synthetic.result("cpu-bpbc", rate=2e9, tie=cpu)
        item["timing"].update(median_ci={"low_s": 0.996 * median, "high_s": 1.004 * median,
                                         "level": 0.96}, stop="converged")
        item["verification"].update(scope="smaller_problem",
                                    final_state={"status": "passed", "generations": 1024})
        new = self.folder("new", [item], "alpha", started="2026-11-23T00:00:00Z")
        c = cell(self.page(new), "measured", *cpu)
        self.assertEqual(c.find(cls="spread").text, "\u00b10.4%")
        self.assertIn("96% interval of the median time", c.find(cls="spread").attrs["title"])
        self.assertIn("stopped: converged", c.find(cls="spread").attrs["title"])
        self.assertEqual(c.find(cls="badge").text, "verified small")
        self.assertIn("B3/S23:T1024,1024 for 5 generations", c.find(cls="badge").attrs["title"])
        self.assertEqual(c.find(cls="final").text, "final \u2713")

    def test_a_figure_point_is_one_runs_and_a_speed_up_divides_within_it(self):
        plots = self.tmp / "plots"
        plots.mkdir()
        (plots / "f.toml").write_text('title = "s"\nx = "generations"\nbaseline = "serial"\n')
        r = synthetic.result
        old = self.folder("old", [r("serial", generations=10, rate=1e6),
                                  r("naive", generations=10, rate=9e7)], "alpha",
                          started="2026-11-20T10:00:00Z")
        new = self.folder("new", [r("serial", generations=10, rate=2e6),
                                  r("naive", generations=10, rate=4e7)], "alpha",
                          started="2026-11-21T10:00:00Z")
        beta = self.folder("beta", [r("serial", generations=10, rate=1e6),
                                    r("naive", generations=10, rate=5e7)], "beta")
        (figure,) = figures.load_figures(plots)
        points = figure.points(results.load_runs([old, new, beta]))
        # new: 4e7 / 2e6, not old's faster 9e7 nor over another run's baseline.
        self.assertEqual([(p.series, p.y) for p in points],
                         [("naive on alpha", 20.0), ("naive on beta", 50.0)])


class HistoryTest(TempDir):
    """Issue 38: a machine's headline configurations over commits, with their noise band and
    the steps beyond it."""

    def commit(self, n: int, rate: float, half_width: float, extra: list | None = None,
               backend: str = "cuda") -> Path:
        item = synthetic.result("cpu-bpbc", backend=backend, rate=rate, tie=("CPU", "SINGLE-WORD"))
        median = item["timing"]["median_s"]
        item["timing"]["median_ci"] = {"level": 0.95, "low_s": median * (1 - half_width),
                                       "high_s": median * (1 + half_width)}
        return OneRunTest.folder(self, f"c{n}", [item] + (extra or []), "alpha",
                                 commit=str(n) * 40, started=f"2026-11-2{n}T10:00:00Z")

    def test_three_commits_in_order_with_a_step_beyond_the_noise(self):
        from lifebench_report import history

        untied = synthetic.result("cpu-bpbc", rate=9e9, params={"words": "double"})
        # Given newest first: the order is the folders' start times.
        folders = [self.commit(3, 2.4e9, 0.01), self.commit(2, 2.02e9, 0.01, [untied]),
                   self.commit(1, 2.0e9, 0.01)]
        runs = results.load_runs(folders)
        (alpha,) = history.histories(runs)
        self.assertEqual([c.label for c in alpha.commits], ["1111111", "2222222", "3333333"])
        (series,) = alpha.series
        self.assertEqual(series.experiment, "cpu-bpbc")
        self.assertEqual([p.step for p in series.points], ["", "", "up"])  # 1 % noise: 2.0 ~ 2.02
        self.assertLess(series.points[0].low, 2.0e9)
        self.assertGreater(series.points[0].high, 2.0e9)
        self.assertNotIn("double", series.config_id)  # the tied configuration, not the fastest

        out = self.tmp / "report"
        proc = run_generator(*[a for f in folders for a in ("--results", f)],
                             "--tables", self.one_table(), "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        page = dom.parse((out / "history.html").read_text())
        heading = page.find("h2", data_history="alpha")
        self.assertEqual(heading.attrs["data-commits"], "3")
        self.assertEqual(page.find("tr", data_series="cpu-bpbc").attrs["data-steps"], "1")
        self.assertIn("up at 333333333: 1.19", " ".join(page.text.split()))
        self.assertTrue((out / "history-alpha.png").is_file())
        # Each commit names its folders, the newest value and each step theirs.
        self.assertIn("1111111 (c1), 2222222 (c2), 3333333 (c3)", " ".join(page.text.split()))
        row = page.find("tr", data_series="cpu-bpbc")
        titles = " ".join(td.attrs.get("title", "") for td in row.find_all("td"))
        self.assertIn("folder c3 @ 333333333", titles)
        step = row.find("span")
        self.assertRegex(step.attrs["title"], r"^folder c2 @ 222222222.* to folder c3 @ 333333333")

    def test_a_cpu_step_must_pass_what_two_runs_of_the_host_differ_by(self):
        from lifebench_report import history

        folders = [self.commit(1, 2.0e9, 0.01, backend="cpu"),
                   self.commit(2, 2.4e9, 0.01, backend="cpu"),  # 1.2x: the host's noise
                   self.commit(3, 4.0e9, 0.01, backend="cpu")]  # 1.67x: a step
        (alpha,) = history.histories(results.load_runs(folders))
        self.assertEqual([p.step for p in alpha.series[0].points], ["", "", "up"])

    def test_a_default_given_at_one_commit_and_left_out_at_another_is_one_series(self):
        from lifebench_report import history

        folders = [self.commit(1, 2.0e9, 0.01), self.commit(2, 2.02e9, 0.01)]
        data = json.loads((folders[1] / "cpu-bpbc.json").read_text())
        (item,) = data["configurations"]
        item["params"] = {"words": "single"}  # the default, recorded at both commits...
        item["config_id"] += "words=single"  # ...and named in the second's id only
        (folders[1] / "cpu-bpbc.json").write_text(json.dumps(data))
        data = json.loads((folders[0] / "cpu-bpbc.json").read_text())
        data["configurations"][0]["params"] = {"words": "single"}
        (folders[0] / "cpu-bpbc.json").write_text(json.dumps(data))
        (alpha,) = history.histories(results.load_runs(folders))
        (series,) = alpha.series
        self.assertEqual(len(series.points), 2)
        self.assertTrue(series.config_id.endswith("words=single"))  # the newest id

    def test_commit_time_orders_commits_only_where_every_commit_has_one(self):
        from lifebench_report import history

        folders = [self.commit(1, 2e9, 0.01), self.commit(3, 2e9, 0.01), self.commit(2, 2e9, 0.01)]
        data = json.loads((folders[1] / "manifest.json").read_text())
        data["build"]["git_commit_time"] = "2026-11-19T09:00:00Z"  # commit 3 alone: not used
        (folders[1] / "manifest.json").write_text(json.dumps(data))
        (alpha,) = history.histories(results.load_runs(folders))
        self.assertEqual([c.label for c in alpha.commits], ["1111111", "2222222", "3333333"])

    def test_commit_time_orders_commits_before_the_runs_start(self):
        from lifebench_report import history

        # Commit 2 measured after commit 3: the commits' own times put it back in its place.
        folders = [self.commit(1, 2e9, 0.01), self.commit(3, 2e9, 0.01), self.commit(2, 2e9, 0.01)]
        for folder, when in zip(folders, ("2026-11-20T09:00:00+00:00", "2026-11-22T09:00:00Z",
                                          "2026-11-21T09:00:00-05:00")):
            data = json.loads((folder / "manifest.json").read_text())
            data["build"]["git_commit_time"] = when
            (folder / "manifest.json").write_text(json.dumps(data))
        (alpha,) = history.histories(results.load_runs(folders))
        self.assertEqual([c.label for c in alpha.commits], ["1111111", "2222222", "3333333"])

    def test_history_folders_reach_the_history_page_not_the_tables(self):
        old, new = self.commit(1, 1.0e9, 0.01), self.commit(2, 2.0e9, 0.01)
        out = self.tmp / "report"
        table1 = self.one_table()
        proc = run_generator("--results", new, "--history", old, "--history", new,
                             "--tables", table1, "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        page = dom.parse((out / "history.html").read_text())
        self.assertEqual(page.find("h2", data_history="alpha").attrs["data-commits"], "2")
        self.assertNotIn("c1", (out / "fujita2017-table1.html").read_text())
        self.assertIn("c2", (out / "fujita2017-table1.html").read_text())
        proc = run_generator("--results", new, "--history", self.tmp / "nowhere",
                             "--tables", table1, "--out", out)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("--history: not a results folder", proc.stderr)

    def test_history_as_text(self):
        folders = [self.commit(1, 2.0e9, 0.01), self.commit(2, 2.4e9, 0.01)]
        proc = run_generator("history", *folders)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[0], "alpha: 2 commits (1111111, 2222222)")
        self.assertTrue(lines[1].startswith("  cpu-bpbc  cpu-bpbc|"))
        self.assertRegex(lines[2], r"^    1111111 +2\.000e\+09 \[1\.98\de\+09, 2\.02\de\+09\]")
        self.assertTrue(lines[3].endswith("updates/s  up 1.200x"), lines[3])
        proc = run_generator("history", self.tmp / "nowhere")
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(proc.stderr.count("\n"), 1)
        self.assertIn("history: not a results folder", proc.stderr)

    def test_an_assigned_machine_joins_the_recorded_one_and_says_how(self):
        recorded = self.commit(2, 2e9, 0.01)
        older = self.commit(1, 2e9, 0.01)
        data = json.loads((older / "manifest.json").read_text())
        data["machine"] = {"name": "alpha", "name_source": "assigned",
                           "note": "the same host as alpha's", "cpu": synthetic.CPU}
        (older / "manifest.json").write_text(json.dumps(data))
        runs = results.load_runs([older, recorded])
        self.assertEqual(runs[0].machine, runs[1].machine)
        # One description whatever the order: the recorded machine's.
        self.assertEqual(runs[0].machine.how, "as the results folder records it")
        (alone,) = results.load_runs([older])
        self.assertEqual(alone.machine.how, "assigned afterwards: the same host as alpha's")
        # The runs page describes each folder by its own record, not by the machine's fullest.
        from lifebench_report import pages

        spans = dom.parse(pages.runs_page(runs, "now")).find_all("span", cls="machine")
        self.assertEqual({n.text for n in spans}, {"alpha"})
        self.assertEqual({n.attrs["title"] for n in spans},
                         {"as the results folder records it",
                          "assigned afterwards: the same host as alpha's"})
        del data["machine"]["note"]  # an assigned name says how it was chosen
        (older / "manifest.json").write_text(json.dumps(data))
        with self.assertRaisesRegex(ReportError, "note"):
            results.load_runs([older])

    def test_one_commit_draws_nothing(self):
        from lifebench_report import history, pages, plots

        histories = history.histories(results.load_runs([self.commit(1, 2e9, 0.01)]))
        self.assertIsNone(plots.history_plot(histories[0], self.tmp / "history.png"))
        self.assertFalse((self.tmp / "history.png").exists())
        page = pages.history_page(histories, {"alpha": None}, "now")
        self.assertIn("Nothing to draw", page)


class FiguresTest(TempDir):
    def write_figure(self, text: str, name: str = "f.toml") -> Path:
        folder = self.tmp / "plots"
        folder.mkdir(exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))
        return folder

    def run_of(self, items: list[dict]) -> list[results.Run]:
        return results.load_runs([synthetic.write_run(self.tmp / "results", items)])

    def test_shipped_figures_load(self):
        for figure in figures.load_figures(ROOT / "reports" / "plots"):
            self.assertTrue(figure.title, figure.path)

    def test_best_point_per_series_and_x_from_selected_verified_results(self):
        folder = self.write_figure(
            """
            title = "threads"
            x = "param:threads"
            y = "updates/s"
            scale = 1e9
            series = ["experiment"]
            [select]
            experiments = ["simd-*"]
            shape = "4096x4096"
            """
        )
        r = synthetic.result
        runs = self.run_of(
            [
                r("simd-a", shape="4096x4096", rate=1e9, params={"threads": "1"}),
                r("simd-a", shape="4096x4096", rate=3e9, params={"threads": "1"}),
                r("simd-a", shape="4096x4096", rate=5e9, params={"threads": "4"}),
                r("simd-a", shape="4096x4096", rate=9e9, params={"threads": "8"},
                  status="ok", verification="not_run"),
                r("simd-a", shape="1024x1024", rate=7e9, params={"threads": "2"}),
                r("cpu-b", shape="4096x4096", rate=2e9, params={"threads": "2"}),
            ]
        )
        (figure,) = figures.load_figures(folder)
        points = [(p.series, p.x, p.y) for p in figure.points(runs)]
        self.assertEqual(points, [("simd-a", 1.0, 3.0), ("simd-a", 4.0, 5.0)])

    def test_a_line_is_one_run_the_one_with_the_most_points(self):
        folder = self.write_figure(
            'title = "threads"\nx = "param:threads"\ny = "updates/s"\nscale = 1e9\n'
        )
        r = synthetic.result
        full = synthetic.named_run(self.tmp / "full", [
            r("simd-a", rate=1e9, params={"threads": "1"}),
            r("simd-a", rate=4e9, params={"threads": "4"}),
            r("simd-a", rate=8e9, params={"threads": "16"})], "alpha",
            started="2026-11-20T10:00:00Z")
        quick = synthetic.named_run(self.tmp / "quick", [
            r("simd-a", rate=5e9, params={"threads": "16"})], "alpha",
            started="2026-11-21T10:00:00Z")
        (figure,) = figures.load_figures(folder)
        points = figure.points(results.load_runs([full, quick]))
        # The newer run measured one of the line's points: the line is the older run's three.
        self.assertEqual([(p.x, p.y) for p in points], [(1.0, 1.0), (4.0, 4.0), (16.0, 8.0)])
        self.assertEqual({p.result.run.label for p in points}, {"full"})
        out = self.tmp / "report"
        proc = run_generator("--results", full, "--results", quick, "--tables", self.one_table(),
                             "--plots", folder, "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = dom.parse((out / "figures.html").read_text()).find("p", cls="lines")
        self.assertIn("simd-a: alpha \u00b7 full @", lines.text)

    def test_a_throughput_line_is_one_run_of_the_familys_own_density(self):
        from lifebench_report import plots

        r = synthetic.result
        sparse = r("cuda-a", backend="cuda", shape="8192x8192", rate=9e12)
        sparse["density"] = 0.01
        sparse["config_id"] += "|density=0.01"
        full = synthetic.named_run(self.tmp / "full", [
            r("cuda-a", backend="cuda", shape="1024x1024", rate=1e12),
            r("cuda-a", backend="cuda", shape="4096x4096", rate=2e12)], "alpha",
            started="2026-11-20T10:00:00Z")
        quick = synthetic.named_run(self.tmp / "quick", [
            r("cuda-a", backend="cuda", shape="4096x4096", rate=3e12), sparse], "alpha",
            started="2026-11-21T10:00:00Z")
        panels = plots.throughput_lines(results.load_runs([full, quick]))
        (((family, machine), lines),) = panels.items()
        self.assertEqual((family, machine.name, list(lines)), ("square", "alpha", ["cuda-a"]))
        # The older run measured more of the line's sizes; the sparse soup is not this figure's.
        self.assertEqual(sorted((x.cells, x.rate) for x in lines["cuda-a"]),
                         [(1024 * 1024, 1e12), (4096 * 4096, 2e12)])

    def test_a_point_carries_its_interval_and_the_plot_draws_it(self):
        from unittest import mock

        from lifebench_report import plots

        folder = self.write_figure(
            'title = "speed-up"\nx = "cells"\nbaseline = "cpu-base"\n'
            '[select]\nexperiments = ["cuda-*", "cpu-base"]\n')
        r = synthetic.result
        once = r("cuda-a", backend="cuda", shape="2048x2048", rate=6e10)
        once["timing"].update(repetitions=1, seconds=once["timing"]["seconds"][:1])
        runs = self.run_of([
            synthetic.with_interval(r("cpu-base", shape="1024x1024", rate=1e9), 0.02),
            synthetic.with_interval(r("cuda-a", backend="cuda", shape="1024x1024", rate=5e10),
                                    0.01),
            r("cpu-base", shape="2048x2048", rate=1e9), once])
        (figure,) = figures.load_figures(folder)
        points = figure.points(runs)
        self.assertEqual([(p.x, p.y) for p in points], [(1024 * 1024, 50.0), (2048 * 2048, 60.0)])
        # A speed-up's rate over its baseline's, each time within its interval: a time 1 %
        # longer and a baseline's 2 % shorter is its lowest. A side that ran once: no interval.
        low, high = points[0].bounds
        self.assertAlmostEqual(low, 50 / 1.01 * 0.98)
        self.assertAlmostEqual(high, 50 / 0.99 * 1.02)
        self.assertIsNone(points[1].bounds)
        saved = []
        with mock.patch.object(plots, "_save", lambda fig, path: saved.append(fig) or (1, 1)):
            plots.figure_plot(figure, points, self.tmp / "f.png")
        (bars,) = saved[0].axes[0].containers
        (segments,) = bars.lines[2]
        ends = [list(segment[:, 1]) for segment in segments.get_segments()]
        self.assertEqual(len(ends), 1)
        self.assertAlmostEqual(ends[0][0], low)
        self.assertAlmostEqual(ends[0][1], high)

    def test_a_time_falls_where_the_rate_rises(self):
        folder = self.write_figure('title = "time"\nx = "cells"\ny = "s"\n')
        runs = self.run_of([synthetic.with_interval(synthetic.result("cpu-a", rate=1e9), 0.1)])
        (figure,) = figures.load_figures(folder)
        (point,) = figure.points(runs)
        self.assertAlmostEqual(point.bounds[0] / point.y, 0.9)
        self.assertAlmostEqual(point.bounds[1] / point.y, 1.1)

    def test_series_name_only_the_parameters_a_result_has(self):
        # A parameter added to an experiment later (cpu-mpi's transport) is named where a
        # result has it, and left out of older results' series rather than shown as "?".
        folder = self.write_figure(
            """
            title = "ranks"
            x = "param:ranks"
            y = "updates/s"
            series = ["experiment", "param:transport"]
            """
        )
        r = synthetic.result
        runs = self.run_of(
            [
                r("cpu-mpi", rate=1e9, params={"ranks": "2"}),
                r("cpu-mpi", rate=2e9, params={"ranks": "2", "transport": "sockets"}),
            ]
        )
        (figure,) = figures.load_figures(folder)
        self.assertEqual(sorted(p.series for p in figure.points(runs)),
                         ["cpu-mpi", "cpu-mpi transport=sockets"])

    def test_speed_up_over_a_baseline_on_the_same_problem(self):
        folder = self.write_figure(
            """
            title = "speed-up"
            x = "generations"
            baseline = "serial"
            """
        )
        r = synthetic.result
        runs = self.run_of(
            [
                r("serial", generations=10, rate=1e6),
                r("serial", generations=100, rate=2e6),
                r("naive", generations=10, rate=4e7),
                r("naive", generations=100, rate=1e8),
                r("naive", generations=1000, rate=1e8),  # no baseline: left out
            ]
        )
        (figure,) = figures.load_figures(folder)
        points = [(p.series, p.x, p.y) for p in figure.points(runs)]
        self.assertEqual(points, [("naive", 10.0, 40.0), ("naive", 100.0, 50.0)])
        self.assertEqual(figure.y_label, "rate ÷ serial's rate")

    def test_baseline_on_the_same_soup_density(self):
        folder = self.write_figure(
            'title = "s"\nx = "generations"\nbaseline = "serial"\n[select]\ndensity = 0.001\n'
        )

        def sparse(result):  # as the driver writes a run that gives density = 0.001
            result["config_id"] += "|density=0.001"
            result["density"] = 0.001
            return result

        r = synthetic.result
        runs = self.run_of(
            [
                r("serial", generations=10, rate=1e6),
                sparse(r("serial", generations=10, rate=1e7)),
                r("naive", generations=10, rate=4e7),
                sparse(r("naive", generations=10, rate=1e9)),
            ]
        )
        (figure,) = figures.load_figures(folder)
        # The sparse result over the sparse baseline; the dense ones are not selected.
        self.assertEqual([(p.series, p.y) for p in figure.points(runs)], [("naive", 100.0)])
        self.assertEqual(runs[0].results[3].problem_text, "B3/S23:T16384,16384 density 0.001")
        self.assertEqual(runs[0].results[2].problem_text, "B3/S23:T16384,16384")

    def test_figure_in_the_report(self):
        plots = self.write_figure('title = "By size"\nx = "cells"\ny = "ms/gen"\nlog_x = true\n')
        res = synthetic.standard_run(self.tmp / "results")
        out = self.tmp / "report"
        proc = run_generator("--results", res, "--tables", self.one_table(), "--plots", plots,
                             "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue((out / "figure-f.png").is_file())
        index = dom.parse((out / "figures.html").read_text())
        heading = index.find("h2", data_figure="f")
        self.assertIsNotNone(heading)
        self.assertGreater(int(heading.attrs["data-points"]), 0)

    def test_ideal_scaling_figure_in_the_report(self):
        plots = self.write_figure(
            'title = "Scaling"\nx = "cells"\ny = "updates/s"\nlog_x = true\nideal = true\n'
        )
        (figure,) = figures.load_figures(plots)
        self.assertTrue(figure.ideal)
        res = synthetic.standard_run(self.tmp / "results")
        out = self.tmp / "report"
        proc = run_generator("--results", res, "--tables", self.one_table(), "--plots", plots,
                             "--out", out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue((out / "figure-f.png").is_file())

    def test_bad_figure_files_are_one_line_errors(self):
        res = synthetic.standard_run(self.tmp / "results")
        cases = {
            'title = "t"\nx = "cells"\ny = "furlongs"\n': "'y' must be a unit",
            'title = "t"\nx = "width"\ny = "ms"\n': "'x' must be",
            'title = "t"\nx = "cells"\n': "'y' must be a non-empty string",
            'title = "t"\nx = "cells"\ny = "ms"\ncolour = 1\n': "unknown field 'colour'",
            'title = "t"\nx = "cells"\ny = "ms"\n[select]\nshape = 4\n': "select.shape",
            'title = "t"\nx = "cells"\ny = "ms"\nseries = ["colour"]\n': "'series'",
            'title = "t"\nx = "cells"\ny = "ms"\nideal = true\n': "'ideal' needs a rate",
            'title = "t"\nx = "cells"\ny = "updates/s"\nlog_y = true\nideal = true\n': "'ideal'",
            'title = "t"\nx = "cells"\ny = "updates/s"\nideal = 1\n': "'ideal' must be true",
            "title = \n": "not valid TOML",
        }
        for text, message in cases.items():
            plots = self.write_figure(text, "bad.toml")
            proc = run_generator(
                "--results", res, "--tables", self.one_table(), "--plots", plots,
                "--out", self.tmp / "o",
            )
            self.assertEqual(proc.returncode, 1, text)
            self.assertTrue(proc.stderr.startswith(PREFIX), proc.stderr)
            self.assertIn(message, proc.stderr, text)
            self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
            self.assertFalse((self.tmp / "o").exists())


class WrittenTogetherTest(TempDir):
    """Figures drawn inside plots.written_together() are written on leaving it, in forked
    processes, the same files as one at a time; one that cannot be written fails it; none
    stays open."""

    def draw(self, name: str) -> None:
        from lifebench_report import plots

        fig, ax = plots._pyplot().subplots(figsize=(plots.WIDTH_IN, plots.HEIGHT_IN))
        ax.plot([1, 2, 3], [3, 1, 2], label=name.split("-")[-1])  # the same in both forms
        ax.legend()
        plots._save(fig, self.tmp / name)

    def test_the_same_files_as_one_at_a_time(self):
        from lifebench_report import plots

        with plots.written_together():
            for i in range(3):
                self.draw(f"together-{i}.png")
            self.assertFalse((self.tmp / "together-0.png").exists())  # not yet
        for i in range(3):
            self.draw(f"alone-{i}.png")
        for i in range(3):
            self.assertEqual((self.tmp / f"together-{i}.png").read_bytes(),
                             (self.tmp / f"alone-{i}.png").read_bytes())
        self.assertEqual(plots._pyplot().get_fignums(), [])

    def test_a_figure_that_cannot_be_written_fails_it(self):
        from lifebench_report import plots

        with self.assertRaises(FileNotFoundError):
            with plots.written_together():
                self.draw("written.png")
                self.draw("no-such-folder/unwritten.png")
        self.assertEqual(plots._pyplot().get_fignums(), [])
        with plots.written_together():  # usable again
            self.draw("again.png")
        self.assertTrue((self.tmp / "again.png").is_file())


class ModelTest(TempDir):
    TABLE = """
        title = "multistep"
        unit = "updates/s"
        scale = 1e9
        model = { kind = "multistep", tile = { "d64" = 64, "d32" = 32 } }
        [source]
        seed = "003_a582801d164ddc27.txt"
        table = "Table 2"
        [problem]
        shape = "16384x16384"
        generations = 1024
        [[columns]]
        name = "d64"
        [[columns]]
        name = "d32"
        [[rows]]
        name = "2"
        published = [586, 451]
        [[rows]]
        name = "4"
        published = [808, 535]
        [[rows]]
        name = "8"
        published = [720, 322]
        [[rows]]
        name = "16"
        published = [359, "-"]
        """

    def test_fit_recovers_c_and_the_best_steps(self):
        folder = self.write_table(self.TABLE)
        table = tables.load_table(folder / "t.toml")
        # Rates made from the model itself with c = 5 on d = 64: the best t is 8.
        items = [
            synthetic.result(
                "x",
                rate=1e9 / ((t + 5) / (t * (64 - 2 * t) ** 2)),
                tie=("t", str(t), "d64"),
            )
            for t in (2, 4, 8, 16)
        ]
        runs = results.load_runs([synthetic.write_run(self.tmp / "r", items)])
        view = cells.table_view(table, runs)
        fits = {(f.column, f.source): f for f in models.multistep_fits(view.table, view.grids[0])}
        measured = fits[("d64", "measured")]
        self.assertAlmostEqual(measured.c, 5.0, delta=0.2)
        self.assertEqual((measured.predicted_t, measured.best_t, measured.points), (8, 8, 4))
        self.assertIsNone(fits[("d32", "measured")].c)  # nothing measured
        published = fits[("d32", "published")]
        self.assertEqual(published.points, 3)  # t = 16 is impossible on d = 32
        self.assertEqual(published.best_t, 4)

    def test_bad_models(self):
        cases = {
            'model = { kind = "roofline", tile = { "d64" = 64 } }': "unknown model",
            'model = { kind = "multistep", tile = { "d99" = 64 } }': "no column named",
            'model = { kind = "multistep", tile = { "d64" = 2 } }': "integer above 2",
            'model = { kind = "multistep" }': "missing field 'tile'",
        }
        original = 'model = { kind = "multistep", tile = { "d64" = 64, "d32" = 32 } }'
        for line, message in cases.items():
            folder = self.write_table(self.TABLE.replace(original, line))
            with self.assertRaises(ReportError) as caught:
                tables.load_table(folder / "t.toml")
            self.assertIn(message, str(caught.exception))

if __name__ == "__main__":
    unittest.main()
