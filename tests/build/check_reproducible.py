#!/usr/bin/env python3
"""Compiles sources twice with the build's own commands and checks the objects are equal.

`bench --resume` keeps a result only while its experiment's binary is unchanged, so a
rebuild of unchanged sources (on a fresh machine, say) must give the same binaries. The
objects are what the compilers make; linking them is deterministic.

    check_reproducible.py BUILD_DIR SOURCE...   (SOURCE: a path ending as in the build)
"""
import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path


def command_into(entry: dict, folder: Path) -> list[str]:
    """The entry's compile command with its object written into `folder` instead."""
    words = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    return [str(folder / Path(word).name) if i > 0 and words[i - 1] == "-o" else word
            for i, word in enumerate(words)]


def first_difference(a: bytes, b: bytes) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def main() -> int:
    build, sources = Path(sys.argv[1]), sys.argv[2:]
    entries = json.loads((build / "compile_commands.json").read_text())
    failures = 0
    for source in sources:
        found = [e for e in entries if e["file"].endswith("/" + source)]
        if len(found) != 1:
            print(f"{source}: {len(found)} entries in {build}/compile_commands.json, not one")
            failures += 1
            continue
        entry = found[0]
        objects = []
        with tempfile.TemporaryDirectory() as first, tempfile.TemporaryDirectory() as second:
            for folder in (Path(first), Path(second)):
                command = command_into(entry, folder)
                subprocess.run(command, cwd=entry["directory"], check=True)
                objects.append(next(folder.glob("*.o")).read_bytes())
        if objects[0] == objects[1]:
            print(f"{source}: the same object from two compilations ({len(objects[0])} bytes)")
        else:
            at = first_difference(*objects)
            print(f"{source}: two compilations differ from byte {at}: "
                  f"{objects[0][at:at + 48]!r} / {objects[1][at:at + 48]!r}")
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
