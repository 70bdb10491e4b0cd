"""Published / NS-2 / ns-3 per published row: the table every study's NS-2 baseline writes.

A study's ``ns2_baseline.py`` runs its NS-2 variant (:func:`transportlab.ns2.study.ns2_study`)
and compares the published values with it through the study's own ``comparison``
(so with the same metrics, method and tolerance as the ns-3 column), then puts that
comparison beside the ns-3 one with :func:`baseline_table`: per published row the
published value, NS-2's mean, 95 % interval, runs and the verdict *paper vs NS-2*,
ns-3's mean, interval, runs and verdict, and ns-3 / NS-2 with whether ns-3 lies within
the metric's tolerance of NS-2 (``|ns3 - ns2| <= tol |ns2|``: *ns-3 vs NS-2*, not a
verdict of the comparison method). :func:`baseline_counts` counts both judgements.

Where NS-2 cannot produce a published row, the row keeps an empty NS-2 value and says
why (``ns2_note``; :func:`baseline_table`'s ``not_expressible``).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from transportlab.engine import paths, verdicts
from transportlab.engine.published import KEY as CLAIM_KEY
from transportlab.engine.published import load
from transportlab.engine.study import Study

__all__ = [
    "KEY",
    "agrees",
    "baseline_counts",
    "baseline_parser",
    "baseline_table",
    "print_written",
    "published_value",
    "rejudge_baseline",
]

KEY = ["seed_file", "source", "protocol", "metric", "row"]

_COLUMNS = [
    "unit", "kind", "published", "ns2", "ns2_ci_low", "ns2_ci_high", "ns2_runs",
    "published_over_ns2", "paper_vs_ns2", "ns3", "ns3_ci_low", "ns3_ci_high", "ns3_runs",
    "paper_vs_ns3", "ns3_over_ns2", "tolerance", "ns3_within_tolerance_of_ns2",
    "paper_vs_ns2_note", "paper_vs_ns3_note",
]  # fmt: skip


def published_value(printed: pd.Series) -> pd.Series:
    """A published value as a number (``~35`` -> 35, ``<=30`` -> 30, ``>3`` -> 3)."""
    return pd.to_numeric(printed.astype(str).str.lstrip("~<>="), errors="coerce")


def baseline_table(
    ns2: pd.DataFrame,
    ns3: pd.DataFrame,
    *,
    key: Sequence[str] = KEY,
    not_expressible: Mapping[tuple, str] | None = None,
) -> pd.DataFrame:
    """One row per published row: published, NS-2 and ns-3 side by side (module docstring).

    ``ns2`` is the comparison of the published values with NS-2's runs (a
    ``comparison.csv``-shaped frame whose ``attrs["tolerance"]`` holds the tolerance),
    ``ns3`` the same with ns-3's; both must have the ``key`` columns. Rows of ``ns3``
    without an NS-2 counterpart are kept with an empty NS-2 column and, in
    ``paper_vs_ns2_note``, the reason ``not_expressible[(protocol, metric, row)]`` gives
    (or "no NS-2 run").
    """
    key = list(key)
    tolerance = ns2.attrs.get("tolerance") or ns3.attrs.get("tolerance") or {
        "default": 0.2, "per_metric": {}
    }  # fmt: skip
    left = ns2[[*key, "unit", "kind", "published", "reproduced", "ci_low", "ci_high", "n_runs",
                "verdict", "note"]].rename(columns={
        "reproduced": "ns2", "ci_low": "ns2_ci_low", "ci_high": "ns2_ci_high",
        "n_runs": "ns2_runs", "verdict": "paper_vs_ns2", "note": "paper_vs_ns2_note",
    })  # fmt: skip
    right = ns3[[*key, "unit", "kind", "published", "reproduced", "ci_low", "ci_high", "n_runs",
                 "verdict", "note"]].rename(columns={
        "reproduced": "ns3", "ci_low": "ns3_ci_low", "ci_high": "ns3_ci_high",
        "n_runs": "ns3_runs", "verdict": "paper_vs_ns3", "note": "paper_vs_ns3_note",
    })  # fmt: skip
    table = right.merge(left, on=[*key, "unit", "kind", "published"], how="outer",
                        validate="one_to_one")  # fmt: skip
    missing = table["ns2"].isna() & table["paper_vs_ns2"].isna()
    reasons = not_expressible or {}
    table.loc[missing, "paper_vs_ns2_note"] = [
        reasons.get((r.protocol, r.metric, r.row), "no NS-2 run")
        for r in table[missing].itertuples()
    ]
    table["published_over_ns2"] = published_value(table["published"]) / table["ns2"]
    tol = table["metric"].map(lambda m: tolerance["per_metric"].get(m, tolerance["default"]))
    table["tolerance"] = tol.astype(float)
    table["ns3_over_ns2"] = table["ns3"] / table["ns2"]
    within = (table["ns3"] - table["ns2"]).abs() <= table["tolerance"] * table["ns2"].abs()
    table["ns3_within_tolerance_of_ns2"] = within.where(table["ns2"].notna() &
                                                        table["ns3"].notna())  # fmt: skip
    order = {tuple(row): i for i, row in enumerate(ns3[key].itertuples(index=False))}
    table["_order"] = [order.get(tuple(row), len(order)) for row in
                       table[key].itertuples(index=False)]  # fmt: skip
    table = table.sort_values("_order", kind="stable").drop(columns="_order")
    return table[[*key, *_COLUMNS]].reset_index(drop=True)


def agrees(verdicts: pd.Series, notes: pd.Series | None = None) -> pd.Series:
    """Whether a published row agrees with a simulator: verdict ``matches``, or a bound
    that holds (``within-bound``) and not vacuously (the comparison's note says so when
    the value lies 10x inside the bound: such a bound tells nothing)."""
    notes = notes if notes is not None else pd.Series("", index=verdicts.index)
    vacuous = notes.fillna("").astype(str).str.contains("vacuous")
    return (verdicts == "matches") | ((verdicts == "within-bound") & ~vacuous)


def baseline_counts(
    table: pd.DataFrame, by: Sequence[str] = ("protocol", "metric")
) -> pd.DataFrame:
    """Per group of ``by``: published rows, rows with an NS-2 value, rows where the
    published value matches NS-2 (:func:`agrees`), where it matches ns-3, and where ns-3
    is within the tolerance of NS-2; a last row ``all``."""
    by = list(by)
    table = table.assign(
        _ns2=agrees(table["paper_vs_ns2"], table.get("paper_vs_ns2_note")),
        _ns3=agrees(table["paper_vs_ns3"], table.get("paper_vs_ns3_note")),
    )
    grouped = table.groupby(by, sort=True)
    counts = pd.DataFrame({
        "rows": grouped.size(),
        "with_ns2": grouped["ns2"].apply(lambda v: int(v.notna().sum())),
        "paper_matches_ns2": grouped["_ns2"].sum(),
        "paper_matches_ns3": grouped["_ns3"].sum(),
        "ns3_within_tolerance_of_ns2": grouped["ns3_within_tolerance_of_ns2"].apply(
            lambda v: int((v == True).sum())  # noqa: E712 - True, not NaN
        ),
    })  # fmt: skip
    total = ("all",) + ("",) * (len(by) - 1)
    counts.loc[total if len(by) > 1 else "all", :] = counts.sum()
    return counts.astype(int).reset_index()


def rejudge_baseline(study: Study, table: pd.DataFrame | None = None) -> pd.DataFrame:
    """A committed baseline table judged again under the current comparison method,
    without simulating (as :func:`transportlab.engine.verdicts.rejudge` does for a
    ``comparison.csv``).

    ``table`` (default: the committed ``data/results/<study>/ns2_baseline.csv``) keeps its
    numbers; *paper vs NS-2* is judged again from NS-2's means, intervals and runs, and
    *paper vs ns-3* is taken from the committed ``comparison.csv`` (itself re-judged by
    ``scripts/rejudge.py``) where the table's ns-3 column is that comparison's (same
    means); a part of the table with ns-3 values of its own (the VoIP study's trunk
    reading, from ns-3 runs that ``comparison.csv`` does not hold) is judged from them, as
    NS-2's are. A table with further key columns (the VoIP study's ``topology``) is judged
    per value of them. Returns the new table (not written).
    """
    if table is None:
        path = paths.results_dir(study.name, quick=False) / "ns2_baseline.csv"
        table = pd.read_csv(path, keep_default_na=False, na_values=[""])
    extra = [c for c in table.columns[: table.columns.get_loc("seed_file")]]
    committed = pd.read_csv(
        paths.results_dir(study.name, quick=False) / "comparison.csv",
        keep_default_na=False,
        na_values=[""],
    )
    catalogue = load(study)
    realised = set(
        map(tuple, catalogue.loc[catalogue["kind"] == "realisation", CLAIM_KEY].to_numpy())
    )
    groups = table.groupby(extra, sort=False) if extra else [((), table)]
    parts = []
    for _, part in groups:
        part = part.copy()
        ns2 = verdicts.rejudge(study, _as_comparison(part, "ns2", realised))
        from_committed = _is_committed(part, committed)
        ns3 = committed if from_committed else verdicts.rejudge(
            study, _as_comparison(part, "ns3", realised))  # fmt: skip
        for judged, column, means in ((ns2, "ns2", True), (ns3, "ns3", not from_committed)):
            aligned = _aligned(judged, part)
            mine = part[column].notna().to_numpy()
            verdict = aligned["verdict"].to_numpy(dtype=object)
            note = aligned["note"].to_numpy(dtype=object)
            if means:
                _realisations_as_bounds(part, column, realised, verdict, note)
            part.loc[mine, f"paper_vs_{column}"] = verdict[mine]
            part.loc[mine, f"paper_vs_{column}_note"] = note[mine]
        parts.append(part)
    return pd.concat(parts, ignore_index=True)[list(table.columns)]


# ----------------------------------------------------------------------------- command line


def baseline_parser(
    doc: str, *, quick: str, runs: str = "replications (default: main's)"
) -> argparse.ArgumentParser:
    """The command line every study's ``ns2_baseline`` module shares: described by the first
    line of its docstring ``doc``, with ``--quick`` (``quick``: what quick mode runs),
    ``--runs`` (``runs``: its help) and ``--scheduler``; a study adds its own options."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=quick)
    parser.add_argument("--runs", type=int, default=None, help=runs)
    parser.add_argument("--scheduler", default="serial", help="serial, local or an address")
    return parser


def print_written(written: Iterable) -> int:
    """Print the files a baseline's ``write`` wrote, one a line; the command's exit status."""
    for path in written:
        print(Path(path))
    return 0


def _realisations_as_bounds(part, column, realised: set, verdict, note) -> None:
    """A ``realisation`` row (one published trace; keys in ``realised``): where the table
    holds the probability of its event (unit ``ratio``, as a baseline written since the
    realisation kind has), :func:`transportlab.engine.verdicts.judge_realisation` judges
    it; an older table holds the mean of the quantity instead, which is judged against the
    published bound, and the note says so."""
    keys = part[CLAIM_KEY].astype(str).to_numpy()
    mask = np.array([tuple(key) in realised for key in keys], dtype=bool)
    for i in np.flatnonzero(mask & part[column].notna().to_numpy()):
        row = part.iloc[i]
        low, high = row[f"{column}_ci_low"], row[f"{column}_ci_high"]
        if row["unit"] == "ratio":
            verdict[i], why = verdicts.judge_realisation(row[column], low, high,
                                                         row[f"{column}_runs"])  # fmt: skip
            note[i] = f"one published realisation, judged by the share of runs showing it; {why}"
            continue
        bound, qualifier = verdicts._printed(row["published"])
        verdict[i], why = verdicts.judge(bound, row[column], low, high, qualifier=qualifier)
        note[i] = (
            "a realisation, judged here as a bound on the mean (the table keeps means, not "
            f"the per-run values its probability needs); {why}"
        )


def _as_comparison(part: pd.DataFrame, column: str, realised: set = frozenset()) -> pd.DataFrame:
    """The rows of ``part`` with a value in ``column`` (``ns2`` or ``ns3``), shaped as a
    comparison (``reproduced``, ``ci_low``, ``ci_high``, ``n_runs``) for the judge; not the
    ``realised`` keys (means cannot judge a realisation: :func:`_realisations_as_bounds`)."""
    keys = [tuple(key) in realised for key in part[CLAIM_KEY].astype(str).to_numpy()]
    rows = part[part[column].notna() & ~pd.Series(keys, index=part.index, dtype=bool)]
    note = f"paper_vs_{column}_note"
    return rows[[*KEY, "unit", "published"]].assign(
        # a row the catalogue does not hold (a derived row: a mean beside a realisation)
        # is judged again by verdicts.rejudge from its published value, keeping its note
        note=rows[note] if note in rows else "",
        reproduced=rows[column],
        ci_low=rows[f"{column}_ci_low"],
        ci_high=rows[f"{column}_ci_high"],
        n_runs=rows[f"{column}_runs"],
    )


def _aligned(judged: pd.DataFrame, part: pd.DataFrame) -> pd.DataFrame:
    """The rows of the comparison ``judged`` in the order of ``part``'s rows. A number
    printed by two seeds is one row per seed (its own published value)."""
    align = ["seed_file", *CLAIM_KEY]
    found = judged.astype({c: str for c in align}).drop_duplicates(subset=align)
    return found.set_index(align).reindex(pd.MultiIndex.from_frame(part[align].astype(str)))


def _is_committed(part: pd.DataFrame, committed: pd.DataFrame) -> bool:
    """Whether ``part``'s ns-3 means are those of the committed comparison, row by row (a
    ``realisation`` row of the comparison holds a probability, not the mean: skipped)."""
    aligned = _aligned(committed, part)
    realised = aligned["kind"].astype(str).eq("realisation").to_numpy()
    mine = part["ns3"].notna().to_numpy() & ~realised
    theirs = pd.to_numeric(aligned["reproduced"], errors="coerce")
    ours = pd.to_numeric(part["ns3"], errors="coerce")
    return bool(np.allclose(theirs.to_numpy()[mine], ours.to_numpy()[mine], rtol=1e-9))
