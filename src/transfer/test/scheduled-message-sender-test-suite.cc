/*
 * ScheduledMessageSender: the schedule of a hand-built scenario as the application
 * produces it (times, sequence numbers, sizes) and as the receiver gets it (stream,
 * size, production timestamp), over one SCTP association with the messages on their
 * streams, and over TCP with one connection per stream.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/object-transfer-stream.h"
#include "ns3/scheduled-message-sender.h"
#include "ns3/test.h"

#include <string>
#include <vector>

using namespace ns3;

namespace
{

/** One message of the plan: when (after the application starts), how big, which stream. */
struct PlannedMessage
{
    Time at;
    uint32_t size;
    uint16_t stream;
};

/** A message as seen by a trace: when, its header's fields, the packet's size. */
struct SeenMessage
{
    Time now;
    uint32_t seq;
    Time produced; //!< the header's timestamp
    uint64_t headerSize;
    uint32_t packetSize;
    int32_t stream{-1}; //!< SCTP stream it arrived on (receiver only)
    uint16_t fromPort{0};
};

/** Records the sender's TxWithSeqTsSize trace and what a receiver got. */
class MessageLog : public SimpleRefCount<MessageLog>
{
  public:
    void Produced(Ptr<const Packet> p, const Address&, const Address&, const SeqTsSizeHeader& h)
    {
        produced.push_back(
            {Simulator::Now(), h.GetSeq(), h.GetTs(), h.GetSize(), p->GetSize(), -1, 0});
    }

    /** PacketSink's RxWithSeqTsSize (a byte stream reassembled into messages). */
    void SinkReceived(Ptr<const Packet> p,
                      const Address& from,
                      const Address&,
                      const SeqTsSizeHeader& h)
    {
        received.push_back({Simulator::Now(),
                            h.GetSeq(),
                            h.GetTs(),
                            h.GetSize(),
                            p->GetSize(),
                            -1,
                            InetSocketAddress::ConvertFrom(from).GetPort()});
    }

    /** An SCTP listener's accepted socket: one message per Recv. */
    void Accept(Ptr<Socket> socket, const Address&)
    {
        socket->SetRecvCallback(MakeCallback(&MessageLog::Read, this));
    }

    void Read(Ptr<Socket> socket)
    {
        while (Ptr<Packet> p = socket->Recv())
        {
            SeqTsSizeHeader h;
            p->PeekHeader(h);
            received.push_back({Simulator::Now(),
                                h.GetSeq(),
                                h.GetTs(),
                                h.GetSize(),
                                p->GetSize(),
                                ObjectTransferReceivedStream(p),
                                0});
        }
    }

    std::vector<SeenMessage> produced;
    std::vector<SeenMessage> received;
};

/** Two nodes over one 10 Mb/s, 10 ms link with IPv4 (and SCTP if asked). */
struct Link
{
    explicit Link(bool sctp)
    {
        nodes.Create(2);
        SimpleNetDeviceHelper link;
        link.SetChannelAttribute("Delay", TimeValue(MilliSeconds(10)));
        link.SetDeviceAttribute("DataRate", DataRateValue(DataRate("10Mbps")));
        NetDeviceContainer devices = link.Install(nodes);
        InternetStackHelper().Install(nodes);
        if (sctp)
        {
            ObjectFactory factory("ns3::SctpL4Protocol");
            for (uint32_t i = 0; i < 2; ++i)
            {
                nodes.Get(i)->AggregateObject(factory.Create<Object>());
            }
        }
        Ipv4AddressHelper addresses;
        addresses.SetBase("10.1.1.0", "255.255.255.0");
        interfaces = addresses.Assign(devices);
    }

    NodeContainer nodes;
    Ipv4InterfaceContainer interfaces;
};

const Time START = Seconds(1);

/** A sender on the link's first node towards port 9 of the second, over `factory`. */
Ptr<ScheduledMessageSender>
MakeSender(const Link& link, const std::string& factory, uint16_t streams)
{
    Ptr<ScheduledMessageSender> sender = CreateObject<ScheduledMessageSender>();
    sender->SetAttribute("SocketFactory", StringValue(factory));
    sender->SetAttribute("Remote",
                         AddressValue(InetSocketAddress(link.interfaces.GetAddress(1), 9)));
    sender->SetAttribute("Streams", UintegerValue(streams));
    return sender;
}

/** Logs what `sender` produces, starts it at START on the first node and runs 5 s. */
void
RunSender(const Link& link, Ptr<ScheduledMessageSender> sender, Ptr<MessageLog> log)
{
    sender->TraceConnectWithoutContext("TxWithSeqTsSize", MakeCallback(&MessageLog::Produced, log));
    link.nodes.Get(0)->AddApplication(sender);
    sender->SetStartTime(START);
    Simulator::Stop(Seconds(5));
    Simulator::Run();
}

} // namespace

/**
 * One SCTP association, whole messages: four messages on streams 1, 0, 1, 0, two of them
 * at the same time. Each is produced at START + its time with its sequence number and
 * size in the header, and arrives whole, on its stream, with that timestamp.
 */
class ScheduledMessageSctpTestCase : public TestCase
{
  public:
    ScheduledMessageSctpTestCase()
        : TestCase("four messages on two SCTP streams of one association")
    {
    }

  private:
    void DoRun() override
    {
        Link link(true);
        Ptr<MessageLog> log = Create<MessageLog>();
        Ptr<Socket> listener =
            Socket::CreateSocket(link.nodes.Get(1), TypeId::LookupByName("ns3::SctpSocketFactory"));
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&MessageLog::Accept, log));
        listener->Listen();

        const std::vector<PlannedMessage> plan = {{MilliSeconds(100), 100, 1},
                                                  {MilliSeconds(100), 3000, 0},
                                                  {MilliSeconds(250), 20, 1},
                                                  {MilliSeconds(400), 1500, 0}};
        Ptr<ScheduledMessageSender> sender = MakeSender(link, "ns3::SctpSocketFactory", 2);
        for (const auto& m : plan)
        {
            sender->AddMessage(m.at, m.size, m.stream);
        }
        RunSender(link, sender, log);

        NS_TEST_EXPECT_MSG_EQ(sender->GetMessageCount(), 4u, "messages planned");
        NS_TEST_EXPECT_MSG_EQ(sender->GetMessagesWritten(), 4u, "messages handed to SCTP");
        NS_TEST_EXPECT_MSG_EQ(sender->GetSendErrors(), 0u, "no refused Send");
        NS_TEST_EXPECT_MSG_EQ(sender->GetSocket(0), sender->GetSocket(1), "one shared socket");
        UintegerValue outbound;
        sender->GetSocket(0)->GetAttribute("OutboundStreams", outbound);
        NS_TEST_EXPECT_MSG_EQ(outbound.Get(), 2u, "the socket has the Streams outbound streams");
        NS_TEST_ASSERT_MSG_EQ(log->produced.size(), plan.size(), "every message produced");
        NS_TEST_ASSERT_MSG_EQ(log->received.size(), plan.size(), "every message received");
        for (uint32_t i = 0; i < plan.size(); ++i)
        {
            const SeenMessage& tx = log->produced[i];
            NS_TEST_EXPECT_MSG_EQ(tx.now, START + plan[i].at, "produced at its time");
            NS_TEST_EXPECT_MSG_EQ(tx.seq, i, "numbered in the order added");
            NS_TEST_EXPECT_MSG_EQ(tx.produced, tx.now, "stamped when produced");
            NS_TEST_EXPECT_MSG_EQ(tx.headerSize, plan[i].size, "the header names the size");
            NS_TEST_EXPECT_MSG_EQ(tx.packetSize, plan[i].size, "the whole message");
            // First come, first served on one association: the order produced.
            const SeenMessage& rx = log->received[i];
            NS_TEST_EXPECT_MSG_EQ(rx.seq, i, "received in the order produced");
            NS_TEST_EXPECT_MSG_EQ(rx.stream, plan[i].stream, "on its stream");
            NS_TEST_EXPECT_MSG_EQ(rx.packetSize, plan[i].size, "whole, in one Recv");
            NS_TEST_EXPECT_MSG_EQ(rx.produced, START + plan[i].at, "its production time");
            NS_TEST_EXPECT_MSG_GT(rx.now, rx.produced, "after it was produced");
        }
        Simulator::Destroy();
    }
};

/**
 * TCP with one connection per stream, bytes written as the buffer frees: a 30000-byte
 * message on stream 0 and a 100-byte one on stream 1 produced together. They travel on
 * two connections, so the small one, produced second, arrives first; PacketSink
 * reassembles each from its byte stream with its header.
 */
class ScheduledMessageTcpTestCase : public TestCase
{
  public:
    ScheduledMessageTcpTestCase()
        : TestCase("two messages over one TCP connection per stream")
    {
    }

  private:
    void DoRun() override
    {
        Link link(false);
        Ptr<MessageLog> log = Create<MessageLog>();
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 9));
        sinkHelper.SetAttribute("EnableSeqTsSizeHeader", BooleanValue(true));
        ApplicationContainer sinks = sinkHelper.Install(link.nodes.Get(1));
        sinks.Get(0)->TraceConnectWithoutContext("RxWithSeqTsSize",
                                                 MakeCallback(&MessageLog::SinkReceived, log));

        Ptr<ScheduledMessageSender> sender = MakeSender(link, "ns3::TcpSocketFactory", 2);
        sender->SetAttribute("ConnectionPerStream", BooleanValue(true));
        sender->SetAttribute("WholeMessages", BooleanValue(false));
        sender->AddMessage(MilliSeconds(100), 30000, 0);
        sender->AddMessage(MilliSeconds(100), 100, 1);
        RunSender(link, sender, log);

        NS_TEST_EXPECT_MSG_EQ(sender->GetMessagesWritten(), 2u, "both written");
        NS_TEST_EXPECT_MSG_EQ(sender->GetSendErrors(), 0u, "no refused Send");
        NS_TEST_EXPECT_MSG_NE(sender->GetSocket(0), sender->GetSocket(1), "a socket per stream");
        NS_TEST_ASSERT_MSG_EQ(log->produced.size(), 2u, "both produced");
        NS_TEST_EXPECT_MSG_EQ(log->produced[0].now, START + MilliSeconds(100), "at 100 ms");
        NS_TEST_EXPECT_MSG_EQ(log->produced[1].now, START + MilliSeconds(100), "at 100 ms");
        NS_TEST_EXPECT_MSG_EQ(log->produced[0].headerSize, 30000u, "message 0's size");
        NS_TEST_EXPECT_MSG_EQ(log->produced[1].headerSize, 100u, "message 1's size");
        NS_TEST_ASSERT_MSG_EQ(log->received.size(), 2u, "both received");
        NS_TEST_EXPECT_MSG_EQ(log->received[0].seq, 1u, "the small message first");
        NS_TEST_EXPECT_MSG_EQ(log->received[0].headerSize, 100u, "its size");
        NS_TEST_EXPECT_MSG_EQ(log->received[1].seq, 0u, "then the large one");
        NS_TEST_EXPECT_MSG_EQ(log->received[1].headerSize, 30000u, "its size");
        NS_TEST_EXPECT_MSG_NE(log->received[0].fromPort,
                              log->received[1].fromPort,
                              "from two connections");
        for (const auto& rx : log->received)
        {
            NS_TEST_EXPECT_MSG_EQ(rx.produced, START + MilliSeconds(100), "production time");
        }
        Simulator::Destroy();
    }
};

/** \ingroup transfer-tests */
class ScheduledMessageSenderTestSuite : public TestSuite
{
  public:
    ScheduledMessageSenderTestSuite()
        : TestSuite("transfer-scheduled-message-sender", Type::SYSTEM)
    {
        TypeId sctp;
        if (TypeId::LookupByNameFailSafe("ns3::SctpL4Protocol", &sctp))
        {
            AddTestCase(new ScheduledMessageSctpTestCase(), TestCase::Duration::QUICK);
        }
        AddTestCase(new ScheduledMessageTcpTestCase(), TestCase::Duration::QUICK);
    }
};

static ScheduledMessageSenderTestSuite g_scheduledMessageSenderTestSuite;
