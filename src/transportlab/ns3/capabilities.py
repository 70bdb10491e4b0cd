"""What this build of transportlab's ns-3 library has, read from its installed headers.

Pure Python (a file lookup, :func:`transportlab.ns3.native.native_dir`): a study can
offer SCTP only where the SCTP model was built, and check that before ns-3 loads.
"""

from __future__ import annotations

import functools

from transportlab.ns3 import native

__all__ = ["pr_sctp_available", "sctp_available"]


@functools.cache
def sctp_available() -> bool:
    """Whether this build has the SCTP model (its headers were installed), without ns-3."""
    try:
        include = native.native_dir() / "include" / "ns3"
    except native.NativeLibraryNotFoundError:
        return False
    return (include / "sctp-socket-factory.h").is_file()


@functools.cache
def pr_sctp_available() -> bool:
    """Whether the SCTP model implements PR-SCTP (RFC 3758: its socket reports abandoned
    messages), read from the installed header, without ns-3."""
    if not sctp_available():
        return False
    header = native.native_dir() / "include" / "ns3" / "sctp-socket.h"
    return "Abandon" in header.read_text(errors="replace")
