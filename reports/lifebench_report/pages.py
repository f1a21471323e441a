"""The site's own pages: the index (one line per published table), figures, runs, history
and configurations; each a function of what it shows and the time it was generated, returning
the page's HTML (html.page around a body). A table's page is table_page.py.
"""

from __future__ import annotations

from collections import Counter
from pathlib import PurePath
from typing import Sequence

from .bounds import Kind
from .cells import FAILED, NOT_RUN, PASSED, UNVERIFIED, TableView
from .figures import Figure, Point
from .glossary import GLOSSARY, term
from .html import (
    BADGE, CONFIGURATIONS, FIGURES, RUNS, Image, configs, esc, header_row, img, kv,
    original_mark, page, short_citation, warnings,
)
from .machines import machine_of
from .results import Run
from .units import UNITS, fmt3

THROUGHPUT_PNG = "throughput.png"
ROOFLINE_TITLES = {"square": "Square grids (B3/S23 and relatives)", "hex": "Hexagonal grids",
                   "3d": "3D grids"}


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
        + header_row("published table", "source", "verified cells", "best ratio", "measured on",
                "download")
        + "".join(rows)
        + "</table>"
        + '<p class="why">Best ratio: measured / published in the most favourable cell '
        "(&ge; 1 faster for a rate, &le; 1 faster for a time), with its row, column and machine; "
        "a cell with no published value has none, nor a table of published ratios only (a "
        "speed-up over a speed-up is not faster or slower). Its title: the measured number, its "
        f"run and noise, and the published one. {term('verified', 'Verified')} cells: cells "
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
    machine = cell.chosen.run.machine.label  # a measured cell with a ratio: one result
    noise = cell.noise
    title = (
        f"{fmt3(cell.value)} {cell.unit} measured ({cell.chosen.source}"
        + (f", {noise.text} {noise.title}" if noise else "")
        + f") / {fmt3(cell.published)} published"
    )
    return (
        f'<td class="n" data-best="{fmt3(cell.ratio)}" title="{esc(title)}">{fmt3(cell.ratio)}'
        f'&times; <span class="why">{esc(cell.row.name)} / {esc(cell.column.name)} on '
        f"{esc(machine)}</span></td>"
    )


def figures_page(
    generated: str,
    throughput: Image | None,
    figures: Sequence[tuple[Figure, list[Point], Image | None]] = (),
    rooflines: Sequence[tuple[str, Image | None]] = (),
) -> str:
    """Every figure: `figures`, each figure file with its points and its image
    (None: no data, not drawn); `rooflines`: (family, image or None)."""
    body = [
        "<h1>Figures</h1>",
        '<p class="lead">Verified results only. Each line of a figure is one run of its '
        "machine, the one that measured the most of its points (the newest of equals), named "
        "under each figure below the throughput figure (which draws soups of each family's own "
        "density: the density figures draw the others); the rooflines take the newest run of "
        "each machine for each experiment. A bar through a point of the figures below the "
        f"throughput figure spans its {term('noise', 'noise')} (its median's interval, or its "
        "repetitions' range where it records none; a speed-up's: both results'), where each "
        "ran more than once. Terms the "
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
    for figure, points, image in figures:
        if image is None:
            empty.append(figure.title)
            continue
        body.append(
            f'<h2 data-figure="{esc(figure.stem)}" data-points="{len(points)}">'
            f"{esc(figure.title)}</h2>"
        )
        body.append(img(image, figure.title))
        lines = dict.fromkeys(f"{p.series}: {p.result.source}" for p in points)
        body.append(f'<p class="why lines">Each line one run: {esc("; ".join(lines))}.</p>')
    if empty:
        body.append(
            '<p class="why" data-empty-figures="' + str(len(empty)) + '">Not drawn, no verified '
            "measurement in these results matches them: " + esc("; ".join(empty)) + ".</p>"
        )
    body.append(_bounds_section(rooflines))
    return page("lifebench report: figures", "\n".join(body), generated)


def runs_page(runs: list[Run], generated: str, data: dict[int, str] | None = None) -> str:
    """Each results folder: its machine, build, host and experiments; `data`: in a static
    site, the folder (relative) of each run's results, copied or linked, by id of the run."""
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
        "oldest first (by commit time where every commit records one, else by the start of "
        "each commit's first results folder), with the 95 % interval of its median as a band "
        "(older folders recorded none: there, the fastest to slowest of five or more "
        "repetitions, which holds the median at least 94 % of the time; fewer give no band). "
        "A step whose bands do not overlap the commit before's and that two runs of one commit "
        "do not make (5 % on a GPU, 40 % on the host's CPU) is beyond the noise, marked "
        "&#9650; up or &#9660; down; a change between points without a band is not marked, "
        "however large. Give the report "
        "the results folders of several commits of a machine (<code>--history DIR</code> for "
        "those the tables should not show) to see one; <code>lifebench-report history "
        "DIR&hellip;</code> prints the same in a terminal.</p>",
    ]
    for history in histories:
        machine = history.machine
        commits = ", ".join(
            f"{esc(c.label)} ({', '.join(esc(r.label) for r in c.runs)})" for c in history.commits
        )
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
                f"<span title=\"{esc(_folder(before.run))} to {esc(_folder(p.run))}\">"
                f"{'up' if p.step == 'up' else 'down'} at {esc(p.run.short_commit)}: "
                f"{fmt3(p.rate / before.rate)}&times;</span>"
                for before, p in zip(series.points, series.points[1:]) if p.step
            )
            rows.append(
                f'<tr data-series="{esc(series.experiment)}" data-steps="'
                f'{len(series.steps)}"><td>{esc(series.experiment)}</td>'
                f"<td><code>{esc(series.config_id)}</code></td>"
                f'<td class="n">{len(series.points)}</td>'
                f'<td class="n" title="{esc(_folder(series.points[-1].run))}">'
                f"{fmt3(series.points[-1].rate / 1e9)}</td>"
                f"<td>{steps or '&ndash;'}</td></tr>"
            )
        body.append(
            '<table class="list">'
            + header_row("experiment", "headline configuration", "commits",
                    "newest, 10<sup>9</sup> updates/s", "steps beyond the noise")
            + "".join(rows) + "</table>"
        )
    return page("lifebench report: history", "\n".join(body), generated)


def _folder(run: Run) -> str:
    """`folder <label> @ <commit>`: where a history point comes from."""
    return f"folder {run.label} @ {run.commit}"


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
    """The machine's name, with where this folder's name for it comes from as its title (the
    runs of one machine share the fullest record of it, not each its own)."""
    own = machine_of(run)
    return f'<span class="machine" title="{esc(own.how)}">{esc(run.machine.label)}</span>'


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
    """One results folder; in a static site its relative link (`data`) instead of its path
    here."""
    if data is None:
        where = f"results folder <code>{esc(run.folder)}</code>"
    elif run.manifest is None and not run.results:
        where = "nothing recorded"
    else:
        files = len({r.file for r in run.results}) + (run.manifest is not None)
        first = "manifest.json" if run.manifest is not None else run.results[0].file.name
        link = f"{data}/{first}"
        where = (
            f'results in <a href="{esc(link)}">{esc(data)}/</a> ({files} JSON file'
            f'{"s" if files != 1 else ""})'
        )
    out = [f"<h3>{esc(run.label)}</h3>", f'<p class="lead">{where}</p>']
    m = run.manifest or {}
    counts = run.section("configurations")
    general = [
        ("machine", _machine(run)),
        *[(key, esc(value)) for key, value in machine_of(run).facts],
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
                + (original_mark(f"{PurePath(str(external.get('program'))).name} "
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
            + header_row(
                "experiment", "backend", "family", "availability", "reason", "technique", "source"
            )
            + "".join(rows)
            + "</table>"
        )
    return "\n".join(out)
