"""Reproducible ns-3 runs.

ns-3 keeps global state between simulations in one process: ``Config::SetDefault``
and ``GlobalValue`` settings persist, and the random-stream index counter keeps
counting, so a second run with the same seed and run number differs from the
first. :func:`simulation` resets all of it before a run and destroys the
simulator afterwards, so the same parameters give bit-identical results in the
same process and in a fresh one.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from dataclasses import dataclass

from transportlab.ns3 import native


@dataclass(frozen=True)
class RunIdentity:
    """The seed and the replication (ns-3 RngRun) of one simulation."""

    seed: int = 1
    run: int = 1

    def __post_init__(self) -> None:
        for name in ("seed", "run"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int, got {type(value).__name__}")
            if value < 1:
                raise ValueError(f"{name} must be >= 1, got {value}")


def _ns():
    return native.load()  # ns-3, loaded on first use


def reset(seed: int = 1, run: int = 1, checksums: bool = True) -> None:
    """Put ns-3 back into a known state before building a topology.

    Resets every attribute default and global value, seeds the RNG with
    ``seed``/``run``, restarts the stream index counter, and (by default)
    turns on real IPv4/TCP/UDP checksums so pcap traces validate in tshark.
    """
    identity = RunIdentity(seed, run)
    ns = _ns()
    ns.Simulator.Destroy()
    ns.Config.Reset()
    ns.RngSeedManager.SetSeed(identity.seed)
    ns.RngSeedManager.SetRun(identity.run)
    ns.RngSeedManager.ResetNextStreamIndex()
    if checksums:
        ns.GlobalValue.Bind("ChecksumEnabled", ns.BooleanValue(True))


@contextlib.contextmanager
def simulation(seed: int = 1, run: int = 1, checksums: bool = True) -> Iterator[object]:
    """Context manager for one simulation: reset before, ``Simulator::Destroy`` after.

    Yields the ``ns`` namespace::

        with simulation(seed=1, run=3) as ns:
            ...build the topology...
            run_until(100.0)
            frame = recorder.to_frame()   # read results before leaving the block
    """
    reset(seed, run, checksums)
    ns = _ns()
    try:
        yield ns
    finally:
        ns.Simulator.Destroy()


@contextlib.contextmanager
def other_threads_run_during_simulations() -> Iterator[None]:
    """Let other Python threads run while ``Simulator::Run`` runs, inside this block.

    For a Dask worker, whose event loop must answer the scheduler's heartbeats
    during a run of many minutes. A simulation runs entirely in C++ (our trace
    sinks are C++), so it does not need the GIL; cppyy re-takes it if C++ calls
    back into a Python callable. The cyclic garbage collector is paused
    meanwhile: run in another thread, it could release a cppyy proxy and with it
    a reference to an ns-3 object while the simulator thread changes that
    object's (non-atomic) reference count.
    """
    collecting = gc.isenabled()
    gc.disable()
    native.set_gil_release(True)
    try:
        yield
    finally:
        native.set_gil_release(False)
        if collecting:
            gc.enable()


def run_until(stop_seconds: float) -> None:
    """Run the simulator until the absolute simulated time ``stop_seconds``.

    It may be called several times in one simulation (to change the topology
    between calls): each call runs from the current simulated time to
    ``stop_seconds``, which must not lie before it.
    """
    if not stop_seconds > 0:
        raise ValueError(f"stop time must be > 0 s, got {stop_seconds}")
    ns = _ns()
    stop = ns.Seconds(float(stop_seconds))
    now = ns.Simulator.Now()
    if stop < now:
        raise ValueError(
            f"stop time {stop_seconds} s lies before the current simulated time "
            f"{now.GetSeconds()} s"
        )
    # Simulator::Stop takes a delay from now; from time 0 it is the stop time itself.
    ns.Simulator.Stop(stop - now)
    ns.Simulator.Run()


def event_count() -> int:
    """Events executed so far by the default simulator implementation."""
    ns = _ns()
    return int(ns.Simulator.GetEventCount())
