"""The summary of every study's comparison: ``data/results[/quick]/summary.csv``.

Above the engine, beside the command line: it lists the registered studies
(:mod:`transportlab.studies`) and reads the ``comparison.csv`` each one wrote
(:class:`transportlab.engine.results.Results`); ``summary-counts.csv`` counts the verdicts
per study and over all.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pandas as pd

from transportlab.engine import paths
from transportlab.engine.files import write_csv, write_text
from transportlab.engine.verdicts import MIN_RUNS, VERDICTS
from transportlab.studies import names

__all__ = [
    "SUMMARY_COLUMNS",
    "collect_summary",
    "format_brief",
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
    """Write ``summary.csv`` (every comparison row), ``summary-counts.csv``
    (:func:`summary_counts`) and ``summary.txt`` (:func:`format_summary`, the table as
    text) into the results folder; returns the first."""
    folder = paths.results_dir(quick=quick)
    write_csv(summary_counts(summary), folder / "summary-counts.csv")
    write_text(folder / SUMMARY_TEXT, format_summary(summary) + "\n")
    return write_csv(summary, folder / "summary.csv")


#: The whole summary as a text table, beside summary.csv (too wide for a terminal).
SUMMARY_TEXT = "summary.txt"


def format_brief(summary: pd.DataFrame, quick: bool, width: int = 88) -> str:
    """What ``transportlab reproduce`` prints at its end: one line per study (comparison
    rows, verdict counts, folder), where everything is, and in quick mode why most
    verdicts are ``too-few-runs``. At most ``width`` characters a line."""
    root = paths.project_root()
    folder = paths.results_dir(quick=quick)
    mode = "quick" if quick else "full"
    if summary.empty:
        return f"no comparison rows in {_relative(folder, root)}"
    counts = summary_counts(summary).set_index("study")
    studies = [name for name in counts.index if name != "all"]
    name_width = max(len(name) for name in studies)
    plural = "study" if len(studies) == 1 else "studies"
    lines = [f"{len(summary)} comparison rows of {len(studies)} {plural} ({mode} mode):"]
    for name in studies:
        row = counts.loc[name]
        verdicts = ", ".join(
            f"{int(row[label])} {label}" for label in counts.columns[:-1] if row[label]
        )
        lines += textwrap.wrap(
            f"{name:<{name_width}}  {int(row['total'])} rows: {verdicts}",
            width=width,
            subsequent_indent=" " * (name_width + 4),
        )
    figures = paths.figures_dir(quick=quick)
    lines += [
        "",
        f"tables:  {_relative(folder, root)}/<study>/ (comparison.csv, result tables, "
        "provenance.json)",
        f"figures: {_relative(figures, root)}/<study>/ (PNG and SVG)",
        f"every row: {_relative(folder / 'summary.csv', root)} (as text: {SUMMARY_TEXT},",
        "           verdict counts: summary-counts.csv)",
    ]
    if quick:
        fewer = int(counts.loc["all"].get("too-few-runs", 0))
        runs = pd.to_numeric(summary.get("n_runs"), errors="coerce").dropna()
        runs = runs[runs > 0]
        spread = f"{int(runs.min())}-{int(runs.max())}" if len(runs) else "few"
        spread = spread if len(runs) == 0 or runs.min() != runs.max() else str(int(runs.min()))
        too_few = (
            f", so {fewer} of {len(summary)} rows are too-few-runs, as expected" if fewer else ""
        )
        lines += [""] + textwrap.wrap(
            f"Quick mode runs {spread} replications per point to check the whole pipeline "
            f"in minutes; a verdict on a stochastic row needs at least {MIN_RUNS} "
            f"runs{too_few}. The verdicts the project reports are full mode's, committed in "
            "data/results/<study>/ (README, Results); `transportlab reproduce --dry-run` "
            "counts full mode's simulations.",
            width=width,
        )
    return "\n".join(lines)


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


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
