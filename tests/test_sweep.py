"""transportlab.engine.plan, .cache and .execute: planning, cache keys, atomic cache files,
resuming, Dask vs serial."""

from __future__ import annotations

import dataclasses
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import fake_study
import pandas as pd
import pytest
from pandas.util import hash_pandas_object

from transportlab import studies
from transportlab.engine import cache as cache_store
from transportlab.engine import execute
from transportlab.engine import plan as planning
from transportlab.engine.fingerprint import code_fingerprint
from transportlab.engine.params import ParameterError
from transportlab.engine.runtime import PYTHON

FAKE = fake_study.STUDY
TESTS = Path(__file__).resolve().parent


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(folder))
    return folder


@pytest.fixture
def calls_file(tmp_path, monkeypatch):
    path = tmp_path / "calls.txt"
    monkeypatch.setenv("FAKE_STUDY_CALLS", str(path))
    monkeypatch.delenv("FAKE_STUDY_FAIL_AT", raising=False)
    monkeypatch.delenv("FAKE_STUDY_SLEEP", raising=False)
    return path


def frame_hash(frame: pd.DataFrame) -> int:
    """Content hash of a DataFrame (object columns hashed by their text)."""
    text = frame.astype({c: str for c in frame.columns if frame[c].dtype == object})
    return int(hash_pandas_object(text, index=True).sum()) ^ hash(tuple(frame.columns))


def cache_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*/*.pkl"))


# --------------------------------------------------------------------------- grid and plan


def test_grid_is_the_cartesian_product_in_order():
    assert planning.grid(a=[1, 2], b=["x", "y"]) == [
        {"a": 1, "b": "x"},
        {"a": 1, "b": "y"},
        {"a": 2, "b": "x"},
        {"a": 2, "b": "y"},
    ]


@pytest.mark.parametrize("axis", ["udp", 3, []])
def test_grid_rejects_an_axis_that_is_not_a_list_of_values(axis):
    with pytest.raises((TypeError, ValueError), match="axis 'a'"):
        planning.grid(a=axis)


def test_plan_orders_points_then_runs_and_fills_defaults():
    tasks = planning.plan(FAKE, [{"x": 3}, {"x": 4, "label": "b"}], runs=2, seed=7)
    assert [(t.params["x"], t.run) for t in tasks] == [(3, 1), (3, 2), (4, 1), (4, 2)]
    assert tasks[0].params == {"x": 3, "label": "a", "scale": 1.0, "out": "", "gain": 1.0}
    assert {t.seed for t in tasks} == {7}
    assert planning.plan(FAKE, None, runs=[5, 9])[1].run == 9


def test_quick_mode_uses_quick_values_and_other_keys():
    full, quick = planning.plan(FAKE, [{}])[0], planning.plan(FAKE, [{}], quick=True)[0]
    assert (full.params["scale"], quick.params["scale"]) == (1.0, 0.5)
    assert full.key != quick.key


def test_every_invalid_point_is_reported_before_anything_runs(cache, calls_file):
    points = [{"x": 1}, {"x": -1}, {"lable": "a"}, {"x": "2"}]
    with pytest.raises(ParameterError) as error:
        execute.run(FAKE, points, runs=2, scheduler="serial", progress=False)
    message = str(error.value)
    assert "point 1" in message and "must be >= 0" in message
    assert "point 2" in message and "did you mean 'label'" in message
    assert "point 3" in message and "expected int, got str" in message
    assert "point 0" not in message
    assert fake_study.calls(calls_file) == []
    assert not cache.exists()


@pytest.mark.parametrize(
    ("runs", "seed"), [(0, 1), ([0, 1], 1), (True, 1), (1, 0), (1, 1.5), ([], 1)]
)
def test_bad_runs_or_seed_are_rejected(runs, seed):
    with pytest.raises((ValueError, TypeError)):
        planning.plan(FAKE, None, runs=runs, seed=seed)


def test_points_that_validate_alike_run_once():
    tasks = planning.plan(FAKE, [{"scale": 2}, {"scale": 2.0, "x": 1}], runs=1)
    assert len(tasks) == 1


# --------------------------------------------------------------------------- keys


def test_key_depends_on_everything_that_identifies_a_result():
    base = planning.plan(FAKE, [{"x": 2}], runs=1)[0].key
    assert planning.plan(FAKE, [{"x": 2}], runs=1)[0].key == base
    assert planning.plan(FAKE, [{"x": 3}], runs=1)[0].key != base
    assert planning.plan(FAKE, [{"x": 2}], runs=[2])[0].key != base
    assert planning.plan(FAKE, [{"x": 2}], runs=1, seed=2)[0].key != base
    renamed = dataclasses.replace(FAKE, name="fake_sweep_2")
    assert planning.plan(renamed, [{"x": 2}], runs=1)[0].key != base


def test_key_changes_with_the_code_fingerprint(monkeypatch):
    base = planning.plan(FAKE, [{}])[0]
    assert base.identity["code"] == code_fingerprint(FAKE.run)
    monkeypatch.setattr(planning, "code_fingerprint", lambda run, runtime: "0" * 64)
    assert planning.plan(FAKE, [{}])[0].key != base.key


def test_code_fingerprint_follows_the_study_module_source(tmp_path, monkeypatch):
    module = tmp_path / "fingerprinted_study.py"
    module.write_text("def run(params, seed, run):\n    return {}\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import fingerprinted_study  # noqa: PLC0415

    before = code_fingerprint(fingerprinted_study.run)
    module.write_text("def run(params, seed, run):\n    return {}  # changed\n")
    os.utime(module, ns=(time.time_ns(), time.time_ns() + 10**9))
    assert code_fingerprint(fingerprinted_study.run) != before


def test_key_is_the_same_in_another_process():
    here = planning.plan(FAKE, [{"x": 5, "label": "b"}], runs=[3], seed=2)[0].key
    code = textwrap.dedent(
        """
        import fake_study
        from transportlab.engine import plan as planning
        print(planning.plan(fake_study.STUDY, [{"label": "b", "x": 5}], runs=[3], seed=2)[0].key)
        """
    )
    env = dict(os.environ, PYTHONPATH=str(TESTS), PYTHONHASHSEED="12345")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == here


def test_canonical_json_is_order_independent_and_rejects_nan():
    assert planning.canonical_json({"b": [1, 2.5], "a": True}) == '{"a":true,"b":[1,2.5]}'
    assert planning.canonical_json({"a": 1, "b": 2}) == planning.canonical_json({"b": 2, "a": 1})
    with pytest.raises(ValueError):
        planning.canonical_json({"a": float("nan")})
    with pytest.raises(TypeError, match="cannot be hashed"):
        planning.canonical_json({"a": object()})


# --------------------------------------------------------------------------- serial runs, cache


def test_serial_run_concatenates_tables_with_point_columns(cache, calls_file):
    tables = execute.run(
        FAKE,
        planning.grid(x=[1, 2], label=["a", "b"]),
        runs=2,
        seed=3,
        scheduler="serial",
        progress=False,
    )
    result = tables["result"]
    assert list(result.columns) == [
        "x",
        "label",
        "scale",
        "out",
        "gain",
        "seed",
        "run",
        "value",
        "double",
    ]
    assert len(result) == 8
    assert result[["x", "label", "run"]].values.tolist()[:3] == [
        [1, "a", 1],
        [1, "a", 2],
        [1, "b", 1],
    ]
    expected = result["x"] * result["scale"] + 1000 * 3 + result["run"] / 10
    assert (result["value"] == expected).all()
    # a table with several rows per run repeats the point's values on every row
    trace = tables["trace"]
    assert len(trace) == 4 * (1 + 2)
    assert (trace["level"] == trace["label"]).all()
    assert len(fake_study.calls(calls_file)) == 8
    assert len(cache_files(cache)) == 8


def test_second_run_reads_the_cache_and_computes_nothing(cache, calls_file):
    points = planning.grid(x=[1, 2])
    first = execute.run(FAKE, points, runs=3, scheduler="serial", progress=False)
    assert len(fake_study.calls(calls_file)) == 6
    second = execute.run(FAKE, points, runs=3, scheduler="serial", progress=False)
    assert len(fake_study.calls(calls_file)) == 6
    for name in first:
        pd.testing.assert_frame_equal(first[name], second[name])
    # more replications: only the new runs are computed
    execute.run(FAKE, points, runs=4, scheduler="serial", progress=False)
    assert fake_study.calls(calls_file)[6:] == [(1, "a", 1, 4), (2, "a", 1, 4)]


def test_cache_false_keeps_nothing(cache, calls_file):
    execute.run(FAKE, [{}], runs=2, scheduler="serial", progress=False, cache=False)
    execute.run(FAKE, [{}], runs=2, scheduler="serial", progress=False, cache=False)
    assert len(fake_study.calls(calls_file)) == 4
    assert not cache.exists()


def test_cache_file_holds_the_identity_and_the_tables(cache, calls_file):
    task = planning.plan(FAKE, [{"x": 9}], runs=1)[0]
    execute.run(FAKE, [{"x": 9}], scheduler="serial", progress=False)
    path = cache / "fake_sweep" / f"{task.key}.pkl"
    record = pickle.loads(path.read_bytes())
    assert record["key"] == task.key
    # the analysis-only parameter (gain) is not part of the identity
    assert record["identity"]["params"] == {
        "x": 9,
        "label": "a",
        "scale": 1.0,
        "out": "",
    }
    # the raw tables of the run step, not the analysed ones
    assert set(record["tables"]) == {"raw", "trace"}
    assert record["tables"]["raw"]["value"].tolist() == [9 + 1000 + 0.1]


def test_failure_keeps_finished_points_and_rerun_computes_only_the_rest(
    cache, calls_file, monkeypatch
):
    points = planning.grid(x=[1, 2, 3])
    monkeypatch.setenv("FAKE_STUDY_FAIL_AT", "4")
    with pytest.raises(execute.SimulationError, match=r"fake_sweep .*'x': 2.* run=2 failed"):
        execute.run(FAKE, points, runs=2, scheduler="serial", progress=False)
    assert len(cache_files(cache)) == 3
    before = fake_study.calls(calls_file)
    monkeypatch.delenv("FAKE_STUDY_FAIL_AT")
    tables = execute.run(FAKE, points, runs=2, scheduler="serial", progress=False)
    rerun = fake_study.calls(calls_file)[len(before) :]
    assert sorted((x, run) for x, _, _, run in rerun) == [(2, 2), (3, 1), (3, 2)]
    assert len(tables["result"]) == 6


@pytest.mark.slow
def test_an_interrupted_process_resumes_without_recomputing(tmp_path, cache, calls_file):
    """Kill a sweep half-way (SIGKILL, no chance to clean up); rerun computes only the rest."""
    script = textwrap.dedent(
        """
        import fake_study
        from transportlab.engine import execute
        from transportlab.engine import plan as planning
        execute.run(fake_study.STUDY, planning.grid(x=[1, 2, 3, 4]), runs=2, scheduler="serial",
                    progress=False)
        """
    )
    env = dict(os.environ, PYTHONPATH=str(TESTS), FAKE_STUDY_SLEEP="0.4")
    process = subprocess.Popen([sys.executable, "-c", script], env=env)
    try:
        deadline = time.monotonic() + 60
        while len(cache_files(cache)) < 3:
            assert process.poll() is None, "the sweep finished before it could be interrupted"
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    finished = cache_files(cache)
    assert 3 <= len(finished) < 8
    for path in finished:  # every file that exists is complete
        assert pickle.loads(path.read_bytes())["tables"]["raw"].shape == (1, 1)
    computed_before = len(fake_study.calls(calls_file))

    points = planning.grid(x=[1, 2, 3, 4])
    tables = execute.run(FAKE, points, runs=2, scheduler="serial", progress=False)
    recomputed = fake_study.calls(calls_file)[computed_before:]
    assert len(recomputed) == 8 - len(finished)
    assert len(tables["result"]) == 8
    first_done = {(x, run) for x, _, _, run in fake_study.calls(calls_file)[: len(finished)]}
    assert first_done.isdisjoint({(x, run) for x, _, _, run in recomputed})


def test_a_failed_write_leaves_no_file(cache, calls_file, monkeypatch):
    def broken_dump(*args, **kwargs):
        args[1].write(b"half a pickle")
        raise OSError("disk full")

    monkeypatch.setattr(cache_store.pickle, "dump", broken_dump)
    with pytest.raises(OSError, match="disk full"):
        execute.run(FAKE, [{}], scheduler="serial", progress=False)
    assert list(cache.rglob("*")) == [cache / "fake_sweep"]


def test_an_unreadable_cache_file_is_recomputed(cache, calls_file, caplog):
    execute.run(FAKE, [{}], scheduler="serial", progress=False)
    (path,) = cache_files(cache)
    path.write_bytes(b"garbage")
    tables = execute.run(FAKE, [{}], scheduler="serial", progress=False)
    assert len(fake_study.calls(calls_file)) == 2
    assert "unreadable cache file" in caplog.text
    assert tables["result"]["value"].tolist() == [1001.1]


def test_columns_named_like_parameters_are_refused(cache, monkeypatch):
    def clashing(params, seed, run):
        return {"t": pd.DataFrame({"x": [1]})}

    study = dataclasses.replace(FAKE, analyse=lambda raw, params: clashing(params, 1, 1))
    with pytest.raises(ValueError, match=r"table 't' .* \['x'\]"):
        execute.run(study, [{}], scheduler="serial", progress=False)


def test_run_and_analyse_must_return_dataframes(cache):
    study = dataclasses.replace(FAKE, run=lambda params, seed, run: [1, 2])
    with pytest.raises(execute.SimulationError, match="must return a dict of DataFrames"):
        execute.run(study, [{}], scheduler="serial", progress=False)
    study = dataclasses.replace(FAKE, analyse=lambda raw, params: [1, 2])
    with pytest.raises(TypeError, match="analyse must return a dict of DataFrames"):
        execute.run(study, [{}], scheduler="serial", progress=False, cache=False)


def test_simulations_in_one_process_never_overlap():
    """Two threads of one worker must not run ns-3 at the same time."""
    intervals = []

    def slow(params, seed, run):
        start = time.perf_counter()
        time.sleep(0.1)
        intervals.append((start, time.perf_counter()))
        return {}

    fingerprint = code_fingerprint(slow)
    threads = [
        threading.Thread(target=execute._execute, args=(slow, PYTHON, {}, 1, run, fingerprint))
        for run in (1, 2, 3)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    intervals.sort()
    assert len(intervals) == 3
    assert all(a[1] <= b[0] for a, b in zip(intervals, intervals[1:], strict=False))


def test_a_worker_with_other_code_refuses_to_run():
    with pytest.raises(RuntimeError, match="different transportlab code"):
        execute._execute(
            fake_study.run,
            PYTHON,
            {"x": 1, "label": "a", "scale": 1.0, "out": "", "gain": 1.0},
            1,
            1,
            "f" * 64,
        )


def test_default_workers_and_memory_limit_are_sensible():
    workers = execute.default_workers()
    assert 1 <= workers <= (os.cpu_count() or 1)
    assert execute._memory_limit(workers) >= execute.WORKER_MEMORY_FLOOR


# --------------------------------------------------------------------------- Dask


@pytest.fixture(scope="module")
def dask_client():
    """One local cluster (2 worker processes, 1 thread each) shared by the Dask tests, its
    workers started as the ns-3 studies' runtime asks (the last test runs one)."""
    with execute.local_cluster(
        n_workers=2, for_studies=[studies.get("bottleneck_example")]
    ) as client:
        yield client


@pytest.fixture
def dask(dask_client, calls_file):
    """The shared cluster, its workers told this test's calls file."""
    dask_client.run(fake_study.set_env, "FAKE_STUDY_CALLS", str(calls_file))
    dask_client.run(fake_study.set_env, "FAKE_STUDY_FAIL_AT", "0")
    yield dask_client
    dask_client.run(fake_study.set_env, "FAKE_STUDY_FAIL_AT", "0")


@pytest.mark.slow
def test_dask_and_serial_give_identical_results(cache, calls_file, dask):
    points = planning.grid(x=[1, 2, 3], label=["a", "b"])
    on_dask = execute.run(FAKE, points, runs=2, scheduler=dask, progress=False)
    pids = {line.split(",")[-1] for line in calls_file.read_text().split()}
    assert len(pids) >= 1 and str(os.getpid()) not in pids  # computed in the workers
    serial = execute.run(FAKE, points, runs=2, scheduler="serial", progress=False, cache=False)
    for name in serial:
        assert frame_hash(on_dask[name]) == frame_hash(serial[name])


def _executing(dask_worker) -> int:
    return len(dask_worker.state.executing)


@pytest.mark.slow
def test_dask_by_scheduler_address_resumes_after_a_failure(cache, calls_file, dask):
    dask.run(fake_study.set_env, "FAKE_STUDY_FAIL_AT", "3")
    address = dask.scheduler.address
    with pytest.raises(execute.SimulationError, match="injected failure"):
        execute.run(FAKE, planning.grid(x=[1, 2, 3]), runs=2, scheduler=address, progress=False)
    stored = len(cache_files(cache))
    assert 1 <= stored < 6
    # Cancelling is asynchronous: a task may still start on a busy machine. Wait until the
    # workers are idle before counting.
    deadline = time.monotonic() + 30
    while any(dask.run(_executing).values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    dask.run(fake_study.set_env, "FAKE_STUDY_FAIL_AT", "0")
    before = len(fake_study.calls(calls_file))
    points = planning.grid(x=[1, 2, 3])
    tables = execute.run(FAKE, points, runs=2, scheduler=address, progress=False)
    assert len(tables["result"]) == 6
    assert len(fake_study.calls(calls_file)) - before == 6 - stored


@pytest.mark.slow
def test_local_scheduler_starts_and_stops_its_own_cluster(cache, calls_file):
    tables = execute.run(FAKE, [{"x": 4}], runs=2, scheduler="local", n_workers=1, progress=False)
    assert tables["result"]["value"].tolist() == [1004.1, 1004.2]


@pytest.mark.slow
def test_ns3_study_gives_the_same_hash_serially_and_on_dask(cache, dask_client):
    """The real thing: ns-3 in two worker processes vs in this process."""
    points = planning.grid(protocol=["udp", "tcp"], error_rate=[0.0, 0.02])
    params = {"duration": 3.0}
    points = [dict(p, **params) for p in points]
    study = studies.get("bottleneck_example")
    on_dask = execute.run(study, points, runs=2, scheduler=dask_client, progress=False)
    serial = execute.run(study, points, runs=2, scheduler="serial", cache=False, progress=False)
    assert set(on_dask) == {"summary", "packets", "flows"}
    for name in on_dask:
        assert frame_hash(on_dask[name]) == frame_hash(serial[name]), name
    # replications differ only where there is randomness (the error model)
    summary = serial["summary"]
    lossless = summary[summary["error_rate"] == 0.0]
    assert lossless.groupby("protocol")["goodput_bps"].nunique().eq(1).all()
    lossy = summary[summary["error_rate"] > 0.0]
    assert lossy.groupby("protocol")["packets_received"].nunique().gt(1).any()


# --------------------------------------------------------------------------- analysis, force, files


def test_analysis_runs_on_every_load_and_costs_no_simulation(cache, calls_file, monkeypatch):
    first = execute.run(FAKE, [{"x": 3}], runs=2, scheduler="serial", progress=False)
    assert first["result"]["double"].tolist() == [2 * 1003.1, 2 * 1003.2]
    monkeypatch.setattr(fake_study, "ANALYSIS_FACTOR", 10)
    second = execute.run(FAKE, [{"x": 3}], runs=2, scheduler="serial", progress=False)
    assert second["result"]["double"].tolist() == [20 * 1003.1, 20 * 1003.2]
    assert len(fake_study.calls(calls_file)) == 2  # the second sweep simulated nothing
    raw = execute.run(FAKE, [{"x": 3}], runs=2, scheduler="serial", progress=False, analyse=False)
    assert set(raw) == {"raw", "trace"}


def test_force_recomputes_and_replaces_cached_results(cache, calls_file):
    execute.run(FAKE, [{"x": 1}], runs=2, scheduler="serial", progress=False)
    execute.run(FAKE, [{"x": 1}], runs=2, scheduler="serial", progress=False, force=True)
    assert len(fake_study.calls(calls_file)) == 4
    assert len(cache_files(cache)) == 2


def test_a_point_that_writes_files_always_runs(cache, calls_file, tmp_path):
    prefix = tmp_path / "trace"
    execute.run(FAKE, [{"x": 1, "out": str(prefix)}], scheduler="serial", progress=False)
    (tmp_path / "trace-1.txt").unlink()
    execute.run(FAKE, [{"x": 1, "out": str(prefix)}], scheduler="serial", progress=False)
    assert (tmp_path / "trace-1.txt").read_text() == "1001.1\n"
    assert len(fake_study.calls(calls_file)) == 2


@pytest.mark.parametrize(
    "scheduler, message",
    [
        ("bogus", "not serial, local or a Dask scheduler address"),
        ("tcp://127.0.0.1:1", "no Dask scheduler answers at tcp://127.0.0.1:1"),
        (42, "scheduler must be serial, local or an address"),
    ],
)
def test_a_bad_scheduler_is_refused_before_anything_runs(cache, calls_file, scheduler, message):
    start = time.monotonic()
    with pytest.raises(ValueError, match=message):
        execute.run(FAKE, [{}], scheduler=scheduler, progress=False)
    assert not calls_file.exists()
    assert time.monotonic() - start < 10


def test_non_finite_values_are_parameter_errors():
    with pytest.raises(ParameterError, match="not a finite number"):
        planning.plan(FAKE, [{"scale": float("inf")}])
    with pytest.raises(ParameterError, match="not a finite number"):
        planning.plan(FAKE, [{"scale": float("nan")}])


# --------------------------------------------------------------------------- experiments


def test_experiment_runs_quick_points_and_deterministic_replications():
    from transportlab.engine.study import Experiment  # noqa: PLC0415

    axis = Experiment(
        "axis", "", lambda p: [{"x": x} for x in (1, 2, 3)], runs=5, quick_runs=2,
        quick_points=lambda p: [{"x": 1}],
    )  # fmt: skip
    assert axis.point_list({}, quick=False) == [{"x": 1}, {"x": 2}, {"x": 3}]
    assert axis.point_list({}, quick=True) == [{"x": 1}]
    assert (axis.replications(False), axis.replications(True), axis.replications(True, 7)) == (
        5, 2, 7,
    )  # fmt: skip
    fixed = Experiment("fixed", "", lambda p: [{}], runs=1, quick_runs=1, deterministic=True)
    assert fixed.replications(False, override=10) == 1
    with pytest.raises(ValueError, match="is deterministic: runs must be 1"):
        Experiment("bad", "", lambda p: [{}], runs=3, quick_runs=1, deterministic=True)


def test_results_refuse_an_override_of_what_an_experiment_sets_itself(tmp_path, monkeypatch):
    from transportlab.engine.results import Results  # noqa: PLC0415

    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(tmp_path))
    results = Results(FAKE, quick=True, params={"scale": 2.0}, progress=False)
    assert [p["x"] for p in results.points("main")] == [1, 2]
    assert {p["scale"] for p in results.points("main")} == {2.0}
    with pytest.raises(ValueError, match="experiment 'main' sets x itself"):
        Results(FAKE, quick=True, params={"x": 5})


def test_analysis_parameters_share_one_simulation_and_keep_their_own_analysis(cache, calls_file):
    points = [{"x": 2, "gain": 1.0}, {"x": 2, "gain": 3.0}]
    tasks = planning.plan(FAKE, points, runs=2)
    assert len(tasks) == 4 and planning.simulation_count(tasks) == 2
    tables = execute.run(FAKE, points, runs=2, scheduler="serial", progress=False)
    assert len(fake_study.calls(calls_file)) == 2
    doubled = tables["result"].groupby("gain")["double"].apply(list).to_dict()
    assert doubled == {1.0: [2 * 1002.1, 2 * 1002.2], 3.0: [6 * 1002.1, 6 * 1002.2]}
    assert cache_store.cached_count(tasks) == 2


def test_a_study_this_build_cannot_run_is_reported_not_half_written(tmp_path, monkeypatch):
    from transportlab.engine import results as reproduction  # noqa: PLC0415
    from transportlab.engine.study import Experiment, Reproduction  # noqa: PLC0415

    monkeypatch.setenv("TRANSPORTLAB_ROOT", str(tmp_path))
    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(tmp_path / "cache"))
    lacking = Experiment("main", "", lambda p: [{}], 1, 1, available=lambda: False)
    study = dataclasses.replace(FAKE, reproduction=Reproduction((lacking,), comparison=None))
    results = reproduction.Results(study, quick=True, progress=False)
    with pytest.raises(reproduction.ExperimentUnavailableError, match="none of its experiments"):
        results.write()
    assert not (tmp_path / "cache").exists()
