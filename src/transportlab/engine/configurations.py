"""One configuration per study, judged on all its metrics together.

A study's experiments vary one knob at a time, and each metric can be moved by a
different knob. This module asks the question the other way round: among the
configurations an experiment already ran, which *single* one agrees best with every
published number it can be compared with? Each configuration's reproduced means (with
their 95 % intervals and run counts) go through the study's own comparison
(:func:`transportlab.engine.verdicts.compare` with the committed tolerance) and are
folded into claims (:func:`transportlab.engine.verdicts.claims`), exactly as the
declared configuration's comparison is.

Ranking (:data:`RANKING`): the most claims within the tolerance (``matches``,
``consistent`` or ``within-bound``: "agreeing"), then the most ``matches``, then the
fewest ``contradicts``, then the fewest claims without a value, then the smallest median
distance ``|log(reproduced /
published)|`` over the claims with a number, then the declared default before any other
(a tie never moves the study off its declared configuration), then the label. Claims a
configuration has no value for are counted (``claims_without_value``), never filled in.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

import numpy as np
import pandas as pd

from transportlab.engine import paths, verdicts

__all__ = [
    "AGREEING",
    "CONFIGURATION_COLUMNS",
    "RANKING",
    "committed_tolerance",
    "judge_configuration",
    "rank_configurations",
]

#: Verdicts that put a claim within the tolerance (or its bound).
AGREEING = ("matches", "consistent", "within-bound")
#: The ranking, in order (the docstring above says it in words).
RANKING = (
    "most agreeing claims", "most matches", "fewest contradicts",
    "fewest claims without a value", "smallest median |log(reproduced/published)|",
    "declared default first", "label",
)  # fmt: skip
#: The verdicts counted per configuration.
COUNTED_VERDICTS = (
    "matches", "consistent", "within-bound", "same-direction", "differs", "contradicts",
    "by-construction", "input", "seed-inconsistent",
)  # fmt: skip
CONFIGURATION_COLUMNS = [
    "study", "experiment", "configuration", "is_default", "claims_judged",
    "claims_without_value", "agreeing", "matches", "consistent", "within-bound",
    "same-direction", "differs", "contradicts", "by-construction", "input",
    "seed-inconsistent", "median_log_distance", "rank", "best", "note",
]  # fmt: skip


def committed_tolerance(study_name: str) -> float | dict[str, float] | None:
    """The tolerance saved next to the committed comparison (``comparison-tolerance.json``)."""
    path = paths.results_dir(study_name, quick=False) / "comparison-tolerance.json"
    if not path.is_file():
        return None
    saved = json.loads(path.read_text())
    return {"default": saved["default"], **saved.get("per_metric", {})}


def judge_configuration(study, reproduced: pd.DataFrame, tolerance=None) -> pd.DataFrame:
    """The claims of ``study`` judged against one configuration's ``reproduced`` means
    (columns ``protocol, metric, row, unit, mean, ci_low, ci_high, n_runs``, as
    :func:`verdicts.compare` takes them); rows without a published counterpart are
    ignored."""
    comparison = verdicts.compare(study, reproduced, tolerance, strict=False)
    comparison = comparison[comparison.get("role", "claim") == "claim"]
    return verdicts.claims(comparison, tolerance)


def _median_log_distance(claims: pd.DataFrame) -> float:
    published = pd.to_numeric(
        claims["published"].astype(str).str.split(";").str[0].str.lstrip("~<>= "),
        errors="coerce",
    )
    reproduced = pd.to_numeric(claims["reproduced"], errors="coerce")
    ratio = (reproduced / published).where((reproduced > 0) & (published > 0))
    distances = np.abs(np.log(ratio.dropna()))
    return float(distances.median()) if len(distances) else math.nan


def rank_configurations(
    judged: Mapping[str, pd.DataFrame],
    default: str,
    *,
    study: str = "",
    experiment: str = "",
    all_claims: int | None = None,
) -> pd.DataFrame:
    """Count the verdicts of each configuration's claims (``judged``: label -> the
    claims of :func:`judge_configuration`) and rank them by :data:`RANKING`; ``best``
    marks the first. ``default`` is the label of the declared configuration (it must be
    among them); ``all_claims`` (default: the most any configuration has) is how many
    claims a configuration could be judged on, the rest are ``claims_without_value``."""
    if default not in judged:
        raise ValueError(f"the declared default {default!r} is not among {sorted(judged)}")
    most = max((len(c) for c in judged.values()), default=0)
    all_claims = most if all_claims is None else all_claims
    rows = []
    for label, claims in judged.items():
        counts = claims["verdict"].value_counts()
        row = {
            "study": study, "experiment": experiment, "configuration": label,
            "is_default": label == default, "claims_judged": len(claims),
            "claims_without_value": all_claims - len(claims),
        }  # fmt: skip
        for verdict in COUNTED_VERDICTS:
            row[verdict] = int(counts.get(verdict, 0))
        row["agreeing"] = sum(row[v] for v in AGREEING)
        row["median_log_distance"] = _median_log_distance(claims)
        rows.append(row)
    table = pd.DataFrame(rows)
    order = table.assign(
        _distance=table["median_log_distance"].fillna(math.inf),
        _not_default=~table["is_default"],
    ).sort_values(
        [
            "agreeing",
            "matches",
            "contradicts",
            "claims_without_value",
            "_distance",
            "_not_default",
            "configuration",
        ],
        ascending=[False, False, True, True, True, True, True],
        kind="mergesort",
    )
    table["rank"] = 0
    table.loc[order.index, "rank"] = range(1, len(table) + 1)
    table["best"] = table["rank"] == 1
    table["note"] = ""
    return table.sort_values("rank")[CONFIGURATION_COLUMNS].reset_index(drop=True)
