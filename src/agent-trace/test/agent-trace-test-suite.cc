/*
 * AgentTraceRecorder: NS-2's "s ... AGT" / "r ... AGT" events from IPv4's SendOutgoing
 * and LocalDeliver traces, for packets to or from the peer only, with their sizes.
 */
#include "ns3/agent-trace-recorder.h"
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"

using namespace ns3;

class AgentTraceTestCase : public TestCase
{
  public:
    AgentTraceTestCase()
        : TestCase("a sent and a received event per UDP datagram to the peer")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(2);
        SimpleNetDeviceHelper link;
        link.SetChannelAttribute("Delay", TimeValue(MilliSeconds(5)));
        NetDeviceContainer devices = link.Install(nodes);
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper addresses;
        addresses.SetBase("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
        Ptr<AgentTraceRecorder> recorder = CreateObject<AgentTraceRecorder>();
        recorder->SetPeer(interfaces.GetAddress(1));
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(recorder->Watch(nodes.Get(i)->GetObject<Ipv4L3Protocol>()),
                                  true,
                                  "connected");
        }
        PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink.Install(nodes.Get(1));
        OnOffHelper source("ns3::UdpSocketFactory", InetSocketAddress(interfaces.GetAddress(1), 9));
        source.SetConstantRate(DataRate("80kbps"), 100);
        source.SetAttribute("MaxBytes", UintegerValue(300));
        source.Install(nodes.Get(0)).Start(Seconds(1));
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(recorder->GetN(), 6u, "3 datagrams sent and received");
        uint32_t sent = 0;
        for (uint32_t i = 0; i < recorder->GetN(); ++i)
        {
            sent += recorder->GetKinds()[i] == 0 ? 1 : 0;
            NS_TEST_EXPECT_MSG_EQ(recorder->GetProtocols()[i], 17, "UDP");
            NS_TEST_EXPECT_MSG_EQ(recorder->GetSizes()[i], 108u, "UDP header + 100 bytes");
            NS_TEST_EXPECT_MSG_EQ(recorder->GetPayloads()[i], 100u, "payload");
        }
        NS_TEST_EXPECT_MSG_EQ(sent, 3u, "three 's' events");
        NS_TEST_EXPECT_MSG_EQ(recorder->GetKinds()[0], 0, "sent before received");
        Simulator::Destroy();
    }
};

/** \ingroup agent-trace-tests */
class AgentTraceTestSuite : public TestSuite
{
  public:
    AgentTraceTestSuite()
        : TestSuite("agent-trace", Type::UNIT)
    {
        AddTestCase(new AgentTraceTestCase(), TestCase::Duration::QUICK);
    }
};

static AgentTraceTestSuite g_agentTraceTestSuite;
