"""Small ns-3 helpers every study uses: what this build has, socket factories, units.

Pure Python until called: functions that need ns-3 import it lazily (or take the
``ns`` namespace), so checking a parameter does not load ns-3.
"""

from __future__ import annotations

import functools

from transportlab.ns3 import native as _native

__all__ = [
    "SOCKET_FACTORIES",
    "milliseconds",
    "pr_sctp_available",
    "remove_queue_discipline",
    "sctp_available",
    "seconds",
]

#: Transport name (as in every study's ``protocol`` parameter) -> ns-3 socket factory.
SOCKET_FACTORIES = {
    "udp": "ns3::UdpSocketFactory",
    "tcp": "ns3::TcpSocketFactory",
    "sctp": "ns3::SctpSocketFactory",
}


@functools.cache
def sctp_available() -> bool:
    """Whether this build has the SCTP model (its headers were installed), without ns-3."""
    try:
        include = _native.native_dir() / "include" / "ns3"
    except _native.NativeLibraryNotFoundError:
        return False
    return (include / "sctp-socket-factory.h").is_file()


@functools.cache
def pr_sctp_available() -> bool:
    """Whether the SCTP model implements PR-SCTP (RFC 3758: its socket reports abandoned
    messages), read from the installed header, without ns-3."""
    if not sctp_available():
        return False
    header = _native.native_dir() / "include" / "ns3" / "sctp-socket.h"
    return "Abandon" in header.read_text(errors="replace")


def seconds(ns, value: float):
    """``ns3::Time`` of ``value`` seconds, exact to the nanosecond (no float rounding drift)."""
    return ns.NanoSeconds(round(value * 1e9))


def milliseconds(ns, value: float):
    """``ns3::Time`` of ``value`` milliseconds, exact to the nanosecond."""
    return ns.NanoSeconds(round(value * 1e6))


def remove_queue_discipline(ns, *device_containers) -> None:
    """NS-2 style DropTail links: no traffic-control layer above the device queue.

    ``Ipv4AddressHelper::Assign`` installs ns-3's default queueing discipline; call
    this after assigning addresses.
    """
    helper = ns.TrafficControlHelper()
    for devices in device_containers:
        helper.Uninstall(devices)
