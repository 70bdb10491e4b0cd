/*
 * Ns2CbrApplication: NS-2's CBR source, whose first packet leaves at the start time (not
 * one interval later) and which stops after MaxPackets writes.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/ns2-cbr-application.h"
#include "ns3/test.h"

using namespace ns3;

class Ns2CbrTestCase : public TestCase
{
  public:
    Ns2CbrTestCase()
        : TestCase("first packet at the start time, MaxPackets writes at Interval")
    {
    }

  private:
    static void Sent(std::vector<Time>* times, Ptr<const Packet>)
    {
        times->push_back(Simulator::Now());
    }

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
        PacketSinkHelper sinkHelper("ns3::UdpSocketFactory",
                                    InetSocketAddress(Ipv4Address::GetAny(), 9));
        ApplicationContainer sink = sinkHelper.Install(nodes.Get(1));
        Ptr<Ns2CbrApplication> cbr = CreateObject<Ns2CbrApplication>();
        cbr->SetAttribute("Remote", AddressValue(InetSocketAddress(interfaces.GetAddress(1), 9)));
        cbr->SetAttribute("Protocol", TypeIdValue(UdpSocketFactory::GetTypeId()));
        cbr->SetAttribute("PacketSize", UintegerValue(210));
        cbr->SetAttribute("Interval", TimeValue(MilliSeconds(250)));
        cbr->SetAttribute("MaxPackets", UintegerValue(5));
        nodes.Get(0)->AddApplication(cbr);
        cbr->SetStartTime(Seconds(1));
        std::vector<Time> times;
        cbr->TraceConnectWithoutContext("Tx", MakeBoundCallback(&Sent, &times));
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(times.size(), 5u, "MaxPackets writes");
        NS_TEST_EXPECT_MSG_EQ(times[0], Seconds(1), "the first at the start time");
        NS_TEST_EXPECT_MSG_EQ(times[4], Seconds(2), "then every 250 ms");
        NS_TEST_EXPECT_MSG_EQ(cbr->GetSent(), 5u, "accepted writes");
        NS_TEST_EXPECT_MSG_EQ(DynamicCast<PacketSink>(sink.Get(0))->GetTotalRx(), 5u * 210u, "");
        Simulator::Destroy();
    }
};

/** \ingroup ns2-cbr-tests */
class Ns2CbrTestSuite : public TestSuite
{
  public:
    Ns2CbrTestSuite()
        : TestSuite("ns2-cbr", Type::UNIT)
    {
        AddTestCase(new Ns2CbrTestCase(), TestCase::Duration::QUICK);
    }
};

static Ns2CbrTestSuite g_ns2CbrTestSuite;
