"""PathRecorder / ns3::PacketPathRecorder: one number per transmission, followed along the path."""

from __future__ import annotations

import numpy as np
import pytest

from transportlab.ns3.recording import PathRecorder
from transportlab.ns3.simulation import run_until, simulation

SEGMENT = 1000
SEGMENTS = 20


def _line_with_one_loss(ns, lost_index: int | None):
    """source -- router -- sink over 1 Mb/s links; TCP moves 20 segments of 1000 B.

    The router's interface towards the sink runs a FIFO queue disc (so that its
    items can be watched); the router drops the ``lost_index``-th packet it
    receives from the source (a ReceiveListErrorModel counts arrivals).
    """
    ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(SEGMENT))
    ns.Config.SetDefault("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(False))
    ns.Config.SetDefault("ns3::TcpSocketBase::Sack", ns.BooleanValue(False))
    nodes = ns.NodeContainer()
    nodes.Create(3)
    ns.InternetStackHelper().Install(nodes)
    link = ns.PointToPointHelper()
    link.SetDeviceAttribute("DataRate", ns.StringValue("1Mbps"))
    link.SetChannelAttribute("Delay", ns.StringValue("5ms"))
    first = link.Install(nodes.Get(0), nodes.Get(1))
    second = link.Install(nodes.Get(1), nodes.Get(2))
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.0.1.0"), ns.Ipv4Mask("255.255.255.0"))
    addresses.Assign(first)
    addresses.SetBase(ns.Ipv4Address("10.0.2.0"), ns.Ipv4Mask("255.255.255.0"))
    sink_address = addresses.Assign(second).GetAddress(1)
    ns.TrafficControlHelper().Uninstall(second.Get(0))
    fifo = ns.TrafficControlHelper()
    fifo.SetRootQueueDisc("ns3::FifoQueueDisc")
    qdisc = fifo.Install(second.Get(0)).Get(0)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    if lost_index is not None:
        errors = ns.CreateObject[ns.ReceiveListErrorModel]()
        drop = ns.cppyy.gbl.std.list["unsigned int"]()
        drop.push_back(lost_index)
        errors.SetList(drop)
        first.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(errors))
    remote = ns.InetSocketAddress(sink_address, 9).ConvertTo()
    sender = ns.BulkSendHelper("ns3::TcpSocketFactory", remote)
    sender.SetAttribute("MaxBytes", ns.UintegerValue(SEGMENT * SEGMENTS))
    sender.Install(nodes.Get(0)).Start(ns.Seconds(1.0))
    sink = ns.PacketSinkHelper(
        "ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 9).ConvertTo()
    )
    sink.Install(nodes.Get(2))
    return first, second, qdisc


def _record(lost_index):
    with simulation() as ns:
        first, second, qdisc = _line_with_one_loss(ns, lost_index)
        recorder = PathRecorder()
        recorder.origin(first.Get(0), "MacTx", flow=7, point="sent")
        recorder.watch(qdisc, "Enqueue", "router_queue")
        recorder.watch(second.Get(1), "MacRx", "received")
        recorder.watch(first.Get(1), "PhyTxBegin", "reverse")  # ACKs only: untagged
        run_until(10.0)
        return recorder.to_frame(), recorder.untagged, recorder.tagged


def test_every_transmission_gets_its_own_number():
    frame, untagged, tagged = _record(lost_index=8)
    sent = frame[frame["point"] == "sent"]
    assert sent["packet"].tolist() == list(range(len(sent))) == list(range(tagged))
    assert (frame["flow"] == 7).all()
    data = sent[sent["size"] == SEGMENT + 20 + 20 + 2]  # TCP segment + IP + PPP
    # 20 segments plus one retransmission of the dropped one, under a new number.
    assert len(data) == SEGMENTS + 1
    received = frame[frame["point"] == "received"]
    lost = set(sent["packet"]) - set(received["packet"])
    assert len(lost) == 1
    assert received["packet"].is_unique
    # Every received transmission passed the router's queue disc, whose items count the IP
    # header but not the PPP header.
    queued = frame[frame["point"] == "router_queue"].set_index("packet")["size"]
    assert set(received["packet"]) <= set(queued.index)
    sizes = received.set_index("packet")["size"]
    assert (queued[sizes.index] == sizes - 2).all()
    # One-way delay of the first data packet: it leaves together with the handshake's last
    # ACK (42 B on the wire) and waits for it, then crosses two 1 Mb/s, 5 ms links as a
    # 1042-byte frame.
    times = frame.pivot_table(index="packet", columns="point", values="time", observed=True)
    first_data = data["packet"].iloc[0]
    delay = times.loc[first_data, "received"] - times.loc[first_data, "sent"]
    assert delay == pytest.approx((42 + 2 * 1042) * 8 / 1e6 + 0.010, abs=1e-9)
    assert untagged > 0  # the ACKs travelling back


def test_without_loss_nothing_is_sent_twice():
    frame, _, _ = _record(lost_index=None)
    sent = frame[frame["point"] == "sent"]
    received = frame[frame["point"] == "received"]
    assert set(sent["packet"]) == set(received["packet"])
    assert (sent["size"] == SEGMENT + 42).sum() == SEGMENTS
    order = frame[frame["point"] == "received"]["time"].to_numpy()
    assert np.all(np.diff(order) >= 0)


def test_unsupported_trace_sources_are_refused_not_fatal():
    with simulation() as ns:
        node = ns.CreateObject[ns.Node]()
        ns.InternetStackHelper().Install(node)
        recorder = PathRecorder()
        ipv4 = node.GetObject[ns.Ipv4L3Protocol]()
        with pytest.raises(ValueError, match="cannot watch 'Tx'"):
            recorder.watch(ipv4, "Tx", "x")  # (packet, ipv4, interface): another signature
        with pytest.raises(ValueError, match="cannot tag at 'NoSuchSource'"):
            recorder.origin(ipv4, "NoSuchSource", flow=1)
        qdisc = ns.CreateObject[ns.FifoQueueDisc]()
        with pytest.raises(ValueError, match="DropBeforeEnqueue"):
            recorder.watch(qdisc, "DropBeforeEnqueue", "x")  # (item, reason)
        assert len(recorder) == 0
