"""Which next hops the sensor study's AODV routes take (ns2_gap_routes), on hand-built fields,
frames and NS-2 trace lines."""

from __future__ import annotations

import io

import pandas as pd
import pytest

from transportlab.studies.wsn_reporting_interval import ns2_gap_routes as routes

SINK, NEAR, FAR, AWAY = 0, 1, 2, 3
# The sink (150 m) at the origin; NEAR 50 m away (60 m: each reaches the other); FAR 100 m
# away (FAR hears the sink, the sink does not hear FAR); AWAY 300 m away (out of range).
FIELD = [(0.0, 0.0), (50.0, 0.0), (100.0, 0.0), (300.0, 0.0)]
RANGES = [150.0, 60.0, 60.0, 60.0]
CLASSES = routes.link_classes(FIELD, RANGES)


def test_a_hop_is_two_way_only_when_each_end_reaches_the_other():
    assert routes.classify(True, True) == routes.TWO_WAY
    assert routes.classify(False, True) == routes.NEXT_HOP_OUT_OF_REACH
    assert routes.classify(True, False) == routes.ANSWER_OUT_OF_REACH
    assert routes.classify(False, False) == routes.NO_LINK


def test_link_classes_follow_the_distance_and_the_transmitters_range():
    assert CLASSES[(NEAR, SINK)] == CLASSES[(SINK, NEAR)] == routes.TWO_WAY
    # FAR hears the 150-m sink but its 60-m frames do not reach it: its RTS goes unanswered
    assert CLASSES[(FAR, SINK)] == routes.NEXT_HOP_OUT_OF_REACH
    # the sink's RTS reaches FAR, FAR's CTS does not come back
    assert CLASSES[(SINK, FAR)] == routes.ANSWER_OUT_OF_REACH
    assert CLASSES[(NEAR, FAR)] == routes.TWO_WAY  # 50 m apart, both 60 m
    assert CLASSES[(AWAY, SINK)] == CLASSES[(SINK, AWAY)] == routes.NO_LINK
    assert (SINK, SINK) not in CLASSES
    with pytest.raises(ValueError, match="ranges"):
        routes.link_classes(FIELD, RANGES[:2])


def _frame(time, node, event, kind, peer, src=-1, seq=-1, origin=-1, target=-1, reason=-1):
    return {"time": time, "node": node, "event": event, "kind": kind, "peer": peer,
            "src": src, "dst": SINK if kind == "data" else -1, "seq": seq, "origin": origin,
            "target": target, "hops": -1, "reason": reason}  # fmt: skip


# ns-3 frames of one run: FAR hears the sink's RREQ rebroadcast (for another node), sends
# report 1 straight to the sink and its MAC gives it up at the RTS retry limit (no DATA on
# the air: only the drop shows it); report 2 goes via NEAR and arrives; report 3 is never
# sent (no route before the end). NEAR drops a report of its own from a full queue: not a
# retry-limit drop, and never tried.
NS3_FRAMES = pd.DataFrame([
    _frame(0.9, SINK, "tx", "RREQ", -1, src=SINK, seq=4, origin=NEAR, target=AWAY),
    _frame(0.9, FAR, "rx", "RREQ", SINK, src=SINK, seq=4, origin=NEAR, target=AWAY),
    _frame(1.0, FAR, "mac-drop", "data", SINK, src=FAR, seq=1, reason=2),
    _frame(2.0, FAR, "tx", "data", NEAR, src=FAR, seq=2),
    _frame(2.0, FAR, "tx", "data", NEAR, src=FAR, seq=2),  # a retry of the same frame
    _frame(2.1, NEAR, "tx", "data", SINK, src=FAR, seq=2),
    _frame(2.5, NEAR, "mac-drop", "data", SINK, src=NEAR, seq=7, reason=0),  # queue full
    _frame(3.0, NEAR, "tx", "RREQ", -1, src=NEAR, seq=5, origin=NEAR, target=SINK),
    _frame(3.0, NEAR, "tx", "RREQ", -1, src=NEAR, seq=5, origin=NEAR, target=SINK),  # resent
    _frame(3.1, NEAR, "tx", "RERR", -1, src=NEAR),
])  # fmt: skip
PACKETS = pd.DataFrame({
    "event": ["sent", "sent", "sent", "received"], "flow": [FAR, FAR, FAR, FAR],
    "seq": [1, 2, 3, 2],
})  # fmt: skip


def test_first_hops_take_the_first_next_hop_the_sources_mac_tried():
    hops = routes.first_hops(NS3_FRAMES, PACKETS[PACKETS["event"] == "sent"], CLASSES)
    by_seq = hops.set_index("seq")
    assert by_seq.loc[1, "next_hop"] == SINK  # known from its drop alone
    assert by_seq.loc[1, "hop_class"] == routes.NEXT_HOP_OUT_OF_REACH
    assert by_seq.loc[2, "next_hop"] == NEAR and by_seq.loc[2, "hop_class"] == routes.TWO_WAY
    assert by_seq.loc[3, "hop_class"] == routes.NEVER_SENT


def test_hop_table_counts_reports_frames_and_retry_limit_drops_per_class():
    no_frames = NS3_FRAMES.iloc[:0].drop(columns="reason").assign(reason_name="")
    table = routes.hop_table({"ns3": NS3_FRAMES, "ns2": no_frames},
                             {"ns3": PACKETS, "ns2": PACKETS.iloc[:0]}, CLASSES)  # fmt: skip
    value = table.set_index(["quantity", "hop_class"])["ns3"]
    first = "reports whose first hop is of this class"
    assert value[(first, routes.NEXT_HOP_OUT_OF_REACH)] == 1
    assert value[(first, routes.TWO_WAY)] == 1
    assert value[(first, routes.NEVER_SENT)] == 1
    assert value[(first, routes.ALL)] == 3
    assert value[("of them delivered to the sink", routes.TWO_WAY)] == 1
    assert value[("of them delivered to the sink", routes.NEXT_HOP_OUT_OF_REACH)] == 0
    # FAR->NEAR once (the retry is the same frame) and NEAR->SINK; FAR->SINK given up at the
    # RTS limit; NEAR's report dropped from a full queue was never tried
    tried = "data frames the MACs tried over such hops"
    assert value[(tried, routes.TWO_WAY)] == 2
    assert value[(tried, routes.NEXT_HOP_OUT_OF_REACH)] == 1
    lost = "data frames given up at the retry limit"
    assert value[(lost, routes.NEXT_HOP_OUT_OF_REACH)] == 1
    assert value[(lost, routes.ALL)] == 1  # the queue drop is not one
    assert value[("of them at the report's source", routes.NEXT_HOP_OUT_OF_REACH)] == 1
    assert value[("RREQs originated for the sink", routes.ALL)] == 1  # resent: still one
    assert value[("RREQs originated for another node", routes.ALL)] == 0
    assert value[("AODV messages the sink broadcast", routes.ALL)] == 1
    assert value[("RERRs sent", routes.ALL)] == 1
    assert (table["ns2"] == 0).all()


def test_route_sources_name_the_last_message_heard_from_the_next_hop_before_the_drop():
    frames = pd.concat([NS3_FRAMES, pd.DataFrame([
        # NEAR gives up a report at the retry limit towards FAR, having heard nothing from
        # it; FAR's RREP to NEAR arrives only afterwards and must not count
        _frame(4.0, NEAR, "mac-drop", "data", FAR, src=NEAR, seq=8, reason=2),
        _frame(4.5, NEAR, "rx", "RREP", FAR, src=FAR),
    ])], ignore_index=True)  # fmt: skip
    sources = routes.route_sources(frames, CLASSES).set_index(
        ["hop_class", "next_hop_is_sink", "last_heard_from_next_hop"])["frames"]  # fmt: skip
    assert sources[(routes.NEXT_HOP_OUT_OF_REACH, True, "RREQ")] == 1
    assert sources[(routes.TWO_WAY, False, routes.NOTHING_HEARD)] == 1
    assert sources.sum() == 2


_HEAD = "-Nx 0.00 -Ny 0.00 -Nz 0.00 -Ne 1.000000"
NS2_TRACE = "".join(f"{line}\n" for line in [
    # sensor 2's report 0 to the sink (-Hd 0), given up at the retry limit
    f"s -t 1.000000000 -Hs 2 -Hd 0 -Ni 2 {_HEAD} -Nl MAC -Nw --- -Ma 13a -Md 0 -Ms 2 "
    "-Mt 800 -Is 2.0 -Id 0.2 -It cbr -Il 334 -If 0 -Ii 5 -Iv 30 -Pn cbr -Pi 0 -Pf 0 -Po 0",
    f"d -t 1.100000000 -Hs 2 -Hd 0 -Ni 2 {_HEAD} -Nl MAC -Nw RET -Ma 13a -Md 0 -Ms 2 "
    "-Mt 800 -Is 2.0 -Id 0.2 -It cbr -Il 334 -If 0 -Ii 5 -Iv 30 -Pn cbr -Pi 0 -Pf 0 -Po 0",
    # its routing agent's copy of the same report: not a frame
    f"s -t 0.999000000 -Hs 2 -Hd 0 -Ni 2 {_HEAD} -Nl RTR -Nw --- -Ma 0 -Md 0 -Ms 0 "
    "-Mt 0 -Is 2.0 -Id 0.2 -It cbr -Il 276 -If 0 -Ii 5 -Iv 30 -Pn cbr -Pi 0 -Pf 0 -Po 0",
    # node 26 (0x1a) broadcast a RREQ of node 7 for the sink; node 2's agent got it
    f"r -t 0.500000000 -Hs 2 -Hd -2 -Ni 2 {_HEAD} -Nl RTR -Nw --- -Ma 0 -Md ffffffff "
    "-Ms 1a -Mt 800 -Is 7.255 -Id -1.255 -It AODV -Il 48 -If 0 -Ii 0 -Iv 29 -P aodv -Pt 0x2 "
    "-Ph 2 -Pb 3 -Pd 0 -Pds 0 -Ps 7 -Pss 4 -Pc REQUEST",
    # the sink's RREP to node 26, sent
    f"s -t 0.600000000 -Hs 0 -Hd 26 -Ni 0 {_HEAD} -Nl MAC -Nw --- -Ma 13a -Md 1a -Ms 0 "
    "-Mt 800 -Is 0.255 -Id 7.255 -It AODV -Il 102 -If 0 -Ii 0 -Iv 30 -P aodv -Pt 0x4 -Ph 1 "
    "-Pd 0 -Pds 4 -Pl 10.000000 -Pc REPLY",
    # an ARP frame: neither data nor AODV
    f"s -t 0.700000000 -Hs 7 -Hd -2 -Ni 7 {_HEAD} -Nl MAC -Nw --- -Ma 13a -Md 0 -Ms 7 "
    "-Mt 806 -P arp -Po REPLY -Pms 7 -Ps 7 -Pmd 0 -Pd 0",
])  # fmt: skip


def test_ns2_frames_read_next_hops_transmitters_and_drop_reasons():
    frames = routes.ns2_frames(io.StringIO(NS2_TRACE)).set_index("time")
    assert list(frames.index) == [1.0, 1.1, 0.5, 0.6]
    assert frames.loc[1.0, ["event", "kind", "peer", "src", "seq"]].tolist() == [
        "tx", "data", SINK, 2, 0]  # fmt: skip
    assert frames.loc[1.1, "event"] == "mac-drop" and frames.loc[1.1, "reason_name"] == "RET"
    rreq = frames.loc[0.5]
    assert (rreq["event"], rreq["kind"], rreq["peer"]) == ("rx", "RREQ", 26)  # hex 1a
    assert (rreq["origin"], rreq["target"], rreq["hops"], rreq["seq"]) == (7, SINK, 2, 3)
    assert frames.loc[0.6, ["event", "kind", "peer", "target"]].tolist() == [
        "tx", "RREP", 26, SINK]  # fmt: skip
    assert routes.given_up(frames.reset_index()).sum() == 1


BROADCASTS = "".join(f"{line}\n" for line in [
    # node 12 (0xc) broadcasts its own RREQ (id 4) for node 9; node 17 loses it in a
    # collision; node 5's MAC receives it (not a frame of the table: only RTR receptions)
    f"s -t 2.100000000 -Hs 12 -Hd -2 -Ni 12 {_HEAD} -Nl MAC -Nw --- -Ma 0 -Md ffffffff "
    "-Ms c -Mt 800 -Is 12.255 -Id -1.255 -It AODV -Il 48 -If 0 -Ii 0 -Iv 30 -P aodv -Pt 0x2 "
    "-Ph 1 -Pb 4 -Pd 9 -Pds 0 -Ps 12 -Pss 6 -Pc REQUEST",
    f"d -t 2.100300000 -Hs 17 -Hd -2 -Ni 17 {_HEAD} -Nl MAC -Nw COL -Ma 0 -Md ffffffff "
    "-Ms c -Mt 800 -Is 12.255 -Id -1.255 -It AODV -Il 48 -If 0 -Ii 0 -Iv 30 -P aodv -Pt 0x2 "
    "-Ph 1 -Pb 4 -Pd 9 -Pds 0 -Ps 12 -Pss 6 -Pc REQUEST",
    f"r -t 2.100400000 -Hs 5 -Hd -2 -Ni 5 {_HEAD} -Nl MAC -Nw --- -Ma 0 -Md ffffffff "
    "-Ms c -Mt 800 -Is 12.255 -Id -1.255 -It AODV -Il 48 -If 0 -Ii 0 -Iv 30 -P aodv -Pt 0x2 "
    "-Ph 1 -Pb 4 -Pd 9 -Pds 0 -Ps 12 -Pss 6 -Pc REQUEST",
    # node 9 broadcasts a RERR (NS-2 leaves -Hd at the last next hop, here 3)
    f"s -t 2.200000000 -Hs 9 -Hd 3 -Ni 9 {_HEAD} -Nl MAC -Nw --- -Ma 0 -Md ffffffff -Ms 9 "
    "-Mt 800 -Is 9.255 -Id -1.255 -It AODV -Il 32 -If 0 -Ii 0 -Iv 1 -P aodv -Pt 0x8 -Ph 1 "
    "-Pd 0 -Pds 0 -Pl 0.000000 -Pc ERROR",
])  # fmt: skip


def test_ns2_frames_read_broadcast_rreqs_their_collisions_and_rerrs():
    frames = routes.ns2_frames(io.StringIO(BROADCASTS))
    assert frames["time"].tolist() == [2.1, 2.1003, 2.2]
    assert frames["event"].tolist() == ["tx", "mac-drop", "tx"]
    assert frames["kind"].tolist() == ["RREQ", "RREQ", "RERR"]
    assert frames["node"].tolist() == [12, 17, 9]
    assert frames["peer"].tolist() == [-1, -1, 3]  # -Hd -2: broadcast
    assert frames["src"].tolist() == [12, 12, 9]
    # a RREQ's broadcast id, originator, destination and hop count; none for a RERR
    assert frames[["seq", "origin", "target", "hops"]].values.tolist() == [
        [4, 12, 9, 1], [4, 12, 9, 1], [-1, -1, -1, -1]]  # fmt: skip
    assert frames["reason_name"].tolist() == ["", "COL", ""]
    assert not routes.given_up(frames).any()


def test_key_numbers_read_both_simulators_from_the_routes_table():
    ns2 = {"frames": routes.ns2_frames(io.StringIO(NS2_TRACE)),
           "packets": pd.DataFrame({"event": ["sent"], "flow": [FAR], "seq": [0]})}  # fmt: skip
    table = routes.routes_table({"frames": NS3_FRAMES, "packets": PACKETS}, ns2, CLASSES)
    rows = table.set_index(["quantity", "hop_class"])
    sink_after_rreq = (
        "given up at the retry limit, next hop the sink, the last AODV message heard from it: "
        "RREQ", routes.NEXT_HOP_OUT_OF_REACH)  # fmt: skip
    assert rows.loc[sink_after_rreq, ["ns3", "ns2"]].tolist() == [1, 0]
    # NS-2's sensor had heard the sink's node only through another node's RREQ: nothing
    heard_nothing = (sink_after_rreq[0].replace("RREQ", routes.NOTHING_HEARD), sink_after_rreq[1])
    assert rows.loc[heard_nothing, ["ns3", "ns2"]].tolist() == [0, 1]
    labelled = table.assign(reporting_interval=1.0, ns3_model=routes.BEFORE)
    numbers = routes.key_numbers(labelled).set_index("quantity")["1 s before"]
    assert numbers["reports delivered, ns-3"] == 1
    assert numbers["reports delivered, NS-2"] == 0
    assert numbers["reports whose first hop cannot hear the sender, ns-3"] == 1
    assert numbers["reports whose first hop cannot hear the sender, NS-2"] == 1
    assert numbers[f"{routes.DIRECT}, ns-3"] == 1
    assert numbers[f"{routes.DIRECT}, NS-2"] == 0
    assert numbers["AODV messages the sink broadcast, ns-3"] == 1
    assert numbers["AODV messages the sink broadcast, NS-2"] == 0


def test_the_port_lists_neighbours_longer_than_any_run_and_arp_entries_can_be_made_readable():
    """Issue 25's fix: NS-2.35 (AODV_LINK_LAYER_DETECTION) breaks no link on a timer, so
    ns-3's RREQ-heard neighbour entries must not expire within a run; the preloaded ARP
    entries stay auto-generated in the port and ``set_arp_entries`` (the after+ARP model)
    makes them permanent, the state ns-3's AODV reads, and back."""
    from transportlab.ns3.simulation import simulation
    from transportlab.studies.wsn_reporting_interval import STUDY, scenario

    params = STUDY.parameters.validate({})
    with simulation() as ns:
        scenario._config_defaults(ns, params)
        aodv = ns.CreateObject[ns.aodv.RoutingProtocol]()
        loss, interval = ns.UintegerValue(), ns.TimeValue()
        aodv.GetAttribute("AllowedHelloLoss", loss)
        aodv.GetAttribute("HelloInterval", interval)
        assert loss.Get() * interval.Get().GetSeconds() > params["duration"]
        nodes = ns.NodeContainer()
        nodes.Create(3)
        devices = ns.SimpleNetDeviceHelper().Install(nodes)
        ns.InternetStackHelper().Install(nodes)
        address = ns.Ipv4AddressHelper()
        address.SetBase(ns.Ipv4Address("10.1.0.0"), ns.Ipv4Mask("255.255.0.0"))
        interfaces = address.Assign(devices)
        ns.NeighborCacheHelper().PopulateNeighborCache()

        def entries():
            ipv4 = nodes.Get(0).GetObject[ns.Ipv4L3Protocol]()
            cache = ipv4.GetInterface(ipv4.GetInterfaceForDevice(devices.Get(0))).GetArpCache()
            return [cache.Lookup(interfaces.GetAddress(n)) for n in (1, 2)]

        assert all(e.IsAutoGenerated() and not e.IsPermanent() for e in entries())
        scenario.set_arp_entries(ns, devices, permanent=True)
        assert all(e.IsPermanent() for e in entries())
        scenario.set_arp_entries(ns, devices, permanent=False)
        assert all(e.IsAutoGenerated() for e in entries())


def test_the_ports_first_rreq_for_a_destination_goes_network_wide_as_in_ns2():
    """ns-2.35's AODV::sendRequest sends a new route entry's first RREQ with
    NETWORK_DIAMETER (rt_last_hop_count starts at INFINITY2, above TTL_THRESHOLD), so the
    port's TtlStart equals its NetDiameter (ns-3 then counts it as a network-wide try),
    while later searches start from the last hop count plus TtlIncrement in both."""
    from transportlab.ns3.simulation import simulation
    from transportlab.studies.wsn_reporting_interval import STUDY, scenario

    params = STUDY.parameters.validate({})
    with simulation() as ns:
        scenario._config_defaults(ns, params)
        aodv = ns.CreateObject[ns.aodv.RoutingProtocol]()
        start, diameter, threshold = ns.UintegerValue(), ns.UintegerValue(), ns.UintegerValue()
        aodv.GetAttribute("TtlStart", start)
        aodv.GetAttribute("NetDiameter", diameter)
        aodv.GetAttribute("TtlThreshold", threshold)
        assert start.Get() == diameter.Get() == 30
        assert threshold.Get() == 7
