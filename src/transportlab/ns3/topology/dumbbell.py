"""A dumbbell of point-to-point links, NS-2 style: hosts on two routers joined by a bottleneck.

::

    source 0 --access--            --egress-- sink 0
    source 1 --access-- router A ==bottleneck== router B --egress-- sink 1
    ...                                                 ...

Node ids are given by the caller (the wired study keeps NS-2's numbers: routers 0
and 1, sources 2.., sinks after them). Each host has its own /30 subnet
(``10.0.0.0``, ``10.0.0.4``, ... in link order).

Queues follow NS-2's ``DropTail`` with ``limit_`` packets per link, which counts the
packet in transmission (:func:`queue_layout`). The routers' interfaces can instead
use an ns-3 queueing discipline (``fifo``, ``fq_codel``) with the same buffer.

The construction order (nodes, stacks, links in the order sources, bottleneck,
sinks, addresses, queue discs, routing) fixes the ns-3 object ids and random
streams of a scenario: changing it changes results.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from transportlab.ns3.helpers import milliseconds
from transportlab.ns3.topology.chain import Link

__all__ = ["QUEUE_DISCIPLINES", "Dumbbell", "Link", "dumbbell", "queue_layout"]

QUEUE_DISCIPLINES = ("droptail", "fifo", "fq_codel")
_QUEUE_DISC_TYPES = {"fifo": "ns3::FifoQueueDisc", "fq_codel": "ns3::FqCoDelQueueDisc"}


def queue_layout(queue_packets: int, discipline: str = "droptail") -> dict[str, int]:
    """How NS-2's ``limit_`` (``queue_packets``) maps onto ns-3's queues of a router.

    NS-2's DropTail drops an arriving packet when ``qlen + 1 >= limit_``; the link
    holds the packet in transmission separately, so ``limit_`` = 50 means 49
    waiting + 1 being sent. A point-to-point device removes a packet from its queue
    when it starts sending it, so:

    * ``droptail``: no queue disc and no flow control, device queue ``limit - 1``:
      the device queue drops an arriving packet when it holds ``limit - 1`` (the
      ``MacTxDrop`` trace), exactly NS-2's rule.
    * ``fifo``/``fq_codel``: a device queue of 1 packet plus a queue disc of
      ``limit - 2``; flow control keeps the queue disc's packets out of the full
      device queue. One artefact: the device wakes the queue disc in a separate
      event after each dequeue, so a packet arriving at that very instant still
      finds the queue disc full (``limit - 2`` waiting in all) and is dropped.
    """
    if discipline not in QUEUE_DISCIPLINES:
        raise ValueError(f"queue discipline {discipline!r} is not one of {QUEUE_DISCIPLINES}")
    if discipline == "droptail":
        return {"queue_disc": 0, "device": queue_packets - 1, "in_transmission": 1}
    return {"queue_disc": queue_packets - 2, "device": 1, "in_transmission": 1}


@dataclass
class Dumbbell:
    """The built dumbbell: nodes and the devices the measurements attach to.

    ``source_devices[k]`` / ``sink_devices[k]`` are host k's devices (k in the
    order of ``sources`` / ``sinks``), ``sink_addresses[k]`` the IPv4 address of
    sink k; ``bottleneck`` is router A's device towards router B and
    ``bottleneck_reverse`` the other end. ``router_devices`` are every router
    interface (the bottleneck's first); ``queue_discs`` maps a router device to
    its root queue disc (empty with ``droptail``).
    """

    nodes: object
    bottleneck: object = None
    bottleneck_reverse: object = None
    source_devices: dict = field(default_factory=dict)
    sink_devices: dict = field(default_factory=dict)
    sink_addresses: dict = field(default_factory=dict)
    router_devices: list = field(default_factory=list)
    queue_discs: dict = field(default_factory=dict)


def dumbbell(
    ns,
    *,
    node_count: int,
    routers: tuple[int, int],
    sources: Sequence[int],
    sinks: Sequence[int],
    access: Link,
    bottleneck: Link,
    egress: Link,
    queue_packets: int,
    queue_discipline: str = "droptail",
    install_stacks: Callable[[object], None] | None = None,
) -> Dumbbell:
    """Build the dumbbell with the internet stack and global routing.

    ``node_count`` nodes are created; ``routers`` (A, B), ``sources`` (on A) and
    ``sinks`` (on B) are node ids among them. ``queue_packets`` is NS-2's
    ``limit_`` of every interface; hosts always use DropTail, the routers
    ``queue_discipline`` (:func:`queue_layout`). ``install_stacks(nodes)``, if
    given, installs further protocol stacks (e.g. SCTP) right after the internet
    stack, before any link exists.
    """
    layout = queue_layout(queue_packets, queue_discipline)
    nodes = ns.NodeContainer()
    nodes.Create(node_count)
    ns.InternetStackHelper().Install(nodes)
    if install_stacks is not None:
        install_stacks(nodes)
    net = Dumbbell(nodes)

    host_queue = ns.QueueSizeValue(ns.QueueSize(f"{queue_packets - 1}p"))
    router_queue = ns.QueueSizeValue(ns.QueueSize(f"{layout['device']}p"))
    helper = ns.PointToPointHelper()
    if queue_discipline == "droptail":
        # No flow control between the device and the (absent) queue disc: the device
        # queue itself drops the arriving packet when `limit - 1` are waiting, in event
        # order, as NS-2 does. With flow control the traffic-control layer drops while
        # the device queue is "stopped", and it only wakes in a separate event after a
        # dequeue, so an arrival at the very instant of a dequeue would be dropped with
        # `limit - 2` waiting.
        helper.DisableFlowControl()
    addresses = ns.Ipv4AddressHelper()
    no_qdisc = ns.TrafficControlHelper()
    subnets = iter(range(1 << 22))

    def connect(host: int, router: int, link: Link):
        helper.SetDeviceAttribute(
            "DataRate", ns.DataRateValue(ns.DataRate(round(link.rate_mbps * 1e6)))
        )
        helper.SetChannelAttribute("Delay", ns.TimeValue(milliseconds(ns, link.delay_ms)))
        # The first device of a pair belongs to the first node: set its queue first.
        helper.SetQueue(
            "ns3::DropTailQueue<Packet>",
            "MaxSize",
            host_queue if host not in routers else router_queue,
        )
        devices = helper.Install(nodes.Get(host), nodes.Get(router))
        devices.Get(1).GetObject[ns.PointToPointNetDevice]().GetQueue().SetAttribute(
            "MaxSize", router_queue
        )
        addresses.SetBase(ns.Ipv4Address(_subnet(next(subnets))), ns.Ipv4Mask("255.255.255.252"))
        interfaces = addresses.Assign(devices)
        # Assign() installs ns-3's default queue disc on devices with flow control;
        # NS-2's links have none.
        for i in range(2):
            device = devices.Get(i)
            layer = device.GetNode().GetObject[ns.TrafficControlLayer]()
            if layer.GetRootQueueDiscOnDevice(device):
                no_qdisc.Uninstall(device)
        net.router_devices.append(devices.Get(1))
        return devices, interfaces

    for k, source in enumerate(sources):
        devices, _ = connect(source, routers[0], access)
        net.source_devices[k] = devices.Get(0)
    devices, _ = connect(routers[0], routers[1], bottleneck)
    net.bottleneck = devices.Get(0)  # router A -> router B
    net.bottleneck_reverse = devices.Get(1)
    net.router_devices.insert(0, devices.Get(0))
    for k, sink in enumerate(sinks):
        devices, interfaces = connect(sink, routers[1], egress)
        net.sink_devices[k] = devices.Get(0)
        net.sink_addresses[k] = interfaces.GetAddress(0)

    if queue_discipline != "droptail":
        qdisc = ns.TrafficControlHelper()
        qdisc.SetRootQueueDisc(
            _QUEUE_DISC_TYPES[queue_discipline],
            "MaxSize",
            ns.QueueSizeValue(ns.QueueSize(f"{layout['queue_disc']}p")),
        )
        for device in net.router_devices:
            installed = qdisc.Install(device)
            net.queue_discs[device] = installed.Get(0)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    return net


def _subnet(index: int) -> str:
    """The /30 subnet of link ``index``: 10.0.0.0, 10.0.0.4, ..."""
    base = index * 4
    return f"10.{base >> 16 & 255}.{base >> 8 & 255}.{base & 255}"
