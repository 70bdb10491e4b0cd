"""wsn_reporting_interval: radio arithmetic, topology, range check, short runs, validation."""

from __future__ import annotations

import math
from collections import deque

import pytest

from transportlab.params import ParameterError
from transportlab.studies import get
from transportlab.studies import wsn_reporting_interval as wsn

DEFAULTS = wsn.PARAMETERS.validate({})


# --- radio arithmetic (no ns-3) -----------------------------------------------------------------


def test_ns2_default_radio_reaches_250_m_at_914_mhz():
    # NS-2's defaults (Pt 0.28183815 W, 914 MHz, RXThresh 3.652e-10 W) are its 250-m radio.
    power = wsn.tx_power_for_range_w(250.0, wsn.NS2_RX_THRESHOLD_W, wsn.NS2_DEFAULT_FREQUENCY_HZ)
    assert power == pytest.approx(wsn.NS2_DEFAULT_TX_POWER_W, rel=2e-3)
    # (86.1 m with NS-2's c = 3e8; ns-3 and this module use 299792458 m/s)
    assert wsn.crossover_distance_m(914e6) == pytest.approx(86.2, abs=0.1)


def test_two_ray_switches_from_friis_to_fourth_power_at_the_crossover():
    f = 2.4e9
    cross = wsn.crossover_distance_m(f)
    assert cross == pytest.approx(4 * math.pi * 1.5 * 1.5 / (wsn.SPEED_OF_LIGHT / f))
    lam = wsn.SPEED_OF_LIGHT / f
    assert wsn.two_ray_rx_power_w(1.0, 100.0, f) == pytest.approx(lam**2 / (4 * math.pi * 100) ** 2)
    assert wsn.two_ray_rx_power_w(1.0, 400.0, f) == pytest.approx(1.5**4 / 400.0**4)


@pytest.mark.parametrize("range_m", [60.0, 150.0])
def test_transmit_power_puts_the_threshold_exactly_at_the_range(range_m):
    f = DEFAULTS["frequency_hz"]
    power = wsn.tx_power_for_range_w(range_m, wsn.NS2_RX_THRESHOLD_W, f)
    assert wsn.two_ray_rx_power_w(power, range_m, f) == pytest.approx(wsn.NS2_RX_THRESHOLD_W)
    assert wsn.two_ray_rx_power_w(power, range_m - 1, f) > wsn.NS2_RX_THRESHOLD_W
    assert wsn.two_ray_rx_power_w(power, range_m + 1, f) < wsn.NS2_RX_THRESHOLD_W
    assert wsn.range_for_threshold_m(power, wsn.NS2_RX_THRESHOLD_W, f) == pytest.approx(range_m)


def test_transmit_powers_and_carrier_sense_ranges_at_2_4_ghz():
    f = 2.4e9
    short = wsn.tx_power_for_range_w(60.0, wsn.NS2_RX_THRESHOLD_W, f)
    long = wsn.tx_power_for_range_w(150.0, wsn.NS2_RX_THRESHOLD_W, f)
    # Both ranges are inside the 226-m crossover: Friis, so power scales with range squared.
    assert long / short == pytest.approx((150 / 60) ** 2)
    assert wsn.w_to_dbm(short) == pytest.approx(11.24, abs=0.01)
    assert wsn.w_to_dbm(long) == pytest.approx(19.20, abs=0.01)
    cs_short = wsn.range_for_threshold_m(short, wsn.NS2_CS_THRESHOLD_W, f)
    assert cs_short == pytest.approx(256.4, abs=0.5)


# --- topology ----------------------------------------------------------------------------------


def test_topology_facts():
    pos = wsn.positions()
    assert len(pos) == 56
    assert all(0 < x < 800 and 0 < y < 400 for x, y in pos)
    assert len(set(pos)) == 56
    assert pos[0] == pytest.approx((400.0, 225.0))
    ranges = wsn.node_ranges(DEFAULTS)
    assert ranges[:8] == [150.0] * 8 and ranges[8:] == [60.0] * 48
    # Gateways form a backbone: neighbours 114.3 m apart, next-but-one out of range.
    for a, b in zip(wsn.GATEWAYS, wsn.GATEWAYS[1:], strict=False):
        assert math.dist(pos[a], pos[b]) == pytest.approx(800 / 7)
    assert min(math.dist(p, q) for i, p in enumerate(pos) for q in pos[i + 1 :]) == pytest.approx(
        50.0
    )


def test_every_sensor_has_a_two_way_path_to_the_sink():
    links = wsn.link_table(DEFAULTS)
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


# --- parameters --------------------------------------------------------------------------------


def test_study_is_registered():
    study = get("wsn_reporting_interval")
    assert study.notebook == "04_wsn_reporting_interval.ipynb"
    quick = study.validate({}, quick=True)
    assert quick["duration"] == 20.0 and len(wsn.sources(quick)) == 11


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"protocl": "udp"}, "did you mean 'protocol'"),
        ({"protocol": "quic"}, "'quic' is not one of"),
        ({"reporting_interval": 0}, "must be > 0"),
        ({"interval_scale": 10.0}, "is not one of"),
        ({"short_range_m": 200.0}, "short_range_m must be smaller"),
        ({"start_time": 150.0}, "must be before duration"),
        ({"n_sources": 56}, "must be <= 55"),
        ({"duration": "100"}, "expected float"),
    ],
)
def test_bad_parameters_are_refused_before_running(values, message):
    with pytest.raises(ParameterError, match=message):
        wsn.PARAMETERS.validate(values)


def test_effective_interval_and_sources():
    p = wsn.PARAMETERS.validate({"reporting_interval": 5, "interval_scale": 0.1, "n_sources": 3})
    assert wsn.effective_interval_s(p) == pytest.approx(0.5)
    assert wsn.sources(p) == [1, 19, 37]
    assert len(wsn.sources(DEFAULTS)) == 55


# --- ns-3 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("range_m", "inside", "outside"), [(60.0, 59.0, 61.0), (150.0, 149.0, 151.0)]
)
def test_range_translation_in_ns3(range_m, inside, outside):
    assert wsn.range_probe(inside, range_m, frames=3) == 3
    assert wsn.range_probe(outside, range_m, frames=3) == 0


SHORT = {"protocol": "udp", "duration": 6.0, "n_sources": 4, "reporting_interval": 1.0}


@pytest.fixture(scope="module")
def short_run():
    return wsn.run_scenario(SHORT, seed=1, run=1)


def test_short_udp_run_delivers_reports(short_run):
    s = short_run["summary"].iloc[0]
    # 4 sensors, one report a second from a random start in [1, 2) s to 6 s: 4 or 5 each.
    assert 16 <= s["sent"] <= 20
    assert 0 < s["delivered"] <= s["sent"]
    assert s["throughput_kbps"] == pytest.approx(s["delivered"] * 256 * 8 / 6.0 / 1000)
    assert s["routing_packets"] > 0 and s["mac_frames"] > s["data_frames"] > 0
    assert 0 < s["mean_delay_ms"] < 1000
    # MICA2 radio: at least the 10 mA listening current for 6 s at 3 V on every node.
    energy = short_run["energy"]
    assert (energy["energy_j"] >= 0.010 * 3.0 * 6.0 * 0.999).all()
    assert (energy["energy_j"] < 0.027 * 3.0 * 6.0).all()


def test_same_seed_and_run_give_identical_results(short_run):
    again = wsn.run_scenario(SHORT, seed=1, run=1)
    for name in ("summary", "counts", "energy", "packets"):
        assert again[name].equals(short_run[name]), name


def test_sctp_without_the_sctp_module_is_a_clear_error():
    from transportlab import ns

    found = ns.TypeId.LookupByNameFailSafe("ns3::SctpSocketFactory", ns.TypeId())
    if found:
        pytest.skip("SCTP is built")
    with pytest.raises(RuntimeError, match="SCTP is not available"):
        wsn.run_scenario({"protocol": "sctp", "duration": 2.0, "n_sources": 1})


def test_short_sctp_run_delivers_reports():
    from transportlab import ns

    if not ns.TypeId.LookupByNameFailSafe("ns3::SctpSocketFactory", ns.TypeId()):
        pytest.skip("SCTP is not built")
    s = wsn.run_scenario(dict(SHORT, protocol="sctp"), seed=1, run=1)["summary"].iloc[0]
    assert s["sent"] > 0
    assert 0 < s["delivered"] <= s["sent"]
    assert s["throughput_kbps"] == pytest.approx(s["delivered"] * 256 * 8 / 6.0 / 1000)
