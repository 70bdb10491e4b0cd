"""NS-2's collision rule from a frame's first bit: frames that start within ns-3's
preamble detection window (4 us) of each other (SensitivityFilteredYansWifiPhy).

ns-2.35's Mac802_11::recv (mac/mac-802_11.cc) sees a frame from its first bit: a frame
arriving while another is being received is captured (freed silently) if the one being
received is at least CPThresh_ = 10 dB stronger, otherwise both are lost and both are
traced as COL drops (Mac802_11::collision, then recv_timer in MAC_COLL). ns-3 only has a
current reception once a preamble is detected, 4 us into the frame; two frames starting
closer than that (two senders whose backoffs end in the same slot) are sorted out by its
preamble detection instead, which keeps the stronger one if its SNR passes the threshold.

Three nodes: A and B are hidden from each other and both broadcast one frame to C, put
on the air by their PHYs (no DCF, so the start times are exact), B 2 us after A.
"""

from __future__ import annotations

import pytest

from tests._wifi_channel import matrix_loss_channel
from transportlab.ns3.simulation import run_until, simulation

A, B, C = range(3)
A_BYTES, B_BYTES = 400, 200  # different sizes tell which frame C received
A_TO_C_LOSS_DB = 70.0  # -54 dBm at C for 16 dBm: ~40 dB above thermal noise
HIDDEN_LOSS_DB = 250.0  # A and B never sense each other
A_START, B_START = 1.0, 1.000002  # s: B starts 2 us after A, inside its detection window
# A frame below this (dBm) at C is sensed but not decodable (NS-2's RXThresh_)
RX_THRESHOLD_DBM = -64.0

_RECORDER = """
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/wifi-module.h"
#include <vector>
namespace tlpreamblewindow {
using namespace ns3;
/** The sizes of the frames a PHY received successfully (its state helper's RxOk). */
struct Received {
    std::vector<uint32_t> sizes;
    bool Attach(Ptr<WifiPhy> phy) {
        return phy->GetState()->TraceConnectWithoutContext("RxOk",
            Callback<void, Ptr<const Packet>, double, WifiMode, WifiPreamble>(
                [this](Ptr<const Packet> p, double, WifiMode, WifiPreamble) {
                    sizes.push_back(p->GetSize());
                }));
    }
};
}
"""


def _recorder():
    import cppyy

    if not hasattr(cppyy.gbl, "tlpreamblewindow"):
        cppyy.cppdef(_RECORDER)
    return cppyy.gbl.tlpreamblewindow.Received()


def _psdu(ns, device, size: int):
    header = ns.WifiMacHeader(ns.WIFI_MAC_DATA)
    header.SetAddr1(ns.Mac48Address.GetBroadcast())
    header.SetAddr2(ns.Mac48Address.ConvertFrom(device.GetAddress()))
    header.SetAddr3(ns.Mac48Address.GetBroadcast())
    header.SetDsNotFrom()
    header.SetDsNotTo()
    return ns.Create[ns.WifiPsdu](ns.Create[ns.Packet](size), header)


def _window(
    ns2_capture: bool,
    b_weaker_by_db: float,
    a_to_c_loss_db: float = A_TO_C_LOSS_DB,
    ns2_rx_threshold_dbm: float | None = None,
    lock_undecodable: bool = False,
) -> dict[str, object]:
    """A's frame and B's (``b_weaker_by_db`` below A at C), 2 us apart: which of them C
    received (``"A"``, ``"B"``), C's receptions lost to the NS-2 rule and the frames it
    counted through Ns2CollisionDrop (with whether NS-2 traces them)."""
    with simulation(seed=1, run=1) as ns:
        losses = {(A, C): a_to_c_loss_db, (B, C): a_to_c_loss_db + b_weaker_by_db}
        nodes, channel = matrix_loss_channel(ns, 3, HIDDEN_LOSS_DB, losses)
        phy = ns.SensitivityFilteredYansWifiPhyHelper()
        phy.SetChannel(channel)
        phy.Set("Ns2Capture", ns.BooleanValue(ns2_capture))
        phy.Set("Ns2LockUndecodable", ns.BooleanValue(lock_undecodable))
        if ns2_rx_threshold_dbm is not None:
            phy.Set("Ns2RxThreshold", ns.DoubleValue(ns2_rx_threshold_dbm))
        wifi = ns.WifiHelper()
        wifi.SetStandard(ns.WIFI_STANDARD_80211b)
        mac = ns.WifiMacHelper()
        mac.SetType("ns3::AdhocWifiMac")
        devices = wifi.Install(phy, mac, nodes)
        device = [ns.DynamicCast[ns.WifiNetDevice](devices.Get(i)) for i in range(3)]
        c_phy = ns.DynamicCast[ns.SensitivityFilteredYansWifiPhy](device[C].GetPhy())
        received = _recorder()
        assert received.Attach(c_phy)
        traced = []
        drops = ns.CreateObject[ns.PacketCounter]()
        assert drops.WatchNs2CollisionDrops("/NodeList/2/DeviceList/*/$ns3::WifiNetDevice/Phy")
        tx = ns.WifiTxVector()
        tx.SetMode(ns.DsssPhy.GetDsssRate1Mbps())
        tx.SetPreambleType(ns.WIFI_PREAMBLE_LONG)
        tx.SetChannelWidth(22)
        tx.SetTxPowerLevel(0)
        tx.SetNss(1)
        sizes = {}
        for node, size, start in ((A, A_BYTES, A_START), (B, B_BYTES, B_START)):
            run_until(start)
            psdu = _psdu(ns, device[node], size)
            sizes[int(psdu.GetSize())] = "AB"[node]
            device[node].GetPhy().Send(psdu, tx)
        run_until(1.1)
        for reason in (0, 1):
            traced += [reason] * sum(
                int(drops.Get(C, ns.PacketCounter.NS2_COLLISION_DROP, klass, reason))
                for klass in range(int(ns.PacketCounter.N_CLASSES))
            )
        return {
            "received": "".join(sorted(sizes.get(int(s), "?") for s in received.sizes)),
            "collisions": int(c_phy.GetNs2Collisions()),
            "drops": int(c_phy.GetNs2CollisionDrops()),
            "traced": traced,
        }


def test_equal_powers_lose_both_frames_and_ns2_counts_both():
    # ns-3's preamble detection loses both as well (SNR 0 dB), without counting them
    assert _window(False, 0.0)["received"] == ""
    got = _window(True, 0.0)
    assert (got["received"], got["collisions"], got["drops"]) == ("", 1, 2)
    assert got["traced"] == [0, 0]  # broadcast data: a COL line each in NS-2


def test_a_first_frame_10_db_stronger_captures_the_newcomer_silently():
    assert _window(False, 10.0)["received"] == "A"
    got = _window(True, 10.0)
    assert (got["received"], got["collisions"], got["drops"]) == ("A", 0, 0)


def test_a_first_frame_5_db_stronger_is_ns3s_but_a_collision_for_ns2():
    # ns-3 detects A's preamble at 5 dB SNR and decodes it; NS-2 loses both
    assert _window(False, 5.0)["received"] == "A"
    got = _window(True, 5.0)
    assert (got["received"], got["collisions"], got["drops"]) == ("", 1, 2)


def test_a_stronger_newcomer_is_ns3s_but_a_collision_for_ns2():
    # ns-3's preamble detection switches to the stronger B; NS-2 holds A, so both are lost
    assert _window(False, -5.0)["received"] == "B"
    got = _window(True, -5.0)
    assert (got["received"], got["collisions"], got["drops"]) == ("", 1, 2)


# A reaches C at -69 dBm: sensed, below RXThresh_; B, 10 dB stronger, is decodable
WEAK_A_LOSS_DB = 85.0


@pytest.mark.parametrize("lock", [False, True])
def test_an_undecodable_first_frame_holds_the_receiver_only_under_the_lock(lock):
    got = _window(True, -10.0, WEAK_A_LOSS_DB, RX_THRESHOLD_DBM, lock_undecodable=lock)
    if lock:
        # NS-2 holds A from its first bit: B collides with it, and only B is traced
        assert (got["received"], got["collisions"], got["drops"]) == ("", 1, 1)
    else:
        assert (got["received"], got["collisions"], got["drops"]) == ("B", 0, 0)
