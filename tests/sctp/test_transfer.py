"""Association set-up, bulk transfer and graceful shutdown with ns-3's own applications."""

from __future__ import annotations

import gc

import numpy as np

from tests.sctp._support import (
    assert_pcap_clean,
    chunk_sequence,
    make_pair,
    needs_tshark,
)
from transportlab.ns3.recording import PacketRecorder, enable_seq_ts_size
from transportlab.ns3.simulation import run_until, simulation

SINK_PORT = 9


def bulk_transfer(ns, pair, max_bytes: int, send_size: int = 1452, seq_ts: bool = False):
    sink = ns.PacketSinkHelper(
        "ns3::SctpSocketFactory",
        ns.InetSocketAddress(ns.Ipv4Address.GetAny(), SINK_PORT).ConvertTo(),
    )
    bulk = ns.BulkSendHelper("ns3::SctpSocketFactory", pair.endpoint(1, SINK_PORT))
    bulk.SetAttribute("MaxBytes", ns.UintegerValue(max_bytes))
    bulk.SetAttribute("SendSize", ns.UintegerValue(send_size))
    if seq_ts:
        enable_seq_ts_size(sink, bulk)
    sink_apps = sink.Install(pair.nodes.Get(1))
    bulk_apps = bulk.Install(pair.nodes.Get(0))
    sink_apps.Start(ns.Seconds(0.0))
    bulk_apps.Start(ns.Seconds(0.1))
    return ns.DynamicCast[ns.PacketSink](sink_apps.Get(0)), bulk_apps.Get(0)


@needs_tshark
def test_handshake_transfer_shutdown_chunk_sequence(tmp_path):
    with simulation(seed=1, run=1) as ns:
        pair = make_pair("10Mbps", "5ms")
        sink, _ = bulk_transfer(ns, pair, max_bytes=10 * 1452)
        pair.p2p.EnablePcap(str(tmp_path / "client"), pair.devices.Get(0), True)
        run_until(3.0)
        assert sink.GetTotalRx() == 10 * 1452
    del pair, sink  # the pcap file is closed when its device is freed
    gc.collect()
    pcap = tmp_path / "client-0-0.pcap"
    frames = assert_pcap_clean(pcap)
    sequence = chunk_sequence(pcap)
    assert len(sequence) == frames
    assert sequence[:4] == ["INIT", "INIT_ACK", "COOKIE_ECHO", "COOKIE_ACK"]
    assert sequence[-3:] == ["SHUTDOWN", "SHUTDOWN_ACK", "SHUTDOWN_COMPLETE"]
    middle = sequence[4:-3]
    data_chunks = sum(item.split("+").count("DATA") for item in middle)
    assert data_chunks == 10
    assert any("SACK" in item for item in middle)
    assert all(set(item.split("+")) <= {"DATA", "SACK"} for item in middle)


@needs_tshark
def test_init_parameters_decode_in_tshark(tmp_path):
    from tests.sctp._support import tshark_fields

    with simulation(seed=3, run=1) as ns:
        pair = make_pair("10Mbps", "5ms")
        bulk_transfer(ns, pair, max_bytes=1452)
        pair.p2p.EnablePcap(str(tmp_path / "c"), pair.devices.Get(0), True)
        run_until(2.0)
    del pair
    gc.collect()
    rows = tshark_fields(
        tmp_path / "c-0-0.pcap",
        "sctp.init_nr_out_streams",
        "sctp.init_nr_in_streams",
        "sctp.init_credit",
        "sctp.verification_tag",
        "sctp.initack_initiate_tag",
        "sctp.init_initiate_tag",
    )
    init, init_ack = rows[0], rows[1]
    assert init[0] == "10" and init[1] == "10" and init[2] == "131072"
    assert init[3] == "0x00000000"
    # The INIT ACK goes to the tag announced in the INIT.
    assert int(init_ack[3], 16) == int(init[5], 16)


def test_large_transfer_exact_delivery_in_order():
    n_messages = 3000
    with simulation(seed=2, run=1) as ns:
        pair = make_pair("20Mbps", "10ms")
        sink, bulk = bulk_transfer(ns, pair, max_bytes=n_messages * 1452, seq_ts=True)
        recorder = PacketRecorder()
        recorder.watch_sender(bulk, 1)
        recorder.watch_receiver(sink, 1)
        run_until(10.0)
        frame = recorder.to_frame()
        assert sink.GetTotalRx() == n_messages * 1452
    sent = frame[frame.event == "sent"]
    received = frame[frame.event == "received"]
    assert len(sent) == n_messages
    assert np.array_equal(received.seq.to_numpy(), np.arange(n_messages))
    assert (received["size"] == 1452).all()  # SeqTsSizeHeader size: the whole message
    assert (received.delay > 0.010).all()


def test_onoff_application_over_sctp():
    with simulation(seed=4, run=1) as ns:
        pair = make_pair("10Mbps", "10ms")
        sink_helper = ns.PacketSinkHelper(
            "ns3::SctpSocketFactory",
            ns.InetSocketAddress(ns.Ipv4Address.GetAny(), SINK_PORT).ConvertTo(),
        )
        onoff = ns.OnOffHelper("ns3::SctpSocketFactory", pair.endpoint(1, SINK_PORT))
        onoff.SetConstantRate(ns.DataRate("1Mbps"), 500)
        onoff.SetAttribute("MaxBytes", ns.UintegerValue(50 * 500))
        sink_apps = sink_helper.Install(pair.nodes.Get(1))
        apps = onoff.Install(pair.nodes.Get(0))
        sink_apps.Start(ns.Seconds(0))
        apps.Start(ns.Seconds(0.5))
        run_until(3.0)
        sink = ns.DynamicCast[ns.PacketSink](sink_apps.Get(0))
        assert sink.GetTotalRx() == 50 * 500


@needs_tshark
def test_delayed_sack_every_second_packet_or_after_the_timer(tmp_path):
    from tests.sctp._support import tshark_fields

    with simulation(seed=1, run=1) as ns:
        ns.Config.SetDefault("ns3::SctpSocket::SackDelay", ns.TimeValue(ns.MilliSeconds(150)))
        pair = make_pair("10Mbps", "5ms")
        bulk_transfer(ns, pair, max_bytes=7 * 1452)  # odd: the last chunk waits for the timer
        pair.p2p.EnablePcap(str(tmp_path / "sack"), pair.devices.Get(1), True)
        run_until(2.0)
        del pair
    gc.collect()
    rows = tshark_fields(
        tmp_path / "sack-1-0.pcap",
        "frame.time_relative",
        "sctp.chunk_type",
        "sctp.sack_cumulative_tsn_ack",
        "sctp.data_tsn",
    )
    data = [(float(r[0]), int(r[3])) for r in rows if r[1] == "0"]
    sacks = [(float(r[0]), int(r[2])) for r in rows if r[1] == "3"]
    first = data[0][1]
    # Every second DATA packet is acknowledged at once...
    assert [tsn - first for _, tsn in sacks[:3]] == [1, 3, 5]
    # ...and the seventh one after SackDelay.
    last_data_time = data[-1][0]
    assert sacks[3][1] - first == 6
    assert abs(sacks[3][0] - last_data_time - 0.150) < 1e-6
