"""A program that an external experiment's description runs in the CLI tests:

    fake_program.py MODE INPUT OUTPUT GENERATIONS [SIMULATOR]

MODE says how it misbehaves, or (simulate, silent) that it advances INPUT into OUTPUT by
running SIMULATOR, a lifebench experiment executable, as an original program would."""
import os
import subprocess
import sys
import time


def simulate(simulator, source, target, generations):
    subprocess.run([simulator, "run", "--input", source, "--generations", generations,
                    "--output", target], check=True)


def main():
    mode, source, target, generations = sys.argv[1:5]
    if mode == "simulate":  # and print a time of its own, as "took 250 ms"
        simulate(sys.argv[5], source, target, generations)
        print("took 250 ms")
    elif mode == "silent":  # a right answer, but no time printed
        simulate(sys.argv[5], source, target, generations)
    elif mode == "copy":  # writes its input back: a wrong answer
        with open(source) as f, open(target, "w") as g:
            g.write(f.read())
    elif mode == "exit3":
        print("fake_program: out of cheese", file=sys.stderr)
        sys.exit(3)
    elif mode == "nowrite":
        pass
    elif mode == "garbage":
        with open(target, "w") as f:
            f.write("x = 3, y = 3\nthis is not RLE\n")
    elif mode == "wrongsize":  # a state of a grid one column wider
        with open(target, "w") as f:
            f.write("x = 1, y = 1, rule = B3/S23:T65,64\no!\n")
    elif mode == "hang":  # with a child, which must not outlive it
        child = subprocess.Popen(["sleep", "600"])
        # Written whole under another name, then renamed: a test acts as soon as the file exists
        # (an interrupt then may come before a write into it).
        pids = os.environ["FAKE_PIDS"]
        with open(pids + ".part", "w") as f:
            f.write("%d\n%d\n" % (os.getpid(), child.pid))
        os.replace(pids + ".part", pids)
        time.sleep(600)
    else:
        sys.exit("fake_program: unknown mode " + mode)


if __name__ == "__main__":
    main()
