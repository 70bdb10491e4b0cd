"""Published values of the seed studies, and their comparison with reproduced results.

``data/published/<study>.csv`` holds one row per published number with the
columns ``seed_file, source, protocol, metric, row, unit, value, kind, also_in,
alternative, note`` (provenance and every reading we had to make:
``data/published/README.md``). ``value`` is the number as printed; a leading
qualifier keeps what the text says about it: ``>3`` ("more than 3 s"), ``<=30``
(a limit that is met), ``~7`` ("about 7"). ``kind`` says what the number is:

* ``value``: a result of the study;
* ``bound``: a result stated as a bound (qualifier ``<``, ``<=``, ``>``, ``>=``);
* ``input``: a result our configuration was derived from, so that the reproduced
  value is fixed by construction (voip: 48 calls x 50 packets/s = the published
  2400 packets/s); it can never confirm anything;
* ``reference``: a number the seed quotes (ITU-T recommendations, ICMP ping
  losses), not a result of the study; never compared.

A number the seed prints twice (text and table) is one row: ``source`` is the
table, ``also_in`` names the other place. Where the two copies disagree,
``alternative`` holds the other reading as printed (and ``note`` says why).

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
import re
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from transportlab.engine import paths
from transportlab.engine.files import write_csv, write_text
from transportlab.engine.stats import confidence_interval, standard_error, welch_test

__all__ = [
    "seed_files",
    "COLUMNS",
    "COMPARISON_COLUMNS",
    "KINDS",
    "VERDICTS",
    "PROTOCOLS",
    "UNITS",
    "DEFAULT_TOLERANCE",
    "MIN_RUNS",
    "FACTOR",
    "ALPHA",
    "VACUOUS_FACTOR",
    "load",
    "convert",
    "confidence_interval",
    "compare",
    "rejudge",
    "write_comparison",
]


def seed_files(study: str) -> tuple[str, ...]:
    """The seed files ``study`` reproduces (its ``Study.seed_files``, the one list of them)."""
    from transportlab.studies import get  # noqa: PLC0415

    try:
        return get(study).seed_files
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None


COLUMNS = (
    "seed_file",
    "source",
    "protocol",
    "metric",
    "row",
    "unit",
    "value",
    "kind",
    "also_in",
    "alternative",
    "note",
)
#: Columns that may be empty in a published CSV.
_OPTIONAL = ("also_in", "alternative", "note")
KINDS = ("value", "bound", "input", "reference")
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

#: Protocols (or configurations) a published value can belong to. ITU-T and ICMP
#: rows are reference values (a recommendation, ping loss measurements), not results.
PROTOCOLS = (
    "SCTP",
    "TCP",
    "UDP",
    "SCTP (single-homed)",
    "SCTP (multi-homed)",
    "ITU-T",
    "ICMP",
)

#: Unit -> (dimension, factor to the dimension's base unit). Only units of one
#: dimension convert into each other. kbps and Mbps are decimal (NS-2's "Mb").
UNITS: dict[str, tuple[str, float]] = {
    "s": ("time", 1.0),
    "ms": ("time", 1e-3),
    "us": ("time", 1e-6),
    "bit/s": ("bit rate", 1.0),
    "kbps": ("bit rate", 1e3),
    "Mbps": ("bit rate", 1e6),
    "packets/s": ("packet rate", 1.0),
    "packets": ("packet count", 1.0),
    "transactions": ("transaction count", 1.0),
    "J": ("energy", 1.0),
    "mJ": ("energy", 1e-3),
    "ratio": ("dimensionless", 1.0),
    "%": ("dimensionless", 1e-2),
}

#: Quoted values, not results of the study (kind ``reference``).
REFERENCES = ("ITU-T", "ICMP")

DEFAULT_TOLERANCE = 0.20
_BOUNDS = ("<", "<=", ">", ">=")

_QUALIFIED = re.compile(r"^(<=|>=|<|>|~)?\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)$")
_KEY = ["protocol", "metric", "row"]


def _check_study(study: str) -> None:
    seed_files(study)


def _check_unit(unit: str, where: str) -> None:
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r} in {where}; known units: {list(UNITS)}")


def _parse_value(text: str, where: str) -> tuple[str, float]:
    match = _QUALIFIED.match(str(text).strip())
    if not match:
        raise ValueError(
            f"{where}: value {text!r} is not a number with an optional <=, >=, <, >, ~"
        )
    return match.group(1) or "", float(match.group(2))


def load(study: str) -> pd.DataFrame:
    """The published values of ``study``, checked.

    Returns the CSV's columns with ``value`` as a float, plus ``qualifier``
    (``''``, ``'~'``, ``'<'``, ``'<='``, ``'>'``, ``'>='``) and ``printed`` (the
    value as printed in the seed), and for ``alternative`` the same three
    (``alternative`` a float or NaN, ``alternative_qualifier``,
    ``alternative_printed``). Raises ``ValueError`` for an unknown study or a
    malformed file (columns, empty provenance, unknown protocol, unit or kind, a
    bound without a bound qualifier or the reverse, a reference row that is not
    an ITU-T or ICMP value, a seed file not of this study, and two rows for one
    published number: same seed file, protocol, metric and row).
    """
    _check_study(study)
    path = paths.published_dir() / f"{study}.csv"
    if not path.is_file():
        raise FileNotFoundError(f"no published values for {study!r}: {path} is missing")
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    if tuple(frame.columns) != COLUMNS:
        raise ValueError(f"{path}: columns must be {list(COLUMNS)}, found {list(frame.columns)}")
    if frame.empty:
        raise ValueError(f"{path} has no rows")
    for column in COLUMNS:
        if column in _OPTIONAL:
            continue
        empty = frame.index[frame[column].str.strip() == ""]
        if len(empty):
            raise ValueError(f"{path}: empty {column!r} in data row(s) {list(empty + 1)}")
    wrong_seed = sorted(set(frame["seed_file"]) - set(seed_files(study)))
    if wrong_seed:
        raise ValueError(f"{path}: seed files {wrong_seed} do not belong to {study!r}")
    unknown = sorted(set(frame["protocol"]) - set(PROTOCOLS))
    if unknown:
        raise ValueError(f"{path}: unknown protocol(s) {unknown}; known: {list(PROTOCOLS)}")
    unknown = sorted(set(frame["kind"]) - set(KINDS))
    if unknown:
        raise ValueError(f"{path}: unknown kind(s) {unknown}; known: {list(KINDS)}")
    for unit in sorted(set(frame["unit"])):
        _check_unit(unit, str(path))
    duplicated = frame.duplicated(["seed_file", *_KEY], keep=False)
    if duplicated.any():
        raise ValueError(
            f"{path}: duplicate rows (one row per published number; name a second copy "
            f"in 'also_in'):\n{frame[duplicated]}"
        )
    parsed = [
        _parse_value(text, f"{path} data row {i + 1}") for i, text in enumerate(frame["value"])
    ]
    alternatives = [
        _parse_value(text, f"{path} data row {i + 1} (alternative)")
        if text.strip()
        else ("", math.nan)
        for i, text in enumerate(frame["alternative"])
    ]
    frame["printed"] = frame["value"]
    frame["qualifier"] = [qualifier for qualifier, _ in parsed]
    frame["value"] = [value for _, value in parsed]
    frame["alternative_printed"] = frame["alternative"]
    frame["alternative_qualifier"] = [qualifier for qualifier, _ in alternatives]
    frame["alternative"] = [value for _, value in alternatives]
    # A reference may be a bound (ITU-T "<= 150 ms") without being a result.
    bound_value = frame["qualifier"].isin(_BOUNDS) & (frame["kind"] != "reference")
    wrong = frame[(frame["kind"] == "bound") != bound_value]
    if len(wrong):
        raise ValueError(
            f"{path}: kind 'bound' needs a <, <=, >, >= value and such a value needs kind "
            f"'bound' (or 'reference'):\n{wrong[list(COLUMNS[:8])]}"
        )
    wrong = frame[(frame["kind"] == "reference") != frame["protocol"].isin(REFERENCES)]
    if len(wrong):
        raise ValueError(
            f"{path}: {list(REFERENCES)} rows, and only they, are of kind 'reference':\n"
            f"{wrong[list(COLUMNS[:8])]}"
        )
    return frame


def convert(values, from_unit: str, to_unit: str):
    """Convert numbers (scalar or array) between two units of the same dimension."""
    _check_unit(from_unit, "a conversion")
    _check_unit(to_unit, "a conversion")
    (from_dimension, from_factor), (to_dimension, to_factor) = UNITS[from_unit], UNITS[to_unit]
    if from_dimension != to_dimension:
        raise ValueError(
            f"cannot convert {from_unit} ({from_dimension}) to {to_unit} ({to_dimension})"
        )
    if isinstance(values, int | float):
        return values * from_factor / to_factor
    return np.asarray(values, dtype=float) * from_factor / to_factor


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
    keys = [*_KEY, "unit"]
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


def _validate_reproduced(study: str, published: pd.DataFrame, reproduced, strict: bool):
    if not isinstance(reproduced, pd.DataFrame):
        raise TypeError(f"reproduced must be a DataFrame, got {type(reproduced).__name__}")
    missing = [c for c in (*_KEY, "unit") if c not in reproduced.columns]
    if missing:
        raise ValueError(f"reproduced results lack column(s) {missing}")
    reproduced = reproduced.copy()
    for column in (*_KEY, "unit"):
        reproduced[column] = reproduced[column].astype(str)
    for unit in sorted(set(reproduced["unit"])):
        _check_unit(unit, "the reproduced results")
    for column in ("protocol", "metric"):
        unknown = sorted(set(reproduced[column]) - set(published[column]))
        if unknown:
            raise ValueError(
                f"reproduced {column}(s) {unknown} do not appear in the published values of "
                f"{study!r}; published {column}s: {sorted(set(published[column]))}"
            )
    if strict:
        published_keys = set(map(tuple, published[_KEY].to_numpy()))
        extra = sorted({k for k in map(tuple, reproduced[_KEY].to_numpy())} - published_keys)
        if extra:
            raise ValueError(
                f"reproduced (protocol, metric, row) {extra} have no published counterpart in "
                f"{study!r} (check the row labels in data/published/{study}.csv, "
                "or pass strict=False)"
            )
    if reproduced.groupby(_KEY)["unit"].nunique().max() > 1:
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
    if qualifier in _BOUNDS:
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
    study: str,
    reproduced: pd.DataFrame,
    tolerance: float | Mapping[str, float] | None = None,
    *,
    quick: bool = False,
    write: bool = True,
    strict: bool = True,
) -> pd.DataFrame:
    """Compare reproduced results with the published values of ``study``.

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
    000 and 004). Unknown study, protocol, metric or unit, an impossible unit
    conversion and (with ``strict``) reproduced rows without a published
    counterpart raise ``ValueError`` before anything is written. With ``write``,
    the result goes atomically to ``paths.results_dir(study, quick) /
    'comparison.csv'``.
    """
    published = load(study)
    default, per_metric = _tolerances(set(published["metric"]), tolerance)
    reproduced = _validate_reproduced(study, published, reproduced, strict)
    summary = _summarise(reproduced).rename(columns={"unit": "_rep_unit"})
    published = published[published["kind"] != "reference"]
    table = published.merge(summary, on=_KEY, how="inner", validate="many_to_one")

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
    table["study"] = study
    table["published"] = table["printed"]
    table["alternative"] = table["alternative_printed"]
    result = table[list(COMPARISON_COLUMNS)].reset_index(drop=True)
    result.attrs["tolerance"] = {
        "study": study,
        "default": default,
        "per_metric": per_metric,
        "rule": (
            "matches: |reproduced - published| <= tolerance * |published|; within-bound: "
            "a bound relaxed by the tolerance holds; same-direction: ordering as published, "
            f"Welch p < {ALPHA:g} (or both deterministic and distinct) and within "
            f"{FACTOR:g}x; too-few-runs below {MIN_RUNS} runs; see transportlab.engine.published"
        ),
    }
    if write:
        write_comparison(study, result, quick)
    return result


def rejudge(
    study: str,
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
    folder = paths.results_dir(study, quick=False)
    if comparison is None:
        path = folder / "comparison.csv"
        if not path.is_file():
            raise FileNotFoundError(f"{study} has no committed comparison ({path})")
        comparison = pd.read_csv(path, keep_default_na=False, na_values=[""])
        if tolerance is None and (folder / "comparison-tolerance.json").is_file():
            saved = json.loads((folder / "comparison-tolerance.json").read_text())
            tolerance = {"default": saved["default"], **saved.get("per_metric", {})}
    needed = [*_KEY, "unit", "reproduced", "ci_low", "ci_high", "n_runs"]
    missing = [column for column in needed if column not in comparison.columns]
    if missing:
        raise ValueError(f"the comparison lacks column(s) {missing}")
    means = comparison[needed].rename(columns={"reproduced": "mean"})
    means = means.drop_duplicates(subset=_KEY, keep="first").copy()
    flags = means["metric"].isin(set(deterministic))
    if "deterministic" in comparison.columns:
        first = comparison.drop_duplicates(subset=_KEY, keep="first")
        flags |= first["deterministic"].astype(str).str.lower().eq("true").to_numpy()
    means["deterministic"] = flags
    return compare(study, means, tolerance, write=False, strict=False)


def write_comparison(study: str, comparison: pd.DataFrame, quick: bool = False) -> None:
    """Write ``comparison.csv`` (and ``comparison-tolerance.json``) of ``study`` atomically."""
    folder = paths.results_dir(study, quick)
    tolerance = comparison.attrs.get("tolerance")
    if tolerance is not None:
        write_text(folder / "comparison-tolerance.json", json.dumps(tolerance, indent=2) + "\n")
    write_csv(comparison, folder / "comparison.csv", float_format="%.6g")
