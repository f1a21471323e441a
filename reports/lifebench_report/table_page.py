"""One published table's page: its problem and hardware, the published, measured, ratio and
normalised-ratio grids, one line per comparison, and the configurations tied to it.

One measured grid (with its ratio and normalised grids) per machine, each captioned with
the machine's name. Every number names its machine and links to its result's row in the
configurations list; its title gives the configuration, repetitions, folder and commit. A
measured number shows its noise and how it was verified. A measured grid's row or column
tied to a published device is headed by our device, not by the published one.
"""

from __future__ import annotations

from .cells import PASSED, Cell, Grid, TableView, where
from .evidence import SMALLER, TIMED, checked
from .glossary import term
from .html import (
    BADGE, citation, configs, esc, img, kv, label_html, noise_span, page, rate_text, warnings,
)
from .results import Result, Tie
from .tables import Device, Entry, Table
from .units import UNITS, fmt3
from . import models

NORMALISED_SENTENCE = (
    "Normalised: the measured / published ratio divided by how many times the published "
    "device's ceiling ours is, for the ceiling that bounds the experiment (the Bound line of "
    "its README): (measured / published) &divide; (our ceiling / theirs), so that it compares "
    "the techniques as if on equal hardware."
)
CEILINGS_SENTENCE = (
    "Their ceilings are the vendors' peak figures; ours are recorded by each result: the logic "
    "rate measured in the same process (a GPU's LOP3 rate is within a few per cent of its peak; "
    "a CPU's is what its threads issue at once) and the memory's peak bandwidth from its clock "
    "and bus width."
)


def table_page(view: TableView, plot: str | None, generated: str) -> str:
    t = view.table
    body = [f"<h1>{esc(t.title)}</h1>", f'<p class="lead">Source: {_source(t)}</p>']
    if "note" in t.source:
        body.append(f'<p class="lead">{label_html(t.source["note"])}</p>')
    body.append('<div class="facts">' + _problem_facts(t) + _unit_facts(t) + "</div>")
    if view.hardware:
        body.append(_hardware(view))

    body.append("<h2>Published and measured</h2>")
    # The chart first: a table with many rows pushes anything below it out of view.
    if plot:
        body.append(img(plot, f"{t.source['table']}: published and measured values"))
    else:
        body.append(
            '<p class="why">No chart: no cell has a published value or a verified measurement '
            "in the table's unit yet.</p>"
        )
    published = f"Published <small>{label_html(t.label)}</small>"
    grids = [_grid(view, view.grids[0], "published", published)]
    for i, grid in enumerate(view.grids):
        grids.append(_machine_grids(view, grid, "" if i == 0 else f"-{i + 1}"))
    body.append('<div class="grids">' + "".join(grids) + "</div>")
    body.append(_downloads(t))
    if view.published_only:
        names = ", ".join(f'<span class="column">{esc(n)}</span>' for n in view.published_only)
        ratios = any(t.column(n).derived for n in view.published_only)
        body.append(
            f'<p class="why" id="published-only">Published only, not in the measured grids: '
            f"{names}: other devices' columns that no result of these runs is tied to"
            f"{' (and ratios over them)' if ratios else ''}.</p>"
        )
    body.append(LEGEND)
    body.append(_comparisons(view))
    if t.notes:
        body.append(f'<p class="lead">{label_html(t.notes)}</p>')
    if t.model:
        body.append(_model_section(view))

    body.append("<h2>Configurations tied to this table</h2>")
    if view.stray:
        body.append(warnings([f"{r.config_id}: tie {tie}: {why}" for r, tie, why in view.stray]))
    if view.tied:
        body.append(
            configs(
                view.tied,
                table=t.stem,
                marks=_marks(view),
                show_run=view.several_runs,
                bounds=view.bounds,
            )
        )
    else:
        body.append(
            '<p class="lead">No configuration of the results is tied to this table '
            f'(no tie with <code>table = "{esc(t.stem)}"</code>).</p>'
        )
    return page(t.title, "\n".join(body), generated)


def _source(t: Table) -> str:
    return f'{citation(t.source)}: <strong>{esc(t.source["table"])}</strong>'


def _downloads(t: Table) -> str:
    return (
        f'<p class="lead downloads">Download the numbers of this page\'s grids, with the '
        f'configuration, machine, folder and commit of each: <a href="{esc(t.stem)}.csv">CSV</a>'
        f'<a href="{esc(t.stem)}.json">JSON</a></p>'
    )


def _problem_facts(t: Table) -> str:
    p = t.problem
    ours = set(p.get("not_published", ()))

    def given(key: str, text: str) -> str:
        mark = "ours: the source does not give it" if key in ours else "published"
        return f'{text} <span class="why">{mark}</span>'

    facts = [
        ("problem", label_html(p.get("description", ""))),
        ("rule", given("rule", f'<code>{esc(p.get("rule", "any"))}</code>')),
        ("grid", given("shape", f'{esc(p["shape"])} ({fmt3(_cells(p["shape"]))} cells)')),
        ("boundary", given("boundary", esc(p.get("boundary", "any")))),
        ("generations", given("generations", esc(p["generations"]))),
    ]
    if "density" in p:
        facts.append(("soup density", given("density", esc(p["density"]))))
    if "any_generations" in p:
        facts.append(("generation count", "any is compared: " + label_html(p["any_generations"])))
    if {"shape", "generations"} & ours:
        facts.append(
            (
                "comparison",
                "<strong>no published problem</strong>: each cell is measured on the problem "
                "above; runs of other problems are listed under it, never compared",
            )
        )
    else:
        facts.append(
            (
                "comparison",
                "a cell takes only runs of its problem; runs of other problems are listed "
                "under it, never compared",
            )
        )
    if any(e.problem for e in t.rows + t.columns):
        facts.append(("per cell", "some rows or columns set their own problem (see their headers)"))
    return kv([(k, v) for k, v in facts if v])


def _unit_facts(t: Table) -> str:
    better = (
        "&ge; 1 is faster than published"
        if UNITS[t.unit].higher_is_better
        else "&le; 1 is faster than published (a time)"
    )
    return kv(
        [
            ("unit", label_html(t.label)),
            ("ratio", f"measured / published; {better}"),
            ("normalised", f"{NORMALISED_SENTENCE} ({term('normalised', 'glossary')})"),
            (
                "verification",
                f"each measured number was {term('verified', 'verified')} against the reference "
                "simulator before it was timed, on the timed problem itself or on a "
                f"{term('verified-small', 'smaller one')} (its mark says which); no number is "
                "shown otherwise",
            ),
            (
                "runs",
                f"one grid per {term('machine', 'machine')}; a cell is the newest "
                f"{term('run', 'run')} of that machine that measured it (never the best across "
                "runs), the best of that run's configurations; its configurations are "
                f"{term('tie', 'tied')} to it in their sweep files",
            ),
        ]
    )


def _cells(shape: str) -> int:
    n = 1
    for part in shape.split("x"):
        n *= int(part)
    return n


def _ceiling_text(device: Device) -> str:
    if not device.ceilings:
        return '<span class="why">none given</span>'
    return "<br>".join(
        f'{kind}: {ceiling_text(c.value, c.unit)} <span class="why">{esc(c.source)}</span>'
        for kind, c in device.ceilings.items()
    )


def ceiling_text(value: float, unit: str) -> str:
    """9.35 &times; 10^12 instructions/s, 696 GB/s."""
    if unit == "B/s":
        return f"{fmt3(value / 1e9)} GB/s"
    return f"{fmt3(value / 1e12)} &times; 10<sup>12</sup> {esc(unit)}"


def _hardware(view: TableView) -> str:
    none = '<span class="why">no measurement on it in these results</span>'
    rows = "".join(
        f'<tr data-device="{esc(device.key)}"><th>{esc(device.key)}</th><td>{esc(device.name)}</td>'
        f"<td>{_ceiling_text(device)}</td>"
        f"<td>{'<br>'.join(esc(o) for o in ours) if ours else none}</td></tr>"
        for device, ours in view.hardware
    )
    return (
        "<h2>Hardware</h2>"
        f'<table class="list hw"><tr><th></th><th>published device</th>'
        f"<th>its ceilings (vendor peaks)</th><th>measured here on</th></tr>{rows}</table>"
        f'<p class="lead">{CEILINGS_SENTENCE}</p>'
    )


# ----------------------------------------------------------------------------- grids


def _measured_on(grid: Grid, entry: Entry, is_row: bool) -> list[str]:
    """Our devices in a row's or a column's cells, where it names a published device."""
    names: list[str] = []
    if not entry.hardware:
        return names
    for cell in grid.cells.values():
        if (cell.row if is_row else cell.column) is entry and cell.status == PASSED:
            if cell.chosen is not None and cell.chosen.device_label not in names:
                names.append(cell.chosen.device_label)
    return names


def _entry_label(view: TableView, grid: Grid, entry: Entry, kind: str, is_row: bool) -> str:
    """An entry's header; in the measured grid, our device in place of the published one."""
    extra = []
    ours = _measured_on(grid, entry, is_row) if kind != "published" else []
    name = entry.name
    # Only a header that names the published device is replaced by ours: a technique's row
    # keeps its name (the grid's caption names the machine, the Hardware table the devices).
    if ours and _names_device(entry, view.table.hardware[entry.hardware]):
        published = view.table.hardware[entry.hardware].name
        if kind == "measured":
            extra.append(f"measured here; published: {entry.name} ({published})")
            name = ", ".join(ours)
        else:
            extra.append(f"ours on {', '.join(ours)} / published")
    if entry.ratio:
        extra.append(f"{entry.ratio[0]} / {entry.ratio[1]}")
    if entry.problem:  # its own description says it all where given
        problem = entry.problem
        given = ", ".join(f"{k} {v}" for k, v in problem.items())
        extra.append(problem.get("description") or given)
    if entry.unit:
        extra.append(entry.unit_label or entry.unit)
    if entry.phase:
        extra.append(f"phase {entry.phase}")
    if entry.note:
        extra.append(entry.note)
    small = "".join(f"<small>{label_html(x)}</small>" for x in extra)
    return f"{esc(name)}{small}"


def _names_device(entry: Entry, device: Device) -> bool:
    """Whether a row's or column's name is its published device's (\"GPU\", \"TITAN X\"),
    so that the measured grid heads it by our device instead."""
    name = entry.name.lower()
    return name in (device.key.lower(), device.name.lower()) or name in device.name.lower()


def _col_header(view: TableView, grid: Grid, kind: str, columns: list[Entry]) -> str:
    groups = any(c.group for c in columns)
    first, second = ['<th class="corner"' + (' rowspan="2"' if groups else "") + "></th>"], []
    i = 0
    while i < len(columns):
        col = columns[i]
        if not groups or not col.group:
            span = ' rowspan="2"' if groups else ""
            first.append(f'<th class="col"{span}>{_entry_label(view, grid, col, kind, False)}</th>')
            i += 1
            continue
        j = i
        while j < len(columns) and columns[j].group == col.group:
            second.append(
                f'<th class="col">{_entry_label(view, grid, columns[j], kind, False)}</th>'
            )
            j += 1
        first.append(f'<th class="col" colspan="{j - i}">{esc(col.group)}</th>')
        i = j
    rows = f"<tr>{''.join(first)}</tr>"
    if second:
        rows += f"<tr>{''.join(second)}</tr>"
    return f"<thead>{rows}</thead>"


def _machine_grids(view: TableView, grid: Grid, suffix: str) -> str:
    """A machine's measured, ratio and normalised grids; `suffix` keeps their ids apart."""
    t = view.table
    machine = grid.machine
    name = machine.label if machine else "no machine: no result is tied"
    on = f' on <span class="machine">{esc(name)}</span>'
    title = f' title="{esc(machine.how)}"' if machine else ""
    unit = f"<small>{label_html(t.label)}</small>"
    return (
        f'<div class="machine-grids" data-machine="{esc(machine.name if machine else "")}"'
        f"{title}>"
        + _grid(view, grid, "measured", f"Measured{on} {unit}", suffix)
        + _grid(view, grid, "ratio", f"Measured{on} / published", suffix)
        + _grid(view, grid, "normalised",
                f"Normalised to the hardware{on} <small>see below</small>", suffix)
        + "</div>"
    )


def _grid(view: TableView, grid: Grid, kind: str, caption: str, suffix: str = "") -> str:
    t = view.table
    columns = t.columns if kind == "published" else view.measured_columns
    body = []
    for row in t.rows:
        cls = ' class="row derived"' if row.derived else ' class="row"'
        tds = "".join(_td(view, grid, grid.cell(row, col), kind) for col in columns)
        body.append(f"<tr><th{cls}>{_entry_label(view, grid, row, kind, True)}</th>{tds}</tr>")
    return (
        f'<figure><figcaption>{caption}</figcaption>'
        f'<table class="grid {kind}" id="{kind}{suffix}">'
        f"{_col_header(view, grid, kind, columns)}<tbody>{''.join(body)}</tbody></table></figure>"
    )


def _empty(classes: list[str], attrs: str, why: str, status: str = "") -> str:
    """No ratio: a dash, with why as a tooltip where it is plain (nothing to divide), shown
    where it is not."""
    status_attr = f' data-status="{status}"' if status else ""
    plain = why in ("no published value", "no measurement", DERIVED)
    shown = "" if plain else f'<span class="why">{esc(why)}</span>'
    return (
        f'<td class="{" ".join(classes + ["empty"])}" {attrs}{status_attr} data-value="" '
        f'title="{esc(why)}">&ndash;{shown}</td>'
    )


def _ratio_td(cell: Cell, classes: list[str], attrs: str, value: float, verdict) -> str:
    verdict = {True: "better", False: "worse", None: "neutral"}[verdict]
    text = fmt3(value)
    return (
        f'<td class="{" ".join(classes + [verdict])}" {attrs} data-status="{cell.status}" '
        f'data-value="{text}">{_number(cell, f"{text}&times;")}'
    )


def _number(cell: Cell, text: str) -> str:
    """A number, linked to the result it comes from, its title naming the machine, the
    configuration, repetitions, folder and commit (of each side, for a derived one)."""
    sources = cell.sources
    title = "; ".join(dict.fromkeys(_source_title(r) for r in sources))
    if cell.superseded:
        older = ", ".join(f"{run.label} @ {run.commit}" for run in cell.superseded)
        title += f"; the newest of this machine's runs, newer than {older}"
    href = f' href="#{esc(sources[0].anchor)}"' if len(sources) == 1 else ""
    tag = "a" if href else "span"
    return f'<{tag} class="num"{href} title="{esc(title)}">{text}</{tag}>'


def _source_title(result: Result) -> str:
    run = result.run
    repetitions = result.raw.get("timing", {}).get("repetitions", "?")
    # --parallel-gpus: a one-GPU configuration shared its host with the others then running.
    beside = run.parallel_gpus > 1 and "cuda_visible_devices" in result.device
    return (
        f"on {run.machine.label} ({result.device_label}): {_config(result)}, "
        f"{repetitions} repetitions"
        + (f", {run.parallel_gpus} configurations at once" if beside else "")
        + f", folder {run.label}, commit {run.commit}, started {run.started or 'not recorded'}"
    )


def _td(view: TableView, grid: Grid, cell: Cell, kind: str) -> str:
    attrs = f'data-kind="{kind}" data-row="{esc(cell.row.name)}" data-col="{esc(cell.column.name)}"'
    if kind != "published" and grid.machine is not None:
        attrs += f' data-machine="{esc(grid.machine.name)}"'
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
        if cell.ratio is None:
            why = "no published value" if cell.published is None else "no measurement"
            return _empty(classes, attrs, why, cell.status)
        return _ratio_td(cell, classes, attrs, cell.ratio, cell.better) + "</td>"
    if kind == "normalised":
        n = cell.normalised
        if n is None or n.value is None:
            why = n.why if n is not None else _no_normalised(cell)
            return _empty(classes, attrs, why, cell.status)
        better = n.value >= 1 if UNITS[cell.unit].higher_is_better else n.value <= 1
        factor = f"our {n.kind.name} ceiling {fmt3(n.factor)}&times; theirs"
        return (
            _ratio_td(cell, classes, attrs, n.value, better)
            + f'<span class="why">{factor}</span></td>'
        )
    return _measured_td(view, cell, classes, attrs)


DERIVED = "a ratio of two measurements: nothing to normalise"

LEGEND = (
    '<p class="legend">Measured cells:'
    + "".join(
        term(anchor, f'<span class="badge b-{status}">{badge}</span>') + esc(text)
        if anchor else f'<span class="badge b-{status}">{badge}</span>{esc(text)}'
        for status, badge, text, anchor in (
            (PASSED, "verified", "the timed problem itself verified, then timed", "verified"),
            (f"{PASSED} smaller", "verified small",
             "a smaller problem verified (its size in the title), then the timed problem timed",
             "verified-small"),
            (PASSED, "final \u2713", "the timed run's own final state checked too", "final"),
            ("failed", BADGE["failed"], "failed (verification or run)", None),
            ("unverified", BADGE["unverified"], "timed without verification", None),
            ("not_run", BADGE["not_run"], "no result of this problem: why is given", None),
        )
    )
    + f"<br>{term('noise', 'Noise')} beside each number: <strong>\u00b1</strong> half the "
    "interval of the median time, <strong>\u2195</strong> half the fastest-to-slowest range "
    "of the repetitions where no interval is recorded (relative to the median; the number of "
    "repetitions in its title); beside a ratio of two measurements, its two sides' added, its "
    "badge the less verified side's, and <span class=\"runs\">2 runs</span> where no one run "
    "measured both (its title names the two). Each number links to its configuration below; "
    "its title names the machine, folder and commit; a cell's details fold out below it. Terms: "
    '<a href="glossary.html">glossary</a>.</p>'
)


def _no_normalised(cell: Cell) -> str:
    if cell.derived:
        return DERIVED
    if cell.unit in ("%copy", "%lop3"):
        return "already a fraction of the device's own ceiling"
    return "no published value" if cell.published is None else "no measurement"


def _measured_td(view: TableView, cell: Cell, classes: list[str], attrs: str) -> str:
    classes.append(cell.status)
    value = fmt3(cell.value) if cell.status == PASSED else ""
    content = [_number(cell, value) if value else ""]
    content.append(_evidence(cell))
    if cell.reason:
        content.append(f'<span class="why">{esc(cell.reason)}</span>')
    if cell.original is not None and cell.chosen is not None and cell.status == PASSED:
        content.append(f'<span class="original">{_original(view, cell)}</span>')
    content.append(_details(view, cell))
    quotient = (
        f' data-quotient="{cell.quotient[0]:.6g}/{cell.quotient[1]:.6g}"' if cell.quotient else ""
    )
    return (
        f'<td class="{" ".join(classes)}" {attrs} data-status="{cell.status}" '
        f'data-value="{value}"{quotient}>{"".join(content)}</td>'
    )


def _details(view: TableView, cell: Cell) -> str:
    """What a reader needs only now and then, folded: the configuration, notes on the problem
    and the tied runs of other problems (the machine, folder and commit are the number's
    title)."""
    items = [f"<li>{esc(note)}</li>" for note in cell.notes]
    chosen = cell.chosen
    if chosen is not None and not cell.derived:
        what = "original program: " if chosen.external else ""
        items.insert(0, f"<li>{esc(what + _config(chosen))}</li>")
    items += _others(view, cell)
    if not items:
        return ""
    others = len(cell.others)
    summary = "details" + (
        f", {others} other problem{'s' if others > 1 else ''}" if others else ""
    )
    return f'<details class="cell"><summary>{summary}</summary><ul>{"".join(items)}</ul></details>'


def _evidence(cell: Cell) -> str:
    """A measured cell's status badge; for a measured number, its spread before it and how
    it was verified in the badge (the timed problem or a smaller one) and a final-state mark
    (a ratio: _derived_marks)."""
    if cell.status != PASSED:
        return f'<span class="badge">{BADGE[cell.status]}</span>'
    out = noise_span(cell.noise)
    if cell.derived:
        return out + _derived_marks(cell)
    how = checked(cell.chosen)
    scope = "" if how is None else f' data-scope="{how.scope}" title="{esc(how.title)}"'
    smaller = " smaller" if how is not None and how.scope == SMALLER else ""
    out += f'<span class="badge{smaller}"{scope}>{how.mark if how else BADGE[PASSED]}</span>'
    if how is not None and how.final_mark:
        final = f"final {how.final['status']}"
        out += f'<span class="badge {final}" title="{esc(how.title)}">{how.final_mark}</span>'
    return out


def _derived_marks(cell: Cell) -> str:
    """A quotient's badge, from its least verified side (a smaller problem where any side was
    so verified), and a mark where its sides come from different runs."""
    checks = [(r, checked(r)) for r in cell.sources]
    smaller = any(how is not None and how.scope == SMALLER for _, how in checks)
    title = "; ".join(f"{r.experiment}: {how.title}" for r, how in checks if how is not None)
    mark = "verified small" if smaller else "verified"
    scope = SMALLER if smaller else TIMED
    out = (
        f'<span class="badge{" smaller" if smaller else ""}" data-scope="{scope}" '
        f'title="{esc(title)}">{mark}</span>'
    )
    if cell.different_runs:
        runs = "different runs: " + "; ".join(dict.fromkeys(r.source for r in cell.sources))
        out += f'<span class="runs" title="{esc(runs)}">2 runs</span>'
    return out


def _config(result: Result) -> str:
    return f"{result.experiment} ({result.params_text})"


def _original(view: TableView, cell: Cell) -> str:
    """`original program (same run): <rate>; ours 0.72x its rate`, as HTML; from another run
    of the machine it says so and names both."""
    original, ours = cell.original, cell.chosen
    place = (
        "same run"
        if original.run is ours.run
        else f"same machine, different runs: ours {ours.source}, its {original.source}"
    )
    return (
        f"original program ({esc(place)}): {esc(original.experiment)} at "
        f"{rate_text(original.rate, view.table)}; ours "
        f"<strong>{fmt3(ours.rate / original.rate)}&times;</strong> its rate"
    )


def _others(view: TableView, cell: Cell) -> list[str]:
    """The tied runs of other problems, as list items: their problem and rate, never
    compared."""
    items = []
    for result in cell.others:
        problem = f"{result.problem_text}, {result.generations} generations"
        rate = (
            rate_text(result.rate, view.table)
            if result.verified
            else BADGE[{"ok": "unverified", "failed": "failed"}.get(result.status, "not_run")]
        )
        items.append(
            f"<li>other problem: {esc(problem)}: {rate} <small>{esc(_config(result))}, "
            f"{esc(where(result, view.several_runs))}</small></li>"
        )
    return items


# ----------------------------------------------------------------------------- comparisons


def _comparisons(view: TableView) -> str:
    """One line per measured cell of each machine with a published value or an original
    program beside it."""
    rows = []
    for cell in view.all_cells():
        if cell.derived or cell.status != PASSED:
            continue
        if cell.published is None and cell.original is None:
            continue
        n = cell.normalised
        device = cell.device.name if cell.device else "&ndash;"
        theirs = ours = normalised = bound = ""
        if n is not None:
            bound = esc(n.kind.name) if n.kind else ""
            if n.value is not None:
                theirs = ceiling_text(n.theirs.value, n.theirs.unit)
                ours = ceiling_text(n.ours, n.kind.unit)
                normalised = f"{fmt3(n.value)}&times;"
            else:
                normalised = f'&ndash;<span class="why">{esc(n.why)}</span>'
        published = fmt3(cell.published) if cell.published is not None else "&ndash;"
        ratio = f"{fmt3(cell.ratio)}&times;" if cell.ratio is not None else "&ndash;"
        original = _original(view, cell) if cell.original else ""
        rows.append(
            f'<tr data-row="{esc(cell.row.name)}" data-col="{esc(cell.column.name)}">'
            f"<td>{esc(cell.row.name)} / {esc(cell.column.name)}</td>"
            f'<td class="n">{published}</td><td>{esc(device) if cell.device else device}</td>'
            f'<td class="n">{_number(cell, fmt3(cell.value))}</td>'
            f"<td>{esc(where(cell.chosen, view.several_runs))}"
            f"<br><small>{esc(_config(cell.chosen))}, {esc(cell.chosen.run.commit)}</small></td>"
            f'<td class="n">{ratio}</td><td>{bound}</td><td class="n">{theirs}</td>'
            f'<td class="n">{ours}</td><td class="n">{normalised}</td><td>{original}</td></tr>'
        )
    if not rows:
        return ""
    head = "".join(
        f"<th>{h}</th>"
        for h in (
            "cell",
            "published",
            "on",
            "measured",
            "here on",
            "ratio",
            "bound",
            "their ceiling",
            "our ceiling",
            "normalised",
            "original program",
        )
    )
    return (
        "<h2>Comparisons</h2>"
        f'<p class="lead">{NORMALISED_SENTENCE} {CEILINGS_SENTENCE}</p>'
        f'<table class="list comparisons"><tr>{head}</tr>{"".join(rows)}</table>'
    )


def _marks(view: TableView) -> dict[tuple[int, Tie], str]:
    """For the configurations list: what each tie of each result is in its cell."""
    marks: dict[tuple[int, Tie], str] = {}
    stem = view.table.stem
    for cell in view.all_cells():
        tie = Tie(stem, cell.row.name, cell.column.name)
        if cell.chosen is not None:
            marks[(id(cell.chosen), tie)] = "shown"
        if cell.original is not None:
            marks[(id(cell.original), tie)] = "shown beside ours: original program"
        for result in cell.others:
            marks[(id(result), tie)] = "other problem: " + ", ".join(
                cell.problem.differences(result)
            )
    return marks


# ----------------------------------------------------------------------------- cost model


def _model_section(view: TableView) -> str:
    """The multistep cost model fitted per column, to each machine's cells and to the paper's."""
    rows = []
    fits = [
        (grid, fit) for grid in view.grids for fit in models.multistep_fits(view.table, grid)
        if fit.source == "measured" or grid is view.grids[0]
    ]
    for grid, fit in fits:
        source = fit.source
        if fit.source == "measured" and grid.machine is not None:
            source = f"measured on {esc(grid.machine.label)}"
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
            f"<td>{esc(fit.column)}</td><td>{fit.d}</td><td>{source}</td><td>{fit.points}</td>"
            f"<td>{c}</td><td>{fit.predicted_t or ''}</td><td>{fit.best_t or ''}</td>"
            f"<td>{agree}</td></tr>"
        )
    head = "".join(
        f"<th>{h}</th>"
        for h in ("column", "d", "fitted to", "cells", "c", "predicted best t", "best t", "agree")
    )
    return (
        "<h2>Cost model</h2>"
        '<p class="lead">Time per cell update &prop; (t + c) / (t (d &minus; 2t)&sup2;) for t '
        "steps per launch on d &times; d tiles (seed 003, Section 7); c fitted per column by least "
        "squares on log time, to each machine's verified cells and to the published ones.</p>"
        f'<table class="list"><tr>{head}</tr>{"".join(rows)}</table>'
    )
