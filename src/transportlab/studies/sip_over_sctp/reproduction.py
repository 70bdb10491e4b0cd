"""What reproducing sip_over_sctp means: its experiments, comparison, tables and figures.

Experiments (the notebook's sweeps), quick / full mode:

``message_flow``      one call over each protocol (1 run)
``throughput``        protocol x message size, 5 / 9 sizes (1 run: deterministic)
``single_session``    protocol x layout (1 run: no loss, deterministic)
``registration_processing``  protocol x processing time per SIP message (1 run)
``calls_under_loss``  protocol x loss rate 5-30 % (Table 5.3), 2 / 10 runs
``sctp_loss_trace``   SCTP x loss rate 5-30 %, every chunk recorded, 1 / 3 runs
``stream_mappings``   SCTP at 10 % loss: three stream mappings, the shared layout, 2 / 10 runs
``head_of_line``      transfer configuration x loss, 3 / 5 loss rates, 2 / 10 runs

SCTP points are left out when the build has no SCTP model.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import plotting, published
from transportlab.engine.study import Experiment, Reproduction
from transportlab.ns3.capabilities import sctp_available
from transportlab.studies.sip_over_sctp import analysis, comparison
from transportlab.studies.sip_over_sctp.parameters import (
    HOL_CONFIGS,
    available_protocols,
)

SIZES = {
    "quick": [128, 512, 1024, 1472, 4096],
    "full": [64, 128, 256, 512, 1024, 1472, 2048, 4096, 8192],
}
LOSSES = [0.05, 0.10, 0.20, 0.30]  # Table 5.3
HOL_LOSSES = {"quick": [0.0, 0.02, 0.05], "full": [0.0, 0.01, 0.02, 0.05, 0.10]}
PROCESSING_MS = [0.0, 1.0, 2.0, 3.0, 4.0]
MAPPING_LOSS = 0.10
COLORS = plotting.PROTOCOL_COLORS


# --------------------------------------------------------------------------- experiments


def message_flow_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"scenario": "one_call", "protocol": p} for p in available_protocols()]


def throughput_points(params: Mapping[str, Any], mode: str = "full") -> list[dict[str, Any]]:
    return [
        {"scenario": "throughput", "protocol": p, "message_size": size}
        for p in available_protocols()
        for size in SIZES[mode]
    ]


def single_session_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {"scenario": "single_session", "protocol": p, "layout": layout}
        for p in available_protocols()
        for layout in ("seed", "shared")
    ]


def processing_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "scenario": "single_session",
            "protocol": p,
            "proxy_processing_ms": ms,
            "agent_processing_ms": ms,
        }
        for p in available_protocols()
        for ms in PROCESSING_MS
    ]


def calls_under_loss_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {"scenario": "multi_session", "protocol": p, "loss_rate": loss}
        for p in available_protocols()
        for loss in LOSSES
    ]


def sctp_loss_trace_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    if not sctp_available():
        return []
    return [
        {"scenario": "multi_session", "protocol": "sctp", "loss_rate": loss, "sctp_trace": True}
        for loss in LOSSES
    ]


def stream_mapping_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    base = {"scenario": "multi_session", "protocol": "sctp", "loss_rate": MAPPING_LOSS}
    points = [
        dict(base, stream_mapping=m) for m in ("per-call", "single-unordered", "single-ordered")
    ]
    return [*points, dict(base, layout="shared")]


def head_of_line_points(params: Mapping[str, Any], mode: str = "full") -> list[dict[str, Any]]:
    configs = [c for c in HOL_CONFIGS if c.startswith("tcp") or sctp_available()]
    return [
        {"scenario": "hol", "hol_config": c, "loss_rate": loss}
        for c in configs
        for loss in HOL_LOSSES[mode]
    ]


MESSAGE_FLOW = Experiment(
    "message_flow",
    "one registration and one call (a1 calls b1 through the proxy) over each protocol",
    message_flow_points,
    runs=1,
    quick_runs=1,
)
THROUGHPUT = Experiment(
    "throughput",
    "seed Figure 5.2: goodput against message size on a 100 Mb/s link (deterministic)",
    throughput_points,
    runs=1,
    quick_runs=1,
    quick_points=functools.partial(throughput_points, mode="quick"),
    deterministic=True,
)
SINGLE_SESSION = Experiment(
    "single_session",
    "seed section 5.3: registration, call set-up and termination, seed and shared layout",
    single_session_points,
    runs=1,
    quick_runs=1,
    # No loss and no random element: RngRun 1, 2 and 3 give identical tables.
    deterministic=True,
)
REGISTRATION_PROCESSING = Experiment(
    "registration_processing",
    "single session with 0-4 ms of processing per SIP message at the proxy and user agents",
    processing_points,
    runs=1,
    quick_runs=1,
)
CALLS_UNDER_LOSS = Experiment(
    "calls_under_loss",
    "seed Table 5.3: eight call pairs through the proxy, 5-30 % packet loss at the router",
    calls_under_loss_points,
    runs=10,
    quick_runs=2,
)
SCTP_LOSS_TRACE = Experiment(
    "sctp_loss_trace",
    "calls under loss over SCTP with every chunk recorded: T3-rtx back-off, stalled "
    "associations and what SIP's 32-s timers make of them",
    sctp_loss_trace_points,
    runs=3,
    quick_runs=1,
    available=sctp_available,
)
STREAM_MAPPINGS = Experiment(
    "stream_mappings",
    "SIP over SCTP at 10 % loss: stream per call, one unordered or ordered stream, shared layout",
    stream_mapping_points,
    runs=10,
    quick_runs=2,
    available=sctp_available,
)
HEAD_OF_LINE = Experiment(
    "head_of_line",
    "seed section 3.4: eight transfers over SCTP streams, one stream, one or eight TCP connections",
    head_of_line_points,
    runs=10,
    quick_runs=2,
    quick_points=functools.partial(head_of_line_points, mode="quick"),
)


# --------------------------------------------------------------------------- tables


def _protocols(results) -> list[str]:
    """The protocols of the SIP experiments (SCTP only with the SCTP model)."""
    return available_protocols()


def message_flow_table(results) -> pd.DataFrame:
    """Host A's messages of one call: direction, kind, bytes and time (ms) per protocol."""
    return analysis.message_flow(results["message_flow"]["messages"])


def mean_message_size(results) -> float:
    """Mean size of the SIP messages every element sent over UDP in one call (bytes)."""
    return analysis.mean_message_size(results["message_flow"]["messages"])


def throughput_table(results) -> pd.DataFrame:
    """Goodput (Mb/s) per message size and protocol, then the header-overhead bounds."""
    summary = results["throughput"]["summary"]
    goodput = summary.pivot_table(index="message_size", columns="protocol", values="goodput_mbps")
    bound = summary.pivot_table(index="message_size", columns="protocol", values="wire_bound_mbps")
    bound.columns = [f"{c} bound" for c in bound.columns]
    table = goodput.join(bound)
    table.columns.name = None
    return table.reset_index()


def single_session_table(results) -> pd.DataFrame:
    """Registration (cold, warm), call set-up and termination (ms) per protocol and layout."""
    summary = results["single_session"]["summary"]
    table = summary[["protocol", "layout", "registration_ms", "registration_warm_ms"]].copy()
    table["call_setup_ms"] = summary["call_setup_s"] * 1e3
    table["call_termination_ms"] = summary["call_termination_s"] * 1e3
    return table


def registration_processing_table(results) -> pd.DataFrame:
    """Registration time (ms) per processing time per SIP message and protocol."""
    summary = results["registration_processing"]["summary"]
    table = summary.pivot_table(
        index="proxy_processing_ms", columns="protocol", values="registration_ms"
    )
    table.columns.name = None
    return table.reset_index()


def calls_under_loss_table(results) -> pd.DataFrame:
    """Completed calls per protocol and loss rate: mean, 95 % CI (Student's t), runs."""
    return analysis.calls_with_ci(results["calls_under_loss"]["summary"])


def mean_calls(results) -> pd.DataFrame:
    """Mean completed calls, index loss rate, one column per protocol (sorted by name)."""
    table = calls_under_loss_table(results).pivot(
        index="loss_rate", columns="protocol", values="mean"
    )
    table.columns.name = "protocol"
    return table


def calls_relative_table(results) -> pd.DataFrame:
    """Completed calls at each loss rate relative to the same run's count at 5 % (mean,
    95 % CI) per protocol, beside the seed's Table 5.3 relative to its 5 % row."""
    relative = analysis.relative_to_five_percent(results["calls_under_loss"]["summary"])
    seed = analysis.relative_to_lowest_loss(comparison.published_calls(results.study))
    relative["seed"] = [
        seed.loc[loss, p] if p in seed else np.nan
        for loss, p in zip(relative["loss_rate"], relative["protocol"], strict=True)
    ]
    return relative


def calls_relative_figure(results):
    """Each protocol's completed calls relative to its 5 % count (95 % CI), and the
    seed's Table 5.3 the same way (dashed)."""
    table = calls_relative_table(results)
    protocols = [p for p in _protocols(results) if p in set(table["protocol"])]
    fig, ax = plotting.subplots(figsize=(6.0, 3.8))
    style = plotting.styles(protocols)
    for p in protocols:
        rows = table[table["protocol"] == p]
        plotting.errorbar(
            ax, rows["loss_rate"] * 100, rows["mean"], rows["ci_low"], rows["ci_high"],
            **style[p], label=f"{p.upper()} (simulated)",
        )  # fmt: skip
        if rows["seed"].notna().any():
            ax.plot(
                rows["loss_rate"] * 100, rows["seed"], marker="s", linestyle="--",
                color=COLORS[p], alpha=0.7, label=f"{p.upper()} (seed Table 5.3)",
            )  # fmt: skip
    ax.set_xlabel("packet loss at the router (%)")
    ax.set_ylabel("completed calls / completed calls at 5 %")
    ax.set_title(f"Shape of Table 5.3 ({plotting.CI_CLIPPED})", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig, results.runs("calls_under_loss")


def sctp_udp_ratio(results) -> pd.DataFrame:
    """SCTP / UDP completed calls per loss rate, simulated and in the seed's Table 5.3."""
    ours = mean_calls(results)
    seed = comparison.published_calls(results.study)
    simulated = ours["sctp"] / ours["udp"] if "sctp" in ours else pd.Series(np.nan, ours.index)
    return pd.DataFrame(
        {
            "loss_rate": seed.index,
            "simulated": simulated.reindex(seed.index).to_numpy(),
            "seed": (seed["sctp"] / seed["udp"]).to_numpy(),
        }
    )


def call_cycle_table(results) -> pd.DataFrame:
    """Completed calls against the call cycle (set-up + talk + tear-down + pause) per
    protocol and loss rate (:func:`analysis.call_cycle`)."""
    params = results.points("calls_under_loss")[0]
    return analysis.call_cycle(
        results["calls_under_loss"]["summary"],
        params["n_pairs"],
        params["window"],
        params["call_duration"],
        params["call_interval"],
    )


def crossings(results) -> dict[Any, list[tuple[float, str]]]:
    """Where SCTP - UDP changes sign: per run, and ("mean") on the mean curves."""
    summary = results["calls_under_loss"]["summary"]
    found: dict[Any, list[tuple[float, str]]] = dict(analysis.crossings_per_run(summary))
    found["mean"] = analysis.crossings(analysis.mean_curves(summary))
    return found


def sctp_loss_trace_table(results) -> pd.DataFrame:
    """Per loss rate, mean over the traced runs: DATA chunks, share retransmitted, most
    transmissions of one chunk, longest wait between two transmissions (the backed-off
    RTO), chunks delivered after Timer B (32 s) or never, aborts, new associations,
    completed calls, SIP transactions timed out."""
    tables = results.get("sctp_loss_trace")
    if tables is None:
        return pd.DataFrame()
    summary = tables["trace_summary"]
    columns = [c for c in analysis.TRACE_SUMMARY_COLUMNS if c in summary]
    table = summary.groupby("loss_rate")[columns].mean().reset_index()
    table.insert(1, "n_runs", summary.groupby("loss_rate").size().to_numpy())
    return table


def sctp_associations_table(results) -> pd.DataFrame:
    """At the highest loss rate, run 1: each association's DATA, retransmissions, longest
    wait, chunks late for Timer B, INITs and ABORTs (its fate)."""
    tables = results.get("sctp_loss_trace")
    if tables is None:
        return pd.DataFrame()
    fate = tables["associations"]
    rows = fate[(fate["loss_rate"] == fate["loss_rate"].max()) & (fate["run"] == fate["run"].min())]
    keep = ["node", "socket", "inits", "aborts", "data_chunks", "retransmissions"]
    keep += ["max_transmissions", "longest_wait", "over_timer_b"]
    return rows[keep].reset_index(drop=True)


def stream_mappings_table(results) -> pd.DataFrame:
    """SCTP at 10 % loss: completed calls, mean set-up and tear-down (s) per mapping/layout."""
    columns = ["layout", "stream_mapping", "completed_calls", "mean_setup_s", "mean_teardown_s"]
    tables = results.get("stream_mappings")
    if tables is None:  # no SCTP model in this build
        return pd.DataFrame(columns=columns)
    summary = tables["summary"]
    return (
        summary.groupby(["layout", "stream_mapping"])[
            ["completed_calls", "mean_setup_s", "mean_teardown_s"]
        ]
        .mean()
        .reset_index()
    )


def head_of_line_table(results) -> pd.DataFrame:
    """Mean over the runs of completion times and record delays (s) per configuration, loss."""
    summary = results["head_of_line"]["summary"]
    return (
        summary.groupby(["hol_config", "loss_rate"])[
            ["mean_completion_s", "max_completion_s", "mean_record_delay_s", "p99_record_delay_s"]
        ]
        .mean()
        .reset_index()
    )


# --------------------------------------------------------------------------- figures


def throughput_figure(results):
    """Goodput against message size per protocol, dashed: the header-overhead bound."""
    summary = results["throughput"]["summary"]
    fig, ax = plotting.subplots(figsize=(6.5, 3.8))
    style = plotting.styles(_protocols(results))
    for p in _protocols(results):
        rows = summary[summary["protocol"] == p].sort_values("message_size")
        ax.plot(rows["message_size"], rows["goodput_mbps"], **style[p], label=p.upper())
        ax.plot(rows["message_size"], rows["wire_bound_mbps"], "--", color=COLORS[p], lw=0.8)
    ax.axvline(1472, color="0.6", lw=0.6)
    ax.text(1472, ax.get_ylim()[0] + 1, " MTU", color="0.4", fontsize=8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("message size (bytes)")
    ax.set_ylabel("goodput (Mb/s)")
    ax.set_title("Throughput on a 100 Mb/s link (dashed: header-overhead bound)", fontsize=9)
    ax.legend()
    fig.tight_layout()
    return fig, results.runs("throughput")


def registration_processing_figure(results):
    """Registration time against processing time per message; the seed's 7 and 14 ms."""
    summary = results["registration_processing"]["summary"]
    seed = published.load(results.study)
    seed = seed[(seed["source"] == "Table 5.5") & (seed["row"] == "SIP registration")]
    fig, ax = plotting.subplots(figsize=(6.0, 3.6))
    style = plotting.styles(_protocols(results))
    for p in _protocols(results):
        rows = summary[summary["protocol"] == p].sort_values("proxy_processing_ms")
        ax.plot(
            rows["proxy_processing_ms"],
            rows["registration_ms"],
            **style[p],
            label=f"{p.upper()} (simulated)",
        )
    for protocol in ("udp", "sctp"):
        value = float(seed[seed["protocol"] == protocol.upper()]["value"].iloc[0])
        ax.axhline(value, color=COLORS[protocol], ls=":", lw=1)
        ax.text(
            0.05,
            value + 0.2,
            f"seed {protocol.upper()}: {value:g} ms",
            color=COLORS[protocol],
            fontsize=8,
        )
    ax.set_xlabel("processing time per received SIP message (ms), proxy and user agents")
    ax.set_ylabel("registration time (ms)")
    ax.set_title("Registration with association/connection set-up", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig, results.runs("registration_processing")


def calls_under_loss_figure(results):
    """Completed calls against loss (95 % CI); the seed's Table 5.3 and our curves scaled
    to its value at 5 %."""
    table = calls_under_loss_table(results)
    seed = comparison.published_calls(results.study)
    relative = analysis.relative_to_lowest_loss(mean_calls(results))
    window = results.params["window"]
    protocols = _protocols(results)
    fig, (left, right) = plotting.subplots(1, 2, figsize=(10, 3.8))
    style = plotting.styles(protocols)
    for p in protocols:
        rows = table[table["protocol"] == p]
        plotting.errorbar(
            left,
            rows["loss_rate"] * 100,
            rows["mean"],
            rows["ci_low"],
            rows["ci_high"],
            **style[p],
            label=f"{p.upper()} (simulated)",
        )
    for p in ("udp", "sctp"):
        right.plot(
            seed.index * 100, seed[p], marker="s", linestyle="--", color=COLORS[p],
            label=f"{p.upper()} (seed Table 5.3)",
        )  # fmt: skip
        if p in protocols:
            right.plot(
                seed.index * 100,
                relative[p].reindex(seed.index) * seed[p].iloc[0],
                "o-",
                color=COLORS[p],
                alpha=0.5,
                label=f"{p.upper()} simulated, scaled at 5 %",
            )
    left.set_xlabel("packet loss at the router (%)")
    left.set_ylabel(f"completed calls in {window:g} s")
    left.set_title(f"Eight call pairs through the proxy ({plotting.CI_CLIPPED})", fontsize=9)
    left.legend(fontsize=8)
    right.set_xlabel("packet loss at the router (%)")
    right.set_ylabel("SIP call transactions")
    right.set_title("Seed, and our curves scaled to the seed's 5 % value", fontsize=9)
    right.legend(fontsize=7)
    fig.tight_layout()
    return fig, results.runs("calls_under_loss")


def sctp_loss_trace_figure(results):
    """Left: at the highest loss, each DATA chunk of run 1: when it was first sent and how
    long until the peer delivered it (never: at the top), by transmissions; the 32-s
    line is SIP's Timer B/F. Right: the waits between two transmissions of a chunk
    (T3-rtx: the RTO in force) per loss rate."""
    tables = results["sctp_loss_trace"]
    timeline = tables["chunk_timeline"]
    loss = timeline["loss_rate"].max()
    one = timeline[(timeline["loss_rate"] == loss) & (timeline["run"] == timeline["run"].min())]
    window = results.params["window"]
    fig, (left, right) = plotting.subplots(1, 2, figsize=(10, 3.8))
    never = 2.5 * analysis.TIMER_B
    stall = one["stall"].fillna(never).clip(lower=1e-4)
    # darker: more transmissions (shades of SCTP's colour)
    shades = plotting.PROTOCOL_SHADES["sctp"]
    colors = ("0.65", shades[2], shades[0], shades[3])
    for n, color in zip((1, 2, 3, 4), colors, strict=True):
        rows = one["transmissions"] >= 4 if n == 4 else one["transmissions"] == n
        label = f"sent {n}{'+' if n == 4 else ''} time{'s' if n > 1 else ''}"
        left.scatter(one.loc[rows, "first_sent"], stall[rows], s=10, color=color, label=label)
    timer = plotting.OTHER_COLORS[0]
    left.axhline(analysis.TIMER_B, color=timer, ls="--", lw=1)
    left.text(1, analysis.TIMER_B * 1.15, "SIP Timer B/F (32 s)", color=timer, fontsize=8)
    left.axhline(never, color="0.3", ls=":", lw=0.8)
    left.text(1, never * 1.15, f"not delivered within {window:g} s", color="0.3", fontsize=8)
    left.set_yscale("log")
    left.set_xlabel("first sent (s)")
    left.set_ylabel("first sent to delivered (s)")
    left.set_title(f"Every DATA chunk, {loss:.0%} loss, run 1", fontsize=9)
    left.legend(fontsize=7, loc="center right")
    losses = sorted(timeline["loss_rate"].unique())
    bins = [2 ** (k - 0.5) for k in range(-1, 8)]  # one bin per power of two
    waits = [
        timeline[(timeline["loss_rate"] == x) & (timeline["longest_wait"] > 0.5)] for x in losses
    ]
    right.hist([w["longest_wait"] for w in waits], bins=bins, label=[f"{x:.0%}" for x in losses])
    right.set_xscale("log", base=2)
    right.set_yscale("log")
    right.set_xlabel("longest wait between two transmissions of a chunk (s)")
    right.set_ylabel("DATA chunks")
    right.set_title("T3-rtx back-off: 1, 2, 4 ... 32 s (all runs)", fontsize=9)
    right.legend(title="loss", fontsize=7)
    fig.tight_layout()
    return fig, results.runs("sctp_loss_trace")


def head_of_line_figure(results):
    """Mean completion time and 99th-percentile record delay per configuration and loss."""
    summary = results["head_of_line"]["summary"]
    losses = sorted(summary["loss_rate"].unique())
    fig, axes = plotting.subplots(1, 2, figsize=(10, 3.8))
    configs = sorted(summary["hol_config"].unique())
    style = plotting.bar_styles(configs)
    for offset, config in enumerate(configs):
        rows = summary[summary["hol_config"] == config]
        for ax, column in zip(axes, ("mean_completion_s", "p99_record_delay_s"), strict=True):
            means = rows.groupby("loss_rate")[column].mean()
            x = np.arange(len(means)) + (offset - (len(configs) - 1) / 2) * 0.2
            ax.bar(x, means.values, width=0.2, **style[config], label=config)
    labels = ("mean completion time (s)", "99th percentile record delay (s)")
    for ax, label in zip(axes, labels, strict=True):
        ax.set_xticks(range(len(losses)), [f"{loss:.0%}" for loss in losses])
        ax.set_xlabel("packet loss (both directions)")
        ax.set_ylabel(label)
    axes[0].set_title("Eight concurrent transfers", fontsize=9)
    axes[1].set_title("How long a record waits from write to delivery", fontsize=9)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    return fig, results.runs("head_of_line")


REPRODUCTION = Reproduction(
    experiments=(
        MESSAGE_FLOW,
        THROUGHPUT,
        SINGLE_SESSION,
        REGISTRATION_PROCESSING,
        CALLS_UNDER_LOSS,
        SCTP_LOSS_TRACE,
        STREAM_MAPPINGS,
        HEAD_OF_LINE,
    ),
    comparison=comparison.comparison,
    tables={
        "message_flow": message_flow_table,
        "throughput": throughput_table,
        "single_session": single_session_table,
        "registration_processing": registration_processing_table,
        "calls_under_loss": calls_under_loss_table,
        "call_cycle": call_cycle_table,
        "calls_relative": calls_relative_table,
        "sctp_loss_trace": sctp_loss_trace_table,
        "sctp_associations": sctp_associations_table,
        "stream_mappings": stream_mappings_table,
        "head_of_line": head_of_line_table,
    },
    figures={
        "throughput": throughput_figure,
        "registration_processing": registration_processing_figure,
        "calls_under_loss": calls_under_loss_figure,
        "calls_relative": calls_relative_figure,
        "sctp_loss_trace": sctp_loss_trace_figure,
        "head_of_line": head_of_line_figure,
    },
)
