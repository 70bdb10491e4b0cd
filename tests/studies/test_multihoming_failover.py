"""The multihoming_failover study: parameters, the RFC timer bounds, the analysis of
hand-made raw tables, the experiments' points, the comparison rows, and short runs of
each scenario."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from transportlab.engine.fingerprint import module_closure
from transportlab.engine.params import ParameterError
from transportlab.studies import get
from transportlab.studies.multihoming_failover import analysis, comparison, reproduction
from transportlab.studies.multihoming_failover.parameters import LOSS_START, START

STUDY = get("multihoming_failover")
QUICK = STUDY.parameters.validate({}, quick=True)
FULL = STUDY.parameters.validate({})


def point(**params):
    return STUDY.parameters.validate(params, quick=True)


def simulate(run: int = 1, **params):
    return STUDY.simulate(point(**params), 1, run)


# --------------------------------------------------------------------------- declaration


@pytest.mark.parametrize(
    "params, message",
    [
        ({"sceanrio": "failover"}, "did you mean 'scenario'"),
        ({"section": "failover"}, "unknown parameter 'section'"),  # renamed: scenario
        ({"loss": 0.1}, "unknown parameter 'loss'"),  # renamed: loss_rate
        ({"scenario": "handover"}, "is not one of"),
        ({"loss_rate": 1.5}, "must be <= 0.9"),
        ({"path_max_retrans": 0}, "must be >= 1"),
        ({"fail_at": 30.0, "duration": 20.0}, "fail_at"),
        ({"fail_at": 5.0, "repair_at": 4.0}, "repair_at"),
        ({"rto_min": 2.0, "rto_max": 1.0}, "exceeds rto_max"),
        ({"stack_preset": "solaris"}, "is not one of"),
        ({"pf_max_retrans": -1}, "must be >= 0"),
        ({"policy": "rtx", "scenario": "prsctp", "pr_value": 150}, "retransmission count"),
        ({"scenario": "prsctp", "duration": 5.0}, "voice source stops"),
    ],
)
def test_bad_parameters_are_refused_before_running(params, message):
    with pytest.raises(ParameterError, match=message):
        STUDY.parameters.validate(params)


def test_registered_with_both_seed_files_and_the_notebook():
    assert STUDY.notebook == "05_multihoming_failover.ipynb"
    assert STUDY.seed_files == ("002_8ca3fd7f92b4e1a6.txt", "001_8dea97bcf2df26a4.txt")
    assert STUDY.output_parameters == ()
    assert [e.name for e in STUDY.reproduction.experiments] == [
        "seed_hub",
        "failover_timers",
        "presets",
        "lossy",
        "prsctp_voice",
    ]
    assert STUDY.reproduction.experiments[2].deterministic


def test_the_run_step_imports_no_analysis_code():
    closure = set(module_closure(["transportlab.studies.multihoming_failover.scenario"]))
    assert "transportlab.ns3.topology.multihomed" in closure
    assert "transportlab.ns3.sctp_recording" in closure
    for analysing in (
        "transportlab.studies.multihoming_failover.analysis",
        "transportlab.studies.multihoming_failover.reproduction",
        "transportlab.engine.published",
        "transportlab.engine.verdicts",
        "transportlab.engine.stats",
        "transportlab.models.metrics",
    ):
        assert analysing not in closure


# --------------------------------------------------------------------------- RFC 9260 timers


def test_failover_window_by_hand():
    # PMR 2, RTO 1 s: expiries 1 + 2 + 4 s after the first timer start.
    assert analysis.failover_window(2, 1.0, 60.0) == (6.0, 7.0)
    # PMR 5 (RFC default), RTO 1 s, RTO.Max 60 s: 2+4+8+16+32 = 62 after the first.
    assert analysis.failover_window(5, 1.0, 60.0) == (62.0, 63.0)
    # RTO.Max caps the backoff: 1, 2, 3, 3.
    assert analysis.failover_window(3, 1.0, 3.0) == (8.0, 9.0)
    assert analysis.return_bound(30.0, 60.0, 0.02) == pytest.approx(120.02)


def test_timer_table_by_hand():
    summary = pd.DataFrame(
        {
            "path_max_retrans": [2, 2, 3],
            "rto_min": [1.0, 1.0, 1.0],
            "rto_max": [60.0, 60.0, 4.0],
            "hb_interval": [30.0, 30.0, 1.0],
            "repair_at": [0.0, 0.0, 20.0],
            "failover_s": [6.5, 5.9, 9.0],
        }
    )
    table = analysis.timer_table(summary, rtt=0.02)
    assert table.window_low_s.tolist() == [6.0, 6.0, 10.0]  # 2+4; 2+4; 2+4+4 (capped)
    assert table.window_high_s.tolist() == [7.0, 7.0, 11.0]
    assert table.in_window.tolist() == [True, False, False]  # the low end is exclusive
    assert math.isnan(table.return_bound_s[0])
    assert table.return_bound_s[2] == pytest.approx(1.0 + 1.5 * 4.0 + 0.02)


# --------------------------------------------------------------------------- analysis


def test_stall_table_by_hand():
    stalls = analysis.stall_table(np.array([1.0, 1.1, 2.0, 2.05]), 0.5, 3.0, 0.4)
    assert stalls.length.round(6).tolist() == [0.5, 0.9, 0.95]
    assert stalls.begin.tolist() == [0.5, 1.1, 2.05]


def test_gap_containing_by_hand():
    times = np.array([1.0, 1.1, 3.1, 3.2])
    assert analysis.gap_containing(times, 1.05, 0.5, 8.0) == pytest.approx(0.1)
    assert analysis.gap_containing(times, 1.1, 0.5, 8.0) == pytest.approx(2.0)  # at a delivery
    assert analysis.gap_containing(times, 0.7, 0.5, 8.0) == pytest.approx(0.5)  # from start
    assert analysis.gap_containing(times, 5.0, 0.5, 8.0) == pytest.approx(4.8)  # to the end


def _raw_transfer(delivery_times, chunk_times, retransmitted, chunk_paths, path_events=()):
    """Raw tables as the run step returns them (SctpRecorder frames), made by hand."""
    n = len(chunk_times)
    chunks = pd.DataFrame(
        {
            "time": chunk_times,
            "node": [0] * n,
            "socket": [1] * n,
            "chunk": ["DATA"] * n,
            "tsn": range(n),
            "path": chunk_paths,
            "retransmission": retransmitted,
        }
    )
    paths = pd.DataFrame(
        [(t, 0, 1, p, e) for t, p, e in path_events],
        columns=["time", "node", "socket", "path", "event"],
    )
    m = len(delivery_times)
    delivered = pd.DataFrame(
        {
            # B delivers (node 1); a row of A (node 0) must be ignored.
            "time": [*delivery_times, 0.9],
            "node": [1] * m + [0],
            "socket": [1] * (m + 1),
            "tsn": range(m + 1),
            "stream": [0] * (m + 1),
            "ssn": range(m + 1),
            "size": [1000] * (m + 1),
        }
    )
    return {"chunks": chunks, "paths": paths, "delivered": delivered}


def test_analyse_lossy_by_hand():
    params = point(scenario="lossy", duration=8.0, stall_threshold=0.2)
    raw = _raw_transfer(
        delivery_times=[1.0, 1.1, 3.1, 3.2, 7.0],
        chunk_times=[0.6, 0.7, 2.1, 2.2],
        retransmitted=[False, False, True, False],
        chunk_paths=[0, 0, 1, 0],
    )
    tables = STUDY.analyse(raw, params)
    s = tables["summary"].iloc[0]
    # Gaps from the first delivery: 0.1, 2.0, 0.1, 3.8, then 1.0 to the end of the run.
    assert s.max_stall_s == pytest.approx(3.8)
    assert s.n_stalls == 3
    assert tables["stalls"].length.tolist() == pytest.approx([2.0, 3.8, 1.0])
    assert s.first_retransmission_s == pytest.approx(2.1 - START)
    assert s.retransmissions == 1 and s.data_chunks == 4
    assert s.delivered_bytes == 5000
    assert s.goodput_mbps == pytest.approx(5000 * 8 / 1e6 / (8.0 - START))
    assert not s.association_failed  # last delivery 1 s before the end
    assert "failover_s" not in tables["summary"]
    assert "first_loss_s" not in tables["summary"]  # no loss table: not measured
    assert tables["deliveries"].time.tolist() == [1.0, 1.1, 3.1, 3.2, 7.0]
    # Stalls 2.0, 3.8 and 1.0 s: their mean.
    assert s.mean_stall_s == pytest.approx((2.0 + 3.8 + 1.0) / 3)


def test_first_loss_and_the_stall_it_caused_by_hand():
    """The first lost DATA packet (not the first retransmission) and the delivery gap in
    which it falls: seed 002 3.5's statistic."""
    params = point(scenario="lossy", duration=8.0, stall_threshold=0.2)
    raw = _raw_transfer(
        delivery_times=[1.0, 1.1, 3.1, 3.2, 7.0],
        chunk_times=[0.6, 0.7, 2.1, 2.2],
        retransmitted=[False, False, True, False],
        chunk_paths=[0, 0, 1, 0],
    )
    # A SACK lost first (ignored: not DATA), then DATA at 1.15 and 3.5 s.
    raw["losses"] = pd.DataFrame(
        {
            "time": [0.9, 1.15, 3.5],
            "point": ["lost_to_a", "lost_to_b", "lost_to_b"],
            "size": [60, 1500, 1500],
        }
    )
    s = STUDY.analyse(raw, params)["summary"].iloc[0]
    assert s.first_loss_s == pytest.approx(1.15 - START)
    assert s.first_loss_any_s == pytest.approx(0.9 - START)  # the SACK
    assert s.first_retransmission_s == pytest.approx(2.1 - START)  # later than the loss
    assert s.first_loss_stall_s == pytest.approx(2.0)  # 1.1 -> 3.1
    assert s.lost_data_packets == 2 and s.lost_sacks == 1
    assert s.max_stall_s == pytest.approx(3.8)  # the longest gap is another one


def test_stall_summary_per_configuration_by_hand():
    summary = pd.DataFrame(
        {
            "homing": ["single", "single", "multi", "multi"],
            "pf_max_retrans": [65535, 65535, 65535, 0],
            "path_max_retrans": [5] * 4,
            "run": [1, 2, 1, 1],
            "goodput_mbps": [0.1, 0.3, 1.0, 2.0],
            "first_loss_s": [0.1, 0.3, 0.2, 0.4],
            "first_loss_any_s": [0.1, 0.2, 0.2, 0.3],
            "first_loss_stall_s": [3.0, 5.0, 1.0, 0.5],
            "mean_stall_s": [2.0, 4.0, 1.0, 0.3],
            "max_stall_s": [6.0, 8.0, 2.0, 0.5],
            "first_retransmission_s": [1.0, 1.2, 1.1, 0.9],
            "n_stalls": [3, 5, 2, 1],
        }
    )
    table = analysis.stall_summary(summary)
    assert table.index.tolist() == ["single-homed", "multi-homed", "multi-homed + SCTP-PF"]
    single = table.loc["single-homed"]
    assert single.n_runs == 2 and single.first_loss_stall_s == pytest.approx(4.0)
    assert single.goodput_kbps == pytest.approx(200.0)
    assert single.stalls_per_run == pytest.approx(4.0)
    assert table.loc["multi-homed + SCTP-PF"].first_loss_stall_s == pytest.approx(0.5)


def test_analyse_failover_by_hand():
    params = point(scenario="failover", fail_at=5.0, repair_at=12.0, duration=20.0)
    raw = _raw_transfer(
        delivery_times=[4.9, 6.0, 6.1, 19.0],
        chunk_times=[4.8, 5.5, 6.0],
        retransmitted=[False, True, False],
        chunk_paths=[0, 1, 1],
        path_events=[(8.0, 0, "UNREACHABLE"), (13.5, 0, "AVAILABLE"), (14.0, 0, "AVAILABLE")],
    )
    tables = STUDY.analyse(raw, params)
    s = tables["summary"].iloc[0]
    assert s.failover_s == pytest.approx(3.0)
    assert s.resume_s == pytest.approx(1.0)
    assert s.return_s == pytest.approx(1.5)  # the first AVAILABLE after the repair
    assert s.data_chunks_secondary == 2
    assert math.isnan(s.pf_s)  # no POTENTIALLY_FAILED event
    # The first delivery after the failure (6.0 s) is TSN 1, last sent at 5.5 s on path 1.
    assert s.resume_path == 1
    assert s.retransmissions_after_failure == 1
    assert s.new_data_to_primary == 0  # TSN 2 (6.0 s) went to path 1
    # Stalls count from the failure: 5 -> 6 (1 s), 6.1 -> 19 (12.9 s), 19 -> 20 (1 s).
    assert s.max_stall_s == pytest.approx(12.9)
    assert tables["stalls"].begin.tolist() == pytest.approx([5.0, 6.1, 19.0])
    assert tables["paths"].event.tolist() == ["UNREACHABLE", "AVAILABLE", "AVAILABLE"]


def test_analyse_voice_by_hand():
    sent = [(LOSS_START - 0.01, 0), (1.0, 1), (1.02, 2), (1.04, 3), (1.06, 4)]
    received = [(1.01, 1), (1.25, 2), (1.30, 2), (1.07, 4)]  # frame 3 lost, 2 twice
    packets = pd.DataFrame(
        [("sent", 1, seq, 172, t) for t, seq in sent]
        + [("received", 1, seq, 172, t) for t, seq in received],
        columns=["event", "flow", "seq", "size", "time"],
    )
    tables = STUDY.analyse({"packets": packets}, point(scenario="prsctp"))
    s = tables["summary"].iloc[0]
    assert s.frames_sent == 4  # frame 0 left before the loss started: not counted
    assert s.frames_received == 3
    assert s.residual_loss == pytest.approx(0.25)
    assert s.late_or_lost == pytest.approx(0.5)  # frame 2 (230 ms) late, frame 3 lost
    assert s.delay_max_ms == pytest.approx(230.0)
    assert s.delay_mean_ms == pytest.approx((10 + 230 + 10) / 3)
    assert s.duplicates == 1
    assert tables["delays"].seq.tolist() == [1, 2, 3, 4]


# --------------------------------------------------------------------------- reproduction


def test_quick_and_full_points():
    experiments = {e.name: e for e in reproduction.REPRODUCTION.experiments}
    timers, lossy, voice = (experiments[n] for n in ("failover_timers", "lossy", "prsctp_voice"))
    assert len(timers.point_list(QUICK, quick=True)) == 3 * 2 + 2
    assert len(timers.point_list(FULL, quick=False)) == 5 * 3 + 4
    assert [p["duration"] for p in lossy.point_list(QUICK, quick=True)] == [8.0] * 3
    assert [p["duration"] for p in lossy.point_list(FULL, quick=False)] == [20.0] * 3
    # Single-homed and multi-homed with SCTP-PF off (65535), multi-homed with it on (0).
    assert [(p["homing"], p["pf_max_retrans"]) for p in lossy.point_list(FULL, False)] == [
        ("single", 65535),
        ("multi", 65535),
        ("multi", 0),
    ]
    presets = experiments["presets"].point_list(FULL, quick=False)
    assert [p["stack_preset"] for p in presets] == ["rfc9260", "linux", "freebsd"]
    # 2 s after the RFC 9260 window of PMR 5, RTO 1 s (62-63 s) after the failure at 5 s.
    assert {p["duration"] for p in presets} == {5.0 + 63.0 + 2.0}
    assert len(voice.point_list(QUICK, quick=True)) == 5
    assert len(voice.point_list(FULL, quick=False)) == 3 * 5
    for params in (QUICK, FULL):  # every point is valid
        for experiment in STUDY.reproduction.experiments:
            for p in experiment.points(params):
                STUDY.parameters.validate(dict(params, **p))
    runs = {e.name: (e.quick_runs, e.runs) for e in STUDY.reproduction.experiments}
    assert runs == {
        "seed_hub": (1, 1),
        "failover_timers": (1, 1),
        "presets": (1, 1),
        "lossy": (4, 30),
        "prsctp_voice": (2, 15),
    }


def test_timer_point_by_hand():
    # PMR 3, RTO.Min 1 s: window ends 15 s after the failure at 5 s.
    plain = reproduction.timer_point(QUICK, 3, 1.0, 30.0, repair=False)
    assert plain["repair_at"] == 0.0 and plain["duration"] == 5.0 + 15.0 + 2.0
    # Repaired 2 s after the window, then HB.interval + 1.5 RTO.Max + RTT + 2 s.
    repaired = reproduction.timer_point(QUICK, 3, 1.0, 1.0, repair=True)
    assert repaired["repair_at"] == 22.0
    assert repaired["duration"] == pytest.approx(22.0 + 1.0 + 90.0 + 0.02 + 2.0)
    assert reproduction.timer_point(QUICK, 1, 0.5, 30.0, False)["rto_initial"] == 1.0


class FakeResults:
    """What ``comparison.comparison`` reads of a Results: ``results["lossy"]``."""

    study = STUDY

    def __init__(self, lossy_summary: pd.DataFrame) -> None:
        self.tables = {"lossy": {"summary": lossy_summary}}

    def __getitem__(self, name):
        return self.tables[name]


def test_comparison_rows_come_from_the_lossy_runs():
    """The seed's statistics (first loss, the stall it caused) of the runs with SCTP-PF
    off; the PF runs are not compared (SCTP-PF did not exist in 2001)."""
    summary = pd.DataFrame(
        {
            "homing": ["single", "single", "multi", "multi", "multi"],
            "pf_max_retrans": [65535, 65535, 65535, 65535, 0],
            "path_max_retrans": [5] * 5,
            "loss_rate": [0.15] * 5,
            "run": [1, 2, 1, 2, 1],
            "first_loss_stall_s": [4.0, 6.0, 1.0, 2.0, 0.1],
            "max_stall_s": [9.0, 9.0, 9.0, 9.0, 9.0],  # not the statistic compared
            "first_loss_s": [0.2, 0.4, 0.1, 0.1, 0.1],
            "first_retransmission_s": [1.2, 1.4, 1.1, 1.1, 1.1],
            # the other per-run columns the committed per-run table keeps (not compared)
            "first_loss_any_s": [0.2, 0.4, 0.1, 0.1, 0.1],
            "mean_stall_s": [1.0] * 5,
            "n_stalls": [3] * 5,
            "goodput_mbps": [1.0] * 5,
            "lost_data_packets": [10] * 5,
            "lost_sacks": [2] * 5,
        }
    )
    table = comparison.comparison(FakeResults(summary)).set_index(["protocol", "metric", "role"])
    # the seed's three rows and the derived mean stall beside the realisation claim
    assert len(table) == 4
    single = table.loc[("SCTP (single-homed)", "transmission_stall", "claim")]
    assert single.kind == "realisation" and single.row == "15% packet loss"
    # the claim holds the share of runs stalling > 3 s: both single-homed runs do
    assert single.reproduced == pytest.approx(1.0) and single.n_runs == 2
    assert single.verdict == "too-few-runs"  # 2 runs
    mean = table.loc[("SCTP (single-homed)", "transmission_stall", "derived")]
    assert mean.row == "15% packet loss, mean over the runs"
    assert mean.reproduced == pytest.approx(5.0) and mean.n_runs == 2
    first = table.loc[("SCTP (single-homed)", "first_loss_time", "claim")]
    assert first.reproduced == pytest.approx(0.3)  # the loss, not the retransmission
    multi = table.loc[("SCTP (multi-homed)", "transmission_stall", "claim")]
    assert multi.reproduced == pytest.approx(1.5) and multi.n_runs == 2  # PF run left out


# --------------------------------------------------------------------------- simulations


def test_destination_failover_inside_the_rfc_window_and_return():
    params = dict(path_max_retrans=2, rto_max=4.0, hb_interval=1.0, repair_at=12.0)
    out = simulate(**params)
    s = out["summary"].iloc[0]
    low, high = analysis.failover_window(2, 1.0, 4.0)
    assert low < s.failover_s <= high
    # Deliveries resume after the first timeout, on the alternate path.
    assert 0.5 < s.resume_s <= 1.1
    assert s.data_chunks_secondary > 100
    assert 0 < s.return_s <= analysis.return_bound(1.0, 4.0, 0.02)
    events = out["paths"].event.tolist()
    assert events.index("UNREACHABLE") < events.index("AVAILABLE")


def test_seed_hub_source_failover_against_the_seed_behaviour():
    """Seed 002 section 5.5: with source-address failover the transfer moves to A's
    second interface after one RTO; without it (the seed's lksctp) it never resumes."""
    ours = simulate(topology="seed_hub", duration=10.0)["summary"].iloc[0]
    assert 0.9 < ours.resume_s < 1.2 and not ours.association_failed
    seed = simulate(topology="seed_hub", source_failover=False, duration=15.0)["summary"]
    assert np.isnan(seed.iloc[0].resume_s) and seed.iloc[0].association_failed


def test_lossy_runs_are_deterministic_and_differ_between_runs():
    params = point(scenario="lossy", homing="single", duration=6.0)
    a, b = STUDY.run(params, 1, 1), STUDY.run(params, 1, 1)
    for name in ("chunks", "paths", "delivered"):
        pd.testing.assert_frame_equal(a[name], b[name], check_exact=True)
    other = STUDY.run(params, 1, 2)
    assert not a["delivered"].equals(other["delivered"])
    summary = STUDY.analyse(a, params)["summary"].iloc[0]
    assert summary.retransmissions > 0


def test_prsctp_policies_against_udp():
    """Lifetime bounds the delay (up to in-flight time); full reliability loses nothing;
    UDP loses about the loss rate."""
    common = dict(scenario="prsctp", loss_rate=0.05, duration=12.0)
    ttl = simulate(policy="ttl", pr_value=150, **common)["summary"].iloc[0]
    reliable = simulate(policy="reliable", **common)["summary"].iloc[0]
    udp = simulate(policy="udp", **common)["summary"].iloc[0]
    assert reliable.residual_loss == 0 and reliable.duplicates == 0
    assert ttl.delay_max_ms <= 150 + 10.2 + 1
    assert ttl.residual_loss < udp.residual_loss
    assert 0.02 < udp.residual_loss < 0.1
    assert udp.delay_max_ms == pytest.approx(udp.delay_mean_ms)  # no queueing, no retries


def test_presets_decide_where_new_data_goes_after_the_failure():
    """Linux (SCTP-PF on, PFMR 0): the primary is potentially failed at the first T3-rtx
    expiry, one RTO (RTO.Min 1 s: the RTT is 20 ms) after the failure, and new data moves
    to the alternate. RFC 9260 (no PF): new data keeps going to the dead primary until it
    is inactive, 62-63 s later (analysis.failover_window(5, 1, 60)), beyond this run."""
    common = dict(rtx_to_alt="TIMEOUT_ALTERNATE", duration=15.0)
    linux = simulate(stack_preset="linux", **common)["summary"].iloc[0]
    rfc = simulate(stack_preset="rfc9260", **common)["summary"].iloc[0]
    assert 0.9 < linux.pf_s <= 1.1 and 0.9 < linux.resume_s <= 1.2
    assert linux.resume_path == 1
    # PF at the first expiry: at most the chunks sent before it (one cwnd) went to the
    # dead primary; without PF new data goes there at every expiry (1, 2, 4, 8 s).
    assert linux.new_data_to_primary <= 4
    assert math.isnan(rfc.pf_s) and math.isnan(rfc.failover_s)
    assert 0.9 < rfc.resume_s <= 1.2 and rfc.resume_path == 1  # a retransmission
    assert rfc.new_data_to_primary > linux.new_data_to_primary
    assert rfc.delivered_bytes < linux.delivered_bytes


def test_lossy_losses_are_recorded_where_they_happen():
    """The loss models' drops, by direction: DATA packets to B (1452 + 16 + 12 + 20 bytes
    of IP and 2 of PPP: 1502), SACKs to A (12 + 16 + 20 + 2 = 50, plus 4 per gap block),
    none before the loss starts; the first lost DATA packet comes before its retransmission."""
    params = point(scenario="lossy", homing="multi", duration=6.0)
    raw = STUDY.run(params, 1, 1)
    losses = raw["losses"]
    assert (losses.time >= LOSS_START).all()
    to_b, to_a = losses[losses.point == "lost_to_b"], losses[losses.point == "lost_to_a"]
    assert len(to_b) > 0 and len(to_a) > 0 and len(to_b) + len(to_a) == len(losses)
    assert set(to_b["size"]) == {1502}
    # A SACK is 50 bytes plus 4 per gap block or duplicate TSN it reports.
    assert all(size >= 50 and (size - 50) % 4 == 0 for size in to_a["size"])
    assert 50 in set(to_a["size"])
    s = STUDY.analyse(raw, params)["summary"].iloc[0]
    assert s.lost_data_packets == len(to_b) and s.lost_sacks == len(to_a)
    assert s.first_loss_s == pytest.approx(to_b.time.min() - START)
    data = raw["chunks"][(raw["chunks"].node == 0) & raw["chunks"].retransmission]
    assert (data.time > to_b.time.min()).any()  # a retransmission follows the loss
    assert s.first_loss_stall_s > 0
