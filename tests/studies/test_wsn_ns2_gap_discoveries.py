"""Route discoveries, RREQ fates, RREP and RERR origins counted in both simulators' frames
(ns2_gap_discoveries), on a hand-built NS-2 trace and a hand-built ns-3 frame table."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from transportlab.studies.wsn_reporting_interval import ns2_gap_discoveries as disc
from transportlab.studies.wsn_reporting_interval import ns2_gap_routes as routes

SINK = 0
_HEAD = "-Nx 0.00 -Ny 0.00 -Nz 0.00 -Ne 1.000000"


def _rreq(event, time, node, sender, origin, bid, ttl, level="RTR", dseq=0):
    """A RREQ of ``origin`` (broadcast id ``bid``, destination sequence number ``dseq``)
    for the sink, as NS-2 traces it."""
    return (
        f"{event} -t {time:.9f} -Hs {node} -Hd -2 -Ni {node} {_HEAD} -Nl {level} -Nw --- "
        f"-Ma 0 -Md ffffffff -Ms {sender:x} -Mt 800 -Is {sender}.255 -Id -1.255 -It AODV "
        f"-Il 48 -If 0 -Ii 0 -Iv {ttl} -P aodv -Pt 0x2 -Ph 1 -Pb {bid} -Pd {SINK} -Pds {dseq} "
        f"-Ps {origin} -Pss 4 -Pc REQUEST"
    )


def _rrep(event, time, node, sender, next_hop, originator, level="RTR"):
    """A RREP for the sink on its way to ``originator`` (its IP destination)."""
    return (
        f"{event} -t {time:.9f} -Hs {node} -Hd {next_hop} -Ni {node} {_HEAD} -Nl {level} "
        f"-Nw --- -Ma 13a -Md {next_hop:x} -Ms {sender:x} -Mt 800 -Is {sender}.255 "
        f"-Id {originator}.255 -It AODV -Il 44 -If 0 -Ii 0 -Iv 30 -P aodv -Pt 0x4 -Ph 1 "
        f"-Pd {SINK} -Pds 4 -Pl 10.000000 -Pc REPLY"
    )


def _line(event, time, node, level, rest, reason="---"):
    return (
        f"{event} -t {time:.9f} -Hs {node} -Hd -2 -Ni {node} {_HEAD} -Nl {level} -Nw {reason} "
        f"-Ma 0 -Md ffffffff -Ms {node:x} -Mt 800 {rest}"
    )


_RERR = "-Is {n}.255 -Id -1.255 -It AODV -Il 32 -If 0 -Ii 0 -Iv 1 -P aodv -Pt 0x8 -Pc ERROR"
_CBR = "-Is {n}.0 -Id 0.2 -It cbr -Il 296 -If 0 -Ii 9 -Iv 30 -Pn cbr -Pi 3 -Pf 0 -Po 0"

# Node 3 searches the sink: its first RREQ (TTL 30) is rebroadcast by node 2 and answered
# by the sink through node 2; node 4 hears it first from node 3 (and does nothing: it
# arrived with TTL 30, so not for lack of TTL) and again from node 2 (a duplicate); node 3
# hears its own RREQ back. Node 2 passes it on asking for its own number for the sink, 3
# (odd: a route it had invalidated). Later node 3's MAC gives up a report (a link break), it sends a
# RERR and searches again (TTL 3, unanswered), then retries (TTL 5), which node 1 receives
# with TTL 1 and so cannot pass on; both ask for sequence number 5, one past the RREP's 4
# (as ns-2.35 does once a route is down).
NS2_TRACE = "".join(f"{line}\n" for line in [
    _rreq("s", 1.00, 3, 3, 3, 1, 30, level="MAC"),
    _rreq("r", 1.01, 2, 3, 3, 1, 30),
    _rreq("r", 1.01, 4, 3, 3, 1, 30),
    _rreq("s", 1.02, 2, 2, 3, 1, 29, level="MAC", dseq=3),  # raised to its own, odd
    _rreq("r", 1.03, 3, 2, 3, 1, 29),
    _rreq("r", 1.03, 4, 2, 3, 1, 29),
    _rreq("r", 1.03, SINK, 2, 3, 1, 29),
    _rrep("s", 1.04, SINK, SINK, 2, 3, level="MAC"),
    _rrep("r", 1.045, 2, SINK, 2, 3),
    _rrep("s", 1.05, 2, 2, 3, 3, level="MAC"),
    _rrep("r", 1.06, 3, 2, 3, 3),
    _line("d", 5.0, 3, "MAC", _CBR.format(n=3), reason="RET"),
    _line("s", 5.001, 3, "MAC", _RERR.format(n=3)),
    _rreq("s", 5.1, 3, 3, 3, 2, 3, level="MAC", dseq=5),
    _rreq("s", 5.5, 3, 3, 3, 3, 5, level="MAC", dseq=5),
    _rreq("r", 5.51, 1, 3, 3, 3, 1, dseq=5),
])  # fmt: skip


def ns2_frames():
    return routes.ns2_frames(io.StringIO(NS2_TRACE))


def test_ns2_frames_read_the_ttl_and_a_rreps_originator():
    frames = ns2_frames()
    first = frames[(frames["kind"] == "RREQ") & (frames["event"] == "tx")].iloc[0]
    assert (first["node"], first["origin"], first["seq"], first["ttl"]) == (3, 3, 1, 30)
    rrep = frames[(frames["kind"] == "RREP") & (frames["event"] == "tx")].iloc[0]
    assert (rrep["node"], rrep["origin"], rrep["target"]) == (SINK, 3, SINK)


def test_each_rreq_originated_gets_its_reason_ring_ttl_and_rebroadcasts():
    requests = disc.route_requests(ns2_frames())
    assert requests["seq"].tolist() == [1, 2, 3]
    assert requests["ttl"].tolist() == [30, 3, 5]
    assert requests["reason"].tolist() == [disc.FIRST, disc.AFTER_BREAK, disc.RETRY]
    assert requests["search"].tolist() == [1, 2, 2]
    assert requests["ring"].tolist() == [1, 1, 2]
    assert requests["rebroadcasts"].tolist() == [1, 0, 0]
    assert requests["answered"].tolist() == [True, False, False]
    assert requests["seqno_class"].tolist() == [disc.SEQNO_NONE, disc.SEQNO_RAISED,
                                                disc.SEQNO_RAISED]  # fmt: skip


def test_every_rreq_received_gets_one_fate():
    fates = disc.rreq_receptions(ns2_frames()).set_index(["node", "seq", "time"])["fate"]
    assert fates[(2, 1, 1.01)] == disc.REBROADCAST
    assert fates[(4, 1, 1.01)] == disc.NOT_FORWARDED
    assert fates[(4, 1, 1.03)] == disc.DUPLICATE
    assert fates[(3, 1, 1.03)] == disc.OWN
    assert fates[(SINK, 1, 1.03)] == disc.DESTINATION
    assert fates[(1, 3, 5.51)] == disc.TTL_ZERO
    assert len(fates) == 6


def test_rreps_and_rerrs_are_traced_to_where_they_come_from():
    frames = ns2_frames()
    assert disc.rrep_origins(frames).to_dict() == {disc.BY_DESTINATION: 1, disc.FORWARDED: 1}
    assert disc.rerr_causes(frames)["cause"].tolist() == [disc.RERR_LINK]


def _ns3(time, node, event, kind, peer=-1, dst=-1, seq=-1, origin=-1, target=-1, ttl=64,
         reason=-1, dseq=-1):  # fmt: skip
    return {"time": time, "node": node, "event": event, "kind": kind, "peer": peer,
            "src": node if event == "tx" else peer, "dst": dst, "seq": seq, "origin": origin,
            "target": target, "hops": 0, "reason": reason, "ttl": ttl,
            "dst_seqno": dseq}  # fmt: skip


# ns-3 frames (FrameLog's columns): node 5 searches the sink; node 6 answers from its own
# route (an intermediate RREP, which node 5 receives). Node 7 receives a report to forward
# and sends a RERR (no route); node 9 passes a RERR on; node 8 sends one with nothing
# before it; node 10 sends one 10.5 s after its last data frame (to the sink); node 5's
# MAC drops a frame from a full queue (not a link break) and it searches the sink again
# once its route has expired, asking for the sequence number the RREP gave it.
NS3_FRAMES = pd.DataFrame([
    _ns3(0.50, 5, "tx", "RREQ", seq=1, origin=5, target=SINK, ttl=5),
    _ns3(0.50, 5, "tx", "RREQ", seq=1, origin=5, target=SINK, ttl=5),  # sent twice: once
    _ns3(0.51, 6, "rx", "RREQ", peer=5, seq=1, origin=5, target=SINK, ttl=5),
    _ns3(0.52, 6, "tx", "RREP", peer=5, dst=5, origin=5, target=SINK, dseq=4),
    _ns3(0.53, 5, "rx", "RREP", peer=6, dst=5, origin=5, target=SINK, dseq=4),
    _ns3(1.00, 10, "tx", "data", peer=SINK, dst=SINK),
    _ns3(11.5, 10, "tx", "RERR"),
    _ns3(2.00, 7, "rx", "data", peer=6, dst=SINK),
    _ns3(2.01, 7, "tx", "RERR"),
    _ns3(9.00, 8, "tx", "RERR"),
    _ns3(9.50, 9, "rx", "RERR", peer=8),
    _ns3(9.51, 9, "tx", "RERR"),
    _ns3(20.0, 5, "mac-drop", "data", peer=6, dst=SINK, reason=0),
    _ns3(30.0, 5, "tx", "RREQ", seq=2, origin=5, target=SINK, ttl=7, dseq=4),
])  # fmt: skip
NS3_PACKETS = pd.DataFrame({"event": ["sent", "sent", "received"], "flow": [5, 5, 5],
                            "seq": [0, 1, 0]})  # fmt: skip


def test_ns3_frames_count_intermediate_replies_and_rerr_causes():
    requests = disc.route_requests(NS3_FRAMES)
    assert requests["reason"].tolist() == [disc.FIRST, disc.AFTER_ROUTE]
    assert requests["answered"].tolist() == [True, False]
    assert requests["seqno_class"].tolist() == [disc.SEQNO_NONE, disc.SEQNO_AS_HEARD]
    fates = disc.rreq_receptions(NS3_FRAMES)["fate"].tolist()
    assert fates == [disc.REPLIED]
    assert disc.rrep_origins(NS3_FRAMES).to_dict() == {disc.BY_INTERMEDIATE: 1}
    causes = disc.rerr_causes(NS3_FRAMES).set_index("node")["cause"]
    assert causes.to_dict() == {7: disc.RERR_NO_ROUTE, 8: disc.RERR_OTHER, 9: disc.RERR_PASSED,
                                10: disc.RERR_IDLE}  # fmt: skip


def test_the_discovery_table_puts_both_simulators_side_by_side():
    ns2_packets = pd.DataFrame({"event": ["sent"], "flow": [3], "seq": [3]})
    table = disc.discovery_table({
        "ns2": {"frames": ns2_frames(), "packets": ns2_packets},
        "ns3: port": {"frames": NS3_FRAMES, "packets": NS3_PACKETS},
    })  # fmt: skip
    rows = table.set_index(["quantity", "detail"])
    assert rows.loc[("RREQs originated", "all")].tolist() == [3, 2]
    assert rows.loc[("RREQs originated", "TTL 30")].tolist() == [1, 0]
    assert rows.loc[("route searches", "all")].tolist() == [2, 2]
    assert rows.loc[("route searches", "answered")].tolist() == [1, 1]
    assert rows.loc[("route searches", "with 2 RREQ(s)")].tolist() == [1, 0]
    assert rows.loc[("RREQ frames sent", "all")].tolist() == [4, 3]
    assert rows.loc[("RREQ frames sent", "rebroadcasts")].tolist() == [1, 0]
    assert rows.loc[("RREQ frames sent", disc.RAISED_EN_ROUTE)].tolist() == [1, 0]
    assert rows.loc[("RREQ frames sent", disc.RAISED_ODD)].tolist() == [1, 0]
    assert rows.loc[("rebroadcasts per RREQ originated", "TTL 30")].tolist() == [1.0, 0]
    assert rows.loc[("RREQs received", disc.DUPLICATE)].tolist() == [1, 0]
    assert rows.loc[("RERR frames sent", "all")].tolist() == [1, 4]
    idle_at_sink = ("RERR frames sent", "of the last: that data frame to or from the sink")
    assert rows.loc[idle_at_sink].tolist() == [0, 1]
    assert rows.loc[("RREQs originated", disc.SEQNO_RAISED)].tolist() == [2, 0]
    assert rows.loc[("RREQs originated", disc.SEQNO_AS_HEARD)].tolist() == [0, 1]
    replies = ("nodes answering from their own route per RREQ originated", disc.SEQNO_NONE)
    assert rows.loc[replies].tolist() == [0.0, 1.0]
    assert rows.loc[("data frames given up at the retry limit", "all")].tolist() == [1, 0]
    assert rows.loc[("reports", "delivered")].tolist() == [0, 1]
    labelled = table.assign(reporting_interval=1.0)
    numbers = disc.key_numbers(labelled).set_index("quantity")
    assert numbers.loc["RREQ frames sent: all", "1 s NS-2"] == 4
    assert numbers.loc["RERR frames sent: all", "1 s port"] == 4


# ns-3 frames for the fate of each first copy: node 5 asks for the sink (no number known)
# and nine nodes hear it from node 5. Before, nodes 6, 8 and 15 received a RREP for the
# sink from node 7, node 10 one from node 9, node 11 one from node 5 itself. Node 6 answers
# at once, node 8 1 s late, node 15's MAC gives its answer up; node 11's route leads back
# to the RREQ's sender (ns-3 drops it); node 12 gets it with TTL 1; node 10 (a route) and
# node 13 (none) do nothing; node 14 passes it on and the sink, hearing it from node 14,
# answers. Node 6 hears node 14's copy too (a duplicate) and node 5 its own RREQ back:
# neither is a first copy.
FATE_FRAMES = pd.DataFrame([
    _ns3(0.10, 6, "rx", "RREP", peer=7, dst=6, origin=6, target=SINK, dseq=2),
    _ns3(0.10, 8, "rx", "RREP", peer=7, dst=8, origin=8, target=SINK, dseq=2),
    _ns3(0.10, 15, "rx", "RREP", peer=7, dst=15, origin=15, target=SINK, dseq=2),
    _ns3(0.10, 10, "rx", "RREP", peer=9, dst=10, origin=10, target=SINK, dseq=2),
    _ns3(0.10, 11, "rx", "RREP", peer=5, dst=11, origin=11, target=SINK, dseq=2),
    _ns3(1.00, 5, "tx", "RREQ", seq=1, origin=5, target=SINK, ttl=30),
    *[_ns3(1.01, node, "rx", "RREQ", peer=5, seq=1, origin=5, target=SINK, ttl=30)
      for node in (6, 8, 10, 11, 13, 14, 15)],
    _ns3(1.01, 12, "rx", "RREQ", peer=5, seq=1, origin=5, target=SINK, ttl=1),
    _ns3(1.02, 6, "tx", "RREP", peer=5, dst=5, origin=5, target=SINK, dseq=2),
    _ns3(1.02, 14, "tx", "RREQ", seq=1, origin=5, target=SINK, ttl=29),
    _ns3(1.03, SINK, "rx", "RREQ", peer=14, seq=1, origin=5, target=SINK, ttl=29),
    _ns3(1.03, 6, "rx", "RREQ", peer=14, seq=1, origin=5, target=SINK, ttl=29),
    _ns3(1.03, 5, "rx", "RREQ", peer=14, seq=1, origin=5, target=SINK, ttl=29),
    _ns3(1.04, SINK, "tx", "RREP", peer=14, dst=5, origin=5, target=SINK, dseq=4),
    _ns3(2.01, 8, "tx", "RREP", peer=5, dst=5, origin=5, target=SINK, dseq=2),
    _ns3(2.50, 15, "mac-drop", "RREP", peer=5, dst=5, origin=5, target=SINK, dseq=2,
         reason=routes.NS3_RETRY_LIMIT),
])  # fmt: skip


def test_each_first_copy_of_a_rreq_gets_its_fate_and_the_route_its_node_held():
    copies = disc.first_copy_fates(FATE_FRAMES).set_index("node")
    assert copies["fate"].to_dict() == {
        6: disc.COPY_REPLIED, 8: disc.COPY_LATE, 10: disc.COPY_SILENT_ROUTE,
        11: disc.COPY_LOOP, 13: disc.COPY_SILENT, 14: disc.COPY_REBROADCAST,
        12: disc.COPY_TTL, SINK: disc.COPY_DESTINATION, 15: disc.COPY_GIVEN_UP,
    }  # fmt: skip
    assert copies["next_hop"].to_dict() == {6: 7, 8: 7, 10: 9, 11: 5, 13: -1, 14: -1, 15: 7,
                                            12: -1, SINK: -1}  # fmt: skip
    assert copies.loc[SINK, "sender"] == 14
    # every fate but NS-2's ARP drop (ns-3's ARP entries are all there from the start)
    assert set(disc.FIRST_COPY_FATES) - set(copies["fate"]) == {disc.COPY_ARP}


def test_first_copies_are_counted_per_rreq_with_no_known_number():
    table = disc.discovery_table({"ns3: port": {"frames": FATE_FRAMES,
                                                "packets": NS3_PACKETS}})  # fmt: skip
    rows = table.set_index(["quantity", "detail"])["ns3: port"]
    assert rows[(disc.FIRST_COPIES, "all")] == 9  # one RREQ, nine nodes
    assert rows[(disc.FIRST_COPIES, disc.ROUTE_HELD)] == 5  # nodes 6, 8, 10, 11, 15
    assert rows[(disc.FIRST_COPIES, disc.ROUTE_HELD_REBROADCAST)] == 0
    for fate in disc.FIRST_COPY_FATES:
        assert rows[(disc.FIRST_COPIES, fate)] == (fate != disc.COPY_ARP)
    assert rows[(disc.COPY_SPAN, "longest")] == pytest.approx(0.02)  # node 6: 1.01 to 1.03


def test_ns2_first_copies_get_their_fates():
    fates = disc.first_copy_fates(ns2_frames()).set_index(["node", "seq"])["fate"]
    assert fates.to_dict() == {(2, 1): disc.COPY_REBROADCAST, (4, 1): disc.COPY_SILENT,
                               (SINK, 1): disc.COPY_DESTINATION,
                               (1, 3): disc.COPY_TTL}  # fmt: skip


def test_an_ns2_rrep_dropped_by_arp_is_an_answer_lost_before_the_mac():
    # node 4 holds a route to the sink (a RREP from node 2), answers node 3's RREQ, and
    # NS-2's ARP drops the RREP (a newer packet for the same unresolved next hop)
    arp_drop = _rrep("d", 1.02, 4, 4, 3, 3, level="IFQ").replace("-Nw ---", "-Nw ARP")
    trace = "".join(f"{line}\n" for line in [
        _rrep("r", 0.50, 4, 2, 4, 4),
        _rreq("s", 1.00, 3, 3, 3, 1, 30, level="MAC"),
        _rreq("r", 1.01, 4, 3, 3, 1, 30),
        arp_drop,
    ])  # fmt: skip
    frames = routes.ns2_frames(io.StringIO(trace))
    dropped = frames[frames["event"] == "arp-drop"]
    assert dropped[["node", "kind", "origin", "reason_name"]].values.tolist() == [
        [4, "RREP", 3, "ARP"]
    ]
    copies = disc.first_copy_fates(frames)
    assert copies[["node", "next_hop", "fate"]].values.tolist() == [[4, 2, disc.COPY_ARP]]


def test_the_two_gaps_split_into_the_first_copies_fates():
    # per RREQ: NS-2's ten first copies (8 rebroadcast, 1 answered from a route, 0.5 by
    # the destination, 0.5 lost to its ARP), the port's seven (3 rebroadcast, 2 answered
    # at once, 0.5 each by the destination, late, given up, and the loop rule)
    ns2 = {"all": 10, disc.ROUTE_HELD: 4, disc.COPY_REBROADCAST: 8, disc.COPY_REPLIED: 1,
           disc.COPY_DESTINATION: 0.5, disc.COPY_ARP: 0.5}  # fmt: skip
    port = {"all": 7, disc.ROUTE_HELD: 5, disc.COPY_REBROADCAST: 3, disc.COPY_REPLIED: 2,
            disc.COPY_DESTINATION: 0.5, disc.COPY_LATE: 0.5, disc.COPY_GIVEN_UP: 0.5,
            disc.COPY_LOOP: 0.5}  # fmt: skip
    arp = {disc.COPY_REBROADCAST: 7.5, disc.COPY_REPLIED: 1.2}
    details = ["all", disc.ROUTE_HELD, *disc.FIRST_COPY_FATES]
    table = pd.DataFrame({
        "reporting_interval": 1.0, "quantity": disc.FIRST_COPIES, "detail": details,
        "ns2": [ns2.get(d, 0.0) for d in details],
        f"ns3: {disc.PORT}": [port.get(d, 0.0) for d in details],
        f"ns3: {disc.OWN_ARP}": [arp.get(d, 0.0) for d in details],
    })  # fmt: skip
    gap = disc.first_copy_gap(table).set_index("quantity")["1 s"]
    assert gap[disc.GAP_REBROADCASTS] == 5  # 8 - 3
    assert gap[disc.PART_REACH] == 3  # 10 - 7 first copies
    assert gap[disc.PART_ANSWERS] == 1.5  # 3.5 - 2 answered
    assert (gap[disc.PART_TTL], gap[disc.PART_LOOP], gap[disc.PART_SILENT]) == (0, 0.5, 0)
    assert gap[disc.GAP_REPLIES] == 1  # 2 - 1
    assert gap[disc.PART_HOLDERS] == 0.25  # (5 - 4) route holders x 1/4
    assert gap[disc.PART_SHARE] == 0.75  # (2/5 - 1/4) x 5 route holders
    assert gap[disc.GAP_REBROADCASTS_ARP] == 0.5
    assert gap[disc.GAP_REPLIES_ARP] == 0.2
    shown = disc.first_copy_table(table)
    assert list(shown.columns[1:]) == ["1 s NS-2", "1 s port", "1 s ns-3 ARP"]


def test_first_copies_are_counted_per_rreq_for_several_runs():
    # FATE_FRAMES: node 5's one RREQ with no number known, nine first copies (five at route
    # holders), one of each fate but NS-2's ARP drop; node 5 and node 14 send it (2 frames)
    # and 11 copies are received (eight of node 5's frame, three of node 14's, whose
    # neighbours are just those three; the RREP node 6 sends at the same 1.02 s starts
    # together with it)
    counts = disc.first_copy_counts(FATE_FRAMES)
    assert len(counts) == 1
    row = counts.iloc[0]
    assert (row["origin"], row["seq"], row["rreqs"], row["copies"], row["route_held"]) == (
        5, 1, 1, 9, 5)  # fmt: skip
    assert [row[fate] for fate in disc.FIRST_COPY_FATES] == [
        fate != disc.COPY_ARP for fate in disc.FIRST_COPY_FATES
    ]
    assert (row["frames"], row["receptions"]) == (2, 11)
    assert (row["own_frames"], row["own_receivers"]) == (1, 8)
    assert (row["rebroadcasts"], row["receivers"], row["neighbours"]) == (1, 3, 3)
    assert (row["together"], row["together_receivers"], row["together_neighbours"]) == (1, 3, 3)


def test_rebroadcasts_starting_together_are_told_from_the_others():
    # node 1 asks for the sink (no number known); nodes 2, 3, 4 hear it and rebroadcast at
    # 1 s, 10 us later and 50 us later: 2 and 3 start within 20 us of each other, 4 after
    # both. Node 2's frame reaches nodes 1 and 5, node 3's none, node 4's nodes 1 and 5.
    # Each sender has two neighbours (nodes that received any of its frames in the run:
    # node 3's two from a report before).
    frames = pd.DataFrame([
        _ns3(0.50, 5, "rx", "data", peer=3, dst=SINK),
        _ns3(0.50, 6, "rx", "data", peer=3, dst=SINK),
        _ns3(0.99, 1, "tx", "RREQ", seq=1, origin=1, target=SINK, ttl=30),
        *[_ns3(0.991, n, "rx", "RREQ", peer=1, seq=1, origin=1, target=SINK, ttl=30)
          for n in (2, 3, 4)],
        _ns3(1.0, 2, "tx", "RREQ", seq=1, origin=1, target=SINK, ttl=29),
        _ns3(1.00001, 3, "tx", "RREQ", seq=1, origin=1, target=SINK, ttl=29),
        _ns3(1.00005, 4, "tx", "RREQ", seq=1, origin=1, target=SINK, ttl=29),
        *[_ns3(1.001, n, "rx", "RREQ", peer=2, seq=1, origin=1, target=SINK, ttl=29)
          for n in (1, 5)],
        *[_ns3(1.002, n, "rx", "RREQ", peer=4, seq=1, origin=1, target=SINK, ttl=29)
          for n in (1, 5)],
    ])  # fmt: skip
    row = disc.first_copy_counts(frames).iloc[0]
    assert (row["copies"], row[disc.COPY_REBROADCAST], row["route_held"]) == (4, 3, 0)
    assert (row["own_frames"], row["own_receivers"]) == (1, 3)
    assert (row["rebroadcasts"], row["receivers"], row["neighbours"]) == (3, 4, 6)
    assert (row["together"], row["together_receivers"], row["together_neighbours"]) == (2, 2, 4)
    table = disc.first_copy_run_table({1: {"ns2": disc.first_copy_counts(frames),
                                           "port": disc.first_copy_counts(frames)}},
                                      resamples=10)  # fmt: skip
    pooled = table[table["run"] == "pooled"].set_index("quantity")
    assert pooled.loc[disc.HEARD_OWN, "ns2"] == 3
    assert pooled.loc[disc.HEARD_REBROADCAST, "port"] == 1.333  # 4 receivers / 3 frames
    assert pooled.loc[disc.NEIGHBOURS, "ns2"] == 0.667  # 4 of 6
    assert pooled.loc[disc.STARTS_TOGETHER, "ns2"] == 0.667  # 2 of 3 rebroadcasts
    assert pooled.loc[disc.NEIGHBOURS_TOGETHER, "ns2"] == 0.5  # 2 of 4
    assert pooled.loc[disc.NEIGHBOURS_APART, "ns2"] == 1  # node 4: 2 of 2
    # one run: every resample is that run
    assert pooled.loc[disc.NEIGHBOURS_TOGETHER, ["ns2_low", "ns2_high"]].tolist() == [0.5, 0.5]


def _counted(*rreqs):
    """A first_copy_counts table of hand-made RREQs (dicts of the non-zero columns)."""
    columns = ["origin", "seq", "rreqs", "copies", "route_held", *disc.FIRST_COPY_FATES,
               "frames", "receptions", "own_frames", "own_receivers", "rebroadcasts",
               "receivers", "neighbours", "together", "together_receivers",
               "together_neighbours"]  # fmt: skip
    return pd.DataFrame([{c: r.get(c, 1 if c == "rreqs" else 0) for c in columns}
                         for r in rreqs], columns=columns)  # fmt: skip


def test_first_copies_over_runs_per_run_and_pooled_with_intervals():
    reb, ttl = disc.COPY_REBROADCAST, disc.COPY_TTL
    # run 1: NS-2 one RREQ (10 first copies, 8 rebroadcast), the port two (6 and 4 first
    # copies, 3 and 2 rebroadcast, one dropped at TTL 1); run 2: NS-2 one (20, 16), the
    # port one (10, 6, two at TTL 1)
    counts = {
        1: {"ns2": _counted({"copies": 10, reb: 8}),
            "port": _counted({"copies": 6, reb: 3, ttl: 1}, {"copies": 4, reb: 2})},
        2: {"ns2": _counted({"copies": 20, reb: 16}),
            "port": _counted({"copies": 10, reb: 6, ttl: 2})},
    }  # fmt: skip
    table = disc.first_copy_run_table(counts)
    assert table["run"].unique().tolist() == ["1", "2", "pooled"]
    rows = table.set_index(["run", "quantity"])
    rebroadcast = disc.PER_RREQ + reb
    either = disc.PER_RREQ + disc.REBROADCAST_OR_TTL
    assert rows.loc[("1", disc.RUN_RREQS), ["ns2", "port", "n_runs"]].tolist() == [1, 2, 1]
    assert rows.loc[("1", rebroadcast), ["ns2", "port", "ns2_minus_port"]].tolist() == [
        8, 2.5, 5.5]  # fmt: skip
    assert rows.loc[("1", either), "ns2_minus_port"] == 5  # 8 - (3 + 2 + 1) / 2
    assert rows.loc[("2", either), "ns2_minus_port"] == 8  # 16 - (6 + 2)
    assert rows.loc[("1", disc.PER_RREQ + disc.RUN_COPIES), "ns2_minus_port"] == 5  # 10 - 5
    assert rows.loc[("2", disc.SHARE + reb), ["ns2", "port"]].tolist() == [0.8, 0.6]
    assert pd.isna(rows.loc[("1", rebroadcast), "ns2_minus_port_low"])
    # pooled: per RREQ of both runs (NS-2 2 RREQs, the port 3)
    assert rows.loc[("pooled", disc.RUN_RREQS), ["ns2", "port", "n_runs"]].tolist() == [2, 3, 2]
    assert rows.loc[("pooled", rebroadcast), ["ns2", "port", "ns2_minus_port"]].tolist() == [
        12, 3.667, 8.333]  # 24 / 2, 11 / 3  # fmt: skip
    assert rows.loc[("pooled", either), "ns2_minus_port"] == 7.333  # 12 - 14 / 3
    assert rows.loc[("pooled", disc.SHARE + reb), ["ns2", "port"]].tolist() == [0.8, 0.55]
    # resamples of two runs: both run 1 (a quarter of them), both run 2 (a quarter), one
    # of each; the 2.5 and 97.5 percentiles are the two extremes
    assert rows.loc[("pooled", rebroadcast), ["ns2_low", "ns2_high"]].tolist() == [8, 16]
    interval = ["ns2_minus_port_low", "ns2_minus_port_high"]
    assert rows.loc[("pooled", rebroadcast), interval].tolist() == [5.5, 10]
    assert rows.loc[("pooled", disc.RUN_RREQS), ["ns2_low", "ns2_high"]].isna().all()


def test_the_command_line_writes_the_first_copies_of_runs_1_to_n(monkeypatch, capsys):
    calls = []

    def written(runs, protocol, interval, quick=False):
        calls.append((list(runs), protocol, interval, quick))
        return "ns2_gap_first_copy_runs.csv"

    monkeypatch.setattr(disc, "write_first_copy_runs", written)
    assert disc.main(["--first-copy-runs", "3"]) == 0
    assert calls == [([1, 2, 3], "udp", 20.0, False)]
    assert capsys.readouterr().out.strip() == "ns2_gap_first_copy_runs.csv"
