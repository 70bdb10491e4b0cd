"""Study: SCTP vs TCP with UDP cross traffic on a wired best-effort dumbbell (seeds 000, 004).

Both seeds describe one NS-2 experiment; seed 004 (Appendix A) gives its Tcl
scripts, which we follow where the text disagrees::

    sources 2..11 --1 Mb/s, 10 ms-- router 0 ==0.5 Mb/s, 100 ms== router 1 --1 Mb/s, 30 ms-- 12..21

* Node numbers are NS-2's: routers 0 and 1, sources 2-11, sinks 12-21, pair
  ``k`` is source ``2+k`` -> sink ``12+k``. ns-3 gives the nodes the same ids.
* Pairs 2-12 ... 6-16 carry FTP (infinite backlog: BulkSend) over TCP or SCTP,
  starting at 10, 15, 15, 20, 20 s; pairs 7-17 ... 11-21 carry CBR over UDP,
  1000-byte packets at 0.01 Mb/s (one every 0.8 s), starting at 30, 35, 30,
  40, 50 s. The run ends at 1000 s.
* The bottleneck is ``0.5Mb``: 500 000 bit/s in NS-2's units (the text says
  512 kb/s; the scripts say 0.5Mb). The texts give the start times in ms and
  the packets as "1000 kB at 1000 packets per second"; the scripts' seconds and
  ``rate_ 0.01Mb`` are what ran. The SCTP script also sets ``packetSize_``,
  ``rate_`` and ``random_`` on its FTP applications, which Application/FTP
  does not bind: they have no effect (the TCP script has them commented out).
* Every link is ``DropTail`` with NS-2's default ``limit_`` of 50 packets:
  49 waiting plus the one being transmitted (see :func:`queue_layout`).

ns-3 has no TCP Tahoe (NS-2's default ``Agent/TCP``; ``src/tcp-tahoe`` adds
it as ``TcpTahoe`` + ``TcpTahoeRecovery``) and no link-less packets;
:data:`TCP_DIFFERENCES` and :func:`packet_sizes` state every difference of
the configuration, :data:`PRESETS` holds the modern alternatives. SCTP comes
from ``src/sctp`` (``ns3::SctpSocketFactory``); the FTP flows reach their
transport only through its socket factory name, so every transport that
provides one plugs in here.

Measurements (:func:`simulate`): every data packet is recorded at its source
device (NS-2's ``+`` at the source node), on the bottleneck (``-``), when
dropped (``d``) and at the destination device (``r``), keyed by a
per-transmission number like NS-2's packet uid
(:class:`~transportlab.recording.PathRecorder`): what the AWK scripts of seed
004 Appendix B read from the trace file. :func:`flow_metrics` turns them into
the papers' metrics and standard ones per node pair; the run also samples the
sinks' byte counters, the congestion windows and the bottleneck queue.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from transportlab.params import Param, ParameterSpace
from transportlab.studies import Study

# ----------------------------------------------------------------------------- constants

PPP_HEADER = 2
IPV4_HEADER = 20
UDP_HEADER = 8
TCP_HEADER = 20  # no options: NS-2's Agent/TCP has no SACK, timestamps or window scaling
SCTP_COMMON_HEADER = 12
SCTP_DATA_CHUNK_HEADER = 16
UDP_CLIENT_HEADER = 12  # ns-3 UdpClient writes a sequence number and a timestamp into the payload
NS2_TCP_HEADER = 40  # Agent/TCP tcpip_base_hdr_size_: one number for IP + TCP

ROUTERS = (0, 1)
FIRST_SOURCE = 2
SINK_PORT = 9000
# ns-3 random stream for the start-time jitter: fixed, so that it does not depend on the
# order in which other objects draw their stream numbers.
JITTER_STREAM = 1_000_000
SCTP_STREAM = 2_000_000

TRANSPORT_FACTORIES = {
    "tcp": "ns3::TcpSocketFactory",
    "sctp": "ns3::SctpSocketFactory",
    "udp": "ns3::UdpSocketFactory",
}

TCP_CONGESTION = (
    "TcpTahoe", "TcpNewReno", "TcpLinuxReno", "TcpCubic", "TcpBic", "TcpHighSpeed", "TcpHtcp",
    "TcpHybla",
    "TcpIllinois", "TcpLedbat", "TcpLp", "TcpScalable", "TcpVegas", "TcpVeno",
    "TcpWestwoodPlus", "TcpYeah", "TcpBbr", "TcpDctcp",
)  # fmt: skip
TCP_RECOVERY = ("TcpTahoeRecovery", "TcpClassicRecovery", "TcpPrrRecovery")
QUEUE_DISCIPLINES = ("droptail", "fifo", "fq_codel")
SCTP_PROFILES = ("ns2", "rfc9260")

# Where the scenario, as configured by default, differs from the NS-2 run, and why.
TCP_DIFFERENCES = pd.DataFrame(
    [
        ("variant", "Tahoe (Agent/TCP)",
         "TcpTahoe + TcpTahoeRecovery (src/tcp-tahoe)",
         "ns-3 has no Tahoe, so src/tcp-tahoe adds NS-2's rules: window growth per ACK, "
         "ssthresh = int(window/2) segments, and after three duplicate ACKs a retransmission "
         "and slow start from one segment without window inflation. With several losses in "
         "one window ns-3's socket retransmits one hole per partial ACK (NewReno) where "
         "Tahoe goes back N and may resend segments the receiver holds."),
        ("limited transmit", "no", "off (LimitedTransmit=false)", "as NS-2"),
        ("SACK / timestamps / window scaling", "no / no / no", "off / off / off", "as NS-2"),
        ("segment size", "1000 B + 40 B header = 1040 B", "1000 B + 20 IP + 20 TCP = 1040 B",
         "same IP datagram; ns-3 adds the 2-byte PPP header on the wire (1042 B)"),
        ("window", "window_ 20 packets", "receiver buffer 20 x 1000 B (advertised window)",
         "as NS-2 (window scaling off, 20000 < 65535)"),
        ("initial window", "windowInit_ 2, after a 40-B SYN", "InitialCwnd 2 after SYN/SYN-ACK/ACK",
         "ns-3 does the three-way handshake; NS-2 sends one SYN-like packet and waits for its ACK"),
        ("initial ssthresh", "window_ (20 packets)", "InitialSlowStartThreshold 20000 B",
         "as NS-2"),
        ("ACKs", "TCPSink: one per packet, 40 B", "DelAckCount 1: one per segment, 40 B (+2 PPP)",
         "as NS-2"),
        ("RTO", "rtxcur_init_ 3 s, minrto_ 0.2 s, maxrto_ 60 s, tcpTick_ 10 ms, RFC 2988",
         "RttEstimator InitialEstimation 3 s, MinRto 0.2 s, ClockGranularity 10 ms, RFC 6298",
         "NS-2 times one segment per RTT in 10-ms ticks; ns-3 takes a sample from every ACK of "
         "a segment sent once (Karn) at 1-ns resolution"),
        ("ssthresh after loss", "window()/2, at least 2 packets",
         "bytes in flight/2, at least 2 MSS",
         "the same while the window is full"),
        ("max burst", "maxburst_ 0 (none)", "none", "as NS-2"),
    ],
    columns=["setting", "ns2", "ns3", "note"],
)  # fmt: skip

# Parameter sets beyond the faithful default; `dict(params, **PRESETS[name])`.
PRESETS: dict[str, dict[str, Any]] = {
    "ns2": {},
    # What a present-day Linux host would do: CUBIC with SACK, PRR, timestamps, window
    # scaling, limited transmit, delayed ACKs, IW10, an Ethernet-sized MSS, a large
    # receive buffer; SCTP with RFC 9260's parameters.
    "modern": {
        "tcp_congestion": "TcpCubic",
        "tcp_recovery": "TcpPrrRecovery",
        "tcp_sack": True,
        "tcp_timestamps": True,
        "tcp_window_scaling": True,
        "tcp_limited_transmit": True,
        "tcp_delack_count": 2,
        "tcp_initial_cwnd": 10,
        "tcp_segment_size": 1448,
        "tcp_window": 90,
        "tcp_initial_ssthresh": 0,
        "tcp_initial_rto_ms": 1000.0,
        "sctp_profile": "rfc9260",
    },
    # The modern hosts behind routers with an AQM instead of DropTail.
    "modern_aqm": {},
}
PRESETS["modern_aqm"] = dict(PRESETS["modern"], queue_discipline="fq_codel")


# ----------------------------------------------------------------------------- parameters


def _starts_before_end(values: Mapping[str, Any]) -> str | None:
    late = [t for t in values["ftp_starts"] + values["cbr_starts"]
            if t + values["start_jitter_ms"] / 1e3 >= values["duration"]]  # fmt: skip
    if late:
        return (f"start times {late} (plus jitter) must be before the end "
                f"(duration {values['duration']} s)")  # fmt: skip
    return None


def _some_flow(values: Mapping[str, Any]) -> str | None:
    n = len(values["ftp_starts"]) + len(values["cbr_starts"])
    if n == 0:
        return "no flows: ftp_starts and cbr_starts are both empty"
    if n > 100:
        return f"at most 100 node pairs (got {n})"
    return None


def _queue_room(values: Mapping[str, Any]) -> str | None:
    minimum = 2 if values["queue_discipline"] == "droptail" else 3
    if values["queue_limit"] < minimum:
        return (f"queue_limit {values['queue_limit']} is too small for {values['queue_discipline']}"
                f" (at least {minimum}: see queue_layout())")  # fmt: skip
    return None


def _window_fits(values: Mapping[str, Any]) -> str | None:
    window = values["tcp_window"] * values["tcp_segment_size"]
    if window > 65535 and not values["tcp_window_scaling"]:
        return (f"tcp_window x tcp_segment_size = {window} B exceeds 65535 B without "
                "tcp_window_scaling")  # fmt: skip
    return None


def _cbr_sends(values: Mapping[str, Any]) -> str | None:
    if (
        values["cbr_starts"]
        and values["cbr_packet_size"] * 8 / (values["cbr_rate_mbps"] * 1e6) < 1e-6
    ):
        return "cbr_rate_mbps / cbr_packet_size give an interval below 1 us"
    return None


def _sample_interval(values: Mapping[str, Any]) -> str | None:
    if values["sample_interval"] > values["duration"]:
        return (f"sample_interval ({values['sample_interval']} s) exceeds "
                f"duration ({values['duration']} s)")  # fmt: skip
    return None


PARAMETERS = ParameterSpace(
    Param("protocol", "tcp", str, "transport of the FTP flows", choices=("tcp", "sctp")),
    Param("duration", 1000.0, float, "simulated time; the script stops at 1000 s",
          minimum=0, exclusive_minimum=True, unit="s", quick=300.0),
    Param("ftp_starts", [10.0, 15.0, 15.0, 20.0, 20.0], list,
          "start times of the FTP flows (one per node pair 2-12, 3-13, ...)",
          element_kind=float, minimum=0, unit="s"),
    Param("cbr_starts", [30.0, 35.0, 30.0, 40.0, 50.0], list,
          "start times of the CBR/UDP flows (the node pairs after the FTP ones)",
          element_kind=float, minimum=0, unit="s"),
    Param("start_jitter_ms", 100.0, float,
          "each flow starts uniformly in [start, start + jitter) drawn per replication (RngRun): "
          "NS-2's run is deterministic and its per-flow shares depend on the flows' phase; "
          "0 gives the exact script times (all replications identical)",
          minimum=0, maximum=5000, unit="ms"),
    Param("access_rate_mbps", 1.0, float, "source-router links", minimum=0,
          exclusive_minimum=True, unit="Mb/s"),
    Param("access_delay_ms", 10.0, float, "source-router links", minimum=0, unit="ms"),
    Param("bottleneck_rate_mbps", 0.5, float,
          "router-router link: NS-2 0.5Mb = 500 000 b/s (the papers' text says 512 kb/s)",
          minimum=0, exclusive_minimum=True, unit="Mb/s"),
    Param("bottleneck_delay_ms", 100.0, float, "router-router link", minimum=0, unit="ms"),
    Param("egress_rate_mbps", 1.0, float, "router-sink links", minimum=0,
          exclusive_minimum=True, unit="Mb/s"),
    Param("egress_delay_ms", 30.0, float, "router-sink links", minimum=0, unit="ms"),
    Param("queue_limit", 50, int,
          "packets an interface holds, counting the one in transmission (NS-2 limit_)",
          minimum=1, maximum=100000, unit="packets"),
    Param("queue_discipline", "droptail", str,
          "routers' interfaces: droptail = NS-2 (device queue only), fifo = the same through "
          "ns-3's traffic-control layer, fq_codel = ns-3's default AQM with the same buffer; "
          "hosts always use droptail",
          choices=QUEUE_DISCIPLINES),
    Param("cbr_packet_size", 1000, int, "UDP payload per CBR packet (NS-2 packetSize_)",
          minimum=UDP_CLIENT_HEADER, maximum=1472, unit="bytes"),
    Param("cbr_rate_mbps", 0.01, float, "CBR payload rate (NS-2 rate_)", minimum=0,
          exclusive_minimum=True, unit="Mb/s"),
    Param("tcp_congestion", "TcpTahoe", str,
          "congestion control: TcpTahoe = NS-2 Agent/TCP's window rules (src/tcp-tahoe), or "
          "one of ns-3's", choices=TCP_CONGESTION),
    Param("tcp_recovery", "TcpTahoeRecovery", str,
          "loss recovery: TcpTahoeRecovery = fast retransmit, then slow start from one "
          "segment (NS-2 Agent/TCP); ns-3's classic (NewReno) or PRR", choices=TCP_RECOVERY),
    Param("tcp_segment_size", 1000, int, "TCP payload per segment (NS-2 packetSize_)",
          minimum=100, maximum=1460, unit="bytes"),
    Param("tcp_window", 20, int,
          "receiver window in segments (NS-2 window_); the receive buffer is this x segment size",
          minimum=1, maximum=10000, unit="segments"),
    Param("tcp_initial_cwnd", 2, int, "initial window (NS-2 windowInit_)", minimum=1,
          maximum=100, unit="segments"),
    Param("tcp_initial_ssthresh", 20, int,
          "initial slow-start threshold (NS-2: window_); 0 = unlimited (ns-3 default)",
          minimum=0, maximum=100000, unit="segments"),
    Param("tcp_delack_count", 1, int, "segments per ACK (NS-2 TCPSink: 1)", minimum=1, maximum=10),
    Param("tcp_sack", False, bool, "SACK option"),
    Param("tcp_timestamps", False, bool, "timestamp option (12 more bytes per segment)"),
    Param("tcp_window_scaling", False, bool, "window scale option"),
    Param("tcp_limited_transmit", False, bool, "RFC 3042 limited transmit"),
    Param("tcp_min_rto_ms", 200.0, float, "minimum RTO (NS-2 minrto_)", minimum=0, unit="ms"),
    Param("tcp_initial_rto_ms", 3000.0, float,
          "RTO before the first RTT sample (NS-2 rtxcur_init_); ns-3's initial RTT estimate",
          minimum=1, unit="ms"),
    Param("tcp_clock_granularity_ms", 10.0, float, "RTO clock granularity (NS-2 tcpTick_)",
          minimum=0, unit="ms"),
    Param("sctp_profile", "ns2", str,
          "SCTP parameters: the NS-2.35 defaults or RFC 9260's", choices=SCTP_PROFILES),
    Param("sctp_message_size", 1452, int,
          "bytes per FTP write over SCTP = user data per DATA chunk (NS-2: dataChunkSize_ 1468 "
          "minus the 16-byte chunk header)",
          minimum=1, maximum=65000, unit="bytes"),
    Param("sample_interval", 1.0, float, "goodput sampling interval", minimum=0.01,
          unit="s"),
    Param("awk_tic", 1.0, float,
          "window of the seed 004 AWK scripts (their `tic`; the thesis does not give it)",
          minimum=0.001, unit="s"),
    Param("awk_pkt", 1000, int,
          "packet size argument of the AWK scripts (`pkt`): smaller packets are ignored and "
          "sizes are rounded down to a multiple of it",
          minimum=1, unit="bytes"),
    Param("record_series", True, bool,
          "return the time series (goodput, cwnd, queue, AWK series) of every flow"),
    Param("record_packets", False, bool,
          "return every recorded transmission (source, bottleneck, drop, destination)"),
    Param("pcap_prefix", "", str,
          "if set, write pcap traces of the bottleneck link to <prefix>-<node>-<device>.pcap"),
    consistency=[_starts_before_end, _some_flow, _queue_room, _window_fits, _cbr_sends,
                 _sample_interval],
)  # fmt: skip


# ----------------------------------------------------------------------------- topology facts


def node_pairs(params: Mapping[str, Any]) -> pd.DataFrame:
    """The node pairs of the scenario in NS-2 numbering, one row per flow.

    Sources are numbered from 2 in script order (FTP pairs first), sinks follow
    the sources; pair ``k`` is ``2+k -> 2+n+k`` (2-12 ... 11-21 for 10 pairs).
    """
    n_ftp, n_cbr = len(params["ftp_starts"]), len(params["cbr_starts"])
    n = n_ftp + n_cbr
    rows = []
    for k in range(n):
        ftp = k < n_ftp
        src, dst = FIRST_SOURCE + k, FIRST_SOURCE + n + k
        rows.append({
            "flow": k,
            "application": "ftp" if ftp else "cbr",
            "transport": params["protocol"] if ftp else "udp",
            "source": src,
            "sink": dst,
            "pair": f"nodes {src}-{dst}",
            "script_start": float(
                params["ftp_starts"][k] if ftp else params["cbr_starts"][k - n_ftp]
            ),
        })  # fmt: skip
    return pd.DataFrame(rows)


def node_count(params: Mapping[str, Any]) -> int:
    return len(ROUTERS) + 2 * (len(params["ftp_starts"]) + len(params["cbr_starts"]))


def queue_layout(params: Mapping[str, Any]) -> dict[str, int]:
    """How NS-2's ``limit_`` maps onto ns-3's queues.

    NS-2's DropTail drops an arriving packet when ``qlen + 1 >= limit_``; the
    link holds the packet in transmission separately, so ``limit_`` = 50 means
    49 waiting + 1 being sent. A point-to-point device removes a packet from its
    queue when it starts sending it, so:

    * ``droptail``: no queue disc and no flow control, device queue
      ``limit - 1``: the device queue drops an arriving packet when it holds
      ``limit - 1`` (the ``MacTxDrop`` trace), exactly NS-2's rule.
    * ``fifo``/``fq_codel``: a device queue of 1 packet plus a queue disc of
      ``limit - 2``; flow control keeps the queue disc's packets out of the full
      device queue. One artefact: the device wakes the queue disc in a separate
      event after each dequeue, so a packet arriving at that very instant still
      finds the queue disc full (``limit - 2`` waiting in all) and is dropped.
    """
    limit = params["queue_limit"]
    if params["queue_discipline"] == "droptail":
        return {"queue_disc": 0, "device": limit - 1, "in_transmission": 1}
    return {"queue_disc": limit - 2, "device": 1, "in_transmission": 1}


def packet_sizes(params: Mapping[str, Any]) -> pd.DataFrame:
    """Bytes per packet in NS-2's trace and in ns-3 (IP datagram and on the wire).

    NS-2 has no link header; its TCP adds one 40-byte IP+TCP header, its UDP
    adds none, and its SCTP counts the 12-byte common header and a 20-byte IP
    header. ns-3 builds real headers and the point-to-point link adds 2 bytes
    of PPP. ``ns3_wire / ns2`` is how much longer ns-3's packet occupies the
    bottleneck; ``transmission_ms`` is the ns-3 time on the bottleneck.
    """
    mss = params["tcp_segment_size"]
    tcp_options = 12 if params["tcp_timestamps"] else 0
    chunk = params["sctp_message_size"] + SCTP_DATA_CHUNK_HEADER
    chunk += -chunk % 4  # chunks are padded to 4 bytes
    rows = [
        ("TCP data", mss, mss + NS2_TCP_HEADER, mss + IPV4_HEADER + TCP_HEADER + tcp_options),
        ("TCP ACK", 0, NS2_TCP_HEADER, IPV4_HEADER + TCP_HEADER + tcp_options),
        ("UDP CBR", params["cbr_packet_size"], params["cbr_packet_size"],
         params["cbr_packet_size"] + UDP_HEADER + IPV4_HEADER),
        ("SCTP DATA", params["sctp_message_size"], chunk + SCTP_COMMON_HEADER + IPV4_HEADER,
         chunk + SCTP_COMMON_HEADER + IPV4_HEADER),
    ]  # fmt: skip
    frame = pd.DataFrame(rows, columns=["packet", "payload", "ns2", "ns3_ip"])
    frame["ns3_wire"] = frame["ns3_ip"] + PPP_HEADER
    frame["ns3_wire / ns2"] = frame["ns3_wire"] / frame["ns2"]
    frame["transmission_ms"] = frame["ns3_wire"] * 8 / (params["bottleneck_rate_mbps"] * 1e3)
    return frame


def cbr_interval(params: Mapping[str, Any]) -> float:
    """Seconds between CBR packets: NS-2's ``packetSize_ * 8 / rate_``."""
    return params["cbr_packet_size"] * 8 / (params["cbr_rate_mbps"] * 1e6)


# ----------------------------------------------------------------------------- simulation


def _configure_tcp(ns, params: Mapping[str, Any]) -> None:
    """Attribute defaults for every TCP socket (see TCP_DIFFERENCES)."""

    def default(name, value):
        ns.Config.SetDefault(name, value)

    default("ns3::TcpL4Protocol::SocketType", ns.StringValue(f"ns3::{params['tcp_congestion']}"))
    default("ns3::TcpL4Protocol::RecoveryType", ns.StringValue(f"ns3::{params['tcp_recovery']}"))
    default("ns3::TcpSocket::SegmentSize", ns.UintegerValue(params["tcp_segment_size"]))
    default("ns3::TcpSocket::InitialCwnd", ns.UintegerValue(params["tcp_initial_cwnd"]))
    ssthresh = params["tcp_initial_ssthresh"] * params["tcp_segment_size"]
    default(
        "ns3::TcpSocket::InitialSlowStartThreshold",
        ns.UintegerValue(ssthresh if ssthresh else 0xFFFFFFFF),
    )
    default("ns3::TcpSocket::DelAckCount", ns.UintegerValue(params["tcp_delack_count"]))
    # The sink reads at once, so the advertised window is the whole receive buffer.
    default(
        "ns3::TcpSocket::RcvBufSize",
        ns.UintegerValue(params["tcp_window"] * params["tcp_segment_size"]),
    )
    default("ns3::TcpSocketBase::Sack", ns.BooleanValue(params["tcp_sack"]))
    default("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(params["tcp_timestamps"]))
    default("ns3::TcpSocketBase::WindowScaling", ns.BooleanValue(params["tcp_window_scaling"]))
    default("ns3::TcpSocketBase::LimitedTransmit", ns.BooleanValue(params["tcp_limited_transmit"]))
    default("ns3::TcpSocketBase::MinRto", ns.TimeValue(_ms(ns, params["tcp_min_rto_ms"])))
    default(
        "ns3::TcpSocketBase::ClockGranularity",
        ns.TimeValue(_ms(ns, params["tcp_clock_granularity_ms"])),
    )
    default(
        "ns3::RttEstimator::InitialEstimation", ns.TimeValue(_ms(ns, params["tcp_initial_rto_ms"]))
    )


def _ms(ns, milliseconds: float):
    return ns.NanoSeconds(round(milliseconds * 1e6))


def _seconds(ns, seconds: float):
    return ns.NanoSeconds(round(seconds * 1e9))


def sctp_available() -> bool:
    """Whether the native library provides the SCTP model (``ns3::SctpSocketFactory``)."""
    from transportlab import ns  # noqa: PLC0415

    found, _ = ns.LookupByNameFailSafe(TRANSPORT_FACTORIES["sctp"])
    return bool(found)


def _install_sctp(ns, nodes, params: Mapping[str, Any]) -> None:
    if not sctp_available():
        raise RuntimeError(
            "protocol='sctp' needs the SCTP model (src/sctp, ns3::SctpSocketFactory), "
            "which this build of transportlab does not contain"
        )
    if params["sctp_profile"] == "ns2":
        # Attribute defaults of ns-2.35's Agent/SCTP (src/sctp/helper/sctp-stack-helper.cc);
        # "rfc9260" keeps the model's own defaults, RFC 9260's protocol parameters.
        ns.SctpStackHelper.SetNs2Defaults("2.35")
    helper = ns.SctpStackHelper()
    helper.Install(nodes)
    # Fixed streams for the random verification tags, initial TSNs and keys.
    helper.AssignStreams(nodes, SCTP_STREAM)


class Dumbbell:
    """The 22-node topology (for the default parameters) with its devices."""

    def __init__(self, ns, params: Mapping[str, Any], pairs: pd.DataFrame) -> None:
        self.nodes = ns.NodeContainer()
        self.nodes.Create(node_count(params))
        ns.InternetStackHelper().Install(self.nodes)
        if params["protocol"] == "sctp":
            _install_sctp(ns, self.nodes, params)

        layout = queue_layout(params)
        host_queue = ns.QueueSizeValue(ns.QueueSize(f"{params['queue_limit'] - 1}p"))
        router_queue = ns.QueueSizeValue(ns.QueueSize(f"{layout['device']}p"))
        link = ns.PointToPointHelper()
        if params["queue_discipline"] == "droptail":
            # No flow control between the device and the (absent) queue disc: the device
            # queue itself drops the arriving packet when `limit - 1` are waiting, in event
            # order, as NS-2 does. With flow control the traffic-control layer drops while
            # the device queue is "stopped", and it only wakes in a separate event after a
            # dequeue, so an arrival at the very instant of a dequeue would be dropped with
            # `limit - 2` waiting.
            link.DisableFlowControl()
        addresses = ns.Ipv4AddressHelper()
        no_qdisc = ns.TrafficControlHelper()
        self._subnet = 0
        self.source_devices, self.sink_devices, self.sink_addresses = {}, {}, {}
        self.router_devices = []

        def connect(host: int, router: int, rate_mbps: float, delay_ms: float):
            link.SetDeviceAttribute(
                "DataRate", ns.DataRateValue(ns.DataRate(round(rate_mbps * 1e6)))
            )
            link.SetChannelAttribute("Delay", ns.TimeValue(_ms(ns, delay_ms)))
            # The first device of a pair belongs to the first node: set its queue first.
            link.SetQueue(
                "ns3::DropTailQueue<Packet>",
                "MaxSize",
                host_queue if host not in ROUTERS else router_queue,
            )
            devices = link.Install(self.nodes.Get(host), self.nodes.Get(router))
            devices.Get(1).GetObject[ns.PointToPointNetDevice]().GetQueue().SetAttribute(
                "MaxSize", router_queue
            )
            addresses.SetBase(ns.Ipv4Address(self._next_subnet()), ns.Ipv4Mask("255.255.255.252"))
            interfaces = addresses.Assign(devices)
            # Assign() installs ns-3's default queue disc on devices with flow control;
            # NS-2's links have none.
            for i in range(2):
                device = devices.Get(i)
                layer = device.GetNode().GetObject[ns.TrafficControlLayer]()
                if layer.GetRootQueueDiscOnDevice(device):
                    no_qdisc.Uninstall(device)
            self.router_devices.append(devices.Get(1))
            return devices, interfaces

        for row in pairs.itertuples():
            devices, _ = connect(
                row.source, ROUTERS[0], params["access_rate_mbps"], params["access_delay_ms"]
            )
            self.source_devices[row.flow] = devices.Get(0)
        devices, _ = connect(
            ROUTERS[0], ROUTERS[1], params["bottleneck_rate_mbps"], params["bottleneck_delay_ms"]
        )
        self.bottleneck = devices.Get(0)  # router 0 -> router 1
        self.bottleneck_reverse = devices.Get(1)
        self.router_devices.insert(0, devices.Get(0))
        for row in pairs.itertuples():
            devices, interfaces = connect(
                row.sink, ROUTERS[1], params["egress_rate_mbps"], params["egress_delay_ms"]
            )
            self.sink_devices[row.flow] = devices.Get(0)
            self.sink_addresses[row.flow] = interfaces.GetAddress(0)

        self.queue_discs = {}
        if params["queue_discipline"] != "droptail":
            kind = {"fifo": "ns3::FifoQueueDisc", "fq_codel": "ns3::FqCoDelQueueDisc"}
            qdisc = ns.TrafficControlHelper()
            qdisc.SetRootQueueDisc(
                kind[params["queue_discipline"]],
                "MaxSize",
                ns.QueueSizeValue(ns.QueueSize(f"{layout['queue_disc']}p")),
            )
            for device in self.router_devices:
                installed = qdisc.Install(device)
                self.queue_discs[device] = installed.Get(0)
        ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()

    def _next_subnet(self) -> str:
        # /30 subnets 10.0.0.0, 10.0.0.4, ...: one per link.
        base = self._subnet * 4
        self._subnet += 1
        return f"10.{base >> 16 & 255}.{base >> 8 & 255}.{base & 255}"


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
        factory = TRANSPORT_FACTORIES[row.transport]
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
            sender.SetAttribute("Interval", ns.TimeValue(_seconds(ns, cbr_interval(params))))
            sender.SetAttribute("MaxPackets", ns.UintegerValue(0))
        app = sender.Install(net.nodes.Get(row.source))
        app.Start(_seconds(ns, starts[row.flow]))
    return sinks


# Raw sizes at these points -> IP datagram bytes (NS-2's packet size has no link header).
_POINT_SIZE_CORRECTION = {
    "sent": -PPP_HEADER,
    "bottleneck": -PPP_HEADER,
    "received": -PPP_HEADER,
    "dropped_tc": IPV4_HEADER,  # TcDrop sees the packet before its IP header is added
    "dropped_qdisc": 0,  # a queue disc item counts its IP header
    "dropped_device": -PPP_HEADER,
}


def _watch_packets(ns, params, pairs, net):
    from transportlab.recording import PathRecorder  # noqa: PLC0415

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
    frame["point"] = pd.Categorical(
        points, categories=["sent", "bottleneck", "dropped", "received"]
    )
    return frame


def _watch_state(ns, params, pairs, net, starts):
    from transportlab.recording import ValueRecorder  # noqa: PLC0415

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
    edges = _edges(params)
    flows = sorted(sinks)
    totals = np.zeros((len(edges), len(flows)), dtype=np.int64)
    for i, edge in enumerate(edges):
        ns.Simulator.Stop(_seconds(ns, edge) - ns.Simulator.Now())
        ns.Simulator.Run()
        totals[i] = [int(sinks[f].GetTotalRx()) for f in flows]
    delivered = np.diff(np.vstack([np.zeros(len(flows), dtype=np.int64), totals]), axis=0)
    return pd.DataFrame({
        "flow": np.repeat(flows, len(edges)).astype(np.int64),
        "time": np.tile(edges, len(flows)),
        "bytes": delivered.T.reshape(-1),
    })  # fmt: skip


def _step_series(times: np.ndarray, values: np.ndarray, edges: np.ndarray):
    """Time-weighted mean, maximum and last value of a step function per interval.

    The function is 0 before its first change; interval ``i`` is
    ``[edges[i-1], edges[i])`` with ``edges[-1] = 0`` before the first.
    """
    t = np.concatenate([[0.0], times])
    v = np.concatenate([[0.0], values])
    area = np.concatenate([[0.0], np.cumsum(v[:-1] * np.diff(t))])

    def integral(x):
        j = np.searchsorted(t, x, side="right") - 1
        return area[j] + v[j] * (x - t[j])

    lower = np.concatenate([[0.0], edges[:-1]])
    mean = (integral(edges) - integral(lower)) / (edges - lower)
    at_start = v[np.searchsorted(t, lower, side="right") - 1]
    inside = np.searchsorted(lower, t, side="right") - 1
    peak = at_start.copy()
    valid = (inside >= 0) & (t < edges[-1])
    np.maximum.at(peak, inside[valid], v[valid])
    last = v[np.searchsorted(t, edges, side="left") - 1]
    return mean, peak, last


def _edges(params: Mapping[str, Any]) -> np.ndarray:
    interval, duration = params["sample_interval"], params["duration"]
    edges = np.arange(1, int(np.floor(duration / interval + 1e-9)) + 1) * interval
    if len(edges) == 0 or edges[-1] < duration - 1e-9:
        edges = np.append(edges, duration)
    return edges


def _long(flow: int, metric: str, time, value) -> pd.DataFrame:
    time = np.asarray(time, dtype=float)
    return pd.DataFrame({
        "flow": np.full(len(time), flow, dtype=np.int64),
        "metric": metric,
        "time": time,
        "value": np.asarray(value, dtype=float),
    })  # fmt: skip


def packet_records(packets: pd.DataFrame, pkt: float) -> pd.DataFrame:
    """Sends and receives of data packets as :mod:`transportlab.metrics` records.

    ``packets`` is the recorder's table; only transmissions of at least ``pkt``
    bytes (IP datagram) are kept, as the AWK scripts keep them (this leaves out
    SYNs, pure ACKs and SACKs). ``seq`` numbers a flow's data transmissions
    0, 1, 2, ... in sending order (the AWK scripts visit NS-2 uids in increasing
    order, which within one flow is the same order), ``sent_time`` and ``delay``
    are set on received rows.
    """
    sent = packets[(packets["point"] == "sent") & (packets["size"] >= pkt)]
    sent = sent.sort_values(["flow", "packet"], kind="mergesort")
    seq = sent.groupby("flow").cumcount()
    seq_of = pd.Series(seq.to_numpy(), index=sent["packet"].to_numpy())
    sent_time = pd.Series(sent["time"].to_numpy(), index=sent["packet"].to_numpy())
    received = packets[(packets["point"] == "received") & (packets["size"] >= pkt)]
    frames = []
    for event, rows in (("sent", sent), ("received", received)):
        ids = rows["packet"].to_numpy()
        frame = pd.DataFrame({
            "event": event,
            "flow": rows["flow"].to_numpy(),
            "seq": seq_of.reindex(ids).to_numpy(),
            "packet": ids,
            "size": rows["size"].to_numpy(),
            "time": rows["time"].to_numpy(),
            "sent_time": sent_time.reindex(ids).to_numpy(),
        })  # fmt: skip
        frames.append(frame)
    records = pd.concat(frames, ignore_index=True).sort_values("time", kind="mergesort")
    records["event"] = pd.Categorical(records["event"], categories=["sent", "received"])
    records["seq"] = records["seq"].astype(np.int64)
    received_rows = records["event"] == "received"
    records["delay"] = np.where(received_rows, records["time"] - records["sent_time"], np.nan)
    records.loc[~received_rows, "sent_time"] = np.nan
    return records.reset_index(drop=True)


def flow_metrics(
    packets: pd.DataFrame, flows: pd.DataFrame, params: Mapping[str, Any]
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-flow metrics (one row per flow) and their time series (long table).

    The papers' own definitions, from :mod:`transportlab.metrics` (the seed 004
    AWK scripts, ``tic = awk_tic``, ``pkt = awk_pkt``; table entry = mean of the
    printed values without gap markers):

    * ``awk_throughput_kbps``: the throughput script (sizes rounded down to a
      multiple of ``pkt``: 1000 of a 1040-byte TCP packet, of a 1028-byte UDP
      packet and of a 1500-byte SCTP packet);
    * ``awk_jitter_ms``: the jitter script (mean |delay difference| of
      consecutive packets per window);
    * ``awk_delay_s``: the delay script as printed: the inter-arrival gap of the
      packet that closes a window, not a one-way delay;
    * ``awk_e2e_delay_ms``: the one-way delay (``e2eDelay``, which the script
      computes but does not print) of the same window-closing packets.

    Standard definitions: ``goodput_kbps`` (application bytes over the flow's
    active time), ``delay_ms`` (mean one-way delay of the data packets),
    ``rfc3550_jitter_ms`` (mean of the RFC 3550 estimator over the flow),
    ``ipdv_ms`` (mean |RFC 3393 IPDV| of packets consecutive in sending order),
    ``loss_ratio`` (data transmissions dropped / sent; a TCP retransmission is
    a transmission of its own).
    """
    from transportlab import metrics  # noqa: PLC0415

    tic, pkt = params["awk_tic"], params["awk_pkt"]
    records = packet_records(packets, pkt)
    # The throughput script starts its clock at the first line of the NS-2 trace.
    trace_start = float(packets["time"].min()) if len(packets) else 0.0
    dropped = packets[(packets["point"] == "dropped") & (packets["size"] >= pkt)]
    drops = dropped.groupby("flow").size()
    rows, series = [], []
    for flow in flows["flow"]:
        mine = records[records["flow"] == flow]
        received = mine[mine["event"] == "received"]
        row = {"flow": flow}
        n_sent = int((mine["event"] == "sent").sum())
        row["data_sent"] = n_sent
        row["data_received"] = len(received)
        row["data_dropped"] = int(drops.get(flow, 0))
        row["loss_ratio"] = row["data_dropped"] / n_sent if n_sent else np.nan
        if len(received) < 3:
            rows.append(row)
            continue
        throughput = metrics.awk_throughput_series(mine, tic=tic, pkt=pkt, trace_start=trace_start)
        jitter = metrics.awk_jitter_series(mine, tic=tic, pkt=pkt)
        delay = metrics.awk_delay_series(mine, tic=tic, pkt=pkt)
        closing = delay.loc[~delay["gap_marker"], "time"].to_numpy()
        by_arrival = received.set_index("time")["delay"]
        e2e = by_arrival.reindex(closing).to_numpy()
        row["awk_throughput_kbps"] = metrics.awk_table_average(throughput)
        row["awk_jitter_ms"] = metrics.awk_table_average(jitter)
        row["awk_delay_s"] = metrics.awk_table_average(delay)
        row["awk_e2e_delay_ms"] = float(np.nanmean(e2e)) * 1e3 if len(e2e) else np.nan
        one_way = metrics.one_way_delay(mine)
        row["delay_ms"] = float(one_way.mean()) * 1e3
        row["rfc3550_jitter_ms"] = (
            float(metrics.rfc3550_jitter_series(one_way.to_numpy()).mean()) * 1e3
        )
        variation = metrics.ipdv(mine)
        row["ipdv_ms"] = float(variation.abs().mean()) * 1e3 if len(variation) else np.nan
        rows.append(row)
        for name, frame, scale in (
            ("awk_throughput_kbps", throughput, 1.0),
            ("awk_jitter_ms", jitter, 1.0),
        ):
            kept = frame[~frame["gap_marker"]]
            series.append(_long(flow, name, kept["time"], kept["value"] * scale))
        series.append(_long(flow, "awk_e2e_delay_ms", closing, e2e * 1e3))
    return pd.DataFrame(rows), pd.concat(series, ignore_index=True) if series else None


def simulate(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication (ns-3 RngRun ``run``) of the scenario.

    Tables:

    * ``flows``: one row per node pair: identity, start time, application bytes
      and goodput, and the metrics of :func:`flow_metrics`;
    * ``run``: one row: bottleneck utilisation (bits on the wire, PPP headers
      included, over capacity x time since the first start), Jain's index of the
      FTP flows' goodput and AWK throughput, drops, events, wall time;
    * ``series`` (if ``record_series``): long table ``flow, metric, time,
      value`` per ``sample_interval`` (goodput, congestion window, bottleneck
      queue with flow -1) and per AWK window (the AWK series);
    * ``packets`` (if ``record_packets``): every recorded transmission
      (``point``: sent, bottleneck, dropped, received; ``size``: IP bytes).
    """
    from transportlab import metrics  # noqa: PLC0415
    from transportlab.simulation import event_count, simulation  # noqa: PLC0415

    params = PARAMETERS.validate(params)
    pairs = node_pairs(params)
    wall_start = time.perf_counter()
    with simulation(seed=seed, run=run, checksums=bool(params["pcap_prefix"])) as ns:
        _configure_tcp(ns, params)
        net = Dumbbell(ns, params, pairs)
        starts = _start_times(ns, params, pairs)
        sinks = _install_applications(ns, params, pairs, net, starts)
        recorder = _watch_packets(ns, params, pairs, net)
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
    flows["goodput_kbps"] = flows["rx_bytes"] * 8 / (params["duration"] - flows["start"]) / 1e3
    per_flow, awk_series = flow_metrics(packets, flows, params)
    flows = flows.merge(per_flow, on="flow", how="left")

    on_link = packets[packets["point"] == "bottleneck"]
    wire_bits = (on_link["size"].sum() + PPP_HEADER * len(on_link)) * 8
    busy_time = params["duration"] - float(flows["start"].min())
    ftp = flows[flows["application"] == "ftp"]
    run_row = {
        "bottleneck_utilisation": wire_bits / (params["bottleneck_rate_mbps"] * 1e6 * busy_time),
        "bottleneck_drops": int((packets["point"] == "dropped").sum()),
        "jain_goodput": metrics.jain_index(ftp["goodput_kbps"]) if len(ftp) else np.nan,
        "jain_awk_throughput": (
            metrics.jain_index(ftp["awk_throughput_kbps"].fillna(0))
            if len(ftp) and ftp["awk_throughput_kbps"].fillna(0).sum() > 0
            else np.nan
        ),
        "events": events,
        "build_seconds": build_seconds,
        "run_seconds": run_seconds,
        "run_cpu_seconds": run_cpu_seconds,
    }
    tables = {"flows": flows, "run": pd.DataFrame([run_row])}
    if params["record_series"]:
        tables["series"] = _series(params, goodput, queue_frame, windows_frame, awk_series)
    if params["record_packets"]:
        tables["packets"] = packets
    return tables


def _series(params, goodput, queue_frame, windows_frame, awk_series) -> pd.DataFrame:
    edges = _edges(params)
    interval = np.diff(np.concatenate([[0.0], edges]))
    parts = []
    for flow, group in goodput.groupby("flow"):
        kbps = group["bytes"].to_numpy() * 8 / interval / 1e3
        parts.append(_long(flow, "goodput_kbps", group["time"], kbps))
    if len(queue_frame):
        device = queue_frame[queue_frame["series"] == "device"]
        total_t, total_v = device["time"].to_numpy(), device["value"].to_numpy()
        if (queue_frame["series"] == "queue_disc").any():
            # Occupancy = device queue + queue disc: merge the two step functions.
            both = queue_frame.sort_values("time", kind="mergesort")
            current = {"device": 0.0, "queue_disc": 0.0}
            values = []
            for name, value in zip(both["series"], both["value"], strict=True):
                current[name] = value
                values.append(current["device"] + current["queue_disc"])
            total_t, total_v = both["time"].to_numpy(), np.array(values)
        mean, peak, _ = _step_series(total_t, total_v, edges)
        parts.append(_long(-1, "queue_mean_packets", edges, mean))
        parts.append(_long(-1, "queue_max_packets", edges, peak))
    if len(windows_frame):
        names = windows_frame["series"].str.split(":", expand=True)
        for (flow, variable), group in windows_frame.groupby([names[0], names[1]]):
            *_, last = _step_series(group["time"].to_numpy(), group["value"].to_numpy(), edges)
            parts.append(_long(int(flow), f"{variable}_bytes", edges, last))
    if awk_series is not None:
        parts.append(awk_series)
    return pd.concat(parts, ignore_index=True)


# ----------------------------------------------------------------------------- analysis

# The per-pair metrics of :func:`flow_metrics`: column -> (label, unit).
METRICS = {
    "awk_throughput_kbps": ("AWK throughput", "kbps"),
    "awk_jitter_ms": ("AWK jitter", "ms"),
    "awk_delay_s": ("AWK delay as printed", "s"),
    "awk_e2e_delay_ms": ("AWK e2eDelay", "ms"),
    "goodput_kbps": ("goodput", "kbps"),
    "delay_ms": ("one-way delay", "ms"),
    "rfc3550_jitter_ms": ("RFC 3550 jitter", "ms"),
    "ipdv_ms": ("mean |IPDV| (RFC 3393)", "ms"),
    "loss_ratio": ("loss ratio", ""),
}


def per_pair_summary(
    flows: pd.DataFrame, by: Sequence[str] = ("protocol",), metrics: Sequence[str] | None = None
) -> pd.DataFrame:
    """Mean, 95 % Student-t interval and run count of each metric per node pair.

    ``flows`` is the ``flows`` table of several replications (a sweep's, with
    the parameter columns ``by``). One row per (``by``..., pair, metric).
    """
    from transportlab.published import confidence_interval  # noqa: PLC0415

    metrics = list(metrics or METRICS)
    rows = []
    keys = [*by, "flow", "pair", "application"]
    for key, group in flows.groupby(keys, sort=True, observed=True):
        for metric in metrics:
            mean, low, high, n = confidence_interval(group[metric])
            rows.append((*key, metric, mean, low, high, n))
    return pd.DataFrame(rows, columns=[*keys, "metric", "mean", "ci_low", "ci_high", "n_runs"])


def reproduced_values(flows: pd.DataFrame, delay: str = "printed") -> pd.DataFrame:
    """The FTP pairs' AWK metrics per replication, for :func:`transportlab.published.compare`.

    ``delay`` chooses what stands for the published "average delay": ``"printed"``
    (the delay script's output: an inter-arrival gap, in s) or ``"e2e"`` (the
    one-way ``e2eDelay`` of the same packets, which the script computes but
    does not print, in ms). Rows ``nodes 2-12`` ... and, for delay and jitter,
    ``all pairs (mean)`` (the mean over the FTP pairs, as the thesis' Table 4.7).
    """
    if delay not in ("printed", "e2e"):
        raise ValueError(f"delay must be 'printed' or 'e2e', got {delay!r}")
    ftp = flows[flows["application"] == "ftp"]
    columns = {
        "awk_throughput": ("awk_throughput_kbps", "kbps"),
        "awk_jitter": ("awk_jitter_ms", "ms"),
        "awk_delay": ("awk_delay_s", "s") if delay == "printed" else ("awk_e2e_delay_ms", "ms"),
    }
    frames = []
    for metric, (column, unit) in columns.items():
        per_pair = pd.DataFrame({
            "protocol": ftp["protocol"].str.upper(),
            "metric": metric,
            "row": ftp["pair"],
            "unit": unit,
            "run": ftp["run"],
            "value": ftp[column],
        })  # fmt: skip
        mean = per_pair.groupby(["protocol", "metric", "unit", "run"], as_index=False)[
            "value"
        ].mean()
        mean["row"] = "all pairs (mean)"
        frames.append(per_pair)
        if metric != "awk_throughput":
            frames.append(mean[per_pair.columns])
    return pd.concat(frames, ignore_index=True)


def expected_queueing_delay(params: Mapping[str, Any], packet_bytes: int) -> float:
    """One-way delay (s) of a packet finding ``queue_limit - 1`` packets of its size waiting.

    Three propagation delays, three transmissions of the packet and the
    transmissions of the waiting ones on the bottleneck: the ceiling of the
    delay when the bottleneck queue is full of this flow's packets.
    """
    wire = (packet_bytes + PPP_HEADER) * 8
    bottleneck = params["bottleneck_rate_mbps"] * 1e6
    return (
        (params["access_delay_ms"] + params["bottleneck_delay_ms"] + params["egress_delay_ms"])
        / 1e3
        + wire / (params["access_rate_mbps"] * 1e6)
        + wire / bottleneck
        + wire / (params["egress_rate_mbps"] * 1e6)
        + (params["queue_limit"] - 1) * wire / bottleneck
    )


STUDY = Study(
    name="wired_best_effort",
    title="SCTP vs TCP with UDP cross traffic on a wired best-effort dumbbell (NS-2)",
    seed_files=("000_efd8d8b62659a846.txt", "004_c8175ad9bda103cf.txt"),
    notebook="01_wired_best_effort.ipynb",
    parameters=PARAMETERS,
    simulate=simulate,
    description=(
        "22-node dumbbell, 0.5 Mb/s 100 ms bottleneck, DropTail 50; 5 FTP flows over TCP or "
        "SCTP and 5 CBR/UDP flows; per-pair throughput, delay and jitter in the AWK "
        "definitions of seed 004 and standard ones."
    ),
    tags=("wired", "sctp", "tcp", "udp", "ns2"),
)
