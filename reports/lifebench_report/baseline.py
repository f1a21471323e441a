"""Before and after (`--baseline DIR`): each configuration of the report's runs beside the
same configuration (the same config_id) in a baseline results folder, as `lifebench compare`
pairs them: both rates and after / before. A rate is compared only where both sides are ok
and verified; whether a difference is more than noise is for `lifebench compare` to judge
(it tests the repetitions), so the section points there."""

from __future__ import annotations

from .html import esc
from .results import Result, Run
from .units import fmt3


def _state(result: Result) -> str:
    """The rate in 10^9 updates/s where it may be compared, else why not."""
    if result.verified and result.rate:
        return fmt3(result.rate / 1e9)
    return "not verified" if result.status == "ok" else result.status


def before_after(runs: list[Run], baseline: list[Run]) -> str:
    """The index's section: one row per configuration in both, then the counts of those in
    one side only."""
    before = {r.config_id: r for run in baseline for r in run.results}
    after = [r for run in runs for r in run.results]
    both = [r for r in after if r.config_id in before]
    only_after = len(after) - len(both)
    only_before = len(set(before) - {r.config_id for r in after})
    folders = ", ".join(run.label for run in baseline)  # no path of this machine on a site
    rows = []
    for r in both:
        b = before[r.config_id]
        compared = r.verified and b.verified and r.rate and b.rate
        ratio = fmt3(r.rate / b.rate) if compared else "&ndash;"
        rows.append(
            f'<tr data-config="{esc(r.config_id)}"><td>{esc(r.experiment)}</td>'
            f"<td>{esc(r.params_text)}</td><td><code>{esc(r.problem_text)}</code></td>"
            f'<td class="n">{esc(r.generations)}</td><td class="n">{esc(_state(b))}</td>'
            f'<td class="n">{esc(_state(r))}</td><td class="n ratio">{ratio}</td></tr>'
        )
    table = (
        "<table><tr><th>experiment</th><th>params</th><th>problem</th><th>generations</th>"
        "<th>before, 10<sup>9</sup> cell updates/s</th><th>after</th><th>after / before</th>"
        "</tr>" + "".join(rows) + "</table>"
        if rows
        else '<p class="why">No configuration of these runs is in the baseline.</p>'
    )
    return (
        '<h2 id="before-after">Before and after</h2>'
        f'<p class="lead">Baseline: {esc(folders)}. {len(both)} configurations in both, '
        f"{only_after} only in these runs, {only_before} only in the baseline. A ratio above 1 "
        "is faster now; <code>lifebench compare BASELINE RESULTS</code> tests each difference "
        "against the repetitions' spread.</p>" + table
    )
