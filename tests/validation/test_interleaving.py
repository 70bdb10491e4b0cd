"""I-DATA (RFC 8260) and the stream schedulers against usrsctp 0.9.5: bulk on stream 0 and
100-B messages on stream 1 (``transportlab.studies.sctp_validation.interleaving``)."""

from __future__ import annotations

import pandas as pd
import pytest

from tests.validation.conftest import needs_oracle
from transportlab.engine.paths import results_dir
from transportlab.studies import get
from transportlab.studies.sctp_validation import interleaving as il

STUDY = get("sctp_validation")


def test_the_cases_are_study_points_with_named_differences():
    scenario = next(p for p in STUDY.parameters if p.name == "scenario")
    assert set(il.CASES) <= set(scenario.choices)
    assert "interleaving" in STUDY.reproduction.tables
    assert len(il.CASES) == 2 * 2 * len(il.SCHEDULERS)
    for d in il.INTERLEAVING_DIFFERENCES.values():
        assert d.rfc.startswith("RFC"), d.key


def test_the_oracle_exposes_the_interleaving_keys():
    path = __import__("transportlab.studies.sctp_validation.stacks", fromlist=["x"]).oracle_path()
    if path is None:
        pytest.skip("usrsctp-oracle not built")
    import subprocess

    text = subprocess.run([str(path), "--help"], capture_output=True, text=True).stdout
    for key in ("small_count", "idata", "ss", "prio1", "msg_deliver", "chunk_trace", "chunk_tx"):
        assert key in text


@needs_oracle
def test_idata_is_negotiated_on_both_stacks_and_lets_small_messages_through():
    data = il.compare(il.CASES["il_data_rr_noloss"])
    idata = il.compare(il.CASES["il_idata_rr_noloss"])
    assert (data["usrsctp_idata_negotiated"], data["ns3_idata_negotiated"]) == (False, False)
    assert (idata["usrsctp_idata_negotiated"], idata["ns3_idata_negotiated"]) == (True, True)
    for stack in ("usrsctp", "ns3"):
        # with DATA a 256-KB message holds the small ones back; with I-DATA they pass it
        assert data[f"{stack}_small_before_last_bulk"] <= 10
        assert idata[f"{stack}_small_before_last_bulk"] >= 40
        assert idata[f"{stack}_latency_median_s"] < data[f"{stack}_latency_median_s"] / 2
        assert idata[f"{stack}_small_delivered"] == il.SMALL_COUNT


@needs_oracle
def test_fcfs_agrees_with_data_and_the_usrsctp_differences_are_named():
    fcfs = il.compare(il.CASES["il_data_fcfs_noloss"])
    assert fcfs["verdict"] == "agrees"
    assert fcfs["same_order"]
    idata_fcfs = il.compare(il.CASES["il_idata_fcfs_noloss"])
    assert idata_fcfs["explained_by"] == "usrsctp_fcfs_interleaves"
    stall = il.compare(il.CASES["il_data_rr_packet_noloss"])
    assert stall["explained_by"] == "usrsctp_rr_packet_data_stall"
    assert not stall["usrsctp_complete"] and stall["ns3_complete"]


def test_the_committed_table():
    table = pd.read_csv(results_dir("sctp_validation", False) / "interleaving.csv")
    assert list(table.scenario) == list(il.CASES)
    assert table.ns3_complete.all()
    assert (table.ns3_small_delivered == il.SMALL_COUNT).all()
    # every case with I-DATA negotiated it on both stacks, none without
    assert (table.usrsctp_idata_negotiated == table.idata).all()
    assert (table.ns3_idata_negotiated == table.idata).all()
    explained = table[table.verdict == "explained"]
    assert explained.explained_by.str.len().gt(0).all()
    # every cause named is a known difference whose measured evidence is in the row
    for row in explained.itertuples():
        for key in row.explained_by.split(","):
            assert key in il.INTERLEAVING_DIFFERENCES
            assert f"{key}: " in row.evidence
    assert set(table.verdict) <= {"agrees", "explained", "differs"}
