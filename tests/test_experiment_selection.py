"""Running part of a study: ``Results(experiments=...)`` and ``reproduce --experiment``.

A study whose experiments take hours (the sensor study's ten take days on two cores) is
re-run one experiment at a time; what needs an experiment left out is not written, and the
files land in an exploration folder, never in data/results.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

import fake_study
import pandas as pd
import pytest

from transportlab import cli, studies
from transportlab.engine.results import ExperimentUnavailableError, Results
from transportlab.engine.study import Experiment, Reproduction


def _extra_table(results):
    return results["extra"]["result"][["x", "value"]]


def _both_table(results):
    main, extra = results["main"]["result"], results["extra"]["result"]
    return pd.DataFrame({"main": [main["value"].sum()], "extra": [extra["value"].sum()]})


def _extra_figure(results):
    from transportlab.engine import plotting  # noqa: PLC0415

    fig, ax = plotting.subplots()
    ax.plot(results["extra"]["result"]["value"])
    return fig, results.runs("extra")


STUDY = dataclasses.replace(
    fake_study.STUDY,
    reproduction=Reproduction(
        experiments=(
            *fake_study.STUDY.reproduction.experiments,  # "main": x = 1, 2
            Experiment("extra", "x = 7", lambda p: [{"x": 7}], runs=2, quick_runs=1),
        ),
        comparison=fake_study.STUDY.reproduction.comparison,  # needs "main"
        tables={"extra_values": _extra_table, "both": _both_table},
        figures={"extra_plot": _extra_figure},
    ),
)


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSPORTLAB_ROOT", str(tmp_path))
    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("FAKE_STUDY_CALLS", str(tmp_path / "calls.txt"))
    return tmp_path


def _results(**kwargs):
    return Results(STUDY, quick=True, scheduler="serial", progress=False, **kwargs)


def test_only_the_selected_experiments_are_planned_and_run(project):
    results = _results(experiments=["extra"])
    assert list(results.plan()) == ["extra"]
    assert results.available("extra") and not results.available("main")
    with pytest.raises(ExperimentUnavailableError, match="main is not among the selected"):
        results["main"]
    results.run_all()
    assert [call[0] for call in fake_study.calls(project / "calls.txt")] == [7]


def test_what_needs_a_left_out_experiment_is_not_written(project):
    results = _results(experiments=["extra"])
    written = {path.name for path in results.write()}
    assert written == {"extra_values.csv", "extra_plot.png"}  # no comparison, no "both"
    folder = results.results_dir()
    assert folder.is_relative_to(project / "data" / "explore" / "fake_sweep")
    assert pd.read_csv(folder / "extra_values.csv")["x"].tolist() == [7]
    provenance = json.loads((folder / "provenance.json").read_text())
    selected = {e["name"]: (e["selected"], e["points"]) for e in provenance["experiments"]}
    assert selected == {"main": (False, None), "extra": (True, 1)}


def test_a_selection_is_never_the_declared_mode_and_has_its_own_folder(project):
    everything, part = _results(), _results(experiments=["main", "extra"])
    assert everything.declared_mode() and not part.declared_mode()
    assert part.selected == ("main", "extra")
    assert part.exploration_label() != _results(experiments=["extra"]).exploration_label()
    # Without a selection the label is what it was before selections existed, so the
    # exploration folders written earlier keep their names.
    runs3 = _results(runs=3)
    key = json.dumps({"params": {}, "runs": 3, "seed": 1}, sort_keys=True)
    assert runs3.exploration_label() == f"quick-{hashlib.sha256(key.encode()).hexdigest()[:10]}"


def test_the_selection_keeps_the_studys_order(project):
    assert _results(experiments=["extra", "main"]).selected == ("main", "extra")


@pytest.mark.parametrize(
    ("experiments", "error", "message"),
    [
        (["extra", "bogus", "nope"], ValueError, "unknown experiment(s) 'bogus', 'nope'; "
         "experiments: main, extra"),
        ([], ValueError, "an empty selection of experiments"),
        ("extra", TypeError, "a list of names, got the string 'extra'"),
    ],
)  # fmt: skip
def test_a_bad_selection_is_refused_before_anything_runs(project, experiments, error, message):
    with pytest.raises(error) as raised:
        _results(experiments=experiments)
    assert message in str(raised.value)
    assert fake_study.calls(project / "calls.txt") == []


# --------------------------------------------------------------------------- the command


@pytest.fixture
def with_study(project, monkeypatch):
    real_names, real_get = studies.names, studies.get
    monkeypatch.setattr(studies, "names", lambda: sorted([*real_names(), "fake_sweep"]))
    monkeypatch.setattr(
        studies, "get", lambda name: STUDY if name == "fake_sweep" else real_get(name)
    )
    return project


def run_cli(*argv: str) -> int:
    try:
        return cli.main(list(argv))
    except SystemExit as exit_:  # usage errors leave through argparse
        return exit_.code


def test_reproduce_runs_only_the_named_experiments(with_study, capsys):
    argv = ("reproduce", "--quick", "--study", "fake_sweep", "--experiment", "extra")
    assert run_cli(*argv, "--dry-run") == 0
    assert "1 simulations, 0 cached, 1 to run" in capsys.readouterr().out
    assert run_cli(*argv, "--scheduler", "serial") == 0
    out = capsys.readouterr().out
    assert "wrote data/explore/fake_sweep/" in out and "extra_values.csv" in out
    assert "comparison.csv" not in out and "data/results untouched" in out
    assert [call[0] for call in fake_study.calls(with_study / "calls.txt")] == [7]
    assert not (with_study / "data" / "results").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--study", "fake_sweep", "--experiment", "bogus"], "unknown experiment(s) 'bogus'"),
        (["--experiment", "extra"], "give it one --study"),
        (["--study", "fake_sweep", "bottleneck_example", "--experiment", "extra"],
         "give it one --study"),
        (["--study", "fake_sweep", "--experiment", "extra", "--notebook"],
         "leave out --notebook"),
    ],
)  # fmt: skip
def test_reproduce_refuses_a_bad_selection_in_one_line(with_study, argv, message, capsys):
    assert run_cli("reproduce", "--quick", *argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert fake_study.calls(with_study / "calls.txt") == []


def test_an_exploration_writes_its_qualitative_verdicts_beside_its_comparison(project, monkeypatch):
    """Before, ``qualitative.csv`` of an exploration (a selection, other runs or
    parameters) went to data/results, over the committed one."""
    from transportlab.engine import results as results_module  # noqa: PLC0415

    folders = []

    def qualitative(study, comparison, quick=False, folder=None):
        folders.append(folder)
        return None  # as for a study without qualitative claims

    monkeypatch.setattr(results_module, "write_qualitative", qualitative)
    exploration = _results(experiments=["main"])
    exploration.write()
    assert folders == [exploration.results_dir()]
    assert (exploration.results_dir() / "comparison.csv").is_file()
    assert not (project / "data" / "results").exists()
