"""Parameters and constants of the bottleneck example (see the package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from transportlab.engine.params import Param, ParameterSpace

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


# --------------------------------------------------------------------------- packet sizes


def wire_bytes(params: Mapping[str, Any]) -> int:
    """Bytes one data packet occupies on a point-to-point link (PPP + IPv4 + L4 + payload)."""
    l4 = UDP_HEADER if params["protocol"] == "udp" else TCP_HEADER
    return params["packet_size"] + l4 + IPV4_HEADER + PPP_HEADER


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
