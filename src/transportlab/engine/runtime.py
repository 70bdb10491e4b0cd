"""What a study's run step needs from the processes that run it, beyond its Python modules.

The engine runs a study's ``run`` step in this process or in Dask workers and keys its
cached results by the code behind it. Python code it finds itself (the run step's
imports, :mod:`transportlab.engine.fingerprint`); what else a run step executes, and what
its processes need, the study's :class:`Runtime` says, so that the engine needs to know
nothing about ns-3 (``transportlab.ns3.runtime.NS3`` is the runtime of every study that
simulates with ns-3):

* :meth:`Runtime.code_files`: compiled code the run step executes (a native library, the
  programs it calls): part of the cache key, so a rebuilt library invalidates results;
* :meth:`Runtime.versions`: versions of installed packages the results depend on;
* :meth:`Runtime.worker_environment`: environment variables of the worker processes of a
  local cluster (they can only be chosen when a process starts);
* :meth:`Runtime.letting_other_threads_run`: a context a Dask worker runs each task in,
  so that its event loop keeps answering the scheduler during a long run.

The base class is a run step of pure Python: nothing compiled, no environment, nothing
around a run (the test studies use it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

__all__ = ["PYTHON", "Runtime"]


class Runtime:
    """A run step of pure Python (see the module docstring); subclasses add what they need."""

    def code_files(self) -> list[tuple[str, Path | None]]:
        """``(label, file)`` of compiled code the run step executes; ``None``: missing."""
        return []

    def versions(self) -> dict[str, str]:
        """``{package: version}`` of installed packages the results depend on."""
        return {}

    def worker_environment(self) -> dict[str, str]:
        """Environment variables a local cluster's worker processes start with."""
        return {}

    @contextlib.contextmanager
    def letting_other_threads_run(self) -> Iterator[None]:
        """Context of one task in a Dask worker (other threads must keep running)."""
        yield

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


PYTHON = Runtime()
