"""The notebooks' Explore controls (issue 27 item 3): generated from the declared
parameters, validated before anything runs, a point run into its exploration folder and
drawn beside the committed figure."""

from __future__ import annotations

import json

import ipywidgets as widgets
import pytest

from transportlab import notebooks, studies
from transportlab.engine import execute
from transportlab.explore import Explorer, explorable_parameters

NAMES = studies.names()


def _results(name: str, **params):
    namespace = {"quick": True, "scheduler": None, "runs": None, "params": params}
    return notebooks.start(name, namespace)


@pytest.mark.parametrize("name", NAMES)
def test_one_control_per_explorable_parameter_as_declared(name):
    results = _results(name)
    explorer = Explorer(results)
    fixed = {n for e in results.experiments for p in e.point_list(results.params, True) for n in p}
    assert set(explorer.controls) == {p.name for p in results.study.parameters} - fixed - set(
        results.study.output_parameters or ()
    )
    assert explorer.controls, f"{name}: nothing to explore"
    for param in explorable_parameters(results):
        widget = explorer.controls[param.name]
        assert widget.description.startswith(param.name)
        assert (f"({param.unit})" in widget.description) == bool(param.unit)
        assert widget.tooltip == param.help
        if param.kind is bool:
            assert isinstance(widget, widgets.Checkbox)
        elif param.choices is not None and param.kind is not list:
            assert isinstance(widget, widgets.Dropdown)
            assert list(widget.options) == list(param.choices)
        elif param.kind is int:
            assert isinstance(widget, widgets.BoundedIntText)
            if param.minimum is not None:
                assert widget.min >= param.minimum
            if param.maximum is not None:
                assert widget.max == param.maximum
        elif param.kind is float:
            assert isinstance(widget, widgets.BoundedFloatText)
            if param.maximum is not None:
                assert widget.max == param.maximum
        else:
            assert isinstance(widget, widgets.Text)
    # the controls start at the notebook's values: nothing overridden
    assert explorer.overrides() == results.overrides


def test_the_experiments_own_parameters_have_no_control():
    explorer = Explorer(_results("bottleneck_example"))
    assert "protocol" not in explorer.controls and "error_rate" not in explorer.controls
    assert "queue_packets" in explorer.controls


@pytest.fixture
def nothing_runs(monkeypatch):
    monkeypatch.setattr(execute, "run_tasks", lambda *a, **k: pytest.fail("it ran"))


def test_invalid_values_are_refused_before_anything_runs(nothing_runs):
    explorer = Explorer(_results("bottleneck_example"))
    explorer.controls["warmup"].value = 100.0  # a relation: duration must exceed it
    assert explorer.run() is None and explorer.explored is None
    assert "Not run" in explorer.status.value and "warmup (100.0 s)" in explorer.status.value
    assert "invalid parameters:;" not in explorer.status.value


def test_a_list_control_takes_comma_separated_values_and_refuses_bad_text(nothing_runs):
    explorer = Explorer(_results("wired_best_effort"))
    name = next(n for n, p in explorer.params.items() if p.kind is list)
    explorer.controls[name].value = "5"  # one bare value: refused, as on the command line
    assert explorer.run() is None and "is one value" in explorer.status.value
    explorer.controls[name].value = "0,x"
    assert explorer.run() is None and "Not run" in explorer.status.value


def test_only_changed_controls_are_overrides():
    explorer = Explorer(_results("bottleneck_example", duration=8.0))
    explorer.controls["queue_packets"].value = 20
    assert explorer.overrides() == {"duration": 8.0, "queue_packets": 20}


@pytest.mark.slow
def test_run_draws_the_point_beside_the_committed_figure():
    from tqdm.notebook import tqdm

    explorer = Explorer(_results("bottleneck_example"))
    explorer.controls["queue_packets"].value = 20
    explored = explorer.run()
    assert explored is not None and explored.overrides == {"queue_packets": 20}
    assert explored.progress_bar is tqdm  # a widget, not stderr text
    captions = [box.children[0].value for box in explorer.figures.children]
    assert captions == ["<b>committed (full mode)</b>", "<b>this point</b>"]
    images = [box.children[1].value for box in explorer.figures.children]
    assert all(bytes(image).startswith(b"\x89PNG") for image in images)
    folder = explored.results_dir()
    assert "data/explore/bottleneck_example/quick-" in folder.as_posix()
    assert (folder / "figures" / "goodput_delay.png").is_file()
    assert "saved to" in explorer.status.value
    # the parameters beside the figure (issue 27: an exploration records what it ran)
    provenance = json.loads((folder / "provenance.json").read_text())
    assert provenance["overrides"] == {"queue_packets": 20} and provenance["mode"] == "quick"
    figure = next(o for o in provenance["outputs"] if o["path"].endswith("goodput_delay.png"))
    assert figure["kind"] == "figure" and figure["n_runs"] == explored.runs("main")


@pytest.mark.slow
def test_the_explore_cell_runs_a_point_in_a_kernel(tmp_path):
    """Headless, in the notebook's kernel: notebook 00 up to its Explore cell, then what a
    click does."""
    import nbformat
    from nbclient import NotebookClient

    path = notebooks.notebook_path(studies.get("bottleneck_example"))
    notebook = nbformat.read(path, 4)
    explore = next(
        i for i, c in enumerate(notebook.cells)
        if c.cell_type == "code" and "Explorer(results" in c.source
    )  # fmt: skip
    click = nbformat.v4.new_code_cell(
        "explorer.controls['queue_packets'].value = 20\n"
        "point = explorer.button.click() or explorer.explored\n"
        "print(json.dumps([point.overrides, len(explorer.figures.children)]))"
    )
    notebook.cells = [*notebook.cells[: explore + 1], nbformat.v4.new_code_cell("import json"),
                      click]  # fmt: skip
    client = NotebookClient(
        notebook, kernel_name=notebooks.ensure_kernel(), timeout=600,
        resources={"metadata": {"path": str(path.parent)}},
    )  # fmt: skip
    client.execute()
    outputs = notebook.cells[-1].outputs
    printed = "".join(o.get("text", "") for o in outputs if o.get("name") == "stdout")
    assert json.loads(printed) == [{"queue_packets": 20}, 2]
    assert not [o for o in outputs if o.get("name") == "stderr"], "no stderr progress text"
    shown = notebook.cells[explore].outputs
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {}) for o in shown)
