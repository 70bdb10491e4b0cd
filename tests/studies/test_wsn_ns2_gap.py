"""The sensor study's ns-3-vs-NS-2 gap attribution (ns2_gap) on hand-built trace fragments."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from tests.studies.test_wsn_ns2 import HAND_MADE, _line, params
from transportlab.studies.wsn_reporting_interval import analysis, ns2_gap, ns2_scenario
from transportlab.studies.wsn_reporting_interval import parameters as wsn_params

# A second report of sensor 8 (uid 6, CBR sequence 1) that waits 0.5 s for a route at its
# source and then goes straight to the sink, sent once, and a third (uid 7) never delivered.
_CBR = "-Is 8.0 -Id 0.5000 -It cbr -Il {size} -If 0 -Ii {uid} -Iv 30 -Pn cbr -Pi {seq} -Pf 0 -Po 0"
WAITING = "".join([
    _line("s", 2.000, 8, "AGT", "-Ma 0 -Md 0 -Ms 0 -Mt 0", _CBR.format(size=256, uid=6, seq=1)),
    _line("s", 2.500, 8, "RTR", "-Ma 0 -Md 0 -Ms 0 -Mt 0", _CBR.format(size=256, uid=6, seq=1)),
    _line("s", 2.503, 8, "MAC", "-Ma 13a -Md 0 -Ms 8 -Mt 800",
          _CBR.format(size=334, uid=6, seq=1)),
    _line("s", 2.520, 8, "MAC", "-Ma 13a -Md 0 -Ms 8 -Mt 800",
          _CBR.format(size=334, uid=6, seq=1)),  # a retry
    _line("r", 2.524, 0, "AGT", "-Ma 13a -Md 0 -Ms 8 -Mt 800",
          _CBR.format(size=276, uid=6, seq=1)),
    _line("s", 3.000, 8, "AGT", "-Ma 0 -Md 0 -Ms 0 -Mt 0", _CBR.format(size=256, uid=7, seq=2)),
])  # fmt: skip


def ns2_lines(text: str) -> pd.DataFrame:
    return ns2_gap._ns2_lines(io.StringIO(text))


def test_ns2_report_paths_time_each_part_of_a_reports_way():
    reports = ns2_gap.ns2_report_paths(ns2_lines(HAND_MADE + WAITING))
    assert reports["seq"].tolist() == [0, 1]  # the undelivered report 2 has no row
    first, second = reports.iloc[0], reports.iloc[1]
    assert (first["flow"], first["sent"], first["handed"], first["received"]) == (8, 1.0, 1.0, 1.02)
    assert first["hops"] == 2 and first["transmissions"] == 2  # node 8, then gateway 1
    assert second["handed"] - second["sent"] == pytest.approx(0.5)
    assert second["hops"] == 1 and second["transmissions"] == 2  # one retry


def test_delay_split_parts_add_up_and_count_the_reports_that_waited_for_a_route():
    ns2 = ns2_gap.ns2_report_paths(ns2_lines(HAND_MADE + WAITING))
    ns3 = ns2.assign(handed=ns2["sent"] + 0.001, transmissions=np.nan)  # no wait in ns-3
    table = ns2_gap.delay_split({"ns3": ns3, "ns2": ns2}).set_index("quantity")
    mean = table.loc["mean delay (ms)"]
    parts = (
        table.loc["part: wait at the source for a route (ms)"]
        + table.loc["part: interface to sink, every hop (ms)"]
    )
    assert mean["ns2"] == pytest.approx(parts["ns2"]) and mean["ns3"] == pytest.approx(parts["ns3"])
    assert mean["ns2"] == pytest.approx((20 + 524) / 2)
    assert table.loc["part: wait at the source for a route (ms)", "ns2"] == pytest.approx(250)
    assert table.loc["reports that waited for a route", "ns2"] == 1
    assert table.loc["reports that waited for a route", "ns3"] == 0
    assert table.loc["their mean wait at the source (ms)", "ns2"] == pytest.approx(500)
    assert table.loc["hops per report", "ns2"] == 1.5
    assert table.loc["data-frame transmissions per hop", "ns2"] == pytest.approx((1 + 2) / 2)


def test_ns3_report_paths_find_a_report_by_its_arrival_at_the_sink():
    # report (8, 0) handed to node 8's MAC at 1.2 after its agent sent it at 1.0, relayed by
    # node 1, received at 1.25; packet 2 is a routing packet; report (9, 0) was lost
    paths_table = pd.DataFrame({
        "point": ["mac_tx 8", "mac_tx 9", "mac_tx 1", "mac_tx 4", "sink_rx", "mac_tx 9"],
        "flow": [8, 9, 8, 4, 8, 9], "packet": [1, 3, 1, 2, 1, 3],
        "size": [292, 292, 292, 60, 292, 292],
        "time": [1.2, 1.21, 1.23, 1.24, 1.25, 1.3],
    })  # fmt: skip
    packets = pd.DataFrame({
        "event": ["sent", "sent", "received"], "flow": [8, 9, 8], "seq": [0, 0, 0],
        "time": [1.0, 1.0, 1.25], "sent_time": [1.0, 1.0, 1.0], "delay": [np.nan, np.nan, 0.25],
    })  # fmt: skip
    reports = ns2_gap.ns3_report_paths(paths_table, packets)
    assert len(reports) == 1
    report = reports.iloc[0]
    assert (report["flow"], report["seq"], report["sent"], report["handed"]) == (8, 0, 1.0, 1.2)
    assert report["received"] == 1.25 and report["hops"] == 2
    assert np.isnan(report["transmissions"])


def _packets(delivered: dict[tuple[int, int], float]) -> pd.DataFrame:
    flows = [k[0] for k in delivered]
    seqs = [k[1] for k in delivered]
    return pd.DataFrame({"event": "received", "flow": flows, "seq": seqs,
                         "delay": list(delivered.values())})  # fmt: skip


def test_delay_selection_terms_add_up_to_the_gap():
    ns2 = _packets({(1, 0): 0.010, (1, 1): 0.030, (2, 0): 1.000})
    ns3 = _packets({(1, 0): 0.010, (1, 1): 0.010, (3, 0): 0.040})
    table = ns2_gap.delay_selection(ns3, ns2).set_index("quantity")
    assert table.loc["reports delivered by both", "ns2"] == 2
    assert table.loc["reports delivered by this simulator only"].tolist() == [1, 1]
    gap = table.loc["gap: mean(NS-2) - mean(ns-3) (ms)", "ns2"]
    assert gap == pytest.approx(1040 / 3 - 60 / 3)
    own2 = table.loc["gap part: NS-2's own reports (ms)", "ns2"]
    same = table.loc["gap part: the same reports (ms)", "ns2"]
    own3 = table.loc["gap part: ns-3's own reports (ms)", "ns2"]
    assert own2 == pytest.approx(1040 / 3 - 20)  # NS-2's mean without its extra report: 20
    assert same == pytest.approx(20 - 10)
    assert own3 == pytest.approx(10 - 20)  # ns-3's extra report raises its mean to 20
    assert own2 + same + own3 == pytest.approx(gap)


def test_ns2_drop_causes_sum_to_the_compared_dropped_packets():
    values = params(protocol="udp", duration=3.0)
    tables = ns2_scenario.tables_from_trace(io.StringIO(HAND_MADE), values, {8: 1.0},
                                            np.zeros(wsn_params.N_NODES))  # fmt: skip
    causes = ns2_gap.drop_causes(tables["counts"], pd.DataFrame(), "ns2")
    by = causes.set_index(["cause", "kind"])["count"]
    assert by[(ns2_gap.COLLISION, "routing")] == 1
    assert by[("MAC retry limit", "data")] == 1 and by[("MAC retry limit", "RTS/CTS/ACK")] == 1
    assert by[("ARP", "routing")] == 1 and by[("routing: TTL", "routing")] == 1
    compared = analysis.summarise(values, tables["packets"], tables["counts"], 0.0)
    assert causes["count"].sum() == compared["dropped_packets"] == 5


def _ns3_counts(rows):
    return pd.DataFrame(rows, columns=["node", "source", "packet_class", "reason", "count"])


def test_ns3_drop_causes_read_ns3s_reasons_and_the_phys_collisions():
    counts = _ns3_counts([
        (1, "wifi-mac-drop", "udp-data", 2, 7), (1, "wifi-mac-drop", "routing", 0, 3),
        (2, "ipv4-drop", "udp-data", 2, 4), (2, "arp-drop", "udp-data", 0, 1),
        (3, "wifi-phy-rx-drop", "routing", 3, 100),  # left to ns2_collision_drops
        (3, "wifi-phy-tx", "udp-data", 0, 50),
    ])  # fmt: skip
    performance = pd.DataFrame({"ns2_collision_drops": [20]})
    by = ns2_gap.drop_causes(counts, performance, "ns3").set_index(["cause", "kind"])["count"]
    assert by[("MAC retry limit", "data")] == 7
    assert by[("interface queue full", "routing")] == 3
    assert by[("routing: no route", "data")] == 4 and by[("ARP", "data")] == 1
    assert by[(ns2_gap.COLLISION, "all")] == 20
    assert by.sum() == 35  # what analysis._trace_drops makes the compared metric
    raw = {"counts": counts, "performance": performance.assign(ns2_collisions=0)}
    assert analysis._trace_drops(raw, 0)["dropped_packets"] == 35
    with pytest.raises(ValueError, match="stock PHY"):
        ns2_gap.drop_causes(counts, pd.DataFrame({"ns2_collision_drops": [np.nan]}), "ns3")


def test_ns3_collision_drops_count_by_kind_only_the_frames_ns2_traces():
    """With the counter's ns2-collision-drop rows, ns-3's collision drops are counted by
    kind of frame, and the frames NS-2 frees untraced (overheard frames for another node,
    reason 1) are left out, in the drop causes as in the compared metric; all rows must
    add up to ns2_collision_drops."""
    source = ns2_gap.NS2_COLLISION_SOURCE
    counts = _ns3_counts([
        (3, source, "routing", 0, 12), (4, source, "routing", 0, 3),
        (3, source, "rts", 0, 2), (3, source, "rts", 1, 5), (5, source, "udp-data", 1, 1),
        (1, "wifi-mac-drop", "rts", 2, 4), (1, "wifi-mac-drop", "udp-data", 2, 4),
    ])  # fmt: skip
    performance = pd.DataFrame({"ns2_collision_drops": [23]})
    by = ns2_gap.drop_causes(counts, performance, "ns3").set_index(["cause", "kind"])["count"]
    assert by[(ns2_gap.COLLISION, "routing")] == 15
    assert by[(ns2_gap.COLLISION, "RTS/CTS/ACK")] == 2
    assert ns2_gap.COLLISION_UNTRACED not in by.index.get_level_values("cause")
    assert (ns2_gap.COLLISION, ns2_gap.ALL_KINDS) not in by.index
    # the RTS of a frame given up at the RTS retry limit is a retry-limit drop of its own
    assert by[("MAC retry limit", "RTS/CTS/ACK")] == 4 and by[("MAC retry limit", "data")] == 4
    assert by.sum() == 17 + 8
    raw = {"counts": counts, "performance": performance}
    assert analysis._trace_drops(raw, 0)["dropped_packets"] == 17 + 8
    with pytest.raises(ValueError, match="do not add up"):
        ns2_gap.drop_causes(counts, pd.DataFrame({"ns2_collision_drops": [24]}), "ns3")


def test_ns2_receive_side_drops_other_than_collisions_keep_their_own_cause():
    code = ns2_scenario.NS2_DROP_REASON_CODES
    counts = _ns3_counts([(1, "wifi-phy-rx-drop", "routing", code["COL"], 3),
                          (1, "wifi-phy-rx-drop", "routing", code["DUP"], 2)])  # fmt: skip
    by = ns2_gap.drop_causes(counts, pd.DataFrame(), "ns2").set_index("cause")["count"]
    assert by.to_dict() == {ns2_gap.COLLISION: 3, ns2_gap.RECEIVE_OTHER: 2}


def test_collision_table_counts_each_simulators_traced_losses_per_frame_sent():
    source, col = ns2_gap.NS2_COLLISION_SOURCE, ns2_scenario.NS2_DROP_REASON_CODES["COL"]
    ns3 = {"counts": _ns3_counts([
        (1, "wifi-phy-tx", "routing", 0, 40), (1, "wifi-phy-tx", "rts", 0, 10),
        (2, source, "routing", 0, 6), (2, source, "rts", 1, 3),
    ])}  # fmt: skip
    ns2 = {"counts": _ns3_counts([
        (1, "wifi-phy-tx", "routing", 0, 50), (1, "wifi-phy-tx", "arp", 0, 5),
        (2, "wifi-phy-rx-drop", "routing", col, 100), (2, "wifi-phy-rx-drop", "arp", col, 4),
        (2, "wifi-phy-rx-drop", "routing", col + 1, 7),  # not a collision
    ])}  # fmt: skip
    table = ns2_gap.collision_table(ns3, ns2).set_index(["kind", "quantity"])
    traced = "decodable frames lost in collisions, NS-2 traces them"
    untraced = "lost frames for another node, NS-2 frees them untraced"
    per_frame = "traced collision losses per frame sent"
    assert table.loc[("routing", "frames sent")].tolist() == [40, 50]
    assert table.loc[("routing", traced)].tolist() == [6, 100]
    assert table.loc[("routing", per_frame)].tolist() == pytest.approx([6 / 40, 100 / 50])
    assert table.loc[("RTS/CTS/ACK", untraced), "ns3"] == 3
    assert np.isnan(table.loc[("RTS/CTS/ACK", untraced), "ns2"])
    assert table.loc[("ARP", traced)].tolist() == [0, 4]
    assert table.loc[("all", traced)].tolist() == [6, 104]
    assert table.loc[("all", "frames sent")].tolist() == [50, 55]


def test_drop_table_shares_the_gap_between_causes():
    ns3 = {"counts": _ns3_counts([(1, "wifi-mac-drop", "udp-data", 2, 10)]),
           "performance": pd.DataFrame({"ns2_collision_drops": [30]})}  # fmt: skip
    code = ns2_scenario.NS2_DROP_REASON_CODES
    ns2 = {"counts": _ns3_counts([(1, "wifi-phy-rx-drop", "routing", code["COL"], 80),
                                  (1, "wifi-mac-drop", "udp-data", code["RET"], 10)]),
           "performance": pd.DataFrame()}  # fmt: skip
    table = ns2_gap.drop_table(ns3, ns2).set_index(["cause", "kind"])
    assert table.loc[("total", "all"), ["ns3", "ns2"]].tolist() == [40, 90]
    assert table.loc[(ns2_gap.COLLISION, "routing"), "share_of_gap"] == pytest.approx(80 / 50)
    assert table.loc[(ns2_gap.COLLISION, "all"), "share_of_gap"] == pytest.approx(-30 / 50)
    assert table.loc[("MAC retry limit", "data"), "ns3_minus_ns2"] == 0
    assert table["share_of_gap"].iloc[:-1].sum() == pytest.approx(1.0)


# --- ns-3: the traced run ----------------------------------------------------------------------

SHORT = {"protocol": "udp", "duration": 6.0, "n_sources": 4, "reporting_interval": 1.0}


def test_a_traced_ns3_run_finds_every_delivered_report_on_its_path_and_changes_nothing():
    from transportlab.studies.wsn_reporting_interval import STUDY, scenario

    params = STUDY.parameters.validate(SHORT)
    traced = scenario.run_scenario(params, 1, 1, scenario.RunOptions(trace_paths=True))
    plain = STUDY.run(params, 1, 1)
    for name in ("packets", "counts", "agent"):
        assert traced[name].equals(plain[name]), name  # tracing changes no result
    reports = ns2_gap.ns3_report_paths(traced["paths"], traced["packets"])
    delivered = traced["packets"][traced["packets"]["event"] == "received"]
    assert len(reports) == len(delivered) > 0
    assert reports["handed"].notna().all() and (reports["hops"] >= 1).all()
    assert (reports["sent"] <= reports["handed"]).all()
    assert (reports["handed"] < reports["received"]).all()
    # every hop takes at least RTS, CTS and the report's frame at 1 Mb/s with their SIFS (a
    # quiet exchange without DIFS and backoff; the MAC passes a frame up before its ACK)
    quiet = analysis.exchange_time_s(284) - analysis.DIFS_S - analysis.CW_MIN / 2 * analysis.SLOT_S
    ack = analysis.SIFS_S + analysis.PLCP_S + analysis.ACK_BYTES * 8 / 1e6
    airtime = quiet - ack
    per_hop = (reports["received"] - reports["handed"]) / reports["hops"]
    assert (per_hop >= airtime).all()


def test_traced_point_command_line_passes_the_point_and_prints_what_was_written(capsys):
    calls = []

    def write_tables(protocol, intervals, run, quick):
        calls.append((protocol, intervals, run, quick))
        return "a.csv" if protocol == "tcp" else ["b.csv", "c.png"]

    assert ns2_gap.traced_point_main(write_tables, "t", ["--interval", "5", "--interval", "1",
                                                         "--run", "2", "--quick"]) == 0  # fmt: skip
    assert ns2_gap.traced_point_main(write_tables, "t", ["--protocol", "tcp"]) == 0
    assert calls == [("udp", [5.0, 1.0], 2, True), ("tcp", None, 1, False)]
    assert capsys.readouterr().out.split() == ["b.csv", "c.png", "a.csv"]
    with pytest.raises(SystemExit):
        ns2_gap.traced_point_main(write_tables, "t", ["--protocol", "quic"])
