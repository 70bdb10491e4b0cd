"""Failover timing against the RFC 9260 timers (issue 28, bugs 1 and 3).

Bug 1: the primary dies in both directions (A's first cable unplugged, two direct
10 Mb/s links between dual-homed A and B, a bulk transfer from A to B's first address).
B had received chunks whose SACKs were lost with the cable; after the first T3-rtx expiry
on the primary they are marked for retransmission (to the alternate) and the SACK of the
first retransmission acknowledges them, through the alternate. Their acknowledgement is
no proof that the primary works (it is late, for transmissions made before the failure,
and they were classified lost), so it must not clear the primary's error counter
(RFC 9260 section 8.2). When it did, the count went 1 -> 0 with the RTO already doubled,
and the primary turned inactive at 1 + 2 + 4 + 8 + 16 + 32 + 60 = 123 s instead of
1 + 2 + 4 + 8 + 16 + 32 = 63 s after the failure; with SCTP-PF the primary flapped back to
active.

Bug 3: a destination that turns potentially failed or inactive through an unanswered
HEARTBEAT must get the data that waited for it moving at once (to the new data path), not
at the next SACK or timeout.
"""

from __future__ import annotations

import gc

import numpy as np
import pytest

from tests.sctp._support import cxx
from transportlab.ns3.sctp_recording import SctpRecorder
from transportlab.ns3.simulation import run_until, simulation
from transportlab.ns3.topology import multihomed

PORT = 6000
SEND_SIZE = 1452
#: The model's defaults (RFC 9260 section 16): RTO.Min = RTO.Initial = 1 s, RTO.Max 60 s,
#: Path.Max.Retrans 5.
RTO, RTO_MAX, PMR = 1.0, 60.0, 5


def rfc_failover_window(rto: float = RTO, rto_max: float = RTO_MAX, pmr: int = PMR):
    """Section 8.2 with 6.3.3 E2: the destination is inactive at the (PMR + 1)-th
    consecutive T3-rtx expiry; the RTO doubles at each (capped at RTO.Max) and the first
    expiry comes at most one RTO after the failure, so inactive within
    (sum_{i=1..PMR} min(2^i RTO, max), sum_{i=0..PMR} min(2^i RTO, max)] after it."""
    timeouts = [min(rto * 2**i, rto_max) for i in range(pmr + 1)]
    return sum(timeouts[1:]), sum(timeouts)


def run_bulk_failover(
    rate_mbps: float, delay_ms: float, fail: float, pfmr: int | None, stop: float
) -> dict:
    """A (both addresses) sends to B's first address; A's first cable is pulled at
    ``fail`` (both directions lost); the transfer is 1.5 MB longer than what the link
    carries before the failure, so it is still running when the failover comes."""
    total = int(rate_mbps * 1e6 / 8 * fail) + 1_500_000
    with simulation(seed=1, run=1) as ns:
        if pfmr is not None:
            ns.Config.SetDefault(
                "ns3::SctpSocket::PotentiallyFailedMaxRetrans", ns.UintegerValue(pfmr)
            )
        net = multihomed.two_networks(ns, rate=f"{rate_mbps}Mbps", delay=f"{delay_ms}ms")
        recorder = SctpRecorder(data_chunks_only=True)
        recorder.watch_node(net.a, 0)
        recorder.watch_node(net.b, 1)
        sctp = "ns3::SctpSocketFactory"
        sink = ns.PacketSinkHelper(
            sctp, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo()
        )
        sinks = sink.Install(net.b)
        bulk = ns.BulkSendHelper(sctp, ns.InetSocketAddress(net.b_addresses[0], PORT).ConvertTo())
        bulk.SetAttribute("SendSize", ns.UintegerValue(SEND_SIZE))
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(total))
        apps = bulk.Install(net.a)
        apps.Start(ns.Seconds(0.1))
        ns.LinkFailure.ScheduleUnplug(ns.Seconds(fail), net.a_devices[0])
        run_until(fail)
        # The primary's RTO when it fails (at least RTO.Min; more if queueing delay
        # inflated the RTT): the T3-rtx timer runs with it and then doubles.
        socket = ns.DynamicCast[ns.SctpSocket](apps.Get(0).GetSocket())
        rto = socket.GetPath(0).GetRto().GetSeconds()
        run_until(stop)
        result = {
            "total": total,
            "rto": rto,
            "paths": recorder.paths(),
            "chunks": recorder.chunks(),
            "delivered": recorder.delivered(),
        }
        del net, recorder, sink, sinks, bulk, apps, socket
    gc.collect()
    return result


def _events(result, event: str, path: int, node: int = 0) -> np.ndarray:
    p = result["paths"]
    return p[(p.node == node) & (p.path == path) & (p.event == event)].time.to_numpy()


FAIL = 5.0


@pytest.fixture(scope="module")
def pf_off():
    return run_bulk_failover(10, 10, FAIL, pfmr=None, stop=FAIL + 72.0)


@pytest.fixture(scope="module")
def pf_on():
    return run_bulk_failover(10, 10, FAIL, pfmr=0, stop=FAIL + 12.0)


def test_primary_inactive_within_the_rfc_timer_window(pf_off):
    """The issue's case (10 Mb/s, 10 ms, failure at 5 s): before the fix 123 s."""
    assert RTO <= pf_off["rto"] < 1.01 * RTO
    low, high = rfc_failover_window(pf_off["rto"])
    assert 62.0 <= low < high < 63.7
    inactive = _events(pf_off, "UNREACHABLE", 0)
    assert len(inactive) == 1
    assert low < inactive[0] - FAIL <= high, inactive[0] - FAIL
    # Late SACKs never made the dead primary look alive again.
    assert len(_events(pf_off, "AVAILABLE", 0)) == 0
    # New data goes to the alternate from then on, and the transfer completes.
    switch = _events(pf_off, "DATA_PATH", 1)
    assert len(switch) == 1 and switch[0] == inactive[0]
    delivered = pf_off["delivered"]
    assert delivered[delivered.node == 1]["size"].sum() == pf_off["total"]


@pytest.mark.parametrize(
    ("rate_mbps", "delay_ms", "fail"),
    [(10, 5, 20.0), (50, 5, 5.0)],
    ids=["10Mbps-5ms-fail20s", "50Mbps-5ms-fail5s"],
)
def test_primary_inactive_within_the_rfc_timer_window_other_links(rate_mbps, delay_ms, fail):
    """The issue's other two cases that took 123 s."""
    result = run_bulk_failover(rate_mbps, delay_ms, fail, pfmr=None, stop=fail + 66.0)
    low, high = rfc_failover_window(result["rto"])
    inactive = _events(result, "UNREACHABLE", 0)
    assert len(inactive) == 1
    assert low < inactive[0] - fail <= high, inactive[0] - fail
    assert len(_events(result, "AVAILABLE", 0)) == 0


def test_pf_primary_does_not_flap_back(pf_on):
    """SCTP-PF (PFMR 0): potentially failed at the first expiry, at most one RTO after the
    failure; no late SACK makes it active again; new data stays on the alternate and
    deliveries resume within one RTO of the failure (before the fix: 2.4-3.4 s)."""
    pf = _events(pf_on, "POTENTIALLY_FAILED", 0)
    assert len(pf) == 1 and 0 < pf[0] - FAIL <= pf_on["rto"], pf
    assert len(_events(pf_on, "AVAILABLE", 0)) == 0
    chunks = pf_on["chunks"]
    new = chunks[(chunks.node == 0) & (chunks.time > pf[0]) & ~chunks.retransmission]
    assert len(new) > 100 and set(new.path) == {1}
    delivered = pf_on["delivered"]
    times = np.sort(delivered[delivered.node == 1].time.to_numpy())
    after = times[times > FAIL]
    stall = np.diff(np.concatenate([[times[times <= FAIL].max()], after])).max()
    assert stall <= RTO + 0.1, stall
    assert delivered[delivered.node == 1]["size"].sum() == pf_on["total"]


# ---------------------------------------------------------------- bug 3

HB_FAIL = 5.0


@pytest.mark.parametrize(
    ("mode", "heartbeats", "data_at", "changed_at"),
    [
        # PFMR 0: the first unanswered HEARTBEAT (sent at 5.05 s, RTO 1 s) makes the
        # primary potentially failed; the data written at 5.8 s would wait for the
        # T3-rtx expiry at 6.8 s.
        ("potentially-failed", [5.05], 5.8, 6.05),
        # Path.Max.Retrans 1: the second (sent at 6.1 s, RTO backed off to 2 s) makes it
        # inactive; the data written at 7.0 s would wait for the expiry at 9.0 s.
        ("inactive", [5.05, 6.1], 7.0, 8.1),
    ],
)
def test_heartbeat_timeout_that_moves_the_data_path_sends_at_once(
    mode, heartbeats, data_at, changed_at
):
    """A's primary dies; HEARTBEATs to it (REQUEST HEARTBEAT) go unanswered; meanwhile the
    application writes more than the primary's cwnd, so part waits. The HEARTBEAT
    timeout that makes the primary potentially failed or inactive moves new data to the
    alternate, which has an open cwnd and peer window: what waited goes there at that
    instant, not at the primary's T3-rtx expiry (before the fix: nothing until then)."""
    with simulation(seed=2, run=1) as ns:
        s = "ns3::SctpSocket::"
        if mode == "potentially-failed":
            ns.Config.SetDefault(s + "PotentiallyFailedMaxRetrans", ns.UintegerValue(0))
        else:
            ns.Config.SetDefault(s + "PathMaxRetrans", ns.UintegerValue(1))
        c = cxx()
        net = multihomed.two_networks(ns, rate="10Mbps", delay="10ms")
        recorder = SctpRecorder()
        recorder.watch_node(net.a, 0)
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
        n = 40
        for k in range(n):
            sender.At(data_at, 1000, 0, False, k + 1)
        ns.LinkFailure.ScheduleUnplug(ns.Seconds(HB_FAIL), net.a_devices[0])
        for at in heartbeats:
            run_until(at)
            assert client.GetDataPathIndex() == 0 and client.GetPath(1).IsConfirmed()
            assert client.RequestHeartbeat(0) == 0
        run_until(changed_at + 4.0)
        paths = recorder.paths()
        event = "POTENTIALLY_FAILED" if mode == "potentially-failed" else "UNREACHABLE"
        changed = paths[(paths.path == 0) & (paths.event == event)].time.to_numpy()
        # The HEARTBEAT timeout (one RTO after the last HEARTBEAT), before any T3-rtx
        # expiry on the primary.
        assert len(changed) >= 1 and changed[0] == pytest.approx(changed_at, abs=1e-6)
        moved = paths[(paths.path == 1) & (paths.event == "DATA_PATH")].time.to_numpy()
        assert len(moved) == 1 and moved[0] == changed[0]
        chunks = recorder.chunks()
        data = chunks[chunks.chunk == "DATA"]
        on_primary = data[data.path == 0]
        assert len(on_primary) > 0 and on_primary.time.min() == pytest.approx(data_at)
        assert on_primary.time.max() < changed[0]  # its cwnd was full: the rest waited
        alternate = data[(data.path == 1) & ~data.retransmission].time.to_numpy()
        assert len(alternate) > 0
        assert alternate[0] - changed[0] < 0.001, alternate[0] - changed[0]
        assert int(collector.Count()) == n
        del net, recorder, server, collector, client, sender
    gc.collect()
