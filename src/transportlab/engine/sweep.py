"""Run a study over a grid of points x replications, cached, resumable, on Dask.

A *point* is a set of parameter values of a study (missing ones take their
defaults); a *replication* is one ns-3 RngRun of a point. Each (point, run) is
one *task*: one call of the study's run step ``run(params, seed, run)`` in a
worker process, returning a dict of raw DataFrames; the study's ``analyse`` step
turns them into the result tables :func:`run` returns.

::

    from transportlab.engine import sweep
    tables = sweep.run("bottleneck_example",
                       sweep.grid(protocol=["udp", "tcp"], error_rate=[0.0, 0.01]),
                       runs=5)
    tables["summary"]            # one DataFrame: the study's columns + parameters + seed + run

Schedulers
    ``"local"`` (default in full mode) starts a Dask ``LocalCluster`` of worker
    processes with one thread each, so each process runs one simulation at a
    time (ns-3 is single-threaded and keeps global state). A scheduler address
    (``"tcp://host:8786"``) or a ``distributed.Client`` uses an existing cluster;
    start its workers with ``--nthreads 1`` (simulations in one process are
    serialised by a lock anyway). ``"serial"`` (default in quick mode) runs
    every task in the calling process, without Dask: for notebooks in quick mode
    and for debugging with a plain traceback. Every scheduler gives the same
    results: ns-3 is reset before each simulation (:mod:`transportlab.ns3.simulation`).

Cache
    Every finished task is stored as one file ``<cache_dir>/<study>/<key>.pkl``
    holding the *raw* tables of the study's run step, written to a temporary file
    and renamed, so a file that exists is complete. A sweep that is interrupted
    (Ctrl-C, a killed process, a failed point) and started again computes only the
    tasks whose file is missing. The study's ``analyse`` step runs on every load,
    never cached, so a change of a metric costs no simulation. The key is the
    SHA-256 of a canonical JSON document (:func:`task_identity`) holding the
    study name, the cache schema, the *code fingerprint* of the run step
    (:func:`transportlab.engine.fingerprint.code_fingerprint`: every transportlab module
    it imports, directly or indirectly, the native library and the ``ns3``
    version), the complete validated parameters (defaults filled in, ints
    converted to floats where the parameter is a float, so ``1`` and ``1.0``
    hash alike), the seed and the run. ``force=True`` recomputes and replaces
    cached results; a point that writes files (a pcap prefix,
    ``Study.output_parameters``) always runs. The cache is derived data:
    deleting the folder is always safe.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import logging
import os
import pickle
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from transportlab.engine import paths
from transportlab.engine.files import atomic_file
from transportlab.engine.fingerprint import code_fingerprint
from transportlab.engine.params import ParameterError
from transportlab.engine.study import Study
from transportlab.ns3 import simulation

__all__ = [
    "SimulationError",
    "Task",
    "cached_count",
    "check_scheduler",
    "simulation_count",
    "code_fingerprint",
    "default_workers",
    "grid",
    "local_cluster",
    "plan",
    "run",
    "task_identity",
]

CACHE_SCHEMA = 2
"""Version of the cache file layout and of the key document; bump to invalidate all caches."""

WORKER_MEMORY_FLOOR = 2 * 2**30
"""Smallest memory limit of a local worker: ns-3 alone takes 0.3-0.6 GB per process."""

log = logging.getLogger(__name__)


class SimulationError(RuntimeError):
    """A task raised; the message names the study, the point and the run."""


# --------------------------------------------------------------------------- points


def grid(**axes: Iterable[Any]) -> list[dict[str, Any]]:
    """Cartesian product of parameter values, in the order given.

    ``grid(protocol=["udp", "tcp"], rate=[1, 2])`` gives four points. A value
    that is itself a list (a list-valued parameter) must be wrapped in a list.
    """
    names = list(axes)
    values = []
    for name in names:
        axis = axes[name]
        if isinstance(axis, str | bytes) or not isinstance(axis, Iterable):
            raise TypeError(f"grid axis {name!r} must be a list of values, got {axis!r}")
        axis = list(axis)
        if not axis:
            raise ValueError(f"grid axis {name!r} is empty")
        values.append(axis)
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values)]


# --------------------------------------------------------------------------- identity


def _canonical_json(document: Any) -> str:
    """JSON with sorted keys and no whitespace: the same document gives the same text."""
    return json.dumps(
        document,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        allow_nan=False,
        default=_json_default,
    )


def _json_default(value: Any) -> Any:
    if isinstance(value, tuple | set | frozenset):
        return sorted(value) if isinstance(value, set | frozenset) else list(value)
    # numpy scalars (e.g. from np.linspace in a grid)
    if hasattr(value, "item") and callable(value.item):
        return value.item()
    raise TypeError(f"parameter value {value!r} ({type(value).__name__}) cannot be hashed")


def task_identity(
    study: Study, params: Mapping[str, Any], seed: int, run: int, fingerprint: str | None = None
) -> dict[str, Any]:
    """The document whose hash is the cache key of one task (see the module docstring)."""
    declared = study.parameters.params
    return {
        "schema": CACHE_SCHEMA,
        "study": study.name,
        "code": fingerprint if fingerprint is not None else code_fingerprint(study.run),
        # Parameters only the analysis reads do not change what the run step computes.
        "params": {
            name: value
            for name, value in params.items()
            if name not in declared or not declared[name].analysis_only
        },
        "seed": int(seed),
        "run": int(run),
    }


@dataclass(frozen=True)
class Task:
    """One simulation: a validated point of a study and one replication."""

    study: str
    params: Mapping[str, Any]
    seed: int
    run: int
    key: str
    identity: Mapping[str, Any] = field(repr=False, compare=False)

    def path(self, cache: Path | None = None) -> Path:
        return (cache or paths.cache_dir()) / self.study / f"{self.key}.pkl"

    def describe(self, varying: Sequence[str] | None = None) -> str:
        shown = {k: v for k, v in self.params.items() if varying is None or k in varying}
        return f"{self.study} {shown} seed={self.seed} run={self.run}"


def _run_numbers(runs: int | Iterable[int]) -> list[int]:
    if isinstance(runs, bool):
        raise TypeError("runs must be an int or a list of run numbers")
    if isinstance(runs, int):
        if runs < 1:
            raise ValueError(f"runs must be >= 1, got {runs}")
        return list(range(1, runs + 1))
    numbers = list(runs)
    bad = [r for r in numbers if isinstance(r, bool) or not isinstance(r, int) or r < 1]
    if bad or not numbers:
        raise ValueError(f"run numbers must be ints >= 1, got {numbers!r}")
    return list(dict.fromkeys(numbers))


def _resolve_study(study: str | Study) -> Study:
    if isinstance(study, Study):
        return study
    from transportlab.studies import get as get_study  # noqa: PLC0415

    return get_study(study)


def plan(
    study: str | Study,
    points: Iterable[Mapping[str, Any]] | None = None,
    *,
    runs: int | Iterable[int] = 1,
    seed: int = 1,
    quick: bool = False,
) -> list[Task]:
    """Validate every point and list the tasks, points outermost, runs innermost.

    Raises :class:`~transportlab.engine.params.ParameterError` naming every invalid
    point before anything runs. Points that validate to the same parameters are
    run once.
    """
    study = _resolve_study(study)
    points = [{}] if points is None else [dict(p) for p in points]
    if not points:
        raise ValueError("no points to run")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 1:
        raise ValueError(f"seed must be an int >= 1, got {seed!r}")
    run_numbers = _run_numbers(runs)
    validated, problems = [], []
    for index, point in enumerate(points):
        try:
            validated.append(study.validate(point, quick=quick))
        except ParameterError as exc:
            problems.append(f"point {index} {point}: {exc}")
    if problems:
        raise ParameterError(f"{study.name}: " + "\n".join(problems))
    fingerprint = code_fingerprint(study.run)
    tasks: dict[str, Task] = {}
    for params in validated:
        for run_number in run_numbers:
            identity = task_identity(study, params, seed, run_number, fingerprint)
            key = hashlib.sha256(_canonical_json(identity).encode()).hexdigest()
            # Points differing only in analysis parameters share a cache key (one
            # simulation) but stay separate tasks (each analysed with its own values).
            point = _canonical_json({"params": params, "run": run_number})
            tasks.setdefault(point, Task(study.name, params, seed, run_number, key, identity))
    return list(tasks.values())


# --------------------------------------------------------------------------- cache files


def _store(task: Task, tables: Mapping[str, pd.DataFrame], elapsed: float, cache: Path) -> Path:
    """Write the result of ``task`` atomically (temporary file in the same folder, rename)."""
    target = task.path(cache)
    record = {
        "key": task.key,
        "identity": dict(task.identity),
        "tables": dict(tables),
        "elapsed_seconds": elapsed,
        "finished": time.time(),
    }
    with atomic_file(target, "wb") as stream:
        pickle.dump(record, stream, protocol=pickle.HIGHEST_PROTOCOL)
    return target


def _load(task: Task, cache: Path) -> dict[str, pd.DataFrame] | None:
    """The cached tables of ``task``, or None if missing or unreadable (then it is rerun)."""
    path = task.path(cache)
    try:
        with open(path, "rb") as stream:
            record = pickle.load(stream)
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - a damaged or foreign file is recomputed
        log.warning("ignoring unreadable cache file %s (%s)", path, exc)
        return None
    if not isinstance(record, dict) or record.get("key") != task.key:
        log.warning("ignoring cache file %s: it belongs to another task", path)
        return None
    return record["tables"]


def simulation_count(tasks: Iterable[Task]) -> int:
    """How many simulations ``tasks`` need (tasks that share a cache key share one)."""
    return len({task.key for task in tasks})


def cached_count(tasks: Iterable[Task], cache: Path | None = None) -> int:
    """How many of the simulations of ``tasks`` have a finished result in the cache."""
    cache = cache or paths.cache_dir()
    unique = {task.key: task for task in tasks}.values()
    return sum(task.path(cache).is_file() for task in unique)


# --------------------------------------------------------------------------- execution

# ns-3 is one simulator per process: a worker with several threads must still
# run its simulations one after the other.
_SIMULATION_LOCK = threading.Lock()


def _execute(
    run_step: Callable,
    params: Mapping[str, Any],
    seed: int,
    run_number: int,
    fingerprint: str,
    release_gil: bool = False,
) -> tuple[dict[str, pd.DataFrame], float]:
    """Run one task in this process (a Dask worker or the caller) and check its result.

    ``release_gil`` (Dask workers): other threads of the process keep running
    during the simulation
    (:func:`transportlab.ns3.simulation.other_threads_run_during_simulations`).
    """
    here = code_fingerprint(run_step)
    if here != fingerprint:
        raise RuntimeError(
            "this worker runs different transportlab code than the client that planned the "
            "sweep (code fingerprints differ); start the workers from the same installation"
        )
    threads = simulation.other_threads_run_during_simulations
    with _SIMULATION_LOCK, threads() if release_gil else contextlib.nullcontext():
        start = time.perf_counter()
        tables = run_step(dict(params), seed, run_number)
        elapsed = time.perf_counter() - start
    if not isinstance(tables, Mapping) or not all(
        isinstance(name, str) and isinstance(frame, pd.DataFrame) for name, frame in tables.items()
    ):
        raise TypeError(
            f"{run_step.__module__}.{run_step.__name__} must return a dict of "
            f"DataFrames, got {type(tables).__name__}"
        )
    return dict(tables), elapsed


def default_workers() -> int:
    """One worker per core, but no more than memory allows at 2 GiB per worker.

    Cores and memory as Dask sees them: container (cgroup) limits included, so a
    Binder session with 2 GB gets one worker, not one per core of the host.
    """
    from dask.system import cpu_count  # noqa: PLC0415

    memory = _total_memory()
    by_memory = max(1, memory // WORKER_MEMORY_FLOOR) if memory else cpu_count()
    return max(1, min(cpu_count(), by_memory))


def _total_memory() -> int | None:
    try:
        from distributed.system import MEMORY_LIMIT  # noqa: PLC0415 - cgroup-aware

        return int(MEMORY_LIMIT)
    except (ImportError, ValueError, TypeError):
        return None


def _memory_limit(n_workers: int) -> int:
    """Per-worker memory limit: an equal share of the machine, at least 2 GiB.

    The limit is a safety net against a runaway simulation, not a budget: Dask
    restarts a worker that exceeds 95 % of it. ns-3 itself takes 0.3-0.6 GB per
    process; large wireless scenarios reach several GB, so the share is generous.
    """
    memory = _total_memory() or WORKER_MEMORY_FLOOR * n_workers
    return max(WORKER_MEMORY_FLOOR, memory // n_workers)


# Results are small and a worker's memory is ns-3's, not Dask's: never spill to
# disk, and do not pause a worker for "unmanaged" memory that is simply ns-3.
_DASK_CONFIG = {
    "distributed.worker.memory.target": False,
    "distributed.worker.memory.spill": False,
    "distributed.worker.memory.pause": False,
    "distributed.worker.memory.terminate": 0.95,
    "distributed.scheduler.allowed-failures": 1,
}


@contextlib.contextmanager
def local_cluster(n_workers: int | None = None, memory_limit: int | str | None = None):
    """A Dask ``LocalCluster`` for simulations, yielding a connected ``Client``.

    Worker processes (not threads), one thread each; ``n_workers`` defaults to
    :func:`default_workers`. Use it to share one cluster between several
    :func:`run` calls (the workers keep ns-3 imported)::

        with sweep.local_cluster() as client:
            a = sweep.run(study, points_a, scheduler=client)
            b = sweep.run(study, points_b, scheduler=client)
    """
    import dask  # noqa: PLC0415 - Dask is only needed for cluster runs
    from distributed import Client, LocalCluster  # noqa: PLC0415

    from transportlab.ns3.allocator import preload_environ  # noqa: PLC0415
    from transportlab.ns3.native import MODULES_VARIABLE  # noqa: PLC0415

    n_workers = n_workers or default_workers()
    # The workers preload jemalloc where it is installed (transportlab.ns3.allocator) and load
    # only the ns-3 modules the studies use (transportlab.ns3.native; unless the caller's
    # environment chooses). Dask's nannies set "pre-spawn" variables in this process's
    # environment before spawning a worker; they are put back afterwards so that nothing
    # else this process starts (or loads) inherits them.
    worker_environ = {
        "LD_PRELOAD": preload_environ().get("LD_PRELOAD"),
        MODULES_VARIABLE: os.environ.get(MODULES_VARIABLE, "studies"),
    }
    config = dict(_DASK_CONFIG)
    for name, value in worker_environ.items():
        if value:
            config[f"distributed.nanny.pre-spawn-environ.{name}"] = value
    previous = {name: os.environ.get(name) for name in worker_environ}
    with dask.config.set(config):
        try:
            cluster = LocalCluster(
                n_workers=n_workers,
                threads_per_worker=1,
                processes=True,
                memory_limit=memory_limit or _memory_limit(n_workers),
                dashboard_address=":0",  # a free port: several clusters may run at once
                silence_logs=logging.ERROR,
            )
        finally:
            for name, value in previous.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value
        try:
            with Client(cluster) as client:
                yield client
        finally:
            cluster.close()


def _progress(total: int, initial: int, description: str, enabled: bool):
    from tqdm import tqdm  # noqa: PLC0415

    return tqdm(
        total=total,
        initial=initial,
        desc=description,
        unit="sim",
        disable=not enabled,
        file=sys.stderr,
        mininterval=1.0,
        dynamic_ncols=True,
    )


def _run_serial(
    study: Study, pending: list[Task], fingerprint: str, cache: Path, bar
) -> Iterator[tuple[Task, dict[str, pd.DataFrame]]]:
    for task in pending:
        try:
            tables, elapsed = _execute(study.run, task.params, task.seed, task.run, fingerprint)
        except Exception as exc:
            raise SimulationError(f"{task.describe()} failed: {exc}") from exc
        _store(task, tables, elapsed, cache)
        bar.update(1)
        yield task, tables


def _run_dask(
    study: Study,
    pending: list[Task],
    fingerprint: str,
    cache: Path,
    bar,
    scheduler: Any,
    n_workers: int | None,
    memory_limit: int | str | None,
) -> Iterator[tuple[Task, dict[str, pd.DataFrame]]]:
    from distributed import Client, as_completed  # noqa: PLC0415

    with contextlib.ExitStack() as stack:
        if isinstance(scheduler, Client):
            client = scheduler
        elif scheduler == "local":
            client = stack.enter_context(local_cluster(n_workers, memory_limit))
        else:
            client = stack.enter_context(Client(scheduler, timeout="30s"))
        futures = {}
        for task in pending:
            future = client.submit(
                _execute,
                study.run,
                dict(task.params),
                task.seed,
                task.run,
                fingerprint,
                release_gil=True,
                key=f"{study.name}-{task.key}",
                pure=False,
                retries=0,
            )
            futures[future.key] = (future, task)
        try:
            for future in as_completed([f for f, _ in futures.values()]):
                task = futures[future.key][1]
                try:
                    tables, elapsed = future.result()
                except Exception as exc:
                    raise SimulationError(f"{task.describe()} failed: {exc}") from exc
                _store(task, tables, elapsed, cache)
                future.release()
                bar.update(1)
                yield task, tables
        finally:
            # Interrupted or failed: drop what has not finished (finished tasks are stored).
            unfinished = [f for f, _ in futures.values() if not f.done()]
            if unfinished:
                client.cancel(unfinished)


def _with_point_columns(frame: pd.DataFrame, task: Task, table: str) -> pd.DataFrame:
    clash = [name for name in (*task.params, "seed", "run") if name in frame.columns]
    if clash:
        raise ValueError(
            f"table {table!r} of study {task.study!r} has columns named like "
            f"parameters {clash}; rename them in the study's analyse step"
        )
    columns = {name: _hashable(value) for name, value in task.params.items()}
    columns["seed"] = task.seed
    columns["run"] = task.run
    prefix = pd.DataFrame(
        {name: [value] * len(frame) for name, value in columns.items()}, index=frame.index
    )
    return pd.concat([prefix, frame], axis=1)


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def check_scheduler(scheduler: Any) -> Any:
    """Check a scheduler argument before anything runs; return it normalised.

    ``None``, ``"serial"``, ``"local"``, a ``distributed.Client``, or a scheduler
    address ``tcp://host:port`` (``host:port`` is taken as ``tcp://host:port``)
    that accepts connections. Raises ``ValueError`` with one line otherwise.
    """
    if scheduler is None or scheduler in ("serial", "local"):
        return scheduler
    if not isinstance(scheduler, str):
        from distributed import Client  # noqa: PLC0415

        if isinstance(scheduler, Client):
            return scheduler
        raise ValueError(f"scheduler must be serial, local or an address, got {scheduler!r}")
    import socket  # noqa: PLC0415
    from urllib.parse import urlsplit  # noqa: PLC0415

    address = scheduler if "://" in scheduler else f"tcp://{scheduler}"
    parts = urlsplit(address)
    try:
        host, port = parts.hostname, parts.port
    except ValueError:
        host, port = None, None
    if parts.scheme not in ("tcp", "tls") or not host or not port:
        raise ValueError(
            f"scheduler {scheduler!r} is not serial, local or a Dask scheduler address "
            "like tcp://host:8786"
        )
    try:
        with socket.create_connection((host, port), timeout=5):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ValueError(f"no Dask scheduler answers at {address}: {reason}") from None
    return address


def run(
    study: str | Study,
    points: Iterable[Mapping[str, Any]] | None = None,
    *,
    runs: int | Iterable[int] = 1,
    seed: int = 1,
    quick: bool = False,
    scheduler: Any = None,
    n_workers: int | None = None,
    memory_limit: int | str | None = None,
    cache: bool | str | Path = True,
    force: bool = False,
    analyse: bool = True,
    progress: bool | str = True,
) -> dict[str, pd.DataFrame]:
    """Run ``study`` over ``points`` x ``runs`` and return its tables concatenated.

    Parameters
    ----------
    study
        A study name (see ``transportlab list``) or a :class:`~transportlab.engine.study.Study`.
    points
        Parameter dicts (e.g. from :func:`grid`); missing parameters take their
        defaults (quick-mode values with ``quick=True``). ``None``: the defaults.
    runs
        Number of replications (ns-3 RngRun 1..runs) or explicit run numbers.
    seed
        ns-3 RngSeed, the same for every task.
    scheduler
        ``"serial"``, ``"local"``, a scheduler address or a ``distributed.Client``.
        ``None``: ``"serial"`` in quick mode, ``"local"`` otherwise.
    n_workers, memory_limit
        For ``"local"``: worker processes (default: :func:`default_workers`) and
        the memory limit of each (default: an equal share, at least 2 GiB).
    cache
        ``True``: :func:`transportlab.engine.paths.cache_dir`; a folder; ``False``:
        compute everything and keep nothing.
    force
        Recompute every task and replace its cached result.
    analyse
        Apply the study's ``analyse`` step to each replication (the default);
        ``False`` returns the raw tables of the run step.
    progress
        Show a progress bar (stderr); a string is used as its label.

    Returns
    -------
    dict of DataFrames, one per table, each with the point's parameters,
    ``seed`` and ``run`` as leading columns, in task order (points as given,
    runs ascending).
    """
    study = _resolve_study(study)
    scheduler = check_scheduler(scheduler)
    tasks = plan(study, points, runs=runs, seed=seed, quick=quick)
    if scheduler is None:
        scheduler = "serial" if quick else "local"
    if cache is True:
        cache_folder = paths.cache_dir()
    elif cache is False:
        cache_folder = Path(tempfile.mkdtemp(prefix="transportlab-nocache-"))
    else:
        cache_folder = Path(cache)
    try:
        results: dict[str, dict[str, pd.DataFrame]] = {}
        pending: dict[str, Task] = {}  # one simulation per cache key
        for task in tasks:
            if task.key in results or task.key in pending:
                continue
            reusable = cache is not False and not force and not study.writes_files(task.params)
            tables = _load(task, cache_folder) if reusable else None
            if tables is None:
                pending[task.key] = task
            else:
                results[task.key] = tables
        pending = list(pending.values())
        runs_total = len({task.key for task in tasks})
        fingerprint = tasks[0].identity["code"]
        label = progress if isinstance(progress, str) else study.name
        with _progress(runs_total, runs_total - len(pending), label, bool(progress)) as bar:
            if pending:
                if scheduler == "serial":
                    finished = _run_serial(study, pending, fingerprint, cache_folder, bar)
                else:
                    finished = _run_dask(
                        study,
                        pending,
                        fingerprint,
                        cache_folder,
                        bar,
                        scheduler,
                        n_workers,
                        memory_limit,
                    )
                for task, tables in finished:
                    results[task.key] = tables
    finally:
        if cache is False:
            import shutil  # noqa: PLC0415

            shutil.rmtree(cache_folder, ignore_errors=True)
    per_task = [
        _analysed(study, task, results[task.key]) if analyse else results[task.key]
        for task in tasks
    ]
    return _concatenate(tasks, per_task)


def _analysed(study: Study, task: Task, raw: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    try:
        tables = study.analyse(dict(raw), dict(task.params))
    except Exception as exc:
        raise SimulationError(f"analysing {task.describe()} failed: {exc}") from exc
    if not isinstance(tables, Mapping) or not all(
        isinstance(name, str) and isinstance(frame, pd.DataFrame) for name, frame in tables.items()
    ):
        raise TypeError(f"{study.name}: analyse must return a dict of DataFrames")
    return dict(tables)


def _concatenate(
    tasks: list[Task], per_task: list[Mapping[str, pd.DataFrame]]
) -> dict[str, pd.DataFrame]:
    names: list[str] = []
    for tables in per_task:
        for name in tables:
            if name not in names:
                names.append(name)
    combined = {}
    for name in names:
        frames = [
            _with_point_columns(tables[name], task, name)
            for task, tables in zip(tasks, per_task, strict=True)
            if name in tables
        ]
        combined[name] = pd.concat(frames, ignore_index=True)
    return combined
