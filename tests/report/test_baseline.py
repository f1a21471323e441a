"""The report's --baseline DIR: the index's before and after section, one row per
configuration in both the results and the baseline (the same config_id), with both rates and
after / before where both sides are verified; a baseline that is not a folder is refused in
one line."""

from __future__ import annotations

import re
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


def section(index: Path) -> str:
    """The before and after section of an index page, or "" without one."""
    text = index.read_text(encoding="utf-8")
    match = re.search(r'<h2 id="before-after">.*?</table>|<h2 id="before-after">.*?</p>', text,
                      re.S)
    return match.group(0) if match else ""


def row(html: str, experiment: str) -> list[str]:
    match = re.search(r'<tr data-config="%s\|[^"]*">(.*?)</tr>' % re.escape(experiment), html,
                      re.S)
    assert match, experiment
    return [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>",
                                                                   match.group(1), re.S)]


class Baseline(unittest.TestCase):
    def setUp(self):
        self.work = Path(tempfile.mkdtemp(prefix="lifebench-baseline-"))
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", str(self.work)], check=False))
        after = [synthetic.result("cpu-a", rate=2e9),
                 synthetic.result("cpu-b", status="failed", verification="failed",
                                  first_difference="cell (3, 7): expected 1, got 0"),
                 synthetic.result("cpu-new", rate=1e9)]
        before = [synthetic.result("cpu-a", rate=1e9),
                  synthetic.result("cpu-b", rate=1e9),
                  synthetic.result("cpu-gone", rate=1e9)]
        self.after = synthetic.write_run(self.work / "after", after)
        self.before = synthetic.write_run(self.work / "before", before,
                                          synthetic.manifest("before"))

    def generate(self, *more):
        return subprocess.run([sys.executable, str(GENERATE), "--results", str(self.after),
                               "--out", str(self.work / "report"), "--quiet", *more],
                              capture_output=True, text=True, timeout=600)

    def test_before_and_after(self):
        proc = self.generate("--baseline", str(self.before))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        html = section(Path(proc.stdout.strip().splitlines()[-1]))
        self.assertIn("2 configurations in both, 1 only in these runs, 1 only in the baseline",
                      html)
        self.assertEqual(row(html, "cpu-a")[-3:], ["1.00", "2.00", "2.00"])
        # A failure is shown as such and never given a ratio.
        self.assertEqual(row(html, "cpu-b")[-3:], ["1.00", "failed", "&ndash;"])
        self.assertNotIn("cpu-gone|", html)

    def test_no_baseline_no_section(self):
        proc = self.generate()
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(section(Path(proc.stdout.strip().splitlines()[-1])), "")

    def test_a_baseline_that_is_not_a_folder(self):
        proc = self.generate("--baseline", str(self.work / "nowhere"))
        self.assertEqual(proc.returncode, 1)
        self.assertEqual(proc.stdout, "")
        self.assertRegex(proc.stderr, r"^lifebench-report: error: --baseline .*nowhere is not a "
                                      r"results folder\n$")
        self.assertFalse((self.work / "report").exists())


if __name__ == "__main__":
    unittest.main()
