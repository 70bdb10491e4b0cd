/*
 * WifiStateTimes: the time each PHY spends in each state adds up to the simulated time,
 * the sender transmits, and a node out of range never receives.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"
#include "ns3/wifi-module.h"
#include "ns3/wifi-state-times.h"

using namespace ns3;

class WifiStateTimesTestCase : public TestCase
{
  public:
    WifiStateTimesTestCase()
        : TestCase("state times add up")
    {
    }

  private:
    void DoRun() override
    {
        NodeContainer nodes;
        nodes.Create(3);
        MobilityHelper mobility;
        Ptr<ListPositionAllocator> positions = CreateObject<ListPositionAllocator>();
        positions->Add(Vector(0, 0, 0));
        positions->Add(Vector(20, 0, 0));
        positions->Add(Vector(5000, 0, 0));
        mobility.SetPositionAllocator(positions);
        mobility.Install(nodes);
        YansWifiChannelHelper channel = YansWifiChannelHelper::Default();
        YansWifiPhyHelper phy;
        phy.SetChannel(channel.Create());
        WifiHelper wifi;
        wifi.SetStandard(WIFI_STANDARD_80211b);
        WifiMacHelper mac;
        mac.SetType("ns3::AdhocWifiMac");
        NetDeviceContainer devices = wifi.Install(phy, mac, nodes);
        Ptr<WifiStateTimes> times = CreateObject<WifiStateTimes>();
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(times->Watch(DynamicCast<WifiNetDevice>(devices.Get(i))->GetPhy()),
                                  true,
                                  "watching PHY " << i);
        }
        InternetStackHelper().Install(nodes);
        Ipv4AddressHelper addresses;
        addresses.SetBase("10.1.1.0", "255.255.255.0");
        Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
        PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
        sink.Install(nodes.Get(1));
        OnOffHelper source("ns3::UdpSocketFactory", InetSocketAddress(interfaces.GetAddress(1), 9));
        source.SetConstantRate(DataRate("100kbps"), 250);
        source.SetAttribute("MaxBytes", UintegerValue(20 * 250));
        source.Install(nodes.Get(0)).Start(Seconds(1));
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        times->Finish();
        NS_TEST_ASSERT_MSG_EQ(times->GetN(), 3u, "three PHYs");
        for (uint32_t i = 0; i < 3; ++i)
        {
            double total = 0;
            for (uint32_t s = 0; s < WifiStateTimes::N_STATES; ++s)
            {
                total += times->GetSeconds(i, s);
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(total, 3.0, 1e-9, "PHY " << i << " accounts for 3 s");
        }
        uint32_t tx = static_cast<uint32_t>(WifiPhyState::TX);
        uint32_t rx = static_cast<uint32_t>(WifiPhyState::RX);
        NS_TEST_EXPECT_MSG_GT(times->GetSeconds(0, tx), 0.0, "the sender transmits");
        NS_TEST_EXPECT_MSG_GT(times->GetSeconds(1, rx), 0.0, "the receiver receives");
        NS_TEST_EXPECT_MSG_EQ(times->GetSeconds(2, rx), 0.0, "the far node never does");
        Simulator::Destroy();
    }
};

/** \ingroup wifi-state-times-tests */
class WifiStateTimesTestSuite : public TestSuite
{
  public:
    WifiStateTimesTestSuite()
        : TestSuite("wifi-state-times", Type::SYSTEM)
    {
        AddTestCase(new WifiStateTimesTestCase(), TestCase::Duration::QUICK);
    }
};

static WifiStateTimesTestSuite g_wifiStateTimesTestSuite;
