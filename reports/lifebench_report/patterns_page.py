"""The patterns page (patterns.html): for each pattern that started runs instead of soups (the
sweep `patterns`, datasets/README.md), the rate against generations of every experiment
that ran it, and the generations from which Golly's HashLife stays at least as fast as each
kernel on the same grid, or the statement that it does not within the run.

Each machine's numbers on each grid come from its newest run that started from the pattern on
that grid (never the best across runs), and a crossover compares two results of that one run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import html, plots
from .figures import Figure, Point, y_interval
from .machines import Machine, by_machine, newest, on_machine
from .results import Result, Run

HASHLIFE = "external-golly-hashlife"


@dataclass
class Crossover:
    """Where HashLife overtakes one kernel on one pattern and grid, in one run."""

    experiment: str
    shape: str
    # The least generations from which HashLife is at least as fast at every count both
    # measured; None: it is not at the largest.
    generations: int | None
    measured: list[int]  # the generations both measured
    ahead: list[int]  # those at which HashLife is at least as fast
    hashlife_ran: bool
    run: Run
    # Those at which the two rates' intervals overlap: which is faster is within the noise.
    within_noise: list[int] = field(default_factory=list)


def pattern_results(runs: list[Run]) -> dict[str, list[Result]]:
    """The verified results started from each pattern, by its path as the sweep named it."""
    out: dict[str, list[Result]] = {}
    for run in runs:
        for result in run.results:
            if result.pattern and result.verified and result.rate and result.generations:
                out.setdefault(result.pattern, []).append(result)
    return dict(sorted(out.items()))


def _by_size(shapes: set[str]) -> list[str]:
    return sorted(shapes, key=lambda shape: [int(side) for side in shape.split("x")])


def newest_runs(results: list[Result]) -> dict[tuple[Machine, str], list[Result]]:
    """Of one pattern's results, by machine and grid, those of the newest run on that grid."""
    out = {}
    for machine, members in by_machine(results).items():
        for shape in _by_size({r.shape for r in members}):
            out[(machine, shape)] = newest(r for r in members if r.shape == shape)[0]
    return out


def best_rates(results: list[Result]) -> dict[tuple[str, str], dict[int, Result]]:
    """The fastest result per generations of each experiment on each grid (of one run: the
    best of its configurations)."""
    out: dict[tuple[str, str], dict[int, Result]] = {}
    for r in results:
        by_generations = out.setdefault((r.experiment, r.shape), {})
        if r.generations not in by_generations or r.rate > by_generations[r.generations].rate:
            by_generations[r.generations] = r
    return out


def crossovers(results: list[Result]) -> list[Crossover]:
    """Each kernel against HashLife on the same grid, at the generations both measured, in
    the one run `results` (not empty) come from."""
    run = results[0].run
    best = best_rates(results)
    out = []
    for (experiment, shape), mine in sorted(best.items()):
        if experiment == HASHLIFE:
            continue
        hashlife = best.get((HASHLIFE, shape), {})
        common = sorted(set(mine) & set(hashlife))
        ahead = [g for g in common if hashlife[g].rate >= mine[g].rate]
        tied = [g for g in common if _overlap(hashlife[g], mine[g])]
        stays = None
        for g in reversed(common):
            if g not in ahead:
                break
            stays = g
        out.append(Crossover(experiment, shape, stays, common, ahead, bool(hashlife), run, tied))
    return out


def _overlap(a: Result, b: Result) -> bool:
    """Whether the rates of `a` and `b` lie within each other's intervals (neither ran once)."""
    bounds = [y_interval(r.rate, r) for r in (a, b)]
    return all(bounds) and bounds[0][0] <= bounds[1][1] and bounds[1][0] <= bounds[0][1]


def _counts(generations: list[int]) -> str:
    return ", ".join(str(g) for g in generations)


def _crossover_text(c: Crossover) -> str:
    text = _overtaking_text(c)
    if c.within_noise:
        text += f" (within the noise at {_counts(c.within_noise)})"
    return text


def _overtaking_text(c: Crossover) -> str:
    if not c.hashlife_ran:
        return "HashLife did not run this pattern on this grid"
    if not c.measured:
        return "no generation count measured by both"
    if c.generations is None:
        text = f"HashLife does not overtake it within the run (up to {c.measured[-1]} generations)"
        return text + (f"; it is at least as fast at {_counts(c.ahead)} only" if c.ahead else "")
    earlier = [g for g in c.ahead if g < c.generations]
    text = f"HashLife is at least as fast from {c.generations} generations"
    return text + (f"; also at {_counts(earlier)}" if earlier else "")


def figure_for(pattern: str, shape: str, index: int) -> Figure:
    return Figure(stem=f"pattern-{index}-{shape}", path=Path(pattern),
                  title=f"Pattern {pattern} on {shape}", x="generations", y="cells/s",
                  label="cell updates per second", log_x=True, log_y=True)


def points(by_run: dict[tuple[Machine, str], list[Result]]) -> list[Point]:
    """The best result per experiment and generations of each newest run (newest_runs) of
    one grid; a series names its machine where several ran the pattern."""
    machines = len({machine for machine, _ in by_run})
    return [Point(on_machine(experiment, machine, machines), g, r.rate, r, y_interval(r.rate, r))
            for (machine, _), results in by_run.items()
            for (experiment, _), by_generations in best_rates(results).items()
            for g, r in sorted(by_generations.items())]


def _run_text(run: Run) -> str:
    return f"{run.machine.label}, {run.short_commit}, {run.label}"


def page(sections: Sequence[tuple[str, list[Crossover], list[tuple[str, html.Image]]]],
         generated: str) -> str:
    body = ["<h1>Patterns</h1>",
            '<p class="lead">Runs started from a pattern instead of random soups: the rate '
            "(cell updates per second, on the whole grid) against the generations of a "
            "repetition, and where HashLife (external-golly-hashlife) overtakes each kernel "
            "on the same grid. Each point is the best configuration of an experiment in the "
            "newest run of a machine that started from the pattern, its bar its interval; a "
            "crossover compares two results of that run, and names the counts at which their "
            "intervals overlap (within the noise). HashLife runs on the kernels' own grids, "
            "tori: on a bounded grid Golly advances HashLife one generation at a time (it "
            "clears the cells outside after each), so the large steps that make HashLife win "
            "on an unbounded plane are not taken here. The patterns are described in "
            "datasets/README.md.</p>"]
    if not sections:
        body.append('<p class="why">No verified result in these results started from a pattern '
                    "(the sweeps patterns and patterns-quick run them).</p>")
    for pattern, found, images in sections:
        body.append(f'<h2 data-pattern="{html.esc(pattern)}">{html.esc(pattern)}</h2>')
        for shape, image in images:
            body.append(html.img(image, f"rate against generations, pattern {pattern} on {shape}"))
        rows = "".join(
            f'<tr data-crossover="{html.esc(c.experiment)}"><td>{html.esc(c.experiment)}</td>'
            f"<td>{html.esc(c.shape)}</td><td>{html.esc(_run_text(c.run))}</td>"
            f"<td>{html.esc(_crossover_text(c))}</td></tr>"
            for c in found)
        body.append('<table class="list"><tr><th>experiment</th><th>grid</th><th>run</th>'
                    f"<th>HashLife crossover</th></tr>{rows}</table>")
    return html.page("lifebench report: patterns", "\n".join(body), generated)


def patterns_page(runs: list[Run], stage: Path, generated: str) -> str:
    """The page, its figures drawn into `stage`: one section per pattern that started a
    verified result, a figure for each grid it ran on (the kernels HashLife is compared with
    share it), or a line saying that none did."""
    sections = []
    for i, (pattern, results) in enumerate(pattern_results(runs).items()):
        by_run = newest_runs(results)
        images = []
        for shape in _by_size({shape for _, shape in by_run}):
            figure = figure_for(pattern, shape, i)
            on_grid = {key: rs for key, rs in by_run.items() if key[1] == shape}
            size = plots.figure_plot(figure, points(on_grid), stage / figure.image)
            if size:
                images.append((shape, (figure.image, size)))
        found = [c for one_run in by_run.values() for c in crossovers(one_run)]
        sections.append((pattern, found, images))
    return page(sections, generated)
