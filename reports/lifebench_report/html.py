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
from .compare import FAILED, NOT_RUN, PASSED, UNVERIFIED, TableView
from .evidence import checked, spread
from .figures import Figure
from .results import Result, Run, Tie
from .tables import Table
from .units import NotConvertible, fmt3

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
header.top a { color: #ffffff; font-weight: 600; text-decoration: none; }
header.top span { color: #c9d1dc; margin-left: 1rem; }
main { padding: 0.5rem 1.5rem 2rem; max-width: 1500px; }
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
.why, .note { display: block; text-align: left; font-size: 0.78rem; color: var(--muted);
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
table.configs tr.chosen td { background: #f3f7fb; }
.warnings { background: var(--warn-bg); border-left: 4px solid var(--warn);
  padding: 0.4rem 0.8rem; margin: 0.6rem 0; }
.warnings li { margin: 0.15rem 0; }
.legend .badge { margin: 0 0.2rem 0 0.8rem; }
.legend .b-passed { background: var(--ok); color: #fff; }
  .legend .b-failed { background: var(--fail); color: #fff; }
.legend .b-unverified { background: var(--warn); color: #fff; }
  .legend .b-not_run { background: #8a93a1; color: #fff; }
img.plot { display: block; border: 1px solid var(--line); max-width: 100%; height: auto;
  margin-top: 0.5rem; }
pre.tail { white-space: pre-wrap; font-size: 0.75rem; max-height: 8rem; overflow: auto;
  margin: 0.2rem 0 0; }
.where { display: block; text-align: left; font-size: 0.78rem; color: #2c4a6e;
  margin-top: 0.15rem; }
.original { display: block; text-align: left; font-size: 0.78rem; margin-top: 0.25rem;
  padding: 0.1rem 0.3rem; background: #ffffff; border-left: 3px solid #6a3d9a; }
.others { text-align: left; font-size: 0.75rem; color: var(--muted); margin-top: 0.3rem;
  border-top: 1px dashed #aab2bf; padding-top: 0.15rem; }
.others ul { margin: 0; padding-left: 1rem; }
.others summary { cursor: pointer; }
.others small { display: inline; color: var(--muted); }
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


def page(title: str, body: str, generated: str) -> str:
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
<header class="top"><a href="{INDEX}">lifebench report</a>
<span>published tables beside this run's measurements</span></header>
<main>
{body}
</main>
<footer>Generated by lifebench's reports/generate.py on {esc(generated)}.
Numbers have three significant digits.</footer>
</body>
</html>
"""


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
    throughput: Image | None,
    figures: Sequence[tuple[Figure, int, Image | None]] = (),
    rooflines: Sequence[tuple[str, Image | None]] = (),
    bounds: dict[str, Kind] | None = None,
    data: dict[int, str] | None = None,
    before_after: str | None = None,
    pages: Sequence[tuple[str, str]] = (),
) -> str:
    """The front page. `figures`: each figure file with its number of points and its image
    (None: no data, not drawn); `rooflines`: (family, image or None); `data`: in a static
    site, the folder (relative) each run's results were copied to, by id of the run;
    `before_after`: the section comparing with a baseline (baseline.py), if any; `pages`: other
    pages written beside it, (file, title), linked below the lead."""
    results = [r for run in runs for r in run.results]
    statuses = Counter(r.status for r in results)
    summary = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) or "none"
    body = [
        "<h1>lifebench report</h1>",
        f'<p class="lead">{len(runs)} results folder{"s" if len(runs) != 1 else ""}, '
        f"{len(results)} configurations ({esc(summary)}). {_env_line(runs)}</p>",
    ]
    if pages:
        links = ", ".join(f'<a href="{esc(f)}">{esc(title)}</a>' for f, title in pages)
        body.append(f'<p class="pages">Also: {links}.</p>')
    for run in runs:
        if run.warnings:
            body.append(warnings([f"{run.label}: {w}" for w in run.warnings]))

    body.append("<h2>Published tables</h2>")
    body.append(_tables_list(views))
    if before_after:
        body.append(before_after)

    body.append("<h2>Throughput against grid size</h2>")
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

    body.append("<h2>Runs</h2>")
    for run in runs:
        body.append(_run_section(run, (data or {}).get(id(run))))

    body.append("<h2>Configurations</h2>")
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
    return page("lifebench report", "\n".join(body), generated)


def _tables_list(views: list[TableView]) -> str:
    rows = []
    for view in views:
        t = view.table
        counts = view.counts()
        total = sum(counts.values())
        parts = [
            f"{counts[s]} {BADGE[s]}" for s in (PASSED, FAILED, UNVERIFIED, NOT_RUN) if counts[s]
        ]
        status = PASSED if counts[PASSED] == total else FAILED if counts[FAILED] else NOT_RUN
        rows.append(
            f'<tr data-table="{esc(t.stem)}"><td><a href="{esc(t.page)}">{esc(t.title)}</a></td>'
            f"<td>{esc(', '.join(filter(None, (t.source.get('citation'), t.source['table']))))} "
            f"<span class=\"why\">seed {esc(t.source['seed'])}</span></td>"
            f"<td>{label_html(t.label)}</td>"
            f'<td class="{status}">{esc(", ".join(parts))} '
            f'<span class="why">of {total} cells</span></td></tr>'
        )
    return (
        '<table class="list">'
        + _head("table", "source", "unit", "measured cells")
        + "".join(rows)
        + "</table>"
    )


def _bounds_section(rooflines: Sequence[tuple[str, Image | None]]) -> str:
    out = [
        "<h2>Fraction of bound</h2>",
        '<p class="lead">Each experiment names what bounds it in its README (<code>**Bound.**'
        "</code>): the issue rate of logic instructions (<em>logic</em>) or the memory "
        "bandwidth (<em>memory</em>). A configuration's fraction of its bound is its rate over "
        "the rate the bound allows: the logic rate measured in the same process (LOP3 on a GPU; "
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
        "<th>measured on</th><th>fraction of bound</th>"
        "<th>verification</th><th>table cell</th><th>reason</th>"
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
        run = f"{esc(r.run.label)}<br><small>{esc(r.run.commit)}</small>"
        rows.append(
            f'<tr class="{row_cls}" id="{esc(r.anchor)}" data-config="{esc(r.config_id)}">'
            + (f"<td>{run}</td>" if show_run else "")
            + f"<td>{esc(r.experiment)}{_original() if r.external else ''}</td>"
            f"<td>{esc(r.backend)}</td><td>{esc(r.params_text)}</td>"
            f'<td><code>{esc(r.problem_text)}</code></td><td class="n">{esc(r.generations)}</td>'
            f'<td class="status">{esc(r.status)}</td><td class="n">{rate}</td>'
            f"<td>{on}</td>{_fraction_td(r, bounds)}"
            f'<td class="v-{esc(r.verification)}">{esc(r.verification.replace("_", " "))}'
            + (f'<span class="why">{esc(how.title)}</span>' if how else "")
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
    return (
        f'<td class="n" data-fraction="{fmt3(share.value)}">{kind.name} '
        f"{fmt3(100 * share.value)} %<span class=\"why\">of {fmt3(share.allowed / 1e9)} "
        f"&times; 10<sup>9</sup>/s at {fmt3(share.cost)} {kind.per_update}</span></td>"
    )


def rate_text(rate: float, table: Table) -> str:
    """A rate in the table's unit where that is updates/s, else in 10^9 updates/s."""
    scale, label = (table.scale, table.label) if table.unit == "updates/s" else (1e9, "")
    unit = label_html(label) if label else "&times; 10<sup>9</sup> updates/s"
    return f"{fmt3(rate / scale)} {unit}"
