"""What reproducing the wired best-effort study means: experiments, comparison, tables, figures.

Experiments (quick mode: 300-s runs):

* ``main``: the reproduction, TCP and (with the SCTP model) SCTP FTP flows, 10 runs
  (2 quick); the comparison with the published tables comes from it;
* ``detail``: one run per transport with every packet and the time series, for the
  per-stream figures and the AWK-argument tables;
* ``tcp_variants``: TCP loss recovery, scripted start times, the text's 512 kb/s;
* ``sctp_packet_size``: SCTP with TCP-sized packets;
* ``modern``: present-day hosts (:data:`PRESETS`), with DropTail and with FQ-CoDel.

The sweeps run 5 replications per point (1 quick).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import plotting
from transportlab.engine.study import Experiment, Reproduction
from transportlab.ns3.capabilities import sctp_available
from transportlab.studies.wired_best_effort import analysis, comparison

# Parameter sets beyond the faithful default; `dict(params, **PRESETS[name])`.
PRESETS: dict[str, dict[str, Any]] = {
    "ns2": {},
    # What a present-day Linux host would do: CUBIC with SACK, PRR, timestamps, window
    # scaling, limited transmit, delayed ACKs, IW10, an Ethernet-sized MSS, a large
    # receive buffer; SCTP with RFC 9260's parameters.
    "modern": {
        "tcp_congestion": "TcpCubic",
        "tcp_recovery": "TcpPrrRecovery",
        "tcp_sack": True,
        "tcp_timestamps": True,
        "tcp_window_scaling": True,
        "tcp_limited_transmit": True,
        "tcp_delack_count": 2,
        "tcp_initial_cwnd": 10,
        "tcp_segment_size": 1448,
        "tcp_window": 90,
        "tcp_initial_ssthresh": 0,
        "tcp_initial_rto_ms": 1000.0,
        "stack_preset": "rfc9260",
    },
    # The modern hosts behind routers with an AQM instead of DropTail.
    "modern_aqm": {},
}
PRESETS["modern_aqm"] = dict(PRESETS["modern"], queue_discipline="fq_codel")

_NEWRENO = {"tcp_congestion": "TcpNewReno", "tcp_recovery": "TcpClassicRecovery"}
#: Section 7.2: TCP loss recovery, the flows' phase and the bottleneck rate.
TCP_VARIANTS: dict[str, dict[str, Any]] = {
    "Tahoe (default)": {},
    "NewReno classic": _NEWRENO,
    "NewReno PRR": dict(_NEWRENO, tcp_recovery="TcpPrrRecovery"),
    "NewReno classic + SACK": dict(_NEWRENO, tcp_sack=True),
    "NewReno classic + limited transmit": dict(_NEWRENO, tcp_limited_transmit=True),
    "Tahoe, scripted start times": {"start_jitter_ms": 0.0},
    "Tahoe, bottleneck 512 kb/s (the text)": {"bottleneck_rate_mbps": 0.512},
}
SCTP_MESSAGE_SIZES = (1452, 992)
TICS = (0.1, 0.5, 1.0, 2.0, 5.0)
PKTS = (1000, 500, 100, 1)
#: Columns of the sweep tables (FTP flows, mean over flows and runs).
SWEEP_COLUMNS = [
    "awk_throughput_kbps", "awk_jitter_ms", "awk_e2e_delay_ms", "goodput_kbps",
    "rfc3550_jitter_ms", "loss_ratio",
]  # fmt: skip
MODERN_COLUMNS = [
    "goodput_kbps", "delay_ms", "rfc3550_jitter_ms", "awk_throughput_kbps", "awk_jitter_ms",
    "loss_ratio",
]  # fmt: skip
RUN_COLUMNS = ["bottleneck_utilisation", "bottleneck_drops", "jain_goodput", "jain_awk_throughput"]


def protocols() -> list[str]:
    """Transports of the FTP flows this build can run: TCP, and SCTP with the SCTP model."""
    return ["tcp"] + (["sctp"] if sctp_available() else [])


# ----------------------------------------------------------------------------- experiments


def main_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"protocol": p, "record_series": False} for p in protocols()]


def detail_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"protocol": p, "record_packets": True} for p in protocols()]


def tcp_variant_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [dict(v, protocol="tcp", record_series=False) for v in TCP_VARIANTS.values()]


def sctp_size_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {"protocol": "sctp", "record_series": False, "sctp_message_size": size}
        for size in SCTP_MESSAGE_SIZES
    ]


def modern_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        dict(PRESETS[name], protocol=p, record_series=False)
        for name in ("modern", "modern_aqm")
        for p in protocols()
    ]


MAIN = Experiment(
    name="main",
    description="the NS-2 scenario with TCP and SCTP FTP flows (the comparison)",
    points=main_points,
    runs=10,
    quick_runs=2,
)
DETAIL = Experiment(
    name="detail",
    description="one run per transport with every packet and the time series",
    points=detail_points,
    runs=1,
    quick_runs=1,
)
TCP_VARIANTS_EXPERIMENT = Experiment(
    name="tcp_variants",
    description="TCP loss recovery, scripted start times, 512 kb/s bottleneck",
    points=tcp_variant_points,
    runs=5,
    quick_runs=1,
)
SCTP_SIZE = Experiment(
    name="sctp_packet_size",
    description="SCTP with 1452-byte and TCP-sized (992-byte) messages",
    points=sctp_size_points,
    runs=5,
    quick_runs=1,
    available=sctp_available,
)
MODERN = Experiment(
    name="modern",
    description="present-day hosts, DropTail and FQ-CoDel routers",
    points=modern_points,
    runs=5,
    quick_runs=1,
)


# ----------------------------------------------------------------------------- tables


def _ftp(flows: pd.DataFrame) -> pd.DataFrame:
    return flows[flows["application"] == "ftp"]


def per_pair(results) -> pd.DataFrame:
    """Every metric per protocol and node pair: mean, 95 % interval, runs (experiment main)."""
    return analysis.per_pair_summary(results["main"]["flows"])


def per_run(results) -> pd.DataFrame:
    """Bottleneck utilisation, drops and Jain's index of the FTP flows per protocol (mean)."""
    return results["main"]["run"].groupby("protocol")[RUN_COLUMNS].mean().reset_index()


def ftp_means(results, columns=("goodput_kbps", "awk_throughput_kbps")) -> pd.DataFrame:
    """Mean over the FTP pairs and runs of experiment main, per protocol."""
    flows = _ftp(results["main"]["flows"])
    return flows.groupby("protocol")[list(columns)].mean()


def _detail_packets(results, protocol: str) -> tuple[pd.DataFrame, dict[str, Any]]:
    packets = results["detail"]["packets"]
    mine = packets[(packets["protocol"] == protocol) & (packets["run"] == 1)]
    (point,) = [p for p in results.points("detail") if p["protocol"] == protocol]
    return mine, point


def awk_windows(results) -> pd.DataFrame:
    """Section 6: the delay and jitter scripts with several windows ``tic`` (run 1)."""
    frames = []
    for protocol in protocols():
        packets, point = _detail_packets(results, protocol)
        table = analysis.awk_windows(packets, point, TICS)
        frames.append(table.assign(protocol=protocol)[["protocol", *table.columns]])
    return pd.concat(frames, ignore_index=True)


def awk_pkt(results) -> pd.DataFrame:
    """Section 7.1: the throughput script with several ``pkt`` (run 1), pkt x protocol."""
    frames = []
    for protocol in protocols():
        packets, point = _detail_packets(results, protocol)
        table = analysis.awk_throughput_by_pkt(packets, point, PKTS)
        frames.append(table.assign(protocol=protocol))
    table = pd.concat(frames, ignore_index=True)
    return table.pivot(index="pkt", columns="protocol", values="awk_throughput_kbps")


def _variant_labels(results) -> tuple[list[str], dict[tuple, str]]:
    keys = sorted({k for v in TCP_VARIANTS.values() for k in v})
    labels = {}
    for name, point in zip(TCP_VARIANTS, results.points("tcp_variants"), strict=True):
        labels.setdefault(tuple(point[k] for k in keys), name)
    return keys, labels


def tcp_variants(results) -> pd.DataFrame:
    """Section 7.2: FTP means per TCP variant (experiment tcp_variants)."""
    flows = _ftp(results["tcp_variants"]["flows"])
    keys, labels = _variant_labels(results)
    variant = [labels[tuple(r)] for r in flows[keys].itertuples(index=False)]
    return flows.assign(variant=variant).groupby("variant", sort=False)[SWEEP_COLUMNS].mean()


def sctp_packet_size(results) -> pd.DataFrame:
    """Section 7.3: SCTP's FTP means per message size (empty without the SCTP model)."""
    tables = results.get("sctp_packet_size")
    if tables is None:
        return pd.DataFrame(columns=["sctp_message_size", *SWEEP_COLUMNS])
    return _ftp(tables["flows"]).groupby("sctp_message_size")[SWEEP_COLUMNS].mean()


def tcp_reference(results) -> pd.Series:
    """TCP's FTP means in experiment main, for the SCTP packet-size table."""
    flows = _ftp(results["main"]["flows"])
    return flows[flows["protocol"] == "tcp"][SWEEP_COLUMNS].mean()


def modern(results) -> pd.DataFrame:
    """Section 7.4: FTP means per queue discipline and transport (experiment modern)."""
    return (
        _ftp(results["modern"]["flows"])
        .groupby(["queue_discipline", "protocol"])[MODERN_COLUMNS]
        .mean()
    )


def modern_runs(results) -> pd.DataFrame:
    """Section 7.4: bottleneck utilisation and Jain's index of the goodput."""
    runs = results["modern"]["run"]
    return runs.groupby(["queue_discipline", "protocol"])[
        ["bottleneck_utilisation", "jain_goodput"]
    ].mean()


def _flat(table_fn):
    """A table function whose index becomes columns (``write_table`` writes no index)."""

    def flat(results) -> pd.DataFrame:
        table = table_fn(results)
        return table if isinstance(table.index, pd.RangeIndex) else table.reset_index()

    flat.__doc__ = table_fn.__doc__
    return flat


def modern_table(results) -> pd.DataFrame:
    """Section 7.4 in one table: FTP means, utilisation and Jain's index."""
    return modern(results).join(modern_runs(results))


# ----------------------------------------------------------------------------- figures

COLORS = plotting.PROTOCOL_COLORS
SEED_MARKERS = ((analysis.SEED_000, "o"), (analysis.SEED_004, "s"))
PANELS = [
    ("awk_throughput", "awk_throughput_kbps", "AWK throughput (kb/s)"),
    ("awk_jitter", "awk_jitter_ms", "AWK jitter (ms)"),
    ("awk_delay", "awk_e2e_delay_ms", "AWK e2eDelay (ms)"),
]


def per_pair_averages_figure(results):
    """Per-pair averages (bars: mean, whiskers: 95 % CI) next to both seeds' values."""
    summary = per_pair(results)
    ftp_summary = summary[summary["application"] == "ftp"]
    table = comparison.published_values(results.study)
    pairs = sorted(set(ftp_summary["pair"]), key=lambda p: int(p.split()[1].split("-")[0]))
    x = np.arange(len(pairs))
    fig, axes = plotting.subplots(1, 3, figsize=(13, 3.8))
    for ax, (metric, column, label) in zip(axes, PANELS, strict=True):
        for i, protocol in enumerate(protocols()):
            rows = ftp_summary[
                (ftp_summary["protocol"] == protocol) & (ftp_summary["metric"] == column)
            ]
            rows = rows.set_index("pair").loc[pairs]
            offset = (i - 0.5) * 0.25
            ax.bar(
                x + offset, rows["mean"], width=0.25, color=COLORS[protocol],
                label=f"{protocol.upper()} ns-3",
            )  # fmt: skip
            plotting.errorbar(
                ax, x + offset, rows["mean"], rows["ci_low"], rows["ci_high"],
                fmt="none", color="black", linewidth=1, capsize=0,
            )  # fmt: skip
        for protocol in ("TCP", "SCTP"):
            for seed, marker in SEED_MARKERS:
                pub = table[
                    (table["protocol"] == protocol)
                    & (table["metric"] == metric)
                    & (table["seed_file"] == seed)
                    & table["row"].isin(pairs)
                ]
                if len(pub):
                    pub = pub.set_index("row").loc[pairs]
                    ax.scatter(
                        x + (-0.125 if protocol == "TCP" else 0.125), pub["value"],
                        marker=marker, color=COLORS[protocol.lower()], edgecolor="black",
                        zorder=3, label=f"{protocol} seed {seed[:3]}",
                    )  # fmt: skip
        ax.set_xticks(x, [p.replace("nodes ", "") for p in pairs])
        ax.set_xlabel("node pair")
        ax.set_title(label, fontsize=10)
    axes[0].legend(fontsize=7, loc="lower left")
    fig.suptitle(f"Bars: mean over runs, whiskers: {plotting.CI_CLIPPED}", fontsize=9)
    fig.tight_layout()
    return fig, results.runs("main")


def _detail_series(results, protocol: str) -> pd.DataFrame:
    series = results["detail"]["series"]
    return series[(series["protocol"] == protocol) & (series["run"] == 1)]


def per_stream_series_figure(results):
    """The AWK scripts' output per window for each FTP pair, run 1 (papers' figs 4.12-4.42)."""
    flows = analysis.ftp_flows(results.params)
    shown = ["awk_throughput_kbps", "awk_jitter_ms", "awk_e2e_delay_ms"]
    fig, axes = plotting.subplots(len(flows), 3, figsize=(14, 12), sharex=True, squeeze=False)
    for row, flow in enumerate(flows):
        for col, metric in enumerate(shown):
            ax = axes[row, col]
            for protocol in protocols():
                series = _detail_series(results, protocol)
                part = series[(series["flow"] == flow) & (series["metric"] == metric)]
                ax.plot(
                    part["time"], part["value"], color=COLORS[protocol], linewidth=0.6,
                    linestyle=plotting.PROTOCOL_LINESTYLES[protocol], label=protocol.upper(),
                )  # fmt: skip
            if row == 0:
                name, unit = analysis.METRICS[metric]
                ax.set_title(f"{name} ({unit})", fontsize=10)
            if col == 0:
                ax.set_ylabel(_pair_label(results, flow))
    axes[0, 0].legend(fontsize=8)
    for ax in axes[-1]:
        ax.set_xlabel("time (s)")
    fig.tight_layout()
    return fig, 1


def _pair_label(results, flow: int) -> str:
    flows = results["detail"]["flows"]
    return flows.loc[flows["flow"] == flow, "pair"].iloc[0]


def queue_cwnd_figure(results):
    """Bottleneck queue (1-s mean) and the FTP flows' congestion windows, run 1."""
    shown = protocols()
    fig, axes = plotting.subplots(
        1 + len(shown), 1, figsize=(12, 2.6 * (1 + len(shown))), sharex=True
    )
    for protocol in shown:
        series = _detail_series(results, protocol)
        queue = series[series["metric"] == "queue_mean_packets"]
        axes[0].plot(
            queue["time"], queue["value"], color=COLORS[protocol], linewidth=0.7,
            linestyle=plotting.PROTOCOL_LINESTYLES[protocol],
            label=f"{protocol.upper()} experiment",
        )  # fmt: skip
    axes[0].axhline(
        results.params["queue_packets"] - 1, color="black", linestyle=":", linewidth=0.8
    )
    axes[0].set_ylabel("bottleneck queue\n(packets, 1-s mean)")
    axes[0].legend(fontsize=8)
    for ax, protocol in zip(axes[1:], shown, strict=True):
        series = _detail_series(results, protocol)
        flows = analysis.ftp_flows(results.params)
        # The five flows of one protocol: the palette's non-protocol colours, one per pair.
        pair_style = plotting.styles([_pair_label(results, flow) for flow in flows])
        for flow in flows:
            cwnd = series[(series["flow"] == flow) & (series["metric"] == "cwnd_bytes")]
            label = _pair_label(results, flow)
            ax.plot(
                cwnd["time"], cwnd["value"] / 1e3, linewidth=0.6,
                color=pair_style[label]["color"], label=label,
            )  # fmt: skip
        ax.set_ylabel(f"{protocol.upper()} cwnd (kB)")
    axes[1].legend(fontsize=7, ncol=5)
    axes[-1].set_xlabel("time (s)")
    fig.tight_layout()
    return fig, 1


REPRODUCTION = Reproduction(
    experiments=(MAIN, DETAIL, TCP_VARIANTS_EXPERIMENT, SCTP_SIZE, MODERN),
    comparison=comparison.comparison,
    tables={
        "per_pair": per_pair,
        "per_run": per_run,
        "delay_readings": comparison.delay_readings,
        "awk_windows": awk_windows,
        "awk_pkt": _flat(awk_pkt),
        "tcp_variants": _flat(tcp_variants),
        "sctp_packet_size": _flat(sctp_packet_size),
        "modern": _flat(modern_table),
    },
    figures={
        "per_pair_averages": per_pair_averages_figure,
        "per_stream_series": per_stream_series_figure,
        "queue_cwnd": queue_cwnd_figure,
    },
)
