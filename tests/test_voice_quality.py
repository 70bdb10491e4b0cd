"""From recorded packets to calls: traces, pooled metrics, per-second counts, R per policy."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from transportlab.models.playout import FixedPlayout, PlayOnArrival, VoiceTrace
from transportlab.studies.voip_cjm.voice_quality import (
    VoiceQualitySettings,
    assess_calls,
    call_traces,
    per_second,
    pool,
)

FRAME = 0.02


def packet_table() -> pd.DataFrame:
    """Two calls: call 0 sends 3 frames (one lost), call 1 sends 2 (received out of order)."""
    rows = [
        # event, flow, seq, size, time, sent_time
        ("sent", 0, 0, 172, 1.00, 1.00),
        ("sent", 0, 1, 172, 1.02, 1.02),
        ("sent", 0, 2, 172, 1.04, 1.04),
        ("sent", 1, 0, 172, 1.01, 1.01),
        ("sent", 1, 1, 172, 1.03, 1.03),
        ("received", 0, 0, 172, 1.05, 1.00),
        ("received", 0, 2, 172, 1.10, 1.04),
        ("received", 1, 1, 172, 1.07, 1.03),
        ("received", 1, 0, 172, 1.08, 1.01),
        ("received", 1, 0, 172, 1.09, 1.01),  # a duplicate: the first copy counts
    ]
    frame = pd.DataFrame(rows, columns=["event", "flow", "seq", "size", "time", "sent_time"])
    frame["delay"] = np.where(
        frame["event"] == "received", frame["time"] - frame["sent_time"], np.nan
    )
    return frame


def test_call_traces_join_sent_and_received_frames():
    traces = call_traces(packet_table(), FRAME)
    assert sorted(traces) == [0, 1]
    np.testing.assert_allclose(traces[0].arrival, [1.05, np.nan, 1.10])
    np.testing.assert_allclose(traces[1].arrival, [1.08, 1.07])
    np.testing.assert_array_equal(traces[1].size, [172, 172])


def test_call_traces_cut_at_stop_time_and_reject_unknown_frames():
    traces = call_traces(packet_table(), FRAME, stop_time=1.075)
    np.testing.assert_allclose(traces[0].arrival, [1.05, np.nan, np.nan])
    bad = packet_table()
    bad.loc[len(bad)] = ("received", 0, 7, 172, 1.2, 1.1, 0.1)
    with pytest.raises(ValueError, match="never sent"):
        call_traces(bad, FRAME)


def test_assess_and_pool_two_calls():
    traces = call_traces(packet_table(), FRAME)
    policies = [PlayOnArrival(), FixedPlayout(0.055, name="fixed")]
    calls, schedules = assess_calls(traces, policies, VoiceQualitySettings(frame_ms=20.0))
    fixed = calls[calls["policy"] == "fixed"].set_index("call")
    # call 0: delays 50 (played), lost, 60 ms (> 55: late); call 1: delays 70, 40 ms
    assert fixed.loc[0, "played"] == 1 and fixed.loc[0, "late"] == 1
    assert fixed.loc[1, "played"] == 1 and fixed.loc[1, "late"] == 1
    # Ta = 55 ms playout + 20 ms frame; 2 of 3 frames lost on call 0, PLC Bpl 25.1
    assert fixed.loc[0, "mouth_to_ear_ms"] == pytest.approx(75.0)
    assert fixed.loc[0, "total_loss_rate"] == pytest.approx(2 / 3)
    assert calls.loc[calls["policy"] == "arrival", "R"].isna().all()

    summary = pool(calls, traces, schedules).set_index("policy")
    assert summary.loc["fixed", "sent"] == 5
    assert summary.loc["fixed", "network_loss_rate"] == pytest.approx(1 / 5)
    assert summary.loc["fixed", "late_loss_rate"] == pytest.approx(2 / 5)
    # network delays of the four received frames: 50, 60, 70, 40 ms
    assert summary.loc["fixed", "delay_mean_ms"] == pytest.approx(55.0)
    assert summary.loc["fixed", "delay_max_ms"] == pytest.approx(70.0)
    assert summary.loc["fixed", "playout_delay_max_ms"] == pytest.approx(55.0)
    assert summary.loc["arrival", "played"] == 4
    assert summary.loc["fixed", "calls_over_delay_limit"] == 0


def test_per_second_counts_and_delays():
    rate = per_second(packet_table(), 1.0, 2.0)
    assert rate["second"].tolist() == [1.0]
    assert rate["frames"].tolist() == [5]  # duplicates are deliveries too
    assert rate["delay_max_ms"].iloc[0] == pytest.approx(80.0)
    with pytest.raises(ValueError, match="after start"):
        per_second(packet_table(), 2.0, 2.0)


def test_quality_settings_reject_unknown_codec():
    with pytest.raises(ValueError, match="unknown codec"):
        VoiceQualitySettings(codec="opus")


def test_r_is_reported_on_its_0_to_100_scale():
    # 400 frames, the last 300 late in one burst: BurstR is large, G.107 gives R << 0
    n = 400
    send = np.arange(n) * FRAME
    arrival = send + np.where(np.arange(n) < 100, 0.05, 5.0)
    trace = VoiceTrace(np.arange(n), send, arrival, FRAME)
    calls, _ = assess_calls({0: trace}, [FixedPlayout(0.1, name="fixed")], VoiceQualitySettings())
    assert calls.loc[0, "total_loss_rate"] == pytest.approx(0.75)
    assert calls.loc[0, "R"] == 0.0
    assert calls.loc[0, "MOS"] == 1.0
