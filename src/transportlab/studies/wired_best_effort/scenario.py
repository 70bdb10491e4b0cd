"""The ns-3 scenario of the wired best-effort study: one replication, raw tables (cached).

Nothing here computes a metric (that is ``analysis.py``): the run returns what the
simulation observed, so a change of a metric costs no simulation.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.ns3.capabilities import sctp_available
from transportlab.ns3.helpers import SOCKET_FACTORIES, seconds
from transportlab.ns3.ns2_tcp import TcpDefaults, set_tcp_defaults
from transportlab.ns3.recording import PathRecorder, ValueRecorder
from transportlab.ns3.simulation import event_count, simulation
from transportlab.ns3.topology.dumbbell import Link, dumbbell
from transportlab.studies.wired_best_effort.parameters import (
    IPV4_HEADER,
    JITTER_STREAM,
    PPP_HEADER,
    ROUTERS,
    SCTP_STREAM,
    SINK_PORT,
    cbr_interval,
    node_count,
    node_pairs,
    sample_edges,
)

POINTS = ["sent", "bottleneck", "dropped", "received"]

# Raw sizes at these points -> IP datagram bytes (NS-2's packet size has no link header).
_POINT_SIZE_CORRECTION = {
    "sent": -PPP_HEADER,
    "bottleneck": -PPP_HEADER,
    "received": -PPP_HEADER,
    "dropped_tc": IPV4_HEADER,  # TcDrop sees the packet before its IP header is added
    "dropped_qdisc": 0,  # a queue disc item counts its IP header
    "dropped_device": -PPP_HEADER,
}


def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication (ns-3 RngRun ``run``) of the scenario. Raw tables:

    * ``flows``: one row per node pair (:func:`node_pairs`) with its start time
      and the application bytes its sink received;
    * ``packets``: every recorded transmission of the sources' packets: ``point``
      (sent at the source device, NS-2's ``+``; ``bottleneck``, sent on the
      bottleneck, ``-``; ``dropped`` on a router, ``d``; ``received`` at the sink
      device, ``r``), ``flow``, ``packet`` (a per-transmission number like NS-2's
      uid), ``size`` (IP bytes), ``time`` (:class:`~transportlab.ns3.recording.PathRecorder`);
    * ``goodput``: bytes each sink received per ``sample_interval``;
    * ``queue``: the bottleneck's queue occupancy (device queue, queue disc) at
      each change; ``windows``: congestion window and ssthresh of each FTP flow
      (``series`` ``"<flow>:cwnd"``) at each change;
    * ``run``: ns-3 events, wall time of building and running, CPU time of running.
    """
    pairs = node_pairs(params)
    wall_start = time.perf_counter()
    with simulation(seed=seed, run=run, checksums=bool(params["pcap_prefix"])) as ns:
        _configure_tcp(ns, params)
        net = _build_dumbbell(ns, params, pairs)
        starts = _start_times(ns, params, pairs)
        sinks = _install_applications(ns, params, pairs, net, starts)
        recorder = _watch_packets(ns, pairs, net)
        queue, windows = _watch_state(ns, params, pairs, net, starts)
        if params["pcap_prefix"]:
            ns.PointToPointHelper().EnablePcap(params["pcap_prefix"], net.bottleneck, False)
        build_seconds = time.perf_counter() - wall_start
        cpu_start = time.process_time()
        goodput = _run_sampled(ns, params, sinks)
        run_cpu_seconds = time.process_time() - cpu_start
        run_seconds = time.perf_counter() - wall_start - build_seconds
        events = event_count()
        packets = _packets_frame(recorder)
        queue_frame = queue.to_frame()
        windows_frame = windows.to_frame()
        rx_bytes = {flow: int(sink.GetTotalRx()) for flow, sink in sinks.items()}

    flows = pairs.copy()
    flows["start"] = starts
    flows["rx_bytes"] = flows["flow"].map(rx_bytes)
    run_row = {
        "events": events,
        "build_seconds": build_seconds,
        "run_seconds": run_seconds,
        "run_cpu_seconds": run_cpu_seconds,
    }
    return {
        "flows": flows,
        "packets": packets,
        "goodput": goodput,
        "queue": queue_frame,
        "windows": windows_frame,
        "run": pd.DataFrame([run_row]),
    }


def _configure_tcp(ns, params: Mapping[str, Any]) -> None:
    """Attribute defaults for every TCP socket: the tcp_* parameters, whose defaults are
    NS-2's Agent/TCP (:mod:`transportlab.ns3.ns2_tcp`; see ``analysis.TCP_DIFFERENCES``)."""
    segment = params["tcp_segment_size"]
    ssthresh = params["tcp_initial_ssthresh"] * segment
    set_tcp_defaults(
        ns,
        TcpDefaults(
            socket_type=f"ns3::{params['tcp_congestion']}",
            recovery=f"ns3::{params['tcp_recovery']}",
            segment_size=segment,
            initial_cwnd=params["tcp_initial_cwnd"],
            initial_ssthresh=ssthresh if ssthresh else 0xFFFFFFFF,
            delack_count=params["tcp_delack_count"],
            # The sink reads at once, so the advertised window is the whole receive buffer.
            receive_buffer=params["tcp_window"] * segment,
            sack=params["tcp_sack"],
            timestamps=params["tcp_timestamps"],
            window_scaling=params["tcp_window_scaling"],
            limited_transmit=params["tcp_limited_transmit"],
            min_rto_ns=round(params["tcp_min_rto_ms"] * 1e6),
            clock_granularity_ns=round(params["tcp_clock_granularity_ms"] * 1e6),
            initial_rto_ns=round(params["tcp_initial_rto_ms"] * 1e6),
        ),
    )


def _install_sctp(ns, nodes, params: Mapping[str, Any]) -> None:
    if not sctp_available():
        raise RuntimeError(
            "protocol='sctp' needs the SCTP model (src/sctp, ns3::SctpSocketFactory), "
            "which this build of transportlab does not contain"
        )
    if params["stack_preset"] == "ns2":
        # Attribute defaults of ns-2.35's Agent/SCTP (src/sctp/helper/sctp-stack-helper.cc);
        # "rfc9260" keeps the model's own defaults, RFC 9260's protocol parameters.
        ns.SctpStackHelper.SetNs2Defaults("2.35")
    helper = ns.SctpStackHelper()
    helper.Install(nodes)
    # Fixed streams for the random verification tags, initial TSNs and keys.
    helper.AssignStreams(nodes, SCTP_STREAM)


def _build_dumbbell(ns, params: Mapping[str, Any], pairs: pd.DataFrame):
    """The 22-node dumbbell (for the default parameters) in NS-2's node numbering."""

    def install_sctp(nodes) -> None:
        _install_sctp(ns, nodes, params)

    return dumbbell(
        ns,
        node_count=node_count(params),
        routers=ROUTERS,
        sources=list(pairs["source"]),
        sinks=list(pairs["sink"]),
        access=Link(params["access_rate_mbps"], params["access_delay_ms"]),
        bottleneck=Link(params["bottleneck_rate_mbps"], params["bottleneck_delay_ms"]),
        egress=Link(params["egress_rate_mbps"], params["egress_delay_ms"]),
        queue_packets=params["queue_packets"],
        queue_discipline=params["queue_discipline"],
        install_stacks=install_sctp if params["protocol"] == "sctp" else None,
    )


def _start_times(ns, params: Mapping[str, Any], pairs: pd.DataFrame) -> np.ndarray:
    starts = pairs["script_start"].to_numpy(dtype=float)
    jitter = params["start_jitter_ms"] / 1e3
    if jitter == 0:
        return starts
    uniform = ns.CreateObject[ns.UniformRandomVariable]()
    uniform.SetStream(JITTER_STREAM)
    return starts + np.array([uniform.GetValue(0.0, jitter) for _ in range(len(starts))])


def _install_applications(ns, params, pairs, net, starts):
    """FTP = BulkSend with no byte limit, CBR = UdpClient (first packet at its start time)."""
    sinks = {}
    for row in pairs.itertuples():
        factory = SOCKET_FACTORIES[row.transport]
        port = SINK_PORT + row.flow
        sink = ns.PacketSinkHelper(
            factory, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()
        )
        sink_app = sink.Install(net.nodes.Get(row.sink))
        sink_app.Start(ns.Seconds(0.0))
        sinks[row.flow] = ns.DynamicCast[ns.PacketSink](sink_app.Get(0))
        remote = ns.InetSocketAddress(net.sink_addresses[row.flow], port).ConvertTo()
        if row.application == "ftp":
            sender = ns.BulkSendHelper(factory, remote)
            size = (
                params["tcp_segment_size"]
                if row.transport == "tcp"
                else params["sctp_message_size"]
            )
            sender.SetAttribute("SendSize", ns.UintegerValue(size))
            sender.SetAttribute("MaxBytes", ns.UintegerValue(0))
        else:
            # NS-2's CBR sends its first packet when it starts, then one per interval
            # (random_ 0); OnOff would wait one interval first, UdpClient does not.
            sender = ns.UdpClientHelper(remote)
            sender.SetAttribute("PacketSize", ns.UintegerValue(params["cbr_packet_size"]))
            sender.SetAttribute("Interval", ns.TimeValue(seconds(ns, cbr_interval(params))))
            sender.SetAttribute("MaxPackets", ns.UintegerValue(0))
        app = sender.Install(net.nodes.Get(row.source))
        app.Start(seconds(ns, starts[row.flow]))
    return sinks


def _watch_packets(ns, pairs, net):
    recorder = PathRecorder()
    for row in pairs.itertuples():
        recorder.origin(net.source_devices[row.flow], "MacTx", row.flow, "sent")
    recorder.watch(net.bottleneck, "PhyTxBegin", "bottleneck")
    for row in pairs.itertuples():
        recorder.watch(net.sink_devices[row.flow], "MacRx", "received")
    for node in ROUTERS:
        recorder.watch(
            net.nodes.Get(node).GetObject[ns.TrafficControlLayer](), "TcDrop", "dropped_tc"
        )
    for device in net.router_devices:
        recorder.watch(device, "MacTxDrop", "dropped_device")
    for qdisc in net.queue_discs.values():
        recorder.watch(qdisc, "Drop", "dropped_qdisc")
    return recorder


def _packets_frame(recorder) -> pd.DataFrame:
    frame = recorder.to_frame()
    points = frame["point"].astype(str)
    frame["size"] = frame["size"] + points.map(_POINT_SIZE_CORRECTION).fillna(0).astype(int)
    points = points.where(~points.str.startswith("dropped"), "dropped")
    frame["point"] = pd.Categorical(points, categories=POINTS)
    return frame


def _watch_state(ns, params, pairs, net, starts):
    queue = ValueRecorder()
    device_queue = net.bottleneck.GetObject[ns.PointToPointNetDevice]().GetQueue()
    queue.watch(device_queue, "PacketsInQueue", "uint32", "device")
    if net.bottleneck in net.queue_discs:
        queue.watch(net.queue_discs[net.bottleneck], "PacketsInQueue", "uint32", "queue_disc")
    windows = ValueRecorder()
    protocol = {"tcp": "TcpL4Protocol", "sctp": "SctpL4Protocol"}[params["protocol"]]
    for row in pairs[pairs["application"] == "ftp"].itertuples():
        # The socket exists once BulkSend has started.
        path = f"/NodeList/{row.source}/$ns3::{protocol}/SocketList/0/"
        at = starts[row.flow] + 1e-6
        windows.watch_path(path + "CongestionWindow", "uint32", f"{row.flow}:cwnd", at=at)
        windows.watch_path(path + "SlowStartThreshold", "uint32", f"{row.flow}:ssthresh", at=at)
    return queue, windows


def _run_sampled(ns, params, sinks) -> pd.DataFrame:
    """Run to the end, reading each sink's byte counter every ``sample_interval``."""
    edges = sample_edges(params)
    flows = sorted(sinks)
    totals = np.zeros((len(edges), len(flows)), dtype=np.int64)
    for i, edge in enumerate(edges):
        ns.Simulator.Stop(seconds(ns, edge) - ns.Simulator.Now())
        ns.Simulator.Run()
        totals[i] = [int(sinks[f].GetTotalRx()) for f in flows]
    delivered = np.diff(np.vstack([np.zeros(len(flows), dtype=np.int64), totals]), axis=0)
    return pd.DataFrame({
        "flow": np.repeat(flows, len(edges)).astype(np.int64),
        "time": np.tile(edges, len(flows)),
        "bytes": delivered.T.reshape(-1),
    })  # fmt: skip
