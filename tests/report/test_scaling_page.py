"""The report's scaling page: each several-rank configuration beside the one-rank run of the same
run (strong and weak), the link fitted to cuda-nccl's socket exchanges, and the model's
prediction for the paper's universe from the one-GPU rate measured on it."""

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
sys.path.insert(0, str(ROOT / "reports"))

import synthetic  # noqa: E402
from lifebench_report import results, scaling_model, scaling_page  # noqa: E402

GENERATE = ROOT / "reports" / "generate.py"
ONE_GPU = 3.0e13  # a GPU's rate alone, updates/s
LINK = scaling_model.Network("synthetic", 10e9 / 8, 50e-6)  # 10 Gb/s, 50 µs
WIDTH = 65536


def nccl(gpus: int, height: int, halo: int, transport: str | None, rate: float) -> dict:
    params = {"gpus": str(gpus), "halo_steps": str(halo)}
    if transport:
        params["transport"] = transport
    return synthetic.result("cuda-nccl", backend="cuda", shape=f"{WIDTH}x{height}",
                            generations=1024, rate=rate, params=params, device="H100")


def over(link: scaling_model.Network, gpus: int, height: int, halo: int) -> float:
    """The rate of `gpus` GPUs whose exchanges take what `link` takes, nothing overlapped."""
    bands = scaling_model.Bands(WIDTH, height, gpus, halo, 1 / ONE_GPU, overlapped=False)
    return gpus * ONE_GPU * bands.efficiency(link)


def folder_results() -> list[dict]:
    return [
        # one GPU on the whole universe (strong) and on one GPU's share of it (weak)
        nccl(1, 131072, 64, None, ONE_GPU),
        nccl(1, 131072, 256, None, ONE_GPU),
        nccl(1, 65536, 64, None, ONE_GPU),
        nccl(1, 65536, 256, None, ONE_GPU),
        # two GPUs on 131072 rows: both strong and weak
        nccl(2, 131072, 64, None, 1.9 * ONE_GPU),
        nccl(2, 131072, 64, "sockets", over(LINK, 2, 131072, 64)),
        nccl(2, 131072, 256, "sockets", over(LINK, 2, 131072, 256)),
        nccl(4, 262144, 64, None, 3.9 * ONE_GPU),
        # another parameter than the base's: no pair
        synthetic.result("cpu-mpi", shape="32768x32768", rate=1e9,
                         params={"ranks": "1", "halo_steps": "16", "threads": "1"}),
        synthetic.result("cpu-mpi", shape="32768x32768", rate=9e9,
                         params={"ranks": "4", "halo_steps": "16", "threads": "4"}),
        # how rows are shared is not the base's to match: paired, and shown
        synthetic.result("cpu-mpi", shape="32768x32768", rate=3.6e9,
                         params={"ranks": "4", "halo_steps": "16", "threads": "1",
                                 "bands": "measured"}),
        synthetic.with_interval(
            synthetic.result("cuda-life-wide", backend="cuda", shape="524288x524288",
                             generations=16384, rate=3.82e13, device="H100"), 0.01),
        # the paper's universe on four GPUs, beside cuda-life-wide's one GPU
        synthetic.with_interval(
            synthetic.result("cuda-multigpu", backend="cuda", shape="524288x524288",
                             generations=16384, rate=4 * 0.98 * 3.82e13, device="H100",
                             params={"gpus": "4", "halo_steps": "64"}), 0.02),
    ]


class ScalingPage(unittest.TestCase):
    def setUp(self):
        self.work = Path(tempfile.mkdtemp(prefix="lifebench-scaling-"))
        self.addCleanup(lambda: subprocess.run(["rm", "-rf", str(self.work)], check=False))
        self.folder = synthetic.write_run(self.work / "results", folder_results())
        self.runs = results.load_runs([self.folder])

    def test_each_count_beside_one_rank_of_its_run(self):
        measured = scaling_page.scaled(self.runs)
        found = {(s.transport, s.kind, s.count, s.halo_steps): s for s in measured
                 if s.result.experiment == "cuda-nccl"}
        self.assertEqual(set(found), {("host", "strong", 2, 64), ("host", "weak", 2, 64),
                                      ("sockets", "strong", 2, 64), ("sockets", "weak", 2, 64),
                                      ("sockets", "strong", 2, 256), ("sockets", "weak", 2, 256),
                                      ("host", "weak", 4, 64)})
        self.assertEqual(len(measured), len(found) + 1)
        self.assertAlmostEqual(found[("host", "strong", 2, 64)].efficiency, 0.95)
        self.assertAlmostEqual(found[("host", "weak", 4, 64)].efficiency, 0.975)
        (mpi,) = [s for s in measured if s.result.experiment == "cpu-mpi"]
        self.assertEqual((mpi.count, mpi.result.params["bands"]), (4, "measured"))
        self.assertAlmostEqual(mpi.efficiency, 0.9)

    def test_the_socket_link_is_fitted_from_the_weak_exchanges(self):
        measured = scaling_page.scaled(self.runs)
        link = scaling_page.socket_link(measured)
        self.assertAlmostEqual(link.latency_s, LINK.latency_s, delta=1e-9)
        self.assertAlmostEqual(link.bytes_per_s / LINK.bytes_per_s, 1.0, places=6)
        strong = [s for s in measured if s.kind == "strong"]
        self.assertIsNone(scaling_page.socket_link(strong))  # never fitted to strong runs

    def test_the_model_computes_a_socket_runs_bands_at_its_host_twins_rate(self):
        measured = scaling_page.scaled(self.runs)
        found = {(s.kind, s.halo_steps): s for s in measured
                 if s.result.experiment == "cuda-nccl" and s.transport == "sockets"}
        twin = found[("strong", 64)]
        self.assertEqual(twin.twin.rate, 1.9 * ONE_GPU)  # the host run of 2 GPUs, halo 64
        bands = scaling_model.Bands(WIDTH, 131072, 2, 64, 2 / (1.9 * ONE_GPU), overlapped=False)
        self.assertAlmostEqual(twin.modelled(LINK), 0.95 * bands.efficiency(LINK))
        alone = found[("strong", 256)]  # no host run of 2 GPUs at halo 256: the base's rate
        self.assertIsNone(alone.twin)
        self.assertAlmostEqual(alone.modelled(LINK), alone.efficiency)
        weak = found[("weak", 64)]  # a twin, but weak: at the base's rate, as the link was fitted
        self.assertIsNotNone(weak.twin)
        self.assertAlmostEqual(weak.modelled(LINK), weak.efficiency)

    def test_the_prediction_is_the_models_from_the_measured_rate(self):
        rate = scaling_page.paper_rate(self.runs)
        self.assertEqual(rate.rate, 3.82e13)
        curves = scaling_page.predicted(rate.rate, list(scaling_page.LINKS))
        model = scaling_model.strong_scaling(524288, 524288, 64, 3.82e13, [2, 8, 64],
                                             list(scaling_page.LINKS), overlapped=False)
        strong = curves[("100 Gb/s", "strong")]
        self.assertEqual([strong[scaling_page.HOSTS.index(n)] for n in (2, 8, 64)],
                         model["100 Gb/s"])
        self.assertAlmostEqual(strong[-1], 0.914, places=3)  # cuda-nccl's README

    def test_the_page(self):
        out = self.work / "report"
        proc = subprocess.run([sys.executable, str(GENERATE), "--results", str(self.folder),
                               "--out", str(out), "--quiet"],
                              capture_output=True, text=True, timeout=600)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn('href="scaling.html"', (out / "index.html").read_text())
        text = (out / "scaling.html").read_text()
        self.assertEqual(len(re.findall(r"<tr data-scaled=", text)), 8)
        self.assertIn("bands=measured", text)
        self.assertIn("latency 50 &micro;s, bandwidth 10 Gb/s", text)
        self.assertIn('data-link="sockets (fitted)"', text)
        row = re.search(r'<tr data-link="100 Gb/s" data-kind="strong">(.*?)</tr>', text).group(1)
        self.assertEqual(re.findall(r'<td class="n">(.*?)</td>', row), ["99.7%", "98.8%", "91.4%"])
        self.assertTrue(list(out.glob("scaling-*.png")))
        paper = re.search(r'<tr data-paper="[^"]*">(.*?)</tr>', text).group(1)
        plain = re.sub(r" <span.*?</span>", "", paper)
        self.assertEqual(re.findall(r'<td class="n"[^>]*>(.*?)</td>', plain),
                         ["4", "64", "150", "98.0%"])
        # an efficiency divides two results: its noise is their relative noise added
        self.assertIn(">\u00b13.0%</span>", paper)
        cpu = re.search(r'<tr data-scaled="cpu-mpi[^"]*">(.*?)</tr>', text).group(1)
        self.assertIn('class="spread"', cpu)

    def test_nothing_to_show(self):
        folder = synthetic.write_run(self.work / "cpu", [synthetic.result("cpu-bpbc", rate=1e9)])
        page = scaling_page.scaling_page(results.load_runs([folder]), self.work, "now")
        self.assertIn("Nothing to show", page)


if __name__ == "__main__":
    unittest.main()
