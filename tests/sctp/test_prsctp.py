"""PR-SCTP (RFC 3758) with the RFC 7496 policies: abandoned messages skipped by FORWARD
TSN, the receiver's cumulative TSN advancing over them, lifetime (timed reliability) with
unordered delivery, limited retransmissions (k-rtx) and the negotiation."""

from __future__ import annotations

import gc

import numpy as np

from tests.sctp._support import (
    assert_pcap_clean,
    cxx,
    make_pair,
    needs_tshark,
    tshark_fields,
)
from transportlab.ns3.sctp_recording import SctpRecorder
from transportlab.ns3.simulation import run_until, simulation

PORT = 6000
NONE, TTL, RTX = 0, 1, 2
SIZE = 200


def _seed_of(first_byte: int) -> int:
    """Inverse of the pattern's first byte, seed * 31 mod 256 (223 = 31^-1 mod 256)."""
    return (first_byte * 223) & 0xFF


def _setup(ns, pair, client_pr: bool = True, server_pr: bool = True):
    c = cxx()
    recorder = SctpRecorder()
    recorder.watch_node(pair.nodes.Get(0), 0)
    recorder.watch_node(pair.nodes.Get(1), 1)
    server = pair.socket(1)
    server.SetAttribute("PrSctpEnabled", ns.BooleanValue(server_pr))
    server.SetAttribute("OutboundStreams", ns.UintegerValue(2))
    server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
    collector = c.Collector()
    collector.Listen(server)
    client = pair.socket(0)
    client.SetAttribute("PrSctpEnabled", ns.BooleanValue(client_pr))
    client.SetAttribute("OutboundStreams", ns.UintegerValue(2))
    sender = c.Sender()
    sender.socket = client
    sender.ConnectAt(0.1, pair.endpoint(1, PORT))
    return recorder, server, collector, client, sender


def _delivered(collector) -> list[int]:
    seeds = []
    for i in range(int(collector.Count())):
        seed = _seed_of(int(collector.FirstSeed(i)))  # the first byte
        assert collector.Matches(i, seed), f"message {i} corrupted"
        seeds.append(seed)
    return seeds


@needs_tshark
def test_abandoned_message_is_skipped_by_forward_tsn(tmp_path):
    """k-rtx with k = 0: the lost message is never retransmitted but abandoned; FORWARD
    TSN carries the new cumulative TSN and the stream/SSN of the skipped ordered message;
    the receiver's cumulative TSN passes it and later messages of the same stream are
    delivered."""
    with simulation(seed=5, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        recorder, server, collector, client, sender = _setup(ns, pair)
        n = 40
        for k in range(n):
            sender.AtPr(0.5 + 0.02 * k, SIZE, k % 2, False, k + 1, RTX, 0)
        # Arrivals at B: INIT, COOKIE ECHO, then one DATA packet per message.
        pair.drop_received(1, [12])
        pair.p2p.EnablePcap(str(tmp_path / "fwd"), pair.devices.Get(0), True)
        run_until(3.0)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        assert client.IsPrSctpActive() and accepted.IsPrSctpActive()
        abandoned = recorder.abandoned()
        assert len(abandoned) == 1 and client.GetAbandonedMessageCount() == 1
        row = abandoned.iloc[0]
        assert row.policy == "RTX" and row.node == 0 and row["size"] == SIZE
        skipped_tsn = int(row.first_tsn)
        delivered = _delivered(collector)
        assert len(delivered) == n - 1 and len(set(delivered)) == n - 1
        missing = sorted(set(range(1, n + 1)) - set(delivered))
        assert len(missing) == 1
        skipped_seed = missing[0]
        assert int(row.stream) == (skipped_seed - 1) % 2
        # Every DATA chunk went out once: k = 0 allows no retransmission.
        chunks = recorder.chunks()
        data = chunks[(chunks.node == 0) & (chunks.chunk == "DATA")]
        assert not data.retransmission.any()
        assert client.GetForwardTsnSentCount() >= 1
        assert accepted.GetForwardTsnReceivedCount() >= 1
        highest = int(data.tsn.max())
        assert accepted.GetCumulativeTsnReceived() == highest
        assert client.GetCumulativeTsnAcked() == highest
        # Messages after the gap on the skipped message's stream were delivered in order.
        sids = np.array(list(collector.sids))
        ssns = np.array(list(collector.ssns))
        same_stream = ssns[sids == row.stream]
        assert np.all(np.diff(same_stream.astype(int)) >= 1)
        assert int(row.ssn) not in set(same_stream.tolist())
        assert same_stream.max() > row.ssn
        del pair, recorder, server, collector, client, sender, accepted
    gc.collect()
    pcap = tmp_path / "fwd-0-0.pcap"
    assert_pcap_clean(pcap)
    rows = tshark_fields(
        pcap,
        "sctp.chunk_type",
        "sctp.forward_tsn_tsn",
        "sctp.forward_tsn_sid",
        "sctp.forward_tsn_ssn",
    )
    forward = [r for r in rows if "192" in r[0].split(",")]
    assert forward, "no FORWARD TSN in the pcap"
    first = forward[0]
    assert int(first[1]) == skipped_tsn  # the new cumulative TSN is the skipped one
    assert int(first[2]) == int(row.stream) and int(first[3]) == int(row.ssn)


def test_lifetime_bounds_the_delay_of_unordered_messages():
    """Timed reliability (TTL) with unordered delivery over a lossy link: a message is
    (re)transmitted only within its lifetime, so every delivered message arrives within
    lifetime + one-way delay; the rest are abandoned; nothing is delivered twice."""
    lifetime = 0.15
    with simulation(seed=6, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        em = ns.CreateObject[ns.RateErrorModel]()
        em.SetAttribute("ErrorRate", ns.DoubleValue(0.15))
        em.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
        recorder, server, collector, client, sender = _setup(ns, pair)
        n = 200
        for k in range(n):
            sender.AtPr(0.5 + 0.02 * k, SIZE, 0, True, k + 1, TTL, int(lifetime * 1000))
        run_until(0.45)  # lossless handshake, then 15 % loss on the data path
        pair.devices.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
        run_until(8.0)
        delivered = _delivered(collector)
        assert len(set(delivered)) == len(delivered)
        abandoned = recorder.abandoned()
        assert set(abandoned.policy) == {"TTL"}
        # Every message is delivered or abandoned. A message can be both: its last
        # transmission arrived but its SACK came back after the lifetime had expired.
        chunks = recorder.chunks()
        data = chunks[(chunks.node == 0) & (chunks.chunk == "DATA")]
        undelivered = set(data.tsn) - set(int(t) for t in collector.tsns)
        assert undelivered and undelivered <= set(abandoned.first_tsn)
        assert len(delivered) + len(abandoned) >= n
        assert len(abandoned) < 0.15 * n
        send_times = {k + 1: 0.5 + 0.02 * k for k in range(n)}
        delays = np.array([collector.times[i] - send_times[s] for i, s in enumerate(delivered)])
        assert delays.max() <= lifetime + 0.010 + 0.002
        assert data.retransmission.any()  # some losses were recovered within the lifetime
        highest = int(data.tsn.max())
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        assert accepted.GetCumulativeTsnReceived() == highest
        del pair, recorder, server, collector, client, sender, accepted, em


def test_k_rtx_limits_transmissions_per_chunk():
    """k-rtx with k = 1: no DATA chunk is sent more than twice."""
    with simulation(seed=7, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        recorder, server, collector, client, sender = _setup(ns, pair)
        n = 150
        for k in range(n):
            sender.AtPr(0.5 + 0.02 * k, SIZE, 0, False, k + 1, RTX, 1)
        run_until(0.45)
        em = ns.CreateObject[ns.RateErrorModel]()
        em.SetAttribute("ErrorRate", ns.DoubleValue(0.3))
        em.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
        pair.devices.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
        run_until(8.0)
        chunks = recorder.chunks()
        data = chunks[(chunks.node == 0) & (chunks.chunk == "DATA")]
        per_tsn = data.groupby("tsn").size()
        assert per_tsn.max() == 2
        abandoned = recorder.abandoned()
        assert len(abandoned) > 0 and set(abandoned.policy) == {"RTX"}
        undelivered = set(data.tsn) - set(int(t) for t in collector.tsns)
        assert undelivered and undelivered <= set(abandoned.first_tsn)
        assert len(set(_delivered(collector))) + len(abandoned) >= n
        del pair, recorder, server, collector, client, sender, em


def test_without_peer_support_messages_stay_reliable():
    """RFC 3758 3.3: PR-SCTP is used only if both ends announce Forward-TSN-Supported;
    otherwise the policies are ignored and every message is delivered."""
    with simulation(seed=8, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        recorder, server, collector, client, sender = _setup(ns, pair, server_pr=False)
        for k in range(30):
            sender.AtPr(0.5 + 0.02 * k, SIZE, 0, False, k + 1, RTX, 0)
        pair.drop_received(1, [8, 9])
        run_until(4.0)
        assert not client.IsPrSctpActive()
        assert sorted(_delivered(collector)) == list(range(1, 31))
        assert len(recorder.abandoned()) == 0
        assert client.GetForwardTsnSentCount() == 0
        del pair, recorder, server, collector, client, sender


def test_priority_policy_drops_less_important_queued_messages():
    """RFC 7496 4.3: a message that does not fit the send buffer makes room by
    abandoning queued messages of lower priority (a higher value); none of them is
    sent, the important one is delivered."""
    with simulation(seed=9, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        recorder, server, collector, client, sender = _setup(ns, pair)
        client.SetAttribute("SndBufSize", ns.UintegerValue(2000))
        # A one-packet initial window: message 1 goes out, 2 and 3 wait in the buffer.
        client.SetAttribute("InitialCwnd", ns.UintegerValue(700))
        priority = 3
        for k, value in enumerate((9, 5, 9)):  # 3 x 600 bytes fit the 2000-byte buffer
            sender.AtPr(0.5 + 0.0001 * k, 600, 0, False, k + 1, priority, value)
        sender.AtPr(0.5005, 600, 0, False, 4, priority, 1)
        run_until(2.0)
        assert sender.sent == 4 and sender.failed == 0
        abandoned = recorder.abandoned()
        assert len(abandoned) == 1 and abandoned.iloc[0].policy == "PRIORITY"
        assert int(abandoned.iloc[0].first_tsn) == 0  # never sent
        assert client.GetAbandonedUnsentCount() == 1
        assert sorted(_delivered(collector)) == [1, 2, 4]  # the newest priority-9 one went
        del pair, recorder, server, collector, client, sender
