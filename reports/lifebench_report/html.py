"""What the report's pages share: static HTML and CSS, no JavaScript, no network resource.
The pages of the site are pages.py (index, figures, runs, history, configurations),
table_page.py (a published table's) and patterns_page.py.

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
from datetime import datetime, timezone
from typing import Any, Iterable

from .bounds import Kind, fraction
from .cells import FAILED, NOT_RUN, PASSED, UNVERIFIED
from .evidence import QuotientSpread, Spread, checked, spread
from .glossary import GLOSSARY, term
from .results import Result, Tie
from .tables import Table
from .units import NotConvertible, fmt3

INDEX = "index.html"

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
table.configs td.n, table.list td.n { text-align: right; font-variant-numeric: tabular-nums; }
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
.runs { font-size: 0.72rem; color: var(--fail); border: 1px solid var(--fail);
  border-radius: 0.7rem; padding: 0 0.4rem; margin-left: 0.25rem; white-space: nowrap; }
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


def noise_span(noise: Spread | QuotientSpread | None) -> str:
    """A measured number's noise (`±0.4%`), what it is in its title; empty where none."""
    return f'<span class="spread" title="{esc(noise.title)}">{noise.text}</span>' if noise else ""


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
HISTORY, PATTERNS, SCALING = "history.html", "patterns.html", "scaling.html"
NAV = (
    (INDEX, "tables"),
    (FIGURES, "figures"),
    (SCALING, "scaling"),
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


def header_row(*names: str) -> str:
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


def original_mark(detail: str = "") -> str:
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
        if rate and (noise := noise_span(spread(r))):
            rate += " " + noise
        row_cls = f"status-{r.status}" + (" chosen" if chosen else "")
        on = f"{esc(r.device_label)} on {esc(r.run.machine.label)}" if r.status == "ok" else ""
        how = checked(r)
        # The commit short, the source tree's hash in the title: the column stays narrow.
        commit = r.run.commit.split(",")[0]
        run = f'{esc(r.run.label)}<br><small title="{esc(r.run.commit)}">{esc(commit)}</small>'

        rows.append(
            f'<tr class="{row_cls}" id="{esc(r.anchor)}" data-config="{esc(r.config_id)}">'
            + (f"<td>{run}</td>" if show_run else "")
            + f"<td>{esc(r.experiment)}{original_mark() if r.external else ''}</td>"
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
