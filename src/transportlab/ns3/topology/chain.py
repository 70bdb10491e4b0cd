"""Nodes in a line of point-to-point links, NS-2 style (DropTail device queues only)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from transportlab.ns3.helpers import milliseconds, remove_queue_discipline


@dataclass(frozen=True)
class Link:
    """One point-to-point link: rate (Mb/s), propagation delay (ms)."""

    rate_mbps: float
    delay_ms: float


@dataclass
class Chain:
    """``nodes[0] -- links[0] -- nodes[1] -- ... -- nodes[-1]``.

    ``devices[k]`` is the ``NetDeviceContainer`` of link k (its two ends),
    ``interfaces[k]`` the ``Ipv4InterfaceContainer`` (subnet ``10.1.<k+1>.0/24``).
    """

    nodes: object
    devices: list
    interfaces: list

    def node(self, index: int):
        return self.nodes.Get(index)

    def address(self, link: int, end: int):
        """IPv4 address of end ``end`` (0: left, 1: right) of link ``link``."""
        return self.interfaces[link].GetAddress(end)


def chain(ns, links: Sequence[Link], queue_packets: int) -> Chain:
    """Build the chain with the internet stack and global routing.

    Every device gets a DropTail queue of ``queue_packets`` packets and no
    queueing discipline above it (as NS-2's DropTail links).
    """
    if not links:
        raise ValueError("a chain needs at least one link")
    nodes = ns.NodeContainer()
    nodes.Create(len(links) + 1)
    helper = ns.PointToPointHelper()
    helper.SetQueue(
        "ns3::DropTailQueue<Packet>",
        "MaxSize",
        ns.QueueSizeValue(ns.QueueSize(f"{queue_packets}p")),
    )
    devices = []
    for k, link in enumerate(links):
        helper.SetDeviceAttribute(
            "DataRate", ns.DataRateValue(ns.DataRate(round(link.rate_mbps * 1e6)))
        )
        helper.SetChannelAttribute("Delay", ns.TimeValue(milliseconds(ns, link.delay_ms)))
        devices.append(helper.Install(nodes.Get(k), nodes.Get(k + 1)))
    ns.InternetStackHelper().Install(nodes)
    addresses = ns.Ipv4AddressHelper()
    interfaces = []
    for k, pair in enumerate(devices):
        addresses.SetBase(ns.Ipv4Address(f"10.1.{k + 1}.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces.append(addresses.Assign(pair))
    # Assign installs ns-3's default queueing discipline: remove it afterwards.
    remove_queue_discipline(ns, *devices)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    return Chain(nodes, devices, interfaces)
