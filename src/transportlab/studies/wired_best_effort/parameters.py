"""Parameters and constants of the wired best-effort study (see the package docstring).

Also the facts of the scenario that both the run step and the analysis need (node
pairs, queue layout, CBR interval, sampling times). Imported by ``scenario.py``, so
it is part of the cache key: descriptive tables live in ``analysis.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine.files import check_file_prefix
from transportlab.engine.params import Param, ParameterSpace
from transportlab.ns3 import ns2_tcp
from transportlab.ns3.topology import dumbbell

PPP_HEADER = 2
IPV4_HEADER = 20
UDP_HEADER = 8
TCP_HEADER = 20  # no options: NS-2's Agent/TCP has no SACK, timestamps or window scaling
SCTP_COMMON_HEADER = 12
SCTP_DATA_CHUNK_HEADER = 16
UDP_CLIENT_HEADER = 12  # ns-3 UdpClient writes a sequence number and a timestamp into the payload
NS2_TCP_HEADER = ns2_tcp.HEADER_BYTES  # Agent/TCP tcpip_base_hdr_size_: IP + TCP in one

ROUTERS = (0, 1)
FIRST_SOURCE = 2
SINK_PORT = 9000
# ns-3 random stream for the start-time jitter: fixed, so that it does not depend on the
# order in which other objects draw their stream numbers.
JITTER_STREAM = 1_000_000
SCTP_STREAM = 2_000_000

PROTOCOLS = ("tcp", "sctp")
TCP_CONGESTION = (
    "TcpTahoe", "TcpNewReno", "TcpLinuxReno", "TcpCubic", "TcpBic", "TcpHighSpeed", "TcpHtcp",
    "TcpHybla",
    "TcpIllinois", "TcpLedbat", "TcpLp", "TcpScalable", "TcpVegas", "TcpVeno",
    "TcpWestwoodPlus", "TcpYeah", "TcpBbr", "TcpDctcp",
)  # fmt: skip
TCP_RECOVERY = ("TcpTahoeRecovery", "TcpClassicRecovery", "TcpPrrRecovery")
QUEUE_DISCIPLINES = dumbbell.QUEUE_DISCIPLINES
#: Values of ``stack_preset``: the defaults of the SCTP stack (TCP is set attribute by
#: attribute by the tcp_* parameters, whose defaults are NS-2's).
STACK_PRESETS = ("ns2", "rfc9260")


# ----------------------------------------------------------------------------- parameters


def _pcap_folder(prefix: str) -> str | None:
    # ns-3 aborts the whole process (NS_FATAL) when it cannot open a pcap file.
    return check_file_prefix(prefix, "pcap_prefix") if prefix else None


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
    if values["queue_packets"] < minimum:
        return (
            f"queue_packets {values['queue_packets']} is too small for "
            f"{values['queue_discipline']} (at least {minimum}: see queue_layout())"
        )
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
    Param("protocol", "tcp", str, "transport of the FTP flows", choices=PROTOCOLS),
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
    Param("queue_packets", 50, int,
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
    Param("tcp_segment_size", ns2_tcp.PACKET_SIZE, int,
          "TCP payload per segment (NS-2 packetSize_)", minimum=100, maximum=1460, unit="bytes"),
    Param("tcp_window", ns2_tcp.WINDOW, int,
          "receiver window in segments (NS-2 window_); the receive buffer is this x segment size",
          minimum=1, maximum=10000, unit="segments"),
    Param("tcp_initial_cwnd", ns2_tcp.WINDOW_INIT, int, "initial window (NS-2 windowInit_)",
          minimum=1, maximum=100, unit="segments"),
    Param("tcp_initial_ssthresh", ns2_tcp.WINDOW, int,
          "initial slow-start threshold (NS-2: window_); 0 = unlimited (ns-3 default)",
          minimum=0, maximum=100000, unit="segments"),
    Param("tcp_delack_count", 1, int, "segments per ACK (NS-2 TCPSink: 1)", minimum=1, maximum=10),
    Param("tcp_sack", False, bool, "SACK option"),
    Param("tcp_timestamps", False, bool, "timestamp option (12 more bytes per segment)"),
    Param("tcp_window_scaling", False, bool, "window scale option"),
    Param("tcp_limited_transmit", False, bool, "RFC 3042 limited transmit"),
    Param("tcp_min_rto_ms", ns2_tcp.MIN_RTO_S * 1e3, float, "minimum RTO (NS-2 minrto_)",
          minimum=0, unit="ms"),
    Param("tcp_initial_rto_ms", ns2_tcp.INITIAL_RTO_S * 1e3, float,
          "RTO before the first RTT sample (NS-2 rtxcur_init_); ns-3's initial RTT estimate",
          minimum=1, unit="ms"),
    Param("tcp_clock_granularity_ms", ns2_tcp.TICK_S * 1e3, float,
          "RTO clock granularity (NS-2 tcpTick_)", minimum=0, unit="ms"),
    Param("stack_preset", "ns2", str,
          "defaults of the SCTP stack: the NS-2.35 preset or RFC 9260's (TCP: the tcp_* "
          "parameters)", choices=STACK_PRESETS),
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
          "analysis returns the time series (goodput, cwnd, queue, AWK series) of every flow"),
    Param("record_packets", False, bool,
          "analysis returns every recorded transmission (source, bottleneck, drop, destination)"),
    Param("pcap_prefix", "", str,
          "if set, write pcap traces of the bottleneck link to <prefix>-<node>-<device>.pcap "
          "(its folder must exist)", check=_pcap_folder),
    consistency=[_starts_before_end, _some_flow, _queue_room, _window_fits, _cbr_sends,
                 _sample_interval],
)  # fmt: skip


# ----------------------------------------------------------------------------- scenario facts


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
    """How NS-2's ``limit_`` (``queue_packets``) maps onto ns-3's queues of the routers.

    See :func:`transportlab.ns3.topology.dumbbell.queue_layout`.
    """
    return dumbbell.queue_layout(params["queue_packets"], params["queue_discipline"])


def cbr_interval(params: Mapping[str, Any]) -> float:
    """Seconds between CBR packets: NS-2's ``packetSize_ * 8 / rate_``."""
    return params["cbr_packet_size"] * 8 / (params["cbr_rate_mbps"] * 1e6)


def sample_edges(params: Mapping[str, Any]) -> np.ndarray:
    """Ends of the sampling intervals: every ``sample_interval`` and the end of the run."""
    interval, duration = params["sample_interval"], params["duration"]
    edges = np.arange(1, int(np.floor(duration / interval + 1e-9)) + 1) * interval
    if len(edges) == 0 or edges[-1] < duration - 1e-9:
        edges = np.append(edges, duration)
    return edges
