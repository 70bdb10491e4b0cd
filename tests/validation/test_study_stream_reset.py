"""The sctp_validation study's stream-reset scenarios (RFC 6525): both directions on
usrsctp and on the model through the study's run and analysis steps, the named
differences, and the committed full-mode rows."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.validation.conftest import needs_oracle
from transportlab.engine.paths import results_dir
from transportlab.studies import get
from transportlab.studies.sctp_validation import stream_reset

STUDY = get("sctp_validation")


@pytest.fixture(scope="module")
def analysed():
    out = {}
    for name in stream_reset.RESET_SCENARIOS:
        params = {"scenario": name, "oracle_seed": 1}
        out[name] = STUDY.analyse(STUDY.run(params, 1, 1), params)
    return out


def test_the_reset_scenarios_are_study_points():
    scenario = next(p for p in STUDY.parameters if p.name == "scenario")
    assert set(stream_reset.RESET_SCENARIOS) <= set(scenario.choices)
    names = {e.name for e in STUDY.reproduction.experiments}
    assert "stream_reset" in names
    assert "stream_reset" in STUDY.reproduction.tables


def test_every_reset_difference_names_an_rfc_section():
    for d in stream_reset.RESET_DIFFERENCES.values():
        assert d.rfc.startswith("RFC 6525"), d.key
        assert d.text and d.title


@needs_oracle
@pytest.mark.parametrize("name", list(stream_reset.RESET_SCENARIOS))
def test_both_stacks_deliver_the_rfc_6525_ssns(analysed, name):
    detail = analysed[name]["stream_reset"].iloc[0]
    assert detail.usrsctp_delivered == stream_reset.MESSAGES
    assert detail.ns3_delivered == stream_reset.MESSAGES
    assert bool(detail.ssns_expected)
    assert bool(detail.ssns_agree)
    # the request precedes the reset, which precedes the last delivery, on both stacks
    for stack in ("usrsctp", "ns3"):
        assert detail[f"{stack}_request_s"] < detail[f"{stack}_done_s"]
        assert detail[f"{stack}_done_s"] < detail[f"{stack}_last_s"]


@needs_oracle
def test_the_verdicts_name_the_difference_with_its_evidence(analysed):
    out = analysed["stream_reset_outgoing"]["validation"].iloc[0]
    # usrsctp's writer waits for the reset (EAGAIN), the model keeps stream 0 flowing
    assert out.verdict == "explained"
    assert out.explained_by == "reset_pending_send_refused"
    assert "stream-0 messages" in out.evidence
    detail = analysed["stream_reset_outgoing"]["stream_reset"].iloc[0]
    assert detail.ns3_stream0_during_reset > detail.usrsctp_stream0_during_reset
    assert detail.ns3_last_s < detail.usrsctp_last_s
    inc = analysed["stream_reset_incoming"]["validation"].iloc[0]
    assert inc.verdict == "agrees"
    assert abs(inc.completion_diff) <= 0.10


def test_the_committed_rows():
    folder = results_dir("sctp_validation", False)
    table = pd.read_csv(folder / "validation.csv", keep_default_na=False)
    reset = table[table.group == "stream reset"].set_index("scenario")
    assert list(reset.index) == list(stream_reset.RESET_SCENARIOS)
    assert reset.loc["stream_reset_outgoing", "verdict"] == "explained"
    assert reset.loc["stream_reset_incoming", "verdict"] == "agrees"
    assert not (table.verdict == "differs").any()
    # the other rows keep their integer counts (no float formatting from the empty cells)
    others = table[table.group != "stream reset"]
    assert all("." not in str(v) for v in others.usrsctp_fast)
    detail = pd.read_csv(folder / "stream_reset.csv")
    assert detail.ssns_agree.all() and detail.ssns_expected.all()
