"""Stream schedulers (RFC 8260 section 3) end to end: the StreamScheduler attribute and the
per-stream priority and weight of SctpSocket, seen in the order of DATA chunks on a
point-to-point link. The order each scheduler defines is tested on hand-built queues by
the C++ suite ``sctp-stream-scheduler``; here the sender's whole path (socket, association,
sender, packets) must keep it."""

from __future__ import annotations

import gc

import pytest

from tests.sctp._support import make_pair, needs_tshark, tshark_fields
from tests.sctp.test_streams import identify
from tests.sctp.test_streams import setup as setup_pair
from transportlab.ns3.simulation import run_until, simulation

# Four 1000-byte messages on stream 0, then four on stream 1, all handed to the socket
# before the association is up, so the scheduler chooses among all eight. One message
# fits a packet (MTU 1500), so the wire order is the scheduler's order.
MESSAGES = [(0, 1000)] * 4 + [(1, 1000)] * 4


def run_scheduler(scheduler: str, priorities=(), weights=(), pcap=None):
    """Send MESSAGES with ``scheduler``; return the received messages' indices in order
    of arrival, the scheduler the association used, and SetStreamWeight(0, 0)'s result."""
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        server, client, collector, sender = setup_pair(ns, pair)
        client.SetAttribute("StreamScheduler", ns.StringValue(scheduler))
        for stream, value in priorities:
            assert client.SetStreamPriority(stream, value) == 0
        for stream, value in weights:
            assert client.SetStreamWeight(stream, value) == 0
        refused = int(client.SetStreamWeight(0, 0))
        for i, (stream, size) in enumerate(MESSAGES):
            sender.At(0.0, size, stream, False, i)  # after ConnectAt(0.0): COOKIE-WAIT
        if pcap is not None:
            pair.p2p.EnablePcap(str(pcap), pair.devices.Get(0), True)
        run_until(3.0)
        assert int(sender.failed) == 0
        order = identify(collector, range(len(MESSAGES)))
        used = str(client.GetStreamScheduler().GetInstanceTypeId().GetName())
        assert str(client.CheckInvariants()) == ""
        for stream, value in priorities:
            assert int(client.GetStreamScheduler().GetStreamPriority(stream)) == value
        for stream, value in weights:
            assert int(client.GetStreamWeight(stream)) == value
        del pair, server, client, collector, sender
    gc.collect()
    return order, used, refused


@pytest.mark.parametrize(
    ("scheduler", "priorities", "weights", "expected"),
    [
        # the default: the order of Send
        ("ns3::SctpFcfsStreamScheduler", (), (), [0, 1, 2, 3, 4, 5, 6, 7]),
        # one message per stream in turn
        ("ns3::SctpRoundRobinStreamScheduler", (), (), [0, 4, 1, 5, 2, 6, 3, 7]),
        # stream 1 before stream 0, set through the socket before Connect
        ("ns3::SctpPriorityStreamScheduler", ((0, 2), (1, 1)), (), [4, 5, 6, 7, 0, 1, 2, 3]),
        # stream 0 weight 2: finish tags a 500, 1000, 1500, 2000 and b 1000, 2000, 3000,
        # 4000; ties go to the message queued first
        ("ns3::SctpWfqStreamScheduler", (), ((0, 2),), [0, 1, 4, 2, 3, 5, 6, 7]),
    ],
)
def test_scheduler_orders_the_messages(scheduler, priorities, weights, expected):
    order, used, refused = run_scheduler(scheduler, priorities, weights)
    assert used == scheduler
    assert refused == -1  # a weight of 0 is refused
    # No loss: messages arrive in the order their DATA chunks were sent.
    assert order == expected


def test_default_scheduler_is_fcfs():
    from transportlab import ns

    socket_type = ns.TypeId.LookupByName("ns3::SctpSocket")
    info = ns.TypeId.AttributeInformation()
    assert socket_type.LookupAttributeByName("StreamScheduler", info)
    assert info.initialValue.SerializeToString(info.checker) == "ns3::SctpFcfsStreamScheduler"


@needs_tshark
def test_round_robin_interleaves_streams_on_the_wire(tmp_path):
    """The DATA chunks in the pcap: stream ids in TSN order, and each stream's SSNs."""
    sids = {}
    for name in ("ns3::SctpFcfsStreamScheduler", "ns3::SctpRoundRobinStreamScheduler"):
        prefix = tmp_path / name.split("::")[1]
        run_scheduler(name, pcap=prefix)
        rows = tshark_fields(
            tmp_path / f"{prefix.name}-0-0.pcap",
            "sctp.data_tsn",
            "sctp.data_sid",
            "sctp.data_ssn",
            "sctp.checksum.status",
        )
        chunks = []
        for tsn, sid, ssn, _ in (r for r in rows if r[0]):
            chunks += zip(tsn.split(","), sid.split(","), ssn.split(","), strict=True)
        chunks = sorted({(int(t), int(s, 0), int(n)) for t, s, n in chunks})  # sid in hex
        assert len(chunks) == 8
        assert {r[3] for r in rows} == {"1"}  # every checksum good
        for stream in (0, 1):
            assert [n for _, s, n in chunks if s == stream] == [0, 1, 2, 3]
        sids[name] = [s for _, s, _ in chunks]
    assert sids["ns3::SctpFcfsStreamScheduler"] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert sids["ns3::SctpRoundRobinStreamScheduler"] == [0, 1, 0, 1, 0, 1, 0, 1]
