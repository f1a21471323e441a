"""Helpers shared by the CLI tests: where the built programs are, and a sandbox
per test with its own copy of the driver, so that only the experiments a test
puts there are found (plus those it names with --experiments)."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LIFEBENCH = os.environ.get("LIFEBENCH", "")
TEST_EXPERIMENTS_DIR = os.environ.get("LIFEBENCH_TEST_EXPERIMENTS_DIR", "")
BUILD_TYPE = os.environ.get("LIFEBENCH_BUILD_TYPE", "")
DATASETS_DIR = os.environ.get("LIFEBENCH_DATASETS_DIR", os.path.join(HERE, "..", "..", "datasets"))
TMP_ROOT = os.environ.get("LIFEBENCH_TEST_TMP") or None

# A run of one short repetition: the sweep file's start, {experiment} and {shape} to fill.
SHORT_RUN = """
[[run]]
experiment = "{experiment}"
shape = "{shape}"
generations = 2
repetitions = 1
warmup = 0
"""

# Every parameter the fake experiment knows; "mode" chooses its behaviour in bench.
FAKE_AXES = [
    {"name": "mode", "default": "ok",
     "allowed": ["ok", "crash", "hang", "stubborn", "exit3", "nowrite", "garbage",
                 "unsupported", "partial", "flood", "sleep", "slow"],
     "description": "what bench does"},
    {"name": "threads", "default": "1", "allowed": [], "description": "any value"},
]


def optimised_build():
    return BUILD_TYPE in ("Release", "RelWithDebInfo")


def real_experiment(name):
    """Path of a built experiment executable beside the driver, or None."""
    path = os.path.join(os.path.dirname(LIFEBENCH), "experiments", "lifebench-exp-" + name)
    return path if os.access(path, os.X_OK) else None


def experiment_folder(case, name):
    """The folder of the built experiment `name`; skips `case` where it is not built."""
    binary = real_experiment(name)
    if binary is None:
        case.skipTest("%s is not built" % name)
    return os.path.dirname(binary)


def rle_body(text):
    """An RLE's runs without its comment and header lines or line breaks."""
    return "".join(line.strip() for line in text.splitlines()
                   if line and not line.startswith(("#", "x")))


def rle_cells(text, placed=False):
    """The live cells (x, y) of an RLE, counted from its box's top-left cell, or with `placed`
    at Golly's coordinates: from its "#CXRLE Pos=x,y", else from (0, 0)."""
    pos = re.search(r"^#CXRLE.*\bPos=(-?\d+),(-?\d+)", text, re.M) if placed else None
    left, top = (int(pos.group(1)), int(pos.group(2))) if pos else (0, 0)
    cells, x, y, count = set(), 0, 0, ""
    for c in rle_body(text):
        if c.isdigit():
            count += c
            continue
        n = int(count or 1)
        count = ""
        if c == "o":
            cells.update((left + x + i, top + y) for i in range(n))
        if c in "ob":
            x += n
        elif c == "$":
            x, y = 0, y + n
        elif c == "!":
            break
        else:
            raise ValueError("unexpected %r in an RLE body" % c)
    return cells


def test_experiment(name):
    path = os.path.join(TEST_EXPERIMENTS_DIR, "lifebench-exp-" + name)
    return path if TEST_EXPERIMENTS_DIR and os.access(path, os.X_OK) else None


def process_alive(pid):
    """True while `pid` runs; a zombie (dead, not yet reaped by init) counts as gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_until_gone(pid, seconds=5):
    import time
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not process_alive(pid):
            return True
        time.sleep(0.1)
    return False


class Sandbox:
    """A folder with bin/lifebench, bin/experiments/ (its default search folder) and work/."""

    def __init__(self, case):
        if not os.access(LIFEBENCH, os.X_OK):
            raise unittest.SkipTest("LIFEBENCH does not name the built driver")
        if TMP_ROOT:
            os.makedirs(TMP_ROOT, exist_ok=True)
        self.root = tempfile.mkdtemp(prefix="lifebench-cli-", dir=TMP_ROOT)
        case.addCleanup(shutil.rmtree, self.root, ignore_errors=True)
        self.bin = os.path.join(self.root, "bin")
        self.experiments = os.path.join(self.bin, "experiments")
        self.work = os.path.join(self.root, "work")
        os.makedirs(self.experiments)
        os.makedirs(self.work)
        self.lifebench = os.path.join(self.bin, "lifebench")
        try:
            os.link(LIFEBENCH, self.lifebench)
        except OSError:
            shutil.copy2(LIFEBENCH, self.lifebench)

    def add_fake(self, name, folder=None, sweep=None, **conf):
        """Puts the fake experiment `name` into `folder` (default: bin/experiments)."""
        folder = folder or self.experiments
        os.makedirs(folder, exist_ok=True)
        conf.setdefault("axes", FAKE_AXES)
        path = os.path.join(folder, "lifebench-exp-" + name)
        with open(os.path.join(HERE, "fake_experiment.py")) as f:
            source = f.read()
        with open(path, "w") as f:
            f.write("#!" + sys.executable + "\n" + source)
        os.chmod(path, 0o755)
        with open(os.path.join(folder, name + ".fake.json"), "w") as f:
            json.dump(conf, f)
        if sweep is not None:
            with open(os.path.join(folder, name + ".sweep.toml"), "w") as f:
                f.write(sweep)
        return path

    def write(self, relative, text):
        path = os.path.join(self.work, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def path(self, relative):
        return os.path.join(self.work, relative)

    def environment(self, env=None):
        full_env = dict(os.environ)
        full_env.pop("LIFEBENCH_EXPERIMENTS_PATH", None)
        for name, value in (env or {}).items():
            if value is None:
                full_env.pop(name, None)  # unset
            else:
                full_env[name] = value
        return full_env

    def run(self, *args, env=None, timeout=300):
        return subprocess.run([self.lifebench, *args], cwd=self.work, env=self.environment(env),
                              capture_output=True, text=True, timeout=timeout)

    def interrupt(self, *args, when, timeout=60, signum=signal.SIGINT):
        """Runs the driver and sends it `signum` once the file `when` exists (or, `when` a
        function, once it returns true); returns the finished process (returncode, stdout,
        stderr)."""
        driver = subprocess.Popen([self.lifebench, *args], cwd=self.work, env=self.environment(),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        arrived = when if callable(when) else lambda: os.path.exists(when)
        try:
            deadline = time.monotonic() + timeout
            while not arrived():
                if time.monotonic() > deadline or driver.poll() is not None:
                    raise AssertionError("%s never came" % when)
                time.sleep(0.01)
            driver.send_signal(signum)
            out, err = driver.communicate(timeout=timeout)
        finally:
            if driver.poll() is None:
                driver.kill()
        return subprocess.CompletedProcess(driver.args, driver.returncode, out, err)

    def start_bench(self, case, sweep, env=None):
        """Starts `bench --sweep sweep --out out` on a fake experiment that writes its pid to
        bin/experiments/fake.pid (the fake's `slow` mode); returns the driver, once the
        experiment runs, and the experiment's pid. Both are killed when the test ends."""
        driver = subprocess.Popen([self.lifebench, "bench", "--sweep", sweep, "--out", "out"],
                                  cwd=self.work, env=self.environment(env),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        case.addCleanup(lambda: driver.poll() is None and driver.kill())
        marker = os.path.join(self.experiments, "fake.pid")
        deadline = time.monotonic() + 60
        while not os.path.exists(marker):
            case.assertLess(time.monotonic(), deadline, "the experiment never started")
            time.sleep(0.05)
        with open(marker) as f:
            experiment = int(f.read())
        case.addCleanup(lambda: process_alive(experiment) and os.kill(experiment, signal.SIGKILL))
        return driver, experiment

    def bench_calls(self, name, folder=None):
        """The bench calls the fake experiment `name` received, oldest first."""
        log = os.path.join(folder or self.experiments, name + ".log")
        if not os.path.exists(log):
            return []
        with open(log) as f:
            return [json.loads(line) for line in f]

    def results(self, out, experiment):
        with open(os.path.join(self.work, out, experiment + ".json")) as f:
            return json.load(f)

    def manifest(self, out):
        with open(os.path.join(self.work, out, "manifest.json")) as f:
            return json.load(f)


class CliTestCase(unittest.TestCase):
    maxDiff = None

    def setUp(self):
        self.box = Sandbox(self)

    def assertOneErrorLine(self, proc, *fragments, code=None):
        """Fails unless the run failed with one `lifebench: error: ...` line holding each fragment."""
        self.assertNotEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        if code is not None:
            self.assertEqual(proc.returncode, code, proc.stderr)
        errors = [line for line in proc.stderr.splitlines() if line.startswith("lifebench: error: ")]
        self.assertEqual(len(errors), 1, proc.stderr)
        for fragment in fragments:
            self.assertIn(fragment, errors[0])
        return errors[0]


def main():
    """unittest.main, but exits with 77 (ctest's skip) when every test was skipped."""
    program = unittest.main(exit=False, verbosity=2)
    result = program.result
    if not result.wasSuccessful():
        sys.exit(1)
    if result.testsRun > 0 and len(result.skipped) == result.testsRun:
        sys.exit(77)
    sys.exit(0)
