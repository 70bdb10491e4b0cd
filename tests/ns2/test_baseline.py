"""transportlab.ns2.baseline: published / NS-2 / ns-3 per published row, by hand."""

from __future__ import annotations

import math

import pandas as pd

from transportlab.ns2 import baseline

COLUMNS = ["seed_file", "source", "protocol", "metric", "row", "unit", "kind", "published",
           "reproduced", "ci_low", "ci_high", "n_runs", "ratio", "verdict", "note"]  # fmt: skip


def comparison(rows):
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame.attrs["tolerance"] = {"default": 0.2, "per_metric": {"jitter": 0.1}}
    return frame


def row(protocol, metric, kind, published, value, verdict, note=""):
    return ("001.txt", "Fig. 4", protocol, metric, "r", "ms", kind, published, value,
            value - 1, value + 1, 5, math.nan, verdict, note)  # fmt: skip


def test_a_row_ns2_cannot_produce_keeps_an_empty_value_and_the_reason():
    ns3 = comparison([row("TCP", "delay", "value", "180", 60.0, "differs"),
                      row("PR-SCTP", "delay", "value", "100", 90.0, "matches")])  # fmt: skip
    ns2 = comparison([row("TCP", "delay", "value", "180", 300.0, "differs")])
    table = baseline.baseline_table(
        ns2, ns3, not_expressible={("PR-SCTP", "delay", "r"): "no timed reliability"}
    )
    assert table["protocol"].tolist() == ["TCP", "PR-SCTP"]  # ns-3's order
    assert table["ns2"].tolist()[0] == 300.0 and math.isnan(table["ns2"].tolist()[1])
    assert table["paper_vs_ns2_note"].tolist()[1] == "no timed reliability"
    assert table["ns3_over_ns2"].tolist()[0] == 60.0 / 300.0
    assert table["ns3_within_tolerance_of_ns2"].tolist()[0] == False  # noqa: E712
    assert pd.isna(table["ns3_within_tolerance_of_ns2"].tolist()[1])
    counts = baseline.baseline_counts(table, by=["protocol"])
    total = counts[counts["protocol"] == "all"].iloc[0]
    assert (total["rows"], total["with_ns2"], total["paper_matches_ns3"]) == (2, 1, 1)


def test_a_bound_that_holds_vacuously_is_no_agreement():
    verdicts = pd.Series(["matches", "within-bound", "within-bound", "same-direction"])
    notes = pd.Series(["", "", "2e+06x inside the bound: holds vacuously", ""])
    assert baseline.agrees(verdicts, notes).tolist() == [True, True, False, False]
    assert baseline.agrees(verdicts).tolist() == [True, True, True, False]


def test_the_metrics_tolerance_judges_ns3_against_ns2():
    ns2 = comparison([row("SCTP", "jitter", "bound", "<=30", 30.0, "within-bound"),
                      row("SCTP", "delay", "value", "150", 100.0, "differs")])  # fmt: skip
    ns3 = comparison([row("SCTP", "jitter", "bound", "<=30", 33.5, "within-bound"),
                      row("SCTP", "delay", "value", "150", 119.0, "differs")])  # fmt: skip
    table = baseline.baseline_table(ns2, ns3)
    # jitter: |33.5 - 30| = 3.5 > 0.1 x 30; delay: |119 - 100| = 19 <= 0.2 x 100
    assert table["tolerance"].tolist() == [0.1, 0.2]
    assert table["ns3_within_tolerance_of_ns2"].tolist() == [False, True]
    assert table["published_over_ns2"].tolist() == [1.0, 1.5]
