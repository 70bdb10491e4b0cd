"""ns3::HorizonWifiRadioEnergyModel: same energy, same simulation, fewer reschedulings.

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

SHORT = {"protocol": "udp", "duration": 3.0, "reporting_interval": 1.0}
STOCK = wsn.RunOptions(filter_weak_signals=False, energy_horizon=False)
HORIZON = wsn.RunOptions(filter_weak_signals=False, energy_horizon=True)


def _assert_same_simulation(a, b):
    for table in ("packets", "counts", "energy"):
        assert a[table].equals(b[table]), table
    assert a["summary"].equals(b["summary"])  # event counts included: no run event differs


def test_long_lived_battery_skips_every_reschedule_with_identical_results():
    stock = wsn.simulate(SHORT, seed=1, run=3, options=STOCK)
    horizon = wsn.simulate(SHORT, seed=1, run=3, options=HORIZON)
    assert stock["summary"]["delivered"].iloc[0] > 50
    _assert_same_simulation(stock, horizon)
    performance = horizon["performance"].iloc[0]
    # at least one per PHY state change of every node
    assert performance["energy_reschedules_skipped"] > 56 * 10
    assert performance["energy_reschedules_done"] == 0


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
