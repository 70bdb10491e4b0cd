"""ns3::Ns2ConstantRateWifiManager: NS-2.35's Mac802_11 retry counts on ns-3's wifi MAC.

ns-3.44 drops a frame after 7 failed attempts counted together (RTS without CTS, DATA
without ACK: WifiMac::FrameRetryLimit). NS-2 counts RTS failures since the last CTS
(ShortRetryLimit_ 7) and DATA failures since the last ACK (LongRetryLimit_ 4) apart. Two
nodes, RTS/CTS for every frame: at a signal-to-noise ratio where DBPSK at 1 Mb/s (RTS,
CTS, ACK) always gets through and CCK at 11 Mb/s (DATA) never does, every DATA frame
misses its ACK: ns-3's rule sends it 7 times, NS-2's 4. With the receiver out of range,
no RTS gets a CTS: both send 7 RTS.

Drops as NS-2's trace writes them (mac/mac-802_11.cc): a frame given up at the RTS retry
limit is discarded twice by Mac802_11::RetransmitRTS (its RTS, then the frame: two
``d ... RET`` lines), one given up after its DATA missed the ACK once by RetransmitDATA.
The packet counter's ``WatchWifiRtsRetryLimit`` (MacTxFinalRtsFailed) adds the RTS's line
to ns-3's DroppedMpdu of the frame.
"""

from __future__ import annotations

import pytest

from transportlab.ns3.simulation import run_until, simulation

NOISE_FLOOR_DBM = -93.6  # 22 MHz at 290 K with ns-3's 7-dB noise figure
SNR_DB = 4.0  # enough for DBPSK 1 Mb/s, far too little for CCK 11 Mb/s


def _frames(manager: str, loss_db: float) -> dict[str, int]:
    """One unicast frame from node 0 to node 1 over a link with ``loss_db``: the frames
    node 0 sent by kind and the drops of its manager (if NS-2's)."""
    with simulation(seed=1, run=1) as ns:
        nodes = ns.NodeContainer()
        nodes.Create(2)
        mobility = ns.MobilityHelper()
        mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel")
        mobility.Install(nodes)
        loss = ns.CreateObject[ns.MatrixPropagationLossModel]()
        loss.SetDefaultLoss(loss_db)
        channel = ns.CreateObject[ns.YansWifiChannel]()
        channel.SetPropagationLossModel(loss)
        channel.SetPropagationDelayModel(ns.CreateObject[ns.ConstantSpeedPropagationDelayModel]())
        phy = ns.YansWifiPhyHelper()
        phy.SetChannel(channel)
        phy.SetPreambleDetectionModel(
            "ns3::ThresholdPreambleDetectionModel",
            "MinimumRssi", ns.DoubleValue(-100.0), "Threshold", ns.DoubleValue(1.0),
        )  # fmt: skip
        wifi = ns.WifiHelper()
        wifi.SetStandard(ns.WIFI_STANDARD_80211b)
        wifi.SetRemoteStationManager(
            manager,
            "DataMode", ns.StringValue("DsssRate11Mbps"),
            "ControlMode", ns.StringValue("DsssRate1Mbps"),
            "RtsCtsThreshold", ns.UintegerValue(0),
        )  # fmt: skip
        mac = ns.WifiMacHelper()
        mac.SetType("ns3::AdhocWifiMac")
        devices = wifi.Install(phy, mac, nodes)
        counter = ns.CreateObject[ns.PacketCounter]()
        device = "/NodeList/0/DeviceList/*/$ns3::WifiNetDevice"
        assert counter.WatchWifiPhyTx(device + "/Phy")
        assert counter.WatchWifiMacDrop(device + "/Mac")
        assert counter.WatchWifiRtsRetryLimit(device + "/RemoteStationManager")
        run_until(1.0)
        sender = devices.Get(0)
        sender.Send(ns.Create[ns.Packet](500), devices.Get(1).GetAddress(), 0x0800)
        run_until(3.0)
        sent = {
            name: int(counter.Total(ns.PacketCounter.WIFI_PHY_TX, getattr(ns.PacketCounter, key)))
            for name, key in (("rts", "RTS"), ("data", "OTHER"))
        }
        # drops at node 0 by class, and those of them at the retry limit
        drop, limit = ns.PacketCounter.WIFI_MAC_DROP, ns.WIFI_MAC_DROP_REACHED_RETRY_LIMIT
        for name, key in (("dropped_rts", "RTS"), ("dropped_data", "OTHER")):
            klass = getattr(ns.PacketCounter, key)
            sent[name] = int(counter.Total(drop, klass))
            sent[name + "_at_limit"] = int(counter.Get(0, drop, klass, int(limit)))
        manager_object = ns.DynamicCast[ns.Ns2ConstantRateWifiManager](
            ns.DynamicCast[ns.WifiNetDevice](sender).GetRemoteStationManager()
        )
        if manager_object:
            sent["long_drops"] = int(manager_object.GetLongRetryDrops())
            sent["short_drops"] = int(manager_object.GetShortRetryDrops())
        return sent


LINK_LOSS_DB = 16.0 - (NOISE_FLOOR_DBM + SNR_DB)  # 16 dBm sent, SNR_DB at the receiver


def test_every_data_frame_misses_its_ack_ns3_sends_it_seven_times():
    got = _frames("ns3::ConstantRateWifiManager", LINK_LOSS_DB)
    assert (got["rts"], got["data"]) == (7, 7)


def test_ns2s_long_retry_limit_gives_the_frame_up_after_four():
    got = _frames("ns3::Ns2ConstantRateWifiManager", LINK_LOSS_DB)
    assert (got["rts"], got["data"]) == (4, 4)
    assert (got["long_drops"], got["short_drops"]) == (1, 0)
    # RetransmitDATA discards the frame once: one drop line, no RTS line
    assert (got["dropped_data"], got["dropped_rts"]) == (1, 0)


@pytest.mark.parametrize("manager", ["ns3::ConstantRateWifiManager",
                                     "ns3::Ns2ConstantRateWifiManager"])  # fmt: skip
def test_an_unreachable_receiver_gets_seven_rts_under_both_rules(manager):
    got = _frames(manager, 250.0)
    assert (got["rts"], got["data"]) == (7, 0)
    if "long_drops" in got:
        assert (got["long_drops"], got["short_drops"]) == (0, 1)
    # RetransmitRTS discards the RTS and the frame: two drop lines, both at the retry limit
    assert (got["dropped_data"], got["dropped_rts"]) == (1, 1)
    assert (got["dropped_data_at_limit"], got["dropped_rts_at_limit"]) == (1, 1)
