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
    "first_sack_experiment",
    "first_sack_scenarios",
    "first_sacks",
    "rtx_sack_delays",
    "model_chunks",
    "model_run",
    "sack_phase_experiment",
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
#: The model's RFC 9260 5.1 behaviour, off by default: SACK the first DATA chunk at once.
IMMEDIATE_FIRST_SACK = {"ns3::SctpSocket::ImmediateFirstSack": "true"}
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


def compare_pair(ns2: stacks.Trace, ns3: stacks.Trace) -> dict[str, Any]:
    """One scenario's row: per metric NS-2's value, ours and whether they agree."""
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
    row["explained_by"] = ",".join(_explanations(row, differing))
    return row


def _explanations(row: Mapping[str, Any], differing: Sequence[str]) -> list[str]:
    """Which named differences (:data:`DIFFERENCES`) account for the differing metrics:
    ``confirm_heartbeat`` when the completion time and cwnd trajectory agree once NS-2
    is moved back by its HEARTBEAT round trip; ``first_data_sack`` when the first T3
    retransmissions are one delayed-SACK interval apart (within 10 % of it), the
    timer that the receivers' different packet pairing starts."""
    found = []
    timing = [m for m in differing if m in ("completion_s", "cwnd")]
    shifted_ok = abs(row["completion_diff_shifted"]) <= TOLERANCE and (
        row["cwnd_diff_shifted"] <= TOLERANCE
    )
    if timing and shifted_ok:
        found.append("confirm_heartbeat")
    gap, delay = abs(row["t3_gap_s"]), row["sack_delay_s"]
    if differing and np.isfinite(gap) and abs(gap - delay) <= TOLERANCE * delay:
        found.append("first_data_sack")
    return found


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
}


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
    """Run the two further experiments on every scenario that :func:`compare_pair`'s
    detectors leave unexplained, and name what they show (not cached: a few runs each).

    * ``gap_fill_sack``: the SACK of the first T3 retransmission (the packet that fills
      the receiver's gap) comes back one round trip after it in the model, which SACKs
      at once when a gap closes, and a delayed-SACK interval later in NS-2.35, which
      delays it (:func:`rtx_sack_delays` on both chunk traces: for a TSN both retransmit
      after a T3 expiry the two delays differ by the SACK delay within 10 %);
    * ``first_data_sack``: with a SACK for every packet in both simulators (no pairing,
      the scenario otherwise unchanged) every metric agrees once NS-2 is moved back by
      its HEARTBEAT round trip.
    """
    table = table.copy()
    for column in ("gap_fill_tsn", "ns2_rtx_sack_s", "ns3_rtx_sack_s"):
        table[column] = np.nan
    table["every_packet_differing"] = ""
    for i in unexplained(table).index:
        name = table.at[i, "scenario"]
        sc = stacks.scenario_by_name(name)
        ns2_trace = trace(ns2, name, NS2_TRACE)
        ns3_trace, frames = model_run(sc)
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
        every = sc.replace(sack_freq=1)
        row = compare_pair(ns2_scenario.run_scenario(every)[0], model_run(every)[0])
        still = [m for m in row["differing"].split(",") if m]
        if row["explained_by"] == "confirm_heartbeat":
            still = [m for m in still if m not in ("completion_s", "cwnd")]
        table.at[i, "every_packet_differing"] = ",".join(still)
        if not still:
            found.append("first_data_sack")
        table.at[i, "explained_by"] = ",".join(found)
    return table


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
    metrics that differ and what explains them (:func:`compare_pair`), those left once
    ``confirm_heartbeat`` accounts for the completion time and cwnd (``still_differing``,
    as :func:`explain_remaining`), beside the baseline's ``differing_default`` and
    ``t3_gap_default_s``; and the wait from the first DATA to the first SACK at the
    sender in both simulators (``ns2_first_sack_s``, ``ns3_first_sack_s``)."""
    indexed = baseline.set_index("scenario")
    rows = []
    for name in first_sack_scenarios(baseline):
        sc = stacks.scenario_by_name(name)
        ns2_trace, _ = ns2_scenario.run_scenario(sc)
        ns3_trace, frames = model_run(sc, IMMEDIATE_FIRST_SACK)
        pair = compare_pair(ns2_trace, ns3_trace)
        still = [m for m in pair["differing"].split(",") if m]
        if "confirm_heartbeat" in pair["explained_by"].split(","):
            still = [m for m in still if m not in ("completion_s", "cwnd")]
        before = indexed.loc[name]
        row = {"scenario": name, "differing_default": before["differing"],
               "completion_diff_default": before["completion_diff"],
               "cwnd_diff_default": before["cwnd_diff"],
               "t3_gap_default_s": before["t3_gap_s"]}  # fmt: skip
        row |= {f"{metric}_agrees": pair[f"{metric}_agrees"] for metric, _ in METRICS}
        row |= {key: pair[key] for key in ("completion_diff", "completion_diff_shifted",
                                           "cwnd_diff", "cwnd_diff_shifted", "t3_gap_s",
                                           "differing", "explained_by")}  # fmt: skip
        row["still_differing"] = ",".join(still)
        row["agrees"] = not still
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
