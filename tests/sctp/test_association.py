"""Association life: graceful shutdown, ABORT, INIT collision and restart (RFC 9260
section 5.2), INIT retransmission limits, stale cookies, out-of-the-blue packets (8.4)
and the verification tag rules (8.5)."""

from __future__ import annotations

import gc
import struct

import pytest

from tests.sctp._support import (
    assert_pcap_clean,
    chunk,
    chunk_sequence,
    cxx,
    data_chunk,
    init_chunk,
    injector,
    make_pair,
    needs_tshark,
    packet,
    tshark_fields,
)
from tests.sctp.test_streams import identify, setup
from transportlab.ns3.simulation import run_until, simulation

CLOSED, LISTEN, COOKIE_WAIT, COOKIE_ECHOED, ESTABLISHED = 0, 1, 2, 3, 4
SHUTDOWN_PENDING, SHUTDOWN_SENT, SHUTDOWN_RECEIVED, SHUTDOWN_ACK_SENT = 5, 6, 7, 8
PORT = 5000


@pytest.mark.slow
def test_graceful_shutdown_delivers_everything_first():
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        t = cxx()
        server, client, collector, sender = setup(ns, pair)
        log = t.StateLog()
        log.Watch(client)
        for i in range(50):
            sender.At(0.5, 1400, 0, False, i)  # queued at once, mostly not yet sent
        sender.CloseAt(0.5)
        run_until(5.0)
        assert identify(collector, range(50)) == list(range(50))
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        assert client.GetState() == CLOSED and accepted.GetState() == CLOSED
        assert int(collector.normalCloses) == 1 and int(collector.errorCloses) == 0
        assert list(log.states) == [
            COOKIE_WAIT,
            COOKIE_ECHOED,
            ESTABLISHED,
            SHUTDOWN_PENDING,
            SHUTDOWN_SENT,
            CLOSED,
        ]
        del pair, server, client, collector, sender, accepted


@needs_tshark
def test_abort_reaches_the_peer(tmp_path):
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup(ns, pair)
        for i in range(5):
            sender.At(0.5, 1000, 0, False, i)
        sender.AbortAt(1.0)
        pair.p2p.EnablePcap(str(tmp_path / "abort"), pair.devices.Get(0), True)
        run_until(2.0)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        assert client.GetState() == CLOSED and accepted.GetState() == CLOSED
        assert int(collector.errorCloses) == 1
        assert accepted.GetLastAbortCause() == 12  # User-Initiated Abort
        del pair, server, client, collector, sender, accepted
    gc.collect()
    pcap = tmp_path / "abort-0-0.pcap"
    assert_pcap_clean(pcap)
    assert chunk_sequence(pcap)[-1] == "ABORT"
    rows = tshark_fields(pcap, "sctp.chunk_type", "sctp.cause_code", "sctp.abort_t_bit")
    assert rows[-1] == ["6", "0x000c", "0"]  # cause 12: User-Initiated Abort


def test_init_collision_gives_one_association():
    with simulation(seed=7, run=1):
        pair = make_pair("10Mbps", "10ms")
        t = cxx()
        a, b = pair.socket(0), pair.socket(1)
        a.Bind(pair.endpoint(0, PORT))
        b.Bind(pair.endpoint(1, PORT))
        send_a, send_b = t.Sender(), t.Sender()
        send_a.socket, send_b.socket = a, b
        send_a.ConnectAt(0.0, pair.endpoint(1, PORT))
        send_b.ConnectAt(0.0, pair.endpoint(0, PORT))  # the INITs cross on the link
        got_a, got_b = t.Collector(), t.Collector()
        got_a.Attach(a)
        got_b.Attach(b)
        for i in range(3):
            send_a.At(0.5, 500, 0, False, i)
            send_b.At(0.5, 500, 0, False, 10 + i)
        run_until(2.0)
        assert a.GetState() == ESTABLISHED and b.GetState() == ESTABLISHED
        assert a.GetLocalVerificationTag() == b.GetPeerVerificationTag()
        assert b.GetLocalVerificationTag() == a.GetPeerVerificationTag()
        assert identify(got_b, range(3)) == [0, 1, 2]
        assert identify(got_a, range(10, 13)) == [10, 11, 12]
        del pair, a, b, send_a, send_b, got_a, got_b


def test_peer_restart_is_recognized_by_tie_tags():
    with simulation(seed=3, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        t = cxx()
        server, client, collector, sender = setup(ns, pair)
        sender.At(0.5, 1000, 0, False, 0)
        run_until(0.9)
        local_port = client.GetLocalPort()
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        old_tags = (accepted.GetLocalVerificationTag(), accepted.GetPeerVerificationTag())
        # The client host "crashes": its association vanishes without a word to the peer.
        pair.sctp(0).RemoveSocket(client)
        reborn = pair.socket(0)
        reborn.Bind(pair.endpoint(0, local_port))
        again = t.Sender()
        again.socket = reborn
        again.ConnectAt(1.0, pair.endpoint(1, PORT))
        again.At(1.5, 1000, 0, False, 1)
        run_until(3.0)
        assert accepted.GetRestartCount() == 1
        assert accepted.GetState() == ESTABLISHED and reborn.GetState() == ESTABLISHED
        assert accepted.GetPeerVerificationTag() == reborn.GetLocalVerificationTag()
        new_tags = (accepted.GetLocalVerificationTag(), accepted.GetPeerVerificationTag())
        assert new_tags[0] != old_tags[0] and new_tags[1] != old_tags[1]
        assert len(collector.accepted) == 1  # the same association object, restarted
        assert identify(collector, range(2)) == [0, 1]
        assert accepted.CheckInvariants() == ""
        del pair, server, client, collector, sender, accepted, reborn, again


@needs_tshark
def test_init_retransmission_gives_up_after_max_init_retransmits(tmp_path):
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        client = pair.socket(0)
        client.SetAttribute("MaxInitRetransmits", ns.UintegerValue(2))
        client.SetAttribute("RtoInitial", ns.TimeValue(ns.MilliSeconds(100)))
        t = cxx()
        sender = t.Sender()
        sender.socket = client
        sender.ConnectAt(0.0, pair.endpoint(1, PORT))
        pair.drop_received(1, list(range(0, 20)))  # the peer never hears anything
        pair.p2p.EnablePcap(str(tmp_path / "t1"), pair.devices.Get(0), True)
        run_until(0.65)
        assert client.GetState() == COOKIE_WAIT
        run_until(2.0)
        assert client.GetState() == CLOSED
        del pair, client, sender
    gc.collect()
    rows = tshark_fields(tmp_path / "t1-0-0.pcap", "frame.time_relative", "sctp.chunk_type")
    assert [r[1] for r in rows] == ["1", "1", "1"]  # INIT + 2 retransmissions
    times = [float(r[0]) for r in rows]
    assert abs(times[1] - 0.1) < 1e-6 and abs(times[2] - 0.3) < 1e-6  # T1 doubles


@needs_tshark
def test_stale_cookie_then_cookie_preservative(tmp_path):
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup(ns, pair)
        # The cookie ages ~20 ms (INIT ACK out, COOKIE ECHO back) but lives 5 ms.
        server.SetAttribute("ValidCookieLife", ns.TimeValue(ns.MilliSeconds(5)))
        sender.At(0.5, 1000, 0, False, 0)
        pair.p2p.EnablePcap(str(tmp_path / "stale"), pair.devices.Get(0), True)
        run_until(2.0)
        assert client.GetState() == ESTABLISHED
        assert identify(collector, range(1)) == [0]
        del pair, server, client, collector, sender
    gc.collect()
    pcap = tmp_path / "stale-0-0.pcap"
    assert_pcap_clean(pcap)
    sequence = chunk_sequence(pcap)
    assert sequence[:7] == [
        "INIT",
        "INIT_ACK",
        "COOKIE_ECHO",
        "ERROR",
        "INIT",
        "INIT_ACK",
        "COOKIE_ECHO",
    ]
    rows = tshark_fields(pcap, "sctp.cause_code", "sctp.parameter_type")
    assert rows[3][0] == "0x0003"  # Stale Cookie Error
    assert "0x0009" in rows[4][1].split(",")  # Cookie Preservative in the second INIT


@needs_tshark
def test_out_of_the_blue_packets(tmp_path):
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        inj = injector(pair, 1)
        a, b = pair.address(0), pair.address(1)
        at = 0.1
        cases = [
            packet(40000, 7777, 0, init_chunk(0xCAFE0001)),  # -> ABORT, tag 0xCAFE0001
            packet(40000, 7777, 0x12345678, data_chunk(5, b"hello")),  # -> ABORT, T bit
            packet(40000, 7777, 0x0BADF00D, chunk(8, 0, b"")),  # SHUTDOWN ACK -> SD COMPLETE
            packet(40000, 7777, 0x1, chunk(6, 0, b"")),  # ABORT: silence
            packet(40000, 7777, 0x1, chunk(14, 1, b"")),  # SHUTDOWN COMPLETE: silence
            packet(40000, 7777, 0x1, chunk(11, 0, b"")),  # COOKIE ACK: silence
        ]
        for i, raw in enumerate(cases):
            inj.Schedule(ns.Seconds(at + 0.1 * i), raw, len(raw), a, b, True)
        bad = packet(40000, 7777, 0x99, data_chunk(1, b"x"))
        inj.Schedule(ns.Seconds(1.0), bad, len(bad), a, b, False)  # zero CRC: invalid
        pair.p2p.EnablePcap(str(tmp_path / "ootb"), pair.devices.Get(1), True)
        run_until(2.0)
        l4 = pair.sctp(1)
        assert l4.GetChecksumErrors() == 1
        assert l4.GetOutOfTheBluePackets() == 6
        del pair, inj, l4
    gc.collect()
    rows = tshark_fields(
        tmp_path / "ootb-1-0.pcap",
        "sctp.chunk_type",
        "sctp.verification_tag",
        "sctp.abort_t_bit",
        "sctp.shutdown_complete_t_bit",
        "sctp.srcport",
        "sctp.dstport",
        "sctp.checksum.status",
    )
    assert [r[0] for r in rows] == ["6", "6", "14"]
    assert rows[0][1:3] == ["0xcafe0001", "0"]
    assert rows[1][1:3] == ["0x12345678", "1"]
    assert rows[2][1] == "0x0badf00d" and rows[2][3] == "1"
    assert all(r[4:6] == ["7777", "40000"] and r[6] == "1" for r in rows)


def test_wrong_tags_and_forged_cookies_change_nothing():
    with simulation(seed=9, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup(ns, pair)
        for i in range(40):
            sender.At(0.5 + 0.01 * i, 1000, 0, False, i)
        run_until(0.6)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        good = accepted.GetLocalVerificationTag()
        wrong = (good + 1) & 0xFFFFFFFF
        peer = accepted.GetPeerVerificationTag()
        cport = client.GetLocalPort()
        inj = injector(pair, 1)
        a, b = pair.address(0), pair.address(1)
        tsn = accepted.GetCumulativeTsnReceived() + 1
        attacks = [
            packet(cport, PORT, wrong, data_chunk(tsn, b"forged")),  # wrong tag
            packet(cport, PORT, wrong, chunk(6, 0, b"")),  # ABORT, wrong tag
            packet(cport, PORT, good, chunk(6, 1, b"")),  # T bit needs peer tag
            packet(cport, PORT, wrong, chunk(7, 0, struct.pack("!I", tsn))),  # SHUTDOWN
            packet(41000, PORT, 0x4242, chunk(10, 0, bytes(120))),  # forged cookie
            packet(cport, PORT, good, chunk(10, 0, bytes(100))),  # forged, in assoc
            packet(cport, PORT, peer, chunk(14, 0, b"")),  # SHUTDOWN COMPLETE
        ]
        for i, raw in enumerate(attacks):
            inj.Schedule(ns.Seconds(0.6 + 0.02 * i), raw, len(raw), a, b, True)
        inj.Watch(accepted)
        run_until(3.0)
        assert accepted.GetState() == ESTABLISHED
        assert len(collector.accepted) == 1
        assert identify(collector, range(40)) == list(range(40))
        assert inj.GetFirstViolation() == ""
        assert accepted.GetLocalVerificationTag() == good
        del pair, server, client, collector, sender, accepted, inj


@needs_tshark
def test_both_ends_shut_down_at_once(tmp_path):
    with simulation(seed=2, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        t = cxx()
        server, client, collector, sender = setup(ns, pair)
        sender.At(0.3, 1000, 0, False, 0)
        run_until(0.5)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        other = t.Sender()
        other.socket = accepted
        log = t.StateLog()
        log.Watch(client)
        sender.CloseAt(1.0)
        other.CloseAt(1.0)  # the two SHUTDOWN chunks cross on the link
        pair.p2p.EnablePcap(str(tmp_path / "both"), pair.devices.Get(0), True)
        run_until(3.0)
        assert client.GetState() == CLOSED and accepted.GetState() == CLOSED
        assert list(log.states) == [SHUTDOWN_PENDING, SHUTDOWN_SENT, SHUTDOWN_ACK_SENT, CLOSED]
        assert identify(collector, range(1)) == [0]
        del pair, server, client, collector, sender, accepted, other, log
    gc.collect()
    sequence = chunk_sequence(tmp_path / "both-0-0.pcap")
    assert sequence[-6:] == [
        "SHUTDOWN",
        "SHUTDOWN",
        "SHUTDOWN_ACK",
        "SHUTDOWN_ACK",
        "SHUTDOWN_COMPLETE",
        "SHUTDOWN_COMPLETE",
    ]


@needs_tshark
def test_unrecognized_chunks_and_parameters_by_their_high_bits(tmp_path):
    """RFC 9260 3.2 and 3.2.1: the two high-order bits of an unknown chunk or parameter
    type say whether to skip it and whether to report it."""
    with simulation(seed=4, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup(ns, pair)
        run_until(0.4)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        tag = accepted.GetLocalVerificationTag()
        cport = client.GetLocalPort()
        inj = injector(pair, 1)
        a, b = pair.address(0), pair.address(1)

        def heartbeat(info: bytes) -> bytes:
            return chunk(4, 0, struct.pack("!HH", 1, 4 + len(info)) + info)

        packets = [
            # 0xC1 = 11: skip and report; the HEARTBEAT after it is answered.
            packet(cport, PORT, tag, chunk(0xC1, 0, b"abcd"), heartbeat(b"one")),
            # 0x41 = 01: stop processing and report; the HEARTBEAT is not processed.
            packet(cport, PORT, tag, chunk(0x41, 0, b""), heartbeat(b"two")),
            # 0x81 = 10: skip silently; the HEARTBEAT is answered.
            packet(cport, PORT, tag, chunk(0x81, 0, b"zz"), heartbeat(b"three")),
            # INIT to the listener with parameters 0xC005 (skip, report) and 0x8006 (skip).
            packet(
                42000,
                PORT,
                0,
                init_chunk(0xABCD0001, params=struct.pack("!HHIHHI", 0xC005, 8, 1, 0x8006, 8, 2)),
            ),
            # INIT with a Host Name Address: aborted (RFC 9260 5.1.2).
            packet(
                42001, PORT, 0, init_chunk(0xABCD0002, params=struct.pack("!HH4s", 11, 8, b"host"))
            ),
        ]
        for i, raw in enumerate(packets):
            inj.Schedule(ns.Seconds(0.5 + 0.05 * i), raw, len(raw), a, b, True)
        pair.p2p.EnablePcap(str(tmp_path / "unk"), pair.devices.Get(1), True)
        run_until(2.0)
        assert accepted.GetState() == ESTABLISHED
        del pair, server, client, collector, sender, accepted, inj
    gc.collect()
    rows = tshark_fields(
        tmp_path / "unk-1-0.pcap",
        "sctp.chunk_type",
        "sctp.cause_code",
        "sctp.parameter_type",
        "sctp.verification_tag",
        "sctp.dstport",
    )
    errors = [r for r in rows if "9" in r[0].split(",")]
    assert len(errors) == 2  # for 0xC1 and 0x41; 0x81 is skipped silently
    assert all(r[1] == "0x0006" for r in errors)  # Unrecognized Chunk Type
    assert sum(r[0].split(",").count("5") for r in rows) == 2  # HEARTBEAT ACKs: one, three
    init_ack = [r for r in rows if r[0] == "2"]
    assert len(init_ack) == 1 and init_ack[0][4] == "42000"
    assert "0x0008" in init_ack[0][2].split(",")  # Unrecognized Parameter reported
    aborts = [r for r in rows if r[0] == "6"]
    assert aborts[-1][3] == "0xabcd0002" and aborts[-1][1] == "0x0005"  # Unresolvable Address
