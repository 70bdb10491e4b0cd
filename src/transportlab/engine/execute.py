"""Running a study's tasks: in this process or on Dask, one simulation per process at a time.

Each task (:mod:`transportlab.engine.plan`) is one call of the study's run step
``run(params, seed, run)`` in a worker process, returning a dict of raw DataFrames that
:mod:`transportlab.engine.cache` keeps; the study's ``analyse`` step turns them into the
result tables :func:`run_tasks` and :func:`run` return, one DataFrame per table with the
point's parameters, ``seed`` and ``run`` as leading columns::

    from transportlab.engine import execute, plan
    from transportlab.studies.bottleneck_example import STUDY
    tables = execute.run(STUDY, plan.grid(protocol=["udp", "tcp"], error_rate=[0.0, 0.01]),
                         runs=5)
    tables["summary"]            # the study's columns + parameters + seed + run

Schedulers
    ``"local"`` (default in full mode) starts a Dask ``LocalCluster`` of worker
    processes with one thread each, so each process runs one simulation at a time
    (ns-3 is single-threaded and keeps global state); the workers start with the
    environment the study's :class:`~transportlab.engine.runtime.Runtime` asks for. A
    scheduler address (``"tcp://host:8786"``) or a ``distributed.Client`` uses an
    existing cluster; start its workers with ``--nthreads 1`` (simulations in one
    process are serialised by a lock anyway). ``"serial"`` (default in quick mode) runs
    every task in the calling process, without Dask: for notebooks in quick mode and for
    debugging with a plain traceback. Every scheduler gives the same results: ns-3 is
    reset before each simulation (:mod:`transportlab.ns3.simulation`).

``force=True`` recomputes and replaces cached results; a point that writes files (a pcap
prefix, ``Study.output_parameters``) always runs.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pandas as pd

from transportlab.engine import cache as cache_files
from transportlab.engine import paths
from transportlab.engine.fingerprint import code_fingerprint
from transportlab.engine.plan import Task, plan
from transportlab.engine.runtime import Runtime
from transportlab.engine.study import Study, require_study

__all__ = [
    "SimulationError",
    "check_scheduler",
    "default_scheduler",
    "default_workers",
    "local_cluster",
    "run",
    "run_tasks",
]

WORKER_MEMORY_FLOOR = 2 * 2**30
"""Smallest memory limit of a local worker: ns-3 alone takes 0.3-0.6 GB per process."""


class SimulationError(RuntimeError):
    """A task raised; the message names the study, the point and the run."""


# --------------------------------------------------------------------------- execution

# ns-3 is one simulator per process: a worker with several threads must still
# run its simulations one after the other.
_SIMULATION_LOCK = threading.Lock()


def _execute(
    run_step: Callable,
    runtime: Runtime,
    params: Mapping[str, Any],
    seed: int,
    run_number: int,
    fingerprint: str,
    in_worker: bool = False,
) -> tuple[dict[str, pd.DataFrame], float]:
    """Run one task in this process (a Dask worker or the caller) and check its result.

    ``in_worker`` (Dask workers): other threads of the process keep running during the
    simulation (:meth:`~transportlab.engine.runtime.Runtime.letting_other_threads_run`).
    """
    here = code_fingerprint(run_step, runtime=runtime)
    if here != fingerprint:
        raise RuntimeError(
            "this worker runs different transportlab code than the client that planned the "
            "sweep (code fingerprints differ); start the workers from the same installation"
        )
    around = runtime.letting_other_threads_run() if in_worker else contextlib.nullcontext()
    with _SIMULATION_LOCK, around:
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


def worker_environment(studies: Iterable[Study]) -> dict[str, str]:
    """The environment the runtimes of ``studies`` ask their local workers to start with."""
    environment: dict[str, str] = {}
    for study in studies:
        for name, value in study.runtime.worker_environment().items():
            if environment.get(name, value) != value:
                raise ValueError(
                    f"{study.name}'s runtime wants {name}={value!r} for its workers, "
                    f"another study {environment[name]!r}: run them on separate clusters"
                )
            environment[name] = value
    return environment


@contextlib.contextmanager
def local_cluster(
    n_workers: int | None = None,
    memory_limit: int | str | None = None,
    *,
    for_studies: Iterable[Study] = (),
):
    """A Dask ``LocalCluster`` for simulations, yielding a connected ``Client``.

    Worker processes (not threads), one thread each; ``n_workers`` defaults to
    :func:`default_workers`. The workers start with the environment the runtimes of
    ``for_studies`` ask for (:func:`worker_environment`; for ns-3: jemalloc preloaded
    where it is installed and only the ns-3 modules the studies use). Use it to share
    one cluster between several :func:`run` calls (the workers keep ns-3 imported)::

        with execute.local_cluster(for_studies=[STUDY]) as client:
            a = execute.run(STUDY, points_a, scheduler=client)
            b = execute.run(STUDY, points_b, scheduler=client)
    """
    import dask  # noqa: PLC0415 - Dask is only needed for cluster runs
    from distributed import Client, LocalCluster  # noqa: PLC0415

    n_workers = n_workers or default_workers()
    # Dask's nannies set "pre-spawn" variables in this process's environment before
    # spawning a worker; they are put back afterwards so that nothing else this process
    # starts (or loads) inherits them.
    worker_environ = worker_environment(for_studies)
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
            tables, elapsed = _execute(
                study.run, study.runtime, task.params, task.seed, task.run, fingerprint
            )
        except Exception as exc:
            raise SimulationError(f"{task.describe()} failed: {exc}") from exc
        cache_files.store(task, tables, elapsed, cache)
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
            client = stack.enter_context(
                local_cluster(n_workers, memory_limit, for_studies=[study])
            )
        else:
            client = stack.enter_context(Client(scheduler, timeout="30s"))
        futures = {}
        for task in pending:
            future = client.submit(
                _execute,
                study.run,
                study.runtime,
                dict(task.params),
                task.seed,
                task.run,
                fingerprint,
                in_worker=True,
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
                cache_files.store(task, tables, elapsed, cache)
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


def default_scheduler(scheduler: Any, quick: bool) -> Any:
    """``scheduler``, or when it is None the default: serial in quick mode, else local."""
    if scheduler is None:
        return "serial" if quick else "local"
    return scheduler


def run_tasks(
    study: Study,
    tasks: list[Task],
    *,
    scheduler: Any = "serial",
    n_workers: int | None = None,
    memory_limit: int | str | None = None,
    cache: bool | str | Path = True,
    force: bool = False,
    analyse: bool = True,
    progress: bool | str = True,
) -> dict[str, pd.DataFrame]:
    """Run the planned ``tasks`` of ``study`` (what is cached is only loaded); their tables.

    Parameters
    ----------
    study, tasks
        A :class:`~transportlab.engine.study.Study` and tasks planned for it
        (:func:`transportlab.engine.plan.plan`).
    scheduler
        ``"serial"``, ``"local"``, a scheduler address or a ``distributed.Client``
        (:func:`check_scheduler`; :func:`default_scheduler` gives the mode's default).
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
    ``seed`` and ``run`` as leading columns, in task order (points as planned,
    runs ascending).
    """
    study = require_study(study)
    if not tasks:
        raise ValueError("no tasks to run")
    scheduler = check_scheduler(scheduler)
    if scheduler is None:
        raise ValueError("choose a scheduler (execute.default_scheduler gives the default)")
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
            tables = cache_files.load(task, cache_folder) if reusable else None
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
            shutil.rmtree(cache_folder, ignore_errors=True)
    per_task = [
        _analysed(study, task, results[task.key]) if analyse else results[task.key]
        for task in tasks
    ]
    return _concatenate(tasks, per_task)


def run(
    study: Study,
    points: Iterable[Mapping[str, Any]] | None = None,
    *,
    runs: int | Iterable[int] = 1,
    seed: int = 1,
    quick: bool = False,
    scheduler: Any = None,
    **options: Any,
) -> dict[str, pd.DataFrame]:
    """Run ``study`` over ``points`` x ``runs`` and return its tables concatenated.

    ``points`` are parameter dicts (e.g. from :func:`transportlab.engine.plan.grid`);
    missing parameters take their defaults (quick-mode values with ``quick=True``);
    ``None``: the defaults. ``runs``: the number of replications (ns-3 RngRun 1..runs)
    or explicit run numbers; ``seed``: ns-3 RngSeed, the same for every task.
    ``scheduler``: as in :func:`run_tasks`; ``None``: ``"serial"`` in quick mode,
    ``"local"`` otherwise. Every point is checked and the scheduler too before anything
    runs (:func:`transportlab.engine.plan.plan`); ``options`` are those of
    :func:`run_tasks` (``n_workers``, ``memory_limit``, ``cache``, ``force``,
    ``analyse``, ``progress``).
    """
    study = require_study(study)
    scheduler = check_scheduler(scheduler)
    tasks = plan(study, points, runs=runs, seed=seed, quick=quick)
    return run_tasks(study, tasks, scheduler=default_scheduler(scheduler, quick), **options)


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
