"""Small pieces of NS-2 Tcl that every scenario generator writes the same way.

Numbers are written so that NS-2 reads back the exact double (Python's shortest
round-trip ``repr``); rates and delays carry NS-2's units (``Mb`` = 10^6 bit/s,
``ms``), as the seeds' scripts write them.
"""

from __future__ import annotations

import math

__all__ = ["bandwidth", "delay", "number", "parse_bandwidth", "parse_time", "seed_rng", "seconds"]


def number(value: float | int) -> str:
    """A Tcl number that NS-2 parses back to exactly ``value``."""
    if isinstance(value, bool):
        raise TypeError("a Tcl number cannot be a bool")
    if isinstance(value, int):
        return str(value)
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"not a finite number: {value}")
    return repr(value)


def bandwidth(mbps: float) -> str:
    """A link rate in NS-2's units: ``bandwidth(0.5)`` is ``0.5Mb`` (500 000 bit/s)."""
    if mbps <= 0:
        raise ValueError(f"a link rate must be > 0, got {mbps} Mb/s")
    return f"{number(float(mbps))}Mb"


def delay(ms: float) -> str:
    """A link delay in NS-2's units: ``delay(10)`` is ``10.0ms``."""
    if ms < 0:
        raise ValueError(f"a delay must be >= 0, got {ms} ms")
    return f"{number(float(ms))}ms"


def seconds(value: float) -> str:
    """A time in seconds (``$ns at``, agent timers)."""
    return number(float(value))


def seed_rng(seed: int, run: int) -> str:
    """Tcl that makes a replication of NS-2 what ns-3's RngSeed/RngRun make of ns-3's.

    ``$defaultRNG`` (MRG32k3a, which every NS-2 random variable draws from unless a
    script gives it another RNG) is seeded with ``seed`` and moved to substream
    ``run - 1``: the same (seed, run) gives the same numbers, different runs give
    independent ones (NS-2 manual, "Random Number Generation").
    """
    for label, value in (("seed", seed), ("run", run)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{label} must be an int >= 1, got {value!r}")
    return (
        "global defaultRNG\n"
        f"$defaultRNG seed {seed}\n"
        f"for {{set substream 1}} {{$substream < {run}}} {{incr substream}} {{\n"
        "    $defaultRNG next-substream\n"
        "}\n"
    )


_RATE_UNITS = {"": 1.0, "k": 1e3, "m": 1e6, "g": 1e9}
_TIME_UNITS = {"": 1.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}


def parse_bandwidth(text: str) -> float:
    """A rate as NS-2 writes it (``1Mb``, ``0.5Mb``, ``2e6``, ``10kb``, ``1MB``) in bit/s.

    As TclCL's ``bw_atof``: ``k``/``m``/``g`` (any case) multiply by 10^3, 10^6, 10^9,
    a following ``B`` by 8 (bytes), a ``b`` changes nothing.
    """
    text = text.strip()
    number = text.rstrip("bBkKmMgG")
    suffix = text[len(number) :]
    scale = _RATE_UNITS.get(suffix[:1].lower(), None) if suffix[:1] not in "bB" else 1.0
    if scale is None or not number:
        raise ValueError(f"not an NS-2 rate: {text!r}")
    rest = suffix[1:] if suffix[:1] not in "bB" else suffix
    if rest not in ("", "b", "B"):
        raise ValueError(f"not an NS-2 rate: {text!r}")
    return float(number) * scale * (8.0 if rest == "B" else 1.0)


def parse_time(text: str) -> float:
    """A time as NS-2 writes it (``10ms``, ``64us``, ``0.2``) in seconds."""
    text = text.strip()
    number = text.rstrip("smunp")
    suffix = text[len(number) :]
    if suffix not in _TIME_UNITS or not number:
        raise ValueError(f"not an NS-2 time: {text!r}")
    return float(number) * _TIME_UNITS[suffix]
