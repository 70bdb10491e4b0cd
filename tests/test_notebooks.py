"""Notebook conventions (nbval runs them: see pyproject.toml) and the papermill runner."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import jupytext
import nbformat
import papermill
import pytest
import yaml

from transportlab import notebooks, studies
from transportlab.engine.params import ParameterError

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
IPYNB = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


def test_there_are_notebooks():
    assert IPYNB, "no notebooks found"


def test_every_study_has_its_notebook_and_every_notebook_a_study():
    by_notebook = {s.notebook: s.name for s in studies.all_studies().values()}
    assert set(by_notebook) == {p.name for p in IPYNB}


@pytest.mark.parametrize("path", IPYNB, ids=lambda p: p.name)
def test_notebook_and_its_jupytext_pair_hold_the_same_cells(path):
    paired = path.with_suffix(".py")
    assert paired.is_file(), f"{paired.name} missing: jupytext --set-formats ipynb,py:percent"
    notebook, script = jupytext.read(path), jupytext.read(paired)
    assert notebook.metadata["jupytext"]["formats"] == "ipynb,py:percent"
    cells = [(c.cell_type, c.source) for c in notebook.cells]
    assert cells == [(c.cell_type, c.source) for c in script.cells], (
        f"{path.name} and {paired.name} differ: run `jupytext --sync` or "
        "`python scripts/execute_notebook.py` on the .py"
    )


@pytest.mark.parametrize("path", IPYNB, ids=lambda p: p.name)
def test_parameters_cell_comes_first_and_is_validated_next(path):
    notebook = nbformat.read(path, 4)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert "parameters" in code[0].metadata.get("tags", [])
    declared = papermill.inspect_notebook(str(path))
    assert declared["quick"]["default"] == "True"
    assert {"quick", "scheduler", "runs", "params"} <= set(declared)
    assert "start(" in code[1].source and "globals()" in code[1].source


# Things a notebook cell must not do: every number, table and figure is computed by the
# package (so `transportlab reproduce` regenerates them without Jupyter), and files are
# written only through `Results`.
FORBIDDEN_IN_NOTEBOOKS = {
    "def ": "a function defined in a notebook (put it in the package)",
    "class ": "a class defined in a notebook",
    "execute.run(": "simulations outside the study's experiments",
    "run_tasks(": "simulations outside the study's experiments",
    "compare(": "comparison rows built in the notebook",
    "to_csv(": "a file written by the notebook",
    "write_csv(": "a file written by the notebook",
    "savefig(": "a figure saved by the notebook",
    "subprocess": "a tool run by the notebook",
    "simulation(": "ns-3 run by the notebook",
}


@pytest.mark.parametrize("path", IPYNB, ids=lambda p: p.name)
def test_notebooks_only_call_the_package(path):
    notebook = nbformat.read(path, 4)
    problems = [
        f"cell {index}: {why} ({needle.strip()!r})"
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code"
        for needle, why in FORBIDDEN_IN_NOTEBOOKS.items()
        if needle in cell.source
    ]
    assert not problems, "\n".join(problems)


def test_start_returns_the_results_with_validated_parameters():
    namespace = {"quick": True, "scheduler": None, "runs": 3, "params": {"duration": 5}}
    results = notebooks.start("bottleneck_example", namespace)
    assert results.quick and results.params["duration"] == 5.0 and results.runs("main") == 3


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"runs": "abc"}, "runs must be None or an int >= 1, got 'abc'"),
        ({"quick": "yes"}, "quick must be True or False"),
        ({"params": "protocol=tcp"}, "params must be a dict of study parameters"),
        ({"nosuch": 3}, "unknown notebook parameter 'nosuch'"),
        ({"protocol": "tcp"}, "'protocol' is a study parameter: pass it inside params"),
        ({"params": {"duraton": 3}}, "unknown parameter 'duraton'"),
        ({"scheduler": "bogus"}, "is not serial, local or a Dask scheduler address"),
    ],
)
def test_start_rejects_bad_notebook_parameters(changes, message):
    namespace = {"quick": True, "scheduler": None, "runs": None, "params": {}, **changes}
    with pytest.raises(ValueError, match=message):
        notebooks.start("bottleneck_example", namespace)


PAPERMILL_CELL = "# Parameters\nquick = True\nparams = {}\n"


def _kernel_namespace(previous_cell: str, **globals_) -> dict:
    """What globals() holds in a kernel: IPython's In (the cell calling start last)."""
    history = ["", "quick = True\nscheduler = None\nruns = None\nparams = {}", previous_cell,
               'results = start("bottleneck_example", globals())']  # fmt: skip
    return {"In": history, "quick": True, "scheduler": None, "runs": None, "params": {},
            **globals_}  # fmt: skip


def test_start_ignores_the_notebooks_own_globals_in_a_kernel():
    """Issue 27: a second Run All failed on PARAMS, expected_ns, main, tcp, udp."""
    namespace = _kernel_namespace(
        "quick = True\nscheduler = None\nruns = None\nparams = {}",
        PARAMS=["protocol"], expected_ns=3.5, main="main", tcp={"a": 1}, udp=None,
    )  # fmt: skip
    assert notebooks.start("bottleneck_example", namespace).quick
    # the same globals after papermill's cell: only that cell's names are checked
    namespace["In"][2] = PAPERMILL_CELL
    assert notebooks.start("bottleneck_example", namespace).quick


def test_start_draws_progress_as_a_widget_in_a_kernel_only():
    """Issue 27 item 3: in JupyterLab the notebooks' own simulation cells printed tqdm's
    text bar to stderr (red, like an error); in a kernel the bar is tqdm's widget."""
    from tqdm.notebook import tqdm

    class ZMQInteractiveShell:  # what ipykernel's get_ipython() returns (by its name)
        pass

    class TerminalInteractiveShell:
        pass

    in_kernel = _kernel_namespace("", get_ipython=ZMQInteractiveShell)
    assert notebooks.start("bottleneck_example", in_kernel).progress_bar is tqdm
    in_terminal = _kernel_namespace("", get_ipython=TerminalInteractiveShell)
    assert notebooks.start("bottleneck_example", in_terminal).progress_bar is None
    plain = {"quick": True, "scheduler": None, "runs": None, "params": {}}
    assert notebooks.start("bottleneck_example", plain).progress_bar is None


@pytest.mark.parametrize(
    ("injected", "message"),
    [
        ("nosuch = 3\n", "unknown notebook parameter 'nosuch'"),
        ("protocol = 'tcp'\n", "'protocol' is a study parameter: pass it inside params"),
    ],
)
def test_start_refuses_what_papermill_injected_beyond_the_parameters(injected, message):
    namespace = _kernel_namespace(PAPERMILL_CELL + injected, PARAMS=["protocol"])
    with pytest.raises(notebooks.NotebookParameterError, match=message) as error:
        notebooks.start("bottleneck_example", namespace)
    assert "PARAMS" not in str(error.value)


def test_the_hint_for_params_is_an_override_the_notebook_accepts():
    """Issue 27: the hint said -y "params: {protocol: tcp}", which experiment main refuses."""
    namespace = {"quick": True, "scheduler": None, "runs": None, "params": "protocol=tcp"}
    with pytest.raises(notebooks.NotebookParameterError) as error:
        notebooks.start("bottleneck_example", namespace)
    hinted = re.search(r'-y "params: \{(\w+): ([^}]+)\}"', str(error.value))
    assert hinted, str(error.value)
    params = yaml.safe_load(f"{{{hinted.group(1)}: {hinted.group(2)}}}")
    results = notebooks.start("bottleneck_example", dict(namespace, params=params))
    assert results.overrides == params


@pytest.mark.slow
def test_run_all_twice_in_one_kernel(tmp_path):
    """Issue 27 item 1: execute notebook 00 twice in one kernel, as Run All twice does."""
    from nbclient import NotebookClient

    notebook = nbformat.read(NOTEBOOKS / "00_bottleneck_example.ipynb", 4)
    client = NotebookClient(
        notebook, kernel_name=notebooks.ensure_kernel(), timeout=600,
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )  # fmt: skip
    with client.setup_kernel():
        for _ in range(2):
            for index, cell in enumerate(notebook.cells):
                client.execute_cell(cell, index)  # raises CellExecutionError on an error
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code[1].execution_count > len(code), "the second run executed the start cell again"
    assert not [o for c in code for o in c.outputs if o.output_type == "error"]


@pytest.mark.slow
def test_papermill_with_an_unknown_parameter_fails_before_ns3_loads(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(tmp_path / "cache"))
    target = tmp_path / "out.ipynb"
    with pytest.raises(papermill.PapermillExecutionError) as error:
        papermill.execute_notebook(
            str(NOTEBOOKS / "00_bottleneck_example.ipynb"), str(target),
            parameters={"nosuch": 3}, kernel_name=notebooks.ensure_kernel(),
            cwd=str(NOTEBOOKS), progress_bar=False,
        )  # fmt: skip
    assert "unknown notebook parameter 'nosuch'" in str(error.value)
    executed = nbformat.read(target, 4)
    ran = [c for c in executed.cells if c.cell_type == "code" and c.get("execution_count")]
    assert not any("from transportlab import ns" in c.source for c in ran)


@pytest.mark.parametrize("path", IPYNB, ids=lambda p: p.name)
def test_committed_outputs_are_quick_mode_checked_and_error_free(path):
    notebook = nbformat.read(path, 4)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count for c in code), "every cell executed (quick mode)"
    errors = [o for c in code for o in c.outputs if o.output_type == "error"]
    assert not errors
    checked = [c for c in code if c.source.startswith("# NBVAL_CHECK_OUTPUT")]
    assert checked and all(c.outputs for c in checked)
    ns_import = [c for c in code if "from transportlab import ns" in c.source]
    assert ns_import and all(c.source.startswith("# NBVAL_IGNORE_OUTPUT") for c in ns_import)
    # the named kernel of this environment (`make kernel`), not whatever `python3` is
    assert notebook.metadata["kernelspec"]["name"] == notebooks.KERNEL_NAME


def test_execute_validates_parameters_before_starting_a_kernel(monkeypatch):
    monkeypatch.setattr(papermill, "execute_notebook", lambda *a, **k: pytest.fail("ran"))
    with pytest.raises(ParameterError, match="unknown parameter 'duraton'"):
        notebooks.execute("bottleneck_example", quick=True, params={"duraton": 1.0})
    with pytest.raises(ValueError, match="runs must be an int >= 1"):
        notebooks.execute("bottleneck_example", quick=True, runs=0)


def test_a_failing_notebook_is_kept_as_failed_and_nothing_else(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(tmp_path / "cache"))
    study = studies.get("bottleneck_example")
    out = tmp_path / "out"
    out.mkdir()
    (out / "bottleneck_example.ipynb").write_text("{}")  # an older result

    def failing(source, target, **kwargs):
        Path(target).write_text("{}")
        raise papermill.PapermillExecutionError(3, 4, "1 / 0", "ZeroDivisionError", "", [])

    monkeypatch.setattr(papermill, "execute_notebook", failing)
    with pytest.raises(notebooks.NotebookError, match="ZeroDivisionError") as error:
        notebooks.execute(study, quick=True, output_dir=out, kernel_name="python3")
    assert error.value.notebook == out / "bottleneck_example.failed.ipynb"
    assert sorted(p.name for p in out.iterdir()) == ["bottleneck_example.failed.ipynb"]


def test_output_paths_separate_quick_and_full_mode():
    study = studies.get("bottleneck_example")
    quick = notebooks.output_path(study, quick=True)
    full = notebooks.output_path(study, quick=False)
    assert quick.parts[-3:] == ("output", "quick", "bottleneck_example.ipynb")
    assert full.parts[-2:] == ("output", "bottleneck_example.ipynb")


def test_the_kernel_runs_this_interpreter():
    from jupyter_client.kernelspec import KernelSpecManager

    name = notebooks.ensure_kernel()
    spec = KernelSpecManager().get_kernel_spec(name)
    assert Path(spec.argv[0]).resolve() == Path(sys.executable).resolve()
    assert Path(spec.resource_dir).is_relative_to(sys.prefix)


def test_a_shadowing_kernelspec_is_reported(tmp_path, monkeypatch):
    spec_dir = tmp_path / "kernels" / "transportlab-shadowed"
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(json.dumps(
        {"argv": ["/usr/bin/false", "-f", "{connection_file}"], "display_name": "other",
         "language": "python"}
    ))  # fmt: skip
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    with pytest.raises(RuntimeError, match="runs /usr/bin/false, not this interpreter"):
        notebooks.ensure_kernel("transportlab-shadowed")
