"""The ns-3 scenario of voip_cjm: one replication, raw tables (cached).

Builds the topology (homogeneous dumbbell or trunk, see the package docstring),
configures the transport, installs the voice gateways and the cross traffic, runs
and returns what was recorded: every voice frame sent and delivered, and two
counters. Nothing here plays out or rates a call (``analysis.py`` does, uncached).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pandas as pd

from transportlab.ns3.capabilities import pr_sctp_available, sctp_available
from transportlab.ns3.helpers import SOCKET_FACTORIES, remove_queue_discipline
from transportlab.ns3.ns2_tcp import TcpDefaults, ns2_tcp_defaults, set_tcp_defaults
from transportlab.ns3.recording import PacketRecorder
from transportlab.ns3.simulation import event_count, run_until, simulation
from transportlab.studies.voip_cjm import voice_gateways as voice
from transportlab.studies.voip_cjm.parameters import (
    CALL_START_S,
    CALL_START_SPREAD_S,
    CROSS_PORT,
    IPV4_HEADER_BYTES,
    TCP_HEADER_BYTES,
    VOICE_PORT,
    access_delays_ms,
    end_time,
    voice_payload_bytes,
)

# ----------------------------------------------------------------------------- network


class _Network:
    """Nodes and addresses of one topology (built inside a simulation context)."""

    def __init__(self, ns, p: Mapping[str, Any]) -> None:
        self.ns = ns
        self.p = p
        n = p["n_calls"]
        self.routers = ns.NodeContainer()
        self.routers.Create(2)
        hosts = n if p["topology"] == "homogeneous" else 1
        self.senders = ns.NodeContainer()
        self.senders.Create(hosts)
        self.receivers = ns.NodeContainer()
        self.receivers.Create(hosts)
        self.cross = ns.NodeContainer()
        if p["cross_traffic"] != "none":
            self.cross.Create(2)
        everything = ns.NodeContainer()
        for c in (self.routers, self.senders, self.receivers, self.cross):
            everything.Add(c)
        ns.InternetStackHelper().Install(everything)
        if p["protocol"] == "sctp":
            ns.SctpStackHelper().Install(everything)

        self._address = ns.Ipv4AddressHelper()
        self._address.SetBase(ns.Ipv4Address("10.0.0.0"), ns.Ipv4Mask("255.255.255.252"))
        self._devices = []
        r1, r2 = self.routers.Get(0), self.routers.Get(1)
        self.bottleneck = self._link(r1, r2, p["bottleneck_rate_mbps"], p["bottleneck_delay_ms"])
        delays = access_delays_ms(p)
        self.sender_address = []
        self.receiver_address = []
        self.receiver_links = []  # the router-side device toward each receiver host
        for h in range(hosts):
            delay = delays[h]
            up = self._link(self.senders.Get(h), r1, p["access_rate_mbps"], delay)
            down = self._link(r2, self.receivers.Get(h), p["access_rate_mbps"], delay)
            self.sender_address.append(up[1].GetAddress(0))
            self.receiver_address.append(down[1].GetAddress(1))
            self.receiver_links.append(down[0].Get(0))
        if p["cross_traffic"] != "none":
            self.cross_source = self._link(self.cross.Get(0), r1, p["access_rate_mbps"], 1.0)
            self.cross_sink = self._link(r2, self.cross.Get(1), p["access_rate_mbps"], 1.0)
        if p["loss_rate"] > 0:
            for index in (0, 1):  # both directions of the shared link
                model = ns.CreateObject[ns.RateErrorModel]()
                model.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
                model.SetAttribute("ErrorRate", ns.DoubleValue(p["loss_rate"]))
                self.bottleneck[0].Get(index).SetAttribute(
                    "ReceiveErrorModel", ns.PointerValue(model)
                )
        ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    def _link(self, a, b, rate_mbps: float, delay_ms: float):
        ns = self.ns
        p2p = ns.PointToPointHelper()
        p2p.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(int(rate_mbps * 1e6))))
        p2p.SetDeviceAttribute("Mtu", ns.UintegerValue(self.p["mtu_bytes"]))
        p2p.SetChannelAttribute("Delay", ns.TimeValue(ns.MicroSeconds(round(delay_ms * 1000))))
        p2p.SetQueue(
            "ns3::DropTailQueue<Packet>",
            "MaxSize",
            ns.QueueSizeValue(ns.QueueSize(f"{self.p['queue_packets']}p")),
        )
        devices = p2p.Install(a, b)
        interfaces = self._address.Assign(devices)
        self._address.NewNetwork()
        # The NS-2 set-up has only the link's DropTail queue.
        remove_queue_discipline(ns, devices)
        self._devices.append(devices)
        return devices, interfaces

    def packets_delivered_to_receivers(self) -> int:
        """IP packets sent down the receivers' access links (all transports, all calls)."""
        total = 0
        for device in self.receiver_links:
            queue = self.ns.DynamicCast[self.ns.PointToPointNetDevice](device).GetQueue()
            total += int(queue.GetTotalReceivedPackets()) - int(queue.GetTotalDroppedPackets())
        return total


def _configure_transport(ns, p: Mapping[str, Any]) -> None:
    if p["protocol"] == "tcp":
        segment = p["mtu_bytes"] - IPV4_HEADER_BYTES - TCP_HEADER_BYTES
        # Tahoe's loss recovery is part of Tahoe: after a fast retransmit it slow-starts
        # from one segment (NS-2's Agent/TCP); every other variant keeps ns-3's recovery.
        recovery = "TcpTahoeRecovery" if p["tcp_variant"] == "TcpTahoe" else "TcpClassicRecovery"
        # No options, so that a full segment is exactly an MTU-sized IP packet.
        defaults = TcpDefaults(
            socket_type=f"ns3::{p['tcp_variant']}",
            recovery=f"ns3::{recovery}",
            segment_size=segment,
            timestamps=False,
        )
        if p["stack_preset"] == "ns2":
            # NS-2's window (here the sender's MaxWindowSize, also the initial ssthresh),
            # initial window, minimum RTO and clock, an ACK per segment (Agent/TCPSink), no
            # SACK. This study keeps ns-3's initial RTO (1 s), connection retries, receive
            # buffer and window scaling. (Agent/TCP has no limited transmit either, but
            # ns-3.44 aborts on an assertion, CA_DISORDER in tcp-socket-base.cc, with both
            # SACK and limited transmit off: we keep the latter.)
            ns2 = ns2_tcp_defaults(segment)
            defaults = replace(
                defaults,
                max_window=ns2.receive_buffer,
                initial_ssthresh=ns2.initial_ssthresh,
                initial_cwnd=ns2.initial_cwnd,
                min_rto_ns=ns2.min_rto_ns,
                clock_granularity_ns=ns2.clock_granularity_ns,
                delack_count=ns2.delack_count,
                sack=ns2.sack,
            )
        set_tcp_defaults(ns, defaults)
    elif p["protocol"] == "sctp":
        sctp = "ns3::SctpSocket::"
        if p["stack_preset"] == "ns2":
            ns.SctpStackHelper.SetNs2Defaults("2.35")
        # NS-2's preset has a 1500-byte MTU and 1452-byte chunks; the seed's packets are at
        # most 576 bytes: the path MTU is the link's, DATA chunks as large as it allows.
        ns.Config.SetDefault(sctp + "Mtu", ns.UintegerValue(0))
        ns.Config.SetDefault(sctp + "MaxSegment", ns.UintegerValue(0))
        streams = p["n_calls"] if p["connection"] == "shared" else 1
        ns.Config.SetDefault(sctp + "OutboundStreams", ns.UintegerValue(streams))
        ns.Config.SetDefault(sctp + "MaxInboundStreams", ns.UintegerValue(max(streams, 10)))
        ns.Config.SetDefault(sctp + "Unordered", ns.BooleanValue(p["sctp_delivery"] == "unordered"))


def _install_calls(ns, net: _Network, p: Mapping[str, Any], recorder, stop: float) -> None:
    """The voice gateways: VoiceTrunkSource(s) at the senders, a VoiceTrunkSink per receiver.

    ``per_call``: one source (and socket) per call; ``shared``: one source carrying every
    call on one socket. Calls start at uniform random offsets within CALL_START_SPREAD_S
    after CALL_START_S (plus connection set-up), and each sends for ``duration``.
    """
    payload = voice_payload_bytes(p)
    factory = ns.TypeId.LookupByName(SOCKET_FACTORIES[p["protocol"]])
    talk = voice.talk_pattern(p["voice_activity"], p["talkspurt_mean_s"], p["silence_mean_s"])
    for host in range(net.receivers.GetN()):
        voice.install_sink(
            ns, net.receivers.Get(host), factory, VOICE_PORT, payload, recorder, stop
        )
    groups = (
        [(0, p["n_calls"])]
        if p["connection"] == "shared"
        else [(c, 1) for c in range(p["n_calls"])]
    )
    for first, calls in groups:
        host = first if p["topology"] == "homogeneous" else 0
        remote = ns.InetSocketAddress(net.receiver_address[host], VOICE_PORT).ConvertTo()
        voice.install_source(
            ns,
            net.senders.Get(host),
            remote,
            factory,
            calls=calls,
            first_call=first,
            payload=payload,
            frame_ms=p["frame_ms"],
            start_s=CALL_START_S,
            start_spread_s=CALL_START_SPREAD_S,
            call_duration_s=p["duration"],
            stop_s=stop,
            talk=talk,
            recorder=recorder,
            sctp_stream_per_call=p["connection"] == "shared",
            sctp_unordered=p["sctp_delivery"] == "unordered",
            sctp_lifetime_s=p["sctp_pr_lifetime_ms"] / 1000.0,
        )


def _install_cross_traffic(ns, net: _Network, p: Mapping[str, Any], stop: float) -> None:
    if p["cross_traffic"] == "none":
        return
    sink_address = net.cross_sink[1].GetAddress(1)
    if p["cross_traffic"] == "udp_onoff":
        factory = "ns3::UdpSocketFactory"
    else:
        factory = "ns3::TcpSocketFactory"
    sink = ns.PacketSinkHelper(
        factory, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), CROSS_PORT).ConvertTo()
    ).Install(net.cross.Get(1))
    sink.Start(ns.Seconds(0.0))
    remote = ns.InetSocketAddress(sink_address, CROSS_PORT).ConvertTo()
    if p["cross_traffic"] == "udp_onoff":
        # Exponential on/off bursts (mean 0.5 s each) at twice the mean rate.
        helper = ns.OnOffHelper(factory, remote)
        helper.SetAttribute("PacketSize", ns.UintegerValue(p["mtu_bytes"] - 28))
        helper.SetAttribute(
            "DataRate", ns.DataRateValue(ns.DataRate(int(2e6 * p["cross_rate_mbps"])))
        )
        helper.SetAttribute("OnTime", ns.StringValue("ns3::ExponentialRandomVariable[Mean=0.5]"))
        helper.SetAttribute("OffTime", ns.StringValue("ns3::ExponentialRandomVariable[Mean=0.5]"))
        apps = helper.Install(net.cross.Get(0))
    else:
        helper = ns.BulkSendHelper(factory, remote)
        apps = ns.ApplicationContainer()
        for _ in range(p["cross_flows"]):
            apps.Add(helper.Install(net.cross.Get(0)))
    apps.Start(ns.Seconds(0.5))
    apps.Stop(ns.Seconds(stop))


def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication. Raw tables: ``packets`` (every voice frame sent and delivered,
    :class:`~transportlab.ns3.recording.PacketRecorder`: ``flow`` = call, ``seq`` = frame) and
    ``counters`` (one row: ``ip_packets_to_receivers``, the IP packets sent down the
    receivers' access links; ``events``, the simulator events executed).
    """
    if params["protocol"] == "sctp" and not sctp_available():
        raise RuntimeError(
            "protocol 'sctp' needs the SCTP model (ns3::SctpSocketFactory), which this "
            "build does not have"
        )
    if params["sctp_pr_lifetime_ms"] > 0 and not pr_sctp_available():
        raise RuntimeError(
            "sctp_pr_lifetime_ms > 0 needs PR-SCTP (RFC 3758) in the SCTP model, which this "
            "build does not have"
        )
    end = end_time(params)
    with simulation(seed=seed, run=run) as ns:
        _configure_transport(ns, params)
        net = _Network(ns, params)
        recorder = PacketRecorder()
        _install_calls(ns, net, params, recorder, end)
        _install_cross_traffic(ns, net, params, end)
        run_until(end)
        counters = pd.DataFrame(
            {
                "ip_packets_to_receivers": [net.packets_delivered_to_receivers()],
                "events": [event_count()],
            }
        )
        return {"packets": recorder.to_frame(), "counters": counters}
