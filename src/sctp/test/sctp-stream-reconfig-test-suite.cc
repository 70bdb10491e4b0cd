/*
 * Stream reconfiguration (RFC 6525): the RE-CONFIG chunk and its parameters on the wire,
 * and the procedures of section 5 between two model endpoints: an outgoing SSN reset in
 * the middle of a transfer (with and without a loss before the reset point, with DATA
 * and with I-DATA, whose MIDs the reset numbers from 0 again, RFC 8260 2.3.2), an
 * incoming SSN reset request, adding streams both ways, a lost request retransmitted on
 * its timer, the SSN/TSN reset renumbering both directions, and every request refused
 * without negotiation.
 */
#include "sctp-test-network.h"

#include "ns3/sctp-reconfig-chunk.h"
#include "ns3/sctp-stream-reconfig.h"
#include "ns3/test.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;
using namespace ns3::sctptest;

namespace
{

using Param = SctpReconfigParameter;

/** What one socket's StreamReconfig trace reported. */
class ReconfigLog : public SimpleRefCount<ReconfigLog>
{
  public:
    struct Entry
    {
        SctpReconfigEvent event;
        uint16_t type;
        uint32_t seq;
        uint32_t result;
        Time at;
    };

    void Record(SctpReconfigEvent event, uint16_t type, uint32_t seq, uint32_t result)
    {
        entries.push_back({event, type, seq, result, Simulator::Now()});
    }

    /** Entries of \p event for parameter \p type (and \p result unless UINT32_MAX). */
    uint32_t Count(SctpReconfigEvent event, uint16_t type, uint32_t result = UINT32_MAX) const
    {
        uint32_t n = 0;
        for (const auto& e : entries)
        {
            n += e.event == event && e.type == type && (result == UINT32_MAX || e.result == result);
        }
        return n;
    }

    std::vector<Entry> entries;
};

/** Drops the first \p count packets that carry a RE-CONFIG chunk. */
class ReconfigDropper : public ErrorModel
{
  public:
    uint32_t count{1};
    uint32_t dropped{0};

  private:
    bool DoCorrupt(Ptr<Packet> p) override
    {
        if (dropped >= count)
        {
            return false;
        }
        std::vector<uint8_t> bytes;
        std::vector<SctpChunk> chunks;
        if (!SctpChunksOf(p, bytes, chunks))
        {
            return false;
        }
        for (const auto& c : chunks)
        {
            if (c.type == SctpChunk::RE_CONFIG)
            {
                ++dropped;
                return true;
            }
        }
        return false;
    }

    void DoReset() override
    {
    }
};

/**
 * Two nodes, a client socket and a reading server (its messages' first word is the index
 * they were sent with), both ends' RE-CONFIG chosen, and both StreamReconfig traces.
 */
class Bench
{
  public:
    Bench(bool clientReconfig,
          bool serverReconfig,
          uint16_t clientOutbound = 10,
          bool iData = false)
        : net(1, DataRate("10Mbps"), MilliSeconds(20))
    {
        Ptr<SctpSocket> listener = net.Socket(1);
        listener->SetAttribute("ReconfigSupported", BooleanValue(serverReconfig));
        listener->SetAttribute("IDataSupported", BooleanValue(iData));
        server->onAccept = MakeCallback(&Bench::Accepted, this);
        server->Listen(listener, 9);
        client = net.Socket(0);
        client->SetAttribute("ReconfigSupported", BooleanValue(clientReconfig));
        client->SetAttribute("OutboundStreams", UintegerValue(clientOutbound));
        client->SetAttribute("IDataSupported", BooleanValue(iData));
        client->TraceConnectWithoutContext("StreamReconfig",
                                           MakeCallback(&ReconfigLog::Record, clientLog));
        chunks->WatchNode(net.nodes.Get(0), 'c');
        Simulator::Schedule(Seconds(0.5),
                            &Bench::Connect,
                            this,
                            InetSocketAddress(net.Address(1), 9));
    }

    void Connect(ns3::Address peer)
    {
        client->Connect(peer);
    }

    void Accepted(Ptr<SctpSocket> socket)
    {
        socket->TraceConnectWithoutContext("StreamReconfig",
                                           MakeCallback(&ReconfigLog::Record, serverLog));
    }

    /** The server's socket of the association. */
    Ptr<SctpSocket> Server() const
    {
        return server->accepted.at(0);
    }

    /** Send message \p index (its first 4 bytes) of \p size bytes on \p stream. */
    static int Send(Ptr<SctpSocket> socket, uint16_t stream, uint32_t index, uint32_t size = 1000)
    {
        std::vector<uint8_t> bytes(size, 0);
        bytes[0] = uint8_t(index >> 24);
        bytes[1] = uint8_t(index >> 16);
        bytes[2] = uint8_t(index >> 8);
        bytes[3] = uint8_t(index);
        Ptr<Packet> p = Create<Packet>(bytes.data(), size);
        p->AddPacketTag(SctpSendInfoTag(stream, 0, false));
        return socket->Send(p);
    }

    TwoNodes net;
    Ptr<SctpSocket> client;
    Ptr<Sink> server = Create<Sink>();
    Ptr<ReconfigLog> clientLog = Create<ReconfigLog>();
    Ptr<ReconfigLog> serverLog = Create<ReconfigLog>();
    Ptr<ChunkLog> chunks = Create<ChunkLog>();
};

std::vector<uint16_t>
Range(uint16_t n)
{
    std::vector<uint16_t> v(n);
    for (uint16_t i = 0; i < n; ++i)
    {
        v[i] = i;
    }
    return v;
}

std::vector<uint16_t>
Concat(std::vector<uint16_t> a, const std::vector<uint16_t>& b)
{
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

} // namespace

/** Every parameter of RFC 6525 section 4 survives a round trip; bad lengths are refused. */
class SctpReconfigWireTestCase : public TestCase
{
  public:
    SctpReconfigWireTestCase()
        : TestCase("RE-CONFIG chunk and parameters: wire format (RFC 6525 3.1, 4)")
    {
    }

  private:
    void DoRun() override
    {
        SctpReconfigChunk chunk;
        chunk.parameters = {Param::OutgoingReset(100, 99, 0xfffffff0, {1, 2, 5}),
                            Param::IncomingReset(101, {7})};
        std::vector<uint8_t> bytes = chunk.ToBytes();
        // Chunk header 4 + outgoing 16 + 3 streams (6, padded to 24) + incoming 8 + 2 = 38.
        NS_TEST_ASSERT_MSG_EQ(bytes[0], 130, "chunk type");
        auto u16 = [&bytes](std::size_t at) { return int((bytes[at] << 8) | bytes[at + 1]); };
        NS_TEST_EXPECT_MSG_EQ(u16(2), 38, "length excludes the last padding");
        NS_TEST_EXPECT_MSG_EQ(u16(4), 13, "first parameter type");
        NS_TEST_EXPECT_MSG_EQ(u16(6), 22, "outgoing request length 16 + 2N");
        std::vector<SctpChunk> views;
        NS_TEST_ASSERT_MSG_EQ(SctpSplitChunks(bytes.data(), bytes.size(), views), true, "split");
        SctpReconfigChunk back;
        NS_TEST_ASSERT_MSG_EQ(back.Deserialize(views[0]), true, "parse");
        NS_TEST_ASSERT_MSG_EQ(back.parameters.size(), 2, "two parameters");
        const Param& out = back.parameters[0];
        NS_TEST_EXPECT_MSG_EQ(out.type, SctpTlv::OUTGOING_SSN_RESET_REQUEST, "type");
        NS_TEST_EXPECT_MSG_EQ(out.sequenceNumber, 100, "request seq");
        NS_TEST_EXPECT_MSG_EQ(out.responseSequenceNumber, 99, "response seq");
        NS_TEST_EXPECT_MSG_EQ(out.lastAssignedTsn, 0xfffffff0, "last TSN");
        NS_TEST_EXPECT_MSG_EQ(out.streams.size(), 3, "streams");
        NS_TEST_EXPECT_MSG_EQ(out.streams[2], 5, "third stream");
        NS_TEST_EXPECT_MSG_EQ(back.parameters[1].streams.at(0), 7, "incoming stream");

        std::vector<Param> others = {Param::SsnTsnReset(5),
                                     Param::Response(6, Param::IN_PROGRESS),
                                     Param::AddOutgoingStreams(7, 300),
                                     Param::AddIncomingStreams(8, 2)};
        Param withTsns = Param::Response(9, Param::SUCCESS_PERFORMED);
        withTsns.hasNextTsns = true;
        withTsns.senderNextTsn = 1234;
        withTsns.receiverNextTsn = 5678;
        others.push_back(withTsns);
        for (const auto& p : others)
        {
            SctpTlv tlv = p.ToTlv();
            Param q;
            NS_TEST_ASSERT_MSG_EQ(q.Deserialize(tlv), true, Param::TypeName(p.type));
            NS_TEST_EXPECT_MSG_EQ(q.type, p.type, "type");
            NS_TEST_EXPECT_MSG_EQ(q.sequenceNumber, p.sequenceNumber, "seq");
            NS_TEST_EXPECT_MSG_EQ(q.newStreams, p.newStreams, "new streams");
            NS_TEST_EXPECT_MSG_EQ(q.result, p.result, "result");
            NS_TEST_EXPECT_MSG_EQ(q.hasNextTsns, p.hasNextTsns, "optional TSNs");
            NS_TEST_EXPECT_MSG_EQ(q.receiverNextTsn, p.receiverNextTsn, "receiver next TSN");
        }
        NS_TEST_EXPECT_MSG_EQ(Param::AddOutgoingStreams(1, 1).ToTlv().GetLength(), 12, "4.5");
        NS_TEST_EXPECT_MSG_EQ(Param::Response(1, 0).ToTlv().GetLength(), 12, "4.4");
        NS_TEST_EXPECT_MSG_EQ(withTsns.ToTlv().GetLength(), 20, "4.4 with TSNs");

        Param bad;
        NS_TEST_EXPECT_MSG_EQ(bad.Deserialize(SctpTlv(SctpTlv::INCOMING_SSN_RESET_REQUEST,
                                                      {0, 0, 0, 1, 0, 2, 0})),
                              false,
                              "odd stream list");
        NS_TEST_EXPECT_MSG_EQ(bad.Deserialize(SctpTlv(SctpTlv::RECONFIG_RESPONSE, {0, 0, 0, 1})),
                              false,
                              "short response");
        NS_TEST_EXPECT_MSG_EQ(bad.Deserialize(SctpTlv(SctpTlv::OUTGOING_SSN_RESET_REQUEST,
                                                      {0, 0, 0, 1})),
                              false,
                              "short outgoing request");
        NS_TEST_EXPECT_MSG_EQ(bad.Deserialize(SctpTlv(SctpTlv::STATE_COOKIE, {0, 0, 0, 1})),
                              false,
                              "not an RFC 6525 parameter");
        NS_TEST_EXPECT_MSG_EQ(Param::ResultName(Param::SUCCESS_PERFORMED),
                              "Success - Performed",
                              "result name");
    }
};

/**
 * Outgoing SSN reset in the middle of a transfer (5.1.2, 5.2.2): 80 messages alternate
 * over streams 0 and 1, stream 1 is reset right after they are sent, and 20 more follow
 * at once. The 10 later messages of stream 1 wait for the reset and arrive with SSN 0
 * to 9; stream 0 is not touched; every message arrives once and in order. With
 * \p loss, the chunk of TSN offset 76 is lost, before the reset point. With \p iData
 * the association uses I-DATA: the reset numbers stream 1's messages from MID 0 again at
 * both ends (RFC 8260 2.3.2), and the receiver delivers MID 0-9 after MID 0-39.
 */
class SctpOutgoingResetTestCase : public TestCase
{
  public:
    SctpOutgoingResetTestCase(bool loss, bool iData)
        : TestCase(std::string(loss ? "outgoing SSN reset mid-transfer, a loss before the "
                                      "reset point"
                                    : "outgoing SSN reset mid-transfer") +
                   (iData ? ", I-DATA" : "")),
          m_loss(loss),
          m_iData(iData)
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(true, true, 10, m_iData);
        Ptr<Dropper> dropper = CreateObject<Dropper>();
        if (m_loss)
        {
            dropper->dataOffsets = {76};
        }
        bench.net.devices[0].Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(dropper));
        int resetResult = -2;
        Simulator::Schedule(Seconds(1), [&]() {
            for (uint32_t i = 0; i < 80; ++i)
            {
                Bench::Send(bench.client, i % 2, i);
            }
            resetResult = bench.client->ResetStreams({1}, true, false);
            for (uint32_t i = 80; i < 100; ++i)
            {
                Bench::Send(bench.client, i % 2, i);
            }
        });
        Simulator::Stop(Seconds(10));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(resetResult, 0, "the request is accepted");
        NS_TEST_EXPECT_MSG_EQ(bench.client->GetAssociation()->IsIDataNegotiated(),
                              m_iData,
                              "the chunk format");
        NS_TEST_EXPECT_MSG_EQ(bench.server->sizes.size(), 100, "every message once");
        std::vector<uint16_t> expect1 = Concat(Range(40), Range(10));
        NS_TEST_EXPECT_MSG_EQ((bench.server->Ssns(1) == expect1),
                              true,
                              "stream 1: SSN 0-39, then 0-9 after the reset");
        NS_TEST_EXPECT_MSG_EQ((bench.server->Ssns(0) == Range(50)), true, "stream 0: 0-49");
        for (uint16_t s = 0; s < 2; ++s)
        {
            std::vector<uint32_t> idx = bench.server->FirstWords(s);
            NS_TEST_EXPECT_MSG_EQ(idx.size(), 50, "messages of the stream");
            for (std::size_t k = 0; k < idx.size(); ++k)
            {
                NS_TEST_EXPECT_MSG_EQ(idx[k], 2 * k + s, "in the order sent");
            }
        }
        const ReconfigLog& c = *bench.clientLog;
        const ReconfigLog& s = *bench.serverLog;
        NS_TEST_EXPECT_MSG_EQ(c.Count(SctpReconfigEvent::REQUEST_SENT,
                                      SctpTlv::OUTGOING_SSN_RESET_REQUEST),
                              1,
                              "one request");
        NS_TEST_EXPECT_MSG_EQ(c.Count(SctpReconfigEvent::RESPONSE_RECEIVED,
                                      SctpTlv::OUTGOING_SSN_RESET_REQUEST,
                                      Param::SUCCESS_PERFORMED),
                              1,
                              "performed");
        NS_TEST_EXPECT_MSG_EQ(s.Count(SctpReconfigEvent::REQUEST_RECEIVED,
                                      SctpTlv::OUTGOING_SSN_RESET_REQUEST),
                              1,
                              "the server saw it");
        if (m_loss)
        {
            // The request arrives while TSN offset 76 is missing: the server defers the
            // reset ("In progress"), performs it once the retransmission fills the hole,
            // and says so.
            NS_TEST_EXPECT_MSG_EQ(c.Count(SctpReconfigEvent::RESPONSE_RECEIVED,
                                          SctpTlv::OUTGOING_SSN_RESET_REQUEST,
                                          Param::IN_PROGRESS),
                                  1,
                                  "deferred first");
            NS_TEST_EXPECT_MSG_EQ(s.Count(SctpReconfigEvent::PERFORMED,
                                          SctpTlv::OUTGOING_SSN_RESET_REQUEST),
                                  1,
                                  "deferred reset performed");
        }
        NS_TEST_EXPECT_MSG_EQ(bench.client->GetAssociation()->CheckInvariants(), "", "client");
        NS_TEST_EXPECT_MSG_EQ(bench.Server()->GetAssociation()->CheckInvariants(),
                              "",
                              "server");
        if (m_iData)
        {
            const SctpIDataReassemblyQueue& q =
                bench.Server()->GetAssociation()->GetReceiver().GetIDataReassemblyQueue();
            NS_TEST_EXPECT_MSG_EQ(q.GetNextMid(1), 10u, "stream 1 expects MID 10 next");
            NS_TEST_EXPECT_MSG_EQ(q.GetNextMid(0), 50u, "stream 0 was not reset");
        }
        Simulator::Destroy();
    }

    bool m_loss;
    bool m_iData;
};

/**
 * Incoming SSN reset request (5.1.3, 5.2.3): the server asks the client to reset its
 * outgoing stream 2; the client answers with an Outgoing SSN Reset Request, and its
 * next messages on stream 2 start again at SSN 0.
 */
class SctpIncomingResetTestCase : public TestCase
{
  public:
    SctpIncomingResetTestCase()
        : TestCase("incoming SSN reset request")
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(true, true);
        int result = -2;
        Simulator::Schedule(Seconds(1), [&]() {
            for (uint32_t i = 0; i < 10; ++i)
            {
                Bench::Send(bench.client, 2, i);
            }
        });
        Simulator::Schedule(Seconds(2), [&]() {
            result = bench.Server()->ResetStreams({2}, false, true);
        });
        Simulator::Schedule(Seconds(3), [&]() {
            for (uint32_t i = 10; i < 15; ++i)
            {
                Bench::Send(bench.client, 2, i);
            }
        });
        Simulator::Stop(Seconds(6));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(result, 0, "accepted");
        NS_TEST_EXPECT_MSG_EQ((bench.server->Ssns(2) == Concat(Range(10), Range(5))),
                              true,
                              "SSN 0-9, then 0-4");
        const ReconfigLog& c = *bench.clientLog;
        const ReconfigLog& s = *bench.serverLog;
        NS_TEST_EXPECT_MSG_EQ(
            s.Count(SctpReconfigEvent::REQUEST_SENT, SctpTlv::INCOMING_SSN_RESET_REQUEST),
            1,
            "server asked");
        NS_TEST_EXPECT_MSG_EQ(
            c.Count(SctpReconfigEvent::REQUEST_RECEIVED, SctpTlv::INCOMING_SSN_RESET_REQUEST),
            1,
            "client got it");
        NS_TEST_EXPECT_MSG_EQ(
            c.Count(SctpReconfigEvent::REQUEST_SENT, SctpTlv::OUTGOING_SSN_RESET_REQUEST),
            1,
            "client answered with its outgoing reset");
        NS_TEST_EXPECT_MSG_EQ(s.Count(SctpReconfigEvent::RESPONSE_RECEIVED,
                                      SctpTlv::INCOMING_SSN_RESET_REQUEST,
                                      Param::SUCCESS_PERFORMED),
                              1,
                              "the outgoing request answers the incoming one (5.2.2 E1)");
        NS_TEST_EXPECT_MSG_EQ(c.Count(SctpReconfigEvent::RESPONSE_RECEIVED,
                                      SctpTlv::OUTGOING_SSN_RESET_REQUEST,
                                      Param::SUCCESS_PERFORMED),
                              1,
                              "and is performed");
        NS_TEST_EXPECT_MSG_EQ(bench.Server()->GetAssociation()
                                  ->GetStreamReconfig()
                                  .HasOutstandingRequest(),
                              false,
                              "nothing left outstanding");
        Simulator::Destroy();
    }
};

/**
 * Add Outgoing and Incoming Streams (5.1.5, 5.1.6, 5.2.5, 5.2.6): the client has 2
 * outbound streams, adds 2 and asks the server for 1 more of its own; a message on the
 * new stream 3 arrives on stream 3.
 */
class SctpAddStreamsTestCase : public TestCase
{
  public:
    /** \param iData with I-DATA, the receiver's MID ordering grows with the streams too. */
    explicit SctpAddStreamsTestCase(bool iData)
        : TestCase(iData ? "add outgoing and incoming streams, I-DATA"
                         : "add outgoing and incoming streams"),
          m_iData(iData)
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(true, true, 2, m_iData);
        int before = 0;
        int add = -2;
        int after = -2;
        Simulator::Schedule(Seconds(1), [&]() {
            before = Bench::Send(bench.client, 3, 1);
            add = bench.client->AddStreams(2, 1);
        });
        Simulator::Schedule(Seconds(2), [&]() { after = Bench::Send(bench.client, 3, 2); });
        Simulator::Stop(Seconds(5));
        Simulator::Run();

        Ptr<SctpAssociation> c = bench.client->GetAssociation();
        Ptr<SctpAssociation> s = bench.Server()->GetAssociation();
        NS_TEST_EXPECT_MSG_EQ(before, -1, "stream 3 does not exist yet");
        NS_TEST_EXPECT_MSG_EQ(add, 0, "add accepted");
        NS_TEST_EXPECT_MSG_EQ(c->GetOutboundStreams(), 4, "client: 2 + 2 outbound");
        NS_TEST_EXPECT_MSG_EQ(s->GetInboundStreams(), 4, "server: 2 + 2 inbound");
        NS_TEST_EXPECT_MSG_EQ(s->GetOutboundStreams(), 11, "server: 10 + 1 outbound");
        NS_TEST_EXPECT_MSG_EQ(c->GetInboundStreams(), 11, "client: 10 + 1 inbound");
        NS_TEST_EXPECT_MSG_EQ(after, 1000, "sent on stream 3");
        NS_TEST_EXPECT_MSG_EQ(bench.server->sizes.size(), 1, "one message");
        NS_TEST_EXPECT_MSG_EQ((bench.server->streams == std::vector<uint16_t>{3}),
                              true,
                              "on the new stream");
        NS_TEST_EXPECT_MSG_EQ((bench.server->ssns == std::vector<uint16_t>{0}),
                              true,
                              "its first SSN");
        NS_TEST_EXPECT_MSG_EQ(bench.serverLog->Count(SctpReconfigEvent::REQUEST_SENT,
                                                       SctpTlv::ADD_OUTGOING_STREAMS_REQUEST),
                              1,
                              "the server added its outgoing streams by request (5.2.6)");
        NS_TEST_EXPECT_MSG_EQ(c->IsIDataNegotiated(), m_iData, "the chunk format");
        Simulator::Destroy();
    }

    bool m_iData;
};

/**
 * SSN/TSN reset (5.1.4, 5.2.4): refused while the client's data is unacknowledged; once
 * it is, both directions are renumbered. The client's next message carries the
 * server's Receiver's Next TSN (the server's cumulative TSN + 1 + 2^31) and SSN 0, the
 * server's next message the TSN it would have used anyway and SSN 0.
 */
class SctpSsnTsnResetTestCase : public TestCase
{
  public:
    SctpSsnTsnResetTestCase()
        : TestCase("SSN-TSN reset renumbers both directions")
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(true, true);
        Ptr<Sink> clientReader = Create<Sink>();
        int busy = 0;
        Socket::SocketErrno busyErrno = Socket::ERROR_NOTERROR;
        int reset = -2;
        uint32_t serverNextTsn = 0;
        Simulator::Schedule(Seconds(1), [&]() {
            bench.client->SetRecvCallback(MakeCallback(&Sink::Read, clientReader));
            for (uint32_t i = 0; i < 5; ++i)
            {
                Bench::Send(bench.client, 0, i);
                Bench::Send(bench.Server(), 0, 100 + i);
            }
            busy = bench.client->ResetAssociation();
            busyErrno = bench.client->GetErrno();
        });
        Simulator::Schedule(Seconds(2), [&]() {
            serverNextTsn = bench.Server()->GetAssociation()->GetSender().GetNextTsn();
            reset = bench.client->ResetAssociation();
            Bench::Send(bench.client, 0, 5); // held until the answer
        });
        Simulator::Schedule(Seconds(3), [&]() {
            Bench::Send(bench.client, 0, 6);
            Bench::Send(bench.Server(), 0, 105);
        });
        Simulator::Stop(Seconds(5));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(busy, -1, "refused while data is unacknowledged");
        NS_TEST_EXPECT_MSG_EQ(busyErrno, Socket::ERROR_AGAIN, "try again later");
        NS_TEST_EXPECT_MSG_EQ(reset, 0, "accepted once all is acknowledged");
        NS_TEST_EXPECT_MSG_EQ(bench.clientLog->Count(SctpReconfigEvent::RESPONSE_RECEIVED,
                                                     SctpTlv::SSN_TSN_RESET_REQUEST,
                                                     Param::SUCCESS_PERFORMED),
                              1,
                              "performed");
        NS_TEST_EXPECT_MSG_EQ((bench.server->Ssns(0) == Concat(Range(5), Range(2))),
                              true,
                              "client to server: SSN 0-4, then 0-1");
        NS_TEST_EXPECT_MSG_EQ((clientReader->Ssns(0) == Concat(Range(5), Range(1))),
                              true,
                              "server to client: SSN 0-4, then 0");
        Ptr<SctpAssociation> s = bench.Server()->GetAssociation();
        Ptr<SctpAssociation> c = bench.client->GetAssociation();
        NS_TEST_ASSERT_MSG_EQ(bench.server->sizes.size(), 7, "every client message");
        NS_TEST_ASSERT_MSG_EQ(clientReader->sizes.size(), 6, "every server message");
        // One chunk per message: the server's cumulative TSN was message 4's TSN.
        const auto& in = bench.server->tsns;
        NS_TEST_EXPECT_MSG_EQ(in[5], in[4] + 1 + (1u << 31), "G1: + 2^31");
        NS_TEST_EXPECT_MSG_EQ(in[6], in[5] + 1, "then consecutive");
        NS_TEST_EXPECT_MSG_EQ(clientReader->tsns[5], serverNextTsn, "G2: the server's next TSN");
        NS_TEST_EXPECT_MSG_EQ(clientReader->firstWords[5],
                              105,
                              "the server's message after the reset");
        NS_TEST_EXPECT_MSG_EQ(c->CheckInvariants(), "", "client");
        NS_TEST_EXPECT_MSG_EQ(s->CheckInvariants(), "", "server");
        Simulator::Destroy();
    }
};

/** A lost request is sent again after the RTO (5.1.1), then answered. */
class SctpReconfigRetransmitTestCase : public TestCase
{
  public:
    SctpReconfigRetransmitTestCase()
        : TestCase("a lost RE-CONFIG request is retransmitted")
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(true, true);
        Ptr<ReconfigDropper> dropper = CreateObject<ReconfigDropper>();
        bench.net.devices[0].Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(dropper));
        Time rto;
        Simulator::Schedule(Seconds(1), [&]() {
            rto = bench.client->GetAssociation()->GetPathManager().GetPrimaryPath()->GetRto();
            bench.client->ResetStreams({}, true, false);
        });
        Simulator::Stop(Seconds(8));
        Simulator::Run();

        const ReconfigLog& c = *bench.clientLog;
        NS_TEST_EXPECT_MSG_EQ(dropper->dropped, 1, "the first request was lost");
        NS_TEST_EXPECT_MSG_EQ(
            bench.client->GetAssociation()->GetStreamReconfig().GetRetransmissionCount(),
            1,
            "sent once more");
        NS_TEST_ASSERT_MSG_EQ(c.entries.size(), 3, "sent, retransmitted, answered");
        NS_TEST_EXPECT_MSG_EQ((c.entries[1].event == SctpReconfigEvent::REQUEST_RETRANSMITTED),
                              true,
                              "retransmitted");
        NS_TEST_EXPECT_MSG_EQ(c.entries[1].seq, c.entries[0].seq, "same sequence number");
        NS_TEST_EXPECT_MSG_EQ(c.entries[1].at - c.entries[0].at, rto, "after one RTO");
        NS_TEST_EXPECT_MSG_EQ(c.entries[2].result, Param::SUCCESS_PERFORMED, "then performed");
        NS_TEST_EXPECT_MSG_EQ(bench.serverLog->Count(SctpReconfigEvent::REQUEST_RECEIVED,
                                                       SctpTlv::OUTGOING_SSN_RESET_REQUEST),
                              1,
                              "the server saw one copy");
        Simulator::Destroy();
    }
};

/** Without RE-CONFIG at both ends (section 3) every request is refused, none is sent. */
class SctpReconfigNotNegotiatedTestCase : public TestCase
{
  public:
    SctpReconfigNotNegotiatedTestCase()
        : TestCase("requests refused unless both ends announced RE-CONFIG")
    {
    }

  private:
    void DoRun() override
    {
        Bench bench(true, false);
        std::vector<int> results;
        std::vector<Socket::SocketErrno> errors;
        bool negotiated = true;
        Simulator::Schedule(Seconds(1), [&]() {
            negotiated = bench.client->GetAssociation()->IsReconfigNegotiated();
            results.push_back(bench.client->ResetStreams({0}, true, false));
            errors.push_back(bench.client->GetErrno());
            results.push_back(bench.client->ResetStreams({0}, false, true));
            results.push_back(bench.client->AddStreams(1, 0));
            results.push_back(bench.client->ResetAssociation());
            results.push_back(bench.Server()->AddStreams(1, 0));
            errors.push_back(bench.Server()->GetErrno());
            Bench::Send(bench.client, 0, 0);
        });
        Simulator::Stop(Seconds(3));
        Simulator::Run();

        NS_TEST_EXPECT_MSG_EQ(negotiated, false, "the server did not announce it");
        for (int r : results)
        {
            NS_TEST_EXPECT_MSG_EQ(r, -1, "refused");
        }
        for (auto e : errors)
        {
            NS_TEST_EXPECT_MSG_EQ(e, Socket::ERROR_OPNOTSUPP, "not supported");
        }
        NS_TEST_EXPECT_MSG_EQ(std::count(bench.chunks->types.begin(),
                                         bench.chunks->types.end(),
                                         SctpChunk::RE_CONFIG),
                              0,
                              "no RE-CONFIG on the wire");
        NS_TEST_EXPECT_MSG_EQ(bench.server->sizes.size(), 1, "data still flows");
        Simulator::Destroy();
    }
};

/** \ingroup sctp-tests Stream reconfiguration (RFC 6525). */
class SctpStreamReconfigTestSuite : public TestSuite
{
  public:
    SctpStreamReconfigTestSuite()
        : TestSuite("sctp-stream-reconfig", Type::SYSTEM)
    {
        AddTestCase(new SctpReconfigWireTestCase(), TestCase::Duration::QUICK);
        for (bool iData : {false, true})
        {
            AddTestCase(new SctpOutgoingResetTestCase(false, iData), TestCase::Duration::QUICK);
            AddTestCase(new SctpOutgoingResetTestCase(true, iData), TestCase::Duration::QUICK);
        }
        AddTestCase(new SctpIncomingResetTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpAddStreamsTestCase(false), TestCase::Duration::QUICK);
        AddTestCase(new SctpAddStreamsTestCase(true), TestCase::Duration::QUICK);
        AddTestCase(new SctpSsnTsnResetTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpReconfigRetransmitTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new SctpReconfigNotNegotiatedTestCase(), TestCase::Duration::QUICK);
    }
};

static SctpStreamReconfigTestSuite g_sctpStreamReconfigTestSuite;
