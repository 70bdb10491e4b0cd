"""NS-2.35 beside ns-3 for every published row of the sensor study: published / NS-2 / ns-3.

The NS-2 column is the study's experiment ``intervals`` (every protocol at each of Table
1's intervals, 10 runs per point in full mode, 1 in quick mode) re-run in NS-2.35 itself
(:mod:`~transportlab.studies.wsn_reporting_interval.ns2_scenario`: the same fields, start
times and settings as the ns-3 runs) and analysed by the study's own ``analyse``; the
ns-3 column is the committed full-mode ``comparison.csv`` (in quick mode: the ns-3
study's quick run). Per published row, :func:`~transportlab.ns2.baseline.baseline_table`
gives the published value, NS-2's mean, 95 % interval and runs
with the project's verdict of the published value against NS-2
(:func:`transportlab.engine.verdicts.compare`, the same method and tolerance as the ns-3
column's), ns-3's mean, interval, runs and verdict, and ns-3 / NS-2 with whether ns-3
lies within the tolerance of NS-2 (``|ns3 - ns2| <= tol |ns2|``).

``python -m transportlab.studies.wsn_reporting_interval.ns2_baseline [--quick] [--runs N]
[--no-fidelity]`` writes ``data/results[/quick]/wsn_reporting_interval/ns2_baseline.csv``,
its counts ``ns2_baseline_counts.csv``, the tables of the model differences
(``ns2_baseline_fidelity``, ``_priqueue``, ``_trace``, ``_culling``) and the figure
``figures[/quick]/wsn_reporting_interval/ns2_baseline.png`` (each atomically).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import files, paths, plotting
from transportlab.engine.plotting import save_figure
from transportlab.engine.results import Results, committed_comparison
from transportlab.engine.stats import summarise_wide
from transportlab.engine.study import Experiment, Reproduction
from transportlab.ns2.baseline import (
    agrees,
    baseline_counts,
    baseline_parser,
    baseline_table,
    print_written,
    published_value,
)
from transportlab.ns2.study import ns2_study
from transportlab.studies.wsn_reporting_interval import STUDY, analysis, network, ns2_scenario
from transportlab.studies.wsn_reporting_interval.parameters import PRINTED_INTERVALS, SINK
from transportlab.studies.wsn_reporting_interval.reproduction import (
    FIDELITY_INTERVALS,
    FIDELITY_RUNS,
    fidelity_table,
    protocols,
)

__all__ = [
    "ATTRIBUTIONS",
    "STUDY_NS2",
    "attribution",
    "baseline_counts",
    "baseline_figure",
    "baseline_table",
    "ns2_results",
    "ns3_comparison",
    "write",
]

NAME = "ns2_baseline"
NS2_COLOR = plotting.OTHER_COLORS[4]  # the palette's grey: the reference simulator, as wired's


def priqueue_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every protocol at 1 s with NS-2's interface queue as one FIFO (no routing priority)."""
    return [
        {"protocol": protocol, "reporting_interval": interval, "ns2_prefer_routing": False}
        for protocol in protocols()
        for interval in FIDELITY_INTERVALS
    ]


def quick_priqueue_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """UDP at 1 s with NS-2's interface queue as one FIFO (quick)."""
    return [{"protocol": "udp", "reporting_interval": 1.0, "ns2_prefer_routing": False}]


#: NS-2 itself without PriQueue's routing priority, which ns-3's wifi MAC queue lacks: what
#: that model difference changes, shown in the simulator that has it
PRIQUEUE = Experiment(
    name="ns2_priqueue",
    description="NS-2 with its interface queue as one FIFO (Prefer_Routing_Protocols 0)",
    points=priqueue_points,
    quick_points=quick_priqueue_points,
    runs=FIDELITY_RUNS,
    quick_runs=1,
)

_BASELINE = ns2_study(STUDY, ns2_scenario.run, ns2_scenario.PARAMETERS, experiments=["intervals"])
#: the study in NS-2.35: ``intervals`` (the baseline) and ``ns2_priqueue``
STUDY_NS2 = dataclasses.replace(
    _BASELINE,
    reproduction=Reproduction(
        experiments=(*_BASELINE.reproduction.experiments, PRIQUEUE),
        comparison=_BASELINE.reproduction.comparison,
    ),
)


def ns2_results(quick: bool = False, runs: int | None = None, scheduler=None, progress=True):
    """The NS-2 re-run of experiment ``intervals`` (cached like every simulation)."""
    return Results(STUDY_NS2, quick=quick, runs=runs, scheduler=scheduler, progress=progress)


def ns3_comparison(quick: bool = False, scheduler=None, progress=True) -> pd.DataFrame:
    """The ns-3 column: the committed full-mode comparison, or the quick run's."""
    if not quick:
        table = committed_comparison(STUDY)
        # the published value as printed (text, as the NS-2 comparison has it), not parsed
        path = paths.results_dir(STUDY.name) / "comparison.csv"
        table["published"] = pd.read_csv(path, usecols=["published"], dtype=str,
                                         keep_default_na=False)["published"]  # fmt: skip
        return table
    return Results(STUDY, quick=True, scheduler=scheduler, progress=progress).comparison()


def _interval(row: str) -> float:
    return float(row.split()[-1]) if row.startswith("data interval") else np.nan


def baseline_figure(table: pd.DataFrame):
    """Per protocol (rows) and compared metric (columns), against the reporting interval:
    NS-2 and ns-3 means with their 95 % intervals, the published values as markers
    (log axes: the three columns span orders of magnitude)."""
    protocols = [p for p in ("UDP", "TCP", "SCTP") if p in set(table["protocol"])]
    metrics = [(metric, label) for metric, _, label in analysis.METRICS.values()]
    fig, axes = plotting.subplots(
        len(protocols), len(metrics), figsize=(3.0 * len(metrics), 2.7 * len(protocols)),
        squeeze=False,
    )  # fmt: skip
    rows = table.assign(interval=table["row"].map(_interval))
    rows = rows[rows["interval"].notna()]
    for i, protocol in enumerate(protocols):
        color = plotting.PROTOCOL_COLORS[protocol.lower()]
        for ax, (metric, label) in zip(axes[i], metrics, strict=True):
            mine = rows[(rows["protocol"] == protocol) & (rows["metric"] == metric)]
            mine = mine.sort_values("interval")
            for simulator, style, name in (
                ("ns2", {"color": NS2_COLOR, "marker": "s"}, "NS-2.35"),
                ("ns3", {"color": color, "marker": "o"}, "ns-3"),
            ):
                plotting.errorbar(
                    ax, mine["interval"], mine[simulator], mine[f"{simulator}_ci_low"],
                    mine[f"{simulator}_ci_high"], capsize=2, linewidth=1.2, markersize=4,
                    label=name, **style,
                )  # fmt: skip
            published = published_value(mine["published"])
            ax.scatter(mine["interval"], published, marker="x", color="black", zorder=4,
                       label="published")  # fmt: skip
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xticks(PRINTED_INTERVALS, [f"{x:g}" for x in PRINTED_INTERVALS])
            ax.set_title(f"{protocol}: {label}", fontsize=8)
            if i == len(protocols) - 1:
                ax.set_xlabel("reporting interval (s)")
    axes[0][0].legend(fontsize=6)
    runs_ns2 = int(table["ns2_runs"].max())
    runs_ns3 = int(table["ns3_runs"].max())
    fig.suptitle(
        f"Published (x) / NS-2.35 ({runs_ns2} runs) / ns-3 ({runs_ns3} runs), the same fields "
        f"and start times; {plotting.CI_CLIPPED}",
        fontsize=9,
    )
    fig.tight_layout()
    return fig, min(runs_ns2, runs_ns3)


# ----------------------------------------------------------------------------- differences

#: the tolerance of the comparison (the project's: 20 %), for ns-3 against NS-2
TOLERANCE = 0.2
#: what the model-difference tables show of each run, besides the compared metrics
CHANNEL = ["delivery_ratio", "routing_packets", "mac_frames", "mac_drops", "ns2_collisions",
           "delivered"]  # fmt: skip


def _at_fidelity_intervals(summary: pd.DataFrame) -> pd.DataFrame:
    return summary[summary["reporting_interval"].isin(FIDELITY_INTERVALS)]


def _means(summary: pd.DataFrame, by: list[str], columns: list[str]) -> pd.DataFrame:
    return summarise_wide(summary, by, columns, sort=True)


def fidelity_vs_ns2(ns3_results, ns2_results) -> pd.DataFrame:
    """Per protocol at 1 s and compared metric: NS-2 (its ``intervals`` runs), ns-3 with the
    declared configuration (its ``intervals`` runs) and with each of NS-2's models
    switched back to ns-3's own (``ns2_fidelity``): means, 95 % intervals, runs, ns-3 /
    NS-2 and whether ns-3 lies within the tolerance of NS-2."""
    columns = [*analysis.METRICS, *CHANNEL]
    ns3 = fidelity_table(ns3_results)
    ns2 = _means(_at_fidelity_intervals(ns2_results["intervals"]["summary"]), ["protocol"],
                 columns)  # fmt: skip
    rows = []
    for record in ns3.to_dict("records"):
        reference = ns2[ns2["protocol"] == record["protocol"]]
        if reference.empty:
            continue
        reference = reference.iloc[0]
        for column in columns:
            ns3_value, ns2_value = record.get(column, np.nan), reference[column]
            rows.append({
                "protocol": record["protocol"].upper(), "variant": record["variant"],
                "quantity": column, "ns3": ns3_value,
                "ns3_ci_low": record.get(f"{column}_ci_low"),
                "ns3_ci_high": record.get(f"{column}_ci_high"), "ns3_runs": record["n_runs"],
                "ns2": ns2_value, "ns2_ci_low": reference[f"{column}_ci_low"],
                "ns2_ci_high": reference[f"{column}_ci_high"],
                "ns2_runs": reference["n_runs"], "ns3_over_ns2": ns3_value / ns2_value
                if ns2_value else np.nan,
                "within_tolerance": abs(ns3_value - ns2_value) <= TOLERANCE * abs(ns2_value),
            })  # fmt: skip
    return pd.DataFrame(rows)


def priqueue_table(ns2_results, baseline_results=None) -> pd.DataFrame:
    """NS-2 at 1 s with PriQueue's routing priority (its default: ``intervals`` of
    ``baseline_results``, default ``ns2_results``) and without (``ns2_priqueue`` of
    ``ns2_results``, one FIFO as ns-3's wifi MAC queue): every compared metric and the
    channel counts, mean and 95 % interval over the runs."""
    baseline_results = ns2_results if baseline_results is None else baseline_results
    frame = pd.concat(
        [_at_fidelity_intervals(baseline_results["intervals"]["summary"]),
         ns2_results["ns2_priqueue"]["summary"]],
        ignore_index=True,
    )  # fmt: skip
    frame["interface_queue"] = np.where(
        frame["ns2_prefer_routing"].astype(bool), "routing first (NS-2)", "one FIFO (ns-3)"
    )
    return _means(frame, ["protocol", "interface_queue"], [*analysis.METRICS, *CHANNEL])


def _frames(counts: pd.DataFrame, source: str) -> pd.Series:
    mine = counts[counts["source"] == source]
    return mine.groupby("packet_class")["count"].sum()


def _one_way_neighbours(params: Mapping[str, Any], seed: int, run: int) -> pd.Series:
    """Per sensor, the 150-m nodes it hears but cannot reach."""
    links = network.link_table(params, seed, run)
    receives = {(a, b) for a, b, r in zip(links["tx"], links["rx"], links["receives"],
                                           strict=True) if r}  # fmt: skip
    nodes = range(len(network.node_ranges(params)))
    long_range = [n for n in nodes if network.is_long_range(n)]
    return pd.Series({
        sensor: sum((g, sensor) in receives and (sensor, g) not in receives for g in long_range)
        for sensor in nodes if sensor != SINK
    })  # fmt: skip


def trace_table(ns3_results, ns2_results, run: int = 1, interval: float = 1.0) -> pd.DataFrame:
    """One run (``run`` of ``intervals`` at ``interval``, the same field, start times and
    settings in both) of every protocol, traced in both simulators: reports delivered;
    packets the routing layers handed to their interfaces per delivered report (data: the
    hops a report takes, routing: the routing load); the frames the MACs sent by kind;
    frames given up at the retry limit; the decodable frames lost in collisions (NS-2's
    COL lines; ns-3: the same count, kept by its PHY); ARP frames; energy per node; and
    the sensors that hear a 150-m node they cannot reach, with their share of delivered
    reports against the others'."""
    rows = []
    for simulator, results in (("ns3", ns3_results), ("ns2", ns2_results)):
        tables = results["intervals"]
        pick = {
            name: frame[(frame["run"] == run) & (frame["reporting_interval"] == interval)]
            for name, frame in tables.items()
            if name in ("summary", "counts", "packets")
        }
        for protocol, summary in pick["summary"].groupby("protocol"):
            s = summary.iloc[0]
            counts = pick["counts"][pick["counts"]["protocol"] == protocol]
            handed, sent = _frames(counts, "wifi-mac-tx"), _frames(counts, "wifi-phy-tx")
            data = handed.reindex(list(analysis.DATA_CLASSES)).fillna(0).sum()
            given_up = _frames(counts, "wifi-mac-drop")
            values = {
                "reports delivered": s["delivered"],
                "delivery ratio": s["delivery_ratio"],
                "data packets handed to the interfaces per delivered report":
                    data / s["delivered"] if s["delivered"] else np.nan,
                "routing packets handed to the interfaces": s["routing_packets"],
                "RTS frames": sent.get("rts", 0), "CTS frames": sent.get("cts", 0),
                "ACK frames": sent.get("ack", 0),
                "data frames": sent.reindex(list(analysis.DATA_CLASSES)).fillna(0).sum(),
                "routing frames": sent.get("routing", 0), "ARP frames": sent.get("arp", 0),
                "data packets given up at the retry limit":
                    given_up.reindex(list(analysis.DATA_CLASSES)).fillna(0).sum(),
                "routing packets given up at the retry limit": given_up.get("routing", 0),
                "decodable frames lost in collisions": _collision_drops(simulator, s, counts),
                "dropped packets (the compared metric)": s["dropped_packets"],
                "energy per node (J)": s["energy_per_node_j"],
                "agent delay (ms)": s["mean_delay_ms"],
            }  # fmt: skip
            values.update(_delivery_by_links(pick["packets"], protocol, s, run))
            for quantity, value in values.items():
                rows.append({"protocol": protocol.upper(), "quantity": quantity,
                             "simulator": simulator, "value": float(value)})  # fmt: skip
    table = (
        pd.DataFrame(rows)
        .pivot_table(
            index=["protocol", "quantity"], columns="simulator", values="value", sort=False
        )
        .reset_index()
    )
    table.columns.name = None
    table["ns3_over_ns2"] = table["ns3"] / table["ns2"]
    return table


def _collision_drops(simulator: str, summary: pd.Series, counts: pd.DataFrame) -> float:
    if simulator == "ns2":
        reason = ns2_scenario.NS2_DROP_REASON_CODES["COL"]
        return float(counts.loc[counts["reason"] == reason, "count"].sum())
    others = counts["source"].isin(analysis.NON_PHY_DROP_SOURCES)
    return float(summary["dropped_packets"] - counts.loc[others, "count"].sum())


def _delivery_by_links(packets: pd.DataFrame, protocol: str, summary: pd.Series, run: int):
    mine = packets[packets["protocol"] == protocol]
    sent = mine[mine["event"] == "sent"].groupby("flow").size()
    got = mine[mine["event"] == "received"].groupby("flow").size()
    got = got.reindex(sent.index, fill_value=0)
    declared = STUDY.parameters.params
    params = STUDY.parameters.validate({k: summary[k] for k in declared if k in summary})
    one_way = _one_way_neighbours(params, int(summary["seed"]), run).reindex(sent.index)
    hears = one_way > 0
    return {
        "sensors hearing a 150-m node they cannot reach": float(hears.sum()),
        "their delivery ratio": got[hears].sum() / sent[hears].sum() if hears.any() else np.nan,
        "delivery ratio of the others": got[~hears].sum() / sent[~hears].sum()
        if (~hears).any()
        else np.nan,
    }


def culling_table(ns3_results, ns2_results) -> pd.DataFrame:
    """The carrier-sense culling distance of every run of ``intervals``: NS-2's (printed as
    ``distCST_``) and the one ns-3's PHY fixed in the same replication, how many runs had
    each distance, and in how many runs the two simulators fixed the same one (0.1 m: NS-2
    prints one decimal)."""
    key = ["protocol", "reporting_interval", "run"]
    both = []
    for simulator, results in (("ns3", ns3_results), ("ns2", ns2_results)):
        performance = results["intervals"]["performance"]
        both.append(performance[[*key, "ns2_culling_distance_m"]].rename(
            columns={"ns2_culling_distance_m": simulator}))  # fmt: skip
    runs = both[0].merge(both[1], on=key, how="outer")
    rows = [
        {"simulator": simulator, "culling_distance_m": round(float(distance), 1),
         "runs": int(count)}
        for simulator in ("ns2", "ns3")
        for distance, count in runs[simulator].round(1).value_counts().sort_index().items()
    ]  # fmt: skip
    same = (runs["ns3"] - runs["ns2"]).abs() <= 0.1
    rows.append({"simulator": "both, the same distance", "culling_distance_m": np.nan,
                 "runs": int(same.sum())})  # fmt: skip
    rows.append({"simulator": "runs in both", "culling_distance_m": np.nan,
                 "runs": int(runs[["ns2", "ns3"]].notna().all(axis=1).sum())})  # fmt: skip
    return pd.DataFrame(rows)


def key_numbers(baseline: pd.DataFrame, trace: pd.DataFrame) -> pd.DataFrame:
    """The numbers section 8.5 of notebook 04 states, computed from the committed tables:
    per protocol, the published rows and how many the paper matches in NS-2 and in ns-3
    and ns-3 matches NS-2; NS-2's and ns-3's delivery ratios in the traced run."""
    rows = []
    for protocol, mine in baseline.groupby("protocol", sort=False):
        delivered = trace[(trace["protocol"] == protocol)
                          & (trace["quantity"] == "delivery ratio")]  # fmt: skip
        rows.append({
            "protocol": protocol, "rows": len(mine),
            "paper_matches_ns2": int(agrees(mine["paper_vs_ns2"], mine["paper_vs_ns2_note"]).sum()),
            "paper_matches_ns3": int(agrees(mine["paper_vs_ns3"], mine["paper_vs_ns3_note"]).sum()),
            "ns3_within_tolerance_of_ns2": int((mine["ns3_within_tolerance_of_ns2"] == True).sum()),  # noqa: E712
            "median_published_over_ns2": float(
                (published_value(mine["published"]) / mine["ns2"]).median()),
            "median_ns3_over_ns2": float(mine["ns3_over_ns2"].median()),
            "traced_run_ns2_delivery": float(delivered["ns2"].iloc[0])
            if len(delivered) else np.nan,
            "traced_run_ns3_delivery": float(delivered["ns3"].iloc[0])
            if len(delivered) else np.nan,
        })  # fmt: skip
    return pd.DataFrame(rows)


#: what a published row's two judgements say about the cause of a gap
ATTRIBUTIONS = {
    (True, True): "paper = NS-2, ns-3 ~ NS-2: reproduced",
    (True, False): "paper = NS-2, ns-3 off NS-2: our port",
    (False, True): "paper != NS-2, ns-3 ~ NS-2: the paper",
    (False, False): "paper != NS-2, ns-3 off NS-2: both",
}


def attribution(table: pd.DataFrame) -> pd.DataFrame:
    """Per protocol and metric, the published rows with both simulators' values by what
    their two judgements attribute a gap to (:data:`ATTRIBUTIONS`): the paper agrees with
    NS-2 or not (:func:`~transportlab.ns2.baseline.agrees`), ns-3 lies within the tolerance
    of NS-2 or not. Rows missing either value are left out."""
    rows = table[table["ns2"].notna() & table["ns3"].notna()]
    paper = agrees(rows["paper_vs_ns2"], rows["paper_vs_ns2_note"]).astype(bool)
    port = (rows["ns3_within_tolerance_of_ns2"] == True).astype(bool)  # noqa: E712
    labels = [ATTRIBUTIONS[(a, b)] for a, b in zip(paper, port, strict=True)]
    counts = (
        rows.assign(attribution=labels)
        .groupby(["protocol", "metric", "attribution"], sort=True)
        .size()
        .unstack("attribution", fill_value=0)
        .reindex(columns=list(ATTRIBUTIONS.values()), fill_value=0)
    )
    counts.loc[("all", ""), :] = counts.sum()
    counts.columns.name = None
    return counts.astype(int).reset_index()


def write(
    quick: bool = False,
    runs: int | None = None,
    scheduler=None,
    progress=True,
    fidelity=True,
    ns3_runs: int | None = None,
    priqueue_runs: int | None = None,
    priqueue: bool = True,
) -> list:
    """Run (or load) both columns, write the table, its counts, the figure and the tables
    of the model differences (``<NAME>_fidelity`` from ns-3's ``ns2_fidelity`` unless
    ``fidelity`` is false, ``<NAME>_priqueue`` unless ``priqueue`` is false,
    ``<NAME>_trace``, ``<NAME>_culling``).

    ``runs``: NS-2's replications per point; ``ns3_runs`` those of the ns-3 runs the trace,
    culling and fidelity tables read, ``priqueue_runs`` those of ``ns2_priqueue`` (default:
    ``runs``), for a re-run that could not give every experiment the same number."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    ns3_runs = runs if ns3_runs is None else ns3_runs
    priqueue_runs = runs if priqueue_runs is None else priqueue_runs
    ns2 = ns2_results(quick=quick, runs=runs, scheduler=scheduler, progress=progress)
    table = baseline_table(
        ns2.comparison(), ns3_comparison(quick=quick, scheduler=scheduler, progress=progress)
    )
    ns3 = Results(STUDY, quick=quick, runs=ns3_runs, scheduler=scheduler, progress=progress)
    tables = {
        NAME: table,
        f"{NAME}_counts": baseline_counts(table),
        f"{NAME}_trace": trace_table(ns3, ns2),
        f"{NAME}_culling": culling_table(ns3, ns2),
    }
    if priqueue:
        without = ns2
        if priqueue_runs != runs:
            without = ns2_results(quick=quick, runs=priqueue_runs, scheduler=scheduler,
                                  progress=progress)  # fmt: skip
        tables[f"{NAME}_priqueue"] = priqueue_table(without, ns2)
    if fidelity:
        tables[f"{NAME}_fidelity"] = fidelity_vs_ns2(ns3, ns2)
    fig, n_runs = baseline_figure(table)
    written = [files.write_csv(frame, folder / f"{name}.csv") for name, frame in tables.items()]
    written.append(save_figure(fig, STUDY.name, NAME, quick=quick, n_runs=n_runs))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = baseline_parser(__doc__, quick="quick mode (20-s runs, 1 run)",
                             runs="replications (default: 10)")  # fmt: skip
    parser.add_argument(
        "--no-fidelity",
        action="store_true",
        help="without ns-3's ns2_fidelity experiment (36 runs in full mode)",
    )
    parser.add_argument("--ns3-runs", type=int, default=None, help="ns-3 replications")
    parser.add_argument("--priqueue-runs", type=int, default=None, help="of ns2_priqueue")
    parser.add_argument("--no-priqueue", action="store_true", help="without ns2_priqueue")
    args = parser.parse_args(argv)
    written = write(quick=args.quick, runs=args.runs, scheduler=args.scheduler,
                    fidelity=not args.no_fidelity, ns3_runs=args.ns3_runs,
                    priqueue_runs=args.priqueue_runs,
                    priqueue=not args.no_priqueue)  # fmt: skip
    return print_written(written)


if __name__ == "__main__":
    raise SystemExit(main())
