"""Claims, equivalence and the labels of issue 26, one hand-built case each: the point
verdict, the calibrated tolerance, by-construction, a mean its rows contradict, the flags
on matches, claims folded over their copies, derived rows, and qualitative claims judged
as orderings."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pandas as pd
import pytest

from transportlab import studies
from transportlab.engine import paths, published, verdicts

SEED = "001_8dea97bcf2df26a4.txt"  # a seed of voip_cjm, the study these cases borrow
HEADER = ",".join(published.COLUMNS)
# Series "load" (rows a, b, c and their mean); "delay" with a by-construction row; "rate"
# of SCTP and TCP ten per cent apart (a match of one is within the band of the other).
CASES = f"""{HEADER}
{SEED},Table 1,SCTP,load,a,ratio,10,value,,,,SCTP load a,,
{SEED},Table 1,SCTP,load,b,ratio,20,value,,,,SCTP load b,,
{SEED},Table 1,SCTP,load,c,ratio,30,value,,,,SCTP load c,,
{SEED},Table 1,SCTP,load,Avg,ratio,20,value,,,,SCTP load Avg,mean of Table 1,
{SEED},Table 1,TCP,load,Avg,ratio,90,value,,,,TCP load Avg,mean of Table 2,
{SEED},Table 2,TCP,load,a,ratio,50,value,,,,TCP load a,,
{SEED},Table 2,TCP,load,b,ratio,70,value,,,,TCP load b,,
{SEED},Table 1,SCTP,delay,a,ms,100,value,,,,SCTP delay a,,the testbed's CPU
{SEED},Table 1,SCTP,rate,a,packets/s,100,value,,,,SCTP rate a,,
{SEED},Table 1,TCP,rate,a,packets/s,110,value,,,,TCP rate a,,
{SEED},Table 1,ITU-T,delay,a,ms,<=150,reference,,,,,,
"""
QUALITATIVE = """seed_file,source,claim,quote,metric,row,left,relation,right,note
{seed},Section 4,SCTP above TCP,SCTP is faster,rate,a,SCTP,>,TCP,
{seed},Section 4,SCTP under 120,well under the limit,rate,a,SCTP,<,120,
{seed},Section 4,SCTP under 120,well under the limit,rate,a,TCP,<,120,
"""


@pytest.fixture
def cases(tmp_path, monkeypatch) -> Path:
    """A scratch project whose voip_cjm catalogue holds the hand-built rows above."""
    root = tmp_path / "project"
    shutil.copytree(paths.published_dir(), root / "data" / "published")
    (root / "data" / "published" / "voip_cjm.csv").write_text(CASES)
    (root / "data" / "published" / "qualitative" / "voip_cjm.csv").write_text(
        QUALITATIVE.format(seed=SEED)
    )
    (root / "pyproject.toml").write_text("[project]\nname = 'scratch'\n")
    monkeypatch.setenv("TRANSPORTLAB_ROOT", str(root))
    return root


UNIT = {"load": "ratio", "delay": "ms", "rate": "packets/s"}


def compare(runs: dict[tuple[str, str, str], list[float]], deterministic: bool = False):
    """Compare ``{(protocol, metric, row): values per run}``, indexed by the three."""
    rows = [
        (protocol, metric, row, UNIT[metric], value)
        for (protocol, metric, row), values in runs.items()
        for value in values
    ]
    reproduced = pd.DataFrame(rows, columns=["protocol", "metric", "row", "unit", "value"])
    reproduced["deterministic"] = deterministic
    result = verdicts.compare(studies.get("voip_cjm"), reproduced)
    return result.set_index(["seed_file", "protocol", "metric", "row"]).droplevel(0)


# ------------------------------------------------------------------ the point verdict


def test_judge_is_an_equivalence_test_on_the_interval():
    # Band 80-120 around 100.
    assert verdicts.judge(100, 101, 95, 107, tol=0.2)[0] == "matches"
    assert verdicts.judge(100, 101, 75, 127, tol=0.2)[0] == "consistent"
    assert verdicts.judge(100, 119, 110, 121, tol=0.2)[0] == "consistent"  # one edge out
    assert verdicts.judge(100, 125, 121, 129, tol=0.2)[0] == "differs"
    assert verdicts.judge(100, 119, tol=0.2, deterministic=True)[0] == "matches"
    assert verdicts.judge(100, 119)[0] == "consistent"  # no interval: not equivalent
    assert verdicts.judge(-100, -110, -115, -105, tol=0.2)[0] == "matches"  # |p|
    assert verdicts.judge(100, math.nan, tol=0.2)[0] == "differs"


def test_judge_bounds_have_no_tolerance():
    assert verdicts.judge(30, 25, 24, 26, qualifier="<=")[0] == "within-bound"
    assert verdicts.judge(30, 29, 25, 33, qualifier="<=")[0] == "consistent"
    assert verdicts.judge(30, 31, 27, 35, qualifier="<=")[0] == "differs"
    assert verdicts.judge(30, 35, 34, 36, qualifier="<=", tol=0.5)[0] == "contradicts"
    assert verdicts.judge(3, 3, qualifier=">", deterministic=True)[0] == "contradicts"
    assert verdicts.judge(3, 3, qualifier=">=", deterministic=True)[0] == "within-bound"


# --------------------------------------------------------------- the tolerance


def test_calibrate_tolerance_by_hand():
    # Directed differences of (100, 110): 10/110 = 9.1 %, 10/100 = 10 %; of (100, 100): 0, 0.
    assert verdicts.calibrate_tolerance([(100, 110), (100, 100)], quantile=1.0) == 0.10
    assert verdicts.calibrate_tolerance([(100, 111)], quantile=1.0) == 0.15
    assert verdicts.calibrate_tolerance([(100, 100)]) == 0.0
    with pytest.raises(ValueError, match="no pairs"):
        verdicts.calibrate_tolerance([])
    with pytest.raises(ValueError, match="non-zero"):
        verdicts.calibrate_tolerance([(0, 1)])


def test_the_default_tolerance_is_the_calibration_on_seeds_000_and_004():
    catalogue = published.load(studies.get("wired_best_effort"))
    pairs = verdicts.copy_pairs(catalogue)
    assert len(pairs) == 30  # 5 pairs x 2 protocols x 3 metrics, printed by both seeds
    assert set(pairs["seed_a"]) == {"000_efd8d8b62659a846.txt"}
    assert pairs["relative_difference"].median() == pytest.approx(0.05, abs=0.005)
    assert pairs["relative_difference"].max() == pytest.approx(0.2282, abs=1e-4)
    tolerance = verdicts.calibrate_tolerance(zip(pairs["value_a"], pairs["value_b"], strict=True))
    assert tolerance == verdicts.DEFAULT_TOLERANCE == 0.20


# ---------------------------------------------------------------- verdict classes


def test_by_construction_keeps_what_the_comparison_would_say(cases):
    result = compare({("SCTP", "delay", "a"): [100, 101, 99]})
    row = result.loc[("SCTP", "delay", "a")]
    assert row["verdict"] == "by-construction"
    assert row["note"].startswith("the testbed's CPU; compared anyway: matches (")


def test_a_mean_that_its_rows_contradict_is_seed_inconsistent(cases):
    runs = {("TCP", "load", r): [v - 1, v, v + 1] for r, v in (("a", 50), ("b", 70))}
    # TCP's Avg prints 90 as the mean of Table 2, whose rows average 60.
    result = compare({**runs, ("TCP", "load", "Avg"): [59, 60, 61]})
    row = result.loc[("TCP", "load", "Avg")]
    assert (row["verdict"], row["role"]) == ("seed-inconsistent", "derived")
    assert row["note"].startswith("Table 1 prints 90 as the mean of Table 2, whose rows average 60")
    assert "as the mean of the rows: matches" in row["note"]
    # SCTP's Avg (20, the mean of 10, 20, 30) is not questioned.
    sctp = compare({("SCTP", "load", "Avg"): [19.9, 20, 20.1]}).loc[("SCTP", "load", "Avg")]
    assert (sctp["verdict"], sctp["role"]) == ("matches", "derived")


# ------------------------------------------------------------------------ flags


def test_a_match_within_the_other_protocols_band_is_non_discriminating(cases):
    # 105 is within 20 % of SCTP's 100 and of TCP's 110: the comparison cannot tell them apart.
    result = compare({("SCTP", "rate", "a"): [104, 105, 106]})
    row = result.loc[("SCTP", "rate", "a")]
    assert row["verdict"] == "matches"
    assert row["flags"] == "non-discriminating"
    assert "non-discriminating: also within 20% of TCP's 110" in row["note"]


def test_a_match_beside_rows_off_by_more_than_2x_is_coincidental(cases):
    # b matches (20), its neighbours a (10 -> 35: 3.5x) and c (30 -> 31) do not both agree.
    result = compare({
        ("SCTP", "load", "a"): [34, 35, 36], ("SCTP", "load", "b"): [19.9, 20, 20.1],
        ("SCTP", "load", "c"): [30.9, 31, 31.1], ("SCTP", "load", "Avg"): [28, 28.67, 29],
    })  # fmt: skip
    assert result.loc[("SCTP", "load", "b"), "flags"] == "coincidental"
    assert "neighbouring rows beyond 2x: a (3.5x)" in result.loc[("SCTP", "load", "b"), "note"]
    # c's only neighbour is b (1x): a plain match.
    assert result.loc[("SCTP", "load", "c"), "flags"] == ""
    # The mean of the rows (20 -> 28.67 is outside 20 %: no match, no flag).
    assert result.loc[("SCTP", "load", "Avg"), "verdict"] != "matches"
    # The same rows with a matching mean: its rows are its neighbours.
    averaged = compare(
        {
            ("SCTP", "load", "a"): [3, 4, 5],
            ("SCTP", "load", "b"): [19.9, 20, 20.1],
            ("SCTP", "load", "c"): [34.9, 35, 35.1],
            ("SCTP", "load", "Avg"): [19.9, 20, 20.1],
        }
    )
    assert averaged.loc[("SCTP", "load", "Avg"), "flags"] == "coincidental"
    note = averaged.loc[("SCTP", "load", "Avg"), "note"]
    assert "neighbouring rows beyond 2x: a (0.4x)" in note
    assert "c (" not in note  # 35 / 30 is within 2x


def test_a_match_with_the_ordering_reversed_is_flagged(cases):
    # SCTP 105 matches 100, TCP 80 is below it, significantly: published TCP > SCTP.
    result = compare({("SCTP", "rate", "a"): [104, 105, 106], ("TCP", "rate", "a"): [79, 80, 81]})
    flags = result.loc[("SCTP", "rate", "a"), "flags"].split("; ")
    assert "ordering-reversed" in flags
    assert result.loc[("TCP", "rate", "a"), "verdict"] == "contradicts"


# ------------------------------------------------------------------------ claims


def test_claims_fold_copies_and_leave_derived_rows_out():
    def row(claim, seed, published, verdict, role="claim", flags=""):
        return {"study": "s", "claim": claim, "role": role, "seed_file": seed, "source": "T",
                "protocol": "SCTP", "metric": "m", "row": "r", "unit": "ms",
                "published": published, "reproduced": 100.0, "ci_low": 99.0, "ci_high": 101.0,
                "n_runs": 10, "verdict": verdict, "flags": flags, "note": "n"}  # fmt: skip

    comparison = pd.DataFrame([
        row("same", "000_x", "100", "matches", flags="coincidental"),
        row("same", "004_x", "101", "matches"),
        row("weak", "000_x", "100", "matches"),
        row("weak", "004_x", "110", "same-direction"),
        row("apart", "000_x", "100", "matches"),
        row("apart", "004_x", "130", "differs"),
        row("alone", "004_x", "100", "contradicts"),
        row("", "004_x", "100", "matches", role="derived"),
    ])  # fmt: skip
    claims = verdicts.claims(comparison, tolerance=0.2).set_index("claim")
    assert list(claims.index) == ["same", "weak", "apart", "alone"]
    assert claims["n_sources"].tolist() == [2, 2, 2, 1]
    assert claims.loc["same", ["verdict", "flags"]].tolist() == ["matches", "coincidental"]
    assert claims.loc["same", "sources"] == "000 T; 004 T"
    assert claims.loc["weak", "verdict"] == "same-direction"  # the weakest copy
    assert claims.loc["apart", "verdict"] == "seed-inconsistent"  # 30 % apart, verdicts differ
    assert claims.loc["alone", "verdict"] == "contradicts"


def test_rejudge_keeps_numbers_the_study_derived(cases):
    committed = pd.DataFrame({
        "protocol": ["SCTP", "SCTP"], "metric": ["rate", "rate relative to a"],
        "row": ["a", "b"], "unit": ["packets/s", "ratio"], "published": ["100", "0.5"],
        "reproduced": [100.0, 0.52], "ci_low": [99.0, 0.50], "ci_high": [101.0, 0.54],
        "n_runs": [10, 10], "verdict": ["matches", "matches"],
        "note": ["", "derived from Table 1: 50 / 100; within 20%: yes"],
    })  # fmt: skip
    new = verdicts.rejudge(studies.get("voip_cjm"), committed).set_index("metric")
    assert new.loc["rate", "role"] == "claim"
    derived = new.loc["rate relative to a"]
    assert (derived["role"], derived["verdict"]) == ("derived", "matches")
    assert derived["note"] == "derived from Table 1: 50 / 100; the 95 % interval lies within 20%"


# ----------------------------------------------------------------- qualitative claims


def test_qualitative_claims_are_judged_as_orderings(cases):
    comparison = compare(
        {("SCTP", "rate", "a"): [104, 105, 106], ("TCP", "rate", "a"): [89, 90, 91]}
    )
    judged = verdicts.judge_qualitative(studies.get("voip_cjm"), comparison.reset_index())
    by = judged.set_index(["claim", "left"])
    assert by.loc[("SCTP above TCP", "SCTP"), "verdict"] == "matches"
    assert by.loc[("SCTP above TCP", "SCTP"), "test"].startswith("Welch p = ")
    # Thresholds: SCTP 104-106 under 120 holds over the interval; so does TCP.
    assert by.loc[("SCTP under 120", "SCTP"), "verdict"] == "matches"
    assert set(judged["claim_verdict"]) == {"matches"}
    # Reversed and significant: contradicts; the claim takes its weakest relation.
    reversed_ = compare(
        {("SCTP", "rate", "a"): [89, 90, 91], ("TCP", "rate", "a"): [124, 125, 126]}
    )
    judged = verdicts.judge_qualitative(studies.get("voip_cjm"), reversed_.reset_index())
    by = judged.set_index(["claim", "left"])
    assert by.loc[("SCTP above TCP", "SCTP"), "verdict"] == "contradicts"
    assert by.loc[("SCTP under 120", "SCTP"), "verdict"] == "matches"
    assert by.loc[("SCTP under 120", "TCP"), "verdict"] == "contradicts"
    assert set(by.loc["SCTP under 120", "claim_verdict"]) == {"contradicts"}
    # Reversed without significance: differs; as stated without significance: consistent.
    noisy = compare({("SCTP", "rate", "a"): [60, 100, 140], ("TCP", "rate", "a"): [99, 101, 103]})
    judged = verdicts.judge_qualitative(studies.get("voip_cjm"), noisy.reset_index())
    assert (
        judged.set_index(["claim", "left"]).loc[("SCTP above TCP", "SCTP"), "verdict"] == "differs"
    )


def test_qualitative_catalogue_is_checked(cases):
    target = cases / "data" / "published" / "qualitative" / "voip_cjm.csv"
    text = QUALITATIVE.format(seed=SEED)
    for broken, message in [
        (text.replace(",SCTP,>,TCP,", ",SCTP,>>,TCP,"), "unknown relation"),
        (text.replace(",rate,a,SCTP,>", ",speed,a,SCTP,>"), "not in data/published"),
        (text.replace(",SCTP,>,TCP,", ",SCTP,>,QUIC,"), "unknown protocol"),
        (text.replace(SEED, "003_3eccc45171f7c0ea.txt", 1), "do not belong"),
    ]:  # fmt: skip
        target.write_text(broken)
        with pytest.raises(ValueError, match=message):
            published.load_qualitative(studies.get("voip_cjm"))


def test_published_claim_columns_are_checked(cases):
    target = cases / "data" / "published" / "voip_cjm.csv"
    for broken, message in [
        (CASES.replace(",SCTP load a,,", ",,,"), "names its claim"),
        (CASES.replace("mean of Table 2", "mean of Table 9"), "names no rows"),
        (CASES.replace(",TCP rate a,,", ",SCTP rate a,,"), "share protocol and metric"),
    ]:  # fmt: skip
        target.write_text(broken)
        with pytest.raises(ValueError, match=message):
            published.load(studies.get("voip_cjm"))
    # A catalogue without the three columns still loads: each row its own claim.
    old = "\n".join(line.rsplit(",", 3)[0] for line in CASES.strip().splitlines())
    target.write_text(old.replace(HEADER.rsplit(",", 3)[0], ",".join(published.COLUMNS[:11])))
    frame = published.load(studies.get("voip_cjm"))
    assert frame.loc[0, "claim"] == "SCTP load a" and set(frame["derived_from"]) == {""}


def test_every_committed_catalogue_declares_its_claims():
    for name in studies.names():
        study = studies.get(name)
        if not study.seed_files:
            continue
        path = paths.published_dir() / f"{name}.csv"
        assert tuple(pd.read_csv(path, nrows=0).columns) == published.COLUMNS, name
        frame = published.load(study)
        assert (frame.loc[frame["kind"] != "reference", "claim"] != "").all()


# ------------------------------------------------------------ distribution-aware statistics


def test_bootstrap_interval_of_a_skewed_non_negative_quantity_stays_non_negative():
    from transportlab.engine import stats

    # 27 short stalls and 3 long ones: Student's t goes below zero, the percentile
    # bootstrap stays inside the range of the values.
    stalls = [0.05] * 27 + [3.2, 8.0, 16.4]
    mean, low, high, n = stats.confidence_interval(stalls)
    assert low < 0
    mean_b, low_b, high_b, n_b = stats.bootstrap_interval(stalls)
    assert (mean_b, n_b) == (pytest.approx(mean), n)
    assert 0.05 <= low_b < mean < high_b <= 16.4
    assert stats.bootstrap_interval(stalls) == (mean_b, low_b, high_b, n_b)  # deterministic
    assert stats.bootstrap_interval([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0, 3)
    assert math.isnan(stats.bootstrap_interval([1.0])[1])


def test_exceedance_probability_is_a_share_with_an_exact_interval():
    from transportlab.engine import stats

    p, low, high, k, n = stats.exceedance_probability([0.1, 4.0, 3.0, 0.2], 3.0)
    assert (p, k, n) == (0.25, 1, 4)  # 3.0 is not "more than 3"
    assert stats.exceedance_probability([0.1, 4.0, 3.0, 0.2], 3.0, strict=False)[3] == 2
    # k = 0 of 10: Clopper-Pearson upper bound 1 - 0.025^(1/10), lower 0.
    p, low, high, k, n = stats.exceedance_probability([0.0] * 10, 3.0)
    assert (p, low) == (0.0, 0.0) and high == pytest.approx(1 - 0.025 ** (1 / 10))


# ------------------------------------------------------------------------ readings

READINGS = """reading,value,chosen,affects,looked_at,evidence
rate scale,x1,post hoc,rate,,chosen after x10 failed on every rate row
load unit,ratio,a priori,load,,stated in section 3
"""


def test_a_match_under_a_post_hoc_reading_is_flagged(cases):
    folder = cases / "data" / "published" / "readings"
    folder.mkdir(exist_ok=True)
    (folder / "voip_cjm.csv").write_text(READINGS)
    result = compare(
        {("SCTP", "rate", "a"): [99, 100, 101], ("SCTP", "load", "b"): [19.9, 20, 20.1]}
    )
    rate = result.loc[("SCTP", "rate", "a")]
    assert rate["flags"].split("; ")[0] == "post-hoc"
    assert "rate scale chosen post hoc (chosen after x10 failed on every rate row)" in rate["note"]
    # An a-priori reading flags nothing.
    assert result.loc[("SCTP", "load", "b"), "flags"] == ""


def test_a_reading_chosen_from_published_numbers_makes_them_input(cases):
    folder = cases / "data" / "published" / "readings"
    folder.mkdir(exist_ok=True)
    chosen_from_rate = READINGS.replace("rate,,chosen after", "rate,SCTP rate,chosen after")
    (folder / "voip_cjm.csv").write_text(chosen_from_rate)
    with pytest.raises(ValueError, match="must exist and be of kind 'input'"):
        published.load_readings(studies.get("voip_cjm"))
    (cases / "data" / "published" / "voip_cjm.csv").write_text(
        CASES.replace(",SCTP,rate,a,packets/s,100,value,", ",SCTP,rate,a,packets/s,100,input,")
    )
    assert len(published.load_readings(studies.get("voip_cjm"))) == 2
    # TCP's rate rests on the same reading without having chosen it: post hoc.
    result = compare({("SCTP", "rate", "a"): [99, 100, 101], ("TCP", "rate", "a"): [109, 110, 111]})
    assert result.loc[("SCTP", "rate", "a"), "verdict"] == "input"
    assert result.loc[("TCP", "rate", "a"), "flags"].startswith("post-hoc")
    (folder / "voip_cjm.csv").write_text(READINGS.replace(",post hoc,", ",guessed,"))
    with pytest.raises(ValueError, match="unknown 'chosen'"):
        published.load_readings(studies.get("voip_cjm"))
