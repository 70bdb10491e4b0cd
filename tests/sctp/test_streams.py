"""Multi-streaming, unordered delivery, fragmentation and reassembly, bidirectional data
(RFC 9260 sections 6.5, 6.6, 6.9)."""

from __future__ import annotations

import gc

import pytest

from tests.sctp._support import cxx, make_pair, needs_tshark, tshark_fields
from transportlab.ns3.simulation import run_until, simulation

PORT = 5000


def setup(ns, pair, n_streams: int = 2):
    t = cxx()
    server = pair.socket(1)
    server.SetAttribute("MaxInboundStreams", ns.UintegerValue(n_streams))
    server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
    collector = t.Collector()
    collector.Listen(server)
    client = pair.socket(0)
    client.SetAttribute("OutboundStreams", ns.UintegerValue(n_streams))
    sender = t.Sender()
    sender.socket = client
    sender.ConnectAt(0.0, pair.endpoint(1, PORT))  # sockets may send only once Run() began
    return server, client, collector, sender


def identify(collector, candidates):
    """Message index of each received message (by its content pattern)."""
    out = []
    for j in range(int(collector.Count())):
        match = [i for i in candidates if collector.Matches(j, i)]
        assert len(match) == 1, f"received message {j} matches {match}"
        out.append(match[0])
    return out


def run_messages(messages, drops, stop=5.0, rate="10Mbps", delay="10ms"):
    """messages: list of (time, size, stream, unordered); message i uses pattern seed i."""
    with simulation(seed=1, run=1) as ns:
        pair = make_pair(rate, delay)
        server, client, collector, sender = setup(ns, pair)
        for i, (t, size, sid, unordered) in enumerate(messages):
            sender.At(t, size, sid, unordered, i)
        if drops:
            pair.drop_received(1, drops)
        run_until(stop)
        order = identify(collector, range(len(messages)))
        times = [float(collector.times[j]) for j in range(int(collector.Count()))]
        sids = [int(collector.sids[j]) for j in range(int(collector.Count()))]
        sent_times = [float(x) for x in sender.sendTimes]
        assert int(sender.failed) == 0
        invariants = (
            str(client.CheckInvariants()),
            str(ns.DynamicCast[ns.SctpSocket](collector.accepted[0]).CheckInvariants()),
        )
        del pair, server, client, collector, sender
    gc.collect()
    return order, dict(zip(order, times, strict=True)), sids, sent_times, invariants


def test_loss_on_one_stream_does_not_delay_the_other():
    # Message i goes at 0.5 + 20 ms * i on stream i % 2; each travels alone in a packet.
    # Received packet 6 is message 4 (stream 0): INIT and COOKIE ECHO are packets 0 and 1.
    messages = [(0.5 + 0.02 * i, 1000, i % 2, False) for i in range(20)]
    order, delivered, sids, sent, invariants = run_messages(messages, drops=[6])
    assert invariants == ("", "")
    assert sorted(order) == list(range(20))
    # The SctpReceiveInfoTag on every message names its stream.
    assert sids == [i % 2 for i in order]
    one_way = 0.010 + 1062 * 8 / 10e6  # propagation + transmission of a 1062-byte frame
    late = {i: delivered[i] - sent[i] for i in range(20)}
    # Stream 1 never waits: every message arrives after one one-way delay.
    for i in range(1, 20, 2):
        assert late[i] == pytest.approx(one_way, abs=2e-3), (i, late[i])
    # Message 4 was lost; 6 (stream 0, sent after it) waits for its retransmission.
    assert late[4] > 0.05
    assert late[6] > late[5] + 0.02
    assert order.index(5) < order.index(4) < order.index(6)
    # Per-stream order holds.
    for stream in (0, 1):
        seq = [i for i in order if i % 2 == stream]
        assert seq == sorted(seq)


@pytest.mark.parametrize("unordered", [True, False])
def test_unordered_messages_bypass_a_loss(unordered):
    messages = [(0.5 + 0.02 * i, 800, 0, unordered) for i in range(12)]
    order, delivered, _, sent, invariants = run_messages(messages, drops=[6])
    assert invariants == ("", "")
    assert sorted(order) == list(range(12))
    if unordered:
        # Messages sent after the lost one are delivered before it, on arrival.
        assert order.index(5) < order.index(4)
        assert delivered[5] - sent[5] < 0.02
    else:
        assert order == list(range(12))
        assert delivered[5] - sent[5] > 0.02


def test_twenty_kilobyte_message_reassembled_intact():
    order, _, _, _, invariants = run_messages(
        [(0.5, 20000, 0, False), (0.6, 5000, 1, False)], drops=[5]
    )  # lose the 4th fragment
    assert invariants == ("", "")
    assert order == [0, 1]


@needs_tshark
def test_fragments_on_the_wire(tmp_path):
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup(ns, pair)
        sender.At(0.5, 20000, 0, False, 7)
        pair.p2p.EnablePcap(str(tmp_path / "frag"), pair.devices.Get(0), True)
        run_until(3.0)
        assert int(collector.Count()) == 1
        assert int(collector.Size(0)) == 20000 and collector.Matches(0, 7)
        del pair, server, client, collector, sender
    gc.collect()
    rows = tshark_fields(
        tmp_path / "frag-0-0.pcap",
        "sctp.data_tsn",
        "sctp.data_b_bit",
        "sctp.data_e_bit",
        "sctp.data_ssn",
        "sctp.checksum.status",
    )
    data = [r for r in rows if r[0]]
    assert len(data) == 14  # ceil(20000 / 1452)
    assert [r[1] for r in data] == ["1"] + ["0"] * 13
    assert [r[2] for r in data] == ["0"] * 13 + ["1"]
    tsns = [int(r[0]) for r in data]
    assert tsns == list(range(tsns[0], tsns[0] + 14))  # consecutive TSNs, one SSN
    assert {r[3] for r in data} == {"0"}
    assert {r[4] for r in rows} == {"1"}


def test_bidirectional_data_on_one_association():
    with simulation(seed=5, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        t = cxx()
        server, client, collector, sender = setup(ns, pair)
        back = t.Collector()
        back.Attach(client)
        for i in range(30):
            sender.At(0.5 + 0.005 * i, 1200, 0, False, i)
        run_until(0.45)
        accepted = collector.accepted[0]
        reply = t.Sender()
        reply.socket = accepted
        for i in range(30):
            reply.At(0.5 + 0.005 * i, 900, 1, False, 100 + i)
        run_until(3.0)
        assert identify(collector, range(30)) == list(range(30))
        assert identify(back, range(100, 130)) == list(range(100, 130))
        del pair, server, client, collector, sender, back, reply, accepted
    gc.collect()


def test_zero_window_probe_and_window_update():
    """A receiver that stops reading closes its window; the sender probes with one chunk
    at a time (6.1 rule A) and resumes when the reader's window update arrives."""
    with simulation(seed=2, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup(ns, pair)
        server.SetAttribute("RcvBufSize", ns.UintegerValue(8000))
        collector.HoldUntil(2.0)
        for i in range(40):
            sender.At(0.5, 1000, 0, False, i)
        run_until(1.9)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        assert int(collector.Count()) == 0
        assert accepted.GetRxAvailable() <= 8000
        assert client.GetPeerRwnd() < 1000  # the sender sees a closed window
        stalled_at = accepted.GetCumulativeTsnReceived()
        run_until(6.0)
        assert identify(collector, range(40)) == list(range(40))
        assert accepted.GetCumulativeTsnReceived() != stalled_at
        assert client.CheckInvariants() == "" and accepted.CheckInvariants() == ""
        del pair, server, client, collector, sender, accepted
    gc.collect()
