"""Multi-homing (RFC 9260 sections 5.1.2, 5.4, 6.4, 8.2, 8.3): heartbeats on the idle
path, failover within the time the timers allow, exactly-once delivery across the
switch, return to the primary path, and address parameters in INIT.

One failover scenario (module fixture) serves most tests: A (10.1.1.1, 10.2.1.1) and
B (10.1.1.2, 10.2.1.2) on two independent 10 Mb/s, 10 ms links; A sends a 200-byte
message every 20 ms to B's first address; A's primary link is unplugged (IP unaware)
at ``FAIL`` and plugged back at ``REPAIR``.
"""

from __future__ import annotations

import gc
import struct

import numpy as np
import pytest

from tests.sctp._support import (
    assert_pcap_clean,
    chunk,
    cxx,
    injector,
    make_pair,
    needs_tshark,
    packet,
    tshark_fields,
)
from transportlab.ns3.sctp_recording import SctpRecorder
from transportlab.ns3.simulation import run_until, simulation
from transportlab.ns3.topology import multihomed

PORT = 5000
RTO_MIN = 1.0
RTO_MAX = 4.0
HB_INTERVAL = 1.0
PATH_MAX_RETRANS = 2
FAIL = 5.0
REPAIR = 14.0
SEND_START, SEND_END, SEND_GAP = 0.5, 22.0, 0.02
STOP = 24.0


def _configure(ns, socket) -> None:
    socket.SetAttribute("RtoInitial", ns.TimeValue(ns.Seconds(RTO_MIN)))
    socket.SetAttribute("RtoMin", ns.TimeValue(ns.Seconds(RTO_MIN)))
    socket.SetAttribute("RtoMax", ns.TimeValue(ns.Seconds(RTO_MAX)))
    socket.SetAttribute("HbInterval", ns.TimeValue(ns.Seconds(HB_INTERVAL)))
    socket.SetAttribute("PathMaxRetrans", ns.UintegerValue(PATH_MAX_RETRANS))


def _seed(k: int) -> int:
    return k % 250 + 1


@pytest.fixture(scope="module")
def failover(tmp_path_factory):
    """Run the failover scenario once; return plain Python/pandas results."""
    out = tmp_path_factory.mktemp("failover")
    with simulation(seed=1, run=1) as ns:
        c = cxx()
        net = multihomed.two_networks(ns, rate="10Mbps", delay="10ms")
        recorder = SctpRecorder()
        recorder.watch_node(net.a, 0)
        recorder.watch_node(net.b, 1)
        factory = ns.TypeId.LookupByName("ns3::SctpSocketFactory")
        server = ns.DynamicCast[ns.SctpSocket](ns.Socket.CreateSocket(net.b, factory))
        _configure(ns, server)
        server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
        collector = c.Collector()
        collector.Listen(server)
        client = ns.DynamicCast[ns.SctpSocket](ns.Socket.CreateSocket(net.a, factory))
        _configure(ns, client)
        assert client.Bind(ns.InetSocketAddress(net.a_addresses[0], 0).ConvertTo()) == 0
        assert client.BindAdd(ns.InetSocketAddress(net.a_addresses[1], 0).ConvertTo()) == 0
        sender = c.Sender()
        sender.socket = client
        sender.ConnectAt(0.1, ns.InetSocketAddress(net.b_addresses[0], PORT).ConvertTo())
        n_messages = int(round((SEND_END - SEND_START) / SEND_GAP))
        for k in range(n_messages):
            sender.At(SEND_START + SEND_GAP * k, 200, 0, False, _seed(k))
        ns.LinkFailure.ScheduleUnplug(ns.Seconds(FAIL), net.a_devices[0])
        ns.LinkFailure.SchedulePlug(ns.Seconds(REPAIR), net.a_devices[0])
        net.keep[0].EnablePcap(str(out / "secondary"), net.a_devices[1], True)
        run_until(STOP)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        result = {
            "sent": int(sender.sent),
            "received": int(collector.Count()),
            "in_order_and_intact": all(
                collector.Matches(i, _seed(i)) for i in range(int(collector.Count()))
            ),
            "tsns": np.array(list(collector.tsns), dtype=np.int64),
            "client_paths": int(client.GetNPaths()),
            "server_paths": int(accepted.GetNPaths()),
            "server_path_addresses": {
                str(ns.Ipv4Address.ConvertFrom(accepted.GetPath(i).GetAddress()))
                for i in range(int(accepted.GetNPaths()))
            },
            "client_data_path": int(client.GetDataPathIndex()),
            "heartbeats": int(client.GetHeartbeatCount()),
            "heartbeat_acks": int(client.GetHeartbeatAckCount()),
            "timeouts": int(client.GetTimeoutCount()),
            "paths": recorder.paths(),
            "chunks": recorder.chunks(),
        }
        del net, recorder, server, client, collector, sender, accepted
    gc.collect()  # closes the pcap file
    result["pcap"] = out / "secondary-0-2.pcap"
    return result


def _client_events(failover, event: str, path: int):
    p = failover["paths"]
    return p[(p.node == 0) & (p.path == path) & (p.event == event)].time.to_numpy()


def test_both_ends_know_both_addresses_of_the_peer(failover):
    assert failover["client_paths"] == 2
    assert failover["server_paths"] == 2
    assert failover["server_path_addresses"] == {"10.1.1.1", "10.2.1.1"}


def test_failover_happens_within_the_rfc_timer_bound(failover):
    """Section 8.2: the primary becomes inactive at the (Path.Max.Retrans + 1)-th
    consecutive T3-rtx expiry. The RTO is at RTO.Min (RTT 20 ms) and doubles at each
    expiry, so the first expiry comes within one RTO.Min of the failure and the
    inactive mark (2^(PMR+1) - 2) * RTO.Min after it (no expiry reaches RTO.Max here).
    """
    unreachable = _client_events(failover, "UNREACHABLE", 0)
    assert len(unreachable) == 1
    delay = unreachable[0] - FAIL
    backoff = sum(min(RTO_MIN * 2**i, RTO_MAX) for i in range(1, PATH_MAX_RETRANS + 1))
    assert backoff < delay <= backoff + RTO_MIN + 0.05
    # New data moves to the alternate path at the same instant.
    data_path = failover["paths"]
    switch = data_path[(data_path.node == 0) & (data_path.event == "DATA_PATH")]
    assert switch.iloc[0].path == 1
    assert switch.iloc[0].time == pytest.approx(unreachable[0])
    # At least PMR + 1 timeouts on the primary path (more while it stays down).
    assert failover["timeouts"] >= PATH_MAX_RETRANS + 1


def test_retransmissions_and_new_data_go_to_the_alternate(failover):
    chunks = failover["chunks"]
    data = chunks[(chunks.node == 0) & (chunks.chunk == "DATA")]
    unreachable = _client_events(failover, "UNREACHABLE", 0)[0]
    before = data[data.time < FAIL]
    assert set(before.path) == {0}  # the secondary is idle before the failure
    # Section 6.4: T3 retransmissions go to an alternate active destination.
    retransmitted = data[data.retransmission & (data.time > FAIL) & (data.time < unreachable)]
    assert len(retransmitted) > 0 and set(retransmitted.path) == {1}
    during = data[(data.time > unreachable + 1e-6) & (data.time < REPAIR)]
    assert len(during) > 100 and set(during.path) == {1}


def test_every_message_is_delivered_exactly_once_in_order(failover):
    assert failover["sent"] == int(round((SEND_END - SEND_START) / SEND_GAP))
    assert failover["received"] == failover["sent"]
    assert failover["in_order_and_intact"]
    tsns = failover["tsns"]
    assert len(np.unique(tsns)) == len(tsns)
    assert np.all(np.diff(tsns) == 1)


def test_primary_path_comes_back_after_repair(failover):
    """Section 8.3: heartbeats continue on the inactive destination; the first answer
    after the repair marks it active, and new data returns to it (ReturnToPrimary)."""
    available = _client_events(failover, "AVAILABLE", 0)
    assert len(available) == 1
    # Heartbeats to an inactive path: every HB.interval + RTO (RTO at most RTO.Max,
    # jitter +-50 %), plus one RTT for the answer.
    assert REPAIR < available[0] <= REPAIR + HB_INTERVAL + 1.5 * RTO_MAX + 0.05
    paths = failover["paths"]
    back = paths[(paths.node == 0) & (paths.event == "DATA_PATH") & (paths.time >= REPAIR)]
    assert list(back.path) == [0]
    assert failover["client_data_path"] == 0
    chunks = failover["chunks"]
    new_data = chunks[
        (chunks.node == 0)
        & (chunks.chunk == "DATA")
        & ~chunks.retransmission
        & (chunks.time > available[0] + 1e-6)
    ]
    assert len(new_data) > 50 and set(new_data.path) == {0}


@needs_tshark
def test_heartbeats_on_the_idle_path_in_the_pcap(failover):
    """Section 8.3: every HB.interval + RTO (+-50 % jitter on the RTO) on the idle
    secondary path, each answered by a HEARTBEAT ACK, and no DATA there before the
    failure. Decoded by tshark from A's secondary device."""
    pcap = failover["pcap"]
    assert_pcap_clean(pcap)
    rows = tshark_fields(pcap, "frame.time_relative", "sctp.chunk_type", "ip.src")
    before = [r for r in rows if float(r[0]) < FAIL]
    heartbeats = [float(r[0]) for r in before if "4" in r[1].split(",") and r[2] == "10.2.1.1"]
    acks = [float(r[0]) for r in before if "5" in r[1].split(",") and r[2] == "10.2.1.2"]
    assert not any("0" in r[1].split(",") for r in before)  # no DATA before the failure
    assert len(heartbeats) >= 2
    assert len(acks) >= len(heartbeats) - 1
    gaps = np.diff(heartbeats)
    # The path's RTO is RTO.Min (a 20 ms RTT measured by the heartbeats).
    assert np.all(gaps >= HB_INTERVAL + 0.5 * RTO_MIN - 1e-3)
    assert np.all(gaps <= HB_INTERVAL + 1.5 * RTO_MIN + 1e-3)
    # After the failure the secondary carries DATA.
    assert any("0" in r[1].split(",") for r in rows if float(r[0]) > FAIL)


def test_heartbeat_counters_match_the_trace(failover):
    chunks = failover["chunks"]
    sent = chunks[(chunks.node == 0) & (chunks.chunk == "HEARTBEAT")]
    assert len(sent) == failover["heartbeats"]
    assert 0 < failover["heartbeat_acks"] <= failover["heartbeats"]


# ---------------------------------------------------------------- INIT address parameters


def _ipv4_param(address: str, length: int = 8) -> bytes:
    raw = bytes(int(x) for x in address.split("."))
    return struct.pack("!HH", 5, length) + raw[: length - 4]


def _init(tag: int, params: bytes) -> bytes:
    return chunk(1, 0, struct.pack("!IIHHI", tag, 65536, 1, 1, 1) + params)


@needs_tshark
def test_bad_address_parameters_in_init(tmp_path):
    """RFC 9260 5.1.2: addresses that cannot be the peer's (wildcard, broadcast,
    multicast, loopback, one of ours) are ignored, and the INIT is answered; Supported
    Address Types listing only IPv6 in an INIT that came over IPv4 is answered too (the
    implementation note: the family used counts as supported, no error indication); a
    Host Name Address aborts with Unresolvable Address (5); an IPv4 Address parameter of
    the wrong length is an invalid mandatory parameter (7)."""
    with simulation(seed=2, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server = pair.socket(1)
        server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
        server.Listen()
        inj = injector(pair, 1)
        a, b = pair.address(0), pair.address(1)
        ignored = b"".join(
            _ipv4_param(x) for x in ("0.0.0.0", "255.255.255.255", "224.0.0.1", "127.0.0.1")
        ) + _ipv4_param("10.1.1.2")  # the listener's own address
        packets = [
            packet(40001, PORT, 0, _init(0xA0000001, ignored)),
            packet(40002, PORT, 0, _init(0xA0000002, struct.pack("!HHHH", 12, 6, 6, 0))),
            packet(40003, PORT, 0, _init(0xA0000003, _ipv4_param("10.9.9.9", 6) + bytes(2))),
            packet(40004, PORT, 0, _init(0xA0000004, struct.pack("!HH4s", 11, 8, b"host"))),
        ]
        for i, raw in enumerate(packets):
            inj.Schedule(ns.Seconds(0.1 + 0.05 * i), raw, len(raw), a, b, True)
        pair.p2p.EnablePcap(str(tmp_path / "init"), pair.devices.Get(1), True)
        run_until(1.0)
        del pair, server, inj
    gc.collect()
    rows = tshark_fields(
        tmp_path / "init-1-0.pcap", "sctp.dstport", "sctp.chunk_type", "sctp.cause_code"
    )
    answers = {r[0]: (r[1], r[2]) for r in rows if r[0] != str(PORT)}
    assert answers["40001"] == ("2", "")  # INIT ACK: the bad addresses were ignored
    assert answers["40002"] == ("2", "")  # INIT ACK: IPv4 counts as supported
    assert answers["40003"] == ("6", "0x0007")  # ABORT, Invalid Mandatory Parameter
    assert answers["40004"] == ("6", "0x0005")  # ABORT, Unresolvable Address


def test_set_primary_and_unknown_peer_address():
    """SET PRIMARY (10.1 N) moves new data; an address that is not the peer's fails."""
    with simulation(seed=3, run=1) as ns:
        c = cxx()
        net = multihomed.two_networks(ns, rate="10Mbps", delay="10ms")
        recorder = SctpRecorder(data_chunks_only=True)
        recorder.watch_node(net.a, 0)
        factory = ns.TypeId.LookupByName("ns3::SctpSocketFactory")
        server = ns.Socket.CreateSocket(net.b, factory)
        server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
        collector = c.Collector()
        collector.Listen(server)
        client = ns.DynamicCast[ns.SctpSocket](ns.Socket.CreateSocket(net.a, factory))
        client.Bind(ns.InetSocketAddress(net.a_addresses[0], 0).ConvertTo())
        client.BindAdd(ns.InetSocketAddress(net.a_addresses[1], 0).ConvertTo())
        sender = c.Sender()
        sender.socket = client
        sender.ConnectAt(0.1, ns.InetSocketAddress(net.b_addresses[0], PORT).ConvertTo())
        for k in range(20):
            sender.At(0.5 + 0.05 * k, 300, 0, False, k + 1)
        run_until(0.9)
        assert client.GetPrimaryPathIndex() == 0
        assert client.SetPrimaryPath(ns.Ipv4Address("10.7.7.7").ConvertTo()) == -1
        assert client.SetPrimaryPath(net.b_addresses[1].ConvertTo()) == 0
        assert client.GetPrimaryPathIndex() == 1
        run_until(3.0)
        assert collector.Count() == 20
        data = recorder.chunks()
        assert set(data[data.time < 0.9].path) == {0}
        assert set(data[data.time > 0.9].path) == {1}
        del net, recorder, server, client, collector, sender


def _dual_homed_transfer(ns, c, net, n_messages: int, gap: float = 0.02):
    factory = ns.TypeId.LookupByName("ns3::SctpSocketFactory")
    server = ns.Socket.CreateSocket(net.b, factory)
    server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
    collector = c.Collector()
    collector.Listen(server)
    client = ns.DynamicCast[ns.SctpSocket](ns.Socket.CreateSocket(net.a, factory))
    client.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 0).ConvertTo())
    sender = c.Sender()
    sender.socket = client
    sender.ConnectAt(0.1, ns.InetSocketAddress(net.b_addresses[0], PORT).ConvertTo())
    for k in range(n_messages):
        sender.At(0.5 + gap * k, 200, 0, False, _seed(k))
    return server, collector, client, sender


def test_interface_taken_down_fails_over_too():
    """A host that notices the carrier loss takes the interface down: packets to the
    primary then find no route and are lost the same way; the failover follows from the
    timers as before, and every message arrives once, in order."""
    with simulation(seed=4, run=1) as ns:
        c = cxx()
        ns.Config.SetDefault("ns3::SctpSocket::RtoMin", ns.TimeValue(ns.Seconds(0.5)))
        ns.Config.SetDefault("ns3::SctpSocket::RtoInitial", ns.TimeValue(ns.Seconds(0.5)))
        ns.Config.SetDefault("ns3::SctpSocket::PathMaxRetrans", ns.UintegerValue(1))
        net = multihomed.two_networks(ns, rate="10Mbps", delay="10ms")
        recorder = SctpRecorder(data_chunks_only=True)
        recorder.watch_node(net.a, 0)
        server, collector, client, sender = _dual_homed_transfer(ns, c, net, 200)
        ns.LinkFailure.ScheduleInterfaceDown(
            ns.Seconds(2.0), net.a.GetObject[ns.Ipv4](), net.a_interface(0)
        )
        run_until(8.0)
        assert client.GetNPaths() == 2  # bound to the any-address: both addresses listed
        paths = recorder.paths()
        down = paths[(paths.path == 0) & (paths.event == "UNREACHABLE")].time
        low, high = 0.5 * 2, 0.5 * 2 + 0.5  # first expiry within one RTO, then 2 RTO
        assert len(down) == 1 and low < down.iloc[0] - 2.0 <= high + 0.05
        assert collector.Count() == 200
        assert all(collector.Matches(i, _seed(i)) for i in range(200))
        del net, recorder, server, collector, client, sender


def test_association_fails_when_every_path_is_dead():
    """Section 8.1: Association.Max.Retrans consecutive errors over all destinations
    close the association (ABORT cannot get through; the user sees an error close)."""
    with simulation(seed=5, run=1) as ns:
        c = cxx()
        ns.Config.SetDefault("ns3::SctpSocket::RtoMin", ns.TimeValue(ns.Seconds(0.5)))
        ns.Config.SetDefault("ns3::SctpSocket::RtoInitial", ns.TimeValue(ns.Seconds(0.5)))
        ns.Config.SetDefault("ns3::SctpSocket::RtoMax", ns.TimeValue(ns.Seconds(2.0)))
        ns.Config.SetDefault("ns3::SctpSocket::HbInterval", ns.TimeValue(ns.Seconds(1.0)))
        ns.Config.SetDefault("ns3::SctpSocket::PathMaxRetrans", ns.UintegerValue(2))
        ns.Config.SetDefault("ns3::SctpSocket::AssociationMaxRetrans", ns.UintegerValue(4))
        net = multihomed.two_networks(ns, rate="10Mbps", delay="10ms")
        states = c.StateLog()
        server, collector, client, sender = _dual_homed_transfer(ns, c, net, 100)
        states.Watch(client)
        for device in net.a_devices:
            ns.LinkFailure.ScheduleUnplug(ns.Seconds(1.0), device)
        run_until(30.0)
        assert client.GetState() == 0  # SCTP_CLOSED
        closed_at = list(states.times)[-1]
        # At least Association.Max.Retrans + 1 = 5 timeouts of >= 0.5 s each, at most
        # 5 of RTO.Max = 2 s plus the first RTO.
        assert 1.0 + 0.5 * 5 <= closed_at <= 1.0 + 2.0 * 5 + 0.5
        assert collector.Count() < 100
        del net, server, collector, client, sender, states
