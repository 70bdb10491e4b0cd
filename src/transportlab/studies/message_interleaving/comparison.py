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
