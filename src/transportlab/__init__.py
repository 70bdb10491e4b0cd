"""transportlab: reproducible SCTP/TCP/UDP studies with ns-3.

``from transportlab import ns`` gives the ns-3 namespace (cppyy) with the
project's own C++ library loaded, so ``ns.SctpSocketFactory`` sits next to
``ns.TcpSocketFactory``. ns-3 is imported lazily: the pure-Python parts
(metrics, published values, sweeps) do not pay for it.
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["ns", "__version__"]


def __getattr__(name: str):
    if name == "ns":
        from transportlab.ns3 import native as _native  # noqa: PLC0415

        return _native.load()
    raise AttributeError(f"module 'transportlab' has no attribute {name!r}")
