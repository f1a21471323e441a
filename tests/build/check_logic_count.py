#!/usr/bin/env python3
"""Checks the vector logic counts of cpu-blocked's kernel against its compiled code.

The report's fraction of bound for cpu-blocked divides by the instructions per cell update
that KernelLogicCount() (kernels/cpu/blocked_tiles.cpp) states for each SIMD target: per
vector and row of a column walk, and per horizontal sum. They were counted in the compiled
loop; this test counts them again, so that a change of the kernel or the compiler that
changes them fails here rather than skewing the report. Columns() walks two columns side
by side, then one alone: three walks, each a loop body of one row and a start of two
horizontal sums, so its vector logic, shift and funnel-shift instructions number
3 * per_row + 6 * per_horizontal.

    check_logic_count.py OBJDUMP OBJECT SOURCE
"""
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

# Vector logic, shift and funnel-shift instructions (not loads, stores or moves).
LOGIC = re.compile(r"^vp(ternlog[dq]|and[dq]?|andn[dq]?|or[dq]?|xor[dq]?|s[lr]lq|sh[lr]dq)$")
# KernelLogicCount()'s branches: `#if HWY_TARGET == HWY_AVX3_DL` ... `return {12, 4, lanes};`
STATED = re.compile(r"#(?:el)?if HWY_TARGET == HWY_(\w+)\s*\n\s*return \{(\d+), (\d+), lanes\};")
# The widest vector of each target the kernel walks with: 8 words, or 4 on AVX2.
LANES = {"AVX3_DL": 8, "AVX3": 8, "AVX2": 4}


def functions(disassembly: str) -> dict[str, Counter]:
    """Function name -> its instructions' mnemonics, counted."""
    found: dict[str, Counter] = {}
    current = None
    for line in disassembly.splitlines():
        head = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if head:
            current = found.setdefault(head.group(1), Counter())
        elif current is not None and line.count("\t") >= 1:
            words = line.split("\t")[-1].split()
            if words:
                current[words[0]] += 1
    return found


def main() -> int:
    objdump, obj, source = sys.argv[1:4]
    stated = {t: (int(r), int(h)) for t, r, h in STATED.findall(Path(source).read_text())}
    if set(stated) != set(LANES):
        print(f"{source}: KernelLogicCount() states {sorted(stated)}, expected {sorted(LANES)}")
        return 1
    listing = subprocess.run([objdump, "-d", "--no-show-raw-insn", "-C", obj], check=True,
                             capture_output=True, text=True).stdout
    failures = 0
    for target, (per_row, per_horizontal) in stated.items():
        name = (f"void lifebench::cpu_blocked::N_{target}::Columns<false, "
                f"hwy::N_{target}::Simd<unsigned long, {LANES[target]}ul, 0> >")
        bodies = [c for f, c in functions(listing).items()
                  if f.startswith(name) and "constprop" not in f]
        if len(bodies) != 1:
            print(f"{target}: {len(bodies)} functions {name}(...) in {obj}, not one")
            failures += 1
            continue
        logic = {m: n for m, n in bodies[0].items() if LOGIC.match(m)}
        counted, expected = sum(logic.values()), 3 * per_row + 6 * per_horizontal
        verdict = "ok" if counted == expected else "MISMATCH"
        print(f"{target}: {counted} counted {logic}, {expected} stated "
              f"(3 x {per_row} + 6 x {per_horizontal}): {verdict}")
        failures += counted != expected
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
