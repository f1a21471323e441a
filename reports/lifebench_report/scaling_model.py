"""How well one universe split in bands across ranks (cpu-mpi, cuda-nccl) should scale over
a network, predicted from what a run measures: each rank's compute time per generation and
the halo bytes it exchanges.

A rank holds `band_rows` rows of `width` cells and advances them `halo_steps` generations a
pass. Each pass it sends `halo_steps` rows to the rank above and as many to the rank below
(`2 * halo_steps * row_bytes` through its one network link, which carries the two
neighbours' rows the other way at the same time). cpu-mpi computes its band's interior, the
rows that need no halo, while they travel, and only the edge rows wait; cuda-nccl exchanges
between its kernels (`overlapped` false: the whole exchange is lost). What the link takes
beyond the interior's time is lost:

    pass      = halo_steps * band_rows * width * seconds_per_cell
    interior  = halo_steps * (band_rows - 2 * halo_steps) * width * seconds_per_cell
    exchange  = latency + 2 * halo_steps * row_bytes / bandwidth
    efficiency = pass / (pass + max(0, exchange - interior))

`seconds_per_cell` is one rank's alone on a band of that size, so the efficiency counts the
network's loss only; a rank slower on a smaller band (a GPU with fewer rows to keep it busy)
or on a shared host is a loss of its own, measured by the runs, which multiplies this one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Network:
    """A link between two hosts: its bandwidth each way and its one-message latency."""

    name: str
    bytes_per_s: float
    latency_s: float

    @staticmethod
    def of_gbit(gbit_per_s: float, latency_s: float) -> "Network":
        return Network(f"{gbit_per_s:g} Gb/s", gbit_per_s * 1e9 / 8, latency_s)


@dataclass(frozen=True)
class Bands:
    """A torus of `height` rows of `width` cells in bands across `ranks`, a cell updated in
    `seconds_per_cell` by one rank, halos exchanged every `halo_steps` generations."""

    width: int
    height: int
    ranks: int
    halo_steps: int
    seconds_per_cell: float
    overlapped: bool = True

    def __post_init__(self) -> None:
        if min(self.width, self.height, self.ranks, self.halo_steps) < 1:
            raise ValueError(f"bands need positive sizes, ranks and halo_steps: {self}")
        if not self.seconds_per_cell > 0:
            raise ValueError(f"seconds_per_cell must be positive: {self.seconds_per_cell}")

    @property
    def band_rows(self) -> float:
        return self.height / self.ranks

    @property
    def halo_bytes(self) -> float:
        """Bytes one rank sends each exchange (one bit a cell, both neighbours)."""
        return 2 * self.halo_steps * math.ceil(self.width / 8)

    def pass_s(self) -> float:
        return self.halo_steps * self.band_rows * self.width * self.seconds_per_cell

    def interior_s(self) -> float:
        """The compute that hides the exchange: the interior's, or none."""
        if not self.overlapped:
            return 0.0
        rows = max(self.band_rows - 2 * self.halo_steps, 0.0)
        return self.halo_steps * rows * self.width * self.seconds_per_cell

    def exchange_s(self, network: Network) -> float:
        return network.latency_s + self.halo_bytes / network.bytes_per_s

    def efficiency(self, network: Network) -> float:
        """The rate on `ranks` over `ranks` times one rank's: 1 where the interior hides the
        exchange, lower where the link is slower than the interior takes."""
        exposed = max(0.0, self.exchange_s(network) - self.interior_s())
        return self.pass_s() / (self.pass_s() + exposed)

    def rate(self, network: Network) -> float:
        """Cell updates per second of all the ranks together."""
        return self.ranks / self.seconds_per_cell * self.efficiency(network)


def _scaling(bands_on: Callable[[int], Bands], ranks: list[int],
             networks: list[Network]) -> dict[str, list[float]]:
    """Each network's efficiency for the bands `bands_on` gives each count of `ranks`."""
    return {n.name: [bands_on(r).efficiency(n) for r in ranks] for n in networks}


def strong_scaling(width: int, height: int, halo_steps: int, rank_rate: float,
                   ranks: list[int], networks: list[Network],
                   overlapped: bool = True) -> dict[str, list[float]]:
    """Each network's predicted efficiency on each count of `ranks` for one universe, a rank
    updating `rank_rate` cells a second."""
    return _scaling(lambda r: Bands(width, height, r, halo_steps, 1 / rank_rate, overlapped),
                    ranks, networks)


def weak_scaling(width: int, rows_per_rank: int, halo_steps: int, rank_rate: float,
                 ranks: list[int], networks: list[Network],
                 overlapped: bool = True) -> dict[str, list[float]]:
    """As strong_scaling, each rank keeping `rows_per_rank` rows as ranks are added."""
    return _scaling(
        lambda r: Bands(width, rows_per_rank * r, r, halo_steps, 1 / rank_rate, overlapped),
        ranks, networks)


def fitted_network(name: str, exchanges: list[tuple[float, float]]) -> Network:
    """The latency and bandwidth that best explain measured exchanges, each (bytes a rank
    sent, seconds it took), by least squares on seconds = latency + bytes / bandwidth: a
    transport measured on some runs, to predict the others."""
    if len(exchanges) < 2 or len({b for b, _ in exchanges}) < 2:
        raise ValueError("a fit needs exchanges of at least two sizes")
    count = len(exchanges)
    mean_b = sum(b for b, _ in exchanges) / count
    mean_s = sum(s for _, s in exchanges) / count
    slope = sum((b - mean_b) * (s - mean_s) for b, s in exchanges) / sum(
        (b - mean_b) ** 2 for b, _ in exchanges)
    if slope <= 0:
        raise ValueError("the exchanges do not take longer with more bytes: no bandwidth to fit")
    return Network(name, 1 / slope, max(mean_s - slope * mean_b, 0.0))
