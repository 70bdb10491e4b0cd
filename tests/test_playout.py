"""Playout models on small hand-made traces with hand-computed results."""

from __future__ import annotations

import numpy as np
import pytest

from transportlab.models.playout import (
    RAMJEE_ALPHA,
    AdaptivePlayout,
    ChunkPlayout,
    FixedPlayout,
    PlayOnArrival,
    VoiceTrace,
    evaluate,
    talkspurt_segments,
)

NAN = np.nan
FRAME = 0.02


def trace_a() -> VoiceTrace:
    """Five packets 20 ms apart; delays 50, 60, lost, 30, 70 ms."""
    return VoiceTrace(
        seq=[0, 1, 2, 3, 4],
        send=[0.0, 0.02, 0.04, 0.06, 0.08],
        arrival=[0.05, 0.08, NAN, 0.09, 0.15],
        frame_interval=FRAME,
    )


# ---------------------------------------------------------------- the trace itself


def test_trace_rejects_inconsistent_input():
    with pytest.raises(ValueError, match="strictly increasing"):
        VoiceTrace([0, 0], [0, 0.02], [0.1, 0.2], FRAME)
    with pytest.raises(ValueError, match="before it was sent"):
        VoiceTrace([0, 1], [0, 0.02], [0.1, 0.01], FRAME)
    with pytest.raises(ValueError, match="differ in length"):
        VoiceTrace([0, 1], [0, 0.02], [0.1], FRAME)
    with pytest.raises(ValueError, match="frame_interval"):
        VoiceTrace([0], [0], [0.1], 0.0)
    with pytest.raises(ValueError, match="decrease"):
        VoiceTrace([0, 1], [0.02, 0.0], [0.1, 0.2], FRAME)


# ---------------------------------------------------------------- no buffer, fixed delay


def test_play_on_arrival_keeps_every_received_packet_and_its_jitter():
    trace = trace_a()
    m = evaluate(trace, PlayOnArrival().schedule(trace))
    assert (m["sent"], m["received"], m["played"], m["late"]) == (5, 4, 4, 0)
    assert m["network_loss_rate"] == pytest.approx(0.2)
    assert m["late_loss_rate"] == 0
    assert m["after_jitter"] == pytest.approx(m["before_jitter"])


def test_fixed_playout_from_send_time():
    trace = trace_a()
    schedule = FixedPlayout(0.065).schedule(trace)
    np.testing.assert_allclose(schedule.slot, [0.065, 0.085, 0.105, 0.125, 0.145])
    m = evaluate(trace, schedule)
    # packet 4 arrives at 150 ms, after its slot at 145 ms: late
    assert (m["played"], m["late"]) == (3, 1)
    assert m["network_loss_rate"] == pytest.approx(0.2)
    assert m["late_loss_rate"] == pytest.approx(0.2)
    assert m["total_loss_rate"] == pytest.approx(0.4)
    # network delay of received packets: 50, 60, 30, 70 ms
    assert m["delay_mean"] == pytest.approx(0.0525)
    assert m["delay_max"] == pytest.approx(0.07)
    assert m["delay_p99"] == pytest.approx(0.06 + 0.97 * 0.01)  # linear interpolation
    assert m["before_jitter"] == pytest.approx((0.000625 + 0.0024609375 + 0.00480712890625) / 4)
    # RFC 3393 IPDV of packets consecutive in sending order: only (0, 1) and (3, 4)
    assert m["before_ipdv_mean"] == pytest.approx((0.01 + 0.04) / 2)
    # a constant playout delay removes all jitter
    assert m["playout_delay_mean"] == pytest.approx(0.065)
    assert m["playout_delay_max"] == pytest.approx(0.065)
    assert m["after_jitter"] == 0


def test_fixed_playout_anchored_at_first_arrival():
    trace = trace_a()
    # first packet arrives at 50 ms: slots start at 50 + 20 ms and follow the send times
    schedule = FixedPlayout(0.02, anchor="first_arrival").schedule(trace)
    np.testing.assert_allclose(schedule.slot, [0.07, 0.09, 0.11, 0.13, 0.15])
    m = evaluate(trace, schedule)
    assert (m["played"], m["late"]) == (4, 0)  # packet 4 arrives exactly on time


def test_fixed_playout_rejects_bad_arguments():
    with pytest.raises(ValueError, match=">= 0"):
        FixedPlayout(-0.01)
    with pytest.raises(ValueError, match="anchor"):
        FixedPlayout(0.1, anchor="receiver")


# ---------------------------------------------------------------- adaptive (Ramjee alg. 1)


def test_talkspurt_segments_by_gap_and_resync():
    send = [0, 0.02, 0.04, 0.06, 0.08, 0.5, 0.52]
    np.testing.assert_array_equal(talkspurt_segments(send, 0.03), [0, 0, 0, 0, 0, 1, 1])
    np.testing.assert_array_equal(
        talkspurt_segments(send, 0.03, resync_interval=0.05), [0, 0, 0, 1, 1, 2, 2]
    )


def test_adaptive_playout_by_hand():
    # two talkspurts; arrival order 0, 2, 1, 3; packet 4 lost
    trace = VoiceTrace(
        seq=[0, 1, 2, 3, 4],
        send=[0.0, 0.02, 0.04, 1.0, 1.02],
        arrival=[0.10, 0.14, 0.13, 1.08, NAN],
        frame_interval=FRAME,
    )
    policy = AdaptivePlayout(alpha=0.5, beta=4.0)
    order, d, v = policy.estimates(trace)
    np.testing.assert_array_equal(order, [0, 2, 1, 3])
    # n = 100, 90, 120, 80 ms; d = .5 d + .5 n; v = .5 v + .5 |d - n|
    np.testing.assert_allclose(d, [0.10, 0.095, 0.1075, 0.09375])
    np.testing.assert_allclose(v, [0.0, 0.0025, 0.0075, 0.010625], atol=1e-15)
    schedule = policy.schedule(trace)
    # talkspurt 1: delay d + 4v at packet 0 = 100 ms; talkspurt 2: at packet 3 = 136.25 ms
    np.testing.assert_allclose(schedule.slot, [0.10, 0.12, 0.14, 1.13625, 1.15625])
    m = evaluate(trace, schedule)
    assert (m["played"], m["late"], m["received"]) == (3, 1, 4)  # packet 1 (140 > 120 ms) late
    assert m["playout_delay_mean"] == pytest.approx((0.10 + 0.10 + 0.13625) / 3)


def test_adaptive_estimates_equal_the_recursion_with_ramjee_alpha():
    rng = np.random.default_rng(7)
    n = 400
    send = np.arange(n) * FRAME
    delay = 0.05 + rng.exponential(0.01, n)
    arrival = np.where(rng.random(n) < 0.05, np.nan, send + delay)
    trace = VoiceTrace(np.arange(n), send, arrival, FRAME)
    order, d, v = AdaptivePlayout(initial_variation=0.002).estimates(trace)
    a = RAMJEE_ALPHA
    dd, vv = arrival[order[0]] - send[order[0]], 0.002
    for k, i in enumerate(order):
        ni = arrival[i] - send[i]
        dd = a * dd + (1 - a) * ni
        vv = a * vv + (1 - a) * abs(dd - ni)
        assert d[k] == pytest.approx(dd, abs=1e-12)
        assert v[k] == pytest.approx(vv, abs=1e-12)


def test_adaptive_playout_with_nothing_received():
    trace = VoiceTrace([0, 1], [0, 0.02], [NAN, NAN], FRAME)
    m = evaluate(trace, AdaptivePlayout().schedule(trace))
    assert (m["played"], m["late"], m["total_loss_rate"]) == (0, 0, 1.0)


# ---------------------------------------------------------------- CJM


def trace_c() -> VoiceTrace:
    """Six packets; packet 3 lost; chunks of two packets."""
    return VoiceTrace(
        seq=[0, 1, 2, 3, 4, 5],
        send=[0.0, 0.02, 0.04, 0.06, 0.08, 0.10],
        arrival=[0.05, 0.07, 0.09, NAN, 0.13, 0.16],
        frame_interval=FRAME,
        size=[172] * 6,
    )


def test_cjm_chunks_close_play_in_order_and_pad():
    trace = trace_c()
    schedule = ChunkPlayout(chunk_packets=2, buffer_chunks=100).schedule(trace)
    # chunk 0 complete at 70 ms; chunk 1 closed by packet 4 (130 ms); chunk 2 complete
    # at 160 ms but read only when chunk 1 (read at 130 ms, 40 ms of audio) has played: 170 ms
    np.testing.assert_allclose(schedule.details["chunk_close_time"], [0.07, 0.13, 0.16])
    np.testing.assert_allclose(schedule.details["chunk_read_time"], [0.07, 0.13, 0.17])
    np.testing.assert_allclose(schedule.slot, [0.07, 0.09, 0.13, 0.15, 0.17, 0.19])
    np.testing.assert_allclose(schedule.deadline, [0.07, 0.07, 0.13, 0.13, 0.17, 0.17])
    assert schedule.details["padded_packets"] == 1  # the lost packet 3
    # 3 chunks x 2 x 576 bytes of buffer, 5 x 172 carried
    assert schedule.details["padding_bytes"] == 3 * 2 * 576 - 5 * 172
    m = evaluate(trace, schedule)
    assert (m["played"], m["late"]) == (5, 0)
    assert m["playout_delay_mean"] == pytest.approx((0.07 + 0.07 + 0.09 + 0.09 + 0.09) / 5)
    # after playout: transit 70, 70, 90, 90, 90 ms -> one 20 ms step in RFC 3550 jitter
    j = [0, 0, 0.02 / 16, 0.02 / 16 * 15 / 16, 0.02 / 16 * (15 / 16) ** 2]
    assert m["after_jitter"] == pytest.approx(sum(j) / 5)


def test_cjm_packet_overtaken_by_next_chunk_is_late():
    trace = VoiceTrace([0, 1, 2, 3], [0, 0.02, 0.04, 0.06], [0.05, 0.20, 0.08, 0.09], FRAME)
    schedule = ChunkPlayout(chunk_packets=2).schedule(trace)
    # chunk 0 is closed when packet 2 (chunk 1) arrives at 80 ms; packet 1 comes at 200 ms
    np.testing.assert_allclose(schedule.details["chunk_read_time"], [0.08, 0.12])
    np.testing.assert_allclose(schedule.slot, [0.08, 0.10, 0.12, 0.14])
    m = evaluate(trace, schedule)
    assert (m["played"], m["late"]) == (3, 1)


def test_cjm_waits_for_start_chunks():
    schedule = ChunkPlayout(chunk_packets=2, start_chunks=2).schedule(trace_c())
    # playout starts when chunks 0 and 1 are both complete (130 ms)
    np.testing.assert_allclose(schedule.details["chunk_read_time"], [0.13, 0.17, 0.21])


def test_cjm_buffer_overflow_refuses_a_chunk():
    # a burst after a stall (as TCP delivers): four one-packet chunks arrive at 200 ms,
    # the buffer holds two chunks; chunk 0 is read at once, 1 and 2 wait, 3 is refused
    trace = VoiceTrace([0, 1, 2, 3], [0, 0.02, 0.04, 0.06], [0.2] * 4, FRAME)
    schedule = ChunkPlayout(chunk_packets=1, buffer_chunks=2).schedule(trace)
    np.testing.assert_array_equal(schedule.dropped, [False, False, False, True])
    assert schedule.details["overflow_chunks"] == 1
    assert schedule.details["max_occupancy_chunks"] == 2
    m = evaluate(trace, schedule)
    assert (m["played"], m["late"]) == (3, 1)


def test_cjm_single_packet_chunks_never_wait_longer_than_needed():
    # one-packet chunks: a packet plays on arrival unless its predecessor is still playing
    trace = trace_a()
    schedule = ChunkPlayout(chunk_packets=1).schedule(trace)
    # lags (read - send): 50, 60, 60 (lost packet 2 closed at 90 ms), 60, 70 ms
    np.testing.assert_allclose(schedule.slot, [0.05, 0.08, 0.10, 0.12, 0.15])
    assert evaluate(trace, schedule)["played"] == 4


def test_cjm_seed_buffer_is_2_88_megabytes():
    assert ChunkPlayout().buffer_bytes == 2_880_000


def test_cjm_rejects_bad_arguments():
    with pytest.raises(ValueError, match="chunk_packets"):
        ChunkPlayout(chunk_packets=0)
    with pytest.raises(ValueError, match="start_chunks"):
        ChunkPlayout(buffer_chunks=2, start_chunks=3)


def test_adaptive_margin_is_added_to_every_playout_delay():
    trace = trace_a()
    plain = AdaptivePlayout(alpha=0.5).schedule(trace)
    padded = AdaptivePlayout(alpha=0.5, margin=0.01).schedule(trace)
    np.testing.assert_allclose(padded.slot - plain.slot, 0.01)
    with pytest.raises(ValueError, match="margin"):
        AdaptivePlayout(margin=-0.001)
