"""The teaching assignments (assignments/): built with Otter Assign, graded with the autograder.

Builds every assignment's student notebook and autograder (as ``make assignments``
does, into a temporary folder), then grades with the autograder, in this
environment and the ``transportlab`` kernel (``otter run``, no Docker):

* the reference solution: full marks;
* the deliberately wrong submission ``assignments/<n>/wrong/answers.py`` (the
  student notebook with its answer cells filled in): exactly the marks it must get.

Simulations are cached per point (``TRANSPORTLAB_RESULTS_CACHE``), so the second
grading of an assignment reuses the first one's simulations.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
ASSIGNMENTS = ROOT / "assignments"

pytest.importorskip("otter", reason="otter-grader is a test dependency (pip install .[test])")
# otter 7.0.0 uses DataFrame.drop(inplace=True), deprecated in pandas 3.1. Grading runs the
# notebooks' simulations: minutes, the slow tier.
pytestmark = [pytest.mark.filterwarnings("ignore:The inplace keyword:Warning"), pytest.mark.slow]


def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


build = _load(ASSIGNMENTS / "build.py", "transportlab_assignments_build")
FOLDERS = build.assignment_folders()
NAMES = [folder.name for folder in FOLDERS]


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """Every assignment built once into a temporary dist folder."""
    target = tmp_path_factory.mktemp("dist")
    build.build_all(dist=target)
    return target


def _wrong(folder: Path):
    return _load(folder / "wrong" / "answers.py", f"wrong_{folder.name}")


def test_there_are_at_least_four_assignments_each_with_a_wrong_submission():
    assert len(FOLDERS) >= 4, NAMES
    for folder in FOLDERS:
        assert (folder / "wrong" / "answers.py").is_file(), folder.name
        assert re.fullmatch(r"\d\d_[a-z0-9_]+", folder.name)


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


@pytest.mark.parametrize("name", NAMES)
def test_reference_solution_gets_full_marks(dist, name):
    folder = ASSIGNMENTS / name
    out = dist / name
    solution = out / "autograder" / f"{build.notebook_name(folder)}.ipynb"
    scores = build.grade(solution, out / "autograder" / "autograder.zip")
    assert scores["possible"] > 0
    assert scores["total"] == scores["possible"], scores


@pytest.mark.parametrize("name", NAMES)
def test_wrong_submission_loses_the_marks_it_should(dist, name, tmp_path):
    folder = ASSIGNMENTS / name
    out = dist / name
    wrong = _wrong(folder)
    notebook = f"{build.notebook_name(folder)}.ipynb"
    submission = build.fill_submission(
        out / "student" / notebook, wrong.ANSWERS, tmp_path / notebook
    )
    scores = build.grade(submission, out / "autograder" / "autograder.zip")
    got = {question: scores.get(question) for question in wrong.EXPECTED}
    assert got == {q: float(v) for q, v in wrong.EXPECTED.items()}, scores
    assert scores["total"] < scores["possible"]


def test_students_can_run_the_public_checks_in_the_handed_out_notebook(dist, tmp_path):
    """``grader.check`` in the student notebook (tests from its metadata), assignment 1."""
    from nbclient import NotebookClient

    folder = FOLDERS[0]
    notebook = f"{build.notebook_name(folder)}.ipynb"
    submission = build.fill_submission(
        dist / folder.name / "student" / notebook, _wrong(folder).ANSWERS, tmp_path / notebook
    )
    executed = nbformat.read(submission, 4)
    client = NotebookClient(
        executed,
        kernel_name=build.ensure_kernel(),
        resources={"metadata": {"path": str(tmp_path)}},
        timeout=600,
    )
    client.execute()
    checks = {}
    for cell in executed.cells:
        match = re.match(r'grader\.check\("(\w+)"\)', cell.source)
        if cell.cell_type == "code" and match:
            checks[match.group(1)] = "".join(
                out.get("text", "") or "".join(out.get("data", {}).get("text/plain", ""))
                for out in cell.outputs
            )
    assert set(checks) == set(_wrong(folder).EXPECTED) - {"total"}
    # the wrong answers pass the public checks: only hidden tests tell them apart
    assert all("All test cases passed" in text for text in checks.values()), checks
