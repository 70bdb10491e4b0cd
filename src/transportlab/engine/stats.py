"""Statistics over replications: the one place means and confidence intervals are made.

Every study summarises its replications with these functions, so every table and
figure uses the same interval (Student's t on the mean, n - 1 degrees of freedom)
and the same convention for too few runs: with one finite value the interval is
undefined (NaN), never zero.
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


__all__ = ["confidence_interval", "mean_ci", "standard_error", "summarise", "welch_test"]


def confidence_interval(values, level: float = 0.95) -> tuple[float, float, float, int]:
    """``(mean, low, high, n)`` of the finite values: Student's t interval on the mean.

    With one value the bounds are NaN; without values everything is NaN and n = 0.
    """
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level}")
    x = np.asarray(values, dtype=float).ravel()
    x = x[np.isfinite(x)]
    n = int(x.size)
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    mean = float(x.mean())
    if n == 1:
        return mean, math.nan, math.nan, 1
    half = float(stdtrit(n - 1, 0.5 + level / 2)) * float(x.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half, n


def standard_error(ci_low: float, ci_high: float, n: int, level: float = 0.95) -> float:
    """The standard error of the mean that a :func:`confidence_interval` of ``n`` values implies.

    The interval is ``mean +- t(n - 1) * se``, so ``se = (high - low) / 2 / t(n - 1)``: this
    recovers the spread of committed results (which keep the interval, not the values).
    NaN when the interval is undefined (fewer than two values).
    """
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level}")
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


def summarise(
    frame: pd.DataFrame,
    by: str | Sequence[str],
    columns: str | Iterable[str],
    level: float = 0.95,
) -> pd.DataFrame:
    """Mean and confidence interval of ``columns`` per group of ``by``, in long form.

    One row per group and column: the ``by`` columns, ``metric`` (the column's
    name), ``mean``, ``ci_low``, ``ci_high``, ``n_runs``. Groups keep their
    order of appearance.
    """
    by = [by] if isinstance(by, str) else list(by)
    columns = [columns] if isinstance(columns, str) else list(columns)
    missing = [c for c in [*by, *columns] if c not in frame.columns]
    if missing:
        raise KeyError(f"columns {missing} not in the table (has {list(frame.columns)})")
    rows = []
    for key, group in frame.groupby(by, sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        for column in columns:
            mean, low, high, n = confidence_interval(group[column], level)
            rows.append((*key, column, mean, low, high, n))
    return pd.DataFrame(rows, columns=[*by, "metric", "mean", "ci_low", "ci_high", "n_runs"])
