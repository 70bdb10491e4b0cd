"""The verdict counts per study and overall (data/results/summary-counts.csv)."""

from __future__ import annotations

import pandas as pd

from transportlab.engine.verdicts import VERDICTS
from transportlab.summary import format_summary, summary_counts, write_summary


def _summary() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "study": ["a", "a", "a", "b", "b"],
            "protocol": ["UDP", "SCTP", "TCP", "SCTP", "TCP"],
            "published": ["7", "<=30", "2400", "~1.7", "4"],
            "reproduced": [7.1, 1e-5, 2400.0, 0.001, 9.0],
            "verdict": ["matches", "within-bound", "input", "seed-inconsistent", "too-few-runs"],
        }
    )


def test_counts_per_study_and_overall():
    counts = summary_counts(_summary()).set_index("study")
    assert list(counts.columns) == [*VERDICTS, "total"]
    assert list(counts.index) == ["a", "b", "all"]
    assert counts.loc["a", ["matches", "within-bound", "input", "differs", "total"]].tolist() == [
        1, 1, 1, 0, 3,
    ]  # fmt: skip
    assert counts.loc["b", ["seed-inconsistent", "too-few-runs", "total"]].tolist() == [1, 1, 2]
    assert counts.loc["all", "total"] == 5 and counts.loc["all", "matches"] == 1
    # Every row is counted once.
    assert (counts.drop(columns="total").sum(axis=1) == counts["total"]).all()


def test_a_study_label_outside_the_method_is_kept():
    summary = _summary().assign(verdict=["matches", "hand-checked", "input", "differs", "differs"])
    counts = summary_counts(summary).set_index("study")
    assert counts.loc["a", "hand-checked"] == 1 and counts.loc["all", "differs"] == 2


def test_empty_summary_has_an_all_row_of_zeros():
    counts = summary_counts(pd.DataFrame(columns=["study", "verdict"]))
    assert counts["study"].tolist() == ["all"] and counts["total"].tolist() == [0]


def test_written_next_to_summary_csv(tmp_path, monkeypatch):
    root = tmp_path / "project"
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'scratch'\n")
    monkeypatch.setenv("TRANSPORTLAB_ROOT", str(root))
    path = write_summary(_summary(), quick=True)
    assert path.name == "summary.csv"
    counts = pd.read_csv(path.parent / "summary-counts.csv")
    assert counts["study"].tolist() == ["a", "b", "all"]
    assert counts["total"].tolist() == [3, 2, 5]
    text = format_summary(_summary())
    assert "seed-inconsistent" in text and "all" in text
    assert "same-direction" not in text  # labels no study uses are left out of the printout
