/*
 * SensitivityFilteredYansWifiPhy schedules no arrival at a receiver that cannot sense
 * the signal, and the network is simulated exactly as with the stock YansWifiPhy: the
 * same datagrams arrive at the same times.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/sensitivity-filtered-yans-wifi-phy-helper.h"
#include "ns3/sensitivity-filtered-yans-wifi-phy.h"
#include "ns3/test.h"
#include "ns3/wifi-module.h"

using namespace ns3;

namespace
{

struct Outcome
{
    std::vector<Time> arrivals;
    std::vector<uint64_t> skipped;   //!< per node
    std::vector<uint64_t> scheduled; //!< per node
};

void
Arrival(std::vector<Time>* arrivals, Ptr<const Packet>, const Address&)
{
    arrivals->push_back(Simulator::Now());
}

/** Nodes at 0 m, 20 m and 5 km (out of range); node 0 sends 20 datagrams to node 1. */
Outcome
Simulate(bool filtered)
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
    WifiHelper wifi;
    wifi.SetStandard(WIFI_STANDARD_80211b);
    wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager",
                                 "DataMode",
                                 StringValue("DsssRate1Mbps"),
                                 "ControlMode",
                                 StringValue("DsssRate1Mbps"));
    WifiMacHelper mac;
    mac.SetType("ns3::AdhocWifiMac");
    NetDeviceContainer devices;
    if (filtered)
    {
        SensitivityFilteredYansWifiPhyHelper phy;
        phy.SetChannel(channel.Create());
        devices = wifi.Install(phy, mac, nodes);
    }
    else
    {
        YansWifiPhyHelper phy;
        phy.SetChannel(channel.Create());
        devices = wifi.Install(phy, mac, nodes);
    }
    // The same random streams in both runs (the second run of a process would otherwise
    // draw from other streams: back-offs and ARP jitter would differ).
    wifi.AssignStreams(devices, 0);
    InternetStackHelper internet;
    internet.Install(nodes);
    internet.AssignStreams(nodes, 100);
    Ipv4AddressHelper addresses;
    addresses.SetBase("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
    PacketSinkHelper sinkHelper("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
    ApplicationContainer sink = sinkHelper.Install(nodes.Get(1));
    Outcome out;
    sink.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&Arrival, &out.arrivals));
    OnOffHelper source("ns3::UdpSocketFactory", InetSocketAddress(interfaces.GetAddress(1), 9));
    source.SetConstantRate(DataRate("100kbps"), 250);
    source.SetAttribute("MaxBytes", UintegerValue(20 * 250));
    source.Install(nodes.Get(0)).Start(Seconds(1));
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    if (filtered)
    {
        for (uint32_t i = 0; i < 3; ++i)
        {
            auto phy = DynamicCast<SensitivityFilteredYansWifiPhy>(
                DynamicCast<WifiNetDevice>(devices.Get(i))->GetPhy());
            out.skipped.push_back(phy->GetArrivalsSkipped());
            out.scheduled.push_back(phy->GetArrivalsScheduled());
        }
    }
    Simulator::Destroy();
    return out;
}

} // namespace

class WifiFanoutTestCase : public TestCase
{
  public:
    WifiFanoutTestCase()
        : TestCase("no arrival events below sensitivity, the same simulation")
    {
    }

  private:
    void DoRun() override
    {
        RngSeedManager::SetSeed(1);
        Outcome stock = Simulate(false);
        Outcome filtered = Simulate(true);
        NS_TEST_ASSERT_MSG_EQ(stock.arrivals.size(), 20u, "every datagram arrives");
        NS_TEST_ASSERT_MSG_EQ(filtered.arrivals.size(), stock.arrivals.size(), "the same number");
        NS_TEST_EXPECT_MSG_EQ((filtered.arrivals == stock.arrivals), true, "at the same times");
        // Counted at the transmitting PHY: every frame of nodes 0 and 1 (20 datagrams,
        // their 20 ACKs, the ARP exchange) is scheduled at the other near node and
        // skipped at the far one; node 2 never transmits.
        NS_TEST_ASSERT_MSG_EQ(filtered.skipped.size(), 3u, "three PHYs");
        for (uint32_t near = 0; near < 2; ++near)
        {
            NS_TEST_EXPECT_MSG_GT(filtered.skipped[near], 20u, "node " << near << ": far node skipped");
            NS_TEST_EXPECT_MSG_EQ(filtered.scheduled[near],
                                  filtered.skipped[near],
                                  "node " << near << ": one near receiver per frame");
        }
        NS_TEST_EXPECT_MSG_EQ(filtered.skipped[2], 0u, "node 2 sends nothing");
        NS_TEST_EXPECT_MSG_EQ(filtered.scheduled[2], 0u, "node 2 sends nothing");
    }
};

/** \ingroup wifi-fanout-tests */
class WifiFanoutTestSuite : public TestSuite
{
  public:
    WifiFanoutTestSuite()
        : TestSuite("wifi-fanout", Type::SYSTEM)
    {
        AddTestCase(new WifiFanoutTestCase(), TestCase::Duration::QUICK);
    }
};

static WifiFanoutTestSuite g_wifiFanoutTestSuite;
