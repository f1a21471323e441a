"""The report's patterns page, in every page's navigation: a figure per pattern that results
started from (or a line saying that none did); for each kernel the generations from which
HashLife stays at least as fast on the same grid, that it does not within the run, or that it
did not run; each machine's numbers from its newest run, a crossover within that run.
And a figure against soup density (the sweep density): every density given, no pattern."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

import synthetic  # noqa: E402

GENERATE = ROOT / "reports" / "generate.py"
TABLES = ROOT / "reports" / "tables"
ACORN = "datasets/acorn.rle"
GUN = "datasets/gosper-glider-gun.rle"


def started_from(pattern: str, experiment: str, generations: int, rate: float,
                 shape: str = "2048x2048") -> dict:
    """A synthetic result started from `pattern`, as lifebench bench records one."""
    data = synthetic.result(experiment, shape=shape, generations=generations, rate=rate)
    data["config_id"] += f"|pattern={pattern}"
    data["density"] = None
    data["pattern"] = {"name": Path(pattern).name.split(".")[0], "path": pattern,
                       "hash": "0x0123456789abcdef", "offset": None}
    verification = data["verification"]
    del verification["soup"]
    verification["pattern"] = data["pattern"]["name"]
    return data


class PatternsPage(unittest.TestCase):
    def setUp(self):
        self.work = Path(tempfile.mkdtemp(prefix="lifebench-patterns-"))
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", str(self.work)], check=False))

    def folder(self, name: str, results: list[dict], machine: str | None = None,
               started: str = "2026-11-22T15:30:00Z") -> Path:
        return synthetic.named_run(self.work / name, results, machine, started=started)

    def generate(self, results: list[dict], *more: Path) -> Path:
        folders = [synthetic.write_run(self.work / "results", results)] if results else []
        out = self.work / "report"
        args = [a for f in [*folders, *more] for a in ("--results", str(f))]
        # One shipped table, not all: each draws a plot, and the patterns page reads none.
        tables = self.work / "tables"
        tables.mkdir(exist_ok=True)
        shutil.copy(TABLES / "fujita2017-table1.toml", tables)
        proc = subprocess.run([sys.executable, str(GENERATE), *args, "--tables", str(tables),
                               "--out", str(out), "--quiet"],
                              capture_output=True, text=True, timeout=600)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return out

    def rows(self, text: str, pattern: str, experiment: str) -> list[tuple[str, str]]:
        """(run, crossover) of each row of `experiment` in `pattern`'s table."""
        section = text.split(f'data-pattern="{pattern}"', 1)[1].split("<h2", 1)[0]
        found = re.findall(r'<tr data-crossover="%s">(.*?)</tr>' % re.escape(experiment),
                           section, re.S)
        self.assertTrue(found, experiment)
        return [tuple(re.findall(r"<td>(.*?)</td>", row)[-2:]) for row in found]

    def crossover(self, text: str, pattern: str, experiment: str) -> str:
        rows = self.rows(text, pattern, experiment)
        self.assertEqual(len(rows), 1, rows)
        return rows[0][1]

    def test_crossovers(self):
        results = [synthetic.result("cpu-soup", rate=1e9)]  # a soup: not on the page
        # cpu-c: HashLife ahead at 16 and 1024, behind at 128; cpu-d: ahead at 16 only.
        for g, kernel, fast, hashlife, dip, early in [(16, 1e10, 1e11, 1e8, 1e8, 1e7),
                                                      (128, 1e10, 1e11, 5e9, 1e10, 1e11),
                                                      (1024, 1e10, 1e11, 2e10, 1e10, 1e11)]:
            results += [started_from(ACORN, "cpu-a", g, kernel),
                        started_from(ACORN, "cpu-b", g, fast),
                        started_from(ACORN, "cpu-c", g, dip),
                        started_from(ACORN, "cpu-d", g, early),
                        started_from(ACORN, "external-golly-hashlife", g, hashlife),
                        started_from(GUN, "cpu-a", g, kernel)]
        out = self.generate(results)
        index = (out / "index.html").read_text(encoding="utf-8")
        self.assertIn('<a href="patterns.html">', index)
        text = (out / "patterns.html").read_text(encoding="utf-8")
        self.assertEqual(re.findall(r'data-pattern="([^"]+)"', text), [ACORN, GUN])
        self.assertEqual(text.count('<img class="plot"'), 2)
        self.assertNotIn("cpu-soup", text)
        self.assertEqual(self.crossover(text, ACORN, "cpu-a"),
                         "HashLife is at least as fast from 1024 generations")
        self.assertEqual(self.crossover(text, ACORN, "cpu-b"),
                         "HashLife does not overtake it within the run (up to 1024 generations)")
        # At 16 the two ran at one rate, each time alike: a tie, within the noise.
        self.assertEqual(self.crossover(text, ACORN, "cpu-c"),
                         "HashLife is at least as fast from 1024 generations; also at 16 "
                         "(within the noise at 16)")
        self.assertEqual(self.crossover(text, ACORN, "cpu-d"),
                         "HashLife does not overtake it within the run (up to 1024 generations); "
                         "it is at least as fast at 16 only")
        self.assertEqual(self.crossover(text, GUN, "cpu-a"),
                         "HashLife did not run this pattern on this grid")
        for image in re.findall(r'src="([^"]+)"', text):
            self.assertTrue((out / image).is_file(), image)

    def test_one_run_of_each_machine(self):
        # On alpha HashLife overtakes cpu-a, on beta it does not; the best of all runs (cpu-a
        # 1e12 against HashLife 2e10) would say it never does. Alpha's older run, whose cpu-a
        # is faster, is superseded.
        alpha_old = self.folder("alpha-old", [
            started_from(ACORN, "external-golly-hashlife", 1024, 2e10),
            started_from(ACORN, "cpu-a", 1024, 1e11)], "alpha", "2026-11-20T10:00:00Z")
        alpha = self.folder("alpha-new", [
            started_from(ACORN, "external-golly-hashlife", 1024, 2e10),
            started_from(ACORN, "cpu-a", 1024, 1e10)], "alpha")
        beta = self.folder("beta", [
            started_from(ACORN, "external-golly-hashlife", 1024, 1e8),
            started_from(ACORN, "cpu-a", 1024, 1e12)], "beta")
        # Alpha's newest run, on another grid only, supersedes nothing on 2048x2048.
        alpha_small = self.folder("alpha-small", [
            started_from(ACORN, "external-golly-hashlife", 64, 1e9, shape="256x256"),
            started_from(ACORN, "cpu-a", 64, 1e10, shape="256x256")], "alpha",
            "2026-11-23T10:00:00Z")
        out = self.generate([], alpha_old, alpha, beta, alpha_small)
        text = (out / "patterns.html").read_text(encoding="utf-8")
        rows = sorted(self.rows(text, ACORN, "cpu-a"))
        self.assertEqual([run.split(",")[0] for run, _ in rows], ["alpha", "alpha", "beta"])
        self.assertTrue(rows[0][0].endswith("alpha-new"), rows[0][0])
        self.assertEqual(rows[0][1], "HashLife is at least as fast from 1024 generations")
        self.assertTrue(rows[1][0].endswith("alpha-small"), rows[1][0])
        self.assertEqual(rows[2][1], "HashLife does not overtake it within the run "
                                     "(up to 1024 generations)")
        # A figure for each grid, the smaller first: a kernel is compared on its own grid.
        self.assertEqual(re.findall(r'<img class="plot" src="([^"]+)"', text),
                         ["figure-pattern-0-256x256.png", "figure-pattern-0-2048x2048.png"])
        self.assertTrue((out / "figure-pattern-0-256x256.png").is_file())

    def test_a_point_carries_its_interval(self):
        sys.path.insert(0, str(ROOT / "reports"))
        from lifebench_report import patterns_page, results

        noisy = synthetic.with_interval(started_from(ACORN, "cpu-a", 1024, 1e10), 0.05)
        folder = self.folder("alpha", [noisy], "alpha")
        (found,) = patterns_page.pattern_results(results.load_runs([folder])).values()
        (point,) = patterns_page.points(patterns_page.newest_runs(found))
        self.assertAlmostEqual(point.bounds[0] / 1e10, 1 / 1.05)  # the figure's bar
        self.assertAlmostEqual(point.bounds[1] / 1e10, 1 / 0.95)

    def test_a_lead_within_the_noise_says_so(self):
        # HashLife 2 % ahead at 1024 where each rate is known to 5 %: at least as fast, within
        # the noise; 10 % ahead at 4096 with 1 % intervals: beyond it.
        results = [synthetic.with_interval(started_from(ACORN, experiment, g, rate), noise)
                   for experiment, g, rate, noise in [
                       ("external-golly-hashlife", 1024, 1.02e10, 0.05),
                       ("cpu-a", 1024, 1.0e10, 0.05),
                       ("external-golly-hashlife", 4096, 1.1e10, 0.01),
                       ("cpu-a", 4096, 1.0e10, 0.01)]]
        text = (self.generate(results) / "patterns.html").read_text(encoding="utf-8")
        self.assertEqual(self.crossover(text, ACORN, "cpu-a"),
                         "HashLife is at least as fast from 1024 generations "
                         "(within the noise at 1024)")

    def test_says_so_without_patterns(self):
        out = self.generate([synthetic.result("cpu-soup", rate=1e9)])
        text = (out / "patterns.html").read_text(encoding="utf-8")
        self.assertIn("No verified result in these results started from a pattern", text)
        self.assertNotIn("data-pattern=", text)
        self.assertNotIn("cpu-soup", text)
        self.assertEqual(list(out.glob("figure-pattern-*.png")), [])


def on_soup(experiment: str, density: float | None, rate: float) -> dict:
    data = synthetic.result(experiment, shape="2048x2048", generations=64, rate=rate)
    if density is not None:
        data["config_id"] += f"|density={density:g}"
        data["density"] = density
    return data


class DensityFigure(unittest.TestCase):
    def test_a_point_per_density_given(self):
        work = Path(tempfile.mkdtemp(prefix="lifebench-density-"))
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", str(work)], check=False))
        plots = work / "plots"
        plots.mkdir()
        (plots / "density.toml").write_text(
            'title = "Against density"\nx = "density"\ny = "updates/s"\nlog_x = true\n'
            '[select]\nshape = "2048x2048"\n')
        results = [on_soup("cpu-a", d, 1e9) for d in (0.5, 0.1, 0.01)]
        results += [on_soup("cpu-a", None, 2e9),  # the family's soup: no density to plot
                    started_from(ACORN, "cpu-a", 64, 3e9)]  # a pattern: no soup
        folder = synthetic.write_run(work / "results", results)
        proc = subprocess.run([sys.executable, str(GENERATE), "--results", str(folder),
                               "--plots", str(plots), "--out", str(work / "report"),
                               "--quiet"], capture_output=True, text=True, timeout=600)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        figures = (work / "report" / "figures.html").read_text(encoding="utf-8")
        self.assertIn('data-figure="density" data-points="3"', figures)
        self.assertTrue((work / "report" / "figure-density.png").is_file())


if __name__ == "__main__":
    unittest.main(verbosity=2)
