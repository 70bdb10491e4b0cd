"""What the bottleneck example compares: each hand-calculated value against the mean over
the runs of experiment ``main`` (``comparison.csv``, the columns of
:data:`transportlab.engine.verdicts.COMPARISON_COLUMNS`).

Every study keeps its comparison here, in ``comparison.py``: ``comparison(results)`` for
its :class:`~transportlab.engine.study.Reproduction`, and what builds the rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine.stats import confidence_interval
from transportlab.engine.study import Study
from transportlab.engine.verdicts import COMPARISON_COLUMNS
from transportlab.studies.bottleneck_example.analysis import (
    expected_goodput,
    expected_udp_delay,
    udp_below_capacity,
)


def comparison(results) -> pd.DataFrame:
    """Every hand-calculated value against the mean over the runs of experiment ``main``."""
    return hand_calculation_rows(results.study, results["main"]["summary"], results.params)


def hand_calculation_rows(
    study: Study, summary: pd.DataFrame, params: Mapping[str, Any]
) -> pd.DataFrame:
    """The comparison table (columns of ``comparison.csv``) of a sweep's summary.

    ``summary`` is the sweep's ``summary`` table over protocol x error_rate with
    the other parameters equal to ``params``. Each hand-calculated value is
    compared with the mean over runs; ``matches`` means within the tolerance
    stated per row: delay and jitter exactly (1 ns), the lossless goodputs within
    1 % (one packet more or less in the measurement window), loss within three
    binomial standard deviations of all packets sent.
    """
    rows = []

    def add(protocol, metric, row, unit, hand, values, tolerance):
        mean, low, high, _ = confidence_interval(values)
        rows.append({
            "study": study.name, "seed_file": "", "source": "hand calculation",
            "protocol": protocol, "metric": metric, "row": row, "unit": unit,
            "published": hand, "reproduced": mean, "ci_low": low, "ci_high": high,
            "n_runs": len(values), "ratio": mean / hand if hand else np.nan,
            "verdict": "matches" if abs(mean - hand) <= tolerance else "differs",
        })  # fmt: skip

    for (protocol, error_rate), group in summary.groupby(["protocol", "error_rate"], sort=True):
        point = dict(params, protocol=protocol, error_rate=error_rate)
        label = f"error rate {error_rate:g}"
        goodput_kbps = group["goodput_bps"] / 1e3
        hand_kbps = expected_goodput(point) / 1e3
        if protocol == "udp" and udp_below_capacity(point):
            if error_rate == 0:
                hand_delay_ms = expected_udp_delay(point) * 1e3
                add(
                    "UDP",
                    "one-way delay",
                    label,
                    "ms",
                    hand_delay_ms,
                    group["delay_mean_s"] * 1e3,
                    1e-6,
                )
                add(
                    "UDP",
                    "jitter (RFC 3550)",
                    label,
                    "ms",
                    0.0,
                    group["jitter_rfc3550_s"] * 1e3,
                    1e-6,
                )
                add("UDP", "goodput", label, "kbps", hand_kbps, goodput_kbps, 0.01 * hand_kbps)
            else:
                sigma = np.sqrt(error_rate * (1 - error_rate) / group["packets_sent"].sum())
                add(
                    "UDP",
                    "loss ratio",
                    label,
                    "%",
                    error_rate * 100,
                    group["loss_ratio"] * 100,
                    3 * sigma * 100,
                )
        elif protocol == "tcp" and error_rate == 0:
            add("TCP", "goodput", label, "kbps", hand_kbps, goodput_kbps, 0.01 * hand_kbps)
    return pd.DataFrame(rows, columns=list(COMPARISON_COLUMNS))
