"""SensitivityFilteredYansWifiPhy's Ns2CarrierSenseCulling: NS-2's WirelessChannel culling.

NS-2.35's WirelessChannel::sendUp delivers a frame only to the nodes whose x and y lie
within distCST_ + 5 m of the sender's (getAffectedNodes: a square), and fixes distCST_ at
the first transmission on the channel, from that first transmitter's Pt_ and CSThresh_
(calcHighestAntennaZ). In the sensor study a 60-m sensor sending first fixes 256.4 m
(NS-2 prints it), so a 150-m gateway's frames no longer reach nodes 261-405 m away that
would sense them. Three nodes with the study's radio: a 60-m sensor S, a 150-m gateway G
and a receiver R 330 m from G.
"""

from __future__ import annotations

import pytest

from transportlab.ns3.simulation import run_until, simulation
from transportlab.studies.wsn_reporting_interval import network, scenario
from transportlab.studies.wsn_reporting_interval.parameters import PARAMETERS

PARAMS = PARAMETERS.validate({})
CS_RANGE_60_M = network.range_for_threshold_m(
    network.tx_power_for_range_w(60.0, PARAMS["rx_threshold_w"], PARAMS["frequency_hz"]),
    PARAMS["cs_threshold_w"],
    PARAMS["frequency_hz"],
)


def _run(culling: bool, first: str, receiver_at: tuple[float, float]) -> dict[str, float]:
    """S at (0, 0), G at (0, 50), R at ``receiver_at``; ``first`` (S or G) broadcasts at
    1 s, the other at 1.5 s. The gateway's arrivals scheduled and culled, the channel's
    culling distance."""
    values = dict(PARAMS, carrier_sense_culling="ns2" if culling else "none")
    with simulation(seed=1, run=1) as ns:
        scenario._config_defaults(ns, values)
        nodes = ns.NodeContainer()
        nodes.Create(3)
        alloc = ns.CreateObject[ns.ListPositionAllocator]()
        for x, y in ((0.0, 0.0), (0.0, 50.0), receiver_at):
            alloc.Add(ns.Vector(x, y, 0.0))
        mobility = ns.MobilityHelper()
        mobility.SetPositionAllocator(alloc)
        mobility.Install(nodes)
        devices = scenario._wifi(ns, values, nodes, [60.0, 150.0, 60.0])
        order = {"S": 0, "G": 1}
        for node, at in ((order[first], 1.0), (1 - order[first], 1.5)):
            run_until(at)  # then send now (a Python callable cannot be scheduled)
            device = devices.Get(node)
            device.Send(ns.Create[ns.Packet](100), device.GetBroadcast(), 0x0800)
        run_until(2.0)
        gateway = ns.DynamicCast[ns.SensitivityFilteredYansWifiPhy](
            ns.DynamicCast[ns.WifiNetDevice](devices.Get(1)).GetPhy()
        )
        return {
            "scheduled": int(gateway.GetArrivalsScheduled()),
            "culled": int(gateway.GetArrivalsCulled()),
            "distance": float(gateway.GetNs2CullingDistance()),
        }


def test_a_60_m_sensor_first_fixes_its_carrier_sense_range():
    # the distance NS-2 prints for it (distCST_ = 256.4)
    assert CS_RANGE_60_M == pytest.approx(256.4, abs=0.05)
    got = _run(True, "S", (0.0, 380.0))  # R 330 m from G: G's frame sensed, but culled
    assert got["distance"] == pytest.approx(CS_RANGE_60_M, rel=1e-9)
    assert (got["scheduled"], got["culled"]) == (1, 1)  # S gets it, R does not


def test_without_culling_or_with_the_gateway_first_r_gets_the_gateways_frame():
    assert _run(False, "S", (0.0, 380.0))["scheduled"] == 2
    first = _run(True, "G", (0.0, 380.0))
    assert first["culled"] == 0 and first["scheduled"] == 2
    assert first["distance"] > 400.0  # the gateway's carrier-sense range, 405 m


def test_culling_is_a_square_not_a_circle():
    # R 330 m from G diagonally (233 m in x and y): inside the 261-m square, not culled
    got = _run(True, "S", (233.3, 50.0 + 233.3))
    assert (got["scheduled"], got["culled"]) == (2, 0)
