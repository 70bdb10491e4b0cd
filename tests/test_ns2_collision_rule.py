"""SensitivityFilteredYansWifiPhy's Ns2Capture: NS-2's collision rule on ns-3's wifi PHY.

NS-2's Mac802_11 keeps a frame being received only if it is at least CPThresh_ = 10 dB
stronger than a frame that arrives during it; otherwise both are lost. Three nodes: A
and B cannot hear each other (hidden terminals) and both broadcast to C, B starting
inside A's frame. With A 5 dB stronger at C, ns-3's DSSS error model still decodes A
(processing gain), NS-2's rule loses both; with A 12 dB stronger both keep A.

NS-2's WirelessPhy also passes a frame it can sense but not decode (below RXThresh_) to
the MAC, flagged as an error, and the MAC receives it to its end: a decodable frame that
arrives meanwhile is lost. With Ns2RxThreshold the PHY does the same, if its preamble
detection accepts such frames; a preamble threshold at RXThresh_ (the other way to give
ns-3 NS-2's receive range) never locks on them.

(ns-3's ErrorRateModel cannot carry the rule: ErrorRateModel::GetChunkSuccessRate
computes DSSS chunks itself and never asks a subclass, so 802.11b needs the PHY.)
"""

from __future__ import annotations

import pytest

from tests._wifi_channel import matrix_loss_channel
from transportlab.ns3.simulation import run_until, simulation

A_BYTES, B_BYTES = 1000, 300  # different sizes tell which frame C received
A_TO_C_LOSS_DB = 70.0  # -54 dBm at C for 16 dBm: ~40 dB above thermal noise
HIDDEN_LOSS_DB = 250.0  # A and B never sense each other
B_START = 1.001  # s: inside A's frame


def _bytes_received_by_c(
    ns2_capture: bool,
    b_weaker_by_db: float | None,
    a_to_c_loss_db: float = A_TO_C_LOSS_DB,
    a_sends: bool = True,
    preamble_min_rssi_dbm: float | None = None,
    ns2_rx_threshold_dbm: float | None = None,
) -> tuple[int, int, int]:
    """Broadcast A's frame (and B's, ``b_weaker_by_db`` below A at C): C's bytes received,
    the receptions C's PHY lost to the NS-2 collision rule, and the undecodable frames
    (below ``ns2_rx_threshold_dbm``) it received to their end."""
    with simulation(seed=1, run=1) as ns:
        losses = {(0, 2): a_to_c_loss_db}
        if b_weaker_by_db is not None:
            losses[(1, 2)] = a_to_c_loss_db + b_weaker_by_db
        nodes, channel = matrix_loss_channel(ns, 3, HIDDEN_LOSS_DB, losses)
        phy = ns.SensitivityFilteredYansWifiPhyHelper()
        phy.SetChannel(channel)
        phy.Set("Ns2Capture", ns.BooleanValue(ns2_capture))
        if ns2_rx_threshold_dbm is not None:
            phy.Set("Ns2RxThreshold", ns.DoubleValue(ns2_rx_threshold_dbm))
        if preamble_min_rssi_dbm is not None:
            phy.SetPreambleDetectionModel(
                "ns3::ThresholdPreambleDetectionModel",
                "MinimumRssi",
                ns.DoubleValue(preamble_min_rssi_dbm),
            )
        wifi = ns.WifiHelper()
        wifi.SetStandard(ns.WIFI_STANDARD_80211b)
        wifi.SetRemoteStationManager(
            "ns3::ConstantRateWifiManager",
            "DataMode",
            ns.StringValue("DsssRate2Mbps"),
            "NonUnicastMode",
            ns.StringValue("DsssRate2Mbps"),
        )
        mac = ns.WifiMacHelper()
        mac.SetType("ns3::AdhocWifiMac")
        devices = wifi.Install(phy, mac, nodes)
        ns.InternetStackHelper().Install(nodes)
        addresses = ns.Ipv4AddressHelper()
        addresses.SetBase(ns.Ipv4Address("10.0.0.0"), ns.Ipv4Mask("255.255.255.0"))
        addresses.Assign(devices)
        broadcast = ns.InetSocketAddress(ns.Ipv4Address("10.0.0.255"), 9).ConvertTo()
        sink = ns.PacketSinkHelper(
            "ns3::UdpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 9).ConvertTo()
        ).Install(nodes.Get(2))
        # A's frame lasts ~4.3 ms at 2 Mb/s; B starts 1 ms later, and the DCF backoffs
        # (at most 31 slots of 20 us each) keep B's frame inside A's.
        senders = [(0, A_BYTES, 1.0)] if a_sends else []
        if b_weaker_by_db is not None:
            senders.append((1, B_BYTES, B_START))
        for node, size, start in senders:
            source = ns.OnOffHelper("ns3::UdpSocketFactory", broadcast)
            source.SetConstantRate(ns.DataRate("100Mbps"), size)
            source.SetAttribute("MaxBytes", ns.UintegerValue(size))
            app = source.Install(nodes.Get(node))
            app.Start(ns.Seconds(start))
        run_until(2.0)
        received = int(ns.DynamicCast[ns.PacketSink](sink.Get(0)).GetTotalRx())
        c_phy = ns.DynamicCast[ns.SensitivityFilteredYansWifiPhy](
            ns.DynamicCast[ns.WifiNetDevice](devices.Get(2)).GetPhy()
        )
        return received, int(c_phy.GetNs2Collisions()), int(c_phy.GetNs2UndecodableReceptions())


@pytest.mark.parametrize("ns2_capture", [False, True])
def test_a_frame_alone_is_received_under_either_rule(ns2_capture):
    assert _bytes_received_by_c(ns2_capture, None) == (A_BYTES, 0, 0)


def test_5_db_of_margin_is_enough_for_ns3_dsss_but_a_collision_for_ns2():
    assert _bytes_received_by_c(False, 5.0) == (A_BYTES, 0, 0)
    assert _bytes_received_by_c(True, 5.0) == (0, 1, 0)


def test_12_db_of_margin_is_a_capture_under_both_rules():
    assert _bytes_received_by_c(False, 12.0) == (A_BYTES, 0, 0)
    assert _bytes_received_by_c(True, 12.0) == (A_BYTES, 0, 0)


def test_a_stronger_newcomer_loses_both_frames_under_both_rules():
    # ns-3 keeps locked on A (no frame-capture model) whose SINR is then -5 dB.
    assert _bytes_received_by_c(False, -5.0) == (0, 0, 0)
    assert _bytes_received_by_c(True, -5.0) == (0, 1, 0)


def test_the_threshold_is_ns2s_cpthresh_by_default():
    from transportlab import ns

    phy = ns.CreateObject[ns.SensitivityFilteredYansWifiPhy]()
    value = ns.DoubleValue()
    phy.GetAttribute("CaptureThreshold", value)
    assert value.Get() == 10.0


# A's frame reaches C at -69 dBm: sensed (above ns-3's default -82 dBm preamble RSSI) but
# below the -64 dBm receive threshold; B's (hidden from A) reaches C 10 dB stronger.
WEAK_A_LOSS_DB = 85.0
RX_THRESHOLD_DBM = -64.0


def test_ns2_receives_an_undecodable_frame_to_its_end_and_reports_it_lost():
    assert _bytes_received_by_c(
        True, None, WEAK_A_LOSS_DB, ns2_rx_threshold_dbm=RX_THRESHOLD_DBM
    ) == (0, 0, 1)
    # Without the threshold the same frame is decoded (ns-3's DSSS at ~25 dB SNR).
    assert _bytes_received_by_c(True, None, WEAK_A_LOSS_DB) == (A_BYTES, 0, 0)


def test_a_frame_above_the_threshold_alone_is_received():
    assert _bytes_received_by_c(
        True, -10.0, WEAK_A_LOSS_DB, a_sends=False, ns2_rx_threshold_dbm=RX_THRESHOLD_DBM
    ) == (B_BYTES, 0, 0)


def test_ns2_loses_a_decodable_frame_that_arrives_during_an_undecodable_one():
    # NS-2: C is locked on A, B's arrival is a collision (A is not 10 dB stronger). A is
    # counted as a collision only: ns-3's SINR (-10 dB) loses it before the error model.
    assert _bytes_received_by_c(
        True, -10.0, WEAK_A_LOSS_DB, ns2_rx_threshold_dbm=RX_THRESHOLD_DBM
    ) == (0, 1, 0)
    # RXThresh_ as ns-3's preamble threshold: C never locks on A and receives B.
    assert _bytes_received_by_c(
        True, -10.0, WEAK_A_LOSS_DB, preamble_min_rssi_dbm=RX_THRESHOLD_DBM
    ) == (B_BYTES, 0, 0)


def test_no_frame_is_undecodable_by_default():
    from transportlab import ns

    phy = ns.CreateObject[ns.SensitivityFilteredYansWifiPhy]()
    value = ns.DoubleValue()
    phy.GetAttribute("Ns2RxThreshold", value)
    assert value.Get() == -1000.0
