"""A study without ns-3 for testing the sweep machinery (importable by Dask workers).

Every call of :func:`run` (the cached run step) appends ``x,label,seed,run,pid`` to
the file named by $FAKE_STUDY_CALLS, so tests can count computations across processes. With
$FAKE_STUDY_FAIL_AT = k the k-th and later calls (counted in that file) raise;
$FAKE_STUDY_SLEEP seconds are slept per call.
"""

from __future__ import annotations

import os
import time

import pandas as pd

from transportlab.engine.params import Param, ParameterSpace
from transportlab.engine.study import Experiment, Reproduction, Study

PARAMETERS = ParameterSpace(
    Param("x", 1, int, "an integer", minimum=0),
    Param("label", "a", str, "a choice", choices=("a", "b")),
    Param("scale", 1.0, float, "a float", minimum=0, exclusive_minimum=True, quick=0.5),
    Param("out", "", str, "a file prefix: when set, the run writes <out>-<run>.txt"),
    Param("gain", 1.0, float, "read by the analysis only", analysis_only=True),
)


def _calls_file() -> str | None:
    return os.environ.get("FAKE_STUDY_CALLS")


def calls(path) -> list[tuple[int, str, int, int]]:
    """The recorded calls: (x, label, seed, run)."""
    if not os.path.exists(path):
        return []
    rows = []
    with open(path) as stream:
        for line in stream:
            x, label, seed, run, _pid = line.strip().split(",")
            rows.append((int(x), label, int(seed), int(run)))
    return rows


def set_env(name: str, value: str) -> None:
    """Set an environment variable (in a Dask worker, through ``client.run``)."""
    os.environ[name] = value


def run(params, seed, run):
    path = _calls_file()
    if path:
        with open(path, "a") as stream:
            stream.write(f"{params['x']},{params['label']},{seed},{run},{os.getpid()}\n")
        fail_at = int(os.environ.get("FAKE_STUDY_FAIL_AT", "0"))
        if fail_at and len(calls(path)) >= fail_at:
            raise RuntimeError("injected failure")
    time.sleep(float(os.environ.get("FAKE_STUDY_SLEEP", "0")))
    value = params["x"] * params["scale"] + 1000 * seed + run / 10
    if params["out"]:
        with open(f"{params['out']}-{run}.txt", "w") as stream:
            stream.write(f"{value}\n")
    return {
        "raw": pd.DataFrame({"value": [value]}),
        "trace": pd.DataFrame({"step": range(run), "level": [params["label"]] * run}),
    }


def analyse(raw, params):
    """The analysis step (never cached): doubles the raw value, keeps the trace."""
    value = raw["raw"]["value"]
    return {
        "result": pd.DataFrame(
            {"value": value, "double": 2 * value * ANALYSIS_FACTOR * params["gain"]}
        ),
        "trace": raw["trace"],
    }


#: Tests change it to show that analysis changes need no new simulation.
ANALYSIS_FACTOR = 1


def comparison(results):
    result = results["main"]["result"]
    return pd.DataFrame({"x": result["x"], "value": result["value"]})


STUDY = Study(
    name="fake_sweep",
    title="fake study for the sweep tests",
    seed_files=(),
    notebook="none.ipynb",
    parameters=PARAMETERS,
    run=run,
    analyse=analyse,
    reproduction=Reproduction(
        experiments=(
            Experiment("main", "x = 1, 2", lambda p: [{"x": 1}, {"x": 2}], runs=3, quick_runs=2),
        ),
        comparison=comparison,
    ),
    output_parameters=("out",),
)
