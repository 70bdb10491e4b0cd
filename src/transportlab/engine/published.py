"""The published numbers of the seed studies: ``data/published/<study>.csv``, checked.

``data/published/<study>.csv`` holds one row per published number with the
columns ``seed_file, source, protocol, metric, row, unit, value, kind, also_in,
alternative, note`` (provenance and every reading we had to make:
``data/published/README.md``). ``value`` is the number as printed; a leading
qualifier keeps what the text says about it: ``>3`` ("more than 3 s"), ``<=30``
(a limit that is met), ``~7`` ("about 7"). ``kind`` says what the number is:

* ``value``: a result of the study;
* ``bound``: a result stated as a bound (qualifier ``<``, ``<=``, ``>``, ``>=``);
* ``realisation``: one realisation of a random event that the seed read off a single
  trace, stated as a bound on that trace's value (seed 002's single-homed transfer
  "halted for more than 3 seconds"): judged by the probability of the event in our runs
  (:func:`transportlab.engine.verdicts.judge_realisation`), not against a mean;
* ``input``: a result our configuration was derived from, so that the reproduced
  value is fixed by construction (voip: 48 calls x 50 packets/s = the published
  2400 packets/s); it can never confirm anything;
* ``reference``: a number the seed quotes (ITU-T recommendations, ICMP ping
  losses), not a result of the study; never compared.

A number the seed prints twice (text and table) is one row: ``source`` is the
table, ``also_in`` names the other place. Where the two copies disagree,
``alternative`` holds the other reading as printed (and ``note`` says why).

Three columns say what a row counts as:

* ``claim``: the independent published number the row is a copy of. Rows of
  different seeds that print the same experiment (seeds 000 and 004 of the wired
  study) share one claim, which is counted once with several sources; a
  ``reference`` row has none.
* ``derived_from``: empty for an independent number; else the rows it is a function
  of. ``mean of <source>`` (an ``Avg`` row, Table 4.7's means) is checked against the
  mean of that source's rows of the same protocol and metric; any other text names a
  relation that cannot be recomputed. Derived rows are judged like the others but
  counted apart.
* ``by_construction``: empty, or why the seed's setting cannot be modelled (its
  testbed, an unstated radio): such a row gets the verdict ``by-construction``
  whatever the comparison gives.

The paper's qualitative claims (orderings and crossovers it states in words) are in
``data/published/qualitative/<study>.csv`` (:func:`load_qualitative`).

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
    "BOUNDS", "BOUND_KINDS", "CLAIM_COLUMNS", "COLUMNS", "KEY", "KINDS", "PROTOCOLS",
    "QUALITATIVE_COLUMNS", "READING_COLUMNS", "REFERENCES", "RELATIONS", "UNITS", "check_unit",
    "convert", "derived_mean", "load", "load_qualitative", "load_readings", "readings_of",
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
    "claim",
    "derived_from",
    "by_construction",
)
#: The columns that say what a row counts as (optional as a group: a catalogue without
#: them has every row its own claim, none derived or by construction).
CLAIM_COLUMNS = ("claim", "derived_from", "by_construction")
#: Columns that may be empty in a published CSV.
_OPTIONAL = ("also_in", "alternative", "note", "claim", "derived_from", "by_construction")
#: ``derived_from`` of a row that is the plain mean of another source's rows.
_MEAN_OF = re.compile(r"^mean of (?P<source>.+)$")

#: Columns of ``data/published/qualitative/<study>.csv``: one row per relation; the
#: relations of one ``claim`` of one seed hold together (a crossover is several).
QUALITATIVE_COLUMNS = (
    "seed_file",
    "source",
    "claim",
    "quote",
    "metric",
    "row",
    "left",
    "relation",
    "right",
    "note",
)
#: Relations of a qualitative claim: ``left <relation> right``, ``right`` a protocol of
#: the same metric and row or a number in the metric's published unit (a threshold).
RELATIONS = ("<", "<=", ">", ">=")
KINDS = ("value", "bound", "realisation", "input", "reference")
#: Kinds whose value is a bound (a qualifier ``<``, ``<=``, ``>``, ``>=``).
BOUND_KINDS = ("bound", "realisation")

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


# What the catalogue, its qualitative claims and its readings all check, with one message
# each: a file that breaks a rule says so the same way whichever of them it is.


def _require_columns(frame: pd.DataFrame, path, columns: tuple[str, ...]) -> None:
    if tuple(frame.columns) != columns:
        raise ValueError(f"{path}: columns must be {list(columns)}, found {list(frame.columns)}")


def _require_filled(frame: pd.DataFrame, path, columns, optional) -> None:
    """Every column of ``columns`` but the ``optional`` ones has text in every row."""
    for column in columns:
        if column in optional:
            continue
        empty = frame.index[frame[column].str.strip() == ""]
        if len(empty):
            raise ValueError(f"{path}: empty {column!r} in data row(s) {list(empty + 1)}")


def _require_seed_files(frame: pd.DataFrame, path, study: Study) -> None:
    wrong_seed = sorted(set(frame["seed_file"]) - set(study.seed_files))
    if wrong_seed:
        raise ValueError(f"{path}: seed files {wrong_seed} do not belong to {study.name!r}")


def _require_known(path, what: str, values, known) -> None:
    """``values`` are all among ``known``; ``what`` names them in the message."""
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise ValueError(f"{path}: unknown {what} {unknown}; known: {list(known)}")


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
    path = paths.published_dir() / f"{study.published_name}.csv"
    if not path.is_file():
        raise FileNotFoundError(f"no published values for {study.name!r}: {path} is missing")
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    if tuple(frame.columns) == COLUMNS[: -len(CLAIM_COLUMNS)]:
        # A catalogue without the claim columns: every row its own claim, none derived.
        frame["claim"] = np.where(
            frame["kind"] == "reference", "", frame["protocol"] + " " + frame["metric"] + " "
            + frame["row"],
        )  # fmt: skip
        frame["derived_from"] = frame["by_construction"] = ""
    _require_columns(frame, path, COLUMNS)
    if frame.empty:
        raise ValueError(f"{path} has no rows")
    _require_filled(frame, path, COLUMNS, optional=_OPTIONAL)
    _require_seed_files(frame, path, study)
    _require_known(path, "protocol(s)", frame["protocol"], PROTOCOLS)
    _require_known(path, "kind(s)", frame["kind"], KINDS)
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
    missing_claim = frame[(frame["kind"] != "reference") & (frame["claim"].str.strip() == "")]
    if len(missing_claim):
        raise ValueError(
            f"{path}: every row but a reference names its claim:\n"
            f"{missing_claim[list(COLUMNS[:8])]}"
        )
    claim_keys = frame[frame["claim"] != ""].groupby("claim")[["protocol", "metric"]].nunique()
    mixed = claim_keys[(claim_keys > 1).any(axis=1)]
    if len(mixed):
        raise ValueError(
            f"{path}: the copies of a claim must share protocol and metric: {list(mixed.index)}"
        )
    for i, text in enumerate(frame["derived_from"]):
        match = _MEAN_OF.match(text)
        if (
            match
            and not (
                (frame["source"] == match["source"])
                & (frame["seed_file"] == frame.at[i, "seed_file"])
                & (frame["protocol"] == frame.at[i, "protocol"])
                & (frame["metric"] == frame.at[i, "metric"])
                & (frame.index != i)
            ).any()
        ):
            raise ValueError(
                f"{path} data row {i + 1}: derived_from {text!r} names no rows of the same "
                "seed, protocol and metric"
            )
    # A reference may be a bound (ITU-T "<= 150 ms") without being a result.
    bound_value = frame["qualifier"].isin(BOUNDS) & (frame["kind"] != "reference")
    wrong = frame[frame["kind"].isin(BOUND_KINDS) != bound_value]
    if len(wrong):
        raise ValueError(
            f"{path}: kind 'bound' needs a <, <=, >, >= value (so does 'realisation') and "
            f"such a value needs one of {list(BOUND_KINDS)} (or 'reference'):\n"
            f"{wrong[list(COLUMNS[:8])]}"
        )
    wrong = frame[(frame["kind"] == "reference") != frame["protocol"].isin(REFERENCES)]
    if len(wrong):
        raise ValueError(
            f"{path}: {list(REFERENCES)} rows, and only they, are of kind 'reference':\n"
            f"{wrong[list(COLUMNS[:8])]}"
        )
    return frame


def derived_mean(frame: pd.DataFrame, index) -> float:
    """The mean a ``mean of <source>`` row of :func:`load`'s ``frame`` derives from: the
    plain mean of that source's rows of the same seed, protocol and metric (the row itself
    left out); NaN for a row that is not such a mean."""
    row = frame.loc[index]
    match = _MEAN_OF.match(row["derived_from"])
    if not match:
        return math.nan
    rows = frame[
        (frame["source"] == match["source"])
        & (frame["seed_file"] == row["seed_file"])
        & (frame["protocol"] == row["protocol"])
        & (frame["metric"] == row["metric"])
        & (frame.index != index)
    ]
    return float(rows["value"].mean())


def load_qualitative(study: Study) -> pd.DataFrame:
    """The qualitative claims of ``study`` (``data/published/qualitative/<study>.csv``),
    checked; an empty frame with :data:`QUALITATIVE_COLUMNS` when the study has none.

    ``right`` is kept as text (a protocol or a number); ``threshold`` is its number (NaN
    for a protocol). Raises ``ValueError`` for unknown columns, an empty required field,
    a seed file not of the study, an unknown relation or protocol, and a metric that
    ``data/published/<study>.csv`` does not have.
    """
    study = require_study(study)
    path = paths.published_dir() / "qualitative" / f"{study.name}.csv"
    if not path.is_file():
        return pd.DataFrame(columns=[*QUALITATIVE_COLUMNS, "threshold"])
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    _require_columns(frame, path, QUALITATIVE_COLUMNS)
    _require_filled(frame, path, QUALITATIVE_COLUMNS, optional=("note",))
    _require_seed_files(frame, path, study)
    _require_known(path, "relation(s)", frame["relation"], RELATIONS)
    threshold = pd.to_numeric(frame["right"], errors="coerce")
    protocols = set(frame["left"]) | set(frame.loc[threshold.isna(), "right"])
    _require_known(path, "protocol(s)", protocols, PROTOCOLS)
    metrics = set(load(study)["metric"])
    unknown = sorted(set(frame["metric"]) - metrics)
    if unknown:
        raise ValueError(f"{path}: metric(s) {unknown} are not in data/published/{study.name}.csv")
    frame["threshold"] = threshold.astype(float)
    return frame


#: Columns of ``data/published/readings/<study>.csv``: the readings a comparison rests on
#: (what an unstated quantity or definition was taken to be) and how each was chosen.
READING_COLUMNS = ("reading", "value", "chosen", "affects", "looked_at", "evidence")
#: ``a priori``: fixed before any comparison (a stated default, a script); ``post hoc``:
#: chosen after comparing, with ``evidence``. A reading chosen from published numbers names
#: them in ``looked_at`` (``<PROTOCOL> <metric>``): those rows must be of kind ``input``.
CHOSEN = ("a priori", "post hoc")


def load_readings(study: Study) -> pd.DataFrame:
    """The readings of ``study`` (``data/published/readings/<study>.csv``), checked: known
    columns and ``chosen``, evidence for every post-hoc reading, metrics the catalogue has,
    and every row a reading was chosen from (``looked_at``) of kind ``input``. An empty
    frame when the study declares none."""
    study = require_study(study)
    path = paths.published_dir() / "readings" / f"{study.name}.csv"
    if not path.is_file():
        return pd.DataFrame(columns=list(READING_COLUMNS))
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    _require_columns(frame, path, READING_COLUMNS)
    _require_known(path, "'chosen'", frame["chosen"], CHOSEN)
    if ((frame["chosen"] == "post hoc") & (frame["evidence"].str.strip() == "")).any():
        raise ValueError(f"{path}: a post-hoc reading needs its evidence")
    catalogue = load(study)
    metrics = set(catalogue["metric"])
    for _, reading in frame.iterrows():
        affected = set(reading["affects"].split(";")) - {"*"}
        if affected - metrics:
            raise ValueError(f"{path}: {reading['reading']!r} affects unknown metric(s) "
                             f"{sorted(affected - metrics)}")  # fmt: skip
        for pair in filter(None, reading["looked_at"].split(";")):
            protocol, _, metric = pair.strip().partition(" ")
            rows = catalogue[(catalogue["protocol"] == protocol) & (catalogue["metric"] == metric)]
            if rows.empty or (rows["kind"] != "input").any():
                raise ValueError(
                    f"{path}: {reading['reading']!r} was chosen from {pair!r}, so those rows "
                    "must exist and be of kind 'input'"
                )
    return frame


def readings_of(readings: pd.DataFrame, protocol: str, metric: str) -> pd.DataFrame:
    """The post-hoc readings a (protocol, metric) rests on, without those chosen from its
    own numbers (those rows are ``input``)."""
    if readings.empty:
        return readings
    affects = readings["affects"].map(lambda text: metric in text.split(";") or text == "*")
    own = readings["looked_at"].map(
        lambda text: f"{protocol} {metric}" in [p.strip() for p in text.split(";")]
    )
    return readings[affects & ~own & (readings["chosen"] == "post hoc")]


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
