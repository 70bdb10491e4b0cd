"""Unit tests of the SCTP data structures through cppyy: TSN map (with TSN wrap-around),
reassembly and per-stream ordering, the RTO estimator and congestion window rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sctp._support import cxx  # noqa: F401  (loads ns-3 once)


@pytest.fixture(scope="module")
def ns():
    from transportlab import ns as _ns

    return _ns


def gaps(ns, tsn_map):
    import cppyy

    out = cppyy.gbl.std.vector[cppyy.gbl.std.pair["uint16_t", "uint16_t"]]()
    tsn_map.GetGapBlocks(out, 100)
    return [(int(g.first), int(g.second)) for g in out]


def test_tsn_map_across_the_wrap(ns):
    m = ns.SctpTsnMap()
    m.Initialize(0xFFFFFFFD)  # cumulative TSN 0xFFFFFFFC
    for tsn in (0xFFFFFFFD, 0x00000000, 0x00000002):
        assert m.Check(tsn) == ns.SctpTsnMap.NEW
        m.Mark(tsn)
    assert m.GetCumulativeTsn() == 0xFFFFFFFD
    assert m.GetHighestTsn() == 2
    # Offsets from 0xFFFFFFFD: TSN 0 is 3 and TSN 2 is 5 (0xFFFFFFFE, 0xFFFFFFFF, 1 missing).
    assert gaps(ns, m) == [(3, 3), (5, 5)]
    assert m.Check(0) == ns.SctpTsnMap.DUPLICATE
    assert m.Check(0xFFFFFFFD) == ns.SctpTsnMap.DUPLICATE
    for tsn in (0xFFFFFFFE, 0xFFFFFFFF, 1):
        m.Mark(tsn)
    assert m.GetCumulativeTsn() == 2 and not m.HasGaps()


def test_tsn_map_window_limit_and_growth(ns):
    m = ns.SctpTsnMap(100000)
    m.Initialize(10)
    assert m.Check(10 + 100001) == ns.SctpTsnMap.TOO_FAR
    m.Mark(10 + 9000)  # beyond the initial 4096-TSN bitmap: grows
    m.Mark(10 + 5)
    assert gaps(ns, m) == [(6, 6), (9001, 9001)]
    for tsn in range(10, 10 + 9001):
        if m.Check(tsn) == ns.SctpTsnMap.NEW:
            m.Mark(tsn)
    assert m.GetCumulativeTsn() == 10 + 9000


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(order=st.permutations(list(range(40))), start=st.sampled_from([0, 0xFFFFFFF0, 12345]))
def test_tsn_map_any_arrival_order(order, start):
    from transportlab import ns

    m = ns.SctpTsnMap()
    m.Initialize(start)
    seen = set()
    for i in order:
        m.Mark((start + i) & 0xFFFFFFFF)
        seen.add(i)
        cum = 0
        while cum in seen:
            cum += 1
        assert m.GetCumulativeTsn() == (start + cum - 1) & 0xFFFFFFFF
    assert not m.HasGaps()


def data_chunk(ns, keep, tsn, sid, ssn, flags, payload: bytes):
    """An SctpDataChunk parsed from wire bytes (it points into them: kept in ``keep``)."""
    import cppyy

    from tests.sctp._support import data_chunk as wire_chunk

    raw = bytearray(wire_chunk(tsn, payload, sid=sid, ssn=ssn, flags=flags))
    views = cppyy.gbl.std.vector[ns.SctpChunk]()
    assert ns.SctpSplitChunks(raw, len(raw), views)
    keep.append((raw, views))
    c = ns.SctpDataChunk()
    assert c.Deserialize(views[0])
    return c


@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 10_000))
def test_reassembly_in_any_order_delivers_each_stream_in_order(seed):
    """Fragmented messages on two streams arrive in random order (across the TSN wrap):
    each message comes out whole, once, and each stream in SSN order."""
    import cppyy

    from transportlab import ns

    rng = random.Random(seed)
    queue = ns.SctpReassemblyQueue()
    queue.Initialize(2)
    chunks, keep, expected = [], [], {}
    tsn = 0xFFFFFFF0  # cross the TSN wrap too
    ssn = [0, 0]  # every stream starts at SSN 0
    for _ in range(12):
        sid = rng.randrange(2)
        size = rng.randrange(1, 5000)
        payload = bytes(rng.randrange(256) for _ in range(size))
        pieces = [payload[i : i + 1000] for i in range(0, size, 1000)]
        expected[(sid, ssn[sid])] = payload
        for k, piece in enumerate(pieces):
            flags = (2 if k == 0 else 0) | (1 if k == len(pieces) - 1 else 0)
            chunks.append(data_chunk(ns, keep, tsn & 0xFFFFFFFF, sid, ssn[sid], flags, piece))
            tsn += 1
        ssn[sid] = (ssn[sid] + 1) & 0xFFFF
    rng.shuffle(chunks)
    out = cppyy.gbl.std.deque[ns.SctpReceivedMessage]()
    for c in chunks:
        assert queue.Add(c, out)
    assert queue.GetBufferedBytes() == 0
    delivered = {}
    per_stream = {0: [], 1: []}
    for i in range(out.size()):
        msg = out[i]
        data = bytearray(msg.data.GetSize())
        msg.data.CopyData(data, len(data))
        key = (int(msg.streamId), int(msg.ssn))
        assert key not in delivered
        delivered[key] = bytes(data)
        per_stream[key[0]].append(key[1])
    assert delivered == expected
    for ssns in per_stream.values():
        assert ssns == list(range(len(ssns)))


def test_rto_estimator_follows_section_6_3_1(ns):
    path = ns.SctpPath()
    path.InitializeRto(ns.Seconds(3))
    ms = ns.MilliSeconds
    path.OnRttSample(ms(100), ms(10), ns.Seconds(60), 0.125, 0.25)
    # C2: SRTT = R, RTTVAR = R/2, RTO = SRTT + 4 RTTVAR.
    assert path.GetSrtt().GetMilliSeconds() == 100
    assert path.GetRttVar().GetMilliSeconds() == 50
    assert path.GetRto().GetMilliSeconds() == 300
    path.OnRttSample(ms(200), ms(10), ns.Seconds(60), 0.125, 0.25)
    # C3: RTTVAR = 3/4 * 50 + 1/4 * |100 - 200| = 62.5; SRTT = 7/8 * 100 + 1/8 * 200 = 112.5
    assert path.GetRttVar().GetMicroSeconds() == 62500
    assert path.GetSrtt().GetMicroSeconds() == 112500
    assert path.GetRto().GetMicroSeconds() == 112500 + 4 * 62500
    # SRTT + 4 RTTVAR = 98.5625 + 4 * 74.75 ms = 397.5625 ms, below RTO.Min = 1 s (C6).
    path.OnRttSample(ms(1), ns.Seconds(1), ns.Seconds(60), 0.125, 0.25)
    assert path.GetRto().GetSeconds() == 1.0
    path.BackOffRto(ns.Seconds(60))  # E2: doubled
    assert path.GetRto().GetSeconds() == 2.0
    path.BackOffRto(ns.Seconds(3))  # capped at RTO.Max (C7)
    assert path.GetRto().GetSeconds() == 3.0


def test_congestion_avoidance_grows_one_pmdcs_per_window(ns):
    path = ns.SctpPath()
    path.SetMtu(1500, 20)
    cc = ns.CreateObject[ns.SctpRfc9260CongestionOps]()
    pmdcs = path.GetPmdcs()
    assert pmdcs == 1468
    path.InitializeCongestionControl(10 * pmdcs, 5 * pmdcs)
    # In congestion avoidance: a full window of acknowledgements adds one PMDCS.
    for _ in range(9):
        cc.BytesAcked(path, pmdcs, True, False)
    assert path.GetCwnd() == 10 * pmdcs
    cc.BytesAcked(path, pmdcs, True, False)
    assert path.GetCwnd() == 11 * pmdcs
    assert path.GetPartialBytesAcked() == 0
    # Not using the window: no growth, and partial_bytes_acked capped at cwnd.
    for _ in range(30):
        cc.BytesAcked(path, pmdcs, False, False)
    assert path.GetCwnd() == 11 * pmdcs
    assert path.GetPartialBytesAcked() == 11 * pmdcs
    # Fast retransmit and timeout (7.2.3, 7.2.4).
    cc.FastRetransmit(path)
    assert path.GetSsthresh() == path.GetCwnd() == 11 * pmdcs // 2  # above 4 PMDCS
    cc.RetransmissionTimeout(path)
    assert path.GetCwnd() == pmdcs
    assert path.GetSsthresh() == 4 * pmdcs  # max(cwnd/2, 4 PMDCS) = 4 PMDCS here
