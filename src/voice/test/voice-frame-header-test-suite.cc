/*
 * VoiceFrameHeader: 14 bytes (call, sequence number, send time) that survive a round
 * trip through a packet, and a buffer too short for them is refused.
 */
#include "ns3/packet.h"
#include "ns3/test.h"
#include "ns3/voice-frame-header.h"

using namespace ns3;

class VoiceFrameHeaderTestCase : public TestCase
{
  public:
    VoiceFrameHeaderTestCase()
        : TestCase("frame header round trip")
    {
    }

  private:
    void DoRun() override
    {
        VoiceFrameHeader header;
        header.SetCall(513);
        header.SetSeq(0xDEADBEEF);
        header.SetSendTime(NanoSeconds(1234567890123));
        NS_TEST_EXPECT_MSG_EQ(header.GetSerializedSize(), VoiceFrameHeader::SIZE, "size");
        NS_TEST_EXPECT_MSG_EQ(VoiceFrameHeader::SIZE, 14u, "14 bytes");
        Ptr<Packet> p = Create<Packet>(146);
        p->AddHeader(header);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 160u, "a 160-byte frame");
        VoiceFrameHeader read;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(read), 14u, "read back");
        NS_TEST_EXPECT_MSG_EQ(read.GetCall(), 513, "call");
        NS_TEST_EXPECT_MSG_EQ(read.GetSeq(), 0xDEADBEEFu, "sequence number");
        NS_TEST_EXPECT_MSG_EQ(read.GetSendTime(), NanoSeconds(1234567890123), "send time");
    }
};

/** \ingroup voice-tests */
class VoiceTestSuite : public TestSuite
{
  public:
    VoiceTestSuite()
        : TestSuite("voice-frame-header", Type::UNIT)
    {
        AddTestCase(new VoiceFrameHeaderTestCase(), TestCase::Duration::QUICK);
    }
};

static VoiceTestSuite g_voiceTestSuite;
