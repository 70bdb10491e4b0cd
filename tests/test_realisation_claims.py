"""Issue 26: a single published realisation (one trace showing an event) is a claim of
kind ``realisation``, judged by the probability of the event in our runs with its exact
interval (``verdicts.judge_realisation``, rules in data/published/README.md): one
hand-built case per outcome, the comparison, orderings, qualitative claims and rejudge."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from transportlab import studies
from transportlab.engine import paths, published, stats, verdicts

SEED = "001_8dea97bcf2df26a4.txt"  # a seed of voip_cjm, the study these cases borrow
HEADER = (
    "seed_file,source,protocol,metric,row,unit,value,kind,also_in,alternative,note,claim,"
    "derived_from,by_construction"
)
CASES = f"""{HEADER}
{SEED},Fig. 1,SCTP,stall,a,s,>3,realisation,,,one trace,SCTP stall a,,
{SEED},Fig. 2,TCP,stall,a,s,~0.5,value,,,,TCP stall a,,
"""
QUALITATIVE = f"""seed_file,source,claim,quote,metric,row,left,relation,right,note
{SEED},Section 3,TCP stalls less than SCTP,interrupted for only 0.5 s,stall,a,TCP,<,SCTP,
"""


@pytest.fixture
def cases(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "project"
    shutil.copytree(paths.published_dir(), root / "data" / "published")
    (root / "data" / "published" / "voip_cjm.csv").write_text(CASES)
    (root / "data" / "published" / "qualitative" / "voip_cjm.csv").write_text(QUALITATIVE)
    (root / "pyproject.toml").write_text("[project]\nname = 'scratch'\n")
    monkeypatch.setenv("TRANSPORTLAB_ROOT", str(root))
    return root


def _probability(k: int, n: int) -> tuple[float, float, float, int]:
    p, low, high, _, runs = stats.exceedance_probability([4.0] * k + [0.1] * (n - k), 3.0)
    return p, low, high, runs


# ---------------------------------------------------------- judge_realisation by hand


def test_the_event_seen_in_our_runs_matches():
    # Brennan's ">3 s": 4 of 30 single-homed runs; Clopper-Pearson 0.0376-0.307.
    p, low, high, n = _probability(4, 30)
    assert (round(low, 4), round(high, 4)) == (0.0376, 0.3072)
    verdict, note = verdicts.judge_realisation(p, low, high, n)
    assert verdict == "matches"
    assert note.startswith("P = 0.13 over 30 runs (exact 95 % interval 0.038-0.31)")


def test_the_event_never_seen_in_too_few_runs_to_call_it_rare_differs():
    # 0 of 30: the upper bound 1 - 0.025^(1/30) = 0.116 is above 5 %.
    verdict, note = verdicts.judge_realisation(*_probability(0, 30))
    assert verdict == "differs"
    assert "the interval includes 0" in note


def test_the_event_rarer_than_one_in_twenty_over_the_whole_interval_contradicts():
    # 0 of 100: upper bound 1 - 0.025^(1/100) = 0.0362 < 0.05.
    p, low, high, n = _probability(0, 100)
    assert high == pytest.approx(1 - 0.025 ** (1 / 100))
    assert verdicts.judge_realisation(p, low, high, n)[0] == "contradicts"
    # 0 of 60 (upper 0.0578) is not enough to call it rare.
    assert verdicts.judge_realisation(*_probability(0, 60))[0] == "differs"


def test_a_realisation_needs_three_runs_and_a_probability():
    assert verdicts.judge_realisation(*_probability(1, 2))[0] == "too-few-runs"
    assert verdicts.judge_realisation(float("nan"), 0.0, 1.0, 30)[0] == "differs"


# ---------------------------------------------------------------- in the comparison


def _compare(k: int, n: int, tcp=(0.1, 0.15, 0.2)):
    p, low, high, runs = _probability(k, n)
    reproduced = pd.DataFrame({
        "protocol": ["SCTP", "TCP"], "metric": ["stall", "stall"], "row": ["a", "a"],
        "unit": ["ratio", "s"], "mean": [p, tcp[1]], "ci_low": [low, tcp[0]],
        "ci_high": [high, tcp[2]], "n_runs": [runs, 30],
    })  # fmt: skip
    result = verdicts.compare(studies.get("voip_cjm"), reproduced)
    return result.set_index("protocol")


def test_the_comparison_judges_a_realisation_row_by_the_probability(cases):
    result = _compare(4, 30)
    row = result.loc["SCTP"]
    assert (row["kind"], row["published"], row["verdict"]) == ("realisation", ">3", "matches")
    # The probability is kept as given (no unit conversion), no ratio to "3 s".
    assert row["reproduced"] == pytest.approx(4 / 30) and pd.isna(row["ratio"])
    assert row["note"].startswith("one published realisation (>3 s), judged by the share")
    # Nothing orders against a probability: TCP's 0.15 s is not compared with 0.13.
    assert result.loc["TCP", "note"].startswith("no other protocol reproduced to order")
    assert _compare(0, 100).loc["SCTP", "verdict"] == "contradicts"
    assert _compare(0, 30).loc["SCTP", "verdict"] == "differs"


def test_a_realisation_is_one_claim_in_the_counts(cases):
    folded = verdicts.claims(_compare(4, 30).reset_index())
    assert folded.set_index("claim").loc["SCTP stall a", "verdict"] == "matches"


def test_the_qualitative_claim_orders_the_mean_beside_the_realisation(cases):
    comparison = _compare(4, 30).reset_index()
    judged = verdicts.judge_qualitative(studies.get("voip_cjm"), comparison)
    assert judged["verdict"].tolist() == ["differs"]  # no mean beside the probability
    mean = comparison[comparison["protocol"] == "SCTP"].assign(
        row="a" + verdicts.MEAN_ROW_SUFFIX, kind="bound", role="derived", reproduced=1.15,
        ci_low=0.9, ci_high=1.4, n_runs=30,
    )  # fmt: skip
    judged = verdicts.judge_qualitative(
        studies.get("voip_cjm"), pd.concat([comparison, mean], ignore_index=True)
    )
    row = judged.iloc[0]
    assert (row["verdict"], row["left_mean"], row["right_mean"]) == ("matches", 0.15, 1.15)


def test_rejudge_keeps_the_probability_of_a_committed_realisation(cases):
    committed = _compare(4, 30).reset_index()
    committed["unit"] = committed["unit"].astype(str)
    again = verdicts.rejudge(studies.get("voip_cjm"), committed).set_index("protocol")
    assert again.loc["SCTP", "verdict"] == "matches"
    assert again.loc["SCTP", "reproduced"] == pytest.approx(4 / 30)


def test_a_realisation_needs_a_bound(cases):
    target = cases / "data" / "published" / "voip_cjm.csv"
    target.write_text(CASES.replace(">3,realisation", "3,realisation"))
    with pytest.raises(ValueError, match="kind 'bound' needs"):
        published.load(studies.get("voip_cjm"))


def test_brennans_stall_is_a_realisation_judged_by_its_probability():
    """The committed multihoming comparison: seed 002's single-homed ">3" claim holds the
    share of the 30 single-homed runs stalling more than 3 s after their first DATA loss
    (lossy_exceedance.csv), and its verdict follows judge_realisation."""
    results = paths.results_dir("multihoming_failover", quick=False)
    comparison = pd.read_csv(results / "comparison.csv")
    claim = comparison[(comparison["kind"] == "realisation")].iloc[0]
    exceedance = pd.read_csv(results / "lossy_exceedance.csv").set_index("config")
    single = exceedance.loc["single-homed"]
    assert (claim["protocol"], claim["published"]) == ("SCTP (single-homed)", ">3")
    # comparison.csv keeps 6 significant digits
    assert claim["reproduced"] == pytest.approx(single["p_above"], rel=1e-5)
    assert (claim["ci_low"], claim["ci_high"]) == pytest.approx(
        (single["p_ci_low"], single["p_ci_high"]), rel=1e-5
    )
    expected = verdicts.judge_realisation(
        single["p_above"], single["p_ci_low"], single["p_ci_high"], single["n_runs"]
    )[0]
    assert claim["verdict"] == expected
    mean = comparison[comparison["row"] == claim["row"] + verdicts.MEAN_ROW_SUFFIX].iloc[0]
    assert mean["role"] == "derived"
    assert mean["reproduced"] == pytest.approx(single["stall_mean_s"], rel=1e-5)


def test_an_ns2_baseline_with_a_realisation_and_its_mean_is_judged_again():
    """The committed multihoming NS-2 baseline holds Brennan's realisation (a probability in
    each simulator) and the mean over the runs beside it, a derived row the catalogue does
    not hold: rejudge_baseline judges that row again from its published bound (it raised
    before the derived row carried its published value) and keeps both rows."""
    from transportlab.ns2.baseline import rejudge_baseline  # noqa: PLC0415

    table = rejudge_baseline(studies.get("multihoming_failover"))
    stalls = table[
        (table["protocol"] == "SCTP (single-homed)") & (table["metric"] == "transmission_stall")
    ].set_index("kind")
    assert set(stalls.index) == {"realisation", "bound"}
    mean = stalls.loc["bound"]
    assert mean["row"].endswith("mean over the runs")
    # NS-2's mean stall (about 0.2 s) cannot meet "> 3 s": its verdict is judged, not blank
    assert float(mean["ns2"]) < 3 and mean["paper_vs_ns2"] in {"contradicts", "differs"}
    assert stalls.loc["realisation", "ns2"] == 0.0  # none of NS-2's 30 runs stalls > 3 s
