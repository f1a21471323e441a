"""The glossary page (glossary.html): the terms the report uses without saying what they are,
each with an anchor that the pages link to where the term appears (`term`)."""

from __future__ import annotations

import html

GLOSSARY = "glossary.html"

# (anchor, term, definition as HTML). The seeds are the published documents the tables come
# from; each table page cites its own in full.
TERMS: list[tuple[str, str, str]] = [
    ("seed", "seed 000 to 004",
     "The five published documents lifebench reproduces, numbered in the order they were "
     "collected: 000 Dijkstra and Brouwer's blog post on a fast Game of Life (CPU, OpenCL, "
     "CUDA; 2023); 001 a blog post on optimising the 3D Game of Life for HPCGame with CUDA "
     "(2024); 002 course slides on the Game of Life on an RTX 3080, from a naive kernel to "
     "bit packing; 003 Fujita, Nakano and Ito's journal paper on bitwise parallel bulk "
     "computation on a GPU; 004 a CMU 15-418 project write-up on hexagonal cellular automata "
     "in CUDA. Each table page cites its source in full."),
    ("tie", "tie",
     "The line in an experiment's <code>sweep.toml</code> that puts a configuration in a "
     "published table's cell (<code>table</code>, <code>row</code>, <code>column</code>). "
     "A cell shows the best verified configuration tied to it that ran the cell's problem; "
     "tied runs of other problems are listed under the cell, never compared."),
    ("verified", "verified",
     "Before it was timed, the configuration ran a soup of its problem (capped at 2<sup>22</sup> "
     "cells) and every cell was compared with the reference simulator's: all agreed, on the "
     "timed problem itself (the capped problem is the timed one, or the timed run's final "
     "state was checked too)."),
    ("verified-small", "verified small",
     "As verified, on the capped problem only: it is smaller than the timed one, whose final "
     "state is too large for the reference to check; its size is in the mark's title."),
    ("final", "final \u2713",
     "The timed simulator's own state, after the warmup and every repetition, was downloaded "
     "and compared with the reference's from the same soup (where the reference's work stays "
     "small: at most 2<sup>32</sup> cell-generations)."),
    ("conformance", "conformance test",
     "Each experiment's CTest test that runs it on small universes of every shape, rule and "
     "boundary it accepts and compares every cell with the reference simulator; the sweeps "
     "run them before measuring."),
    ("lop3", "LOP3",
     "The NVIDIA GPU instruction that computes any logic function of three 32-bit operands in "
     "one instruction; bit-sliced kernels count cells in LOP3 instructions, and the GPU's "
     "logic ceiling is its rate of them, measured in the same process."),
    ("sass", "SASS",
     "The GPU's machine code, as <code>cuobjdump -sass</code> prints it: the instructions a "
     "cell update costs are counted there, not in the CUDA source."),
    ("bound", "bound, fraction of bound",
     "The resource an experiment's README names as what limits it: <em>logic</em> (logic "
     "instructions per second: 32-bit LOP3 on a GPU, vector instructions on a CPU) or "
     "<em>memory</em> (bytes read and written per second). The fraction of bound is the "
     "measured rate over the rate that resource allows (ceiling &divide; cost of one update)."),
    ("normalised", "normalised ratio",
     "Measured / published divided by how many times the published device's ceiling ours is, "
     "for the experiment's bound: the techniques compared as if on equal hardware."),
    ("halo-steps", "halo_steps",
     "cuda-outofcore's parameter T: the generations one pass over the universe file advances. "
     "Each sub-universe is read with T rows above and below (and T/64 words left and right) of "
     "halo, so that it can advance T generations on its own before it is written back."),
    ("skewed", "skewed bands",
     "cuda-outofcore's other scheme (<code>scheme=skewed</code>): bands of whole rows read "
     "with no halo; a band's window moves up one row a generation, and the rows it needs from "
     "above come from the band before it through a buffer on the GPU, so that no cell is "
     "read twice and only the first band's prelude is computed twice."),
    ("sub-universes", "sub-universes",
     "The pieces (rows \u00d7 columns) a universe too large for memory is cut into; each is "
     "read from the universe file (<code>.lbu</code>), advanced and written back."),
    ("machine", "machine, derived machine name",
     "Every results folder names its machine (<code>lifebench bench --machine</code>, or a "
     "name the bench derives from the hardware). A folder written before that records none: "
     "the report derives one from the GPUs and the host's CPU model and logical cores, "
     "<code>[&lt;n&gt;x-]&lt;GPU&gt;-&lt;CPU&gt;-&lt;cores&gt;t</code>, marked "
     "\u201c(derived)\u201d; it names a kind of machine, not one machine."),
    ("run", "run, results folder",
     "One <code>lifebench bench</code> output folder: one source tree (commit) on one machine. "
     "A table cell takes, for each machine, the newest run that measured it, never the best "
     "across runs."),
    ("noise", "noise (\u00b1, \u2195)",
     "\u00b1 is half the 95 % interval of the median time, relative to the median; \u2195 "
     "half the fastest-to-slowest range of the repetitions where no interval is recorded."),
]


def term(anchor: str, text: str) -> str:
    """`text` (HTML) linked to its glossary entry."""
    if anchor not in _ANCHORS:
        raise KeyError(f"no glossary entry {anchor!r}")
    return f'<a class="term" href="{GLOSSARY}#{anchor}">{text}</a>'


_ANCHORS = {anchor for anchor, _, _ in TERMS}


def glossary_body() -> str:
    items = "".join(
        f'<dt id="{anchor}">{html.escape(name)}</dt><dd>{definition}</dd>'
        for anchor, name, definition in TERMS
    )
    return (
        "<h1>Glossary</h1>"
        '<p class="lead">The terms the report uses; the pages link here where they appear.</p>'
        f'<dl class="glossary">{items}</dl>'
    )
