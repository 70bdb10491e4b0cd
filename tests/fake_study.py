"""A study without ns-3 for testing the sweep machinery (importable by Dask workers).

Every call of :func:`simulate` appends ``x,label,seed,run,pid`` to the file named by
$FAKE_STUDY_CALLS, so tests can count computations across processes. With
$FAKE_STUDY_FAIL_AT = k the k-th and later calls (counted in that file) raise;
$FAKE_STUDY_SLEEP seconds are slept per call.
"""

from __future__ import annotations

import os
import time

import pandas as pd

from transportlab.params import Param, ParameterSpace
from transportlab.studies import Study

PARAMETERS = ParameterSpace(
    Param("x", 1, int, "an integer", minimum=0),
    Param("label", "a", str, "a choice", choices=("a", "b")),
    Param("scale", 1.0, float, "a float", minimum=0, exclusive_minimum=True, quick=0.5),
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


def simulate(params, seed, run):
    path = _calls_file()
    if path:
        with open(path, "a") as stream:
            stream.write(f"{params['x']},{params['label']},{seed},{run},{os.getpid()}\n")
        fail_at = int(os.environ.get("FAKE_STUDY_FAIL_AT", "0"))
        if fail_at and len(calls(path)) >= fail_at:
            raise RuntimeError("injected failure")
    time.sleep(float(os.environ.get("FAKE_STUDY_SLEEP", "0")))
    value = params["x"] * params["scale"] + 1000 * seed + run / 10
    return {
        "result": pd.DataFrame({"value": [value], "double": [2 * value]}),
        "trace": pd.DataFrame({"step": range(run), "level": [params["label"]] * run}),
    }


STUDY = Study(
    name="fake_sweep",
    title="fake study for the sweep tests",
    seed_files=(),
    notebook="none.ipynb",
    parameters=PARAMETERS,
    simulate=simulate,
)
