"""Which of the frames NS-2's collision rule loses NS-2's trace shows (Ns2CollisionDrop).

ns-2.35's Mac802_11::collision discards both frames, and discard() (mac/mac-802_11.cc)
writes a ``d ... COL`` line only for a frame addressed to the node (or a broadcast data
frame); an overheard unicast frame for another node is freed without one. Four nodes: A
and B are hidden from each other and both send a unicast frame to C, B starting inside
A's frame; D hears both exactly as C does. Every frame C loses is addressed to C (NS-2
traces it: reason 0), every frame D loses is for C (NS-2 frees it untraced: reason 1),
and the PHY's Ns2CollisionDrop fires once per frame that GetNs2CollisionDrops counts.
"""

from __future__ import annotations

from tests._wifi_channel import matrix_loss_channel
from transportlab.ns3.simulation import run_until, simulation

A, B, C, D = range(4)
IN_RANGE_LOSS_DB = 70.0  # -54 dBm for 16 dBm: A and B reach C and D with equal power
HIDDEN_LOSS_DB = 250.0  # A-B and C-D never sense each other


def _collision_drops() -> dict[str, dict[int, int]]:
    """Per node C and D: the PHY's NS-2 collision drops, and the packet counter's
    ``ns2-collision-drop`` counts by reason (summed over frame classes)."""
    with simulation(seed=1, run=1) as ns:
        in_range = {
            (sender, receiver): IN_RANGE_LOSS_DB for sender in (A, B) for receiver in (C, D)
        }
        nodes, channel = matrix_loss_channel(ns, 4, HIDDEN_LOSS_DB, in_range)
        phy = ns.SensitivityFilteredYansWifiPhyHelper()
        phy.SetChannel(channel)
        phy.Set("Ns2Capture", ns.BooleanValue(True))
        wifi = ns.WifiHelper()
        wifi.SetStandard(ns.WIFI_STANDARD_80211b)
        wifi.SetRemoteStationManager(
            "ns3::ConstantRateWifiManager",
            "DataMode", ns.StringValue("DsssRate1Mbps"),
            "ControlMode", ns.StringValue("DsssRate1Mbps"),
        )  # fmt: skip
        mac = ns.WifiMacHelper()
        mac.SetType("ns3::AdhocWifiMac")
        devices = wifi.Install(phy, mac, nodes)
        counter = ns.CreateObject[ns.PacketCounter]()
        assert counter.WatchNs2CollisionDrops("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Phy")
        run_until(1.0)
        # A's frame lasts ~8 ms at 1 Mb/s; B's starts 1 ms later, inside it
        devices.Get(A).Send(ns.Create[ns.Packet](1000), devices.Get(C).GetAddress(), 0x0800)
        run_until(1.001)
        devices.Get(B).Send(ns.Create[ns.Packet](300), devices.Get(C).GetAddress(), 0x0800)
        run_until(3.0)
        source = ns.PacketCounter.NS2_COLLISION_DROP
        got = {}
        for node in (C, D):
            wifi_phy = ns.DynamicCast[ns.SensitivityFilteredYansWifiPhy](
                ns.DynamicCast[ns.WifiNetDevice](devices.Get(node)).GetPhy()
            )
            by_reason = {
                reason: sum(int(counter.Get(node, source, klass, reason))
                            for klass in range(int(ns.PacketCounter.N_CLASSES)))
                for reason in (0, 1)
            }  # fmt: skip
            got[node] = {"phy": int(wifi_phy.GetNs2CollisionDrops()), **by_reason}
        name = str(ns.PacketCounter.GetSourceName(int(source)))
        return {"nodes": got, "source": name}


def test_ns2_traces_the_collided_frames_for_the_node_and_not_those_it_overhears():
    result = _collision_drops()
    c, d = result["nodes"][C], result["nodes"][D]
    assert c["phy"] >= 2  # at least A's frame and B's, lost at C
    assert (c[0], c[1]) == (c["phy"], 0)  # every one addressed to C: a COL line each
    assert (d[0], d[1]) == (0, d["phy"])  # D overhears frames for C: no line
    assert d["phy"] == c["phy"]  # D hears A and B exactly as C does
    assert result["source"] == "ns2-collision-drop"
