"""results.committed_table / committed_comparison: the committed full-mode files."""

from __future__ import annotations

import pandas as pd
import pytest

from transportlab.engine import paths, results


def test_committed_comparison_reads_the_full_mode_file(tmp_path, monkeypatch):
    folder = tmp_path / "bottleneck_example"
    folder.mkdir()
    (folder / "comparison.csv").write_text(
        "study,protocol,metric,published,reproduced,n_runs,verdict\n"
        "bottleneck_example,UDP,goodput,~500,499.2,10,matches\n"
        "bottleneck_example,TCP,goodput,,900.5,10,matches\n"
    )
    asked = []

    def results_dir(study=None, quick=False):
        asked.append(quick)
        return tmp_path / study

    monkeypatch.setattr(paths, "results_dir", results_dir)
    table = results.committed_comparison("bottleneck_example")
    assert asked == [False]  # always full mode, whatever mode the notebook runs in
    assert list(table["verdict"]) == ["matches", "matches"]
    assert table.loc[0, "published"] == "~500"  # printed values stay as printed
    assert pd.isna(table.loc[1, "published"])
    assert list(table["n_runs"]) == [10, 10]


def test_missing_committed_table_says_how_to_make_it(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "results_dir", lambda study=None, quick=False: tmp_path / study)
    with pytest.raises(FileNotFoundError, match="transportlab reproduce --study voip_cjm"):
        results.committed_table("voip_cjm", "comparison")


def test_a_study_without_committed_results_is_a_clear_error():
    with pytest.raises(FileNotFoundError, match="no_such_study has no committed full-mode"):
        results.committed_comparison("no_such_study")


@pytest.mark.parametrize(
    "study",
    ["bottleneck_example", "wired_best_effort", "voip_cjm", "sip_over_sctp",
     "wsn_reporting_interval", "multihoming_failover"],
)  # fmt: skip
def test_every_study_notebook_has_a_committed_comparison(study):
    table = results.committed_comparison(study)
    assert len(table) > 0
    assert {"verdict", "n_runs", "published", "reproduced"} <= set(table.columns)
