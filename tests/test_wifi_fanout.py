"""ns3::SensitivityFilteredYansWifiPhy: fewer arrival events, identical simulation.

The 56-node sensor field of wsn_reporting_interval, all 55 sensors reporting, run with
the stock YansWifiPhy and with the filtered PHY: every delivered packet (and its delay),
every packet counter and the energy of every node must be the same; only the number of
events differs, by exactly the arrivals that were not scheduled.
"""

from __future__ import annotations

import numpy as np
import pytest

from transportlab.studies import wsn_reporting_interval as wsn

# ns-3's reception rule and no carrier-sense culling: NS-2's (the study's defaults since
# issue 25) live in the filtered PHY only.
SHORT = {"protocol": "udp", "duration": 3.0, "reporting_interval": 1.0, "reception_model": "ns3",
         "carrier_sense_culling": "none"}  # fmt: skip
OFF = wsn.RunOptions(filter_weak_signals=False, energy_horizon=False)
ON = wsn.RunOptions(filter_weak_signals=True, energy_horizon=False)


@pytest.fixture(scope="module")
def runs():
    return {
        "stock": wsn.simulate(SHORT, seed=1, run=2, options=OFF),
        "filtered": wsn.simulate(SHORT, seed=1, run=2, options=ON),
    }


@pytest.mark.slow
def test_filtered_phy_simulates_exactly_what_the_stock_phy_does(runs):
    stock, filtered = runs["stock"], runs["filtered"]
    assert stock["summary"]["delivered"].iloc[0] > 50  # a real exchange, not an empty run
    for table in ("packets", "counts", "energy"):
        assert filtered[table].equals(stock[table]), table
    # the event count differs (below); only the filtered PHY counts NS-2 collisions and
    # undecodable receptions (none here). dropped_packets is NS-2's count of trace lines
    # where the PHY counts them NS-2's way (the filtered PHY only), every drop event of
    # the PHY otherwise: the drop events themselves are the same in both.
    ns2_counts = ("ns2_collisions", "ns2_undecodable")
    summary_columns = [c for c in stock["summary"].columns
                       if c not in ("events", "dropped_packets", *ns2_counts)]  # fmt: skip
    assert filtered["summary"][summary_columns].equals(stock["summary"][summary_columns])
    drop_events = filtered["summary"]["phy_drop_events"].iloc[0]
    assert drop_events == stock["summary"]["dropped_packets"].iloc[0] > 0
    for column in ns2_counts:
        assert filtered["summary"][column].iloc[0] == 0
        assert np.isnan(stock["summary"][column].iloc[0])


@pytest.mark.slow
def test_the_events_saved_are_the_arrivals_not_scheduled(runs):
    stock, filtered = runs["stock"]["performance"], runs["filtered"]["performance"]
    skipped = int(filtered["arrivals_skipped"].iloc[0])
    scheduled = int(filtered["arrivals_scheduled"].iloc[0])
    # Some nodes are beyond carrier-sense range of others (800 m x 400 m field, <= 405 m).
    assert skipped > 0 and scheduled > skipped / 10
    assert int(stock["events"].iloc[0]) - int(filtered["events"].iloc[0]) == skipped
    assert np.isnan(stock["arrivals_skipped"].iloc[0])


@pytest.mark.slow
def test_every_frame_reaches_all_55_other_nodes_or_is_counted_as_skipped(runs):
    performance = runs["filtered"]["performance"].iloc[0]
    counts = runs["filtered"]["counts"]
    phy_tx = counts.loc[counts["source"] == "wifi-phy-tx", "count"].sum()
    assert phy_tx > 0
    assert performance["arrivals_scheduled"] + performance["arrivals_skipped"] == 55 * phy_tx


def test_ns2_reception_is_refused_without_the_filtered_phy():
    with pytest.raises(ValueError, match="filter_weak_signals"):
        wsn.simulate(dict(SHORT, reception_model="ns2"), seed=1, run=2, options=OFF)


def test_filter_attribute_off_restores_the_stock_channel():
    from transportlab import ns

    phy = ns.CreateObject[ns.SensitivityFilteredYansWifiPhy]()
    value = ns.BooleanValue()
    phy.GetAttribute("FilterBelowSensitivity", value)
    assert value.Get() is True
    phy.SetAttribute("FilterBelowSensitivity", ns.BooleanValue(False))
    phy.GetAttribute("FilterBelowSensitivity", value)
    assert value.Get() is False
