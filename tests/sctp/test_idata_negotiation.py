"""I-DATA (RFC 8260) negotiation in INIT / INIT ACK through the Supported Extensions
parameter (RFC 5061 4.2.7, type 0x8008, listing chunk type 64) when SctpSocket's
IDataSupported attribute is on (off by default), and the I-DATA chunk format, decoded by
tshark from bytes the model serialises. An association that negotiated I-DATA sends its
user data in I-DATA chunks (tests/sctp/test_idata_transfer.py), one that did not in DATA."""

from __future__ import annotations

import gc
import struct

import pytest

from tests.sctp._support import make_pair, needs_tshark, tshark_fields
from tests.sctp.test_streams import setup as setup_pair
from transportlab.ns3.simulation import run_until, simulation

SUPPORTED_EXTENSIONS = 0x8008
I_DATA = 64


def handshake(client_idata: bool | None, server_idata: bool | None, pcap=None):
    """Connect, send one message; return (client negotiated, server negotiated, delivered).
    ``None`` leaves the attribute at its default."""
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup_pair(ns, pair)
        if client_idata is not None:
            client.SetAttribute("IDataSupported", ns.BooleanValue(client_idata))
        if server_idata is not None:
            server.SetAttribute("IDataSupported", ns.BooleanValue(server_idata))
        if pcap is not None:
            pair.p2p.EnablePcap(str(pcap), pair.devices.Get(0), True)
        sender.At(0.5, 1000, 1, False, 3)
        run_until(2.0)
        accepted = ns.DynamicCast[ns.SctpSocket](collector.accepted[0])
        result = (
            bool(client.GetAssociation().IsIDataNegotiated()),
            bool(accepted.GetAssociation().IsIDataNegotiated()),
            int(collector.Count()),
        )
        del pair, server, client, collector, sender, accepted
    gc.collect()
    return result


@pytest.mark.parametrize(
    ("client_idata", "server_idata", "negotiated"),
    [(None, None, False), (True, True, True), (True, False, False), (False, True, False)],
)
def test_negotiated_only_when_both_announce(client_idata, server_idata, negotiated):
    client, server, delivered = handshake(client_idata, server_idata)
    assert (client, server) == (negotiated, negotiated)
    assert delivered == 1  # in I-DATA when negotiated, else in DATA


def _init_parameters(pcap):
    """{chunk type: [parameter types]} of the INIT (1) and INIT ACK (2) in the pcap."""
    rows = tshark_fields(
        pcap, "sctp.chunk_type", "sctp.parameter_type", "sctp.supported_chunk_type"
    )
    found = {}
    for chunk_types, parameters, supported in rows:
        kinds = chunk_types.split(",")
        if kinds[0] in ("1", "2"):
            found[int(kinds[0])] = (
                [int(p, 0) for p in parameters.split(",") if p],
                [int(c) for c in supported.split(",") if c],
            )
    return found


@needs_tshark
def test_supported_extensions_on_the_wire(tmp_path):
    handshake(None, None, pcap=tmp_path / "default")
    default = _init_parameters(tmp_path / "default-0-0.pcap")
    assert set(default) == {1, 2}
    for parameters, supported in default.values():
        assert SUPPORTED_EXTENSIONS not in parameters and supported == []

    handshake(True, True, pcap=tmp_path / "idata")
    both = _init_parameters(tmp_path / "idata-0-0.pcap")
    for parameters, supported in both.values():
        assert SUPPORTED_EXTENSIONS in parameters
        assert supported == [I_DATA]
    # Everything else in INIT and INIT ACK is as without I-DATA.
    for kind in (1, 2):
        rest = [p for p in both[kind][0] if p != SUPPORTED_EXTENSIONS]
        assert rest == default[kind][0]
    rows = tshark_fields(tmp_path / "idata-0-0.pcap", "sctp.chunk_type", "sctp.checksum.status")
    assert {r[1] for r in rows} == {"1"}
    sent = {int(t) for r in rows for t in r[0].split(",") if t}
    assert I_DATA in sent and 0 not in sent  # RFC 8260 2.2: I-DATA only, no DATA


_SERIALISER = """
#include "ns3/sctp-chunk.h"
#include "ns3/sctp-crc32c.h"
#include "ns3/sctp-header.h"
namespace idatatest {
/** An SCTP packet of one I-DATA chunk, as the model serialises it, with its CRC32c
 * (as unsigned ints: cppyy hands uint8_t elements to Python as characters). */
std::vector<unsigned int> Packet(uint8_t flags, uint32_t tsn, uint16_t sid, uint32_t mid,
                            uint32_t ppidOrFsn, uint16_t payloadLength) {
    std::vector<uint8_t> bytes;
    ns3::SctpByteWriter w(bytes);
    ns3::SctpCommonHeader header;
    header.sourcePort = 5000;
    header.destinationPort = 5001;
    header.verificationTag = 0x01020304;
    header.Serialize(w);
    ns3::SctpIDataChunk::SerializeHeader(w, flags, tsn, sid, mid, ppidOrFsn, payloadLength);
    for (uint16_t i = 0; i < payloadLength; ++i) w.WriteU8(static_cast<uint8_t>(i));
    w.PadTo4();
    ns3::SctpWriteChecksum(bytes.data(), bytes.size());
    return std::vector<unsigned int>(bytes.begin(), bytes.end());
}
}
"""


def _ipv4(payload: bytes) -> bytes:
    header = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 1, 0, 64, 132, 0,
                         bytes([10, 1, 1, 1]), bytes([10, 1, 1, 2]))  # fmt: skip
    words = struct.unpack("!10H", header)
    total = sum(words)
    while total > 0xFFFF:
        total = (total & 0xFFFF) + (total >> 16)
    return header[:10] + struct.pack("!H", ~total & 0xFFFF) + header[12:] + payload


@needs_tshark
def test_tshark_decodes_the_serialised_idata_chunk(tmp_path):
    import cppyy

    from transportlab import ns  # noqa: F401  (loads our library)

    if not hasattr(cppyy.gbl, "idatatest"):  # once per process
        cppyy.cppdef(_SERIALISER)
    make = cppyy.gbl.idatatest.Packet
    # a first fragment (B, PPID 51) and a last one (E, FSN 1) of message 7 on stream 3
    packets = [bytes(make(0x02, 1000, 3, 7, 51, 10)), bytes(make(0x01, 1001, 3, 7, 1, 6))]
    pcap = tmp_path / "idata.pcap"
    with pcap.open("wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 228))  # raw IPv4
        for i, sctp in enumerate(packets):
            frame = _ipv4(sctp)
            f.write(struct.pack("<IIII", i, 0, len(frame), len(frame)))
            f.write(frame)
    rows = tshark_fields(
        pcap,
        "sctp.chunk_type",
        "sctp.data_tsn_raw",
        "sctp.data_sid",
        "sctp.data_mid",
        "sctp.data_payload_proto_id",
        "sctp.data_fsn",
        "sctp.data_b_bit",
        "sctp.data_e_bit",
        "sctp.checksum.status",
        "_ws.malformed",
        "_ws.expert",
    )
    assert len(rows) == 2
    first, last = rows
    assert first[:8] == ["64", "1000", "0x0003", "7", "51", "", "1", "0"]
    assert last[:8] == ["64", "1001", "0x0003", "7", "", "1", "0", "1"]
    assert first[8] == last[8] == "1"  # CRC32c good
    assert first[9:] == last[9:] == ["", ""]  # not malformed, no expert info
