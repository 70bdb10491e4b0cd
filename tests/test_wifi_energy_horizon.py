"""ns-3's energy models in the WSN study: a cross-check, and the horizon that speeds them up.

The study's energy comes from the time each radio spends in each state
(``analysis.energy_breakdown``); ns-3's BasicEnergySource + WifiRadioEnergyModel run only
with ``RunOptions(ns3_energy_models=True)``. With them the MICA2 energy per node is the
same as the state-time accounting's, and without them the network is simulated alike.

ns3::HorizonWifiRadioEnergyModel: same energy, same simulation, fewer reschedulings.

With the study's MICA2 battery (27 kJ, depleted after days) every rescheduling of the
"battery empty" event is skipped and the results are identical to ns-3's
WifiRadioEnergyModel. With a battery that runs out during the run the bound does not
hold: the model defers to its parent, and the run (radio switched off at depletion
included) is again identical.
"""

from __future__ import annotations

import pytest

from transportlab.studies import wsn_reporting_interval as wsn
from transportlab.studies.wsn_reporting_interval.parameters import MICA2

# the stock PHY (filter_weak_signals off) has ns-3's reception only
# ns-3's reception rule and no carrier-sense culling: the stock PHY has neither of NS-2's
# (the study's defaults since issue 25).
SHORT = {"protocol": "udp", "duration": 3.0, "reporting_interval": 1.0, "reception_model": "ns3",
         "carrier_sense_culling": "none"}  # fmt: skip
STOCK = wsn.RunOptions(filter_weak_signals=False, ns3_energy_models=True, energy_horizon=False)
HORIZON = wsn.RunOptions(filter_weak_signals=False, ns3_energy_models=True, energy_horizon=True)


def _assert_same_simulation(a, b):
    for table in ("packets", "counts", "energy"):
        assert a[table].equals(b[table]), table
    assert a["summary"].equals(b["summary"])  # event counts included: no run event differs


@pytest.mark.slow
def test_long_lived_battery_skips_every_reschedule_with_identical_results():
    stock = wsn.simulate(SHORT, seed=1, run=3, options=STOCK)
    horizon = wsn.simulate(SHORT, seed=1, run=3, options=HORIZON)
    assert stock["summary"]["delivered"].iloc[0] > 50
    _assert_same_simulation(stock, horizon)
    performance = horizon["performance"].iloc[0]
    # at least one per PHY state change of every node
    assert performance["energy_reschedules_skipped"] > 56 * 10
    assert performance["energy_reschedules_done"] == 0


@pytest.mark.slow
def test_battery_that_runs_out_defers_to_the_stock_model(monkeypatch):
    # 0.12 J at 3 V lasts 4 s at the 10-mA listening current: the radios are switched off
    # during the 5-s run (by WifiRadioEnergyModel's "battery empty" events, some computed
    # for the 27-mA TX current, or by the source's low-battery threshold).
    monkeypatch.setitem(MICA2, "initial_energy_j", 0.12)
    params = dict(SHORT, duration=5.0)
    stock = wsn.simulate(params, seed=1, run=3, options=STOCK)
    horizon = wsn.simulate(params, seed=1, run=3, options=HORIZON)
    listening_5_s = 0.010 * 3.0 * 5.0
    assert (stock["energy"]["energy_j"] < 0.9 * listening_5_s).all(), "radios must go off"
    _assert_same_simulation(stock, horizon)
    performance = horizon["performance"].iloc[0]
    assert performance["energy_reschedules_skipped"] == 0
    assert performance["energy_reschedules_done"] > 0


def test_horizon_zero_is_the_stock_model():
    from transportlab import ns

    model = ns.CreateObject[ns.HorizonWifiRadioEnergyModel]()
    assert not model.CannotRunOutBeforeHorizon()  # no source, no horizon
    value = ns.TimeValue()
    model.GetAttribute("Horizon", value)
    assert value.Get().IsZero()


@pytest.mark.parametrize("initial_j, holds", [(27000.0, True), (0.5, False)])
def test_bound_from_the_battery_and_the_largest_current(initial_j, holds):
    from transportlab import ns

    source = ns.CreateObject[ns.energy.BasicEnergySource]()
    source.SetInitialEnergy(initial_j)
    source.SetSupplyVoltage(3.0)
    model = ns.CreateObject[ns.HorizonWifiRadioEnergyModel]()
    model.SetAttribute("Horizon", ns.TimeValue(ns.Seconds(100)))
    model.SetTxCurrentA(0.027)
    model.SetEnergySource(source)
    # 0.1 x 27000 J / (0.027 A x 3 V) = 33 333 s > 2 x 100 s; 0.1 x 0.5 / 0.081 = 0.6 s is not
    assert model.CannotRunOutBeforeHorizon() is holds
    ns.Simulator.Destroy()


@pytest.mark.slow
def test_state_time_energy_equals_ns3_energy_models_and_they_change_nothing_else():
    params = dict(SHORT, energy_model="mica2")
    with_models = wsn.simulate(
        params, seed=1, run=3, options=wsn.RunOptions(ns3_energy_models=True)
    )
    without = wsn.simulate(params, seed=1, run=3)
    assert with_models["summary"]["delivered"].iloc[0] > 50
    # ns-3 charges every state change; the study multiplies each state's total time. They
    # differ in one place only: WifiRadioEnergyModel's listener switches to the CCA-busy
    # current (10 mA) when a signal arrives during a transmission (WifiPhyStateHelper
    # notifies carrier sense in every state), the PHY's state stays TX (27 mA). So the
    # state-time energy is higher, by at most the node's TX time x 17 mA x 3 V.
    ns3_j = with_models["energy"].sort_values("node")["energy_j"].to_numpy()
    states = with_models["energy_states"].sort_values("node")
    state_j, tx_s = states["energy_j"].to_numpy(), states["tx_s"].to_numpy()
    assert ns3_j.min() > 0.010 * 3.0 * SHORT["duration"] * 0.99  # at least listening
    assert (state_j >= ns3_j - 1e-12).all()
    assert (state_j - ns3_j <= tx_s * (0.027 - 0.010) * 3.0 + 1e-12).all()
    # and that place is small: the study's total within 1 % of ns-3's (a node that sends
    # much, e.g. a relay of network-wide RREQs, may differ by a little more on its own)
    assert state_j.sum() == pytest.approx(ns3_j.sum(), rel=0.01)
    assert state_j == pytest.approx(ns3_j, rel=0.02)
    # without the models: the same packets, counters, radio states and agent events
    for table in ("packets", "counts", "states", "agent", "energy_states"):
        assert with_models[table].equals(without[table]), table
    assert without["energy"].empty
    assert "mica2_model_energy_per_node_j" not in without["summary"]
    # the battery update events are the only ones that go
    assert without["summary"]["events"].iloc[0] < with_models["summary"]["events"].iloc[0]
