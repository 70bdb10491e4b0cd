"""The comparison of reproduced results with the published numbers, and its verdicts.

:func:`compare` turns reproduced results into
``data/results[/quick]/<study>/comparison.csv`` with the columns of
:data:`COMPARISON_COLUMNS`. ``reproduced`` and the 95 % confidence interval
(Student's t over the replications) are converted into the published unit;
``published`` and ``alternative`` are the values as printed; ``ratio`` is
reproduced / published; ``deterministic`` says the reproduced value comes from
a model without random elements (one run is the exact value); ``claim`` names the
independent published number the row is a copy of and ``role`` says whether it is
one (``claim``) or a function of other published rows (``derived``); ``note`` says
why the verdict is what it is and ``flags`` qualifies a match.

**Equivalence.** With a relative tolerance ``tol`` (default
:data:`DEFAULT_TOLERANCE`, calibrated on the seeds' own reproducibility, see
:func:`calibrate_tolerance`; overridable per metric), a published value ``p`` has
the band ``[p - tol |p|, p + tol |p|]``. The point verdict (:func:`judge`, a function
of the published value or bound, the reproduced mean, its interval and the
tolerance only, so that any pair of numbers can be judged with it, e.g. the paper
against NS-2 or ns-3 against NS-2):

* ``matches``: the whole 95 % interval lies inside the band (an equivalence test at
  5 %, two one-sided tests); a deterministic value: the value lies inside;
* ``consistent``: the mean lies inside the band but the interval does not;
* a bound (``<= p``, ``> p``...) is a claim of its own and gets no tolerance:
  ``within-bound`` when the whole interval (a deterministic value) satisfies it,
  ``consistent`` when only the mean does, ``contradicts`` when the whole interval
  lies on the wrong side, ``differs`` otherwise;
* ``differs`` otherwise (a value: then the ordering test below decides).

**The verdicts** (:data:`VERDICTS`) of a comparison row, tried in this order:

* ``input``: the row's ``kind`` is ``input`` (whatever was reproduced).
* a ``realisation`` row (one published trace, e.g. "halted for more than 3 s") holds, as
  ``reproduced``, ``ci_low``, ``ci_high`` and ``n_runs``, the share of our runs in which
  the published event happens with its exact 95 % interval (a probability, whatever the
  ``unit`` column, which is the published value's), judged by
  :func:`judge_realisation`: ``too-few-runs`` below :data:`MIN_RUNS` runs, ``matches``
  when the interval excludes 0 (our runs produce the event: the published trace is a
  plausible outcome of the model), ``contradicts`` when the whole interval lies below
  :data:`RARE_EVENT` (the model makes the event rarer than 1 in 20: seeing it in the one
  published trace would be an accident), ``differs`` otherwise (not seen, too few runs to
  call it rare). Such a row orders against no other (its number is not a mean).
* ``differs`` when nothing was reproduced for the row (a NaN mean).
* ``too-few-runs``: a stochastic row with fewer than :data:`MIN_RUNS` (3) runs.
* ``seed-inconsistent``: the seed contradicts itself about the number: it prints an
  ``alternative`` reading more than ``tol`` away from ``value`` (seed 002 call
  termination), or the row is the mean of other rows (``derived_from`` = ``mean of
  <source>``) and differs from their mean by more than ``tol`` (seed 004's Table 4.7
  TCP delay, 1269.56 ms against Table 4.2's 795.69). The note gives the verdict under
  each reading. A second copy within ``tol`` does not change the verdict.
* ``by-construction``: the row's ``by_construction`` names why the seed's setting
  cannot be modelled; the note gives what the comparison would say.
* ``matches``, ``consistent``, ``within-bound``, ``contradicts`` of the point verdict.
* ``same-direction``: a value outside the band, but (1) the ordering against every
  other protocol of the same seed, metric and row (from the same source when it has
  one there) agrees with the published one, (2) significantly: a two-sided Welch
  t-test at :data:`ALPHA` = 5 % on the two means (standard errors recovered from the
  95 % intervals), or both rows deterministic and distinct; a published tie needs
  the two reproduced values within ``tol`` of each other instead; and (3) the value
  is within a factor :data:`FACTOR` (2) of the published one.
* ``contradicts``: a value outside the band whose ordering against another protocol
  is significantly reversed (a significant opposite finding).
* ``differs``: anything else; the note says which condition failed.

**Flags** (:data:`FLAGS`, column ``flags``) on a ``matches`` or ``consistent`` row:
``non-discriminating`` when the reproduced value is also within ``tol`` of another
protocol's published value for the same seed, metric and row (the comparison cannot
tell the protocols apart); ``coincidental`` when a neighbouring row of the same
series (same seed, source, protocol and metric; for a ``mean of`` row every row it
averages) is off by more than :data:`FACTOR`; ``ordering-reversed`` when the
ordering against another protocol of the row is reversed; ``post-hoc`` (also on
``within-bound`` and ``same-direction``) when the comparison rests on a reading chosen after
comparing (``data/published/readings/<study>.csv``; a reading chosen from a row's own
published numbers makes that row ``input`` instead).

:func:`claims` folds the rows of one claim (copies in several seeds) into one
verdict; :func:`judge_qualitative` judges the paper's qualitative claims
(``data/published/qualitative/<study>.csv``) as orderings. The tolerance used is
written next to the comparison, in ``comparison-tolerance.json``. :func:`rejudge`
applies the current rules to a committed ``comparison.csv`` without simulating.
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
from transportlab.engine.published import (
    BOUNDS,
    KEY,
    UNITS,
    check_unit,
    convert,
    derived_mean,
    load,
    load_qualitative,
    load_readings,
    readings_of,
)
from transportlab.engine.stats import confidence_interval, standard_error, welch_test
from transportlab.engine.study import Study, require_study

__all__ = [
    "ALPHA",
    "CALIBRATION_QUANTILE",
    "CLAIM_COLUMNS",
    "COMPARISON_COLUMNS",
    "DEFAULT_TOLERANCE",
    "FACTOR",
    "FLAGS",
    "MEAN_ROW_SUFFIX",
    "MIN_RUNS",
    "QUALITATIVE_RESULT_COLUMNS",
    "RARE_EVENT",
    "ROLES",
    "VACUOUS_FACTOR",
    "VERDICTS",
    "calibrate_tolerance",
    "claims",
    "compare",
    "copy_pairs",
    "judge",
    "judge_qualitative",
    "judge_realisation",
    "rejudge",
    "write_comparison",
    "write_qualitative",
]

COMPARISON_COLUMNS = (
    "study",
    "seed_file",
    "source",
    "also_in",
    "claim",
    "role",
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
    "flags",
    "note",
)
VERDICTS = (
    "matches",
    "consistent",
    "within-bound",
    "same-direction",
    "differs",
    "contradicts",
    "by-construction",
    "input",
    "seed-inconsistent",
    "too-few-runs",
)
#: What a comparison row counts as: an independent published number (a copy of a
#: claim), or a number derived from other published rows; qualitative claims are
#: judged apart (:func:`judge_qualitative`).
ROLES = ("claim", "derived", "qualitative")
FLAGS = ("non-discriminating", "coincidental", "ordering-reversed", "post-hoc")
#: Fewest runs of a stochastic row that get a verdict.
MIN_RUNS = 3
#: ``same-direction`` needs the reproduced value within this factor of the published one;
#: a neighbour beyond it makes a match ``coincidental``.
FACTOR = 2.0
#: Significance level of the Welch test behind ``same-direction`` and ``contradicts``.
ALPHA = 0.05
#: A published realisation ``contradicts`` our runs when its event's probability is below
#: this over the whole exact 95 % interval (rarer than 1 in 20).
RARE_EVENT = 0.05
#: The row label of the mean over the runs a study reports beside a ``realisation`` row (a
#: ``derived`` row ``<row><suffix>``): what orderings and qualitative claims compare.
MEAN_ROW_SUFFIX = ", mean over the runs"
#: A value more than this many times inside a bound is flagged in the note.
VACUOUS_FACTOR = 10.0
#: The quantile of the seeds' copy-to-copy differences the tolerance is set at.
CALIBRATION_QUANTILE = 0.95
#: The tolerance is that quantile rounded up to a multiple of this step.
CALIBRATION_STEP = 0.05

#: :func:`calibrate_tolerance` of the wired study's 30 numbers that seeds 000 and 004 both
#: print (one NS-2 experiment, two texts): their directed relative differences have a
#: median of 5 %, a 95th percentile of 17.5 % and a maximum of 23 %; rounded up, 20 %
#: (``tests/test_published_verdicts.py`` recomputes it from ``data/published``).
DEFAULT_TOLERANCE = 0.20

#: Strength of the verdicts a claim's copies can get, strongest first: a claim with
#: several copies gets the weakest of its copies' verdicts.
_STRENGTH = ("matches", "within-bound", "consistent", "same-direction", "differs", "contradicts")


def calibrate_tolerance(
    pairs: Iterable[tuple[float, float]],
    quantile: float = CALIBRATION_QUANTILE,
    step: float = CALIBRATION_STEP,
) -> float:
    """The relative tolerance that the seeds' own copies of one experiment need.

    ``pairs``: two published values of one claim (two texts printing the same
    experiment). Each copy is taken once as the published value and the other as its
    reproduction, ``|a - b| / |b|`` and ``|a - b| / |a|``; the tolerance is the
    ``quantile`` of these relative differences rounded up to a multiple of ``step``:
    the band within which the seeds agree with themselves in that share of cases.
    """
    differences = []
    for a, b in pairs:
        a, b = float(a), float(b)
        if not (math.isfinite(a) and math.isfinite(b)) or a == 0 or b == 0:
            raise ValueError(f"copies must be finite and non-zero, got {a!r}, {b!r}")
        differences += [abs(a - b) / abs(b), abs(a - b) / abs(a)]
    if not differences:
        raise ValueError("no pairs of copies to calibrate the tolerance on")
    if not (0 < quantile <= 1 and step > 0):
        raise ValueError(f"quantile must be in (0, 1] and step > 0, got {quantile}, {step}")
    value = float(np.quantile(differences, quantile))
    # Rounded up to the step; a value already on the grid stays (float noise aside).
    return round(math.ceil(value / step - 1e-9) * step, 10)


def copy_pairs(published: pd.DataFrame) -> pd.DataFrame:
    """Every pair of copies of one claim printed by two different seed files.

    ``published``: rows of :func:`~transportlab.engine.published.load` (any studies,
    with a ``study`` column or not). Returns ``claim, seed_a, value_a, seed_b, value_b,
    relative_difference`` (``|a - b| / |b|``); derived rows and bounds are left out.
    """
    rows = published[
        (published["claim"] != "")
        & (published["derived_from"] == "")
        & ~published["qualifier"].isin(BOUNDS)
    ]
    pairs = []
    for claim, group in rows.groupby("claim", sort=False):
        group = group.sort_values("seed_file")
        records = list(group.itertuples())
        for i, first in enumerate(records):
            for second in records[i + 1 :]:
                if first.seed_file == second.seed_file:
                    continue
                a, b = float(first.value), float(second.value)
                pairs.append((claim, first.seed_file, a, second.seed_file, b,
                              abs(a - b) / abs(b) if b else math.nan))  # fmt: skip
    return pd.DataFrame(
        pairs,
        columns=["claim", "seed_a", "value_a", "seed_b", "value_b", "relative_difference"],
    )


def _finite(*values) -> bool:
    return all(v is not None and pd.notna(v) and math.isfinite(float(v)) for v in values)


def _satisfies(value: float, bound: float, qualifier: str) -> bool:
    return {
        "<": value < bound, "<=": value <= bound, ">": value > bound, ">=": value >= bound,
    }[qualifier]  # fmt: skip


def judge(
    published: float,
    mean: float,
    ci_low: float = math.nan,
    ci_high: float = math.nan,
    *,
    tol: float = DEFAULT_TOLERANCE,
    qualifier: str = "",
    deterministic: bool = False,
) -> tuple[str, str]:
    """The point verdict of one reproduced mean (with its 95 % interval) against one
    published value or bound: ``(verdict, note)``.

    ``qualifier`` is the published value's prefix (``''``, ``'~'``: a value with the
    band ``tol``; ``'<'``, ``'<='``, ``'>'``, ``'>='``: a bound, without tolerance).
    Verdicts: ``matches`` (interval inside the band; a deterministic value inside it),
    ``consistent`` (mean inside, interval not), ``within-bound``, ``contradicts`` (a
    bound whose whole interval is on the wrong side) and ``differs``. A stochastic mean
    without an interval can be ``consistent`` at best. Applies to any pair of numbers:
    the paper against our mean, the paper against NS-2, ns-3 against NS-2's mean.
    """
    if not _finite(published, mean):
        return "differs", "nothing to compare"
    has_interval = _finite(ci_low, ci_high)
    if qualifier in BOUNDS:
        if deterministic:
            if _satisfies(mean, published, qualifier):
                return "within-bound", "the bound holds (deterministic value)"
            return "contradicts", "the bound does not hold (deterministic value)"
        mean_holds = _satisfies(mean, published, qualifier)
        low, high = (ci_low, ci_high) if has_interval else (math.nan, math.nan)
        both = (
            has_interval
            and _satisfies(low, published, qualifier)
            and _satisfies(high, published, qualifier)
        )
        neither = (
            has_interval
            and not _satisfies(low, published, qualifier)
            and not _satisfies(high, published, qualifier)
        )
        if mean_holds and both:
            return "within-bound", "the bound holds over the whole 95 % interval"
        if mean_holds:
            return "consistent", "the mean satisfies the bound, the 95 % interval crosses it"
        if neither:
            return "contradicts", "the whole 95 % interval lies on the wrong side of the bound"
        return "differs", "the mean does not satisfy the bound (the interval crosses it)"
    half = tol * abs(published)
    low_edge, high_edge = published - half, published + half
    if not low_edge <= mean <= high_edge:
        return "differs", f"outside {tol:.0%} of the published value"
    if deterministic:
        return "matches", f"within {tol:.0%} (deterministic value)"
    if has_interval and low_edge <= ci_low and ci_high <= high_edge:
        return "matches", f"the 95 % interval lies within {tol:.0%}"
    if not has_interval:
        return "consistent", f"mean within {tol:.0%}, no interval to test equivalence"
    return "consistent", f"mean within {tol:.0%}, the 95 % interval reaches beyond the band"


def judge_realisation(probability: float, ci_low: float, ci_high: float, n_runs) -> tuple[str, str]:
    """The verdict of a published realisation (one trace showing an event): ``(verdict,
    note)`` from the share ``probability`` of our runs showing the event, its exact 95 %
    interval and the number of runs (rules of the module docstring)."""
    if not _finite(probability, ci_low, ci_high) or pd.isna(n_runs):
        return "differs", "no probability of the event reproduced"
    shown = (
        f"P = {probability:.2g} over {int(n_runs)} runs (exact 95 % interval "
        f"{ci_low:.2g}-{ci_high:.2g})"
    )
    if n_runs < MIN_RUNS:
        return "too-few-runs", f"{shown}; a verdict needs {MIN_RUNS} runs"
    if ci_low > 0:
        return "matches", f"{shown}: the event happens in our runs, the interval excludes 0"
    if ci_high < RARE_EVENT:
        return "contradicts", f"{shown}: the event is rarer than {RARE_EVENT:.0%} in our runs"
    return "differs", (
        f"{shown}: the interval includes 0, and the runs cannot call the event rarer than "
        f"{RARE_EVENT:.0%}"
    )


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
                f"{study.name!r} (check the row labels in "
                f"data/published/{study.published_name}.csv, or pass strict=False)"
            )
    if reproduced.groupby(KEY)["unit"].nunique().max() > 1:
        raise ValueError("reproduced results use several units for one (protocol, metric, row)")
    return reproduced


def _inside(reproduced: float, bound: float, qualifier: str) -> float:
    """How many times inside the bound ``reproduced`` lies (1 at the bound)."""
    if qualifier in ("<", "<="):
        return bound / reproduced if reproduced > 0 else math.inf
    return reproduced / bound if bound > 0 else math.nan


#: The readings of a published row: as printed, the seed's other copy, and the mean of
#: the rows a ``mean of`` row derives from.
_READINGS = ("value", "alternative", "derived")


def _reading(row: pd.Series, which: str) -> tuple[float, str, str]:
    """A row's published value in base units, its qualifier and its printed form."""
    if which == "alternative" and math.isfinite(row["alternative"]):
        base = row["alternative"] * row["_scale"]
        return base, row["alternative_qualifier"], row["alternative_printed"]
    if which == "derived" and math.isfinite(row["_derived"]):
        return row["_derived"] * row["_scale"], "", f"{row['_derived']:.6g}"
    return row["_pub_base"], row["qualifier"], row["printed"]


def _too_few(row: pd.Series) -> bool:
    return not row["deterministic"] and not (pd.notna(row["n_runs"]) and row["n_runs"] >= MIN_RUNS)


def _significance(me: pd.Series, peer: pd.Series) -> tuple[bool, str]:
    """Is the difference of two reproduced means significant (Welch, or both exact)?"""
    if me["deterministic"] and peer["deterministic"]:
        return me["_rep_base"] != peer["_rep_base"], "both deterministic"
    _, _, p_value = welch_test(
        me["_rep_base"], me["_se_base"], me["n_runs"],
        peer["_rep_base"], peer["_se_base"], peer["n_runs"],
    )  # fmt: skip
    if math.isnan(p_value):
        return False, "no interval"
    return bool(p_value < ALPHA), f"Welch p = {p_value:.3g}"


#: Outcomes of the ordering test, from agreeing to contradicting.
_ORDER_RANK = {"as-published": 0, "not-significant": 1, "untestable": 1, "tie-apart": 1,
               "none": 1, "reversed": 2, "contradicted": 3}  # fmt: skip


def _ordering(index, table: pd.DataFrame, which: str) -> tuple[str, str]:
    """The reproduced ordering against the other protocols of the row: the worst outcome
    (:data:`_ORDER_RANK`) over the peers, and a note naming each."""
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
        return "none", "no other protocol reproduced to order against"
    mine = _reading(me, which)[0]
    worst, parts = "as-published", []
    for _, peer in peers.iterrows():
        name = peer["protocol"]
        published_sign = np.sign(mine - _reading(peer, which)[0])
        difference = me["_rep_base"] - peer["_rep_base"]
        if _too_few(peer):
            status, part = (
                "untestable",
                f"ordering against {name} untestable ({peer['n_runs']} run(s))",
            )
        elif published_sign == 0:
            scale = max(abs(me["_rep_base"]), abs(peer["_rep_base"]))
            if abs(difference) > me["_tol"] * scale:
                status = "tie-apart"
                part = f"published tie with {name}, reproduced apart by more than the tolerance"
            else:
                status, part = "as-published", f"tie with {name} as published"
        elif difference == 0:
            status, part = (
                "not-significant",
                f"no difference reproduced against {name} (published: one)",
            )
        else:
            significant, shown = _significance(me, peer)
            if np.sign(difference) != published_sign:
                status = "contradicted" if significant else "reversed"
                qualifier = "significantly " if significant else ""
                part = f"ordering against {name} {qualifier}reversed ({shown})"
            elif significant:
                status, part = "as-published", f"ordering against {name} as published ({shown})"
            else:
                status = "not-significant"
                part = f"ordering against {name} as published but not significant ({shown})"
        parts.append(part)
        worst = max(worst, status, key=_ORDER_RANK.get)
    return worst, "; ".join(parts)


def _judge_reading(index, table: pd.DataFrame, which: str) -> tuple[str, str]:
    """Verdict and note of one reading of a published row (rules of the module docstring)."""
    me = table.loc[index]
    published, qualifier, _ = _reading(me, which)
    reproduced, tol, scale = me["_rep_base"], me["_tol"], me["_scale"]
    verdict, note = judge(
        published, reproduced, me["ci_low"] * scale, me["ci_high"] * scale,
        tol=tol, qualifier=qualifier, deterministic=bool(me["deterministic"]),
    )  # fmt: skip
    if qualifier in BOUNDS:
        if verdict in ("within-bound", "consistent"):
            inside = _inside(reproduced, published, qualifier)
            if inside > VACUOUS_FACTOR:
                note += f"; {inside:.3g}x inside the bound: holds vacuously"
        return verdict, note
    if verdict != "differs":
        return verdict, note
    status, order_note = _ordering(index, table, which)
    if status == "contradicted":
        return "contradicts", order_note
    if status != "as-published":
        return "differs", order_note
    ratio = reproduced / published if published != 0 else math.nan
    if not 1 / FACTOR <= ratio <= FACTOR:
        return "differs", f"{order_note}, but {ratio:.3g}x the published value (beyond {FACTOR:g}x)"
    return "same-direction", f"{order_note}; {ratio:.3g}x the published value"


def _judge(index, table: pd.DataFrame) -> tuple[str, str]:
    me = table.loc[index]
    if me["kind"] == "input":
        return "input", f"fixed by the configuration: {me['note'] or 'see data/published'}"
    if me["kind"] == "realisation":
        verdict, note = judge_realisation(
            me["reproduced"], me["ci_low"], me["ci_high"], me["n_runs"]
        )
        note = (
            f"one published realisation ({me['printed']} {me['unit']}), judged by the share "
            f"of runs showing it; {note}"
        )
        if me["by_construction"]:
            return (
                "by-construction",
                f"{me['by_construction']}; compared anyway: {verdict} ({note})",
            )
        return verdict, note
    if not math.isfinite(me["_rep_base"]):
        return "differs", me.get("why_missing") or "nothing reproduced for this row"
    if _too_few(me):
        return "too-few-runs", (
            f"{me['n_runs'] if pd.notna(me['n_runs']) else 'unknown number of'} run(s) of a "
            f"stochastic model; a verdict needs {MIN_RUNS}"
        )
    verdict, note = _judge_reading(index, table, "value")
    tol, value = me["_tol"], me["value"]
    if math.isfinite(me["alternative"]):
        second = me["alternative"]
        if abs(value - second) <= tol * max(abs(value), abs(second)):
            note = f"{note}; {me['also_in']} prints {me['alternative_printed']}"
        else:
            other, other_note = _judge_reading(index, table, "alternative")
            verdict, note = (
                "seed-inconsistent",
                (
                    f"as {me['source']} ({me['printed']}): {verdict} ({note}); "
                    f"as {me['also_in']} ({me['alternative_printed']}): {other} ({other_note})"
                ),
            )
    elif math.isfinite(me["_derived"]):
        mean = me["_derived"]
        if abs(value - mean) > tol * abs(mean):
            other, other_note = _judge_reading(index, table, "derived")
            verdict, note = (
                "seed-inconsistent",
                (
                    f"{me['source']} prints {me['printed']} as the {me['derived_from']}, whose "
                    f"rows average {mean:.6g}; as printed: {verdict} ({note}); as the mean of "
                    f"the rows: {other} ({other_note})"
                ),
            )
    reason = me["by_construction"]
    if reason and verdict == "seed-inconsistent":
        return verdict, f"{note}; and by construction: {reason}"
    if reason:
        return "by-construction", f"{reason}; compared anyway: {verdict} ({note})"
    return verdict, note


def _flags(
    index, table: pd.DataFrame, catalogue: pd.DataFrame, readings: pd.DataFrame
) -> tuple[list[str], list[str]]:
    """Flags (:data:`FLAGS`) of an agreeing row and what decided each."""
    me = table.loc[index]
    flags, notes = [], []
    if me["verdict"] in ("matches", "consistent", "within-bound", "same-direction"):
        chosen = readings_of(readings, me["protocol"], me["metric"])
        if len(chosen):
            flags.append("post-hoc")
            notes.append("; ".join(f"{r['reading']} chosen post hoc ({r['evidence']})"
                                   for _, r in chosen.iterrows()))  # fmt: skip
    if me["verdict"] not in ("matches", "consistent") or me["qualifier"] in BOUNDS:
        return flags, notes
    reproduced, tol = me["_rep_base"], me["_tol"]
    others = catalogue[
        (catalogue["seed_file"] == me["seed_file"])
        & (catalogue["metric"] == me["metric"])
        & (catalogue["row"] == me["row"])
        & (catalogue["protocol"] != me["protocol"])
        & ~catalogue["qualifier"].isin(BOUNDS)
    ]
    close = [
        f"{other['protocol']}'s {other['printed']}"
        for _, other in others.iterrows()
        if abs(reproduced - other["_pub_base"]) <= tol * abs(other["_pub_base"])
    ]
    if close:
        flags.append("non-discriminating")
        notes.append(f"also within {tol:.0%} of {', '.join(close)}")
    series = table[
        (table["seed_file"] == me["seed_file"])
        & (table["protocol"] == me["protocol"])
        & (table["metric"] == me["metric"])
        & (table["derived_from"] == "")
        & ~table["qualifier"].isin(BOUNDS)
    ]
    if me["derived_from"].startswith("mean of "):
        neighbours = series[series["source"] == me["derived_from"].removeprefix("mean of ")]
    else:
        series = series[series["source"] == me["source"]]
        position = list(series.index).index(index) if index in series.index else None
        near = [] if position is None else [position - 1, position + 1]
        neighbours = series.iloc[[p for p in near if 0 <= p < len(series)]]
    far = [
        f"{n['row']} ({n['_rep_base'] / n['_pub_base']:.2g}x)"
        for _, n in neighbours.iterrows()
        if n["_pub_base"] != 0
        and math.isfinite(n["_rep_base"])
        and not 1 / FACTOR <= n["_rep_base"] / n["_pub_base"] <= FACTOR
    ]
    if far:
        flags.append("coincidental")
        notes.append(f"neighbouring rows beyond {FACTOR:g}x: {', '.join(far)}")
    status, order_note = _ordering(index, table, "value")
    if status in ("reversed", "contradicted"):
        flags.append("ordering-reversed")
        notes.append(order_note)
    return flags, notes


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
    published["_derived"] = [derived_mean(published, index) for index in published.index]
    published = published[published["kind"] != "reference"]
    catalogue = published.copy()
    catalogue["_scale"] = catalogue["unit"].map(lambda unit: UNITS[unit][1]).astype(float)
    catalogue["_pub_base"] = catalogue["value"] * catalogue["_scale"]
    table = published.merge(summary, on=KEY, how="inner", validate="many_to_one")

    _check_realisations(table)
    columns = {name: [] for name in ("reproduced", "ci_low", "ci_high")}
    for _, row in table.iterrows():
        for name, source in (("reproduced", "mean"), ("ci_low", "ci_low"), ("ci_high", "ci_high")):
            value = float(row[source]) if pd.notna(row[source]) else math.nan
            if row["kind"] != "realisation":  # a realisation's number is a probability
                value = convert(value, row["_rep_unit"], row["unit"])
            columns[name].append(value)
    for name, values in columns.items():
        table[name] = values
    table["n_runs"] = pd.array(
        [int(n) if pd.notna(n) else pd.NA for n in table["n_runs"]], dtype="Int64"
    )
    table["deterministic"] = table["deterministic"].astype(bool)
    table["_tol"] = [per_metric.get(metric, default) for metric in table["metric"]]
    table["_scale"] = table["unit"].map(lambda unit: UNITS[unit][1]).astype(float)
    table["_pub_base"] = table["value"] * table["_scale"]
    # A realisation's probability is no mean of the published quantity: nothing orders
    # against it.
    table["_rep_base"] = np.where(
        table["kind"] == "realisation", math.nan, table["reproduced"] * table["_scale"]
    )
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
    readings = load_readings(study)
    flagged = [_flags(index, table, catalogue, readings) for index in table.index]
    table["flags"] = ["; ".join(flags) for flags, _ in flagged]
    table["note"] = [
        "; ".join([note, *(f"{flag}: {why}" for flag, why in zip(flags, whys, strict=True))])
        for note, (flags, whys) in zip(table["note"], flagged, strict=True)
    ]
    published_values = table["value"].to_numpy(dtype=float)
    table["ratio"] = np.divide(
        table["reproduced"].to_numpy(dtype=float),
        published_values,
        out=np.full(len(table), math.nan),
        where=(published_values != 0) & (table["kind"] != "realisation").to_numpy(),
    )
    table["study"] = study.name
    table["role"] = np.where(table["derived_from"] != "", "derived", "claim")
    table["published"] = table["printed"]
    table["alternative"] = table["alternative_printed"]
    # A realisation's numbers are a probability: its unit (the published value's is in the
    # note) is that of the numbers the row holds.
    table.loc[table["kind"] == "realisation", "unit"] = "ratio"
    result = table[list(COMPARISON_COLUMNS)].reset_index(drop=True)
    result.attrs["tolerance"] = {
        "study": study.name,
        "default": default,
        "per_metric": per_metric,
        "rule": (
            "matches: the 95 % interval (a deterministic value) within tolerance * |published| "
            "of the published value; consistent: only the mean within it; bounds without "
            "tolerance (within-bound, consistent, contradicts); same-direction: ordering as "
            f"published, Welch p < {ALPHA:g} (or both deterministic and distinct) and within "
            f"{FACTOR:g}x; contradicts: ordering significantly reversed; too-few-runs below "
            f"{MIN_RUNS} runs; default tolerance: the {CALIBRATION_QUANTILE:.0%} quantile of "
            "the differences between seeds 000 and 004 (copies of one experiment), rounded up "
            f"to {CALIBRATION_STEP:.0%}; see transportlab.engine.verdicts"
        ),
    }
    return result


def _check_realisations(table: pd.DataFrame) -> None:
    """A ``realisation`` row is compared with the probability of its event in the runs
    (unit ``ratio``, between 0 and 1), never with values of the published quantity."""
    rows = table[table["kind"] == "realisation"]
    for _, row in rows.iterrows():
        values = [float(row[c]) for c in ("mean", "ci_low", "ci_high") if pd.notna(row[c])]
        if row["_rep_unit"] != "ratio" or any(not 0.0 <= v <= 1.0 for v in values):
            raise ValueError(
                f"{row['protocol']} {row['metric']} {row['row']} is a published realisation "
                f"({row['printed']} {row['unit']}): compare it with the probability of its event "
                f"in the runs (unit 'ratio', between 0 and 1, e.g. "
                f"transportlab.engine.stats.exceedance_probability), not with values in "
                f"{row['_rep_unit']!r} ({values})"
            )


def _printed(printed) -> tuple[float, str]:
    """A derived row's published value as ``(number, qualifier)``: ``">0"`` is
    ``(0.0, ">")``, ``"~0.5"`` is ``(0.5, "~")``."""
    text = str(printed).strip()
    for qualifier in sorted((*BOUNDS, "~"), key=len, reverse=True):
        if text.startswith(qualifier):
            return float(text[len(qualifier) :]), qualifier
    return float(text), ""


def _derived_rows(committed: pd.DataFrame, known: set, default: float, study: str) -> pd.DataFrame:
    """Rows of a committed comparison that the catalogue does not have: numbers the study
    derived from published ones (SIP: each count relative to the 5 % row), judged again
    with :func:`judge`. Their note keeps its first clause (the derivation)."""
    rows = committed[[key not in known for key in map(tuple, committed[KEY].to_numpy())]].copy()
    if rows.empty:
        return rows
    judged = []
    for _, r in rows.iterrows():
        published, qualifier = _printed(r["published"])
        judged.append(judge(
            published, float(r["reproduced"]), float(r["ci_low"]), float(r["ci_high"]),
            tol=default, qualifier=qualifier,
            deterministic=str(r.get("deterministic", "")).lower() == "true",
        ))  # fmt: skip
    rows["verdict"] = [verdict for verdict, _ in judged]
    rows["note"] = [
        f"{str(note).split('; ')[0]}; {why}"
        for note, (_, why) in zip(rows["note"], judged, strict=True)
    ]
    rows["role"], rows["claim"], rows["flags"], rows["study"] = "derived", "", "", study
    for column in COMPARISON_COLUMNS:
        if column not in rows:
            rows[column] = ""
    return rows[list(COMPARISON_COLUMNS)]


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
    the one row of their number; rows the catalogue never had (numbers the study
    derived, with ``published`` in the file) are kept as ``derived`` and judged
    again with :func:`judge`. ``tolerance`` defaults to the one saved next to the
    committed file (``comparison-tolerance.json``). ``deterministic`` lists
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
    for column in KEY:
        comparison[column] = comparison[column].astype(str)
    catalogue = load(study)
    known = set(map(tuple, catalogue[KEY].to_numpy()))
    ours = comparison[[key in known for key in map(tuple, comparison[KEY].to_numpy())]]
    means = ours[needed].rename(columns={"reproduced": "mean"})
    # What a row without a value found instead (its note) stays its note.
    means["why_missing"] = np.where(
        ours["reproduced"].isna(), ours.get("note", pd.Series("", ours.index)).fillna(""), ""
    )
    means = means.drop_duplicates(subset=KEY, keep="first").copy()
    flags = means["metric"].isin(set(deterministic))
    if "deterministic" in ours.columns:
        first = ours.drop_duplicates(subset=KEY, keep="first")
        flags |= first["deterministic"].astype(str).str.lower().eq("true").to_numpy()
    means["deterministic"] = flags
    result = compare(study, means, tolerance, strict=False)
    default = result.attrs["tolerance"]["default"]
    extra = _derived_rows(comparison, known, default, study.name)
    if len(extra):
        attrs = result.attrs
        result = pd.concat([result, extra], ignore_index=True)
        result.attrs = attrs
    return result


CLAIM_COLUMNS = (
    "study", "claim", "n_sources", "sources", "protocol", "metric", "row", "unit",
    "published", "reproduced", "ci_low", "ci_high", "n_runs", "verdict", "flags", "note",
)  # fmt: skip


def _tolerance_of(tolerance, metric: str) -> float:
    if tolerance is None:
        return DEFAULT_TOLERANCE
    if isinstance(tolerance, Mapping):
        return float(tolerance.get("per_metric", {}).get(metric, tolerance.get("default")))
    return float(tolerance)


def _number(printed) -> float:
    try:
        return float(str(printed).lstrip("~<>="))
    except ValueError:
        return math.nan


def claims(comparison: pd.DataFrame, tolerance=None) -> pd.DataFrame:
    """One row per claim (:data:`CLAIM_COLUMNS`): the ``role == "claim"`` rows of a
    comparison folded by ``(study, claim)``.

    A claim with one copy keeps its row's verdict. With several copies (seeds 000 and
    004 printing one experiment): the common verdict when they agree; else
    ``seed-inconsistent`` when the copies lie more than the tolerance apart (the verdict
    depends on which text one believes), else the weakest of their verdicts (strongest
    first: matches, within-bound, consistent, same-direction, differs, contradicts). Flags
    are the union of the copies'. ``tolerance``: a number, or the saved
    ``comparison-tolerance.json`` (``{"default": .., "per_metric": {..}}``).
    """
    rows = comparison[comparison.get("role", pd.Series("claim", comparison.index)) == "claim"]
    for column in (
        "seed_file",
        "source",
        "flags",
        "note",
        "protocol",
        "metric",
        "row",
        "unit",
        "published",
    ):
        if column not in rows:
            rows = rows.assign(**{column: ""})
    for column in ("reproduced", "ci_low", "ci_high", "n_runs"):
        if column not in rows:
            rows = rows.assign(**{column: math.nan})
    out = []
    for (study, claim), group in rows.groupby(["study", "claim"], sort=False):
        first = group.iloc[0]
        verdicts = list(group["verdict"])
        flags = sorted(
            {f for text in group["flags"].fillna("") for f in str(text).split("; ") if f}
        )
        sources = "; ".join(
            f"{str(s)[:3]} {src}" if str(s) else str(src)
            for s, src in zip(group["seed_file"].fillna(""), group["source"], strict=True)
        )
        if len(set(verdicts)) == 1:
            verdict = verdicts[0]
            note = first["note"] if len(group) == 1 else f"every copy: {verdict}"
        else:
            values = [_number(p) for p in group["published"]]
            tol = _tolerance_of(tolerance, first["metric"])
            apart = any(abs(a - b) > tol * min(abs(a), abs(b)) for a in values for b in values)
            each = "; ".join(
                f"{s}: {v}" for s, v in zip(sources.split("; "), verdicts, strict=True)
            )
            if "seed-inconsistent" in verdicts or apart:
                verdict = "seed-inconsistent"
                why = "the copies lie more than the tolerance apart" if apart else ""
                note = f"{why + ', ' if why else ''}the verdict depends on the copy ({each})"
            elif all(v in _STRENGTH for v in verdicts):
                verdict = max(verdicts, key=_STRENGTH.index)
                note = f"the weakest of its copies' verdicts ({each})"
            else:
                verdict = next(v for v in VERDICTS[::-1] if v in verdicts)
                note = f"copies judged differently ({each})"
        if verdict not in ("matches", "consistent", "within-bound", "same-direction"):
            flags = []
        out.append({
            "study": study, "claim": claim, "n_sources": len(group), "sources": sources,
            "protocol": first["protocol"], "metric": first["metric"], "row": first["row"],
            "unit": first["unit"], "published": "; ".join(map(str, group["published"])),
            "reproduced": first["reproduced"], "ci_low": first["ci_low"],
            "ci_high": first["ci_high"], "n_runs": first["n_runs"], "verdict": verdict,
            "flags": "; ".join(flags), "note": note,
        })  # fmt: skip
    return pd.DataFrame(out, columns=list(CLAIM_COLUMNS))


QUALITATIVE_RESULT_COLUMNS = (
    "study", "seed_file", "source", "claim", "quote", "metric", "row", "left", "relation",
    "right", "unit", "left_mean", "right_mean", "test", "verdict", "claim_verdict", "note",
)  # fmt: skip
#: Verdicts of a qualitative claim's relations, strongest first; a claim gets its
#: weakest relation's.
_QUALITATIVE_STRENGTH = ("matches", "consistent", "too-few-runs", "differs", "contradicts")


def _relation_verdict(
    relation: str, left: pd.Series, right: pd.Series | None, threshold: float
) -> tuple[str, str, str]:
    """``(verdict, test, note)`` of one relation ``left <relation> right|threshold``."""
    scale = left["_scale"]
    if right is None:
        verdict, note = judge(
            threshold * scale, left["_rep_base"], left["ci_low"] * scale, left["ci_high"] * scale,
            qualifier=relation, deterministic=bool(left["deterministic"]),
        )  # fmt: skip
        mapped = {"within-bound": "matches", "consistent": "consistent",
                  "contradicts": "contradicts"}.get(verdict, "differs")  # fmt: skip
        return mapped, "interval against the threshold", note
    if _too_few(left) or _too_few(right):
        return "too-few-runs", "", f"fewer than {MIN_RUNS} runs"
    difference = left["_rep_base"] - right["_rep_base"]
    claimed = 1 if relation in (">", ">=") else -1
    significant, shown = _significance(left, right)
    if difference == 0:
        if relation in ("<=", ">="):
            return "consistent", shown, "equal reproduced values (the relation allows it)"
        return "differs", shown, "no difference reproduced"
    if np.sign(difference) == claimed:
        if significant:
            return "matches", shown, "as stated, significant"
        return "consistent", shown, "as stated, not significant"
    if significant:
        return "contradicts", shown, "significantly reversed"
    return "differs", shown, "reversed, not significant"


def judge_qualitative(study: Study, comparison: pd.DataFrame) -> pd.DataFrame:
    """The paper's qualitative claims of ``study`` judged as orderings against the reproduced
    means of ``comparison`` (:data:`QUALITATIVE_RESULT_COLUMNS`).

    Each relation ``left <relation> right`` compares the reproduced means of two protocols
    of one metric and row (or one protocol against a number, a threshold): ``matches`` when
    it holds significantly (Welch at :data:`ALPHA`, both exact and distinct, or the whole
    interval on the stated side of a threshold), ``consistent`` when it holds without
    significance, ``contradicts`` when the opposite holds significantly, ``differs``
    otherwise (also when nothing was reproduced). ``claim_verdict`` is the weakest verdict
    of the claim's relations (all its sources: they test the same reproduction).
    """
    study = require_study(study)
    qualitative = load_qualitative(study)
    if qualitative.empty:
        return pd.DataFrame(columns=list(QUALITATIVE_RESULT_COLUMNS))
    means = comparison.drop_duplicates(subset=KEY, keep="first").copy()
    for column in KEY:
        means[column] = means[column].astype(str)
    if "kind" in means.columns:
        # A realisation row holds a probability: its side of an ordering is the mean over
        # the runs the study reports beside it (row ``<row>`` + MEAN_ROW_SUFFIX).
        realised = means["kind"].astype(str).eq("realisation")
        beside = means[means["row"].str.endswith(MEAN_ROW_SUFFIX)].copy()
        beside["row"] = beside["row"].str.removesuffix(MEAN_ROW_SUFFIX)
        keys = set(map(tuple, means.loc[realised, KEY].to_numpy()))
        beside = beside[[key in keys for key in map(tuple, beside[KEY].to_numpy())]]
        means = pd.concat([means[~realised], beside], ignore_index=True)
    means["deterministic"] = means["deterministic"].astype(str).str.lower().eq("true")
    means["_scale"] = means["unit"].map(lambda unit: UNITS[unit][1]).astype(float)
    for column in ("reproduced", "ci_low", "ci_high"):
        means[column] = pd.to_numeric(means[column], errors="coerce")
    means["n_runs"] = pd.to_numeric(means["n_runs"], errors="coerce")
    means["_rep_base"] = means["reproduced"] * means["_scale"]
    means["_se_base"] = [
        0.0 if r["deterministic"]
        else standard_error(r["ci_low"], r["ci_high"], r["n_runs"] if pd.notna(r["n_runs"]) else 0)
        * r["_scale"]
        for _, r in means.iterrows()
    ]  # fmt: skip
    indexed = means.set_index(KEY)
    out = []
    for _, q in qualitative.iterrows():
        left = indexed.loc[(q["left"], q["metric"], q["row"])] if (
            q["left"], q["metric"], q["row"]) in indexed.index else None  # fmt: skip
        threshold = q["threshold"]
        right = None
        if math.isnan(threshold):
            key = (q["right"], q["metric"], q["row"])
            right = indexed.loc[key] if key in indexed.index else None
        record = {column: q[column] for column in QUALITATIVE_RESULT_COLUMNS if column in q}
        record.update(study=study.name, unit="", left_mean=math.nan, right_mean=math.nan, test="")
        missing = left is None or (math.isnan(threshold) and right is None)
        if (
            missing
            or not math.isfinite(left["_rep_base"])
            or (right is not None and not math.isfinite(right["_rep_base"]))
        ):
            record.update(verdict="differs", note="not reproduced")
        else:
            verdict, test, note = _relation_verdict(q["relation"], left, right, threshold)
            record.update(
                unit=left["unit"], left_mean=left["reproduced"],
                right_mean=threshold if right is None else right["reproduced"],
                verdict=verdict, test=test, note=note,
            )  # fmt: skip
        out.append(record)
    result = pd.DataFrame(out)
    worst = result.groupby("claim")["verdict"].agg(
        lambda verdicts: max(verdicts, key=_QUALITATIVE_STRENGTH.index)
    )
    result["claim_verdict"] = result["claim"].map(worst)
    return result[list(QUALITATIVE_RESULT_COLUMNS)]


def write_comparison(
    study: Study, comparison: pd.DataFrame, quick: bool = False, folder: Path | None = None
) -> Path:
    """Write ``comparison.csv`` (and ``comparison-tolerance.json``) of ``study`` atomically
    into ``data/results[/quick]/<study>/`` (or ``folder``); returns the CSV's path."""
    if folder is None:
        folder = paths.results_dir(require_study(study).name, quick)
    tolerance = comparison.attrs.get("tolerance")
    if tolerance is not None:
        write_text(folder / "comparison-tolerance.json", json.dumps(tolerance, indent=2) + "\n")
    return write_csv(comparison, folder / "comparison.csv", float_format="%.6g")


def write_qualitative(
    study: Study, comparison: pd.DataFrame, quick: bool = False, folder: Path | None = None
) -> Path | None:
    """Write ``qualitative.csv`` (:func:`judge_qualitative` of ``comparison``) atomically
    into ``data/results[/quick]/<study>/`` (or ``folder``: where its ``comparison.csv``
    went); None (nothing written) for a study without qualitative claims."""
    study = require_study(study)
    table = judge_qualitative(study, comparison)
    if table.empty:
        return None
    if folder is None:
        folder = paths.results_dir(study.name, quick)
    return write_csv(table, folder / "qualitative.csv", float_format="%.6g")
