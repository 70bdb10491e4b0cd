"""wsn_reporting_interval made NS-2-faithful: CBR timing, placement links, NS-2 TCP packets,
agent-level delay and throughput, energy from PHY state times. Hand-checked cases."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from transportlab.ns3.simulation import run_until, simulation
from transportlab.studies import get
from transportlab.studies import wsn_reporting_interval as wsn
from transportlab.studies.wsn_reporting_interval import analysis, network, scenario
from transportlab.studies.wsn_reporting_interval import parameters as wsn_params

STUDY = get("wsn_reporting_interval")
DEFAULTS = wsn_params.PARAMETERS.validate({})
RATE_BPS = 1_000_000
LINK_DELAY_S = 0.010
PPP = 2  # PPP header bytes


# --- placement (no ns-3) ---------------------------------------------------------------------


def _receives(params, a, b, pos, ranges):
    """b decodes a's frames: two-ray power from a's transmit power for its range >= RXThresh."""
    f = params["frequency_hz"]
    power = network.tx_power_for_range_w(ranges[a], params["rx_threshold_w"], f)
    return (
        network.two_ray_rx_power_w(power, math.dist(pos[a], pos[b]), f) >= params["rx_threshold_w"]
    )


CLUSTERS = dict(DEFAULTS, placement="clusters")


def test_declared_fields_follow_the_placement_rule():
    """The rule of the package docstring: in the area; each gateway within 150 m of the sink
    or an earlier gateway; each sensor within 60 m of a 150-m node; one-way links left."""
    assert (DEFAULTS["placement"], DEFAULTS["placement_seed"]) == ("field", 0)
    one_way = 0
    for run in range(1, 11):
        pos = network.positions(DEFAULTS, 1, run)
        assert len(pos) == 56 and len(set(pos)) == 56
        assert all(0 <= x <= 800 and 0 <= y <= 400 for x, y in pos)
        for g in wsn_params.GATEWAYS:
            assert min(math.dist(pos[g], pos[h]) for h in range(g)) <= 150.0
        for s in range(8, 56):
            assert min(math.dist(pos[s], pos[h]) for h in range(8)) <= 60.0
        facts = network.connectivity(DEFAULTS, 1, run)
        assert facts["connected_sensors"] == 55  # follows from the rule
        one_way += facts["asymmetric_links"]
    assert one_way > 0  # the seed's mixed ranges, not removed


def test_a_field_per_replication_the_same_for_both_simulators():
    assert network.positions(DEFAULTS, 1, 3) == network.positions(DEFAULTS, 1, 3)
    assert network.positions(DEFAULTS, 1, 3) != network.positions(DEFAULTS, 1, 4)
    assert network.positions(DEFAULTS, 1, 3) != network.positions(DEFAULTS, 2, 3)
    fixed = dict(DEFAULTS, placement_seed=7)
    assert (
        network.positions(fixed, 1, 1) == network.positions(fixed, 2, 5) == network.positions(fixed)
    )
    with pytest.raises(ValueError, match="draws a field per replication"):
        network.positions(DEFAULTS)
    # the streams of one replication are independent of each other and of other replications
    first = network.replication_seed_sequence(1, 1, network.FIELD_STREAM).generate_state(2)
    start = network.replication_seed_sequence(1, 1, network.START_STREAM).generate_state(2)
    assert list(first) != list(start)
    with pytest.raises(ValueError, match="run must be an int >= 1"):
        network.replication_seed_sequence(1, 0, network.FIELD_STREAM)


def test_field_rule_follows_the_declared_ranges():
    short = dict(DEFAULTS, short_range_m=30.0, long_range_m=100.0)
    pos = network.positions(short, 1, 1)
    assert all(min(math.dist(pos[s], pos[h]) for h in range(8)) <= 30.0 for s in range(8, 56))
    assert all(min(math.dist(pos[g], pos[h]) for h in range(g)) <= 100.0 for g in range(1, 8))


def test_every_link_of_the_cluster_grid_is_symmetric_under_the_two_ray_ranges():
    params = CLUSTERS
    pos = network.positions(params)
    ranges = network.node_ranges(params)
    assert len(pos) == 56 and len(set(pos)) == 56
    assert all(0 <= x <= 800 and 0 <= y <= 400 for x, y in pos)
    assert ranges[:8] == [150.0] * 8 and ranges[8:] == [60.0] * 48
    links = 0
    for a in range(56):
        for b in range(a + 1, 56):
            forward = _receives(params, a, b, pos, ranges)
            assert forward == _receives(params, b, a, pos, ranges), (a, b)
            links += forward
    # The 8 backbone nodes in a chain (7 links), every sensor one hop from its head and
    # from the five others of its cluster: 48 + 8 clusters x 15 sensor pairs.
    assert links == 7 + 48 + 8 * 15
    # No link within 4 m of the edge of a range.
    for a in range(56):
        for b in range(56):
            if a != b:
                d = math.dist(pos[a], pos[b])
                assert abs(d - ranges[a]) >= 4.0


def test_every_sensor_has_a_two_way_route_and_no_one_way_link_in_clusters():
    facts = network.connectivity(CLUSTERS)
    assert facts["asymmetric_links"] == 0 and facts["connected_sensors"] == 55
    # Sensor -> head -> at most 4 backbone hops to the sink (the sink is 4th of 8).
    assert facts["max_hops"] == 5
    columns = network.connectivity(dict(DEFAULTS, placement="columns"))
    # The earlier layout: 150-m gateways reach 60-m sensors in the next columns (~125 m).
    assert columns["asymmetric_links"] > 0


def test_random_placements_are_reproducible_and_differ_by_seed():
    # stop 18's fields 1-5 are kept as they were (placements, combined)
    assert network.positions(dict(DEFAULTS, placement="random", placement_seed=1))[1] == (
        pytest.approx(network._random_positions(np.random.default_rng(1))[1])
    )
    one = network.positions(dict(DEFAULTS, placement="random", placement_seed=3))
    again = network.positions(dict(DEFAULTS, placement="random", placement_seed=3))
    other = network.positions(dict(DEFAULTS, placement="random", placement_seed=4))
    assert one == again and one != other
    assert one[0] == (400.0, 200.0)
    assert all(0 <= x <= 800 and 0 <= y <= 400 for x, y in one)
    # Each gateway 100-145 m from one of the 150-m nodes placed before it.
    for g in wsn_params.GATEWAYS:
        assert min(math.dist(one[g], one[h]) for h in range(g)) <= 145.0


# --- NS-2's TCP packet size (no ns-3) --------------------------------------------------------


def test_ns2_tcp_sends_whole_packets_per_write():
    # TcpAgent::sendmsg: curseq_ += nbytes / size_ + (nbytes % size_ ? 1 : 0), size_ bytes each.
    assert wsn_params.ns2_tcp_write_bytes(256) == 1000
    assert wsn_params.ns2_tcp_write_bytes(1000) == 1000
    assert wsn_params.ns2_tcp_write_bytes(1001) == 2000
    assert wsn_params.ns2_tcp_write_bytes(256, packet_size=100) == 300
    ns2 = dict(DEFAULTS, protocol="tcp")
    assert wsn_params.write_bytes(ns2) == 1000
    assert wsn_params.write_bytes(dict(ns2, stack_preset="modern")) == 256
    assert wsn_params.write_bytes(dict(ns2, protocol="udp")) == 256
    with pytest.raises(ValueError):
        wsn_params.ns2_tcp_write_bytes(0)


# --- a 3-node chain in ns-3: CBR timing and agent-level delay, by hand ---------------------------


def _chain(ns, protocol: str, size: int, start: float, interval: float, stop: float):
    """sink 0 -- relay 1 -- sensor 2 over 1 Mb/s, 10 ms point-to-point links; one CBR."""
    nodes = ns.NodeContainer()
    nodes.Create(3)
    ns.InternetStackHelper().Install(nodes)
    link = ns.PointToPointHelper()
    link.SetDeviceAttribute("DataRate", ns.StringValue("1Mbps"))
    link.SetChannelAttribute("Delay", ns.StringValue("10ms"))
    first = link.Install(nodes.Get(0), nodes.Get(1))
    second = link.Install(nodes.Get(1), nodes.Get(2))
    addresses = ns.Ipv4AddressHelper()
    addresses.SetBase(ns.Ipv4Address("10.1.0.0"), ns.Ipv4Mask("255.255.255.0"))
    interfaces = addresses.Assign(first)
    addresses.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
    addresses.Assign(second)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    factory = {"udp": "ns3::UdpSocketFactory", "tcp": "ns3::TcpSocketFactory"}[protocol]
    sink = ns.PacketSinkHelper(
        factory, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 9).ConvertTo()
    )
    sink.SetAttribute("EnableSeqTsSizeHeader", ns.BooleanValue(True))
    sink_app = sink.Install(nodes.Get(0)).Get(0)
    app = ns.CreateObject[ns.Ns2CbrApplication]()
    remote = ns.InetSocketAddress(interfaces.GetAddress(0), 9).ConvertTo()
    app.SetAttribute("Remote", ns.AddressValue(remote))
    app.SetAttribute("Protocol", ns.TypeIdValue(ns.TypeId.LookupByName(factory)))
    app.SetAttribute("PacketSize", ns.UintegerValue(size))
    app.SetAttribute("Interval", ns.TimeValue(ns.Seconds(interval)))
    app.SetAttribute("EnableSeqTsSizeHeader", ns.BooleanValue(True))
    nodes.Get(2).AddApplication(app)
    app.SetStartTime(ns.Seconds(start))
    app.SetStopTime(ns.Seconds(stop))
    return nodes, interfaces, app, sink_app


def _run_chain(protocol, size, start, interval, stop, until=5.0, tcp_ns2=False):
    from transportlab.ns3.recording import PacketRecorder

    with simulation(seed=1, run=1, checksums=False) as ns:
        if tcp_ns2:
            scenario._config_tcp(ns, dict(DEFAULTS, protocol="tcp"))
        nodes, interfaces, app, sink_app = _chain(ns, protocol, size, start, interval, stop)
        recorder = PacketRecorder()
        recorder.watch_sender(app, 2)
        recorder.watch_receiver(sink_app, 2)
        agents = scenario._agent_trace(ns, nodes, interfaces)
        run_until(until)
        return recorder.to_frame(), scenario._agent_frame(agents), int(app.GetRefused())


def _one_way(ip_bytes: int) -> float:
    """Two hops of transmission (IP bytes + PPP header at 1 Mb/s) and propagation (10 ms)."""
    return 2 * ((ip_bytes + PPP) * 8 / RATE_BPS + LINK_DELAY_S)


def test_cbr_writes_its_first_report_at_its_start_then_one_per_interval():
    packets, _, refused = _run_chain("udp", 256, start=1.0, interval=0.5, stop=2.9)
    sent = packets[packets["event"] == "sent"]
    # NS-2's CBR: 1.0, 1.5, 2.0, 2.5 (OnOff would start at 1.5 and send 3).
    assert sent["time"].tolist() == pytest.approx([1.0, 1.5, 2.0, 2.5])
    assert refused == 0
    received = packets[packets["event"] == "received"]
    assert len(received) == 4


def test_agent_level_delay_on_a_three_node_chain_udp():
    packets, agent, _ = _run_chain("udp", 256, start=1.0, interval=0.5, stop=2.9)
    params = dict(DEFAULTS, duration=5.0)
    metrics = analysis.agent_metrics(agent, params)
    # 256 B + 8 UDP + 20 IP = 284 B per hop: 2 x (286 x 8 / 1e6 + 0.010) = 24.576 ms.
    assert metrics["mean_delay_ms"] == pytest.approx(_one_way(284) * 1000, abs=1e-6)
    assert _one_way(284) * 1000 == pytest.approx(24.576)
    assert (metrics["agent_sent"], metrics["agent_received"]) == (4, 4)
    # NS-2's Agent/UDP adds no header bytes, AODV its 20-byte IP header: 4 x 276 B in 5 s.
    assert metrics["throughput_kbps"] == pytest.approx(4 * 276 * 8 / 5.0 / 1000)
    # For UDP the agent sends when the application writes: same delay at both levels.
    received = packets[packets["event"] == "received"]
    assert received["delay"].mean() * 1000 == pytest.approx(metrics["mean_delay_ms"], abs=1e-6)


def test_agent_delay_median_and_90th_percentile_by_hand():
    # Three UDP reports from sensor 5 with delays of 10, 20 and 90 ms: mean 40, median 20,
    # 90th percentile (linear between the 2nd and 3rd) 20 + 0.8 x 70 = 76.
    sends, delays = [1.0, 2.0, 3.0], [0.010, 0.020, 0.090]
    rows = [("sent", t, i) for i, t in enumerate(sends)]
    rows += [("received", t + d, i) for i, (t, d) in enumerate(zip(sends, delays, strict=True))]
    agent = pd.DataFrame({
        "event": [r[0] for r in rows], "time": [r[1] for r in rows],
        "ip_id": [r[2] for r in rows], "src": 5, "dst": 0, "ip_protocol": analysis.UDP,
        "payload": 256, "size": 264, "chunk_type": 0,
    })  # fmt: skip
    metrics = analysis.agent_metrics(agent, dict(DEFAULTS, duration=10.0))
    assert metrics["mean_delay_ms"] == pytest.approx(40.0)
    assert metrics["median_delay_ms"] == pytest.approx(20.0)
    assert metrics["p90_delay_ms"] == pytest.approx(76.0)


def test_agent_level_delay_excludes_the_wait_for_the_tcp_handshake():
    # One 256-byte report over NS-2's TCP: padded to one 1000-byte segment, sent after
    # the SYN/SYN-ACK exchange; the report's application delay includes that exchange.
    packets, agent, _ = _run_chain("tcp", 1000, start=1.0, interval=10.0, stop=1.5, tcp_ns2=True)
    data = agent[(agent["payload"] > 0)]
    assert set(data["payload"]) == {1000}
    assert set(data["size"]) == {1020}  # 1000 + 20-byte TCP header; +20 IP = NS-2's 1040
    metrics = analysis.agent_metrics(agent, dict(DEFAULTS, duration=5.0))
    assert metrics["agent_received"] == 1
    # 1000 + 20 TCP + 20 IP = 1040 B: 2 x (1042 x 8 / 1e6 + 0.010) = 36.672 ms, plus
    # 0.336 ms on the first link behind the handshake's pure ACK (40 + 2 B at 1 Mb/s),
    # which ns-3 sends just before the segment.
    ack_wait = (40 + PPP) * 8 / RATE_BPS
    assert metrics["mean_delay_ms"] == pytest.approx((_one_way(1040) + ack_wait) * 1000, abs=1e-6)
    assert metrics["throughput_kbps"] == pytest.approx(1040 * 8 / 5.0 / 1000)
    app_delay = packets.loc[packets["event"] == "received", "delay"].iloc[0]
    syn = agent[(agent["payload"] == 0) & (agent["event"] == "sent") & (agent["dst"] == 0)]
    handshake = 2 * _one_way(int(syn["size"].iloc[0]) + 20)
    assert app_delay == pytest.approx(handshake + _one_way(1040) + ack_wait, abs=1e-6)


# --- energy from state times (no ns-3) --------------------------------------------------------


def test_energy_breakdown_by_hand():
    states = pd.DataFrame({
        "node": [0, 1], "idle": [90.0, 99.0], "cca_busy": [4.0, 0.5], "tx": [2.0, 0.1],
        "rx": [4.0, 0.4], "switching": [0.0] * 2, "sleep": [0.0] * 2, "off": [0.0] * 2,
    })  # fmt: skip
    ns2 = analysis.energy_breakdown(states, DEFAULTS)
    # NS-2.35: 0.660 W x tx + 0.395 W x (rx + busy), idle free.
    assert ns2["energy_j"].tolist() == pytest.approx(
        [2 * 0.66 + 8 * 0.395, 0.1 * 0.66 + 0.9 * 0.395]
    )
    assert ns2["rx_s"].tolist() == [8.0, 0.9] and ns2["idle_j"].tolist() == [0.0, 0.0]
    idle = analysis.energy_breakdown(states, dict(DEFAULTS, idle_power_w=0.035))
    assert (idle["energy_j"] - ns2["energy_j"]).tolist() == pytest.approx([90 * 0.035, 99 * 0.035])
    mica = analysis.energy_breakdown(states, dict(DEFAULTS, energy_model="mica2"))
    assert mica["energy_j"][0] == pytest.approx(3.0 * (2 * 0.027 + 8 * 0.010 + 90 * 0.010))


# --- the study's network in ns-3 ---------------------------------------------------------------

SHORT = {"protocol": "tcp", "duration": 8.0, "n_sources": 3, "reporting_interval": 2.0}


@pytest.fixture(scope="module")
def tcp_run():
    params = STUDY.parameters.validate(SHORT)
    return params, STUDY.analyse(STUDY.run(params, 1, 1), params)


@pytest.mark.slow
def test_ns2_tcp_in_the_field_sends_1000_byte_segments(tcp_run):
    _, tables = tcp_run
    agent = tables["agent"]
    data = agent[(agent["payload"] > 0) & (agent["dst"] == 0)]
    assert len(data) > 0 and set(data["payload"]) == {1000}


@pytest.mark.slow
def test_state_times_cover_the_run_and_match_ns3s_mica2_energy_model(tcp_run):
    params, tables = tcp_run
    states = tables["states"].drop(columns="node")
    assert np.allclose(states.sum(axis=1), params["duration"], atol=1e-6)
    # ns-3's energy models run only on request (a cross-check); the network is the same
    checked = wsn.simulate(params, 1, 1, options=wsn.RunOptions(ns3_energy_models=True))
    assert checked["states"].equals(tables["states"]) and tables["energy"].empty
    tables = checked
    mica = analysis.energy_breakdown(tables["states"], dict(params, energy_model="mica2"))
    # ns-3's energy model follows the PHY through its listener, the state times through
    # the state log; the two place a few state changes (e.g. a CCA-busy period cut short
    # by a transmission) slightly differently: within 0.1 %, the state times never lower.
    ns3_model = tables["energy"]["energy_j"].to_numpy()
    assert mica["energy_j"].to_numpy() == pytest.approx(ns3_model, rel=1e-3)
    assert (mica["energy_j"].to_numpy() >= ns3_model * (1 - 1e-9)).all()


def _first_report_times(start_mode: str) -> pd.Series:
    params = STUDY.parameters.validate(dict(SHORT, protocol="udp", start_mode=start_mode))
    packets = STUDY.run(params, 1, 1)["packets"]
    sent = packets[packets["event"] == "sent"]
    return sent.groupby("flow")["time"].min()  # a flow per sensor


def test_synchronized_sensors_all_report_at_start_time_staggered_ones_within_an_interval():
    start, interval = DEFAULTS["start_time"], SHORT["reporting_interval"]
    synchronized = _first_report_times("synchronized")
    assert len(synchronized) == SHORT["n_sources"]
    assert (synchronized == start).all()
    staggered = _first_report_times("staggered")
    assert ((staggered >= start) & (staggered < start + interval)).all()
    assert staggered.nunique() == SHORT["n_sources"]


@pytest.mark.slow
def test_ns2_lock_receives_undecodable_frames_to_their_end():
    # Three UDP sensors for 8 s: frames between CSThresh and RXThresh reach every node.
    params = STUDY.parameters.validate(dict(SHORT, protocol="udp"))
    assert params["reception_model"] == "ns2_lock"  # NS-2's lock, declared since issue 25
    declared = STUDY.analyse(STUDY.run(params, 1, 1), params)["summary"].iloc[0]
    params = STUDY.parameters.validate(dict(SHORT, protocol="udp", reception_model="ns2"))
    unlocked = STUDY.analyse(STUDY.run(params, 1, 1), params)["summary"].iloc[0]
    assert unlocked["ns2_undecodable"] == 0
    assert declared["ns2_undecodable"] > 0


def test_exchange_time_of_one_report_by_hand():
    # 256 B + 8 UDP + 20 IP at NS-2's 1 Mb/s: DIFS 50 + backoff 310 + RTS 352 + CTS 304 +
    # DATA (192 + 320 x 8 = 2752) + ACK 304 + 3 SIFS 30 = 4102 us
    assert analysis.exchange_time_s(284) == pytest.approx(4102e-6)
    # TCP's 1040-byte packet (DATA 192 + 1076 x 8: 10150 us) and its 40-byte ACK (2150 us)
    tcp = analysis.exchange_time_s(1040) + analysis.exchange_time_s(40)
    assert tcp == pytest.approx(10150e-6 + 2150e-6)
