"""The model of bands across ranks over a network (reports/lifebench_report/scaling_model.py):
an exchange hidden by the interior costs nothing, one not hidden costs what the link takes,
efficiency falls as bands thin, and a fit on measured exchanges gives back the link."""

from __future__ import annotations

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "reports"))

from lifebench_report.scaling_model import (  # noqa: E402
    Bands, Network, fitted_network, strong_scaling, weak_scaling)

GBIT = 1e9 / 8


class ScalingModel(unittest.TestCase):
    def test_an_exchange_the_interior_hides_costs_nothing(self):
        bands = Bands(width=65536, height=131072, ranks=2, halo_steps=64, seconds_per_cell=1e-13)
        net = Network("slow", 1 * GBIT, 1e-3)
        self.assertLess(bands.exchange_s(net), bands.interior_s())
        self.assertEqual(bands.efficiency(net), 1.0)

    def test_an_exchange_not_overlapped_costs_what_the_link_takes(self):
        # 2 ranks of 1024 rows of 8192 cells, 1 ns a cell, 8 generations a pass: a pass
        # computes 8 * 1024 * 8192 cells in 67.1 ms and sends 2 * 8 rows of 1 KiB.
        bands = Bands(8192, 2048, 2, 8, 1e-9, overlapped=False)
        net = Network("n", 16384 / 0.010, 0.002)  # the 16 KiB in 10 ms, after 2 ms
        pass_s = 8 * 1024 * 8192 * 1e-9
        self.assertAlmostEqual(bands.halo_bytes, 16384)
        self.assertAlmostEqual(bands.exchange_s(net), 0.012)
        self.assertAlmostEqual(bands.efficiency(net), pass_s / (pass_s + 0.012))

    def test_the_interior_hides_part_of_a_longer_exchange(self):
        bands = Bands(8192, 64, 2, 8, 1e-9)  # bands of 32 rows: 16 interior rows
        net = Network("n", 1e6, 0.0)
        interior = 8 * 16 * 8192 * 1e-9
        exchange = 16384 / 1e6
        pass_s = 8 * 32 * 8192 * 1e-9
        self.assertAlmostEqual(bands.efficiency(net), pass_s / (pass_s + exchange - interior))

    def test_strong_scaling_falls_as_bands_thin_and_weak_scaling_holds(self):
        nets = [Network.of_gbit(10, 50e-6), Network.of_gbit(400, 5e-6)]
        strong = strong_scaling(524288, 524288, 64, 3.7e13, [2, 8, 64], nets, overlapped=False)
        self.assertEqual(list(strong), ["10 Gb/s", "400 Gb/s"])
        for values in strong.values():
            self.assertEqual(values, sorted(values, reverse=True))
        self.assertTrue(all(a < b for a, b in zip(strong["10 Gb/s"], strong["400 Gb/s"])))
        weak = weak_scaling(65536, 65536, 64, 3.5e13, [2, 8, 64], nets, overlapped=False)
        for values in weak.values():
            self.assertAlmostEqual(min(values), max(values))

    def test_a_fit_gives_back_the_link(self):
        latency, bandwidth = 30e-6, 3e9
        exchanges = [(b, latency + b / bandwidth) for b in (1e5, 1e6, 8e6, 3.2e7)]
        fitted = fitted_network("loopback", exchanges)
        self.assertAlmostEqual(fitted.latency_s, latency, places=9)
        self.assertAlmostEqual(fitted.bytes_per_s / bandwidth, 1.0, places=9)

    def test_what_cannot_be_modelled_is_refused(self):
        with self.assertRaises(ValueError):
            Bands(0, 64, 2, 8, 1e-9)
        with self.assertRaises(ValueError):
            Bands(64, 64, 2, 8, 0.0)
        with self.assertRaises(ValueError):
            fitted_network("one size", [(1e6, 1e-3), (1e6, 2e-3)])
        with self.assertRaises(ValueError):
            fitted_network("faster with more", [(1e6, 2e-3), (2e6, 1e-3)])


if __name__ == "__main__":
    unittest.main()
