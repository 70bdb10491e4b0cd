"""Small ns-3 helpers every scenario uses: socket factories, exact times, NS-2 style links.

Pure Python until called: the functions take the ``ns`` namespace, so importing this
module (e.g. to check a parameter against :data:`SOCKET_FACTORIES`) does not load ns-3.
"""

from __future__ import annotations

__all__ = [
    "SOCKET_FACTORIES",
    "cxx_namespace",
    "milliseconds",
    "remove_queue_discipline",
    "seconds",
]

#: Transport name (as in every study's ``protocol`` parameter) -> ns-3 socket factory.
SOCKET_FACTORIES = {
    "udp": "ns3::UdpSocketFactory",
    "tcp": "ns3::TcpSocketFactory",
    "sctp": "ns3::SctpSocketFactory",
}


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


def cxx_namespace(name: str, code: str):
    """``cppyy.gbl.<name>``: the C++ namespace of small recorders or helpers ``code``
    defines, compiled by cling the first time a process asks for it.

    ns-3 and our library must be loaded first (call it inside a simulation). cling cannot
    define a class twice, so asking again, also from a module imported under a second name,
    returns the namespace already compiled."""
    import cppyy  # noqa: PLC0415  (importing this module must not load ns-3)

    if not hasattr(cppyy.gbl, name):
        cppyy.cppdef(code)
    return getattr(cppyy.gbl, name)
