"""The multi-homed pair: two SCTP hosts with several addresses (multi-homing topologies).

Used by the ``multihoming_failover`` study and the SCTP model's multi-homing tests.
A multi-homed host in ns-3 is a node with several interfaces. Which interface a packet
leaves by is the routing table's decision, so every topology here spells out its
static routes; the SCTP model then sends each destination's packets from the local
address of the interface that routes there (RFC 9260 section 6.4.1, "source-destination
pairs"), and answers a HEARTBEAT from the address it was sent to.

* :func:`two_networks`: hosts A and B joined by two independent networks (Brennan et
  al.'s "four possibly independent paths", seed 002 Fig. 3.9), either directly (two
  links) or through one router per network with static routes at the hosts.
* :func:`seed_hub`: seed 002 section 5.5 (Fig. 5.9): A with two interfaces
  192.168.10.1 (primary) and 192.168.10.2, B with 192.168.10.3, all on one 100 Mb/s
  hub (an ns-3 CSMA channel) in one subnet. Two connected routes to the same subnet
  make the primary interface ambiguous; a host route to B through A's first interface
  makes it the one A uses, as the first route of a Linux host was.

Both install the internet and SCTP stacks. The construction order (nodes, devices,
stacks, addresses) fixes the random-stream assignment: changing it changes results.

Pure Python until called: the functions take the ``ns`` namespace.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from transportlab.ns3 import native


@dataclass
class Network:
    """Nodes, devices and addresses of a multi-homing topology (keeps ns-3 objects alive).

    ``a_devices[k]`` / ``b_devices[k]``: A's / B's device on network k (what
    :class:`ns3::LinkFailure` unplugs); ``a_addresses[k]`` / ``b_addresses[k]`` their
    IPv4 addresses; ``a`` and ``b`` the hosts.
    """

    nodes: object
    a: object
    b: object
    a_devices: list
    b_devices: list
    a_addresses: list
    b_addresses: list
    keep: list = field(default_factory=list)

    def a_interface(self, k: int) -> int:
        """A's IPv4 interface index on network k."""
        ipv4 = self.a.GetObject[_ns().Ipv4]()
        return int(ipv4.GetInterfaceForDevice(self.a_devices[k]))


def _ns():
    return native.load()  # ns-3, loaded on first use


def _p2p(ns, rate: str, delay: str, queue_packets: int, mtu: int):
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue(rate))
    p2p.SetDeviceAttribute("Mtu", ns.UintegerValue(mtu))
    p2p.SetChannelAttribute("Delay", ns.StringValue(delay))
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue(f"{queue_packets}p"))
    return p2p


def two_networks(
    ns,
    rate: str = "10Mbps",
    delay: str = "10ms",
    queue_packets: int = 100,
    mtu: int = 1500,
    routed: bool = False,
) -> Network:
    """A and B, each with two interfaces, on two independent networks.

    Network k uses 10.k+1.x.0/24 subnets. ``routed``: each network is A - router - B
    (the end-to-end delay is twice ``delay``), and the hosts get static routes to the
    far subnet through their interface on that network only.
    """
    p2p = _p2p(ns, rate, delay, queue_packets, mtu)
    nodes = ns.NodeContainer()
    nodes.Create(4 if routed else 2)
    a, b = nodes.Get(0), nodes.Get(1)
    ns.InternetStackHelper().Install(nodes)
    ns.SctpStackHelper().Install(nodes)
    addresses = ns.Ipv4AddressHelper()
    net = Network(nodes, a, b, [], [], [], [], keep=[p2p])
    for k in range(2):
        if not routed:
            devices = p2p.Install(a, b)
            addresses.SetBase(ns.Ipv4Address(f"10.{k + 1}.1.0"), ns.Ipv4Mask("255.255.255.0"))
            interfaces = addresses.Assign(devices)
            net.keep += [devices, interfaces]
            net.a_devices.append(devices.Get(0))
            net.b_devices.append(devices.Get(1))
            net.a_addresses.append(interfaces.GetAddress(0))
            net.b_addresses.append(interfaces.GetAddress(1))
            continue
        router = nodes.Get(2 + k)
        left = p2p.Install(a, router)
        addresses.SetBase(ns.Ipv4Address(f"10.{k + 1}.1.0"), ns.Ipv4Mask("255.255.255.0"))
        left_if = addresses.Assign(left)
        net.keep += [left, left_if]
        net.a_devices.append(left.Get(0))
        net.a_addresses.append(left_if.GetAddress(0))
        right = p2p.Install(router, b)
        addresses.SetBase(ns.Ipv4Address(f"10.{k + 1}.2.0"), ns.Ipv4Mask("255.255.255.0"))
        right_if = addresses.Assign(right)
        net.keep += [right, right_if]
        net.b_devices.append(right.Get(1))
        net.b_addresses.append(right_if.GetAddress(1))
    if routed:
        static = ns.Ipv4StaticRoutingHelper()
        a_routing = static.GetStaticRouting(a.GetObject[ns.Ipv4]())
        b_routing = static.GetStaticRouting(b.GetObject[ns.Ipv4]())
        a_ipv4 = a.GetObject[ns.Ipv4]()
        b_ipv4 = b.GetObject[ns.Ipv4]()
        for k in range(2):
            # A reaches B's subnet on network k only through router k, and vice versa.
            a_routing.AddNetworkRouteTo(
                ns.Ipv4Address(f"10.{k + 1}.2.0"),
                ns.Ipv4Mask("255.255.255.0"),
                ns.Ipv4Address(f"10.{k + 1}.1.2"),
                a_ipv4.GetInterfaceForDevice(net.a_devices[k]),
            )
            b_routing.AddNetworkRouteTo(
                ns.Ipv4Address(f"10.{k + 1}.1.0"),
                ns.Ipv4Mask("255.255.255.0"),
                ns.Ipv4Address(f"10.{k + 1}.2.1"),
                b_ipv4.GetInterfaceForDevice(net.b_devices[k]),
            )
    return net


def seed_hub(
    ns, rate: str = "100Mbps", delay: str = "5us", queue_packets: int = 100, mtu: int = 1500
) -> Network:
    """Seed 002 Fig. 5.9: A (.1 primary, .2) and B (.3) on one hub, 192.168.10.0/24."""
    nodes = ns.NodeContainer()
    nodes.Create(2)
    a, b = nodes.Get(0), nodes.Get(1)
    csma = ns.CsmaHelper()
    csma.SetChannelAttribute("DataRate", ns.StringValue(rate))
    csma.SetChannelAttribute("Delay", ns.StringValue(delay))
    csma.SetDeviceAttribute("Mtu", ns.UintegerValue(mtu))
    csma.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue(f"{queue_packets}p"))
    attached = ns.NodeContainer()
    attached.Add(a)
    attached.Add(a)
    attached.Add(b)
    devices = csma.Install(attached)  # A's two NICs and B's one on the same hub
    ns.InternetStackHelper().Install(nodes)
    ns.SctpStackHelper().Install(nodes)
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(
        ns.Ipv4Address("192.168.10.0"), ns.Ipv4Mask("255.255.255.0"), ns.Ipv4Address("0.0.0.1")
    )
    interfaces = addresses.Assign(devices)
    net = Network(
        nodes,
        a,
        b,
        [devices.Get(0), devices.Get(1)],
        [devices.Get(2)],
        [interfaces.GetAddress(0), interfaces.GetAddress(1)],
        [interfaces.GetAddress(2)],
        keep=[csma, devices, interfaces, attached],
    )
    # The primary interface: B's address is reached through A's first NIC.
    static = ns.Ipv4StaticRoutingHelper()
    a_ipv4 = a.GetObject[ns.Ipv4]()
    static.GetStaticRouting(a_ipv4).AddHostRouteTo(
        interfaces.GetAddress(2), a_ipv4.GetInterfaceForDevice(devices.Get(0))
    )
    return net
