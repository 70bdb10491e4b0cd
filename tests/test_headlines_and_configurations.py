"""Issue 26's rest: the README's prose generated from the committed tables
(transportlab.headlines), single published realisations judged as probabilities
(multihoming's P(stall > 3 s)), and one configuration per study judged on all its
claims (engine.configurations, transportlab.best_configuration)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from transportlab import headlines
from transportlab.best_configuration import FILE_NAME, best_configuration_block
from transportlab.engine import paths, verdicts
from transportlab.engine.configurations import rank_configurations
from transportlab.engine.provenance import NOT_RERUN
from transportlab.studies import get
from transportlab.studies.multihoming_failover import analysis
from transportlab.summary import readme_block, readme_blocks, readme_text

RESULTS = paths.results_dir(quick=False)
README = paths.project_root() / "README.md"


# ----------------------------------------------------------------- one configuration


def _claims(*rows) -> pd.DataFrame:
    """(verdict, published, reproduced) per claim."""
    return pd.DataFrame(rows, columns=["verdict", "published", "reproduced"])


def test_configurations_rank_by_agreeing_then_matches_then_contradicts_then_distance():
    judged = {
        # 2 agreeing (1 matches), 1 contradicts
        "declared": _claims(("matches", "10", 10.5), ("consistent", "~5", 5.5),
                            ("contradicts", ">3", 1.0)),
        # 2 agreeing (2 matches): beats the declared one on matches
        "b": _claims(("matches", "10", 10.1), ("matches", "~5", 5.0),
                     ("contradicts", ">3", 1.0)),
        # 2 agreeing (2 matches), no contradicts: beats b
        "c": _claims(("matches", "10", 9.0), ("matches", "~5", 5.1), ("differs", ">3", 1.0)),
        # 1 agreeing: last
        "d": _claims(("matches", "10", 10.0), ("differs", "~5", 50.0), ("differs", ">3", 1.0)),
    }  # fmt: skip
    table = rank_configurations(judged, "declared", study="s", experiment="e").set_index(
        "configuration"
    )
    assert table["rank"].to_dict() == {"c": 1, "b": 2, "declared": 3, "d": 4}
    assert table.loc["c", "best"] and not table.loc["declared", "best"]
    assert table.loc["declared", "agreeing"] == 2
    assert table.loc["declared", "matches"] == 1
    assert table.loc["b", "matches"] == 2
    assert table.loc["c", "contradicts"] == 0
    # median |log(reproduced / published)| over the numeric claims of d: log 1, log 10, log 1/3
    assert table.loc["d", "median_log_distance"] == pytest.approx(np.log(3))


def test_a_tie_keeps_the_declared_configuration_and_missing_claims_are_counted():
    same = _claims(("matches", "10", 10.0), ("differs", "5", 50.0))
    table = rank_configurations(
        {"other": same, "declared": same.copy(), "partial": same.iloc[:1]},
        "declared",
        all_claims=2,
    ).set_index("configuration")
    assert table.loc["declared", "rank"] == 1
    assert table.loc["other", "rank"] == 2
    assert table.loc["partial", "claims_without_value"] == 1
    assert table.loc["declared", "claims_without_value"] == 0


def test_the_declared_configuration_must_be_a_candidate():
    with pytest.raises(ValueError, match="declared default"):
        rank_configurations({"a": _claims(("matches", "1", 1.0))}, "declared")


def test_the_best_configuration_table_names_the_best_and_the_declared(tmp_path):
    rows = rank_configurations(
        {
            "declared (comparison.csv)": _claims(("differs", "10", 30.0), ("matches", "1", 1.0)),
            "n_calls: 64": _claims(("matches", "10", 10.0), ("matches", "1", 1.0)),
        },
        "declared (comparison.csv)",
        study="voip_cjm",
        experiment="load",
    )
    rows.to_csv(tmp_path / FILE_NAME, index=False)
    block = best_configuration_block(tmp_path)
    line = next(x for x in block.splitlines() if x.startswith("| `voip_cjm`"))
    assert "| 2 | 1 / 1 / 0 of 2 | `load`: n_calls: 64 | 2 / 2 / 0 of 2 | 0 |" in line


def test_the_committed_best_configurations_are_what_the_code_gives():
    from transportlab.best_configuration import best_configurations

    committed = pd.read_csv(RESULTS / FILE_NAME, keep_default_na=False, na_values=[""])
    fresh = pd.concat(best_configurations().values(), ignore_index=True)
    pd.testing.assert_frame_equal(
        fresh.reset_index(drop=True), committed, check_dtype=False, check_exact=False
    )
    # every seed study reports its declared configuration and one best
    per_study = committed.groupby("study")
    assert (per_study["best"].sum() == 1).all()
    assert (per_study["is_default"].sum() == 1).all()


# ----------------------------------------------------------------- single realisations


def test_stall_exceedance_is_a_share_with_an_exact_interval_and_a_non_negative_bootstrap():
    runs = pd.DataFrame(
        {"config": "single-homed", "first_loss_stall_s": [0.05, 0.04, 4.0, 0.06, 7.5, 0.05]}
    )
    row = analysis.stall_exceedance(runs, threshold=3.0).iloc[0]
    assert (row["runs_above"], row["n_runs"]) == (2, 6)
    assert row["p_above"] == pytest.approx(2 / 6)
    # Clopper-Pearson 2 of 6 (scipy's beta quantiles)
    assert row["p_ci_low"] == pytest.approx(0.0433, abs=1e-4)
    assert row["p_ci_high"] == pytest.approx(0.7772, abs=1e-4)
    assert row["stall_mean_s"] == pytest.approx(np.mean([0.05, 0.04, 4.0, 0.06, 7.5, 0.05]))
    assert 0.04 <= row["stall_boot_low_s"] < row["stall_mean_s"] < row["stall_boot_high_s"] <= 7.5
    assert row["stall_median_s"] == pytest.approx(0.055)  # (0.05 + 0.06) / 2


def test_the_committed_realisation_is_judged_again_by_rejudge():
    study = get("multihoming_failover")
    rejudged = verdicts.rejudge(study)
    row = rejudged[rejudged["kind"] == "realisation"].iloc[0]
    runs = pd.read_csv(RESULTS / "multihoming_failover" / "lossy_runs.csv")
    single = runs[runs["config"] == "single-homed"]["first_loss_stall_s"]
    assert row["role"] == "claim" and row["published"] == ">3"
    assert row["reproduced"] == pytest.approx((single > 3).mean(), rel=1e-5)  # 6 digits kept
    assert row["verdict"] == ("matches" if (single > 3).any() else "differs")
    mean = rejudged[rejudged["row"] == row["row"] + verdicts.MEAN_ROW_SUFFIX].iloc[0]
    assert mean["role"] == "derived" and mean["reproduced"] == pytest.approx(
        single.mean(), rel=1e-5
    )
    # the skewed durations' intervals stay non-negative
    durations = rejudged[rejudged["metric"].isin(["transmission_stall", "first_loss_time"])]
    assert (durations["ci_low"] >= 0).all()


def test_a_derived_bound_is_parsed_with_its_qualifier():
    assert verdicts._printed(">0") == (0.0, ">")
    assert verdicts._printed("<=30") == (30.0, "<=")
    assert verdicts._printed("~0.5") == (0.5, "~")
    assert verdicts._printed("0.2857") == (0.2857, "")


# ----------------------------------------------------------------- prose from tables


def test_the_results_table_and_ns2_paragraphs_are_generated_blocks():
    text = README.read_text(encoding="utf-8")
    for name in headlines.HEADLINE_BLOCKS:
        assert readme_block(text, name) == readme_blocks()[name], f"README block {name} stale"
    # the hand-typed table is gone: its header appears once, inside the generated block
    assert text.count("| study | runs per point | headline |") == 1
    assert "| study | runs per point | headline |" in readme_block(text, "results-headlines")


def test_a_stale_number_in_the_prose_is_caught():
    text = README.read_text(encoding="utf-8")
    block = readme_block(text, "results-headlines")
    assert "Welch p = " in block
    stale = text.replace(block, block.replace("Welch p = ", "Welch p = 9", 1))
    assert readme_block(stale, "results-headlines") != readme_blocks()["results-headlines"]
    # and rendering puts the committed number back
    assert readme_block(readme_text(stale, readme_blocks()), "results-headlines") == block


def test_the_headlines_follow_the_committed_tables(tmp_path):
    folder = tmp_path / "results"
    shutil.copytree(RESULTS, folder, ignore=shutil.ignore_patterns("quick", "*.json"))
    path = folder / "wired_best_effort" / "comparison.csv"
    table = pd.read_csv(path, keep_default_na=False, na_values=[""])
    sctp = (table["source"] == "Table 2") & (table["protocol"] == "SCTP")
    before = headlines.headline_blocks(folder)["results-headlines"]
    assert f"SCTP {table.loc[sctp, 'reproduced'].min():.1f}-" in before
    table.loc[sctp, "reproduced"] = [40.0, 41.0, 42.0, 43.0, 44.25]
    table.to_csv(path, index=False)
    after = headlines.headline_blocks(folder)["results-headlines"]
    assert "SCTP 40.0-44.2 kb/s per pair" in after
    path = folder / "multihoming_failover" / "lossy_exceedance.csv"
    exceedance = pd.read_csv(path)
    exceedance.loc[exceedance["config"] == "single-homed", ["runs_above", "p_above"]] = (9, 0.3)
    exceedance.to_csv(path, index=False)
    assert (
        "single-homed 9 of 30 runs stall more than 3 s"
        in headlines.headline_blocks(folder)["results-headlines"]
    )


def test_the_sensor_headline_names_the_tables_provenance_says_were_not_re_run(tmp_path):
    folder = tmp_path / "results"
    study = "wsn_reporting_interval"
    shutil.copytree(RESULTS / study, folder / study)
    provenance = folder / study / "provenance.json"
    document = json.loads(provenance.read_text())
    for output in document["outputs"]:
        stale = output["name"] == "start_mode" and output["kind"] == "table"
        output["written_by"] = f"{NOT_RERUN}: the older code" if stale else "a run"
    provenance.write_text(json.dumps(document))
    runs, text = headlines._wsn_headline(folder)
    assert runs.endswith("; `start_mode` from the 2-Mb/s code (not re-run)")
    assert "but 1 table (`start_mode`) still comes from the 2-Mb/s" in text
    for output in document["outputs"]:
        output["written_by"] = "a run"
    provenance.write_text(json.dumps(document))
    runs, text = headlines._wsn_headline(folder)
    assert "not re-run" not in runs and "2-Mb/s" not in text


# ----------------------------------------------------------------- NS-2 paragraphs


def _voip_copy(tmp_path) -> Path:
    folder = tmp_path / "results"
    shutil.copytree(
        RESULTS / "voip_cjm", folder / "voip_cjm", ignore=shutil.ignore_patterns("*.json")
    )
    return folder


def test_the_voip_paragraph_gives_the_trunk_reading_beside_the_homogeneous_one(tmp_path):
    folder = _voip_copy(tmp_path)
    path = folder / "voip_cjm" / "ns2_network.csv"
    network = pd.read_csv(path)
    table = pd.read_csv(folder / "voip_cjm" / "ns2_baseline.csv")
    assert set(table["topology"]) == {"homogeneous", "trunk"}
    sctp = (network["simulator"] == "NS-2.35") & (network["configuration"] == "SCTP ordered")
    by_reading = network[sctp].set_index("topology")["delay_max_ms"]
    text = headlines._ns2_voip(folder)
    trunk = table[table["topology"] == "trunk"]
    assert f"trunk reading the paper agrees with NS-2 on 0 of its {len(trunk)} rows" in text
    assert f"maximum {by_reading['trunk']:.0f} ({by_reading['homogeneous']:.0f}) ms" in text
    worse = by_reading["trunk"] > by_reading["homogeneous"]
    assert ("bursts get worse" if worse else "bursts are milder") in text
    # the words follow the table: a milder trunk maximum is said so
    network.loc[sctp & (network["topology"] == "trunk"), "delay_max_ms"] = 1000.0
    network.to_csv(path, index=False)
    text = headlines._ns2_voip(folder)
    assert "bursts are milder" in text
    assert f"maximum 1000 ({by_reading['homogeneous']:.0f}) ms" in text
    # without trunk rows the paragraph says the reading is not committed
    table[table["topology"] == "homogeneous"].to_csv(
        folder / "voip_cjm" / "ns2_baseline.csv", index=False
    )
    text = headlines._ns2_voip(folder)
    assert "is not in the committed table yet" in text
    assert "On the trunk reading" not in text


def test_the_ns2_count_block_has_a_line_per_voip_reading(tmp_path):
    from transportlab.summary import _ns2_baseline_block

    folder = _voip_copy(tmp_path)
    table = pd.read_csv(folder / "voip_cjm" / "ns2_baseline.csv")
    lines = {
        line.split(" | ")[0].lstrip("| "): line.split(" | ")
        for line in _ns2_baseline_block(folder).splitlines()
        if line.startswith("| `voip_cjm`")
    }
    assert set(lines) == {"`voip_cjm` (homogeneous)", "`voip_cjm` (trunk)"}
    for reading, rows in table.groupby("topology"):
        line = lines[f"`voip_cjm` ({reading})"]
        assert line[1] == str(len(rows))  # published rows of that reading
        assert line[3] == f"{rows['ns2_runs'].min()}"


def test_the_sensors_paragraph_follows_the_ns2_gap_tables(tmp_path):
    study = "wsn_reporting_interval"
    folder = tmp_path / "results"
    (folder / study).mkdir(parents=True)
    for name in ("ns2_gap_delay", "ns2_gap_drops", "ns2_gap_collisions", "ns2_gap_broadcasts"):
        shutil.copy(RESULTS / study / f"{name}.csv", folder / study / f"{name}.csv")
    delay = pd.read_csv(folder / study / "ns2_gap_delay.csv")
    drops = pd.read_csv(folder / study / "ns2_gap_drops.csv")
    fast = delay[delay["reporting_interval"] == delay["reporting_interval"].min()]
    hops = fast[fast["quantity"] == "hops per report"].iloc[0]
    gap = fast[fast["quantity"] == "gap: mean(NS-2) - mean(ns-3) (ms)"]["ns2"].iloc[0]
    total = drops[(drops["cause"] == "total")
                  & (drops["reporting_interval"] == drops["reporting_interval"].max())]  # fmt: skip
    text = headlines._ns2_sensors(folder)
    assert text.startswith("**Sensors** (`wsn_reporting_interval`, notebook 04 section 8):")
    assert f"of its {gap:.0f} ms more" in text
    own = {name: fast[fast["quantity"] == f"gap part: {name}'s own reports (ms)"]["ns2"].iloc[0]
           for name in ("NS-2", "ns-3")}  # fmt: skip
    against = "NS-2" if own["NS-2"] * gap < own["ns-3"] * gap else "ns-3"
    assert f"{against}'s own extra reports pulling the other way" in text
    assert f"({hops['ns2']:.2f} against {hops['ns3']:.2f})" in text
    assert (
        f"NS-2 counts {total['ns2'].iloc[0]:.0f} drops against ns-3's {total['ns3'].iloc[0]:.0f}"
        in text
    )
    fastest = drops["reporting_interval"] == drops["reporting_interval"].min()
    at_1_s = drops[(drops["cause"] == "total") & fastest]
    assert f"(at 1 s {at_1_s['ns2'].iloc[0]:.0f} against {at_1_s['ns3'].iloc[0]:.0f})" in text
    broadcasts = pd.read_csv(folder / study / "ns2_gap_broadcasts.csv")
    per_frame = broadcasts[(broadcasts["reporting_interval"] == 20.0)
                           & (broadcasts["group"] == "per frame sent")]  # fmt: skip
    rreq = per_frame[per_frame["category"] == "RREQ"].set_index("simulator")["share"]
    assert (
        f"ns-3 loses {rreq['ns3']:.2f} RREQs per RREQ sent against NS-2's {rreq['ns2']:.2f} "
        f"(a recount of the frames ns-3's preamble detection dropped: "
        f"{rreq['ns3_preamble']:.2f})" in text
    )
    # a changed table changes the words
    retry = (drops["cause"] == "MAC retry limit") & (drops["kind"] == "data")
    retry &= drops["reporting_interval"] == drops["reporting_interval"].min()
    drops.loc[retry, "ns3"] = 900
    drops.loc[(drops["cause"] == "total") & (drops["reporting_interval"] == 20.0), "ns2"] = 4000
    drops.to_csv(folder / study / "ns2_gap_drops.csv", index=False)
    text = headlines._ns2_sensors(folder)
    only = fast[fast["quantity"] == "reports delivered by this simulator only"]["ns2"].iloc[0]
    assert (
        f"the reports only NS-2 delivers number {only:.0f}, the data packets ns-3's MACs gave "
        "up at the retry limit 900," in text
    )
    assert "At 20 s NS-2 counts 4000 drops" in text
