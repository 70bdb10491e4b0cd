"""What reproducing the bottleneck example means: its experiment, comparison and figure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.engine import plotting
from transportlab.engine.study import Experiment, Reproduction
from transportlab.studies.bottleneck_example import analysis
from transportlab.studies.bottleneck_example.comparison import comparison

ERROR_RATES = (0.0, 0.01)
PROTOCOLS = ("udp", "tcp")


def main_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """UDP and TCP, without and with 1 % packet errors on the bottleneck."""
    return [
        {"protocol": protocol, "error_rate": error_rate}
        for protocol in PROTOCOLS
        for error_rate in ERROR_RATES
    ]


MAIN = Experiment(
    name="main",
    description="UDP CBR and TCP bulk transfer, with and without packet errors",
    points=main_points,
    runs=10,
    quick_runs=2,
)


def per_point(results) -> pd.DataFrame:
    """Goodput and loss per point (mean over the runs), and how many runs differ."""
    summary = results["main"]["summary"]
    return (
        summary.groupby(["protocol", "error_rate"])
        .agg(
            goodput_kbps=("goodput_bps", lambda g: g.mean() / 1e3),
            loss_percent=("loss_ratio", lambda g: g.mean() * 100),
            ip_loss_percent=("ip_loss_ratio", lambda g: g.mean() * 100),
            distinct_runs=("packets_received", "nunique"),
        )
        .reset_index()
    )


def goodput_delay_figure(results):
    """Goodput per point against the hand calculation; delay distribution without errors."""
    tables, params = results["main"], results.params
    summary, packets = tables["summary"], tables["packets"]
    udp = dict(params, protocol="udp")
    fig, (left, right) = plotting.subplots(1, 2, figsize=(10, 3.8))
    style = plotting.styles(PROTOCOLS)
    lines = plotting.styles(PROTOCOLS, markers=False)
    for offset, (protocol, group) in zip((-0.2, 0.2), summary.groupby("protocol"), strict=True):
        means = group.groupby("error_rate")["goodput_bps"].mean() / 1e3
        spread = group.groupby("error_rate")["goodput_bps"].agg(["min", "max"]) / 1e3
        x = [i + offset for i in range(len(means))]
        color = style[protocol]["color"]
        left.bar(x, means.values, width=0.38, color=color, label=protocol.upper())
        left.vlines(x, spread["min"], spread["max"], color="black", linewidth=1)
        hand = [
            analysis.expected_goodput(dict(params, protocol=protocol, error_rate=e)) / 1e3
            for e in means.index
        ]
        left.scatter(x, hand, marker="_", s=400, color="black", zorder=3)
    left.set_xticks(range(len(ERROR_RATES)), [f"{e:g}" for e in ERROR_RATES])
    left.set_xlabel("packet error rate on the bottleneck")
    left.set_ylabel("goodput (kb/s)")
    left.set_title(
        "Goodput (bars: mean, lines: min-max over runs,\n— : hand calculation)", fontsize=9
    )
    left.legend(loc="lower left")
    lossless = packets[(packets["error_rate"] == 0.0) & (packets["event"] == "received")]
    for protocol, group in lossless.groupby("protocol"):
        delays = group["delay"].sort_values() * 1e3
        right.step(
            delays,
            [(i + 1) / len(delays) for i in range(len(delays))],
            where="post",
            label=protocol.upper(),
            **lines[protocol],
        )
    right.axvline(
        analysis.expected_udp_delay(udp) * 1e3,
        color="black",
        linestyle=":",
        label="hand calc. (UDP)",
    )
    right.set_xscale("log")
    right.set_xlabel("application one-way delay (ms)")
    right.set_ylabel("fraction of packets")
    right.set_title("Delay distribution, no errors", fontsize=9)
    right.legend(loc="lower right")
    fig.tight_layout()
    return fig, results.runs("main")


REPRODUCTION = Reproduction(
    experiments=(MAIN,),
    comparison=comparison,
    tables={"per_point": per_point},
    figures={"goodput_delay": goodput_delay_figure},
)
