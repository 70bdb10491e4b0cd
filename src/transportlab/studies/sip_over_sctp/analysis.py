"""Analysis of sip_over_sctp: per-run metrics, hand calculation, tables, comparison rows.

Not cached: changing anything here costs no simulation. ``analyse`` turns the raw
tables of one replication (:mod:`.scenario`) into the study's result tables:

``one_call``: ``messages`` (as recorded).
``single_session``: ``summary`` (registration, warm registration, call set-up and
    termination times; final statuses), ``transactions``, ``calls``.
``multi_session``: ``summary`` (completed, ended and failed calls, proxy
    transactions, time-outs, mean set-up and tear-down), ``calls``; with
    ``sctp_trace`` also ``chunk_timeline`` (one row per DATA chunk),
    ``associations`` (one row per association) and ``trace_summary`` (one row).
``throughput``: ``summary`` (goodput, utilisation, the header-overhead bound).
``hol``: ``summary`` (transfers completed, completion times, record delays),
    ``objects``, ``records``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine.stats import confidence_interval, summarise
from transportlab.studies.sip_over_sctp.parameters import (
    FIRST_CALL_AT,
    HOL_START,
    SCTP_TRACE_NODES,
    TCP_SEGMENT,
    THROUGHPUT_WARMUP,
)

# --------------------------------------------------------------------------- per-run metrics


def analyse(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """The result tables of one replication of ``params["scenario"]`` (module docstring)."""
    scenario = params["scenario"]
    if scenario == "one_call":
        return {"messages": raw["messages"]}
    if scenario == "single_session":
        return single_session(raw)
    if scenario == "multi_session":
        tables = multi_session(raw)
        if "sctp_chunks" in raw:
            tables.update(sctp_trace(raw, tables["summary"], FIRST_CALL_AT + params["window"]))
        return tables
    if scenario == "throughput":
        return throughput(raw, params)
    return head_of_line(raw, params)


def single_session(raw: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Transaction times of host A's caller a1 (the seed's section 5.3).

    Registration: a1's first REGISTER (with connection/association set-up) and the
    refresh (everything up). Call set-up: a1's INVITE transaction minus the answer
    delay the callee applied (the seed subtracted its manual answering time).
    Termination: a1's BYE transaction.
    """
    transactions, calls, registrations = raw["transactions"], raw["calls"], raw["registrations"]
    caller_reg = registrations[registrations["endpoint"] == "a1"].sort_values("end")
    clients = transactions[
        (transactions["endpoint"] == "host_a") & (transactions["role"] == "client")
    ]
    invite = clients[clients["method"] == "INVITE"]
    bye = clients[clients["method"] == "BYE"]
    callee = calls[calls["side"] == "callee"]
    answer_applied = float(callee["callee_answer_delay"].iloc[0]) if len(callee) else np.nan
    summary = {
        "registration_ms": caller_reg["duration"].iloc[0] * 1e3 if len(caller_reg) else np.nan,
        "registration_warm_ms": (
            caller_reg["duration"].iloc[1] * 1e3 if len(caller_reg) > 1 else np.nan
        ),
        "call_setup_s": (
            float(invite["duration"].iloc[0]) - answer_applied if len(invite) else np.nan
        ),
        "call_setup_with_answer_s": float(invite["duration"].iloc[0]) if len(invite) else np.nan,
        "call_termination_s": float(bye["duration"].iloc[0]) if len(bye) else np.nan,
        "invite_status": int(invite["status"].iloc[0]) if len(invite) else -1,
        "bye_status": int(bye["status"].iloc[0]) if len(bye) else -1,
    }
    return {"summary": pd.DataFrame([summary]), "transactions": transactions, "calls": calls}


def multi_session(raw: Mapping[str, pd.DataFrame]) -> dict[str, pd.DataFrame]:
    """Calls completed in the window (INVITE and BYE both answered 200) and what failed.

    The transaction table is not passed on: thousands of rows per run, all of which
    is in ``calls``.
    """
    transactions, calls, registrations = raw["transactions"], raw["calls"], raw["registrations"]
    callers = calls[calls["side"] == "caller"]
    completed = callers[(callers["invite_status"] == 200) & (callers["bye_status"] == 200)]
    proxy = transactions[(transactions["endpoint"] == "proxy") & (transactions["role"] == "server")]
    proxy_invites = proxy[(proxy["method"] == "INVITE") & (proxy["status"] == 200)]
    proxy_byes = proxy[(proxy["method"] == "BYE") & (proxy["status"] == 200)]
    caller_tx = transactions[
        (transactions["endpoint"] == "host_a")
        & (transactions["role"] == "client")
        & transactions["method"].isin(["INVITE", "BYE"])
    ]
    summary = {
        "completed_calls": len(completed),
        "calls_ended": len(callers),
        "failed_calls": int(
            ((callers["invite_status"] != 200) | (callers["bye_status"] != 200)).sum()
        ),
        "proxy_invite_transactions": len(proxy_invites),
        "proxy_bye_transactions": len(proxy_byes),
        "proxy_call_transactions": len(proxy_invites) + len(proxy_byes),
        "transaction_timeouts": int((caller_tx["outcome"] == "timeout").sum()),
        "mean_setup_s": float((completed["answered"] - completed["invite"]).mean())
        if len(completed)
        else np.nan,
        "mean_teardown_s": float((completed["bye_done"] - completed["bye_sent"]).mean())
        if len(completed)
        else np.nan,
        "registered": int((registrations["status"] == 200).sum()),
    }
    return {"summary": pd.DataFrame([summary]), "calls": calls}


#: RFC 3261 Timer B and F (64 T1 = 32 s): a SIP transaction gives up after this, over
#: any transport, while SCTP may still be retransmitting the message.
TIMER_B = 32.0


def chunk_timeline(chunks: pd.DataFrame, delivered: pd.DataFrame) -> pd.DataFrame:
    """One row per DATA chunk (TSN) a traced host sent: when, how often, when delivered.

    Columns: ``node`` (host name), ``socket``, ``tsn``, ``first_sent``, ``transmissions``,
    ``longest_wait`` (s, the longest time between two transmissions of the chunk: with
    T3-rtx the RTO in force, RFC 9260 6.3.3 E2 doubling it on each expiry),
    ``delivered`` (s, when the peer handed it to SIP; NaN: never in the window) and
    ``stall`` (delivered - first_sent). TSNs are matched between sender and receiver
    (initial TSNs are random 32-bit numbers, so TSNs of different associations do not
    collide in practice; a collision would be ambiguous and raises).
    """
    data = chunks[chunks["chunk"] == "DATA"].sort_values("time", kind="stable")
    grouped = data.groupby(["node", "socket", "tsn"], sort=False)["time"]
    table = grouped.agg(first_sent="min", transmissions="size").reset_index()
    waits = grouped.apply(lambda t: float(np.diff(t.to_numpy()).max()) if len(t) > 1 else 0.0)
    table["longest_wait"] = waits.to_numpy()
    if table["tsn"].duplicated().any():
        raise ValueError("two traced associations sent the same TSN: cannot match deliveries")
    first_delivery = delivered.groupby("tsn")["time"].min()
    table["delivered"] = table["tsn"].map(first_delivery)
    table["stall"] = table["delivered"] - table["first_sent"]
    table["node"] = table["node"].map(SCTP_TRACE_NODES).fillna(table["node"].astype(str))
    return table.sort_values(["node", "socket", "first_sent"]).reset_index(drop=True)


def late_for_timer_b(timeline: pd.DataFrame, end: float) -> pd.Series:
    """DATA chunks delivered more than Timer B (32 s) after they were first sent, or
    never delivered although sent more than 32 s before the end of the run ``end``
    (a chunk sent in the last 32 s that is still on its way is not counted)."""
    never = timeline["stall"].isna() & (timeline["first_sent"] <= end - TIMER_B)
    return (timeline["stall"] > TIMER_B) | never


def association_fate(chunks: pd.DataFrame, timeline: pd.DataFrame, end: float) -> pd.DataFrame:
    """One row per traced socket that sent DATA or set-up chunks: what became of it.

    Columns: ``node``, ``socket``, ``inits`` (INIT chunks sent: 1 per association it
    opened; more means a new association after an abort), ``aborts`` (ABORT chunks
    sent, e.g. Association.Max.Retrans exceeded, RFC 9260 8.1), ``data_chunks``,
    ``retransmissions``, ``max_transmissions``, ``longest_wait`` (s), ``over_timer_b``
    (chunks not delivered within 32 s, :func:`late_for_timer_b`: SIP's Timer B/F had
    expired before the message arrived).
    """
    kinds = chunks.assign(node=chunks["node"].map(SCTP_TRACE_NODES))
    counts = (
        kinds[kinds["chunk"].isin(["INIT", "ABORT"])]
        .groupby(["node", "socket", "chunk"])
        .size()
        .unstack(fill_value=0)
        .reindex(columns=["INIT", "ABORT"], fill_value=0)
        .rename(columns={"INIT": "inits", "ABORT": "aborts"})
    )
    late = late_for_timer_b(timeline, end)
    per = timeline.assign(rtx=timeline["transmissions"] - 1, late=late).groupby(["node", "socket"])
    data = per.agg(
        data_chunks=("tsn", "size"),
        retransmissions=("rtx", "sum"),
        max_transmissions=("transmissions", "max"),
        longest_wait=("longest_wait", "max"),
        over_timer_b=("late", "sum"),
    )
    table = counts.join(data, how="outer").fillna(0)
    for column in ("inits", "aborts", "data_chunks", "retransmissions", "max_transmissions"):
        table[column] = table[column].astype(np.int64)
    table["over_timer_b"] = table["over_timer_b"].astype(np.int64)
    table.columns.name = None
    return table.reset_index()


#: The columns of ``trace_summary``.
TRACE_SUMMARY_COLUMNS = (
    "data_chunks",
    "retransmitted_share",
    "max_transmissions",
    "longest_wait_s",
    "chunks_over_timer_b",
    "longest_silence_s",
    "aborts",
    "new_associations",
    "completed_calls",
    "transaction_timeouts",
)


def sctp_trace(
    raw: Mapping[str, pd.DataFrame], summary: pd.DataFrame, end: float
) -> dict[str, pd.DataFrame]:
    """The chunk timeline, the associations and a one-row summary of one traced run
    that ended at ``end`` (s).

    ``trace_summary``: DATA chunks, the share retransmitted, the most transmissions of
    one chunk, the longest wait between two of them, chunks that waited longer than
    Timer B (or were never delivered), the longest time in which no traced association
    sent a new DATA chunk (all calls stalled), associations aborted, and, from the SIP side,
    completed calls and transactions given up (time-outs).
    """
    timeline = chunk_timeline(raw["sctp_chunks"], raw["sctp_delivered"])
    fate = association_fate(raw["sctp_chunks"], timeline, end)
    late = late_for_timer_b(timeline, end)
    row = {
        "data_chunks": len(timeline),
        "retransmitted_share": float((timeline["transmissions"] > 1).mean())
        if len(timeline)
        else np.nan,
        "max_transmissions": int(timeline["transmissions"].max()) if len(timeline) else 0,
        "longest_wait_s": float(timeline["longest_wait"].max()) if len(timeline) else 0.0,
        "chunks_over_timer_b": int(late.sum()),
        # No association sent a new message for this long: every call was waiting.
        "longest_silence_s": float(np.diff(np.sort(timeline["first_sent"].to_numpy())).max())
        if len(timeline) > 1
        else np.nan,
        "aborts": int(fate["aborts"].sum()),
        "new_associations": int((fate["inits"] - 1).clip(lower=0).sum()),
        "completed_calls": int(summary["completed_calls"].iloc[0]),
        "transaction_timeouts": int(summary["transaction_timeouts"].iloc[0]),
    }
    return {
        "chunk_timeline": timeline,
        "associations": fate,
        "trace_summary": pd.DataFrame([row]),
    }


def throughput(
    raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]
) -> dict[str, pd.DataFrame]:
    """Goodput at the receiver after the warm-up, and the header-overhead bound."""
    counters = raw["counters"].iloc[0]
    received = int(counters["rx_bytes_at_end"]) - int(counters["rx_bytes_at_warmup"])
    rate_bps = params["lan_rate_mbps"] * 1e6
    goodput = received * 8 / (params["throughput_duration"] - THROUGHPUT_WARMUP)
    summary = {
        "goodput_mbps": goodput / 1e6,
        "utilisation": goodput / rate_bps,
        "wire_bound_mbps": wire_bound_bps(params["protocol"], params["message_size"], rate_bps)
        / 1e6,
    }
    return {"summary": pd.DataFrame([summary])}


def head_of_line(
    raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]
) -> dict[str, pd.DataFrame]:
    """Completion time of each transfer, from the first record written, and record delays.

    From the first record written, the connection or association is up: the
    hand-shake, lost or not, is the same for every configuration but tcp-per-object
    (``completion_with_setup_s`` counts from the start of the transfers).
    """
    completion = raw["objects"]["completion_ns"].to_numpy()
    records = raw["records"].copy()
    done = completion >= 0
    first_write = records["sent"].min() if len(records) else HOL_START
    times = np.where(done, completion / 1e9 - first_write, np.nan)
    with_setup = np.where(done, completion / 1e9 - HOL_START, np.nan)
    objects = pd.DataFrame(
        {
            "object": raw["objects"]["object"].to_numpy(),
            "completion_s": times,
            "completion_with_setup_s": with_setup,
        }
    )
    records["delay"] = records["delivered"] - records["sent"]
    summary = {
        "completed": int(done.sum()),
        "mean_completion_s": float(np.nanmean(times)) if done.any() else np.nan,
        "max_completion_s": float(np.nanmax(times)) if done.any() else np.nan,
        "min_completion_s": float(np.nanmin(times)) if done.any() else np.nan,
        "mean_record_delay_s": float(records["delay"].mean()) if len(records) else np.nan,
        "p99_record_delay_s": float(records["delay"].quantile(0.99)) if len(records) else np.nan,
    }
    return {"summary": pd.DataFrame([summary]), "objects": objects, "records": records}


# --------------------------------------------------------------------------- hand calculation

PPP, IPV4, UDP_HEADER, TCP_HEADER = 2, 20, 8, 32  # ns-3 TCP: 20 + 12 timestamp option
SCTP_COMMON, SCTP_DATA = 12, 16
MTU = 1500


def wire_bound_bps(protocol: str, message_size: int, rate_bps: float) -> float:
    """Goodput if the link is never idle and only headers take capacity (a hand
    calculation to check the simulation against; point-to-point framing, 2 bytes).

    UDP: a datagram of L bytes leaves as ceil((L+8)/1480) IP fragments. TCP: full
    1448-byte segments whatever the write size (BulkSend keeps the buffer full).
    SCTP: as many whole DATA chunks (16-byte header, padded to 4 bytes) as fit in a
    1500-byte packet (bundling), or, for messages above the MTU, fragments of
    1500-20-12-16 = 1452 bytes."""
    if protocol == "udp":
        datagram = message_size + UDP_HEADER
        fragments = -(-datagram // (MTU - IPV4))
        wire = datagram + fragments * (IPV4 + PPP)
        return rate_bps * message_size / wire
    if protocol == "tcp":
        return rate_bps * TCP_SEGMENT / (TCP_SEGMENT + TCP_HEADER + IPV4 + PPP)
    chunk = SCTP_DATA + message_size + (-message_size % 4)
    room = MTU - IPV4 - SCTP_COMMON
    if chunk <= room:
        per_packet = room // chunk
        wire = IPV4 + PPP + SCTP_COMMON + per_packet * chunk
        return rate_bps * per_packet * message_size / wire
    fragment = room - SCTP_DATA
    fragments = -(-message_size // fragment)
    wire = (
        fragments * (IPV4 + PPP + SCTP_COMMON + SCTP_DATA)
        + message_size
        + (-(message_size - (fragments - 1) * fragment) % 4)
    )
    return rate_bps * message_size / wire


# --------------------------------------------------------------------------- tables over runs


def message_flow(messages: pd.DataFrame, endpoint: str = "host_a") -> pd.DataFrame:
    """What ``endpoint`` sent and received in the one-call scenario, per protocol.

    ``messages`` is the ``messages`` table of the one_call points (a ``protocol``
    column, one run each). Columns: direction, kind, then ``<protocol> bytes`` (bytes
    of SIP text) and ``<protocol> ms`` (time, rounded to the microsecond) per protocol
    in the order they appear. Every protocol exchanges the same messages in the same
    order (checked).
    """
    per_protocol = {
        protocol: group[group["endpoint"] == endpoint].reset_index(drop=True)
        for protocol, group in messages.groupby("protocol", sort=False)
    }
    first = next(iter(per_protocol.values()))
    table = first[["direction", "kind"]].copy()
    for protocol, rows in per_protocol.items():
        if list(rows["kind"]) != list(table["kind"]):
            raise ValueError(f"{protocol}: other messages than {list(table['kind'])}")
        table[f"{protocol} bytes"] = rows["size"]
        table[f"{protocol} ms"] = (rows["time"] * 1e3).round(3)
    return table


def mean_message_size(messages: pd.DataFrame, protocol: str = "udp") -> float:
    """Mean size (bytes of SIP text) of every message any element sent over ``protocol``."""
    rows = messages[messages["protocol"] == protocol]
    return float(rows[rows["direction"] == "sent"]["size"].mean())


def calls_with_ci(summary: pd.DataFrame) -> pd.DataFrame:
    """Completed calls per protocol and loss rate: mean, 95 % CI, runs (sorted)."""
    table = summarise(summary, ["protocol", "loss_rate"], "completed_calls")
    return (
        table.drop(columns="metric").sort_values(["protocol", "loss_rate"]).reset_index(drop=True)
    )


def call_cycle(
    summary: pd.DataFrame, n_pairs: int, window: float, call_duration: float, call_interval: float
) -> pd.DataFrame:
    """Why a protocol completes fewer calls under loss: the length of one call cycle.

    Each of the ``n_pairs`` callers places its calls one after another: INVITE, set-up
    (to the 200 OK), ``call_duration`` of talk, BYE, tear-down (to the BYE's 200 OK),
    ``call_interval`` of pause. With the measured mean set-up and tear-down times,
    a caller completes about ``window / cycle`` calls, ``cycle = setup + call_duration
    + teardown + call_interval``; the prediction ``n_pairs * window / cycle`` ignores
    failed calls and the call cut by the window's end, so it is an upper estimate.
    If it tracks the completed calls across protocols and loss rates, the number of
    calls is set by how long each transaction takes to get through the loss (the
    transport's retransmission timers), not by calls being lost.
    Returns per protocol and loss rate the run means and the prediction.
    """
    columns = ["completed_calls", "mean_setup_s", "mean_teardown_s", "transaction_timeouts"]
    table = summary.groupby(["protocol", "loss_rate"])[columns].mean().reset_index()
    table["n_runs"] = summary.groupby(["protocol", "loss_rate"]).size().to_numpy()
    table["cycle_s"] = (
        table["mean_setup_s"] + call_duration + table["mean_teardown_s"] + call_interval
    )
    table["predicted_calls"] = n_pairs * window / table["cycle_s"]
    table["completed_per_predicted"] = table["completed_calls"] / table["predicted_calls"]
    return table


def crossings(summary: pd.DataFrame) -> list[tuple[float, str]]:
    """Loss rates (%) where SCTP - UDP completed calls changes sign, and which side SCTP leads.

    ``summary`` has columns ``loss_rate``, ``protocol`` and ``completed_calls``
    (several rows per loss rate and protocol are averaged). Between two loss rates
    where the difference has opposite signs the crossing is interpolated linearly;
    a zero difference between two of opposite sign counts once. Each crossing is
    ``(loss rate in %, rounded to 0.1, "SCTP ahead above" | "SCTP ahead below")``.
    """
    per_loss = summary.pivot_table(index="loss_rate", columns="protocol", values="completed_calls")
    if not {"sctp", "udp"} <= set(per_loss.columns):
        return []
    difference = (per_loss["sctp"] - per_loss["udp"]).to_numpy()
    losses = per_loss.index.to_numpy() * 100
    found = []
    for i in range(len(difference) - 1):
        a, b = difference[i], difference[i + 1]
        if a * b < 0 or (a == 0 and b != 0 and i > 0 and difference[i - 1] * b < 0):
            x = losses[i] + (losses[i + 1] - losses[i]) * a / (a - b)
            found.append((round(float(x), 1), "SCTP ahead above" if b > 0 else "SCTP ahead below"))
    return found


def crossings_per_run(summary: pd.DataFrame) -> dict[int, list[tuple[float, str]]]:
    """:func:`crossings` of each replication."""
    return {int(run): crossings(group) for run, group in summary.groupby("run")}


def mean_curves(summary: pd.DataFrame) -> pd.DataFrame:
    """Mean completed calls per loss rate and protocol (columns loss_rate, protocol, mean)."""
    return summary.groupby(["loss_rate", "protocol"])["completed_calls"].mean().reset_index()


def crossover_loss_rate(summary: pd.DataFrame) -> float:
    """The seed's crossover: the loss rate (%) above which SCTP completes more calls than
    UDP, read off the mean curves; NaN if there is none."""
    above = [x for x, side in crossings(mean_curves(summary)) if side == "SCTP ahead above"]
    return above[0] if above else np.nan


def relative_to_lowest_loss(table: pd.DataFrame) -> pd.DataFrame:
    """Each column divided by its value at the lowest loss rate (the first row)."""
    return table / table.iloc[0]


# --------------------------------------------------------------------------- shape of Table 5.3


def relative_to_five_percent(summary: pd.DataFrame) -> pd.DataFrame:
    """Completed calls at each loss rate above the lowest divided by the same run's
    count at the lowest loss rate (5 %), per protocol: mean, 95 % CI, runs.

    The ratio is taken per replication (run r at 20 % over run r at 5 %, the same
    ns-3 RngRun) so that the interval covers the ratio itself. A run whose count at the
    lowest loss is 0 gives no ratio.
    """
    rows = []
    for protocol, group in summary.groupby("protocol", sort=True):
        counts = group.pivot_table(index="run", columns="loss_rate", values="completed_calls")
        base = counts[counts.columns.min()].replace(0, np.nan)
        for loss in counts.columns[1:]:
            mean, low, high, n = confidence_interval(counts[loss] / base)
            rows.append({
                "protocol": protocol, "loss_rate": float(loss), "mean": mean,
                "ci_low": low, "ci_high": high, "n_runs": n,
            })  # fmt: skip
    return pd.DataFrame(
        rows, columns=["protocol", "loss_rate", "mean", "ci_low", "ci_high", "n_runs"]
    )
