"""The teaching assignments (assignments/): built with Otter Assign, graded with the autograder.

Builds every assignment's student notebook and autograder (as ``make assignments``
does, into a temporary folder), then, in this environment and without Docker:

* grades each reference solution: full marks;
* grades a folder holding each assignment's deliberately wrong submission
  (``assignments/<n>/wrong/answers.py``: a typical mistake in every question) with
  ``grade_all`` (``make grade-all``): exactly the marks each must get, a gradebook and a
  feedback file per student in which every lost mark says what was expected and why;
* runs the student notebooks once as Binder's postBuild does (their simulations into
  the results cache), then runs them as a student would, with the wrong answers: no
  question says "passed", each says "format checked; graded later" or shows a failed
  public check with its hint, and no simulation runs again;
* makes a student release and checks that it holds no solution, hidden test or wrong
  answer.

Everything uses a results cache of its own (``TRANSPORTLAB_RESULTS_CACHE``), so what the
precomputation leaves there is what a student's run finds.
"""

from __future__ import annotations

import ast
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"

pytest.importorskip("otter", reason="otter-grader is a test dependency (pip install .[test])")
# otter 7.0.0 uses DataFrame.drop(inplace=True), deprecated in pandas 3.1. Grading runs the
# notebooks' simulations: minutes, the slow tier.
pytestmark = [
    pytest.mark.filterwarnings("ignore:The inplace keyword:Warning"),
    pytest.mark.slow,
    # the class fixture grades ten notebooks, two at a time (~3.5 min here, 2 cores)
    pytest.mark.timeout(1800),
]


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


build = _load(ASSIGNMENTS / "build.py", "transportlab_assignments_build")
FOLDERS = build.assignment_folders()
NAMES = [folder.name for folder in FOLDERS]
GRADED_LATER = "format checked; graded later"


def _wrong(folder: Path):
    return _load(folder / "wrong" / "answers.py", f"wrong_{folder.name}")


def _cache_files(folder: Path) -> int:
    return sum(1 for path in folder.rglob("*") if path.is_file()) if folder.is_dir() else 0


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """A results cache of this module's own, empty at its start."""
    folder = tmp_path_factory.mktemp("results-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(folder))
        yield folder


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """Every assignment built once into a temporary dist folder."""
    target = tmp_path_factory.mktemp("dist")
    build.build_all(dist=target)
    return target


def _student_notebook(dist: Path, folder: Path) -> Path:
    return dist / folder.name / "student" / f"{build.notebook_name(folder)}.ipynb"


@pytest.fixture(scope="module")
def precomputed(dist, cache):
    """Binder's postBuild step: every student notebook run once into the cache."""
    notebooks = [str(_student_notebook(dist, folder)) for folder in FOLDERS]
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "precompute_notebooks.py"), *notebooks],
        capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert _cache_files(cache) > 0
    return done.stdout


@pytest.fixture(scope="module")
def graded(dist, cache, tmp_path_factory):
    """``grade_all`` over a class folder: every wrong submission, a model one, a stray file."""
    class_folder = tmp_path_factory.mktemp("submissions")
    for folder in FOLDERS:
        notebook = f"{build.notebook_name(folder)}.ipynb"
        build.fill_submission(
            dist / folder.name / "student" / notebook,
            _wrong(folder).ANSWERS,
            class_folder / f"wrong_{folder.name}.ipynb",
        )
    first = FOLDERS[0]
    solution = dist / first.name / "autograder" / f"{build.notebook_name(first)}.ipynb"
    (class_folder / "model_student.ipynb").write_bytes(solution.read_bytes())
    nbformat.write(nbformat.v4.new_notebook(), class_folder / "stray.ipynb")
    output = class_folder.parent / "grades" / "spring"  # does not exist yet
    log = []

    def report(line):  # shown by pytest if anything fails
        log.append(line)
        print(line, flush=True)

    gradebook = build.grade_all(class_folder, output, dist=dist, jobs=2, log=report)
    return output, pd.read_csv(gradebook), log


def test_there_are_at_least_four_assignments_each_with_a_wrong_submission():
    assert len(FOLDERS) >= 4, NAMES
    for folder in FOLDERS:
        assert (folder / "wrong" / "answers.py").is_file(), folder.name
        assert re.fullmatch(r"\d\d_[a-z0-9_]+", folder.name)


def _hidden_test_cells(folder: Path) -> list[str]:
    cells = re.split(r"^# %%.*$", build.source_notebook(folder).read_text(), flags=re.M)
    return [cell.strip() for cell in cells if cell.strip().startswith("# HIDDEN")]


@pytest.mark.parametrize("name", NAMES)
def test_every_hidden_check_says_what_it_expected(name):
    """A failing hidden check explains itself: no bare ``assert`` (issue 27)."""
    cells = _hidden_test_cells(ASSIGNMENTS / name)
    assert cells
    for cell in cells:
        asserts = [node for node in ast.walk(ast.parse(cell)) if isinstance(node, ast.Assert)]
        assert asserts, cell
        for node in asserts:
            assert node.msg is not None, f"bare assert in {name}: {ast.unparse(node)}"
            assert "expected" in ast.unparse(node.msg), ast.unparse(node)


@pytest.mark.parametrize("name", NAMES)
def test_student_notebook_has_no_solutions_and_no_hidden_tests(dist, name):
    folder = ASSIGNMENTS / name
    out = dist / name
    student = nbformat.read(out / "student" / f"{build.notebook_name(folder)}.ipynb", 4)
    assert student.metadata["kernelspec"]["name"] == "transportlab"
    tests = student.metadata["otter"]["tests"]
    for question in tests.values():
        for suite in question["suites"]:
            assert not any(case["hidden"] for case in suite["cases"])
    answers = build.answer_cells(student)
    assert answers and set(answers) == set(tests)
    # every answer cell is handed out with placeholders, never the solution's code
    handed_out = "\n".join(student.cells[i].source for ids in answers.values() for i in ids)
    for indices in answers.values():
        for index in indices:
            assert "..." in student.cells[index].source
    source = build.source_notebook(folder).read_text()
    for marked in re.findall(r"^(.*)# SOLUTION$", source, flags=re.M):
        rhs = marked.split("=", 1)[-1].strip()
        if len(rhs) > 12:  # long enough to be specific to the solution
            assert rhs not in handed_out, rhs
    assert (out / "autograder" / "autograder.zip").is_file()
    # every question is graded by hidden checks too, so "format checked; graded later"
    # is true of each
    assert len(_hidden_test_cells(folder)) >= len(tests)


@pytest.mark.parametrize("name", NAMES)
def test_the_autograder_zip_carries_what_gradescope_needs_to_grade_it(dist, name):
    """Issue 27: otter's zip installed Python 3.13 and otter only (no transportlab, no ns3)."""
    import tomllib
    import zipfile

    folder = ASSIGNMENTS / name
    with zipfile.ZipFile(dist / name / "autograder" / "autograder.zip") as archive:
        files = set(archive.namelist())
        environment = archive.read("environment.yml").decode()
        setup = archive.read("setup.sh").decode()
    assert "  - python=3.11\n" in environment
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in ["ns3==3.44.post0", "scikit-build-core", *project["dependencies"]]:
        assert f'- "{requirement}"' in environment, requirement
    constraints = "/autograder/source/transportlab/requirements/constraints.txt"
    assert f'- "-c {constraints}"' in environment
    assert "otter-grader[grading,plugins]==7.0.0" in environment
    # setup.sh: otter's steps (the environment), then transportlab's build, PCH and cache
    step = "mamba run -n otter-env bash /autograder/source/transportlab/scripts/gradescope-setup.sh"
    assert setup.index("mamba env create") < setup.index(step)
    bundled = {
        "pyproject.toml", "CMakeLists.txt", "README.md", "requirements/constraints.txt",
        "src/transportlab/__init__.py", "src/transportlab/teaching.py",
        "src/sctp/model/sctp-socket.cc", "cmake/Ns3Wheel.cmake",
        "scripts/gradescope-setup.sh", "scripts/precompute_notebooks.py",
        "scripts/build-jobs.sh", "scripts/project_requirements.py",
        f"assignments/{name}/{build.notebook_name(folder)}.ipynb",
    }  # fmt: skip
    assert {f"transportlab/{f}" for f in bundled} <= files
    assert any(f.startswith("transportlab/data/published/") for f in files)
    assert not any("/wrong/" in f or f.endswith(f"{build.notebook_name(folder)}.py") for f in files)
    for script in ("setup.sh", "gradescope-setup.sh"):
        path = ROOT / "scripts" / script if script != "setup.sh" else None
        text = setup if path is None else path.read_text()
        assert subprocess.run(["bash", "-n"], input=text, text=True).returncode == 0, script


@pytest.mark.parametrize("name", NAMES)
def test_reference_solution_gets_full_marks(dist, cache, name):
    folder = ASSIGNMENTS / name
    out = dist / name
    solution = out / "autograder" / f"{build.notebook_name(folder)}.ipynb"
    scores = build.grade(solution, out / "autograder" / "autograder.zip")
    assert scores["possible"] > 0
    assert scores["total"] == scores["possible"], scores


@pytest.mark.parametrize("name", NAMES)
def test_wrong_submission_loses_the_marks_it_should(graded, name):
    _, gradebook, _ = graded
    wrong = _wrong(ASSIGNMENTS / name)
    row = gradebook.set_index("student").loc[f"wrong_{name}"]
    assert row["status"] == "graded" and row["assignment"] == name
    got = {question: float(row[question]) for question in wrong.EXPECTED}
    assert got == {q: float(v) for q, v in wrong.EXPECTED.items()}, row.to_dict()
    assert row["total"] < row["possible"]


@pytest.mark.parametrize("name", NAMES)
def test_feedback_says_what_was_expected_for_every_lost_mark(graded, name):
    output, gradebook, _ = graded
    row = gradebook.set_index("student").loc[f"wrong_{name}"]
    text = (output / "feedback" / f"wrong_{name}.txt").read_text()
    assert f"score: {row['total']:g} / {row['possible']:g}" in text
    blocks = re.split(r"^(?=q\d+: )", text, flags=re.M)[1:]
    assert len(blocks) == len(_wrong(ASSIGNMENTS / name).EXPECTED) - 1
    for block in blocks:
        score, possible = map(float, re.match(r"q\d+: (\S+) / (\S+)", block).groups())
        assert score < possible, f"the wrong answer of {block.split(':')[0]} is not wrong"
        hidden = re.findall(r"^  - hidden check: (.*)$", block, flags=re.M)
        assert hidden, block
        for reason in hidden:
            assert not re.fullmatch(r"\w+(Error|Exception)", reason.strip()), block
            assert "expected" in reason, block


def test_grade_all_writes_a_gradebook_and_one_feedback_file_per_student(graded):
    output, gradebook, log = graded
    assert output.is_dir() and (output / "gradebook.csv").is_file()
    students = set(gradebook["student"])
    assert students == {f"wrong_{n}" for n in NAMES} | {"model_student", "stray"}
    for student in students - {"stray"}:
        assert (output / "feedback" / f"{student}.txt").is_file()
    rows = gradebook.set_index("student")
    assert rows.loc["model_student", "total"] == rows.loc["model_student", "possible"] > 0
    assert rows.loc["model_student", "percent"] == 100
    assert "not a submission of a known assignment" in rows.loc["stray", "status"]
    assert list(gradebook.columns[:3]) == ["student", "submission", "assignment"]
    assert list(gradebook.columns[-4:]) == ["total", "possible", "percent", "status"]
    # each assignment's reference solution was graded first, with full marks
    assert sum("its simulations are now cached" in line for line in log) == len(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_public_checks_never_tell_a_wrong_answer_it_passed(
    dist, cache, precomputed, name, tmp_path
):
    """The wrong answers, run as a student runs them (issue 27: "q2 passed! 💯")."""
    from nbclient import NotebookClient

    folder = ASSIGNMENTS / name
    wrong = _wrong(folder)
    notebook = f"{build.notebook_name(folder)}.ipynb"
    submission = build.fill_submission(
        _student_notebook(dist, folder), wrong.ANSWERS, tmp_path / notebook
    )
    executed = nbformat.read(submission, 4)
    before = _cache_files(cache)
    NotebookClient(
        executed,
        kernel_name=build.ensure_kernel(),
        resources={"metadata": {"path": str(tmp_path)}},
        timeout=600,
        allow_errors=True,
    ).execute()
    # the precomputed cache held every simulation the notebook starts
    assert _cache_files(cache) == before, "a simulation ran that postBuild did not precompute"
    checks = {}
    for cell in executed.cells:
        match = re.match(r'grader\.check\("(\w+)"\)', cell.source)
        if cell.cell_type == "code" and match:
            checks[match.group(1)] = "".join(
                out.get("text", "") or "".join(out.get("data", {}).get("text/plain", ""))
                for out in cell.outputs
            )
    assert set(checks) == set(wrong.EXPECTED) - {"total"}
    for question, text in checks.items():
        assert "passed!" not in text and "All test cases passed" not in text, (question, text)
        if question in wrong.CAUGHT_IN_PUBLIC:  # the failed check's hint
            assert re.match(rf"{question}: \d+ of \d+ public checks failed:\n  - ", text), text
            assert "AssertionError: " in text, (question, text)
        else:
            assert text.startswith(f"{question}: {GRADED_LATER}"), (question, text)


def test_precomputation_runs_every_simulation_cell_of_the_student_notebooks(precomputed):
    for folder in FOLDERS:
        line = next(line for line in precomputed.splitlines() if folder.name in line)
        count = int(re.search(r": (\d+) simulation cells", line).group(1))
        assert count >= 1, line


def test_a_student_release_holds_no_solution_and_opens_each_assignment(dist, tmp_path):
    target = build.release(
        tmp_path / "release", dist=dist, build_first=False, binder="gh/course/labs/student"
    )
    git = ["git", "-C", str(target)]
    assert subprocess.run([*git, "branch", "--show-current"], capture_output=True,
                          text=True).stdout.strip() == "student"  # fmt: skip
    assert subprocess.run([*git, "status", "--porcelain"], capture_output=True,
                          text=True).stdout == ""  # fmt: skip
    files = {str(p.relative_to(target)) for p in target.rglob("*") if ".git" not in p.parts}
    assert not any(f.startswith(("tests/", ".ci/", "benchmarks/")) for f in files)
    assert not any("/wrong/" in f or f.endswith((".zip", "build.py")) for f in files)
    assert {"binder/postBuild", "binder/environment.yml", "pyproject.toml"} <= files
    readme = (target / "assignments" / "README.md").read_text()
    for folder in FOLDERS:
        notebook = f"assignments/{folder.name}/{build.notebook_name(folder)}.ipynb"
        assert notebook in files
        assert f"https://mybinder.org/v2/gh/course/labs/student?labpath={notebook}" in readme
        assert not (
            target / "assignments" / folder.name / f"{build.notebook_name(folder)}.py"
        ).exists()
    build.check_release(target)  # no solution marker, hidden test or wrong answer
    assert "precompute_notebooks.py" in (target / "binder" / "postBuild").read_text()
    # and check_release does catch one
    leak = target / "assignments" / FOLDERS[0].name / "answers.py"
    leak.write_text("x = 1  # SOLUTION\n")
    with pytest.raises(RuntimeError, match="answers.py: holds solution"):
        build.check_release(target)
    # a second release replaces the first, but never a folder that is not a release
    assert build.release(target, dist=dist, build_first=False) == target
    other = tmp_path / "thesis"
    other.mkdir()
    (other / "chapter.tex").write_text("mine")
    with pytest.raises(SystemExit, match="not a student release"):
        build.release(other, dist=dist, build_first=False)


def test_binder_links_of_the_instructor_guide_point_at_each_student_notebook():
    guide = (ASSIGNMENTS / "README.md").read_text()
    for folder in FOLDERS:
        link = build.binder_link("gh/<owner>/<repo>/student", folder)
        assert link in guide, link
