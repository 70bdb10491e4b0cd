"""Published values of the seed studies, and their comparison with reproduced results.

``data/published/<study>.csv`` holds one row per published number with the
columns ``seed_file, source, protocol, metric, row, unit, value`` (provenance
and every reading we had to make: ``data/published/README.md``). ``value`` is
the number as printed; a leading qualifier keeps what the text says about it:
``>3`` ("more than 3 s"), ``<=30`` (a limit that is met), ``~7`` ("about 7").

:func:`compare` turns reproduced results into
``data/results[/quick]/<study>/comparison.csv`` with the columns
``study, seed_file, source, protocol, metric, row, unit, published, reproduced,
ci_low, ci_high, n_runs, ratio, verdict``. ``reproduced`` and the 95 %
confidence interval (Student's t over the replications) are converted into the
published unit; ``published`` is the value as printed (with its qualifier);
``ratio`` is reproduced / published. The verdict is

* ``matches``: the reproduced mean is within the relative tolerance of the
  published value, ``|r - p| <= tol * |p|`` (default :data:`DEFAULT_TOLERANCE` =
  20 %, overridable per metric). For a bound the bound must hold after relaxing
  it by the tolerance: ``<= p`` needs ``r <= p (1 + tol)``, ``>= p`` needs
  ``r >= p (1 - tol)``. ``~p`` counts as ``p``.
* ``same-direction``: not a match, but the ordering against every other protocol
  agrees: for each other protocol ``q`` that the same seed reports for the same
  metric and row (taken from the same table or section when it has one there,
  from any source of the seed otherwise) and that was reproduced too,
  ``sign(r_p - r_q) == sign(p_p - p_q)`` (e.g. SCTP < TCP in both); a published
  tie needs the two reproduced values within the tolerance of each other. There
  must be at least one such protocol. Bounds order by their number.
* ``differs``: anything else (also when nothing was reproduced for the row).

The tolerance used is also written next to the comparison, in
``comparison-tolerance.json``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping

import numpy as np
import pandas as pd

from transportlab import paths
from transportlab.files import write_csv, write_text
from transportlab.stats import confidence_interval

__all__ = [
    "seed_files",
    "COLUMNS",
    "COMPARISON_COLUMNS",
    "PROTOCOLS",
    "UNITS",
    "DEFAULT_TOLERANCE",
    "load",
    "convert",
    "confidence_interval",
    "compare",
    "write_comparison",
]


def seed_files(study: str) -> tuple[str, ...]:
    """The seed files ``study`` reproduces (its ``Study.seed_files``, the one list of them)."""
    from transportlab.studies import get  # noqa: PLC0415

    try:
        return get(study).seed_files
    except KeyError as exc:
        raise ValueError(exc.args[0]) from None


COLUMNS = ("seed_file", "source", "protocol", "metric", "row", "unit", "value")
COMPARISON_COLUMNS = (
    "study",
    "seed_file",
    "source",
    "protocol",
    "metric",
    "row",
    "unit",
    "published",
    "reproduced",
    "ci_low",
    "ci_high",
    "n_runs",
    "ratio",
    "verdict",
)
VERDICTS = ("matches", "same-direction", "differs")

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

DEFAULT_TOLERANCE = 0.20

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
    value as printed in the seed). Raises ``ValueError`` for an unknown study or
    a malformed file (columns, empty provenance, unknown protocol or unit, a
    seed file not of this study, duplicate rows).
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
        empty = frame.index[frame[column].str.strip() == ""]
        if len(empty):
            raise ValueError(f"{path}: empty {column!r} in data row(s) {list(empty + 1)}")
    wrong_seed = sorted(set(frame["seed_file"]) - set(seed_files(study)))
    if wrong_seed:
        raise ValueError(f"{path}: seed files {wrong_seed} do not belong to {study!r}")
    unknown = sorted(set(frame["protocol"]) - set(PROTOCOLS))
    if unknown:
        raise ValueError(f"{path}: unknown protocol(s) {unknown}; known: {list(PROTOCOLS)}")
    for unit in sorted(set(frame["unit"])):
        _check_unit(unit, str(path))
    duplicated = frame.duplicated(["seed_file", "source", *_KEY], keep=False)
    if duplicated.any():
        raise ValueError(f"{path}: duplicate rows:\n{frame[duplicated]}")
    parsed = [
        _parse_value(text, f"{path} data row {i + 1}") for i, text in enumerate(frame["value"])
    ]
    frame["printed"] = frame["value"]
    frame["qualifier"] = [qualifier for qualifier, _ in parsed]
    frame["value"] = [value for _, value in parsed]
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
    """One row per (protocol, metric, row, unit): mean, ci_low, ci_high, n_runs."""
    has_values, has_means = "value" in reproduced.columns, "mean" in reproduced.columns
    if has_values == has_means:
        raise ValueError(
            "reproduced results need either a 'value' column (one row per replication) "
            "or a 'mean' column (with optional ci_low, ci_high, n_runs), not both or neither"
        )
    keys = [*_KEY, "unit"]
    if has_values:
        rows = []
        for key, group in reproduced.groupby(keys, sort=False, dropna=False):
            mean, low, high, n = confidence_interval(pd.to_numeric(group["value"]))
            rows.append((*key, mean, low, high, n))
        return pd.DataFrame(rows, columns=[*keys, "mean", "ci_low", "ci_high", "n_runs"])
    summary = reproduced[keys + ["mean"]].copy()
    for column in ("ci_low", "ci_high", "n_runs"):
        summary[column] = reproduced[column] if column in reproduced.columns else math.nan
    if summary.duplicated(keys).any():
        raise ValueError("reproduced means: more than one row for the same protocol, metric, row")
    return summary


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


def _matches(reproduced: float, published: float, qualifier: str, tol: float) -> bool:
    if not math.isfinite(reproduced):
        return False
    if qualifier in ("<", "<="):
        return reproduced <= published * (1 + tol) if published >= 0 else reproduced <= published
    if qualifier in (">", ">="):
        return reproduced >= published * (1 - tol) if published >= 0 else reproduced >= published
    return abs(reproduced - published) <= tol * abs(published)


def _same_direction(index, table: pd.DataFrame, tol_of) -> bool:
    """The ordering rule of the module docstring, in base units."""
    me = table.loc[index]
    if not math.isfinite(me["_rep_base"]):
        return False
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
        return False
    tol = tol_of(me["metric"])
    for _, peer in peers.iterrows():
        published_sign = np.sign(me["_pub_base"] - peer["_pub_base"])
        difference = me["_rep_base"] - peer["_rep_base"]
        if published_sign == 0:
            scale = max(abs(me["_rep_base"]), abs(peer["_rep_base"]))
            if abs(difference) > tol * scale:
                return False
        elif np.sign(difference) != published_sign:
            return False
    return True


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
    ``mean`` with optional ``ci_low``, ``ci_high``, ``n_runs``. ``tolerance``:
    a relative tolerance for every metric, or a dict ``{metric: tolerance}``
    with an optional ``"default"`` (else :data:`DEFAULT_TOLERANCE`).

    Every published row with a reproduction becomes a row of the result (a
    reproduction can serve several published rows, e.g. seeds 000 and 004).
    Unknown study, protocol, metric or unit, an impossible unit conversion and
    (with ``strict``) reproduced rows without a published counterpart raise
    ``ValueError`` before anything is written. With ``write``, the result goes
    atomically to ``paths.results_dir(study, quick) / 'comparison.csv'``.
    """
    published = load(study)
    default, per_metric = _tolerances(set(published["metric"]), tolerance)
    reproduced = _validate_reproduced(study, published, reproduced, strict)
    summary = _summarise(reproduced).rename(columns={"unit": "_rep_unit"})
    table = published.merge(summary, on=_KEY, how="inner", validate="many_to_one")

    def tol_of(metric: str) -> float:
        return per_metric.get(metric, default)

    columns = {name: [] for name in ("reproduced", "ci_low", "ci_high")}
    for _, row in table.iterrows():
        for name, source in (("reproduced", "mean"), ("ci_low", "ci_low"), ("ci_high", "ci_high")):
            value = float(row[source]) if pd.notna(row[source]) else math.nan
            columns[name].append(convert(value, row["_rep_unit"], row["unit"]))
    for name, values in columns.items():
        table[name] = values
    base_factor = table["unit"].map(lambda unit: UNITS[unit][1]).astype(float)
    table["_pub_base"] = table["value"] * base_factor
    table["_rep_base"] = table["reproduced"] * base_factor
    verdicts = []
    for index, row in table.iterrows():
        if _matches(row["reproduced"], row["value"], row["qualifier"], tol_of(row["metric"])):
            verdicts.append("matches")
        elif _same_direction(index, table, tol_of):
            verdicts.append("same-direction")
        else:
            verdicts.append("differs")
    table["verdict"] = verdicts
    published_values = table["value"].to_numpy(dtype=float)
    table["ratio"] = np.divide(
        table["reproduced"].to_numpy(dtype=float),
        published_values,
        out=np.full(len(table), math.nan),
        where=published_values != 0,
    )
    table["study"] = study
    table["published"] = table["printed"]
    table["n_runs"] = pd.array(
        [int(n) if pd.notna(n) else pd.NA for n in table["n_runs"]], dtype="Int64"
    )
    result = table[list(COMPARISON_COLUMNS)].reset_index(drop=True)
    result.attrs["tolerance"] = {
        "study": study,
        "default": default,
        "per_metric": per_metric,
        "rule": "matches: |reproduced - published| <= tolerance * |published| "
        "(bounds relaxed by the tolerance); see transportlab.published",
    }
    if write:
        write_comparison(study, result, quick)
    return result


def write_comparison(study: str, comparison: pd.DataFrame, quick: bool = False) -> None:
    """Write ``comparison.csv`` (and ``comparison-tolerance.json``) of ``study`` atomically."""
    folder = paths.results_dir(study, quick)
    tolerance = comparison.attrs.get("tolerance")
    if tolerance is not None:
        write_text(folder / "comparison-tolerance.json", json.dumps(tolerance, indent=2) + "\n")
    write_csv(comparison, folder / "comparison.csv", float_format="%.6g")
