"""NS-2.35 beside ns-3 for seed 002 section 3.5 (Brennan et al.): published / NS-2 / ns-3.

The NS-2 column is the study's experiment ``lossy`` (a bulk transfer under 15 % loss,
single- and multi-homed, 30 runs of 20 s in full mode, 4 runs of 8 s in quick mode)
re-run in NS-2.35 with its multi-homed SCTP
(:mod:`~transportlab.studies.multihoming_failover.ns2_scenario`), analysed by the
study's own ``analyse`` (first lost DATA packet, the delivery stall it caused, every
stall) and compared with the published values by the study's ``comparison``. The
``lossy`` experiment's third configuration, multi-homed with SCTP-PF, has no NS-2
counterpart (Agent/SCTP has no potentially-failed state) and no published value: it is
left out of the NS-2 run. The ns-3 column is the committed full-mode
``comparison.csv`` (quick mode: the ns-3 study's quick run), so that re-running this
module after the ns-3 results change costs no NS-2 simulation (the NS-2 runs are
cached).

``python -m transportlab.studies.multihoming_failover.ns2_baseline [--quick] [--runs N]``
writes ``data/results[/quick]/multihoming_failover/ns2_baseline.csv`` (per published
row) and ``ns2_lossy_stalls.csv`` (the study's ``lossy_stalls`` table for both
simulators) and the figures ``ns2_baseline`` and ``ns2_retransmissions`` (one run of
each simulator: when DATA was sent, retransmitted, lost and delivered).

``--goodput-rules`` writes only ``ns2_goodput_rules.csv`` (:func:`goodput_rules`): the
``lossy_many`` runs in ns-3 once more with the model attributes that apply NS-2.35's
rules (:mod:`~transportlab.studies.multihoming_failover.rules_scenario`: all of them,
then each alone, and none as the check that the run step is the study's), their goodput
and stalls against NS-2's runs (the Mann-Whitney test of :func:`distribution_table`).
The SCTP parameters themselves already agree: the study's timers are written into the
Tcl, the receive buffer and initial ssthresh are set to ns-3's, and the rest (SACK delay
and frequency, Max.Burst, initial cwnd, MTU and chunk size) are the same by default.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import files, paths, plotting, provenance, stats
from transportlab.engine.plotting import save_figure
from transportlab.engine.results import Results, committed_comparison, committed_table
from transportlab.engine.study import Reproduction
from transportlab.ns2.baseline import (
    baseline_counts,
    baseline_parser,
    baseline_table,
    print_written,
    published_value,
)
from transportlab.ns2.study import ns2_study
from transportlab.studies.multihoming_failover import (
    STUDY,
    analysis,
    ns2_scenario,
    reproduction,
    rules_scenario,
)
from transportlab.studies.multihoming_failover.comparison import comparison
from transportlab.studies.multihoming_failover.parameters import PF_OFF

__all__ = [
    "STUDY_NS2",
    "baseline_figure",
    "goodput_rules",
    "lossy_points",
    "ns2_results",
    "ns3_comparison",
    "retransmission_figure",
    "rules_study",
    "rules_table",
    "stalls_table",
    "write",
    "write_goodput_rules",
]

NAME = "ns2_baseline"
#: The files :func:`write` writes (tables and figures, by name).
OUTPUTS = (NAME, "ns2_lossy_stalls", "ns2_retransmissions", "ns2_lossy_distribution")
NS2_COLOR = plotting.OTHER_COLORS[4]  # the palette's grey: the reference simulator
#: What NS-2.35 cannot run of the ``lossy`` experiment (shown beside, not run).
NOT_EXPRESSIBLE = {
    "multi-homed + SCTP-PF": "Agent/SCTP has no potentially-failed state (RFC 7829); "
    "NS-2.35's PF belongs to its CMT agent",
}


def lossy_points(params: Mapping[str, Any], quick: bool = False) -> list[dict[str, Any]]:
    """The study's ``lossy`` points that NS-2 can run: single- and multi-homed, SCTP-PF off."""
    return [p for p in reproduction.lossy_points(params, quick) if p["pf_max_retrans"] == PF_OFF]


def _with_chunks(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]):
    """The study's ``analyse`` plus A's DATA chunks (for the retransmission figure)."""
    tables = analysis.analyse(raw, params)
    chunks = raw["chunks"]
    tables["chunks"] = chunks[(chunks["node"] == 0) & (chunks["chunk"] == "DATA")].reset_index(
        drop=True
    )
    return tables


LOSSY = dataclasses.replace(
    reproduction.LOSSY,
    description="seed 002 3.5 (Brennan et al.): single- vs multi-homed under 15 % loss, "
    "in NS-2.35 (no SCTP-PF)",
    points=lossy_points,
    quick_points=functools.partial(lossy_points, quick=True),
    available=lambda: True,
)
#: The same transfer many more times in both simulators: the statistics of seed 002 are
#: heavy-tailed (a lost retransmission doubles the RTO), so a difference of means over 30
#: runs can be chance; 300 runs per configuration show the distributions.
MANY_RUNS = 300
LOSSY_MANY = dataclasses.replace(
    LOSSY,
    name="lossy_many",
    description="lossy (SCTP-PF off) with 300 runs per configuration, both simulators",
    runs=MANY_RUNS,
)
STUDY_NS2 = dataclasses.replace(
    ns2_study(STUDY, ns2_scenario.run, ns2_scenario.PARAMETERS, experiments=["lossy"]),
    analyse=_with_chunks,
    reproduction=Reproduction(experiments=(LOSSY, LOSSY_MANY), comparison=comparison),
)


def ns2_results(quick: bool = False, runs=None, scheduler=None, progress=True) -> Results:
    """NS-2's re-run of ``lossy`` (cached like every simulation)."""
    return Results(STUDY_NS2, quick=quick, runs=runs, scheduler=scheduler, progress=progress)


def ns3_comparison(quick: bool = False, scheduler=None, progress=True) -> pd.DataFrame:
    """The ns-3 column: the committed full-mode comparison, or the quick run's."""
    if not quick:
        return committed_comparison(STUDY)
    return Results(STUDY, quick=True, scheduler=scheduler, progress=progress).comparison()


def _ns3_stalls(quick: bool, scheduler, progress) -> pd.DataFrame:
    if not quick:
        return committed_table(STUDY, "lossy_stalls")
    return Results(STUDY, quick=True, scheduler=scheduler, progress=progress).table("lossy_stalls")


def stalls_table(ns2: pd.DataFrame, ns3: pd.DataFrame) -> pd.DataFrame:
    """The study's ``lossy_stalls`` table of both simulators, one row per simulator and
    configuration; the configurations NS-2 cannot run keep a row with the reason."""
    missing = pd.DataFrame({"config": [c for c in ns3["config"] if c not in set(ns2["config"])]})
    missing["note"] = missing["config"].map(NOT_EXPRESSIBLE).fillna("no NS-2 run")
    ns2 = pd.concat([ns2.assign(note=""), missing], ignore_index=True)
    table = pd.concat([ns2.assign(simulator="NS-2.35"), ns3.assign(simulator="ns-3", note="")],
                      ignore_index=True)  # fmt: skip
    order = {c: i for i, c in enumerate(ns3["config"])}
    table = table.sort_values(["config", "simulator"], key=lambda s: s.map(order)
                              if s.name == "config" else s, kind="stable")  # fmt: skip
    front = ["config", "simulator"]
    return table[[*front, *[c for c in table.columns if c not in front]]].reset_index(drop=True)


# ----------------------------------------------------------------------------- figures

PANELS = (
    ("first_loss_time", "SCTP (single-homed)", "first lost DATA packet (s after start)"),
    ("transmission_stall", "SCTP (single-homed)", "stall it caused, single-homed (s)"),
    ("transmission_stall", "SCTP (multi-homed)", "stall it caused, multi-homed (s)"),
)
FLOOR = 0.01


def baseline_figure(table: pd.DataFrame):
    """Per published row: NS-2 and ns-3 means with their 95 % intervals, the published
    value (Brennan et al. via seed 002) as a marker; log axis (clipped at FLOOR s)."""
    fig, axes = plotting.subplots(1, len(PANELS), figsize=(11, 3.4), squeeze=False)
    for ax, (metric, protocol, title) in zip(axes[0], PANELS, strict=True):
        row = table[(table["metric"] == metric) & (table["protocol"] == protocol)].iloc[0]
        for x, simulator, color in ((0, "ns2", NS2_COLOR),
                                    (1, "ns3", plotting.PROTOCOL_COLORS["sctp"])):  # fmt: skip
            mean = float(row[simulator])
            ax.bar([x], [max(mean, FLOOR) - FLOOR], bottom=FLOOR, width=0.6, color=color)
            low = max(float(row[f"{simulator}_ci_low"]), FLOOR)
            high = float(row[f"{simulator}_ci_high"])
            ax.errorbar([x], [mean], yerr=[[max(mean - low, 0)], [max(high - mean, 0)]],
                        fmt="none", color="black", capsize=3)  # fmt: skip
        value = float(published_value(pd.Series([row["published"]])).iloc[0])
        ax.axhline(value, color="0.25", ls="--", lw=0.9, label=f"published {row['published']}")
        ax.set_yscale("log")
        ax.set_ylim(bottom=FLOOR)
        ax.set_xticks([0, 1], [f"NS-2.35\n({int(row['ns2_runs'])} runs)",
                               f"ns-3\n({int(row['ns3_runs'])} runs)"])  # fmt: skip
        ax.set_title(title, fontsize=9)
        ax.legend(fontsize=7)
    fig.suptitle(
        "Seed 002 §3.5 (Brennan et al.), 15 % loss: published / NS-2.35 / ns-3; bars: mean, "
        f"whiskers: 95 % CI (clipped at {FLOOR:g} s)",
        fontsize=9,
    )
    fig.tight_layout()
    n_runs = int(max(table["ns2_runs"].max(), table["ns3_runs"].max()))
    return fig, n_runs


def retransmission_figure(ns2: Mapping[str, pd.DataFrame], ns3: Mapping[str, pd.DataFrame],
                          run: int = 1, seconds: float = 4.0):  # fmt: skip
    """One run of each simulator, single- and multi-homed: every DATA chunk A sent (new
    or retransmitted, by path) and every delivery at B against time (relative TSNs),
    from the study's analysed ``deliveries`` and the raw-derived ``chunks`` tables."""
    homings = ("single", "multi")
    fig, axes = plotting.subplots(2, 2, figsize=(12, 6), sharex=True, squeeze=False)
    for column, homing in enumerate(homings):
        for line, (name, tables) in enumerate((("NS-2.35", ns2), ("ns-3", ns3))):
            ax = axes[line][column]
            pick = (tables["chunks"]["homing"] == homing) & (tables["chunks"]["run"] == run)
            pick &= tables["chunks"]["pf_max_retrans"] == PF_OFF
            chunks = tables["chunks"][pick]
            pick = (tables["deliveries"]["homing"] == homing) & (tables["deliveries"]["run"] == run)
            pick &= tables["deliveries"]["pf_max_retrans"] == PF_OFF
            delivered = tables["deliveries"][pick]
            if not len(chunks):
                ax.set_visible(False)
                continue
            first = chunks["tsn"].min()
            end = chunks["time"].min() + seconds
            styles = (
                ((~chunks["retransmission"]) & (chunks["path"] == 0), "new DATA, path 0", "o"),
                (chunks["retransmission"] & (chunks["path"] == 0), "retransmission, path 0", "x"),
                (chunks["retransmission"] & (chunks["path"] == 1), "retransmission, path 1", "+"),
                ((~chunks["retransmission"]) & (chunks["path"] == 1), "new DATA, path 1", "s"),
            )
            for mask, label, marker in styles:
                part = chunks[mask & (chunks["time"] <= end)]
                if len(part):
                    ax.plot(part["time"], part["tsn"] - first, marker, ms=4, mfc="none",
                            label=label)  # fmt: skip
            part = delivered[delivered["time"] <= end]
            ax.plot(part["time"], part["tsn"] - first, ".", ms=2, color="black",
                    label="delivered at B")  # fmt: skip
            ax.set_title(f"{name}, {homing}-homed, run {run}", fontsize=9)
            ax.set_ylabel("TSN (relative)")
            ax.legend(fontsize=6, loc="upper left")
    for ax in axes[-1]:
        ax.set_xlabel("time (s)")
    fig.suptitle("SCTP under 15 % loss on path 0: what each simulator sends and delivers",
                 fontsize=9)  # fmt: skip
    fig.tight_layout()
    return fig, 1


#: The ns-3 study with the same pass-through of A's DATA chunks (for the figure) and the
#: many-runs experiment.
STUDY_NS3_CHUNKS = dataclasses.replace(
    STUDY,
    analyse=_with_chunks,
    reproduction=Reproduction(experiments=(reproduction.LOSSY, LOSSY_MANY), comparison=comparison),
)

# ----------------------------------------------------------------------------- many runs

DISTRIBUTION_METRICS = ("first_loss_s", "first_loss_stall_s", "max_stall_s", "goodput_mbps")
#: A stall longer than this needed more than one T3-rtx timeout (RTO.Min is 1 s).
LONG_STALL_S = 1.5


def distribution_table(summaries: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Per configuration, metric and simulator (``summaries`` maps a simulator's name to
    the ``summary`` of its ``lossy_many`` runs): runs, mean with 95 % CI, median, 90th
    percentile, maximum and the share above LONG_STALL_S; per configuration and metric,
    the Mann-Whitney U test of the two simulators' runs (``p_same``: the probability of
    so different samples from one distribution)."""
    from scipy import stats as scipy_stats  # noqa: PLC0415

    rows = []
    labelled = {name: s.assign(config=analysis.lossy_config(s)) for name, s in summaries.items()}
    configs = list(dict.fromkeys(c for s in labelled.values() for c in s["config"]))
    for config in configs:
        for metric in DISTRIBUTION_METRICS:
            samples = {}
            for name, summary in labelled.items():
                values = summary[summary["config"] == config][metric].dropna().to_numpy()
                samples[name] = values
                if not len(values):
                    continue
                mean, low, high, n = stats.confidence_interval(values)
                rows.append({
                    "config": config, "metric": metric, "simulator": name, "n_runs": n,
                    "mean": mean, "ci_low": low, "ci_high": high,
                    "median": float(np.median(values)),
                    "p90": float(np.percentile(values, 90)), "max": float(values.max()),
                    "share_above_1_5_s": float((values > LONG_STALL_S).mean()),
                })  # fmt: skip
            present = [v for v in samples.values() if len(v)]
            if len(present) == 2:
                test = scipy_stats.mannwhitneyu(*present, alternative="two-sided")
                for row in rows[-2:]:
                    row["p_same"] = float(test.pvalue)
    return pd.DataFrame(rows)


def distribution_figure(summaries: Mapping[str, pd.DataFrame]):
    """The stall after the first lost DATA packet, every run of both simulators, as
    cumulative distributions per configuration."""
    fig, axes = plotting.subplots(1, 2, figsize=(11, 3.4), sharey=True)
    colors = {"NS-2.35": NS2_COLOR, "ns-3": plotting.PROTOCOL_COLORS["sctp"]}
    runs = 0
    for ax, config in zip(axes, ("single-homed", "multi-homed"), strict=True):
        for name, summary in summaries.items():
            mine = summary[analysis.lossy_config(summary) == config]
            values = np.sort(mine["first_loss_stall_s"].dropna().to_numpy())
            runs = max(runs, len(values))
            ax.step(values, np.arange(1, len(values) + 1) / len(values), where="post",
                    color=colors.get(name), label=f"{name} ({len(values)} runs)")  # fmt: skip
        published = (3.0, ">3 s") if config == "single-homed" else (0.5, "~0.5 s")
        ax.axvline(published[0], color="0.3", ls="--", lw=0.8, label=f"published {published[1]}")
        ax.set_xscale("log")
        ax.set(xlabel="stall caused by the first lost DATA packet (s)", title=config)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("fraction of runs <= x")
    fig.suptitle("Seed 002 §3.5 under 15 % loss: every run of both simulators", fontsize=9)
    fig.tight_layout()
    return fig, runs


# ----------------------------------------------------------------------------- NS-2's rules

#: Goodput of ``lossy_many``: ns-3 with the model attributes that apply NS-2.35's rules
#: (rules_scenario.RULE_SETS: "all" of them, then each alone) against NS-2's runs.
GOODPUT_RULES = "ns2_goodput_rules"
RULE_SETS = ("none", "all", "immediate_first_sack", "utilization_at_cwnd", "cum_ack_growth")
RULES_METRICS = ("goodput_mbps", "first_loss_stall_s", "max_stall_s")


def _rules_points(rule_sets: Sequence[str]):
    def points(params: Mapping[str, Any], quick: bool = False) -> list[dict[str, Any]]:
        return [{**p, "ns2_rules": r} for r in rule_sets for p in lossy_points(params, quick)]

    return points


def rules_study(rule_sets: Sequence[str] = RULE_SETS, runs: int = MANY_RUNS):
    """The ns-3 study whose ``lossy_many`` runs each rule set of ``rule_sets``."""
    many = dataclasses.replace(
        LOSSY_MANY,
        description="lossy_many in ns-3 with the model attributes for NS-2.35's rules",
        points=_rules_points(rule_sets),
        quick_points=functools.partial(_rules_points(rule_sets), quick=True),
        runs=runs,
    )
    return dataclasses.replace(
        STUDY,
        parameters=rules_scenario.PARAMETERS,
        run=rules_scenario.run,
        reproduction=Reproduction(experiments=(many,), comparison=comparison),
    )


def rules_table(ns2: pd.DataFrame, ns3: pd.DataFrame) -> pd.DataFrame:
    """Per rule set (``ns3``'s column ``ns2_rules``), configuration and metric of
    RULES_METRICS: the runs (``n_runs`` ns-3's, ``ns2_runs`` NS-2's), means and medians
    and the Mann-Whitney U test of :func:`distribution_table` (``p_same``)."""
    rows = []
    for rules, mine in ns3.groupby("ns2_rules", sort=False):
        table = distribution_table({"NS-2.35": ns2, "ns-3": mine})
        table = table[table["metric"].isin(RULES_METRICS)]
        for (config, metric), both in table.groupby(["config", "metric"], sort=False):
            theirs = both[both["simulator"] == "NS-2.35"].iloc[0]
            ours = both[both["simulator"] == "ns-3"].iloc[0]
            rows.append({
                "ns2_rules": rules, "config": config, "metric": metric,
                "n_runs": int(ours["n_runs"]), "ns2_runs": int(theirs["n_runs"]),
                "ns2_mean": theirs["mean"], "ns3_mean": ours["mean"],
                "ns2_median": theirs["median"], "ns3_median": ours["median"],
                "p_same": ours.get("p_same", np.nan),
            })  # fmt: skip
    return pd.DataFrame(rows)


def goodput_rules(
    rule_sets: Sequence[str] = RULE_SETS, runs: int = MANY_RUNS, scheduler=None, progress=True
) -> pd.DataFrame:
    """``lossy_many``'s goodput (and stalls) in ns-3 with NS-2.35's rules against NS-2's
    300 runs per configuration (:func:`rules_table`); ``runs`` ns-3 runs per rule set."""
    ns2 = ns2_results(scheduler=scheduler, progress=progress)["lossy_many"]["summary"]
    ns3 = Results(rules_study(rule_sets, runs), scheduler=scheduler, progress=progress)
    return rules_table(ns2, ns3["lossy_many"]["summary"])


# ----------------------------------------------------------------------------- writing


def counts(table: pd.DataFrame) -> pd.DataFrame:
    """Both judgements counted per protocol (:func:`baseline_counts`)."""
    return baseline_counts(table, by=("protocol",))


def write(quick: bool = False, runs: int | None = None, scheduler=None, progress=True) -> list:
    """Run (or load) NS-2, take ns-3's committed (or quick) results, write the tables and
    figures; return their paths."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    ns2 = ns2_results(quick=quick, runs=runs, scheduler=scheduler, progress=progress)
    table = baseline_table(ns2.comparison(), ns3_comparison(quick, scheduler, progress))
    written = [files.write_csv(table, folder / f"{NAME}.csv")]
    # The study's own table of its lossy runs, computed from NS-2's (the variant declares
    # no tables: they may read experiments NS-2 does not run).
    ns2_stalls = reproduction.lossy_stalls_table(ns2)
    stalls = stalls_table(ns2_stalls, _ns3_stalls(quick, scheduler, progress))
    written.append(files.write_csv(stalls, folder / "ns2_lossy_stalls.csv"))
    fig, n_runs = baseline_figure(table)
    written.append(save_figure(fig, STUDY.name, NAME, quick=quick, n_runs=n_runs))
    # One run of each, in quick mode: an 8-s run is the first 8 s of a 20-s one.
    ns3_quick = Results(STUDY_NS3_CHUNKS, quick=True, scheduler=scheduler, progress=progress)
    ns2_quick = ns2_results(quick=True, scheduler=scheduler, progress=progress)
    fig, n_runs = retransmission_figure(ns2_quick["lossy"], ns3_quick["lossy"])
    written.append(save_figure(fig, STUDY.name, "ns2_retransmissions", quick=quick,
                               n_runs=n_runs))  # fmt: skip
    if not quick:
        many = {
            "NS-2.35": ns2["lossy_many"]["summary"],
            "ns-3": Results(STUDY_NS3_CHUNKS, scheduler=scheduler, progress=progress)["lossy_many"][
                "summary"
            ],
        }
        written.append(
            files.write_csv(distribution_table(many), folder / "ns2_lossy_distribution.csv")
        )
        fig, n_runs = distribution_figure(many)
        written.append(save_figure(fig, STUDY.name, "ns2_lossy_distribution", n_runs=n_runs))
    return written


def write_goodput_rules(runs: int = MANY_RUNS, scheduler=None, progress=True) -> Path:
    """:func:`goodput_rules` written as ``ns2_goodput_rules.csv`` (full mode: NS-2's
    ``lossy_many`` runs exist only there), its provenance recorded; return its path."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, False))
    table = goodput_rules(runs=runs, scheduler=scheduler, progress=progress)
    path = files.write_csv(table, folder / f"{GOODPUT_RULES}.csv")
    module = "transportlab.studies.multihoming_failover.ns2_baseline"  # not __main__ when run
    options = ["--goodput-rules", *([] if runs == MANY_RUNS else ["--runs", str(runs)])]
    provenance.record_output(path, " ".join(["python", "-m", module, *options]))
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = baseline_parser(__doc__, quick="quick mode (8-s runs, 4 runs)",
                             runs=f"replications (default: {reproduction.LOSSY.runs})")  # fmt: skip
    parser.add_argument(
        "--goodput-rules",
        action="store_true",
        help=f"only {GOODPUT_RULES}.csv: lossy_many in ns-3 with NS-2.35's rules "
        f"(--runs: ns-3 runs per rule set, default {MANY_RUNS})",
    )
    args = parser.parse_args(argv)
    if args.goodput_rules:
        runs = args.runs or MANY_RUNS
        return print_written([write_goodput_rules(runs=runs, scheduler=args.scheduler)])
    return print_written(write(quick=args.quick, runs=args.runs, scheduler=args.scheduler))


if __name__ == "__main__":
    raise SystemExit(main())
