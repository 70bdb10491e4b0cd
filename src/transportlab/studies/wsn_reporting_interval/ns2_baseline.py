"""NS-2.35 beside ns-3 for every published row of the sensor study: published / NS-2 / ns-3.

The NS-2 column is the study's experiment ``intervals`` (every protocol at each of Table
1's intervals, 10 runs per point in full mode, 1 in quick mode) re-run in NS-2.35 itself
(:mod:`~transportlab.studies.wsn_reporting_interval.ns2_scenario`: the same fields, start
times and settings as the ns-3 runs) and analysed by the study's own ``analyse``; the
ns-3 column is the committed full-mode ``comparison.csv`` (in quick mode: the ns-3
study's quick run). Per published row, :func:`baseline_table` (the wired study's, which
is study-independent) gives the published value, NS-2's mean, 95 % interval and runs
with the project's verdict of the published value against NS-2
(:func:`transportlab.published.compare`, the same method and tolerance as the ns-3
column's), ns-3's mean, interval, runs and verdict, and ns-3 / NS-2 with whether ns-3
lies within the tolerance of NS-2 (``|ns3 - ns2| <= tol |ns2|``).

``python -m transportlab.studies.wsn_reporting_interval.ns2_baseline [--quick] [--runs N]``
writes ``data/results[/quick]/wsn_reporting_interval/ns2_baseline.csv``, its counts
``ns2_baseline_counts.csv`` and the figure ``figures[/quick]/wsn_reporting_interval/
ns2_baseline.png`` (each atomically).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from transportlab import files, paths, plotting
from transportlab.figures import save_figure
from transportlab.ns2.study import ns2_study
from transportlab.reproduction import Results, committed_comparison
from transportlab.studies.wired_best_effort.ns2_baseline import (
    NS2_COLOR,
    baseline_counts,
    baseline_table,
)
from transportlab.studies.wsn_reporting_interval import STUDY, analysis, ns2_scenario
from transportlab.studies.wsn_reporting_interval.parameters import PRINTED_INTERVALS
from transportlab.studies.wsn_reporting_interval.reproduction import (
    FIDELITY_INTERVALS,
    FIDELITY_RUNS,
    protocols,
)
from transportlab.study import Experiment, Reproduction

__all__ = [
    "STUDY_NS2",
    "baseline_counts",
    "baseline_figure",
    "baseline_table",
    "ns2_results",
    "ns3_comparison",
    "write",
]

NAME = "ns2_baseline"


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
        return committed_comparison(STUDY)
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
            published = pd.to_numeric(mine["published"].astype(str).str.lstrip("~<>="),
                                      errors="coerce")  # fmt: skip
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


def write(quick: bool = False, runs: int | None = None, scheduler=None, progress=True) -> list:
    """Run (or load) both columns, write the table, its counts and the figure."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    ns2 = ns2_results(quick=quick, runs=runs, scheduler=scheduler, progress=progress)
    table = baseline_table(
        ns2.comparison(), ns3_comparison(quick=quick, scheduler=scheduler, progress=progress)
    )
    written = [files.write_csv(table, folder / f"{NAME}.csv")]
    written.append(files.write_csv(baseline_counts(table), folder / f"{NAME}_counts.csv"))
    fig, n_runs = baseline_figure(table)
    written.append(save_figure(fig, STUDY.name, NAME, quick=quick, n_runs=n_runs))
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="quick mode (20-s runs, 1 run)")
    parser.add_argument("--runs", type=int, default=None, help="replications (default: 10)")
    parser.add_argument("--scheduler", default="serial", help="serial, local or an address")
    args = parser.parse_args(argv)
    for path in write(quick=args.quick, runs=args.runs, scheduler=args.scheduler):
        print(Path(path))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
