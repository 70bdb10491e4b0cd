"""Metrics against hand-computed values, and the AWK ports against the seed's own scripts."""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from transportlab.models import metrics

SEED_004 = "004_c8175ad9bda103cf.txt"


def _records(sent, received, flow=1):
    """A frame shaped like PacketRecorder.to_frame().

    sent: [(seq, time, size)], received: [(seq, time, size, sent_time)].
    """
    rows = [("sent", flow, seq, size, time, time) for seq, time, size in sent]
    rows += [("received", flow, seq, size, time, sent) for seq, time, size, sent in received]
    frame = pd.DataFrame(rows, columns=["event", "flow", "seq", "size", "time", "sent_time"])
    frame = frame.sort_values("time", kind="mergesort").reset_index(drop=True)
    frame["event"] = pd.Categorical(frame["event"], categories=["sent", "received"])
    frame["delay"] = np.where(
        frame["event"] == "received", frame["time"] - frame["sent_time"], np.nan
    )
    return frame


# Six 1000-byte packets sent every 100 ms from t = 0; packet 4 is lost and
# packets 2 and 3 arrive in swapped order.
#   seq  sent  received  one-way delay
#   0    0.0   0.15      0.15
#   1    0.1   0.30      0.20
#   2    0.2   0.45      0.25
#   3    0.3   0.40      0.10
#   4    0.4   -         lost
#   5    0.5   0.70      0.20
SENT = [(i, i / 10, 1000) for i in range(6)]
RECEIVED = [(0, 0.15, 1000, 0.0), (1, 0.30, 1000, 0.1), (3, 0.40, 1000, 0.3),
            (2, 0.45, 1000, 0.2), (5, 0.70, 1000, 0.5)]  # fmt: skip


@pytest.fixture
def trace():
    return _records(SENT, RECEIVED)


def test_average_throughput(trace):
    # 5 packets x 1000 B arrive in (0, 0.7] (start = first send, end = last arrival):
    # 40000 bit / 0.7 s.
    assert metrics.average_throughput(trace) == pytest.approx(40000 / 0.7)
    # (0.3, 0.7] holds the arrivals at 0.40, 0.45, 0.70: 24000 bit / 0.4 s.
    assert metrics.average_throughput(trace, start=0.3, end=0.7) == pytest.approx(60000.0)
    # Plain arrays (received packets only): start defaults to the first arrival,
    # which falls outside (start, end]: 4 packets over 0.55 s.
    arrays = {"time": [0.15, 0.30, 0.40, 0.45, 0.70], "size": [1000] * 5}
    assert metrics.average_throughput(arrays) == pytest.approx(32000 / 0.55)


def test_throughput_series(trace):
    # Windows (0, .25], (.25, .5], (.5, .7]: 1000, 3000, 1000 bytes; the last
    # window is 0.2 s long.
    series = metrics.throughput_series(trace, 0.25, start=0.0, end=0.7)
    assert series["start"].tolist() == pytest.approx([0.0, 0.25, 0.5])
    assert series["end"].tolist() == pytest.approx([0.25, 0.5, 0.7])
    assert series["bytes"].tolist() == [1000, 3000, 1000]
    assert series["throughput"].tolist() == pytest.approx([32000, 96000, 40000])


def test_throughput_per_flow_and_errors(trace):
    other = _records([(0, 0.0, 500)], [(0, 0.5, 500, 0.0)], flow=2)
    both = pd.concat([trace, other], ignore_index=True)
    assert metrics.average_throughput(both, flow=2, start=0, end=1) == pytest.approx(4000)
    assert metrics.average_throughput(both, flow=1) == pytest.approx(40000 / 0.7)
    with pytest.raises(ValueError, match="window"):
        metrics.throughput_series(trace, 0)
    with pytest.raises(ValueError, match="after start"):
        metrics.average_throughput(trace, start=1.0, end=0.5)
    with pytest.raises(ValueError, match="size"):
        metrics.average_throughput({"time": [1.0]})
    with pytest.raises(ValueError, match="start= and end="):
        metrics.average_throughput(trace, flow=7)
    with pytest.raises(TypeError):
        metrics.average_throughput([1.0, 2.0])


def test_one_way_delay_and_loss(trace):
    delay = metrics.one_way_delay(trace)
    # Arrival order, indexed by seq.
    assert delay.index.tolist() == [0, 1, 3, 2, 5]
    assert delay.tolist() == pytest.approx([0.15, 0.20, 0.10, 0.25, 0.20])
    # Packet 4 of 6 is lost.
    assert metrics.loss_ratio(trace) == pytest.approx(1 / 6)
    # Only packets sent by 0.35 s (seq 0-3, all delivered): no loss.
    assert metrics.loss_ratio(trace, sent_before=0.35) == 0.0
    assert metrics.loss_ratio(sent=10, received=7) == pytest.approx(0.3)
    with pytest.raises(ValueError, match="received must be"):
        metrics.loss_ratio(sent=10, received=11)
    with pytest.raises(ValueError, match="not both"):
        metrics.loss_ratio(trace, sent=1, received=1)
    with pytest.raises(ValueError, match="no sent packets"):
        metrics.loss_ratio(trace[trace["event"] == "received"])


def test_rfc3550_jitter(trace):
    # Transit times in arrival order 0.15, 0.20, 0.10, 0.25, 0.20, so
    # |D(i-1, i)| = 0.05, 0.10, 0.15, 0.05 and J += (|D| - J) / 16:
    #   J1 = 0.05/16                          = 0.003125
    #   J2 = 0.003125 + (0.10 - 0.003125)/16  = 0.0091796875
    #   J3 = J2 + (0.15 - J2)/16              = 0.01798095703125
    #   J4 = J3 + (0.05 - J3)/16              = 0.019982147216796875
    expected = [0.0, 0.003125, 0.0091796875, 0.01798095703125, 0.019982147216796875]
    series = metrics.rfc3550_jitter_series(trace)
    assert series.tolist() == pytest.approx(expected, rel=1e-12)
    assert series.index.tolist() == [0, 1, 3, 2, 5]
    assert metrics.rfc3550_jitter(trace) == pytest.approx(expected[-1], rel=1e-12)
    # The same from a plain array of delays; a constant clock offset cancels.
    delays = np.array([0.15, 0.20, 0.10, 0.25, 0.20])
    assert metrics.rfc3550_jitter(delays + 3.0) == pytest.approx(expected[-1], rel=1e-9)
    assert metrics.rfc3550_jitter([0.1]) == 0.0
    assert np.isnan(metrics.rfc3550_jitter([]))
    with pytest.raises(ValueError, match="flow="):
        metrics.rfc3550_jitter(delays, flow=1)
    with pytest.raises(ValueError, match="finite"):
        metrics.rfc3550_jitter([0.1, np.nan, 0.2])


def test_ipdv_consecutive_packets(trace):
    # Delays by seq: 0:.15 1:.20 2:.25 3:.10 4:lost 5:.20. Consecutive pairs
    # (0,1) +.05, (1,2) +.05, (2,3) -.15; (3,4) and (4,5) are undefined.
    variation = metrics.ipdv(trace)
    assert variation.index.tolist() == [1, 2, 3]
    assert variation.tolist() == pytest.approx([0.05, 0.05, -0.15])
    # Array form: delays in sending order, NaN = lost.
    array = metrics.ipdv([0.15, 0.20, 0.25, 0.10, np.nan, 0.20])
    assert array.index.tolist() == [1, 2, 3]
    assert array.tolist() == pytest.approx([0.05, 0.05, -0.15])


def test_jain_index():
    assert metrics.jain_index([5, 5, 5, 5]) == pytest.approx(1.0)
    assert metrics.jain_index([1, 0, 0, 0]) == pytest.approx(0.25)
    # (1 + 2 + 3)^2 / (3 * (1 + 4 + 9)) = 36 / 42
    assert metrics.jain_index(pd.Series([1.0, 2.0, 3.0])) == pytest.approx(36 / 42)
    for bad in ([], [0, 0], [1, -1], [1, np.nan]):
        with pytest.raises(ValueError):
            metrics.jain_index(bad)


# ---------------------------------------------------------------------------
# The AWK definitions of seed 004, on a hand-computed trace.
#
#   seq  sent  received  size         notes
#   0    1.00  1.10      1000
#   1    1.05  1.30      1000
#   2    1.10  1.25      1000         arrives before packet 1
#   3    1.20  1.60      1040         header stripped to 1000
#   4    1.30  7.00      1000         5.4-s gap >= 10 tic: gap markers
#   5    7.10  7.40      1000         last window never closes
#   6    7.20  7.45      40           an ACK-sized packet: filtered (size < pkt)
# tic = 0.5 s, pkt = 1000 B; the trace starts at 1.00 (first send).
AWK_SENT = [(0, 1.00, 1000), (1, 1.05, 1000), (2, 1.10, 1000), (3, 1.20, 1040),
            (4, 1.30, 1000), (5, 7.10, 1000), (6, 7.20, 40)]  # fmt: skip
AWK_RECEIVED = [(0, 1.10, 1000, 1.00), (2, 1.25, 1000, 1.10), (1, 1.30, 1000, 1.05),
                (3, 1.60, 1040, 1.20), (4, 7.00, 1000, 1.30), (5, 7.40, 1000, 7.10),
                (6, 7.45, 40, 7.20)]  # fmt: skip


@pytest.fixture
def awk_trace():
    return _records(AWK_SENT, AWK_RECEIVED)


def _rows(series):
    return [(t, v, m) for t, v, m in series.itertuples(index=False)]


def test_awk_throughput_hand_computed(awk_trace):
    # Arrival order; prevTime starts at 1.00. currTime: .10, .25, .30, then .60 at
    # t=1.60 >= tic: 4000 B / 0.6 s * 8/1000 = 53.333 kbit/s. At t=7.00 the gap 5.4
    # >= 10 tic prints markers at 1.60+1 and 7.00-1, then 1000 B / 5.4 s * 8/1000.
    # t=7.40 leaves currTime at .4 < tic: not printed.
    series = metrics.awk_throughput_series(awk_trace, tic=0.5, pkt=1000)
    rows = _rows(series)
    assert [m for _, _, m in rows] == [False, True, True, False]
    assert [t for t, _, _ in rows] == pytest.approx([1.60, 2.60, 6.00, 7.00])
    assert [v for _, v, _ in rows] == pytest.approx([4000 / 0.6 * 0.008, 0, 0, 1000 / 5.4 * 0.008])
    assert series.attrs["unit"] == "kbps"
    # The table entry: mean of the printed values without the markers.
    expected = (4000 / 0.6 * 0.008 + 1000 / 5.4 * 0.008) / 2  # 27.407 kbit/s
    assert metrics.awk_table_average(series) == pytest.approx(expected)
    assert metrics.awk_table_average(series, include_gap_markers=True) == pytest.approx(
        expected / 2
    )
    # When the trace starts earlier (another flow's first line at 0.60), the first
    # window already closes at the first arrival, 1.10: 1000 B / 0.5 s * 8/1000.
    earlier = metrics.awk_throughput_series(awk_trace, tic=0.5, pkt=1000, trace_start=0.6)
    assert earlier["time"].iloc[0] == pytest.approx(1.10)
    assert earlier["value"].iloc[0] == pytest.approx(16.0)


def test_awk_jitter_and_delay_hand_computed(awk_trace):
    # Id order 0..5: recv 1.10 1.30 1.25 1.60 7.00 7.40, one-way delay (e2e)
    # .10 .25 .15 .40 5.70 .30.
    #  id0: tmp_recv=1, only sets prev_time.
    #  id1: tmp_recv=2, gap .20, no jitter term yet (prev_delay = -1), currTime .20.
    #  id2: tmp_recv=3, gap 1.25-1.30 < 0 -> 0, jitter += |.15-.25| = .10, currTime .20.
    #  id3: tmp_recv=4, gap .35, jitter += |.40-.15| -> .35, currTime .55 >= tic:
    #       jitter prints .35*1000/4 = 87.5 ms, delay prints the gap .35 s; reset.
    #  id4: tmp_recv=1, gap 5.40 >= 10 tic: markers at 2.60 and 6.00; jitter
    #       += |5.70-.40| = 5.30 -> prints 5300 ms; delay prints 5.40 s.
    #  id5: gap .40 < tic: nothing more printed.
    jitter = metrics.awk_jitter_series(awk_trace, tic=0.5, pkt=1000)
    delay = metrics.awk_delay_series(awk_trace, tic=0.5, pkt=1000)
    for series in (jitter, delay):
        assert series["time"].tolist() == pytest.approx([1.60, 2.60, 6.00, 7.00])
        assert series["gap_marker"].tolist() == [False, True, True, False]
    assert jitter["value"].tolist() == pytest.approx([87.5, 0, 0, 5300])
    assert delay["value"].tolist() == pytest.approx([0.35, 0, 0, 5.40])
    # "delay" is an inter-arrival gap: .35 s where the one-way delay of id 3 is .40 s.
    assert metrics.awk_table_average(jitter) == pytest.approx((87.5 + 5300) / 2)
    assert metrics.awk_table_average(delay) == pytest.approx((0.35 + 5.40) / 2)
    table = metrics.awk_table_averages(awk_trace, tic=0.5, pkt=1000).set_index("metric")
    assert table.loc["awk_delay", "unit"] == "s"
    assert table.loc["awk_jitter", "value"] == pytest.approx(2693.75)
    assert table.loc["awk_throughput", "unit"] == "kbps"


def test_awk_negative_gap_is_clamped():
    # ids 0..3 sent at .9 1.0 1.1 1.2, received at 1.0 2.0 1.5 2.2 (id 2 overtook
    # nothing but arrived before id 1). Gaps in id order: 1.0, -0.5 -> 0, 0.7, so
    # currTime reaches 1.7 >= tic = 1.5 at id 3 (unclamped it would be 1.2: no
    # output). One-way delays .1 1.0 .4 1.0: jitter terms |.4-1.0| + |1.0-.4| = 1.2 s
    # over 4 packets = 300 ms; "delay" prints id 3's gap, 0.7 s.
    frame = _records(
        [(0, 0.9, 1000), (1, 1.0, 1000), (2, 1.1, 1000), (3, 1.2, 1000)],
        [(0, 1.0, 1000, 0.9), (2, 1.5, 1000, 1.1), (1, 2.0, 1000, 1.0), (3, 2.2, 1000, 1.2)],
    )
    jitter = metrics.awk_jitter_series(frame, tic=1.5, pkt=1000)
    delay = metrics.awk_delay_series(frame, tic=1.5, pkt=1000)
    assert _rows(jitter) == [(pytest.approx(2.2), pytest.approx(300.0), False)]
    assert _rows(delay) == [(pytest.approx(2.2), pytest.approx(0.7), False)]


def test_awk_send_time_from_timestamp_and_errors(awk_trace):
    # A receiver-only frame: send times come from the packets' timestamps.
    received_only = awk_trace[awk_trace["event"] == "received"]
    pd.testing.assert_frame_equal(
        metrics.awk_jitter_series(received_only, tic=0.5, pkt=1000),
        metrics.awk_jitter_series(awk_trace, tic=0.5, pkt=1000),
    )
    for bad in ({"tic": 0, "pkt": 1000}, {"tic": 0.5, "pkt": 0}, {"tic": True, "pkt": 1000}):
        with pytest.raises(ValueError):
            metrics.awk_jitter_series(awk_trace, **bad)
    duplicate = pd.concat([awk_trace, awk_trace[awk_trace["seq"] == 2].tail(1)])
    with pytest.raises(ValueError, match="more than once"):
        metrics.awk_delay_series(duplicate, tic=0.5, pkt=1000)
    negative = awk_trace.assign(seq=awk_trace["seq"] - 1)
    with pytest.raises(ValueError, match="non-negative integers"):
        metrics.awk_delay_series(negative, tic=0.5, pkt=1000)


# ---------------------------------------------------------------------------
# NS-2 traces and the original scripts


def _ns2_lines(rng: np.random.Generator) -> list[str]:
    """A synthetic NS-2 wired trace (normal format) exercising every branch of the scripts.

    Flow of interest: node 2 -> 12 via routers 0 and 1; a competing flow 3 -> 13
    with interleaved packet ids, all with flow id 0 as in the seed's Tcl
    scripts; 40-B ACKs back from 12 to 2; drops; a 40-B handshake; SCTP-sized
    1500-B packets (1500 % 1000 = 500 B stripped); reordering (a lower id
    arriving later: a negative gap); idle periods longer than 10 tic.
    """
    events: list[tuple[float, int, str]] = []
    order = 0

    def add(time, text):
        nonlocal order
        events.append((round(time, 6), order, text))
        order += 1

    # An unrelated first line: the throughput script starts counting time here.
    add(0.5, "+ 0.5 7 0 cbr 1000 ------- 0 7.0 17.0 0 0")
    uid = 1
    t = 1.0
    for n in range(1000):
        t += rng.exponential(0.02)
        if n in (150, 300, 700):
            t += 6.0  # an idle period > 10 tic
        for src, dst, kind in ((2, 12, "tcp"), (3, 13, "tcp")):
            size = 40 if n == 0 else (1500 if n % 7 == 3 else 1040)
            send = t + rng.uniform(0, 0.005)
            add(send, f"+ {send:.6f} {src} 0 {kind} {size} ------- 0 {src}.0 {dst}.0 {n} {uid}")
            add(
                send + 0.001,
                f"- {send + 0.001:.6f} {src} 0 {kind} {size} ------- 0 {src}.0 {dst}.0 {n} {uid}",
            )
            if rng.random() < 0.05:
                add(
                    send + 0.02,
                    f"d {send + 0.02:.6f} 0 1 {kind} {size} ------- 0 {src}.0 {dst}.0 {n} {uid}",
                )
            else:
                hop = send + 0.05 + rng.exponential(0.05)
                add(hop, f"r {hop:.6f} 0 1 {kind} {size} ------- 0 {src}.0 {dst}.0 {n} {uid}")
                arrive = hop + 0.03 + rng.exponential(0.1)
                if n % 50 == 10:
                    arrive += 0.4  # overtaken by later packets: a negative gap in id order
                add(
                    arrive,
                    f"r {arrive:.6f} 1 {dst} {kind} {size} ------- 0 {src}.0 {dst}.0 {n} {uid}",
                )
                ack = arrive + 0.001
                add(ack, f"+ {ack:.6f} {dst} 1 ack 40 ------- 0 {dst}.0 {src}.0 {n} {uid + 100000}")
                back = ack + 0.15
                add(
                    back,
                    f"r {back:.6f} 0 {src} ack 40 ------- 0 {dst}.0 {src}.0 {n} {uid + 100000}",
                )
            uid += 1
    return [text for _, _, text in sorted(events)]


def test_read_ns2_trace_selects_like_the_scripts():
    lines = [
        "+ 1.0 2 0 tcp 1040 ------- 0 2.0 12.0 0 5",
        "- 1.001 2 0 tcp 1040 ------- 0 2.0 12.0 0 5",  # dequeue: not a send
        "r 1.2 1 12 tcp 1040 ------- 0 2.0 12.0 0 5",
        "r 1.3 1 12 tcp 1040 ------- 1 2.0 12.0 0 6",  # another flow id
        "+ 1.4 12 1 ack 40 ------- 0 12.0 2.0 0 7",  # at dst, but a '+'
        "h 1.5 2 0 tcp 1040 ------- 0 2.0 12.0 1 8",  # keeps node 12 of the line before
        "r 1.6 1 12 tcp 1040 ------- 0 2.0 12.0 1 8",
    ]
    frame = metrics.read_ns2_trace(lines, src=2, dst=12, flow_id=0)
    assert frame["event"].tolist() == ["sent", "received", "received"]
    assert frame["seq"].tolist() == [5, 5, 8]
    assert frame["time"].tolist() == [1.0, 1.2, 1.6]
    assert frame.attrs["trace_start"] == 1.0
    with pytest.raises(ValueError, match="line 1"):
        metrics.read_ns2_trace(["r x 1 12 tcp 1040 ------- 0 2.0 12.0 0 5"], src=2, dst=12)


def _seeds_dir() -> Path | None:
    """The seed texts: $TRANSPORTLAB_SEEDS, or a ``shared/seeds`` folder beside a parent."""
    if os.environ.get("TRANSPORTLAB_SEEDS"):
        return Path(os.environ["TRANSPORTLAB_SEEDS"])
    for folder in Path(__file__).resolve().parents:
        if (folder / "shared" / "seeds" / SEED_004).is_file():
            return folder / "shared" / "seeds"
    return None


_TOP_LEVEL = re.compile(r"^\s*(BEGIN|END|function)\b")


def _depth_change(line: str) -> int:
    code = re.sub(r'"(\\.|[^"\\])*"', '""', line).split("#", 1)[0]
    return code.count("{") - code.count("}")


# Closing braces the PDF extraction appended at each page end of each script, as
# read off the seed text: two in the throughput script; in the jitter script one
# after the main block and three in END (whose own closing brace went missing and
# is put back by the top-level rule below); none in the delay script.
_PAGE_END_BRACES = {"throughput": [2], "jitter": [1, 3], "delay": [0]}


def _seed_awk_scripts(seed_text: str) -> tuple[dict[str, str], dict[str, int]]:
    """The three scripts of Appendix B, with the PDF-extraction damage undone.

    The seed text is a PDF extraction: each script is split into fenced code
    blocks at page breaks, long lines are wrapped (inside string literals and
    after a '-'), and at some page ends the extraction appended closing braces
    (the code after the break goes on at the depth it had). The repair: drop the
    braces of ``_PAGE_END_BRACES`` (checking they are brace-only lines), join
    wrapped lines, and close blocks still open where a BEGIN/END/function starts
    (awk allows those only at the top level). Returns the scripts and the number
    of braces inserted per script.
    """
    appendix = seed_text[seed_text.rindex("APPENDIX B: Performance Metrics Code") :]
    heads = list(re.finditer(r"^\d\.0\.? (Throughput|Jitter|Delay)\s*$", appendix, re.M))
    scripts, inserted_braces = {}, {}
    for head, following in zip(heads, [*heads[1:], None], strict=True):
        name = head.group(1).lower()
        section = appendix[head.end() : following.start() if following else None]
        chunks = re.split(r"^```\s*$", section, flags=re.M)[1::2]
        assert len(chunks) == len(_PAGE_END_BRACES[name]) + 1, name
        pages = []
        for number, chunk in enumerate(chunks):
            lines = chunk.strip("\n").splitlines()
            if number < len(chunks) - 1:
                for _ in range(_PAGE_END_BRACES[name][number]):
                    while not lines[-1].strip():
                        lines.pop()
                    assert lines.pop().strip() == "}", f"{name}: page {number} does not end in '}}'"
            pages.extend(lines)
        joined: list[str] = []
        for line in pages:
            if joined and (joined[-1].count('"') % 2 or joined[-1].rstrip().endswith("-")):
                joined[-1] = joined[-1].rstrip() + " " + line.strip()
            else:
                joined.append(line)
        depth, inserted, out = 0, 0, []
        for line in joined:
            if _TOP_LEVEL.match(line) and depth > 0:
                out.extend(["}"] * depth)
                inserted, depth = inserted + depth, 0
            out.append(line)
            depth += _depth_change(line)
            assert depth >= 0, f"unbalanced braces in the {name} script near {line!r}"
        assert depth == 0, f"unbalanced braces at the end of the {name} script"
        scripts[name] = "\n".join(out) + "\n"
        inserted_braces[name] = inserted
    return scripts, inserted_braces


def _end_loop(script: str) -> list[str]:
    """The stripped code lines of the END block that holds the main loop."""
    lines = [line.strip() for line in script.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("for (i=0"))
    depth, body = 0, []
    for line in lines[start:]:
        body.append(line)
        depth += _depth_change(line)
        if depth == 0:
            return [line for line in body if line and not line.startswith("#")]
    raise AssertionError("unterminated loop")


def _awk_binaries() -> list[str]:
    found = []
    for name in ("gawk", "mawk", "awk"):
        path = shutil.which(name)
        if path and os.path.realpath(path) not in {os.path.realpath(p) for p in found}:
            found.append(path)
    return found


def _parse_awk_output(text: str) -> list[tuple[str, str, bool]]:
    rows = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 6:  # a gap marker: flow type src dst time 0
            rows.append((fields[4], fields[5], True))
        elif len(fields) == 2:
            rows.append((fields[0], fields[1], False))
        else:
            assert not fields, f"unexpected output line {line!r}"
    return rows


@pytest.mark.parametrize(
    "awk", _awk_binaries() or [None], ids=lambda p: Path(p).name if p else "none"
)
def test_awk_ports_equal_the_seed_scripts(awk, tmp_path):
    """Run the original Appendix B scripts with awk and compare line by line."""
    if awk is None:
        pytest.skip("no awk/gawk/mawk on this machine")
    seeds = _seeds_dir()
    if seeds is None:
        pytest.skip("seed texts not found (set TRANSPORTLAB_SEEDS to the folder of the seeds)")
    scripts, inserted = _seed_awk_scripts((seeds / SEED_004).read_text())
    assert inserted == {"throughput": 0, "jitter": 1, "delay": 0}
    # Independent check of the brace repair: the jitter and delay scripts share one
    # loop, and the delay script has no page break inside it. After the repair the
    # two loops differ only in what they print and reset.
    jitter_loop, delay_loop = _end_loop(scripts["jitter"]), _end_loop(scripts["delay"])
    diff = [
        line
        for line in difflib.unified_diff(delay_loop, jitter_loop, lineterm="", n=0)
        if line[:1] in "+-" and line[:3] not in ("---", "+++")
    ]
    assert diff == [
        "-recvTime[i],delay)",
        "+recvTime[i],jitter1*1000/tmp_recv)",
        "+jitter1=0",
    ]

    trace = tmp_path / "trace.tr"
    trace.write_text("\n".join(_ns2_lines(np.random.default_rng(4))) + "\n")
    records = metrics.read_ns2_trace(trace, src=2, dst=12, flow_id=0)
    ports = {
        "throughput": metrics.awk_throughput_series,
        "jitter": metrics.awk_jitter_series,
        "delay": metrics.awk_delay_series,
    }
    for tic in (0.2, 0.5):
        for name, port in ports.items():
            script = tmp_path / f"{name}.awk"
            script.write_text(scripts[name])
            variables = ["-v", "flow=0", "-v", "src=2", "-v", "dst=12", "-v", "pkt=1000"]
            result = subprocess.run(
                [awk, *variables, "-v", f"tic={tic}", "-f", str(script), str(trace)],
                capture_output=True, text=True, check=True, timeout=60,
            )  # fmt: skip
            expected = _parse_awk_output(result.stdout)
            series = port(records, tic=tic, pkt=1000)
            ours = [(f"{t:g}", f"{v:g}", m) for t, v, m in series.itertuples(index=False)]
            assert len(expected) > 20 and sum(m for _, _, m in expected) >= 4
            assert ours == expected, f"{name}, tic={tic}, {awk}"
