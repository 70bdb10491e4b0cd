"""SCTP vs ns-3 TCP: simulation cost per delivered megabyte, and goodput on a clean link.

The same bulk transfer runs over SCTP (ns3::SctpSocketFactory) and over ns-3's TCP
(NewReno) on one point-to-point link: BulkSend -> PacketSink, 100 Mb/s, 10 ms one-way
delay, 60 s simulated by default. The receive buffers (320 KB) exceed the bandwidth-delay
product (250 KB) but keep the queue short of overflowing, so both transports run at the
link rate without losses and the comparison is about the cost of the protocol code.

Prints, for each protocol: wall-clock seconds of Simulator::Run, delivered MB, wall time
per delivered MB, simulator events per delivered MB, and the goodput against the link
rate minus per-packet header overhead. Then the SCTP/TCP cost ratio (target <= 1.5).

Wall times on a shared machine are noisy: every configuration runs --repeat times,
alternating protocols, and the median is reported; events per MB is the noise-free
measure.

    python benchmarks/sctp_vs_tcp.py [--duration 60] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

RATE_BPS = 100e6
DELAY = "10ms"
PPP_HEADER = 2
SCTP_PAYLOAD = 1452  # 1500 - IP 20 - SCTP common header 12 - DATA chunk header 16
TCP_PAYLOAD = 1448  # 1500 - IP 20 - TCP 20 - timestamp option 12
BUFFER = 320 * 1024
PORT = 9


def run_once(protocol: str, duration: float, seed: int = 1) -> dict:
    from transportlab.ns3.simulation import event_count, simulation

    with simulation(seed=seed, run=1) as ns:
        ns.Config.SetDefault(
            "ns3::TcpL4Protocol::SocketType",
            ns.TypeIdValue(ns.TypeId.LookupByName("ns3::TcpNewReno")),
        )
        ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(TCP_PAYLOAD))
        ns.Config.SetDefault("ns3::TcpSocket::SndBufSize", ns.UintegerValue(BUFFER))
        ns.Config.SetDefault("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(BUFFER))
        ns.Config.SetDefault("ns3::SctpSocket::SndBufSize", ns.UintegerValue(BUFFER))
        ns.Config.SetDefault("ns3::SctpSocket::RcvBufSize", ns.UintegerValue(BUFFER))
        nodes = ns.NodeContainer()
        nodes.Create(2)
        p2p = ns.PointToPointHelper()
        p2p.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(int(RATE_BPS))))
        p2p.SetChannelAttribute("Delay", ns.StringValue(DELAY))
        p2p.SetQueue("ns3::DropTailQueue", "MaxSize", ns.StringValue("100p"))
        devices = p2p.Install(nodes)
        ns.InternetStackHelper().Install(nodes)
        ns.SctpStackHelper().Install(nodes)
        addresses = ns.Ipv4AddressHelper()
        addresses.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces = addresses.Assign(devices)
        factory = "ns3::SctpSocketFactory" if protocol == "sctp" else "ns3::TcpSocketFactory"
        sink = ns.PacketSinkHelper(
            factory, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), PORT).ConvertTo()
        )
        bulk = ns.BulkSendHelper(
            factory, ns.InetSocketAddress(interfaces.GetAddress(1), PORT).ConvertTo()
        )
        # One SCTP message fills one DATA chunk; TCP gets the same bytes per Send.
        bulk.SetAttribute(
            "SendSize", ns.UintegerValue(SCTP_PAYLOAD if protocol == "sctp" else 10 * TCP_PAYLOAD)
        )
        sink_apps = sink.Install(nodes.Get(1))
        bulk_apps = bulk.Install(nodes.Get(0))
        sink_apps.Start(ns.Seconds(0.0))
        bulk_apps.Start(ns.Seconds(0.0))
        ns.Simulator.Stop(ns.Seconds(duration))
        events_before = event_count()
        start = time.perf_counter()
        ns.Simulator.Run()
        wall = time.perf_counter() - start
        events = event_count() - events_before
        received = int(ns.DynamicCast[ns.PacketSink](sink_apps.Get(0)).GetTotalRx())
        del p2p, devices, interfaces
    return {"wall": wall, "bytes": received, "events": events}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0, help="simulated seconds")
    parser.add_argument("--repeat", type=int, default=3, help="runs per protocol (median)")
    args = parser.parse_args(argv)
    if args.duration <= 0 or args.repeat < 1:
        parser.error("--duration must be > 0 and --repeat >= 1")

    runs: dict[str, list[dict]] = {"sctp": [], "tcp": []}
    run_once("sctp", 0.5)  # warm-up: cppyy instantiations, first-touch costs
    run_once("tcp", 0.5)
    for _ in range(args.repeat):
        for protocol in ("tcp", "sctp"):
            runs[protocol].append(run_once(protocol, args.duration))

    print(
        f"Bulk transfer, 100 Mb/s, {DELAY} one-way, {args.duration:g} s simulated, "
        f"median of {args.repeat} runs (shared machine: wall times are noisy)"
    )
    header = (
        f"{'':5} {'wall s':>8} {'MB':>9} {'wall s/MB':>10} {'events/MB':>10} "
        f"{'goodput Mb/s':>13} {'max Mb/s':>9} {'of max':>7}"
    )
    print(header)
    summary = {}
    for protocol, payload in (("tcp", TCP_PAYLOAD), ("sctp", SCTP_PAYLOAD)):
        wall = statistics.median(r["wall"] for r in runs[protocol])
        received = runs[protocol][0]["bytes"]
        events = runs[protocol][0]["events"]
        if any(r["bytes"] != received for r in runs[protocol]):
            print(f"{protocol}: runs differ in delivered bytes (non-deterministic!)")
            return 1
        mb = received / 1e6
        goodput = received * 8 / args.duration / 1e6
        frame = payload + 1500 - payload + PPP_HEADER  # 1500-byte IP packets plus PPP
        max_goodput = RATE_BPS * payload / frame / 1e6
        summary[protocol] = wall / mb
        print(
            f"{protocol:5} {wall:8.2f} {mb:9.1f} {wall / mb:10.5f} {events / mb:10.0f} "
            f"{goodput:13.2f} {max_goodput:9.2f} {goodput / max_goodput:7.1%}"
        )
    ratio = summary["sctp"] / summary["tcp"]
    print(f"SCTP/TCP wall time per delivered MB: {ratio:.2f} (target <= 1.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
