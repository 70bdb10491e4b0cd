"""The ns-3 scenario of the message interleaving study: one replication, raw tables (cached)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.ns3.capabilities import sctp_available
from transportlab.ns3.helpers import SOCKET_FACTORIES, seconds
from transportlab.ns3.recording import PacketRecorder, flow_monitor_frame
from transportlab.ns3.sctp_recording import SctpRecorder
from transportlab.ns3.simulation import run_until, simulation
from transportlab.ns3.topology.chain import Link, chain
from transportlab.studies.message_interleaving.parameters import (
    SCHEDULERS,
    SCTP_BUFFER_BYTES,
    SINK_PORT,
    START_SECONDS,
    STREAM_PRIORITIES,
    STREAM_WEIGHTS,
    message_schedule,
    uses_sctp,
)

#: RNG stream of the SCTP stack (verification tags, initial TSNs, cookie keys).
SCTP_RNG_STREAM = 1000
#: TCP segments fill a 1500-byte MTU (IPv4 20 + TCP 20 + timestamp option 12).
TCP_SEGMENT_SIZE = 1448
#: After the last message is produced the run goes on this long, so the backlog drains.
DRAIN_SECONDS = 30.0


def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication. Raw tables: ``messages`` (what was produced: seq, time, size,
    stream), ``packets`` (application send and delivery events) and ``flows``
    (FlowMonitor), ``sender`` (the sender's counters, whether I-DATA was negotiated) and
    ``chunks`` (SCTP: chunks the sender sent, by type)."""
    sctp = uses_sctp(params)
    if sctp and not sctp_available():
        raise RuntimeError(
            "the SCTP transports need the SCTP model (src/sctp, ns3::SctpSocketFactory), "
            "which this build of transportlab does not contain"
        )
    schedule = message_schedule(params)
    with simulation(seed=seed, run=run) as ns:
        ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(TCP_SEGMENT_SIZE))
        net = chain(
            ns,
            [
                Link(params["access_rate_mbps"], params["access_delay_ms"]),
                Link(params["bottleneck_rate_mbps"], params["bottleneck_delay_ms"]),
            ],
            params["queue_packets"],
        )
        source, sink = net.node(0), net.node(2)
        if sctp:
            ns.SctpStackHelper.SetPreset(params["stack_preset"])
            prefix = "ns3::SctpSocket::"
            ns.Config.SetDefault(
                prefix + "StreamScheduler", ns.StringValue(SCHEDULERS[params["scheduler"]])
            )
            ns.Config.SetDefault(
                prefix + "IDataSupported", ns.BooleanValue(params["transport"] == "sctp-idata")
            )
            ns.Config.SetDefault(prefix + "SndBufSize", ns.UintegerValue(SCTP_BUFFER_BYTES))
            ns.Config.SetDefault(prefix + "RcvBufSize", ns.UintegerValue(SCTP_BUFFER_BYTES))
            helper = ns.SctpStackHelper()
            helper.Install(net.nodes)
            helper.AssignStreams(net.nodes, SCTP_RNG_STREAM)
        if params["error_rate"] > 0:
            errors = ns.CreateObject[ns.RateErrorModel]()
            errors.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
            errors.SetAttribute("ErrorRate", ns.DoubleValue(params["error_rate"]))
            net.devices[1].Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(errors))

        factory = SOCKET_FACTORIES["sctp" if sctp else "tcp"]
        sender = ns.CreateObject[ns.ScheduledMessageSender]()
        remote = ns.InetSocketAddress(net.address(1, 1), SINK_PORT).ConvertTo()
        sender.SetAttribute("Remote", ns.AddressValue(remote))
        sender.SetAttribute("SocketFactory", ns.StringValue(factory))
        sender.SetAttribute("WholeMessages", ns.BooleanValue(sctp))
        sender.SetAttribute(
            "ConnectionPerStream", ns.BooleanValue(params["transport"] == "tcp-per-stream")
        )
        sender.SetAttribute("Streams", ns.UintegerValue(2))
        for at, size, stream in schedule:
            sender.AddMessage(seconds(ns, at - START_SECONDS), size, stream)
        source.AddApplication(sender)
        sender.SetStartTime(seconds(ns, START_SECONDS))

        receiver = ns.PacketSinkHelper(
            factory, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), SINK_PORT).ConvertTo()
        )
        receiver.SetAttribute("EnableSeqTsSizeHeader", ns.BooleanValue(True))
        receiver_apps = receiver.Install(sink)
        receiver_apps.Start(ns.Seconds(0.0))

        recorder = PacketRecorder()
        recorder.watch_sender(sender, flow=1)
        recorder.watch_receiver(receiver_apps.Get(0), flow=1)
        chunks = None
        if sctp:
            # Which chunks carried the data (DATA, or I-DATA once the model sends it).
            chunks = SctpRecorder()
            chunks.watch_node(source, 0)
        monitor_helper = ns.FlowMonitorHelper()
        monitor = monitor_helper.InstallAll()

        # The sender's socket exists once it has started: stream priorities and weights
        # are socket settings (the schedulers that do not use them ignore them). Set
        # before the association is up, so before any DATA.
        run_until(START_SECONDS + 1e-6)
        if sctp:
            socket = ns.DynamicCast[ns.SctpSocket](sender.GetSocket(0))
            for stream, priority in STREAM_PRIORITIES.items():
                socket.SetStreamPriority(stream, priority)
            for stream, weight in STREAM_WEIGHTS.items():
                socket.SetStreamWeight(stream, weight)
        run_until(params["duration"] + DRAIN_SECONDS)

        messages = pd.DataFrame(schedule, columns=["time", "size", "stream"])
        messages.insert(0, "seq", range(len(messages)))
        flows = flow_monitor_frame(monitor, monitor_helper).rename(
            columns={"protocol": "ip_protocol"}
        )
        counters = {
            "messages": int(sender.GetMessageCount()),
            "written": int(sender.GetMessagesWritten()),
            "send_errors": int(sender.GetSendErrors()),
            "idata_negotiated": False,
        }
        sent_chunks = pd.DataFrame({"chunk": pd.Series(dtype=object), "count": []})
        if sctp:
            association = socket.GetAssociation()
            counters["idata_negotiated"] = bool(association.IsIDataNegotiated())
            sent_chunks = (
                chunks.chunks()["chunk"]
                .astype(str)
                .value_counts()
                .rename_axis("chunk")
                .reset_index(name="count")
                .sort_values("chunk", ignore_index=True)
            )
        return {
            "messages": messages,
            "packets": recorder.to_frame(),
            "flows": flows,
            "sender": pd.DataFrame([counters]),
            "chunks": sent_chunks,
        }
