/*
 * Wire format: CRC32c against the RFC 3720 vectors, the checksum's place and byte order
 * (RFC 9260 appendix A), chunk serialization and parsing (DATA, INIT with parameters,
 * SACK with gap blocks and duplicates, FORWARD TSN), the I-DATA chunk and Supported
 * Extensions parameter of RFC 8260 (with the State Cookie's capability bits), and the
 * bounds checks that keep a malformed packet from being read past its end.
 */
#include "ns3/sctp-chunk.h"
#include "ns3/sctp-cookie.h"
#include "ns3/sctp-crc32c.h"
#include "ns3/sctp-header.h"
#include "ns3/sctp-parameter.h"
#include "ns3/test.h"

#include <numeric>
#include <vector>

using namespace ns3;

namespace
{

uint32_t
Crc(const std::vector<uint8_t>& bytes)
{
    return SctpCrc32c(bytes.data(), bytes.size());
}

} // namespace

/** CRC32c of RFC 3720 appendix B.4 and the check value of "123456789". */
class SctpCrc32cTestCase : public TestCase
{
  public:
    SctpCrc32cTestCase()
        : TestCase("CRC32c reference vectors")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint8_t> zeros(32, 0);
        NS_TEST_ASSERT_MSG_EQ(Crc(zeros), 0x8A9136AAu, "32 zero bytes");
        std::vector<uint8_t> ones(32, 0xff);
        NS_TEST_ASSERT_MSG_EQ(Crc(ones), 0x62A8AB43u, "32 0xff bytes");
        std::vector<uint8_t> up(32);
        std::iota(up.begin(), up.end(), 0);
        NS_TEST_ASSERT_MSG_EQ(Crc(up), 0x46DD794Eu, "0..31");
        std::vector<uint8_t> down(up.rbegin(), up.rend());
        NS_TEST_ASSERT_MSG_EQ(Crc(down), 0x113FDB5Cu, "31..0");
        std::string check = "123456789";
        std::vector<uint8_t> text(check.begin(), check.end());
        NS_TEST_ASSERT_MSG_EQ(Crc(text), 0xE3069283u, "check value");
    }
};

/** The checksum field is written least significant byte first and verified. */
class SctpChecksumPlacementTestCase : public TestCase
{
  public:
    SctpChecksumPlacementTestCase()
        : TestCase("checksum placement and verification")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint8_t> packet;
        SctpByteWriter w(packet);
        SctpCommonHeader header;
        header.sourcePort = 5000;
        header.destinationPort = 80;
        header.verificationTag = 0x01020304;
        header.Serialize(w);
        SctpChunk::SerializeEmpty(w, SctpChunk::COOKIE_ACK);
        SctpWriteChecksum(packet.data(), packet.size());
        std::vector<uint8_t> zeroed = packet;
        std::fill(zeroed.begin() + 8, zeroed.begin() + 12, 0);
        uint32_t crc = Crc(zeroed);
        for (int i = 0; i < 4; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(packet[8 + i], static_cast<uint8_t>(crc >> (8 * i)),
                                  "byte " << i << " of the checksum");
        }
        NS_TEST_ASSERT_MSG_EQ(SctpVerifyChecksum(packet.data(), packet.size()), true, "valid");
        packet[13] ^= 0x01;
        NS_TEST_ASSERT_MSG_EQ(SctpVerifyChecksum(packet.data(), packet.size()), false, "flipped bit");
        NS_TEST_ASSERT_MSG_EQ(SctpVerifyChecksum(packet.data(), 11), false, "shorter than a header");
    }
};

/** DATA, INIT (with an address parameter and padding), SACK and FORWARD TSN round trips. */
class SctpChunkRoundTripTestCase : public TestCase
{
  public:
    SctpChunkRoundTripTestCase()
        : TestCase("chunk serialization round trips")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint8_t> bytes;
        SctpByteWriter w(bytes);
        // DATA with 5 bytes of user data: padded to 4 bytes on the wire.
        const uint8_t payload[5] = {1, 2, 3, 4, 5};
        SctpDataChunk::SerializeHeader(w,
                                       SctpDataChunk::FLAG_B | SctpDataChunk::FLAG_E,
                                       0xFFFFFFFE,
                                       7,
                                       65535,
                                       46,
                                       5);
        w.WriteBytes(payload, 5);
        w.PadTo4();
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), 24u, "16-byte header + 5 bytes + 3 padding");
        SctpInitChunk init;
        init.initiateTag = 0xCAFEBABE;
        init.aRwnd = 65536;
        init.outboundStreams = 10;
        init.inboundStreams = 5;
        init.initialTsn = 42;
        init.parameters.push_back(SctpTlv::Ipv4Address(Ipv4Address("10.1.2.3")));
        init.parameters.emplace_back(SctpTlv::FORWARD_TSN_SUPPORTED, std::vector<uint8_t>());
        init.Serialize(w);
        SctpSackChunk sack;
        sack.cumTsnAck = 100;
        sack.aRwnd = 4000;
        sack.gapBlocks = {{2, 3}, {6, 6}};
        sack.duplicateTsns = {99};
        sack.Serialize(w);
        SctpForwardTsnChunk forward;
        forward.newCumTsn = 120;
        forward.streams = {{1, 9}};
        forward.Serialize(w);

        std::vector<SctpChunk> chunks;
        NS_TEST_ASSERT_MSG_EQ(SctpSplitChunks(bytes.data(), bytes.size(), chunks), true, "split");
        NS_TEST_ASSERT_MSG_EQ(chunks.size(), 4u, "four chunks");
        SctpDataChunk data;
        NS_TEST_ASSERT_MSG_EQ(data.Deserialize(chunks[0]), true, "DATA parses");
        NS_TEST_EXPECT_MSG_EQ(data.tsn, 0xFFFFFFFEu, "TSN");
        NS_TEST_EXPECT_MSG_EQ(data.streamId, 7, "stream");
        NS_TEST_EXPECT_MSG_EQ(data.ssn, 65535, "SSN");
        NS_TEST_EXPECT_MSG_EQ(data.ppid, 46u, "PPID");
        NS_TEST_EXPECT_MSG_EQ(data.payloadLength, 5, "length excludes the padding");
        NS_TEST_EXPECT_MSG_EQ(chunks[0].length, 21, "chunk length excludes the padding");
        SctpInitChunk init2;
        NS_TEST_ASSERT_MSG_EQ(init2.Deserialize(chunks[1]), true, "INIT parses");
        NS_TEST_EXPECT_MSG_EQ(init2.initiateTag, 0xCAFEBABEu, "tag");
        NS_TEST_EXPECT_MSG_EQ(init2.outboundStreams, 10, "OS");
        NS_TEST_EXPECT_MSG_EQ(init2.parameters.size(), 2u, "parameters");
        NS_TEST_EXPECT_MSG_EQ((init2.Find(SctpTlv::FORWARD_TSN_SUPPORTED) != nullptr),
                              true,
                              "Forward-TSN-Supported");
        const SctpTlv* address = init2.Find(SctpTlv::IPV4_ADDRESS);
        NS_TEST_ASSERT_MSG_EQ((address != nullptr), true, "IPv4 address parameter");
        NS_TEST_EXPECT_MSG_EQ(Ipv4Address::Deserialize(address->value.data()),
                              Ipv4Address("10.1.2.3"),
                              "address");
        SctpSackChunk sack2;
        NS_TEST_ASSERT_MSG_EQ(sack2.Deserialize(chunks[2]), true, "SACK parses");
        NS_TEST_EXPECT_MSG_EQ(sack2.cumTsnAck, 100u, "cumulative TSN ack");
        NS_TEST_EXPECT_MSG_EQ(sack2.gapBlocks.size(), 2u, "gap blocks");
        NS_TEST_EXPECT_MSG_EQ(sack2.gapBlocks[1].first, 6, "second block start");
        NS_TEST_EXPECT_MSG_EQ(sack2.duplicateTsns.size(), 1u, "duplicates");
        NS_TEST_EXPECT_MSG_EQ(chunks[2].length, sack.GetSerializedSize(), "SACK size");
        SctpForwardTsnChunk forward2;
        NS_TEST_ASSERT_MSG_EQ(forward2.Deserialize(chunks[3]), true, "FORWARD TSN parses");
        NS_TEST_EXPECT_MSG_EQ(forward2.newCumTsn, 120u, "new cumulative TSN");
        NS_TEST_EXPECT_MSG_EQ(forward2.streams[0].second, 9, "skipped SSN");
    }
};

/** A chunk length that overruns the packet, or a DATA chunk without room for its header. */
class SctpMalformedTestCase : public TestCase
{
  public:
    SctpMalformedTestCase()
        : TestCase("malformed chunks are refused, never read past the end")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint8_t> bytes;
        SctpByteWriter w(bytes);
        SctpChunk::SerializeEmpty(w, SctpChunk::COOKIE_ACK);
        w.WriteU8(SctpChunk::DATA);
        w.WriteU8(3);
        w.WriteU16(400); // claims 400 bytes, has 4
        std::vector<SctpChunk> chunks;
        NS_TEST_EXPECT_MSG_EQ(SctpSplitChunks(bytes.data(), bytes.size(), chunks),
                              false,
                              "overrun reported");
        NS_TEST_EXPECT_MSG_EQ(chunks.size(), 1u, "the chunk before it is kept");
        std::vector<uint8_t> shortData;
        SctpByteWriter w2(shortData);
        w2.WriteU8(SctpChunk::DATA);
        w2.WriteU8(3);
        w2.WriteU16(8);
        w2.WriteU32(1);
        std::vector<SctpChunk> views;
        SctpSplitChunks(shortData.data(), shortData.size(), views);
        NS_TEST_ASSERT_MSG_EQ(views.size(), 1u, "one view");
        SctpDataChunk data;
        NS_TEST_EXPECT_MSG_EQ(data.Deserialize(views[0]), false, "DATA shorter than its header");
        SctpByteReader r(shortData.data(), 2);
        r.ReadU32();
        NS_TEST_EXPECT_MSG_EQ(r.IsOk(), false, "the reader reports the overrun instead of reading");
    }
};

/**
 * I-DATA (RFC 8260 2.1): a first fragment carries the PPID, a later one its FSN, in the
 * same place; the 20-byte header byte by byte; a chunk shorter than the header and a
 * DATA chunk are refused. Supported Extensions (RFC 5061 4.2.7) listing chunk type 64 in
 * an INIT, and the State Cookie keeping the peer's I-DATA and PR-SCTP support in the one
 * byte PR-SCTP had.
 */
class SctpIDataWireTestCase : public TestCase
{
  public:
    SctpIDataWireTestCase()
        : TestCase("I-DATA chunk and Supported Extensions round trips")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<uint8_t> bytes;
        SctpByteWriter w(bytes);
        const uint8_t payload[3] = {0xAA, 0xBB, 0xCC};
        SctpIDataChunk::SerializeHeader(w,
                                        SctpIDataChunk::FLAG_B | SctpIDataChunk::FLAG_U,
                                        0x80000001,
                                        513,
                                        0xFFFFFFFF,
                                        51, // PPID (WebRTC string)
                                        3);
        w.WriteBytes(payload, 3);
        w.PadTo4();
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), 24u, "20-byte header + 3 bytes + 1 padding");
        const std::vector<uint8_t> header = {64,   0x06, 0,    23,   0x80, 0,    0,    1,
                                             0x02, 0x01, 0,    0,    0xFF, 0xFF, 0xFF, 0xFF,
                                             0,    0,    0,    51};
        NS_TEST_EXPECT_MSG_EQ((std::vector<uint8_t>(bytes.begin(), bytes.begin() + 20) == header),
                              true,
                              "type 64, flags U|B, length 23, TSN, SID 513, reserved 0, MID, PPID");
        SctpIDataChunk::SerializeHeader(w, SctpIDataChunk::FLAG_E, 0x80000002, 513, 0xFFFFFFFF, 7, 0);

        std::vector<SctpChunk> chunks;
        NS_TEST_ASSERT_MSG_EQ(SctpSplitChunks(bytes.data(), bytes.size(), chunks), true, "split");
        NS_TEST_ASSERT_MSG_EQ(chunks.size(), 2u, "two chunks");
        NS_TEST_EXPECT_MSG_EQ(SctpChunk::TypeName(chunks[0].type), "I_DATA", "type name");
        SctpIDataChunk first;
        NS_TEST_ASSERT_MSG_EQ(first.Deserialize(chunks[0]), true, "first fragment parses");
        NS_TEST_EXPECT_MSG_EQ(first.tsn, 0x80000001u, "TSN");
        NS_TEST_EXPECT_MSG_EQ(first.streamId, 513, "stream");
        NS_TEST_EXPECT_MSG_EQ(first.mid, 0xFFFFFFFFu, "MID");
        NS_TEST_EXPECT_MSG_EQ(first.ppid, 51u, "B set: the field is the PPID");
        NS_TEST_EXPECT_MSG_EQ(first.fsn, 0u, "the first fragment's FSN is 0");
        NS_TEST_EXPECT_MSG_EQ(first.flags, (SctpIDataChunk::FLAG_B | SctpIDataChunk::FLAG_U), "flags");
        NS_TEST_EXPECT_MSG_EQ(first.payloadLength, 3, "user data without padding");
        NS_TEST_EXPECT_MSG_EQ(first.payload[2], 0xCC, "user data");
        SctpIDataChunk last;
        NS_TEST_ASSERT_MSG_EQ(last.Deserialize(chunks[1]), true, "last fragment parses");
        NS_TEST_EXPECT_MSG_EQ(last.fsn, 7u, "B clear: the field is the FSN");
        NS_TEST_EXPECT_MSG_EQ(last.ppid, 0u, "no PPID");
        NS_TEST_EXPECT_MSG_EQ(last.payloadLength, 0, "no user data");

        // 19 bytes: one short of the header.
        std::vector<uint8_t> shortChunk(header.begin(), header.begin() + 19);
        shortChunk[3] = 19;
        shortChunk.push_back(0);
        std::vector<SctpChunk> views;
        SctpSplitChunks(shortChunk.data(), shortChunk.size(), views);
        NS_TEST_ASSERT_MSG_EQ(views.size(), 1u, "the chunk itself is well framed");
        SctpIDataChunk truncated;
        NS_TEST_EXPECT_MSG_EQ(truncated.Deserialize(views[0]), false, "shorter than 20 bytes");
        std::vector<uint8_t> dataBytes;
        SctpByteWriter dw(dataBytes);
        SctpDataChunk::SerializeHeader(dw, SctpDataChunk::FLAG_B, 1, 0, 0, 0, 4);
        dw.WriteU32(0);
        std::vector<SctpChunk> dataViews;
        SctpSplitChunks(dataBytes.data(), dataBytes.size(), dataViews);
        NS_TEST_ASSERT_MSG_EQ(dataViews.size(), 1u, "one DATA chunk");
        NS_TEST_EXPECT_MSG_EQ(truncated.Deserialize(dataViews[0]), false, "DATA is not I-DATA");

        // Supported Extensions in an INIT.
        SctpInitChunk init;
        init.initiateTag = 1;
        init.parameters.push_back(SctpTlv::SupportedExtensions({SctpChunk::I_DATA}));
        std::vector<uint8_t> initBytes;
        SctpByteWriter iw(initBytes);
        init.Serialize(iw);
        NS_TEST_EXPECT_MSG_EQ(initBytes.size(), 28u, "INIT 20 + parameter 5, padded to 8");
        NS_TEST_EXPECT_MSG_EQ(initBytes[20], 0x80, "parameter type 0x8008");
        NS_TEST_EXPECT_MSG_EQ(initBytes[21], 0x08, "parameter type 0x8008");
        NS_TEST_EXPECT_MSG_EQ(initBytes[23], 5, "parameter length 5");
        NS_TEST_EXPECT_MSG_EQ(initBytes[24], 64, "lists chunk type 64");
        std::vector<SctpChunk> initViews;
        SctpSplitChunks(initBytes.data(), initBytes.size(), initViews);
        SctpInitChunk parsed;
        NS_TEST_ASSERT_MSG_EQ(parsed.Deserialize(initViews[0]), true, "INIT parses");
        const SctpTlv* extensions = parsed.Find(SctpTlv::SUPPORTED_EXTENSIONS);
        NS_TEST_ASSERT_MSG_EQ((extensions != nullptr), true, "Supported Extensions found");
        NS_TEST_EXPECT_MSG_EQ(extensions->ListsChunkType(SctpChunk::I_DATA), true, "I-DATA");
        NS_TEST_EXPECT_MSG_EQ(extensions->ListsChunkType(SctpChunk::FORWARD_TSN), false, "only 64");

        // The cookie: both capabilities survive sealing and opening; the size does not
        // change with them.
        std::vector<uint8_t> key(32, 7);
        SctpCookie cookie;
        cookie.peerForwardTsn = false;
        cookie.peerIData = true;
        cookie.peerAddresses = {Ipv4Address("10.1.1.1")}; // Open needs one
        std::vector<uint8_t> sealed = cookie.Seal(key);
        SctpCookie plain;
        plain.peerForwardTsn = true;
        plain.peerAddresses = cookie.peerAddresses;
        NS_TEST_EXPECT_MSG_EQ(plain.Seal(key).size(), sealed.size(), "same cookie size");
        SctpCookie opened;
        NS_TEST_ASSERT_MSG_EQ(opened.Open(key, sealed), true, "the cookie opens");
        NS_TEST_EXPECT_MSG_EQ(opened.peerIData, true, "peer supports I-DATA");
        NS_TEST_EXPECT_MSG_EQ(opened.peerForwardTsn, false, "peer without PR-SCTP");
        SctpCookie opened2;
        NS_TEST_ASSERT_MSG_EQ(opened2.Open(key, plain.Seal(key)), true, "opens");
        NS_TEST_EXPECT_MSG_EQ(opened2.peerIData, false, "no I-DATA");
        NS_TEST_EXPECT_MSG_EQ(opened2.peerForwardTsn, true, "PR-SCTP");
    }
};

/** \ingroup sctp-tests The wire format of RFC 9260 section 3 and appendix A. */
class SctpWireTestSuite : public TestSuite
{
  public:
    SctpWireTestSuite()
        : TestSuite("sctp-wire", Type::UNIT)
    {
        AddTestCase(new SctpCrc32cTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpChecksumPlacementTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpChunkRoundTripTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpMalformedTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpIDataWireTestCase(), TestCase::Duration::QUICK);
    }
};

static SctpWireTestSuite g_sctpWireTestSuite;
