"""The speed table notebook 04 prints from the committed benchmark runs."""

import pandas as pd
import pytest

from transportlab.studies.wsn_reporting_interval import speed


def _runs(rows):
    columns = ["protocol", "variant", "cpu_run_s", "wall_total_s", "events", "peak_rss_mb",
               "results_digest"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def test_best_of_each_variant_and_ratios_to_the_study_variant():
    runs = _runs([
        ("udp", "after", 20.0, 25.0, 1000, 400.0, "d"),
        ("udp", "before", 40.0, 50.0, 1500, 600.0, "d"),
        ("udp", "after", 18.0, 27.0, 1000, 410.0, "d"),
        ("udp", "after, x=False", 30.0, 33.0, 1000, 1200.0, "other"),
        ("tcp", "after", 5.0, 6.0, 10, 1.0, "t"),
    ])  # fmt: skip
    table = speed.speed_table(runs).set_index("variant")
    assert list(table.index) == ["after", "before", "after, x=False"]
    assert table.loc["after", "runs"] == 2
    # best (lowest) of the two `after` runs, each column on its own
    assert table.loc["after", "cpu_run_s"] == 18.0
    assert table.loc["after", "wall_total_s"] == 25.0
    assert table.loc["after", "peak_rss_mb"] == 400.0
    assert table.loc["before", "cpu_ratio"] == pytest.approx(40.0 / 18.0)
    assert table.loc["before", "events_ratio"] == pytest.approx(1.5)
    assert table.loc["after, x=False", "memory_ratio"] == pytest.approx(3.0)
    assert table["same_results"].tolist() == [True, True, False]


def test_reference_runs_that_disagree_or_are_missing_are_errors():
    disagree = _runs([("udp", "after", 1, 1, 1, 1, "a"), ("udp", "after", 1, 1, 1, 1, "b")])
    with pytest.raises(ValueError, match="simulated different things"):
        speed.speed_table(disagree)
    with pytest.raises(ValueError, match="no 'after' run of tcp"):
        speed.speed_table(disagree, protocol="tcp")


def test_committed_benchmark_variants_simulate_the_same_run():
    table = speed.speed_table(speed.benchmark_runs())
    assert table["same_results"].all(), table
    assert set(table["variant"]) >= {"after", "before"}
