"""What the sensor-network study compares: every number of the seed's Tables 2-4 against
the runs of experiment ``intervals`` (``comparison.csv``,
:func:`transportlab.engine.verdicts.compare`), and the seed's values the result tables
and figures put beside ours."""

from __future__ import annotations

import numpy as np
import pandas as pd

from transportlab.engine import published, verdicts
from transportlab.engine.study import Study
from transportlab.studies.wsn_reporting_interval.analysis import METRICS
from transportlab.studies.wsn_reporting_interval.parameters import PRINTED_INTERVALS


def comparison(results) -> pd.DataFrame:
    """Every number of Tables 2-4 against the mean over the runs (95 % Student-t interval)."""
    reproduced = reproduced_rows(results["intervals"]["summary"])
    return verdicts.compare(results.study, reproduced.drop(columns="run"))


def reproduced_rows(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per run and published number: ``protocol, metric, unit, row, run, value``.

    ``row`` is the paper's ``data interval <printed interval>``. When every
    printed interval ran, the ``Avg`` rows are added: per run, the mean over the
    five intervals, as the paper's ``Avg`` rows are the mean of its five rows.
    """
    rows = []
    for column, (metric, unit, _) in METRICS.items():
        for _, r in summary.iterrows():
            rows.append({
                "protocol": r["protocol"].upper(), "metric": metric, "unit": unit,
                "row": f"data interval {r['reporting_interval']:g}", "run": r["run"],
                "value": r[column],
            })  # fmt: skip
    reproduced = pd.DataFrame(rows, columns=["protocol", "metric", "unit", "row", "run", "value"])
    if set(summary["reporting_interval"]) == set(PRINTED_INTERVALS):
        averages = reproduced.groupby(["protocol", "metric", "unit", "run"], as_index=False)[
            "value"
        ].mean()
        reproduced = pd.concat([reproduced, averages.assign(row="Avg")], ignore_index=True)
    return reproduced


def published_values(study: Study, metric: str) -> dict[tuple[str, float], float]:
    """(PROTOCOL, interval) -> the value of Tables 2-4 for ``metric``."""
    pub = published.load(study)
    rows = pub[(pub["metric"] == metric) & pub["row"].str.startswith("data interval")
               & pub["source"].str.startswith("Table")]  # fmt: skip
    return {
        (r["protocol"], float(r["row"].split()[-1])): float(r["value"]) for _, r in rows.iterrows()
    }


def published_column(study: Study, table: pd.DataFrame, metric: str) -> list[float]:
    """The seed's value of ``metric`` for each row's protocol and interval (NaN if none)."""
    values = published_values(study, metric)
    return [
        values.get((p.upper(), i), np.nan)
        for p, i in zip(table["protocol"], table["reporting_interval"], strict=True)
    ]


def published_rows(study: Study, metric: str) -> pd.DataFrame:
    pub = published.load(study)
    return pub[pub["metric"] == metric]
