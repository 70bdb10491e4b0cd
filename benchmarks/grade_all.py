"""Grading a class: one submission, then a folder of them in parallel (``make grade-all``).

    .venv/bin/python benchmarks/grade_all.py [--assignment 01_bottleneck_basics]
                                             [--students 6] [--jobs 2]

Builds the assignment into a temporary folder, fills its student notebook with the
deliberately wrong answers (``wrong/answers.py``) for every student, and grades them
with ``grade_all`` in a results cache of its own: first the reference solution (which
simulates, then is cached), then the students, ``--jobs`` at a time. Prints the wall
time of each grading and of the whole class, and the peak memory (resident set, summed
over this process and all its children: the grading processes and their kernels) while
one and while ``--jobs`` gradings run. Memory is sampled every 0.2 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class PeakMemory:
    """Largest summed RSS of this process and its descendants, sampled in a thread."""

    def __init__(self, interval: float = 0.2) -> None:
        self.interval, self.peak, self._stop = interval, 0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        me = psutil.Process()
        while not self._stop.is_set():
            total = 0
            for process in [me, *me.children(recursive=True)]:
                try:
                    total += process.memory_info().rss
                except psutil.Error:
                    pass
            self.peak = max(self.peak, total)
            self._stop.wait(self.interval)

    def __enter__(self) -> PeakMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--assignment", default="01_bottleneck_basics")
    parser.add_argument("--students", type=int, default=6)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    build = _load(ROOT / "assignments" / "build.py", "assignments_build")
    folder = ROOT / "assignments" / args.assignment
    wrong = _load(folder / "wrong" / "answers.py", "wrong_answers")
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="grade-bench-") as work_dir:
        work = Path(work_dir)
        os.environ["TRANSPORTLAB_RESULTS_CACHE"] = str(work / "cache")
        dist = work / "dist"
        started = time.monotonic()
        build.build(folder, dist)
        print(f"build {args.assignment}: {time.monotonic() - started:.0f} s")
        notebook = f"{build.notebook_name(folder)}.ipynb"
        student = dist / folder.name / "student" / notebook
        one = work / "one"
        build.fill_submission(student, wrong.ANSWERS, one / "student_00.ipynb")
        with PeakMemory() as memory:
            started = time.monotonic()
            build.grade_all(one, work / "grades-one", dist=dist, jobs=1)
            first = time.monotonic() - started
        print(f"reference (simulating) + 1 submission, 1 at a time: {first:.0f} s, "
              f"peak {memory.peak / 2**20:.0f} MB")  # fmt: skip
        many = work / "many"
        for index in range(args.students):
            build.fill_submission(student, wrong.ANSWERS, many / f"student_{index:02d}.ipynb")
        with PeakMemory() as memory:
            started = time.monotonic()
            build.grade_all(many, work / "grades-many", dist=dist, jobs=args.jobs)
            total = time.monotonic() - started
        print(f"reference (cached) + {args.students} submissions, {args.jobs} at a time: "
              f"{total:.0f} s, peak {memory.peak / 2**20:.0f} MB")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
