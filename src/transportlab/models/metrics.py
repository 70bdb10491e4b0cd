"""Transport performance metrics over recorded packet events.

Units everywhere: time in seconds, sizes in bytes, throughput in bit/s. The
exceptions are the ``awk_*`` functions, which return exactly what the seed's
AWK scripts print (kbit/s, ms, s; see below).

Input
-----
``records`` is a DataFrame shaped like
:meth:`transportlab.ns3.recording.PacketRecorder.to_frame` (columns ``event``
('sent' | 'received'), ``flow``, ``seq``, ``size``, ``time``, ``sent_time``,
``delay``), optionally restricted to one ``flow=``. A table without an
``event`` column (or a dict of plain arrays, e.g. ``{"time": t, "size": s}``)
is taken as received packets only. The delay-based metrics also accept a plain
1-D array (or Series) of one-way delays.

Standard definitions
--------------------
* :func:`average_throughput`, :func:`throughput_series`: received bytes x 8 over
  an interval; a packet counts in the interval ``(a, b]`` that contains its
  arrival time.
* :func:`one_way_delay`: receive time minus the send timestamp of each packet.
* :func:`loss_ratio`: distinct packets sent but never received over distinct
  packets sent.
* :func:`rfc3550_jitter`: the RTP interarrival jitter estimator of RFC 3550
  section 6.4.1 / A.8, ``J += (|D(i-1, i)| - J) / 16`` over packets in arrival
  order, in seconds (no RTP timestamp-clock quantisation).
* :func:`ipdv`: RFC 3393 IP packet delay variation with the selection function
  "consecutive packets": ``D(n) - D(n-1)`` for packets ``n-1, n`` consecutive in
  sending order, both received.
* :func:`jain_index`: Jain's fairness index ``(sum x)^2 / (n sum x^2)``.

The AWK scripts of seed 004 (Appendix B)
----------------------------------------
Seed ``004_c8175ad9bda103cf.txt`` (an MSc thesis; seed ``000`` is a paper on the
same NS-2 experiment) computed its throughput, "jitter" and "delay" with three
AWK scripts over the NS-2 trace. Parameters come from the command line: ``flow``
(the NS-2 flow id, field 8), ``src`` and ``dst`` (node ids), ``pkt`` (a packet
size in bytes) and ``tic`` (a window length in seconds; the thesis does not say
which value it used). Read line by line, they compute:

Selection (all three). A trace line is a *send* of the flow when the event is
``+`` (or ``s``) at node ``src``, and a *receive* when the event is ``r`` at
node ``dst``; in both cases only if its size is ``>= pkt`` (this drops ACKs,
SACKs and handshakes). The flow id must equal ``flow``; the seed's Tcl scripts
comment out every ``fid_``, so all flows have id 0 there and only ``src``/``dst``
separate them.

Throughput (per ``tic`` window, kbit/s). Receives are taken in trace order. The
header is "ripped off" as ``size - size % pkt``: the size is rounded *down* to
a multiple of ``pkt`` (NS-2 TCP: 1040 -> 1000 B; NS-2 SCTP 1500-B packets ->
1000 B with ``pkt = 1000``). ``prevTime`` starts at the time of the first trace
line (any event, any flow: the first line with a non-zero time) and then follows
the receives. Each receive adds ``time - prevTime`` to ``currTime``; once
``currTime >= tic`` the script prints ``time`` and ``recv / currTime * 8/1000``
(bytes received since the last print, including this packet, over the elapsed
time) and resets both counters. So the first window of a flow that starts late
spans from the start of the whole trace. A partial last window is never printed.

"Jitter" (per window, ms). ``sendTime`` and ``recvTime`` are arrays indexed by
NS-2's packet id (a uid that is unique over all flows; a retransmission is a new
packet with a new id): the first send and the last receive of each id. The END
block visits the received ids in increasing id order (not arrival order).
``tmp_recv`` counts every visited packet. From the second packet on, ``delay``
is ``recvTime[i] - prev_time``, **the inter-arrival gap to the previously
visited packet, not the one-way delay**, clamped to 0 when negative (a packet
with a lower id that arrived later); ``e2eDelay = recvTime[i] - sendTime[i]`` is
the one-way delay. From the third packet on, ``jitter1 += |e2eDelay -
prev_e2eDelay|`` (an RFC 3393 consecutive-id IPDV). The clamped gaps accumulate
in ``currTime``; once ``currTime >= tic`` the script prints the receive time and
``jitter1 * 1000 / tmp_recv`` and resets ``jitter1``, ``currTime`` and
``tmp_recv``: the mean |IPDV| of the window's packets in ms, each packet paired
with its predecessor in id order (for the window's first packet, the last one of
the previous window); in the very first window the first two packets are
counted without contributing a term.

"Delay" (per window, s). The same loop, but at each window end it prints
``delay``: the clamped inter-arrival gap of the packet that closed the window,
in seconds. The one-way delay ``e2eDelay`` is computed and never printed, and
nothing is averaged.

Gap markers. Whenever a gap (throughput: ``time - prevTime``; jitter, delay: the
clamped gap) is ``>= 10 * tic``, the scripts first print two rows with value 0
at ``prev + 1`` and ``now - 1`` "to obtain clearer plots"; these rows have six
fields (flow, type, src, dst, time, 0) instead of two.

Tables. The thesis says (sections 3.4, 4.4) that the metrics were read from the
script output and presented "in graph and table format"; its tables give one
"average" per node pair ("Average jitter has been used in this study"), and its
Table 4.7 shows that it averaged with plain means (its SCTP delay and both
jitter entries are the means of the five pair averages). It says nothing more,
so we take a table entry to be the arithmetic mean of the values the script
printed for that pair, without the zero-valued gap markers
(:func:`awk_table_average`; ``include_gap_markers=True`` gives the other
reading). The scripts print "delay" in seconds while the tables say ms, so a
table value is 1000 x that mean. The AWK functions below reproduce
these steps with the same floating-point operations in the same order, so their
values equal the scripts' output (which prints 6 significant digits);
``tests/test_metrics.py`` runs the scripts with awk to check it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from os import PathLike
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = [
    "average_throughput",
    "throughput_series",
    "one_way_delay",
    "loss_ratio",
    "rfc3550_jitter",
    "rfc3550_jitter_series",
    "ipdv",
    "jain_index",
    "awk_throughput_series",
    "awk_jitter_series",
    "awk_delay_series",
    "awk_table_average",
    "awk_table_averages",
    "read_ns2_trace",
]

SENT = "sent"
RECEIVED = "received"


# ---------------------------------------------------------------------------
# Input handling


def _as_frame(records) -> pd.DataFrame:
    if isinstance(records, pd.DataFrame):
        return records
    if isinstance(records, Mapping):
        return pd.DataFrame({key: np.asarray(value) for key, value in records.items()})
    raise TypeError(
        f"expected a DataFrame of packet records or a dict of arrays, got {type(records).__name__}"
    )


def _require(frame: pd.DataFrame, columns: Iterable[str], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(
            f"{what} needs column(s) {missing}; the records have {list(frame.columns)}"
        )


def _of_flow(frame: pd.DataFrame, flow) -> pd.DataFrame:
    if flow is None:
        return frame
    _require(frame, ["flow"], "selecting a flow")
    return frame[frame["flow"] == flow]


def _events(records, flow, event: str) -> pd.DataFrame:
    """Rows of one event kind ('sent' or 'received'), optionally of one flow."""
    frame = _of_flow(_as_frame(records), flow)
    if "event" in frame.columns:
        return frame[frame["event"] == event]
    return frame if event == RECEIVED else frame.iloc[0:0]


def _in_arrival_order(received: pd.DataFrame) -> pd.DataFrame:
    return received.sort_values("time", kind="mergesort") if len(received) else received


def _delays(received: pd.DataFrame) -> pd.Series:
    """One-way delay (s) of received rows: the ``delay`` column or ``time - sent_time``."""
    if "delay" in received.columns:
        delay = received["delay"].astype(float)
        if "sent_time" in received.columns:
            delay = delay.fillna(received["time"] - received["sent_time"])
        return delay
    _require(received, ["time", "sent_time"], "a one-way delay")
    return received["time"] - received["sent_time"]


def _delay_array(delays_or_records, flow) -> tuple[np.ndarray, pd.Index | None]:
    """Plain 1-D delays as given, or the delays of received records in arrival order."""
    if isinstance(delays_or_records, pd.DataFrame | Mapping):
        delay = one_way_delay(delays_or_records, flow=flow)
        return delay.to_numpy(dtype=float), delay.index
    if flow is not None:
        raise ValueError("flow= only applies to packet records, not to a plain array of delays")
    values = np.asarray(delays_or_records, dtype=float)
    if values.ndim != 1:
        raise ValueError(f"expected a 1-D array of delays, got shape {values.shape}")
    index = delays_or_records.index if isinstance(delays_or_records, pd.Series) else None
    return values, index


# ---------------------------------------------------------------------------
# Throughput, delay, loss


def _interval(records, flow, received, start, end) -> tuple[float, float]:
    if start is None:
        sent = _events(records, flow, SENT)
        times = sent["time"] if len(sent) else received["time"]
        start = float(times.min()) if len(times) else math.nan
    if end is None:
        end = float(received["time"].max()) if len(received) else math.nan
    if not (math.isfinite(start) and math.isfinite(end)):
        raise ValueError("no packets to infer the interval from: give start= and end=")
    if end <= start:
        raise ValueError(f"end ({end} s) must be after start ({start} s)")
    return float(start), float(end)


def average_throughput(records, *, start=None, end=None, flow=None) -> float:
    """Average throughput in bit/s: bytes received in ``(start, end]`` x 8 / (end - start).

    ``start`` defaults to the first send of the flow (the first receive when no
    sends are recorded), ``end`` to the last receive. Sizes are the recorded
    ``size`` column (bytes).
    """
    received = _events(records, flow, RECEIVED)
    _require(received, ["time", "size"], "a throughput")
    start, end = _interval(records, flow, received, start, end)
    inside = (received["time"] > start) & (received["time"] <= end)
    return 8.0 * float(received.loc[inside, "size"].sum()) / (end - start)


def throughput_series(records, window: float, *, start=None, end=None, flow=None) -> pd.DataFrame:
    """Throughput per time window, in bit/s.

    Windows are ``(start + k w, start + (k+1) w]``; the last one ends at ``end``
    and its rate is computed over its actual (possibly shorter) length. Returns
    columns ``start``, ``end`` (s), ``bytes`` and ``throughput`` (bit/s).
    Defaults for ``start``/``end`` as in :func:`average_throughput`.
    """
    if not window > 0:
        raise ValueError(f"window must be > 0 s, got {window!r}")
    received = _events(records, flow, RECEIVED)
    _require(received, ["time", "size"], "a throughput")
    start, end = _interval(records, flow, received, start, end)
    n = max(1, math.ceil((end - start) / window - 1e-9))
    edges = start + window * np.arange(n + 1, dtype=float)
    edges[-1] = end
    times = received["time"].to_numpy(dtype=float)
    sizes = received["size"].to_numpy(dtype=float)
    inside = (times > start) & (times <= end)
    index = np.searchsorted(edges, times[inside], side="left") - 1
    counted = np.bincount(index, weights=sizes[inside], minlength=n)[:n]
    return pd.DataFrame(
        {
            "start": edges[:-1],
            "end": edges[1:],
            "bytes": counted,
            "throughput": 8.0 * counted / (edges[1:] - edges[:-1]),
        }
    )


def one_way_delay(records, *, flow=None) -> pd.Series:
    """One-way delay (s) of every received packet, in arrival order, indexed by ``seq``.

    Packets without a send timestamp are left out.
    """
    received = _in_arrival_order(_events(records, flow, RECEIVED))
    delay = _delays(received)
    if "seq" in received.columns:
        delay.index = pd.Index(received["seq"].to_numpy(), name="seq")
    return delay.dropna().rename("delay")


def loss_ratio(
    records=None,
    *,
    sent: int | None = None,
    received: int | None = None,
    flow=None,
    sent_before: float | None = None,
) -> float:
    """Fraction of packets sent and never received (0..1).

    From records: distinct ``seq`` values sent minus those received, over those
    sent (duplicates and retransmissions of one packet count once). Packets
    still in flight (or in a send buffer) when the recording stopped count as
    lost; ``sent_before`` (s) only counts packets first sent at or before that
    time. From counts: ``(sent - received) / sent``.
    """
    if records is not None:
        if sent is not None or received is not None:
            raise ValueError("give either records or sent=/received= counts, not both")
        tx = _events(records, flow, SENT)
        rx = _events(records, flow, RECEIVED)
        _require(tx, ["seq"], "a loss ratio")
        if sent_before is not None:
            first_sent = tx.groupby("seq")["time"].min()
            tx = tx[tx["seq"].isin(first_sent.index[first_sent <= sent_before])]
        if len(tx) == 0:
            raise ValueError("no sent packets recorded: the loss ratio is undefined")
        sent_ids = set(tx["seq"].tolist())
        delivered = sent_ids.intersection(rx["seq"].tolist()) if len(rx) else set()
        return (len(sent_ids) - len(delivered)) / len(sent_ids)
    if sent is None or received is None:
        raise ValueError("give packet records, or both sent= and received= counts")
    if sent_before is not None:
        raise ValueError("sent_before= needs packet records")
    if sent <= 0:
        raise ValueError(f"sent must be > 0, got {sent}")
    if not 0 <= received <= sent:
        raise ValueError(f"received must be between 0 and sent ({sent}), got {received}")
    return (sent - received) / sent


# ---------------------------------------------------------------------------
# Jitter


def rfc3550_jitter_series(delays_or_records, *, flow=None) -> pd.Series:
    """RFC 3550 interarrival jitter estimate (s) after each received packet.

    ``D(i-1, i) = (R_i - R_{i-1}) - (S_i - S_{i-1})`` is the difference of the
    one-way delays (transit times) of consecutively *arriving* packets, and
    ``J_i = J_{i-1} + (|D(i-1, i)| - J_{i-1}) / 16`` with ``J = 0`` at the first
    packet. Input: packet records (received packets taken in arrival order) or a
    1-D array of one-way delays in arrival order. Any constant clock offset
    between sender and receiver cancels.
    """
    values, index = _delay_array(delays_or_records, flow)
    if values.size and not np.all(np.isfinite(values)):
        raise ValueError("delays must be finite (drop lost packets first)")
    jitter = np.zeros(values.size)
    if values.size > 1:
        # scipy.signal imports scipy.stats (~50 MB): only where a filter runs.
        from scipy.signal import lfilter  # noqa: PLC0415

        jitter[1:] = lfilter([1.0 / 16.0], [1.0, -15.0 / 16.0], np.abs(np.diff(values)))
    return pd.Series(jitter, index=index, name="rfc3550_jitter")


def rfc3550_jitter(delays_or_records, *, flow=None) -> float:
    """RFC 3550 interarrival jitter (s): the estimator's value after the last packet.

    This is what an RTCP receiver report would carry at the end of the flow
    (see :func:`rfc3550_jitter_series` for the definition); 0 for a single
    packet, NaN without packets.
    """
    series = rfc3550_jitter_series(delays_or_records, flow=flow)
    return float(series.iloc[-1]) if len(series) else math.nan


def ipdv(delays_or_records, *, flow=None) -> pd.Series:
    """RFC 3393 IP packet delay variation (s), selection function "consecutive packets".

    For every pair of packets ``n-1, n`` consecutive in sending order and both
    received, ``ipdv(n) = D(n) - D(n-1)`` (signed). Pairs with a lost packet are
    undefined and left out. Input: packet records (sending order = ``seq``; a
    packet received twice counts with its first arrival) or a 1-D array of
    one-way delays in sending order with NaN for lost packets. The result is
    indexed by the later packet's ``seq`` (or array position).
    """
    if isinstance(delays_or_records, pd.DataFrame | Mapping):
        received = _in_arrival_order(_events(delays_or_records, flow, RECEIVED))
        _require(received, ["seq"], "an IPDV")
        delay = pd.Series(_delays(received).to_numpy(), index=received["seq"].to_numpy())
        delay = delay[~delay.index.duplicated(keep="first")].dropna().sort_index()
        seq = delay.index.to_numpy()
        values = delay.to_numpy(dtype=float)
        consecutive = np.diff(seq) == 1
        return pd.Series(
            np.diff(values)[consecutive],
            index=pd.Index(seq[1:][consecutive], name="seq"),
            name="ipdv",
        )
    values, index = _delay_array(delays_or_records, flow)
    labels = np.arange(values.size) if index is None else index.to_numpy()
    variation = np.diff(values)
    defined = np.isfinite(variation)
    return pd.Series(variation[defined], index=labels[1:][defined], name="ipdv")


# ---------------------------------------------------------------------------
# Fairness


def jain_index(values) -> float:
    """Jain's fairness index ``(sum x)^2 / (n * sum x^2)``: 1/n (one takes all) .. 1 (equal).

    ``values`` are non-negative allocations (e.g. per-flow throughputs).
    """
    x = np.asarray(values, dtype=float).ravel()
    if x.size == 0:
        raise ValueError("Jain's index needs at least one value")
    if not np.all(np.isfinite(x)) or np.any(x < 0):
        raise ValueError("Jain's index needs finite, non-negative values")
    squares = float(np.sum(x * x))
    if squares == 0.0:
        raise ValueError("Jain's index is undefined when every value is 0")
    return float(np.sum(x)) ** 2 / (x.size * squares)


# ---------------------------------------------------------------------------
# The AWK scripts of seed 004, Appendix B


def _check_awk_parameters(tic: float, pkt: float) -> None:
    if not (isinstance(tic, int | float) and not isinstance(tic, bool) and tic > 0):
        raise ValueError(f"tic must be a window length > 0 s, got {tic!r}")
    if not (isinstance(pkt, int | float) and not isinstance(pkt, bool) and pkt > 0):
        raise ValueError(f"pkt must be a packet size > 0 bytes, got {pkt!r}")


def _awk_series(rows: list[tuple[float, float, bool]], unit: str) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["time", "value", "gap_marker"])
    frame = frame.astype({"time": float, "value": float, "gap_marker": bool})
    frame.attrs["unit"] = unit
    return frame


def _trace_start(frame: pd.DataFrame, trace_start) -> float:
    """The script's initial ``prevTime``: the first non-zero time of any trace line."""
    if trace_start is not None:
        return float(trace_start)
    if "trace_start" in frame.attrs:
        return float(frame.attrs["trace_start"])
    _require(frame, ["time"], "the AWK throughput")
    times = frame["time"].to_numpy(dtype=float)
    nonzero = times[times != 0]
    if nonzero.size == 0:
        raise ValueError("no events with a non-zero time: give trace_start=")
    # Records are in event order, so the first row is the first trace line; take
    # the minimum so that a frame concatenated from several recorders works too.
    return float(nonzero.min())


def awk_throughput_series(
    records, *, tic: float, pkt: float, flow=None, trace_start: float | None = None
) -> pd.DataFrame:
    """The seed 004 throughput script's output: ``time`` (s), ``value`` (kbit/s), ``gap_marker``.

    ``records``: packet records (received rows with ``time`` and ``size`` are
    used, in time order) of one flow. ``trace_start`` is the time of the first
    line of the whole NS-2 trace (the script's initial ``prevTime``); by default
    ``records.attrs['trace_start']`` (set by :func:`read_ns2_trace`) or the
    earliest non-zero time among all records passed (all flows, all events).
    See the module docstring for the line-by-line reading.
    """
    _check_awk_parameters(tic, pkt)
    frame = _as_frame(records)
    prev_time = _trace_start(frame, trace_start)
    received = _events(frame, flow, RECEIVED)
    _require(received, ["time", "size"], "the AWK throughput")
    received = received[received["size"] >= pkt].sort_values("time", kind="mergesort")
    rows: list[tuple[float, float, bool]] = []
    recv = 0.0
    curr_time = 0.0
    for time, size in zip(received["time"].tolist(), received["size"].tolist(), strict=True):
        recv += size - math.fmod(size, pkt)  # "Rip off the header"
        if time - prev_time >= tic * 10:
            rows.append((prev_time + 1.0, 0.0, True))
            rows.append((time - 1.0, 0.0, True))
        curr_time += time - prev_time
        if curr_time >= tic:
            rows.append((time, (recv / curr_time) * (8 / 1000), False))
            recv = 0.0
            curr_time = 0.0
        prev_time = time
    return _awk_series(rows, "kbps")


def _awk_packets(records, flow, pkt) -> tuple[list[float], list[float]]:
    """Receive and send times of the received packet ids, in increasing id order.

    ``recvTime[id]`` is the last receive of the id (the array is overwritten),
    ``sendTime[id]`` the first send with a non-zero time (it is only written while
    still 0); without a recorded send, the received row's ``sent_time`` stands in
    (recorder frames of a receiver only), else 0 as in the script.
    """
    frame = _of_flow(_as_frame(records), flow)
    received = _events(frame, None, RECEIVED)
    _require(received, ["time", "size", "seq"], "the AWK jitter/delay")
    received = received[received["size"] >= pkt]
    ids = received["seq"].to_numpy(dtype=float)
    if np.any(ids < 0) or np.any(ids != np.floor(ids)):
        raise ValueError(
            "packet ids (seq) must be non-negative integers: the script visits ids 0, 1, 2, ..."
        )
    recv_time = received.groupby("seq", sort=True)["time"].last()
    if len(recv_time) != len(received):
        raise ValueError(
            "a packet id is received more than once: the AWK script would loop forever "
            "(it counts receive events but visits ids); drop duplicate receptions first"
        )
    if np.any(recv_time.to_numpy() == 0):
        raise ValueError("a packet received at time 0 is invisible to the AWK script (it hangs)")
    send_time = pd.Series(0.0, index=recv_time.index)
    if "sent_time" in received.columns:
        recorded = received.groupby("seq", sort=True)["sent_time"].first()
        send_time.update(recorded.dropna())
    sent = _events(frame, None, SENT)
    if len(sent):
        sent = sent[(sent["size"] >= pkt) & (sent["time"] != 0)]
        first_send = sent.groupby("seq", sort=True)["time"].first()
        send_time.update(first_send.reindex(send_time.index).dropna())
    return recv_time.tolist(), send_time.tolist()


def _awk_end_block(recv: list[float], send: list[float], tic: float, printed: str):
    """The END loop shared by the jitter and delay scripts."""
    rows: list[tuple[float, float, bool]] = []
    jitter1 = 0.0
    tmp_recv = 0
    prev_time = 0.0
    delay = 0.0
    curr_time = 0.0
    prev_delay = -1.0
    prev_e2e = 0.0
    for recv_time, send_time in zip(recv, send, strict=True):
        tmp_recv += 1
        if prev_time != 0:
            delay = recv_time - prev_time
            e2e_delay = recv_time - send_time
            if delay < 0:
                delay = 0.0
            if prev_delay != -1:
                jitter1 += abs(e2e_delay - prev_e2e)
            if delay >= tic * 10:
                rows.append((prev_time + 1.0, 0.0, True))
                rows.append((recv_time - 1.0, 0.0, True))
            curr_time += delay
            if curr_time >= tic:
                value = jitter1 * 1000 / tmp_recv if printed == "jitter" else delay
                rows.append((recv_time, value, False))
                jitter1 = 0.0
                curr_time = 0.0
                tmp_recv = 0
            prev_delay = delay
            prev_e2e = e2e_delay
        prev_time = recv_time
    return rows


def awk_jitter_series(records, *, tic: float, pkt: float, flow=None) -> pd.DataFrame:
    """The seed 004 jitter script's output: columns ``time`` (s), ``value`` (ms), ``gap_marker``.

    Per window: summed |one-way delay difference| of packets consecutive in id
    (``seq``) order, in ms, over the window's packet count. See the module
    docstring for the line-by-line reading.
    """
    _check_awk_parameters(tic, pkt)
    recv, send = _awk_packets(records, flow, pkt)
    return _awk_series(_awk_end_block(recv, send, tic, "jitter"), "ms")


def awk_delay_series(records, *, tic: float, pkt: float, flow=None) -> pd.DataFrame:
    """The seed 004 "delay" script's output: columns ``time`` (s), ``value`` (s), ``gap_marker``.

    The value is the (clamped) inter-arrival gap between the packet that closes a
    window and the previous packet in id order, in seconds: not a one-way delay.
    """
    _check_awk_parameters(tic, pkt)
    recv, send = _awk_packets(records, flow, pkt)
    return _awk_series(_awk_end_block(recv, send, tic, "delay"), "s")


def awk_table_average(series: pd.DataFrame, *, include_gap_markers: bool = False) -> float:
    """A seed table entry: the mean of the values an AWK script printed (NaN if none).

    By default the zero-valued gap markers (printed only to shape plots) are
    left out; ``include_gap_markers=True`` counts them as zeros.
    """
    _require(series, ["value", "gap_marker"], "an AWK table average")
    values = series["value"] if include_gap_markers else series.loc[~series["gap_marker"], "value"]
    return float(values.mean()) if len(values) else math.nan


def awk_table_averages(
    records,
    *,
    tic: float,
    pkt: float,
    flow=None,
    trace_start: float | None = None,
    include_gap_markers: bool = False,
) -> pd.DataFrame:
    """The three table averages of one flow: a frame with columns ``metric``, ``unit``, ``value``.

    Metrics ``awk_throughput`` (kbps), ``awk_jitter`` (ms) and ``awk_delay`` (s,
    as the script prints it; the seed tables show it in ms), named as in
    ``data/published/wired_best_effort.csv`` so the frame can go to
    :func:`transportlab.engine.verdicts.compare` once ``protocol`` and ``row`` are added.
    """
    series = {
        "awk_throughput": awk_throughput_series(
            records, tic=tic, pkt=pkt, flow=flow, trace_start=trace_start
        ),
        "awk_jitter": awk_jitter_series(records, tic=tic, pkt=pkt, flow=flow),
        "awk_delay": awk_delay_series(records, tic=tic, pkt=pkt, flow=flow),
    }
    units = {"awk_throughput": "kbps", "awk_jitter": "ms", "awk_delay": "s"}
    return pd.DataFrame(
        {
            "metric": list(series),
            "unit": [units[m] for m in series],
            "value": [
                awk_table_average(s, include_gap_markers=include_gap_markers)
                for s in series.values()
            ],
        }
    )


# ---------------------------------------------------------------------------
# NS-2 traces


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _awk_equal(field: str, value) -> bool:
    """``field == value`` as awk compares a trace field with a numeric command-line value."""
    number = _number(field)
    return number == float(value) if number is not None else field == str(value)


def read_ns2_trace(source, *, src: int, dst: int, flow_id: int = 0) -> pd.DataFrame:
    """Read an NS-2 trace the way the seed 004 AWK scripts select lines.

    ``source`` is a path or an iterable of lines. Both trace formats the scripts
    know are read: "normal" (wired: ``event time from to type size flags fid
    src dst seq uid``) and "new" (``-t`` tagged, positional as in the scripts).
    Sends are ``+``/``s`` events at node ``src``, receives ``r`` events at node
    ``dst``, of flow id ``flow_id``, at agent level. Like the scripts, an event
    other than ``+ - r d`` in the normal format keeps the node id of the line
    before. Returns records shaped like ``PacketRecorder.to_frame()`` with
    ``seq`` = NS-2 packet uid, ``flow`` = ``flow_id``, ``size`` as traced (bytes,
    headers included), ``sent_time`` = the send time on sent rows (NaN on
    received rows: a trace line carries no timestamp); ``attrs['trace_start']``
    is the first non-zero time of any line (the throughput script's start).
    """
    if isinstance(source, str | PathLike):
        with Path(source).open() as handle:
            lines = handle.read().splitlines()
    else:
        lines = list(source)

    def field(fields: list[str], position: int) -> str:  # awk's $n, 1-based
        return fields[position - 1] if position <= len(fields) else ""

    rows: list[tuple[str, int, int, float]] = []
    node_id = ""
    trace_start: float | None = None
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if not fields:
            continue
        event = fields[0]
        if field(fields, 2) == "-t":
            time_text, node_id = field(fields, 3), field(fields, 5)
            flow, uid, size = field(fields, 39), field(fields, 41), field(fields, 37)
            level = field(fields, 19)
        else:
            time_text = field(fields, 2)
            if event in ("+", "-"):
                node_id = field(fields, 3)
            if event in ("r", "d"):
                node_id = field(fields, 4)
            flow, uid, size = field(fields, 8), field(fields, 12), field(fields, 6)
            level = "AGT"
        time = _number(time_text)
        if time is None:
            raise ValueError(f"line {number}: time {time_text!r} is not a number: {line!r}")
        if trace_start is None and time != 0:
            trace_start = time
        if level != "AGT" or not _awk_equal(flow, flow_id):
            continue
        if _awk_equal(node_id, src) and event in ("+", "s"):
            kind = SENT
        elif _awk_equal(node_id, dst) and event == "r":
            kind = RECEIVED
        else:
            continue
        uid_value, size_value = _number(uid), _number(size)
        if uid_value is None or size_value is None:
            raise ValueError(f"line {number}: packet id or size is not a number: {line!r}")
        rows.append((kind, int(uid_value), int(size_value), time))

    kinds = [row[0] for row in rows]
    times = np.array([row[3] for row in rows], dtype=float)
    frame = pd.DataFrame(
        {
            "event": pd.Categorical(kinds, categories=[SENT, RECEIVED]),
            "flow": np.full(len(rows), flow_id, dtype=np.int64),
            "seq": np.array([row[1] for row in rows], dtype=np.int64),
            "size": np.array([row[2] for row in rows], dtype=np.int64),
            "time": times,
            "sent_time": np.where(np.array(kinds) == SENT, times, np.nan) if rows else times,
            "delay": np.full(len(rows), np.nan),
        }
    )
    if trace_start is not None:
        frame.attrs["trace_start"] = trace_start
    return frame
