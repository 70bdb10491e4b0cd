/*
 * Association set-up and shutdown on the wire (RFC 9260 sections 5.1, 9.2): the chunk
 * sequence of the four-way handshake and of the graceful shutdown, the state sequence of
 * both ends, the verification tags each end learned, and the messages in between; the
 * SACK of the association's first DATA chunk (5.1, ImmediateFirstSack).
 */
#include "sctp-test-network.h"

#include "ns3/test.h"

using namespace ns3;
using namespace ns3::sctptest;

namespace
{

class StateLog : public SimpleRefCount<StateLog>
{
  public:
    void Record(SctpState, SctpState now)
    {
        states.push_back(now);
    }

    std::vector<SctpState> states;
};

/** When the server's sockets received DATA and sent SACK chunks. */
class DataSackLog : public SimpleRefCount<DataSackLog>
{
  public:
    void WatchNode(Ptr<Node> node)
    {
        node->GetObject<SctpL4Protocol>()->TraceConnectWithoutContext(
            "SocketCreated",
            MakeCallback(&DataSackLog::Created, this));
    }

    void Created(Ptr<SctpSocket> socket)
    {
        socket->TraceConnectWithoutContext("RxChunk", MakeCallback(&DataSackLog::Rx, this));
        socket->TraceConnectWithoutContext("TxChunk", MakeCallback(&DataSackLog::Tx, this));
    }

    void Rx(uint8_t type, uint8_t, uint16_t, uint32_t)
    {
        if (type == SctpChunk::DATA)
        {
            dataIn.push_back(Simulator::Now());
        }
    }

    void Tx(uint8_t type, uint8_t, uint16_t, uint32_t)
    {
        if (type == SctpChunk::SACK)
        {
            sackOut.push_back(Simulator::Now());
        }
    }

    std::vector<Time> dataIn;  //!< DATA chunks received
    std::vector<Time> sackOut; //!< SACK chunks sent
};

} // namespace

/** INIT, INIT ACK, COOKIE ECHO, COOKIE ACK ... SHUTDOWN, SHUTDOWN ACK, SHUTDOWN COMPLETE. */
class SctpHandshakeTestCase : public TestCase
{
  public:
    SctpHandshakeTestCase()
        : TestCase("handshake and shutdown chunk sequence")
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes net(1, DataRate("10Mbps"), MilliSeconds(10));
        Ptr<ChunkLog> chunks = Create<ChunkLog>();
        chunks->WatchNode(net.nodes.Get(0), 'c');
        chunks->WatchNode(net.nodes.Get(1), 's');
        Ptr<Sink> sink = Create<Sink>();
        sink->Listen(net.Socket(1), 9);
        Ptr<Source> source = Create<Source>();
        source->closeWhenDone = true;
        Ptr<SctpSocket> client = net.Socket(0);
        Ptr<StateLog> clientStates = Create<StateLog>();
        client->TraceConnectWithoutContext("State", MakeCallback(&StateLog::Record, clientStates));
        source->StartAt(Seconds(1), client, InetSocketAddress(net.Address(1), 9), 10, 1000);
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        std::vector<std::string> expected = {"c:INIT",
                                             "s:INIT_ACK",
                                             "c:COOKIE_ECHO",
                                             "s:COOKIE_ACK",
                                             "c:SHUTDOWN",
                                             "s:SHUTDOWN_ACK",
                                             "c:SHUTDOWN_COMPLETE"};
        std::vector<std::string> control = chunks->Control();
        NS_TEST_ASSERT_MSG_EQ(control.size(), expected.size(), "seven control chunks");
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(control[i], expected[i], "control chunk " << i);
        }
        std::vector<SctpState> states = {SCTP_COOKIE_WAIT,
                                         SCTP_COOKIE_ECHOED,
                                         SCTP_ESTABLISHED,
                                         SCTP_SHUTDOWN_PENDING,
                                         SCTP_SHUTDOWN_SENT,
                                         SCTP_CLOSED};
        NS_TEST_ASSERT_MSG_EQ(clientStates->states.size(), states.size(), "client states");
        for (std::size_t i = 0; i < states.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(SctpStateName(clientStates->states[i]),
                                  SctpStateName(states[i]),
                                  "client state " << i);
        }
        NS_TEST_ASSERT_MSG_EQ(sink->accepted.size(), 1u, "one association accepted");
        NS_TEST_EXPECT_MSG_EQ(sink->sizes.size(), 10u, "every message delivered");
        NS_TEST_EXPECT_MSG_EQ(sink->bytes, 10000u, "every byte delivered");
        NS_TEST_EXPECT_MSG_EQ(sink->accepted[0]->GetState(), SCTP_CLOSED, "server closed");
        // The first DATA chunk follows the COOKIE ACK: nothing is sent before it.
        for (std::size_t i = 0; i < chunks->types.size() && chunks->types[i] != SctpChunk::DATA;
             ++i)
        {
            NS_TEST_EXPECT_MSG_NE(chunks->types[i], SctpChunk::SACK, "no SACK before DATA");
        }
        Simulator::Destroy();
    }
};

/** Each end's local tag is the other's peer tag, both random and non-zero (5.3.1). */
class SctpTagsTestCase : public TestCase
{
  public:
    SctpTagsTestCase()
        : TestCase("verification tags and negotiated streams")
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes net(1, DataRate("10Mbps"), MilliSeconds(5));
        Ptr<Sink> sink = Create<Sink>();
        Ptr<SctpSocket> server = net.Socket(1);
        server->SetAttribute("MaxInboundStreams", UintegerValue(3));
        sink->Listen(server, 9);
        Ptr<Source> source = Create<Source>();
        Ptr<SctpSocket> client = net.Socket(0);
        client->SetAttribute("OutboundStreams", UintegerValue(7));
        source->StartAt(Seconds(1), client, InetSocketAddress(net.Address(1), 9), 1, 100);
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(sink->accepted.size(), 1u, "accepted");
        Ptr<SctpAssociation> c = client->GetAssociation();
        Ptr<SctpAssociation> s = sink->accepted[0]->GetAssociation();
        NS_TEST_EXPECT_MSG_EQ(c->GetLocalVerificationTag(), s->GetPeerVerificationTag(), "tag c");
        NS_TEST_EXPECT_MSG_EQ(s->GetLocalVerificationTag(), c->GetPeerVerificationTag(), "tag s");
        NS_TEST_EXPECT_MSG_NE(c->GetLocalVerificationTag(), 0u, "non-zero");
        NS_TEST_EXPECT_MSG_EQ(c->GetOutboundStreams(), 3, "min(OS 7, MIS 3)");
        NS_TEST_EXPECT_MSG_EQ(s->GetInboundStreams(), 3, "the server's MIS");
        NS_TEST_EXPECT_MSG_EQ(sink->accepted[0]->GetLocalPort(), 9, "accepted on port 9");
        NS_TEST_EXPECT_MSG_EQ(client->CheckInvariants(), "", "client bookkeeping");
        Simulator::Destroy();
    }
};

/**
 * RFC 9260 section 5.1: "After the reception of the first DATA chunk in an association the
 * endpoint MUST immediately respond with a SACK". One message of one DATA chunk: with
 * ImmediateFirstSack the server's SACK leaves when the DATA arrives; without it (the
 * model's default) the delayed SACK timer (6.2) sends it one SackDelay later.
 */
class SctpFirstSackTestCase : public TestCase
{
  public:
    explicit SctpFirstSackTestCase(bool immediate)
        : TestCase(immediate ? "first DATA SACKed at once (ImmediateFirstSack true)"
                             : "first DATA SACKed after SackDelay (ImmediateFirstSack false)"),
          m_immediate(immediate)
    {
    }

  private:
    void DoRun() override
    {
        TwoNodes net(1, DataRate("10Mbps"), MilliSeconds(10));
        Ptr<DataSackLog> log = Create<DataSackLog>();
        log->WatchNode(net.nodes.Get(1));
        Ptr<Sink> sink = Create<Sink>();
        Ptr<SctpSocket> server = net.Socket(1);
        server->SetAttribute("ImmediateFirstSack", BooleanValue(m_immediate));
        server->SetAttribute("SackDelay", TimeValue(MilliSeconds(200)));
        sink->Listen(server, 9);
        Ptr<Source> source = Create<Source>();
        source->StartAt(Seconds(1), net.Socket(0), InetSocketAddress(net.Address(1), 9), 1, 1000);
        Simulator::Stop(Seconds(3));
        Simulator::Run();

        NS_TEST_ASSERT_MSG_EQ(sink->sizes.size(), 1u, "the message delivered");
        NS_TEST_ASSERT_MSG_EQ(log->dataIn.size(), 1u, "one DATA chunk, not retransmitted");
        NS_TEST_ASSERT_MSG_EQ(log->sackOut.size(), 1u, "one SACK");
        Time expected = log->dataIn[0] + (m_immediate ? Time(0) : MilliSeconds(200));
        NS_TEST_EXPECT_MSG_EQ(log->sackOut[0],
                              expected,
                              "the first SACK " << (m_immediate ? "at the DATA's arrival"
                                                                : "one SackDelay later"));
        Simulator::Destroy();
    }

    bool m_immediate;
};

/** \ingroup sctp-tests Association set-up and shutdown. */
class SctpHandshakeTestSuite : public TestSuite
{
  public:
    SctpHandshakeTestSuite()
        : TestSuite("sctp-handshake", Type::SYSTEM)
    {
        AddTestCase(new SctpHandshakeTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpTagsTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpFirstSackTestCase(false), TestCase::Duration::QUICK);
        AddTestCase(new SctpFirstSackTestCase(true), TestCase::Duration::QUICK);
    }
};

static SctpHandshakeTestSuite g_sctpHandshakeTestSuite;
