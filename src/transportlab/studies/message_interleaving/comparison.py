"""What the message interleaving study compares: libdatachannel's published benchmark of
I-DATA (``data/published/external/message_interleaving.csv``, with its URL) beside our
runs. The benchmark is not one of the seeds, so it is not in the catalogue of
:mod:`transportlab.engine.published` and the study writes no ``comparison.csv``: only
the *ratio* DATA / I-DATA of a statistic of the small messages' latency is comparable
(the published values are round-trip times over loopback with usrsctp; ours are one-way
latencies over a 10 Mb/s path), and it is shown beside ours, not judged.
"""

from __future__ import annotations

import pandas as pd

from transportlab.engine.paths import published_dir

#: The statistics libdatachannel reports (its table's rows), in our metric names.
STATISTICS = ("latency_mean_ms", "latency_p50_ms", "latency_p95_ms", "latency_max_ms")


def load_external() -> pd.DataFrame:
    """The published benchmark rows (source, url, protocol, metric, row, unit, value, note)."""
    return pd.read_csv(published_dir() / "external" / "message_interleaving.csv")


def published_ratios(published: pd.DataFrame | None = None) -> pd.Series:
    """DATA / I-DATA per statistic, from the published values (e.g. mean 583.9 / 96.6)."""
    published = load_external() if published is None else published
    by = published.pivot(index="metric", columns="protocol", values="value")
    return (by["SCTP (DATA)"] / by["SCTP (I-DATA)"]).reindex(list(STATISTICS))


def ratio_rows(latency: pd.DataFrame, published: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per path, scheduler and statistic: our DATA / I-DATA ratio beside the published one.

    ``latency`` is the study's ``latency`` table (means over runs per path, transport and
    scheduler). A ratio of 1 means I-DATA changed nothing.
    """
    ratios = published_ratios(published)
    data = latency[latency["transport"] == "sctp-data"].set_index(["path", "scheduler"])
    idata = latency[latency["transport"] == "sctp-idata"].set_index(["path", "scheduler"])
    rows = []
    for key in data.index.intersection(idata.index):
        for statistic in STATISTICS:
            rows.append({
                "path": key[0], "scheduler": key[1], "statistic": statistic,
                "data_ms": data.at[key, statistic], "idata_ms": idata.at[key, statistic],
                "ratio": data.at[key, statistic] / idata.at[key, statistic],
                "published_ratio": ratios[statistic],
                "n_runs": int(min(data.at[key, "n_runs"], idata.at[key, "n_runs"])),
            })  # fmt: skip
    return pd.DataFrame(rows)


def interleaving_sentence(sending: pd.DataFrame) -> str:
    """Whether the I-DATA points interleaved, from the ``sending`` table (DATA chunks sent
    per SCTP transport): an association that sends I-DATA sends no DATA chunk."""
    rows = sending.set_index("transport")
    if "sctp-idata" not in rows.index:
        return "No I-DATA point was run."
    idata = rows.loc["sctp-idata"]
    negotiated = "negotiated" if bool(idata["idata_negotiated"]) else "NOT negotiated"
    if int(idata["data_chunks"]) > 0:
        return (
            f"I-DATA was {negotiated} on every I-DATA association, but they sent "
            f"{int(idata['data_chunks'])} DATA chunks: this build's model negotiates I-DATA "
            "and still sends DATA, so the I-DATA rows measure DATA (a ratio of 1 is "
            "expected until I-DATA sending lands)."
        )
    return (
        f"I-DATA was {negotiated} and the I-DATA associations sent no DATA chunk: their "
        "messages went as I-DATA, interleaved by the stream scheduler."
    )


def findings(latency: pd.DataFrame, ratios: pd.DataFrame) -> str:
    """The key numbers of the full-mode tables, as sentences (every number from the
    tables): small-message latency under DATA FCFS, the best DATA scheduler, the two TCP
    set-ups and the DATA / I-DATA ratio against libdatachannel's, per path."""
    lines = []
    for path, here in latency.groupby("path", sort=False):
        rows = here.set_index(["transport", "scheduler"])
        runs = int(here["n_runs"].min())
        fcfs = rows.loc[("sctp-data", "fcfs")]
        data = here[here["transport"] == "sctp-data"].sort_values("latency_mean_ms")
        best = data.iloc[0]
        shared = rows.loc[("tcp-shared", "fcfs")]
        per_stream = rows.loc[("tcp-per-stream", "fcfs")]
        lines.append(
            f"{path} path ({runs} runs per point): with DATA and FCFS the small messages "
            f"take {fcfs['latency_mean_ms']:.0f} ms on average (95th percentile "
            f"{fcfs['latency_p95_ms']:.0f} ms; of those produced while a large message was "
            f"pending, {fcfs['overtook_fraction']:.0%} arrive before it); the best DATA "
            f"scheduler, {best['scheduler']}, gives "
            f"{best['latency_mean_ms']:.0f} ms (p95 {best['latency_p95_ms']:.0f} ms). TCP "
            f"with one connection: {shared['latency_mean_ms']:.0f} ms "
            f"({shared['overtook_fraction']:.0%} overtake); one connection per kind: "
            f"{per_stream['latency_mean_ms']:.0f} ms "
            f"({per_stream['overtook_fraction']:.0%} overtake)."
        )
        same = [
            ", ".join(group["scheduler"])
            for _, group in data.groupby("latency_mean_ms", sort=True)
            if len(group) > 1
        ]
        if same:
            lines.append("  DATA schedulers with identical results: " + "; ".join(same) + ".")
        mean = ratios[(ratios["path"] == path) & (ratios["statistic"] == "latency_mean_ms")]
        if not mean.empty:
            lines.append(
                f"  DATA / I-DATA mean-latency ratio: {mean['ratio'].min():.2f} to "
                f"{mean['ratio'].max():.2f} over the schedulers; libdatachannel reports "
                f"{mean['published_ratio'].iloc[0]:.1f}."
            )
    return "\n".join(lines)
