"""What the message interleaving study computes: its experiments, tables and figures."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import plotting
from transportlab.engine.stats import summarise_wide
from transportlab.engine.study import Experiment, Reproduction
from transportlab.ns3.capabilities import sctp_available
from transportlab.studies.message_interleaving import comparison
from transportlab.studies.message_interleaving.parameters import SCHEDULERS

#: The lossy path: packet error rate on the bottleneck.
LOSSY_ERROR_RATE = 0.001
PATHS = {0.0: "wired", LOSSY_ERROR_RATE: "lossy"}
#: Quick mode: the schedulers that differ most, enough for the tests' checks.
QUICK_SCHEDULERS = ("fcfs", "rr", "priority")
#: Large message sizes of the size sweep (64 KB to 1 MB).
LARGE_SIZES = (65536, 262144, 1048576)

KEY = ["error_rate", "transport", "scheduler"]
METRICS = (
    "latency_mean_ms", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_max_ms",
    "exposed_fraction", "overtook_fraction", "large_latency_mean_ms",
)  # fmt: skip


def _transport_points(schedulers) -> list[dict[str, Any]]:
    points = [
        {"transport": transport, "scheduler": scheduler}
        for transport in ("sctp-data", "sctp-idata")
        for scheduler in schedulers
    ]
    return points + [
        {"transport": "tcp-shared", "scheduler": "fcfs"},
        {"transport": "tcp-per-stream", "scheduler": "fcfs"},
    ]


def _path_experiment(name: str, error_rate: float, runs: int) -> Experiment:
    lossless = error_rate == 0.0

    def points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [dict(p, error_rate=error_rate) for p in _transport_points(tuple(SCHEDULERS))]

    def quick_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [dict(p, error_rate=error_rate) for p in _transport_points(QUICK_SCHEDULERS)]

    return Experiment(
        name=name,
        description=f"small messages behind large ones on the {PATHS[error_rate]} path: SCTP "
        "DATA and I-DATA with each stream scheduler, TCP with one connection and with one "
        "per kind of message",
        points=points,
        quick_points=quick_points,
        runs=1 if lossless else runs,
        quick_runs=1,
        available=sctp_available,
        # Without packet errors nothing in the scenario is random: one run says it all.
        deterministic=lossless,
    )


WIRED = _path_experiment("wired", 0.0, 1)
LOSSY = _path_experiment("lossy", LOSSY_ERROR_RATE, 10)
PATH_EXPERIMENTS = ("wired", "lossy")


def sizes_points(params: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The large message size from 64 KB to 1 MB: SCTP FCFS with DATA and I-DATA, and TCP
    with one connection per kind (the reference without head-of-line blocking), wired."""
    return [
        {"large_size": size, "transport": transport, "scheduler": "fcfs", "error_rate": 0.0}
        for size in LARGE_SIZES
        for transport in ("sctp-data", "sctp-idata", "tcp-per-stream")
    ]


SIZES_EXPERIMENT = Experiment(
    name="sizes",
    description="the large message size from 64 KB to 1 MB (wired path, FCFS)",
    points=sizes_points,
    runs=1,
    quick_runs=1,
    available=sctp_available,
    deterministic=True,
)


# --------------------------------------------------------------------------- tables


def _pooled(results, table: str) -> pd.DataFrame:
    """``table`` of both path experiments, one after the other."""
    return pd.concat([results[name][table] for name in PATH_EXPERIMENTS], ignore_index=True)


def latency_table(results) -> pd.DataFrame:
    """Small-message latency per path, transport and scheduler: mean over the runs of each
    run's statistic, with its confidence interval, and the runs behind it."""
    summary = _pooled(results, "summary")
    table = summarise_wide(summary, KEY, METRICS)
    table.insert(0, "path", table["error_rate"].map(PATHS))
    return table


def sizes_table(results) -> pd.DataFrame:
    summary = results["sizes"]["summary"]
    return summarise_wide(
        summary,
        ["large_size", "transport"],
        ("latency_mean_ms", "latency_p95_ms", "overtook_fraction"),
    )


def sending_table(results) -> pd.DataFrame:
    """Per SCTP transport: whether I-DATA was negotiated and how many DATA chunks were sent
    (an association that interleaves sends I-DATA chunks instead)."""
    summary = _pooled(results, "summary")
    sctp = summary[summary["transport"].str.startswith("sctp")]
    return (
        sctp.groupby("transport")
        .agg(
            idata_negotiated=("idata_negotiated", "all"),
            data_chunks=("data_chunks", "sum"),
            n_runs=("data_chunks", "size"),
        )
        .reset_index()
    )


def published_table(results) -> pd.DataFrame:
    """libdatachannel's ratios (DATA over I-DATA) beside ours (:mod:`.comparison`)."""
    return comparison.ratio_rows(latency_table(results))


# --------------------------------------------------------------------------- figures


def _label(row) -> str:
    if row["transport"].startswith("tcp"):
        return row["transport"].replace("tcp-", "TCP ")
    kind = "I-DATA" if row["transport"] == "sctp-idata" else "DATA"
    return f"{kind} {row['scheduler']}"


def latency_figure(results):
    """Distribution (ECDF) of the small messages' latency per transport, wired and lossy."""
    small = _pooled(results, "small")
    paths = [p for p in PATHS if (small["error_rate"] == p).any()]
    fig, axes = plotting.subplots(1, len(paths), figsize=(11, 4.2), sharey=True, squeeze=False)
    runs = {0.0: results.runs("wired"), LOSSY_ERROR_RATE: results.runs("lossy")}
    for ax, error_rate in zip(axes[0], paths, strict=True):
        here = small[small["error_rate"] == error_rate]
        for (transport, scheduler), group in here.groupby(["transport", "scheduler"], sort=True):
            if transport == "sctp-idata":
                continue  # drawn over the DATA lines when identical; see the table
            latency = np.sort(group["latency"].dropna().to_numpy() * 1e3)
            if latency.size == 0:
                continue
            label = _label({"transport": transport, "scheduler": scheduler})
            style = {"linestyle": "--"} if transport.startswith("tcp") else {}
            ax.step(
                latency,
                np.arange(1, latency.size + 1) / latency.size,
                where="post",
                label=label,
                **style,
            )
        ax.set_xscale("log")
        ax.set_xlabel("small-message latency, produced to delivered (ms)")
        ax.set_title(
            f"{PATHS[error_rate]} path (error rate {error_rate:g}), "
            f"{runs[error_rate]} run(s) pooled",
            fontsize=9,
        )
    axes[0][0].set_ylabel("fraction of small messages")
    axes[0][-1].legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig, max(runs[p] for p in paths)


def sizes_figure(results):
    """Mean and 95th percentile of the small messages' latency against the large size."""
    table = sizes_table(results)
    fig, ax = plotting.subplots(1, 1, figsize=(6, 4))
    for transport, group in table.groupby("transport", sort=True):
        kb = group["large_size"] / 1024
        ax.plot(kb, group["latency_mean_ms"], marker="o", label=f"{transport} mean")
        ax.plot(kb, group["latency_p95_ms"], marker="x", linestyle=":", label=f"{transport} p95")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("large message size (KiB)")
    ax.set_ylabel("small-message latency (ms)")
    n_runs = results.runs("sizes")
    ax.set_title(f"wired path, FCFS, {n_runs} run(s) per point", fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig, n_runs


REPRODUCTION = Reproduction(
    experiments=(WIRED, LOSSY, SIZES_EXPERIMENT),
    tables={
        "latency": latency_table,
        "sizes": sizes_table,
        "sending": sending_table,
        "published_ratios": published_table,
    },
    figures={"latency_ecdf": latency_figure, "sizes": sizes_figure},
)
