/*
 * HorizonWifiRadioEnergyModel: with a battery that cannot run out before the horizon it
 * skips every rescheduling of the "battery empty" event and consumes exactly what ns-3's
 * WifiRadioEnergyModel consumes.
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/energy-module.h"
#include "ns3/horizon-wifi-radio-energy-model-helper.h"
#include "ns3/horizon-wifi-radio-energy-model.h"
#include "ns3/internet-module.h"
#include "ns3/mobility-module.h"
#include "ns3/network-module.h"
#include "ns3/test.h"
#include "ns3/wifi-module.h"

using namespace ns3;

namespace
{

struct Outcome
{
    std::vector<double> remaining;
    uint64_t skipped{0};
};

Outcome
Simulate(bool horizon)
{
    NodeContainer nodes;
    nodes.Create(2);
    MobilityHelper mobility;
    Ptr<ListPositionAllocator> positions = CreateObject<ListPositionAllocator>();
    positions->Add(Vector(0, 0, 0));
    positions->Add(Vector(20, 0, 0));
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
    BasicEnergySourceHelper source;
    source.Set("BasicEnergySourceInitialEnergyJ", DoubleValue(1000));
    energy::EnergySourceContainer sources = source.Install(nodes);
    energy::DeviceEnergyModelContainer models;
    if (horizon)
    {
        HorizonWifiRadioEnergyModelHelper radio;
        radio.Set("Horizon", TimeValue(Seconds(3)));
        models = radio.Install(devices, sources);
    }
    else
    {
        WifiRadioEnergyModelHelper radio;
        models = radio.Install(devices, sources);
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
    PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
    sink.Install(nodes.Get(1));
    OnOffHelper onoff("ns3::UdpSocketFactory", InetSocketAddress(interfaces.GetAddress(1), 9));
    onoff.SetConstantRate(DataRate("100kbps"), 250);
    onoff.SetAttribute("MaxBytes", UintegerValue(20 * 250));
    onoff.Install(nodes.Get(0)).Start(Seconds(1));
    Simulator::Stop(Seconds(3));
    Simulator::Run();
    Outcome out;
    for (uint32_t i = 0; i < 2; ++i)
    {
        out.remaining.push_back(sources.Get(i)->GetRemainingEnergy());
        if (auto m = DynamicCast<HorizonWifiRadioEnergyModel>(models.Get(i)))
        {
            out.skipped += m->GetSkippedReschedules();
        }
    }
    Simulator::Destroy();
    return out;
}

} // namespace

class WifiEnergyHorizonTestCase : public TestCase
{
  public:
    WifiEnergyHorizonTestCase()
        : TestCase("same energy, reschedulings skipped")
    {
    }

  private:
    void DoRun() override
    {
        Outcome stock = Simulate(false);
        Outcome horizon = Simulate(true);
        for (uint32_t i = 0; i < 2; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(horizon.remaining[i], stock.remaining[i], "node " << i);
            NS_TEST_EXPECT_MSG_LT(stock.remaining[i], 1000.0, "energy was consumed");
        }
        NS_TEST_EXPECT_MSG_GT(horizon.skipped, 10u, "one per PHY state change");
    }
};

/** \ingroup wifi-energy-tests */
class WifiEnergyTestSuite : public TestSuite
{
  public:
    WifiEnergyTestSuite()
        : TestSuite("wifi-energy", Type::SYSTEM)
    {
        AddTestCase(new WifiEnergyHorizonTestCase(), TestCase::Duration::QUICK);
    }
};

static WifiEnergyTestSuite g_wifiEnergyTestSuite;
