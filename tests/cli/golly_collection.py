"""Runs every pattern of Golly's collection (Debian's golly package, /usr/share/golly/Patterns)
that lifebench reads (.rle, .lif, .life, .mc, and these gzipped) in lifebench and in bgolly
for the same generations and compares the live cells (golly_oracle.py): a longer check than
CI's test_golly_input.py, run by hand:

    python3 tests/cli/golly_collection.py build/dev/bin/lifebench [--generations 64]

Prints one line per pattern (matched, mismatched, or skipped with lifebench's reason) and a
summary: how many patterns, how many matched, which were skipped and why. Exits 1 when one
mismatched. A pattern whose RLE header gives a plane of more than --max-cells is skipped as
too large for this check, and lifebench runs with at most --memory-gib of address space."""
import argparse
import collections
import os
import re
import sys
import tempfile

import golly_oracle

READ = (".rle", ".lif", ".life", ".mc", ".rle.gz", ".lif.gz", ".life.gz", ".mc.gz")


def plane_cells(pattern, generations):
    """The cells of the plane lifebench makes for a pattern (its box and the margins), or None
    where its header does not tell (Life, macrocell)."""
    header = re.search(r"^x\s*=\s*(\d+)\s*,\s*y\s*=\s*(\d+)",
                       golly_oracle.pattern_text(pattern)[:65536], re.M)
    if not header:
        return None
    return (int(header.group(1)) + 2 * generations) * (int(header.group(2)) + 2 * generations)


def reason_kind(why):
    """A short name for a reason to skip, for the summary."""
    for fragment, kind in [("multi-state", "multi-state rule"),
                           ("only totalistic", "non-totalistic rule"),
                           ("Larger than Life", "Larger than Life rule"),
                           ("Wolfram", "one-dimensional (Wolfram) rule"),
                           ("a zero size", "grid unbounded in one direction (a tube)"),
                           ("von Neumann", "von Neumann rule"),
                           ("births on 0", "B0 rule on the unbounded plane"),
                           ("unknown rule name", "rule lifebench does not know"),
                           ("rule table", "Golly rule table that is not B/S"),
                           ("expected B<counts>/S<counts>", "rule lifebench does not read"),
                           ("MiB, more than", "plane larger than this machine's memory"),
                           ("cannot allocate", "plane larger than --memory-gib"),
                           ("bad_alloc", "plane larger than --memory-gib"),
                           ("more than 2^40", "plane of more than 2^40 cells"),
                           ("larger than --max-cells", "plane larger than --max-cells")]:
        if fragment in why:
            return kind
    return why


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lifebench", help="the built driver, e.g. build/dev/bin/lifebench")
    parser.add_argument("--generations", type=int, default=64)
    parser.add_argument("--impl", default="cpu-trivial")
    parser.add_argument("--max-cells", type=float, default=1e9,
                        help="skip RLE patterns whose plane has more cells (default 1e9)")
    parser.add_argument("--memory-gib", type=float, default=8,
                        help="lifebench's address space at most (default 8 GiB)")
    parser.add_argument("--collection", default=golly_oracle.COLLECTION)
    args = parser.parse_args()
    experiments = os.path.join(os.path.dirname(os.path.abspath(args.lifebench)), "experiments")

    patterns, unread = [], collections.Counter()
    for folder, _, files in os.walk(args.collection):
        for name in files:
            path = os.path.join(folder, name)
            if name.lower().endswith(READ):
                patterns.append(path)
            else:
                unread[os.path.splitext(name)[1] or name] += 1
    patterns.sort()

    outcomes = {}
    with tempfile.TemporaryDirectory(prefix="lifebench-golly-") as work:
        for pattern in patterns:
            cells = plane_cells(pattern, args.generations)
            if cells is not None and cells > args.max_cells:
                outcome = golly_oracle.Outcome(
                    "skipped", "a plane of %.3g cells, larger than --max-cells" % cells)
            else:
                outcome = golly_oracle.check(pattern, args.generations, args.lifebench, experiments,
                                             work, impl=args.impl,
                                             memory=int(args.memory_gib * (1 << 30)))
            outcomes[pattern] = outcome
            print("%-10s %s%s" % (outcome.status, os.path.relpath(pattern, args.collection),
                                  ": " + outcome.why if outcome.why else ""), flush=True)

    by_status = collections.Counter(o.status for o in outcomes.values())
    print("\n%d pattern files lifebench reads (%s generations each): %d matched bgolly, "
          "%d mismatched, %d skipped" % (len(outcomes), args.generations, by_status["matched"],
                                          by_status["mismatched"], by_status["skipped"]))
    skipped = collections.Counter(reason_kind(o.why) for o in outcomes.values()
                                  if o.status == "skipped")
    for kind, count in skipped.most_common():
        print("  skipped %4d: %s" % (count, kind))
    print("not read (other formats): " +
          ", ".join("%d %s" % (n, ext) for ext, n in sorted(unread.items())))
    return 1 if by_status["mismatched"] else 0


if __name__ == "__main__":
    sys.exit(main())
