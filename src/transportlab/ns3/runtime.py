"""The runtime of every study that simulates with ns-3 (:mod:`transportlab.engine.runtime`).

What the engine needs to know about ns-3 without importing it: the compiled code a run
step executes (``libtransportlab.so`` and the programs installed beside it, e.g. the
usrsctp oracle) and the ``ns3`` wheel's version, both part of every cache key; the
environment of local simulation workers (jemalloc preloaded where it is installed,
:mod:`transportlab.ns3.allocator`; only the ns-3 modules the studies use,
:data:`transportlab.ns3.native.STUDY_MODULES`, unless the caller's environment chooses);
and, in a Dask worker, Simulator::Run without the GIL so that the worker's event loop
keeps answering heartbeats (:func:`.simulation.other_threads_run_during_simulations`).
"""

from __future__ import annotations

import importlib.metadata
import os
from pathlib import Path

from transportlab.engine.runtime import Runtime
from transportlab.ns3 import native, simulation
from transportlab.ns3.allocator import preload_environ

__all__ = ["NS3", "Ns3Runtime", "native_library", "native_programs", "ns3_version"]


def native_library() -> Path | None:
    """``libtransportlab.so`` of this installation, or None if it is not built."""
    try:
        return native.native_dir() / "lib" / native.LIBRARY_NAME
    except native.NativeLibraryNotFoundError:
        return None


def native_programs() -> list[Path]:
    """Programs of the native build a run step may call (``<native>/bin``, e.g. the
    usrsctp oracle), sorted; empty if there are none."""
    library = native_library()
    folder = library.parent.parent / "bin" if library else None
    return sorted(p for p in folder.iterdir() if p.is_file()) if folder and folder.is_dir() else []


def ns3_version() -> str:
    try:
        return importlib.metadata.version("ns3")
    except importlib.metadata.PackageNotFoundError:
        return "missing"


class Ns3Runtime(Runtime):
    """ns-3 with transportlab's native library (see the module docstring)."""

    def code_files(self) -> list[tuple[str, Path | None]]:
        files: list[tuple[str, Path | None]] = [("native", native_library())]
        return files + [(f"bin/{program.name}", program) for program in native_programs()]

    def versions(self) -> dict[str, str]:
        return {"ns3": ns3_version()}

    def worker_environment(self) -> dict[str, str]:
        environment = {
            native.MODULES_VARIABLE: os.environ.get(native.MODULES_VARIABLE, "studies"),
        }
        preload = preload_environ().get("LD_PRELOAD")
        if preload:
            environment["LD_PRELOAD"] = preload
        return environment

    def letting_other_threads_run(self):
        return simulation.other_threads_run_during_simulations()


NS3 = Ns3Runtime()
