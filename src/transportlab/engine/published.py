"""The published numbers of the seed studies: ``data/published/<study>.csv``, checked.

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

This module reads and checks the catalogue (:func:`load`) and converts units
(:func:`convert`); what a reproduction makes of it, the comparison and its verdicts, is
:mod:`transportlab.engine.verdicts`.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from transportlab.engine import paths
from transportlab.engine.study import Study, require_study

__all__ = [
    "BOUNDS", "COLUMNS", "KEY", "KINDS", "PROTOCOLS", "REFERENCES", "UNITS", "check_unit",
    "convert", "load",
]  # fmt: skip

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
#: Qualifiers of a published bound.
BOUNDS = ("<", "<=", ">", ">=")

_QUALIFIED = re.compile(r"^(<=|>=|<|>|~)?\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)$")
#: The columns that name one published number of a seed (with ``seed_file``).
KEY = ["protocol", "metric", "row"]


def check_unit(unit: str, where: str) -> None:
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r} in {where}; known units: {list(UNITS)}")


def _parse_value(text: str, where: str) -> tuple[str, float]:
    match = _QUALIFIED.match(str(text).strip())
    if not match:
        raise ValueError(
            f"{where}: value {text!r} is not a number with an optional <=, >=, <, >, ~"
        )
    return match.group(1) or "", float(match.group(2))


def load(study: Study) -> pd.DataFrame:
    """The published values of ``study`` (a :class:`~transportlab.engine.study.Study`), checked.

    Returns the CSV's columns with ``value`` as a float, plus ``qualifier``
    (``''``, ``'~'``, ``'<'``, ``'<='``, ``'>'``, ``'>='``) and ``printed`` (the
    value as printed in the seed), and for ``alternative`` the same three
    (``alternative`` a float or NaN, ``alternative_qualifier``,
    ``alternative_printed``). Raises ``ValueError`` for a malformed file (columns,
    empty provenance, unknown protocol, unit or kind, a bound without a bound
    qualifier or the reverse, a reference row that is not an ITU-T or ICMP value, a
    seed file not of this study, and two rows for one published number: same seed
    file, protocol, metric and row).
    """
    study = require_study(study)
    path = paths.published_dir() / f"{study.name}.csv"
    if not path.is_file():
        raise FileNotFoundError(f"no published values for {study.name!r}: {path} is missing")
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
    wrong_seed = sorted(set(frame["seed_file"]) - set(study.seed_files))
    if wrong_seed:
        raise ValueError(f"{path}: seed files {wrong_seed} do not belong to {study.name!r}")
    unknown = sorted(set(frame["protocol"]) - set(PROTOCOLS))
    if unknown:
        raise ValueError(f"{path}: unknown protocol(s) {unknown}; known: {list(PROTOCOLS)}")
    unknown = sorted(set(frame["kind"]) - set(KINDS))
    if unknown:
        raise ValueError(f"{path}: unknown kind(s) {unknown}; known: {list(KINDS)}")
    for unit in sorted(set(frame["unit"])):
        check_unit(unit, str(path))
    duplicated = frame.duplicated(["seed_file", *KEY], keep=False)
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
    bound_value = frame["qualifier"].isin(BOUNDS) & (frame["kind"] != "reference")
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
    check_unit(from_unit, "a conversion")
    check_unit(to_unit, "a conversion")
    (from_dimension, from_factor), (to_dimension, to_factor) = UNITS[from_unit], UNITS[to_unit]
    if from_dimension != to_dimension:
        raise ValueError(
            f"cannot convert {from_unit} ({from_dimension}) to {to_unit} ({to_dimension})"
        )
    if isinstance(values, int | float):
        return values * from_factor / to_factor
    return np.asarray(values, dtype=float) * from_factor / to_factor
