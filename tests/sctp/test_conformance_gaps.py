"""Issue 14's Medium and Low conformance gaps (RFC 9260), each with a test that failed
before its fix:

* Medium, 5.2.2: Tie-Tags are random values kept in the TCB, not the live verification
  tags (the cookie is authenticated, not encrypted);
* Medium, 6.1 A: zero window probes that time out while the peer keeps SACKing with
  a_rwnd 0 do not count toward Association.Max.Retrans;
* Medium: Send() of a message larger than the peer's receive buffer is refused
  (ERROR_MSGSIZE) instead of never being delivered;
* Low, 8.5.1 B: [SACK][ABORT with the T bit] carrying the receiver's own tag is discarded;
* Low, 6.2.1: a SACK whose gap blocks acknowledge TSNs never sent aborts the association;
* Low: an ERROR chunk reporting unrecognized chunks fits in one packet (and in 16 bits).
"""

from __future__ import annotations

import gc
import struct

from tests.sctp._support import chunk, cxx, injector, make_pair, packet
from tests.sctp.test_cookie_security import _capture, _chunks, _raw
from tests.sctp.test_streams import identify
from transportlab.ns3.simulation import simulation

PORT = 5000
ESTABLISHED = 4
CLOSED = 0


def _pair(ns, server_rcvbuf: int | None = None):
    c = cxx()
    pair = make_pair("10Mbps", "5ms")
    server = pair.socket(1)
    if server_rcvbuf is not None:
        server.SetAttribute("RcvBufSize", ns.UintegerValue(server_rcvbuf))
    server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
    collector = c.Collector()
    collector.Listen(server)
    client = pair.socket(0)
    sender = c.Sender()
    sender.socket = client
    sender.ConnectAt(0.1, pair.endpoint(1, PORT))
    return pair, server, client, collector, sender


def _run_to(ns, t: float) -> None:
    ns.Simulator.Stop(ns.Seconds(t) - ns.Simulator.Now())
    ns.Simulator.Run()


def _inject(ns, pair, node: int, at: float, raw: bytes):
    inj = injector(pair, node)
    buffer = bytearray(raw)
    inj.Schedule(
        ns.Seconds(at), buffer, len(buffer), pair.address(1 - node), pair.address(node), True
    )
    return inj


def _sack(cum: int, gaps=(), a_rwnd: int = 65536) -> bytes:
    value = struct.pack("!IIHH", cum, a_rwnd, len(gaps), 0)
    value += b"".join(struct.pack("!HH", s, e) for s, e in gaps)
    return chunk(3, 0, value)


def test_tie_tags_do_not_reveal_the_verification_tags():
    """An INIT for a live association is answered with a cookie holding random Tie-Tags."""
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender = _pair(ns)
        _run_to(ns, 0.5)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        tags = (int(accepted.GetLocalVerificationTag()), int(accepted.GetPeerVerificationTag()))
        capture = _capture()
        capture.Attach(pair.nodes.Get(1))
        init = chunk(1, 0, struct.pack("!IIHHI", 0x0BADCAFE, 65536, 1, 1, 99))
        inj = _inject(ns, pair, 1, 0.6, bytes(packet(client.GetLocalPort(), PORT, 0, init)))
        _run_to(ns, 1.0)
        cookies = []
        for i in range(int(capture.Count())):
            for kind, _flags, value in _chunks(_raw(capture, i)):
                if kind == 2:
                    pos = 16
                    while pos + 4 <= len(value):
                        ptype, plen = struct.unpack_from("!HH", value, pos)
                        if ptype == 7:
                            cookies.append(value[pos + 4 : pos + plen])
                        pos += plen + (-plen) % 4
        assert len(cookies) == 1  # section 5.2.2: INIT ACK with tie-tags
        for tag in tags:
            assert struct.pack("!I", tag) not in cookies[0]
            assert struct.pack("<I", tag) not in cookies[0]
        del pair, server, client, collector, sender, accepted, capture, inj
    gc.collect()


def test_zero_window_probes_do_not_abort_a_live_association():
    """The receiver does not read for 420 s; the sender probes; nothing is lost."""
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender = _pair(ns, server_rcvbuf=4000)
        collector.HoldUntil(420.0)
        for i in range(12):
            sender.At(0.5 + 0.01 * i, 1000, 0, False, i)
        _run_to(ns, 419.0)
        # Before the fix: 11 probe timeouts (RTO doubling to 60 s) aborted it at ~363 s.
        assert int(client.GetState()) == ESTABLISHED
        assert int(client.GetTimeoutCount()) >= 10
        _run_to(ns, 500.0)
        assert identify(collector, range(12)) == list(range(12))
        assert int(collector.errorCloses) == 0
        del pair, server, client, collector, sender
    gc.collect()


def test_send_larger_than_the_peer_receive_buffer_is_refused():
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender = _pair(ns, server_rcvbuf=8000)
        sender.At(0.5, 10000, 0, False, 1)  # can never be reassembled by the peer
        sender.At(0.6, 7000, 0, False, 2)
        _run_to(ns, 0.55)
        assert int(client.GetErrno()) == int(ns.Socket.ERROR_MSGSIZE)
        _run_to(ns, 5.0)
        assert int(sender.failed) == 1 and int(sender.sent) == 1
        assert identify(collector, [1, 2]) == [2]
        assert int(client.GetState()) == ESTABLISHED
        del pair, server, client, collector, sender
    gc.collect()


def test_bundled_abort_with_t_bit_and_our_own_tag_is_discarded():
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender = _pair(ns)
        for i in range(10):
            sender.At(1.0 + 0.01 * i, 500, 0, False, i)
        _run_to(ns, 0.5)
        cum = int(client.GetCumulativeTsnAcked())
        raw = packet(
            PORT,
            client.GetLocalPort(),
            client.GetLocalVerificationTag(),
            _sack(cum),
            chunk(6, 1, b""),
        )  # ABORT, T bit: needs the peer's tag
        inj = _inject(ns, pair, 0, 0.6, bytes(raw))
        _run_to(ns, 3.0)
        assert int(inj.GetInjectedCount()) == 1
        assert int(client.GetState()) == ESTABLISHED
        assert identify(collector, range(10)) == list(range(10))
        del pair, server, client, collector, sender, inj
    gc.collect()


def test_gap_blocks_for_tsns_never_sent_abort():
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender = _pair(ns)
        _run_to(ns, 0.5)
        cum = int(client.GetCumulativeTsnAcked())
        raw = packet(
            PORT,
            client.GetLocalPort(),
            client.GetLocalVerificationTag(),
            _sack(cum, gaps=[(2, 40)]),
        )
        inj = _inject(ns, pair, 0, 0.6, bytes(raw))
        _run_to(ns, 1.0)
        assert int(inj.GetInjectedCount()) == 1
        assert int(client.GetState()) == CLOSED  # RFC 9260 6.2.1: protocol violation
        del pair, server, client, collector, sender, inj
    gc.collect()


def test_error_report_fits_in_one_packet():
    """Unrecognized chunks (type 0x7F: skip and report) of 3000 and 2 x 40000 bytes."""
    with simulation(seed=1, run=1) as ns:
        pair, server, client, collector, sender = _pair(ns)
        for i in range(10):
            sender.At(1.0 + 0.01 * i, 500, 0, False, i)
        _run_to(ns, 0.5)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        capture = _capture()
        capture.Attach(pair.nodes.Get(1))
        tag = accepted.GetLocalVerificationTag()
        ports = (client.GetLocalPort(), PORT)
        small = packet(*ports, tag, chunk(0x7F, 0, bytes(3000)))
        huge = packet(*ports, tag, chunk(0x7F, 0, bytes(40000)), chunk(0x7F, 0, bytes(40000)))
        injs = [_inject(ns, pair, 1, 0.6, bytes(small)), _inject(ns, pair, 1, 0.7, bytes(huge))]
        _run_to(ns, 3.0)
        errors = 0
        for i in range(int(capture.Count())):
            raw = _raw(capture, i)
            assert len(raw) <= 1500 - 20, len(raw)
            for kind, _flags, value in _chunks(raw):
                if kind == 9:
                    errors += 1
                    cause, length = struct.unpack_from("!HH", value, 0)
                    assert cause == 6 and 8 <= length <= len(value)  # Unrecognized Chunk Type
        assert errors == 2
        assert identify(collector, range(10)) == list(range(10))
        del pair, server, client, collector, sender, accepted, capture, injs
    gc.collect()
