"""transportlab.ns2.baseline: published / NS-2 / ns-3 per published row, by hand."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from transportlab.engine.results import committed_table
from transportlab.ns2 import baseline
from transportlab.ns2.baseline import rejudge_baseline
from transportlab.studies import get
from transportlab.studies.multihoming_failover import ns2_baseline as multihoming_baseline
from transportlab.studies.voip_cjm import ns2_baseline as voip_baseline
from transportlab.studies.wired_best_effort import ns2_baseline as wired_baseline
from transportlab.studies.wsn_reporting_interval import ns2_baseline as wsn_baseline

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


def _committed_baseline(study: str) -> pd.DataFrame:
    return committed_table(study, "ns2_baseline")


def test_rejudging_a_baseline_judges_ns2_by_the_current_method():
    """Hand-set NS-2 intervals around the published 67.35 kb/s (tolerance 20 %): inside the
    band -> matches; mean inside, interval crossing the band's edge -> consistent."""
    table = _committed_baseline("wired_best_effort").iloc[:2].copy()
    table["published"] = table["published"].astype(float)
    first, second = table.index
    table.loc[first, ["ns2", "ns2_ci_low", "ns2_ci_high"]] = [66.0, 65.0, 67.0]
    low, high = 0.7 * table.loc[second, "published"], 1.1 * table.loc[second, "published"]
    table.loc[second, ["ns2", "ns2_ci_low", "ns2_ci_high"]] = [
        0.9 * table.loc[second, "published"], low, high,
    ]  # fmt: skip
    table["paper_vs_ns2"] = "stale"
    judged = rejudge_baseline(get("wired_best_effort"), table)
    assert list(judged["paper_vs_ns2"]) == ["matches", "consistent"]
    assert list(judged.columns) == list(table.columns)
    # ns-3's judgement is the committed comparison's, row by row.
    comparison = committed_table("wired_best_effort", "comparison").iloc[:2]
    assert list(judged["paper_vs_ns3"]) == list(comparison["verdict"])


def test_a_number_two_seeds_print_keeps_each_seeds_own_verdict():
    """Seeds 000 and 004 print SCTP's delay of pair 5-15 as 1397.66 and 1137.93 ms: one
    NS-2 value (1115 ms) matches the second and not the first."""
    table = _committed_baseline("wired_best_effort")
    judged = rejudge_baseline(get("wired_best_effort"), table)
    rows = judged[(judged["protocol"] == "SCTP") & (judged["metric"] == "awk_delay")
                  & (judged["row"] == "nodes 5-15")].set_index("seed_file")  # fmt: skip
    assert rows["ns2"].nunique() == 1
    verdicts = rows["paper_vs_ns2"].to_dict()
    assert verdicts["004_c8175ad9bda103cf.txt"] == "matches"
    assert verdicts["000_efd8d8b62659a846.txt"] != "matches"


def test_the_shared_command_line_parses_the_common_options_and_rejects_others(capsys):
    parser = baseline.baseline_parser("First line.\nMore.", quick="quick mode (1 run)")
    args = parser.parse_args(["--quick", "--runs", "3", "--scheduler", "local"])
    assert (args.quick, args.runs, args.scheduler) == (True, 3, "local")
    defaults = parser.parse_args([])
    assert (defaults.quick, defaults.runs, defaults.scheduler) == (False, None, "serial")
    assert parser.description == "First line."
    with pytest.raises(SystemExit) as stop:
        parser.parse_args(["--runs", "many"])
    assert stop.value.code == 2
    assert "--runs" in capsys.readouterr().err


@pytest.mark.parametrize(
    "module", [multihoming_baseline, voip_baseline, wired_baseline, wsn_baseline]
)
def test_every_baseline_command_has_the_shared_options(module, capsys):
    with pytest.raises(SystemExit) as stop:
        module.main(["--help"])
    assert stop.value.code == 0
    usage = capsys.readouterr().out
    assert all(option in usage for option in ("--quick", "--runs", "--scheduler"))


def test_the_voip_baseline_still_refuses_negative_trunk_runs_before_running():
    with pytest.raises(SystemExit) as stop:
        voip_baseline.main(["--trunk-runs", "-1"])
    assert stop.value.code == 2


def test_the_multihoming_baseline_passes_the_shared_options_to_write(monkeypatch, capsys):
    """Its command line is the shared one: the parsed options reach ``write`` unchanged
    and the written files are printed one a line (``write`` stubbed: no simulation)."""
    calls = []

    def write(**options):
        calls.append(options)
        return ["data/results/multihoming_failover/ns2_baseline.csv", "fig.png"]

    monkeypatch.setattr(multihoming_baseline, "write", write)
    assert multihoming_baseline.main(["--quick", "--runs", "2", "--scheduler", "local"]) == 0
    assert multihoming_baseline.main([]) == 0
    assert calls == [{"quick": True, "runs": 2, "scheduler": "local"},
                     {"quick": False, "runs": None, "scheduler": "serial"}]  # fmt: skip
    assert capsys.readouterr().out.splitlines() == [
        "data/results/multihoming_failover/ns2_baseline.csv", "fig.png"] * 2  # fmt: skip
    with pytest.raises(SystemExit) as stop:
        multihoming_baseline.main(["--runs", "many"])
    assert stop.value.code == 2
    assert len(calls) == 2  # nothing ran


def test_the_multihoming_baseline_help_names_its_quick_mode_and_default_runs(capsys):
    with pytest.raises(SystemExit):
        multihoming_baseline.main(["--help"])
    usage = " ".join(capsys.readouterr().out.split())
    assert "quick mode (8-s runs, 4 runs)" in usage
    assert "replications (default: 30)" in usage
    assert usage.count("NS-2.35 beside ns-3 for seed 002 section 3.5") == 1


def test_print_written_prints_one_path_a_line(capsys):
    assert baseline.print_written(["a/b.csv", "c.png"]) == 0
    assert capsys.readouterr().out.splitlines() == ["a/b.csv", "c.png"]


def test_a_reading_with_its_own_ns3_runs_is_judged_from_them_not_from_the_comparison():
    """The VoIP trunk reading's ns-3 column comes from its own runs, which comparison.csv
    (the homogeneous reading) does not hold: rejudging judges it from its own values,
    while the homogeneous reading keeps the committed comparison's verdicts."""
    table = _committed_baseline("voip_cjm")
    trunk = table["topology"] == "trunk"
    assert trunk.any() and (~trunk).any()
    row = trunk & (table["protocol"] == "SCTP") & (table["metric"] == "delay_max")
    published = float(table.loc[row, "published"].iloc[0])
    table.loc[row, ["ns3", "ns3_ci_low", "ns3_ci_high"]] = [published, 0.99 * published,
                                                            1.01 * published]  # fmt: skip
    table["paper_vs_ns3"] = "stale"
    judged = rejudge_baseline(get("voip_cjm"), table)
    assert judged.loc[row, "paper_vs_ns3"].iloc[0] == "matches"
    assert not judged["paper_vs_ns3"].eq("stale").any()
    comparison = committed_table("voip_cjm", "comparison").set_index(["protocol", "metric"])
    for _, r in judged[~trunk].iterrows():
        assert r["paper_vs_ns3"] == comparison.loc[(r["protocol"], r["metric"]), "verdict"]


def test_a_realisation_in_the_baseline_is_judged_by_what_the_table_holds():
    """Brennan's single-homed "> 3 s" (a realisation): the committed multihoming baseline
    holds the event's probability in each simulator (unit ratio), judged by it, with the
    mean over the runs beside it as a derived bound row; a baseline written before the
    realisation kind, which keeps NS-2's mean stall (unit s) under the claim's key, is judged
    as the bound on the mean and says so."""
    study = get("multihoming_failover")
    committed = _committed_baseline("multihoming_failover")
    stalls = (committed["protocol"] == "SCTP (single-homed)") & (
        committed["metric"] == "transmission_stall"
    )
    judged = rejudge_baseline(study, committed)[stalls].set_index("kind")
    probability = judged.loc["realisation"]
    assert probability["unit"] == "ratio" and float(probability["ns2"]) == 0.0
    # none of NS-2's 30 runs: exact interval 0-0.12, not all below 5 % -> differs
    assert probability["paper_vs_ns2"] == "differs"
    assert judged.loc["bound", "paper_vs_ns2"] == "contradicts"  # a 0.2-s mean is not > 3 s
    mean = committed[stalls & committed["kind"].eq("bound")]
    table = committed[~(stalls & committed["kind"].eq("bound"))].copy()
    single = (table["protocol"] == "SCTP (single-homed)") & (
        table["metric"] == "transmission_stall"
    )
    columns = ["ns2", "ns2_ci_low", "ns2_ci_high", "ns2_runs"]
    table.loc[single, columns] = mean[columns].to_numpy()
    table.loc[single, "unit"] = "s"
    judged = rejudge_baseline(study, table)[single].iloc[0]
    assert judged["unit"] == "s" and judged["paper_vs_ns2"] == "contradicts"  # 0.08-0.34 s < 3
    assert judged["paper_vs_ns2_note"].startswith("a realisation, judged here as a bound")
    as_probability = table.copy()
    as_probability.loc[single, ["unit", "ns2", "ns2_ci_low", "ns2_ci_high", "ns2_runs"]] = [
        "ratio", 0.1, 0.02, 0.27, 30,
    ]  # fmt: skip
    judged = rejudge_baseline(study, as_probability)[single].iloc[0]
    assert judged["paper_vs_ns2"] == "matches"
    assert "P = 0.1 over 30 runs" in judged["paper_vs_ns2_note"]
    as_probability.loc[single, ["ns2", "ns2_ci_low", "ns2_ci_high", "ns2_runs"]] = [
        0.0, 0.0, 0.036, 100,
    ]  # fmt: skip
    assert rejudge_baseline(study, as_probability)[single].iloc[0]["paper_vs_ns2"] == (
        "contradicts"
    )
