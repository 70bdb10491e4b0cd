"""Wire format: CRC32c, SHA-256/HMAC, chunk and parameter serialization and parsing."""

from __future__ import annotations

import struct

import pytest

from tests.sctp._support import cxx  # noqa: F401  (loads ns-3 once)


@pytest.fixture(scope="module")
def std():
    import cppyy

    return cppyy.gbl.std


@pytest.fixture(scope="module")
def ns():
    from transportlab import ns as _ns

    return _ns


def _u8(x) -> int:
    """cppyy returns uint8_t elements as 1-character strings."""
    return ord(x) if isinstance(x, str) else int(x)


def crc(ns, data: bytes) -> int:
    buf = bytearray(data)
    return int(ns.SctpCrc32c(buf, len(buf)))


def test_crc32c_reference_vectors(ns):
    # RFC 3720 appendix B.4 (iSCSI uses the same CRC32c as SCTP).
    assert crc(ns, bytes(32)) == 0x8A9136AA
    assert crc(ns, b"\xff" * 32) == 0x62A8AB43
    assert crc(ns, bytes(range(32))) == 0x46DD794E
    assert crc(ns, bytes(range(31, -1, -1))) == 0x113FDB5C
    assert crc(ns, b"123456789") == 0xE3069283  # the standard check value


def test_checksum_written_least_significant_byte_first_and_verified(ns):
    packet = bytearray(struct.pack("!HHI", 5000, 80, 0x01020304) + bytes(4) + b"\x0b\x00\x00\x04")
    ns.SctpWriteChecksum(packet, len(packet))
    value = crc(ns, bytes(packet[:8]) + bytes(4) + bytes(packet[12:]))
    assert packet[8:12] == struct.pack("<I", value)
    assert ns.SctpVerifyChecksum(packet, len(packet))
    packet[13] ^= 0x01
    assert not ns.SctpVerifyChecksum(packet, len(packet))
    assert not ns.SctpVerifyChecksum(packet, 11)


def test_sha256_and_hmac_vectors(std, ns):
    digest = ns.SctpSha256(bytearray(b"abc"), 3)
    assert bytes(_u8(digest[i]) for i in range(32)).hex() == (
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
    long_input = bytearray(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
    digest = ns.SctpSha256(long_input, len(long_input))
    assert bytes(_u8(digest[i]) for i in range(32)).hex().startswith("248d6a61d20638b8")
    # RFC 4231 test case 2.
    key = std.vector["uint8_t"]()
    for b in b"Jefe":
        key.push_back(b)
    data = bytearray(b"what do ya want for nothing?")
    mac = ns.SctpHmacSha256(key, data, len(data))
    assert bytes(_u8(mac[i]) for i in range(32)).hex() == (
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    )


def _bytes(vec) -> bytes:
    return bytes(_u8(vec[i]) for i in range(vec.size()))


def test_init_chunk_round_trip_and_padding(std, ns):
    init = ns.SctpInitChunk()
    init.type = ns.SctpChunk.INIT
    init.initiateTag = 0xDEADBEEF
    init.aRwnd = 65536
    init.outboundStreams = 10
    init.inboundStreams = 5
    init.initialTsn = 42
    init.parameters.push_back(ns.SctpTlv.Ipv4Address(ns.Ipv4Address("10.0.0.1")))
    init.parameters.push_back(ns.SctpTlv.SupportedAddressTypes(True, False))
    buf = std.vector["uint8_t"]()
    w = ns.SctpByteWriter(buf)
    init.Serialize(w)
    raw = _bytes(buf)
    # 20 fixed + 8 IPv4 + 6 supported types (+2 padding not counted in the length)
    assert struct.unpack("!BBH", raw[:4]) == (1, 0, 34)
    assert len(raw) == 36
    chunks = std.vector[ns.SctpChunk]()
    view = bytearray(raw)  # the chunk views point into this buffer: keep it alive
    assert ns.SctpSplitChunks(view, len(view), chunks)
    assert chunks.size() == 1
    parsed = ns.SctpInitChunk()
    assert parsed.Deserialize(chunks[0])
    assert (
        parsed.initiateTag,
        parsed.aRwnd,
        parsed.outboundStreams,
        parsed.inboundStreams,
        parsed.initialTsn,
    ) == (0xDEADBEEF, 65536, 10, 5, 42)
    assert parsed.parameters.size() == 2
    assert parsed.Find(ns.SctpTlv.IPV4_ADDRESS) is not None


def test_sack_round_trip_and_inconsistent_counts(std, ns):
    sack = ns.SctpSackChunk()
    sack.cumTsnAck = 1000
    sack.aRwnd = 4096
    sack.gapBlocks.push_back(std.pair["uint16_t", "uint16_t"](2, 3))
    sack.gapBlocks.push_back(std.pair["uint16_t", "uint16_t"](5, 9))
    sack.duplicateTsns.push_back(999)
    buf = std.vector["uint8_t"]()
    sack.Serialize(ns.SctpByteWriter(buf))
    raw = bytearray(_bytes(buf))
    assert len(raw) == 16 + 8 + 4
    chunks = std.vector[ns.SctpChunk]()
    assert ns.SctpSplitChunks(raw, len(raw), chunks)
    parsed = ns.SctpSackChunk()
    assert parsed.Deserialize(chunks[0])
    assert [(int(g.first), int(g.second)) for g in parsed.gapBlocks] == [(2, 3), (5, 9)]
    assert list(parsed.duplicateTsns) == [999]
    # Announce 200 gap blocks in a chunk that holds 2: rejected, no crash.
    raw[12:14] = struct.pack("!H", 200)
    chunks.clear()
    assert ns.SctpSplitChunks(raw, len(raw), chunks)
    assert not ns.SctpSackChunk().Deserialize(chunks[0])


@pytest.mark.parametrize(
    "raw, whole, count",
    [
        (b"\x00\x03\x00\x02", False, 0),  # length < 4
        (b"\x0b\x00\x00\x04\x00\x00\x00\xc8", False, 1),  # second chunk claims 200 bytes
        (b"\x0b\x00\x00\x04\x0e\x01\x00\x04", True, 2),  # two well-formed chunks
        (b"\x0b\x00\x00\x04\x00", False, 1),  # one stray byte
    ],
)
def test_chunk_splitter_bounds(std, ns, raw, whole, count):
    chunks = std.vector[ns.SctpChunk]()
    assert bool(ns.SctpSplitChunks(bytearray(raw), len(raw), chunks)) is whole
    assert chunks.size() == count


def test_cookie_mac_protects_contents(std, ns):
    key = std.vector["uint8_t"]()
    for b in range(32):
        key.push_back(b)
    cookie = ns.SctpCookie()
    cookie.localTag = 7
    cookie.peerTag = 9
    cookie.peerAddresses.push_back(ns.Ipv4Address("10.1.1.1").ConvertTo())
    sealed = cookie.Seal(key)
    opened = ns.SctpCookie()
    assert opened.Open(key, sealed)
    assert (opened.localTag, opened.peerTag) == (7, 9)
    tampered = std.vector["uint8_t"](sealed)
    tampered[13] = _u8(tampered[13]) ^ 1
    assert not ns.SctpCookie().Open(key, tampered)
    other = std.vector["uint8_t"](key)
    other[0] = 99
    assert not ns.SctpCookie().Open(other, sealed)
