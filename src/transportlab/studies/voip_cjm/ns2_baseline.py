"""NS-2.35 beside ns-3 for every published row of voip_cjm, on both topology readings.

The NS-2 column is the study's experiment ``main`` (48 calls over UDP, TCP and SCTP
ordered and unordered, 5 runs of 15 minutes in full mode, 2 runs of 10 s in quick
mode) re-run in NS-2.35 (:mod:`~transportlab.studies.voip_cjm.ns2_scenario`) and
analysed by the study's own ``analyse`` and ``comparison``; a replication is a seeded
draw of the calls' start times, as in the ns-3 runs. It is run on both readings of the
seed's missing figures: ``homogeneous`` (the study's default, the one its comparison
reports) and ``trunk`` (all calls between two gateways). The ns-3 column is, for the
homogeneous reading, the committed full-mode ``comparison.csv``; for the trunk reading,
ns-3's ``main`` run with ``topology = "trunk"`` (the study has no committed trunk run
of the seed's configuration: its ``trunk`` experiment adds 1 % loss). The published
row "homogeneous topology (Fig. 1)" (packets received per second) belongs to the
homogeneous reading only. Per row, :func:`transportlab.ns2.baseline.baseline_table`
gives published / NS-2 / ns-3 with both judgements.

Beside it, ``ns2_network.csv``: per reading, simulator and configuration (UDP and SCTP
unordered too), the network-side numbers of both simulators (frames per second, mean,
99th percentile and maximum delay, jitter before playout) and the maximum delay once
every call has been sending for :data:`STARTUP_S` s (:func:`steady_delay_max`): the
experiment that separates how NS-2's agents *start* a call (they open the connection
with its first message) from how they *carry* it.

``python -m transportlab.studies.voip_cjm.ns2_baseline [--quick] [--runs N]`` writes
``data/results[/quick]/voip_cjm/ns2_baseline.csv`` and ``ns2_network.csv`` and the
figures ``ns2_baseline`` (published / NS-2 / ns-3) and ``ns2_sack_clock`` (call 0 of
run 1 in both simulators, :func:`sack_clock_figure`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import files, paths, plotting
from transportlab.engine.plotting import save_figure
from transportlab.engine.results import Results, committed_comparison, committed_table
from transportlab.engine.stats import summarise_wide
from transportlab.engine.study import Reproduction, Study
from transportlab.ns2.baseline import (
    baseline_counts,
    baseline_parser,
    baseline_table,
    print_written,
    published_value,
)
from transportlab.ns2.study import ns2_study
from transportlab.studies.voip_cjm import STUDY, analysis, ns2_scenario
from transportlab.studies.voip_cjm.parameters import CALL_START_S, CALL_START_SPREAD_S

__all__ = [
    "STUDY_NS2",
    "TOPOLOGIES",
    "TRUNK_RUNS",
    "baseline",
    "baseline_figure",
    "network_table",
    "ns2_results",
    "ns3_results",
    "sack_clock_figure",
    "steady_delay_max",
    "write",
]

NAME = "ns2_baseline"
#: The files :func:`write` writes (tables and figures, by name).
OUTPUTS = (NAME, "ns2_network", "ns2_sack_clock")
#: The options the committed full-mode files were written with (provenance.json names
#: them with the command): none, so both readings, the trunk one with :data:`TRUNK_RUNS`
#: runs in each simulator.
COMMAND_ARGS = ()
TOPOLOGIES = ("homogeneous", "trunk")
#: The published row that only the homogeneous reading has.
HOMOGENEOUS_ROW = "homogeneous topology (Fig. 1)"
#: Seconds after the last call's start (CALL_START_S + CALL_START_SPREAD_S) from which
#: every call is past its start-up: NS-2's agents open the connection with a call's
#: first message (TCP: a modelled SYN, then slow start from one segment; SCTP: the
#: four-way handshake and a HEARTBEAT that confirms the peer), ns-3's calls start on an
#: open connection.
STARTUP_S = 3.0
#: Runs of the trunk reading in full mode, in both simulators (the homogeneous reading
#: has ``main``'s 5): the study has no committed ns-3 run of it, a 15-min ns-3 run costs
#: several CPU minutes on a shared machine, and without loss or cross traffic the runs
#: differ only in the calls' start offsets (the intervals show how little that moves).
TRUNK_RUNS = 3
#: Seconds of call 0 shown by the SACK-clock figure.
SACK_CLOCK_SECONDS = 1.5
NS2_COLOR = plotting.OTHER_COLORS[4]  # the palette's grey: the reference simulator


def _ns2_analyse(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]):
    """The study's ``analyse``, plus the first seconds of NS-2's call-0 sender trace."""
    tables = analysis.analyse(raw, params)
    call0 = raw["ns2_call0"]
    if len(call0):
        first = call0["time"].min()
        tables["ns2_call0"] = call0[call0["time"] <= first + analysis.SAMPLE_SECONDS]
    else:
        tables["ns2_call0"] = call0
    return tables


def _main_only(study: Study) -> Study:
    """``study`` with its experiment ``main`` only, so that ``topology`` can be set for it."""
    main = study.reproduction.experiment("main")
    return dataclasses.replace(
        study,
        reproduction=Reproduction(experiments=(main,), comparison=study.reproduction.comparison),
    )


STUDY_NS2 = dataclasses.replace(
    ns2_study(STUDY, ns2_scenario.run, ns2_scenario.PARAMETERS, experiments=["main"]),
    analyse=_ns2_analyse,
)
STUDY_NS3_MAIN = _main_only(STUDY)


def _check_topology(topology: str) -> None:
    if topology not in TOPOLOGIES:
        raise ValueError(f"topology must be one of {TOPOLOGIES}, got {topology!r}")


def ns2_results(
    topology: str = "homogeneous", quick: bool = False, runs=None, scheduler=None, progress=True
) -> Results:
    """NS-2's re-run of ``main`` on one topology reading (cached like every simulation)."""
    _check_topology(topology)
    return Results(STUDY_NS2, quick=quick, runs=runs, scheduler=scheduler, progress=progress,
                   params={"topology": topology})  # fmt: skip


def ns3_results(
    topology: str = "homogeneous", quick: bool = False, runs=None, scheduler=None, progress=True
) -> Results:
    """ns-3's ``main`` on one topology reading (the study's own run step and cache)."""
    _check_topology(topology)
    return Results(STUDY_NS3_MAIN, quick=quick, runs=runs, scheduler=scheduler,
                   progress=progress, params={"topology": topology})  # fmt: skip


def _ns3_comparison(topology: str, quick: bool, runs, scheduler, progress) -> pd.DataFrame:
    if topology == "homogeneous" and not quick and runs is None:
        return committed_comparison(STUDY)
    return ns3_results(topology, quick, runs, scheduler, progress).comparison()


def baseline(ns2: Mapping[str, pd.DataFrame], ns3: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The published / NS-2 / ns-3 rows of every reading: ``ns2`` and ``ns3`` map a
    topology to the comparison of the published values with that simulator's runs.
    Leading column ``topology``; the trunk reading has no "homogeneous topology" row."""
    parts = []
    for topology in ns2:
        table = baseline_table(ns2[topology], ns3[topology])
        if topology != "homogeneous":
            table = table[table["row"] != HOMOGENEOUS_ROW]
        parts.append(table.assign(topology=topology))
    table = pd.concat(parts, ignore_index=True)
    return table[["topology", *[c for c in table.columns if c != "topology"]]]


def counts(table: pd.DataFrame) -> pd.DataFrame:
    """Both judgements counted per reading and protocol (:func:`baseline_counts`)."""
    return baseline_counts(table, by=("topology", "protocol"))


# ----------------------------------------------------------------------------- network side


def steady_delay_max(per_second: pd.DataFrame, after: float) -> pd.DataFrame:
    """The maximum one-way delay of the frames received from ``after`` seconds on, per
    run and configuration, from the study's ``per_second`` tables."""
    late = per_second[per_second["second"] >= after]
    table = analysis.with_configuration(late)
    return (
        table.groupby(["configuration", "run"], sort=False)["delay_max_ms"]
        .max()
        .rename("steady_delay_max_ms")
        .reset_index()
    )


NETWORK_COLUMNS = ("frames_per_s", "delay_mean_ms", "delay_p99_ms", "delay_max_ms",
                   "before_jitter_ms", "steady_delay_max_ms")  # fmt: skip


def network_table(tables: Mapping[tuple[str, str], Mapping[str, pd.DataFrame]]) -> pd.DataFrame:
    """Mean and 95 % CI over the runs of the network side (no playout buffer) per
    reading, simulator and configuration; ``tables`` maps (topology, simulator) to the
    analysed tables of ``main``."""
    parts = []
    after = CALL_START_S + CALL_START_SPREAD_S + STARTUP_S
    for (topology, simulator), main in tables.items():
        summary = analysis.with_configuration(main["summary"])
        summary = summary[summary["policy"] == "arrival"]
        steady = steady_delay_max(main["per_second"], after)
        summary = summary.merge(steady, on=["configuration", "run"], how="left")
        table = summarise_wide(summary, ["configuration"], NETWORK_COLUMNS)
        parts.append(table.assign(topology=topology, simulator=simulator))
    table = pd.concat(parts, ignore_index=True)
    front = ["topology", "simulator", "configuration"]
    return table[[*front, *[c for c in table.columns if c not in front]]]


# ----------------------------------------------------------------------------- figures

PANELS = (
    ("packets_received_per_second", "frames received per second", False),
    ("delay_max", "maximum one-way delay (ms)", True),
    ("jitter", "jitter before playout (ms, RFC 3550)", True),
)
FLOOR = {"delay_max": 10.0, "jitter": 1e-6}


def _run_span(runs: pd.Series) -> str:
    low, high = int(runs.min()), int(runs.max())
    return f"{low}" if low == high else f"{low}-{high}"


def baseline_figure(table: pd.DataFrame):
    """Per reading (rows) and published metric (columns): NS-2 and ns-3 means with their
    95 % intervals as bars per protocol, the published values as markers."""
    topologies = list(dict.fromkeys(table["topology"]))
    protocols = ["TCP", "SCTP"]
    x = np.arange(len(protocols))
    fig, axes = plotting.subplots(len(topologies), 3, figsize=(12, 3.3 * len(topologies)),
                                  squeeze=False)  # fmt: skip
    legend = None
    for i, topology in enumerate(topologies):
        reading = table[table["topology"] == topology]
        runs = f"NS-2 {_run_span(reading['ns2_runs'])}, ns-3 {_run_span(reading['ns3_runs'])} runs"
        for ax, (metric, label, log) in zip(axes[i], PANELS, strict=True):
            rows = table[(table["topology"] == topology) & (table["metric"] == metric)]
            rows = rows.drop_duplicates("protocol").set_index("protocol").reindex(protocols)
            if rows["published"].isna().all():
                ax.set_visible(False)
                continue
            for offset, simulator, name in ((-0.18, "ns2", "NS-2.35"), (0.18, "ns3", "ns-3")):
                colors = [NS2_COLOR if simulator == "ns2" else plotting.PROTOCOL_COLORS[p.lower()]
                          for p in protocols]  # fmt: skip
                values = rows[simulator].to_numpy(dtype=float)
                bottom = FLOOR[metric] if log else 0.0
                ax.bar(x + offset, np.where(np.isnan(values), 0, values - bottom), bottom=bottom,
                       width=0.34, color=colors, label=name)  # fmt: skip
                plotting.errorbar(ax, x + offset, rows[simulator], rows[f"{simulator}_ci_low"],
                                  rows[f"{simulator}_ci_high"], fmt="none", color="black",
                                  linewidth=1, capsize=2)  # fmt: skip
            ax.scatter(x, published_value(rows["published"]), marker="D", color="white",
                       edgecolor="black", zorder=4, label="published (seed 001)")  # fmt: skip
            if log:
                ax.set_yscale("log")
                ax.set_ylim(bottom=FLOOR[metric])
            ax.set_xticks(x, protocols)
            ax.set_title(f"{topology} ({runs}):\n{label}", fontsize=9)
            legend = legend or ax
    if legend is not None:
        legend.legend(fontsize=7, loc="lower left")
    runs_ns2 = int(table["ns2_runs"].max())
    runs_ns3 = int(table["ns3_runs"].max())
    fig.suptitle(
        "Seed 001: published / NS-2.35 / ns-3 on the same scenario, runs per reading in each "
        f"title; bars: mean (grey NS-2, coloured ns-3), whiskers: {plotting.CI_CLIPPED}",
        fontsize=9,
    )
    fig.tight_layout()
    return fig, max(runs_ns2, runs_ns3)


def sack_clock_figure(ns2_main: Mapping[str, pd.DataFrame], ns3_main: Mapping[str, pd.DataFrame]):
    """Call 0 of run 1 over SCTP ordered (homogeneous reading) in both simulators: when
    each message was written, when NS-2's agent sent it, when SACKs reached the sender,
    and when each simulator delivered it (the study's ``sample`` tables and NS-2's
    sender trace)."""
    fig, axes = plotting.subplots(1, 2, figsize=(12, 3.6))
    config = {"protocol": "sctp", "sctp_delivery": "ordered", "run": 1}

    def pick(frame: pd.DataFrame) -> pd.DataFrame:
        mask = np.ones(len(frame), dtype=bool)
        for column, value in config.items():
            mask &= (frame[column] == value).to_numpy()
        return frame[mask]

    ns2_sample, ns3_sample = pick(ns2_main["sample"]), pick(ns3_main["sample"])
    trace = pick(ns2_main["ns2_call0"])
    start = float(ns2_sample["send"].min()) + 1.0  # past the handshake
    window = (start, start + SACK_CLOCK_SECONDS)
    ax = axes[0]
    sent = ns2_sample[(ns2_sample["send"] >= window[0]) & (ns2_sample["send"] < window[1])]
    data = trace[(trace["event"] == "data_sent") & trace["seq"].isin(sent["seq"])]
    acks = trace[(trace["event"] == "ack_received") & (trace["time"] >= window[0]) &
                 (trace["time"] < window[1] + 0.3)]  # fmt: skip
    ax.plot(sent["send"], sent["seq"], "o", ms=3, mfc="none", color="black",
            label="message written (CBR)")  # fmt: skip
    ax.plot(data["time"], data["seq"], "s", ms=3, color=NS2_COLOR, label="DATA sent by the agent")
    ax.plot(sent["arrival"], sent["seq"], "^", ms=3, color=plotting.PROTOCOL_COLORS["sctp"],
            label="delivered at the receiver")  # fmt: skip
    for t in acks["time"]:
        ax.axvline(t, color="0.6", lw=0.6, ls=":")
    ax.set(xlabel="time (s); dotted: a SACK reaches the sender", ylabel="message of call 0",
           title="NS-2.35 Agent/SCTP: DATA leaves only when a SACK arrives")  # fmt: skip
    ax.legend(fontsize=7)
    ax = axes[1]
    for sample, name, color in (
        (ns2_sample, "NS-2.35", NS2_COLOR),
        (ns3_sample, "ns-3", plotting.PROTOCOL_COLORS["sctp"]),
    ):
        ax.plot(sample["send"], (sample["arrival"] - sample["send"]) * 1e3, ".", ms=3,
                color=color, label=name)  # fmt: skip
    ax.set(xlabel="send time (s)", ylabel="one-way delay (ms)",
           title="Call 0, every message of its first 10 s")  # fmt: skip
    ax.legend(fontsize=8)
    fig.suptitle("SCTP ordered, homogeneous reading, run 1 of each simulator", fontsize=9)
    fig.tight_layout()
    return fig, 1


# ----------------------------------------------------------------------------- writing


def _runs(
    topology: str, quick: bool, runs: int | None, trunk_runs: int | None = None
) -> int | None:
    if topology == "trunk" and trunk_runs is not None:
        return trunk_runs
    if runs is not None or quick or topology == "homogeneous":
        return runs
    return TRUNK_RUNS


def committed_network() -> pd.DataFrame:
    """ns-3's network side of the homogeneous reading from the committed full-mode
    ``summary.csv`` (``main``, 5 runs), shaped as :func:`network_table`; it records no
    per-second delays, so ``steady_delay_max_ms`` is empty there."""
    summary = committed_table(STUDY, "summary")
    summary = summary[summary["policy"] == "arrival"]
    columns = [f"{c}{suffix}" for c in NETWORK_COLUMNS[:-1]
               for suffix in ("", "_ci_low", "_ci_high")]  # fmt: skip
    table = summary[["configuration", *columns, "n_runs"]].assign(
        steady_delay_max_ms=np.nan, steady_delay_max_ms_ci_low=np.nan,
        steady_delay_max_ms_ci_high=np.nan, topology="homogeneous", simulator="ns-3",
    )  # fmt: skip
    return table


def write(
    quick: bool = False,
    runs: int | None = None,
    scheduler=None,
    progress=True,
    trunk_runs: int | None = None,
    ns2_runs: int | None = None,
) -> list:
    """Run (or load) both simulators on both readings, write the tables and figures.

    ``trunk_runs`` (default :data:`TRUNK_RUNS` in full mode) sets the trunk reading's runs
    alone (0: that reading is not run and has no rows); ``ns2_runs`` the homogeneous
    reading's NS-2 runs alone (its ns-3 column stays the committed comparison). The
    table's ``ns2_runs`` and ``ns3_runs`` say how many runs stand behind each row."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    ns2_cmp, ns3_cmp, mains = {}, {}, {}
    committed = None
    for topology in TOPOLOGIES:
        n = _runs(topology, quick, runs, trunk_runs)
        if n == 0:
            continue
        n_ns2 = ns2_runs if topology == "homogeneous" and ns2_runs is not None else n
        ns2 = ns2_results(topology, quick, n_ns2, scheduler, progress)
        ns2_cmp[topology] = ns2.comparison()
        mains[(topology, "NS-2.35")] = ns2["main"]
        ns3_cmp[topology] = _ns3_comparison(topology, quick, n, scheduler, progress)
        if topology == "homogeneous" and not quick and n is None:
            committed = committed_network()
        else:
            mains[(topology, "ns-3")] = ns3_results(topology, quick, n, scheduler,
                                                    progress)["main"]  # fmt: skip
    table = baseline(ns2_cmp, ns3_cmp)
    written = [files.write_csv(table, folder / f"{NAME}.csv")]
    network = network_table(mains)
    if committed is not None:
        network = pd.concat([network, committed[network.columns]], ignore_index=True)
        network = network.sort_values(["topology", "simulator"], kind="stable")
    written.append(files.write_csv(network.reset_index(drop=True), folder / "ns2_network.csv"))
    fig, n_runs = baseline_figure(table)
    written.append(save_figure(fig, STUDY.name, NAME, quick=quick, n_runs=n_runs))
    # The mechanism on one run: the first seconds of run 1 are the same in quick and
    # full mode (the same start draws), so the quick runs serve both.
    ns2_quick = ns2_results("homogeneous", True, None, scheduler, progress)["main"]
    ns3_quick = ns3_results("homogeneous", True, None, scheduler, progress)["main"]
    fig, n_runs = sack_clock_figure(ns2_quick, ns3_quick)
    written.append(save_figure(fig, STUDY.name, "ns2_sack_clock", quick=quick, n_runs=n_runs))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = baseline_parser(__doc__, quick="quick mode (10-s calls, 2 runs)")
    parser.add_argument(
        "--trunk-runs", type=int, default=None, help=f"trunk runs (default {TRUNK_RUNS}; 0: none)"
    )
    parser.add_argument(
        "--ns2-runs", type=int, default=None, help="NS-2 runs of the homogeneous reading"
    )
    args = parser.parse_args(argv)
    if args.trunk_runs is not None and args.trunk_runs < 0:
        parser.error(f"--trunk-runs must be >= 0, got {args.trunk_runs}")
    if args.ns2_runs is not None and args.ns2_runs < 1:
        parser.error(f"--ns2-runs must be >= 1, got {args.ns2_runs}")
    return print_written(write(quick=args.quick, runs=args.runs, scheduler=args.scheduler,
                               trunk_runs=args.trunk_runs, ns2_runs=args.ns2_runs))  # fmt: skip


if __name__ == "__main__":
    raise SystemExit(main())
