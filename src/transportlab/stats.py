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
from scipy import stats as _scipy_stats

__all__ = ["confidence_interval", "mean_ci", "summarise"]


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
    half = float(_scipy_stats.t.ppf(0.5 + level / 2, n - 1)) * float(x.std(ddof=1)) / math.sqrt(n)
    return mean, mean - half, mean + half, n


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
