"""Analysis of the bottleneck example: hand calculation and per-run metrics.

Not cached: changing anything here costs no simulation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.models import metrics
from transportlab.studies.bottleneck_example.parameters import (
    SINK_PORT,
    START_SECONDS,
    wire_bytes,
)

# --------------------------------------------------------------------------- hand calculation


def expected_udp_delay(params: Mapping[str, Any]) -> float:
    """One-way delay (s) of a UDP packet that finds both queues empty.

    Store-and-forward: per hop the serialisation time (bits / rate) plus the
    propagation delay; ns-3 adds no processing time.
    """
    bits = wire_bytes(params) * 8
    return (
        bits / (params["access_rate_mbps"] * 1e6)
        + params["access_delay_ms"] / 1e3
        + bits / (params["bottleneck_rate_mbps"] * 1e6)
        + params["bottleneck_delay_ms"] / 1e3
    )


def udp_below_capacity(params: Mapping[str, Any]) -> bool:
    """Whether the CBR flow's packets never queue (sent slower than either link serves them)."""
    interval = params["packet_size"] * 8 / (params["udp_rate_mbps"] * 1e6)
    bits = wire_bytes(params) * 8
    return interval > bits / (params["bottleneck_rate_mbps"] * 1e6) and interval > bits / (
        params["access_rate_mbps"] * 1e6
    )


def expected_goodput(params: Mapping[str, Any]) -> float:
    """Application throughput (b/s) the hand calculation predicts.

    UDP below capacity: the sending rate times the delivered fraction (1 - error
    rate). TCP: the bottleneck is busy all the time, so the goodput is its rate
    times the application share of each frame, packet_size / wire_bytes (an upper
    bound that TCP reaches with a queue larger than the bandwidth-delay product
    and no random losses).
    """
    if params["protocol"] == "udp":
        rate = min(params["udp_rate_mbps"], params["bottleneck_rate_mbps"]) * 1e6
        return rate * (1.0 - params["error_rate"])
    return params["bottleneck_rate_mbps"] * 1e6 * params["packet_size"] / wire_bytes(params)


# --------------------------------------------------------------------------- per-run metrics


def analyse(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """One replication's tables: ``summary`` (:func:`summarise`), ``packets``, ``flows``."""
    packets, flows = raw["packets"], raw["flows"]
    return {
        "summary": pd.DataFrame([summarise(packets, flows, params)]),
        "packets": packets,
        "flows": flows,
    }


def summarise(
    packets: pd.DataFrame, flows: pd.DataFrame, params: Mapping[str, Any]
) -> dict[str, float]:
    """Goodput, delay, jitter and loss of one run (:mod:`transportlab.models.metrics`).

    Goodput counts application bytes received in (start + warmup, duration].
    ``loss_ratio`` is the UDP application's loss (packets sent and never
    received; the queues have drained when the simulation ends); NaN for TCP,
    which retransmits. ``ip_loss_ratio`` is the data flow's IP-level loss
    (FlowMonitor): for TCP the segments dropped by the queue or the error model.
    """
    delays = metrics.one_way_delay(packets)
    data = flows[flows["destination_port"] == SINK_PORT]
    tx, rx = int(data["tx_packets"].sum()), int(data["rx_packets"].sum())
    received = int((packets["event"] == "received").sum())
    return {
        "goodput_bps": metrics.average_throughput(
            packets, start=START_SECONDS + params["warmup"], end=params["duration"]
        ),
        "delay_mean_s": float(delays.mean()) if received else np.nan,
        "delay_min_s": float(delays.min()) if received else np.nan,
        "delay_max_s": float(delays.max()) if received else np.nan,
        "jitter_rfc3550_s": metrics.rfc3550_jitter(delays) if received > 1 else np.nan,
        # TCP delivers everything it accepted; BulkSend traces a packet as sent when
        # it builds it, also one the full socket refused when the application stops.
        "loss_ratio": metrics.loss_ratio(packets) if params["protocol"] == "udp" else np.nan,
        "ip_loss_ratio": metrics.loss_ratio(sent=tx, received=rx) if tx else np.nan,
        "packets_sent": int((packets["event"] == "sent").sum()),
        "packets_received": received,
    }
