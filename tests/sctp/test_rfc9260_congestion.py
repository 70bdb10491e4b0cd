"""RFC 9260 rules that differ from RFC 4960 in congestion control and reneging (issue 14).

Each test failed before its fix:

* 6.2.1 D iv: a chunk the receiver reneged on (gap-acked, then no longer reported) counts
  one miss indication and waits for T3-rtx or Fast Retransmit; it is not retransmitted
  at once;
* 7.2.1 / 7.2.2: slow start and congestion avoidance grow cwnd for bytes newly
  acknowledged by gap blocks too (RFC 4960 required the cumulative TSN ack to advance);
* 7.2.1: the initial cwnd to an IPv6 destination uses 4344 bytes where IPv4 uses 4404;
* 7.2.3 / 7.2.4: a SACK that starts Fast Retransmit applies the cwnd increase of 7.2.1
  / 7.2.2 first, then the reduction;
* 7.2.1: idle decay (cwnd = max(cwnd/2, 4 * PMDCS) per RTO) sets ssthresh = cwnd at the
  first adjustment.

The receiver's SACKs are forged here: every DATA packet reaching the receiver after the
handshake is dropped, so the sender sees only the injected SACKs, and each test knows
exactly what each SACK newly acknowledges. With 1000-byte messages every DATA chunk is
1016 bytes on the wire, one per packet (two would exceed the PMDCS of 1468 bytes).
"""

from __future__ import annotations

import gc

from tests.sctp._support import cxx, packet
from tests.sctp.test_conformance_gaps import PORT, _inject, _pair, _run_to, _sack
from transportlab.ns3.simulation import simulation

CHUNK = 1016  # 1000 bytes of user data + the 16-byte DATA chunk header
PMDCS = 1468  # 1500 - 20 (IPv4) - 12 (SCTP common header)


def _blackholed_sender(ns, n_messages: int, cwnd: int = 0, ssthresh: int = 0):
    """An established association whose receiver drops every DATA packet from 0.5 s.

    The client queues ``n_messages`` messages of 1000 bytes from 1.0 s.
    """
    pair, server, client, collector, sender = _pair(ns)
    if cwnd:
        client.SetAttribute("InitialCwnd", ns.UintegerValue(cwnd))
    if ssthresh:
        client.SetAttribute("InitialSsthresh", ns.UintegerValue(ssthresh))
    for i in range(n_messages):
        sender.At(1.0 + 0.0001 * i, 1000, 0, False, i)
    _run_to(ns, 0.5)
    assert int(client.GetState()) == 4
    model = ns.CreateObject[ns.RateErrorModel]()
    model.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
    model.SetAttribute("ErrorRate", ns.DoubleValue(1.0))
    pair.devices.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(model))
    base = int(client.GetCumulativeTsnAcked())  # the TSN before the first DATA chunk
    return pair, server, client, collector, sender, model, base


def _forge(ns, pair, client, at: float, cum: int, gaps=()):
    raw = packet(PORT, client.GetLocalPort(), client.GetLocalVerificationTag(), _sack(cum, gaps))
    return _inject(ns, pair, 0, at, bytes(raw))


def test_reneged_chunk_counts_a_miss_indication_instead_of_being_resent_at_once():
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender, model, b = _blackholed_sender(ns, 8)
        log = cxx().RetransmissionLog()
        log.Watch(client)
        injs = [
            _forge(ns, pair, client, 1.10, b, [(3, 3)]),  # TSN b+3 gap-acked; b+1, b+2: 1 miss
            _forge(ns, pair, client, 1.20, b),  # b+3 no longer reported: reneging
        ]
        _run_to(ns, 1.30)
        # Before the fix b+3 was marked for retransmission by the reneging SACK and
        # resent at 1.2 s; T3-rtx (RTO >= RTO.Min = 1 s) has not expired yet.
        assert int(log.Count()) == 0
        assert client.CheckInvariants() == ""
        # Two more SACKs newly acknowledging higher TSNs: b+1, b+2 reach 3 miss
        # indications, and so does b+3 only if the reneging counted one.
        injs += [
            _forge(ns, pair, client, 1.35, b, [(5, 5)]),
            _forge(ns, pair, client, 1.40, b, [(5, 6)]),
        ]
        _run_to(ns, 1.45)
        got = sorted((int(log.Tsn(i)) - b, bool(log.Fast(i))) for i in range(int(log.Count())))
        assert got == [(1, True), (2, True), (3, True)]
        assert all(1.40 <= log.Time(i) < 1.41 for i in range(int(log.Count())))
        assert int(client.GetFastRetransmitCount()) == 1
        assert client.CheckInvariants() == ""
        del pair, server, client, collector, sender, model, log, injs
    gc.collect()


def test_reneged_chunk_is_retransmitted_by_t3_when_nothing_else_happens():
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender, model, b = _blackholed_sender(ns, 4)
        log = cxx().RetransmissionLog()
        log.Watch(client)
        injs = [
            _forge(ns, pair, client, 1.10, b + 2, [(2, 2)]),  # cum b+2, b+4 gap-acked
            _forge(ns, pair, client, 1.20, b + 2),  # b+4 reneged; b+3 still outstanding
        ]
        _run_to(ns, 3.5)
        assert int(log.Count()) >= 2
        first = sorted(int(log.Tsn(i)) - b for i in range(2))
        assert first == [3, 4]  # both resent by T3-rtx expiry, not at 1.2 s
        assert min(log.Time(i) for i in range(2)) > 2.0
        assert not any(bool(log.Fast(i)) for i in range(2))
        del pair, server, client, collector, sender, model, log, injs
    gc.collect()


def _cc_at(ns, client, t: float):
    _run_to(ns, t)
    p = client.GetPath(0)
    return int(p.GetCwnd()), int(p.GetSsthresh()), int(p.GetFlightSize())


def test_slow_start_grows_on_gap_acks_without_cumulative_advance():
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender, model, b = _blackholed_sender(ns, 20)
        inj = _forge(ns, pair, client, 1.10, b, [(2, 2)])
        cwnd, ssthresh, flight = _cc_at(ns, client, 1.099)
        assert cwnd == 4404 and cwnd < ssthresh  # slow start, RFC 9260 7.2.1 initial cwnd
        assert flight + PMDCS > cwnd  # the window is fully used
        cwnd2, ssthresh2, _ = _cc_at(ns, client, 1.101)
        assert (cwnd2, ssthresh2) == (4404 + CHUNK, ssthresh)  # min(1016, PMDCS) more
        del pair, server, client, collector, sender, model, inj
    gc.collect()


def test_congestion_avoidance_counts_bytes_acked_by_gap_blocks():
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender, model, b = _blackholed_sender(
            ns, 30, ssthresh=2000
        )
        injs = [
            _forge(ns, pair, client, 1.10, b, [(2, 5)]),  # 4 chunks: pba 4064 < cwnd
            _forge(ns, pair, client, 1.20, b, [(2, 6)]),  # 1 more: pba 5080 >= cwnd 4404
        ]
        assert _cc_at(ns, client, 1.101)[0] == 4404
        cwnd, ssthresh, flight = _cc_at(ns, client, 1.199)
        assert cwnd == 4404 and flight + PMDCS > cwnd
        assert _cc_at(ns, client, 1.201)[:2] == (4404 + PMDCS, 2000)
        del pair, server, client, collector, sender, model, injs
    gc.collect()


def test_fast_retransmit_reduces_cwnd_after_the_increase_of_the_same_sack():
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender, model, b = _blackholed_sender(
            ns, 40, cwnd=20000, ssthresh=10000
        )
        injs = [
            _forge(ns, pair, client, 1.10, b, [(2, 2)]),  # b+1: 1st miss, pba 1016
            _forge(ns, pair, client, 1.20, b, [(2, 3)]),  # 2nd miss, pba 2032
            # 18 chunks newly acked (b+4..b+21): pba 20320 >= cwnd, so cwnd + PMDCS;
            # and the 3rd miss indication for b+1: Fast Retransmit. (b+22 stays in
            # flight: marking b+1 for retransmission then leaves the flight non-empty,
            # which would otherwise reset partial_bytes_acked.)
            _forge(ns, pair, client, 1.30, b, [(2, 21)]),
        ]
        cwnd, ssthresh, flight = _cc_at(ns, client, 1.299)
        assert (cwnd, ssthresh) == (20000, 10000)
        assert int(client.GetNextTsn()) - 1 - b >= 22 and flight + PMDCS > cwnd
        cwnd2, ssthresh2, _ = _cc_at(ns, client, 1.301)
        assert int(client.GetFastRetransmitCount()) == 1
        # 7.2.3: ssthresh = max(cwnd / 2, 4 * PMDCS) of the increased cwnd (21468);
        # reducing first gave 10000 / 10000 and no increase (Fast Recovery).
        assert (cwnd2, ssthresh2) == ((20000 + PMDCS) // 2, (20000 + PMDCS) // 2)
        del pair, server, client, collector, sender, model, injs
    gc.collect()


def test_idle_decay_sets_ssthresh_to_cwnd_at_the_first_adjustment():
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender = _pair(ns)
        for i in range(60):
            sender.At(1.0 + 0.0001 * i, 1000, 0, False, i)
        sender.At(5.0, 1000, 0, False, 60)
        cwnd, ssthresh, flight = _cc_at(ns, client, 4.99)
        rto = client.GetPath(0).GetRto().GetSeconds()
        last = client.GetPath(0).GetLastSendTime().GetSeconds()
        assert flight == 0 and cwnd > 4 * PMDCS and ssthresh > cwnd  # grew in slow start
        periods = int((5.0 - last) // rto)
        assert periods >= 2
        expected = cwnd
        for _ in range(periods):
            expected = max(expected // 2, 4 * PMDCS)
        cwnd2, ssthresh2, _ = _cc_at(ns, client, 5.001)  # the next SACK comes after 10 ms
        assert (cwnd2, ssthresh2) == (expected, cwnd)
        del pair, server, client, collector, sender
    gc.collect()


def test_initial_cwnd_uses_4344_bytes_to_an_ipv6_destination():
    with simulation(seed=1, run=1) as ns:
        nodes = ns.NodeContainer()
        nodes.Create(2)
        p2p = ns.PointToPointHelper()
        p2p.SetDeviceAttribute("DataRate", ns.StringValue("10Mbps"))
        p2p.SetChannelAttribute("Delay", ns.StringValue("10ms"))
        devices = p2p.Install(nodes)
        ns.InternetStackHelper().Install(nodes)
        ns.SctpStackHelper().Install(nodes)
        addresses = ns.Ipv6AddressHelper()
        addresses.SetBase(ns.Ipv6Address("2001:db8::"), ns.Ipv6Prefix(64))
        interfaces = addresses.Assign(devices)
        t = cxx()
        factory = ns.TypeId.LookupByName("ns3::SctpSocketFactory")
        server = ns.DynamicCast[ns.SctpSocket](ns.Socket.CreateSocket(nodes.Get(1), factory))
        server.Bind(ns.Inet6SocketAddress(ns.Ipv6Address.GetAny(), 5000).ConvertTo())
        collector = t.Collector()
        collector.Listen(server)
        client = ns.DynamicCast[ns.SctpSocket](ns.Socket.CreateSocket(nodes.Get(0), factory))
        sender = t.Sender()
        sender.socket = client
        sender.ConnectAt(1.0, ns.Inet6SocketAddress(interfaces.GetAddress(1, 1), 5000).ConvertTo())
        _run_to(ns, 1.5)
        assert int(client.GetState()) == 4
        path = client.GetPrimaryPath()
        assert int(path.GetPmdcs()) == 1448
        # min(4 * 1448, max(2 * 1448, 4344)); IPv4's 4404 would be three 1468-byte chunks.
        assert int(path.GetCwnd()) == 4344
        del nodes, p2p, devices, interfaces, server, collector, client, sender
    gc.collect()
