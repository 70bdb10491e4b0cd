"""Build the assignments' student notebooks and autograders, and grade submissions locally.

Each assignment is a folder ``assignments/NN_<name>/`` holding one source notebook
``<name>.py`` (jupytext percent format, Otter Assign format: solutions and hidden
tests in the same notebook) and ``wrong/answers.py`` (a deliberately wrong
submission, used by ``tests/test_assignments.py``).

::

    python assignments/build.py                 # every assignment -> dist/assignments/
    python assignments/build.py 01_bottleneck_basics
    python assignments/build.py --grade dist/assignments/01_bottleneck_basics/autograder/\
bottleneck_basics.ipynb

Per assignment, ``dist/assignments/NN_<name>/`` then holds

``student/<name>.ipynb``
    what students get (no solutions, public checks only; ``grader.check("q1")``);
``autograder/autograder.zip``
    Otter's autograder (every test, hidden ones included) for ``otter run`` or Gradescope;
``autograder/<name>.ipynb``
    the reference solution.

Grading runs each submission in a Jupyter kernel named ``transportlab`` (the
notebooks' kernelspec), registered for this interpreter if needed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DIST = ROOT / "dist" / "assignments"
ANSWER_PLACEHOLDER = re.compile(r"^(\s*[\w., \[\]\"']+=) \.\.\.$|^\s*\.\.\.$")


def assignment_folders() -> list[Path]:
    """``assignments/NN_<name>/`` folders in order."""
    return sorted(p for p in HERE.iterdir() if p.is_dir() and re.match(r"\d\d_", p.name))


def source_notebook(folder: Path) -> Path:
    """The one jupytext source notebook of an assignment folder."""
    sources = [p for p in folder.glob("*.py") if not p.name.startswith("_")]
    if len(sources) != 1:
        raise FileNotFoundError(f"{folder}: expected one source notebook (*.py), got {sources}")
    return sources[0]


def notebook_name(folder: Path) -> str:
    return source_notebook(folder).stem


def output_dir(folder: Path, dist: Path = DIST) -> Path:
    return dist / folder.name


def build(folder: Path, dist: Path = DIST) -> Path:
    """Student notebook and autograder of one assignment into ``dist/<folder>/``."""
    import jupytext  # noqa: PLC0415

    folder = Path(folder)
    target = output_dir(folder, dist)
    work = dist / ".sources" / folder.name
    shutil.rmtree(target, ignore_errors=True)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    source = source_notebook(folder)
    master = work / f"{source.stem}.ipynb"
    notebook = jupytext.read(source)
    notebook.metadata.pop("jupytext", None)
    jupytext.write(notebook, master, fmt="ipynb")
    # --no-run-tests: the tests grade the reference solution themselves (and simulate once).
    result = subprocess.run(
        [sys.executable, "-m", "otter", "assign", "--no-run-tests", "--no-pdfs",
         str(master), str(target)],
        capture_output=True, text=True, cwd=work,
    )  # fmt: skip
    if result.returncode != 0:
        raise RuntimeError(f"otter assign failed for {folder.name}:\n{result.stderr[-3000:]}")
    zips = sorted((target / "autograder").glob("*.zip"))
    if len(zips) != 1:
        raise RuntimeError(f"{folder.name}: expected one autograder zip, got {zips}")
    zips[0].rename(target / "autograder" / "autograder.zip")
    return target


def build_all(names: list[str] | None = None, dist: Path = DIST) -> list[Path]:
    folders = assignment_folders()
    if names:
        unknown = set(names) - {f.name for f in folders}
        if unknown:
            have = [f.name for f in folders]
            raise SystemExit(f"unknown assignments {sorted(unknown)}; have {have}")
        folders = [f for f in folders if f.name in names]
    return [build(folder, dist) for folder in folders]


# --------------------------------------------------------------------------- submissions


def answer_cells(notebook) -> dict[str, list[int]]:
    """Indices of the answer cells of each question of a student notebook, in order.

    An answer cell is a code cell tagged ``otter_answer_cell``; it belongs to the
    question whose ``grader.check("qN")`` cell comes next.
    """
    pending: list[int] = []
    answers: dict[str, list[int]] = {}
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        if "otter_answer_cell" in cell.metadata.get("tags", []):
            pending.append(index)
            continue
        match = re.match(r'\s*grader\.check\("(\w+)"\)', cell.source)
        if match and pending:
            answers.setdefault(match.group(1), []).extend(pending)
            pending = []
    return answers


def fill_submission(student: Path, answers: dict[str, str], target: Path) -> Path:
    """A submission: the student notebook with each question's answer cell replaced.

    ``answers`` maps a question name to the code of its (first) answer cell; further
    answer cells of that question are emptied. Questions not in ``answers`` stay as
    handed out (unanswered).
    """
    import nbformat  # noqa: PLC0415

    notebook = nbformat.read(student, as_version=4)
    cells = answer_cells(notebook)
    unknown = set(answers) - set(cells)
    if unknown:
        raise KeyError(f"{student.name} has no answer cells for {sorted(unknown)}")
    for question, code in answers.items():
        first, *rest = cells[question]
        notebook.cells[first].source = code.strip("\n")
        for index in rest:
            notebook.cells[index].source = ""
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(notebook, target)
    return target


def ensure_kernel() -> str:
    """The ``transportlab`` Jupyter kernel of this interpreter (the notebooks' kernelspec)."""
    from transportlab.notebooks import ensure_kernel as ensure  # noqa: PLC0415

    return ensure()


def grade(submission: Path, autograder: Path, quiet: bool = True) -> dict[str, float]:
    """Grade one submission with ``autograder.zip`` in this environment (no Docker).

    Returns the score of every question and ``"total"``. Same as ``otter run -a
    autograder.zip submission.ipynb``.
    """
    from otter.api import grade_submission  # noqa: PLC0415

    ensure_kernel()
    stream = io.StringIO()
    with contextlib.redirect_stderr(stream) if quiet else contextlib.nullcontext():
        results = grade_submission(str(submission), str(autograder), quiet=quiet)
    scores = {name: float(results.get_score(name)) for name in results.results}
    scores["total"] = float(results.total)
    scores["possible"] = float(results.possible)
    return scores


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("assignments", nargs="*", help="folder names (default: all)")
    parser.add_argument("--dist", type=Path, default=DIST, help="output folder")
    parser.add_argument(
        "--grade", type=Path, metavar="NOTEBOOK",
        help="grade one submission with its assignment's autograder (built first if missing)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.grade:
        if len(args.assignments) != 1:
            parser.error("--grade needs the assignment's folder name, e.g. 01_bottleneck_basics")
        folder = HERE / args.assignments[0]
        autograder = output_dir(folder, args.dist) / "autograder" / "autograder.zip"
        if not autograder.is_file():
            build(folder, args.dist)
        print(json.dumps(grade(args.grade, autograder), indent=2))
        return 0
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    for target in build_all(args.assignments, args.dist):
        print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
