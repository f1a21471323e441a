#!/usr/bin/env python3
"""Checks the vector logic counts of cpu-blocked's kernel against its compiled code.

The report's fraction of bound for cpu-blocked divides by the instructions per cell update
that KernelLogicCount() (kernels/cpu/logic_ceiling.cpp) states for each SIMD target: per
vector and row of a column walk, and per start of a walk. They were counted in the compiled
loop; this test counts them again, so that a change of the kernel or the compiler that
changes them fails here rather than skewing the report. Columns() walks two columns side
by side, then one alone, kRowsPerTurn rows a turn (R: 3 on the ternary-logic targets, 2
on AVX2): its two innermost loops step two walks and one walk R rows, so they hold
2 * R * per_row and R * per_row vector logic, shift and funnel-shift instructions; the
first two walks' starts come before the first loop, 2 * per_start. (The rest of the
function, the rows left after whole turns, is the compiler's to arrange.)

    check_logic_count.py OBJDUMP SOURCE OBJECT...   (the objects of the library that holds it)
"""
import re
import subprocess
import sys
from pathlib import Path

# Vector logic, shift and funnel-shift instructions (not loads, stores or moves).
LOGIC = re.compile(r"^vp(ternlog[dq]|and[dq]?|andn[dq]?|or[dq]?|xor[dq]?|s[lr]lq|sh[lr]dq)$")
# KernelLogicCount()'s branches: `#if HWY_TARGET == HWY_AVX3_DL` (comment lines) ...
# `return {10, 10, lanes};`
STATED = re.compile(
    r"#(?:el)?if HWY_TARGET == HWY_(\w+)\s*\n(?:\s*//.*\n)*\s*return \{(\d+), (\d+), lanes\};")
# The widest vector of each target the kernel walks with: 8 words, or 4 on AVX2.
LANES = {"AVX3_DL": 8, "AVX3": 8, "AVX2": 4}
# Rows a turn of Columns()' loops (kRowsPerTurn in blocked_tiles.cpp).
ROWS_PER_TURN = {"AVX3_DL": 3, "AVX3": 3, "AVX2": 2}


def functions(disassembly: str) -> dict[str, list[tuple[int, str, str]]]:
    """Function name -> its instructions: address, mnemonic, operands."""
    found: dict[str, list[tuple[int, str, str]]] = {}
    current = None
    for line in disassembly.splitlines():
        head = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if head:
            current = found.setdefault(head.group(1), [])
            continue
        instruction = re.match(r"^\s*([0-9a-f]+):\t(\S+)\s*(.*)$", line)
        if instruction and current is not None:
            current.append((int(instruction.group(1), 16), instruction.group(2),
                            instruction.group(3)))
    return found


def innermost_loops(body: list[tuple[int, str, str]]) -> list[tuple[int, int]]:
    """Address ranges of the loops (a conditional jump back) that hold no other loop."""
    loops = []
    for address, mnemonic, operands in body:
        target = re.match(r"([0-9a-f]+)\s", operands)
        if mnemonic.startswith("j") and mnemonic != "jmp" and target:
            if int(target.group(1), 16) < address:
                loops.append((int(target.group(1), 16), address))
    return [loop for loop in loops
            if not any(other != loop and loop[0] <= other[0] and other[1] <= loop[1]
                       for other in loops)]


def logic_in(body: list[tuple[int, str, str]], first: int = 0, last: int = 1 << 62) -> int:
    return sum(1 for address, mnemonic, _ in body
               if first <= address <= last and LOGIC.match(mnemonic))


def main() -> int:
    objdump, source, objects = sys.argv[1], sys.argv[2], sys.argv[3:]
    stated = {t: (int(r), int(h)) for t, r, h in STATED.findall(Path(source).read_text())}
    if set(stated) != set(LANES):
        print(f"{source}: KernelLogicCount() states {sorted(stated)}, expected {sorted(LANES)}")
        return 1
    listing = subprocess.run([objdump, "-d", "--no-show-raw-insn", "-C", *objects], check=True,
                             capture_output=True, text=True).stdout
    failures = 0
    for target, (per_row, per_start) in stated.items():
        name = (f"void lifebench::cpu_blocked::N_{target}::Columns<false, "
                f"hwy::N_{target}::Simd<unsigned long, {LANES[target]}ul, 0> >")
        bodies = [b for f, b in functions(listing).items()
                  if f.startswith(name) and "constprop" not in f]
        if len(bodies) != 1:
            print(f"{target}: {len(bodies)} functions {name}(...) in {' '.join(objects)}, not one")
            failures += 1
            continue
        body = bodies[0]
        ranges = innermost_loops(body)
        loops = sorted(logic_in(body, *loop) for loop in ranges)
        first_loop = min((first for first, _ in ranges), default=0)
        counted = (loops, logic_in(body, 0, first_loop - 1))
        rows = ROWS_PER_TURN[target]
        expected = ([rows * per_row, 2 * rows * per_row], 2 * per_start)
        verdict = "ok" if counted == expected else "MISMATCH"
        print(f"{target}: innermost loops {loops}, before them {counted[1]} counted; "
              f"{expected[0]} ({rows} rows a turn), 2 x {per_start} stated: {verdict}")
        failures += counted != expected
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
