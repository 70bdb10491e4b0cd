"""I-DATA on the wire (RFC 8260 2.1, 2.3): an association whose ends both set
IDataSupported sends every user message in I-DATA chunks (type 64), interleaves a large
message of stream 0 with small ones of stream 1 (round robin), and, with PR-SCTP, skips an
abandoned message with I-FORWARD-TSN (type 194). tshark decodes every chunk of the pcap
with a good CRC32c."""

from __future__ import annotations

import gc

from tests.sctp._support import assert_pcap_clean, make_pair, needs_tshark, tshark_fields
from tests.sctp.test_streams import identify
from tests.sctp.test_streams import setup as setup_pair
from transportlab.ns3.sctp_recording import SctpRecorder
from transportlab.ns3.simulation import run_until, simulation

DATA, I_DATA, FORWARD_TSN, I_FORWARD_TSN = 0, 64, 192, 194
RTX = 2  # SctpPrPolicy::RTX
LARGE = 20000


def transfer(pcap, drop_packets=(), pr_sctp=False, recorded=None):
    """Message 0 (stream 0, LARGE bytes, no retransmission when pr_sctp) then five
    200-byte messages on stream 1. Returns the received message indices in order; the
    client's data chunks (SctpRecorder) go into ``recorded`` if given."""
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        recorder = SctpRecorder(data_chunks_only=True)
        recorder.watch_node(pair.nodes.Get(0), 0)
        server, client, collector, sender = setup_pair(ns, pair)
        for s in (server, client):
            s.SetAttribute("IDataSupported", ns.BooleanValue(True))
            s.SetAttribute("PrSctpEnabled", ns.BooleanValue(pr_sctp))
        client.SetAttribute("StreamScheduler", ns.StringValue("ns3::SctpRoundRobinStreamScheduler"))
        pair.p2p.EnablePcap(str(pcap), pair.devices.Get(0), True)
        if drop_packets:
            pair.drop_received(1, list(drop_packets))
        if pr_sctp:
            sender.AtPr(0.5, LARGE, 0, False, 0, RTX, 0)
        else:
            sender.At(0.5, LARGE, 0, False, 0)
        for k in range(1, 6):
            sender.At(0.5, 200, 1, False, k)
        run_until(5.0)
        negotiated = bool(client.GetAssociation().IsIDataNegotiated())
        order = identify(collector, range(6))
        if recorded is not None:
            recorded.append(recorder.chunks())
        del pair, server, client, collector, sender, recorder
    gc.collect()
    assert negotiated
    return order


def _chunk_rows(pcap):
    return tshark_fields(
        pcap,
        "sctp.chunk_type",
        "sctp.data_sid",
        "sctp.data_mid",
        "sctp.data_fsn",
        "sctp.checksum.status",
    )


@needs_tshark
def test_idata_interleaved_on_the_wire(tmp_path):
    recorded = []
    order = transfer(tmp_path / "idata", recorded=recorded)
    # The recorder keeps the I-DATA chunks with a data-only filter, under their name.
    assert set(recorded[0]["chunk"]) == {"I_DATA"}
    # The small messages overtake the large one queued before them.
    assert order[-1] == 0 and sorted(order) == list(range(6))
    pcap = tmp_path / "idata-0-0.pcap"
    assert_pcap_clean(pcap)
    rows = _chunk_rows(pcap)
    types = [int(t) for row in rows for t in row[0].split(",") if t]
    assert I_DATA in types and DATA not in types
    # Every frame's CRC32c is good, and the I-DATA fields decode: stream 1's messages
    # (MIDs 0-4) appear between fragments of stream 0's MID 0 (FSNs up to 13).
    sids = [s for row in rows if row[2] for s in row[1].split(",") if s]
    first_s1 = sids.index("0x0001")
    assert "0x0000" in sids[first_s1:], "stream 0 fragments continue after stream 1 began"
    fsns = [int(f) for row in rows for f in row[3].split(",") if f]
    assert max(fsns) == LARGE // 1448  # 1500 - 20 (IP) - 12 (SCTP) - 20 (I-DATA header)
    assert {row[4] for row in rows} == {"1"}


@needs_tshark
def test_iforward_tsn_on_the_wire(tmp_path):
    # The third packet at the server (the second with data) carries a fragment of the
    # large message, which may not be retransmitted: it is abandoned and skipped.
    order = transfer(tmp_path / "ifwd", drop_packets=[4], pr_sctp=True)
    assert order == [1, 2, 3, 4, 5]
    pcap = tmp_path / "ifwd-0-0.pcap"
    assert_pcap_clean(pcap)
    types = [int(t) for row in _chunk_rows(pcap) for t in row[0].split(",") if t]
    assert I_FORWARD_TSN in types and FORWARD_TSN not in types
    assert DATA not in types


@needs_tshark
def test_default_sends_data(tmp_path):
    """Without the attribute nothing changes: DATA, not I-DATA."""
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup_pair(ns, pair)
        pair.p2p.EnablePcap(str(tmp_path / "plain"), pair.devices.Get(0), True)
        sender.At(0.5, LARGE, 0, False, 0)
        run_until(3.0)
        delivered = int(collector.Count())
        del pair, server, client, collector, sender
    gc.collect()
    assert delivered == 1
    rows = _chunk_rows(tmp_path / "plain-0-0.pcap")
    types = {int(t) for row in rows for t in row[0].split(",") if t}
    assert DATA in types and I_DATA not in types
