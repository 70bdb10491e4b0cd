/*
 * SCTP bulk transfer between two nodes with ns-3's BulkSend and PacketSink, the C++
 * counterpart of sctp-bulk-send.py:
 *
 *     sctp-bulk-send [--maxBytes=1000000] [--dataRate=10Mbps] [--delay=20ms]
 *                    [--errorRate=0] [--ns2] [--pcap=PREFIX]
 *                    [--congestionOps=ns3::SctpRfc9260CongestionOps]
 *
 * Prints the bytes delivered, the goodput and the association's counters; --ns2 applies
 * the NS-2.35 preset, --pcap writes traces that tshark decodes as SCTP
 * (tshark -r PREFIX-0-0.pcap -o sctp.checksum:crc-32c).
 */
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/sctp-module.h"

#include <iostream>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("SctpBulkSendExample");

namespace
{

/** The time of the last message the sink received. */
void
LastReception(Time* last, Ptr<const Packet>, const Address&)
{
    *last = Simulator::Now();
}

} // namespace

int
main(int argc, char* argv[])
{
    uint64_t maxBytes = 1000000;
    std::string dataRate = "10Mbps";
    std::string delay = "20ms";
    double errorRate = 0;
    bool ns2 = false;
    std::string pcap;
    std::string congestionOps = "ns3::SctpRfc9260CongestionOps";
    CommandLine cmd(__FILE__);
    cmd.AddValue("maxBytes", "bytes to send", maxBytes);
    cmd.AddValue("dataRate", "link rate", dataRate);
    cmd.AddValue("delay", "one-way link delay", delay);
    cmd.AddValue("errorRate", "packet loss rate at the receiver", errorRate);
    cmd.AddValue("ns2", "use the NS-2.35 defaults", ns2);
    cmd.AddValue("pcap", "pcap file prefix (none if empty)", pcap);
    cmd.AddValue("congestionOps", "TypeId of the SCTP congestion control", congestionOps);
    cmd.Parse(argc, argv);

    if (ns2)
    {
        SctpStackHelper::SetNs2Defaults("2.35");
    }
    Config::SetDefault("ns3::SctpL4Protocol::CongestionOps",
                       TypeIdValue(TypeId::LookupByName(congestionOps)));

    NodeContainer nodes;
    nodes.Create(2);
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(dataRate));
    p2p.SetChannelAttribute("Delay", StringValue(delay));
    NetDeviceContainer devices = p2p.Install(nodes);
    InternetStackHelper().Install(nodes);
    SctpStackHelper().Install(nodes);
    Ipv4AddressHelper addresses;
    addresses.SetBase("10.1.1.0", "255.255.255.0");
    Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
    if (errorRate > 0)
    {
        Ptr<RateErrorModel> loss = CreateObject<RateErrorModel>();
        loss->SetAttribute("ErrorRate", DoubleValue(errorRate));
        loss->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        devices.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
    }

    PacketSinkHelper sink("ns3::SctpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), 9));
    ApplicationContainer sinkApps = sink.Install(nodes.Get(1));
    BulkSendHelper bulk("ns3::SctpSocketFactory", InetSocketAddress(interfaces.GetAddress(1), 9));
    bulk.SetAttribute("SendSize", UintegerValue(1452)); // one Send = one SCTP message
    bulk.SetAttribute("MaxBytes", UintegerValue(maxBytes));
    ApplicationContainer bulkApps = bulk.Install(nodes.Get(0));
    bulkApps.Start(Seconds(0.1));
    if (!pcap.empty())
    {
        p2p.EnablePcapAll(pcap);
    }

    Time last;
    Ptr<PacketSink> packetSink = DynamicCast<PacketSink>(sinkApps.Get(0));
    packetSink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&LastReception, &last));
    Simulator::Stop(Seconds(120));
    Simulator::Run();

    ObjectVectorValue sockets;
    nodes.Get(0)->GetObject<SctpL4Protocol>()->GetAttribute("SocketList", sockets);
    Ptr<SctpSocket> client = DynamicCast<SctpSocket>(sockets.Get(0));
    const SctpSender& sender = client->GetAssociation()->GetSender();
    uint64_t received = packetSink->GetTotalRx();
    double seconds = (last - Seconds(0.1)).GetSeconds();
    std::cout << "delivered " << received << " bytes in " << seconds << " s, goodput "
              << (seconds > 0 ? received * 8 / seconds / 1e6 : 0) << " Mb/s" << std::endl;
    std::cout << "congestion control " << client->GetCongestionOps()->GetName() << ", state "
              << SctpStateName(client->GetState()) << std::endl;
    std::cout << "fast retransmits " << sender.GetFastRetransmitCount() << ", timeouts "
              << sender.GetTimeoutCount() << ", retransmitted chunks "
              << sender.GetRetransmittedChunkCount() << std::endl;
    Simulator::Destroy();
    return received == maxBytes ? 0 : 1;
}
