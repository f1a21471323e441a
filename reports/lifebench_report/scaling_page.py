"""The scaling page (scaling.html): one universe in bands over several GPUs or ranks, as
measured (each count's rate over that many times the one-rank rate of the same run, by
transport: `host` is NVLink or shared memory, `sockets` the network path forced on one host)
and as scaling_model.py predicts it across hosts for the paper's 524288² universe from the
rate one GPU measured on it.

Where a run measured cuda-nccl over sockets (no overlap: a pass waits for its whole exchange)
in weak scaling, each of those configurations gives an exchange's seconds, its time per pass
beyond what one GPU takes for its band, and its bytes; a link fitted to them (latency and
bandwidth) is drawn beside the two datacentre links, and its efficiency is given beside every
socket run's measured one: the strong runs check it, the weak ones it was fitted to.
Every run of a machine is listed, each row with its run and commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from . import html, plots
from .evidence import quotient_spread
from .machines import runs_by_machine, slug
from .results import Result, Run
from .scaling_model import Bands, Network, fitted_network, strong_scaling, weak_scaling

# Experiments of bands over ranks, and the parameter that counts the ranks.
COUNTS = {"cuda-nccl": "gpus", "cuda-multigpu": "gpus", "cpu-mpi": "ranks"}
# The paper's problem (Fujita et al., Table 3), one GPU a host, and the links predicted.
PAPER_SHAPE = "524288x524288"
PAPER_HALO_STEPS = 64
LINKS = (Network.of_gbit(100, 10e-6), Network.of_gbit(400, 10e-6))
HOSTS = (1, 2, 4, 8, 16, 32, 64)
TABLE_HOSTS = (2, 8, 64)


@dataclass
class Scaled:
    """A configuration on several ranks beside the one-rank run of the same run."""

    result: Result
    base: Result
    count: int
    kind: str  # "strong": the same universe; "weak": the same rows per rank
    transport: str
    # The same configuration over the host's own link (NVLink, shared memory), for a socket
    # run: its bands' compute without the network's cost.
    twin: Result | None = None

    @property
    def efficiency(self) -> float:
        return self.result.rate / (self.count * self.base.rate)

    @property
    def halo_steps(self) -> int:
        return int(self.result.params.get("halo_steps", "0") or 0)

    def bands(self, rank_rate: float | None = None) -> Bands:
        """cuda-nccl's bands (the exchange waited for), a rank at `rank_rate`, else at the
        base's rate."""
        width, height = _dims(self.result.shape)
        return Bands(width, height, self.count, self.halo_steps,
                     1 / (rank_rate or self.base.rate), overlapped=False)

    def modelled(self, link: Network) -> float:
        """The efficiency the model gives this run over `link`: a strong run's bands computed
        at the rate a rank reached with the host's own link where the run has a twin there
        (strong bands of fewer rows are slower on the GPU, which no link explains), else, as
        the link was fitted (a weak rank keeps the base's band), at the base's rate."""
        if self.twin is None or self.kind == "weak":
            return self.bands().efficiency(link)
        rank_rate = self.twin.rate / self.count
        return rank_rate / self.base.rate * self.bands(rank_rate).efficiency(link)

    def exchange(self) -> tuple[float, float]:
        """(bytes a rank sent, seconds a pass took beyond the band's compute): an exchange
        as a pass without overlap waits for it."""
        bands = self.bands()
        width, height = _dims(self.result.shape)
        measured_pass = self.halo_steps * width * height / self.result.rate
        return bands.halo_bytes, max(measured_pass - bands.pass_s(), 0.0)


def _dims(shape: str | None) -> tuple[int, int]:
    width, height = (shape or "0x0").split("x")[:2]
    return int(width), int(height)


def _others(result: Result) -> dict[str, str]:
    """The parameters but those with columns of their own: the count, halo_steps, transport."""
    shown = (COUNTS.get(result.experiment), "halo_steps", "transport")
    return {k: v for k, v in result.params.items() if k not in shown}


def _matched(result: Result) -> dict[str, str]:
    """What a one-rank base must share: the other parameters but how rows are shared among
    ranks (`bands`), which one rank does not have."""
    return {k: v for k, v in _others(result).items() if k != "bands"}


def _count(result: Result) -> int | None:
    text = result.params.get(COUNTS.get(result.experiment, ""), "")
    return int(text) if text.isdigit() else None


def scaled(runs: list[Run]) -> list[Scaled]:
    """Every verified several-rank configuration with a one-rank base in its own run: the
    same experiment, generations, width and halo_steps, and the same universe (strong) or
    one rank's share of it (weak)."""
    out = []
    for run in runs:
        mine = [r for r in run.results
                if r.experiment in COUNTS and r.verified and r.rate and _count(r)]
        bases = [r for r in mine if _count(r) == 1]
        for r in mine:
            count = _count(r)
            if count == 1:
                continue
            width, height = _dims(r.shape)
            paired: set[str] = set()  # one base of each kind: a run may be both
            for base in bases:
                b_width, b_height = _dims(base.shape)
                same = (base.experiment == r.experiment and base.generations == r.generations
                        and b_width == width and _matched(base) == _matched(r)
                        and base.params.get("halo_steps") == r.params.get("halo_steps"))
                kind = ("strong" if b_height == height else
                        "weak" if b_height * count == height else None)
                if same and kind and kind not in paired:
                    paired.add(kind)
                    out.append(Scaled(r, base, count, kind, r.params.get("transport", "host")))
    for s in out:
        if s.transport != "host":
            s.twin = next((t.result for t in out if t.transport == "host" and _twins(s, t)),
                          None)
    return sorted(out, key=lambda s: (s.result.experiment, s.transport, s.kind,
                                      s.result.shape, s.count, s.halo_steps))


def _twins(a: Scaled, b: Scaled) -> bool:
    """The same configuration of one run but for its transport."""
    return (a.result.experiment == b.result.experiment and a.result.run is b.result.run
            and a.result.shape == b.result.shape and a.result.generations == b.result.generations
            and a.count == b.count and a.halo_steps == b.halo_steps
            and _matched(a.result) == _matched(b.result))


def socket_link(measured: list[Scaled]) -> Network | None:
    """The link fitted to cuda-nccl's socket exchanges in weak scaling (a rank keeps its
    band's rows, so its GPU's rate is the base's and the time beyond is the exchange's),
    where they are of two sizes or more."""
    exchanges = [s.exchange() for s in measured if s.result.experiment == "cuda-nccl"
                 and s.transport == "sockets" and s.kind == "weak"]
    try:
        return fitted_network("sockets (fitted)", exchanges)
    except ValueError:
        return None


def paper_rate(runs: list[Run]) -> Result | None:
    """The newest verified one-GPU rate on the paper's problem (cuda-life-wide), if any."""
    found = [r for run in runs for r in run.results
             if r.experiment == "cuda-life-wide" and r.shape == PAPER_SHAPE and r.verified
             and r.rate]
    return max(found, key=lambda r: (r.run.started, r.rate)) if found else None


def paper_bands(rate: Result) -> list[Result]:
    """The verified several-GPU runs of the paper's problem in the run of `rate` (its one-GPU
    rate on the same universe and generations)."""
    return [r for r in rate.run.results
            if r.experiment in COUNTS and r.shape == PAPER_SHAPE and r.verified and r.rate
            and (_count(r) or 0) > 1 and r.generations == rate.generations]


def _paper_bands_table(rate: Result, found: list[Result]) -> str:
    rows = []
    for r in found:
        count = _count(r) or 1
        efficiency = r.rate / (count * rate.rate)
        rows.append(f'<tr data-paper="{html.esc(r.config_id)}"><td>{html.esc(r.experiment)}</td>'
                    f'<td>{html.esc(r.params.get("transport", "host"))}</td>'
                    f'<td class="n">{count}</td>'
                    f'<td class="n">{html.esc(r.params.get("halo_steps", "-"))}</td>'
                    f'<td class="n">{r.rate / 1e12:.3g}</td>'
                    f'<td class="n" data-efficiency="{efficiency:.4f}">{efficiency:.1%} '
                    f"{html.noise_span(quotient_spread([r, rate]))}</td></tr>")
    return ("<p>Measured in the same run: the paper&rsquo;s universe in bands over this "
            "host&rsquo;s GPUs (strong scaling from cuda-life-wide&rsquo;s one GPU, the same "
            "kernel on the whole universe).</p>" + '<table class="list">' + html.header_row(
                "experiment", "transport", "GPUs", "halo_steps", "10<sup>12</sup> updates/s",
                "efficiency") + "".join(rows) + "</table>")


def predicted(rank_rate: float, links: list[Network],
              hosts: tuple[int, ...] = HOSTS) -> dict[tuple[str, str], list[float]]:
    """Each (link, strong | weak)'s efficiency on each count of hosts, the paper's universe
    (weak: 524288² a host), one GPU a host at `rank_rate`, its exchange not overlapped."""
    width, height = _dims(PAPER_SHAPE)
    ranks = list(hosts)
    strong = strong_scaling(width, height, PAPER_HALO_STEPS, rank_rate, ranks, links,
                            overlapped=False)
    weak = weak_scaling(width, height, PAPER_HALO_STEPS, rank_rate, ranks, links,
                        overlapped=False)
    return {(link.name, kind): curves[link.name]
            for link in links for kind, curves in (("strong", strong), ("weak", weak))}


def _measured_table(measured: list[Scaled], link: Network | None) -> str:
    rows = []
    for s in measured:
        model = ""
        if (link is not None and s.result.experiment == "cuda-nccl"
                and s.transport == "sockets"):
            model = f"{s.modelled(link):.1%}"
        rows.append(
            f'<tr data-scaled="{html.esc(s.result.config_id)}"><td>{html.esc(s.result.experiment)}'
            f"</td><td>{html.esc(s.transport)}</td><td>{s.kind}</td>"
            f"<td>{html.esc(s.result.shape)}</td><td class=\"n\">{s.count}</td>"
            f"<td>{html.esc(', '.join(f'{k}={v}' for k, v in _others(s.result).items()))}</td>"
            f'<td class="n">{s.halo_steps or "&ndash;"}</td>'
            f'<td class="n">{s.result.rate / 1e12:.3g}</td>'
            f'<td class="n" data-efficiency="{s.efficiency:.4f}">{s.efficiency:.1%} '
            f"{html.noise_span(quotient_spread([s.result, s.base]))}</td>"
            f'<td class="n">{model or "&ndash;"}</td>'
            f"<td>{html.esc(s.result.run.label)} @ "
            f"{html.esc(s.result.run.short_commit)}</td></tr>"
        )
    return ('<table class="list">' + html.header_row(
        "experiment", "transport", "scaling", "universe", "ranks or GPUs", "other parameters",
        "halo_steps",
        "10<sup>12</sup> updates/s", "efficiency", "model (fitted link)", "run")
            + "".join(rows)
            + "</table>")


def _prediction_table(curves: dict[tuple[str, str], list[float]]) -> str:
    rows = []
    for (link, kind), values in curves.items():
        cells = "".join(f'<td class="n">{values[HOSTS.index(n)]:.1%}</td>' for n in TABLE_HOSTS)
        rows.append(f'<tr data-link="{html.esc(link)}" data-kind="{kind}"><td>{html.esc(link)}'
                    f"</td><td>{kind}</td>{cells}</tr>")
    return ('<table class="list">' + html.header_row(
        "link", "scaling", *[f"{n} hosts" for n in TABLE_HOSTS]) + "".join(rows) + "</table>")


def scaling_page(runs: list[Run], stage: Path, generated: str) -> str:
    body = [
        "<h1>Scaling: one universe in bands over GPUs, ranks and hosts</h1>",
        '<p class="lead">Efficiency: the rate on n ranks (or GPUs) over n times the rate of '
        "one rank in the same run (strong: the same universe; weak: the same rows a rank). "
        "Transport <code>host</code>: NVLink or shared memory; <code>sockets</code>: the "
        "network path forced on one host (TCP over the loopback), as between hosts. The model "
        "(reports/lifebench_report/scaling_model.py) loses what a link takes beyond the band's "
        "interior: efficiency = pass / (pass + max(0, latency + bytes / bandwidth &minus; "
        "interior)).</p>",
    ]
    for machine, machine_runs in runs_by_machine(runs).items():
        measured = scaled(machine_runs)
        rate = paper_rate(machine_runs)
        if not measured and rate is None:
            continue
        body.append(f'<h2 data-machine="{html.esc(machine.name)}">{html.esc(machine.label)}</h2>')
        link = socket_link(measured)
        if measured:
            body.append(_measured_table(measured, link))
        if link is not None:
            body.append(f'<p data-link-fitted="1">Fitted to cuda-nccl&rsquo;s socket exchanges '
                        f"(seconds a pass beyond one GPU&rsquo;s compute of the band, against its "
                        f"bytes): latency {link.latency_s * 1e6:.3g} &micro;s, bandwidth "
                        f"{link.bytes_per_s * 8 / 1e9:.3g} Gb/s, fitted to the weak-scaling "
                        "socket runs; the model column is that link on every socket run (the "
                        "strong ones were not fitted), a strong run&rsquo;s bands computed at the "
                        "rate a GPU reached in the same configuration over the host&rsquo;s own "
                        "link where the run has it: strong scaling&rsquo;s shorter bands are "
                        "slower on the GPU itself, which no link explains.</p>")
        if rate is None:
            continue
        links = list(LINKS) + ([link] if link is not None else [])
        curves = predicted(rate.rate, links)
        body.append(f"<h3>Predicted: the paper&rsquo;s {PAPER_SHAPE.replace('x', '&times;')} "
                    "universe, one GPU a host</h3>")
        body.append(f"<p>From cuda-life-wide&rsquo;s {rate.rate / 1e12:.3g} &times; "
                    f"10<sup>12</sup> updates/s on it ({html.esc(rate.run.label)}, "
                    f"{html.esc(rate.run.short_commit)}), halo_steps "
                    f"{PAPER_HALO_STEPS}, 10 &micro;s a message, the exchange not overlapped "
                    "(as cuda-nccl); weak scaling keeps 524288&sup2; a host.</p>")
        body.append(_prediction_table(curves))
        if found := paper_bands(rate):
            body.append(_paper_bands_table(rate, found))
        image = f"scaling-{slug(machine.name)}.png"
        size = plots.scaling_plot(curves, HOSTS, stage / image)
        body.append(html.img((image, size), "predicted efficiency against hosts"))
    if len(body) == 2:
        body.append('<p class="why">Nothing to show: no run measured bands on several ranks '
                    "beside one, nor cuda-life-wide on the paper's problem.</p>")
    return html.page("lifebench report: scaling", "\n".join(body), generated)
