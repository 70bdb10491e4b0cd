"""The broadcast-collision experiment (ns2_gap_broadcasts): pairing every lost frame with the
frame it collided with, on hand-built frames and NS-2 trace lines."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from tests.studies.test_wsn_ns2 import _line
from transportlab.studies.wsn_reporting_interval import ns2_gap_broadcasts as b
from transportlab.studies.wsn_reporting_interval import ns2_scenario

RREQ_S = ns2_scenario.frame_airtime_s(106, 1e6)  # a 48-byte RREQ broadcast: 848 us


def frames(*rows) -> pd.DataFrame:
    """(node, start, kind) rows, RREQ air time, broadcast."""
    return pd.DataFrame(
        {
            "node": [r[0] for r in rows],
            "start": [r[1] for r in rows],
            "duration": [RREQ_S] * len(rows),
            "kind": [r[2] for r in rows],
            "to": [-1] * len(rows),
        }
    )


def all_sense(n: int = 6) -> np.ndarray:
    senses = np.ones((n, n), dtype=bool)
    np.fill_diagonal(senses, False)
    return senses


def test_same_slot_starts_of_nodes_that_sense_each_other_are_not_hidden():
    table = frames((1, 1.0, b.RREQ), (2, 1.0 + 5e-6, b.RREQ))
    losses = pd.DataFrame({"node": [3, 3], "time": [1.0 + 5e-6] * 2, "frame": [0, 1]})
    pairs = b.collision_pairs(table, losses, all_sense())
    first, second = pairs.iloc[0], pairs.iloc[1]
    assert (first["lost_sender"], first["interferer"]) == (1, 2)
    assert first["offset_s"] == pytest.approx(5e-6)
    assert first["offset_bin"] == b.OFFSET_BINS[0][0]
    assert first["first"] == "lost" and first["later_senses_earlier"] and not first["hidden"]
    # the other side of the same collision: its interferer started first
    assert (second["lost_sender"], second["interferer"]) == (2, 1)
    assert second["offset_s"] == pytest.approx(-5e-6) and second["first"] == "interferer"


def test_a_later_sender_that_cannot_sense_the_first_is_a_hidden_terminal():
    senses = all_sense()
    senses[1, 2] = senses[2, 1] = False  # 1 and 2 both reach 3, not each other
    table = frames((1, 2.0, b.RREQ), (2, 2.0 + 300e-6, b.RTS))
    losses = pd.DataFrame({"node": [3], "time": [2.0 + 300e-6], "frame": [0]})
    pair = b.collision_pairs(table, losses, senses).iloc[0]
    assert pair["offset_bin"] == b.OFFSET_BINS[1][0]  # 20-670 us
    assert pair["hidden"] and not pair["later_senses_earlier"]
    assert pair["interferer_kind"] == b.RTS
    # the same start 700 us later is past DIFS plus the first backoff
    table = frames((1, 2.0, b.RREQ), (2, 2.0 + 700e-6, b.RREQ))
    assert b.collision_pairs(table, losses, senses).iloc[0]["offset_bin"] == b.OFFSET_BINS[2][0]


def test_the_interferer_is_the_nearest_overlapping_frame_the_receiver_senses():
    senses = all_sense()
    senses[4, 3] = False  # the receiver 3 does not sense node 4
    table = frames(
        (1, 3.0, b.RREQ),  # lost at 3
        (4, 3.0 + 1e-6, b.RREQ),  # nearest, but 3 cannot sense it
        (3, 3.0 + 2e-6, b.ACK),  # the receiver's own frame: not an interferer
        (5, 3.0 + 400e-6, b.RREQ),  # the interferer
        (2, 3.0 - 1.0, b.RREQ),  # long over before the lost frame
        (2, 3.0 + RREQ_S + 1e-6, b.RREQ),  # starts after the lost frame ended
    )
    losses = pd.DataFrame({"node": [3], "time": [3.0 + 400e-6], "frame": [0]})
    pair = b.collision_pairs(table, losses, senses).iloc[0]
    assert pair["interferer"] == 5 and pair["offset_s"] == pytest.approx(400e-6)
    # nothing overlapping that the receiver senses: no pair, said so
    none = b.collision_pairs(table.iloc[[0, 1, 2, 4]].reset_index(drop=True), losses, senses)
    assert none.iloc[0]["interferer"] == -1 and none.iloc[0]["offset_bin"] == "none found"


def test_summary_counts_losses_per_frame_sent_and_the_shares_of_each_class():
    table = frames((1, 1.0, b.RREQ), (2, 1.0, b.RREQ), (4, 5.0, b.RREQ), (5, 5.0 + 7e-4, b.DATA))
    losses = pd.DataFrame({"node": [3, 3, 3], "time": [1.0, 1.0, 5.0005],
                           "frame": [0, 1, 2]})  # fmt: skip
    senses = all_sense()
    senses[4, 5] = senses[5, 4] = False
    pairs = b.collision_pairs(table, losses, senses)
    summary = b.summary(table, losses, pairs).set_index(["group", "category"])
    assert summary.loc[("per frame sent", "routing"), "share"] == pytest.approx(3 / 3)
    assert summary.loc[("per frame sent", "data"), "share"] == 0.0
    assert summary.loc[("routing: offset", b.OFFSET_BINS[0][0]), "count"] == 2
    assert summary.loc[("routing: offset", b.OFFSET_BINS[2][0]), "count"] == 1  # 700 us later
    assert summary.loc[("routing: sensing", "hidden terminal"), "share"] == pytest.approx(1 / 3)
    assert summary.loc[("routing: first", "same start"), "count"] == 2


# NS-2 lines: nodes 1 and 2 rebroadcast a RREQ in the same slot, node 3 loses both (COL);
# node 4 sends an RTS to node 3 that 3 loses, and node 3 an ACK to node 7 that 7 loses.
_RREQ = "-Is {n}.255 -Id -1.255 -It AODV -Il 106 -If 0 -Ii 0 -Iv 30 -P aodv -Pt 0x2"
NS2_TRACE = "".join([
    _line("s", 1.000000000, 1, "MAC", "-Ma 0 -Md ffffffff -Ms 1 -Mt 800", _RREQ.format(n=1)),
    _line("s", 1.000000300, 2, "MAC", "-Ma 0 -Md ffffffff -Ms 2 -Mt 800", _RREQ.format(n=2)),
    _line("r", 1.000848500, 5, "MAC", "-Ma 0 -Md ffffffff -Ms 1 -Mt 800", _RREQ.format(n=1)),
    _line("d", 1.000000400, 3, "MAC", "-Ma 0 -Md ffffffff -Ms 1 -Mt 800", _RREQ.format(n=1),
          why="COL"),
    _line("d", 1.000848800, 3, "MAC", "-Ma 0 -Md ffffffff -Ms 2 -Mt 800", _RREQ.format(n=2),
          why="COL"),
    _line("s", 2.000000000, 4, "MAC", "-Ma 52e -Md 3 -Ms 4 -Mt 0"),
    _line("d", 2.000100000, 3, "MAC", "-Ma 52e -Md 3 -Ms 4 -Mt 0", why="COL"),
    _line("s", 3.000000000, 3, "MAC", "-Ma 0 -Md 7 -Ms 0 -Mt 0"),
    _line("d", 3.000200000, 7, "MAC", "-Ma 0 -Md 7 -Ms 0 -Mt 0", why="COL"),
    _line("d", 4.000000000, 3, "MAC", "-Ma 0 -Md ffffffff -Ms 6 -Mt 800", _RREQ.format(n=6),
          why="COL"),  # a frame no MAC line sent: unmatched
])  # fmt: skip


def test_ns2_frames_match_each_col_line_to_the_transmission_it_lost():
    table, losses = b.ns2_frames(io.StringIO(NS2_TRACE))
    assert table["node"].tolist() == [1, 2, 4, 3]
    assert table["kind"].tolist() == [b.RREQ, b.RREQ, b.RTS, b.ACK]
    assert table["to"].tolist() == [-1, -1, 3, 7]
    assert table["duration"].iloc[0] == pytest.approx(848e-6)  # txtime of 106 bytes
    assert losses["node"].tolist() == [3, 3, 3, 7, 3]
    assert losses["frame"].tolist() == [0, 1, 2, 3, -1]
    pairs = b.collision_pairs(table, losses, all_sense(8))
    assert pairs["offset_bin"].iloc[:2].tolist() == [b.OFFSET_BINS[0][0]] * 2
    assert pairs["interferer"].iloc[:2].tolist() == [2, 1]


def test_ns3_losses_are_matched_by_uid_to_the_latest_transmission_of_another_node():
    raw = pd.DataFrame({
        "node": [1, 1, 2], "start": [1.0, 1.01, 1.02], "duration": [RREQ_S] * 3,
        "packet_class": [9, 9, 6], "to": [2, 2, -1], "uid": [7, 7, 8], "aodv_type": [-1, -1, 1],
    })  # fmt: skip
    lost = pd.DataFrame({"node": [2, 2, 3, 1], "time": [1.0005, 1.0105, 1.0201, 1.5],
                         "uid": [7, 7, 8, 8], "traced": [True, True, True, True]})  # fmt: skip
    table, losses = b.ns3_frames(raw, lost)
    assert table["kind"].tolist() == [b.DATA, b.DATA, b.RREQ]
    # the first try, the retry (same uid), the RREQ; a loss after the frame ended: none
    assert losses["frame"].tolist() == [0, 1, 2, -1]


def test_preamble_window_losses_keep_what_ns2_would_trace_as_a_collision():
    # nodes 1 and 2 broadcast in the same slot; 3 hears both within 10 dB of each other,
    # 4 hears node 1 20 dB above node 2 (NS-2: capture, no COL for node 1's frame), node 5
    # hears node 2 below RXThresh; node 6 loses node 1's unicast to node 4 (untraced)
    params = {"rx_threshold_w": 1e-10, "cs_threshold_w": 1e-11}
    power = np.zeros((7, 7))
    power[1, 3], power[2, 3] = 4e-10, 2e-10
    power[1, 4], power[2, 4] = 1e-8, 1e-10
    power[1, 5], power[2, 5] = 1e-9, 5e-11
    power[1, 6], power[2, 6] = 1e-9, 1e-9
    raw = pd.DataFrame({
        "node": [1, 2, 1], "start": [1.0, 1.0 + 3e-7, 2.0], "duration": [RREQ_S] * 3,
        "packet_class": [6, 6, 9], "to": [-1, -1, 4], "uid": [1, 2, 3], "aodv_type": [1, 1, -1],
    })  # fmt: skip
    raw.loc[3] = [2, 2.0 + 1e-7, RREQ_S, 6, -1, 4, 1]
    drops = pd.DataFrame({"node": [3, 3, 4, 5, 6], "time": [1.000004, 1.000004, 1.000004,
                                                            1.000004, 2.000004],
                          "uid": [1, 2, 1, 2, 3], "reason": [8, 9, 8, 9, 9]})  # fmt: skip
    kept = b.ns3_preamble_losses(raw, drops, power, params)
    assert sorted(zip(kept["node"], kept["frame"], strict=True)) == [(3, 0), (3, 1)]
    # a frame the rule already counted at that receiver is not counted twice
    counted = pd.DataFrame({"node": [3], "time": [1.0001], "frame": [1]})
    kept = b.ns3_preamble_losses(raw, drops, power, params, counted=counted)
    assert sorted(zip(kept["node"], kept["frame"], strict=True)) == [(3, 0)]


def test_idle_before_measures_the_wait_after_the_last_frame_the_sender_heard():
    senses = all_sense()
    senses[4, 1] = False  # node 1 does not hear node 4
    table = frames(
        (2, 1.0, b.RREQ),  # heard by 1; ends at 1.000848
        (4, 1.0005, b.RREQ),  # starts during 2's frame; 1 does not hear it
        (1, 1.0 + RREQ_S + b.DIFS_S + 3 * b.SLOT_S, b.RREQ),  # DIFS + 3 slots after 2's end
        (5, 3.0, b.RREQ),  # nothing before it within 0.2 s
    )
    idle = b.idle_before(table, senses)
    # nothing had ended before nodes 2, 4 and 5 started; node 1 waited for 2's frame (not
    # for 4's, which it does not hear) and then DIFS and 3 slots
    assert idle[0] == idle[1] == idle[3] == np.inf
    assert idle[2] == pytest.approx(b.DIFS_S + 3 * b.SLOT_S)
    none = pd.DataFrame({"node": [], "time": [], "frame": []}, dtype=np.int64)
    summary = b.summary(table, none, b.collision_pairs(table, none, senses), senses)
    waited = summary[summary["group"] == "RREQ: idle before start"].set_index("category")
    assert waited.loc[b.AFTER_BUSY[0], "count"] == 1
    assert waited.loc[b.AFTER_BUSY[1], "count"] == 3


SHORT = {"protocol": "udp", "duration": 6.0, "n_sources": 4, "reporting_interval": 1.0}


def test_the_ns3_frame_trace_agrees_with_the_packet_counter_and_changes_nothing():
    from transportlab.studies.wsn_reporting_interval import STUDY, scenario

    params = STUDY.parameters.validate(SHORT)
    traced = scenario.run_scenario(params, 1, 1, scenario.RunOptions(trace_frames=True))
    plain = STUDY.run(params, 1, 1)
    for name in ("packets", "counts", "agent"):
        assert traced[name].equals(plain[name]), name  # tracing changes no result
    counts = traced["counts"]
    sent = counts[counts["source"] == "wifi-phy-tx"]["count"].sum()
    assert len(traced["frames"]) == sent > 0  # a row per frame the PHYs sent
    lost = counts[counts["source"] == "ns2-collision-drop"]["count"].sum()
    assert len(traced["frame_losses"]) == lost
    table, losses = b.ns3_frames(traced["frames"], traced["frame_losses"])
    assert (losses["frame"] >= 0).all()  # every traced loss found its transmission
    # AODV's broadcasts are RREQs (RFC 3561 type 1) and last a 1-Mb/s RREQ frame's air time
    rreq = table[table["kind"] == b.RREQ]
    assert len(rreq) > 0 and (rreq["to"] == -1).all()
    assert rreq["duration"].nunique() == 1
