/*
 * The research scaffolding around the SCTP model: the validation flow with the drop
 * model shared with the usrsctp oracle, packet injection for the fuzzer, and link
 * failures (unplugging a device without telling IP).
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/sctp-module.h"
#include "ns3/sctp-research-module.h"
#include "ns3/test.h"

using namespace ns3;

namespace
{

/** Two nodes over one point-to-point link (10 Mb/s, 10 ms), IPv4 and SCTP installed. */
struct Pair
{
    Pair()
    {
        nodes.Create(2);
        PointToPointHelper p2p;
        p2p.SetDeviceAttribute("DataRate", StringValue("10Mbps"));
        p2p.SetChannelAttribute("Delay", StringValue("10ms"));
        devices = p2p.Install(nodes);
        InternetStackHelper().Install(nodes);
        SctpStackHelper().Install(nodes);
        Ipv4AddressHelper addresses;
        addresses.SetBase("10.1.1.0", "255.255.255.0");
        interfaces = addresses.Assign(devices);
    }

    NodeContainer nodes;
    NetDeviceContainer devices;
    Ipv4InterfaceContainer interfaces;
};

} // namespace

/**
 * A validation flow loses exactly the chunk the drop model names and recovers it, with
 * DATA or, when both ends negotiate it, I-DATA (whose TSN the drop model reads as DATA's).
 */
class SctpValidationFlowTestCase : public TestCase
{
  public:
    explicit SctpValidationFlowTestCase(bool iData)
        : TestCase(iData ? "validation flow and drop model, I-DATA"
                         : "validation flow and drop model"),
          m_iData(iData)
    {
    }

  private:
    /** The client's user data chunks by type, and its retransmissions. */
    struct ClientChunks
    {
        uint32_t data{0};
        uint32_t iData{0};
        uint32_t retransmissions{0};
    };

    static void OnChunk(ClientChunks* c, uint8_t type, uint8_t, uint16_t, uint32_t)
    {
        c->data += type == SctpChunk::DATA ? 1 : 0;
        c->iData += type == SctpChunk::I_DATA ? 1 : 0;
    }

    static void OnRetransmission(ClientChunks* c, uint32_t, bool)
    {
        ++c->retransmissions;
    }

    static void OnSocket(ClientChunks* c, Ptr<SctpSocket> socket)
    {
        socket->TraceConnectWithoutContext("TxChunk", MakeBoundCallback(&OnChunk, c));
        socket->TraceConnectWithoutContext("Retransmission",
                                           MakeBoundCallback(&OnRetransmission, c));
    }

    void DoRun() override
    {
        Config::SetDefault("ns3::SctpSocket::IDataSupported", BooleanValue(m_iData));
        Pair pair;
        ClientChunks chunks;
        pair.nodes.Get(0)->GetObject<SctpL4Protocol>()->TraceConnectWithoutContext(
            "SocketCreated",
            MakeBoundCallback(&OnSocket, &chunks));
        Ptr<SctpDropErrorModel> drops = CreateObject<SctpDropErrorModel>();
        drops->AddTsn(5, 1);
        pair.devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(drops));
        Ptr<SctpValidationFlow> flow = CreateObject<SctpValidationFlow>();
        flow->Setup(pair.nodes.Get(0),
                    pair.nodes.Get(1),
                    pair.interfaces.GetAddress(1),
                    9,
                    1000,
                    100000,
                    1,
                    0.5);
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        // 100 messages of 1000 bytes, one chunk each, and the lost one once more.
        NS_TEST_EXPECT_MSG_EQ(chunks.data, m_iData ? 0u : 101u, "DATA chunks");
        NS_TEST_EXPECT_MSG_EQ(chunks.iData, m_iData ? 101u : 0u, "I-DATA chunks");
        NS_TEST_EXPECT_MSG_EQ(flow->GetDelivered(), 100000u, "every byte delivered");
        std::vector<uint8_t> reasons = drops->GetDropReasons();
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), 1u, "one packet dropped");
        NS_TEST_EXPECT_MSG_EQ((reasons == std::vector<uint8_t>{1}), true, "for its TSN");
        NS_TEST_EXPECT_MSG_EQ(chunks.retransmissions, 1u, "the lost chunk retransmitted once");
        if (!m_iData)
        {
            // The flow's own record of DATA chunks says the same.
            uint32_t retransmissions = 0;
            for (uint8_t k : flow->GetDataKinds())
            {
                retransmissions += k != 0 ? 1 : 0;
            }
            NS_TEST_EXPECT_MSG_EQ(retransmissions, 1u, "one DATA chunk retransmitted");
        }
        NS_TEST_EXPECT_MSG_EQ(SctpDropErrorModel::RandomLoss(0.0, 1, 5, 0), false, "rate 0");
        NS_TEST_EXPECT_MSG_EQ(SctpDropErrorModel::RandomLoss(1.0, 1, 5, 0), true, "rate 1");
        Simulator::Destroy();
        Config::SetDefault("ns3::SctpSocket::IDataSupported", BooleanValue(false));
    }

    bool m_iData;
};

/** Injected packets reach the stack: an INIT is answered, a bad checksum is counted. */
class SctpPacketInjectorTestCase : public TestCase
{
  public:
    SctpPacketInjectorTestCase()
        : TestCase("packet injector")
    {
    }

  private:
    static void CountChunk(uint32_t* count, uint8_t type, uint8_t, uint16_t, uint32_t)
    {
        if (type == SctpChunk::INIT_ACK)
        {
            ++*count;
        }
    }

    void DoRun() override
    {
        Pair pair;
        Ptr<Socket> listener =
            Socket::CreateSocket(pair.nodes.Get(1), SctpSocketFactory::GetTypeId());
        listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
        listener->Listen();
        uint32_t initAcks = 0;
        listener->TraceConnectWithoutContext("TxChunk", MakeBoundCallback(&CountChunk, &initAcks));
        // An INIT from port 4000 (tag 0, Initiate Tag 0x1234, 5 streams each way).
        std::vector<uint8_t> init;
        SctpByteWriter w(init);
        SctpCommonHeader h;
        h.sourcePort = 4000;
        h.destinationPort = 9;
        h.verificationTag = 0;
        h.Serialize(w);
        SctpInitChunk chunk;
        chunk.initiateTag = 0x1234;
        chunk.aRwnd = 65536;
        chunk.outboundStreams = 5;
        chunk.inboundStreams = 5;
        chunk.initialTsn = 1;
        chunk.Serialize(w);
        Ptr<SctpL4Protocol> sctp = pair.nodes.Get(1)->GetObject<SctpL4Protocol>();
        Ptr<SctpPacketInjector> injector = CreateObject<SctpPacketInjector>();
        injector->SetProtocol(sctp);
        injector->WatchAll(true);
        Ipv4Address from = pair.interfaces.GetAddress(0);
        Ipv4Address to = pair.interfaces.GetAddress(1);
        injector->Schedule(Seconds(1), init.data(), init.size(), from, to, true);
        injector->Schedule(Seconds(2), init.data(), init.size(), from, to, false);
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(injector->GetInjectedCount(), 2u, "both delivered");
        NS_TEST_EXPECT_MSG_EQ(initAcks, 1u, "the valid INIT answered (no state kept)");
        NS_TEST_EXPECT_MSG_EQ(sctp->GetChecksumErrors(), 1u, "the other one's checksum is wrong");
        NS_TEST_EXPECT_MSG_EQ(injector->GetFirstViolation(), "", "invariants held");
        Simulator::Destroy();
    }
};

/** An unplugged device drops everything until it is plugged in again; IP never knows. */
class LinkFailureTestCase : public TestCase
{
  public:
    LinkFailureTestCase()
        : TestCase("LinkFailure unplug and plug")
    {
    }

  private:
    static void Send(Ptr<Socket> socket, Ipv4Address to)
    {
        socket->SendTo(Create<Packet>(100), 0, InetSocketAddress(to, 7));
    }

    static void Receive(uint32_t* count, Ptr<Socket> socket)
    {
        while (socket->Recv())
        {
            ++*count;
        }
    }

    void DoRun() override
    {
        Pair pair;
        Ptr<Socket> receiver =
            Socket::CreateSocket(pair.nodes.Get(1), UdpSocketFactory::GetTypeId());
        receiver->Bind(InetSocketAddress(Ipv4Address::GetAny(), 7));
        uint32_t received = 0;
        receiver->SetRecvCallback(MakeBoundCallback(&Receive, &received));
        Ptr<Socket> sender = Socket::CreateSocket(pair.nodes.Get(0), UdpSocketFactory::GetTypeId());
        // One datagram every 100 ms from 0.55 s to 2.45 s: 20 of them, 10 while unplugged.
        for (int k = 0; k < 20; ++k)
        {
            Simulator::Schedule(Seconds(0.55 + 0.1 * k),
                                &Send,
                                sender,
                                pair.interfaces.GetAddress(1));
        }
        LinkFailure::ScheduleUnplug(Seconds(1.5), pair.devices.Get(1));
        LinkFailure::SchedulePlug(Seconds(2.5), pair.devices.Get(1));
        Simulator::Stop(Seconds(1.6));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(LinkFailure::IsUnplugged(pair.devices.Get(1)), true, "unplugged");
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(LinkFailure::IsUnplugged(pair.devices.Get(1)), false, "plugged");
        NS_TEST_EXPECT_MSG_EQ(received, 10u, "10 before the failure, none during it");
        Simulator::Destroy();
    }
};

/** \ingroup sctp-research-tests Validation flow, packet injector, link failures. */
class SctpResearchTestSuite : public TestSuite
{
  public:
    SctpResearchTestSuite()
        : TestSuite("sctp-research", Type::UNIT)
    {
        AddTestCase(new SctpValidationFlowTestCase(false), TestCase::Duration::QUICK);
        AddTestCase(new SctpValidationFlowTestCase(true), TestCase::Duration::QUICK);
        AddTestCase(new SctpPacketInjectorTestCase(), TestCase::Duration::QUICK);
        AddTestCase(new LinkFailureTestCase(), TestCase::Duration::QUICK);
    }
};

static SctpResearchTestSuite g_sctpResearchTestSuite;
