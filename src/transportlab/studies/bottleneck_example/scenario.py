"""The ns-3 scenario of the bottleneck example: one replication, raw tables (cached)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.ns3.helpers import SOCKET_FACTORIES
from transportlab.ns3.recording import PacketRecorder, enable_seq_ts_size, flow_monitor_frame
from transportlab.ns3.simulation import run_until, simulation
from transportlab.ns3.topology.chain import Link, chain
from transportlab.studies.bottleneck_example.parameters import (
    SINK_PORT,
    START_SECONDS,
    drain_seconds,
)


def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication. Raw tables: ``packets`` (application events), ``flows`` (FlowMonitor)."""
    with simulation(seed=seed, run=run) as ns:
        size = params["packet_size"]
        ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(size))
        net = chain(
            ns,
            [
                Link(params["access_rate_mbps"], params["access_delay_ms"]),
                Link(params["bottleneck_rate_mbps"], params["bottleneck_delay_ms"]),
            ],
            params["queue_packets"],
        )
        source, sink = net.node(0), net.node(2)
        if params["error_rate"] > 0:
            errors = ns.CreateObject[ns.RateErrorModel]()
            errors.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
            errors.SetAttribute("ErrorRate", ns.DoubleValue(params["error_rate"]))
            net.devices[1].Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(errors))
        factory = SOCKET_FACTORIES[params["protocol"]]
        remote = ns.InetSocketAddress(net.address(1, 1), SINK_PORT).ConvertTo()
        if params["protocol"] == "udp":
            sender = ns.OnOffHelper(factory, remote)
            sender.SetConstantRate(ns.DataRate(round(params["udp_rate_mbps"] * 1e6)), size)
        else:
            sender = ns.BulkSendHelper(factory, remote)
            sender.SetAttribute("SendSize", ns.UintegerValue(size))
        receiver = ns.PacketSinkHelper(
            factory, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), SINK_PORT).ConvertTo()
        )
        enable_seq_ts_size(sender, receiver)
        sender_apps = sender.Install(source)
        receiver_apps = receiver.Install(sink)
        sender_apps.Start(ns.Seconds(START_SECONDS))
        sender_apps.Stop(ns.Seconds(params["duration"]))
        receiver_apps.Start(ns.Seconds(0.0))

        recorder = PacketRecorder()
        recorder.watch_sender(sender_apps.Get(0), flow=1)
        recorder.watch_receiver(receiver_apps.Get(0), flow=1)
        monitor_helper = ns.FlowMonitorHelper()
        monitor = monitor_helper.InstallAll()

        # Everything sent arrives (or is lost) before the simulation ends: the
        # loss ratio then needs no guess about packets still in flight.
        run_until(params["duration"] + drain_seconds(params))
        # FlowMonitor's IP protocol number (6, 17) is not the study's `protocol` parameter.
        flows = flow_monitor_frame(monitor, monitor_helper).rename(
            columns={"protocol": "ip_protocol"}
        )
        return {"packets": recorder.to_frame(), "flows": flows}
