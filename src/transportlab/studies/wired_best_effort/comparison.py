"""What the wired study compares: seeds 000 and 004 (Tables 2-4 and 4.1-4.7) against the
FTP pairs of experiment ``main`` (``comparison.csv``, :func:`transportlab.engine.verdicts.compare`),
the delay under both readings of the AWK script, and the published values the notebook
and the figures show."""

from __future__ import annotations

import pandas as pd

from transportlab.engine import published, verdicts
from transportlab.engine.study import Study


def comparison(results) -> pd.DataFrame:
    """``comparison.csv``: the published "average delay" read as the one-way ``e2eDelay``.

    The thesis defines the delay as the time between sending and receiving
    (section 4.4.1) and its script computes it as ``e2eDelay``; the notebook
    (section 6) shows that the tables hold it rather than the printed gap.
    """
    flows = results["main"]["flows"]
    return verdicts.compare(results.study, reproduced_values(flows, delay="e2e"))


def comparison_printed(results) -> pd.DataFrame:
    """The same comparison with the delay script's printed value (an inter-arrival gap)."""
    flows = results["main"]["flows"]
    return verdicts.compare(results.study, reproduced_values(flows, delay="printed"))


def verdict_counts(results) -> pd.DataFrame:
    """Verdicts per metric and protocol: every row of ``comparison.csv``, and the delay
    rows under the printed reading."""
    e2e, printed = results.comparison(), comparison_printed(results)

    def counts(frame):
        return frame.groupby(["metric", "protocol"])["verdict"].value_counts().unstack(fill_value=0)

    return (
        pd.concat(
            {
                "e2eDelay reading (comparison.csv)": counts(e2e),
                "printed reading": counts(printed[printed["metric"] == "awk_delay"]),
            }
        )  # fmt: skip
        .fillna(0)
        .astype(int)
    )


def delay_readings(results) -> pd.DataFrame:
    """The delay rows of the comparison with the printed reading and its verdict beside."""
    e2e, printed = results.comparison(), comparison_printed(results)
    rows = e2e["metric"] == "awk_delay"
    columns = ["seed_file", "source", "protocol", "row", "published", "reproduced", "verdict"]
    return e2e.loc[rows, columns].assign(
        printed=printed.loc[rows, "reproduced"], verdict_printed=printed.loc[rows, "verdict"]
    )


def reproduced_values(flows: pd.DataFrame, delay: str = "printed") -> pd.DataFrame:
    """The FTP pairs' AWK metrics per replication, for :func:`.verdicts.compare`.

    ``delay`` chooses what stands for the published "average delay": ``"printed"``
    (the delay script's output: an inter-arrival gap, in s) or ``"e2e"`` (the
    one-way ``e2eDelay`` of the same packets, which the script computes but
    does not print, in ms). Rows ``nodes 2-12`` ... and, for delay and jitter,
    ``all pairs (mean)`` (the mean over the FTP pairs, as the thesis' Table 4.7).
    """
    if delay not in ("printed", "e2e"):
        raise ValueError(f"delay must be 'printed' or 'e2e', got {delay!r}")
    ftp = flows[flows["application"] == "ftp"]
    columns = {
        "awk_throughput": ("awk_throughput_kbps", "kbps"),
        "awk_jitter": ("awk_jitter_ms", "ms"),
        "awk_delay": ("awk_delay_s", "s") if delay == "printed" else ("awk_e2e_delay_ms", "ms"),
    }
    frames = []
    for metric, (column, unit) in columns.items():
        per_pair = pd.DataFrame({
            "protocol": ftp["protocol"].str.upper(),
            "metric": metric,
            "row": ftp["pair"],
            "unit": unit,
            "run": ftp["run"],
            "value": ftp[column],
        })  # fmt: skip
        mean = per_pair.groupby(["protocol", "metric", "unit", "run"], as_index=False)[
            "value"
        ].mean()
        mean["row"] = "all pairs (mean)"
        frames.append(per_pair)
        if metric != "awk_throughput":
            frames.append(mean[per_pair.columns])
    return pd.concat(frames, ignore_index=True)


def published_values(study: Study) -> pd.DataFrame:
    """Every published number of seeds 000 and 004 (``data/published/wired_best_effort.csv``)."""
    return published.load(study)


def _per_pair_rows(frame: pd.DataFrame) -> pd.DataFrame:
    return frame[frame["row"].str.startswith("nodes")]


def published_delay_means(study: Study) -> pd.Series:
    """Mean published per-pair "average delay" per seed and protocol (ms)."""
    table = published_values(study)
    delay = _per_pair_rows(table[table["metric"] == "awk_delay"])
    return delay.groupby(["seed_file", "protocol"])["value"].mean()


def published_throughput_ratio(study: Study) -> pd.Series:
    """SCTP / TCP of the summed published per-pair AWK throughput, per seed."""
    table = published_values(study)
    total = (
        table[table["metric"] == "awk_throughput"]
        .groupby(["seed_file", "protocol"])["value"]
        .sum()
        .unstack()
    )
    return total["SCTP"] / total["TCP"]


def published_tcp_means(study: Study) -> pd.Series:
    """Mean of the published per-pair TCP values per metric and seed."""
    table = published_values(study)
    tcp = _per_pair_rows(table[table["protocol"] == "TCP"])
    return tcp.groupby(["metric", "seed_file"])["value"].mean()
