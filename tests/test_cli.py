"""The `transportlab` command: list, reproduce (papermill), sweep; input checked first."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import fake_study
import nbformat
import pandas as pd
import pytest

from transportlab import cli, notebooks, studies
from transportlab.params import Param, ParameterError

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*argv: str) -> int:
    try:
        return cli.main(list(argv))
    except SystemExit as exit_:
        return exit_.code


@pytest.fixture
def no_execution(monkeypatch):
    """Fail the test if a notebook would be executed."""
    calls = []
    monkeypatch.setattr(notebooks, "execute", lambda *a, **k: calls.append((a, k)))
    monkeypatch.setattr(notebooks, "ensure_kernel", lambda *a, **k: "python3")
    return calls


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A throw-away project folder (results, figures, output go there)."""
    (tmp_path / "data" / "published").mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text("")
    shutil.copytree(
        ROOT / "notebooks",
        tmp_path / "notebooks",
        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"),
    )
    monkeypatch.setenv("TRANSPORTLAB_ROOT", str(tmp_path))
    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(tmp_path / "cache"))
    return tmp_path


# --------------------------------------------------------------------------- values


@pytest.mark.parametrize(
    ("param", "text", "value"),
    [
        (Param("b", False, bool, "h"), "yes", True),
        (Param("b", False, bool, "h"), "False", False),
        (Param("b", False, bool, "h"), "0", False),
        (Param("i", 1, int, "h"), "42", 42),
        (Param("f", 1.0, float, "h"), "2.5", 2.5),
        (Param("f", 1.0, float, "h"), "3", 3.0),
        (Param("s", "a", str, "h"), "tcp", "tcp"),
        (Param("l", [1.0], list, "h", element_kind=float), "1,2.5", [1.0, 2.5]),
        (Param("l", [1.0], list, "h", element_kind=float), "[1, 2]", [1, 2]),
        (Param("l", ["a"], list, "h", element_kind=str), "a, b", ["a", "b"]),
    ],
)
def test_parse_value_converts_to_the_declared_kind(param, text, value):
    assert cli.parse_value(param, text) == value


@pytest.mark.parametrize(
    ("param", "text"),
    [
        (Param("b", False, bool, "h"), "maybe"),
        (Param("i", 1, int, "h"), "1.5"),
        (Param("f", 1.0, float, "h"), "fast"),
        (Param("l", [1.0], list, "h", element_kind=float), "[1, 2"),
        (Param("l", [1], list, "h", element_kind=int), "1,x"),
    ],
)
def test_parse_value_rejects_bad_text(param, text):
    with pytest.raises(ParameterError, match=param.name):
        cli.parse_value(param, text)


# --------------------------------------------------------------------------- list


def test_list_shows_every_parameter_with_type_default_quick_allowed_and_help(capsys):
    assert run_cli("list") == 0
    out = capsys.readouterr().out
    example = studies.get("bottleneck_example")
    assert "bottleneck_example — " in out
    for param in example.parameters:
        line = next(line for line in out.splitlines() if line.strip().startswith(param.name + " "))
        assert _type_name(param) in line
        assert "default:" in line
    assert "duration              float  default: 20.0 s  quick: 6.0  allowed: > 0" in out
    assert "allowed: udp | tcp" in out
    assert "packet error rate on the bottleneck's receiving interface" in out


def _type_name(param):
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list"}[param.kind]


def test_unknown_study_fails_before_anything_runs(capsys, no_execution):
    assert run_cli("reproduce", "--quick", "--study", "bottleneck_example", "nope") == 2
    err = capsys.readouterr().err
    assert "unknown study 'nope'; known studies: " in err and "bottleneck_example" in err
    assert no_execution == []
    assert run_cli("list", "--study", "nope") == 2


def test_bad_parameters_fail_before_anything_runs_and_every_problem_is_named(capsys, no_execution):
    code = run_cli(
        "reproduce",
        "--quick",
        "-p",
        "duraton=3",
        "-p",
        "error_rate=abc",
        "-p",
        "queue_packets=0",
        "-p",
        "protocol=sctp",
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "unknown parameter 'duraton' (did you mean 'duration'?)" in err
    assert "error_rate: expected float, got 'abc'" in err
    assert "queue_packets: 0 must be >= 1" in err
    assert "protocol: 'sctp' is not one of ['udp', 'tcp']" in err
    assert no_execution == []


@pytest.mark.parametrize("argv", [["-p", "duration"], ["-p", "=3"], ["--runs", "0"]])
def test_malformed_options_fail(argv, capsys, no_execution):
    assert run_cli("reproduce", "--quick", *argv) == 2
    assert "error" in capsys.readouterr().err
    assert no_execution == []


def test_quick_mode_consistency_is_checked_with_quick_values(capsys, no_execution):
    # duration 1.5 s is below start (1 s) + warmup (1 s)
    assert run_cli("reproduce", "--quick", "-p", "duration=1.5") == 2
    assert "must exceed the application start" in capsys.readouterr().err


# --------------------------------------------------------------------------- reproduce


def _fake_execute(failing=()):
    def execute(study, *, quick, scheduler, params, runs, output_dir, kernel_name):
        from transportlab import paths

        if study.name in failing:
            raise notebooks.NotebookError("boom", Path("x.failed.ipynb"))
        row = {c: "" for c in cli.SUMMARY_COLUMNS} | {
            "study": study.name, "metric": "goodput", "published": 1.0,
            "reproduced": float(params.get("duration", 0)), "verdict": "matches",
            "n_runs": runs or 0,
        }  # fmt: skip
        folder = paths.results_dir(study.name, quick)
        folder.mkdir(parents=True, exist_ok=True)
        pd.DataFrame([row]).to_csv(folder / "comparison.csv", index=False)
        return Path(output_dir or ".") / f"{study.name}.ipynb"

    return execute


def test_reproduce_passes_options_and_writes_the_summary(project, monkeypatch, capsys):
    seen = []
    fake = _fake_execute()
    monkeypatch.setattr(notebooks, "ensure_kernel", lambda *a, **k: "python3")
    monkeypatch.setattr(notebooks, "execute", lambda s, **k: seen.append(k) or fake(s, **k))
    code = run_cli(
        "reproduce",
        "--quick",
        "--study",
        "bottleneck_example",
        "-p",
        "duration=7",
        "--runs",
        "3",
        "--scheduler",
        "tcp://127.0.0.1:1",
        "--output",
        "out",
    )
    assert code == 0
    assert seen[0]["quick"] is True and seen[0]["runs"] == 3
    assert seen[0]["params"] == {"duration": 7.0}
    assert seen[0]["scheduler"] == "tcp://127.0.0.1:1"
    summary = pd.read_csv(project / "data" / "results" / "quick" / "summary.csv")
    assert summary[["study", "reproduced", "n_runs"]].values.tolist() == [
        ["bottleneck_example", 7.0, 3]
    ]
    out = capsys.readouterr().out
    assert "summary of all comparison rows" in out and "matches" in out


def test_a_failed_notebook_leaves_no_stale_comparison_and_exits_1(project, monkeypatch, capsys):
    stale = project / "data" / "results" / "quick" / "bottleneck_example" / "comparison.csv"
    stale.parent.mkdir(parents=True)
    stale.write_text("study,verdict\nbottleneck_example,matches\n")
    monkeypatch.setattr(notebooks, "ensure_kernel", lambda *a, **k: "python3")
    monkeypatch.setattr(notebooks, "execute", _fake_execute(failing={"bottleneck_example"}))
    assert run_cli("reproduce", "--quick") == 1
    assert not stale.exists()
    assert "FAILED: boom" in capsys.readouterr().err
    summary = pd.read_csv(project / "data" / "results" / "quick" / "summary.csv")
    # Other studies' (fake) notebooks succeed and have their rows.
    assert not (summary["study"] == "bottleneck_example").any()


def test_reproduce_runs_the_real_notebook_with_papermill(project):
    """End to end, as a user would: a subprocess, papermill, a kernel, ns-3, a figure."""
    env = dict(os.environ)
    env.pop("CLING_STANDARD_PCH", None)
    result = subprocess.run(
        [sys.executable, "-m", "transportlab.cli", "reproduce", "--quick", "--study",
         "bottleneck_example", "-p", "duration=4.5", "--runs", "1"],
        cwd=project, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-3000:]
    executed = nbformat.read(project / "output" / "quick" / "bottleneck_example.ipynb", 4)
    injected = next(
        c for c in executed.cells if "injected-parameters" in c.metadata.get("tags", [])
    )
    assert "quick = True" in injected.source and '"duration": 4.5' in injected.source
    # the validated parameters the notebook shows include the value given with -p
    table = executed.cells[executed.cells.index(injected) + 2].outputs[0].data["text/plain"]
    assert "duration   4.5" in table
    assert all(o.output_type != "error" for c in executed.cells for o in c.get("outputs", []))
    assert (project / "figures" / "quick" / "bottleneck_example" / "goodput_delay.png").is_file()
    comparison = pd.read_csv(
        project / "data" / "results" / "quick" / "bottleneck_example" / "comparison.csv"
    )
    assert set(comparison["verdict"]) == {"matches"} and set(comparison["n_runs"]) == {1}
    assert (project / "data" / "results" / "quick" / "summary.csv").is_file()
    assert "matches" in result.stdout
    assert not list((project / "output" / "quick").glob(".*partial*"))


# --------------------------------------------------------------------------- sweep


@pytest.fixture
def with_fake_study(monkeypatch, tmp_path):
    registry = dict(studies.all_studies(), fake_sweep=fake_study.STUDY)
    monkeypatch.setattr(cli, "all_studies", lambda: registry)
    monkeypatch.setenv("FAKE_STUDY_CALLS", str(tmp_path / "calls.txt"))
    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(tmp_path / "cache"))
    return tmp_path


def test_sweep_runs_the_grid_and_writes_one_csv_per_table(with_fake_study, capsys):
    out = with_fake_study / "out"
    code = run_cli(
        "sweep",
        "--study",
        "fake_sweep",
        "--grid",
        "x=1,2,3",
        "--grid",
        "label=a,b",
        "-p",
        "scale=2",
        "--runs",
        "2",
        "--scheduler",
        "serial",
        "--output",
        str(out),
    )
    assert code == 0
    result = pd.read_csv(out / "result.csv")
    assert len(result) == 12 and set(result["scale"]) == {2.0}
    assert (out / "trace.csv").is_file()
    assert "6 points x 2 runs = 12 simulations, 0 cached, 12 to run" in capsys.readouterr().out
    assert (
        run_cli(
            "sweep",
            "--study",
            "fake_sweep",
            "--grid",
            "x=1,2,3,4",
            "--grid",
            "label=a,b",
            "-p",
            "scale=2",
            "--runs",
            "2",
            "--dry-run",
        )
        == 0
    )
    assert "16 simulations, 12 cached, 4 to run" in capsys.readouterr().out
    assert len(fake_study.calls(with_fake_study / "calls.txt")) == 12


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--grid", "y=1,2"], "unknown parameter 'y'"),
        (["--grid", "x=1,a"], "x: expected int, got 'a'"),
        (["--grid", "x=-1,2"], "point 0 {'x': -1}"),
        (["--grid", "x=1", "--grid", "x=2"], "--grid x given twice"),
        (["-p", "label=c"], "label: 'c' is not one of ['a', 'b']"),
        (["--seed", "0"], "seed must be an int >= 1"),
    ],
)
def test_sweep_rejects_bad_input_before_running(argv, message, with_fake_study, capsys):
    assert run_cli("sweep", "--study", "fake_sweep", "--scheduler", "serial", *argv) == 2
    assert message in capsys.readouterr().err
    assert fake_study.calls(with_fake_study / "calls.txt") == []


def test_console_script_is_installed():
    script = Path(sys.executable).parent / "transportlab"
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("transportlab ")


def test_summary_of_no_results_is_empty(project):
    summary = cli.collect_summary(quick=True)
    assert summary.empty and list(summary.columns) == cli.SUMMARY_COLUMNS
    assert cli.format_summary(summary) == "no comparison rows"


def test_summary_shows_published_values_as_printed():
    """Published values keep their prefix ("~7", ">3"); numbers get four digits."""
    summary = pd.DataFrame(
        {
            "study": ["a", "a", "b"],
            "protocol": ["UDP", "SCTP", "TCP"],
            "metric": ["delay", "stall", "rate"],
            "published": ["~7", ">3", 12.3456],
            "reproduced": [0.53012, 6.8765, float("nan")],
            "ratio": [float("nan"), 2.29, 1.0],
            "verdict": ["same-direction", "matches", "differs"],
        }
    )
    text = cli.format_summary(summary)
    assert "~7" in text and ">3" in text and "12.35" in text and "0.5301" in text
    assert "6.877" in text and "2.29" in text
