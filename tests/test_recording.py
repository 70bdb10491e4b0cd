"""transportlab.ns3.recording against hand-computed values on one point-to-point link.

Link: 1 Mb/s, 10 ms, no queueing discipline (the device's DropTail queue only).
A UDP packet with 1000 application bytes is 1000 + 8 (UDP) + 20 (IPv4) + 2 (PPP)
= 1030 bytes = 8240 bits on the wire: 8.24 ms to serialise at 1 Mb/s, plus 10 ms
of propagation, so it arrives 18.240000 ms after it was sent, to the nanosecond.
"""

from __future__ import annotations

import numpy as np
import pytest

from transportlab.ns3.recording import (
    PacketRecorder,
    ValueRecorder,
    enable_seq_ts_size,
    flow_monitor_frame,
)
from transportlab.ns3.simulation import run_until, simulation

SERIALISATION_NS = 1030 * 8 * 1000  # 8240 bits at 1 Mb/s = 8.24 ms
DELAY_NS = SERIALISATION_NS + 10_000_000  # 18.24 ms
START = 1.0
PACKETS = 5


def link(ns):
    nodes = ns.NodeContainer()
    nodes.Create(2)
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue("1Mbps"))
    p2p.SetChannelAttribute("Delay", ns.StringValue("10ms"))
    devices = p2p.Install(nodes)
    ns.InternetStackHelper().Install(nodes)
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.0.0.0"), ns.Ipv4Mask("255.255.255.0"))
    interfaces = addresses.Assign(devices)
    ns.TrafficControlHelper().Uninstall(devices)
    return nodes, devices, interfaces


def cbr(ns, nodes, interfaces, rate: str, packets: int):
    """OnOff sending ``packets`` packets of 1000 bytes at ``rate``, from START."""
    sink_address = ns.InetSocketAddress(interfaces.GetAddress(1), 9).ConvertTo()
    source = ns.OnOffHelper("ns3::UdpSocketFactory", sink_address)
    source.SetConstantRate(ns.DataRate(rate), 1000)
    source.SetAttribute("MaxBytes", ns.UintegerValue(1000 * packets))
    sink = ns.PacketSinkHelper(
        "ns3::UdpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 9).ConvertTo()
    )
    enable_seq_ts_size(source, sink)
    sources, sinks = source.Install(nodes.Get(0)), sink.Install(nodes.Get(1))
    sources.Start(ns.Seconds(START))
    return sources.Get(0), sinks.Get(0)


@pytest.fixture(scope="module")
def recorded():
    """Five packets at 400 kb/s (one per 20 ms): PacketRecorder and FlowMonitor."""
    with simulation() as ns:
        nodes, _, interfaces = link(ns)
        sender, receiver = cbr(ns, nodes, interfaces, "400kbps", PACKETS)
        recorder = PacketRecorder()
        recorder.watch_sender(sender, flow=7)
        recorder.watch_receiver(receiver, flow=7)
        helper = ns.FlowMonitorHelper()
        monitor = helper.InstallAll()
        run_until(3.0)
        return recorder.to_frame(), flow_monitor_frame(monitor, helper), len(recorder)


def ns_of(seconds) -> np.ndarray:
    return np.round(np.asarray(seconds, dtype=float) * 1e9).astype(np.int64)


def test_packet_recorder_sent_events(recorded):
    packets, _, count = recorded
    assert count == len(packets) == 2 * PACKETS
    sent = packets[packets["event"] == "sent"]
    assert sent["seq"].tolist() == list(range(PACKETS))
    assert sent["size"].tolist() == [1000] * PACKETS
    assert set(sent["flow"]) == {7}
    # OnOff sends its first packet one interval (1000 bytes at 400 kb/s = 20 ms) after the start
    expected = [round(START * 1e9) + 20_000_000 * (k + 1) for k in range(PACKETS)]
    assert ns_of(sent["time"]).tolist() == expected
    assert ns_of(sent["sent_time"]).tolist() == expected
    assert sent["delay"].isna().all()


def test_packet_recorder_received_events_arrive_18_24_ms_later(recorded):
    packets, _, _ = recorded
    sent = packets[packets["event"] == "sent"].set_index("seq")
    received = packets[packets["event"] == "received"].set_index("seq")
    assert received.index.tolist() == list(range(PACKETS))
    assert received["size"].tolist() == [1000] * PACKETS
    assert (ns_of(received["time"]) - ns_of(sent["time"])).tolist() == [DELAY_NS] * PACKETS
    assert ns_of(received["delay"]).tolist() == [DELAY_NS] * PACKETS
    assert ns_of(received["sent_time"]).tolist() == ns_of(sent["time"]).tolist()
    assert packets["event"].cat.categories.tolist() == ["sent", "received"]


def test_flow_monitor_frame_counts_ip_packets(recorded):
    _, flows, _ = recorded
    assert len(flows) == 1
    flow = flows.iloc[0]
    assert (flow["source"], flow["destination"]) == ("10.0.0.1", "10.0.0.2")
    assert (flow["protocol"], flow["destination_port"]) == (17, 9)
    assert (flow["tx_packets"], flow["rx_packets"], flow["lost_packets"]) == (PACKETS, PACKETS, 0)
    assert flow["tx_bytes"] == flow["rx_bytes"] == PACKETS * 1028  # IP packets: no PPP header
    assert ns_of(flow["first_tx"]) == round(START * 1e9) + 20_000_000
    assert ns_of(flow["last_rx"]) == round(START * 1e9) + 20_000_000 * PACKETS + DELAY_NS
    assert ns_of(flow["mean_delay"]) == DELAY_NS
    assert ns_of(flow["delay_sum"]) == PACKETS * DELAY_NS
    assert flow["jitter_sum"] == 0.0


def queue_reference(arrivals_ns: list[int], service_ns: int) -> list[tuple[int, int]]:
    """(time, packets in queue) after every change, for the point-to-point device:
    an arriving packet is enqueued and, if the link is idle, dequeued at once; at the
    end of each transmission the next packet is dequeued."""
    events, queue, busy_until, changes = sorted(arrivals_ns), 0, None, []
    pending_departures: list[int] = []
    i = 0
    while i < len(events) or pending_departures:
        next_arrival = events[i] if i < len(events) else None
        next_done = pending_departures[0] if pending_departures else None
        if next_done is not None and (next_arrival is None or next_done < next_arrival):
            pending_departures.pop(0)
            busy_until = None
            if queue:
                queue -= 1
                changes.append((next_done, queue))
                busy_until = next_done + service_ns
                pending_departures.append(busy_until)
            continue
        queue += 1
        changes.append((next_arrival, queue))
        if busy_until is None:
            queue -= 1
            changes.append((next_arrival, queue))
            busy_until = next_arrival + service_ns
            pending_departures.append(busy_until)
        i += 1
    return changes


def test_value_recorder_follows_the_device_queue():
    """Packets every 5 ms on a link that needs 8.24 ms each: the queue grows by hand."""
    packets = 6
    with simulation() as ns:
        nodes, devices, interfaces = link(ns)
        cbr(ns, nodes, interfaces, "1.6Mbps", packets)  # 1000 bytes per 5 ms
        device = ns.DynamicCast[ns.PointToPointNetDevice](devices.Get(0))
        values = ValueRecorder()
        values.watch(device.GetQueue(), "PacketsInQueue", "uint32", name="queue")
        run_until(3.0)
        frame = values.to_frame()
    arrivals = [round(START * 1e9) + 5_000_000 * (k + 1) for k in range(packets)]
    expected = queue_reference(arrivals, SERIALISATION_NS)
    assert list(zip(ns_of(frame["time"]).tolist(), frame["value"].astype(int).tolist(),
                    strict=True)) == expected  # fmt: skip
    assert set(frame["series"]) == {"queue"}
    assert max(v for _, v in expected) == 2  # the hand calculation does build a queue


def test_value_recorder_by_config_path_now_and_later():
    with simulation() as ns:
        nodes, _, interfaces = link(ns)
        cbr(ns, nodes, interfaces, "400kbps", 2)
        values = ValueRecorder()
        path = "/NodeList/0/DeviceList/*/$ns3::PointToPointNetDevice/TxQueue/PacketsInQueue"
        values.watch_path(path, "uint32", name="now")
        # no node 5: matches nothing (an unknown TypeId in a path would abort ns-3)
        missing = path.replace("/NodeList/0/", "/NodeList/5/")
        values.watch_path(missing, "uint32", name="late", at=0.5)
        with pytest.raises(ValueError, match="no trace source matches"):
            values.watch_path(missing, "uint32")
        run_until(2.0)
        frame = values.to_frame()
        unmatched = values.unmatched_paths()
    assert set(frame["series"]) == {"now"}
    assert frame["value"].tolist() == [1.0, 0.0, 1.0, 0.0]  # each packet in and out at once
    assert unmatched == [missing]


def test_recorders_reject_applications_without_the_trace_sources():
    with simulation() as ns:
        nodes, _, interfaces = link(ns)
        sender, receiver = cbr(ns, nodes, interfaces, "400kbps", 1)
        recorder = PacketRecorder()
        with pytest.raises(ValueError, match="PacketSink has no TxWithSeqTsSize"):
            recorder.watch_sender(receiver, flow=1)
        with pytest.raises(ValueError, match="OnOffApplication has no RxWithSeqTsSize"):
            recorder.watch_receiver(sender, flow=1)
        with pytest.raises(ValueError, match="no trace source 'Nope'"):
            ValueRecorder().watch(sender, "Nope", "uint32")
        assert len(recorder.to_frame()) == 0
