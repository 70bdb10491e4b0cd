"""Statistics over replications: the one place means and confidence intervals are made.

Every study summarises its replications with these functions, so every table and
figure uses the same interval (Student's t on the mean, n - 1 degrees of freedom)
and the same convention for too few runs: with one finite value the interval is
undefined (NaN), never zero.

Every summary table has one layout: a mean, its interval ``ci_low``, ``ci_high``, and
``n_runs``. :func:`summarise` gives it in long form (a row per group and metric:
``metric, mean, ci_low, ci_high, n_runs``), :func:`summarise_wide` with one row per group
(``<metric>, <metric>_ci_low, <metric>_ci_high`` per metric, then ``n_runs``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd

# scipy.special's Student t functions are what scipy.stats.t calls (stdtrit for ppf,
# stdtr at -x for sf; tests/test_stats.py checks they are equal). They are imported where
# they are used: simulation workers import this module through the studies and never
# compute an interval, and scipy.special alone is ~10 MB (scipy.stats ~50 MB).


def stdtrit(df, p):
    from scipy.special import stdtrit as inverse  # noqa: PLC0415

    return inverse(df, p)


def stdtr(df, t):
    from scipy.special import stdtr as cdf  # noqa: PLC0415

    return cdf(df, t)


__all__ = [
    "bootstrap_interval", "confidence_interval", "exceedance_probability", "mean_ci",
    "standard_error", "summarise", "summarise_wide", "welch_test",
]  # fmt: skip

#: Resamples of :func:`bootstrap_interval` and the seed of its generator (the same values
#: give the same interval, bit for bit).
BOOTSTRAP_RESAMPLES = 9999
BOOTSTRAP_SEED = 26


def _check_level(level: float) -> None:
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level}")


def _finite_values(values) -> np.ndarray:
    """The finite values as a flat array: what every estimate here starts from (a NaN or
    infinite value is a run without a value, left out rather than spoiling the mean)."""
    x = np.asarray(values, dtype=float).ravel()
    return x[np.isfinite(x)]


def _without_interval(x: np.ndarray) -> tuple[float, float, float, int]:
    """``(mean, low, high, n)`` of fewer than two values: no interval exists, so the bounds
    are NaN (never zero), and so is the mean of no value."""
    mean = float(x.mean()) if x.size else math.nan
    return mean, math.nan, math.nan, int(x.size)


def confidence_interval(values, level: float = 0.95) -> tuple[float, float, float, int]:
    """``(mean, low, high, n)`` of the finite values: Student's t interval on the mean.

    With one value the bounds are NaN; without values everything is NaN and n = 0.
    """
    _check_level(level)
    x = _finite_values(values)
    if x.size < 2:
        return _without_interval(x)
    n = int(x.size)
    mean = float(x.mean())
    half = float(stdtrit(n - 1, 0.5 + level / 2)) * float(x.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half, n


def standard_error(ci_low: float, ci_high: float, n: int, level: float = 0.95) -> float:
    """The standard error of the mean that a :func:`confidence_interval` of ``n`` values implies.

    The interval is ``mean +- t(n - 1) * se``, so ``se = (high - low) / 2 / t(n - 1)``: this
    recovers the spread of committed results (which keep the interval, not the values).
    NaN when the interval is undefined (fewer than two values).
    """
    _check_level(level)
    if not (n >= 2 and math.isfinite(ci_low) and math.isfinite(ci_high)):
        return math.nan
    if ci_high < ci_low:
        raise ValueError(f"interval [{ci_low}, {ci_high}] has its bounds swapped")
    return (ci_high - ci_low) / 2 / float(stdtrit(n - 1, 0.5 + level / 2))


def welch_test(
    mean1: float, se1: float, n1: int, mean2: float, se2: float, n2: int
) -> tuple[float, float, float]:
    """Two-sided Welch t-test of equal means from means and standard errors: ``(t, df, p)``.

    ``se`` is the standard error of a mean of ``n`` values (:func:`standard_error`);
    the degrees of freedom are Welch-Satterthwaite's. A deterministic value enters
    with ``se = 0`` (its ``n`` is then irrelevant): against a stochastic one this is a
    one-sample t-test with ``n - 1`` degrees of freedom; two exact values give ``p = 0``
    when they differ and ``p = 1`` when they are equal. A NaN standard error (too few
    values for an interval) gives NaN throughout: no test is possible.
    """
    values = (mean1, se1, mean2, se2)
    if not all(math.isfinite(v) for v in values):
        return math.nan, math.nan, math.nan
    if se1 < 0 or se2 < 0:
        raise ValueError(f"standard errors must be >= 0, got {se1}, {se2}")
    variance = se1**2 + se2**2
    difference = mean1 - mean2
    if variance == 0:
        if difference == 0:
            return 0.0, math.inf, 1.0
        return math.copysign(math.inf, difference), math.inf, 0.0
    t = difference / math.sqrt(variance)
    if any(n < 2 for se, n in ((se1, n1), (se2, n2)) if se > 0):
        raise ValueError("a non-zero standard error needs n >= 2 values")
    # A term with se = 0 contributes no uncertainty and no degrees of freedom.
    terms = [se**4 / (n - 1) for se, n in ((se1, n1), (se2, n2)) if se > 0]
    df = variance**2 / sum(terms)
    p = 2.0 * float(stdtr(df, -abs(t)))
    return t, df, p


def mean_ci(values, level: float = 0.95) -> pd.Series:
    """:func:`confidence_interval` as a Series ``mean, ci_low, ci_high, n_runs`` (for ``apply``)."""
    mean, low, high, n = confidence_interval(values, level)
    return pd.Series({"mean": mean, "ci_low": low, "ci_high": high, "n_runs": n})


def _summary_columns(
    frame: pd.DataFrame, by: str | Sequence[str], columns: str | Iterable[str]
) -> tuple[list[str], list[str]]:
    """``by`` and ``columns`` of both summary layouts as lists (one name may stand alone),
    checked against the table before anything is grouped."""
    by = [by] if isinstance(by, str) else list(by)
    columns = [columns] if isinstance(columns, str) else list(columns)
    missing = [c for c in [*by, *columns] if c not in frame.columns]
    if missing:
        raise KeyError(f"columns {missing} not in the table (has {list(frame.columns)})")
    return by, columns


def summarise(
    frame: pd.DataFrame,
    by: str | Sequence[str],
    columns: str | Iterable[str],
    level: float = 0.95,
    sort: bool = False,
) -> pd.DataFrame:
    """Mean and confidence interval of ``columns`` per group of ``by``, in long form.

    One row per group and column: the ``by`` columns, ``metric`` (the column's
    name), ``mean``, ``ci_low``, ``ci_high``, ``n_runs`` (its finite values). Groups
    keep their order of appearance, or are sorted with ``sort``; only groups that
    occur are summarised (also for categorical columns).
    """
    by, columns = _summary_columns(frame, by, columns)
    rows = []
    for key, group in frame.groupby(by, sort=sort, dropna=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        for column in columns:
            mean, low, high, n = confidence_interval(group[column], level)
            rows.append((*key, column, mean, low, high, n))
    return pd.DataFrame(rows, columns=[*by, "metric", "mean", "ci_low", "ci_high", "n_runs"])


def summarise_wide(
    frame: pd.DataFrame,
    by: str | Sequence[str],
    columns: str | Iterable[str],
    level: float = 0.95,
    sort: bool = False,
) -> pd.DataFrame:
    """Mean and confidence interval of ``columns`` per group of ``by``, one row per group.

    The ``by`` columns, then for each column ``<column>`` (the mean),
    ``<column>_ci_low`` and ``<column>_ci_high`` (:func:`confidence_interval` of its
    finite values), then ``n_runs``: the rows of the group (its replications, also where
    a value is NaN). Groups keep their order of appearance, or are sorted with ``sort``;
    only groups that occur are summarised (also for categorical columns).
    """
    by, columns = _summary_columns(frame, by, columns)
    names = [*by]
    for column in columns:
        names += [column, f"{column}_ci_low", f"{column}_ci_high"]
    rows = []
    for key, group in frame.groupby(by, sort=sort, dropna=False, observed=True):
        row = list(key if isinstance(key, tuple) else (key,))
        for column in columns:
            mean, low, high, _ = confidence_interval(group[column], level)
            row += [mean, low, high]
        rows.append((*row, len(group)))
    return pd.DataFrame(rows, columns=[*names, "n_runs"])


def bootstrap_interval(values, level: float = 0.95) -> tuple[float, float, float, int]:
    """``(mean, low, high, n)``: the percentile bootstrap interval of the mean.

    For skewed, non-negative quantities (stall durations, first-loss times), where
    Student's t gives a lower bound below zero: a percentile interval lies within the
    range of the values, so it stays >= 0 for non-negative ones. :data:`BOOTSTRAP_RESAMPLES`
    resamples from a generator seeded with :data:`BOOTSTRAP_SEED` (deterministic). Below
    two finite values the bounds are NaN, as with :func:`confidence_interval`.
    """
    _check_level(level)
    x = _finite_values(values)
    if x.size < 2:
        return _without_interval(x)
    n = int(x.size)
    mean = float(x.mean())
    if np.all(x == x[0]):
        return mean, mean, mean, n
    generator = np.random.default_rng(BOOTSTRAP_SEED)
    means = x[generator.integers(0, n, size=(BOOTSTRAP_RESAMPLES, n))].mean(axis=1)
    low, high = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return mean, float(low), float(high), n


def exceedance_probability(
    values, threshold: float, level: float = 0.95, strict: bool = True
) -> tuple[float, float, float, int, int]:
    """``(p, low, high, k, n)``: the share of runs above ``threshold`` (``>=`` when not
    ``strict``) with its exact (Clopper-Pearson) interval.

    What a published single realisation is compared with: "halted for more than 3 s" in
    one trace is an event; our runs give its probability, not a mean to hold against it.
    """
    from scipy.stats import binomtest  # noqa: PLC0415

    x = _finite_values(values)
    n = int(x.size)
    if n == 0:
        return math.nan, math.nan, math.nan, 0, 0
    k = int((x > threshold).sum() if strict else (x >= threshold).sum())
    interval = binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
    return k / n, float(interval.low), float(interval.high), k, n
