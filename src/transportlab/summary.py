"""The summary of every study's comparison: ``data/results[/quick]/summary.csv``.

Above the engine, beside the command line: it lists the registered studies
(:mod:`transportlab.studies`) and reads the ``comparison.csv`` each one wrote
(:class:`transportlab.engine.results.Results`); ``summary-counts.csv`` counts the verdicts
per study and over all.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from transportlab.engine import paths
from transportlab.engine.files import write_csv
from transportlab.engine.verdicts import VERDICTS
from transportlab.studies import names

__all__ = [
    "SUMMARY_COLUMNS",
    "collect_summary",
    "format_summary",
    "summary_counts",
    "write_summary",
]

SUMMARY_COLUMNS = [
    "study", "source", "protocol", "metric", "row", "unit", "published", "reproduced",
    "n_runs", "ratio", "verdict",
]  # fmt: skip


def collect_summary(quick: bool) -> pd.DataFrame:
    """Every registered study's ``comparison.csv`` (quick or full mode) in one table."""
    frames = []
    for name in names():
        path = paths.results_dir(name, quick) / "comparison.csv"
        if path.is_file():
            frame = pd.read_csv(path, keep_default_na=False, na_values=[""])
            if "study" not in frame:
                frame.insert(0, "study", name)
            frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    return pd.concat(frames, ignore_index=True)


def summary_counts(summary: pd.DataFrame) -> pd.DataFrame:
    """Verdict counts per study and over all studies (the row ``all``).

    One column per label of :data:`transportlab.engine.verdicts.VERDICTS` (zeros kept, so
    every table has the same columns), then any other label a study's own comparison
    uses, then ``total``.
    """
    labels = list(VERDICTS)
    if "verdict" in summary and len(summary):
        labels += sorted(set(summary["verdict"].dropna()) - set(VERDICTS))
        counts = summary.groupby("study")["verdict"].value_counts().unstack(fill_value=0)
        counts = counts.reindex(columns=labels, fill_value=0)
    else:
        counts = pd.DataFrame(columns=labels, dtype=int)
    counts.loc["all"] = counts.sum()
    counts["total"] = counts[labels].sum(axis=1)
    counts.index.name = "study"
    counts.columns.name = None
    return counts.astype(int).reset_index()


def write_summary(summary: pd.DataFrame, quick: bool) -> Path:
    """Write ``summary.csv`` (every comparison row) and ``summary-counts.csv``
    (:func:`summary_counts`) into the results folder; returns the first."""
    folder = paths.results_dir(quick=quick)
    write_csv(summary_counts(summary), folder / "summary-counts.csv")
    return write_csv(summary, folder / "summary.csv")


def _format_number(value: object) -> str:
    """A number to four significant digits; a published value as printed ("~7", ">3")."""
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)) or pd.isna(value):
        return ""
    return f"{value:.4g}"


def format_summary(summary: pd.DataFrame) -> str:
    if summary.empty:
        return "no comparison rows"
    shown = summary[[c for c in SUMMARY_COLUMNS if c in summary.columns]].copy()
    for column in ("published", "reproduced", "ratio"):
        if column in shown:
            shown[column] = shown[column].map(_format_number)
    counts = summary_counts(summary)
    counts = counts.loc[:, (counts != 0).any() | counts.columns.isin(["study", "total"])]
    return shown.to_string(index=False) + "\n\n" + counts.to_string(index=False)
