"""wsn_reporting_interval: radio arithmetic, topology, the run/analyse split, comparison rows,
range check and short runs."""

from __future__ import annotations

import math
from collections import deque

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from transportlab.engine import stats, verdicts
from transportlab.engine.fingerprint import module_closure
from transportlab.engine.params import ParameterError
from transportlab.ns3.capabilities import sctp_available
from transportlab.studies import get
from transportlab.studies.wsn_reporting_interval import (
    analysis,
    comparison,
    network,
    reproduction,
    scenario,
)
from transportlab.studies.wsn_reporting_interval import parameters as wsn_params

STUDY = get("wsn_reporting_interval")
DEFAULTS = wsn_params.PARAMETERS.validate({})
needs_sctp = pytest.mark.skipif(not sctp_available(), reason="SCTP model not in this build")


# --- radio arithmetic (no ns-3) -----------------------------------------------------------------


def test_ns2_default_radio_reaches_250_m_at_914_mhz():
    # NS-2's defaults (Pt 0.28183815 W, 914 MHz, RXThresh 3.652e-10 W) are its 250-m radio.
    power = network.tx_power_for_range_w(
        250.0, wsn_params.NS2_RX_THRESHOLD_W, wsn_params.NS2_DEFAULT_FREQUENCY_HZ
    )
    assert power == pytest.approx(wsn_params.NS2_DEFAULT_TX_POWER_W, rel=2e-3)
    # (86.1 m with NS-2's c = 3e8; ns-3 and this module use 299792458 m/s)
    assert network.crossover_distance_m(914e6) == pytest.approx(86.2, abs=0.1)


def test_two_ray_switches_from_friis_to_fourth_power_at_the_crossover():
    f = 2.4e9
    cross = network.crossover_distance_m(f)
    assert cross == pytest.approx(4 * math.pi * 1.5 * 1.5 / (wsn_params.SPEED_OF_LIGHT / f))
    lam = wsn_params.SPEED_OF_LIGHT / f
    assert network.two_ray_rx_power_w(1.0, 100.0, f) == pytest.approx(
        lam**2 / (4 * math.pi * 100) ** 2
    )
    assert network.two_ray_rx_power_w(1.0, 400.0, f) == pytest.approx(1.5**4 / 400.0**4)


@pytest.mark.parametrize("range_m", [60.0, 150.0])
def test_transmit_power_puts_the_threshold_exactly_at_the_range(range_m):
    f = DEFAULTS["frequency_hz"]
    power = network.tx_power_for_range_w(range_m, wsn_params.NS2_RX_THRESHOLD_W, f)
    assert network.two_ray_rx_power_w(power, range_m, f) == pytest.approx(
        wsn_params.NS2_RX_THRESHOLD_W
    )
    assert network.two_ray_rx_power_w(power, range_m - 1, f) > wsn_params.NS2_RX_THRESHOLD_W
    assert network.two_ray_rx_power_w(power, range_m + 1, f) < wsn_params.NS2_RX_THRESHOLD_W
    assert network.range_for_threshold_m(power, wsn_params.NS2_RX_THRESHOLD_W, f) == pytest.approx(
        range_m
    )


def test_transmit_powers_and_carrier_sense_ranges_at_2_4_ghz():
    f = 2.4e9
    short = network.tx_power_for_range_w(60.0, wsn_params.NS2_RX_THRESHOLD_W, f)
    long = network.tx_power_for_range_w(150.0, wsn_params.NS2_RX_THRESHOLD_W, f)
    # Both ranges are inside the 226-m crossover: Friis, so power scales with range squared.
    assert long / short == pytest.approx((150 / 60) ** 2)
    assert network.w_to_dbm(short) == pytest.approx(11.24, abs=0.01)
    assert network.w_to_dbm(long) == pytest.approx(19.20, abs=0.01)
    cs_short = network.range_for_threshold_m(short, wsn_params.NS2_CS_THRESHOLD_W, f)
    assert cs_short == pytest.approx(256.4, abs=0.5)


# --- topology ----------------------------------------------------------------------------------


COLUMNS = dict(DEFAULTS, placement="columns")


def test_topology_facts_of_the_columns_placement():
    pos = network.positions(COLUMNS)
    assert len(pos) == 56
    assert all(0 < x < 800 and 0 < y < 400 for x, y in pos)
    assert len(set(pos)) == 56
    assert pos[0] == pytest.approx((400.0, 225.0))
    ranges = network.node_ranges(DEFAULTS)
    assert ranges[:8] == [150.0] * 8 and ranges[8:] == [60.0] * 48
    # Gateways form a backbone: neighbours 114.3 m apart, next-but-one out of range.
    for a, b in zip(wsn_params.GATEWAYS, wsn_params.GATEWAYS[1:], strict=False):
        assert math.dist(pos[a], pos[b]) == pytest.approx(800 / 7)
    assert min(math.dist(p, q) for i, p in enumerate(pos) for q in pos[i + 1 :]) == pytest.approx(
        50.0
    )


def test_every_sensor_of_the_columns_placement_has_a_two_way_path_to_the_sink():
    links = network.link_table(COLUMNS)
    forward = {
        (a, b) for a, b, ok in zip(links["tx"], links["rx"], links["receives"], strict=False) if ok
    }
    neighbours = {n: set() for n in range(56)}
    for a, b in forward:
        if (b, a) in forward:
            neighbours[a].add(b)
    hops = {0: 0}
    queue = deque([0])
    while queue:
        n = queue.popleft()
        for m in neighbours[n]:
            if m not in hops:
                hops[m] = hops[n] + 1
                queue.append(m)
    assert len(hops) == 56
    assert max(hops.values()) == 7
    # Short-range sensors hear only their column neighbours (50 m); gateways reach further.
    short_links = links[(links["tx"] >= 8) & links["receives"]]
    assert short_links["distance_m"].max() == pytest.approx(50.0)


# --- declaration and parameters ------------------------------------------------------------------


def test_declaration_and_quick_parameters():
    assert STUDY.notebook == "04_wsn_reporting_interval.ipynb"
    assert STUDY.seed_files == ("003_3eccc45171f7c0ea.txt",)
    quick = STUDY.parameters.validate({}, quick=True)
    assert quick["duration"] == 20.0 and len(wsn_params.sources(quick)) == 11
    assert [e.name for e in STUDY.reproduction.experiments] == [
        "intervals",
        "placements",
        "transport_models",
        "interval_scale",
        "carrier_sense",
        "reception_model",
        "combined",
        "receiver_lock",
        "start_mode",
        "ns2_fidelity",
    ]
    assert set(STUDY.reproduction.tables) == {
        "summary", "connectivity", "placements", "transport_models", "interval_scale",
        "agent_vs_app", "energy_states", "idle_power", "carrier_sense", "implied_idle_power",
        "reception_model", "combined", "receiver_lock", "start_mode", "ns2_fidelity",
    }  # fmt: skip
    assert set(STUDY.reproduction.figures) == {
        "metrics_vs_interval", "metric_averages", "placements", "transport_models",
        "interval_scale", "idle_power", "carrier_sense", "implied_idle_power", "reception_model",
        "combined", "receiver_lock", "start_mode",
    }  # fmt: skip
    # the declared defaults: NS-2's agents, the placement rule's fields (one per run)
    assert (DEFAULTS["stack_preset"], DEFAULTS["placement"]) == ("ns2", "field")
    assert DEFAULTS["placement_seed"] == 0
    assert (DEFAULTS["reception_model"], DEFAULTS["start_mode"]) == ("ns2_lock", "staggered")
    # NS-2's models where ns-3 can follow them (issue 25)
    assert (DEFAULTS["retry_model"], DEFAULTS["carrier_sense_culling"]) == ("ns2", "ns2")
    assert DEFAULTS["arp_model"] == "preloaded"
    assert (DEFAULTS["energy_model"], DEFAULTS["idle_power_w"]) == ("ns2", 0.0)


def test_quick_and_full_points_and_runs():
    experiment = STUDY.reproduction.experiment("intervals")
    protocols = ["udp", "tcp"] + (["sctp"] if sctp_available() else [])
    full = experiment.point_list(DEFAULTS, quick=False)
    quick = experiment.point_list(DEFAULTS, quick=True)
    # protocols outermost, intervals innermost (the order of the old notebook's grid)
    assert full == [
        {"protocol": p, "reporting_interval": i}
        for p in protocols
        for i in wsn_params.PRINTED_INTERVALS
    ]
    assert quick == [{"protocol": p, "reporting_interval": i} for p in protocols for i in (1, 20)]
    for e in STUDY.reproduction.experiments:
        # the compared experiment has 10 runs per point (intervals narrower than 20 %)
        expected = {"intervals": 10, "ns2_fidelity": 3}.get(e.name, 5)
        assert (e.runs, e.quick_runs) == (expected, 1), e.name
    placements = STUDY.reproduction.experiment("placements").point_list(DEFAULTS, quick=False)
    # every protocol x 2 intervals x (field, clusters, columns, random 1-5)
    assert len(placements) == len(protocols) * 2 * 8


def test_the_run_step_imports_no_analysis():
    closure = set(module_closure(["transportlab.studies.wsn_reporting_interval.scenario"]))
    assert "transportlab.studies.wsn_reporting_interval.network" in closure
    assert "transportlab.ns3.recording" in closure
    for name in ("analysis", "reproduction"):
        assert f"transportlab.studies.wsn_reporting_interval.{name}" not in closure
    for name in ("metrics", "stats", "published"):
        assert f"transportlab.{name}" not in closure


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"protocl": "udp"}, "did you mean 'protocol'"),
        ({"protocol": "quic"}, "'quic' is not one of"),
        ({"queue_limit": 50}, "unknown parameter 'queue_limit'"),
        ({"queue_packets": 0}, "must be >= 1"),
        ({"reporting_interval": 0}, "must be > 0"),
        ({"interval_scale": 5.0}, "is not one of"),
        ({"placement": "grid"}, "is not one of"),
        ({"stack_preset": "ns3"}, "is not one of"),
        ({"short_range_m": 200.0}, "short_range_m must be smaller"),
        ({"start_time": 150.0}, "must be before duration"),
        ({"n_sources": 56}, "must be <= 55"),
        ({"duration": "100"}, "expected float"),
    ],
)
def test_bad_parameters_are_refused_before_running(values, message):
    with pytest.raises(ParameterError, match=message):
        STUDY.parameters.validate(values)


def test_sctp_needs_the_sctp_model():
    if sctp_available():
        assert STUDY.parameters.validate({"protocol": "sctp"})["protocol"] == "sctp"
    else:
        with pytest.raises(ParameterError, match="SCTP is not available"):
            STUDY.parameters.validate({"protocol": "sctp"})


def test_effective_interval_and_sources():
    p = wsn_params.PARAMETERS.validate(
        {"reporting_interval": 5, "interval_scale": 0.1, "n_sources": 3}
    )
    assert wsn_params.effective_interval_s(p) == pytest.approx(0.5)
    assert wsn_params.sources(p) == [1, 19, 37]
    assert len(wsn_params.sources(DEFAULTS)) == 55


# --- analyse on hand-made raw tables (no ns-3) ---------------------------------------------------


def _counts(rows):
    return pd.DataFrame(rows, columns=["node", "source", "packet_class", "reason", "count"])


def hand_made_raw():
    """Two reports sent, one delivered 40 ms later; a few counters; two nodes' energy."""
    packets = pd.DataFrame({
        "flow": [1, 1, 1], "event": ["sent", "sent", "received"], "seq": [0, 1, 0],
        "size": [256, 256, 256], "delay": [np.nan, np.nan, 0.040],
    })  # fmt: skip
    counts = _counts([
        (1, "wifi-phy-tx", "udp-data", 0, 8),
        (1, "wifi-phy-tx", "routing", 0, 3),
        (2, "wifi-phy-tx", "mac-control", 0, 9),
        (1, "wifi-mac-tx", "routing", 0, 3),
        (1, "wifi-mac-tx", "udp-data", 0, 2),
        (2, "wifi-phy-rx-drop", "udp-data", 3, 4),  # lost while receiving: a drop
        (2, "wifi-phy-rx-drop", "routing", 9, 50),  # preamble not detected: no drop in NS-2
        (3, "wifi-mac-drop", "udp-data", 1, 1),
        (3, "ipv4-drop", "routing", 2, 2),
    ])  # fmt: skip
    energy = pd.DataFrame({"node": [0, 1], "energy_j": [3.0, 3.2], "remaining_j": [1.0, 1.0]})
    performance = pd.DataFrame(
        {"wall_s": [1.5], "events": [1234], "ns2_collisions": [6], "ns2_undecodable": [0]}
    )
    states = pd.DataFrame({
        "node": [0, 1], "idle": [9.0, 8.0], "cca_busy": [0.5, 1.0], "tx": [0.2, 0.4],
        "rx": [0.3, 0.6], "switching": [0.0, 0.0], "sleep": [0.0, 0.0], "off": [0.0, 0.0],
    })  # fmt: skip
    # AGT events: two UDP reports of sensor 1 sent, the second received 30 ms later, and
    # an AODV-free TCP pure ACK from the sink (not data: ignored).
    agent = pd.DataFrame({
        "event": ["sent", "sent", "received", "sent"], "time": [1.0, 2.0, 2.030, 2.5],
        "src": [1, 1, 1, 0], "dst": [0, 0, 0, 1], "ip_id": [0, 1, 1, 0],
        "ip_protocol": [17, 17, 17, 6], "size": [264, 264, 264, 20],
        "payload": [256, 256, 256, 0], "chunk_type": [255] * 4,
    })  # fmt: skip
    return {
        "packets": packets, "counts": counts, "energy": energy, "performance": performance,
        "states": states, "agent": agent,
    }  # fmt: skip


def test_analyse_computes_the_papers_metrics_by_hand():
    params = dict(DEFAULTS, duration=10.0, reporting_interval=2.0, n_sources=4)
    tables = analysis.analyse(hand_made_raw(), params)
    assert list(tables) == [
        "summary", "energy_states", "packets", "counts", "energy", "performance", "states",
        "agent",
    ]  # fmt: skip
    s = tables["summary"].iloc[0]
    assert (s["sent"], s["delivered"], s["reporting_sensors"]) == (2, 1, 4)
    assert s["interval_s"] == 2.0 and s["delivery_ratio"] == 0.5
    assert s["app_throughput_kbps"] == pytest.approx(256 * 8 / 10.0 / 1000)
    assert s["app_delay_ms"] == pytest.approx(40.0)
    # agent level: the received datagram (id 1) was sent at 2.0 s; NS-2's r AGT line holds
    # the 256-byte report and the 20-byte IP header AODV added
    assert s["throughput_kbps"] == pytest.approx(276 * 8 / 10.0 / 1000)
    assert s["mean_delay_ms"] == pytest.approx(30.0)
    assert (s["agent_sent"], s["agent_received"]) == (2, 1)
    # NS-2.35 charging: tx 0.660 W, rx + busy 0.395 W, idle 0
    node0 = 0.2 * 0.660 + 0.8 * 0.395
    node1 = 0.4 * 0.660 + 1.6 * 0.395
    assert s["energy_per_node_j"] == pytest.approx((node0 + node1) / 2)
    assert s["mica2_model_energy_per_node_j"] == pytest.approx(3.1)
    assert s["idle_time_per_node_s"] == pytest.approx(8.5)
    assert s["routing_packets"] == 3  # AODV packets handed to the MACs
    assert s["mac_frames"] == 8 + 3 + 9  # every frame the PHYs sent
    assert s["data_frames"] == 8
    assert s["dropped_packets"] == 4 + 1 + 2  # not the 50 undetected preambles
    assert s["dropped_data"] == 4 + 1
    assert s["mac_drops"] == 1  # the frame the MAC gave up on
    assert s["routing_load"] == 3.0 and s["mac_load"] == 20.0
    assert s["events"] == 1234
    assert s["ns2_collisions"] == 6  # the PHYs' count, passed through
    assert s["ns2_undecodable"] == 0


def test_analyse_without_deliveries_gives_nan_loads():
    raw = hand_made_raw()
    raw["packets"] = raw["packets"][raw["packets"]["event"] == "sent"]
    raw["agent"] = raw["agent"][raw["agent"]["event"] == "sent"]
    s = analysis.analyse(raw, DEFAULTS)["summary"].iloc[0]
    assert s["delivered"] == 0 and s["throughput_kbps"] == 0.0
    assert math.isnan(s["mean_delay_ms"]) and math.isnan(s["routing_load"])
    assert math.isnan(s["mac_load"])


# --- comparison rows (no ns-3) --------------------------------------------------------------------


def hand_made_summary(intervals, runs=(1, 2)):
    rows = []
    for protocol in ("udp", "tcp", "sctp"):
        for interval in intervals:
            for run in runs:
                rows.append({
                    "protocol": protocol, "reporting_interval": interval, "run": run,
                    "sent": 10, "delivered": 10,
                    # metric = interval (+ 1 in run 2): means and Avg rows are checkable
                    **{column: interval + (run - 1) for column in analysis.METRICS},
                })  # fmt: skip
    return pd.DataFrame(rows)


def test_reproduced_rows_have_avg_rows_only_with_all_five_intervals():
    some = comparison.reproduced_rows(hand_made_summary((1.0, 5.0, 20.0)))
    assert len(some) == 3 * 3 * 2 * len(analysis.METRICS)
    assert "Avg" not in set(some["row"])
    assert set(some["row"]) == {"data interval 1", "data interval 5", "data interval 20"}
    full = comparison.reproduced_rows(hand_made_summary(wsn_params.PRINTED_INTERVALS))
    avg = full[(full["row"] == "Avg") & (full["protocol"] == "UDP")]
    assert len(avg) == 2 * len(analysis.METRICS)  # per run and metric
    by_run = avg.groupby("run")["value"].unique()
    assert by_run[1] == pytest.approx([np.mean(wsn_params.PRINTED_INTERVALS)])
    assert by_run[2] == pytest.approx([np.mean(wsn_params.PRINTED_INTERVALS) + 1])


class FakeResults:
    """What comparison.comparison reads of a Results: the experiment's tables."""

    study = STUDY

    def __init__(self, summary):
        self.tables = {"intervals": {"summary": summary}}

    def __getitem__(self, name):
        return self.tables[name]

    def runs(self, name):
        return 2

    def available(self, name):
        return name in self.tables


def test_carrier_sense_points_put_cs_at_the_reception_threshold():
    experiment = STUDY.reproduction.experiment("carrier_sense")
    rx = DEFAULTS["rx_threshold_w"]
    full = experiment.point_list(DEFAULTS, quick=False)
    protocols = ["udp", "tcp"] + (["sctp"] if sctp_available() else [])
    assert full == [
        {"protocol": p, "reporting_interval": i, "cs_threshold_w": rx}
        for p in protocols
        for i in (1.0, 5.0, 20.0)
    ]
    assert len(experiment.point_list(DEFAULTS, quick=True)) == 2
    STUDY.parameters.validate(full[0])  # equal thresholds are allowed, a CS above RX is not
    with pytest.raises(ValueError, match="must not exceed rx_threshold_w"):
        STUDY.parameters.validate({"cs_threshold_w": 2 * rx})


def test_reception_points_run_ns3s_rule_at_both_carrier_sense_thresholds():
    experiment = STUDY.reproduction.experiment("reception_model")
    rx = DEFAULTS["rx_threshold_w"]
    full = experiment.point_list(DEFAULTS, quick=False)
    protocols = ["udp", "tcp"] + (["sctp"] if sctp_available() else [])
    assert DEFAULTS["reception_model"] == "ns2_lock"  # NS-2's rule and lock: declared
    assert full == [
        {"protocol": p, "reporting_interval": i, "reception_model": "ns3", **sense}
        for sense in ({}, {"cs_threshold_w": rx})
        for p in protocols
        for i in (1.0, 5.0, 20.0)
    ]
    quick = experiment.point_list(DEFAULTS, quick=True)
    assert [p["reception_model"] for p in quick] == ["ns3", "ns3"]
    with pytest.raises(ValueError, match="reception_model"):
        STUDY.parameters.validate({"reception_model": "ns2.35"})


def _times_summary(cs_threshold_w, reception_model="ns2"):
    return pd.DataFrame({
        "protocol": ["udp", "udp"], "reporting_interval": [1.0, 1.0], "run": [1, 2],
        "cs_threshold_w": [cs_threshold_w] * 2, "rx_threshold_w": [3.652e-10] * 2,
        "reception_model": [reception_model] * 2,
        "ns2_collisions": [10, 30] if reception_model == "ns2" else [0, 0],
        "tx_time_per_node_s": [1.0, 1.0], "rx_time_per_node_s": [2.0, 4.0],
        "idle_time_per_node_s": [97.0, 95.0], "delivered": [100, 80], "mac_drops": [0, 2],
        "routing_packets": [50, 70], "delivery_ratio": [1.0, 0.8],
        **{column: [1.0, 3.0] for column in analysis.METRICS},
    })  # fmt: skip


def test_implied_idle_power_by_hand():
    results = FakeResults(_times_summary(1.559e-11))
    table = reproduction.implied_idle_power_table(results).set_index("radio")
    published_udp_1s = comparison.published_values(STUDY, "consumed_energy")[("UDP", 1.0)]
    # mean times: tx 1 s, rx 3 s, idle 96 s; ns2: 0.660 + 3 x 0.395; mica2: 0.081 + 3 x 0.030
    for radio, traffic in (("ns2", 0.660 + 1.185), ("mica2", 0.081 + 0.090)):
        row = table.loc[radio]
        assert row["traffic_energy_per_node_j"] == pytest.approx(traffic)
        assert row["implied_idle_power_w"] == pytest.approx((published_udp_1s - traffic) / 96.0)
        assert row["carrier_sense"] == "NS-2 default"


def test_carrier_sense_table_sets_both_thresholds_side_by_side():
    results = FakeResults(_times_summary(1.559e-11))
    results.tables["carrier_sense"] = {"summary": _times_summary(3.652e-10)}
    table = reproduction.carrier_sense_table(results).set_index("carrier_sense")
    assert set(table.index) == {"NS-2 default", "= RXThresh"}
    row = table.loc["= RXThresh"]
    assert (row["routing_packets"], row["mac_drops"], row["n_runs"]) == (60.0, 1.0, 2)
    assert (
        row["published_routing_load"]
        == comparison.published_values(STUDY, "routing_load")[("UDP", 1.0)]
    )


def test_reception_table_crosses_both_rules_with_both_thresholds():
    results = FakeResults(_times_summary(1.559e-11))
    results.tables["carrier_sense"] = {"summary": _times_summary(3.652e-10)}
    results.tables["reception_model"] = {
        "summary": pd.concat(
            [_times_summary(1.559e-11, "ns3"), _times_summary(3.652e-10, "ns3")],
            ignore_index=True,
        )
    }
    table = reproduction.reception_table(results).set_index(["reception_model", "carrier_sense"])
    assert len(table) == 4 and (table["n_runs"] == 2).all()
    assert table.loc[("ns2", "= RXThresh"), "ns2_collisions"] == 20.0
    assert table.loc[("ns3", "NS-2 default"), "ns2_collisions"] == 0.0
    published_mac_load = comparison.published_values(STUDY, "mac_load")[("UDP", 1.0)]
    assert (table["published_mac_load"] == published_mac_load).all()


def test_combined_points_put_tcp_and_sctp_on_random_placements_with_hidden_terminals():
    points = STUDY.reproduction.experiment("combined").point_list(DEFAULTS, quick=False)
    protocols = ["tcp"] + (["sctp"] if sctp_available() else [])
    assert len(points) == len(protocols) * 3 * 5
    assert {p["protocol"] for p in points} == set(protocols)
    assert {p["placement_seed"] for p in points} == {1, 2, 3, 4, 5}
    assert all(p["placement"] == "random" for p in points)
    assert all(p["cs_threshold_w"] == DEFAULTS["rx_threshold_w"] for p in points)
    for point in points:
        STUDY.parameters.validate(point)


def _channel_summary(protocol, placement, seed, cs_threshold_w, routing_loads):
    """One row per run of ``protocol`` at 5 s, with the given routing loads."""
    n = len(routing_loads)
    return pd.DataFrame({
        "protocol": [protocol] * n, "reporting_interval": [5.0] * n, "run": range(1, n + 1),
        "placement": [placement] * n, "placement_seed": [seed] * n,
        "cs_threshold_w": [cs_threshold_w] * n, "rx_threshold_w": [3.652e-10] * n,
        **{column: [1.0] * n for column in analysis.METRICS},
        "routing_load": routing_loads, "delivery_ratio": [0.5] * n, "routing_packets": [10] * n,
        "mac_drops": [0] * n, "ns2_collisions": [0] * n, "delivered": [100] * n,
    })  # fmt: skip


def test_combined_table_averages_random_placements_over_placements():
    rx = 3.652e-10
    results = FakeResults(_channel_summary("tcp", "clusters", 1, 1.559e-11, [1.0, 3.0]))
    results.tables["carrier_sense"] = {"summary": _channel_summary("tcp", "clusters", 1, rx, [5.0])}
    results.tables["placements"] = {"summary": pd.concat([
        _channel_summary("tcp", "columns", 1, 1.559e-11, [99.0]),  # not a random placement
        _channel_summary("tcp", "random", 1, 1.559e-11, [6.0]),
    ])}  # fmt: skip
    # placement 1: runs 2 and 4 (mean 3); placement 2: runs 8 and 10 (mean 9)
    results.tables["combined"] = {"summary": pd.concat([
        _channel_summary("tcp", "random", 1, rx, [2.0, 4.0]),
        _channel_summary("tcp", "random", 2, rx, [8.0, 10.0]),
    ])}  # fmt: skip
    table = reproduction.combined_table(results).set_index(["links", "carrier_sense"])
    assert table.loc[("clusters (declared)", "NS-2 default"), "routing_load"] == 2.0
    assert table.loc[("clusters (declared)", "= RXThresh"), "routing_load"] == 5.0
    assert table.loc[("random 1-5", "NS-2 default"), "routing_load"] == 6.0
    both = table.loc[("random 1-5", "= RXThresh")]
    assert (both["routing_load"], both["n_runs"]) == (6.0, 2)  # over placements: (3 + 9) / 2
    _, low, high, _ = stats.confidence_interval([3.0, 9.0])
    assert (both["routing_load_ci_low"], both["routing_load_ci_high"]) == (low, high)
    seed = comparison.published_values(STUDY, "routing_load")[("TCP", 5.0)]
    assert (table["published_routing_load"] == seed).all()


def test_the_combined_figure_draws_a_line_per_placement_kind_and_threshold():
    rx = 3.652e-10
    results = FakeResults(_channel_summary("tcp", "field", 1, 1.559e-11, [1.0, 3.0]))
    results.tables["carrier_sense"] = {"summary": _channel_summary("tcp", "field", 1, rx, [5.0])}
    results.tables["placements"] = {
        "summary": _channel_summary("tcp", "random", 1, 1.559e-11, [6.0])
    }
    results.tables["combined"] = {"summary": _channel_summary("tcp", "random", 1, rx, [2.0])}
    fig, runs = reproduction.combined_figure(results)
    labels = {label for ax in fig.axes for label in ax.get_legend_handles_labels()[1]}
    labels |= {text.get_text() for legend in fig.legends for text in legend.get_texts()}
    for link in ("field (declared)", "random 1-5"):
        for sense in ("NS-2 default", "= RXThresh"):
            assert f"{link}, CSThresh {sense}" in labels
    assert runs == 2
    plt.close(fig)


def test_fidelity_points_switch_one_ns2_model_back_at_a_time():
    points = STUDY.reproduction.experiment("ns2_fidelity").point_list(DEFAULTS, quick=False)
    protocols = ["udp", "tcp"] + (["sctp"] if sctp_available() else [])
    assert len(points) == 4 * len(protocols)
    for point in points:
        full = STUDY.parameters.validate(point)
        switched = [n for n, v in reproduction.NS3_OWN_MODELS.items() if full[n] == v]
        assert len(switched) == 1 and reproduction.fidelity_variant(full) == (
            f"{switched[0]} {reproduction.NS3_OWN_MODELS[switched[0]]}")  # fmt: skip
    assert reproduction.fidelity_variant(DEFAULTS) == "declared"


def test_receiver_lock_and_start_mode_points():
    protocols = ["udp", "tcp"] + (["sctp"] if sctp_available() else [])
    lock = STUDY.reproduction.experiment("receiver_lock").point_list(DEFAULTS, quick=False)
    assert [(p["protocol"], p["reporting_interval"]) for p in lock] == [
        (p, i) for p in protocols for i in (1.0, 5.0, 20.0)
    ]
    # the lock is declared: the experiment runs the rule without it
    assert DEFAULTS["reception_model"] == "ns2_lock"
    assert {p["reception_model"] for p in lock} == {"ns2"}
    start = STUDY.reproduction.experiment("start_mode").point_list(DEFAULTS, quick=False)
    assert len(start) == len(protocols) * len(wsn_params.PRINTED_INTERVALS)
    assert {p["start_mode"] for p in start} == {"synchronized"}
    for name in ("receiver_lock", "start_mode"):
        quick = STUDY.reproduction.experiment(name).point_list(DEFAULTS, quick=True)
        assert [(p["protocol"], p["reporting_interval"]) for p in quick] == [
            ("udp", 1.0), ("tcp", 1.0)
        ]  # fmt: skip
    for point in lock + start:
        STUDY.parameters.validate(point)
    with pytest.raises(ValueError, match="start_mode"):
        STUDY.parameters.validate({"start_mode": "random"})


def _close(fig):
    import matplotlib.pyplot as plt

    plt.close(fig)


def _mode_summary(column, value, routing_loads, delays, **extra):
    """UDP at 1 s, one row per run, with ``column`` = ``value``."""
    n = len(routing_loads)
    return pd.DataFrame({
        "protocol": ["udp"] * n, "reporting_interval": [1.0] * n, "run": range(1, n + 1),
        "cs_threshold_w": [1.559e-11] * n, "rx_threshold_w": [3.652e-10] * n,
        "reception_model": ["ns2"] * n, "start_mode": ["staggered"] * n,
        **{metric: [1.0] * n for metric in analysis.METRICS},
        "routing_load": routing_loads, "mean_delay_ms": delays, "delivery_ratio": [1.0] * n,
        "median_delay_ms": delays, "p90_delay_ms": delays,
        "routing_packets": [10] * n, "mac_drops": [0] * n, "ns2_collisions": [5] * n,
        "ns2_undecodable": [0] * n, "delivered": [100] * n, column: [value] * n, **extra,
    })  # fmt: skip


def test_start_mode_table_sets_staggered_and_synchronized_side_by_side():
    results = FakeResults(_mode_summary("start_mode", "staggered", [1.0, 3.0], [20.0, 40.0]))
    results.tables["start_mode"] = {
        "summary": _mode_summary("start_mode", "synchronized", [4.0, 8.0], [300.0, 500.0])
    }
    fig, n_runs = reproduction.start_mode_figure(results)
    assert (n_runs, len(fig.axes)) == (2, 3)  # delay, routing load, throughput of UDP
    _close(fig)
    table = reproduction.start_mode_table(results).set_index("start_mode")
    assert table.loc["staggered", "mean_delay_ms"] == 30.0
    assert table.loc["synchronized", "mean_delay_ms"] == 400.0
    assert table.loc["synchronized", "routing_load"] == 6.0
    _, low, high, _ = stats.confidence_interval([300.0, 500.0])
    assert table.loc[
        "synchronized", ["mean_delay_ms_ci_low", "mean_delay_ms_ci_high"]
    ].tolist() == [low, high]
    published_delay = comparison.published_values(STUDY, "e2e_delay")[("UDP", 1.0)]
    assert (table["published_delay_ms"] == published_delay).all()


def test_receiver_lock_table_sets_the_rule_with_and_without_the_lock_side_by_side():
    results = FakeResults(
        _mode_summary(
            "reception_model", "ns2_lock", [2.0, 2.0], [10.0, 30.0], ns2_undecodable=[1000, 3000]
        )
    )
    results.tables["receiver_lock"] = {
        "summary": _mode_summary("reception_model", "ns2", [1.0, 3.0], [20.0, 40.0])
    }
    fig, n_runs = reproduction.receiver_lock_figure(results)
    assert (n_runs, len(fig.axes)) == (2, 2)  # routing load and delay of UDP
    _close(fig)
    table = reproduction.receiver_lock_table(results).set_index("reception_model")
    # NS-2's trace-visible drops under both (analysis._trace_drops)
    assert table.loc["ns2", "dropped_packets"] == table.loc["ns2_lock", "dropped_packets"] == 1.0
    assert table.loc["ns2_lock", "ns2_undecodable"] == 2000.0
    assert table.loc["ns2", "ns2_undecodable"] == 0.0
    assert (table.loc["ns2_lock", "routing_load"], table.loc["ns2_lock", "n_runs"]) == (2.0, 2)


def test_comparison_rows_come_from_reproduction_comparison():
    rows = comparison.comparison(FakeResults(hand_made_summary(wsn_params.PRINTED_INTERVALS)))
    assert list(rows.columns) == list(verdicts.COMPARISON_COLUMNS)
    assert (rows["study"] == "wsn_reporting_interval").all()
    # every number of Tables 2-4 (6 metrics x (5 intervals + Avg) x 3 protocols)
    tables = rows[rows["source"].str.startswith("Table")]
    assert len(tables) == 108
    assert (tables["n_runs"] == 2).all()
    row = tables[(tables["protocol"] == "TCP") & (tables["metric"] == "throughput")
                 & (tables["row"] == "data interval 5")].iloc[0]  # fmt: skip
    assert row["reproduced"] == pytest.approx(5.5)  # runs: 5 and 6
    assert row["ci_low"] < 5.5 < row["ci_high"]
    avg = tables[(tables["protocol"] == "UDP") & (tables["metric"] == "e2e_delay")
                 & (tables["row"] == "Avg")].iloc[0]  # fmt: skip
    assert avg["reproduced"] == pytest.approx(np.mean(wsn_params.PRINTED_INTERVALS) + 0.5)
    assert set(rows["verdict"]) <= set(verdicts.VERDICTS)


def test_figures_state_their_runs():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    results = FakeResults(hand_made_summary(wsn_params.PRINTED_INTERVALS))
    for build in (reproduction.metrics_vs_interval_figure, reproduction.metric_averages_figure):
        fig, n_runs = build(results)
        assert n_runs == 2 and len(fig.axes) == 6
        plt.close(fig)


# --- ns-3 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("range_m", "inside", "outside"), [(60.0, 59.0, 61.0), (150.0, 149.0, 151.0)]
)
def test_range_translation_in_ns3(range_m, inside, outside):
    assert scenario.range_probe(inside, range_m, frames=3) == 3
    assert scenario.range_probe(outside, range_m, frames=3) == 0


SHORT = {"protocol": "udp", "duration": 6.0, "n_sources": 4, "reporting_interval": 1.0}


@pytest.fixture(scope="module")
def short_raw():
    return STUDY.run(STUDY.parameters.validate(SHORT), 1, 1)


def test_the_run_step_returns_raw_tables_only(short_raw):
    assert set(short_raw) == {"packets", "counts", "energy", "performance", "states", "agent"}


def test_short_udp_run_delivers_reports(short_raw):
    tables = STUDY.analyse(short_raw, STUDY.parameters.validate(SHORT))
    s = tables["summary"].iloc[0]
    # 4 sensors, one report a second from a random start in [1, 2) s to 6 s, the first at
    # the start (NS-2's CBR): 5 each (4 if the start is exactly 2 s).
    assert s["sent"] == 20
    assert 0 < s["delivered"] <= s["sent"]
    assert s["app_throughput_kbps"] == pytest.approx(s["delivered"] * 256 * 8 / 6.0 / 1000)
    # UDP: the agent level sees the same reports, with AODV's IP header (NS-2 counts no UDP
    # header bytes)
    assert s["throughput_kbps"] == pytest.approx(s["app_throughput_kbps"] * 276 / 256)
    assert s["routing_packets"] > 0 and s["mac_frames"] > s["data_frames"] > 0
    assert 0 < s["mean_delay_ms"] < 1000
    # every radio's states add up to the run; NS-2.35 charging: tx 0.660 W, rx 0.395 W
    states = tables["energy_states"]
    assert (states["tx_s"] + states["rx_s"] + states["idle_s"]).to_numpy() == pytest.approx(6.0)
    charged = states["tx_s"] * 0.660 + states["rx_s"] * 0.395
    assert states["energy_j"].to_numpy() == pytest.approx(charged.to_numpy())
    assert (states["tx_s"] > 0).sum() >= 4 and tables["energy"].empty  # ns-3's models off


def test_ns2_collision_rule_loses_frames_that_ns3s_rule_keeps(short_raw):
    # The same short run under both rules: NS-2's counts its collisions and drops more.
    ns2 = STUDY.analyse(short_raw, STUDY.parameters.validate(SHORT))["summary"].iloc[0]
    ns3 = STUDY.simulate(dict(SHORT, reception_model="ns3"), seed=1, run=1)["summary"].iloc[0]
    assert ns2["ns2_collisions"] > 0 and ns3["ns2_collisions"] == 0
    assert ns2["dropped_packets"] > ns3["dropped_packets"]


def test_same_seed_and_run_give_identical_results(short_raw):
    again = STUDY.run(STUDY.parameters.validate(SHORT), 1, 1)
    for name in ("counts", "energy", "packets", "states", "agent"):
        assert again[name].equals(short_raw[name]), name
    assert again["performance"]["events"].equals(short_raw["performance"]["events"])


@needs_sctp
def test_short_sctp_run_delivers_reports():
    s = STUDY.simulate(dict(SHORT, protocol="sctp"), seed=1, run=1)["summary"].iloc[0]
    assert s["sent"] > 0
    assert 0 < s["delivered"] <= s["sent"]
    assert s["app_throughput_kbps"] == pytest.approx(s["delivered"] * 256 * 8 / 6.0 / 1000)
