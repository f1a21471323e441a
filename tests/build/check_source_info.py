#!/usr/bin/env python3
"""cmake/LifebenchSourceInfo.cmake and tools/stamp-commit on small trees: the source hash
covers the files that build and nothing else, the dirty flag only their changes, and a copy
without git metadata takes its commit from the stamp while the tree is the one stamped.

    check_source_info.py CMAKE SOURCE_DIR      (exits 77 without git)
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

CMAKE, ROOT = sys.argv[1], Path(sys.argv[2])
SCRIPT = ROOT / "cmake" / "LifebenchSourceInfo.cmake"
FILES = {
    "CMakeLists.txt": "project(t)\n",
    "cmake/x.cmake": "# x\n",
    "impl/a.cpp": "int a;\n",
    "experiments/e/b.cpp": "int b;\n",
    "harness/c.py": "c = 1\n",
    "README.md": "not built\n",
    "results/r.json": "{}\n",
}


def write(root: Path, relative: str, text: str) -> None:
    (root / relative).parent.mkdir(parents=True, exist_ok=True)
    (root / relative).write_text(text)


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t",
                           *args], check=True, capture_output=True, text=True).stdout.strip()


class SourceInfo(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="lifebench-source-info-"))
        self.addCleanup(shutil.rmtree, self.tmp, ignore_errors=True)
        self.tree = self.tmp / "tree"
        for relative, text in FILES.items():
            write(self.tree, relative, text)

    def run_script(self, root: Path, **definitions: str) -> subprocess.CompletedProcess:
        args = [f"-D{k}={v}" for k, v in {"LIFEBENCH_SOURCE_DIR": root, **definitions}.items()]
        return subprocess.run([CMAKE, *args, "-P", str(SCRIPT)], capture_output=True, text=True)

    def info(self, root: Path) -> dict:
        """What the generated .cpp gives the driver."""
        out = self.tmp / "source_info.cpp"
        proc = self.run_script(root, LIFEBENCH_SOURCE_INFO_OUTPUT=str(out))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return json.loads(re.search(r'R"json\((.*)\)json"', out.read_text()).group(1))

    def stamp(self, root: Path) -> None:
        proc = subprocess.run([str(ROOT / "tools" / "stamp-commit"), str(root)],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def commit_all(self) -> str:
        git(self.tree, "init", "-q")
        git(self.tree, "add", "-A")
        git(self.tree, "commit", "-q", "-m", "t")
        return git(self.tree, "rev-parse", "HEAD")

    def test_the_hash_covers_the_files_that_build(self):
        first = self.info(self.tree)
        self.assertRegex(first["source_hash"], r"^sha256:[0-9a-f]{64}$")
        self.assertEqual(first["commit_source"], "unknown")
        self.assertIsNone(first["git_commit"])
        self.assertIsNone(first["git_dirty"])
        self.assertIsNone(first["git_commit_time"])
        # Not of the source tree: documents, results, Python's caches.
        write(self.tree, "README.md", "changed\n")
        write(self.tree, "results/new.json", "{}\n")
        write(self.tree, "harness/__pycache__/c.cpython-311.pyc", "x")
        self.assertEqual(self.info(self.tree)["source_hash"], first["source_hash"])
        # The same tree elsewhere has the same hash.
        copy = self.tmp / "elsewhere" / "copy"
        shutil.copytree(self.tree, copy)
        self.assertEqual(self.info(copy)["source_hash"], first["source_hash"])
        # A file's content, its name, a new file: each another tree.
        hashes = {first["source_hash"]}
        write(self.tree, "impl/a.cpp", "int a = 1;\n")
        hashes.add(self.info(self.tree)["source_hash"])
        (self.tree / "impl/a.cpp").rename(self.tree / "impl/a2.cpp")
        hashes.add(self.info(self.tree)["source_hash"])
        write(self.tree, "experiments/e/new.cpp", "")
        hashes.add(self.info(self.tree)["source_hash"])
        self.assertEqual(len(hashes), 4)

    def test_dirty_only_where_the_source_tree_changed(self):
        commit = self.commit_all()
        info = self.info(self.tree)
        self.assertEqual((info["commit_source"], info["git_commit"], info["git_dirty"]),
                         ("git", commit, False))
        self.assertEqual(info["git_commit_time"], git(self.tree, "show", "-s", "--format=%cI"))
        write(self.tree, "README.md", "changed\n")
        write(self.tree, "results/new.json", "{}\n")
        write(self.tree, "report/index.html", "")
        self.assertFalse(self.info(self.tree)["git_dirty"])
        write(self.tree, "experiments/e/new.cpp", "")
        self.assertTrue(self.info(self.tree)["git_dirty"])
        (self.tree / "experiments/e/new.cpp").unlink()
        write(self.tree, "impl/a.cpp", "int a = 1;\n")
        self.assertTrue(self.info(self.tree)["git_dirty"])

    def test_a_copy_without_git_takes_the_stamps_commit_while_unchanged(self):
        commit = self.commit_all()
        self.stamp(self.tree)
        clean = self.info(self.tree)
        copy = self.tmp / "copy"
        shutil.copytree(self.tree, copy, ignore=shutil.ignore_patterns(".git"))
        info = self.info(copy)
        self.assertEqual(info, {**clean, "commit_source": "stamp"})
        write(copy, "results/new.json", "{}\n")
        self.assertFalse(self.info(copy)["git_dirty"])
        write(copy, "impl/a.cpp", "int a = 1;\n")
        self.assertEqual(self.info(copy)["git_commit"], commit)
        self.assertTrue(self.info(copy)["git_dirty"])
        # A tree stamped dirty stays dirty.
        write(self.tree, "impl/a.cpp", "int a = 2;\n")
        self.stamp(self.tree)
        shutil.copytree(self.tree, self.tmp / "copy2", ignore=shutil.ignore_patterns(".git"))
        self.assertEqual(self.info(self.tmp / "copy2")["git_dirty"], True)

    def test_a_copy_with_stale_git_metadata_takes_the_stamps_commit(self):
        # A copy of a newer tree beside the .git of an older commit (as a GPU machine's
        # copy of a checkout may be): the stamp of the newer tree names it.
        old = self.commit_all()
        write(self.tree, "impl/a.cpp", "int a = 3;\n")
        new = self.commit_all()
        self.stamp(self.tree)
        git(self.tree, "update-ref", "HEAD", old)  # the metadata falls behind the files
        info = self.info(self.tree)
        self.assertEqual((info["git_commit"], info["git_dirty"], info["commit_source"]),
                         (new, False, "stamp"))
        self.assertEqual(info["git_commit_time"], git(self.tree, "show", "-s", "--format=%cI", new))
        write(self.tree, "impl/a.cpp", "int a = 4;\n")  # neither names this tree
        info = self.info(self.tree)
        self.assertEqual((info["git_commit"], info["git_dirty"], info["commit_source"]),
                         (old, True, "git"))

    def test_a_stamp_written_before_the_commit_time_was_recorded_still_reads(self):
        commit = self.commit_all()
        write(self.tree, ".source-stamp", "commit %s\ndirty false\nsource_hash %s\n"
              % (commit, self.info(self.tree)["source_hash"]))
        copy = self.tmp / "copy"
        shutil.copytree(self.tree, copy, ignore=shutil.ignore_patterns(".git"))
        info = self.info(copy)
        self.assertEqual((info["git_commit"], info["commit_source"], info["git_commit_time"]),
                         (commit, "stamp", None))

    def test_a_copy_inside_another_checkout_is_not_that_checkout(self):
        self.commit_all()
        nested = self.tree / "results" / "copy"
        shutil.copytree(self.tree, nested, ignore=shutil.ignore_patterns(".git", "results"))
        self.assertEqual(self.info(nested)["commit_source"], "unknown")

    def test_a_damaged_stamp_and_a_stamp_outside_git_are_refused(self):
        write(self.tree, ".source-stamp", "commit\n")
        proc = self.run_script(self.tree, LIFEBENCH_SOURCE_INFO_OUTPUT=str(self.tmp / "x.cpp"))
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("is not a stamp of tools/stamp-commit", " ".join(proc.stderr.split()))
        proc = subprocess.run([str(ROOT / "tools" / "stamp-commit"), str(self.tree)],
                              capture_output=True, text=True)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("not the top of a git checkout", " ".join(proc.stderr.split()))

    def test_an_unchanged_tree_leaves_the_generated_file_alone(self):
        out = self.tmp / "source_info.cpp"
        self.run_script(self.tree, LIFEBENCH_SOURCE_INFO_OUTPUT=str(out))
        before = out.stat().st_mtime_ns
        time.sleep(0.05)
        self.run_script(self.tree, LIFEBENCH_SOURCE_INFO_OUTPUT=str(out))
        self.assertEqual(out.stat().st_mtime_ns, before)

    def test_hashing_the_project_is_quick(self):
        # It runs at every build.
        start = time.monotonic()
        self.assertRegex(self.info(ROOT)["source_hash"], r"^sha256:")
        self.assertLess(time.monotonic() - start, 5)


if __name__ == "__main__":
    if shutil.which("git") is None:
        print("no git: skipped")
        sys.exit(77)
    program = unittest.main(argv=sys.argv[:1], exit=False, verbosity=2)
    sys.exit(0 if program.result.wasSuccessful() else 1)
