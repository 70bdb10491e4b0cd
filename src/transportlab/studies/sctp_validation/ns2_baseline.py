"""NS-2.35's SCTP as a second reference beside usrsctp: the validation scenarios NS-2 can
express, in NS-2.35's ``Agent/SCTP`` and in our model started from NS-2.35's defaults.

Two cached run steps over the same points (:data:`EXPERIMENT`: every scenario of the
mode that :func:`.ns2_scenario.ns2_problem` accepts): :data:`STUDY_NS2` runs the
scenario in NS-2.35 (:func:`.ns2_scenario.run`, losses by NS-2's list error model),
:data:`STUDY_NS3` on the ns-3 model with ``SctpStackHelper::GetNs2Defaults("2.35")``
set first and the scenario's own settings after them (:func:`.scenario.run_ns2_defaults`),
so both simulators start from the same configuration. Both are deterministic: one run
per scenario (NS-2's drop list takes more NS-2 runs to find; ``ns2_runs`` counts them).

:func:`baseline_table` gives one row per scenario with, per metric of the study
(:data:`METRICS`), NS-2's value, ours, and whether they agree within the study's
tolerance (:data:`~.stacks.COMPLETION_TOLERANCE`, 10 %): completion time and the cwnd
trajectory (:func:`~.differences.cwnd_difference`, NS-2's as the reference) within 10 %;
counts (fast and T3 retransmissions, T3 expiries, queue drops) within 10 % of the larger
(equal below 10). :func:`chunk_traces` puts the chunks both send on one scenario side by
side (NS-2's trace, a pcap of ours decoded by tshark): the experiment that explains a
difference.

NS-2.35's cwnd rules (``sctp/sctp.cc``) are named differences too (:data:`CWND_RULES`):
its idle decay with data outstanding (:func:`idle_decays`, undone on NS-2's trace by
:func:`without_idle_decay`), and the model's cwnd increases NS-2's ``AdjustCwnd`` would
refuse (:func:`refused_growth`, undone on the model's trace by :func:`with_ns2_growth`;
the model's ``UtilizationAtCwnd`` attribute, RFC 9260 7.2.2's flight-size test, is the
controlled change of one of them, :func:`utilization_at_cwnd_diff`). ``cum_ack_growth``
is decided by a model run: :func:`ns2_rules_run` runs the model with every attribute that
applies one of NS-2's rules (:data:`NS2_RULES`, ``CwndGrowthOnCumAckOnly`` among them)
and names it only where every metric then agrees; where something still differs,
:func:`cwnd_parting` says where the two cwnd trajectories part next.

:func:`first_sack_experiment` runs the scenarios that the ``first_data_sack`` difference
explains again with the model's ``ImmediateFirstSack`` attribute on (RFC 9260 5.1: SACK
the first DATA chunk at once, as NS-2.35 does; the model's default is off until the
SCTP studies are re-run with it).

``python -m transportlab.studies.sctp_validation.ns2_baseline [--quick]`` writes
``data/results[/quick]/sctp_validation/ns2_baseline.csv``;
``... ns2_baseline --first-sack`` writes ``ns2_first_sack.csv`` from the committed
``ns2_baseline.csv`` of the mode (both atomically, each recorded in the folder's
``provenance.json``).
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import files, paths, provenance
from transportlab.engine.results import Results
from transportlab.engine.study import Experiment, Reproduction
from transportlab.ns2 import runner
from transportlab.ns2.study import ns2_study
from transportlab.ns3.sctp_ns2_rules import (
    IMMEDIATE_FIRST_SACK,
    NS2_RULES,
    UTILIZATION_AT_CWND,
)
from transportlab.studies.sctp_validation import STUDY, ns2_scenario, scenario, stacks
from transportlab.studies.sctp_validation.differences import cwnd_difference

__all__ = [
    "EXPERIMENT",
    "METRICS",
    "STUDY_NS2",
    "STUDY_NS3",
    "DIFFERENCES",
    "agreement_counts",
    "baseline_table",
    "chunk_traces",
    "compare_pair",
    "explain_remaining",
    "idle_decays",
    "refused_growth",
    "still_differing",
    "utilization_at_cwnd_diff",
    "ns2_rules_run",
    "cwnd_parting",
    "with_ns2_growth",
    "without_idle_decay",
    "first_sack_experiment",
    "first_sack_scenarios",
    "first_sacks",
    "rtx_sack_delays",
    "model_chunks",
    "model_run",
    "sack_phase_experiment",
    "parting",
    "shifted",
    "start_shift",
    "trace",
    "unexplained",
    "write",
    "write_first_sack",
]

NAME = "ns2_baseline"
#: the table of :func:`first_sack_experiment` (read by scripts/derive_provenance.py)
FIRST_SACK = "ns2_first_sack"
OUTPUTS = (FIRST_SACK,)
TOLERANCE = stacks.COMPLETION_TOLERANCE
#: The study's metrics, compared per scenario: (name, kind) with kind ``relative``
#: (|ns3 - ns2| <= tol |ns2|), ``count`` (|ns3 - ns2| <= tol max(ns2, ns3)) or ``cwnd``
#: (the trajectory difference, relative to NS-2's mean cwnd, <= tol).
METRICS = (
    ("completion_s", "relative"),
    ("fast", "count"),
    ("t3", "count"),
    ("timeouts", "count"),
    ("queue_drops", "count"),
    ("cwnd", "cwnd"),
)
NS2_TRACE, NS3_TRACE = ns2_scenario.TRACE_KEY, "ns3_ns2"


def _points(scenarios) -> list[dict[str, Any]]:
    return [{"scenario": sc.name} for sc in ns2_scenario.expressible(scenarios)]


EXPERIMENT = Experiment(
    name="ns2_scenarios",
    description="every validation scenario NS-2.35 can express, in NS-2.35's Agent/SCTP and "
    "in the ns-3 model started from NS-2.35's defaults (deterministic: one run each)",
    points=lambda params: _points(stacks.full_scenarios()),
    quick_points=lambda params: _points(stacks.quick_scenarios()),
    runs=1,
    quick_runs=1,
    deterministic=True,
)


def raw_tables(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]):
    """The analysis of both variants: the trace tables as they are (compared here)."""
    return dict(raw)


STUDY_NS2 = dataclasses.replace(
    ns2_study(STUDY, ns2_scenario.run, ns2_scenario.PARAMETERS, experiments=[]),
    analyse=raw_tables,
    reproduction=Reproduction(
        experiments=(dataclasses.replace(EXPERIMENT, available=runner.available),)
    ),
)
STUDY_NS3 = dataclasses.replace(
    STUDY,
    name=f"{STUDY.name}.ns3_ns2_defaults",
    title=f"{STUDY.title} (the model from NS-2.35's defaults)",
    run=scenario.run_ns2_defaults,
    analyse=raw_tables,
    parameters=ns2_scenario.PARAMETERS,
    reproduction=Reproduction(experiments=(EXPERIMENT,)),
)


def trace(tables: Mapping[str, pd.DataFrame], name: str, key: str) -> stacks.Trace:
    """The trace ``key`` (:data:`NS2_TRACE` or :data:`NS3_TRACE`) of scenario ``name``
    from a variant's tables."""
    picked = {
        table: frame[frame["scenario"] == name].drop(
            columns=[c for c in ("scenario", "oracle_seed", "seed", "run") if c in frame]
        )
        for table, frame in tables.items()
        if "scenario" in frame
    }
    return stacks.traces_from_tables(stacks.scenario_by_name(name), picked)[key]


def _agree(kind: str, ns2: float, ns3: float) -> bool:
    if kind == "relative":
        return bool(abs(ns3 - ns2) <= TOLERANCE * abs(ns2))
    return bool(abs(ns3 - ns2) <= TOLERANCE * max(abs(ns2), abs(ns3)))


def compare_pair(
    ns2: stacks.Trace, ns3: stacks.Trace, frames: pd.DataFrame | None = None
) -> dict[str, Any]:
    """One scenario's row: per metric NS-2's value, ours and whether they agree; with the
    model's ``frames`` (:func:`model_run`) also the experiment of NS-2's cwnd growth
    rules (:func:`refused_growth`)."""
    sc = ns2.scenario
    row: dict[str, Any] = {"scenario": sc.name, "group": sc.group, "description": sc.description}
    values = {}
    for trace, side in ((ns2, "ns2"), (ns3, "ns3")):
        rtx = trace.retransmissions()
        values[side] = {
            "completion_s": trace.completion_s,
            "fast": rtx["fast"],
            "t3": rtx["t3"],
            "timeouts": trace.timeouts,
            "queue_drops": int(trace.drops["reason"].eq("queue").sum()),
        }
    agreeing, differing = [], []
    for metric, kind in METRICS:
        if kind == "cwnd":
            diff = cwnd_difference(ns2, ns3)
            row["cwnd_diff"] = diff
            ok = bool(np.isfinite(diff) and diff <= TOLERANCE)
        else:
            a, b = values["ns2"][metric], values["ns3"][metric]
            row[f"ns2_{metric}"], row[f"ns3_{metric}"] = a, b
            if metric == "completion_s":
                row["completion_diff"] = (b - a) / a
            ok = bool(np.isfinite(a) and np.isfinite(b) and _agree(kind, a, b))
        row[f"{metric}_agrees"] = ok
        (agreeing if ok else differing).append(metric)
    row["agreeing"] = ",".join(agreeing)
    row["differing"] = ",".join(differing)
    # The experiment for the confirming HEARTBEAT (HEARTBEAT_SHIFT): NS-2 moved back by
    # the time its first DATA waited longer than ours.
    shift = start_shift(ns2, ns3)
    moved = shifted(ns2, shift)
    row["start_shift_s"] = shift
    row["completion_diff_shifted"] = (ns3.completion_s - moved.completion_s) / moved.completion_s
    row["cwnd_diff_shifted"] = cwnd_difference(moved, ns3)
    # The experiment for the delayed-SACK phase (first_data_sack): how much later our
    # first T3 retransmission leaves than NS-2's (NS-2 shifted as above).
    t3_ns2, t3_ns3 = (t.data[t.data["kind"] == "t3"]["time"] for t in (moved, ns3))
    both = len(t3_ns2) and len(t3_ns3)
    row["t3_gap_s"] = float(t3_ns3.min() - t3_ns2.min()) if both else float("nan")
    row["sack_delay_s"] = sc.sack_delay_ms / 1e3
    # The experiments of NS-2's cwnd rules (idle_cwnd_decay, utilization_test,
    # cum_ack_growth): NS-2 (moved back as above) without its idle decays, the model
    # with the increases NS-2 would refuse undone, and both.
    undecayed = shifted(without_idle_decay(ns2), shift)
    row["idle_decays"] = len(idle_decays(ns2))
    row["cwnd_diff_no_idle_decay"] = cwnd_difference(undecayed, ns3)
    row["refused_growth"], row["refused_growth_n"] = "", 0
    row["cwnd_diff_ns2_growth"] = row["cwnd_diff_ns2_rules"] = float("nan")
    if frames is not None:
        refused = refused_growth(ns3, frames)
        names = [n for n in refused["refused_by"] if n]
        row["refused_growth"] = ",".join(dict.fromkeys(names))
        row["refused_growth_n"] = len(names)
        grown = with_ns2_growth(ns3, refused)
        row["cwnd_diff_ns2_growth"] = cwnd_difference(moved, grown)
        row["cwnd_diff_ns2_rules"] = cwnd_difference(undecayed, grown)
    row["explained_by"] = ",".join(_explanations(row, differing))
    return row


def _explanations(row: Mapping[str, Any], differing: Sequence[str]) -> list[str]:
    """Which named differences (:data:`DIFFERENCES`) account for the differing metrics:
    ``confirm_heartbeat`` when the completion time and cwnd trajectory agree once NS-2
    is moved back by its HEARTBEAT round trip; ``first_data_sack`` when the first T3
    retransmissions are one delayed-SACK interval apart (within 10 % of it), the
    timer that the receivers' different packet pairing starts; for a differing cwnd
    trajectory, NS-2's cwnd rules (:data:`CWND_RULES`) when it agrees once NS-2's idle
    decays are undone (``idle_cwnd_decay``), or the model's increases that NS-2 refuses
    (``utilization_test``, ``cum_ack_growth``: those :func:`refused_growth` found), or
    both: the fewest that do (NS-2 moved back by its HEARTBEAT round trip in each)."""
    found = []
    timing = [m for m in differing if m in ("completion_s", "cwnd")]
    shifted_ok = abs(row["completion_diff_shifted"]) <= TOLERANCE and (
        row["cwnd_diff_shifted"] <= TOLERANCE
    )
    if timing and shifted_ok:
        found.append("confirm_heartbeat")
    elif "cwnd" in differing and (
        "completion_s" not in differing or abs(row["completion_diff_shifted"]) <= TOLERANCE
    ):
        found += _cwnd_rules(row)
    gap, delay = abs(row["t3_gap_s"]), row["sack_delay_s"]
    if differing and np.isfinite(gap) and abs(gap - delay) <= TOLERANCE * delay:
        found.append("first_data_sack")
    return found


def _cwnd_rules(row: Mapping[str, Any]) -> list[str]:
    """The NS-2 cwnd rules that account for the row's cwnd difference (``_explanations``):
    those the scenario has (NS-2's idle decays, the increases NS-2 would refuse), when
    the cwnd agrees with all of them undone; each named only if undoing it lowers the
    difference (by more than :data:`RULE_EFFECT`) beyond undoing the others."""
    decay = ["idle_cwnd_decay"] if row.get("idle_decays", 0) else []
    growth = [n for n in str(row.get("refused_growth") or "").split(",") if n]
    nan = float("nan")
    if growth:
        value = row.get("cwnd_diff_ns2_rules", nan)
    else:
        value = row.get("cwnd_diff_no_idle_decay", nan)
    if not (decay or growth) or not (np.isfinite(value) and value <= TOLERANCE):
        return []
    named = []
    if decay and (not growth or value < row.get("cwnd_diff_ns2_growth", nan) - RULE_EFFECT):
        named += decay
    if growth and (value < row.get("cwnd_diff_no_idle_decay", nan) - RULE_EFFECT):
        named += growth
    return named


def start_shift(ns2: stacks.Trace, ns3: stacks.Trace) -> float:
    """How much later NS-2 sends its first DATA chunk than our model (seconds from the
    INIT): NS-2.35 confirms the path with a HEARTBEAT after the COOKIE ACK and sends
    DATA only after its HEARTBEAT ACK, one round trip (:data:`DIFFERENCES`)."""
    return float(ns2.data["time"].min() - ns3.data["time"].min())


def shifted(trace: stacks.Trace, shift: float) -> stacks.Trace:
    """``trace`` with its DATA phase moved ``shift`` seconds earlier (series, DATA
    chunks and completion time): NS-2 as if its first DATA left when ours did."""
    return dataclasses.replace(
        trace,
        series=trace.series.assign(time=trace.series["time"] - shift),
        data=trace.data.assign(time=trace.data["time"] - shift),
        completion_s=trace.completion_s - shift,
    )


# ----------------------------------------------------------------------------- cwnd rules

#: Two cwnd changes at the same instant of the variable trace (NS-2 prints 5 decimals).
SAME_INSTANT = ns2_scenario.VARIABLE_TIME_TOLERANCE
#: How much undoing one cwnd rule must lower the cwnd difference to be named.
RULE_EFFECT = 1e-3
#: A DATA chunk's header: NS-2 and the model count it in the outstanding bytes.
DATA_CHUNK_HEADER = ns2_scenario.DATA_CHUNK_HEADER


def cwnd_changes(trace: stacks.Trace) -> pd.DataFrame:
    """Every change of ``trace``'s cwnd: ``time``, ``before``, ``cwnd``, ``ssthresh``
    (the last value of each at that instant)."""
    series = trace.series[trace.series["name"].isin(["cwnd", "ssthresh"])]
    values = series.pivot_table(index="time", columns="name", values="value",
                                aggfunc="last").ffill()  # fmt: skip
    if "cwnd" not in values:
        return pd.DataFrame(columns=["time", "before", "cwnd", "ssthresh"])
    values = values.reindex(columns=["cwnd", "ssthresh"])
    values = values.assign(before=values["cwnd"].shift()).dropna(subset=["before"])
    changed = values[values["cwnd"] != values["before"]]
    return changed.reset_index()[["time", "before", "cwnd", "ssthresh"]]


def _floor(trace: stacks.Trace) -> int:
    """4 x the largest DATA chunk (NS-2's ``uiMaxDataSize``, the model's PMDCS)."""
    return 4 * (trace.scenario.mtu - ns2_scenario.SCTP_IP_HEADERS)


def idle_decays(trace: stacks.Trace) -> pd.DataFrame:
    """NS-2.35's idle-cwnd decays in ``trace`` (``idle_cwnd_decay``): the cwnd falls to
    max(cwnd/2, 4 x MDS) one RTO after the last DATA the sender sent (the RTO in force
    then), whether data is outstanding or not. ``sctp.cc``: every packet sent
    reschedules the destination's CwndDegradeTimer to one RTO; its expiry halves a cwnd
    above ``initialCwnd_`` x MDS (ssthresh unchanged) and reschedules it; only a T3-rtx
    expiry cancels it. Up to the completion time (the comparisons' end). Columns
    ``time``, ``before``, ``cwnd``, ``idle_s`` (since the last DATA)."""
    changes = cwnd_changes(trace)
    sent = np.sort(trace.data["time"].to_numpy())
    rto = trace.series_of("rto_ms")
    rows = []
    for change in changes.itertuples():
        if change.cwnd >= change.before or change.cwnd != max(change.before // 2, _floor(trace)):
            continue
        if not change.time <= trace.completion_s:
            continue  # after the transfer (or without its end): outside every comparison
        earlier = sent[sent < change.time - SAME_INSTANT]
        if not len(earlier) or rto.empty:
            continue
        last = float(earlier[-1])
        in_force = rto[rto["time"] <= last + SAME_INSTANT]["value"]
        rto_s = float(in_force.iloc[-1] if len(in_force) else rto["value"].iloc[0]) / 1e3
        if change.time - last >= rto_s - SAME_INSTANT:
            rows.append((change.time, change.before, change.cwnd, change.time - last))
    return pd.DataFrame(rows, columns=["time", "before", "cwnd", "idle_s"])


def without_idle_decay(trace: stacks.Trace) -> stacks.Trace:
    """``trace`` (NS-2's) with its :func:`idle_decays` undone: the cwnd keeps its value
    from before a decay until its next change that is not one (a T3-rtx expiry sets one
    MDS whatever the cwnd was)."""
    decays = idle_decays(trace)
    series = trace.series.copy()
    is_cwnd = series["name"] == "cwnd"
    for time, before in zip(decays["time"], decays["before"], strict=True):
        at = is_cwnd & ((series["time"] - time).abs() <= SAME_INSTANT)
        series.loc[at, "value"] = before
    # a decay after a decay (one per RTO) holds the value from before the first
    held = None
    for i in series.index[is_cwnd]:
        decayed = bool(((decays["time"] - series.at[i, "time"]).abs() <= SAME_INSTANT).any())
        if decayed and held is not None:
            series.at[i, "value"] = held
        held = series.at[i, "value"]
    return dataclasses.replace(trace, series=series)


def refused_growth(trace: stacks.Trace, frames: pd.DataFrame) -> pd.DataFrame:
    """The model's cwnd increases (``trace`` and its ``frames``, :func:`model_run`) that
    NS-2.35's ``AdjustCwnd`` would refuse, and by which of its two conditions
    (``refused_by``): ``cum_ack_growth`` when the SACK does not advance the cumulative
    TSN ack (NS-2 adjusts cwnd only then, RFC 4960 7.2.1/7.2.2; RFC 9260 dropped the
    condition and the model counts bytes newly acknowledged by gap blocks too);
    ``utilization_test`` when the bytes outstanding before the SACK (DATA chunks with their
    16-byte headers, sent and above the previous cumulative TSN ack) are fewer than the
    cwnd (NS-2 grows only when outstanding >= cwnd; the model's "fully utilized" is
    flight + PMDCS > cwnd). One row per increase at a SACK: ``time``, ``before``,
    ``cwnd``, ``cum_ack``, ``previous_cum_ack``, ``outstanding``, ``refused_by`` ("" when
    NS-2 would grow too). Gap-acknowledged chunks are counted as outstanding (the decoded
    SACK has no gap blocks): the utilization test errs towards allowing the growth."""
    sacks = frames[(frames["dir"] == "rev") & frames["kind"].str.contains("SACK")]
    sacks = sacks.reset_index(drop=True)
    data = trace.data.sort_values("time", kind="stable")
    rows = []
    for change in cwnd_changes(trace).itertuples():
        if change.cwnd <= change.before:
            continue
        at = sacks.index[(sacks["time"] - change.time).abs() <= SAME_INSTANT]
        if not len(at):
            continue
        i = int(at[0])
        cum = int(sacks.at[i, "tsn"])
        previous = int(sacks.at[i - 1, "tsn"]) if i > 0 else -1
        sent = data[data["time"] < change.time - SAME_INSTANT].drop_duplicates("tsn", keep="last")
        above = sent[sent["tsn"] > previous]
        outstanding = int((above["length"] + DATA_CHUNK_HEADER).sum())
        if cum <= previous:
            refused = "cum_ack_growth"
        elif outstanding < change.before:
            refused = "utilization_test"
        else:
            refused = ""
        rows.append((change.time, change.before, change.cwnd, cum, previous, outstanding,
                     refused))  # fmt: skip
    return pd.DataFrame(rows, columns=["time", "before", "cwnd", "cum_ack", "previous_cum_ack",
                                       "outstanding", "refused_by"])  # fmt: skip


def with_ns2_growth(trace: stacks.Trace, refused: pd.DataFrame) -> stacks.Trace:
    """The model's ``trace`` with the increases of ``refused`` (:func:`refused_growth`,
    rows with a ``refused_by``) undone: each lowers the cwnd after it by its step. A fast
    retransmit (cwnd = ssthresh = max(cwnd/2, 4 PMDCS), the cwnd before it not always
    traced: the SACK that starts it may grow the cwnd first) halves the offset, or ends
    it at the 4 PMDCS floor; an idle decay (max(cwnd/2, 4 PMDCS)) halves the lowered
    cwnd; a T3-rtx expiry (one PMDCS) ends the offset."""
    steps = refused[refused["refused_by"].fillna("") != ""]
    pending = list(zip(steps["time"], steps["cwnd"] - steps["before"], strict=True))
    floor = _floor(trace)
    ssthresh = trace.series_of("ssthresh").groupby("time")["value"].last()
    series = trace.series.copy()
    offset, last = 0.0, None
    for i in series.index[series["name"] == "cwnd"]:
        value, time = float(series.at[i, "value"]), float(series.at[i, "time"])
        if last is not None and value < last:
            if value == ssthresh.get(time) and value >= floor:
                offset = offset / 2 if value - offset / 2 >= floor else value - floor
            elif value == max(last // 2, floor):
                offset = value - max((last - offset) // 2, floor)
            else:
                offset = 0.0
        if last is not None and value > last:
            for j, (when, step) in enumerate(pending):
                if abs(when - time) <= SAME_INSTANT:
                    offset += step
                    pending.pop(j)
                    break
        last = value
        series.at[i, "value"] = value - offset
    return dataclasses.replace(trace, series=series)


def baseline_table(ns2: Mapping[str, pd.DataFrame], ns3: Mapping[str, pd.DataFrame]):
    """One row per scenario (:func:`compare_pair`), from the two variants' tables
    (``Results(STUDY_NS2)[EXPERIMENT.name]`` and the same of ``STUDY_NS3``); ``ns2_runs``
    is how many NS-2 runs the scenario took (the drop list's rounds and the parsed run),
    ``n_runs`` the runs behind each value (1: both simulators are deterministic)."""
    runs = ns2["runs"].set_index("scenario")
    rows = []
    for name in ns2["runs"]["scenario"]:
        row = compare_pair(trace(ns2, name, NS2_TRACE), trace(ns3, name, NS3_TRACE))
        row["ns2_runs"] = int(runs.loc[name, "ns2_runs"])
        row["n_runs"] = 1
        rows.append(row)
    return pd.DataFrame(rows)


def agreement_counts(table: pd.DataFrame) -> pd.DataFrame:
    """Per metric: scenarios compared, agreeing within the tolerance, differing."""
    rows = []
    for metric, _ in METRICS:
        agrees = table[f"{metric}_agrees"].astype(bool)
        rows.append({"metric": metric, "scenarios": len(table), "agree": int(agrees.sum()),
                     "differ": int((~agrees).sum())})  # fmt: skip
    every = table["differing"].fillna("").eq("")
    rows.append({"metric": "all metrics", "scenarios": len(table), "agree": int(every.sum()),
                 "differ": int((~every).sum())})  # fmt: skip
    return pd.DataFrame(rows)


def unexplained(table: pd.DataFrame) -> pd.DataFrame:
    """The scenarios with a differing metric that no named difference accounts for."""
    return table[table["differing"].fillna("").ne("") & table["explained_by"].fillna("").eq("")]


# ----------------------------------------------------------------------------- differences

#: How NS-2.35's Agent/SCTP and our model differ on the same configuration, each shown
#: by an experiment in notebook 06 (the chunk traces and :func:`sack_phase_experiment`).
DIFFERENCES = {
    "confirm_heartbeat": (
        "NS-2.35 sends a HEARTBEAT after the COOKIE ACK to confirm the path and holds its "
        "DATA until the HEARTBEAT ACK: its transfer starts one round trip later. RFC 9260 "
        "5.4 counts the address the association was set up on as confirmed; the model "
        "sends DATA at once."
    ),
    "gap_fill_sack": (
        "When a retransmission fills the receiver's gap, the model SACKs at once; "
        "NS-2.35 delays that SACK like any other (200 ms), so after a T3 retransmission "
        "its sender waits a SACK delay longer with cwnd at one MTU."
    ),
    "first_data_sack": (
        "NS-2.35 acknowledges the first DATA chunk of the association at once (RFC 9260 "
        "5.1), then every second packet; the model delays the first SACK too, so the two "
        "receivers pair the packets differently and a lone packet at the end of a flight "
        "waits for the delayed-SACK timer in one simulator and not in the other. The "
        "model's ImmediateFirstSack attribute does what the RFC says (first_sack_experiment "
        "measures it); its default stays false until every SCTP study is re-run with it."
    ),
    "idle_cwnd_decay": (
        "NS-2.35 halves the cwnd (to max(cwnd/2, 4 MTU), ssthresh unchanged) whenever the "
        "sender has sent no packet to the destination for one RTO, data outstanding or "
        "not (its CwndDegradeTimer, rescheduled by every packet sent, cancelled only by a "
        "T3-rtx expiry): before a T3-rtx expiry it decays once. RFC 9260 7.2.1 says "
        '"when the endpoint does not transmit data on a given transport address"; the '
        "model decays only a destination with nothing in flight."
    ),
    "utilization_test": (
        "NS-2.35 grows the cwnd only when the bytes outstanding before the SACK are at "
        "least the cwnd (RFC 9260 7.2.2's test, applied in slow start too); the model's "
        "default counts the window as fully utilized when less than one PMDCS of it is "
        "free, so when the application or the receiver's window limits the flight it "
        "grows once more. The model's UtilizationAtCwnd attribute applies 7.2.2's test "
        "(utilization_at_cwnd_diff measures it); its default stays false until every "
        "SCTP study is re-run with it."
    ),
    "cum_ack_growth": (
        "NS-2.35 adjusts the cwnd only on a SACK that advances the cumulative TSN ack "
        "(RFC 4960 7.2.1); RFC 9260 dropped that condition and the model also grows on "
        "bytes newly acknowledged by gap blocks, so during a loss episode its cwnd "
        "grows where NS-2's does not. The model's CwndGrowthOnCumAckOnly attribute applies "
        "RFC 4960's rule (default false until every SCTP study is re-run with it); the "
        "difference is named where the model with all of NS-2's rules (ns2_rules_run) "
        "agrees with NS-2 on every metric."
    ),
}
#: The named differences of NS-2's cwnd rules (:func:`_cwnd_rules`), a cwnd difference only.
CWND_RULES = ("idle_cwnd_decay", "utilization_test", "cum_ack_growth")


def rtx_sack_delays(trace: stacks.Trace, frames: pd.DataFrame) -> dict[int, float]:
    """Per TSN retransmitted after a T3-rtx expiry (its first such retransmission):
    seconds from it to the first SACK that acknowledges it, at the sender (``frames``:
    :func:`ns2_chunks` or :func:`model_run`'s)."""
    delays = {}
    rtx = trace.data[trace.data["kind"] == "t3"].drop_duplicates("tsn")
    is_sack = frames["kind"].str.contains("SACK")
    for time, tsn in zip(rtx["time"], rtx["tsn"], strict=True):
        sacks = frames[is_sack & (frames["time"] > time) & (frames["tsn"] >= tsn)]
        if len(sacks):
            delays[int(tsn)] = float(sacks["time"].iloc[0] - time)
    return delays


def explain_remaining(table: pd.DataFrame, ns2: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Run the further experiments on every scenario that :func:`compare_pair`'s
    detectors leave unexplained, and name what they show (not cached: a few runs each).

    * ``gap_fill_sack``: the SACK of the first T3 retransmission (the packet that fills
      the receiver's gap) comes back one round trip after it in the model, which SACKs
      at once when a gap closes, and a delayed-SACK interval later in NS-2.35, which
      delays it (:func:`rtx_sack_delays` on both chunk traces: for a TSN both retransmit
      after a T3 expiry the two delays differ by the SACK delay within 10 %);
    * ``first_data_sack``: with a SACK for every packet in both simulators (no pairing,
      the scenario otherwise unchanged), or with the model's ``ImmediateFirstSack`` on
      (the pairing NS-2 has), the metrics that differed agree (after the HEARTBEAT
      shift) and nothing else differs that a named difference does not account for
      (:func:`_pairing_accounts`; ``every_packet_differing``, ``first_sack_differing``:
      what :func:`still_differing` leaves of each run);
    * NS-2's cwnd growth rules (``utilization_test``, ``cum_ack_growth``,
      :func:`refused_growth` on the model's frames, alone or with ``idle_cwnd_decay``);
      where ``utilization_test`` is named, the model runs once more with its
      ``UtilizationAtCwnd`` attribute (``cwnd_diff_utilization_at_cwnd``,
      :func:`utilization_at_cwnd_diff`).

    * ``cum_ack_growth`` by a model run: every scenario here whose model grows where NS-2
      would refuse for ``cum_ack_growth`` runs once more with all of the model's
      attributes that apply NS-2's rules (:data:`NS2_RULES`, against NS-2 with its idle
      decays undone: :func:`ns2_rules_run`, columns ``ns2_rules_*``); ``cum_ack_growth``
      is named only if every metric then agrees (the HEARTBEAT shift aside), whatever
      undoing the refused increases on the trace showed; otherwise
      ``ns2_rules_parted_s`` and the two cwnds there say where the two cwnd trajectories
      part next (:func:`cwnd_parting`).

    A scenario none of them explains gets where the two cwnd trajectories part
    (:func:`parting`), with ``ImmediateFirstSack`` on so that the first SACK's pairing
    does not part them first: the model's first increase that NS-2 would refuse
    (``first_refused_s``, ``first_refused_by``) and the cwnd difference up to it
    (``cwnd_diff_before_refused``).
    """
    table = table.copy()
    for column in ("gap_fill_tsn", "ns2_rtx_sack_s", "ns3_rtx_sack_s", "first_refused_s",
                   "cwnd_diff_before_refused", "cwnd_diff_utilization_at_cwnd"):  # fmt: skip
        table[column] = np.nan
    for column in ("every_packet_differing", "first_sack_differing", "first_refused_by"):
        table[column] = ""
    for column in _NS2_RULES_COLUMNS:
        table[column] = "" if column == "ns2_rules_differing" else np.nan
    table["ns2_rules_agrees"] = table["ns2_rules_agrees"].astype(object)
    for i in unexplained(table).index:
        name = table.at[i, "scenario"]
        sc = stacks.scenario_by_name(name)
        ns2_trace = trace(ns2, name, NS2_TRACE)
        ns3_trace, frames = model_run(sc)
        pair = compare_pair(ns2_trace, ns3_trace, frames)
        for column in _RULE_COLUMNS:
            table.at[i, column] = pair[column]
        delay = sc.sack_delay_ms / 1e3
        ns2_delays = rtx_sack_delays(ns2_trace, ns2_chunks(ns2_trace))
        ns3_delays = rtx_sack_delays(ns3_trace, frames)
        found = []
        for tsn in sorted(set(ns2_delays) & set(ns3_delays)):
            a, b = ns2_delays[tsn], ns3_delays[tsn]
            if abs((a - b) - delay) <= TOLERANCE * delay:
                table.at[i, "gap_fill_tsn"] = tsn
                table.at[i, "ns2_rtx_sack_s"], table.at[i, "ns3_rtx_sack_s"] = a, b
                found.append("gap_fill_sack")
                break
        found += [n for n in pair["explained_by"].split(",") if n in CWND_RULES]
        if "utilization_test" in found:
            table.at[i, "cwnd_diff_utilization_at_cwnd"] = utilization_at_cwnd_diff(ns2_trace, sc)
        every = sc.replace(sack_freq=1)
        row = compare_pair(ns2_scenario.run_scenario(every)[0], *model_run(every))
        still = still_differing(row)
        table.at[i, "every_packet_differing"] = ",".join(still)
        immediate = model_run(sc, IMMEDIATE_FIRST_SACK)
        first = compare_pair(ns2_trace, *immediate)
        still_first = still_differing(first)
        table.at[i, "first_sack_differing"] = ",".join(still_first)
        differing = pair["differing"].split(",")
        if _pairing_accounts(differing, row) or _pairing_accounts(differing, first):
            found.append("first_data_sack")
        if _applies_cum_ack_growth(pair):
            rules = ns2_rules_run(ns2_trace, sc)
            for key, value in rules.items():
                table.at[i, key] = value
            # the controlled change decides: named only when the run with NS-2's rules agrees
            found = [n for n in found if n != "cum_ack_growth"]
            if rules["ns2_rules_agrees"]:
                found.append("cum_ack_growth")
        if not found:
            for key, value in parting(ns2_trace, *immediate).items():
                table.at[i, key] = value
        table.at[i, "explained_by"] = ",".join(found)
    return table


def _applies_cum_ack_growth(row: Mapping[str, Any]) -> bool:
    return "cum_ack_growth" in str(row.get("refused_growth") or "").split(",")


#: The columns of :func:`ns2_rules_run`.
_NS2_RULES_COLUMNS = ("ns2_rules_differing", "ns2_rules_agrees", "ns2_rules_completion_diff",
                      "ns2_rules_cwnd_diff", "ns2_rules_completion_diff_shifted",
                      "ns2_rules_cwnd_diff_shifted", "ns2_rules_parted_s", "ns2_rules_ns2_cwnd",
                      "ns2_rules_ns3_cwnd")  # fmt: skip


def ns2_rules_run(ns2: stacks.Trace, sc: stacks.Scenario) -> dict[str, Any]:
    """The model once more with every attribute that applies one of NS-2.35's rules
    (:data:`NS2_RULES`: ``ImmediateFirstSack``, ``UtilizationAtCwnd``,
    ``CwndGrowthOnCumAckOnly``) against NS-2's trace with its idle decays undone
    (:func:`without_idle_decay`): ``ns2_rules_differing`` (what :func:`still_differing`
    leaves: the HEARTBEAT shift accounts for the completion time and cwnd as usual),
    ``ns2_rules_agrees``, the completion and cwnd differences (``..._shifted``: NS-2
    moved back by its HEARTBEAT round trip), and where the cwnd trajectories part
    (:func:`cwnd_parting`) when something still differs."""
    model, frames = model_run(sc, NS2_RULES)
    pair = compare_pair(without_idle_decay(ns2), model, frames)
    still = still_differing(pair)
    row = {"ns2_rules_differing": ",".join(still), "ns2_rules_agrees": not still}
    for key in ("completion_diff", "cwnd_diff", "completion_diff_shifted", "cwnd_diff_shifted"):
        row[f"ns2_rules_{key}"] = pair[key]
    parted = cwnd_parting(without_idle_decay(ns2), model) if still else {}
    row["ns2_rules_parted_s"] = parted.get("parted_s", np.nan)
    row["ns2_rules_ns2_cwnd"] = parted.get("ns2_cwnd", np.nan)
    row["ns2_rules_ns3_cwnd"] = parted.get("ns3_cwnd", np.nan)
    return row


def cwnd_parting(ns2: stacks.Trace, ns3: stacks.Trace) -> dict[str, float]:
    """The first cwnd change (:func:`cwnd_changes`, NS-2 moved back by its HEARTBEAT
    round trip) where the two trajectories take different values: ``parted_s`` (the
    earlier of the two changes' times), ``ns2_cwnd`` and ``ns3_cwnd`` (the value each
    changes to there); empty when one trajectory is a prefix of the other."""
    moved = shifted(ns2, start_shift(ns2, ns3))
    a, b = cwnd_changes(moved), cwnd_changes(ns3)
    for k in range(min(len(a), len(b))):
        if a.at[k, "cwnd"] != b.at[k, "cwnd"] or a.at[k, "before"] != b.at[k, "before"]:
            when = float(min(a.at[k, "time"], b.at[k, "time"]))
            return {"parted_s": when, "ns2_cwnd": float(a.at[k, "cwnd"]),
                    "ns3_cwnd": float(b.at[k, "cwnd"])}  # fmt: skip
    return {}


def parting(ns2: stacks.Trace, ns3: stacks.Trace, frames: pd.DataFrame) -> dict[str, Any]:
    """Where the model's cwnd first does what NS-2.35's would not (:func:`refused_growth`
    on ``frames``): ``first_refused_s``, ``first_refused_by`` and the cwnd difference up
    to that instant (``cwnd_diff_before_refused``, NS-2 moved back by its HEARTBEAT round
    trip); NaN and "" when the model grows only where NS-2 would."""
    refused = refused_growth(ns3, frames)
    refused = refused[refused["refused_by"] != ""]
    if not len(refused):
        return parting_nan()
    when = float(refused["time"].iloc[0])
    moved = shifted(ns2, start_shift(ns2, ns3))
    before = cwnd_difference(dataclasses.replace(moved, completion_s=when),
                             dataclasses.replace(ns3, completion_s=when))  # fmt: skip
    return {"first_refused_s": when, "first_refused_by": refused["refused_by"].iloc[0],
            "cwnd_diff_before_refused": before}  # fmt: skip


def utilization_at_cwnd_diff(
    ns2: stacks.Trace, sc: stacks.Scenario, attributes: Mapping[str, str] | None = None
) -> float:
    """The controlled change for ``utilization_test``: the model once more with
    :data:`UTILIZATION_AT_CWND` (and ``attributes``, e.g. :data:`IMMEDIATE_FIRST_SACK`);
    its cwnd difference to NS-2's trace moved back by its HEARTBEAT round trip, with
    NS-2's idle decays undone (``cwnd_diff_utilization_at_cwnd``)."""
    model, _ = model_run(sc, {**(attributes or {}), **UTILIZATION_AT_CWND})
    moved = shifted(without_idle_decay(ns2), start_shift(ns2, model))
    return cwnd_difference(moved, model)


def parting_nan() -> dict[str, Any]:
    """:func:`parting`'s columns, empty (a scenario that agrees)."""
    return {"first_refused_s": np.nan, "first_refused_by": "", "cwnd_diff_before_refused": np.nan}


#: The columns of NS-2's cwnd-rule experiments in a :func:`compare_pair` row.
_RULE_COLUMNS = ("idle_decays", "cwnd_diff_no_idle_decay", "refused_growth",
                 "refused_growth_n", "cwnd_diff_ns2_growth", "cwnd_diff_ns2_rules")  # fmt: skip


def _pairing_accounts(differing: Sequence[str], run: Mapping[str, Any]) -> bool:
    """Whether a run with the receivers' packet pairing changed (``run``: a SACK every
    packet, or ``ImmediateFirstSack``) accounts for the ``differing`` metrics of the
    default run: none of them differs there but by the HEARTBEAT round trip, and nothing
    there differs that no named difference covers (a cwnd difference that NS-2's cwnd
    rules account for in both runs is theirs, not the pairing's)."""
    named = set(str(run["explained_by"]).split(","))
    own = [m for m in str(run["differing"]).split(",") if m]
    if "confirm_heartbeat" in named:
        own = [m for m in own if m not in ("completion_s", "cwnd")]
    return not still_differing(run) and not set(differing) & set(own)


def still_differing(row: Mapping[str, Any]) -> list[str]:
    """A :func:`compare_pair` row's differing metrics less those its named differences
    account for: ``confirm_heartbeat`` the completion time and cwnd, NS-2's cwnd rules
    (:data:`CWND_RULES`) the cwnd."""

    def names(value: Any) -> list[str]:
        return [n for n in value.split(",") if n] if isinstance(value, str) else []

    named = set(names(row["explained_by"]))
    still = names(row["differing"])
    if "confirm_heartbeat" in named:
        still = [m for m in still if m not in ("completion_s", "cwnd")]
    if named & set(CWND_RULES):
        still = [m for m in still if m != "cwnd"]
    return still


def sack_phase_experiment(tsns: Sequence[int] = (10, 11)) -> pd.DataFrame:
    """A tail loss with an even and an odd number of TSNs (the last one lost, the
    ``loss_tail`` scenario otherwise), in NS-2.35 and in the model from NS-2.35's
    defaults: completion times, the cumulative TSN acks of every SACK before the
    retransmission, and the retransmission's time. Which receiver leaves the packet
    before the lost one to the delayed-SACK timer (200 ms) depends on how it pairs
    packets from the first DATA on (``first_data_sack``): the gap changes sign with
    the parity. Four NS-2 runs per row (three for the drop list) and one ns-3 run."""
    base = stacks.scenario_by_name("loss_tail")
    rows = []
    for count in tsns:
        sc = base.replace(
            name=f"loss_tail_{count}",
            total_bytes=count * base.message_size,
            drop_tsns=((count - 1, 1),),
        )
        ns2, _ = ns2_scenario.run_scenario(sc)
        ns3, frames = model_run(sc)
        row = {"tsns": count}
        for side, trace, chunks in (("ns2", ns2, ns2_chunks(ns2)), ("ns3", ns3, frames)):
            rtx = trace.data[trace.data["kind"] != "new"]["time"]
            before = chunks[chunks["time"] < float(rtx.min())]
            row[f"{side}_s"] = trace.completion_s
            row[f"{side}_sacks"] = " ".join(map(str, first_sacks(before, count=len(before))))
            row[f"{side}_rtx_s"] = float(rtx.min())
        row["completion_diff"] = (row["ns3_s"] - row["ns2_s"]) / row["ns2_s"]
        rows.append(row)
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- chunk traces

#: tshark fields of a pcap of ours: time, source address, chunk types, DATA TSNs, SACK's
#: cumulative TSN ack (several chunks of one frame are comma-separated).
_TSHARK_FIELDS = ("frame.time_relative", "ip.src", "sctp.chunk_type", "sctp.data_tsn",
                  "sctp.sack_cumulative_tsn_ack")  # fmt: skip
_CHUNK_NAMES = {"0": "DATA", "1": "INIT", "2": "INIT_ACK", "3": "SACK", "4": "HEARTBEAT",
                "5": "HEARTBEAT_ACK", "10": "COOKIE_ECHO", "11": "COOKIE_ACK",
                "7": "SHUTDOWN", "8": "SHUTDOWN_ACK", "14": "SHUTDOWN_COMPLETE"}  # fmt: skip
SENDER_ADDRESS = "10.1.1.1"


def decode_pcap(pcap: str | Path) -> pd.DataFrame:
    """The SCTP frames of a pcap of ours, decoded by tshark: ``time`` (from the first
    frame), ``dir`` (fwd: from the sender), ``kind`` (chunk names joined by ``+``),
    ``tsn`` (a DATA frame's first TSN, a SACK's cumulative TSN ack; absolute, -1
    otherwise)."""
    tshark = shutil.which("tshark")
    if tshark is None:
        raise RuntimeError("decoding the pcap needs tshark (apt install tshark)")
    command = [tshark, "-r", str(pcap), "-o", "sctp.checksum:crc-32c", "-Y", "sctp",
               "-T", "fields"]  # fmt: skip
    command += [a for field in _TSHARK_FIELDS for a in ("-e", field)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["no message"])[0]
        raise RuntimeError(f"tshark could not decode {pcap}: {reason}")
    rows = []
    for line in done.stdout.splitlines():
        time, source, types, data_tsns, cum_acks = (line.split("\t") + [""] * 5)[:5]
        kinds = [_CHUNK_NAMES.get(t, t) for t in types.split(",") if t]
        if data_tsns:
            tsn = int(data_tsns.split(",")[0])
        elif cum_acks:
            tsn = int(cum_acks.split(",")[0])
        else:
            tsn = -1
        rows.append((float(time), "fwd" if source == SENDER_ADDRESS else "rev",
                     "+".join(dict.fromkeys(kinds)), tsn))  # fmt: skip
    return pd.DataFrame(rows, columns=["time", "dir", "kind", "tsn"])


def model_run(
    sc: stacks.Scenario, attributes: Mapping[str, str] | None = None
) -> tuple[stacks.Trace, pd.DataFrame]:
    """Our model in ``sc`` from NS-2.35's defaults (and ``attributes`` after them, e.g.
    :data:`IMMEDIATE_FIRST_SACK`): its trace and the frames it sends, as seen on the
    sender's side of the link (a pcap decoded by tshark; not cached: one simulation here).
    Times from the INIT, TSNs relative to the first DATA TSN."""
    defaults = {**scenario.ns2_defaults(sc), **(attributes or {})}
    with tempfile.TemporaryDirectory(prefix="transportlab-sctp-ns2-") as folder:
        prefix = str(Path(folder) / "model")
        trace = stacks.run_model(sc, "default", defaults=defaults, pcap_prefix=prefix)
        frames = decode_pcap(next(Path(folder).glob("model-*.pcap")))
    return trace, _relative(frames)


def model_chunks(sc: stacks.Scenario, attributes: Mapping[str, str] | None = None) -> pd.DataFrame:
    """The frames of :func:`model_run`."""
    return model_run(sc, attributes)[1]


def _relative(frames: pd.DataFrame) -> pd.DataFrame:
    data = frames[frames["kind"].str.startswith("DATA")]
    base = int(data["tsn"].iloc[0]) if len(data) else 0
    has_tsn = frames["tsn"] >= 0
    relative = np.where(has_tsn, (frames["tsn"] - base) % (1 << 32), -1)
    # A SACK before any DATA acknowledges the TSN before the first: -1 relative.
    relative = np.where(relative == (1 << 32) - 1, -1, relative)
    init = frames[frames["kind"].str.contains("INIT")]
    origin = float(init["time"].iloc[0]) if len(init) else 0.0
    return frames.assign(time=frames["time"] - origin, tsn=relative.astype(np.int64))


def ns2_chunks(trace: stacks.Trace) -> pd.DataFrame:
    """NS-2's frames in the same form as :func:`model_chunks` (seen at the sender: a
    forward packet when it is queued there, a reverse one when it arrives)."""
    p = trace.packets
    fwd = p[(p["dir"] == "fwd") & (p["event"] == "pkt_tx")]
    rev = p[(p["dir"] == "rev") & (p["event"] == "pkt_rx")]
    # At one instant an arrival comes first: it is what made the sender send.
    frames = pd.concat([rev, fwd]).sort_values("time", kind="stable")
    return frames[["time", "dir", "kind", "tsn"]].reset_index(drop=True)


def chunk_traces(ns2: stacks.Trace, count: int = 24) -> pd.DataFrame:
    """The first ``count`` frames of NS-2 and of our model on ``ns2``'s scenario, side by
    side (time in ms, direction, chunks, TSN: relative DATA TSN or SACK's cumulative
    TSN ack)."""

    def shown(frames: pd.DataFrame) -> pd.DataFrame:
        part = frames.head(count).reset_index(drop=True)
        return pd.DataFrame({"ms": (1e3 * part["time"]).round(3), "dir": part["dir"],
                             "chunks": part["kind"], "tsn": part["tsn"]})  # fmt: skip

    return pd.concat(
        {"NS-2.35": shown(ns2_chunks(ns2)), "ns-3 model": shown(model_chunks(ns2.scenario))},
        axis=1,
    )


def first_sacks(frames: pd.DataFrame, count: int = 3) -> list[int]:
    """The cumulative TSN acks of the first ``count`` SACKs (relative TSNs)."""
    sacks = frames[frames["kind"].str.contains("SACK")]
    return [int(t) for t in sacks["tsn"].head(count)]


def first_sack_wait(frames: pd.DataFrame) -> float:
    """Seconds from the first DATA frame to the first SACK back, at the sender (one round
    trip when the receiver SACKs the first DATA at once, a SACK delay more otherwise)."""
    data = frames[frames["kind"].str.contains("DATA")]["time"]
    sacks = frames[frames["kind"].str.contains("SACK")]["time"]
    if data.empty or sacks.empty:
        return float("nan")
    return float(sacks[sacks > data.min()].min() - data.min())


# ----------------------------------------------------------------------------- first SACK


def first_sack_scenarios(table: pd.DataFrame) -> list[str]:
    """The scenarios of a baseline table (:func:`table`) that the ``first_data_sack``
    difference explains, in the table's order."""
    named = table["explained_by"].fillna("").str.split(",")
    return table.loc[named.map(lambda found: "first_data_sack" in found), "scenario"].tolist()


def first_sack_experiment(baseline: pd.DataFrame) -> pd.DataFrame:
    """The ``first_data_sack`` scenarios of ``baseline`` (:func:`first_sack_scenarios`)
    once more, NS-2.35 against the model with :data:`IMMEDIATE_FIRST_SACK` (not cached:
    NS-2's runs for the drop list and one model run per scenario).

    One row per scenario: per metric whether it agrees now (``<metric>_agrees``), the
    metrics that differ and what explains them (:func:`compare_pair` with the model's
    frames: NS-2's cwnd rules too), those left once the named differences account for
    theirs (``still_differing``, :func:`still_differing`), beside the baseline's
    ``differing_default`` and ``t3_gap_default_s``; and the wait from the first DATA to
    the first SACK at the sender in both simulators (``ns2_first_sack_s``,
    ``ns3_first_sack_s``); where ``utilization_test`` is named, the cwnd difference with the model's
    ``UtilizationAtCwnd`` on as well (``cwnd_diff_utilization_at_cwnd``); where something
    still differs and ``cum_ack_growth`` applies, the run with all of NS-2's rules
    (:func:`ns2_rules_run`, which names ``cum_ack_growth`` if every metric then agrees);
    where something still differs, where the cwnd trajectories part (:func:`parting`)."""
    indexed = baseline.set_index("scenario")
    rows = []
    for name in first_sack_scenarios(baseline):
        sc = stacks.scenario_by_name(name)
        ns2_trace, _ = ns2_scenario.run_scenario(sc)
        ns3_trace, frames = model_run(sc, IMMEDIATE_FIRST_SACK)
        pair = compare_pair(ns2_trace, ns3_trace, frames)
        still = still_differing(pair)
        before = indexed.loc[name]
        row = {"scenario": name, "differing_default": before["differing"],
               "completion_diff_default": before["completion_diff"],
               "cwnd_diff_default": before["cwnd_diff"],
               "t3_gap_default_s": before["t3_gap_s"]}  # fmt: skip
        row |= {f"{metric}_agrees": pair[f"{metric}_agrees"] for metric, _ in METRICS}
        row |= {key: pair[key] for key in ("completion_diff", "completion_diff_shifted",
                                           "cwnd_diff", "cwnd_diff_shifted", "t3_gap_s",
                                           "differing", "explained_by")}  # fmt: skip
        row |= {key: pair[key] for key in _RULE_COLUMNS}
        row["cwnd_diff_utilization_at_cwnd"] = (
            utilization_at_cwnd_diff(ns2_trace, sc, IMMEDIATE_FIRST_SACK)
            if "utilization_test" in pair["explained_by"].split(",")
            else np.nan
        )
        rules = {key: np.nan for key in _NS2_RULES_COLUMNS} | {"ns2_rules_differing": ""}
        if still and _applies_cum_ack_growth(pair):
            rules = ns2_rules_run(ns2_trace, sc)
            if rules["ns2_rules_agrees"]:
                row["explained_by"] = ",".join(filter(None, [pair["explained_by"],
                                                             "cum_ack_growth"]))  # fmt: skip
                still = []
        row |= rules
        row["still_differing"] = ",".join(still)
        row["agrees"] = not still
        row |= parting(ns2_trace, ns3_trace, frames) if still else parting_nan()
        row["ns2_first_sack_s"] = first_sack_wait(ns2_chunks(ns2_trace))
        row["ns3_first_sack_s"] = first_sack_wait(frames)
        row["n_runs"] = 1
        rows.append(row)
    return pd.DataFrame(rows)


# ----------------------------------------------------------------------------- writing


def results(quick: bool = False, progress: bool = True) -> tuple[Results, Results]:
    """Both variants' results (cached like every simulation; serial: one simulation at a
    time, NS-2 in a child process)."""
    return (
        Results(STUDY_NS2, quick=quick, scheduler="serial", progress=progress),
        Results(STUDY_NS3, quick=quick, scheduler="serial", progress=progress),
    )


def table(quick: bool = False, progress: bool = True, explain: bool = True) -> pd.DataFrame:
    """:func:`baseline_table` of the mode, with :func:`explain_remaining` (``explain``)."""
    ns2, ns3 = results(quick, progress)
    compared = baseline_table(ns2[EXPERIMENT.name], ns3[EXPERIMENT.name])
    return explain_remaining(compared, ns2[EXPERIMENT.name]) if explain else compared


def _command(quick: bool, *options: str) -> str:
    module = "transportlab.studies.sctp_validation.ns2_baseline"  # not __main__ when run
    return " ".join(["python", "-m", module, *(["--quick"] if quick else []), *options])


def write(quick: bool = False, progress: bool = True) -> Path:
    """Run (or load) both variants and write the table; return its path."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    path = files.write_csv(table(quick, progress), folder / f"{NAME}.csv")
    provenance.record_output(path, _command(quick))
    return path


def write_first_sack(quick: bool = False) -> Path:
    """:func:`first_sack_experiment` on the mode's committed ``ns2_baseline.csv``, written
    beside it as ``ns2_first_sack.csv``; return its path."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    baseline = pd.read_csv(folder / f"{NAME}.csv")
    path = files.write_csv(first_sack_experiment(baseline), folder / f"{FIRST_SACK}.csv")
    provenance.record_output(path, _command(quick, "--first-sack"))
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="quick mode (the quick scenarios)")
    parser.add_argument(
        "--first-sack", action="store_true",
        help="only the ImmediateFirstSack experiment on the written ns2_baseline.csv",
    )  # fmt: skip
    args = parser.parse_args(argv)
    print(write_first_sack(quick=args.quick) if args.first_sack else write(quick=args.quick))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
