"""IPv6 transport and the NS-2.35 preset."""

from __future__ import annotations

import gc

import pytest

from tests.sctp._support import cxx
from tests.sctp.test_streams import identify
from transportlab.ns3.simulation import run_until, simulation


def test_association_over_ipv6():
    with simulation(seed=1, run=1) as ns:
        nodes = ns.NodeContainer()
        nodes.Create(2)
        p2p = ns.PointToPointHelper()
        p2p.SetDeviceAttribute("DataRate", ns.StringValue("10Mbps"))
        p2p.SetChannelAttribute("Delay", ns.StringValue("10ms"))
        devices = p2p.Install(nodes)
        ns.InternetStackHelper().Install(nodes)
        ns.SctpStackHelper().Install(nodes)
        addresses = ns.Ipv6AddressHelper()
        addresses.SetBase(ns.Ipv6Address("2001:db8::"), ns.Ipv6Prefix(64))
        interfaces = addresses.Assign(devices)
        interfaces.SetForwarding(0, True)
        t = cxx()
        factory = ns.TypeId.LookupByName("ns3::SctpSocketFactory")
        server = ns.DynamicCast[ns.SctpSocket](ns.Socket.CreateSocket(nodes.Get(1), factory))
        server.Bind(ns.Inet6SocketAddress(ns.Ipv6Address.GetAny(), 5000).ConvertTo())
        collector = t.Collector()
        collector.Listen(server)
        client = ns.DynamicCast[ns.SctpSocket](ns.Socket.CreateSocket(nodes.Get(0), factory))
        sender = t.Sender()
        sender.socket = client
        peer = ns.Inet6SocketAddress(interfaces.GetAddress(1, 1), 5000).ConvertTo()
        sender.ConnectAt(1.0, peer)  # after duplicate address detection
        for i in range(5):
            sender.At(1.5, 3000, 0, False, i)  # fragmented over the 1500-byte MTU
        run_until(4.0)
        assert client.GetState() == 4
        assert identify(collector, range(5)) == list(range(5))
        # PMDCS over IPv6: 1500 - 40 - 12.
        assert client.GetPrimaryPath().GetPmdcs() == 1448
        del nodes, p2p, devices, interfaces, server, collector, client, sender
    gc.collect()


def test_ns2_preset_values():
    from transportlab import ns

    preset = ns.SctpStackHelper.GetNs2Defaults("2.35")
    values = {str(k): str(v) for k, v in preset}
    assert values["ns3::SctpSocket::RtoInitial"] == "3s"
    assert values["ns3::SctpSocket::InitialCwnd"] == "4380"
    assert values["ns3::SctpSocket::FastRtxTrigger"] == "3"
    assert values["ns3::SctpSocket::MaxSegment"] == "1452"
    old = {str(k): str(v) for k, v in ns.SctpStackHelper.GetNs2Defaults("2.34")}
    assert old["ns3::SctpSocket::FastRtxTrigger"] == "4"
    with pytest.raises(Exception, match="unknown NS-2 version"):
        ns.SctpStackHelper.GetNs2Defaults("2.1b")


def test_ns2_preset_applies_to_new_sockets():
    with simulation(seed=1, run=1) as ns:
        ns.SctpStackHelper.SetNs2Defaults("2.35")
        socket = ns.CreateObject[ns.SctpSocket]()
        value = ns.TimeValue()
        socket.GetAttribute("RtoInitial", value)
        assert value.Get().GetSeconds() == 3.0
        cwnd = ns.UintegerValue()
        socket.GetAttribute("InitialCwnd", cwnd)
        assert cwnd.Get() == 4380
    with simulation(seed=1, run=1) as ns:  # Config::Reset between simulations
        socket = ns.CreateObject[ns.SctpSocket]()
        value = ns.TimeValue()
        socket.GetAttribute("RtoInitial", value)
        assert value.Get().GetSeconds() == 1.0


def test_install_without_internet_stack_is_a_clear_error():
    with simulation(seed=1, run=1) as ns:
        nodes = ns.NodeContainer()
        nodes.Create(1)
        with pytest.raises(Exception, match="no internet stack"):
            ns.SctpStackHelper().Install(nodes)
        del nodes
