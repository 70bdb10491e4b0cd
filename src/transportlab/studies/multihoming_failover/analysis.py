"""Analysis of multihoming_failover: RFC 9260 timer bounds, stalls, voice metrics.

Not cached: changing anything here costs no simulation. :func:`analyse` turns the raw
tables of one replication (``scenario.py``) into the result tables; the functions after
it summarise a sweep's analysed tables for the notebook and ``reproduction.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.studies.multihoming_failover.parameters import DELAY_BUDGET, LOSS_START, START

STALL_COLUMNS = ["begin", "end", "length"]

# --------------------------------------------------------------------------- RFC 9260 timers


def failover_window(path_max_retrans: int, rto: float, rto_max: float) -> tuple[float, float]:
    """When the primary becomes inactive after a failure, by the RFC 9260 timers.

    The (Path.Max.Retrans + 1)-th consecutive T3-rtx expiry marks it inactive (8.2).
    The RTO is ``rto`` at the failure and doubles at each expiry (6.3.3 E2, capped at
    RTO.Max); the first expiry comes at most one RTO after the failure (the timer runs
    from the last acknowledgement), at the earliest just after it. Returns
    ``(earliest, latest)`` seconds after the failure.
    """
    backoffs = [min(rto * 2**i, rto_max) for i in range(path_max_retrans + 1)]
    after_first = sum(backoffs[1:])
    return after_first, after_first + backoffs[0]


def return_bound(hb_interval: float, rto_max: float, rtt: float) -> float:
    """Latest return of a repaired path after the repair (RFC 9260 8.3).

    The next HEARTBEAT to an inactive destination leaves within HB.interval + RTO
    (jitter +50 %, RTO at most RTO.Max), its answer one RTT later.
    """
    return hb_interval + 1.5 * rto_max + rtt


# --------------------------------------------------------------------------- delivery gaps


def delivery_gaps(times: np.ndarray, start: float, end: float) -> np.ndarray:
    """Gaps between consecutive deliveries, including start -> first and last -> end."""
    t = np.concatenate(([start], np.sort(np.asarray(times, dtype=float)), [end]))
    return np.diff(t)


def stall_table(times: np.ndarray, start: float, end: float, threshold: float) -> pd.DataFrame:
    """Delivery gaps longer than ``threshold``: begin, end, length."""
    t = np.concatenate(([start], np.sort(np.asarray(times, dtype=float)), [end]))
    gaps = np.diff(t)
    long = gaps > threshold
    return pd.DataFrame({"begin": t[:-1][long], "end": t[1:][long], "length": gaps[long]})


# --------------------------------------------------------------------------- per replication


def analyse(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """One replication's result tables.

    failover and lossy: ``summary`` (one row: :func:`transfer_summary`), ``deliveries``
    (time, TSN and size of every message delivered at B: TSN-versus-time plots),
    ``stalls`` (delivery gaps longer than ``stall_threshold``, from the failure on, or
    from the first delivery when lossy), ``paths`` (A's path events). prsctp:
    ``summary`` (one row: :func:`voice_summary`) and ``delays`` (one row per voice frame
    sent once the loss started: send time, receive time, delay; NaN if lost).
    """
    if params["scenario"] == "prsctp":
        frames = voice_frames(raw["packets"])
        return {
            "summary": pd.DataFrame([voice_summary(raw["packets"], frames)]),
            "delays": frames,
        }
    chunks, paths, delivered = raw["chunks"], raw["paths"], raw["delivered"]
    deliveries = delivered[delivered.node == 1][["time", "tsn", "size"]].reset_index(drop=True)
    data = chunks[(chunks.node == 0) & (chunks.chunk == "DATA")]
    a_paths = paths[paths.node == 0]
    window_start = _stall_window_start(deliveries, params)
    stalls = (
        stall_table(
            deliveries_after(deliveries, window_start),
            window_start,
            params["duration"],
            params["stall_threshold"],
        )
        if np.isfinite(window_start)
        else pd.DataFrame(columns=STALL_COLUMNS)
    )
    return {
        "summary": pd.DataFrame([transfer_summary(deliveries, data, a_paths, params)]),
        "deliveries": deliveries,
        "stalls": stalls,
        "paths": a_paths.reset_index(drop=True),
    }


def _stall_window_start(deliveries: pd.DataFrame, params: Mapping[str, Any]) -> float:
    """Stalls count from the failure (failover) or the first delivery (lossy; NaN if none)."""
    if params["scenario"] == "failover":
        return params["fail_at"]
    return deliveries.time.min() if len(deliveries) else np.nan


def deliveries_after(deliveries: pd.DataFrame, start: float) -> np.ndarray:
    return deliveries.time[deliveries.time >= start].to_numpy()


def transfer_summary(
    deliveries: pd.DataFrame, data: pd.DataFrame, a_paths: pd.DataFrame, p: Mapping[str, Any]
) -> dict[str, Any]:
    """Goodput, retransmissions and delivery stalls of one failover or lossy run.

    ``deliveries``: messages delivered at B; ``data``: DATA chunks A sent; ``a_paths``:
    A's path events. ``max_stall_s`` is the longest delivery gap from the stall window's
    start (failure, or first delivery) to the end of the run, so a stall still running
    at the end is cut there. ``association_failed``: nothing delivered in the last 5 s.
    failover adds ``failover_s`` (failure -> primary unreachable), ``resume_s`` (failure
    -> next delivery), ``return_s`` (repair -> primary available again) and
    ``data_chunks_secondary`` (DATA chunks sent to another path than the primary).
    """
    failover = p["scenario"] == "failover"
    window_start = _stall_window_start(deliveries, p)
    gaps = (
        delivery_gaps(deliveries_after(deliveries, window_start), window_start, p["duration"])
        if np.isfinite(window_start)
        else np.array([])
    )
    n_stalls = int((gaps > p["stall_threshold"]).sum())
    summary = {
        "delivered_bytes": int(deliveries["size"].sum()),
        "goodput_mbps": float(deliveries["size"].sum() * 8 / 1e6 / (p["duration"] - START)),
        "data_chunks": len(data),
        "retransmissions": int(data.retransmission.sum()),
        "first_retransmission_s": float(data.time[data.retransmission].min() - START)
        if data.retransmission.any()
        else np.nan,
        "max_stall_s": float(gaps.max()) if len(gaps) else np.nan,
        "n_stalls": n_stalls,
        "association_failed": bool(
            p["duration"] - (deliveries.time.max() if len(deliveries) else 0) > 5.0
        ),
    }
    if failover:
        unreachable = a_paths[(a_paths.path == 0) & (a_paths.event == "UNREACHABLE")].time
        available = a_paths[(a_paths.path == 0) & (a_paths.event == "AVAILABLE")].time
        resumed = deliveries.time[deliveries.time > p["fail_at"]]
        summary |= {
            "failover_s": float(unreachable.min() - p["fail_at"]) if len(unreachable) else np.nan,
            "resume_s": float(resumed.min() - p["fail_at"]) if len(resumed) else np.nan,
            "return_s": float(available.min() - p["repair_at"])
            if p["repair_at"] and len(available)
            else np.nan,
            "data_chunks_secondary": int((data.path != 0).sum()),
        }
    return summary


def voice_frames(packets: pd.DataFrame) -> pd.DataFrame:
    """One row per voice frame sent once the loss started: seq, sent, received, delay_s.

    A frame received twice (never with SCTP; UDP does not duplicate) counts at its first
    arrival; ``received`` and ``delay_s`` are NaN for a frame that never arrived.
    """
    sent = packets[packets.event == "sent"].set_index("seq")
    received = packets[packets.event == "received"].drop_duplicates("seq").set_index("seq")
    sent = sent[sent.time >= LOSS_START]
    frames = pd.DataFrame({"sent": sent.time})
    frames["received"] = received.time.reindex(frames.index)
    frames["delay_s"] = frames.received - frames.sent
    return frames.reset_index()


def voice_summary(packets: pd.DataFrame, frames: pd.DataFrame) -> dict[str, Any]:
    """Residual loss, frames late or lost (over the G.114 budget), delay percentiles."""
    delays = frames.delay_s.dropna().to_numpy()
    n = len(frames)
    received = packets[packets.event == "received"]
    return {
        "frames_sent": n,
        "frames_received": len(delays),
        "residual_loss": 1 - len(delays) / n if n else np.nan,
        "late_or_lost": float(((frames.delay_s > DELAY_BUDGET) | frames.delay_s.isna()).mean()),
        "delay_mean_ms": float(delays.mean() * 1e3) if len(delays) else np.nan,
        "delay_p95_ms": float(np.percentile(delays, 95) * 1e3) if len(delays) else np.nan,
        "delay_p99_ms": float(np.percentile(delays, 99) * 1e3) if len(delays) else np.nan,
        "delay_max_ms": float(delays.max() * 1e3) if len(delays) else np.nan,
        "duplicates": int(len(received) - len(received.drop_duplicates("seq"))),
    }


# --------------------------------------------------------------------------- sweep summaries


def timer_table(summary: pd.DataFrame, rtt: float) -> pd.DataFrame:
    """Failover and return times of a failover sweep against their RFC 9260 bounds.

    Adds to ``summary`` (one row per run) the timer window of :func:`failover_window`
    (``window_low_s``, ``window_high_s``), whether the failover fell inside it
    (``in_window``), and for runs with a repair the bound of :func:`return_bound` for a
    path of round-trip time ``rtt`` (``return_bound_s``; NaN without a repair).
    """
    table = summary.copy()
    windows = [
        failover_window(pmr, rto_min, rto_max)
        for pmr, rto_min, rto_max in zip(
            table.path_max_retrans, table.rto_min, table.rto_max, strict=True
        )
    ]
    table["window_low_s"] = [w[0] for w in windows]
    table["window_high_s"] = [w[1] for w in windows]
    table["in_window"] = (table.failover_s > table.window_low_s) & (
        table.failover_s <= table.window_high_s
    )
    table["return_bound_s"] = [
        return_bound(hb, rto_max, rtt) if repair else np.nan
        for hb, rto_max, repair in zip(
            table.hb_interval, table.rto_max, table.repair_at, strict=True
        )
    ]
    return table


def stall_summary(summary: pd.DataFrame, stalls: pd.DataFrame) -> pd.DataFrame:
    """Per homing (single/multi): runs, goodput, longest stall per run, first loss, stalls.

    ``max_stall_*``: mean and median over the runs of each run's longest delivery gap;
    ``first_retransmission_s``: mean time of the first retransmission after the start;
    ``stalls_per_run``: gaps longer than the threshold per run;
    ``runs_with_stall_over_3s``: runs whose longest gap exceeds seed 002's 3 s.
    """
    table = summary.groupby("homing").agg(
        runs=("run", "size"),
        goodput_kbps=("goodput_mbps", lambda x: 1000 * x.mean()),
        max_stall_mean_s=("max_stall_s", "mean"),
        max_stall_median_s=("max_stall_s", "median"),
        first_retransmission_s=("first_retransmission_s", "mean"),
    )
    table["stalls_per_run"] = stalls.groupby("homing").size() / table.runs
    table["runs_with_stall_over_3s"] = (
        summary.assign(over=summary.max_stall_s > 3).groupby("homing").over.sum()
    )
    return table


def voice_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per loss rate and policy (``policy(pr_value)``): residual loss, late or lost, delays.

    Percentages and delays are means over the runs, except ``delay_max_ms`` (the
    largest over the runs).
    """
    v = summary.copy()
    v["policy"] = v.policy + v.pr_value.map(lambda x: f"({x})")
    return v.groupby(["loss_rate", "policy"], sort=False).agg(
        runs=("run", "size"),
        residual_loss_pct=("residual_loss", lambda x: 100 * x.mean()),
        late_or_lost_pct=("late_or_lost", lambda x: 100 * x.mean()),
        delay_mean_ms=("delay_mean_ms", "mean"),
        delay_p99_ms=("delay_p99_ms", "mean"),
        delay_max_ms=("delay_max_ms", "max"),
    )
