/*
 * SipMessage (RFC 3261 section 7): a request parsed into its fields (header names
 * case-insensitive), serialised again byte for byte, a response built for it, and
 * malformed text refused with a reason.
 */
#include "ns3/sip-message.h"
#include "ns3/test.h"

#include <string>

using namespace ns3;

namespace
{

std::string
Invite()
{
    std::string body = "v=0\r\no=alice 1 1 IN IP4 10.1.1.2\r\ns=-\r\nc=IN IP4 10.1.1.2\r\n"
                       "t=0 0\r\nm=audio 40000 RTP/AVP 0\r\n";
    return "INVITE sip:bob@transportlab.test SIP/2.0\r\n"
           "Via: SIP/2.0/UDP 10.1.1.2:5060;branch=z9hG4bK0001\r\n"
           "Max-Forwards: 70\r\n"
           "To: <sip:bob@transportlab.test>\r\n"
           "From: \"alice\" <sip:alice@transportlab.test>;tag=abc\r\n"
           "Call-ID: 42@10.1.1.2\r\n"
           "CSeq: 1 INVITE\r\n"
           "Content-Type: application/sdp\r\n"
           "Content-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
}

} // namespace

class SipMessageTestCase : public TestCase
{
  public:
    SipMessageTestCase()
        : TestCase("parse, serialise, respond")
    {
    }

  private:
    void DoRun() override
    {
        std::string error;
        Ptr<SipMessage> m = SipMessage::Parse(Invite(), &error);
        NS_TEST_ASSERT_MSG_NE(m, nullptr, "parsed: " << error);
        NS_TEST_EXPECT_MSG_EQ(m->IsRequest(), true, "a request");
        NS_TEST_EXPECT_MSG_EQ(m->GetMethod(), "INVITE", "method");
        NS_TEST_EXPECT_MSG_EQ(m->GetRequestUri(), "sip:bob@transportlab.test", "Request-URI");
        NS_TEST_EXPECT_MSG_EQ(m->GetHeader("call-id"), "42@10.1.1.2", "case-insensitive names");
        NS_TEST_EXPECT_MSG_EQ(m->GetSerializedSize(), Invite().size(), "same size");
        Ptr<SipMessage> again = SipMessage::Parse(m->Serialize(), &error);
        NS_TEST_ASSERT_MSG_NE(again, nullptr, "its serialisation parses: " << error);
        NS_TEST_EXPECT_MSG_EQ(again->Serialize(), m->Serialize(), "byte for byte");
        Ptr<SipMessage> ok = SipMessage::CreateResponseTo(m, 200);
        NS_TEST_EXPECT_MSG_EQ(ok->IsResponse(), true, "a response");
        NS_TEST_EXPECT_MSG_EQ(ok->GetStatusCode(), 200, "status");
        NS_TEST_EXPECT_MSG_EQ(ok->GetReasonPhrase(), "OK", "default reason");
        NS_TEST_EXPECT_MSG_EQ(ok->GetHeader("Call-ID"), "42@10.1.1.2", "Call-ID copied");
        NS_TEST_EXPECT_MSG_EQ(SipMessage::Parse("NOT SIP AT ALL\r\n\r\n", &error),
                              nullptr,
                              "malformed text refused");
        NS_TEST_EXPECT_MSG_NE(error, "", "with a reason");
    }
};

/** \ingroup sip-tests */
class SipTestSuite : public TestSuite
{
  public:
    SipTestSuite()
        : TestSuite("sip-message", Type::UNIT)
    {
        AddTestCase(new SipMessageTestCase(), TestCase::Duration::QUICK);
    }
};

static SipTestSuite g_sipTestSuite;
