"""What reproducing voip_cjm means: its experiments, comparison, tables and figures.

The experiments are the sweeps of notebook 02: the seed's configuration
(``main``, section 3-4) and the four experiments beyond the seed (section 5: loss,
cross traffic, trunk, talkspurts), plus one recording per transport played out by
many buffers (``playout_models``, section 5.4). In full mode the seed's
configuration sends for 15 minutes (5 runs); the experiments beyond it send for at
most one minute (3 runs; 1 run in quick mode, where everything sends for 10 s).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import plotting
from transportlab.engine.stats import summarise_wide
from transportlab.engine.study import Experiment, PointsFn, Reproduction
from transportlab.ns3.capabilities import pr_sctp_available, sctp_available
from transportlab.studies.voip_cjm import analysis, comparison

#: Voice sent per call in the experiments beyond the seed (full mode; quick mode is shorter).
BEYOND_DURATION = 60.0
#: Loss rates of the loss experiment: two in full mode, one for short (quick-mode) runs.
LOSS_RATES = (0.01, 0.03)
QUICK_LOSS_RATES = (0.02,)
#: PR-SCTP configuration of the loss experiment: abandon a frame 100 ms after sending it.
PR_SCTP = {"protocol": "sctp", "sctp_delivery": "unordered", "sctp_pr_lifetime_ms": 100.0}
#: Loss on the shared link of the trunk and playout-model experiments.
TRUNK_LOSS_RATE = 0.01
#: Calls that offer the seed's 2400 frames/s on average with 43 % voice activity.
TALKSPURT_CALLS = 113

#: The load sweep: mean rates (Mb/s) of the on/off cross traffic beside the seed's 48
#: calls (0 = none), and numbers of calls without cross traffic. 48 calls of 202-byte
#: UDP frames are 3.9 Mb/s of the 5 Mb/s link (SCTP's 222-byte frames 4.3 Mb/s): the
#: sweep crosses the link's capacity both ways.
LOAD_CROSS_RATES_MBPS = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)
LOAD_CALLS = (56, 64, 72)
QUICK_LOAD_CROSS_RATES_MBPS = (0.0, 2.0)


# --------------------------------------------------------------------------- experiments


def configurations() -> list[dict[str, Any]]:
    """The transport configurations compared: UDP, TCP and (with the SCTP model) SCTP
    with ordered and with unordered delivery, one socket per call."""
    configs: list[dict[str, Any]] = [{"protocol": "udp"}, {"protocol": "tcp"}]
    if sctp_available():
        configs += [
            {"protocol": "sctp", "sctp_delivery": "ordered"},
            {"protocol": "sctp", "sctp_delivery": "unordered"},
        ]
    return configs


def main_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The seed's configuration, every transport configuration."""
    return configurations()


def _loss(rates) -> list[dict[str, Any]]:
    """Random loss on the shared link at ``rates``; also PR-SCTP where the model has it."""
    configs = configurations()
    if pr_sctp_available():
        configs.append(dict(PR_SCTP))
    return [dict(c, loss_rate=x) for x in rates for c in configs]


def loss_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Random loss on the shared link (1 and 3 %); also PR-SCTP where the model has it."""
    return _loss(LOSS_RATES)


def quick_loss_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Random loss on the shared link (2 % only); also PR-SCTP where the model has it."""
    return _loss(QUICK_LOSS_RATES)


def cross_traffic_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Bursty UDP on/off cross traffic on the shared link."""
    return [dict(c, cross_traffic="udp_onoff") for c in configurations()]


def trunk_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The trunk topology with 1 % loss: one connection per call, or one for all."""
    configs = configurations() + [{"protocol": "tcp", "connection": "shared"}]
    if sctp_available():
        configs += [
            {"protocol": "sctp", "sctp_delivery": "ordered", "connection": "shared"},
            {"protocol": "sctp", "sctp_delivery": "unordered", "connection": "shared"},
        ]
    return [dict(c, topology="trunk", loss_rate=TRUNK_LOSS_RATE) for c in configs]


def talkspurt_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Talkspurts and silences; 113 calls offer 2400 frames/s on average."""
    return [dict(c, voice_activity="talkspurts", n_calls=TALKSPURT_CALLS) for c in configurations()]


def playout_model_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """UDP and TCP with 1 % loss, played out by the variants of every playout model."""
    return [
        {"protocol": protocol, "loss_rate": TRUNK_LOSS_RATE, "playout_set": "variants"}
        for protocol in ("udp", "tcp")
    ]


def _cross_load(rate: float) -> dict[str, Any]:
    if rate == 0.0:
        return {"cross_traffic": "none"}
    return {"cross_traffic": "udp_onoff", "cross_rate_mbps": rate}


def _load(cross_rates, calls) -> list[dict[str, Any]]:
    configs = [c for c in configurations() if c.get("sctp_delivery") != "unordered"]
    points = [dict(c, **_cross_load(rate)) for rate in cross_rates for c in configs]
    return points + [dict(c, n_calls=n) for n in calls for c in configs]


def load_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """UDP, TCP and SCTP ordered with more cross traffic, and with more calls."""
    return _load(LOAD_CROSS_RATES_MBPS, LOAD_CALLS)


def quick_load_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """No cross traffic and 2 Mb/s of it (quick mode)."""
    return _load(QUICK_LOAD_CROSS_RATES_MBPS, ())


def one_minute(points: PointsFn) -> PointsFn:
    """``points`` in full mode: section 5 sends for BEYOND_DURATION, not 15 minutes.

    In quick mode the experiments take the points as they are (the quick-mode
    duration, 10 s, like every other experiment).
    """

    def full(params: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [dict(point, duration=BEYOND_DURATION) for point in points(params)]

    return full


MAIN = Experiment(
    name="main",
    description="the seed's configuration: 48 calls over UDP, TCP, SCTP ordered/unordered",
    points=main_points,
    runs=5,
    quick_runs=2,
)
LOSS = Experiment(
    name="loss",
    description="random loss on the shared link (and PR-SCTP)",
    points=one_minute(loss_points),
    quick_points=quick_loss_points,
    runs=3,
    quick_runs=1,
)
CROSS_TRAFFIC = Experiment(
    name="cross_traffic",
    description="bursty UDP on/off cross traffic (mean 1 Mb/s) on the shared link",
    points=one_minute(cross_traffic_points),
    quick_points=cross_traffic_points,
    runs=3,
    quick_runs=1,
)
TRUNK = Experiment(
    name="trunk",
    description="trunk topology with 1 % loss: a connection per call or one for all",
    points=one_minute(trunk_points),
    quick_points=trunk_points,
    runs=3,
    quick_runs=1,
)
TALKSPURTS = Experiment(
    name="talkspurts",
    description="113 calls with talkspurts and silences",
    points=one_minute(talkspurt_points),
    quick_points=talkspurt_points,
    runs=3,
    quick_runs=1,
)
LOAD = Experiment(
    name="load",
    description="more cross traffic or more calls: where delay and jitter reach the seed's",
    points=one_minute(load_points),
    quick_points=quick_load_points,
    runs=3,
    quick_runs=1,
)
PLAYOUT_MODELS = Experiment(
    name="playout_models",
    description="one recording per transport (1 % loss) played out by many buffers",
    points=one_minute(playout_model_points),
    quick_points=playout_model_points,
    runs=1,
    quick_runs=1,
)


# --------------------------------------------------------------------------- tables

SUMMARY_COLUMNS = (
    "frames_per_s", "ip_packets_per_s", "delay_mean_ms", "delay_p99_ms", "delay_max_ms",
    "before_jitter_ms", "after_jitter_ms", "playout_delay_mean_ms", "late_loss_rate", "R", "MOS",
)  # fmt: skip
LOSS_COLUMNS = (
    "network_loss_rate", "late_loss_rate", "delay_p99_ms", "delay_max_ms", "before_jitter_ms",
    "R",
)  # fmt: skip
CROSS_TRAFFIC_COLUMNS = (
    "frames_per_s", "network_loss_rate", "late_loss_rate", "delay_max_ms", "before_jitter_ms",
    "after_jitter_ms", "playout_delay_mean_ms", "R",
)  # fmt: skip
TRUNK_COLUMNS = (
    "frames_per_s", "network_loss_rate", "late_loss_rate", "delay_max_ms", "before_jitter_ms",
    "R",
)  # fmt: skip
TALKSPURT_COLUMNS = (
    "frames_per_s", "network_loss_rate", "late_loss_rate", "delay_p99_ms", "delay_max_ms",
    "before_jitter_ms", "playout_delay_mean_ms", "R",
)  # fmt: skip
LOAD_COLUMNS = (
    "frames_per_s", "network_loss_rate", "delay_mean_ms", "delay_p99_ms", "delay_max_ms",
    "before_jitter_ms",
)  # fmt: skip
PLAYOUT_MODEL_COLUMNS = (
    "playout_delay_mean_ms", "late_loss_rate", "after_jitter_ms", "mouth_to_ear_ms",
    "total_loss_rate", "R", "MOS",
)  # fmt: skip


def _mean_table(results, experiment: str, by: list[str], columns) -> pd.DataFrame:
    summary = analysis.with_configuration(results[experiment]["summary"])
    return summarise_wide(summary, by, columns)


def summary_table(results) -> pd.DataFrame:
    """``main``: mean and 95 % CI over the runs per configuration and playout model."""
    return _mean_table(results, "main", ["configuration", "policy"], SUMMARY_COLUMNS)


def loss_table(results) -> pd.DataFrame:
    """``loss``: per loss rate, configuration and playout model."""
    return _mean_table(results, "loss", ["loss_rate", "configuration", "policy"], LOSS_COLUMNS)


def cross_traffic_table(results) -> pd.DataFrame:
    """``cross_traffic``: per configuration and playout model."""
    return _mean_table(results, "cross_traffic", ["configuration", "policy"], CROSS_TRAFFIC_COLUMNS)


def trunk_table(results) -> pd.DataFrame:
    """``trunk``: per configuration (a connection per call, or 'shared') and playout model."""
    return _mean_table(results, "trunk", ["configuration", "policy"], TRUNK_COLUMNS)


def talkspurt_table(results) -> pd.DataFrame:
    """``talkspurts``: per configuration and playout model."""
    return _mean_table(results, "talkspurts", ["configuration", "policy"], TALKSPURT_COLUMNS)


def load_frame(results) -> pd.DataFrame:
    """``load``'s per-run summary (network side, before playout) with the offered load:
    ``cross_mbps`` (0 without cross traffic), ``voice_mbps`` (the calls' bit rate on the
    shared link, :func:`analysis.voice_link_rate_mbps`) and their sum ``offered_mbps``."""
    summary = analysis.with_configuration(results["load"]["summary"])
    summary = summary[summary["policy"] == "arrival"].copy()
    summary["cross_mbps"] = np.where(
        summary["cross_traffic"] == "none", 0.0, summary["cross_rate_mbps"]
    )
    summary["voice_mbps"] = summary.apply(analysis.voice_link_rate_mbps, axis=1)
    summary["offered_mbps"] = summary["voice_mbps"] + summary["cross_mbps"]
    return summary


def load_table(results) -> pd.DataFrame:
    """``load``: per configuration, number of calls and cross traffic (before playout)."""
    frame = load_frame(results)
    by = ["configuration", "n_calls", "cross_mbps", "offered_mbps"]
    return summarise_wide(frame, by, LOAD_COLUMNS)


def playout_model_table(results) -> pd.DataFrame:
    """``playout_models``: per transport and playout model variant."""
    return _mean_table(
        results, "playout_models", ["configuration", "policy"], PLAYOUT_MODEL_COLUMNS
    )


# --------------------------------------------------------------------------- figures


def rate_delay_figure(results):
    """Frames and maximum delay per second, and call 0's delays (run 1 of ``main``)."""
    tables = results["main"]
    first = analysis.with_configuration(tables["per_second"])
    first = first[first["run"] == 1]
    fig, axes = plotting.subplots(1, 3, figsize=(13, 3.6))
    # Without loss every configuration receives the same 2400 frames per second and SCTP
    # ordered and unordered see the same delays: the lines coincide. Each is drawn
    # thinner and differently dashed than the one under it, with markers at staggered
    # seconds, so all of them stay visible.
    names = list(dict.fromkeys(first["configuration"]))
    style = plotting.styles(names)
    for i, (name, group) in enumerate(first.groupby("configuration", sort=False)):
        # Markers at staggered places along each line (fractions of the axes diagonal).
        marks = {"markevery": (0.03 * i, 0.12), "markersize": 4}
        axes[0].plot(group["second"], group["frames"], **style[name], **marks, label=name)
        axes[1].plot(group["second"], group["delay_max_ms"], **style[name], **marks, label=name)
    samples = analysis.with_configuration(tables["sample"])
    samples = samples[samples["run"] == 1]
    dots = plotting.styles(dict.fromkeys(samples["configuration"]))
    for name, group in samples.groupby("configuration", sort=False):
        received = group.dropna(subset=["arrival"])
        axes[2].plot(
            received["send"],
            (received["arrival"] - received["send"]) * 1e3,
            linestyle="none",
            marker=dots[name]["marker"],
            color=dots[name]["color"],
            markersize=2.5,
            markerfacecolor="none",
            label=name,
        )
    axes[0].set(
        xlabel="time (s)",
        ylabel="frames received per second",
        title="Frames received per second (cf. seed Fig. 3)",
    )
    axes[1].axhline(150, color="black", linestyle=":", label="ITU-T 150 ms")
    axes[1].set(
        xlabel="time (s)",
        ylabel="max one-way delay in the second (ms)",
        title="Voice delay (cf. seed Fig. 4)",
    )
    axes[2].set(
        xlabel="send time (s)", ylabel="one-way delay (ms)", title="Delay of every frame of call 0"
    )
    for ax in axes:
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig, 1


def r_factor_figure(results):
    """E-model R after each playout model, mean and 95 % CI over the runs of ``main``."""
    table = summary_table(results)
    fig, ax = plotting.subplots(figsize=(9, 3.6))
    rated = table[table["policy"] != "arrival"]
    policies = ["fixed", "adaptive", "cjm"]
    width = 0.8 / len(policies)
    names = list(dict.fromkeys(rated["configuration"]))
    # Bars are playout models (not protocols): the palette's non-protocol colours.
    style = plotting.bar_styles(policies)
    for i, policy in enumerate(policies):
        part = rated[rated["policy"] == policy].set_index("configuration").loc[names]
        x = [c + (i - 1) * width for c in range(len(names))]
        ax.bar(x, part["R"], width=width, **style[policy], label=policy)
        plotting.errorbar(
            ax, x, part["R"], part["R_ci_low"], part["R_ci_high"],
            fmt="none", color="black", linewidth=1, capsize=0,
        )  # fmt: skip
    ax.set_xticks(range(len(names)), names)
    ax.axhline(70, color="black", linestyle=":", linewidth=1)
    ax.text(len(names) - 0.5, 71, "R = 70: some users dissatisfied", ha="right", fontsize=7)
    ax.set(
        ylabel="E-model R (mean over calls)",
        ylim=(0, 100),
        title=f"Voice quality after playout (bars: mean over runs, lines: {plotting.CI_CLIPPED})",
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig, results.runs("main")


def playout_call0_figure(results):
    """How the playout models play call 0 under cross traffic (run 1, UDP and TCP)."""
    samples = analysis.with_configuration(results["cross_traffic"]["sample"])
    samples = samples[samples["run"] == 1]
    rate = results.params["cross_rate_mbps"]
    fig, axes = plotting.subplots(1, 2, figsize=(12, 3.8), sharey=True)
    for ax, (name, call) in zip(axes, samples.groupby("configuration", sort=False), strict=False):
        ax.plot(
            call["send"],
            (call["arrival"] - call["send"]) * 1e3,
            ".",
            markersize=3,
            color="black",
            label="arrival (network delay)",
        )
        style = plotting.styles(("fixed", "adaptive", "cjm"), markers=False)
        for policy in ("fixed", "adaptive", "cjm"):
            ax.plot(
                call["send"], (call[f"slot_{policy}"] - call["send"]) * 1e3, **style[policy],
                label=policy,
            )  # fmt: skip
        ax.set_yscale("log")
        ax.set(xlabel="send time (s)", title=f"Call 0 over {name}, {rate:g} Mb/s cross traffic")
    axes[0].set_ylabel("send-to-playout time (ms)")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig, 1


def playout_tradeoff_figure(results):
    """Mouth-to-ear delay against frames lost to the listener, every playout model."""
    table = playout_model_table(results)
    fig, ax = plotting.subplots(figsize=(7, 4))
    style = plotting.styles(sorted(table["configuration"].unique()))
    for name, group in table.groupby("configuration"):
        ax.plot(
            group["mouth_to_ear_ms"], 100 * group["total_loss_rate"], linestyle="none",
            marker=style[name]["marker"], color=style[name]["color"], label=name,
        )  # fmt: skip
        for _, r in group.iterrows():
            ax.annotate(
                r["policy"],
                (r["mouth_to_ear_ms"], 100 * r["total_loss_rate"]),
                fontsize=6,
                xytext=(3, 3),
                textcoords="offset points",
            )
    ax.set_xscale("log")
    ax.set(
        xlabel="mouth-to-ear delay (ms, mean over calls)",
        ylabel="frames lost to the listener (%)",
        title=f"Delay against loss of every playout model ({TRUNK_LOSS_RATE:.0%} loss)",
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig, results.runs("playout_models")


def load_figure(results):
    """Frames per second, maximum delay and jitter against the load offered to the link.

    Mean and CI over the runs of ``load``; the seed's TCP and SCTP values as
    horizontal lines. Points with cross traffic (48 calls) and with more calls (no
    cross traffic) are separate lines: the same offered load does not make the same
    queue, since the cross traffic comes in bursts of 548-byte packets.
    """
    table = load_table(results)
    seed_lines = comparison.published_lines(results.study)
    table["sweep"] = np.where(table["cross_mbps"] > 0, "cross traffic", "calls")
    metrics = (
        ("frames_per_s", "frames received per second"),
        ("delay_max_ms", "max one-way delay (ms)"),
        ("before_jitter_ms", "jitter before playout (ms)"),
    )
    fig, axes = plotting.subplots(1, 3, figsize=(14, 3.8))
    names = list(dict.fromkeys(table["configuration"]))
    style = plotting.styles(names)
    for ax, (column, label) in zip(axes, metrics, strict=True):
        for name in names:
            mine = table[table["configuration"] == name]
            base = mine[(mine["cross_mbps"] == 0) & (mine["n_calls"] == mine["n_calls"].min())]
            for sweep, dashes in (("cross traffic", "-"), ("calls", ":")):
                part = pd.concat([base, mine[mine["sweep"] == sweep]]).drop_duplicates()
                part = part.sort_values("offered_mbps")
                plotting.errorbar(
                    ax, part["offered_mbps"], part[column], part[f"{column}_ci_low"],
                    part[f"{column}_ci_high"], color=style[name]["color"],
                    marker=style[name]["marker"], linestyle=dashes, markersize=4, capsize=2,
                    label=f"{name}, {sweep}",
                )  # fmt: skip
        for (metric, protocol), value in seed_lines.items():
            if metric == column:
                ax.axhline(value, color=plotting.styles([protocol])[protocol]["color"],
                           linewidth=0.8, linestyle="--")  # fmt: skip
                ax.annotate(f"seed {protocol} {value:g}", (0.01, value), fontsize=6,
                            xycoords=("axes fraction", "data"), va="bottom")  # fmt: skip
        ax.axvline(results.params["bottleneck_rate_mbps"], color="grey", linewidth=0.8)
        ax.set(xlabel="load offered to the shared link (Mb/s)", ylabel=label)
        if column != "frames_per_s":
            ax.set_yscale("symlog", linthresh=1.0)
    axes[0].legend(fontsize=6)
    fig.suptitle(
        "Where the seed's delay and jitter are reached: more cross traffic (48 calls, solid) "
        f"or more calls (dotted); {plotting.CI_CLIPPED} over runs",
        fontsize=9,
    )
    fig.tight_layout()
    return fig, results.runs("load")


REPRODUCTION = Reproduction(
    experiments=(MAIN, LOSS, CROSS_TRAFFIC, TRUNK, TALKSPURTS, LOAD, PLAYOUT_MODELS),
    comparison=comparison.comparison,
    tables={
        "summary": summary_table,
        "loss": loss_table,
        "cross_traffic": cross_traffic_table,
        "trunk": trunk_table,
        "talkspurts": talkspurt_table,
        "load": load_table,
        "playout_models": playout_model_table,
    },
    figures={
        "rate_delay": rate_delay_figure,
        "r_factor": r_factor_figure,
        "playout_call0": playout_call0_figure,
        "playout_tradeoff": playout_tradeoff_figure,
        "load": load_figure,
    },
)
