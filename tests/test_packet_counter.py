"""ns3::PacketCounter: packet classification, counters, snapshot order, trace contexts."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def ns():
    from transportlab import ns

    return ns


@pytest.fixture
def counter(ns):
    return ns.CreateObject[ns.PacketCounter]()


def name(ns, packet_class) -> str:
    return str(ns.PacketCounter.GetClassName(int(packet_class)))


def udp_packet(ns, port: int, payload: int = 20):
    packet = ns.Create[ns.Packet](payload)
    header = ns.UdpHeader()
    header.SetSourcePort(port)
    header.SetDestinationPort(port)
    packet.AddHeader(header)
    return packet


def ipv4_header(ns, protocol: int, payload_size: int):
    header = ns.Ipv4Header()
    header.SetProtocol(protocol)
    header.SetPayloadSize(payload_size)
    header.SetSource(ns.Ipv4Address("10.1.0.2"))
    header.SetDestination(ns.Ipv4Address("10.1.0.1"))
    return header


def tcp_packet(ns, payload: int):
    packet = ns.Create[ns.Packet](payload)
    header = ns.TcpHeader()
    header.SetSourcePort(49153)
    header.SetDestinationPort(5001)
    packet.AddHeader(header)
    return packet


def test_node_id_is_read_from_the_trace_context(ns):
    assert ns.PacketCounter.NodeFromContext("/NodeList/17/DeviceList/0/Phy/PhyTxBegin") == 17
    assert ns.PacketCounter.NodeFromContext("/Names/sink") == 2**32 - 1


def test_ipv4_payloads_are_classified_by_protocol_and_port(ns, counter):
    aodv = udp_packet(ns, 654)
    assert name(ns, counter.ClassifyIpv4(ipv4_header(ns, 17, aodv.GetSize()), aodv)) == "routing"
    data = udp_packet(ns, 5001)
    assert name(ns, counter.ClassifyIpv4(ipv4_header(ns, 17, data.GetSize()), data)) == "udp-data"
    segment = tcp_packet(ns, 256)
    header = ipv4_header(ns, 6, segment.GetSize())
    assert name(ns, counter.ClassifyIpv4(header, segment)) == "tcp-data"
    ack = tcp_packet(ns, 0)
    assert name(ns, counter.ClassifyIpv4(ipv4_header(ns, 6, ack.GetSize()), ack)) == "tcp-control"
    short = ns.Create[ns.Packet](3)
    assert name(ns, counter.ClassifyIpv4(ipv4_header(ns, 17, 3), short)) == "ipv4-other"


def test_routing_port_is_an_attribute(ns):
    olsr = ns.CreateObject[ns.PacketCounter]()
    olsr.SetAttribute("RoutingUdpPort", ns.UintegerValue(698))
    packet = udp_packet(ns, 698)
    header = ipv4_header(ns, 17, packet.GetSize())
    assert name(ns, olsr.ClassifyIpv4(header, packet)) == "routing"


def test_llc_packets_and_wifi_frames(ns, counter):
    packet = udp_packet(ns, 654)
    packet.AddHeader(ipv4_header(ns, 17, packet.GetSize()))
    llc = ns.LlcSnapHeader()
    llc.SetType(0x0800)
    packet.AddHeader(llc)
    assert name(ns, counter.ClassifyLlcPacket(packet)) == "routing"
    arp = ns.Create[ns.Packet](28)
    arp_llc = ns.LlcSnapHeader()
    arp_llc.SetType(0x0806)
    arp.AddHeader(arp_llc)
    assert name(ns, counter.ClassifyLlcPacket(arp)) == "arp"

    frame = packet.Copy()
    data_header = ns.WifiMacHeader()
    data_header.SetType(ns.WIFI_MAC_DATA)
    frame.AddHeader(data_header)
    assert name(ns, counter.ClassifyWifiFrame(frame)) == "routing"
    for kind, expected in (
        (ns.WIFI_MAC_CTL_RTS, "rts"),
        (ns.WIFI_MAC_CTL_CTS, "cts"),
        (ns.WIFI_MAC_CTL_ACK, "ack"),
    ):
        control = ns.Create[ns.Packet](4)  # the FCS
        header = ns.WifiMacHeader()
        header.SetType(kind)
        control.AddHeader(header)
        assert name(ns, counter.ClassifyWifiFrame(control)) == expected
    assert name(ns, counter.ClassifyWifiFrame(ns.Create[ns.Packet](4))) == "other"


def test_a_pure_tcp_ack_seen_by_the_phy_is_not_data(ns, counter):
    # PHY frames end with the 4-byte FCS: only the IP header says where the segment ends.
    ack = tcp_packet(ns, 0)
    ack.AddHeader(ipv4_header(ns, 6, ack.GetSize()))
    llc = ns.LlcSnapHeader()
    llc.SetType(0x0800)
    ack.AddHeader(llc)
    header = ns.WifiMacHeader()
    header.SetType(ns.WIFI_MAC_DATA)
    ack.AddHeader(header)
    ack.AddTrailer(ns.WifiMacTrailer())
    assert name(ns, counter.ClassifyWifiFrame(ack)) == "tcp-control"


def test_counters_add_up_and_snapshot_is_sorted(ns, counter):
    pc = ns.PacketCounter
    counter.Add(5, pc.WIFI_PHY_TX, pc.RTS, 0, 3)
    counter.Add(2, pc.WIFI_PHY_TX, pc.RTS, 0, 4)
    counter.Add(2, pc.WIFI_PHY_RX_DROP, pc.ACK, 9, 1)
    counter.Add(2, pc.WIFI_PHY_TX, pc.RTS, 0, 1)
    assert counter.Get(2, pc.WIFI_PHY_TX, pc.RTS, 0) == 5
    assert counter.Get(3, pc.WIFI_PHY_TX, pc.RTS, 0) == 0
    assert counter.Total(pc.WIFI_PHY_TX, pc.RTS) == 8
    assert counter.GetN() == 3
    counter.Snapshot()
    assert list(counter.GetNodes()) == [2, 2, 5]
    from transportlab.ns3.recording import vector_array

    sources = vector_array(counter.GetSources(), "uint8").tolist()
    assert sources == [int(pc.WIFI_PHY_TX), int(pc.WIFI_PHY_RX_DROP), int(pc.WIFI_PHY_TX)]
    assert list(counter.GetReasons()) == [0, 9, 0]
    assert list(counter.GetCounts()) == [5, 1, 3]
    counter.Clear()
    assert counter.GetN() == 0


def test_watching_a_path_without_a_match_is_reported(ns, counter):
    from transportlab.ns3.simulation import simulation

    with simulation():
        assert not counter.WatchWifiPhyTx("/NodeList/*/DeviceList/*/$ns3::WifiNetDevice/Phy")
