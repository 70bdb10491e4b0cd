"""Analysis: the comparison row of one scenario, from its cached traces (not cached)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from transportlab.studies.sctp_validation import differences, interleaving, stacks, stream_reset


def analyse(raw: Mapping[str, pd.DataFrame], params: Mapping[str, Any]) -> dict[str, pd.DataFrame]:
    """``validation``: one row (:func:`.differences.summarise_scenario`); the raw trace
    tables pass through for the figures. A stream-reset scenario (:mod:`.stream_reset`)
    also gives its ``stream_reset`` row, an interleaving case (:mod:`.interleaving`) only
    its ``interleaving`` row."""
    if stream_reset.is_reset(params["scenario"]):
        name = params["scenario"]
        row = {k: v for k, v in stream_reset.summarise(name, raw).items() if k != "scenario"}
        detail = {k: v for k, v in stream_reset.detail_row(name, raw).items() if k != "scenario"}
        return {
            "validation": pd.DataFrame([row]),
            "stream_reset": pd.DataFrame([detail]),
            **raw,
        }
    if params["scenario"] in interleaving.CASES:
        row = interleaving.row_from_tables(params["scenario"], raw)
        return {
            "interleaving": pd.DataFrame([{k: v for k, v in row.items() if k != "case"}]),
            **raw,
        }
    scenario = stacks.scenario_by_name(params["scenario"])
    traces = stacks.traces_from_tables(scenario, raw)
    row = differences.summarise_scenario(scenario, traces)
    # The point's own parameter is a leading column already.
    row = {k: v for k, v in row.items() if k != "scenario"}
    return {"validation": pd.DataFrame([row]), **raw}
