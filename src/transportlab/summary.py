"""The summary of every study's comparison, counted by claim: ``data/results[/quick]/``.

Above the engine, beside the command line: it lists the registered studies
(:mod:`transportlab.studies`) and reads the ``comparison.csv`` and ``qualitative.csv``
each one wrote (:class:`transportlab.engine.results.Results`). Files:

* ``summary.csv``: every comparison row of every study (its ``role``: ``claim`` for a
  copy of an independent published number, ``derived`` for a number computed from
  others);
* ``summary-claims.csv``: one row per claim (:func:`transportlab.engine.verdicts.claims`:
  the copies of one number in seeds 000 and 004 are one claim);
* ``summary-qualitative.csv``: every relation of every qualitative claim;
* ``summary-counts.csv`` (:func:`summary_counts`): per study and over all, the verdicts
  of the claims, of the derived rows and of the qualitative claims, each counted apart,
  with the flags on matches; a study without seeds (the template,
  ``bottleneck_example``) is listed as ``template`` and left out of the totals;
* ``summary-row-counts.csv``: the verdicts of every comparison row (the old count);
* full mode only: ``tolerance-calibration.csv`` (the copies behind the default
  tolerance, :func:`tolerance_calibration`) and ``tolerance-sensitivity.csv`` (the
  claims' verdicts under uniform tolerances of 5-30 %, :func:`tolerance_sensitivity`,
  from the committed comparisons without simulating).
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from transportlab.best_configuration import best_configuration_block
from transportlab.engine import paths, published, verdicts
from transportlab.engine.files import write_csv, write_text
from transportlab.engine.verdicts import FLAGS, MIN_RUNS, VERDICTS
from transportlab.headlines import HEADLINE_BLOCKS, headline_blocks
from transportlab.ns2.baseline import baseline_counts
from transportlab.studies import get, names

__all__ = [
    "COUNTED",
    "SENSITIVITY_TOLERANCES",
    "SUMMARY_COLUMNS",
    "collect_qualitative",
    "collect_summary",
    "format_brief",
    "format_summary",
    "row_counts",
    "seed_studies",
    "summary_counts",
    "tolerance_calibration",
    "tolerance_sensitivity",
    "write_summary",
]

SUMMARY_COLUMNS = [
    "study", "source", "protocol", "metric", "row", "unit", "published", "reproduced",
    "n_runs", "ratio", "verdict",
]  # fmt: skip
#: What summary-counts.csv counts apart: independent claims, derived rows, qualitative
#: claims; a study without seeds is a ``template``.
COUNTED = ("claims", "derived", "qualitative")
#: The uniform tolerances of the sensitivity table.
SENSITIVITY_TOLERANCES = (0.05, 0.10, 0.15, 0.20, 0.25, 0.30)


def seed_studies() -> list[str]:
    """The registered studies that reproduce a seed (the template has none)."""
    return [name for name in names() if get(name).seed_files]


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


def collect_qualitative(quick: bool) -> pd.DataFrame:
    """Every registered study's ``qualitative.csv`` (quick or full mode) in one table."""
    frames = [
        pd.read_csv(path, keep_default_na=False, na_values=[""])
        for name in names()
        if (path := paths.results_dir(name, quick) / "qualitative.csv").is_file()
    ]
    if not frames:
        return pd.DataFrame(columns=list(verdicts.QUALITATIVE_RESULT_COLUMNS))
    return pd.concat(frames, ignore_index=True)


def _roles(summary: pd.DataFrame) -> pd.Series:
    if "role" in summary:
        return summary["role"].astype(object).fillna("claim").replace("", "claim")
    return pd.Series("claim", index=summary.index)


def _with_claims(summary: pd.DataFrame) -> pd.DataFrame:
    """A comparison without claim columns (an old one, or the template's): each row its
    own claim."""
    summary = summary.copy()
    summary["role"] = _roles(summary)
    for column in ("claim", "flags", "seed_file", "source"):
        # Empty in every row (the template's comparison): read as NaN floats.
        summary[column] = (
            summary[column].astype(object).fillna("").astype(str) if column in summary else ""
        )
    missing = summary["claim"] == ""
    key = summary.loc[missing].reindex(columns=["protocol", "metric", "row"], fill_value="")
    key = key.astype(str)
    summary.loc[missing, "claim"] = key["protocol"] + " " + key["metric"] + " " + key["row"]
    return summary


def _count(table: pd.DataFrame, verdict: str, flags: pd.Series | None) -> dict:
    labels = list(VERDICTS) + sorted(set(table[verdict]) - set(VERDICTS))
    counts = {label: int((table[verdict] == label).sum()) for label in labels}
    for flag in FLAGS:
        counts[flag] = 0 if flags is None else int(flags.str.split("; ").map(
            lambda found, flag=flag: flag in found).sum())  # fmt: skip
    counts["total"] = len(table)
    return counts


def summary_counts(
    summary: pd.DataFrame, qualitative: pd.DataFrame | None = None, tolerance=None
) -> pd.DataFrame:
    """Verdict counts per study and over all (``all``), of claims, derived rows and
    qualitative claims apart (column ``counted``).

    ``claims``: one per claim (:func:`transportlab.engine.verdicts.claims` folds the
    copies); ``derived``: every ``derived`` row; ``qualitative``: one per qualitative
    claim (its ``claim_verdict``). One column per label of
    :data:`transportlab.engine.verdicts.VERDICTS` (zeros kept), then any other label a
    study uses, then the flags (claims flagged, not verdicts) and ``total``. A study
    without seeds is counted as ``template``, outside ``all``.
    """
    qualitative = (
        pd.DataFrame(columns=list(verdicts.QUALITATIVE_RESULT_COLUMNS))
        if qualitative is None
        else qualitative
    )
    records = []
    templates = set(summary["study"]) - set(seed_studies()) if "study" in summary else set()
    summary = _with_claims(summary) if len(summary) else summary
    claims = verdicts.claims(summary, tolerance) if len(summary) else pd.DataFrame(
        columns=list(verdicts.CLAIM_COLUMNS))  # fmt: skip
    derived = summary[_roles(summary) == "derived"] if len(summary) else summary
    asked = qualitative.drop_duplicates(["study", "claim"]) if len(qualitative) else qualitative
    tables = {
        "claims": (claims, "verdict", claims["flags"].fillna("") if len(claims) else None),
        "derived": (derived, "verdict", derived["flags"] if len(derived) else None),
        "qualitative": (asked, "claim_verdict", None),
    }
    studies = sorted(set(summary["study"]) if len(summary) else set())
    studies += sorted(set(asked["study"]) - set(studies)) if len(asked) else []
    for study in studies:
        for counted, (table, verdict, flags) in tables.items():
            if study in templates and counted != "claims":
                continue
            mine = table[table["study"] == study] if len(table) else table
            if study not in templates and counted != "claims" and mine.empty:
                continue
            records.append({
                "study": study, "counted": "template" if study in templates else counted,
                **_count(mine, verdict, None if flags is None else flags[mine.index]),
            })  # fmt: skip
    for counted, (table, verdict, flags) in tables.items():
        ours = table[~table["study"].isin(templates)] if len(table) else table
        records.append({
            "study": "all", "counted": counted,
            **_count(ours, verdict, None if flags is None else flags[ours.index]),
        })  # fmt: skip
    counts = pd.DataFrame(records).fillna(0)
    labels = [c for c in counts.columns if c not in ("study", "counted", *FLAGS, "total")]
    counts = counts[["study", "counted", *labels, *FLAGS, "total"]]
    return counts.astype({c: int for c in counts.columns[2:]})


def row_counts(summary: pd.DataFrame) -> pd.DataFrame:
    """Verdict counts of every comparison row per study and over all (``all``): the
    count before claims (copies and derived rows each counted)."""
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


def tolerance_calibration() -> pd.DataFrame:
    """The copies of one claim in two seeds (every seed study's catalogue), each with its
    relative difference: what :data:`transportlab.engine.verdicts.DEFAULT_TOLERANCE`
    is calibrated on (:func:`transportlab.engine.verdicts.calibrate_tolerance`)."""
    frames = []
    for name in seed_studies():
        pairs = verdicts.copy_pairs(published.load(get(name)))
        if len(pairs):
            frames.append(pairs.assign(study=name))
    if not frames:
        return pd.DataFrame(columns=["study", "claim", "seed_a", "value_a", "seed_b", "value_b",
                                     "relative_difference"])  # fmt: skip
    table = pd.concat(frames, ignore_index=True)
    return table[["study", *[c for c in table.columns if c != "study"]]]


def tolerance_sensitivity(
    tolerances: Sequence[float] = SENSITIVITY_TOLERANCES,
) -> pd.DataFrame:
    """The claims' verdict counts over all seed studies under each uniform tolerance,
    from the committed full-mode comparisons (:func:`transportlab.engine.verdicts.rejudge`,
    no simulation): one row per tolerance, the verdicts and flags of
    :func:`summary_counts` (``counted == "claims"``, study ``all``) and the derived rows'
    and qualitative claims' ``matches``."""
    rows = []
    for tolerance in tolerances:
        frames = [
            verdicts.rejudge(get(name), tolerance=tolerance)
            for name in seed_studies()
            if (paths.results_dir(name, quick=False) / "comparison.csv").is_file()
        ]
        summary = pd.concat(frames, ignore_index=True)
        qualitative = pd.concat(
            [verdicts.judge_qualitative(get(frame["study"].iloc[0]), frame) for frame in frames],
            ignore_index=True,
        )
        counts = summary_counts(summary, qualitative, tolerance).set_index(["study", "counted"])
        claims = counts.loc[("all", "claims")]
        rows.append({
            "tolerance": tolerance, **claims.to_dict(),
            "derived matches": int(counts.loc[("all", "derived"), "matches"]),
        })  # fmt: skip
    return pd.DataFrame(rows)


def write_summary(summary: pd.DataFrame, quick: bool) -> Path:
    """Write ``summary.csv`` (every comparison row), ``summary-claims.csv``,
    ``summary-qualitative.csv``, ``summary-counts.csv`` (:func:`summary_counts`),
    ``summary-row-counts.csv`` (:func:`row_counts`), ``summary.txt`` (:func:`format_summary`,
    the table as text) and, in full mode, the tolerance's calibration and sensitivity into
    the results folder; returns the first."""
    folder = paths.results_dir(quick=quick)
    qualitative = collect_qualitative(quick)
    full = _with_claims(summary) if len(summary) else summary
    claims = verdicts.claims(full) if len(full) else pd.DataFrame(columns=verdicts.CLAIM_COLUMNS)
    write_csv(claims, folder / "summary-claims.csv", float_format="%.6g")
    write_csv(qualitative, folder / "summary-qualitative.csv", float_format="%.6g")
    write_csv(summary_counts(summary, qualitative), folder / "summary-counts.csv")
    write_csv(row_counts(summary), folder / "summary-row-counts.csv")
    if not quick and len(summary):
        write_csv(
            tolerance_calibration(), folder / "tolerance-calibration.csv", float_format="%.6g"
        )
        write_csv(tolerance_sensitivity(), folder / "tolerance-sensitivity.csv")
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
    counts = row_counts(summary).set_index("study")
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
        "           row verdicts: summary-row-counts.csv;",
        "           claims counted: summary-counts.csv)",
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
    counts = counts.loc[:, (counts != 0).any() | counts.columns.isin(["study", "counted", "total"])]
    return shown.to_string(index=False) + "\n\n" + counts.to_string(index=False)


# ------------------------------------------------------------------ README blocks

#: The blocks of the README generated from the committed tables: name -> (file, renderer).
README_BLOCKS = (
    "verdict-counts", "tolerance-calibration", "tolerance-sensitivity", "claim-totals",
    "ns2-baseline", "best-configuration", *HEADLINE_BLOCKS,
)  # fmt: skip
_SHOWN_FLAGS = {"non-discriminating": "non-discr.", "coincidental": "coincid.",
                "ordering-reversed": "order rev.", "post-hoc": "post hoc"}  # fmt: skip


def _markdown(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _counts_block(counts: pd.DataFrame) -> str:
    labels = [c for c in counts.columns[2:] if c not in (*FLAGS, "total")]
    labels = [c for c in labels if (counts[c] != 0).any()]
    header = ["study", "counted", "total", *(f"`{c}`" for c in labels),
              *(_SHOWN_FLAGS[f] for f in FLAGS)]  # fmt: skip
    rows = []
    for _, r in counts.iterrows():
        study = f"**{r['study']}**" if r["study"] == "all" else f"`{r['study']}`"
        rows.append([study, r["counted"], r["total"], *(r[c] for c in labels),
                     *(r[f] for f in FLAGS)])  # fmt: skip
    return _markdown(header, rows)


def _calibration_block(table: pd.DataFrame) -> str:
    directed = pd.concat([
        (table["value_a"] - table["value_b"]).abs() / table["value_b"].abs(),
        (table["value_a"] - table["value_b"]).abs() / table["value_a"].abs(),
    ])  # fmt: skip
    tolerance = verdicts.calibrate_tolerance(zip(table["value_a"], table["value_b"], strict=True))
    return (
        f"The default tolerance is calibrated on the seeds' own reproducibility: seeds 000 and "
        f"004 print the same NS-2 experiment, and their {len(table)} common numbers differ by "
        f"a median of {directed.median():.1%} and at most {directed.max():.1%} (each copy "
        f"taken once as the other's reproduction); the "
        f"{verdicts.CALIBRATION_QUANTILE:.0%} quantile, "
        f"{directed.quantile(verdicts.CALIBRATION_QUANTILE):.1%}, "
        f"rounded up to {verdicts.CALIBRATION_STEP:.0%} steps gives **{tolerance:.0%}** "
        f"(`data/results/tolerance-calibration.csv`)."
    )


def _sensitivity_block(table: pd.DataFrame) -> str:
    labels = [c for c in table.columns[1:] if c not in ("total", "derived matches")]
    labels = [c for c in labels if (table[c] != 0).any()]
    header = ["tolerance", *(f"`{c}`" if c not in FLAGS else _SHOWN_FLAGS[c] for c in labels),
              "derived `matches`"]  # fmt: skip
    rows = [[f"{r['tolerance']:.0%}", *(int(r[c]) for c in labels), int(r["derived matches"])]
            for _, r in table.iterrows()]  # fmt: skip
    return _markdown(header, rows)


def _totals_block(counts: pd.DataFrame, rows: pd.DataFrame) -> str:
    by = counts.set_index(["study", "counted"])
    template = counts.loc[counts["counted"] == "template", "total"].sum()
    claims, derived = by.loc[("all", "claims")], by.loc[("all", "derived")]
    qualitative = by.loc[("all", "qualitative")]
    return (
        f"the {rows.set_index('study').loc['all', 'total']} comparison rows "
        f"(`summary-row-counts.csv`) are {claims['total']} claims ({claims['matches']} "
        f"`matches`, {claims['consistent']} `consistent`, {claims['contradicts']} "
        f"`contradicts`, {claims['by-construction']} `by-construction`), {derived['total']} "
        f"derived rows ({derived['matches']} `matches`) and {template} template rows, and "
        f"{qualitative['total']} qualitative claims ({qualitative['matches']} `matches`, "
        f"{qualitative['contradicts']} `contradicts`)."
    )


def _ns2_baseline_counts(table: pd.DataFrame) -> list:
    """One line of the NS-2 baseline block: rows, rows with NS-2, NS-2 runs and both
    judgements counted (in brackets the ``consistent`` ones)."""
    total = baseline_counts(table, by=["protocol"]).set_index("protocol").loc["all"]
    runs = pd.to_numeric(table["ns2_runs"], errors="coerce").dropna()
    spread = f"{int(runs.min())}" if runs.min() == runs.max() else (
        f"{int(runs.min())}-{int(runs.max())}")  # fmt: skip
    consistent = {
        column: int((table[f"paper_vs_{column}"] == "consistent").sum())
        for column in ("ns2", "ns3")
    }
    return [
        total["rows"], total["with_ns2"], spread,
        f"{total['paper_matches_ns2']} (+{consistent['ns2']})",
        f"{total['paper_matches_ns3']} (+{consistent['ns3']})",
        total["ns3_within_tolerance_of_ns2"],
    ]  # fmt: skip


def _ns2_baseline_block(folder: Path) -> str:
    """Per seed study, both judgements of its committed ``ns2_baseline.csv``
    (:func:`transportlab.ns2.baseline.baseline_counts`; in brackets the further rows whose
    mean lies within the tolerance while its interval does not, ``consistent``); a study
    without one is named. A table with key columns before ``seed_file`` (the VoIP study's
    ``topology``: its two readings of the seed's network) gets one line per value."""
    rows = []
    for name in seed_studies():
        path = folder / name / "ns2_baseline.csv"
        if not path.is_file():
            rows.append([f"`{name}`", "no NS-2 baseline", "", "", "", "", ""])
            continue
        table = pd.read_csv(path, keep_default_na=False, na_values=[""])
        extra = list(table.columns[: table.columns.get_loc("seed_file")])
        parts = table.groupby(extra, sort=False) if extra else [((), table)]
        for key, part in parts:
            key = key if isinstance(key, tuple) else (key,)
            label = f"`{name}`" + "".join(f" ({value})" for value in key)
            rows.append([label, *_ns2_baseline_counts(part)])
    header = ["study", "published rows", "with NS-2", "NS-2 runs",
              "paper agrees with NS-2 (+consistent)", "paper agrees with ns-3 (+consistent)",
              "ns-3 within tolerance of NS-2"]  # fmt: skip
    return _markdown(header, rows)


def readme_blocks(folder: Path | None = None) -> dict[str, str]:
    """The README's generated blocks, rendered from the committed full-mode tables."""
    folder = paths.results_dir(quick=False) if folder is None else folder
    return {
        "verdict-counts": _counts_block(pd.read_csv(folder / "summary-counts.csv")),
        "tolerance-calibration": _calibration_block(
            pd.read_csv(folder / "tolerance-calibration.csv")
        ),
        "tolerance-sensitivity": _sensitivity_block(
            pd.read_csv(folder / "tolerance-sensitivity.csv")
        ),
        "claim-totals": _totals_block(
            pd.read_csv(folder / "summary-counts.csv"),
            pd.read_csv(folder / "summary-row-counts.csv"),
        ),
        "ns2-baseline": _ns2_baseline_block(folder),
        "best-configuration": best_configuration_block(folder),
        **headline_blocks(folder),  # the results table's headlines, the NS-2 paragraphs
    }


def _block_pattern(name: str) -> re.Pattern:
    return re.compile(
        rf"(<!-- generated: {re.escape(name)} [^>]*-->\n)(.*?)(^<!-- end: {re.escape(name)} -->)",
        re.S | re.M,
    )


def readme_text(text: str, blocks: dict[str, str]) -> str:
    """``text`` (the README) with every generated block replaced by its rendering; a
    block the README lacks is an error."""
    for name, body in blocks.items():
        pattern = _block_pattern(name)
        if not pattern.search(text):
            raise ValueError(f"the README has no generated block {name!r}")
        text = pattern.sub(lambda m, body=body: m.group(1) + body + "\n" + m.group(3), text)
    return text


def readme_block(text: str, name: str) -> str:
    """The current body of the README's generated block ``name``."""
    match = _block_pattern(name).search(text)
    if match is None:
        raise ValueError(f"the README has no generated block {name!r}")
    return match.group(2).removesuffix("\n")


def update_readme(path: Path | None = None) -> Path:
    """Render the generated blocks of the README from the committed tables (atomic)."""
    path = paths.project_root() / "README.md" if path is None else path
    return write_text(path, readme_text(path.read_text(encoding="utf-8"), readme_blocks()))
