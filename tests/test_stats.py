"""transportlab.engine.stats: the one mean and confidence interval of every table and figure."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from transportlab.engine import stats


def test_student_t_interval_by_hand():
    mean, low, high, n = stats.confidence_interval([60, 62, 61, np.nan])
    # t(0.975, 2) = 4.302652729911275, s = 1
    half = 4.302652729911275 / math.sqrt(3)
    assert (mean, n) == (61.0, 3)
    assert (low, high) == (pytest.approx(61 - half), pytest.approx(61 + half))


def test_too_few_values_give_nan_bounds_never_zero():
    assert stats.confidence_interval([5.0])[0] == 5.0
    assert all(math.isnan(v) for v in stats.confidence_interval([5.0])[1:3])
    assert stats.confidence_interval([])[3] == 0
    with pytest.raises(ValueError, match="level must be between 0 and 1"):
        stats.confidence_interval([1, 2], level=95)


def test_summarise_gives_one_row_per_group_and_column_in_order():
    frame = pd.DataFrame(
        {"protocol": ["tcp", "tcp", "udp"], "goodput": [1.0, 3.0, 5.0], "loss": [0, 0.2, 0.1]}
    )
    table = stats.summarise(frame, "protocol", ["goodput", "loss"])
    assert table[["protocol", "metric", "n_runs"]].values.tolist() == [
        ["tcp", "goodput", 2], ["tcp", "loss", 2], ["udp", "goodput", 1], ["udp", "loss", 1],
    ]  # fmt: skip
    tcp = table.iloc[0]
    half = 12.706204736174698 * math.sqrt(2) / math.sqrt(2)  # t(0.975, 1) * s / sqrt(n)
    assert tcp["mean"] == 2.0 and tcp["ci_high"] == pytest.approx(2.0 + half)
    assert math.isnan(table.iloc[2]["ci_low"])
    with pytest.raises(KeyError, match="not in the table"):
        stats.summarise(frame, "protocol", "delay")


def test_mean_ci_is_a_series_for_apply():
    series = stats.mean_ci([1.0, 2.0, 3.0])
    assert list(series.index) == ["mean", "ci_low", "ci_high", "n_runs"]
    assert series["mean"] == 2.0 and series["n_runs"] == 3


def test_student_t_quantiles_are_scipy_stats_t_bit_for_bit():
    # stats.py calls scipy.special (light to import) instead of scipy.stats.t
    from scipy import special
    from scipy import stats as scipy_stats

    for df in [*range(1, 60), 2.5, 17.3, 1e4]:
        assert special.stdtrit(df, 0.975) == scipy_stats.t.ppf(0.975, df)
        for x in (0.0, 1.3, 4.2, 25.0):
            assert special.stdtr(df, -x) == scipy_stats.t.sf(x, df)


def test_a_simulation_worker_does_not_import_scipy_stats():
    import subprocess
    import sys

    code = (
        "import sys; import transportlab.studies.wsn_reporting_interval, "
        "transportlab.studies.voip_cjm; print('scipy.stats' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_summarise_wide_is_summarise_laid_out_one_row_per_group():
    frame = pd.DataFrame(
        {
            "configuration": ["UDP", "UDP", "TCP", "TCP", "TCP"],
            "policy": ["fixed"] * 5,
            "R": [80.0, 82.0, 70.0, 71.0, np.nan],
            "MOS": [4.1, 4.2, 3.6, 3.7, 3.8],
        }
    )
    table = stats.summarise_wide(frame, ["configuration", "policy"], ["R", "MOS"])
    assert table["configuration"].tolist() == ["UDP", "TCP"]  # order of appearance
    assert table.columns.tolist() == [
        "configuration", "policy", "R", "R_ci_low", "R_ci_high",
        "MOS", "MOS_ci_low", "MOS_ci_high", "n_runs",
    ]  # fmt: skip
    long = stats.summarise(frame, ["configuration", "policy"], ["R", "MOS"])
    for _, row in long.iterrows():
        wide = table[table["configuration"] == row["configuration"]].iloc[0]
        metric = row["metric"]
        assert [wide[metric], wide[f"{metric}_ci_low"], wide[f"{metric}_ci_high"]] == [
            row["mean"],
            row["ci_low"],
            row["ci_high"],
        ]
    assert table["n_runs"].tolist() == [2, 3]  # replications, also where a value is NaN
    assert table.loc[1, "R"] == pytest.approx(70.5)
    ordered = stats.summarise_wide(frame, "configuration", "R", sort=True)
    assert ordered["configuration"].tolist() == ["TCP", "UDP"]
