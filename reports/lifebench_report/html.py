"""The report's pages: static HTML and CSS, no JavaScript, no network resource. This module
holds what every page shares and the index page; a table's page is table_page.py.

Every text that comes from results, manifests or table files goes through `esc`: results
are untrusted (an experiment name or a failure message may hold anything). Cells of the
published / measured / ratio / normalised tables carry data-kind, data-row, data-col,
data-status and data-value attributes so that tests read the DOM instead of guessing at
layout.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from datetime import datetime, timezone
from pathlib import PurePath
from typing import Any, Iterable, Sequence

from .bounds import Kind, fraction
from .cells import FAILED, NOT_RUN, PASSED, UNVERIFIED, TableView
from .evidence import checked, spread
from .figures import Figure
from .glossary import GLOSSARY, term
from .results import Result, Run, Tie
from .tables import Table
from .units import UNITS, NotConvertible, fmt3

INDEX = "index.html"
THROUGHPUT_PNG = "throughput.png"
ROOFLINE_TITLES = {"square": "Square grids (B3/S23 and relatives)", "hex": "Hexagonal grids",
                   "3d": "3D grids"}

# An image beside the pages: its file name and the CSS pixels it is shown at.
Image = tuple[str, tuple[int, int]]

CSS = """
:root { --ink: #1d2330; --muted: #5b6473; --line: #d5d9e0; --head: #eef1f5;
        --ok: #17693a; --ok-bg: #e3f3e8; --fail: #a8221b; --fail-bg: #fbe4e2;
        --warn: #8a5300; --warn-bg: #fdf0d5; --none: #5b6473; --none-bg: #eceef1;
        --link: #6a3d9a; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif;
       color: var(--ink); background: #ffffff; }
header.top { background: #26303f; color: #ffffff; padding: 0.6rem 1.5rem; font-size: 0.95rem; }
header.top .brand { font-weight: 600; margin-right: 1.5rem; }
header.top nav { display: inline; }
header.top nav a { color: #c9d1dc; text-decoration: none; margin-right: 1.1rem; }
header.top nav a:hover { color: #ffffff; text-decoration: underline; }
main { padding: 0.5rem 1.5rem 2rem; }
footer { color: var(--muted); font-size: 0.8rem; padding: 1rem 1.5rem;
  border-top: 1px solid var(--line); }
h1 { font-size: 1.55rem; margin: 1rem 0 0.3rem; }
h2 { font-size: 1.2rem; margin: 1.8rem 0 0.6rem; border-bottom: 1px solid var(--line);
  padding-bottom: 0.2rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 0.4rem; }
a { color: var(--link); }
p.lead { color: var(--muted); margin: 0.2rem 0 0.8rem; }
code, .mono { font-family: "DejaVu Sans Mono", ui-monospace, monospace; font-size: 0.88em; }
table { border-collapse: collapse; }
th, td { border: 1px solid var(--line); padding: 0.3rem 0.55rem; vertical-align: top;
  text-align: left; }
th { background: var(--head); font-weight: 600; }
table.kv th { width: 11rem; }
table.kv td { min-width: 16rem; }
.facts { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
.grids { display: flex; flex-wrap: wrap; gap: 1.6rem; align-items: flex-start; }
figure { margin: 0; }
figcaption { font-weight: 600; margin-bottom: 0.35rem; }
figcaption small { font-weight: 400; color: var(--muted); }
table.grid td { text-align: right; min-width: 6.5rem; }
table.grid th.col { text-align: center; }
table.grid th.row { max-width: 18rem; }
table.grid th.row small, th small { display: block; font-weight: 400; color: var(--muted);
  font-size: 0.8em; }
table.grid td.measured { max-width: 17rem; }
.num { font-variant-numeric: tabular-nums; font-weight: 600; font-size: 1.05rem; }
td .unit { color: var(--muted); font-size: 0.8em; margin-left: 0.2em; }
.badge { display: inline-block; border-radius: 0.7rem; padding: 0 0.5rem; font-size: 0.75rem;
         font-weight: 600; margin-left: 0.35rem; white-space: nowrap; }
.why { display: block; text-align: left; font-size: 0.78rem; color: var(--muted);
  margin-top: 0.15rem; }
td.passed { background: var(--ok-bg); } td.passed .badge { background: var(--ok);
  color: #ffffff; }
td.failed { background: var(--fail-bg); } td.failed .badge { background: var(--fail);
  color: #ffffff; }
td.failed .why { color: var(--fail); }
td.unverified { background: var(--warn-bg); } td.unverified .badge { background: var(--warn);
  color: #ffffff; }
td.not_run { background: var(--none-bg); } td.not_run .badge { background: #8a93a1;
  color: #ffffff; }
td.empty { color: var(--muted); text-align: center; }
td.derived, th.derived { border-top: 2px solid #aab2bf; }
td.better .num { color: var(--ok); } td.worse .num { color: var(--fail); }
tr.status-failed td.status { color: var(--fail); font-weight: 600; }
tr.status-ok td.status { color: var(--ok); font-weight: 600; }
tr.status-unsupported td.status, tr.status-unavailable td.status { color: var(--muted);
  font-weight: 600; }
td.v-failed { color: var(--fail); font-weight: 600; } td.v-passed { color: var(--ok); }
table.list td, table.configs td { font-size: 0.88rem; }
table.configs td.n { text-align: right; font-variant-numeric: tabular-nums; }
table.configs { width: 100%; }
table.configs td:last-child, table.configs td code { overflow-wrap: anywhere; }
table.configs td, table.configs th { font-size: 0.82rem; padding: 0.25rem 0.4rem; }
table.configs tr.chosen td { background: #f3f7fb; }
.warnings { background: var(--warn-bg); border-left: 4px solid var(--warn);
  padding: 0.4rem 0.8rem; margin: 0.6rem 0; }
.warnings li { margin: 0.15rem 0; }
.legend .badge { margin: 0 0.2rem 0 0.8rem; }
.legend .b-passed { background: var(--ok); color: #fff; }
  .legend .b-failed { background: var(--fail); color: #fff; }
.legend .b-unverified { background: var(--warn); color: #fff; }
  .legend .b-not_run { background: #8a93a1; color: #fff; }
img.plot { display: block; border: 1px solid var(--line); width: 100%; max-width: 1600px;
  height: auto; margin-top: 0.5rem; }
table.dashboard td { font-size: 0.92rem; vertical-align: middle; }
table.dashboard td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.dashboard td.machines { white-space: nowrap; font-size: 0.82rem; }
table.dashboard td.passed { background: var(--ok-bg); }
table.dashboard td.not_run { background: var(--none-bg); }
table.dashboard td.failed { background: var(--fail-bg); }
a.term { color: inherit; text-decoration: underline dotted #8a93a1; }
dl.glossary dt { font-weight: 600; margin-top: 0.8rem; }
dl.glossary dd { margin: 0.2rem 0 0 1.5rem; max-width: 60rem; }
details.cell { text-align: left; font-size: 0.75rem; color: var(--muted); margin-top: 0.2rem; }
details.cell summary { cursor: pointer; }
details.cell ul { margin: 0; padding-left: 1rem; }
.downloads a { margin-right: 0.5rem; }
pre.tail { white-space: pre-wrap; font-size: 0.75rem; max-height: 8rem; overflow: auto;
  margin: 0.2rem 0 0; }
.original { display: block; text-align: left; font-size: 0.78rem; margin-top: 0.25rem;
  padding: 0.1rem 0.3rem; background: #ffffff; border-left: 3px solid #6a3d9a; }
.spread { font-size: 0.78rem; color: var(--muted); margin-left: 0.25rem; white-space: nowrap; }
a.num { color: inherit; text-decoration: none; border-bottom: 1px dotted #8a93a1; }
td.passed .badge.smaller, .legend .badge.smaller { background: #5f9e78; }
td.passed .badge.final { background: #ffffff; color: var(--ok); border: 1px solid var(--ok); }
td.passed .badge.final.failed { color: var(--fail); border-color: var(--fail); }
div.machine-grids { display: contents; }
figcaption .machine { font-family: "DejaVu Sans Mono", ui-monospace, monospace;
  font-size: 0.9em; color: #2c4a6e; }
table.comparisons td { font-size: 0.85rem; }
table.comparisons td.n { text-align: right; font-variant-numeric: tabular-nums; }
table.hw td .why { display: inline; }
"""

BADGE = {PASSED: "verified", FAILED: "failed", UNVERIFIED: "not verified", NOT_RUN: "not run"}


def esc(value: Any) -> str:
    return html.escape(_text(value), quote=True)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value)
    return json.dumps(value) if isinstance(value, dict) else str(value)


def label_html(label: str) -> str:
    """Escaped, with `^9` written as a superscript."""
    return re.sub(r"\^(-?[0-9]+)", r"<sup>\1</sup>", esc(label))


# The site's pages beside the tables' own, in the order of the navigation bar.
FIGURES, RUNS, CONFIGURATIONS = "figures.html", "runs.html", "configurations.html"
HISTORY, PATTERNS = "history.html", "patterns.html"
NAV = (
    (INDEX, "tables"),
    (FIGURES, "figures"),
    (PATTERNS, "patterns"),
    (HISTORY, "history"),
    (RUNS, "runs"),
    (CONFIGURATIONS, "configurations"),
    (GLOSSARY, "glossary"),
)


def page(title: str, body: str, generated: str) -> str:
    nav = "".join(f'<a href="{href}">{name}</a>' for href, name in NAV)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
      content="default-src 'none'; style-src 'unsafe-inline'; img-src 'self' file:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<style>{CSS}</style>
</head>
<body>
<header class="top"><span class="brand">lifebench report</span><nav>{nav}</nav></header>
<main>
{body}
</main>
<footer>Generated by lifebench's reports/generate.py on {esc(generated)}.
Numbers have three significant digits.</footer>
</body>
</html>
"""


def citation(source: dict[str, str]) -> str:
    """The table's source as a reader cites it: authors: title, venue, year, link; the
    seed's file name only as the title of its glossary link."""
    work = ", ".join(
        text
        for text in (
            f"<cite>{esc(source['title'])}</cite>" if "title" in source else "",
            esc(source.get("venue", "")),
            esc(source.get("year", "")),
        )
        if text
    )
    text = f"{esc(source['authors'])}: {work}" if "authors" in source else work
    if "url" in source:
        text += f' &middot; <a href="{esc(source["url"])}">{esc(source["url"])}</a>'
    seed = source["seed"]
    return (
        f'{text} (<a class="term" href="{GLOSSARY}#seed" title="{esc(seed)}">seed '
        f'{esc(seed.split("_", 1)[0])}</a>)'
    )


def short_citation(source: dict[str, str]) -> str:
    """Surnames and year (or the title) for the dashboard; the table's page gives the rest."""
    surnames = [name.split()[-1] for name in source.get("authors", "").split(",") if name.strip()]
    who = (
        f"{surnames[0]} et al." if len(surnames) > 2 else " and ".join(surnames)
    ) or source.get("title", source["seed"])
    return esc(who) + (f' ({esc(source["year"])})' if "year" in source else "")


def kv(rows: Iterable[tuple[str, Any]], cls: str = "kv") -> str:
    cells = "".join(f"<tr><th>{esc(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<table class="{cls}">{cells}</table>'


def _head(*names: str) -> str:
    return "<tr>" + "".join(f"<th>{name}</th>" for name in names) + "</tr>"


def warnings(items: list[str]) -> str:
    if not items:
        return ""
    return '<ul class="warnings">' + "".join(f"<li>{esc(w)}</li>" for w in items) + "</ul>"


def img(image: Image, alt: str) -> str:
    src, (width, height) = image
    return f'<img class="plot" src="{esc(src)}" width="{width}" height="{height}" alt="{esc(alt)}">'


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


# ----------------------------------------------------------------------------- index page


def index_page(
    runs: list[Run],
    views: list[TableView],
    generated: str,
    before_after: str | None = None,
) -> str:
    """The front page: one line per published table, what it holds, and where the rest is.
    `before_after`: the section comparing with a baseline (baseline.py), if any."""
    results = [r for run in runs for r in run.results]
    statuses = Counter(r.status for r in results)
    summary = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) or "none"
    machines = sorted({run.machine.label for run in runs})
    body = [
        "<h1>lifebench report</h1>",
        f'<p class="lead">Published tables of Game of Life implementations beside our '
        f"measurements: {len(results)} configurations ({esc(summary)}) from "
        f'{len(runs)} <a href="{RUNS}">results folder{"s" if len(runs) != 1 else ""}</a> of '
        f"{len(machines)} {term('machine', 'machine' if len(machines) == 1 else 'machines')} "
        f"({esc(', '.join(machines))}). Each number was "
        f"{term('verified', 'verified')} before it was timed. Figures, runs and every "
        f'configuration are on their own pages (<a href="{FIGURES}">figures</a>, '
        f'<a href="{RUNS}">runs</a>, <a href="{CONFIGURATIONS}">configurations</a>), '
        f'terms in the <a href="{GLOSSARY}">glossary</a>.</p>',
    ]
    warned = [f"{run.label}: {w}" for run in runs for w in run.warnings]
    if warned:
        body.append(
            f'<p class="why" data-warnings="{len(warned)}">{len(warned)} '
            f'warning{"s" if len(warned) != 1 else ""} about the results folders: '
            f'see <a href="{RUNS}">runs</a>.</p>'
        )
    body.append(dashboard(views))
    if before_after:
        body.append(before_after)
    return page("lifebench report", "\n".join(body), generated)


def dashboard(views: list[TableView]) -> str:
    """Each published table as one line: its verified cells, its best ratio and where it was
    measured, its downloads."""
    rows = []
    for view in views:
        t = view.table
        counts = view.counts()
        total = sum(counts.values())
        status = PASSED if counts[PASSED] == total else FAILED if counts[FAILED] else NOT_RUN
        others = ", ".join(
            f"{counts[s]} {BADGE[s]}" for s in (FAILED, UNVERIFIED, NOT_RUN) if counts[s]
        )
        machines = [g.machine.label for g in view.grids if g.machine is not None]
        rows.append(
            f'<tr data-table="{esc(t.stem)}" data-verified="{counts[PASSED]}" '
            f'data-cells="{total}"><td><a href="{esc(t.page)}">{esc(t.title)}</a></td>'
            f"<td>{short_citation(t.source)}, {esc(t.source['table'])}</td>"
            f'<td class="n {status}" title="{esc(others)}">{counts[PASSED]} of {total}</td>'
            f"{_best_td(view)}"
            f"<td class=\"machines\">{'<br>'.join(esc(m) for m in machines) or '&ndash;'}</td>"
            f'<td class="downloads"><a href="{esc(t.stem)}.csv">CSV</a>'
            f'<a href="{esc(t.stem)}.json">JSON</a></td></tr>'
        )
    return (
        '<table class="list dashboard">'
        + _head("published table", "source", "verified cells", "best ratio", "measured on",
                "download")
        + "".join(rows)
        + "</table>"
        + '<p class="why">Best ratio: measured / published in the most favourable cell '
        "(&ge; 1 faster for a rate, &le; 1 faster for a time), with its row, column and machine; "
        f"a cell with no published value has none. {term('verified', 'Verified')} cells: cells "
        "of the measured grids of every machine with a verified number.</p>"
    )


def best_cell(view: TableView):
    """The measured cell whose ratio is the most favourable, or None."""
    cells = [c for c in view.all_cells() if c.better is not None and not c.derived]
    if not cells:
        return None
    faster = lambda c: c.ratio if UNITS[c.unit].higher_is_better else 1 / c.ratio  # noqa: E731
    return max(cells, key=faster)


def _best_td(view: TableView) -> str:
    cell = best_cell(view)
    if cell is None:
        return '<td class="n" data-best="">&ndash;</td>'
    machine = cell.chosen.run.machine.label if cell.chosen is not None else ""
    return (
        f'<td class="n" data-best="{fmt3(cell.ratio)}">{fmt3(cell.ratio)}&times; '
        f'<span class="why">{esc(cell.row.name)} / {esc(cell.column.name)} on '
        f"{esc(machine)}</span></td>"
    )


def figures_page(
    generated: str,
    throughput: Image | None,
    figures: Sequence[tuple[Figure, int, Image | None]] = (),
    rooflines: Sequence[tuple[str, Image | None]] = (),
) -> str:
    """Every figure: `figures`, each figure file with its number of points and its image
    (None: no data, not drawn); `rooflines`: (family, image or None)."""
    body = [
        "<h1>Figures</h1>",
        '<p class="lead">Verified results only, the newest run of each machine. Terms the '
        f"figures use: {term('halo-steps', 'halo_steps')}, {term('skewed', 'skewed bands')}, "
        f"{term('sub-universes', 'sub-universes')} (out-of-core), {term('lop3', 'LOP3')}, "
        f"{term('sass', 'SASS')} and {term('bound', 'bounds')} (rooflines).</p>",
        "<h2>Throughput against grid size</h2>",
    ]
    if throughput:
        body.append(img(throughput, "cell updates per second against grid size, per experiment"))
    else:
        body.append('<p class="why">Not drawn: no successful measurement in the results.</p>')
    empty = []
    for figure, count, image in figures:
        if image is None:
            empty.append(figure.title)
            continue
        body.append(
            f'<h2 data-figure="{esc(figure.stem)}" data-points="{count}">{esc(figure.title)}</h2>'
        )
        body.append(img(image, figure.title))
    if empty:
        body.append(
            '<p class="why" data-empty-figures="' + str(len(empty)) + '">Not drawn, no verified '
            "measurement in these results matches them: " + esc("; ".join(empty)) + ".</p>"
        )
    body.append(_bounds_section(rooflines))
    return page("lifebench report: figures", "\n".join(body), generated)


def runs_page(runs: list[Run], generated: str, data: dict[int, str] | None = None) -> str:
    """Each results folder: its machine, build, host and experiments; `data`: in a static
    site, the folder (relative) each run's results were copied to, by id of the run."""
    body = [
        "<h1>Runs</h1>",
        f'<p class="lead">Each results folder is one {term("run", "run")}: one commit on one '
        f'{term("machine", "machine")} (a name marked (derived) is the report\'s).</p>',
        f'<p class="lead">{_env_line(runs)}</p>',
    ]
    for run in runs:
        if run.warnings:
            body.append(warnings([f"{run.label}: {w}" for w in run.warnings]))
    for run in runs:
        body.append(_run_section(run, (data or {}).get(id(run))))
    return page("lifebench report: runs", "\n".join(body), generated)


def history_page(histories, images: dict[str, Image | None], generated: str) -> str:
    """Each machine's headline configurations over commits (history.py); `images`: each
    machine's figure by machine name (None: nothing to draw)."""
    body = [
        "<h1>History over commits</h1>",
        '<p class="lead">For each machine, each experiment\'s headline configuration (of its '
        f"configurations tied to a published table cell, the one measured and "
        f"{term('verified', 'verified')} at the most commits) at each commit measured on it, "
        "oldest first (by commit time; where a manifest does not record it, by the start of "
        "the commit's first results folder), with the "
        "95 % interval of its median as a band; a step whose intervals do not overlap the "
        "commit before, by 5 % or more (two runs of one commit move by up to a few per cent), "
        "is beyond the noise, marked &#9650; up or &#9660; down. Give the report "
        "the results folders of several commits of a machine (<code>--history DIR</code> for "
        "those the tables should not show) to see one; <code>lifebench-report history "
        "DIR&hellip;</code> prints the same in a terminal.</p>",
    ]
    for history in histories:
        machine = history.machine
        commits = ", ".join(f"{esc(c.label)} ({len(c.runs)} folder"
                            f"{'s' if len(c.runs) != 1 else ''})" for c in history.commits)
        body.append(f'<h2 data-history="{esc(machine.name)}" data-commits="'
                    f'{len(history.commits)}">{esc(machine.label)}</h2>')
        body.append(f'<p class="lead">{len(history.commits)} '
                    f"commit{'s' if len(history.commits) != 1 else ''}: {commits}</p>")
        image = images.get(machine.name)
        if image is None:
            body.append('<p class="why">Nothing to draw: no configuration was measured at two '
                        "commits of this machine.</p>")
            continue
        body.append(img(image, f"headline configurations over commits on {machine.label}"))
        rows = []
        for series in history.series:
            steps = "; ".join(
                f"{'up' if p.step == 'up' else 'down'} at {esc(p.run.commit.split(',')[0])}: "
                f"{fmt3(p.rate / before.rate)}&times;"
                for before, p in zip(series.points, series.points[1:]) if p.step
            )
            rows.append(
                f'<tr data-series="{esc(series.experiment)}" data-steps="'
                f'{len(series.steps)}"><td>{esc(series.experiment)}</td>'
                f"<td><code>{esc(series.config_id)}</code></td>"
                f'<td class="n">{len(series.points)}</td>'
                f'<td class="n">{fmt3(series.points[-1].rate / 1e9)}</td>'
                f"<td>{steps or '&ndash;'}</td></tr>"
            )
        body.append(
            '<table class="list">'
            + _head("experiment", "headline configuration", "commits",
                    "newest, 10<sup>9</sup> updates/s", "steps beyond the noise")
            + "".join(rows) + "</table>"
        )
    return page("lifebench report: history", "\n".join(body), generated)


def configurations_page(
    runs: list[Run], views: list[TableView], generated: str, bounds: dict[str, Kind] | None
) -> str:
    results = [r for run in runs for r in run.results]
    body = ["<h1>Configurations</h1>"]
    if results:
        body.append(
            configs(
                results,
                known_tables={v.table.stem for v in views},
                show_run=len(runs) > 1,
                bounds=bounds,
            )
        )
    else:
        body.append(
            '<p class="lead">No configuration was recorded: every table cell is "not run".</p>'
        )
    return page("lifebench report: configurations", "\n".join(body), generated)


def _bounds_section(rooflines: Sequence[tuple[str, Image | None]]) -> str:
    out = [
        "<h2>Fraction of bound</h2>",
        f'<p class="lead">Each experiment names what {term("bound", "bounds")} it in its README '
        "(its Bound line): the issue rate of logic instructions (<em>logic</em>) or the memory "
        "bandwidth (<em>memory</em>). A configuration's fraction of its bound is its rate over "
        "the rate the bound allows: the logic rate measured in the same process "
        f"({term('lop3', 'LOP3')} on a GPU; "
        "on a CPU the vector logic all of the run's threads issue at once) over the "
        "instructions a cell update takes (<code>device.instructions_per_cell_update</code>"
        "), or the copy bandwidth measured in the same process over the bytes a cell update "
        "moves (<code>throughput.bytes_per_generation</code> / cells). Each line of a figure "
        "is a bound: a point on it is at 100 %.</p>",
    ]
    empty = []
    for family, image in rooflines:
        if image is None:
            empty.append(family)
            continue
        title = f"{ROOFLINE_TITLES.get(family, family)}: rate against cost per cell update"
        out.append(f'<h3 data-roofline="{esc(family)}">{esc(title)}</h3>')
        out.append(img(image, title))
    if empty:
        out.append(
            '<p class="why">No figure for '
            + esc(", ".join(ROOFLINE_TITLES.get(f, f) for f in empty))
            + ": no verified result of these families records its bound's ceiling and cost.</p>"
        )
    return "\n".join(out)


def _env_line(runs: list[Run]) -> str:
    parts = []
    for run in runs:
        build, host = run.section("build"), run.section("host")
        commit = build.get("git_commit")
        bits = [f"<strong>{esc(run.label)}</strong>", f"machine {_machine(run)}"]
        if commit:
            dirty = " (dirty)" if build.get("git_dirty") else ""
            bits.append(f"commit <code>{esc(str(commit)[:12])}</code>{dirty}")
        if build.get("build_type"):
            bits.append(esc(build["build_type"]))
        if host.get("cpu"):
            bits.append(esc(host["cpu"]))
        if run.parallel_gpus > 1:
            bits.append(f"{run.parallel_gpus} GPUs at once")
        devices = [
            d for d in run.devices if d != host.get("cpu")
        ]  # CPU experiments name the host CPU
        if devices:
            bits.append(esc(", ".join(devices)))
        parts.append(" &middot; ".join(bits))
    return "<br>".join(parts)


def _machine(run: Run) -> str:
    """The machine's name, with where it comes from as its title."""
    machine = run.machine
    return f'<span class="machine" title="{esc(machine.how)}">{esc(machine.label)}</span>'


def _parallel_gpus(run: Run) -> str:
    """What --parallel-gpus made of the run, or nothing when each configuration ran alone."""
    n = run.parallel_gpus
    if n == 1:
        return ""
    return (
        f"{n}: the one-GPU configurations ran {n} at once, each on a GPU of its own "
        "(its result names it); the others alone"
    )


def _run_section(run: Run, data: str | None) -> str:
    """One results folder; in a static site its copy (`data`) instead of its path here."""
    if data is None:
        where = f"results folder <code>{esc(run.folder)}</code>"
    elif run.manifest is None and not run.results:
        where = "nothing recorded, nothing copied"
    else:
        files = len({r.file for r in run.results}) + (run.manifest is not None)
        first = "manifest.json" if run.manifest is not None else run.results[0].file.name
        link = f"{data}/{first}"
        where = (
            f'results copied into <a href="{esc(link)}">{esc(data)}/</a> ({files} JSON file'
            f'{"s" if files != 1 else ""})'
        )
    out = [f"<h3>{esc(run.label)}</h3>", f'<p class="lead">{where}</p>']
    m = run.manifest or {}
    counts = run.section("configurations")
    general = [
        ("machine", _machine(run)),
        *[(key, esc(value)) for key, value in run.machine.facts],
        ("run id", esc(m.get("run_id"))),
        ("started", esc(m.get("started"))),
        ("finished", esc(m.get("finished")) or "not finished"),
        ("sweeps", esc(m.get("sweeps"))),
        ("configurations", esc(", ".join(f"{k} {v}" for k, v in counts.items()))),
        ("GPUs at once", _parallel_gpus(run)),
    ]
    build = [(k, esc(v)) for k, v in run.section("build").items()]
    host = [(k, esc(v)) for k, v in run.section("host").items()]
    host.append(("devices", esc(", ".join(run.devices)) or "none recorded"))
    out.append(
        '<div class="facts">'
        + kv([(k, v) for k, v in general if v] or [("manifest", "missing")])
        + (kv(build) if build else "")
        + kv(host)
        + "</div>"
    )
    experiments = m.get("experiments") if isinstance(m.get("experiments"), dict) else {}
    if experiments:
        rows = []
        for name, info in experiments.items():
            info = info if isinstance(info, dict) else {}
            available = info.get("available")
            cls = "v-passed" if available else "v-failed"
            external = info.get("external") if isinstance(info.get("external"), dict) else None
            rows.append(
                f"<tr><td>{esc(name)}"
                # The program's name, not its path on the machine that ran it.
                + (_original(f"{PurePath(str(external.get('program'))).name} "
                             f"{external.get('version')}".strip())
                   if external else "")
                + f"</td><td>{esc(info.get('backend'))}</td>"
                f"<td>{esc(info.get('family'))}</td>"
                f'<td class="{cls}">{"available" if available else "unavailable"}</td>'
                f"<td>{esc(info.get('reason'))}</td><td>{esc(info.get('technique'))}</td>"
                f"<td>{esc(info.get('source'))}</td></tr>"
            )
        out.append(
            '<table class="list">'
            + _head(
                "experiment", "backend", "family", "availability", "reason", "technique", "source"
            )
            + "".join(rows)
            + "</table>"
        )
    return "\n".join(out)


def _original(detail: str = "") -> str:
    """The mark of an original program run as an experiment (external-*), not our code."""
    return f' <span class="why">(original program{": " + esc(detail) if detail else ""})</span>'


def configs(
    results: list[Result],
    *,
    table: str | None = None,
    marks: dict[tuple[int, Tie], str] | None = None,
    known_tables: set[str] | None = None,
    show_run: bool = False,
    bounds: dict[str, Kind] | None = None,
) -> str:
    """The results, one row each (its id the result's anchor, which numbers link to), with
    its machine, noise, how it was verified and its fraction of its bound. On a table's page
    (`table`) the cells of that table a result is tied to, with what it is there (`marks`:
    (id of the result, tie) -> "shown", "other problem: ..."); elsewhere every cell, linked to
    its table's page when `known_tables` holds it."""
    marks = marks or {}
    head = (
        ("<th>run</th>" if show_run else "") + "<th>experiment</th><th>backend</th><th>params</th>"
        "<th>problem</th><th>generations</th><th>status</th><th>10<sup>9</sup> cell updates/s</th>"
        f"<th>measured on</th><th>{term('bound', 'fraction of bound')}</th>"
        f"<th>{term('verified', 'verification')}</th><th>{term('tie', 'table cell')}</th>"
        "<th>reason</th>"
    )
    rows = []
    for r in results:
        cells = []
        for tie in r.ties:
            text = f"{esc(tie.row)} / {esc(tie.column)}"
            if table is not None:
                if tie.table == table:
                    mark = marks.get((id(r), tie))
                    cells.append(text + (f" <strong>({esc(mark)})</strong>" if mark else ""))
            elif known_tables is not None and tie.table in known_tables:
                cells.append(f'<a href="{esc(tie.table)}.html">{esc(tie.table)}</a>: {text}')
            else:
                cells.append(f'{esc(tie.table)}: {text} <span class="why">(no such table)</span>')
        chosen = any(i == id(r) and m == "shown" for (i, _), m in marks.items())
        reason = esc(r.why_not) if (r.status != "ok" or not r.verified) else ""
        if r.stderr_tail:
            reason += f'<pre class="tail">{esc(r.stderr_tail)}</pre>'
        rate = fmt3(r.rate / 1e9) if r.rate is not None else ""
        noise = spread(r) if rate else None
        if noise:
            rate += f' <span class="spread" title="{esc(noise.title)}">{noise.text}</span>'
        row_cls = f"status-{r.status}" + (" chosen" if chosen else "")
        on = f"{esc(r.device_label)} on {esc(r.run.machine.label)}" if r.status == "ok" else ""
        how = checked(r)
        # The commit short, the source tree's hash in the title: the column stays narrow.
        commit = r.run.commit.split(",")[0]
        run = f'{esc(r.run.label)}<br><small title="{esc(r.run.commit)}">{esc(commit)}</small>'

        rows.append(
            f'<tr class="{row_cls}" id="{esc(r.anchor)}" data-config="{esc(r.config_id)}">'
            + (f"<td>{run}</td>" if show_run else "")
            + f"<td>{esc(r.experiment)}{_original() if r.external else ''}</td>"
            f"<td>{esc(r.backend)}</td><td>{esc(r.params_text)}</td>"
            f'<td><code>{esc(r.problem_text)}</code></td><td class="n">{esc(r.generations)}</td>'
            f'<td class="status">{esc(r.status)}</td><td class="n">{rate}</td>'
            f"<td>{on}</td>{_fraction_td(r, bounds)}"
            # How it was verified on hover; a failure's first difference stays in sight.
            f'<td class="v-{esc(r.verification)}"'
            + (f' title="{esc(how.title)}">{esc(how.mark)}' if how else
               f">{esc(r.verification.replace('_', ' '))}")
            + (f'<span class="why">{esc(r.first_difference)}</span>' if r.first_difference else "")
            + f"</td><td>{'<br>'.join(cells) or '&ndash;'}</td><td>{reason}</td></tr>"
        )
    return f'<table class="configs"><tr>{head}</tr>{"".join(rows)}</table>'


def _fraction_td(result: Result, bounds: dict[str, Kind] | None) -> str:
    """`logic 63 %` with what the bound allows, or why there is no fraction."""
    if not result.verified:
        return "<td></td>"
    kind = (bounds or {}).get(result.experiment)
    if kind is None:
        return '<td data-fraction=""><span class="why">no bound named</span></td>'
    try:
        share = fraction(result, kind)
    except NotConvertible as e:  # the reason in full as a tooltip: CPU results lack it all
        return (
            f'<td data-fraction="" title="{esc(e)}">{kind.name} '
            '<span class="why">not recorded</span></td>'
        )
    allowed = (f"of {fmt3(share.allowed / 1e9)} x 10^9/s that the bound allows at "
               f"{fmt3(share.cost)} {kind.per_update}")
    return (
        f'<td class="n" data-fraction="{fmt3(share.value)}" title="{esc(allowed)}">{kind.name} '
        f"{fmt3(100 * share.value)} %</td>"
    )


def rate_text(rate: float, table: Table) -> str:
    """A rate in the table's unit where that is updates/s, else in 10^9 updates/s."""
    scale, label = (table.scale, table.label) if table.unit == "updates/s" else (1e9, "")
    unit = label_html(label) if label else "&times; 10<sup>9</sup> updates/s"
    return f"{fmt3(rate / scale)} {unit}"
