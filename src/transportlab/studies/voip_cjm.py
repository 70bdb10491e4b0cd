"""Voice over SCTP, TCP and UDP with a chunk-based jitter-management playout buffer (seed 001).

Seed ``001_8dea97bcf2df26a4.txt`` sends voice for 15 minutes over SCTP and TCP
in NS-2, across "two topologies" shown only as figures, stores the packets in a
receive buffer of 100 chunks x 50 packets x 576 bytes and plays them out with
its Chunk-based Jitter Management (CJM) algorithm. It reports packets received
per second (SCTP 2400, TCP 2200), maximum voice delay (SCTP 150 ms, TCP 180 ms)
and jitter (SCTP 30 ms, TCP almost 35 ms).

Our reading of each gap (every alternative is a parameter):

* Codec and packetisation: G.711 (64 kb/s), one 20 ms frame per packet:
  160 bytes of speech + 12 bytes (the size of an RTP header; our 20-byte
  sequence/timestamp header lives inside those 172 bytes) per message.
* "Packets received per second" as load: 2400 packets/s = 48 calls x 50
  frames/s, so 48 simultaneous one-way calls (continuous speech, no silence
  suppression; talkspurts are an option).
* "At most 576 bytes per packet": every link has an MTU of 576 bytes, so TCP
  segments (MSS 536, no options) and SCTP packets are never larger.
* Topology 1 ("homogeneous network ... where all available associations may
  experience different propagation delays", Fig. 1): a dumbbell, one sender
  and one receiver host per call, identical links, the access links of call i
  with a propagation delay spread evenly between a minimum and a maximum, so
  every association sees a different round-trip time; one shared bottleneck.
* Topology 2 (Fig. 2, "architecture of the proposed system": sender, network,
  receiver buffer, CJM, playout): a trunk, all calls between one sender host
  and one receiver host (two VoIP gateways) across the same bottleneck; the
  set-up in which calls can share one SCTP association, one stream per call.
* No cross traffic and no random loss by default (the seed mentions none);
  both are parameters.
* The playout buffer runs at the receiver on the recorded arrival times:
  CJM, a fixed playout delay and Ramjee et al.'s adaptive algorithm 1 on the
  very same packets (:mod:`transportlab.playout`).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from transportlab import emodel, metrics, playout, voice
from transportlab.emodel import CODECS
from transportlab.params import Param, ParameterSpace
from transportlab.playout import (
    AdaptivePlayout,
    ChunkPlayout,
    FixedPlayout,
    PlayOnArrival,
    PlayoutPolicy,
)
from transportlab.studies import Study
from transportlab.voice import VoiceQualitySettings, assess_calls, call_traces, per_second, pool

SEED_FILE = "001_8dea97bcf2df26a4.txt"

#: Bytes added to the speech frame: an RTP header's worth.
RTP_HEADER_BYTES = 12
#: ns3::VoiceFrameHeader (call id, sequence number, send time) at the start of each message.
VOICE_HEADER_BYTES = 14
IPV4_HEADER_BYTES = 20
TCP_HEADER_BYTES = 20
#: Calls start at random times within this window after CALL_START_S.
CALL_START_S = 1.0
CALL_START_SPREAD_S = 1.0
VOICE_PORT = 9000
CROSS_PORT = 7000

TRANSPORTS = ("udp", "tcp", "sctp")
TCP_VARIANTS = ("TcpNewReno", "TcpLinuxReno", "TcpCubic", "TcpBic", "TcpVegas", "TcpWestwoodPlus")
PLAYOUT_POLICIES = ("arrival", "fixed", "adaptive", "cjm")


def _delay_range(p: Mapping[str, Any]) -> str | None:
    if p["access_delay_max_ms"] < p["access_delay_min_ms"]:
        return "access_delay_max_ms must be >= access_delay_min_ms"
    return None


def _frame_fits(p: Mapping[str, Any]) -> str | None:
    payload = voice_payload_bytes(p)
    if payload < VOICE_HEADER_BYTES:
        return (
            f"a {p['frame_ms']} ms frame gives {payload} bytes, less than the "
            f"{VOICE_HEADER_BYTES}-byte call/sequence/timestamp header"
        )
    largest = payload + 8 + IPV4_HEADER_BYTES  # as a UDP datagram
    if largest > p["mtu_bytes"]:
        return (
            f"a {p['frame_ms']} ms {p['codec']} frame is a {largest}-byte IP packet, "
            f"larger than mtu_bytes = {p['mtu_bytes']}"
        )
    return None


def _sctp_only(p: Mapping[str, Any]) -> str | None:
    if p["transport"] != "sctp" and (p["sctp_delivery"] != "ordered" or p["sctp_pr_lifetime_ms"]):
        return "sctp_delivery and sctp_pr_lifetime_ms apply to transport = 'sctp' only"
    return None


def _connection(p: Mapping[str, Any]) -> str | None:
    if p["connection"] == "shared" and p["topology"] != "trunk":
        return (
            "connection = 'shared' needs topology = 'trunk' (in the homogeneous "
            "topology every call has its own pair of hosts)"
        )
    return None


def _cross(p: Mapping[str, Any]) -> str | None:
    if p["cross_traffic"] == "udp_onoff" and not p["cross_rate_mbps"] > 0:
        return "cross_traffic = 'udp_onoff' needs cross_rate_mbps > 0"
    if p["cross_traffic"] == "udp_onoff" and p["cross_rate_mbps"] >= p["bottleneck_rate_mbps"]:
        return "cross_rate_mbps must be below bottleneck_rate_mbps (its mean rate)"
    return None


def _cjm(p: Mapping[str, Any]) -> str | None:
    if p["cjm_start_chunks"] > p["cjm_buffer_chunks"]:
        return "cjm_start_chunks cannot exceed cjm_buffer_chunks"
    return None


PARAMETERS = ParameterSpace(
    # transport
    Param("transport", "udp", str, "transport protocol of the voice calls", choices=TRANSPORTS),
    Param(
        "ns2_defaults",
        True,
        bool,
        "TCP (and SCTP) with the NS-2 defaults the seed ran with: TCP window 20 segments, "
        "initial window 2, min RTO 200 ms, 10 ms clock, an ACK per segment, no SACK; "
        "False: ns-3's defaults",
    ),
    Param(
        "tcp_variant",
        "TcpNewReno",
        str,
        "TCP congestion control (ns-3 TypeId name)",
        choices=TCP_VARIANTS,
    ),
    Param(
        "sctp_delivery",
        "ordered",
        str,
        "SCTP delivery of voice messages",
        choices=("ordered", "unordered"),
    ),
    Param(
        "sctp_pr_lifetime_ms",
        0.0,
        float,
        "PR-SCTP timed reliability: abandon a message this long after it was sent "
        "(0 = fully reliable)",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "connection",
        "per_call",
        str,
        "a socket (UDP socket, TCP connection, SCTP association) per call, or all calls "
        "on one (SCTP: one stream per call); 'shared' needs the trunk topology",
        choices=("per_call", "shared"),
    ),
    # voice
    Param(
        "n_calls",
        48,
        int,
        "simultaneous one-way voice calls (48 x 50 frames/s = 2400/s)",
        minimum=1,
        maximum=400,
        quick=48,
    ),
    Param("codec", "G.711", str, "speech codec", choices=tuple(CODECS)),
    Param("frame_ms", 20.0, float, "speech per packet", minimum=5.0, maximum=60.0, unit="ms"),
    Param(
        "voice_activity",
        "continuous",
        str,
        "continuous speech, or talkspurts and silences (exponential on/off)",
        choices=("continuous", "talkspurts"),
    ),
    Param(
        "talkspurt_mean_s",
        1.0,
        float,
        "mean talkspurt length (talkspurts only)",
        minimum=0.0,
        exclusive_minimum=True,
        unit="s",
    ),
    Param(
        "silence_mean_s",
        1.35,
        float,
        "mean silence length (talkspurts only)",
        minimum=0.0,
        exclusive_minimum=True,
        unit="s",
    ),
    Param(
        "duration_s",
        900.0,
        float,
        "voice sent per call (seed: 15 minutes)",
        minimum=1.0,
        maximum=7200.0,
        quick=10.0,
        unit="s",
    ),
    Param(
        "drain_s",
        5.0,
        float,
        "time after the last frame is sent for it to arrive",
        minimum=0.0,
        unit="s",
    ),
    # network
    Param(
        "topology",
        "homogeneous",
        str,
        "homogeneous dumbbell (one host pair per call, per-call delays) or trunk "
        "(all calls between two gateways)",
        choices=("homogeneous", "trunk"),
    ),
    Param(
        "bottleneck_rate_mbps",
        5.0,
        float,
        "shared link rate",
        minimum=0.0,
        exclusive_minimum=True,
        unit="Mb/s",
    ),
    Param(
        "bottleneck_delay_ms", 20.0, float, "shared link propagation delay", minimum=0.0, unit="ms"
    ),
    Param(
        "access_rate_mbps",
        100.0,
        float,
        "access link rate",
        minimum=0.0,
        exclusive_minimum=True,
        unit="Mb/s",
    ),
    Param(
        "access_delay_min_ms",
        2.0,
        float,
        "shortest access link delay (trunk: every access link)",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "access_delay_max_ms",
        20.0,
        float,
        "longest access link delay (homogeneous)",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "queue_packets",
        50,
        int,
        "DropTail queue of every link (NS-2 default 50)",
        minimum=1,
        maximum=100000,
        unit="packets",
    ),
    Param(
        "mtu_bytes",
        576,
        int,
        "MTU of every link: the seed's largest packet",
        minimum=128,
        maximum=9000,
        unit="bytes",
    ),
    Param(
        "link_loss_rate",
        0.0,
        float,
        "random packet loss on the shared link (each direction)",
        minimum=0.0,
        maximum=0.5,
    ),
    Param(
        "cross_traffic",
        "none",
        str,
        "competing traffic on the shared link",
        choices=("none", "udp_onoff", "tcp_bulk"),
    ),
    Param(
        "cross_rate_mbps",
        1.0,
        float,
        "mean rate of the UDP on/off cross traffic",
        minimum=0.0,
        unit="Mb/s",
    ),
    Param("cross_flows", 1, int, "number of bulk TCP cross flows", minimum=1, maximum=100),
    # playout
    Param(
        "fixed_playout_ms",
        130.0,
        float,
        "fixed playout point after sending (130 ms + a 20 ms frame = the 150 ms G.114 budget)",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "adaptive_resync_s",
        1.0,
        float,
        "adaptive playout: re-set the playout delay this often inside talkspurts "
        "(0 = at talkspurt starts only)",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "adaptive_margin_ms",
        0.0,
        float,
        "adaptive playout: constant added to d + 4v (0 = Ramjee et al. as published)",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "cjm_chunk_packets", 50, int, "CJM: packets per chunk (seed: 50)", minimum=1, maximum=100000
    ),
    Param(
        "cjm_buffer_chunks",
        100,
        int,
        "CJM: chunks the buffer holds (seed: 100)",
        minimum=1,
        maximum=100000,
    ),
    Param("cjm_start_chunks", 1, int, "CJM: complete chunks before playout starts", minimum=1),
    Param("plc", True, bool, "the receiver conceals lost frames (G.711 Appendix I) - E-model Bpl"),
    consistency=(_delay_range, _frame_fits, _sctp_only, _connection, _cross, _cjm),
)


def voice_payload_bytes(p: Mapping[str, Any]) -> int:
    """Application bytes per voice message: the coded frame plus an RTP header's worth."""
    return int(round(64_000 / 8 * p["frame_ms"] / 1000)) + RTP_HEADER_BYTES


def access_delays_ms(p: Mapping[str, Any]) -> list[float]:
    """Propagation delay of the access links of each call (sender side = receiver side)."""
    n = p["n_calls"]
    low, high = p["access_delay_min_ms"], p["access_delay_max_ms"]
    if p["topology"] == "trunk" or n == 1:
        return [low] * n
    return [low + (high - low) * i / (n - 1) for i in range(n)]


def playout_policies(p: Mapping[str, Any]) -> list[PlayoutPolicy]:
    """The receiver playout models compared on every call."""
    return [
        PlayOnArrival(),
        FixedPlayout(p["fixed_playout_ms"] / 1000.0, anchor="send", name="fixed"),
        AdaptivePlayout(
            resync_interval=p["adaptive_resync_s"] or None,
            margin=p["adaptive_margin_ms"] / 1000.0,
            name="adaptive",
        ),
        ChunkPlayout(
            chunk_packets=p["cjm_chunk_packets"],
            buffer_chunks=p["cjm_buffer_chunks"],
            max_packet_bytes=p["mtu_bytes"],
            start_chunks=p["cjm_start_chunks"],
            name="cjm",
        ),
    ]


def sctp_available() -> bool:
    """Whether this build has the SCTP model (``ns3::SctpSocketFactory``)."""
    from transportlab import ns  # noqa: PLC0415

    ok, _ = ns.LookupByNameFailSafe("ns3::SctpSocketFactory")
    return bool(ok)


def pr_sctp_available() -> bool:
    """Whether the SCTP model implements PR-SCTP (it reports abandoned messages)."""
    from transportlab import ns  # noqa: PLC0415

    if not sctp_available():
        return False
    tid = ns.TypeId.LookupByName("ns3::SctpSocket")
    names = [tid.GetTraceSource(i).name for i in range(tid.GetTraceSourceN())]
    names += [tid.GetAttribute(i).name for i in range(tid.GetAttributeN())]
    return any("bandon" in str(name) for name in names)


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
        if p["transport"] == "sctp":
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
        if p["link_loss_rate"] > 0:
            for index in (0, 1):  # both directions of the shared link
                model = ns.CreateObject[ns.RateErrorModel]()
                model.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
                model.SetAttribute("ErrorRate", ns.DoubleValue(p["link_loss_rate"]))
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
        # Ipv4AddressHelper installs a pfifo_fast queue disc; the NS-2 set-up has only the
        # link's DropTail queue.
        ns.TrafficControlHelper().Uninstall(devices)
        self._devices.append(devices)
        return devices, interfaces

    def packets_delivered_to_receivers(self) -> int:
        """IP packets sent down the receivers' access links (all transports, all calls)."""
        total = 0
        for device in self.receiver_links:
            queue = self.ns.DynamicCast[self.ns.PointToPointNetDevice](device).GetQueue()
            total += int(queue.GetTotalReceivedPackets()) - int(queue.GetTotalDroppedPackets())
        return total


def _socket_factory(p: Mapping[str, Any]) -> str:
    return {
        "udp": "ns3::UdpSocketFactory",
        "tcp": "ns3::TcpSocketFactory",
        "sctp": "ns3::SctpSocketFactory",
    }[p["transport"]]


#: NS-2 (ns-default.tcl) values of the TCP agent and sink the seed's NS-2 would have used,
#: as ns-3 attributes (shared/reference/ns2-defaults.md, section 2.2).
NS2_TCP_WINDOW_PACKETS = 20  # Agent/TCP window_ (also the initial ssthresh)
NS2_TCP_WINDOW_INIT = 2  # windowInit_
NS2_TCP_MIN_RTO_S = 0.2  # minrto_
NS2_TCP_TICK_S = 0.01  # tcpTick_


def _configure_transport(ns, p: Mapping[str, Any]) -> None:
    if p["transport"] == "tcp":
        segment = p["mtu_bytes"] - IPV4_HEADER_BYTES - TCP_HEADER_BYTES
        ns.Config.SetDefault(
            "ns3::TcpL4Protocol::SocketType",
            ns.TypeIdValue(ns.TypeId.LookupByName(f"ns3::{p['tcp_variant']}")),
        )
        # No options, so that a full segment is exactly an MTU-sized IP packet.
        ns.Config.SetDefault("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(False))
        ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(segment))
        if p["ns2_defaults"]:
            window = NS2_TCP_WINDOW_PACKETS * segment
            ns.Config.SetDefault("ns3::TcpSocketBase::MaxWindowSize", ns.UintegerValue(window))
            ns.Config.SetDefault(
                "ns3::TcpSocket::InitialSlowStartThreshold", ns.UintegerValue(window)
            )
            ns.Config.SetDefault(
                "ns3::TcpSocket::InitialCwnd", ns.UintegerValue(NS2_TCP_WINDOW_INIT)
            )
            ns.Config.SetDefault(
                "ns3::TcpSocketBase::MinRto", ns.TimeValue(ns.Seconds(NS2_TCP_MIN_RTO_S))
            )
            ns.Config.SetDefault(
                "ns3::TcpSocketBase::ClockGranularity", ns.TimeValue(ns.Seconds(NS2_TCP_TICK_S))
            )
            # Agent/TCPSink acknowledges every segment; Agent/TCP has no SACK. (It has no
            # limited transmit either, but ns-3.44 aborts on an assertion, CA_DISORDER in
            # tcp-socket-base.cc, with both SACK and limited transmit off: we keep the latter.)
            ns.Config.SetDefault("ns3::TcpSocket::DelAckCount", ns.UintegerValue(1))
            ns.Config.SetDefault("ns3::TcpSocketBase::Sack", ns.BooleanValue(False))
    elif p["transport"] == "sctp":
        sctp = "ns3::SctpSocket::"
        if p["ns2_defaults"]:
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
    after CALL_START_S (plus connection set-up), and each sends for ``duration_s``.
    """
    payload = voice_payload_bytes(p)
    factory = ns.TypeId.LookupByName(_socket_factory(p))
    if p["voice_activity"] == "continuous":
        on, off = (
            "ns3::ConstantRandomVariable[Constant=1e9]",
            "ns3::ConstantRandomVariable[Constant=0]",
        )
    else:
        on = f"ns3::ExponentialRandomVariable[Mean={p['talkspurt_mean_s']}]"
        off = f"ns3::ExponentialRandomVariable[Mean={p['silence_mean_s']}]"
    for host in range(net.receivers.GetN()):
        sink = ns.CreateObject[ns.VoiceTrunkSink]()
        local = ns.InetSocketAddress(ns.Ipv4Address.GetAny(), VOICE_PORT).ConvertTo()
        sink.SetAttribute("Local", ns.AddressValue(local))
        sink.SetAttribute("Protocol", ns.TypeIdValue(factory))
        sink.SetAttribute("FrameSize", ns.UintegerValue(payload))
        sink.SetAttribute("Recorder", ns.PointerValue(recorder.native))
        net.receivers.Get(host).AddApplication(sink)
        sink.SetStartTime(ns.Seconds(0.0))
        sink.SetStopTime(ns.Seconds(stop))
    groups = (
        [(0, p["n_calls"])]
        if p["connection"] == "shared"
        else [(c, 1) for c in range(p["n_calls"])]
    )
    for first, calls in groups:
        host = first if p["topology"] == "homogeneous" else 0
        remote = ns.InetSocketAddress(net.receiver_address[host], VOICE_PORT).ConvertTo()
        source = ns.CreateObject[ns.VoiceTrunkSource]()
        for name, value in (
            ("Remote", ns.AddressValue(remote)),
            ("Protocol", ns.TypeIdValue(factory)),
            ("Calls", ns.UintegerValue(calls)),
            ("FirstCall", ns.UintegerValue(first)),
            ("PayloadSize", ns.UintegerValue(payload)),
            ("FrameInterval", ns.TimeValue(ns.MicroSeconds(round(p["frame_ms"] * 1000)))),
            ("StartSpread", ns.TimeValue(ns.Seconds(CALL_START_SPREAD_S))),
            ("CallDuration", ns.TimeValue(ns.Seconds(p["duration_s"]))),
            ("OnTime", ns.StringValue(on)),
            ("OffTime", ns.StringValue(off)),
            ("Recorder", ns.PointerValue(recorder.native)),
            ("SctpStreamPerCall", ns.BooleanValue(p["connection"] == "shared")),
            ("SctpUnordered", ns.BooleanValue(p["sctp_delivery"] == "unordered")),
            ("SctpLifetime", ns.TimeValue(ns.Seconds(p["sctp_pr_lifetime_ms"] / 1000.0))),
        ):
            source.SetAttribute(name, value)
        net.senders.Get(host).AddApplication(source)
        source.SetStartTime(ns.Seconds(CALL_START_S))
        source.SetStopTime(ns.Seconds(stop))


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


def run_network(params: Mapping[str, Any], seed: int = 1, run: int = 1) -> dict[str, Any]:
    """Simulate the calls; the raw per-packet table and counters (no playout yet)."""
    from transportlab.recording import PacketRecorder  # noqa: PLC0415
    from transportlab.simulation import event_count, run_until, simulation  # noqa: PLC0415

    p = PARAMETERS.validate(params)
    if p["transport"] == "sctp" and not sctp_available():
        raise RuntimeError(
            "transport 'sctp' needs the SCTP model (ns3::SctpSocketFactory), which this "
            "build does not have yet"
        )
    if p["sctp_pr_lifetime_ms"] > 0 and not pr_sctp_available():
        raise RuntimeError(
            "sctp_pr_lifetime_ms > 0 needs PR-SCTP (RFC 3758) in the SCTP model, which this "
            "build does not have yet"
        )
    stop_sending = CALL_START_S + CALL_START_SPREAD_S + p["duration_s"]
    end = stop_sending + p["drain_s"]
    with simulation(seed=seed, run=run) as ns:
        _configure_transport(ns, p)
        net = _Network(ns, p)
        recorder = PacketRecorder()
        _install_calls(ns, net, p, recorder, end)
        _install_cross_traffic(ns, net, p, end)
        run_until(end)
        packets = recorder.to_frame()
        sent = packets[packets["event"] == "sent"]
        return {
            "packets": packets,
            "starts": sent.groupby("flow")["time"].min().tolist(),
            "end": end,
            "ip_packets_to_receivers": net.packets_delivered_to_receivers(),
            "events": event_count(),
        }


def analyse(raw: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """Playout, loss, delay, jitter and R/MOS from the recorded packets of :func:`run_network`."""
    p = PARAMETERS.validate(params)
    frame = p["frame_ms"] / 1000.0
    packets = raw["packets"]
    traces = call_traces(packets, frame, stop_time=raw["end"])
    quality = VoiceQualitySettings(codec=p["codec"], plc=p["plc"], frame_ms=p["frame_ms"])
    calls, schedules = assess_calls(traces, playout_policies(p), quality)
    delays = access_delays_ms(p)
    calls.insert(
        1, "propagation_ms", [2 * delays[c] + p["bottleneck_delay_ms"] for c in calls["call"]]
    )
    summary = pool(calls, traces, schedules)

    # Frames received per second: every call sends for duration_s, so the frames that
    # arrived (before the end of the run) over duration_s are the aggregate rate the calls
    # receive while they all talk. The per-second series covers the whole run.
    frames_received = int((packets["event"] == "received").sum())
    summary["frames_per_s"] = frames_received / p["duration_s"]
    rate = per_second(packets, math.floor(min(raw["starts"], default=0.0)), math.ceil(raw["end"]))
    # IP packets that carried them (TCP may put several frames in one segment).
    per_frame = raw["ip_packets_to_receivers"] / frames_received if frames_received else np.nan
    summary["ip_packets_per_frame"] = per_frame
    summary["ip_packets_per_s"] = summary["frames_per_s"] * per_frame

    # One call's packets over the first seconds, for playout diagrams.
    sample_call = min(traces)
    trace = traces[sample_call]
    keep = trace.send <= trace.send[0] + 10.0
    sample = pd.DataFrame(
        {
            "call": sample_call,
            "seq": trace.seq[keep],
            "send": trace.send[keep],
            "arrival": trace.arrival[keep],
        }
    )
    for policy in PLAYOUT_POLICIES:
        schedule = schedules[(sample_call, policy)]
        sample[f"slot_{policy}"] = schedule.slot[keep]
        sample[f"played_{policy}"] = schedule.played(trace)[keep]
    return {"summary": summary, "calls": calls, "per_second": rate, "sample": sample}


def simulate(params: Mapping[str, Any], seed: int = 1, run: int = 1) -> dict[str, pd.DataFrame]:
    """One replication: the calls over the network, then every playout policy on them."""
    raw = run_network(params, seed, run)
    tables = analyse(raw, params)
    tables["cost"] = pd.DataFrame({"events": [raw["events"]], "recorded": [len(raw["packets"])]})
    return tables


# ----------------------------------------------------------------------------- results


def configuration(point: Mapping[str, Any]) -> str:
    """A short label for the transport configuration of a point, e.g. 'SCTP unordered'."""
    transport = point["transport"]
    label = transport.upper()
    if transport == "sctp":
        label += f" {point['sctp_delivery']}"
        if point.get("sctp_pr_lifetime_ms", 0) > 0:
            label += f" PR {point['sctp_pr_lifetime_ms']:g} ms"
    if point.get("connection") == "shared":
        label += " shared"
    return label


def with_confidence(
    table: pd.DataFrame, by: list[str], columns: list[str], level: float = 0.95
) -> pd.DataFrame:
    """Mean, Student-t confidence interval and number of runs of ``columns`` per group.

    ``table`` has one row per run (and group); the result one row per group with
    ``<column>``, ``<column>_low``, ``<column>_high`` and ``runs``.
    """
    from transportlab.published import confidence_interval  # noqa: PLC0415

    rows = []
    for key, group in table.groupby(by, sort=False):
        row = dict(zip(by, key if isinstance(key, tuple) else (key,), strict=True))
        for column in columns:
            mean, low, high, n = confidence_interval(group[column], level)
            row.update({column: mean, f"{column}_low": low, f"{column}_high": high})
        row["runs"] = len(group)
        rows.append(row)
    return pd.DataFrame(rows)


#: Published metric -> (summary column, unit, policy whose numbers it is compared with).
#: Delay and jitter are those of the network, before any playout buffer: the seed's
#: 150/180 ms maxima cannot include a CJM buffer, which alone adds 50 frames (1 s).
PUBLISHED_METRICS = {
    "packets_received_per_second": ("frames_per_s", "packets/s", "arrival"),
    "delay_max": ("delay_max_ms", "ms", "arrival"),
    "jitter": ("before_jitter_ms", "ms", "arrival"),
}
PUBLISHED_ROWS = {
    "packets_received_per_second": "homogeneous topology (Fig. 1)",
    "delay_max": "15-minute voice transfer",
    "jitter": "15-minute voice transfer",
}


def reproduced_values(summary: pd.DataFrame) -> pd.DataFrame:
    """Per-run values in the shape :func:`transportlab.published.compare` takes.

    ``summary`` is the study's summary table over runs of the seed's configuration
    (one row per transport configuration, policy and run). The seed's SCTP is
    NS-2's default for legacy applications: one association per call, one
    ordered, fully reliable stream ('SCTP ordered'); UDP has no published value.
    """
    labels = {"TCP": "TCP", "SCTP ordered": "SCTP"}
    rows = []
    for metric, (column, unit, policy) in PUBLISHED_METRICS.items():
        chosen = summary[(summary["policy"] == policy) & summary["configuration"].isin(labels)]
        for _, r in chosen.iterrows():
            rows.append(
                {
                    "protocol": labels[r["configuration"]],
                    "metric": metric,
                    "row": PUBLISHED_ROWS[metric],
                    "unit": unit,
                    "value": r[column],
                }
            )
    return pd.DataFrame(rows, columns=["protocol", "metric", "row", "unit", "value"])


def _helpers_version() -> str:
    """Hash of the pure-Python helpers simulate() runs after ns-3 (playout, E-model, metrics).

    The sweep cache key covers this module and the simulation code but not these
    helpers; their hash as the study version keeps cached results honest.
    """
    digest = hashlib.sha256()
    for module in (playout, voice, emodel, metrics):
        digest.update(Path(module.__file__).read_bytes())
    return digest.hexdigest()[:16]


STUDY = Study(
    name="voip_cjm",
    title="Voice over SCTP, TCP and UDP with chunk-based jitter management (seed 001)",
    seed_files=(SEED_FILE,),
    notebook="02_voip_cjm.ipynb",
    parameters=PARAMETERS,
    simulate=simulate,
    description=(
        "48 G.711 calls (2400 frames/s) for 15 minutes over a shared 5 Mb/s link; "
        "CJM, fixed and adaptive playout on the same arrivals; G.107 R and MOS."
    ),
    tags=("voip", "playout", "sctp", "tcp", "udp"),
    version=_helpers_version(),
)
