"""The `transportlab` command: list, reproduce (papermill), sweep; input checked first."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import fake_study
import nbformat
import pandas as pd
import pytest

from transportlab import cli, notebooks, studies, summary
from transportlab.engine.params import Param, ParameterError

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
    # The committed full-mode results, which the notebooks display beside their quick run.
    shutil.copytree(
        ROOT / "data" / "results",
        tmp_path / "data" / "results",
        ignore=shutil.ignore_patterns("quick"),
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
        "reproduce", "--quick", "--study", "bottleneck_example", "-p", "duraton=3",
        "-p", "error_rate=abc", "-p", "queue_packets=0", "-p", "protocol=sctp",
    )  # fmt: skip
    assert code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert "unknown parameter 'duraton' (did you mean 'duration'?)" in err
    assert "error_rate: expected float, got 'abc'" in err
    assert "queue_packets: 0 must be >= 1" in err
    assert "protocol: 'sctp' is not one of ['udp', 'tcp']" in err
    assert no_execution == []


@pytest.mark.parametrize("argv", [["-p", "duration"], ["-p", "=3"], ["--runs", "0"]])
def test_malformed_options_fail(argv, capsys, no_execution):
    assert run_cli("reproduce", "--quick", "--study", "bottleneck_example", *argv) == 2
    assert "error" in capsys.readouterr().err
    assert no_execution == []


def test_quick_mode_consistency_is_checked_with_quick_values(capsys, no_execution):
    # duration 1.5 s is below start (1 s) + warmup (1 s)
    assert (
        run_cli("reproduce", "--quick", "--study", "bottleneck_example", "-p", "duration=1.5") == 2
    )
    assert "must exceed the application start" in capsys.readouterr().err


# --------------------------------------------------------------------------- reproduce


def quick_results(project):
    return project / "data" / "results" / "quick" / "bottleneck_example"


SMALL = ("--study", "bottleneck_example", "-p", "duration=4.5", "--runs", "1")


def test_reproduce_from_the_package_writes_comparison_tables_figures_and_summary(project, capsys):
    assert run_cli("reproduce", "--quick", *SMALL) == 0
    out = capsys.readouterr().out
    assert "reproduce (quick mode): 1 studies, 4 simulations, 0 cached, 4 to run" in out
    assert "== [1/1] bottleneck_example: 4 simulations, 0 cached, 4 to run" in out
    comparison = pd.read_csv(quick_results(project) / "comparison.csv")
    assert set(comparison["verdict"]) == {"matches"} and set(comparison["n_runs"]) == {1}
    assert (quick_results(project) / "per_point.csv").is_file()
    figure = project / "figures" / "quick" / "bottleneck_example" / "goodput_delay.png"
    assert figure.read_bytes().startswith(b"\x89PNG")
    summary = pd.read_csv(project / "data" / "results" / "quick" / "summary.csv")
    assert set(summary["study"]) == {"bottleneck_example"}
    # a second run simulates nothing
    assert run_cli("reproduce", "--quick", *SMALL, "--dry-run") == 0
    assert "4 simulations, 4 cached, 0 to run" in capsys.readouterr().out


@pytest.mark.slow
def test_the_package_and_the_notebook_regenerate_identical_files(project):
    """Delete the comparison, regenerate it without Jupyter and through papermill: same bytes."""
    env = dict(os.environ)
    env.pop("CLING_STANDARD_PCH", None)
    command = [sys.executable, "-m", "transportlab.cli", "reproduce", "--quick", *SMALL]
    names = ("comparison.csv", "per_point.csv")
    generated = {}
    for mode in ("package", "notebook"):
        shutil.rmtree(quick_results(project), ignore_errors=True)
        extra = ["--notebook"] if mode == "notebook" else []
        result = subprocess.run(
            command + extra, cwd=project, env=env, capture_output=True, text=True, timeout=600
        )
        assert result.returncode == 0, result.stderr[-3000:]
        generated[mode] = {name: (quick_results(project) / name).read_bytes() for name in names}
    assert generated["package"] == generated["notebook"]
    executed = nbformat.read(project / "output" / "quick" / "bottleneck_example.ipynb", 4)
    injected = next(
        c for c in executed.cells if "injected-parameters" in c.metadata.get("tags", [])
    )
    assert "quick = True" in injected.source and '"duration": 4.5' in injected.source
    assert all(o.output_type != "error" for c in executed.cells for o in c.get("outputs", []))
    assert not list((project / "output" / "quick").glob(".*partial*"))


def test_a_failed_study_keeps_its_previous_results_and_exits_1(project, monkeypatch, capsys):
    from transportlab.engine import results as reproduction

    previous = quick_results(project) / "comparison.csv"
    previous.parent.mkdir(parents=True)
    previous.write_text("study,verdict\nbottleneck_example,matches\n")

    def failing(self, figures=True):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(reproduction.Results, "write", failing)
    assert run_cli("reproduce", "--quick", *SMALL) == 1
    assert previous.read_text() == "study,verdict\nbottleneck_example,matches\n"
    err = capsys.readouterr().err
    assert "FAILED: boom (the previous results are kept)" in err
    assert "failed: bottleneck_example" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--output", "/etc/passwd/x"], "--output is the folder of executed notebooks"),
        (["--notebook", "--output", "/etc/passwd/x"], "cannot write to notebook folder"),
        (["--scheduler", "bogus"], "is not serial, local or a Dask scheduler address"),
        (["--scheduler", "tcp://127.0.0.1:1"], "no Dask scheduler answers at tcp://127.0.0.1:1"),
        (["-p", "duration=inf"], "duration: inf is not a finite number"),
    ],
)
def test_reproduce_rejects_bad_input_in_one_line_and_touches_nothing(
    project, argv, message, capsys, no_execution
):
    previous = quick_results(project) / "comparison.csv"
    previous.parent.mkdir(parents=True)
    previous.write_text("kept\n")
    start = time.monotonic()
    assert run_cli("reproduce", "--quick", "--study", "bottleneck_example", *argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert previous.read_text() == "kept\n"
    assert not (project / "cache").exists() and no_execution == []
    assert time.monotonic() - start < 20


# --------------------------------------------------------------------------- sweep


@pytest.fixture
def with_fake_study(monkeypatch, tmp_path):
    real_names, real_get = studies.names, studies.get
    monkeypatch.setattr(studies, "names", lambda: sorted([*real_names(), "fake_sweep"]))
    monkeypatch.setattr(
        studies, "get", lambda name: fake_study.STUDY if name == "fake_sweep" else real_get(name)
    )
    monkeypatch.setenv("FAKE_STUDY_CALLS", str(tmp_path / "calls.txt"))
    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(tmp_path / "cache"))
    return tmp_path


def sweep_cli(*argv: str) -> int:
    return run_cli("sweep", "--study", "fake_sweep", "--scheduler", "serial", *argv)


def test_sweep_runs_the_grid_and_writes_one_csv_per_table(with_fake_study, capsys):
    out = with_fake_study / "out"
    grid = ("--grid", "x=1,2,3", "--grid", "label=a,b", "-p", "scale=2", "--runs", "2")
    assert sweep_cli(*grid, "--output", str(out)) == 0
    result = pd.read_csv(out / "result.csv")
    assert len(result) == 12 and set(result["scale"]) == {2.0}
    assert (out / "trace.csv").is_file() and (out / "sweep.json").is_file()
    assert "6 points x 2 runs = 12 simulations, 0 cached, 12 to run" in capsys.readouterr().out
    bigger = ("--grid", "x=1,2,3,4", "--grid", "label=a,b", "-p", "scale=2", "--runs", "2")
    assert sweep_cli(*bigger, "--dry-run") == 0
    assert "16 simulations, 12 cached, 4 to run" in capsys.readouterr().out
    assert len(fake_study.calls(with_fake_study / "calls.txt")) == 12
    # the same sweep again resumes into its folder; another one may not take it over
    assert sweep_cli(*grid, "--output", str(out)) == 0
    assert sweep_cli(*bigger, "--output", str(out)) == 2
    assert "holds the results of another sweep" in capsys.readouterr().err
    assert len(pd.read_csv(out / "result.csv")) == 12
    assert sweep_cli(*bigger, "--output", str(out), "--overwrite") == 0
    assert len(pd.read_csv(out / "result.csv")) == 16


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--grid", "y=1,2"], "unknown parameter 'y'"),
        (["--grid", "x=1,a"], "x: expected int, got 'a'"),
        (["--grid", "x=-1,2"], "point 0 {'x': -1}"),
        (["--grid", "x=1", "--grid", "x=2"], "--grid x given twice"),
        (["-p", "label=c"], "label: 'c' is not one of ['a', 'b']"),
        (["--seed", "0"], "--seed must be >= 1"),
        (["--grid", "scale=1,inf"], "inf is not a finite number"),
        (["-p", "x=2", "--grid", "x=1,3"], "x given both with -p and with --grid"),
        (["--output", "/proc/forbidden"], "cannot write to sweep output folder /proc/forbidden"),
        (["--scheduler", "bogus"], "is not serial, local or a Dask scheduler address"),
        (["--scheduler", "tcp://127.0.0.1:1"], "no Dask scheduler answers"),
    ],
)
def test_sweep_rejects_bad_input_in_one_line_before_running(argv, message, with_fake_study, capsys):
    assert sweep_cli(*argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert fake_study.calls(with_fake_study / "calls.txt") == []


def test_a_non_empty_folder_of_other_files_is_not_taken_over(with_fake_study, capsys):
    out = with_fake_study / "notes"
    out.mkdir()
    (out / "thesis.tex").write_text("mine")
    assert sweep_cli("--output", str(out)) == 2
    assert "is not empty and holds no sweep.json" in capsys.readouterr().err


def test_sweep_help_has_a_description_examples_and_the_study_choices(capsys):
    with pytest.raises(SystemExit):
        cli.main(["sweep", "--help"])
    text = capsys.readouterr().out
    assert "examples:" in text and "transportlab sweep --study bottleneck_example" in text
    assert all(name in text for name in studies.names())


def test_console_script_is_installed():
    script = Path(sys.executable).parent / "transportlab"
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("transportlab ")


def test_summary_of_no_results_is_empty(project):
    table = summary.collect_summary(quick=True)
    assert table.empty and list(table.columns) == summary.SUMMARY_COLUMNS
    assert summary.format_summary(table) == "no comparison rows"


def test_summary_shows_published_values_as_printed():
    """Published values keep their prefix ("~7", ">3"); numbers get four digits."""
    table = pd.DataFrame(
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
    text = summary.format_summary(table)
    assert "~7" in text and ">3" in text and "12.35" in text and "0.5301" in text
    assert "6.877" in text and "2.29" in text
