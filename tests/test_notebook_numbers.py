"""Issue 26, "numbers in prose come from results", for the notebooks: a paragraph that
states results in words is followed by a cell printing its numbers from the committed
full-mode tables (``transportlab.headlines.notebook_numbers``). nbval checks those cells
when it runs the notebooks; the tests here check, without running anything, that every
such cell's committed output is what the committed tables give now (a re-run or
re-judgement that changes a table without the notebook being re-executed fails here),
and that the printed numbers follow the tables.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import nbformat
import pandas as pd
import pytest

from transportlab.engine import paths
from transportlab.headlines import NOTEBOOK_NUMBERS, notebook_numbers

ROOT = Path(__file__).resolve().parents[1]
RESULTS = paths.results_dir(quick=False)
CALL = re.compile(r'notebook_numbers\("(\w+)", "(\w+)"\)')


def _committed_outputs() -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(study, section) -> [(notebook, committed stdout of the cell that prints it)]."""
    found: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            stdout = "".join(
                "".join(o.get("text", "")) for o in cell.get("outputs", [])
                if o.get("output_type") == "stream" and o.get("name") == "stdout"
            )  # fmt: skip
            for key in CALL.findall(cell.source):
                found.setdefault(key, []).append((path.name, stdout))
    return found


OUTPUTS = _committed_outputs()


def test_every_notebook_numbers_section_is_printed_by_a_notebook_cell_that_nbval_checks():
    assert set(NOTEBOOK_NUMBERS) == set(OUTPUTS), (
        f"not printed by any notebook: {set(NOTEBOOK_NUMBERS) - set(OUTPUTS)}; "
        f"unknown sections called: {set(OUTPUTS) - set(NOTEBOOK_NUMBERS)}"
    )
    for path in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py")):
        cells = path.read_text(encoding="utf-8").split("# %%")
        for cell in cells:
            if CALL.search(cell):
                assert "# NBVAL_CHECK_OUTPUT" in cell, f"{path.name}: unchecked cell {cell[:80]!r}"


@pytest.mark.parametrize("key", sorted(NOTEBOOK_NUMBERS), ids="/".join)
def test_the_committed_notebook_prints_what_the_committed_tables_give(key):
    expected = notebook_numbers(*key)
    for notebook, stdout in OUTPUTS[key]:
        assert expected in stdout, (
            f"{notebook}: the printed numbers of {key} are stale; re-execute it "
            f"(scripts/execute_notebook.py)\nnow:\n{expected}\ncommitted:\n{stdout}"
        )


def test_an_unknown_section_is_refused_with_the_known_ones():
    with pytest.raises(KeyError, match="wired_best_effort/summary"):
        notebook_numbers("wired_best_effort", "nonsense")


@pytest.fixture
def results_copy(tmp_path) -> Path:
    folder = tmp_path / "results"
    for study in ("wired_best_effort", "sip_over_sctp"):
        shutil.copytree(RESULTS / study, folder / study, ignore=shutil.ignore_patterns("*.json"))
    return folder


def _edit(path: Path, change) -> None:
    table = pd.read_csv(path, keep_default_na=False, na_values=[""])
    change(table)
    table.to_csv(path, index=False)


def test_the_delay_reading_counts_follow_the_table(results_copy):
    """Notebook 01 once said "20 of 22" where delay_readings.csv had 22 of 22."""
    before = notebook_numbers("wired_best_effort", "delay_readings", results_copy)
    assert "printed gap reading, full mode, 22 delay rows: 22 differs" in before

    def two_match(t):
        t.loc[t.index[:2], "verdict_printed"] = "matches"

    _edit(results_copy / "wired_best_effort" / "delay_readings.csv", two_match)
    after = notebook_numbers("wired_best_effort", "delay_readings", results_copy)
    assert "printed gap reading, full mode, 22 delay rows: 20 differs, 2 matches" in after


def test_the_wired_summary_follows_the_tables(results_copy):
    def faster_small_packets(t):
        t.loc[t["sctp_message_size"] == 992, "awk_e2e_delay_ms"] = 1000.0
        t.loc[t["sctp_message_size"] == 992, "awk_jitter_ms"] = 30.0

    _edit(results_copy / "wired_best_effort" / "sctp_packet_size.csv", faster_small_packets)
    summary = notebook_numbers("wired_best_effort", "summary", results_copy)
    assert "992-B (TCP-sized packets) 1.00;" in summary
    # (34.0 - 30.0) / (34.0 - 19.3) of the committed Tahoe jitter
    size = pd.read_csv(RESULTS / "wired_best_effort" / "sctp_packet_size.csv")
    variants = pd.read_csv(RESULTS / "wired_best_effort" / "tcp_variants.csv")
    full = size.loc[size["sctp_message_size"] == 1452, "awk_jitter_ms"].iloc[0]
    tahoe = variants.loc[variants["variant"] == "Tahoe (default)", "awk_jitter_ms"].iloc[0]
    assert f"992-B 30.0: {(full - 30.0) / (full - tahoe):.0%} of SCTP's extra jitter" in summary


def test_the_sip_call_cycle_follows_the_table(results_copy):
    """Notebook 03 once said "within 1 % for every protocol up to 20 % loss" where TCP's
    completed/predicted at 20 % was 0.56: the ratios are now printed per protocol."""
    text = notebook_numbers("sip_over_sctp", "call_cycle", results_copy)
    cycle = pd.read_csv(RESULTS / "sip_over_sctp" / "call_cycle.csv")
    tcp20 = cycle[(cycle["protocol"] == "tcp") & (cycle["loss_rate"] == 0.2)].iloc[0]
    assert f"{tcp20['completed_per_predicted']:.2f} at 20%" in text.splitlines()[2]

    def halve(t):
        t.loc[(t["protocol"] == "udp") & (t["loss_rate"] == 0.3), "completed_per_predicted"] = 0.5

    _edit(results_copy / "sip_over_sctp" / "call_cycle.csv", halve)
    text = notebook_numbers("sip_over_sctp", "call_cycle", results_copy)
    assert "0.50 at 30%" in text.splitlines()[0]


def test_the_interleaving_numbers_follow_the_table(tmp_path):
    """Notebook 06's interleaving section: the verdict counts and the causes per case come
    from interleaving.csv."""
    folder = tmp_path / "results"
    shutil.copytree(
        RESULTS / "sctp_validation", folder / "sctp_validation",
        ignore=shutil.ignore_patterns("*.json"),
    )  # fmt: skip
    before = notebook_numbers("sctp_validation", "interleaving", folder)
    table = pd.read_csv(RESULTS / "sctp_validation" / "interleaving.csv")
    counts = table["verdict"].value_counts()
    assert f"{counts['agrees']} agrees" in before.splitlines()[0]
    stall = table[table["explained_by"].fillna("").str.contains("usrsctp_rr_packet_data_stall")]
    assert f"usrsctp_rr_packet_data_stall: {len(stall)} cases" in before

    def unexplain(t):
        t.loc[t["scenario"] == "il_data_prio_noloss", ["verdict", "explained_by"]] = ["differs", ""]

    _edit(folder / "sctp_validation" / "interleaving.csv", unexplain)
    after = notebook_numbers("sctp_validation", "interleaving", folder)
    assert "1 differs" in after.splitlines()[0]
    assert "bulk_pace: 1 cases (il_data_fair_noloss)" in after


def test_the_wsn_gap_numbers_follow_the_tables(tmp_path):
    """Notebook 04 section 8.6 states the drop and collision counts of ns2_gap's tables."""
    study = tmp_path / "wsn_reporting_interval"
    study.mkdir()
    for name in ("ns2_gap_drops", "ns2_gap_collisions"):
        shutil.copy(RESULTS / study.name / f"{name}.csv", study / f"{name}.csv")
    before = notebook_numbers(study.name, "ns2_gap", tmp_path)
    drops = pd.read_csv(study / "ns2_gap_drops.csv")
    total = drops[(drops["reporting_interval"] == 20.0) & (drops["cause"] == "total")].iloc[0]
    assert f"20 s: dropped packets ns-3 {total['ns3']:.0f}, NS-2 {total['ns2']:.0f}" in before

    def fewer_sent(t):
        pick = (t["reporting_interval"] == 20.0) & (t["kind"] == "routing")
        t.loc[pick & (t["quantity"] == "frames sent"), "ns2"] = 4702.0
        t.loc[pick & (t["quantity"] == "traced collision losses per frame sent"), "ns2"] = 0.5

    _edit(study / "ns2_gap_collisions.csv", fewer_sent)
    after = notebook_numbers(study.name, "ns2_gap", tmp_path)
    assert "routing frames sent ns-3 4257, NS-2 4702" in after
    assert "NS-2 2351 (0.500)" in after
    assert before.splitlines()[:3] == after.splitlines()[:3]  # the 1-s lines unchanged
