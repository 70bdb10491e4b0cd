"""The wire evidence of the interleaving differences (``sctp_validation.wire`` and the
checks of ``interleaving.compare_frames``): hand-built wire tables whose numbers are known,
each named difference explained only when its measured check holds, and the two stacks'
wire tables from real runs."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tests.sctp._support import needs_tshark, tshark_fields
from tests.validation.conftest import needs_oracle
from transportlab.studies.sctp_validation import interleaving as il
from transportlab.studies.sctp_validation import wire

# ---------------------------------------------------------------- hand-built tables


def build_wire(sends, sacks=(), drops=(), t3=(), cwnd=()):
    """A wire table from ``sends``: (time, stream, message, chunks[, first TSN]) in order;
    TSNs are numbered on from the last unless given (a retransmission gives its TSN), one
    packet per send."""
    rows, tsn = [], 0
    for packet, send in enumerate(sends, start=3):
        time, stream, message, count = send[:4]
        first = send[4] if len(send) > 4 else tsn
        for k in range(count):
            flags = (2 if k == 0 else 0) | (1 if k == count - 1 else 0)
            rows.append((time, "chunk", packet, first + k, stream, flags, message, 1452))
        if len(send) == 4:
            tsn = first + count
    rows += [(t, "sack", 0, cum, -1, -1, -1, -1) for t, cum in sacks]
    rows += [(t, "drop", 0, -1, -1, -1, -1, 1500) for t in drops]
    rows += [(t, "t3", 0, -1, -1, -1, -1, -1) for t in t3]
    rows += [(t, "cwnd", 0, -1, -1, -1, -1, c) for t, c in cwnd]
    frame = pd.DataFrame(rows, columns=list(il.WIRE_COLUMNS))
    return frame.sort_values("time_s", kind="stable", ignore_index=True)


def build_messages(delivered: dict, complete=True, idata=False):
    """Messages delivered: ``{id: time}`` (small ids from ``SMALL_ID0``, bulk 0..)."""
    f = pd.DataFrame(
        {
            "id": list(delivered),
            "stream": [1 if i >= il.SMALL_ID0 else 0 for i in delivered],
            "delivered_s": list(delivered.values()),
            "written_s": [0.0] * len(delivered),
        }
    ).sort_values("delivered_s", ignore_index=True)
    f.attrs["idata"], f.attrs["complete"] = idata, complete
    return f


def small(k: int) -> int:
    return il.SMALL_ID0 + k


def test_wire_functions_on_a_hand_built_table():
    # bulk message 0 (3 chunks), small 0 inside it (a DATA violation), bulk 0 again,
    # then TSN 1 retransmitted
    w = build_wire(
        [(0.1, 0, 0, 2), (0.2, 1, 0, 1), (0.3, 0, 0, 1), (0.4, 0, 0, 1, 1)],
        sacks=[(0.15, 0), (0.5, 0), (0.6, 0)],
        drops=[0.1],
        t3=[0.9],
    )
    assert wire.retransmitted_chunks(w) == 1
    assert wire.queue_drops(w) == 1
    runs = wire.stream_runs(w)
    assert runs.stream.tolist() == [0, 1, 0]
    assert runs.chunks.tolist() == [2, 1, 1]
    assert wire.small_runs_between_bulk(w) == [0, 1, 0]
    bulk = wire.bulk_messages(w)
    assert bulk.first_tsn.tolist() == [0] and bulk.last_tsn.tolist() == [3]
    assert bulk.foreign.tolist() == [1]
    stall = wire.ack_stall(w)
    assert stall == {
        "cum_ack": 0,
        "since_s": 0.15,
        "next_sent": 2,
        "sacks_after": 2,
        "highest_tsn": 3,
        "t3": 1,
    }
    timing = wire.small_timing(w, build_messages({small(0): 0.25}), il.due_s)
    assert timing.sender_wait_s.tolist() == pytest.approx([0.2])  # due at 0
    assert timing.link_s.tolist() == pytest.approx([0.05])
    assert wire.packet_streams(w).max() == 1
    # TSN 2 (small 0) splits bulk message 0: TSN 3 cannot join it
    assert wire.stranded_fragments(w, 3) == 1
    assert wire.stranded_fragments(w, 2) == 0
    assert wire.undelivered_fragments_below(w, 3) == 3


def _stall_pair(split: bool):
    """usrsctp: small message 0 takes TSN 2 inside bulk message 0 (``split``), the
    cumulative ack stops at 1 and TSN 2 is sent three times; the model sends the bulk
    message whole and delivers everything."""
    if split:
        u_sends = [(0.05, 0, 0, 2), (0.06, 1, 0, 1), (0.07, 0, 0, 2), (1.1, 1, 0, 1, 2)]
    else:
        u_sends = [(0.05, 0, 0, 4), (0.06, 1, 0, 1), (1.1, 1, 0, 1, 4)]
    uw = build_wire(
        u_sends + [(3.1, 1, 0, 1, 2 if split else 4)],
        sacks=[(0.07, 1), (0.2, 1), (1.2, 1)],
        t3=[1.1, 3.1],
    )
    u = build_messages({}, complete=False)
    mw = build_wire([(0.05, 0, 0, 4), (0.3, 1, 0, 1)], sacks=[(0.4, 4)])
    m = build_messages({0: 0.2, **{small(k): 0.4 + k * 0.02 for k in range(il.SMALL_COUNT)}})
    return uw, u, mw, m


def test_the_rr_packet_stall_is_explained_only_by_a_split_data_message():
    case = il.CASES["il_data_rr_packet_noloss"]
    uw, u, mw, m = _stall_pair(split=True)
    row = il.compare_frames(case, u, m, uw, mw)
    assert row["verdict"] == "explained"
    assert row["explained_by"] == "usrsctp_rr_packet_data_stall"
    assert "gave 1 TSNs of small messages" in row["evidence"]
    assert "stopped at 1" in row["evidence"] and "TSN 2 was sent 3 times" in row["evidence"]
    # the same stall without a split message: not this cause
    uw, u, mw, m = _stall_pair(split=False)
    assert il.compare_frames(case, u, m, uw, mw)["verdict"] == "differs"
    # and without wire tables nothing is explained
    assert il.compare_frames(case, u, m)["verdict"] == "differs"


def _rr_pair(model_first_turn: int, tail_gap: float):
    """Round robin with DATA on 10 small messages: usrsctp sends small 0-2 first, bulk 0,
    small 3, bulk 1, then small 4-9; the model ``model_first_turn`` small first. The
    messages after the last bulk message arrive ``tail_gap`` s later on the model."""
    u_sends = (
        [(0.04, 1, k, 1) for k in range(3)]
        + [(0.05, 0, 0, 5), (0.3, 1, 3, 1), (0.3, 0, 1, 5)]
        + [(0.6, 1, k, 1) for k in range(4, 10)]
    )
    first = list(range(model_first_turn))
    rest = list(range(model_first_turn + 1, 10))
    m_sends = (
        [(0.04, 1, k, 1) for k in first]
        + [(0.05, 0, 0, 5), (0.3, 1, model_first_turn, 1), (0.3, 0, 1, 5)]
        + [(0.6, 1, k, 1) for k in rest]
    )
    u_del = {0: 0.3, 1: 0.6, small(0): 0.06, small(1): 0.06, small(2): 0.06, small(3): 0.32}
    u_del |= {small(k): 0.62 for k in range(4, 10)}
    m_del = {0: 0.3, 1: 0.6, small(model_first_turn): 0.32}
    m_del |= {small(k): 0.06 for k in first}
    m_del |= {small(k): 0.62 + (tail_gap if k >= 4 else 0) for k in rest}
    return build_wire(u_sends), build_messages(u_del), build_wire(m_sends), build_messages(m_del)


def test_rr_first_turn_needs_the_same_later_turns_and_tail_latency():
    case = il.CASES["il_data_rr_noloss"]
    uw, u, mw, m = _rr_pair(0, 0.0)
    row = il.compare_frames(case, u, m, uw, mw)
    assert wire.small_runs_between_bulk(uw) == [3, 1, 6]
    assert wire.small_runs_between_bulk(mw) == [0, 1, 9]
    assert row["verdict"] == "explained"
    assert "rr_first_turn" in row["explained_by"]
    assert "usrsctp [3, 1], model [0, 1]" in row["evidence"]
    # the messages sent after the last bulk message 50 ms later on the model: the start
    # does not account for the latency any more
    uw, u, mw, m = _rr_pair(0, 0.05)
    assert "rr_first_turn" not in il.compare_frames(case, u, m, uw, mw)["evidence"]
    # both start with the small stream: no first-turn difference to name
    uw, u, mw, m = _rr_pair(3, 0.0)
    assert "rr_first_turn" not in il.compare_frames(case, u, m, uw, mw)["evidence"]


def _queue_pair(model_wait: float):
    """I-DATA priority, 20 small messages each handed to the link 1 ms after it is due on
    usrsctp and ``model_wait`` s after on the model; 120 ms on usrsctp's link, 80 ms on the
    model's."""

    def one(wait, link, cwnd_peak):
        sends = [(0.04, 0, 0, 2)]
        sends += [(il.due_s(small(k)) + wait, 1, k, 1) for k in range(20)]
        sends += [(0.5, 0, 0, 2)]
        delivered = {0: 0.6}
        delivered |= {small(k): il.due_s(small(k)) + wait + link for k in range(20)}
        w = build_wire(sends, drops=[0.3] * 3, cwnd=[(0.1, cwnd_peak)])
        return w, build_messages(delivered, idata=True)

    uw, u = one(0.001, 0.120, 341184)
    mw, m = one(model_wait, 0.080, 256900)
    return uw, u, mw, m


def test_queue_delay_needs_the_same_wait_at_the_sender():
    case = il.CASES["il_idata_prio_noloss"]
    uw, u, mw, m = _queue_pair(0.001)
    row = il.compare_frames(case, u, m, uw, mw)
    assert row["verdict"] == "explained" and row["explained_by"] == "queue_delay"
    assert "on the link 0.120 / 0.080 s" in row["evidence"]
    assert "cwnd peak 341184 / 256900" in row["evidence"]
    # the model holds each small message 40 ms longer: that is the scheduler, not the queue
    uw, u, mw, m = _queue_pair(0.041)
    assert "queue_delay" not in il.compare_frames(case, u, m, uw, mw)["evidence"]


def _pace_pair(u_rtx: int):
    """DATA priority: two bulk messages each; usrsctp's first one takes 0.4 s (``u_rtx``
    chunks retransmitted in it), the model's 0.2 s. Small messages due while a bulk message
    is sent wait for its end; all others go at once."""

    def one(bulk_end, rtx):
        sends = [(0.0, 0, 0, 5)]
        sends += [(0.0 + 0.01 * i, 0, 0, 1, i) for i in range(rtx)]  # retransmissions
        sends += [(bulk_end, 0, 0, 5)]
        due = [k for k in range(10) if il.due_s(small(k)) < bulk_end]
        sends += [(bulk_end, 1, k, 1) for k in due]
        sends += [(bulk_end + 0.001, 0, 1, 5)]
        delivered = {0: bulk_end, 1: bulk_end + 0.2}
        delivered |= {small(k): bulk_end + 0.01 for k in due}
        late = [k for k in range(10) if k not in due]
        sends += [(il.due_s(small(k)) + 0.2, 1, k, 1) for k in late]
        delivered |= {small(k): il.due_s(small(k)) + 0.21 for k in late}
        return build_wire(sends), build_messages(delivered)

    uw, u = one(0.4, u_rtx)
    mw, m = one(0.2, 1)
    return uw, u, mw, m


def test_bulk_pace_needs_the_longer_message_to_have_more_retransmissions():
    case = il.CASES["il_data_prio_noloss"]
    uw, u, mw, m = _pace_pair(5)
    facts = il.wire_facts(u, uw)
    # all 10 small messages are due (by 0.18 s) before the last bulk message starts
    assert facts["due_before_last_bulk"] == 10
    assert facts["bulk_durations_s"] == pytest.approx([0.4, 0.0])
    assert facts["retransmitted_before_last_bulk"] == 5
    row = il.compare_frames(case, u, m, uw, mw)
    assert "bulk_pace" in row["evidence"]
    assert "chunks retransmitted before the last bulk message 5 / 1" in row["evidence"]
    # the later stack retransmitted less: its slower bulk is not explained by losses
    uw, u, mw, m = _pace_pair(0)
    assert "bulk_pace" not in il.compare_frames(case, u, m, uw, mw)["evidence"]


# ---------------------------------------------------------------- real runs


@needs_oracle
def test_both_wire_tables_carry_every_byte_once_and_usrsctp_rr_packet_splits_data():
    case = il.CASES["il_data_rr_packet_noloss"]
    _, uw = il.run_usrsctp_wire(case)
    _, mw = il.run_model_wire(case)
    first = wire.first_transmissions(mw)
    # every byte of the 1-MB bulk and the 50 small messages, each TSN once, TSNs 0..n-1
    assert first.bytes.sum() == il.BULK_BYTES + il.SMALL_COUNT * il.SMALL_SIZE
    assert np.array_equal(first.tsn.to_numpy(), np.arange(len(first)))
    # RFC 9260 6.9: the model's DATA fragments are consecutive, B on the first, E on the last
    bulk = wire.bulk_messages(mw)
    assert bulk.foreign.tolist() == [0, 0, 0, 0]
    b = first[first.stream == 0]
    assert (b.groupby("message").flags.first() & wire.FLAG_BEGIN).all()
    assert (b.groupby("message").flags.last() & wire.FLAG_END).all()
    # usrsctp's round robin per packet does not: small-message TSNs inside bulk messages
    assert sum(wire.bulk_messages(uw).foreign) > 0
    stall = wire.ack_stall(uw)
    assert stall["cum_ack"] < stall["highest_tsn"] and stall["t3"] >= 1


@needs_oracle
def test_the_real_cases_get_their_named_causes():
    rows = {n: il.compare(il.CASES[n]) for n in ("il_data_rr_noloss", "il_idata_prio_noloss")}
    assert rows["il_data_rr_noloss"]["verdict"] == "explained"
    assert "rr_first_turn" in rows["il_data_rr_noloss"]["explained_by"]
    assert rows["il_idata_prio_noloss"]["explained_by"] == "queue_delay"


@needs_tshark
@pytest.mark.tshark
def test_the_model_wire_table_is_what_tshark_decodes_from_the_pcap(tmp_path):
    """The model's wire table (taken at MacTx, before the queue) against tshark's decode of
    the sender device's pcap (after the queue): the same DATA / I-DATA chunks (TSN, stream,
    MID or SSN) in the same order, once the packets the full queue refused are left out."""
    for name in ("il_idata_rr_noloss", "il_data_prio_loss"):
        _, mw = il.run_model_wire(il.CASES[name], pcap_prefix=str(tmp_path / name))
        pcap = next(tmp_path.glob(f"{name}-0-*.pcap"))
        rows = tshark_fields(
            pcap, "sctp.data_tsn", "sctp.data_sid", "sctp.data_mid", "sctp.data_ssn",
            extra=("-Y", "sctp.data_tsn && ip.src == 10.1.1.1", "-E", "occurrence=a",
                   "-E", "aggregator=,"),
        )  # fmt: skip
        decoded = []
        for tsns, sids, mids, ssns in rows:
            messages = (mids or ssns).split(",")
            decoded += [
                (int(t, 0), int(s, 0), int(m, 0))
                for t, s, m in zip(tsns.split(","), sids.split(","), messages, strict=True)
            ]
        base = decoded[0][0]
        decoded = [((t - base) % (1 << 32), s, m) for t, s, m in decoded]
        c = wire.chunks(mw)
        refused = set(mw.packet[mw.kind == "drop"])
        kept = c[~c.packet.isin(refused)]
        assert decoded == list(zip(kept.tsn, kept.stream, kept.message, strict=True)), name
    assert len(refused) == 0  # the lossy case: losses at the receiver, none at the queue
