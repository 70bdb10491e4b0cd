"""The comparison verdicts, one hand-built case per label, the Welch test and rejudge()."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pandas as pd
import pytest
from scipy import stats as scipy_stats

from transportlab import studies
from transportlab.engine import paths, published, stats, verdicts
from transportlab.engine.stats import standard_error, welch_test

SEED = "001_8dea97bcf2df26a4.txt"  # a seed of voip_cjm, the study these cases borrow
HEADER = "seed_file,source,protocol,metric,row,unit,value,kind,also_in,alternative,note"
CASES = f"""{HEADER}
{SEED},Table 1,SCTP,delay,a,ms,100,value,,,
{SEED},Table 1,TCP,delay,a,ms,200,value,,,
{SEED},Table 1,SCTP,jitter,a,ms,<=30,bound,,,
{SEED},Table 1,TCP,stall,a,s,>3,bound,,,
{SEED},Table 1,SCTP,rate,a,packets/s,2400,input,,,48 calls x 50 packets/s
{SEED},Table 1,SCTP,time,b,s,2.4,value,Section 2,~1.7,text and table swap the two
{SEED},Table 1,UDP,time,b,s,1.7,value,Section 2,2.4,text and table swap the two
{SEED},Table 1,UDP,load,a,ratio,56.49,value,Section 2,56.45,
{SEED},Table 1,ITU-T,delay,a,ms,<=150,reference,,,
"""


@pytest.fixture
def cases(tmp_path, monkeypatch) -> Path:
    """A scratch project whose voip_cjm.csv holds the hand-built published rows above."""
    root = tmp_path / "project"
    shutil.copytree(paths.published_dir(), root / "data" / "published")
    (root / "data" / "published" / "voip_cjm.csv").write_text(CASES)
    (root / "pyproject.toml").write_text("[project]\nname = 'scratch'\n")
    monkeypatch.setenv("TRANSPORTLAB_ROOT", str(root))
    return root


UNIT = {"delay": "ms", "jitter": "ms", "stall": "s", "rate": "packets/s", "time": "s",
        "load": "ratio"}  # fmt: skip
ROW = {"time": "b"}


def judge(runs: dict[tuple[str, str], list[float]], deterministic: bool = False):
    """Compare ``{(protocol, metric): values per run}``; index the result by both."""
    rows = [
        (protocol, metric, ROW.get(metric, "a"), UNIT[metric], value)
        for (protocol, metric), values in runs.items()
        for value in values
    ]
    reproduced = pd.DataFrame(rows, columns=["protocol", "metric", "row", "unit", "value"])
    reproduced["deterministic"] = deterministic
    result = verdicts.compare(studies.get("voip_cjm"), reproduced)
    return result.set_index(["protocol", "metric"])


def test_matches(cases):
    result = judge({("SCTP", "delay"): [95, 100, 105], ("TCP", "delay"): [150, 151, 152]})
    assert result.loc[("SCTP", "delay"), ["verdict", "note"]].tolist() == ["matches", "within 20%"]


def test_a_match_with_a_wide_interval_says_so(cases):
    # Mean 100 matches 100, but the runs 40-160 give an interval far wider than 80-120.
    result = judge({("SCTP", "delay"): [40, 100, 160]})
    assert result.loc[("SCTP", "delay"), "verdict"] == "matches"
    assert result.loc[("SCTP", "delay"), "note"] == (
        "within 20%; the 95 % interval is wider than the band"
    )


def test_same_direction_needs_significance_and_a_factor_two(cases):
    # SCTP 61 (0.61x) and TCP 151 (0.755x): neither within 20 %, TCP > SCTP as published,
    # t = 90 / sqrt(2 * (1/sqrt(3))^2) = 110 with 4 df: p << 0.05.
    significant = judge({("SCTP", "delay"): [60, 61, 62], ("TCP", "delay"): [150, 151, 152]})
    assert set(significant["verdict"]) == {"same-direction"}
    assert "Welch p = " in significant.loc[("TCP", "delay"), "note"]
    assert "0.755x the published value" in significant.loc[("TCP", "delay"), "note"]

    # Same means' ordering, but SCTP's runs spread 0-120: Welch p = 0.14, not significant.
    noisy = judge({("SCTP", "delay"): [0, 60, 120], ("TCP", "delay"): [130, 140, 150]})
    assert set(noisy["verdict"]) == {"differs"}
    assert "not significant (Welch p = 0.144)" in noisy.loc[("SCTP", "delay"), "note"]

    # Significant ordering, but SCTP 31 is 0.31x its published 100: beyond a factor 2.
    far = judge({("SCTP", "delay"): [30, 31, 32], ("TCP", "delay"): [150, 151, 152]})
    assert far.loc[("SCTP", "delay"), "verdict"] == "differs"
    assert far.loc[("SCTP", "delay"), "note"].endswith("0.31x the published value (beyond 2x)")
    assert far.loc[("TCP", "delay"), "verdict"] == "same-direction"


def test_differs_when_the_ordering_is_reversed(cases):
    result = judge({("SCTP", "delay"): [200, 201, 202], ("TCP", "delay"): [100, 101, 102]})
    assert set(result["verdict"]) == {"differs"}
    assert result.loc[("SCTP", "delay"), "note"] == "ordering against TCP reversed"


def test_within_bound_and_the_vacuous_flag(cases):
    result = judge({("SCTP", "jitter"): [24, 25, 26], ("TCP", "stall"): [3.5, 4, 4.5]})
    assert result["verdict"].tolist() == ["within-bound", "within-bound"]
    assert result["note"].tolist() == ["the bound holds", "the bound holds"]
    # 1e-3 ms against "<= 30": 30000x inside; 40 s against "> 3 s": 13.3x inside.
    vacuous = judge({("SCTP", "jitter"): [0.0009, 0.001, 0.0011], ("TCP", "stall"): [39, 40, 41]})
    assert vacuous["verdict"].tolist() == ["within-bound", "within-bound"]
    assert vacuous.loc[("SCTP", "jitter"), "note"] == "3e+04x inside the bound: holds vacuously"
    assert vacuous.loc[("TCP", "stall"), "note"] == "13.3x inside the bound: holds vacuously"
    # A bound that fails (40 ms > 30 x 1.2) with nothing to order against differs.
    broken = judge({("SCTP", "jitter"): [39, 40, 41]})
    assert broken.loc[("SCTP", "jitter"), "verdict"] == "differs"


def test_input_is_never_a_match(cases):
    result = judge({("SCTP", "rate"): [2400, 2400, 2400]})
    assert result.loc[("SCTP", "rate"), "verdict"] == "input"
    assert result.loc[("SCTP", "rate"), "kind"] == "input"
    assert "48 calls x 50 packets/s" in result.loc[("SCTP", "rate"), "note"]


def test_seed_inconsistent_shows_both_readings(cases):
    result = judge({("SCTP", "time"): [3.0], ("UDP", "time"): [1.0]}, deterministic=True)
    assert set(result["verdict"]) == {"seed-inconsistent"}
    sctp = result.loc[("SCTP", "time")]
    assert (sctp["published"], sctp["alternative"], sctp["also_in"]) == ("2.4", "~1.7", "Section 2")
    assert sctp["note"].startswith("as Table 1 (2.4): same-direction (")
    assert sctp["note"].endswith("as Section 2 (~1.7): differs (ordering against UDP reversed)")


def test_an_alternative_within_the_tolerance_is_only_noted(cases):
    result = judge({("UDP", "load"): [56, 56.5, 57]})
    assert result.loc[("UDP", "load"), "verdict"] == "matches"
    assert result.loc[("UDP", "load"), "note"] == "within 20%; Section 2 prints 56.45"


def test_too_few_runs_and_deterministic(cases):
    two = judge({("SCTP", "delay"): [99, 101], ("TCP", "delay"): [199, 201]})
    assert set(two["verdict"]) == {"too-few-runs"}
    assert two.loc[("SCTP", "delay"), "note"].startswith("2 run(s) of a stochastic model")
    one = judge({("SCTP", "delay"): [60], ("TCP", "delay"): [150]})
    assert set(one["verdict"]) == {"too-few-runs"}
    # The same single values from a deterministic model are exact: distinct, ordered as
    # published, within 2x.
    exact = judge({("SCTP", "delay"): [60], ("TCP", "delay"): [150]}, deterministic=True)
    assert set(exact["verdict"]) == {"same-direction"}
    assert exact["deterministic"].tolist() == [True, True]
    assert exact["n_runs"].tolist() == [1, 1]
    assert "both deterministic, distinct" in exact.loc[("SCTP", "delay"), "note"]
    # A peer with too few runs makes the ordering untestable.
    untestable = judge({("SCTP", "delay"): [60, 61, 62], ("TCP", "delay"): [150, 151]})
    assert untestable.loc[("SCTP", "delay"), "verdict"] == "differs"
    assert "untestable" in untestable.loc[("SCTP", "delay"), "note"]


def test_references_are_never_compared_and_every_label_is_known(cases):
    result = judge({("ITU-T", "delay"): [60, 61, 62], ("SCTP", "delay"): [95, 100, 105]})
    assert list(result.index) == [("SCTP", "delay")]
    assert set(result["verdict"]) <= set(verdicts.VERDICTS)


def test_kind_and_qualifier_must_agree(cases):
    target = cases / "data" / "published" / "voip_cjm.csv"
    for broken, message in [
        (CASES.replace("<=30,bound", "<=30,value"), "kind 'bound' needs"),
        (CASES.replace(",100,value", ",100,bound"), "kind 'bound' needs"),
        (CASES.replace("<=150,reference", "<=150,bound"), "are of kind 'reference'"),
        (CASES.replace(",100,value", ",100,result"), "unknown kind"),
        (CASES.replace("a,ms,200,value", "a,ms,200,value\n" + f"{SEED},Section 3,TCP,delay,a,"
                       "ms,200,value"), "duplicate rows"),
    ]:  # fmt: skip
        target.write_text(broken)
        with pytest.raises(ValueError, match=message):
            published.load(studies.get("voip_cjm"))


# ---------------------------------------------------------------------------- statistics


def test_welch_test_against_scipy_and_by_hand():
    # Means 10 and 12, standard errors 1 and 1, n = 5 each: t = -2 / sqrt(2), df = 8.
    t, df, p = welch_test(10, 1, 5, 12, 1, 5)
    assert (t, df) == (pytest.approx(-math.sqrt(2)), pytest.approx(8))
    reference = scipy_stats.ttest_ind_from_stats(
        10, math.sqrt(5), 5, 12, math.sqrt(5), 5, equal_var=False
    )
    assert p == pytest.approx(reference.pvalue)
    # Unequal spreads: df from Welch-Satterthwaite, again as scipy computes it.
    t, df, p = welch_test(10, 0.5, 4, 12, 2, 10)
    reference = scipy_stats.ttest_ind_from_stats(10, 1.0, 4, 12, 2 * math.sqrt(10), 10,
                                                 equal_var=False)  # fmt: skip
    assert (t, p) == (pytest.approx(reference.statistic), pytest.approx(reference.pvalue))
    # Exact values: distinct -> p = 0, equal -> p = 1; one exact value: a one-sample test.
    assert welch_test(1, 0, 1, 2, 0, 1)[2] == 0.0
    assert welch_test(2, 0, 1, 2, 0, 1)[2] == 1.0
    t, df, p = welch_test(10, 0, 1, 12, 1, 5)
    assert (t, df) == (pytest.approx(-2), pytest.approx(4))
    assert p == pytest.approx(2 * scipy_stats.t.sf(2, 4))
    assert math.isnan(welch_test(1, math.nan, 1, 2, 1, 5)[2])
    with pytest.raises(ValueError, match="n >= 2"):
        welch_test(1, 1, 1, 2, 1, 5)


def test_standard_error_inverts_the_confidence_interval():
    mean, low, high, n = stats.confidence_interval([60, 62, 61])
    assert standard_error(low, high, n) == pytest.approx(1 / math.sqrt(3))
    assert math.isnan(standard_error(math.nan, math.nan, 1))
    with pytest.raises(ValueError, match="swapped"):
        standard_error(2, 1, 3)


# ---------------------------------------------------------------------------- rejudge


def test_rejudge_collapses_copies_and_applies_the_new_rules(cases):
    old = pd.DataFrame(
        {
            "protocol": ["SCTP", "SCTP", "TCP", "SCTP", "SCTP"],
            "metric": ["delay", "delay", "delay", "jitter", "rate"],
            "row": "a",
            "unit": ["ms", "ms", "ms", "ms", "packets/s"],
            # The old method called both orderings and the bound matches.
            "reproduced": [61.0, 61.0, 151.0, 1e-5, 2400.0],
            "ci_low": [60.0, 60.0, 140.0, 0.0, 2400.0],
            "ci_high": [62.0, 62.0, 162.0, 2e-5, 2400.0],
            "n_runs": [3, 3, 3, 3, 3],
            "verdict": ["same-direction", "same-direction", "same-direction", "matches", "matches"],
        }
    )
    new = verdicts.rejudge(studies.get("voip_cjm"), old).set_index(["protocol", "metric"])
    assert len(new) == 4  # the two copies of SCTP delay are one row
    assert new.loc[("SCTP", "delay"), "verdict"] == "same-direction"
    assert new.loc[("TCP", "delay"), "verdict"] == "same-direction"
    assert new.loc[("SCTP", "jitter"), "verdict"] == "within-bound"
    assert "vacuously" in new.loc[("SCTP", "jitter"), "note"]
    assert new.loc[("SCTP", "rate"), "verdict"] == "input"
    # The same numbers with two runs get no verdict; metrics declared deterministic do.
    two = verdicts.rejudge(studies.get("voip_cjm"), old.assign(n_runs=2))
    assert set(two["verdict"]) == {"too-few-runs", "input"}
    exact = verdicts.rejudge(studies.get("voip_cjm"), old.assign(n_runs=1), deterministic=["delay"])
    assert set(exact.loc[exact["metric"] == "delay", "verdict"]) == {"same-direction"}
    with pytest.raises(ValueError, match="lacks column"):
        verdicts.rejudge(studies.get("voip_cjm"), old.drop(columns="ci_low"))


def test_a_row_with_no_value_differs_and_says_what_was_found_instead(cases):
    nan = math.nan
    reproduced = pd.DataFrame(
        {"protocol": "SCTP", "metric": "delay", "row": "a", "unit": "ms", "value": [nan] * 3,
         "why_missing": "no crossing in any of the 3 runs"}
    )  # fmt: skip
    row = verdicts.compare(studies.get("voip_cjm"), reproduced).iloc[0]
    assert row["verdict"] == "differs" and row["note"] == "no crossing in any of the 3 runs"
    assert row["n_runs"] == 0
    plain = reproduced.drop(columns="why_missing")
    row = verdicts.compare(studies.get("voip_cjm"), plain).iloc[0]
    assert row["note"] == "nothing reproduced for this row"
