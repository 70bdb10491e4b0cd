"""Finished simulations on disk, one file per task: what makes a sweep resumable.

Every finished task is stored as one file ``<folder>/<study>/<key>.pkl`` holding the
*raw* tables of the study's run step (the key is the task's cache key,
:mod:`transportlab.engine.plan`), written to a temporary file and renamed, so a file
that exists is complete. A sweep that is interrupted (Ctrl-C, a killed process, a
failed point) and started again computes only the tasks whose file is missing. The
study's ``analyse`` step runs on every load, never cached, so a change of a metric
costs no simulation. The cache is derived data: deleting the folder is always safe.
"""

from __future__ import annotations

import logging
import pickle
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

from transportlab.engine import paths
from transportlab.engine.files import atomic_file
from transportlab.engine.plan import Task

__all__ = ["cached_count", "file_of", "load", "store"]

log = logging.getLogger(__name__)


def file_of(task: Task, folder: Path | None = None) -> Path:
    """The cache file of ``task`` in ``folder`` (default: :func:`.paths.cache_dir`)."""
    return (folder or paths.cache_dir()) / task.study / f"{task.key}.pkl"


def store(task: Task, tables: Mapping[str, pd.DataFrame], elapsed: float, folder: Path) -> Path:
    """Write the result of ``task`` atomically (temporary file in the same folder, rename)."""
    target = file_of(task, folder)
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


def load(task: Task, folder: Path) -> dict[str, pd.DataFrame] | None:
    """The cached tables of ``task``, or None if missing or unreadable (then it is rerun)."""
    path = file_of(task, folder)
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


def cached_count(tasks: Iterable[Task], folder: Path | None = None) -> int:
    """How many of the simulations of ``tasks`` have a finished result in the cache."""
    folder = folder or paths.cache_dir()
    unique = {task.key: task for task in tasks}.values()
    return sum(file_of(task, folder).is_file() for task in unique)
