"""What reproducing the sensor-network study means: the interval sweep, Tables 2-4, figures.

One experiment, ``intervals``: every protocol this build has (UDP, TCP and, with the
SCTP model, SCTP) at each of Table 1's reporting intervals, 10 runs per point; quick
mode runs the intervals 1, 5 and 20 s with 1 run (and the quick parameters: 20 s,
11 reporting sensors). The comparison has one row per published number of Tables 2-4
(the ``Avg`` rows only when all five intervals ran); ``summary.csv`` holds every run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab import plotting, published
from transportlab.ns3util import sctp_available
from transportlab.studies.wsn_reporting_interval import analysis
from transportlab.studies.wsn_reporting_interval.parameters import PRINTED_INTERVALS
from transportlab.study import Experiment, Reproduction

STUDY_NAME = "wsn_reporting_interval"
QUICK_INTERVALS = (1.0, 5.0, 20.0)


def protocols() -> list[str]:
    """The transports this build can run: UDP, TCP, and SCTP with the SCTP model."""
    return ["udp", "tcp"] + (["sctp"] if sctp_available() else [])


def _points(intervals) -> list[dict[str, Any]]:
    # Protocols outermost, intervals innermost: the order of the runs in summary.csv.
    return [
        {"protocol": protocol, "reporting_interval": interval}
        for protocol in protocols()
        for interval in intervals
    ]


def interval_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every protocol at each of Table 1's five reporting intervals."""
    return _points(PRINTED_INTERVALS)


def quick_interval_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every protocol at the intervals 1, 5 and 20 s (quick mode)."""
    return _points(QUICK_INTERVALS)


INTERVALS = Experiment(
    name="intervals",
    description="UDP, TCP and SCTP sensor reports at each data reporting interval",
    points=interval_points,
    quick_points=quick_interval_points,
    runs=10,
    quick_runs=1,
)


def comparison(results) -> pd.DataFrame:
    """Every number of Tables 2-4 against the mean over the runs (95 % Student-t interval)."""
    reproduced = analysis.reproduced_rows(results["intervals"]["summary"])
    return published.compare(STUDY_NAME, reproduced.drop(columns="run"), write=False)


def summary(results) -> pd.DataFrame:
    """Every run: its parameters, seed, run and metrics (``analysis.summarise``)."""
    return results["intervals"]["summary"]


def _published_rows(metric: str) -> pd.DataFrame:
    pub = published.load(STUDY_NAME)
    return pub[pub["metric"] == metric]


def metrics_vs_interval_figure(results):
    """The paper's Figures 2-12 (even): each metric against the interval, ours and the paper's."""
    summary_ = results["intervals"]["summary"]
    fig, axes = plotting.subplots(2, 3, figsize=(13, 7))
    for ax, (column, (metric, _, label)) in zip(axes.flat, analysis.METRICS.items(), strict=True):
        pub = _published_rows(metric)
        style = plotting.styles(sorted(summary_["protocol"].unique()))
        for protocol, group in summary_.groupby("protocol"):
            stats_ = group.groupby("reporting_interval")[column].agg(["mean", analysis.half_width])
            # Every metric here (throughput, energy, loads, drops, delay) is non-negative.
            plotting.errorbar(
                ax,
                stats_.index,
                stats_["mean"],
                stats_["mean"] - stats_["half_width"],
                stats_["mean"] + stats_["half_width"],
                **style[protocol],
                label=f"{protocol.upper()} (ns-3)",
            )
            paper = pub[
                (pub["protocol"] == protocol.upper()) & pub["row"].str.startswith("data interval")
            ]
            if len(paper):
                x = paper["row"].str.split().str[-1].astype(float)
                ax.plot(
                    x,
                    paper["value"].astype(float),
                    linestyle="--",
                    marker="x",
                    color=style[protocol]["color"],
                    alpha=0.6,
                    label=f"{protocol.upper()} (paper)",
                )
        ax.set_xscale("log")
        ax.set_xticks(PRINTED_INTERVALS, [f"{i:g}" for i in PRINTED_INTERVALS])
        ax.set_xlabel("data reporting interval (s)")
        ax.set_ylabel(label)
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(
        f"Metrics vs reporting interval (error bars: {plotting.CI_CLIPPED}, over runs)",
        fontsize=10,
    )
    fig.tight_layout()
    return fig, results.runs("intervals")


def metric_averages_figure(results):
    """The paper's Figures 3-13 (odd): each metric averaged over the intervals, per protocol."""
    summary_ = results["intervals"]["summary"]
    fig, axes = plotting.subplots(2, 3, figsize=(13, 6))
    for ax, (column, (metric, _, label)) in zip(axes.flat, analysis.METRICS.items(), strict=True):
        # Per run the mean over the intervals (as the paper's Avg rows), then over the runs.
        per_run = summary_.groupby(["protocol", "run"])[column].mean().groupby("protocol")
        means, errors = per_run.mean(), per_run.agg(analysis.half_width)
        x = np.arange(len(means))
        colors = [plotting.PROTOCOL_COLORS[p] for p in means.index]
        ax.bar(x - 0.2, means.values, width=0.4, color=colors, label="ns-3")
        plotting.errorbar(
            ax, x - 0.2, means.values, means.values - errors.values, means.values + errors.values,
            fmt="none", color="black", linewidth=1,
        )  # fmt: skip
        pub = _published_rows(metric)
        paper = pub[(pub["row"] == "Avg") & pub["source"].str.startswith("Table")].set_index(
            "protocol"
        )["value"]
        ax.bar(
            x + 0.2,
            [float(paper.get(p.upper(), np.nan)) for p in means.index],
            width=0.4,
            color=colors,
            hatch="//",
            edgecolor="white",
            label="paper (Tables 2-4, hatched)",
            alpha=0.6,
        )
        ax.set_xticks(x, [p.upper() for p in means.index])
        ax.set_ylabel(label)
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(
        f"Average over the reporting intervals (ns-3: plain bars, {plotting.CI_CLIPPED})",
        fontsize=10,
    )
    fig.tight_layout()
    return fig, results.runs("intervals")


REPRODUCTION = Reproduction(
    experiments=(INTERVALS,),
    comparison=comparison,
    tables={"summary": summary},
    figures={
        "metrics_vs_interval": metrics_vs_interval_figure,
        "metric_averages": metric_averages_figure,
    },
)
