"""The multihoming_failover study: parameters, the RFC timer window, short runs of each
section, determinism and the comparison rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from transportlab import published
from transportlab.params import ParameterError
from transportlab.studies import get
from transportlab.studies import multihoming_failover as study

STUDY = get("multihoming_failover")


def simulate(run: int = 1, **params):
    return STUDY.simulate(STUDY.validate(params, quick=True), 1, run)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"sektion": "failover"}, "did you mean 'section'"),
        ({"section": "handover"}, "is not one of"),
        ({"loss": 1.5}, "must be <= 0.9"),
        ({"path_max_retrans": 0}, "must be >= 1"),
        ({"fail_at": 30.0, "duration": 20.0}, "fail_at"),
        ({"fail_at": 5.0, "repair_at": 4.0}, "repair_at"),
        ({"rto_min": 2.0, "rto_max": 1.0}, "exceeds rto_max"),
        ({"policy": "rtx", "section": "prsctp", "pr_value": 150}, "retransmission count"),
    ],
)
def test_bad_parameters_are_refused_before_running(params, message):
    with pytest.raises(ParameterError, match=message):
        STUDY.validate(params)


def test_registered():
    assert STUDY.notebook == "05_multihoming_failover.ipynb"
    assert "002_8ca3fd7f92b4e1a6.txt" in STUDY.seed_files


def test_failover_window_by_hand():
    # PMR 2, RTO 1 s: expiries 1 + 2 + 4 s after the first timer start.
    assert study.failover_window(2, 1.0, 60.0) == (6.0, 7.0)
    # PMR 5 (RFC default), RTO 1 s, RTO.Max 60 s: 2+4+8+16+32 = 62 after the first.
    assert study.failover_window(5, 1.0, 60.0) == (62.0, 63.0)
    # RTO.Max caps the backoff: 1, 2, 3, 3.
    assert study.failover_window(3, 1.0, 3.0) == (8.0, 9.0)
    assert study.return_bound(30.0, 60.0, 0.02) == pytest.approx(120.02)


def test_stall_table_by_hand():
    stalls = study.stall_table(np.array([1.0, 1.1, 2.0, 2.05]), 0.5, 3.0, 0.4)
    assert stalls.length.round(6).tolist() == [0.5, 0.9, 0.95]
    assert stalls.begin.tolist() == [0.5, 1.1, 2.05]


def test_destination_failover_inside_the_rfc_window_and_return():
    params = dict(path_max_retrans=2, rto_max=4.0, hb_interval=1.0, repair_at=12.0)
    out = simulate(**params)
    s = out["summary"].iloc[0]
    low, high = study.failover_window(2, 1.0, 4.0)
    assert low < s.failover_s <= high
    # Deliveries resume after the first timeout, on the alternate path.
    assert 0.5 < s.resume_s <= 1.1
    assert s.data_chunks_secondary > 100
    assert 0 < s.return_s <= study.return_bound(1.0, 4.0, 0.02)
    events = out["paths"].event.tolist()
    assert events.index("UNREACHABLE") < events.index("AVAILABLE")


def test_seed_hub_source_failover_against_the_seed_behaviour():
    """Seed 002 section 5.5: with source-address failover the transfer moves to A's
    second interface after one RTO; without it (the seed's lksctp) it never resumes."""
    ours = simulate(topology="seed_hub", duration=10.0)["summary"].iloc[0]
    assert 0.9 < ours.resume_s < 1.2 and not ours.association_failed
    seed = simulate(topology="seed_hub", source_failover=False, duration=15.0)["summary"]
    assert np.isnan(seed.iloc[0].resume_s) and seed.iloc[0].association_failed


def test_lossy_runs_are_deterministic_and_compare():
    a = simulate(section="lossy", homing="single", duration=6.0)
    b = simulate(section="lossy", homing="single", duration=6.0)
    pd.testing.assert_frame_equal(a["summary"], b["summary"])
    pd.testing.assert_frame_equal(a["deliveries"], b["deliveries"])
    assert a["summary"].iloc[0].retransmissions > 0
    summary = a["summary"].assign(homing="single", loss=0.15)
    rows = study.reproduced_rows(summary)
    table = published.compare(STUDY.name, rows, write=False)
    assert set(table.metric) == {"transmission_stall", "first_loss_time"}
    assert (table.n_runs == 1).all()


def test_prsctp_policies_against_udp():
    """Lifetime bounds the delay (up to in-flight time); full reliability loses nothing;
    UDP loses about the loss rate."""
    common = dict(section="prsctp", loss=0.05, duration=12.0)
    ttl = simulate(policy="ttl", pr_value=150, **common)["summary"].iloc[0]
    reliable = simulate(policy="reliable", **common)["summary"].iloc[0]
    udp = simulate(policy="udp", **common)["summary"].iloc[0]
    assert reliable.residual_loss == 0 and reliable.duplicates == 0
    assert ttl.delay_max_ms <= 150 + 10.2 + 1
    assert ttl.residual_loss < udp.residual_loss
    assert 0.02 < udp.residual_loss < 0.1
    assert udp.delay_max_ms == pytest.approx(udp.delay_mean_ms)  # no queueing, no retries
