"""The sctp_validation study: cached traces give the same comparison as fresh ones."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.validation.conftest import needs_oracle
from transportlab.engine.fingerprint import module_closure
from transportlab.studies import get
from transportlab.studies.sctp_validation import differences, stacks, stream_reset


def test_the_run_step_executes_the_stacks_and_no_comparison_code():
    study = get("sctp_validation")
    closure = module_closure([study.run.__module__])
    assert "transportlab.studies.sctp_validation.stacks" in closure
    assert not any(m.endswith("comparison") or m.endswith("analysis") for m in closure)


@needs_oracle
def test_traces_survive_the_cache_tables_unchanged():
    scenario = stacks.scenario_by_name("loss_mid")
    traces = stacks.run_traces(scenario)
    again = stacks.traces_from_tables(scenario, stacks.traces_to_tables(traces))
    assert differences.summarise_scenario(scenario, again) == differences.summarise_scenario(
        scenario, traces
    )
    for key, trace in traces.items():
        pd.testing.assert_frame_equal(again[key].data, trace.data.reset_index(drop=True))
        assert again[key].timeout_times == trace.timeout_times


@pytest.mark.slow
@needs_oracle
def test_the_study_table_is_the_validate_table(tmp_path, monkeypatch):
    from transportlab.engine.results import Results  # noqa: PLC0415

    monkeypatch.setenv("TRANSPORTLAB_RESULTS_CACHE", str(tmp_path))
    results = Results(get("sctp_validation"), quick=True, progress=False)
    table = results.table("validation")
    reset = list(stream_reset.RESET_SCENARIOS)
    assert list(table["scenario"])[-len(reset) :] == reset  # the stream-reset rows last
    table = table[~table["scenario"].isin(reset)]
    expected, _ = differences.validation_table(stacks.quick_scenarios())
    assert list(table["scenario"]) == list(expected["scenario"])
    shared = [c for c in expected.columns if c in table.columns]
    pd.testing.assert_frame_equal(
        table[shared].reset_index(drop=True), expected[shared], check_dtype=False
    )
    assert results.runs("scenarios") == 1
