"""The comparison of reproduced results with the published numbers, and its verdicts.

:func:`compare` turns reproduced results into
``data/results[/quick]/<study>/comparison.csv`` with the columns of
:data:`COMPARISON_COLUMNS`. ``reproduced`` and the 95 % confidence interval
(Student's t over the replications) are converted into the published unit;
``published`` and ``alternative`` are the values as printed; ``ratio`` is
reproduced / published; ``deterministic`` says the reproduced value comes from
a model without random elements (one run is the exact value); ``note`` says
why the verdict is what it is. With a relative tolerance ``tol`` (default
:data:`DEFAULT_TOLERANCE` = 20 %, overridable per metric), the verdicts
(:data:`VERDICTS`), tried in this order, are:

* ``input``: the row's ``kind`` is ``input`` (whatever was reproduced).
* ``differs`` when nothing was reproduced for the row (a NaN mean).
* ``too-few-runs``: a stochastic row with fewer than :data:`MIN_RUNS` (3) runs;
  no verdict is given (a 95 % interval of two runs spans about 25 standard
  errors).
* ``seed-inconsistent``: the row has an ``alternative`` reading more than ``tol``
  away from ``value`` (seed 002 call termination: SCTP 1.7 / UDP 2.4 s in the
  text, UDP 1.7 / SCTP 2.4 s in Table 5.5). ``note`` gives the verdict under each
  reading (each reading judged with its own source's values for the other
  protocols). An alternative within ``tol`` (WSN 56.45 vs 56.49) does not change
  the verdict: the row is judged on ``value`` and the note names the other copy.
* ``within-bound``: a ``bound`` that holds once relaxed by the tolerance
  (``<= p`` needs ``r <= p (1 + tol)``, ``>= p`` needs ``r >= p (1 - tol)``).
  When the reproduced value lies more than :data:`VACUOUS_FACTOR` (10) times
  inside the bound (``r < p / 10`` for ``<=``, ``r > 10 p`` for ``>=``) the note
  says so: such a bound tells nothing about the reproduction.
* ``matches``: a ``value`` with ``|r - p| <= tol * |p|`` (``~p`` counts as ``p``). When
  the 95 % interval is wider than the band (``ci_high - ci_low > 2 tol |p|``) the note
  says so: the mean lies in the band, but the runs do not pin it there.
* ``same-direction``: not a match (nor a holding bound), but (1) the ordering
  against every other protocol of the same seed, metric and row (taken from the
  same source when it has one there, else from any source of the seed) that was
  reproduced agrees with the published ordering, ``sign(r_p - r_q) == sign(p_p -
  p_q)``, (2) each of these reproduced differences is statistically significant:
  a two-sided Welch t-test at :data:`ALPHA` = 5 % on the two means (standard errors
  recovered from the 95 % intervals, :func:`transportlab.engine.stats.welch_test`), or,
  when both rows are deterministic, simply two distinct values; a published tie
  needs the two reproduced values within ``tol`` of each other instead; and (3)
  the reproduced value is within a factor :data:`FACTOR` (2) of the published one
  (``p / 2 <= r <= 2 p``). A peer row with too few runs makes the ordering
  untestable. The note gives the p-values and the ratio.
* ``differs``: anything else; the note says which condition failed (ordering
  reversed, ordering not significant, beyond the factor, no protocol to order
  against).

The tolerance used is also written next to the comparison, in
``comparison-tolerance.json``. :func:`rejudge` applies the current rules to a
committed ``comparison.csv`` without simulating anything.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import pandas as pd

from transportlab.engine import paths
from transportlab.engine.files import write_csv, write_text
from transportlab.engine.published import BOUNDS, KEY, UNITS, check_unit, convert, load
from transportlab.engine.stats import confidence_interval, standard_error, welch_test
from transportlab.engine.study import Study, require_study

__all__ = [
    "ALPHA",
    "COMPARISON_COLUMNS",
    "DEFAULT_TOLERANCE",
    "FACTOR",
    "MIN_RUNS",
    "VACUOUS_FACTOR",
    "VERDICTS",
    "compare",
    "rejudge",
    "write_comparison",
]

COMPARISON_COLUMNS = (
    "study",
    "seed_file",
    "source",
    "also_in",
    "protocol",
    "metric",
    "row",
    "unit",
    "kind",
    "published",
    "alternative",
    "reproduced",
    "ci_low",
    "ci_high",
    "n_runs",
    "deterministic",
    "ratio",
    "verdict",
    "note",
)
VERDICTS = (
    "matches",
    "within-bound",
    "same-direction",
    "differs",
    "input",
    "seed-inconsistent",
    "too-few-runs",
)
#: Fewest runs of a stochastic row that get a verdict.
MIN_RUNS = 3
#: ``same-direction`` needs the reproduced value within this factor of the published one.
FACTOR = 2.0
#: Significance level of the Welch test behind ``same-direction``.
ALPHA = 0.05
#: A value more than this many times inside a bound is flagged in the note.
VACUOUS_FACTOR = 10.0

DEFAULT_TOLERANCE = 0.20


def _tolerances(study_metrics: set[str], tolerance) -> tuple[float, dict[str, float]]:
    default, per_metric = DEFAULT_TOLERANCE, {}
    if tolerance is None:
        pass
    elif isinstance(tolerance, Mapping):
        per_metric = dict(tolerance)
        default = per_metric.pop("default", DEFAULT_TOLERANCE)
        unknown = sorted(set(per_metric) - study_metrics)
        if unknown:
            raise ValueError(
                f"tolerance for unknown metric(s) {unknown}; metrics: {sorted(study_metrics)}"
            )
    elif isinstance(tolerance, int | float) and not isinstance(tolerance, bool):
        default = tolerance
    else:
        raise TypeError(f"tolerance must be a number or a dict metric -> number, got {tolerance!r}")
    for name, value in [("default", default), *per_metric.items()]:
        if not (isinstance(value, int | float) and math.isfinite(value) and value >= 0):
            raise ValueError(f"tolerance {name!r} must be a finite number >= 0, got {value!r}")
    return float(default), {k: float(v) for k, v in per_metric.items()}


def _summarise(reproduced: pd.DataFrame) -> pd.DataFrame:
    """One row per (protocol, metric, row, unit): mean, ci_low, ci_high, n_runs, deterministic."""
    has_values, has_means = "value" in reproduced.columns, "mean" in reproduced.columns
    if has_values == has_means:
        raise ValueError(
            "reproduced results need either a 'value' column (one row per replication) "
            "or a 'mean' column (with optional ci_low, ci_high, n_runs), not both or neither"
        )
    keys = [*KEY, "unit"]
    deterministic = (
        reproduced["deterministic"].astype(bool)
        if "deterministic" in reproduced.columns
        else pd.Series(False, index=reproduced.index)
    )
    # Optional `why_missing`: what a reproduction with no value (NaN in every run) found
    # instead, e.g. "no crossover in any of the 10 runs"; it becomes the row's note.
    why = (
        reproduced["why_missing"].fillna("").astype(str)
        if "why_missing" in reproduced.columns
        else pd.Series("", index=reproduced.index)
    )
    columns = [*keys, "mean", "ci_low", "ci_high", "n_runs", "deterministic", "why_missing"]
    if has_values:
        rows = []
        for key, group in reproduced.groupby(keys, sort=False, dropna=False):
            mean, low, high, n = confidence_interval(pd.to_numeric(group["value"]))
            flags = set(deterministic[group.index])
            if len(flags) > 1:
                raise ValueError(f"reproduced {key}: some runs deterministic, some not")
            reason = next((w for w in why[group.index] if w), "")
            rows.append((*key, mean, low, high, n, flags.pop(), reason))
        return pd.DataFrame(rows, columns=columns)
    summary = reproduced[keys + ["mean"]].copy()
    for column in ("ci_low", "ci_high", "n_runs"):
        summary[column] = reproduced[column] if column in reproduced.columns else math.nan
    summary["deterministic"] = deterministic
    summary["why_missing"] = why
    if summary.duplicated(keys).any():
        raise ValueError("reproduced means: more than one row for the same protocol, metric, row")
    return summary[columns]


def _validate_reproduced(study: Study, published: pd.DataFrame, reproduced, strict: bool):
    if not isinstance(reproduced, pd.DataFrame):
        raise TypeError(f"reproduced must be a DataFrame, got {type(reproduced).__name__}")
    missing = [c for c in (*KEY, "unit") if c not in reproduced.columns]
    if missing:
        raise ValueError(f"reproduced results lack column(s) {missing}")
    reproduced = reproduced.copy()
    for column in (*KEY, "unit"):
        reproduced[column] = reproduced[column].astype(str)
    for unit in sorted(set(reproduced["unit"])):
        check_unit(unit, "the reproduced results")
    for column in ("protocol", "metric"):
        unknown = sorted(set(reproduced[column]) - set(published[column]))
        if unknown:
            raise ValueError(
                f"reproduced {column}(s) {unknown} do not appear in the published values of "
                f"{study.name!r}; published {column}s: {sorted(set(published[column]))}"
            )
    if strict:
        published_keys = set(map(tuple, published[KEY].to_numpy()))
        extra = sorted({k for k in map(tuple, reproduced[KEY].to_numpy())} - published_keys)
        if extra:
            raise ValueError(
                f"reproduced (protocol, metric, row) {extra} have no published counterpart in "
                f"{study.name!r} (check the row labels in data/published/{study.name}.csv, "
                "or pass strict=False)"
            )
    if reproduced.groupby(KEY)["unit"].nunique().max() > 1:
        raise ValueError("reproduced results use several units for one (protocol, metric, row)")
    return reproduced


def _bound_holds(reproduced: float, bound: float, qualifier: str, tol: float) -> bool:
    if qualifier in ("<", "<="):
        return reproduced <= bound * (1 + tol) if bound >= 0 else reproduced <= bound
    return reproduced >= bound * (1 - tol) if bound >= 0 else reproduced >= bound


def _inside(reproduced: float, bound: float, qualifier: str) -> float:
    """How many times inside the bound ``reproduced`` lies (1 at the bound)."""
    if qualifier in ("<", "<="):
        return bound / reproduced if reproduced > 0 else math.inf
    return reproduced / bound if bound > 0 else math.nan


def _reading(row: pd.Series, alternative: bool) -> tuple[float, str, str]:
    """A row's published value in base units, its qualifier and its printed form."""
    if alternative and math.isfinite(row["alternative"]):
        base = row["alternative"] * row["_scale"]
        return base, row["alternative_qualifier"], row["alternative_printed"]
    return row["_pub_base"], row["qualifier"], row["printed"]


def _too_few(row: pd.Series) -> bool:
    return not row["deterministic"] and not (pd.notna(row["n_runs"]) and row["n_runs"] >= MIN_RUNS)


def _ordering(index, table: pd.DataFrame, alternative: bool) -> tuple[bool, str]:
    """Does the reproduced ordering against the other protocols agree, significantly?"""
    me = table.loc[index]
    peers = table[
        (table["seed_file"] == me["seed_file"])
        & (table["metric"] == me["metric"])
        & (table["row"] == me["row"])
        & (table["protocol"] != me["protocol"])
        & np.isfinite(table["_rep_base"])
    ]
    same_source = peers[peers["source"] == me["source"]]
    if len(same_source):
        peers = same_source
    if peers.empty:
        return False, "no other protocol reproduced to order against"
    mine = _reading(me, alternative)[0]
    parts = []
    for _, peer in peers.iterrows():
        name = peer["protocol"]
        if _too_few(peer):
            return False, f"ordering against {name} untestable ({peer['n_runs']} run(s) of {name})"
        published_sign = np.sign(mine - _reading(peer, alternative)[0])
        difference = me["_rep_base"] - peer["_rep_base"]
        if published_sign == 0:
            scale = max(abs(me["_rep_base"]), abs(peer["_rep_base"]))
            if abs(difference) > me["_tol"] * scale:
                return (
                    False,
                    f"published tie with {name}, reproduced apart by more than the tolerance",
                )
            parts.append(f"tie with {name} as published")
            continue
        if difference == 0:
            return False, f"no difference reproduced against {name} (published: one)"
        if np.sign(difference) != published_sign:
            return False, f"ordering against {name} reversed"
        if me["deterministic"] and peer["deterministic"]:
            parts.append(f"ordering against {name} as published (both deterministic, distinct)")
            continue
        _, _, p_value = welch_test(
            me["_rep_base"], me["_se_base"], me["n_runs"],
            peer["_rep_base"], peer["_se_base"], peer["n_runs"],
        )  # fmt: skip
        if not p_value < ALPHA:
            shown = "no interval" if math.isnan(p_value) else f"Welch p = {p_value:.3g}"
            return False, f"ordering against {name} as published but not significant ({shown})"
        parts.append(f"ordering against {name} as published (Welch p = {p_value:.3g})")
    return True, "; ".join(parts)


def _judge_reading(index, table: pd.DataFrame, alternative: bool) -> tuple[str, str]:
    """Verdict and note of one reading of a published row (rules of the module docstring)."""
    me = table.loc[index]
    published, qualifier, _ = _reading(me, alternative)
    reproduced, tol = me["_rep_base"], me["_tol"]
    if qualifier in BOUNDS:
        if _bound_holds(reproduced, published, qualifier, tol):
            inside = _inside(reproduced, published, qualifier)
            if inside > VACUOUS_FACTOR:
                return "within-bound", f"{inside:.3g}x inside the bound: holds vacuously"
            return "within-bound", "the bound holds"
    elif abs(reproduced - published) <= tol * abs(published):
        width = (me["ci_high"] - me["ci_low"]) * me["_scale"]
        if width > 2 * tol * abs(published):
            # The mean is in the band but the runs do not pin it there.
            return "matches", f"within {tol:.0%}; the 95 % interval is wider than the band"
        return "matches", f"within {tol:.0%}"
    agrees, note = _ordering(index, table, alternative)
    if not agrees:
        return "differs", note
    ratio = reproduced / published if published != 0 else math.nan
    if not 1 / FACTOR <= ratio <= FACTOR:
        return "differs", f"{note}, but {ratio:.3g}x the published value (beyond {FACTOR:g}x)"
    return "same-direction", f"{note}; {ratio:.3g}x the published value"


def _judge(index, table: pd.DataFrame) -> tuple[str, str]:
    me = table.loc[index]
    if me["kind"] == "input":
        return "input", f"fixed by the configuration: {me['note'] or 'see data/published'}"
    if not math.isfinite(me["_rep_base"]):
        return "differs", me.get("why_missing") or "nothing reproduced for this row"
    if _too_few(me):
        return "too-few-runs", (
            f"{me['n_runs'] if pd.notna(me['n_runs']) else 'unknown number of'} run(s) of a "
            f"stochastic model; a verdict needs {MIN_RUNS}"
        )
    verdict, note = _judge_reading(index, table, alternative=False)
    if not math.isfinite(me["alternative"]):
        return verdict, note
    first, second = me["value"], me["alternative"]
    if abs(first - second) <= me["_tol"] * max(abs(first), abs(second)):
        return verdict, f"{note}; {me['also_in']} prints {me['alternative_printed']}"
    other, other_note = _judge_reading(index, table, alternative=True)
    return "seed-inconsistent", (
        f"as {me['source']} ({me['printed']}): {verdict} ({note}); "
        f"as {me['also_in']} ({me['alternative_printed']}): {other} ({other_note})"
    )


def compare(
    study: Study,
    reproduced: pd.DataFrame,
    tolerance: float | Mapping[str, float] | None = None,
    *,
    strict: bool = True,
) -> pd.DataFrame:
    """Compare reproduced results with the published values of ``study`` (a
    :class:`~transportlab.engine.study.Study`); computes, writes nothing.

    ``reproduced`` has columns ``protocol``, ``metric``, ``row`` (labels as in
    ``data/published/<study>.csv``) and ``unit`` (any unit of :data:`UNITS` of
    the right dimension), and either ``value`` (one row per replication; the
    mean and a 95 % Student-t interval are computed, NaN values are ignored) or
    ``mean`` with optional ``ci_low``, ``ci_high``, ``n_runs``. An optional
    boolean ``deterministic`` column marks values of a model without random
    elements (one run is exact; see the module docstring). ``tolerance``: a
    relative tolerance for every metric, or a dict ``{metric: tolerance}`` with
    an optional ``"default"`` (else :data:`DEFAULT_TOLERANCE`).

    Every published row (not a ``reference``) with a reproduction becomes a row
    of the result (a reproduction can serve several published rows, e.g. seeds
    000 and 004). Unknown protocol, metric or unit, an impossible unit conversion
    and (with ``strict``) reproduced rows without a published counterpart raise
    ``ValueError``. :func:`write_comparison` writes the result (``Results.write``
    does, with the rest of a study's files).
    """
    study = require_study(study)
    published = load(study)
    default, per_metric = _tolerances(set(published["metric"]), tolerance)
    reproduced = _validate_reproduced(study, published, reproduced, strict)
    summary = _summarise(reproduced).rename(columns={"unit": "_rep_unit"})
    published = published[published["kind"] != "reference"]
    table = published.merge(summary, on=KEY, how="inner", validate="many_to_one")

    columns = {name: [] for name in ("reproduced", "ci_low", "ci_high")}
    for _, row in table.iterrows():
        for name, source in (("reproduced", "mean"), ("ci_low", "ci_low"), ("ci_high", "ci_high")):
            value = float(row[source]) if pd.notna(row[source]) else math.nan
            columns[name].append(convert(value, row["_rep_unit"], row["unit"]))
    for name, values in columns.items():
        table[name] = values
    table["n_runs"] = pd.array(
        [int(n) if pd.notna(n) else pd.NA for n in table["n_runs"]], dtype="Int64"
    )
    table["deterministic"] = table["deterministic"].astype(bool)
    table["_tol"] = [per_metric.get(metric, default) for metric in table["metric"]]
    table["_scale"] = table["unit"].map(lambda unit: UNITS[unit][1]).astype(float)
    table["_pub_base"] = table["value"] * table["_scale"]
    table["_rep_base"] = table["reproduced"] * table["_scale"]
    table["_se_base"] = [
        0.0
        if row["deterministic"]
        else standard_error(
            row["ci_low"], row["ci_high"], row["n_runs"] if pd.notna(row["n_runs"]) else 0
        )
        * row["_scale"]
        for _, row in table.iterrows()
    ]
    judged = [_judge(index, table) for index in table.index]
    table["verdict"] = [verdict for verdict, _ in judged]
    table["note"] = [note for _, note in judged]
    published_values = table["value"].to_numpy(dtype=float)
    table["ratio"] = np.divide(
        table["reproduced"].to_numpy(dtype=float),
        published_values,
        out=np.full(len(table), math.nan),
        where=published_values != 0,
    )
    table["study"] = study.name
    table["published"] = table["printed"]
    table["alternative"] = table["alternative_printed"]
    result = table[list(COMPARISON_COLUMNS)].reset_index(drop=True)
    result.attrs["tolerance"] = {
        "study": study.name,
        "default": default,
        "per_metric": per_metric,
        "rule": (
            "matches: |reproduced - published| <= tolerance * |published|; within-bound: "
            "a bound relaxed by the tolerance holds; same-direction: ordering as published, "
            f"Welch p < {ALPHA:g} (or both deterministic and distinct) and within "
            f"{FACTOR:g}x; too-few-runs below {MIN_RUNS} runs; see transportlab.engine.verdicts"
        ),
    }
    return result


def rejudge(
    study: Study,
    comparison: pd.DataFrame | None = None,
    *,
    tolerance: float | Mapping[str, float] | None = None,
    deterministic: Iterable[str] = (),
) -> pd.DataFrame:
    """The verdicts of a committed comparison under the current rules, without simulating.

    ``comparison`` (default: the committed full-mode
    ``data/results/<study>/comparison.csv``) needs the columns ``protocol,
    metric, row, unit, reproduced, ci_low, ci_high, n_runs``; the reproduced
    mean and interval of each (protocol, metric, row) are compared again with
    the current ``data/published/<study>.csv``. Rows the published values no
    longer have (e.g. a text copy now merged into its table's row) collapse into
    the one row of their number. ``tolerance`` defaults to the one saved next to
    the committed file (``comparison-tolerance.json``). ``deterministic`` lists
    metrics whose values come from a deterministic model (an old comparison
    does not say; a ``deterministic`` column, if present, is used as well).
    Returns the new comparison (not written).
    """
    study = require_study(study)
    folder = paths.results_dir(study.name, quick=False)
    if comparison is None:
        path = folder / "comparison.csv"
        if not path.is_file():
            raise FileNotFoundError(f"{study.name} has no committed comparison ({path})")
        comparison = pd.read_csv(path, keep_default_na=False, na_values=[""])
        if tolerance is None and (folder / "comparison-tolerance.json").is_file():
            saved = json.loads((folder / "comparison-tolerance.json").read_text())
            tolerance = {"default": saved["default"], **saved.get("per_metric", {})}
    needed = [*KEY, "unit", "reproduced", "ci_low", "ci_high", "n_runs"]
    missing = [column for column in needed if column not in comparison.columns]
    if missing:
        raise ValueError(f"the comparison lacks column(s) {missing}")
    means = comparison[needed].rename(columns={"reproduced": "mean"})
    means = means.drop_duplicates(subset=KEY, keep="first").copy()
    flags = means["metric"].isin(set(deterministic))
    if "deterministic" in comparison.columns:
        first = comparison.drop_duplicates(subset=KEY, keep="first")
        flags |= first["deterministic"].astype(str).str.lower().eq("true").to_numpy()
    means["deterministic"] = flags
    return compare(study, means, tolerance, strict=False)


def write_comparison(study: Study, comparison: pd.DataFrame, quick: bool = False) -> Path:
    """Write ``comparison.csv`` (and ``comparison-tolerance.json``) of ``study`` atomically
    into ``data/results[/quick]/<study>/``; returns the CSV's path."""
    folder = paths.results_dir(require_study(study).name, quick)
    tolerance = comparison.attrs.get("tolerance")
    if tolerance is not None:
        write_text(folder / "comparison-tolerance.json", json.dumps(tolerance, indent=2) + "\n")
    return write_csv(comparison, folder / "comparison.csv", float_format="%.6g")
