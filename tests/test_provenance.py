"""transportlab.provenance: the provenance.json that Results.write leaves beside the results."""

from __future__ import annotations

import dataclasses
import json
import shlex
import subprocess
from pathlib import Path

import fake_study
import pandas as pd
import pytest

from transportlab import cli
from transportlab.engine import provenance
from transportlab.engine.fingerprint import code_fingerprint
from transportlab.engine.study import Reproduction

FAKE = fake_study.STUDY


def _table(results):
    result = results["main"]["result"]
    # one row per run; a second, thinner row stands on one run only
    rows = pd.DataFrame({"x": result["x"], "value": result["value"], "n_runs": 2})
    return pd.concat([rows, pd.DataFrame({"x": [9], "value": [0.0], "n_runs": [1]})])


def _figure(results):
    from transportlab.engine import plotting  # noqa: PLC0415 - the theme makes SVGs reproducible

    fig, ax = plotting.subplots()
    ax.plot(results["main"]["result"]["value"])
    return fig, results.runs("main")


STUDY = dataclasses.replace(
    FAKE,
    reproduction=Reproduction(
        experiments=FAKE.reproduction.experiments,
        comparison=FAKE.reproduction.comparison,
        tables={"values": _table},
        figures={"values_plot": _figure},
    ),
)


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.setenv("TRANSPORTLAB_ROOT", str(tmp_path))
    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("FAKE_STUDY_CALLS", raising=False)
    return tmp_path


def _write(quick=True, **kwargs):
    from transportlab.engine.results import Results  # noqa: PLC0415

    results = Results(STUDY, quick=quick, progress=False, **kwargs)
    return results, results.write()


def _provenance_file(results):
    return results.results_dir() / "provenance.json"


def test_write_leaves_provenance_of_every_file(project):
    results, written = _write(params={"scale": 2.0})
    # other parameters than the declared mode: the exploration folder (issue 27 item 2)
    folder = results.results_dir()
    here = folder.relative_to(project).as_posix()
    assert here.startswith("data/explore/fake_sweep/quick-")
    assert folder / "provenance.json" not in written  # the list notebooks print stays as it was
    document = json.loads((folder / "provenance.json").read_text())
    assert document["format"] == provenance.FORMAT
    assert document["study"] == "fake_sweep" and document["mode"] == "quick"
    assert document["parameters"]["scale"] == 2.0 and document["overrides"] == {"scale": 2.0}
    assert document["code_fingerprint"] == code_fingerprint(FAKE.run)
    assert document["experiments"] == [
        {"name": "main", "description": "x = 1, 2", "runs": 2, "points": 2, "simulations": 4,
         "deterministic": False, "available": True},
    ]  # fmt: skip
    outputs = {o["path"]: o for o in document["outputs"]}
    assert set(outputs) == {
        f"{here}/comparison.csv",
        f"{here}/values.csv",
        f"{here}/figures/values_plot.png",
        f"{here}/figures/values_plot.svg",
    }
    for path, output in outputs.items():
        assert output["sha256"] == provenance.sha256_of(project / path)
    assert outputs[f"{here}/figures/values_plot.png"]["n_runs"] == 2
    assert outputs[f"{here}/figures/values_plot.svg"]["kind"] == "figure"
    assert outputs[f"{here}/values.csv"]["n_runs"] == {"min": 1, "max": 2}
    # the fake comparison has no n_runs column: the file does not say
    assert outputs[f"{here}/comparison.csv"]["n_runs"] is None
    # not a git checkout: no commit to name
    assert document["commit"] is None and document["dirty"] is None


def test_a_figure_saved_alone_keeps_the_folders_other_outputs_listed(project):
    """The Explorer saves one figure into a point's folder, maybe the one results.write()
    filled: with keep, the tables stay listed; without, only what was written now."""
    results, written = _write(params={"scale": 2.0})
    figure = next(path for path in written if path.suffix == ".png")
    provenance.write_provenance(results, [figure], keep=True)
    listed = {o["path"] for o in json.loads(_provenance_file(results).read_text())["outputs"]}
    assert len(listed) == 4 and any(path.endswith("values.csv") for path in listed)
    (results.results_dir() / "values.csv").unlink()  # a file gone is no longer listed
    provenance.write_provenance(results, [figure], keep=True)
    listed = {o["path"] for o in json.loads(_provenance_file(results).read_text())["outputs"]}
    assert len(listed) == 3 and not any(path.endswith("values.csv") for path in listed)
    provenance.write_provenance(results, [figure])
    listed = {o["path"] for o in json.loads(_provenance_file(results).read_text())["outputs"]}
    assert {Path(path).suffix for path in listed} == {".png", ".svg"}


def test_the_recorded_command_parses_back_to_the_same_run(project):
    results, _ = _write(params={"scale": 2.0, "label": "b"}, runs=3)
    command = json.loads(_provenance_file(results).read_text())["command"]
    words = shlex.split(command)
    assert words[:2] == ["transportlab", "reproduce"]
    args = cli.build_parser().parse_args(words[1:])
    assert args.study == ["fake_sweep"] and args.quick and args.runs == 3
    values, problems = cli.parse_assignments(FAKE, args.param)
    assert not problems and values == {"scale": 2.0, "label": "b"}


def test_command_for_full_mode_and_list_values():
    assert provenance.command_for("wsn", False) == "transportlab reproduce --study wsn"
    command = provenance.command_for("s", True, {"on": True, "sizes": [1, 2]})
    assert command == "transportlab reproduce --study s --quick -p on=true -p 'sizes=[1, 2]'"


def test_same_results_give_the_same_provenance_bytes(project):
    results, _ = _write(publish=True)  # as transportlab reproduce writes data/results
    assert results.results_dir() == project / "data" / "results" / "quick" / "fake_sweep"
    before = _provenance_file(results).read_bytes()
    _write(publish=True)
    assert _provenance_file(results).read_bytes() == before


def test_git_state_names_the_commit_and_ignores_changed_results(tmp_path):
    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    (tmp_path / "code.py").write_text("x = 1\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "r.csv").write_text("a\n1\n")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "one")
    head = subprocess.run(
        ["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    assert provenance.git_state(tmp_path) == (head, False)
    (tmp_path / "data" / "r.csv").write_text("a\n2\n")  # a result rewritten: still clean
    assert provenance.git_state(tmp_path) == (head, False)
    (tmp_path / "code.py").write_text("x = 2\n")  # code changed: dirty
    assert provenance.git_state(tmp_path) == (head, True)


def test_read_provenance(tmp_path):
    assert provenance.read_provenance(tmp_path) is None
    (tmp_path / "provenance.json").write_text(provenance.dumps({"study": "s", "n": float("inf")}))
    assert provenance.read_provenance(tmp_path) == {"n": "inf", "study": "s"}


def test_record_output_lists_a_file_a_study_module_wrote(project):
    results, _ = _write()
    folder = results.results_dir()
    before = len(provenance.read_provenance(folder)["outputs"])
    table = folder / "extra.csv"
    table.write_text("a,n_runs\n1,3\n")
    assert provenance.record_output(table, "python -m some.module --extra") == (
        folder / "provenance.json"
    )
    table.write_text("a,n_runs\n2,3\n")  # written again: one entry, the new SHA-256
    provenance.record_output(table, "python -m some.module --extra")
    document = provenance.read_provenance(folder)
    extra = [o for o in document["outputs"] if o["name"] == "extra"]
    assert len(extra) == 1 and extra[0]["command"] == "python -m some.module --extra"
    assert extra[0]["n_runs"] == 3 and extra[0]["sha256"] == provenance.sha256_of(table)
    assert {"commit", "dirty"} <= set(extra[0])
    assert len(document["outputs"]) == before + 1
    assert provenance.record_output(project / "elsewhere.csv", "x") is None
