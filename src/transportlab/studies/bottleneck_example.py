"""Example study: one TCP or UDP flow through a bottleneck, against a hand calculation.

Not a published study: it exercises the whole path (parameters, sweep, cache,
notebook, papermill, figure, comparison table) on a scenario small enough to be
checked by hand::

    source --- 10 Mb/s, 2 ms --- router --- 1 Mb/s, 20 ms --- sink
                                   DropTail queue (50 packets, NS-2's default limit)

One flow from source to sink: a UDP constant-bit-rate flow (OnOff with constant
on time) or a TCP bulk transfer (BulkSend), measured at the application
(:class:`~transportlab.recording.PacketRecorder`) and at IP (FlowMonitor). An
optional packet error rate on the bottleneck's receiving interface
(RateErrorModel, the only random element) makes replications differ.

Like NS-2's DropTail links, there is no queueing discipline (the ns-3 traffic
control layer is removed): the point-to-point device's DropTail queue is the
bottleneck queue.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.params import Param, ParameterSpace
from transportlab.studies import Study

PPP_HEADER = 2
IPV4_HEADER = 20
UDP_HEADER = 8
# ns-3 TCP sends the timestamp option on every segment (10 bytes, padded to 12).
TCP_HEADER = 20 + 12
SEQ_TS_SIZE_HEADER = 20  # application header carrying sequence number, send time and size

SINK_PORT = 9000
START_SECONDS = 1.0


def _stop_after_warmup(values: Mapping[str, Any]) -> str | None:
    if values["duration"] <= START_SECONDS + values["warmup"]:
        return (
            f"duration ({values['duration']} s) must exceed the application start "
            f"({START_SECONDS} s) plus warmup ({values['warmup']} s)"
        )
    return None


PARAMETERS = ParameterSpace(
    Param(
        "protocol",
        "udp",
        str,
        "transport of the flow: UDP CBR or TCP bulk transfer",
        choices=("udp", "tcp"),
    ),
    Param(
        "access_rate_mbps",
        10.0,
        float,
        "rate of the source-router link",
        minimum=0,
        exclusive_minimum=True,
        unit="Mb/s",
    ),
    Param(
        "access_delay_ms",
        2.0,
        float,
        "propagation delay of the source-router link",
        minimum=0,
        unit="ms",
    ),
    Param(
        "bottleneck_rate_mbps",
        1.0,
        float,
        "rate of the router-sink link",
        minimum=0,
        exclusive_minimum=True,
        unit="Mb/s",
    ),
    Param(
        "bottleneck_delay_ms",
        20.0,
        float,
        "propagation delay of the router-sink link",
        minimum=0,
        unit="ms",
    ),
    Param(
        "queue_packets",
        50,
        int,
        "DropTail queue limit of every interface",
        minimum=1,
        unit="packets",
    ),
    Param(
        "packet_size",
        1000,
        int,
        "application bytes per UDP packet / per TCP segment (incl. the 20-byte "
        "sequence/timestamp header)",
        minimum=SEQ_TS_SIZE_HEADER,
        maximum=1448,
        unit="bytes",
    ),
    Param(
        "udp_rate_mbps",
        0.5,
        float,
        "sending rate of the UDP CBR flow",
        minimum=0,
        exclusive_minimum=True,
        unit="Mb/s",
    ),
    Param(
        "error_rate",
        0.0,
        float,
        "packet error rate on the bottleneck's receiving interface (RateErrorModel)",
        minimum=0.0,
        maximum=0.5,
    ),
    Param(
        "duration",
        20.0,
        float,
        "the flow runs from 1 s to this time (then the queues drain for a few seconds)",
        quick=6.0,
        minimum=0,
        exclusive_minimum=True,
        unit="s",
    ),
    Param(
        "warmup",
        1.0,
        float,
        "time after the flow's start excluded from throughput (TCP slow start)",
        minimum=0,
        unit="s",
    ),
    consistency=[_stop_after_warmup],
)


# --------------------------------------------------------------------------- hand calculation


def wire_bytes(params: Mapping[str, Any]) -> int:
    """Bytes one data packet occupies on a point-to-point link (PPP + IPv4 + L4 + payload)."""
    l4 = UDP_HEADER if params["protocol"] == "udp" else TCP_HEADER
    return params["packet_size"] + l4 + IPV4_HEADER + PPP_HEADER


def expected_udp_delay(params: Mapping[str, Any]) -> float:
    """One-way delay (s) of a UDP packet that finds both queues empty.

    Store-and-forward: per hop the serialisation time (bits / rate) plus the
    propagation delay; ns-3 adds no processing time.
    """
    bits = wire_bytes(params) * 8
    return (
        bits / (params["access_rate_mbps"] * 1e6)
        + params["access_delay_ms"] / 1e3
        + bits / (params["bottleneck_rate_mbps"] * 1e6)
        + params["bottleneck_delay_ms"] / 1e3
    )


def udp_below_capacity(params: Mapping[str, Any]) -> bool:
    """Whether the CBR flow's packets never queue (sent slower than either link serves them)."""
    interval = params["packet_size"] * 8 / (params["udp_rate_mbps"] * 1e6)
    bits = wire_bytes(params) * 8
    return interval > bits / (params["bottleneck_rate_mbps"] * 1e6) and interval > bits / (
        params["access_rate_mbps"] * 1e6
    )


def expected_goodput(params: Mapping[str, Any]) -> float:
    """Application throughput (b/s) the hand calculation predicts.

    UDP below capacity: the sending rate times the delivered fraction (1 - error
    rate). TCP: the bottleneck is busy all the time, so the goodput is its rate
    times the application share of each frame, packet_size / wire_bytes (an upper
    bound that TCP reaches with a queue larger than the bandwidth-delay product
    and no random losses).
    """
    if params["protocol"] == "udp":
        rate = min(params["udp_rate_mbps"], params["bottleneck_rate_mbps"]) * 1e6
        return rate * (1.0 - params["error_rate"])
    return params["bottleneck_rate_mbps"] * 1e6 * params["packet_size"] / wire_bytes(params)


# --------------------------------------------------------------------------- simulation


def _build(ns, params: Mapping[str, Any]):
    """Nodes, links, addresses; returns (nodes, bottleneck devices, sink address)."""
    nodes = ns.NodeContainer()
    nodes.Create(3)
    source, router, sink = nodes.Get(0), nodes.Get(1), nodes.Get(2)

    link = ns.PointToPointHelper()
    link.SetQueue(
        "ns3::DropTailQueue<Packet>",
        "MaxSize",
        ns.QueueSizeValue(ns.QueueSize(f"{params['queue_packets']}p")),
    )
    link.SetDeviceAttribute(
        "DataRate", ns.DataRateValue(ns.DataRate(round(params["access_rate_mbps"] * 1e6)))
    )
    link.SetChannelAttribute(
        "Delay", ns.TimeValue(ns.NanoSeconds(round(params["access_delay_ms"] * 1e6)))
    )
    access = link.Install(source, router)
    link.SetDeviceAttribute(
        "DataRate", ns.DataRateValue(ns.DataRate(round(params["bottleneck_rate_mbps"] * 1e6)))
    )
    link.SetChannelAttribute(
        "Delay", ns.TimeValue(ns.NanoSeconds(round(params["bottleneck_delay_ms"] * 1e6)))
    )
    bottleneck = link.Install(router, sink)

    ns.InternetStackHelper().Install(nodes)
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
    addresses.Assign(access)
    addresses.SetBase(ns.Ipv4Address("10.1.2.0"), ns.Ipv4Mask("255.255.255.0"))
    sink_interfaces = addresses.Assign(bottleneck)
    # NS-2 style DropTail links: no queueing discipline above the device queue.
    # (Assign installs the default one, so remove it afterwards.)
    no_qdisc = ns.TrafficControlHelper()
    no_qdisc.Uninstall(access)
    no_qdisc.Uninstall(bottleneck)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    if params["error_rate"] > 0:
        errors = ns.CreateObject[ns.RateErrorModel]()
        errors.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
        errors.SetAttribute("ErrorRate", ns.DoubleValue(params["error_rate"]))
        bottleneck.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(errors))
    return source, sink, sink_interfaces.GetAddress(1)


def simulate(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication. Tables: ``packets`` (application events), ``flows`` (FlowMonitor)."""
    from transportlab.recording import (  # noqa: PLC0415 - ns-3 only in the simulating process
        PacketRecorder,
        enable_seq_ts_size,
        flow_monitor_frame,
    )
    from transportlab.simulation import run_until, simulation  # noqa: PLC0415

    with simulation(seed=seed, run=run) as ns:
        size = params["packet_size"]
        ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(size))
        source, sink, sink_address = _build(ns, params)
        remote = ns.InetSocketAddress(sink_address, SINK_PORT).ConvertTo()
        if params["protocol"] == "udp":
            sender = ns.OnOffHelper("ns3::UdpSocketFactory", remote)
            sender.SetConstantRate(ns.DataRate(round(params["udp_rate_mbps"] * 1e6)), size)
            factory = "ns3::UdpSocketFactory"
        else:
            sender = ns.BulkSendHelper("ns3::TcpSocketFactory", remote)
            sender.SetAttribute("SendSize", ns.UintegerValue(size))
            factory = "ns3::TcpSocketFactory"
        receiver = ns.PacketSinkHelper(
            factory, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), SINK_PORT).ConvertTo()
        )
        enable_seq_ts_size(sender, receiver)
        sender_apps = sender.Install(source)
        receiver_apps = receiver.Install(sink)
        sender_apps.Start(ns.Seconds(START_SECONDS))
        sender_apps.Stop(ns.Seconds(params["duration"]))
        receiver_apps.Start(ns.Seconds(0.0))
        # Everything sent arrives (or is lost) before the simulation ends: the
        # loss ratio then needs no guess about packets still in flight.

        recorder = PacketRecorder()
        recorder.watch_sender(sender_apps.Get(0), flow=1)
        recorder.watch_receiver(receiver_apps.Get(0), flow=1)
        monitor_helper = ns.FlowMonitorHelper()
        monitor = monitor_helper.InstallAll()

        run_until(params["duration"] + drain_seconds(params))
        packets = recorder.to_frame()
        # FlowMonitor's IP protocol number (6, 17) is not the study's `protocol` parameter.
        flows = flow_monitor_frame(monitor, monitor_helper).rename(
            columns={"protocol": "ip_protocol"}
        )
        return {
            "summary": pd.DataFrame([summarise(packets, flows, params)]),
            "packets": packets,
            "flows": flows,
        }


def drain_seconds(params: Mapping[str, Any]) -> float:
    """Time after the sender stops until every packet has arrived or been dropped.

    Generous: a full bottleneck queue, both propagation delays twice, one second
    for a TCP retransmission timeout (ns-3's minimum RTO), the socket send
    buffer (128 KiB) at the bottleneck rate, and a margin.
    """
    bottleneck = params["bottleneck_rate_mbps"] * 1e6
    queue = params["queue_packets"] * wire_bytes(params) * 8 / bottleneck
    send_buffer = 131072 * 8 / bottleneck if params["protocol"] == "tcp" else 0.0
    propagation = 2 * (params["access_delay_ms"] + params["bottleneck_delay_ms"]) / 1e3
    return 1.0 + queue + send_buffer + 2 * propagation


# --------------------------------------------------------------------------- per-run summary


def summarise(
    packets: pd.DataFrame, flows: pd.DataFrame, params: Mapping[str, Any]
) -> dict[str, float]:
    """Goodput, delay, jitter and loss of one run (:mod:`transportlab.metrics`).

    Goodput counts application bytes received in (start + warmup, duration].
    ``loss_ratio`` is the UDP application's loss (packets sent and never
    received; the queues have drained when the simulation ends); NaN for TCP,
    which retransmits. ``ip_loss_ratio`` is the data flow's IP-level loss
    (FlowMonitor): for TCP the segments dropped by the queue or the error model.
    """
    from transportlab import metrics  # noqa: PLC0415

    delays = metrics.one_way_delay(packets)
    data = flows[flows["destination_port"] == SINK_PORT]
    tx, rx = int(data["tx_packets"].sum()), int(data["rx_packets"].sum())
    received = int((packets["event"] == "received").sum())
    return {
        "goodput_bps": metrics.average_throughput(
            packets, start=START_SECONDS + params["warmup"], end=params["duration"]
        ),
        "delay_mean_s": float(delays.mean()) if received else np.nan,
        "delay_min_s": float(delays.min()) if received else np.nan,
        "delay_max_s": float(delays.max()) if received else np.nan,
        "jitter_rfc3550_s": metrics.rfc3550_jitter(delays) if received > 1 else np.nan,
        # TCP delivers everything it accepted; BulkSend traces a packet as sent when
        # it builds it, also one the full socket refused when the application stops.
        "loss_ratio": metrics.loss_ratio(packets) if params["protocol"] == "udp" else np.nan,
        "ip_loss_ratio": metrics.loss_ratio(sent=tx, received=rx) if tx else np.nan,
        "packets_sent": int((packets["event"] == "sent").sum()),
        "packets_received": received,
    }


# --------------------------------------------------------------------------- comparison


def compare_with_hand_calculation(summary: pd.DataFrame, params: Mapping[str, Any]) -> pd.DataFrame:
    """The comparison table (columns of ``comparison.csv``) of a sweep's summary.

    ``summary`` is the sweep's ``summary`` table over protocol x error_rate with
    the other parameters equal to ``params``. Each hand-calculated value is
    compared with the mean over runs; ``matches`` means within the tolerance
    stated per row: delay and jitter exactly (1 ns), the lossless goodputs within
    1 % (one packet more or less in the measurement window), loss within three
    binomial standard deviations of all packets sent.
    """
    from transportlab.published import COMPARISON_COLUMNS, confidence_interval  # noqa: PLC0415

    rows = []

    def add(protocol, metric, row, unit, hand, values, tolerance):
        mean, low, high, _ = confidence_interval(values)
        rows.append({
            "study": STUDY.name, "seed_file": "", "source": "hand calculation",
            "protocol": protocol, "metric": metric, "row": row, "unit": unit,
            "published": hand, "reproduced": mean, "ci_low": low, "ci_high": high,
            "n_runs": len(values), "ratio": mean / hand if hand else np.nan,
            "verdict": "matches" if abs(mean - hand) <= tolerance else "differs",
        })  # fmt: skip

    for (protocol, error_rate), group in summary.groupby(["protocol", "error_rate"], sort=True):
        point = dict(params, protocol=protocol, error_rate=error_rate)
        label = f"error rate {error_rate:g}"
        goodput_kbps = group["goodput_bps"] / 1e3
        hand_kbps = expected_goodput(point) / 1e3
        if protocol == "udp" and udp_below_capacity(point):
            if error_rate == 0:
                hand_delay_ms = expected_udp_delay(point) * 1e3
                add(
                    "UDP",
                    "one-way delay",
                    label,
                    "ms",
                    hand_delay_ms,
                    group["delay_mean_s"] * 1e3,
                    1e-6,
                )
                add(
                    "UDP",
                    "jitter (RFC 3550)",
                    label,
                    "ms",
                    0.0,
                    group["jitter_rfc3550_s"] * 1e3,
                    1e-6,
                )
                add("UDP", "goodput", label, "kbps", hand_kbps, goodput_kbps, 0.01 * hand_kbps)
            else:
                sigma = np.sqrt(error_rate * (1 - error_rate) / group["packets_sent"].sum())
                add(
                    "UDP",
                    "loss ratio",
                    label,
                    "%",
                    error_rate * 100,
                    group["loss_ratio"] * 100,
                    3 * sigma * 100,
                )
        elif protocol == "tcp" and error_rate == 0:
            add("TCP", "goodput", label, "kbps", hand_kbps, goodput_kbps, 0.01 * hand_kbps)
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))


STUDY = Study(
    name="bottleneck_example",
    title="Example: one TCP or UDP flow through a 1 Mb/s bottleneck, against a hand calculation",
    seed_files=(),
    notebook="00_bottleneck_example.ipynb",
    parameters=PARAMETERS,
    simulate=simulate,
    description="Two hosts and a router; checks delay and throughput against hand-computed "
    "values. Shows the whole path: notebook, sweep, papermill, figure, nbval.",
    tags=("example", "tcp", "udp"),
)
