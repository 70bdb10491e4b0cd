"""The memory allocator of simulation worker processes.

ns-3 allocates and frees small objects for every event (packets, tags, ``Ptr<Event>``,
``std::function`` closures): in a 100-s run of the sensor-network study glibc's
``malloc``/``free`` take about 15 % of the CPU time. jemalloc (Debian's ``libjemalloc2``)
does the same work faster; preloading it changes no simulated result (the benchmark
``benchmarks/wsn_run.py`` checks the digests of every table, run by run).

The library can only be chosen when a process starts (``LD_PRELOAD``), so it applies to
the processes transportlab starts itself: the workers of the local Dask cluster
(:mod:`transportlab.ns3.runtime`) and the benchmark's children. An in-process
run (``scheduler="serial"``, quick mode) keeps the allocator of the Python that runs it.

``TRANSPORTLAB_ALLOCATOR`` chooses: unset or ``jemalloc`` (the default: jemalloc if it is
installed, else the system's), ``system`` (never preload), or the path of a shared
library to preload instead.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV_VARIABLE = "TRANSPORTLAB_ALLOCATOR"
#: Where Debian/Ubuntu (libjemalloc2), Fedora and conda put jemalloc.
JEMALLOC_CANDIDATES = (
    "/usr/lib/x86_64-linux-gnu/libjemalloc.so.2",
    "/usr/lib64/libjemalloc.so.2",
    "/usr/lib/libjemalloc.so.2",
)


def preload_library(choice: str | None = None) -> str | None:
    """The shared library worker processes preload, or None for the system allocator.

    ``choice`` defaults to ``$TRANSPORTLAB_ALLOCATOR``. A path that does not exist is an
    error (a typo should not silently fall back to the system allocator).
    """
    choice = os.environ.get(ENV_VARIABLE, "jemalloc") if choice is None else choice
    if choice in ("", "system"):
        return None
    if choice == "jemalloc":
        prefix = os.environ.get("CONDA_PREFIX")
        candidates = ([f"{prefix}/lib/libjemalloc.so.2"] if prefix else []) + list(
            JEMALLOC_CANDIDATES
        )
        return next((c for c in candidates if Path(c).is_file()), None)
    if not Path(choice).is_file():
        raise ValueError(
            f"{ENV_VARIABLE}={choice!r}: not 'system', 'jemalloc' or an existing library file"
        )
    return choice


def preload_environ(choice: str | None = None, environ: dict[str, str] | None = None):
    """``environ`` (default ``os.environ``) with the allocator added to ``LD_PRELOAD``."""
    env = dict(os.environ if environ is None else environ)
    library = preload_library(choice)
    if library:
        present = [p for p in env.get("LD_PRELOAD", "").split() if p]
        if library not in present:
            env["LD_PRELOAD"] = " ".join([library, *present])
    return env
