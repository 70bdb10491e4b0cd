"""What reproducing multihoming_failover means: five experiments, the comparison, tables, figures.

Experiments (the notebook's sections):

* ``seed_hub`` (seed 002 section 5.5): the seed's hub, the primary cable pulled at
  ``fail_at``, with and without source-address failover; one deterministic run each.
* ``failover_timers`` (RFC 9260 8.2, 8.3): both hosts multi-homed; Path.Max.Retrans x
  RTO.Min at HB.interval 30 s, then HB.interval with the primary plugged back
  (:func:`timer_point`); one deterministic run each.
* ``presets`` (issue 14): the primary of two dual-homed hosts dies, under the stack
  presets rfc9260, linux and freebsd (``SctpStackHelper::SetPreset``); one
  deterministic run each.
* ``lossy`` (seed 002 section 3.5, Brennan et al.): single- vs multi-homed bulk
  transfer under 15 % loss, multi-homed with SCTP-PF (RFC 7829) off and on; 30 runs
  (4 quick).
* ``prsctp_voice`` (seed 001): voice over fully reliable SCTP, PR-SCTP (lifetime,
  k-rtx) and UDP; 15 runs (2 quick).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import plotting, stats
from transportlab.engine.study import Experiment, Reproduction
from transportlab.ns3 import native
from transportlab.ns3.capabilities import sctp_available
from transportlab.studies.multihoming_failover import analysis
from transportlab.studies.multihoming_failover.comparison import comparison
from transportlab.studies.multihoming_failover.parameters import DELAY_BUDGET, PF_OFF

RTO_MAX = 60.0  # RFC 9260 default: the timer sweep keeps it
RTT = 0.02  # two_networks at 10 ms per link: the round trip for return_bound
LOSSY_LOSS_RATE = 0.15  # Brennan et al.'s loss rate (seed 002 section 3.5)
#: (policy, pr_value) of the voice experiment: full reliability, a 150 ms lifetime,
#: one and no retransmission (NS-2 k-rtx), UDP.
POLICIES = (("reliable", 0), ("ttl", 150), ("rtx", 1), ("rtx", 0), ("udp", 0))
#: The stack presets compared in ``presets`` (SctpStackHelper::GetPreset).
PRESETS = ("rfc9260", "linux", "freebsd")
#: Colours of the lossy configurations (analysis.lossy_config), the same in every figure.
# All three are SCTP: shades of the project's SCTP colour (plotting.PROTOCOL_SHADES).
LOSSY_COLORS = dict(
    zip(
        ("single-homed", "multi-homed", "multi-homed + SCTP-PF"),
        plotting.PROTOCOL_SHADES["sctp"],
        strict=False,
    )
)


# --------------------------------------------------------------------------- experiments


def seed_hub_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The seed's hub with source-address failover (our model) and without (the seed's)."""
    return [
        {"scenario": "failover", "topology": "seed_hub", "source_failover": flag, "duration": 20.0}
        for flag in (True, False)
    ]


def timer_point(
    params: Mapping[str, Any], pmr: int, rto_min: float, hb_interval: float, repair: bool
) -> dict[str, Any]:
    """A two_networks failover run long enough for its RFC 9260 timer window.

    Without a repair it stops 2 s after the window's latest end; with a repair the
    primary is plugged back 2 s after that, and the run lasts until 2 s after the latest
    return (:func:`~analysis.return_bound`). RTO.Initial is RTO.Min, at least 1 s.
    """
    _, high = analysis.failover_window(pmr, rto_min, RTO_MAX)
    repair_at = params["fail_at"] + high + 2.0 if repair else 0.0
    stop = (
        repair_at + analysis.return_bound(hb_interval, RTO_MAX, RTT)
        if repair
        else params["fail_at"] + high
    ) + 2.0
    return {
        "scenario": "failover",
        "topology": "two_networks",
        "path_max_retrans": pmr,
        "rto_min": rto_min,
        "rto_initial": max(rto_min, 1.0),
        "rto_max": RTO_MAX,
        "hb_interval": hb_interval,
        "repair_at": round(repair_at, 3),
        "duration": round(stop, 3),
    }


def timer_points(params: Mapping[str, Any], quick: bool = False) -> list[dict[str, Any]]:
    """Path.Max.Retrans x RTO.Min (HB.interval 30 s, no repair); HB.interval with a repair."""
    pmrs = [1, 2, 3] if quick else [1, 2, 3, 4, 5]
    rto_mins = [0.5, 1.0] if quick else [0.25, 0.5, 1.0]
    hb_intervals = [1.0, 30.0] if quick else [1.0, 2.0, 5.0, 30.0]
    points = [timer_point(params, pmr, r, 30.0, False) for pmr in pmrs for r in rto_mins]
    return points + [timer_point(params, 3, 1.0, hb, True) for hb in hb_intervals]


def preset_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The primary dies at ``fail_at`` under each preset; the run lasts until 2 s after
    the RFC 9260 failover window of Path.Max.Retrans 5, RTO 1 s (every preset's values),
    so that the failover without SCTP-PF is inside it. Retransmissions go to an
    alternate on timeouts only (RFC 9260 6.4: the model's default), not NS-2's
    ALTERNATE, so that only the preset decides."""
    _, high = analysis.failover_window(5, 1.0, RTO_MAX)
    return [
        {
            "scenario": "failover",
            "topology": "two_networks",
            "stack_preset": preset,
            "rtx_to_alt": "TIMEOUT_ALTERNATE",
            "duration": params["fail_at"] + high + 2.0,
        }
        for preset in PRESETS
    ]


def lossy_points(params: Mapping[str, Any], quick: bool = False) -> list[dict[str, Any]]:
    """Under 15 % loss, 8 s (quick) or 20 s runs: single-homed, multi-homed with SCTP-PF
    off (RFC 9260 alone, the seed's era) and on (PFMR 0, Linux's default)."""
    duration = 8.0 if quick else 20.0
    return [
        {
            "scenario": "lossy",
            "homing": homing,
            "pf_max_retrans": pfmr,
            "loss_rate": LOSSY_LOSS_RATE,
            "duration": duration,
        }
        for homing, pfmr in (("single", PF_OFF), ("multi", PF_OFF), ("multi", 0))
    ]


def voice_loss_rates(quick: bool = False) -> list[float]:
    return [0.05] if quick else [0.02, 0.05, 0.10]


def voice_points(params: Mapping[str, Any], quick: bool = False) -> list[dict[str, Any]]:
    """Every policy at every loss rate; 15 s (quick) or 65 s runs (the last 5 s drain)."""
    duration = 15.0 if quick else 65.0
    return [
        {
            "scenario": "prsctp",
            "policy": policy,
            "pr_value": value,
            "loss_rate": loss_rate,
            "duration": duration,
        }
        for loss_rate in voice_loss_rates(quick)
        for policy, value in POLICIES
    ]


SEED_HUB = Experiment(
    name="seed_hub",
    description="seed 002 5.5: primary cable pulled on the seed's hub, with and without "
    "source-address failover",
    points=seed_hub_points,
    runs=1,
    quick_runs=1,
    available=sctp_available,
)
FAILOVER_TIMERS = Experiment(
    name="failover_timers",
    description="RFC 9260 failover and return against the timers (Path.Max.Retrans, "
    "RTO.Min, HB.interval)",
    points=timer_points,
    quick_points=functools.partial(timer_points, quick=True),
    runs=1,
    quick_runs=1,
    available=sctp_available,
)
PRESETS_FAILOVER = Experiment(
    name="presets",
    description="the primary dies: failover under the rfc9260, linux and freebsd stack presets",
    points=preset_points,
    runs=1,
    quick_runs=1,
    available=sctp_available,
    deterministic=True,
)
LOSSY = Experiment(
    name="lossy",
    description="seed 002 3.5 (Brennan et al.): single- vs multi-homed under 15 % loss, "
    "SCTP-PF off and on",
    points=lossy_points,
    quick_points=functools.partial(lossy_points, quick=True),
    runs=30,
    quick_runs=4,
    available=sctp_available,
)
PRSCTP_VOICE = Experiment(
    name="prsctp_voice",
    description="seed 001: voice over reliable SCTP, PR-SCTP lifetime and k-rtx, and UDP",
    points=voice_points,
    quick_points=functools.partial(voice_points, quick=True),
    runs=15,
    quick_runs=2,
    available=sctp_available,
)


# --------------------------------------------------------------------------- tables


def seed_hub_table(results) -> pd.DataFrame:
    """Seed hub: when deliveries resumed after the pulled cable, the longest gap."""
    summary = results["seed_hub"]["summary"]
    return summary[
        ["source_failover", "resume_s", "max_stall_s", "association_failed", "retransmissions"]
    ].reset_index(drop=True)


def failover_timers_table(results) -> pd.DataFrame:
    """Failover and return times against their RFC 9260 windows and bounds."""
    table = analysis.timer_table(results["failover_timers"]["summary"], RTT)
    return table[
        [
            "path_max_retrans",
            "rto_min",
            "hb_interval",
            "window_low_s",
            "failover_s",
            "window_high_s",
            "in_window",
            "resume_s",
            "return_s",
            "return_bound_s",
        ]
    ].reset_index(drop=True)


def presets_table(results) -> pd.DataFrame:
    """Failover under each preset: the timers it sets, and what happened after the failure."""
    summary = results["presets"]["summary"]
    rows = []
    for _, r in summary.iterrows():
        values = {
            str(k).split("::")[-1]: str(v) for k, v in _preset_values(r["stack_preset"]).items()
        }
        rows.append(
            {
                "stack_preset": r["stack_preset"],
                "RTO.Initial": values["RtoInitial"],
                "RTO.Min": values["RtoMin"],
                "PMR": int(values["PathMaxRetrans"]),
                "PFMR": int(values["PotentiallyFailedMaxRetrans"]),
                "resume_s": r["resume_s"],
                "resume_path": int(r["resume_path"]),
                "pf_s": r["pf_s"],
                "failover_s": r["failover_s"],
                "new_data_to_primary": int(r["new_data_to_primary"]),
                "retransmissions_after_failure": int(r["retransmissions_after_failure"]),
                "max_stall_s": r["max_stall_s"],
                "delivered_MB": r["delivered_bytes"] / 1e6,
            }
        )
    return pd.DataFrame(rows)


@functools.cache
def _preset_values(name: str) -> dict[str, str]:
    """GetPreset(name) as a plain dict (ns-3 loaded only when a table asks)."""
    ns = native.load()
    return {str(k): str(v) for k, v in ns.SctpStackHelper.GetPreset(name)}


def lossy_stalls_table(results) -> pd.DataFrame:
    """Under 15 % loss, per configuration: first loss, the stall it caused, stalls."""
    return analysis.stall_summary(results["lossy"]["summary"]).reset_index()


def lossy_runs_table(results) -> pd.DataFrame:
    """Under 15 % loss, one row per run: first loss, the stall it caused, longest stall,
    goodput (what the distribution statistics below are computed from)."""
    return analysis.lossy_runs(results["lossy"]["summary"])


def lossy_exceedance_table(results) -> pd.DataFrame:
    """Per configuration, P(stall after the first DATA loss > 3 s) with its exact
    interval, and the stall's mean with a bootstrap interval (seed 002's "> 3 s")."""
    return analysis.stall_exceedance(analysis.lossy_runs(results["lossy"]["summary"]))


def lossy_brennan_table(results) -> pd.DataFrame:
    """Per configuration, the seed's statistics beside the published values: the first
    loss and the stall it caused, mean over the runs with a percentile bootstrap 95 % interval
    (:func:`transportlab.engine.stats.bootstrap_interval`: these durations are non-negative
    and skewed, and Student's t went below zero), and the median."""
    summary = results["lossy"]["summary"]
    runs = summary.assign(config=analysis.lossy_config(summary)).sort_values(
        "run", kind="mergesort"
    )  # one order of the values for every resample
    published_stall = {"single": ">3", "multi": "~0.5"}
    rows = []
    for config, group in runs.groupby("config", sort=False):
        homing = group.homing.iloc[0]
        for metric, column, value in (
            ("first_loss_time", "first_loss_s", "~1.5" if homing == "single" else "-"),
            ("transmission_stall", "first_loss_stall_s", published_stall[homing]),
        ):
            mean, low, high, n = stats.bootstrap_interval(group[column])
            rows.append(
                {
                    "config": config,
                    "metric": metric,
                    "published": value,
                    "mean": mean,
                    "ci_low": low,
                    "ci_high": high,
                    "median": float(group[column].median()),
                    "n_runs": n,
                }
            )
    return pd.DataFrame(rows)


def voice_table(results) -> pd.DataFrame:
    """Voice frames per loss rate and policy: residual loss, late or lost, delays."""
    return analysis.voice_table(results["prsctp_voice"]["summary"]).reset_index()


# --------------------------------------------------------------------------- figures


def _plain_log_axis(axis) -> None:
    """Log scale labelled 0.2, 0.5, 1, 2, 5 ... (not crowded labels such as 3x10^-1)."""
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter  # noqa: PLC0415

    axis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(FormatStrFormatter("%g"))
    axis.set_minor_formatter(NullFormatter())


def seed_hub_figure(results):
    """TSN delivered at B against time, with and without source-address failover."""
    deliveries = results["seed_hub"]["deliveries"]
    fig, ax = plotting.subplots(figsize=(6.5, 3.4))
    labels = {
        True: "source-address failover (RFC 9260 6.4.1)",
        False: "no failover (seed's lksctp)",
    }
    # Both lines are SCTP: the two configurations take the palette's non-protocol colours.
    style = plotting.styles(labels.values())
    for flag, label in labels.items():
        d = deliveries[deliveries.source_failover == flag]
        ax.plot(
            d.time, d.tsn - d.tsn.min(), ".", ms=1.5, color=style[label]["color"], label=label,
            rasterized=True,
        )  # fmt: skip
    fail_at = results.points("seed_hub")[0]["fail_at"]
    ax.axvline(fail_at, color="0.5", lw=0.8, ls="--")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("TSN delivered at B (relative)")
    ax.set_title(
        f"Seed 002 §5.5: primary cable of A pulled at {fail_at:g} s (100 Mb/s hub)", fontsize=9
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig, results.runs("seed_hub")


def failover_timers_figure(results):
    """Failover time against Path.Max.Retrans per RTO.Min, inside the RFC timer window."""
    timers = analysis.timer_table(results["failover_timers"]["summary"], RTT)
    base = timers[(timers.hb_interval == 30.0) & (timers.repair_at == 0)]
    fig, ax = plotting.subplots(figsize=(6.5, 3.6))
    style = plotting.styles(sorted(base.rto_min.unique()))
    for rto_min, rows in base.groupby("rto_min"):
        color = style[rto_min]["color"]
        ax.fill_between(
            rows.path_max_retrans,
            rows.window_low_s,
            rows.window_high_s,
            color=color,
            alpha=0.25,
            lw=0,
        )
        ax.plot(
            rows.path_max_retrans,
            rows.failover_s,
            **style[rto_min],
            label=f"RTO.Min = {rto_min:g} s",
        )
    ax.set_yscale("log")
    _plain_log_axis(ax.yaxis)
    ax.set_xticks(sorted(base.path_max_retrans.unique()))
    ax.set_xlabel("Path.Max.Retrans")
    ax.set_ylabel("failure → primary inactive (s)")
    ax.set_title(
        "Failover time (points) and the RFC 9260 timer window (bands), HB.interval 30 s",
        fontsize=9,
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig, results.runs("failover_timers")


def presets_figure(results):
    """TSN delivered at B against time under each preset (one panel each), the failure
    and, where it happened, the failover (primary inactive) or PF state marked."""

    deliveries = results["presets"]["deliveries"]
    summary = results["presets"]["summary"].set_index("stack_preset")
    fail_at = results.points("presets")[0]["fail_at"]
    fig, axes = plotting.subplots(len(PRESETS), 1, figsize=(6.5, 5.2), sharex=True, sharey=True)
    for ax, preset in zip(axes, PRESETS, strict=True):
        d = deliveries[deliveries.stack_preset == preset]
        ax.plot(d.time, d.tsn - d.tsn.min(), ".", ms=1.2, color=plotting.PROTOCOL_COLORS["sctp"])
        ax.axvline(fail_at, color="0.4", lw=0.8, ls="--")
        s = summary.loc[preset]
        for column, style, what in (("pf_s", ":", "PF"), ("failover_s", "-.", "inactive")):
            if np.isfinite(s[column]):
                ax.axvline(fail_at + s[column], color="0.25", lw=0.8, ls=style, label=what)
        ax.set_title(f"{preset}: delivery resumes {s.resume_s:.2f} s after the failure", fontsize=8)
        ax.set_ylabel("TSN", fontsize=8)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7, loc="lower right")
    axes[-1].set_xlabel(f"time (s); dashed: primary dies at {fail_at:g} s")
    fig.tight_layout()
    return fig, 1


def lossy_tsn_figure(results):
    """TSN delivered against time in run 1 of each lossy configuration."""

    lossy = results["lossy"]
    deliveries = lossy["deliveries"].assign(config=analysis.lossy_config(lossy["deliveries"]))
    # Own y scales: the goodputs differ 16-fold, a shared axis would flatten two panels.
    fig, axes = plotting.subplots(1, len(LOSSY_COLORS), figsize=(9, 3.2), sharex=True)
    for ax, (config, color) in zip(axes, LOSSY_COLORS.items(), strict=True):
        d = deliveries[(deliveries.config == config) & (deliveries.run == 1)]
        ax.plot(d.time, d.tsn - d.tsn.min(), ".", ms=2, color=color)
        ax.set_title(f"{config} (run 1)", fontsize=9)
        ax.set_xlabel("time (s)")
    axes[0].set_ylabel(f"TSN delivered (relative), {LOSSY_LOSS_RATE * 100:g} % loss")
    fig.tight_layout()
    return fig, 1


def lossy_brennan_figure(results):
    """The seed's two statistics per configuration (mean with its percentile bootstrap 95 %
    interval, as ``lossy_brennan.csv``; every run) against Brennan et al.'s values."""

    summary = results["lossy"]["summary"]
    runs = summary.assign(config=analysis.lossy_config(summary)).sort_values(
        "run", kind="mergesort"
    )
    FLOOR = 0.01  # noqa: N806 - the lower end of the log axes (s)
    fig, axes = plotting.subplots(1, 2, figsize=(8.5, 3.4))
    for ax, column, title in (
        (axes[0], "first_loss_s", "first lost DATA packet (s after the start)"),
        (axes[1], "first_loss_stall_s", "delivery stall caused by it (s)"),
    ):
        for i, (config, color) in enumerate(LOSSY_COLORS.items()):
            values = runs[runs.config == config][column].dropna().to_numpy()
            if not len(values):
                continue
            jitter = np.linspace(-0.15, 0.15, len(values))
            ax.plot(i + jitter, values, ".", color=color, alpha=0.4, ms=4)
            mean, low, high, _ = stats.bootstrap_interval(values)
            # Times and stalls are positive and spread over three decades: a log axis,
            # on which the interval is clipped at FLOOR.
            ax.errorbar(
                i,
                mean,
                yerr=[[mean - max(low, FLOOR)], [high - mean]] if np.isfinite(low) else None,
                fmt="D",
                color="k",
                ms=5,
                capsize=3,
            )
        ax.set_xticks(range(len(LOSSY_COLORS)))
        ax.set_xticklabels([c.replace(" + ", "\n+ ") for c in LOSSY_COLORS], fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.set_yscale("log")
        _plain_log_axis(ax.yaxis)
        ax.set_ylim(bottom=FLOOR)
    axes[0].axhline(1.5, color="0.25", ls="--", lw=0.8, label="Brennan et al. ~1.5 s")
    axes[1].axhline(3.0, color="0.25", ls="--", lw=0.8, label="single-homed > 3 s")
    axes[1].axhline(0.5, color="0.55", ls=":", lw=0.8, label="multi-homed ~0.5 s")
    for ax in axes:
        ax.legend(fontsize=7)
    fig.suptitle(
        "Seed 002 §3.5 (Brennan et al.) under 15 % loss: diamonds = mean, 95 % bootstrap CI "
        f"(clipped at {FLOOR:g} s); dots = runs",
        fontsize=9,
    )
    fig.tight_layout()
    return fig, results.runs("lossy")


def stall_lengths_figure(results):
    """Distribution of stall lengths over every run, against the seed's 3 s and 0.5 s."""
    stalls = results["lossy"]["stalls"]
    stalls = stalls.assign(config=analysis.lossy_config(stalls))
    threshold = results.points("lossy")[0]["stall_threshold"]
    fig, ax = plotting.subplots(figsize=(6.5, 3.4))
    for config, color in LOSSY_COLORS.items():
        lengths = np.sort(stalls[stalls.config == config].length.to_numpy())
        if len(lengths):
            ax.step(
                lengths,
                np.arange(1, len(lengths) + 1) / len(lengths),
                where="post",
                color=color,
                label=f"{config} ({len(lengths)} stalls)",
            )
    for value, style in ((3.0, "--"), (0.5, ":")):
        ax.axvline(value, color="0.4", ls=style, lw=0.8)
    ax.set_xscale("log")
    _plain_log_axis(ax.xaxis)
    ax.set_xlabel(f"stall length (s): delivery gaps > {threshold:g} s")
    ax.set_ylabel("fraction of stalls ≤ x")
    ax.set_title(
        f"Stall lengths under {LOSSY_LOSS_RATE * 100:g} % loss "
        "(dashed: seed's >3 s, dotted: ~0.5 s)",
        fontsize=9,
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig, results.runs("lossy")


def _policy_label(policy: str, value: int) -> str:
    """A legend label naming the transport ("UDP", "SCTP fully reliable", "PR-SCTP ...")."""
    if policy == "udp":
        return "UDP"
    if policy == "reliable":
        return "SCTP fully reliable"
    if policy == "ttl":
        return f"PR-SCTP lifetime {value} ms"
    if value == 0:
        return "PR-SCTP without retransmission"
    return f"PR-SCTP at most {value} retransmission{'s' if value != 1 else ''}"


def voice_delay_figure(results):
    """Delay distribution of the voice frames per policy, at the middle loss rate."""
    frames = results["prsctp_voice"]["delays"]
    loss_rates = voice_loss_rates(results.params)
    middle = loss_rates[len(loss_rates) // 2]
    fig, ax = plotting.subplots(figsize=(6.5, 3.4))
    labels = {policy: _policy_label(*policy) for policy in POLICIES}
    # Several policies give the same curve (ttl(150) and rtx(1); rtx(0) and UDP): each
    # line is thinner and differently dashed than the ones under it, with markers at
    # staggered places, so none hides another.
    style = plotting.styles(labels.values())
    for i, ((policy, value), label) in enumerate(labels.items()):
        d = frames[
            (frames.policy == policy) & (frames.pr_value == value) & (frames.loss_rate == middle)
        ]
        delays = np.sort(d.delay_s.dropna().to_numpy() * 1e3)
        if len(delays):
            ax.step(
                delays,
                np.arange(1, len(delays) + 1) / len(d),
                where="post",
                markevery=(0.03 * i, 0.15),
                markersize=5,
                **style[label],
                label=label,
            )
    ax.axvline(1e3 * DELAY_BUDGET, color="0.4", ls="--", lw=0.8)
    ax.set_xscale("log")
    _plain_log_axis(ax.xaxis)
    ax.set_xlabel("one-way delay (ms); dashed: 150 ms budget (ITU-T G.114)")
    ax.set_ylabel("fraction of frames delivered ≤ x")
    ax.set_title(f"Voice frames over a link losing {middle:.0%} each way", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig, results.runs("prsctp_voice")


REPRODUCTION = Reproduction(
    experiments=(SEED_HUB, FAILOVER_TIMERS, PRESETS_FAILOVER, LOSSY, PRSCTP_VOICE),
    comparison=comparison,
    tables={
        "seed_hub": seed_hub_table,
        "failover_timers": failover_timers_table,
        "presets": presets_table,
        "lossy_stalls": lossy_stalls_table,
        "lossy_brennan": lossy_brennan_table,
        "lossy_runs": lossy_runs_table,
        "lossy_exceedance": lossy_exceedance_table,
        "voice": voice_table,
    },
    figures={
        "seed_hub_tsn": seed_hub_figure,
        "failover_timers": failover_timers_figure,
        "presets_tsn": presets_figure,
        "lossy_tsn": lossy_tsn_figure,
        "lossy_brennan": lossy_brennan_figure,
        "stall_lengths": stall_lengths_figure,
        "voice_delay": voice_delay_figure,
    },
)
