"""The quick sweeps against the full ones, from `lifebench bench --dry-run` of the built
experiments: cpu-quick and gpu-quick tie every table that cpu and gpu tie, every row of it
where one configuration can (exceptions below, with the reason), only cells the full sweep
ties too, and stay small."""
import os
import subprocess
import sys
import unittest

LIFEBENCH = os.environ.get("LIFEBENCH", "")
# Tables whose rows the quick sweeps leave out in part, and why.
PARTLY = {"fujita2017-table3": "each T row at the full sweep's size takes minutes: the quick "
                               "sweep runs the paper's best row, scaled down"}
MOST_CONFIGURATIONS = 40


def ties(sweep):
    """(table, row) pairs the named sweep's configurations tie, and its configurations' count."""
    proc = subprocess.run([LIFEBENCH, "bench", "--sweep", sweep, "--dry-run"],
                          capture_output=True, text=True, timeout=300)
    if proc.returncode != 0:
        raise AssertionError(proc.stderr)
    cells, count, untied = set(), 0, []
    for line in proc.stdout.splitlines():
        if not line.startswith("["):
            continue
        count += 1
        if " → " not in line:
            untied.append(line)
            continue
        for cell in line.split(" → ", 1)[1].split(" … ")[0].split("; "):
            table, row, _column = cell.split(" / ", 2)
            cells.add((table, row))
    return cells, count, untied


class QuickSweeps(unittest.TestCase):
    def check(self, full_name, quick_name):
        full, _, _ = ties(full_name)
        quick, count, untied = ties(quick_name)
        self.assertEqual(untied, [], "quick configurations that fill no table cell")
        self.assertLessEqual(count, MOST_CONFIGURATIONS)
        self.assertEqual(quick - full, set(), "cells the full sweep does not tie")
        tables = {table for table, _ in full}
        self.assertEqual({table for table, _ in quick}, tables)
        for table in tables - set(PARTLY):
            self.assertEqual({row for t, row in quick if t == table},
                             {row for t, row in full if t == table}, table)

    def test_cpu_quick(self):
        self.check("cpu", "cpu-quick")

    def test_gpu_quick(self):
        self.check("gpu", "gpu-quick")


if __name__ == "__main__":
    if not os.access(LIFEBENCH, os.X_OK):
        print("LIFEBENCH does not name the built driver", file=sys.stderr)
        sys.exit(77)
    unittest.main()
