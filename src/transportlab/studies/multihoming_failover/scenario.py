"""The ns-3 scenarios of multihoming_failover: one replication, raw tables (cached).

Nothing here computes a metric (``analysis.py`` does): the raw tables are what the
recorders saw, so a change of a metric costs no simulation. The construction order of
every scenario (topology, sockets, applications, error models) fixes the random-stream
assignment and so the results: keep it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.ns3.helpers import SOCKET_FACTORIES
from transportlab.ns3.recording import PacketRecorder, PathRecorder, enable_seq_ts_size
from transportlab.ns3.sctp_recording import SctpRecorder
from transportlab.ns3.simulation import simulation
from transportlab.ns3.topology import multihomed
from transportlab.studies.multihoming_failover.parameters import (
    DRAIN_SECONDS,
    LOSS_START,
    PORT,
    START,
    VOICE_INTERVAL,
    VOICE_PAYLOAD,
)


def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication of ``params["scenario"]``.

    failover and lossy: ``chunks`` (DATA chunks sent, with their path and whether
    retransmitted), ``paths`` (path events) and ``delivered`` (messages handed to the
    application) of both hosts (``node`` 0 = A, the sender; 1 = B), from
    :class:`~transportlab.ns3.sctp_recording.SctpRecorder`; lossy also ``losses``, every
    packet the loss models dropped on network 0 (``point`` "lost_to_b": sent by A, i.e.
    DATA; "lost_to_a": sent by B, i.e. SACKs), with its time and size, from
    :class:`~transportlab.ns3.recording.PathRecorder`. prsctp: ``packets``, the voice
    frames sent and received (:class:`~transportlab.ns3.recording.PacketRecorder`).
    """
    with simulation(seed=seed, run=run) as ns:
        _socket_defaults(ns, params)
        if params["scenario"] == "prsctp":
            return _run_prsctp(ns, params)
        return _run_transfer(ns, params)


def _socket_defaults(ns, p: Mapping[str, Any]) -> None:
    s = "ns3::SctpSocket::"
    ns.Config.SetDefault(s + "RtoInitial", ns.TimeValue(ns.Seconds(p["rto_initial"])))
    ns.Config.SetDefault(s + "RtoMin", ns.TimeValue(ns.Seconds(p["rto_min"])))
    ns.Config.SetDefault(s + "RtoMax", ns.TimeValue(ns.Seconds(p["rto_max"])))
    ns.Config.SetDefault(s + "HbInterval", ns.TimeValue(ns.Seconds(p["hb_interval"])))
    ns.Config.SetDefault(s + "PathMaxRetrans", ns.UintegerValue(p["path_max_retrans"]))
    ns.Config.SetDefault(s + "AssociationMaxRetrans", ns.UintegerValue(p["assoc_max_retrans"]))
    ns.Config.SetDefault(s + "SourceAddressFailover", ns.BooleanValue(p["source_failover"]))
    ns.Config.SetDefault(s + "RtxToAlt", ns.StringValue(p["rtx_to_alt"]))
    ns.Config.SetDefault(s + "PotentiallyFailedMaxRetrans", ns.UintegerValue(p["pf_max_retrans"]))
    if p["stack_preset"] != "none":
        # After the parameters above: the preset's values (RTO, Path.Max.Retrans,
        # HB.interval, SCTP-PF, ...) win; RtxToAlt and source failover stay.
        ns.SctpStackHelper.SetPreset(p["stack_preset"])


def _run_to(ns, stop_seconds: float) -> None:
    """Run the simulator until ``stop_seconds`` of simulated time (absolute).

    Schedules its own Stop rather than calling ``transportlab.ns3.simulation.run_until``,
    whose meaning (relative to now, or absolute) is being changed (issue 14).
    """
    remaining = ns.Seconds(float(stop_seconds)) - ns.Simulator.Now()
    if not remaining.IsStrictlyPositive():
        raise ValueError(f"stop time {stop_seconds} s is not in the future")
    ns.Simulator.Stop(remaining)
    ns.Simulator.Run()


def _loss_model(ns, rate: float):
    model = ns.CreateObject[ns.RateErrorModel]()
    model.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
    model.SetAttribute("ErrorRate", ns.DoubleValue(rate))
    return model


def _any(ns, port: int):
    return ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()


def _run_transfer(ns, p: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """failover (paced messages, a cable pulled) or lossy (bulk transfer, random loss)."""
    sctp = SOCKET_FACTORIES["sctp"]
    failover = p["scenario"] == "failover"
    if failover and p["topology"] == "seed_hub":
        net = multihomed.seed_hub(ns)
    else:
        net = multihomed.two_networks(ns, rate=f"{p['rate_mbps']}Mbps", delay=f"{p['delay_ms']}ms")
    single = p["scenario"] == "lossy" and p["homing"] == "single"
    recorder = SctpRecorder(data_chunks_only=True)
    recorder.watch_node(net.a, 0)
    recorder.watch_node(net.b, 1)
    remote = ns.InetSocketAddress(net.b_addresses[0], PORT).ConvertTo()
    # Single-homed: both ends bound to their address on network 0 only. Multi-homed:
    # bound to the any-address, so the association uses every address of the host.
    local_b = ns.InetSocketAddress(net.b_addresses[0], PORT).ConvertTo() if single else None
    sink = ns.PacketSinkHelper(sctp, local_b or _any(ns, PORT))
    sink_apps = sink.Install(net.b)
    sink_apps.Start(ns.Seconds(0.0))
    if failover:
        rate = p["message_size"] * 8 / (p["message_interval_ms"] / 1000)
        source = ns.OnOffHelper(sctp, remote)
        source.SetConstantRate(ns.DataRate(round(rate)), p["message_size"])
    else:
        source = ns.BulkSendHelper(sctp, remote)
        source.SetAttribute("SendSize", ns.UintegerValue(1452))
    if single:
        source.SetAttribute(
            "Local", ns.AddressValue(ns.InetSocketAddress(net.a_addresses[0], 0).ConvertTo())
        )
    source_apps = source.Install(net.a)
    source_apps.Start(ns.Seconds(START))
    source_apps.Stop(ns.Seconds(p["duration"]))
    if failover:
        # The cable is pulled without telling IP (the seed's 2.4.18 host did not react
        # to carrier loss either): ns3::LinkFailure drops every frame of the device.
        ns.LinkFailure.ScheduleUnplug(ns.Seconds(p["fail_at"]), net.a_devices[0])
        if p["repair_at"]:
            ns.LinkFailure.SchedulePlug(ns.Seconds(p["repair_at"]), net.a_devices[0])
    else:
        models = [_loss_model(ns, p["loss_rate"]) for _ in range(2)]
        net.keep += models
        # Every packet put on network 0 is numbered where it leaves its device (MacTx)
        # and recorded where the loss model drops it (PhyRxDrop of the receiving
        # device): the time of each loss, not of its retransmission.
        drops = PathRecorder()
        drops.origin(net.a_devices[0], "MacTx", flow=1, point="sent_to_b")
        drops.origin(net.b_devices[0], "MacTx", flow=2, point="sent_to_a")
        drops.watch(net.b_devices[0], "PhyRxDrop", point="lost_to_b")
        drops.watch(net.a_devices[0], "PhyRxDrop", point="lost_to_a")
        _run_to(ns, LOSS_START)
        # Network 0 loses in both directions; network 1 (multi-homed) is loss-free.
        net.a_devices[0].SetAttribute("ReceiveErrorModel", ns.PointerValue(models[0]))
        net.b_devices[0].SetAttribute("ReceiveErrorModel", ns.PointerValue(models[1]))
    _run_to(ns, p["duration"])
    raw = {
        "chunks": recorder.chunks(),
        "paths": recorder.paths(),
        "delivered": recorder.delivered(),
    }
    if not failover:
        events = drops.to_frame()
        lost = events[events.point.isin(["lost_to_b", "lost_to_a"])]
        raw["losses"] = pd.DataFrame(
            {
                "time": lost.time.to_numpy(),
                "point": lost.point.astype(str).to_numpy(),
                "size": lost["size"].to_numpy(),
            }
        )
        del drops
    # Release the ns-3 objects before the simulation is destroyed.
    del net, recorder, sink_apps, source_apps
    return raw


def _run_prsctp(ns, p: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """A voice-like stream over one lossy link: SCTP (full or partial reliability) or UDP."""
    policy = p["policy"]
    if policy != "udp":
        s = "ns3::SctpSocket::"
        names = {"reliable": "NONE", "ttl": "TTL", "rtx": "RTX"}
        ns.Config.SetDefault(s + "PrPolicy", ns.StringValue(names[policy]))
        ns.Config.SetDefault(s + "PrValue", ns.UintegerValue(p["pr_value"]))
        ns.Config.SetDefault(s + "Unordered", ns.BooleanValue(policy != "reliable"))
    nodes = ns.NodeContainer()
    nodes.Create(2)
    link = ns.PointToPointHelper()
    link.SetDeviceAttribute("DataRate", ns.StringValue(f"{p['rate_mbps']}Mbps"))
    link.SetChannelAttribute("Delay", ns.TimeValue(ns.MicroSeconds(round(p["delay_ms"] * 1000))))
    devices = link.Install(nodes)
    ns.InternetStackHelper().Install(nodes)
    ns.SctpStackHelper().Install(nodes)
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
    interfaces = addresses.Assign(devices)
    factory = SOCKET_FACTORIES["udp" if policy == "udp" else "sctp"]
    remote = ns.InetSocketAddress(interfaces.GetAddress(1), PORT).ConvertTo()
    source = ns.OnOffHelper(factory, remote)
    source.SetConstantRate(ns.DataRate(round(VOICE_PAYLOAD * 8 / VOICE_INTERVAL)), VOICE_PAYLOAD)
    sink = ns.PacketSinkHelper(factory, _any(ns, PORT))
    enable_seq_ts_size(source, sink)
    source_apps = source.Install(nodes.Get(0))
    sink_apps = sink.Install(nodes.Get(1))
    sink_apps.Start(ns.Seconds(0.0))
    source_apps.Start(ns.Seconds(START))
    source_apps.Stop(ns.Seconds(p["duration"] - DRAIN_SECONDS))
    models = [_loss_model(ns, p["loss_rate"]) for _ in range(2)]
    recorder = PacketRecorder()
    recorder.watch_sender(source_apps.Get(0), flow=1)
    recorder.watch_receiver(sink_apps.Get(0), flow=1)
    _run_to(ns, LOSS_START)
    for device, model in zip((devices.Get(0), devices.Get(1)), models, strict=True):
        device.SetAttribute("ReceiveErrorModel", ns.PointerValue(model))
    _run_to(ns, p["duration"])
    raw = {"packets": recorder.to_frame()}
    del nodes, devices, source_apps, sink_apps, recorder, models
    return raw
