"""The quick differential suite: a dozen scenarios on usrsctp and on the ns-3 model.

Completion times must agree within 10 % unless a named usrsctp difference (RFC section in
transportlab.studies.sctp_validation.differences.DIFFERENCES) is confirmed from the traces;
retransmissions must be of the same kinds; the ns-3 runs must be bit-identical when repeated.
"""

from __future__ import annotations

import pandas as pd
import pytest

from tests.validation.conftest import needs_oracle
from transportlab.studies.sctp_validation import differences, stacks

pytestmark = needs_oracle

QUICK = {s.name: s for s in stacks.quick_scenarios()}


@pytest.fixture(scope="module")
def results():
    table, traces = differences.validation_table(QUICK.values(), keep_traces=True)
    return table.set_index("scenario"), traces


@pytest.mark.parametrize("name", list(QUICK))
def test_scenario_agrees_or_a_named_difference_explains_it(results, name):
    table, _ = results
    row = table.loc[name]
    assert row.verdict in ("agrees", "explained"), row.to_dict()
    if row.verdict == "explained":
        keys = row.explained_by.split(",")
        assert keys and all(k in differences.DIFFERENCES for k in keys)
        for k in keys:
            assert k in row.evidence  # confirmed from the traces, not assumed
    assert row.expected_seen, f"{name}: expected {QUICK[name].expect} in the traces"
    both = [row.usrsctp_s, row.ns3_s, row.usrsctp_aligned_s, row.ns3_aligned_s]
    assert all(pd.notna(both)), "every run must complete"


@pytest.mark.parametrize("name", list(QUICK))
def test_aligned_settings_agree_or_a_named_difference_is_seen(results, name):
    """With the aligned settings a gap above 10 % needs a difference no setting removes."""
    table, _ = results
    row = table.loc[name]
    if abs(row.completion_diff_aligned) <= stacks.COMPLETION_TOLERANCE:
        return
    keys = [k for k in row.aligned_explained_by.split(",") if k]
    assert keys, row.to_dict()
    assert set(keys) - set(differences.SETTABLE), f"{name}: only settable differences {keys}"
    for k in keys:
        assert k in row.aligned_evidence


@pytest.mark.parametrize("name", list(QUICK))
def test_aligned_cwnd_tracks_usrsctp_unless_a_named_difference_is_seen(results, name):
    """cwnd trajectory: mean |difference| <= 10 % of usrsctp's mean cwnd (aligned)."""
    table, traces = results
    row = table.loc[name]
    if row.cwnd_diff_aligned <= 0.10:
        return
    tr = traces[name]
    seen = set(differences.evidence(tr["usrsctp_aligned"], tr["ns3_aligned"])) - {
        "cwnd_counts_headers"
    }
    assert seen, f"{name}: cwnd differs by {row.cwnd_diff_aligned:.0%} with no named cause"


@pytest.mark.parametrize(
    ("name", "fast", "t3"),
    [
        ("no_loss", 0, 0),
        ("loss_early", 1, 0),
        ("loss_mid", 1, 0),
        ("loss_tail", 0, 1),
        ("rto_backoff", 1, 2),
        ("streams_4", 1, 0),
        ("fragmented", 1, 0),
    ],
)
def test_retransmission_kinds_match_usrsctp(results, name, fast, t3):
    table, _ = results
    row = table.loc[name]
    assert (row.usrsctp_fast, row.usrsctp_t3) == (fast, t3)
    assert (row.ns3_fast, row.ns3_t3) == (fast, t3)


def test_rto_backoff_doubles_in_both_stacks(results):
    _, traces = results
    for key in ("usrsctp", "ns3"):
        t3 = traces["rto_backoff"][key].data.query("kind == 't3'").time.to_numpy()
        assert len(t3) == 2
        # T3 doubles RTO.Min 1 s to 2 s (6.3.3 E2): 2 s between the two timeouts
        assert t3[1] - t3[0] == pytest.approx(2.0, abs=0.01)


def test_tail_loss_usrsctp_does_not_restart_t3(results):
    """6.3.2 R3: the model's T3 runs a full RTO from the last SACK that advanced the
    cumulative TSN; usrsctp's expires one RTO after the first transmission."""
    table, traces = results
    assert "t3_not_restarted" in table.loc["loss_tail"].explained_by
    u, m = traces["loss_tail"]["usrsctp"], traces["loss_tail"]["ns3"]
    first_data = u.data.time.min()
    assert u.timeout_times[0] - first_data == pytest.approx(1.0, abs=0.005)
    assert m.data.query("kind == 't3'").time.iloc[0] - m.data.time.min() > 1.1


def test_aligned_profile_removes_the_settable_differences(results):
    _, traces = results
    tr = traces["no_loss"]
    assert "abc_l2" in differences.evidence(tr["usrsctp"], tr["ns3"])
    assert "initial_cwnd" in differences.evidence(tr["usrsctp"], tr["ns3"])
    aligned = differences.evidence(tr["usrsctp_aligned"], tr["ns3_aligned"])
    assert "abc_l2" not in aligned and "initial_cwnd" not in aligned
    # and the cwnd trajectories then track each other
    assert differences.cwnd_difference(tr["usrsctp_aligned"], tr["ns3_aligned"]) < 0.1


def test_model_runs_are_bit_identical():
    sc = QUICK["random_2pct"]
    a, b = stacks.run_model(sc), stacks.run_model(sc)
    assert a.completion_s == b.completion_s
    pd.testing.assert_frame_equal(a.data, b.data)
    pd.testing.assert_frame_equal(a.series, b.series)


def test_model_random_loss_is_the_oracles_function():
    from transportlab import ns

    for seed in (1, 9):
        for tsn in range(300):
            for k in (0, 1):
                assert bool(ns.SctpDropErrorModel.RandomLoss(0.1, seed, tsn, k)) == (
                    stacks.random_loss(0.1, seed, tsn, k)
                )


def test_both_stacks_lose_the_same_data(results):
    _, traces = results
    tr = traces["random_2pct"]
    assert len(tr["usrsctp"].drops) > 0
    # with the same losses of the same TSNs, fast retransmissions hit the same TSNs
    u = tr["usrsctp_aligned"].data.query("kind == 'fast'").tsn.tolist()
    m = tr["ns3_aligned"].data.query("kind == 'fast'").tsn.tolist()
    assert u == m


def test_model_queue_drops_are_recorded_like_the_oracles():
    sc = stacks.Scenario(name="q", queue_packets=5, rate_mbps=2, total_bytes=200_000)
    m, o = stacks.run_model(sc), stacks.run_oracle(sc)
    for t in (m, o):
        assert (t.drops.reason == "queue").sum() > 0
        assert t.delivered == sc.total_bytes
        assert t.retransmissions()["fast"] > 0
