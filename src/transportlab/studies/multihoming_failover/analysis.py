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

from transportlab.engine import stats
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


def gap_containing(times: np.ndarray, t: float, start: float, end: float) -> float:
    """Length of the delivery gap in which ``t`` falls.

    ``times`` are the delivery times; the gap runs from the last delivery at or before
    ``t`` (``start`` if none) to the first one after it (``end`` if none). For a packet
    lost at ``t`` on its way to an in-order receiver this is the interruption that loss
    caused: nothing after the lost packet can be delivered until its retransmission
    arrives (longer if the retransmission is lost too).
    """
    t_sorted = np.sort(np.asarray(times, dtype=float))
    i = int(np.searchsorted(t_sorted, t, side="right"))
    before = t_sorted[i - 1] if i > 0 else start
    after = t_sorted[i] if i < len(t_sorted) else end
    return float(after - before)


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
        "summary": pd.DataFrame(
            [transfer_summary(deliveries, data, a_paths, params, raw.get("losses"))]
        ),
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
    deliveries: pd.DataFrame,
    data: pd.DataFrame,
    a_paths: pd.DataFrame,
    p: Mapping[str, Any],
    losses: pd.DataFrame | None = None,
) -> dict[str, Any]:
    """Goodput, retransmissions and delivery stalls of one failover or lossy run.

    ``deliveries``: messages delivered at B; ``data``: DATA chunks A sent; ``a_paths``:
    A's path events. ``max_stall_s`` is the longest delivery gap from the stall window's
    start (failure, or first delivery) to the end of the run, so a stall still running
    at the end is cut there. ``association_failed``: nothing delivered in the last 5 s.
    ``mean_stall_s``: the mean length of the run's stalls (gaps longer than
    ``stall_threshold``; NaN without one).

    With ``losses`` (lossy runs: the packets the loss model dropped, ``point``
    "lost_to_b" for A's DATA packets, "lost_to_a" for B's SACKs): ``first_loss_s``, when
    the first DATA packet was lost, after the start of the transfer (seed 002 3.5: "after
    approximately 1.5 seconds of transmission, the slow start phase is interrupted by a
    first lost packet"); ``first_loss_stall_s``, the delivery gap that loss caused
    (:func:`gap_containing`: the seed's "the transmission is halted for more than 3
    seconds" / "interrupted for only about 0.5 seconds"); ``first_loss_any_s``, the
    first lost packet of either direction (a SACK or DATA); ``lost_data_packets`` and
    ``lost_sacks``.

    failover adds ``failover_s`` (failure -> primary unreachable), ``pf_s`` (failure ->
    primary potentially failed, RFC 7829; NaN without SCTP-PF), ``resume_s`` (failure ->
    next delivery), ``resume_path`` (the path of the transmission that delivered it),
    ``return_s`` (repair -> primary available again), ``data_chunks_secondary`` (DATA
    chunks sent to another path than the primary), ``retransmissions_after_failure``
    and ``new_data_to_primary`` (DATA chunks first sent after the failure that went to
    the dead primary: lost, each to be retransmitted after a timeout).
    """
    failover = p["scenario"] == "failover"
    window_start = _stall_window_start(deliveries, p)
    gaps = (
        delivery_gaps(deliveries_after(deliveries, window_start), window_start, p["duration"])
        if np.isfinite(window_start)
        else np.array([])
    )
    n_stalls = int((gaps > p["stall_threshold"]).sum())
    stall_lengths = gaps[gaps > p["stall_threshold"]]
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
        "mean_stall_s": float(stall_lengths.mean()) if n_stalls else np.nan,
        "association_failed": bool(
            p["duration"] - (deliveries.time.max() if len(deliveries) else 0) > 5.0
        ),
    }
    if losses is not None:
        lost_data = losses.time[losses.point == "lost_to_b"].to_numpy()
        first = float(lost_data.min()) if len(lost_data) else np.nan
        summary |= {
            "first_loss_s": first - START,
            "first_loss_stall_s": gap_containing(deliveries.time, first, START, p["duration"])
            if len(lost_data)
            else np.nan,
            "first_loss_any_s": float(losses.time.min()) - START if len(losses) else np.nan,
            "lost_data_packets": len(lost_data),
            "lost_sacks": int((losses.point == "lost_to_a").sum()),
        }
    if failover:
        unreachable = a_paths[(a_paths.path == 0) & (a_paths.event == "UNREACHABLE")].time
        available = a_paths[(a_paths.path == 0) & (a_paths.event == "AVAILABLE")].time
        pf = a_paths[(a_paths.path == 0) & (a_paths.event == "POTENTIALLY_FAILED")].time
        pf = pf[pf >= p["fail_at"]]
        resumed = deliveries[deliveries.time > p["fail_at"]]
        after = data[data.time >= p["fail_at"]]
        new_after = after[~after.retransmission]
        summary |= {
            "failover_s": float(unreachable.min() - p["fail_at"]) if len(unreachable) else np.nan,
            "pf_s": float(pf.min() - p["fail_at"]) if len(pf) else np.nan,
            "resume_s": float(resumed.time.min() - p["fail_at"]) if len(resumed) else np.nan,
            "resume_path": _delivering_path(data, resumed.iloc[0]) if len(resumed) else -1,
            "retransmissions_after_failure": int(after.retransmission.sum()),
            "new_data_to_primary": int((new_after.path == 0).sum()),
            "return_s": float(available.min() - p["repair_at"])
            if p["repair_at"] and len(available)
            else np.nan,
            "data_chunks_secondary": int((data.path != 0).sum()),
        }
    return summary


def _delivering_path(data: pd.DataFrame, delivery: pd.Series) -> int:
    """Path of the last transmission of the delivered TSN before its delivery (-1: none)."""
    sent = data[(data.tsn == delivery.tsn) & (data.time <= delivery.time)]
    return int(sent.path.iloc[-1]) if len(sent) else -1


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


def lossy_config(summary: pd.DataFrame) -> pd.Series:
    """Configuration label of each lossy run: single-homed, multi-homed, multi-homed + PF."""
    pf = summary.pf_max_retrans < summary.path_max_retrans
    return summary.homing.map({"single": "single-homed", "multi": "multi-homed"}).where(
        ~pf, summary.homing + "-homed + SCTP-PF"
    )


def stall_summary(summary: pd.DataFrame) -> pd.DataFrame:
    """Per configuration (:func:`lossy_config`): runs (``n_runs``), goodput, first loss, stalls.

    ``first_loss_s``: mean time of the first lost DATA packet after the start
    (``first_loss_any_s``: of the first lost packet, DATA or SACK);
    ``first_loss_stall_s``: mean (over the runs) of the delivery gap that loss caused,
    the statistic seed 002 3.5 reports; ``mean_stall_s``: mean over the runs of each
    run's mean stall; ``max_stall_*``: mean and median over the runs of each run's
    longest delivery gap; ``stalls_per_run``: gaps longer than the threshold per run;
    ``first_retransmission_s``: mean time of the first retransmission (the old "first
    loss" measure, a recovery time later than the loss).
    """
    runs = summary.assign(config=lossy_config(summary))
    table = runs.groupby("config", sort=False).agg(
        n_runs=("run", "size"),
        goodput_kbps=("goodput_mbps", lambda x: 1000 * x.mean()),
        first_loss_s=("first_loss_s", "mean"),
        first_loss_any_s=("first_loss_any_s", "mean"),
        first_loss_stall_s=("first_loss_stall_s", "mean"),
        mean_stall_s=("mean_stall_s", "mean"),
        max_stall_mean_s=("max_stall_s", "mean"),
        max_stall_median_s=("max_stall_s", "median"),
        first_retransmission_s=("first_retransmission_s", "mean"),
        stalls=("n_stalls", "sum"),
    )
    table["stalls_per_run"] = table.pop("stalls") / table.n_runs
    return table


#: The per-run columns of ``lossy_runs.csv`` (:func:`lossy_runs`), after ``config, run``.
RUN_COLUMNS = [
    "first_loss_s", "first_loss_stall_s", "first_loss_any_s", "first_retransmission_s",
    "max_stall_s", "mean_stall_s", "n_stalls", "goodput_mbps", "lost_data_packets", "lost_sacks",
]  # fmt: skip
#: Brennan et al.'s "the transmission is halted for more than 3 seconds" (seed 002 3.5).
BRENNAN_STALL_S = 3.0


def lossy_runs(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per lossy run: ``config`` (:func:`lossy_config`), ``run`` and
    :data:`RUN_COLUMNS`: the per-run values behind ``lossy_stalls.csv``, which
    distribution statistics (probabilities, bootstrap intervals) need."""
    runs = summary.assign(config=lossy_config(summary))
    return (
        runs[["config", "run", *RUN_COLUMNS]]
        .sort_values(
            ["config", "run"], key=lambda c: c.map(_CONFIG_ORDER) if c.name == "config" else c
        )
        .reset_index(drop=True)
    )


_CONFIG_ORDER = {"single-homed": 0, "multi-homed": 1, "multi-homed + SCTP-PF": 2}


def stall_exceedance(runs: pd.DataFrame, threshold: float = BRENNAN_STALL_S) -> pd.DataFrame:
    """Per configuration of the per-run table (:func:`lossy_runs`): the share of runs
    whose stall after the first DATA loss exceeds ``threshold`` (``p_above``, exact
    Clopper-Pearson interval, :func:`transportlab.engine.stats.exceedance_probability`),
    and that stall's mean with its percentile bootstrap interval (never below zero, unlike
    Student's t on these skewed durations, :func:`transportlab.engine.stats.bootstrap_interval`)
    and median. Seed 002's "> 3 s" is one trace: an event whose probability our runs give.
    """
    rows = []
    for config, group in runs.groupby("config", sort=False):
        values = group["first_loss_stall_s"]
        p, p_low, p_high, k, n = stats.exceedance_probability(values, threshold)
        mean, low, high, _ = stats.bootstrap_interval(values)
        rows.append({
            "config": config, "threshold_s": threshold, "runs_above": k, "n_runs": n,
            "p_above": p, "p_ci_low": p_low, "p_ci_high": p_high, "stall_mean_s": mean,
            "stall_boot_low_s": low, "stall_boot_high_s": high,
            "stall_median_s": float(values.median()), "stall_max_s": float(values.max()),
        })  # fmt: skip
    return pd.DataFrame(rows)


def voice_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per loss rate and policy (``policy(pr_value)``): residual loss, late or lost, delays.

    Percentages and delays are means over the runs, except ``delay_max_ms`` (the
    largest over the runs).
    """
    v = summary.copy()
    v["policy"] = v.policy + v.pr_value.map(lambda x: f"({x})")
    return v.groupby(["loss_rate", "policy"], sort=False).agg(
        n_runs=("run", "size"),
        residual_loss_pct=("residual_loss", lambda x: 100 * x.mean()),
        late_or_lost_pct=("late_or_lost", lambda x: 100 * x.mean()),
        delay_mean_ms=("delay_mean_ms", "mean"),
        delay_p99_ms=("delay_p99_ms", "mean"),
        delay_max_ms=("delay_max_ms", "max"),
    )
