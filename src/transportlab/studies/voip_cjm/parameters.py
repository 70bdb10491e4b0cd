"""Parameters and constants of the voip_cjm study (see the package docstring).

Imported by the cached run step (``scenario.py``): nothing here may import the
analysis (playout, E-model, metrics), or a change there would re-run simulations.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from transportlab.engine.params import Param, ParameterSpace

SEED_FILE = "001_8dea97bcf2df26a4.txt"

#: Bytes added to the speech frame: an RTP header's worth.
RTP_HEADER_BYTES = 12
#: ns3::VoiceFrameHeader (call id, sequence number, send time) at the start of each message.
VOICE_HEADER_BYTES = 14
IPV4_HEADER_BYTES = 20
UDP_HEADER_BYTES = 8
TCP_HEADER_BYTES = 20
#: SCTP common header (12) + DATA chunk header (16).
SCTP_HEADER_BYTES = 12 + 16
PPP_HEADER_BYTES = 2
#: Calls start at random times within this window after CALL_START_S.
CALL_START_S = 1.0
CALL_START_SPREAD_S = 1.0
VOICE_PORT = 9000
CROSS_PORT = 7000

PROTOCOLS = ("udp", "tcp", "sctp")
TCP_VARIANTS = (
    "TcpTahoe", "TcpNewReno", "TcpLinuxReno", "TcpCubic", "TcpBic", "TcpVegas", "TcpWestwoodPlus",
)  # fmt: skip
#: The codecs of transportlab.models.emodel.CODECS (a test keeps the two equal): importing the
#: E-model here would put it into the run step's cache key.
CODECS = ("G.711",)
#: Which playout models the analysis runs on every call (analysis.playout_policies).
PLAYOUT_SETS = ("standard", "variants")


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
    largest = payload + UDP_HEADER_BYTES + IPV4_HEADER_BYTES  # as a UDP datagram
    if largest > p["mtu_bytes"]:
        return (
            f"a {p['frame_ms']} ms {p['codec']} frame is a {largest}-byte IP packet, "
            f"larger than mtu_bytes = {p['mtu_bytes']}"
        )
    return None


def _sctp_only(p: Mapping[str, Any]) -> str | None:
    if p["protocol"] != "sctp" and (p["sctp_delivery"] != "ordered" or p["sctp_pr_lifetime_ms"]):
        return "sctp_delivery and sctp_pr_lifetime_ms apply to protocol = 'sctp' only"
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


#: Values of ``stack_preset``: the defaults the TCP and SCTP stacks start from.
STACK_PRESETS = ("ns2", "modern")

PARAMETERS = ParameterSpace(
    # transport
    Param("protocol", "udp", str, "transport protocol of the voice calls", choices=PROTOCOLS),
    Param(
        "stack_preset",
        "ns2",
        str,
        "defaults of the TCP and SCTP stacks: ns2, those the seed ran with (TCP window 20 "
        "segments, initial window 2, min RTO 200 ms, 10 ms clock, an ACK per segment, no "
        "SACK; SCTP's NS-2.35 preset); modern: ns-3's TCP defaults and the SCTP model's "
        "(RFC 9260)",
        choices=STACK_PRESETS,
    ),
    Param(
        "tcp_variant",
        "TcpTahoe",
        str,
        "TCP congestion control (ns-3 TypeId name); TcpTahoe = NS-2's default Agent/TCP "
        "(src/tcp-tahoe, with its go-back-N loss recovery TcpTahoeRecovery), the others "
        "recover with ns-3's classic fast recovery",
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
    Param(
        "codec",
        "G.711",
        str,
        "speech codec",
        choices=CODECS,
        analysis_only=True,
    ),
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
        "duration",
        900.0,
        float,
        "voice sent per call (seed: 15 minutes)",
        minimum=1.0,
        maximum=7200.0,
        quick=10.0,
        unit="s",
    ),
    Param(
        "drain",
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
        "loss_rate",
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
    # playout (analysis only: the run step does not read them)
    Param(
        "playout_set",
        "standard",
        str,
        "playout models run on every call: 'standard' (arrival, fixed, adaptive and CJM "
        "as set below) or 'variants' (fixed 80 ms and the fixed point below, adaptive with "
        "and without a 5 ms margin, CJM with 1, 5, 10, 25 and 50-frame chunks)",
        choices=PLAYOUT_SETS,
        analysis_only=True,
    ),
    Param(
        "fixed_playout_ms",
        130.0,
        float,
        "fixed playout point after sending (130 ms + a 20 ms frame = the 150 ms G.114 budget)",
        minimum=0.0,
        unit="ms",
        analysis_only=True,
    ),
    Param(
        "adaptive_resync_s",
        1.0,
        float,
        "adaptive playout: re-set the playout delay this often inside talkspurts "
        "(0 = at talkspurt starts only)",
        minimum=0.0,
        unit="s",
        analysis_only=True,
    ),
    Param(
        "adaptive_margin_ms",
        0.0,
        float,
        "adaptive playout: constant added to d + 4v (0 = Ramjee et al. as published)",
        minimum=0.0,
        unit="ms",
        analysis_only=True,
    ),
    Param(
        "cjm_chunk_packets",
        50,
        int,
        "CJM: packets per chunk (seed: 50)",
        minimum=1,
        maximum=100000,
        analysis_only=True,
    ),
    Param(
        "cjm_buffer_chunks",
        100,
        int,
        "CJM: chunks the buffer holds (seed: 100)",
        minimum=1,
        maximum=100000,
        analysis_only=True,
    ),
    Param(
        "cjm_start_chunks",
        1,
        int,
        "CJM: complete chunks before playout starts",
        minimum=1,
        analysis_only=True,
    ),
    Param(
        "plc",
        True,
        bool,
        "the receiver conceals lost frames (G.711 Appendix I) - E-model Bpl",
        analysis_only=True,
    ),
    consistency=(_delay_range, _frame_fits, _sctp_only, _connection, _cross, _cjm),
)


def voice_payload_bytes(p: Mapping[str, Any]) -> int:
    """Application bytes per voice message: the coded frame plus an RTP header's worth.

    The frame is sized at G.711's 64 kb/s (the only codec declared).
    """
    return int(round(64_000 / 8 * p["frame_ms"] / 1000)) + RTP_HEADER_BYTES


def ip_packet_bytes(p: Mapping[str, Any], protocol: str | None = None) -> int:
    """IP packet carrying one voice message alone (TCP without options)."""
    headers = {"udp": UDP_HEADER_BYTES, "tcp": TCP_HEADER_BYTES, "sctp": SCTP_HEADER_BYTES}
    return voice_payload_bytes(p) + headers[protocol or p["protocol"]] + IPV4_HEADER_BYTES


def access_delays_ms(p: Mapping[str, Any]) -> list[float]:
    """Propagation delay of the access links of each call (sender side = receiver side)."""
    n = p["n_calls"]
    low, high = p["access_delay_min_ms"], p["access_delay_max_ms"]
    if p["topology"] == "trunk" or n == 1:
        return [low] * n
    return [low + (high - low) * i / (n - 1) for i in range(n)]


def end_time(p: Mapping[str, Any]) -> float:
    """Simulated time at which the run stops: the last call start, its voice, the drain."""
    return CALL_START_S + CALL_START_SPREAD_S + p["duration"] + p["drain"]
