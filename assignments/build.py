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
    zip_path = target / "autograder" / "autograder.zip"
    zips[0].rename(zip_path)
    student = target / "student" / f"{source.stem}.ipynb"
    make_self_sufficient(zip_path, student, f"assignments/{folder.name}/{student.name}")
    return target


# --------------------------------------------------------------------------- Gradescope

#: What the autograder zip carries of the repository (under ``transportlab/``) so that
#: Gradescope's setup can build transportlab: the package, its native modules and build,
#: the pins, the published data (the project folder is found by it) and the scripts the
#: setup runs.
BUNDLED = (
    "pyproject.toml", "CMakeLists.txt", "README.md", "LICENSE", "cmake/", "src/", "tools/",
    "requirements/constraints.txt", "data/published/", "scripts/project_requirements.py",
    "scripts/precompute_notebooks.py", "scripts/build-jobs.sh", "scripts/gradescope-setup.sh",
)  # fmt: skip
GRADESCOPE_PYTHON = "3.11"
GRADESCOPE_SETUP = """
# transportlab (assignments/build.py): compile its ns-3 modules against the ns3 wheel in
# otter-env, build the precompiled headers, put the student notebook's simulations into
# the results cache
mamba run -n otter-env bash /autograder/source/transportlab/scripts/gradescope-setup.sh
"""


def _bundled_files() -> list[str]:
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    return [
        name
        for name in filter(None, tracked.split("\0"))
        if (name in BUNDLED or name.startswith(tuple(b for b in BUNDLED if b.endswith("/"))))
        and (ROOT / name).is_file()
    ]


def gradescope_environment() -> str:
    """otter's ``environment.yml`` for Gradescope, with transportlab's Python and pins."""
    import tomllib  # noqa: PLC0415

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    otter = next(r for r in project["optional-dependencies"]["test"] if r.startswith("otter"))
    pip = [
        "-c /autograder/source/transportlab/requirements/constraints.txt",
        otter.replace("otter-grader", "otter-grader[grading,plugins]"),
        "scikit-build-core",
        *project["dependencies"],
    ]
    lines = [
        "name: otter-env",
        "channels:",
        "  - conda-forge",
        "dependencies:",
        f"  - python={GRADESCOPE_PYTHON}",
        "  - pip",
        "  - cmake>=3.20",
        "  - ninja",
        "  - jupyter_server",
        "  - pip:",
        *(f'      - "{requirement}"' for requirement in pip),
    ]
    return "\n".join(lines) + "\n"


def make_self_sufficient(zip_path: Path, student: Path, student_name: str) -> None:
    """Turn otter's autograder zip into one Gradescope can grade transportlab notebooks with.

    otter's zip makes a conda environment with otter only (``python=3.13``): every
    submission would fail at ``import transportlab``. This one's ``environment.yml``
    holds Python 3.11, the pinned packages and the ns3 wheel; it carries the sources
    under ``transportlab/`` (:data:`BUNDLED`) and the student notebook, and its
    ``setup.sh`` ends by running ``scripts/gradescope-setup.sh`` (native build, PCH, the
    notebook's simulations into the cache).
    """
    import zipfile  # noqa: PLC0415

    with zipfile.ZipFile(zip_path) as original:
        entries = {name: original.read(name) for name in original.namelist()}
    entries["environment.yml"] = gradescope_environment().encode()
    entries["setup.sh"] = entries["setup.sh"].rstrip(b"\n") + b"\n" + GRADESCOPE_SETUP.encode()
    for name in _bundled_files():
        entries[f"transportlab/{name}"] = (ROOT / name).read_bytes()
    entries[f"transportlab/{student_name}"] = student.read_bytes()
    temporary = zip_path.with_suffix(".tmp")
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as rebuilt:
        for name, data in entries.items():
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name.endswith(".sh") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            rebuilt.writestr(info, data)
    os.replace(temporary, zip_path)


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


# --------------------------------------------------------------------------- grading


def grade_report(submission: Path, autograder: Path, quiet: bool = True) -> dict:
    """Grade one submission with ``autograder.zip`` in this environment (no Docker).

    Same as ``otter run -a autograder.zip submission.ipynb``. Returns a JSON-able dict:
    ``scores`` (every question, ``total``, ``possible``), ``questions`` (per question:
    score, possible and the reason of every failed check: what was expected and why) and
    otter's own ``summary``.
    """
    from otter.api import grade_submission  # noqa: PLC0415
    from transportlab.teaching import failure_reasons  # noqa: PLC0415

    ensure_kernel()
    stream = io.StringIO()
    with contextlib.redirect_stderr(stream) if quiet else contextlib.nullcontext():
        results = grade_submission(str(submission), str(autograder), quiet=quiet)
    if results.has_catastrophic_failure():
        raise RuntimeError(f"{submission}: grading failed: {results.catastrophic_error}")
    questions = {}
    for name, test_file in results.results.items():
        failed = [
            {
                "hidden": case.test_case.hidden,
                "reasons": failure_reasons(case.message or "") or [case.message or ""],
            }
            for case in test_file.test_case_results
            if not case.passed
        ]
        questions[name] = {
            "score": float(test_file.score),
            "possible": float(test_file.possible),
            "failed": failed,
        }
    scores = {name: q["score"] for name, q in questions.items()}
    scores["total"] = float(results.total)
    scores["possible"] = float(results.possible)
    return {"scores": scores, "questions": questions, "summary": results.summary()}


def grade(submission: Path, autograder: Path, quiet: bool = True) -> dict[str, float]:
    """The score of every question of one submission, and ``total`` and ``possible``."""
    return grade_report(submission, autograder, quiet)["scores"]


def feedback_text(student: str, assignment: str, report: dict) -> str:
    """What one student reads: the score per question and why each lost mark was lost."""
    scores = report["scores"]
    lines = [
        f"{assignment}: {student}",
        f"score: {scores['total']:g} / {scores['possible']:g}",
        "",
    ]
    for name, question in report["questions"].items():
        lines.append(f"{name}: {question['score']:g} / {question['possible']:g}")
        for case in question["failed"]:
            kind = "hidden check" if case["hidden"] else "public check"
            for reason in case["reasons"]:
                lines.append(f"  - {kind}: {reason}")
    lines += [
        "",
        "Written explanations (markdown cells) are not autograded: your instructor reads them.",
    ]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- a class

#: Memory one grading takes at its peak: the grading process (otter, ~0.2 GB) and the
#: notebook's kernel, which loads ns-3 (0.3-0.6 GB). Measured: see the instructor guide.
GRADING_MEMORY_BYTES = 1024**3


def _assignment_of(notebook_path: Path, folders: list[Path]) -> Path:
    """The assignment folder a submitted notebook belongs to (otter's assignment_name)."""
    import nbformat  # noqa: PLC0415

    notebook = nbformat.read(notebook_path, as_version=4)
    name = notebook.metadata.get("otter", {}).get("assignment_name")
    for folder in folders:
        if notebook_name(folder) == name:
            return folder
    known = ", ".join(notebook_name(f) for f in folders)
    raise ValueError(
        f"{notebook_path.name}: not a submission of a known assignment "
        f"(otter assignment_name {name!r}; known: {known})"
    )


def _submitted_notebook(path: Path, work: Path) -> Path:
    """The notebook of a submission: the .ipynb itself, or the one in otter's export zip."""
    if path.suffix == ".ipynb":
        return path
    import zipfile  # noqa: PLC0415

    with zipfile.ZipFile(path) as archive:
        notebooks = [n for n in archive.namelist() if n.endswith(".ipynb") and "/" not in n]
        if len(notebooks) != 1:
            raise ValueError(f"{path.name}: expected one notebook in the zip, got {notebooks}")
        target = work / path.stem / notebooks[0]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(archive.read(notebooks[0]))
    return target


def default_jobs(memory_per_job: int = GRADING_MEMORY_BYTES) -> int:
    """Gradings at once: one per core, as many as the available memory holds (at least 1)."""
    import psutil  # noqa: PLC0415

    by_memory = int(psutil.virtual_memory().available // memory_per_job)
    return max(1, min(os.cpu_count() or 1, by_memory))


def _write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename (never half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp{os.getpid()}")
    temporary.write_text(text)
    os.replace(temporary, path)


#: A grading that takes longer is stopped (with its kernel) and reported as failed: a
#: submission that loops or simulates for hours must not hold up the class.
GRADING_TIMEOUT_S = 1200


def _grade_in_subprocess(submission: Path, autograder: Path, result: Path) -> dict:
    """One grading in its own process group (its own kernel; a crash costs one submission)."""
    import signal  # noqa: PLC0415

    command = [
        sys.executable, str(Path(__file__).resolve()), "--grade-one", str(submission),
        "--autograder", str(autograder), "--report", str(result),
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        stdout, stderr = process.communicate(timeout=GRADING_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # the grading and the kernel it started
        process.communicate()
        raise RuntimeError(f"stopped after {GRADING_TIMEOUT_S} s") from None
    if process.returncode != 0 or not result.is_file():
        output = (stderr or stdout).strip().splitlines()
        raise RuntimeError(output[-1] if output else f"exit status {process.returncode}")
    return json.loads(result.read_text())


def grade_all(
    submissions: Path,
    output: Path,
    names: list[str] | None = None,
    dist: Path = DIST,
    jobs: int | None = None,
    log=print,
) -> Path:
    """Grade every submission (``*.ipynb``, or otter's export ``*.zip``) in ``submissions``.

    Each submission's assignment is read from its notebook (otter's assignment name);
    with ``names``, submissions of other assignments are listed as skipped. The
    reference solution of every assignment involved is graded first: it must get full
    marks (else this environment is broken and no student is graded), and its
    simulations land in the results cache, so the students' gradings only load them.
    ``jobs`` gradings run at a time (default: :func:`default_jobs`, by cores and
    available memory), each in its own process with its own kernel (ns-3 loaded once
    per grading). Writes into ``output`` (created):
    ``gradebook.csv``, one row per submission (every question, total, possible,
    percent, status), and ``feedback/<student>.txt`` (score per question and the reason
    of every failed check). Returns the gradebook's path.
    """
    import tempfile  # noqa: PLC0415
    import time  # noqa: PLC0415
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    import pandas as pd  # noqa: PLC0415

    submissions = Path(submissions)
    if not submissions.is_dir():
        raise SystemExit(f"{submissions} is not a folder of submissions")
    files = sorted(
        p for p in submissions.iterdir() if p.suffix in (".ipynb", ".zip") and p.is_file()
    )
    if not files:
        raise SystemExit(f"{submissions} holds no submissions (*.ipynb or *.zip)")
    folders = assignment_folders()
    output = Path(output)
    output.mkdir(parents=True, exist_ok=True)
    jobs = jobs or default_jobs()
    stems = [p.stem for p in files]
    rows: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="grade-all-") as work_dir:
        work = Path(work_dir)
        todo = []  # (student, submitted file, its notebook, assignment folder)
        for path in files:
            student = path.stem if stems.count(path.stem) == 1 else path.name
            row = {"student": student, "submission": path.name}
            try:
                notebook = _submitted_notebook(path, work)
                folder = _assignment_of(notebook, folders)
            except (ValueError, OSError) as exc:
                rows[student] = dict(row, status=str(exc))
                continue
            if names and folder.name not in names:
                rows[student] = dict(row, assignment=folder.name, status="skipped: not selected")
                continue
            todo.append((student, path, notebook, folder))
        autograders = {}
        for folder in dict.fromkeys(item[3] for item in todo):
            autograders[folder] = output_dir(folder, dist) / "autograder" / "autograder.zip"
            if not autograders[folder].is_file():
                log(f"building {folder.name}")
                build(folder, dist)

        def one(item):
            student, _, notebook, folder = item
            started = time.monotonic()
            result = work / "reports" / f"{folder.name}-{student}.json"
            result.parent.mkdir(parents=True, exist_ok=True)
            try:
                report = _grade_in_subprocess(notebook, autograders[folder], result)
            except Exception as exc:  # noqa: BLE001 - one broken submission, not the class
                return item, None, f"grading failed: {exc}", time.monotonic() - started
            return item, report, "graded", time.monotonic() - started

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            references = [
                ("reference solution", None, zip_path.parent / f"{notebook_name(f)}.ipynb", f)
                for f, zip_path in autograders.items()
            ]
            log(f"grading {len(references)} reference solutions, {jobs} at a time")
            for (_, _, _, folder), report, status, seconds in pool.map(one, references):
                scores = report["scores"] if report else {}
                if not report or scores["total"] != scores["possible"]:
                    got = f"{scores['total']:g} of {scores['possible']:g}" if report else status
                    raise SystemExit(
                        f"{folder.name}: the reference solution gets {got}: this environment "
                        "cannot grade the assignment (is `make install` complete?)"
                    )
                log(f"  {folder.name}: {scores['total']:g}/{scores['possible']:g} "
                    f"({seconds:.0f} s; its simulations are now cached)")  # fmt: skip
            log(f"grading {len(todo)} submissions, {jobs} at a time")
            for index, (item, report, status, seconds) in enumerate(pool.map(one, todo), 1):
                student, path, _, folder = item
                row = {"student": student, "submission": path.name, "assignment": folder.name}
                feedback = output / "feedback" / f"{student}.txt"
                if report:
                    row.update(report["scores"])
                    row["percent"] = round(100 * row["total"] / row["possible"], 1)
                    _write_atomic(feedback, feedback_text(student, folder.name, report))
                    result = f"{row['total']:g}/{row['possible']:g}"
                else:
                    _write_atomic(feedback, f"{folder.name}: {student}\n{status}\n")
                    result = status
                rows[student] = dict(row, status=status)
                log(f"  [{index}/{len(todo)}] {student} ({folder.name}): {result} "
                    f"({seconds:.0f} s)")  # fmt: skip
    questions = sorted(
        {key for row in rows.values() for key in row if re.fullmatch(r"q\d+\w*", key)},
        key=lambda q: (int(re.match(r"q(\d+)", q).group(1)), q),
    )
    columns = ["student", "submission", "assignment", *questions, "total", "possible"]
    table = pd.DataFrame([rows[s] for s in sorted(rows)])
    table = table.reindex(columns=[*columns, "percent", "status"])
    gradebook = output / "gradebook.csv"
    _write_atomic(gradebook, table.to_csv(index=False))
    return gradebook


# --------------------------------------------------------------------------- student release

#: What a student release leaves out of the repository: the assignments' sources (their
#: solutions, hidden tests and wrong answers), the test suite, CI and benchmarks.
RELEASE_EXCLUDED = ("assignments/", "tests/", ".ci/", "benchmarks/")
RELEASE_MARKER = ".student-release"
RELEASE_BRANCH = "student"
#: Text that only an assignment's source or autograder holds.
SOLUTION_MARKERS = re.compile(r"#\s*(BEGIN |END )?SOLUTION\b|#\s*HIDDEN\b|#\s*BEGIN TESTS\b")


def binder_link(binder: str, folder: Path) -> str:
    """The Binder link that opens one assignment's student notebook of a release.

    ``binder`` is the repository part of a mybinder.org link, e.g.
    ``gh/<owner>/<repo>/student`` (GitHub, branch ``student``).
    """
    return (
        f"https://mybinder.org/v2/{binder.strip('/')}?labpath="
        f"assignments/{folder.name}/{notebook_name(folder)}.ipynb"
    )


def _release_readme(folders: list[Path], binder: str | None) -> str:
    lines = [
        "# Assignments",
        "",
        "Lab assignments on transport protocols (TCP, UDP, SCTP) with the ns-3 simulator.",
        "Open one notebook, run it from the top, answer each question in its cell and run",
        '`grader.check("qN")` below it: the public checks catch some common mistakes and',
        'otherwise say "format checked; graded later" (the values are graded when your',
        "instructor grades the notebook).",
        "",
    ]
    for folder in folders:
        notebook = f"{folder.name}/{notebook_name(folder)}.ipynb"
        link = f" ([open in Binder]({binder_link(binder, folder)}))" if binder else ""
        lines.append(f"* [`{notebook}`]({notebook}){link}")
    lines += [
        "",
        "On Binder, the simulations of each notebook are already in the results cache: the",
        "first run loads them in seconds. A Binder session is not saved and stops after",
        "about ten idle minutes: download your notebook (File > Download) before leaving,",
        "and hand in the `.ipynb` file.",
        "",
    ]
    return "\n".join(lines)


def check_release(target: Path) -> None:
    """Raise if anything in a release would show a solution, a hidden test or a wrong answer."""
    import nbformat  # noqa: PLC0415

    problems = []
    for path in sorted(p for p in Path(target).rglob("*") if p.is_file()):
        relative = path.relative_to(target)
        if relative.parts[0] == ".git":
            continue
        if "wrong" in relative.parts or path.name == "autograder.zip":
            problems.append(f"{relative}: not for students")
        if path.suffix == ".ipynb" and relative.parts[0] == "assignments":
            notebook = nbformat.read(path, as_version=4)
            for question in notebook.metadata.get("otter", {}).get("tests", {}).values():
                for suite in question["suites"]:
                    if any(case["hidden"] for case in suite["cases"]):
                        problems.append(f"{relative}: holds hidden tests")
            text = "\n".join(cell.source for cell in notebook.cells)
        else:
            try:
                text = path.read_text()
            except (UnicodeDecodeError, OSError):
                continue
        if SOLUTION_MARKERS.search(text):
            problems.append(f"{relative}: holds solution or hidden-test markers")
    if problems:
        raise RuntimeError("student release is not clean:\n  " + "\n  ".join(problems))


def release(
    target: Path,
    names: list[str] | None = None,
    binder: str | None = None,
    dist: Path = DIST,
    build_first: bool = True,
) -> Path:
    """A student release in ``target``: a git repository (branch ``student``) Binder opens.

    It holds the project without the assignments' sources, the tests, CI and benchmarks,
    plus each assignment's student notebook at ``assignments/NN_<name>/<name>.ipynb``
    and an ``assignments/README.md`` listing them (with Binder links if ``binder`` is
    given, e.g. ``gh/<owner>/<repo>/student``). Its ``binder/postBuild`` builds
    transportlab and runs the student notebooks once, so the image ships their
    simulations in its results cache. Push it where students can read it, e.g.
    ``git -C <target> push --force <url> student``. ``target`` must be empty, absent or
    an earlier release (which is replaced). ``build_first=False`` takes the student
    notebooks already built in ``dist``.
    """
    target = Path(target).resolve()
    if target.exists() and any(target.iterdir()):
        if not (target / RELEASE_MARKER).is_file():
            raise SystemExit(f"{target} is not empty and not a student release: choose another")
        shutil.rmtree(target)
    tracked = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, tracked.split("\0")):
        source = ROOT / name
        if name.startswith(RELEASE_EXCLUDED) or not source.is_file():
            continue
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target / name)
    if build_first:
        built = build_all(names, dist)
    else:
        built = [output_dir(f, dist) for f in assignment_folders() if not names or f.name in names]
    folders = [HERE / out.name for out in built]
    for folder, out in zip(folders, built, strict=True):
        notebook = f"{notebook_name(folder)}.ipynb"
        destination = target / "assignments" / folder.name / notebook
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(out / "student" / notebook, destination)
    (target / "assignments" / "README.md").write_text(_release_readme(folders, binder))
    source_commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    (target / RELEASE_MARKER).write_text(
        f"student release of transportlab {source_commit or '(unknown commit)'}; "
        "made by `make student-release`, replaced by the next one\n"
    )
    check_release(target)
    identity = {
        "GIT_AUTHOR_NAME": "transportlab", "GIT_AUTHOR_EMAIL": "transportlab@localhost",
        "GIT_COMMITTER_NAME": "transportlab", "GIT_COMMITTER_EMAIL": "transportlab@localhost",
    }  # fmt: skip
    env = dict(os.environ, **identity)
    for command in (
        ["git", "init", "-q", "-b", RELEASE_BRANCH],
        ["git", "add", "-A"],
        ["git", "commit", "-q", "-m", f"student release of {source_commit or 'transportlab'}"],
    ):
        subprocess.run(command, cwd=target, env=env, check=True, capture_output=True)
    return target


# --------------------------------------------------------------------------- command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("assignments", nargs="*", help="folder names (default: all)")
    parser.add_argument("--dist", type=Path, default=DIST, help="output folder")
    parser.add_argument(
        "--grade", type=Path, metavar="NOTEBOOK",
        help="grade one submission with its assignment's autograder (built first if missing)",
    )  # fmt: skip
    parser.add_argument(
        "--grade-all", type=Path, metavar="FOLDER",
        help="grade every submission in FOLDER into a gradebook and feedback files",
    )  # fmt: skip
    parser.add_argument(
        "--output", type=Path, metavar="FOLDER",
        help="with --grade-all: where gradebook.csv and feedback/ go (default: FOLDER-grades)",
    )  # fmt: skip
    parser.add_argument(
        "--jobs", type=int, metavar="N",
        help="with --grade-all: gradings at once (default: by cores and available memory)",
    )  # fmt: skip
    parser.add_argument(
        "--release", type=Path, metavar="FOLDER",
        help="make a student release (a git repository, branch 'student') in FOLDER",
    )  # fmt: skip
    parser.add_argument(
        "--binder", metavar="REPO",
        help="with --release: its Binder repository, e.g. gh/<owner>/<repo>/student",
    )  # fmt: skip
    # one grading in this process, its report as JSON (what --grade-all runs per submission)
    parser.add_argument("--grade-one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--autograder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--report", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    if args.grade_one:
        report = grade_report(args.grade_one, args.autograder)
        _write_atomic(args.report, json.dumps(report))
        return 0
    if args.grade:
        if len(args.assignments) != 1:
            parser.error("--grade needs the assignment's folder name, e.g. 01_bottleneck_basics")
        folder = HERE / args.assignments[0]
        autograder = output_dir(folder, args.dist) / "autograder" / "autograder.zip"
        if not autograder.is_file():
            build(folder, args.dist)
        report = grade_report(args.grade, autograder)
        print(feedback_text(args.grade.stem, folder.name, report))
        print(json.dumps(report["scores"], indent=2))
        return 0
    if args.grade_all:
        if args.jobs is not None and args.jobs < 1:
            parser.error("--jobs must be >= 1")
        output = args.output or args.grade_all.with_name(f"{args.grade_all.name}-grades")
        gradebook = grade_all(args.grade_all, output, args.assignments, args.dist, args.jobs)
        print(f"gradebook: {gradebook}\nfeedback:  {gradebook.parent / 'feedback'}")
        return 0
    if args.release:
        target = release(args.release, args.assignments, args.binder, args.dist)
        print(f"student release: {target} (git branch {RELEASE_BRANCH})")
        for folder in assignment_folders():
            if not args.assignments or folder.name in args.assignments:
                link = binder_link(args.binder or "gh/<owner>/<repo>/student", folder)
                print(f"  {folder.name}: {link}")
        return 0
    for target in build_all(args.assignments, args.dist):
        print(target.relative_to(ROOT) if target.is_relative_to(ROOT) else target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
