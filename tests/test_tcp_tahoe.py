"""TcpTahoe + TcpTahoeRecovery: NS-2's Agent/TCP window rules in ns-3."""

from __future__ import annotations

import numpy as np
import pytest

from transportlab.ns3.recording import PathRecorder, ValueRecorder
from transportlab.ns3.simulation import run_until, simulation

SEGMENT = 1000
SEGMENTS = 200


def _transfer(congestion: str, recovery: str, lost: list[int]):
    """200 segments over two 1 Mb/s, 20 ms links, window 20 segments; the router drops
    the given arrivals (ReceiveListErrorModel counts the packets it receives)."""
    with simulation() as ns:
        defaults = {
            "ns3::TcpL4Protocol::SocketType": ns.StringValue(f"ns3::{congestion}"),
            "ns3::TcpL4Protocol::RecoveryType": ns.StringValue(f"ns3::{recovery}"),
            "ns3::TcpSocket::SegmentSize": ns.UintegerValue(SEGMENT),
            "ns3::TcpSocket::InitialCwnd": ns.UintegerValue(2),
            "ns3::TcpSocket::InitialSlowStartThreshold": ns.UintegerValue(20 * SEGMENT),
            "ns3::TcpSocket::DelAckCount": ns.UintegerValue(1),
            "ns3::TcpSocket::RcvBufSize": ns.UintegerValue(20 * SEGMENT),
        }
        for option in ("Sack", "Timestamp", "WindowScaling", "LimitedTransmit"):
            defaults[f"ns3::TcpSocketBase::{option}"] = ns.BooleanValue(False)
        for name, value in defaults.items():
            ns.Config.SetDefault(name, value)
        nodes = ns.NodeContainer()
        nodes.Create(3)
        ns.InternetStackHelper().Install(nodes)
        link = ns.PointToPointHelper()
        link.SetDeviceAttribute("DataRate", ns.StringValue("1Mbps"))
        link.SetChannelAttribute("Delay", ns.StringValue("20ms"))
        first = link.Install(nodes.Get(0), nodes.Get(1))
        second = link.Install(nodes.Get(1), nodes.Get(2))
        addresses = ns.Ipv4AddressHelper()
        addresses.SetBase(ns.Ipv4Address("10.0.1.0"), ns.Ipv4Mask("255.255.255.0"))
        addresses.Assign(first)
        addresses.SetBase(ns.Ipv4Address("10.0.2.0"), ns.Ipv4Mask("255.255.255.0"))
        sink = addresses.Assign(second).GetAddress(1)
        ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
        errors = ns.CreateObject[ns.ReceiveListErrorModel]()
        drop = ns.cppyy.gbl.std.list["unsigned int"]()
        for index in lost:
            drop.push_back(index)
        errors.SetList(drop)
        first.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(errors))
        sender = ns.BulkSendHelper(
            "ns3::TcpSocketFactory", ns.InetSocketAddress(sink, 9).ConvertTo()
        )
        sender.SetAttribute("MaxBytes", ns.UintegerValue(SEGMENT * SEGMENTS))
        sender.Install(nodes.Get(0)).Start(ns.Seconds(1.0))
        any_address = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 9).ConvertTo()
        receiver = ns.PacketSinkHelper("ns3::TcpSocketFactory", any_address).Install(nodes.Get(2))
        windows = ValueRecorder()
        socket = "/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/"
        windows.watch_path(socket + "CongestionWindow", "uint32", "cwnd", at=1.000001)
        windows.watch_path(socket + "SlowStartThreshold", "uint32", "ssthresh", at=1.000001)
        packets = PathRecorder()
        packets.origin(first.Get(0), "MacTx", flow=0)
        run_until(20.0)
        delivered = ns.DynamicCast[ns.PacketSink](receiver.Get(0)).GetTotalRx()
        series = windows.to_frame()
        sent = packets.to_frame()
    # The value each ACK leaves behind (the socket sets cwnd to ssthresh when recovery ends,
    # and the recovery algorithm then sets its own value, in the same instant).
    last = series.groupby(["series", "time"], sort=True)["value"].last()
    cwnd, ssthresh = last["cwnd"].to_numpy(), last["ssthresh"].to_numpy()
    data = int((sent["size"] == SEGMENT + 42).sum())  # TCP + IP + PPP headers
    return cwnd, ssthresh, data, int(delivered)


def test_tahoe_restarts_from_one_segment_after_three_duplicate_acks():
    cwnd, ssthresh, data, delivered = _transfer("TcpTahoe", "TcpTahoeRecovery", lost=[30])
    assert delivered == SEGMENT * SEGMENTS
    assert data == SEGMENTS + 1  # one fast retransmission, no timeout
    drop = int(np.argmax(cwnd == SEGMENT))
    assert cwnd[drop - 1] > 20 * SEGMENT  # congestion avoidance above ssthresh = window_
    # ssthresh = window / 2 = 20 / 2 segments; then slow start one segment per ACK, the
    # first being the ACK of the retransmission (it covers the whole window), up to
    # ssthresh, then less than a segment per ACK.
    assert list(ssthresh) == [20 * SEGMENT, 10 * SEGMENT]
    assert list(cwnd[drop : drop + 10]) == [SEGMENT * k for k in range(1, 11)]
    assert 0 < cwnd[drop + 10] - cwnd[drop + 9] < SEGMENT


def test_newreno_classic_recovery_halves_instead():
    cwnd, ssthresh, data, delivered = _transfer("TcpNewReno", "TcpClassicRecovery", lost=[30])
    assert delivered == SEGMENT * SEGMENTS
    assert data == SEGMENTS + 1
    after = cwnd[int(np.argmax(np.diff(cwnd) < 0)) + 1 :]
    assert after.min() == ssthresh[-1] >= 9 * SEGMENT  # halved, never back to one segment


def test_tahoe_recovers_several_losses_of_one_window_without_timeout():
    cwnd, ssthresh, data, delivered = _transfer("TcpTahoe", "TcpTahoeRecovery", lost=[30, 33, 36])
    assert delivered == SEGMENT * SEGMENTS
    # Each partial ACK retransmits the next hole (ns-3's NewReno rule; NS-2's Tahoe would go
    # back N) and opens the window by one segment.
    assert data == SEGMENTS + 3
    drop = int(np.argmax(cwnd == SEGMENT))
    assert list(cwnd[drop : drop + 4]) == [SEGMENT, 2 * SEGMENT, 3 * SEGMENT, 4 * SEGMENT]
    assert list(ssthresh) == [20 * SEGMENT, 10 * SEGMENT]


@pytest.mark.parametrize("recovery", ["TcpTahoeRecovery", "TcpClassicRecovery"])
def test_tahoe_congestion_control_without_loss_is_slow_start_then_linear(recovery):
    cwnd, ssthresh, data, delivered = _transfer("TcpTahoe", recovery, lost=[])
    assert delivered == SEGMENT * SEGMENTS and data == SEGMENTS
    assert list(ssthresh) == [20 * SEGMENT]
    ramp = cwnd[cwnd <= 20 * SEGMENT]
    assert list(ramp) == [SEGMENT * k for k in range(2, 21)]
    steps = np.diff(cwnd[cwnd >= 20 * SEGMENT])
    # Congestion avoidance: segment^2 / cwnd per ACK.
    assert steps[0] == SEGMENT * SEGMENT // (20 * SEGMENT)
    assert (steps > 0).all() and (steps < SEGMENT).all()
