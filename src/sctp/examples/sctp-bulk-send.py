"""SCTP bulk transfer between two nodes with ns-3's BulkSend and PacketSink.

    python src/sctp/examples/sctp-bulk-send.py [--ns2] [--pcap PREFIX]

Prints the delivered bytes, the goodput and the association's counters; --ns2 applies the
NS-2.35 preset, --pcap writes traces that tshark decodes as SCTP:
``tshark -r PREFIX-0-0.pcap -o sctp.checksum:crc-32c``.
"""

from __future__ import annotations

import argparse

from transportlab.ns3.simulation import run_until, simulation


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ns2", action="store_true", help="use the NS-2.35 defaults")
    parser.add_argument("--pcap", help="pcap file prefix")
    parser.add_argument("--megabytes", type=float, default=10.0)
    args = parser.parse_args()

    with simulation(seed=1, run=1) as ns:
        if args.ns2:
            ns.SctpStackHelper.SetNs2Defaults("2.35")
        nodes = ns.NodeContainer()
        nodes.Create(2)
        p2p = ns.PointToPointHelper()
        p2p.SetDeviceAttribute("DataRate", ns.StringValue("10Mbps"))
        p2p.SetChannelAttribute("Delay", ns.StringValue("20ms"))
        devices = p2p.Install(nodes)
        ns.InternetStackHelper().Install(nodes)
        ns.SctpStackHelper().Install(nodes)
        addresses = ns.Ipv4AddressHelper()
        addresses.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces = addresses.Assign(devices)

        sink = ns.PacketSinkHelper(
            "ns3::SctpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 9).ConvertTo()
        )
        bulk = ns.BulkSendHelper(
            "ns3::SctpSocketFactory", ns.InetSocketAddress(interfaces.GetAddress(1), 9).ConvertTo()
        )
        bulk.SetAttribute("SendSize", ns.UintegerValue(1452))
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(int(args.megabytes * 1e6)))
        sink_apps = sink.Install(nodes.Get(1))
        bulk_apps = bulk.Install(nodes.Get(0))
        bulk_apps.Start(ns.Seconds(0.1))
        if args.pcap:
            p2p.EnablePcapAll(args.pcap)
        run_until(60.0)

        received = ns.DynamicCast[ns.PacketSink](sink_apps.Get(0)).GetTotalRx()
        sockets = ns.ObjectVectorValue()
        nodes.Get(0).GetObject[ns.SctpL4Protocol]().GetAttribute("SocketList", sockets)
        client = ns.DynamicCast[ns.SctpSocket](sockets.Get(0))
        print(f"delivered {received} bytes; state {ns.SctpStateName(client.GetState())}")
        print(
            f"fast retransmits {client.GetFastRetransmitCount()}, "
            f"timeouts {client.GetTimeoutCount()}, "
            f"retransmitted chunks {client.GetRetransmittedChunkCount()}"
        )


if __name__ == "__main__":
    main()
