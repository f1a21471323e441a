"""Golly as the oracle for patterns of its collection: a pattern runs in lifebench (`run`
--input, Golly's unbounded plane or the file's bounded grid) and in bgolly for the same
generations, and the live cells must agree. Used by test_golly_input.py (a few patterns, in
CI) and by golly_collection.py (the whole two-state collection, run by hand).

Two checks, so that the place is checked as well as the shape: bgolly's QuickLife writes the
box of its live cells without its place, so lifebench's cells are compared with them from
their boxes' corners; bgolly's HashLife writes a macrocell file, whose tree fixes every
cell's place on Golly's plane, and lifebench's cells must equal its cells there (read through
lifebench's macrocell reader, whose own tests place cells as Golly does)."""
import gzip
import os
import re
import resource
import subprocess

import lbtest

COLLECTION = "/usr/share/golly/Patterns"
# Golly's rule tables (rule = Life) are read by its RuleLoader from this folder.
RULES = "/usr/share/golly/Rules/"


def header_rule(text):
    """The rule an RLE's header names, or None."""
    named = re.search(r"^x\s*=.*\brule\s*=\s*(\S+)", text, re.M)
    return named.group(1) if named else None


def from_corner(cells):
    """The cells moved so that their box's top-left cell is at (0, 0)."""
    if not cells:
        return set()
    left = min(x for x, _ in cells)
    top = min(y for _, y in cells)
    return {(x - left, y - top) for x, y in cells}


class Outcome:
    """What one pattern gave: `status` "matched", "mismatched" or "skipped", with why."""

    def __init__(self, status, why=""):
        self.status = status
        self.why = why

    def __repr__(self):
        return "%s%s" % (self.status, ": " + self.why if self.why else "")


def pattern_text(path):
    """The text of a pattern file, gunzipped where it is gzip (Golly reads a file named .gz
    that is not as it stands)."""
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\x1f\x8b"):
        data = gzip.decompress(data)
    return data.decode("latin-1")


def bgolly_algorithm(pattern, place=False):
    """bgolly's algorithm for a pattern: RuleLoader for a rule named by a table (rule = Life);
    else HashLife, which alone reads macrocell files and writes them (`place`), or QuickLife."""
    if re.search(r"^x\s*=.*rule\s*=\s*Life\b", pattern_text(pattern)[:4096], re.M):
        return ["-a", "RuleLoader", "-s", RULES]
    return ["-a", "HashLife" if place or ".mc" in os.path.basename(pattern) else "QuickLife"]


def run(command, timeout, memory=None):
    """Runs a command; `memory`: the most bytes of address space it may take."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          preexec_fn=limit if memory else None)


def check(pattern, generations, lifebench, experiments, work, bgolly="bgolly", impl="cpu-trivial",
          timeout=600, memory=None):
    """Runs `pattern` for `generations` in lifebench (with at most `memory` bytes of address
    space) and bgolly, in the folder `work`."""
    ours = os.path.join(work, "lifebench.rle")
    for stale in os.listdir(work):
        os.remove(os.path.join(work, stale))
    proc = run([lifebench, "run", "--impl", impl, "--experiments", experiments, "--input", pattern,
                "--generations", str(generations), "--output", ours], timeout, memory)
    if proc.returncode != 0:
        error = [l for l in proc.stderr.splitlines() if l.startswith("lifebench: error: ")]
        return Outcome("skipped", (error or proc.stderr.splitlines() or ["no message"])[-1])
    with open(ours) as f:
        our_text = f.read()

    golly_rle = os.path.join(work, "golly.rle")
    proc = run([bgolly, *bgolly_algorithm(pattern), "-q", "-q", "-m", str(generations), "-o",
                golly_rle, pattern], timeout)
    if proc.returncode != 0 or not os.path.exists(golly_rle):
        return Outcome("mismatched", "bgolly failed where lifebench ran: " +
                       (proc.stdout + proc.stderr).strip().splitlines()[-1])
    with open(golly_rle) as f:
        golly_text = f.read()
    # Equal runs are the same cells; otherwise the cells decide (a writer may differ).
    if lbtest.rle_body(our_text) != lbtest.rle_body(golly_text):
        our_cells, golly_cells = lbtest.rle_cells(our_text), lbtest.rle_cells(golly_text)
        if from_corner(our_cells) != from_corner(golly_cells):
            return Outcome("mismatched", "%d live cells, bgolly %d, or not the same shape" %
                           (len(our_cells), len(golly_cells)))

    # The place on the plane: bgolly's HashLife as a macrocell file, read by lifebench. Only
    # for the unbounded plane (rule without ":T" or ":P"), which is where lifebench places.
    our_rule = header_rule(our_text)
    if our_rule and ":" in our_rule:
        return Outcome("matched", "bounded grid %s" % our_rule)
    golly_mc = os.path.join(work, "golly.mc")
    proc = run([bgolly, *bgolly_algorithm(pattern, place=True), "-q", "-q", "-m", str(generations), "-o", golly_mc, pattern],
               timeout)
    if proc.returncode != 0 or not os.path.exists(golly_mc):
        return Outcome("matched", "shape only: bgolly's HashLife did not run it")
    placed = os.path.join(work, "golly-placed.rle")
    proc = run([lifebench, "run", "--impl", impl, "--experiments", experiments, "--input", golly_mc,
                "--generations", "0", "--output", placed], timeout, memory)
    if proc.returncode != 0:
        return Outcome("matched", "shape only: " + proc.stderr.strip())
    with open(placed) as f:
        placed_text = f.read()
    # Both written by lifebench: the same text is the same cells at the same place and
    # generation.
    if placed_text != our_text:
        return Outcome("mismatched", "the same shape but another place or generation: %s, "
                       "bgolly's %s" % (our_text.splitlines()[0], placed_text.splitlines()[0]))
    return Outcome("matched")
