"""Analysis of the message interleaving study: per-message latency and head-of-line
blocking of the small messages (not cached: changing anything here costs no simulation).

The latency of a message is the time from the moment the sending application produced
it (its scheduled time, before any queueing in the application or the transport) to the
moment the receiving application had all of it (ns-3's PacketSink reporting the whole
message). Only the small messages produced in the measurement window
``[first message + warmup, duration)`` count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from transportlab.studies.message_interleaving.parameters import (
    FIRST_MESSAGE_SECONDS,
    LARGE_STREAM,
    SMALL_STREAM,
)

#: Percentiles of the small messages' latency each run reports.
PERCENTILES = (50, 95, 99)


def delivery_table(messages: pd.DataFrame, packets: pd.DataFrame) -> pd.DataFrame:
    """Every message produced with its delivery: the columns of ``messages`` (``seq, time,
    size, stream``) and ``delivered`` (s; NaN if it never arrived) and ``latency`` (s)."""
    received = packets[packets["event"] == "received"]
    if received["seq"].duplicated().any():
        raise ValueError("a message was delivered twice")
    delivered = received.set_index("seq")["time"]
    table = messages.copy()
    table["delivered"] = table["seq"].map(delivered).astype(float)
    table["latency"] = table["delivered"] - table["time"]
    return table


def overtaking(deliveries: pd.DataFrame) -> pd.DataFrame:
    """For each small message of ``deliveries`` (:func:`delivery_table`): ``exposed``, a
    large message was pending when it was produced (produced before it, not yet
    delivered), and ``overtook``, it was delivered before the oldest such large message
    (NaN when not exposed or never delivered). Head-of-line blocking between messages
    is ``overtook`` = 0: the transport keeps the order in which the messages were
    produced across streams (DATA with FCFS, one TCP byte stream)."""
    large = deliveries[deliveries["stream"] == LARGE_STREAM].sort_values("time")
    small = deliveries[deliveries["stream"] == SMALL_STREAM]
    large_time = large["time"].to_numpy()
    large_done = large["delivered"].fillna(np.inf).to_numpy()
    exposed, overtook = {}, {}
    for index, time, delivered in zip(small.index, small["time"], small["delivered"], strict=True):
        pending = np.flatnonzero((large_time <= time) & (large_done > time))
        exposed[index] = float(pending.size > 0)
        if pending.size == 0 or np.isnan(delivered):
            overtook[index] = np.nan
        else:
            overtook[index] = float(delivered < large_done[pending[0]])
    return pd.DataFrame(
        {"exposed": pd.Series(exposed, dtype=float), "overtook": pd.Series(overtook, dtype=float)}
    ).reindex(small.index)


def in_window(deliveries: pd.DataFrame, params: Mapping[str, Any]) -> pd.Series:
    """Messages produced in the measurement window."""
    start = FIRST_MESSAGE_SECONDS + params["warmup"]
    return (deliveries["time"] >= start) & (deliveries["time"] < params["duration"])


def latency_summary(
    latencies: Sequence[float] | np.ndarray, percentiles: Sequence[int] = PERCENTILES
) -> dict[str, float]:
    """Mean, percentiles (numpy's linear interpolation) and maximum in ms of the latencies
    (s) of the delivered messages (NaN entries: not delivered, left out)."""
    x = np.asarray(latencies, dtype=float)
    x = x[np.isfinite(x)] * 1e3
    out = {"latency_mean_ms": float(x.mean()) if x.size else np.nan}
    for p in percentiles:
        out[f"latency_p{p}_ms"] = float(np.percentile(x, p)) if x.size else np.nan
    out["latency_max_ms"] = float(x.max()) if x.size else np.nan
    return out


def analyse(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """One replication's tables: ``summary`` (one row), ``small`` (every small message
    of the window: seq, time, delivered, latency, exposed, overtook) and ``sender``."""
    deliveries = delivery_table(raw["messages"], raw["packets"])
    window = in_window(deliveries, params)
    small = deliveries[(deliveries["stream"] == SMALL_STREAM) & window].copy()
    small[["exposed", "overtook"]] = overtaking(deliveries).reindex(small.index)
    large = deliveries[(deliveries["stream"] == LARGE_STREAM) & window]
    summary = {
        "small_messages": len(small),
        "small_delivered": int(small["delivered"].notna().sum()),
        **latency_summary(small["latency"]),
        # produced while a large message was pending, and of those the share that
        # arrived before it
        "exposed_fraction": float(small["exposed"].mean()),
        "overtook_fraction": float(small["overtook"].mean()),
        "large_messages": len(large),
        "large_delivered": int(large["delivered"].notna().sum()),
        "large_latency_mean_ms": float(large["latency"].mean() * 1e3),
        "send_errors": int(raw["sender"]["send_errors"].iloc[0]),
        "idata_negotiated": bool(raw["sender"]["idata_negotiated"].iloc[0]),
        # DATA chunks the sender sent (SCTP; 0 for TCP): an association that sends
        # I-DATA sends none.
        "data_chunks": int(raw["chunks"].loc[raw["chunks"]["chunk"] == "DATA", "count"].sum()),
    }
    return {
        "summary": pd.DataFrame([summary]),
        "small": small[["seq", "time", "delivered", "latency", "exposed", "overtook"]].reset_index(
            drop=True
        ),
        "sender": raw["sender"],
    }
