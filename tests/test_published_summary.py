"""The verdict counts per study and overall (data/results/summary-counts.csv): claims,
derived rows and qualitative claims counted apart; the template outside the totals."""

from __future__ import annotations

import pandas as pd

from transportlab.engine import paths, verdicts
from transportlab.engine.verdicts import FLAGS, VERDICTS
from transportlab.summary import (
    format_summary,
    readme_block,
    readme_blocks,
    row_counts,
    summary_counts,
    tolerance_calibration,
    write_summary,
)


def _summary() -> pd.DataFrame:
    """wired: one claim printed by two seeds (both match), one derived mean; voip: two
    claims; the template: two hand-calculated rows."""
    rows = [
        ("wired_best_effort", "000_a", "T2", "c1", "claim", "SCTP", "67.35", 65.6, "matches", "coincidental"),  # noqa: E501
        ("wired_best_effort", "004_b", "T4.5", "c1", "claim", "SCTP", "64.2", 65.6, "matches", ""),
        ("wired_best_effort", "004_b", "T4.7", "c2", "derived", "SCTP", "1133.91", 1117.0, "seed-inconsistent", ""),  # noqa: E501
        ("voip_cjm", "001_c", "Fig. 3", "c3", "claim", "TCP", "2200", 2400.0, "differs", ""),
        ("voip_cjm", "001_c", "Fig. 5", "c4", "claim", "SCTP", "<=30", 1e-5, "within-bound", ""),
        ("bottleneck_example", "", "hand", "", "", "UDP", "500", 500.0, "matches", ""),
        ("bottleneck_example", "", "hand", "", "", "TCP", "948", 947.0, "matches", ""),
    ]  # fmt: skip
    frame = pd.DataFrame(
        rows,
        columns=["study", "seed_file", "source", "claim", "role", "protocol", "published",
                 "reproduced", "verdict", "flags"],
    )  # fmt: skip
    frame["metric"], frame["row"], frame["unit"] = "m", frame["source"], "ms"
    frame[["ci_low", "ci_high", "n_runs"]] = (0.0, 1.0, 10)
    frame["note"] = ""
    return frame


def _qualitative() -> pd.DataFrame:
    # One wired claim of two relations (both hold) stated by two seeds: one claim.
    return pd.DataFrame({
        "study": "wired_best_effort", "seed_file": ["000_a", "000_a", "004_b", "004_b"],
        "claim": "TCP above SCTP", "verdict": "matches", "claim_verdict": "matches",
    })  # fmt: skip


def test_claims_derived_and_qualitative_are_counted_apart():
    counts = summary_counts(_summary(), _qualitative()).set_index(["study", "counted"])
    assert list(counts.columns) == [*VERDICTS, *FLAGS, "total"]
    wired = counts.loc[("wired_best_effort", "claims")]
    # Two copies of one claim: one claim, matched, with its copy's flag.
    assert (wired["total"], wired["matches"], wired["coincidental"]) == (1, 1, 1)
    assert counts.loc[("wired_best_effort", "derived"), "seed-inconsistent"] == 1
    assert counts.loc[("wired_best_effort", "qualitative"), ["matches", "total"]].tolist() == [1, 1]
    assert counts.loc[("voip_cjm", "claims"), ["differs", "within-bound", "total"]].tolist() == [
        1, 1, 2,
    ]  # fmt: skip
    # The template is listed, not counted in the totals.
    assert counts.loc[("bottleneck_example", "template"), "matches"] == 2
    assert counts.loc[("all", "claims"), ["matches", "total"]].tolist() == [1, 3]
    assert counts.loc[("all", "derived"), "total"] == 1
    assert counts.loc[("all", "qualitative"), "total"] == 1
    # Every row is counted once: verdicts sum to the total.
    assert (counts[list(VERDICTS)].sum(axis=1) == counts["total"]).all()


def test_row_counts_are_the_count_before_claims():
    counts = row_counts(_summary()).set_index("study")
    assert counts.loc["all", "total"] == 7 and counts.loc["wired_best_effort", "matches"] == 2


def test_a_study_label_outside_the_method_is_kept():
    summary = _summary()
    summary.loc[3, "verdict"] = "hand-checked"
    counts = summary_counts(summary).set_index(["study", "counted"])
    assert counts.loc[("voip_cjm", "claims"), "hand-checked"] == 1
    assert counts.loc[("all", "claims"), "hand-checked"] == 1


def test_empty_summary_has_all_rows_of_zeros():
    counts = summary_counts(pd.DataFrame(columns=["study", "verdict"]))
    assert counts["study"].tolist() == ["all"] * 3 and counts["total"].tolist() == [0, 0, 0]


def test_the_calibration_table_is_the_committed_copies():
    table = tolerance_calibration()
    assert set(table["study"]) == {"wired_best_effort"} and len(table) == 30
    pairs = zip(table["value_a"], table["value_b"], strict=True)
    assert verdicts.calibrate_tolerance(pairs) == verdicts.DEFAULT_TOLERANCE


def test_written_next_to_summary_csv(tmp_path, monkeypatch):
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'scratch'\n")
    monkeypatch.setenv("TRANSPORTLAB_ROOT", str(root))
    path = write_summary(_summary(), quick=True)
    assert path.name == "summary.csv"
    counts = pd.read_csv(path.parent / "summary-counts.csv")
    assert counts.loc[counts["counted"] == "claims", "study"].tolist() == [
        "voip_cjm", "wired_best_effort", "all",
    ]  # fmt: skip
    claims = pd.read_csv(path.parent / "summary-claims.csv")
    assert len(claims) == 3 + 2  # the template's rows are claims of their own there
    assert pd.read_csv(path.parent / "summary-row-counts.csv")["total"].iloc[-1] == 7
    assert not (path.parent / "tolerance-sensitivity.csv").exists()  # full mode only
    text = format_summary(_summary())
    assert "seed-inconsistent" in text and "all" in text
    assert "same-direction" not in text  # labels no study uses are left out of the printout


def test_the_readme_says_what_the_committed_tables_say():
    """Every generated block of the README (counts, calibration, sensitivity, totals) is
    the rendering of the committed tables: prose and tables cannot disagree
    (``scripts/rejudge.py`` or ``transportlab.summary.update_readme`` rewrites them)."""
    text = (paths.project_root() / "README.md").read_text(encoding="utf-8")
    for name, body in readme_blocks().items():
        assert readme_block(text, name) == body, f"README block {name!r} is stale"
    # The check fails on a stale number.
    stale = text.replace("| **all** | claims | ", "| **all** | claims | 1", 1)
    assert readme_block(stale, "verdict-counts") != readme_blocks()["verdict-counts"]
    # The counts block is summary-counts.csv: its claims total, row by row.
    counts = pd.read_csv(paths.results_dir() / "summary-counts.csv")
    claims = counts[(counts["counted"] == "claims") & (counts["study"] == "all")]
    assert f"| **all** | claims | {claims['total'].item()} |" in text
