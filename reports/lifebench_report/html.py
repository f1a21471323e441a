"""The report's pages: static HTML and CSS, no JavaScript, no network resource.

Every text that comes from results, manifests or table files goes through `esc`: results
are untrusted (an experiment name or a failure message may hold anything). Cells of the
published / measured / ratio tables carry data-kind, data-row, data-col, data-status and
data-value attributes so that tests read the DOM instead of guessing at layout.
"""

from __future__ import annotations

import html
import json
import re
from collections import Counter
from datetime import datetime, timezone
from typing import Any, Iterable, Sequence

from .compare import FAILED, NOT_RUN, PASSED, UNVERIFIED, Cell, TableView
from .figures import Figure
from .results import Result, Run, Tie
from .tables import Entry, Table
from .units import UNITS, fmt3
from . import models, plots

INDEX = "index.html"
THROUGHPUT_PNG = "throughput.png"

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


def _page(title: str, body: str, generated: str) -> str:
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


def _kv(rows: Iterable[tuple[str, Any]], cls: str = "kv") -> str:
    cells = "".join(f"<tr><th>{esc(k)}</th><td>{v}</td></tr>" for k, v in rows)
    return f'<table class="{cls}">{cells}</table>'


def _head(*names: str) -> str:
    return "<tr>" + "".join(f"<th>{name}</th>" for name in names) + "</tr>"


def _warnings(items: list[str]) -> str:
    if not items:
        return ""
    return '<ul class="warnings">' + "".join(f"<li>{esc(w)}</li>" for w in items) + "</ul>"


def _img(src: str, alt: str) -> str:
    width, height = plots.SHOWN
    return f'<img class="plot" src="{esc(src)}" width="{width}" height="{height}" alt="{esc(alt)}">'


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


# ----------------------------------------------------------------------------- table page


def table_page(view: TableView, plot: str | None, generated: str) -> str:
    t = view.table
    src = t.source
    citation = esc(src.get("citation", ""))
    source = (
        f'{citation + ", " if citation else ""}<strong>{esc(src["table"])}</strong> '
        f'(seed <code>{esc(src["seed"])}</code>)'
    )
    if "url" in src:
        source += f' &middot; <span class="mono">{esc(src["url"])}</span>'
    body = [f"<h1>{esc(t.title)}</h1>", f'<p class="lead">Source: {source}</p>']
    if "note" in src:
        body.append(f'<p class="lead">{label_html(src["note"])}</p>')

    p = t.problem
    facts = [
        ("problem", label_html(p.get("description", ""))),
        ("rule", f'<code>{esc(p.get("rule", "not stated"))}</code>'),
        ("grid", f'{esc(p["shape"])} ({fmt3(_cells(p["shape"]))} cells)'),
        ("boundary", esc(p.get("boundary", "not stated"))),
        ("generations", esc(p["generations"])),
    ]
    if any(e.problem for e in t.rows + t.columns):
        facts.append(("per cell", "some rows or columns set their own problem (see their headers)"))
    unit_rows = [
        ("unit", label_html(t.label)),
        (
            "ratio",
            "measured / published; "
            + (
                "&ge; 1 is faster than published"
                if UNITS[t.unit].higher_is_better
                else "&le; 1 is faster than published (a time)"
            ),
        ),
        (
            "verification",
            "each measured cell was verified against the reference "
            "simulator just before it was timed; no number is shown otherwise",
        ),
    ]
    body.append(
        '<div class="facts">' + _kv([(k, v) for k, v in facts if v]) + _kv(unit_rows) + "</div>"
    )

    if view.hardware:
        none = '<span class="why">no measurement on it in this run</span>'
        rows = "".join(
            f"<tr><th>{esc(key)}</th><td>{esc(published)}</td>"
            f"<td>{esc(', '.join(ours)) if ours else none}</td></tr>"
            for key, published, ours in view.hardware
        )
        body.append(
            "<h2>Hardware</h2>"
            f'<table class="kv hw">{_head("", "published", "this run")}{rows}</table>'
        )

    body.append("<h2>Published and measured</h2>")
    # The chart first: a table with many rows pushes anything below it out of view.
    if plot:
        body.append(_img(plot, f"{t.source['table']}: published and measured values"))
    else:
        body.append(
            '<p class="why">No chart: no cell has a published value or a verified measurement '
            "in the table's unit yet.</p>"
        )
    body.append(
        '<div class="grids">'
        + _grid(view, "published", f"Published <small>{label_html(t.label)}</small>")
        + _grid(view, "measured", f"Measured <small>{label_html(t.label)}, this run</small>")
        + _grid(view, "ratio", "Measured / published")
        + "</div>"
    )
    body.append(
        '<p class="legend">Measured cells:'
        + "".join(
            f'<span class="badge b-{s}">{BADGE[s]}</span>{esc(text)}'
            for s, text in (
                (PASSED, "verified, then timed"),
                (FAILED, "failed (verification or run)"),
                (UNVERIFIED, "timed without verification"),
                (NOT_RUN, "no result: why is given"),
            )
        )
        + "</p>"
    )
    if t.notes:
        body.append(f'<p class="lead">{label_html(t.notes)}</p>')
    if t.model:
        body.append(_model_section(view))

    body.append("<h2>Configurations tied to this table</h2>")
    if view.stray:
        body.append(_warnings([f"{r.config_id}: tie {tie}: {why}" for r, tie, why in view.stray]))
    shown = {
        (id(c.chosen), Tie(t.stem, c.row.name, c.column.name))
        for c in view.cells.values()
        if c.chosen is not None
    }
    if view.tied:
        body.append(_configs(view.tied, shown=shown, table=t.stem))
    else:
        body.append(
            '<p class="lead">No configuration of the results is tied to this table '
            f'(no tie with <code>table = "{esc(t.stem)}"</code>).</p>'
        )
    return _page(t.title, "\n".join(body), generated)


def _model_section(view: TableView) -> str:
    """The multistep cost model fitted per column, to this run's cells and to the paper's."""
    rows = []
    for fit in models.multistep_fits(view):
        c = fmt3(fit.c) if fit.c is not None else '<span class="why">fewer than 2 cells</span>'
        agree = (
            ""
            if fit.predicted_t is None or fit.best_t is None
            else ("yes" if fit.predicted_t == fit.best_t else "no")
        )
        rows.append(
            f'<tr data-model-column="{esc(fit.column)}" data-model-source="{fit.source}" '
            f'data-c="{fmt3(fit.c) if fit.c is not None else ""}" '
            f'data-predicted="{fit.predicted_t or ""}" data-best="{fit.best_t or ""}">'
            f"<td>{esc(fit.column)}</td><td>{fit.d}</td><td>{fit.source}</td><td>{fit.points}</td>"
            f"<td>{c}</td><td>{fit.predicted_t or ''}</td><td>{fit.best_t or ''}</td>"
            f"<td>{agree}</td></tr>"
        )
    return (
        "<h2>Cost model</h2>"
        '<p class="lead">Time per cell update &prop; (t + c) / (t (d &minus; 2t)&sup2;) for t steps '
        "per launch on d &times; d tiles (seed 003, Section 7); c fitted per column by least "
        "squares on log time, to this run's verified cells and to the published ones.</p>"
        '<table class="list">'
        + _head("column", "d", "fitted to", "cells", "c", "predicted best t", "best t", "agree")
        + "".join(rows)
        + "</table>"
    )


def _cells(shape: str) -> int:
    n = 1
    for part in shape.split("x"):
        n *= int(part)
    return n


def _col_header(t: Table) -> str:
    groups = any(c.group for c in t.columns)
    first, second = ['<th class="corner"' + (' rowspan="2"' if groups else "") + "></th>"], []
    i = 0
    while i < len(t.columns):
        col = t.columns[i]
        if not groups or not col.group:
            span = ' rowspan="2"' if groups else ""
            first.append(f'<th class="col"{span}>{_entry_label(col)}</th>')
            i += 1
            continue
        j = i
        while j < len(t.columns) and t.columns[j].group == col.group:
            second.append(f'<th class="col">{_entry_label(t.columns[j])}</th>')
            j += 1
        first.append(f'<th class="col" colspan="{j - i}">{esc(col.group)}</th>')
        i = j
    rows = f"<tr>{''.join(first)}</tr>"
    if second:
        rows += f"<tr>{''.join(second)}</tr>"
    return f"<thead>{rows}</thead>"


def _entry_label(entry: Entry) -> str:
    extra = []
    if entry.ratio:
        extra.append(f"{entry.ratio[0]} / {entry.ratio[1]}")
    if entry.problem:  # its own description says it all where given
        problem = entry.problem
        extra.append(problem.get("description") or ", ".join(f"{k} {v}" for k, v in problem.items()))
    if entry.unit:
        extra.append(entry.unit_label or entry.unit)
    if entry.phase:
        extra.append(f"phase {entry.phase}")
    if entry.note:
        extra.append(entry.note)
    small = "".join(f"<small>{label_html(x)}</small>" for x in extra)
    return f"{esc(entry.name)}{small}"


def _grid(view: TableView, kind: str, caption: str) -> str:
    t = view.table
    body = []
    for row in t.rows:
        cls = ' class="row derived"' if row.derived else ' class="row"'
        tds = "".join(_td(view.cell(row, col), kind) for col in t.columns)
        body.append(f"<tr><th{cls}>{_entry_label(row)}</th>{tds}</tr>")
    return (
        f'<figure><figcaption>{caption}</figcaption><table class="grid {kind}" id="{kind}">'
        f"{_col_header(t)}<tbody>{''.join(body)}</tbody></table></figure>"
    )


def _td(cell: Cell, kind: str) -> str:
    attrs = f'data-kind="{kind}" data-row="{esc(cell.row.name)}" data-col="{esc(cell.column.name)}"'
    classes = [kind] + (["derived"] if cell.row.derived else [])
    if kind == "published":
        if cell.published is None:
            return f'<td class="{" ".join(classes + ["empty"])}" {attrs} data-value="">&ndash;</td>'
        value = fmt3(cell.published)
        return (
            f'<td class="{" ".join(classes)}" {attrs} data-value="{value}">'
            f'<span class="num">{value}</span></td>'
        )
    if kind == "ratio":
        ratio = cell.ratio
        if ratio is None:
            why = "no published value" if cell.published is None else "no measurement"
            return (
                f'<td class="{" ".join(classes + ["empty"])}" {attrs} data-status="{cell.status}" '
                f'data-value="">&ndash;<span class="why">{why}</span></td>'
            )
        verdict = {True: "better", False: "worse", None: "neutral"}[cell.better]
        value = fmt3(ratio)
        return (
            f'<td class="{" ".join(classes + [verdict])}" {attrs} data-status="{cell.status}" '
            f'data-value="{value}"><span class="num">{value}&times;</span></td>'
        )
    # measured
    classes.append(cell.status)
    value = fmt3(cell.value) if cell.status == PASSED else ""
    content = [f'<span class="num">{value}</span>' if value else ""]
    content.append(f'<span class="badge">{BADGE[cell.status]}</span>')
    if cell.reason:
        content.append(f'<span class="why">{esc(cell.reason)}</span>')
    for note in cell.notes:
        content.append(f'<span class="note">{esc(note)}</span>')
    if cell.chosen is not None and not cell.derived:
        chosen = f"{cell.chosen.experiment} ({cell.chosen.params_text})"
        content.append(f'<span class="note">{esc(chosen)}</span>')
    return (
        f'<td class="{" ".join(classes)}" {attrs} data-status="{cell.status}" '
        f'data-value="{value}">{"".join(content)}</td>'
    )


# ----------------------------------------------------------------------------- index page


def index_page(
    runs: list[Run],
    views: list[TableView],
    plot: str,
    generated: str,
    figures: Sequence[tuple[Figure, int]] = (),
) -> str:
    """The front page; `figures` are the figure files with the number of points each shows."""
    results = [r for run in runs for r in run.results]
    statuses = Counter(r.status for r in results)
    summary = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) or "none"
    body = [
        "<h1>lifebench report</h1>",
        f'<p class="lead">{len(runs)} results folder{"s" if len(runs) != 1 else ""}, '
        f"{len(results)} configurations ({esc(summary)}). {_env_line(runs)}</p>",
    ]
    for run in runs:
        if run.warnings:
            body.append(_warnings([f"{run.label}: {w}" for w in run.warnings]))

    body.append("<h2>Published tables</h2>")
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
    body.append(
        '<table class="list">'
        + _head("table", "source", "unit", "measured cells")
        + "".join(rows)
        + "</table>"
    )

    body.append("<h2>Throughput against grid size</h2>")
    body.append(_img(plot, "cell updates per second against grid size, per experiment"))
    for figure, count in figures:
        body.append(
            f'<h2 data-figure="{esc(figure.stem)}" data-points="{count}">{esc(figure.title)}</h2>'
        )
        body.append(_img(figure.image, figure.title))

    body.append("<h2>Runs</h2>")
    for run in runs:
        body.append(_run_section(run))

    body.append("<h2>Configurations</h2>")
    if results:
        table_stems = {v.table.stem for v in views}
        body.append(
            _configs(
                results,
                known_tables=table_stems,
                show_run=len(runs) > 1,
            )
        )
    else:
        body.append(
            '<p class="lead">No configuration was recorded: every table cell is "not run".</p>'
        )
    return _page("lifebench report", "\n".join(body), generated)


def _env_line(runs: list[Run]) -> str:
    parts = []
    for run in runs:
        build, host = run.section("build"), run.section("host")
        commit = build.get("git_commit")
        bits = [f"<strong>{esc(run.label)}</strong>"]
        if commit:
            dirty = " (dirty)" if build.get("git_dirty") else ""
            bits.append(f"commit <code>{esc(str(commit)[:12])}</code>{dirty}")
        if build.get("build_type"):
            bits.append(esc(build["build_type"]))
        if host.get("cpu"):
            bits.append(esc(host["cpu"]))
        devices = [
            d for d in run.devices if d != host.get("cpu")
        ]  # CPU experiments name the host CPU
        if devices:
            bits.append(esc(", ".join(devices)))
        parts.append(" &middot; ".join(bits))
    return "<br>".join(parts)


def _run_section(run: Run) -> str:
    out = [
        f"<h3>{esc(run.label)}</h3>",
        f'<p class="lead">results folder <code>{esc(run.folder)}</code></p>',
    ]
    m = run.manifest or {}
    counts = run.section("configurations")
    general = [
        ("run id", esc(m.get("run_id"))),
        ("started", esc(m.get("started"))),
        ("finished", esc(m.get("finished")) or "not finished"),
        ("sweeps", esc(m.get("sweeps"))),
        ("configurations", esc(", ".join(f"{k} {v}" for k, v in counts.items()))),
    ]
    build = [(k, esc(v)) for k, v in run.section("build").items()]
    host = [(k, esc(v)) for k, v in run.section("host").items()]
    host.append(("devices", esc(", ".join(run.devices)) or "none recorded"))
    out.append(
        '<div class="facts">'
        + _kv([(k, v) for k, v in general if v] or [("manifest", "missing")])
        + (_kv(build) if build else "")
        + _kv(host)
        + "</div>"
    )
    experiments = m.get("experiments") if isinstance(m.get("experiments"), dict) else {}
    if experiments:
        rows = []
        for name, info in experiments.items():
            info = info if isinstance(info, dict) else {}
            available = info.get("available")
            cls = "v-passed" if available else "v-failed"
            rows.append(
                f"<tr><td>{esc(name)}</td><td>{esc(info.get('backend'))}</td>"
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


def _configs(
    results: list[Result],
    shown: set[tuple[int, Tie]] | None = None,
    table: str | None = None,
    known_tables: set[str] | None = None,
    show_run: bool = False,
) -> str:
    """The results, one row each. On a table's page (`table`) its cells a result fills and
    which of them show it (`shown`: (id of the result, tie)); elsewhere every cell, linked to
    its table's page when `known_tables` holds it."""
    shown = shown or set()
    head = (
        ("<th>run</th>" if show_run else "") + "<th>experiment</th><th>backend</th><th>params</th>"
        "<th>problem</th><th>generations</th><th>status</th><th>10<sup>9</sup> cell updates/s</th>"
        "<th>verification</th><th>table cell</th><th>reason</th>"
    )
    rows = []
    for r in results:
        cells = []
        for tie in r.ties:
            text = f"{esc(tie.row)} / {esc(tie.column)}"
            if table is not None:
                if tie.table == table:
                    mark = " <strong>(shown)</strong>" if (id(r), tie) in shown else ""
                    cells.append(text + mark)
            elif known_tables is not None and tie.table in known_tables:
                cells.append(f'<a href="{esc(tie.table)}.html">{esc(tie.table)}</a>: {text}')
            else:
                cells.append(f'{esc(tie.table)}: {text} <span class="why">(no such table)</span>')
        chosen = any(i == id(r) for i, _ in shown)
        reason = esc(r.why_not) if (r.status != "ok" or not r.verified) else ""
        if r.stderr_tail:
            reason += f'<pre class="tail">{esc(r.stderr_tail)}</pre>'
        rate = fmt3(r.rate / 1e9) if r.rate is not None else ""
        row_cls = f"status-{r.status}" + (" chosen" if chosen else "")
        rows.append(
            f'<tr class="{row_cls}" data-config="{esc(r.config_id)}">'
            + (f"<td>{esc(r.run.label)}</td>" if show_run else "")
            + f"<td>{esc(r.experiment)}</td><td>{esc(r.backend)}</td><td>{esc(r.params_text)}</td>"
            f'<td><code>{esc(r.problem_text)}</code></td><td class="n">{esc(r.generations)}</td>'
            f'<td class="status">{esc(r.status)}</td><td class="n">{rate}</td>'
            f'<td class="v-{esc(r.verification)}">{esc(r.verification.replace("_", " "))}'
            + (f'<span class="why">{esc(r.first_difference)}</span>' if r.first_difference else "")
            + f"</td><td>{'<br>'.join(cells) or '&ndash;'}</td><td>{reason}</td></tr>"
        )
    return f'<table class="configs"><tr>{head}</tr>{"".join(rows)}</table>'
