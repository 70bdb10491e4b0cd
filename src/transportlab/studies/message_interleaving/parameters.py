"""Parameters and constants of the message interleaving study (see the package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from transportlab.engine.params import Param, ParameterSpace

#: The transports compared. ``sctp-data``: one association, small and large messages on
#: their own streams, DATA chunks (IDataSupported off). ``sctp-idata``: the same with
#: IDataSupported on both ends (RFC 8260 I-DATA when the association negotiates it).
#: ``tcp-shared``: one TCP connection carries both kinds of message (one byte stream).
#: ``tcp-per-stream``: one TCP connection per kind of message.
TRANSPORTS = ("sctp-data", "sctp-idata", "tcp-shared", "tcp-per-stream")

#: Stream schedulers (RFC 8260 section 3) -> the SctpSocket StreamScheduler TypeId.
SCHEDULERS = {
    "fcfs": "ns3::SctpFcfsStreamScheduler",
    "rr": "ns3::SctpRoundRobinStreamScheduler",
    "rr-packet": "ns3::SctpRoundRobinPacketStreamScheduler",
    "priority": "ns3::SctpPriorityStreamScheduler",
    "fc": "ns3::SctpFairCapacityStreamScheduler",
    "wfq": "ns3::SctpWfqStreamScheduler",
}

LARGE_STREAM = 0
SMALL_STREAM = 1
#: Priority scheduler: a lower value is served first, so the small messages go first.
STREAM_PRIORITIES = {SMALL_STREAM: 0, LARGE_STREAM: 1}
#: WFQ: the small messages' stream gets twice the large one's share (fair capacity: equal).
STREAM_WEIGHTS = {SMALL_STREAM: 2, LARGE_STREAM: 1}

SINK_PORT = 9000
START_SECONDS = 1.0  # the sender's application starts (connection set-up)
FIRST_MESSAGE_SECONDS = 1.5  # after the handshake of either transport
SEQ_TS_SIZE_HEADER = 20  # sequence number, timestamp and size in front of every message
#: Send and receive buffers of SCTP (bytes): a whole large message and everything queued
#: behind it fit, since the model has no SCTP partial delivery API (the receiver must
#: hold a whole message) and a message goes into the socket in one Send.
SCTP_BUFFER_BYTES = 8 * 1024 * 1024


def _valid_load(values: Mapping[str, Any]) -> str | None:
    small = small_rate_bps(values)
    large = values["large_load"] * values["bottleneck_rate_mbps"] * 1e6
    if small + large >= values["bottleneck_rate_mbps"] * 1e6:
        return (
            f"the small messages ({small / 1e3:g} kb/s) and the large ones "
            f"({large / 1e6:g} Mb/s) must together stay below the bottleneck "
            f"({values['bottleneck_rate_mbps']:g} Mb/s); lower large_load"
        )
    return None


def _messages_before_stop(values: Mapping[str, Any]) -> str | None:
    if values["duration"] <= FIRST_MESSAGE_SECONDS + values["warmup"]:
        return (
            f"duration ({values['duration']} s) must exceed the first message "
            f"({FIRST_MESSAGE_SECONDS} s) plus warmup ({values['warmup']} s)"
        )
    return None


PARAMETERS = ParameterSpace(
    Param(
        "transport",
        "sctp-data",
        str,
        "how the two kinds of message travel: one SCTP "
        "association with DATA or I-DATA, one TCP connection, or one TCP connection per "
        "kind",
        choices=TRANSPORTS,
    ),
    Param(
        "scheduler",
        "fcfs",
        str,
        "SCTP stream scheduler (RFC 8260 section 3); TCP ignores it",
        choices=tuple(SCHEDULERS),
    ),
    Param(
        "stack_preset",
        "rfc9260",
        str,
        "SCTP protocol parameters: the model's named "
        "preset (SctpStackHelper::SetPreset: RFC 9260 section 16, or the Linux or FreeBSD "
        "defaults); TCP keeps ns-3's defaults (NewReno-style ns-3.44 TcpSocketBase with "
        "its default congestion control)",
        choices=("rfc9260", "linux", "freebsd"),
    ),
    Param(
        "small_size",
        100,
        int,
        "bytes per small (control or voice) message, header included",
        minimum=SEQ_TS_SIZE_HEADER,
        maximum=1400,
        unit="bytes",
    ),
    Param(
        "small_interval_ms",
        20.0,
        float,
        "a small message every this many ms",
        minimum=1.0,
        unit="ms",
    ),
    Param(
        "large_size",
        262144,
        int,
        "bytes per large message (64 KB to 1 MB)",
        minimum=65536,
        maximum=1048576,
        unit="bytes",
    ),
    Param(
        "large_load",
        0.8,
        float,
        "large messages offered per second, as a fraction of "
        "the bottleneck rate (one every large_size * 8 / (load * rate) s)",
        minimum=0.0,
        exclusive_minimum=True,
        maximum=0.95,
    ),
    Param(
        "bottleneck_rate_mbps",
        10.0,
        float,
        "rate of the router-receiver link",
        minimum=0.0,
        exclusive_minimum=True,
        unit="Mb/s",
    ),
    Param(
        "bottleneck_delay_ms",
        20.0,
        float,
        "propagation delay of the router-receiver link",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "access_rate_mbps",
        100.0,
        float,
        "rate of the sender-router link",
        minimum=0.0,
        exclusive_minimum=True,
        unit="Mb/s",
    ),
    Param(
        "access_delay_ms",
        1.0,
        float,
        "propagation delay of the sender-router link",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "queue_packets",
        100,
        int,
        "DropTail queue limit of every interface",
        minimum=1,
        unit="packets",
    ),
    Param(
        "error_rate",
        0.0,
        float,
        "packet error rate on the bottleneck's receiving "
        "interface (RateErrorModel): the lossy path",
        minimum=0.0,
        maximum=0.2,
    ),
    Param(
        "duration",
        30.0,
        float,
        "messages are produced from 1.5 s until this time; the "
        "run goes on until every message produced has been delivered or 30 s more have "
        "passed",
        quick=8.0,
        minimum=0.0,
        exclusive_minimum=True,
        unit="s",
    ),
    Param(
        "warmup",
        1.0,
        float,
        "small messages produced in the first warmup seconds "
        "after the first message are left out of the latency statistics (slow start)",
        minimum=0.0,
        unit="s",
        analysis_only=True,
    ),
    consistency=[_valid_load, _messages_before_stop],
)


# --------------------------------------------------------------------------- the schedule


def small_rate_bps(params: Mapping[str, Any]) -> float:
    """Offered rate of the small messages (b/s, their bytes with header)."""
    return params["small_size"] * 8 / (params["small_interval_ms"] / 1e3)


def large_interval_seconds(params: Mapping[str, Any]) -> float:
    """Time between two large messages: their offered rate is ``large_load`` x bottleneck."""
    return params["large_size"] * 8 / (params["large_load"] * params["bottleneck_rate_mbps"] * 1e6)


def message_schedule(params: Mapping[str, Any]) -> list[tuple[float, int, int]]:
    """Every message the sender produces: ``(time s, size bytes, stream)``, in time order
    (a large and a small message at the same instant: the large one first, the worst case
    for the small one). Message ``i`` of this list has sequence number ``i``.
    """
    end = params["duration"]
    messages = []
    large_every = large_interval_seconds(params)
    k = 0
    while (t := FIRST_MESSAGE_SECONDS + k * large_every) < end:
        messages.append((round(t, 9), params["large_size"], LARGE_STREAM))
        k += 1
    small_every = params["small_interval_ms"] / 1e3
    k = 0
    while (t := FIRST_MESSAGE_SECONDS + k * small_every) < end:
        messages.append((round(t, 9), params["small_size"], SMALL_STREAM))
        k += 1
    return sorted(messages, key=lambda m: (m[0], m[2]))


def uses_sctp(params: Mapping[str, Any]) -> bool:
    return params["transport"].startswith("sctp")
