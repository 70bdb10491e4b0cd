"""A slow reader keeps its association (issue 28, bug 2; RFC 9260 sections 6.1 A and 6.2).

With 1000-byte messages into a 65,536-byte receive buffer the window of a receiver that
stops reading ends at 536 bytes, not 0. The receiver dropped every chunk larger than its
window (section 6.2 drops only at a window of 0), and the sender ended zero window
probing at any non-zero a_rwnd (section 6.1 A: the peer "has no buffer space" while its
rwnd is smaller than the next chunk), so every probe timeout counted toward
Association.Max.Retrans and the association was aborted at 363 s while both applications
were alive.
"""

from __future__ import annotations

import gc
import struct

from tests.sctp._support import chunk, cxx, injector, make_pair
from transportlab.ns3.sctp_recording import SctpRecorder
from transportlab.ns3.simulation import run_until, simulation

PORT = 5000
ESTABLISHED = 4
MESSAGE = 1000
BUFFER = 65536
PAUSE = 900.0
N_MESSAGES = 150  # 150 kB: the receive buffer fills, the rest waits in the send buffer


def _slow_reader(ns, hold_until: float):
    c = cxx()
    pair = make_pair("10Mbps", "10ms")
    recorder = SctpRecorder()
    recorder.watch_node(pair.nodes.Get(0), 0)
    recorder.watch_node(pair.nodes.Get(1), 1)
    server = pair.socket(1)
    server.SetAttribute("RcvBufSize", ns.UintegerValue(BUFFER))
    server.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo())
    collector = c.Collector()
    collector.Listen(server)
    collector.HoldUntil(hold_until)
    client = pair.socket(0)
    sender = c.Sender()
    sender.socket = client
    sender.ConnectAt(0.1, pair.endpoint(1, PORT))
    for k in range(N_MESSAGES):
        sender.At(0.5 + 0.001 * k, MESSAGE, 0, False, k % 250 + 1)
    return pair, recorder, server, collector, client, sender


def test_reader_pausing_900_s_finds_its_association_up():
    with simulation(seed=1, run=1) as ns:
        pair, recorder, server, collector, client, sender = _slow_reader(ns, PAUSE)
        run_until(5.0)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        # The window closed: the receiver took chunks while its window was open, also
        # one larger than what was left (section 6.2 drops only at a window of 0).
        assert accepted.GetRxAvailable() >= BUFFER
        run_until(PAUSE - 1.0)
        assert int(client.GetState()) == ESTABLISHED
        assert int(accepted.GetState()) == ESTABLISHED
        # The sender kept probing the closed window; the probes timed out many times.
        assert int(client.GetTimeoutCount()) >= 15
        run_until(PAUSE + 60.0)
        assert int(sender.sent) == N_MESSAGES
        assert int(collector.Count()) == N_MESSAGES
        assert all(collector.Matches(i, i % 250 + 1) for i in range(N_MESSAGES))
        assert int(collector.errorCloses) == 0
        chunks = recorder.chunks()
        assert not (chunks.chunk == "ABORT").any()
        assert int(client.GetState()) == ESTABLISHED
        del pair, recorder, server, collector, client, sender, accepted
    gc.collect()


def _sack(cum: int, a_rwnd: int) -> bytes:
    return chunk(3, 0, struct.pack("!IIHH", cum, a_rwnd, 0, 0))


def test_sender_keeps_probing_a_window_smaller_than_the_next_chunk():
    """Section 6.1 A for the sender alone: a peer that keeps SACKing with a_rwnd 500 (less
    than the next 1000-byte chunk) and does not take the probes (as this model's receiver
    did before the fix). Its real SACKs are lost from 3 s on and forged ones carry the
    small window every second: the probes time out again and again, and none counts
    toward Association.Max.Retrans (before the fix the first a_rwnd 500 ended the
    probing and the association aborted some 360 s later)."""
    with simulation(seed=1, run=1) as ns:
        pair, recorder, server, collector, client, sender = _slow_reader(ns, 10_000.0)
        run_until(3.0)
        assert int(client.GetPeerRwnd()) < MESSAGE
        drop_all = ns.CreateObject[ns.RateErrorModel]()
        drop_all.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
        drop_all.SetAttribute("ErrorRate", ns.DoubleValue(1.0))
        pair.devices.Get(0).SetAttribute("ReceiveErrorModel", ns.PointerValue(drop_all))
        cum = int(client.GetCumulativeTsnAcked())
        tag = int(client.GetLocalVerificationTag())
        header = struct.pack("!HHII", PORT, int(client.GetLocalPort()), tag, 0)
        raw = bytearray(header + _sack(cum, 500))
        inj = injector(pair, 0)
        times = [3.5 + k for k in range(int(PAUSE - 3.5))]
        for t in times:
            inj.Schedule(ns.Seconds(t), raw, len(raw), pair.address(1), pair.address(0), True)
        run_until(PAUSE)
        assert int(inj.GetInjectedCount()) == len(times)
        assert int(client.GetState()) == ESTABLISHED
        assert int(client.GetCumulativeTsnAcked()) == cum
        assert int(client.GetTimeoutCount()) >= 15
        del pair, recorder, server, collector, client, sender, drop_all, inj
    gc.collect()
