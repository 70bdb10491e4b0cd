"""One configuration per study, all metrics: ``data/results/best-configuration.csv``.

For each seed study, every configuration its committed experiment tables hold means
(with 95 % intervals and run counts) for is judged on all the study's claims at once
(:mod:`transportlab.engine.configurations`: the study's own comparison and tolerance,
the claims folded as in ``summary-claims.csv``) and ranked; the declared configuration
(its committed ``comparison.csv``) is one of the candidates. Nothing is simulated: the
candidates are the committed tables, read as they are. A study whose experiments hold no
value for a claim says so (``claims_without_value``); a study whose experiments cannot
be put against its claims at all gets one row saying why.

``scripts/rejudge.py`` writes the file (one row per study and configuration, beside the
other ``summary-*.csv`` files, so a study's own folder and its ``provenance.json`` stay as
its run wrote them); :func:`best_configuration_block` is the README's table of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd

from transportlab.engine import paths
from transportlab.engine.configurations import (
    RANKING,
    committed_tolerance,
    judge_configuration,
    rank_configurations,
)
from transportlab.engine.files import write_csv
from transportlab.engine.provenance import tables_not_rerun
from transportlab.studies import get
from transportlab.studies.voip_cjm.comparison import (
    PUBLISHED_CONFIGURATIONS,
    PUBLISHED_METRICS,
    PUBLISHED_ROWS,
)
from transportlab.studies.wsn_reporting_interval.analysis import METRICS

__all__ = [
    "DECLARED",
    "FILE_NAME",
    "best_configuration_block",
    "best_configurations",
    "declared_reproduced",
    "write_best_configurations",
]

#: The label of the declared configuration (the study's committed comparison).
DECLARED = "declared (comparison.csv)"
_MEAN_COLUMNS = ["protocol", "metric", "row", "unit", "mean", "ci_low", "ci_high", "n_runs"]


def declared_reproduced(folder: Path, study: str) -> pd.DataFrame:
    """The committed comparison's reproduced means as :func:`verdicts.compare` takes them."""
    c = pd.read_csv(folder / study / "comparison.csv", keep_default_na=False, na_values=[""])
    c = c[c.get("role", "claim") == "claim"].rename(columns={"reproduced": "mean"})
    c = c.drop_duplicates(subset=["protocol", "metric", "row"])
    return c[_MEAN_COLUMNS].dropna(subset=["mean"])


def _experiment_means(
    table: pd.DataFrame, keys: list[str], rows: Callable[[pd.Series], Iterator[dict]]
) -> Iterator[tuple[str, pd.DataFrame]]:
    """(label, reproduced means) per combination of ``keys`` of an experiment table."""
    for values, group in table.groupby(keys, sort=False):
        values = values if isinstance(values, tuple) else (values,)
        label = ", ".join(f"{k}: {v}" for k, v in zip(keys, values, strict=True))
        means = [row for _, r in group.iterrows() for row in rows(r)]
        yield label, pd.DataFrame(means, columns=_MEAN_COLUMNS)


# ------------------------------------------------------------------ per study


def _voip_candidates(folder: Path) -> tuple[list[tuple[str, str, pd.DataFrame]], str]:
    load = pd.read_csv(folder / "voip_cjm" / "load.csv")

    def rows(r: pd.Series) -> Iterator[dict]:
        if r["configuration"] not in PUBLISHED_CONFIGURATIONS:
            return
        for metric, (column, unit, _) in PUBLISHED_METRICS.items():
            yield {
                "protocol": PUBLISHED_CONFIGURATIONS[r["configuration"]], "metric": metric,
                "row": PUBLISHED_ROWS[metric], "unit": unit, "mean": r[column],
                "ci_low": r[f"{column}_ci_low"], "ci_high": r[f"{column}_ci_high"],
                "n_runs": r["n_runs"],
            }  # fmt: skip

    candidates = [("main", DECLARED, declared_reproduced(folder, "voip_cjm"))]
    points = _experiment_means(load, ["n_calls", "cross_mbps"], rows)
    candidates += [("load", label, means) for label, means in points]
    note = ("load: 1-min runs (the declared experiment `main` runs 15 min), the network side "
            "(no playout) as the comparison")  # fmt: skip
    return candidates, note


#: The WSN experiments whose tables hold the comparison's metrics per configuration, with
#: the columns that make a configuration.
WSN_EXPERIMENTS = {
    "carrier_sense": ["carrier_sense"],
    "start_mode": ["start_mode"],
    "receiver_lock": ["reception_model"],
    "reception_model": ["reception_model", "carrier_sense"],
    "transport_models": ["stack_preset"],
    "combined": ["links", "carrier_sense"],
    "placements": ["placement_label"],
}


def _wsn_candidates(folder: Path) -> tuple[list[tuple[str, str, pd.DataFrame]], str]:
    def rows(r: pd.Series) -> Iterator[dict]:
        for column, (metric, unit, _) in METRICS.items():
            if column not in r.index:
                continue
            yield {
                "protocol": str(r["protocol"]).upper(), "metric": metric,
                "row": f"data interval {float(r['reporting_interval']):g}", "unit": unit,
                "mean": r[column], "ci_low": r[f"{column}_ci_low"],
                "ci_high": r[f"{column}_ci_high"], "n_runs": r["n_runs"],
            }  # fmt: skip

    candidates = [("intervals", DECLARED, declared_reproduced(folder, "wsn_reporting_interval"))]
    for experiment, keys in WSN_EXPERIMENTS.items():
        path = folder / "wsn_reporting_interval" / f"{experiment}.csv"
        if path.is_file():
            table = pd.read_csv(path)
            candidates += [(experiment, label, means)
                           for label, means in _experiment_means(table, keys, rows)]  # fmt: skip
    stale = tables_not_rerun(folder / "wsn_reporting_interval")
    note = (
        "the declared comparison and the experiments are the 1-Mb/s code"
        + (f" but {', '.join(stale)}, still the 2-Mb/s `clusters` code (provenance.json, "
           "written_by)" if stale else "")
        + "; most experiments ran 3 of the 5 intervals: a claim without a value counts as "
        "not agreeing"
    )  # fmt: skip
    return candidates, note


#: Studies whose experiments cannot be put against their claims, and why.
NOT_COMPARABLE = {
    "wired_best_effort": (
        "tcp_variants, sctp_packet_size and modern hold one mean over all pairs, without "
        "interval or run count; the claims are per pair (Tables 2-4, 4.1-4.6) and Table "
        "4.7's means are derived rows: no experiment holds a value for any claim"
    ),
    "sip_over_sctp": (
        "the experiments other than the comparison's (head_of_line, throughput, "
        "stream_mappings, registration_processing) measure other quantities than the "
        "published ones: no experiment holds a value for any claim"
    ),
    "multihoming_failover": (
        "only `lossy` with SCTP-PF off is Brennan et al.'s setting; its SCTP-PF runs are a "
        "2016 mechanism the seed's SCTP did not have, and the other experiments (presets, "
        "failover_timers, seed_hub, prsctp_voice) measure other quantities: the declared "
        "configuration is the only one"
    ),
}

CANDIDATES = {"voip_cjm": _voip_candidates, "wsn_reporting_interval": _wsn_candidates}


def best_configurations(folder: Path | None = None) -> dict[str, pd.DataFrame]:
    """Per seed study, its ranked configurations
    (:data:`transportlab.engine.configurations.CONFIGURATION_COLUMNS`); the claims a
    configuration could be judged on are the study's claims in ``summary-claims.csv``."""
    folder = paths.results_dir(quick=False) if folder is None else folder
    claims = pd.read_csv(folder / "summary-claims.csv")["study"].value_counts()
    out = {}
    for name in (*CANDIDATES, *NOT_COMPARABLE):
        if name in NOT_COMPARABLE:
            study = get(name)
            declared = judge_configuration(
                study, declared_reproduced(folder, name), committed_tolerance(name)
            )
            table = rank_configurations(
                {DECLARED: declared}, DECLARED, study=name, experiment="comparison",
                all_claims=int(claims.get(name, len(declared))),
            )  # fmt: skip
            table["note"] = NOT_COMPARABLE[name]
            out[name] = table
            continue
        study, tolerance = get(name), committed_tolerance(name)
        candidates, note = CANDIDATES[name](folder)
        judged = {label: judge_configuration(study, means, tolerance)
                  for _, label, means in candidates}  # fmt: skip
        experiments = {label: experiment for experiment, label, _ in candidates}
        table = rank_configurations(
            judged, DECLARED, study=name, all_claims=int(claims.get(name, len(judged[DECLARED])))
        )
        table["experiment"] = table["configuration"].map(experiments)
        table["note"] = note
        out[name] = table
    return out


#: The file :func:`write_best_configurations` writes, under ``data/results/``.
FILE_NAME = "best-configuration.csv"


def write_best_configurations(folder: Path | None = None) -> Path:
    """Write every seed study's ranked configurations to ``best-configuration.csv`` (atomic)."""
    folder = paths.results_dir(quick=False) if folder is None else folder
    table = pd.concat(best_configurations(folder).values(), ignore_index=True)
    return write_csv(table, folder / FILE_NAME)


def best_configuration_block(folder: Path) -> str:
    """The README's table: per study the declared and the best configuration's counts."""
    header = ["study", "configurations judged", "declared: agreeing / matches / contradicts",
              "best (experiment: configuration)", "best: agreeing / matches / contradicts",
              "claims without a value (best)"]  # fmt: skip
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    everything = pd.read_csv(folder / FILE_NAME, keep_default_na=False, na_values=[""])
    for _, table in everything.groupby("study", sort=True):
        declared = table[table["is_default"].astype(str) == "True"].iloc[0]
        best = table[table["best"].astype(str) == "True"].iloc[0]

        def counts(r: pd.Series) -> str:
            return f"{r['agreeing']} / {r['matches']} / {r['contradicts']} of {r['claims_judged']}"

        chosen = ("the declared one" if best["configuration"] == DECLARED
                  else f"`{best['experiment']}`: {best['configuration']}")  # fmt: skip
        lines.append(f"| `{table['study'].iloc[0]}` | {len(table)} | {counts(declared)} | "
                     f"{chosen} | {counts(best)} | {best['claims_without_value']} |")  # fmt: skip
    lines.append("")
    lines.append("Ranking: " + "; ".join(RANKING) + ".")
    return "\n".join(lines)
