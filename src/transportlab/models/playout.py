"""Receiver playout (de-jitter buffer) models for packet voice.

All models work on the same recorded trace of one call: for every packet the
sender sent, its sequence number, its send time and its arrival time at the
receiving application (NaN when it never arrived). A model decides, for every
packet, the time its audio is played (``slot``) and the latest arrival time at
which the packet still makes it (``deadline``); a packet that arrives after its
deadline is *late* and lost to the listener just like a packet lost in the
network. :func:`evaluate` turns a trace and a schedule into the numbers a VoIP
engineer looks at: late loss, one-way delay and jitter before and after the
playout point.

Models:

* :class:`PlayOnArrival` - no buffer at all (the "before playout" reference).
* :class:`FixedPlayout` - every packet is played a fixed time after it was sent
  (or after the first packet's arrival, as a receiver without a common clock does).
* :class:`AdaptivePlayout` - Ramjee, Kurose, Towsley and Schulzrinne (INFOCOM
  1994), algorithm 1: exponentially weighted estimates of the network delay
  and of its variation, ``d = a*d + (1-a)*n`` and ``v = a*v + (1-a)*|d - n|``
  with a = 0.998002, updated for every packet; the playout delay ``d + 4v`` is
  fixed at the first packet of each talkspurt and kept for the rest of it.
* :class:`ChunkPlayout` - the Chunk-based Jitter Management (CJM) algorithm of
  seed 001: packets are stored in a receive buffer, grouped into equal-size
  chunks (100 chunks x 50 packets x 576 bytes) and played out chunk by chunk,
  a chunk's missing packets replaced by padding.

Times are in seconds throughout. Clocks are the simulator's, so sender and
receiver share them (a real receiver would only know delay differences; the
``first_arrival`` anchor of :class:`FixedPlayout` models that case).
"""

from __future__ import annotations

import heapq
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from transportlab.models import metrics

#: Weighting factor of Ramjee et al. (1994), algorithm 1.
RAMJEE_ALPHA = 0.998002
#: Safety factor on the delay variation in Ramjee et al.'s playout delay d + 4 v.
RAMJEE_BETA = 4.0


@dataclass(frozen=True, eq=False)
class VoiceTrace:
    """The packets of one call, in sequence order.

    ``seq`` strictly increasing; ``send`` the send times (non-decreasing);
    ``arrival`` the arrival times at the receiving application, NaN for packets
    that never arrived. ``frame_interval`` is the audio carried per packet (s).
    ``size`` (optional) is the application payload of each packet in bytes.
    """

    seq: np.ndarray
    send: np.ndarray
    arrival: np.ndarray
    frame_interval: float
    size: np.ndarray | None = None

    def __post_init__(self) -> None:
        seq = np.asarray(self.seq, dtype=np.int64)
        send = np.asarray(self.send, dtype=np.float64)
        arrival = np.asarray(self.arrival, dtype=np.float64)
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "send", send)
        object.__setattr__(self, "arrival", arrival)
        if not (seq.ndim == send.ndim == arrival.ndim == 1):
            raise ValueError("seq, send and arrival must be one-dimensional")
        if not (len(seq) == len(send) == len(arrival)):
            raise ValueError(
                f"seq, send and arrival differ in length ({len(seq)}, {len(send)}, {len(arrival)})"
            )
        if len(seq) > 1 and np.any(np.diff(seq) <= 0):
            raise ValueError("seq must be strictly increasing (one entry per packet sent)")
        if not np.all(np.isfinite(send)):
            raise ValueError("every packet needs a finite send time")
        if len(send) > 1 and np.any(np.diff(send) < 0):
            raise ValueError("send times must not decrease with the sequence number")
        received = ~np.isnan(arrival)
        if np.any(np.isinf(arrival)):
            raise ValueError("arrival times must be finite or NaN (never arrived)")
        if np.any(arrival[received] < send[received]):
            raise ValueError("a packet cannot arrive before it was sent")
        if not (self.frame_interval > 0):
            raise ValueError(f"frame_interval must be > 0 s, got {self.frame_interval}")
        if self.size is not None:
            size = np.asarray(self.size, dtype=np.int64)
            if size.shape != seq.shape:
                raise ValueError("size must have one entry per packet")
            object.__setattr__(self, "size", size)

    def __len__(self) -> int:
        return len(self.seq)

    @property
    def received(self) -> np.ndarray:
        """Mask of packets that reached the receiving application."""
        return ~np.isnan(self.arrival)

    @property
    def network_delay(self) -> np.ndarray:
        """One-way delay (arrival - send), NaN for lost packets."""
        return self.arrival - self.send


@dataclass(frozen=True, eq=False)
class PlayoutSchedule:
    """What a playout model decided for each packet of a trace.

    ``slot``: when the packet's audio is (or would have been) played; NaN where
    the model never fixed a time for it (e.g. a talkspurt none of whose packets
    arrived). ``deadline``: the latest arrival time at which the packet is still
    played. ``dropped``: received packets the buffer discarded for another
    reason (overflow). ``details``: model-specific diagnostics.
    """

    policy: str
    slot: np.ndarray
    deadline: np.ndarray
    dropped: np.ndarray | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def played(self, trace: VoiceTrace) -> np.ndarray:
        """Mask of packets the listener hears."""
        with np.errstate(invalid="ignore"):
            on_time = trace.arrival <= self.deadline
        played = trace.received & on_time & ~np.isnan(self.slot)
        if self.dropped is not None:
            played &= ~self.dropped
        return played


class PlayoutPolicy(ABC):
    """A receiver playout model."""

    name: str = "policy"

    @abstractmethod
    def schedule(self, trace: VoiceTrace) -> PlayoutSchedule:
        """Playout slot and deadline of every packet of ``trace``."""


class PlayOnArrival(PlayoutPolicy):
    """No playout buffer: each packet is played the moment it arrives."""

    name = "arrival"

    def schedule(self, trace: VoiceTrace) -> PlayoutSchedule:
        return PlayoutSchedule(self.name, trace.arrival.copy(), trace.arrival.copy())


class FixedPlayout(PlayoutPolicy):
    """A constant playout delay.

    ``anchor="send"``: packet i is played at ``send_i + delay`` (``delay`` is
    then the whole network-plus-buffer budget). ``anchor="first_arrival"``: at
    ``arrival_f + (send_i - send_f) + delay`` with f the first packet to arrive,
    i.e. a jitter buffer of depth ``delay`` started by the first packet.
    """

    def __init__(self, delay: float, anchor: str = "send", name: str = "fixed") -> None:
        if not delay >= 0:
            raise ValueError(f"playout delay must be >= 0 s, got {delay}")
        if anchor not in ("send", "first_arrival"):
            raise ValueError(f"anchor must be 'send' or 'first_arrival', got {anchor!r}")
        self.delay = float(delay)
        self.anchor = anchor
        self.name = name

    def schedule(self, trace: VoiceTrace) -> PlayoutSchedule:
        offset = self.delay
        if self.anchor == "first_arrival":
            received = np.flatnonzero(trace.received)
            if len(received) == 0:
                nothing = np.full(len(trace), np.nan)
                return PlayoutSchedule(self.name, nothing, nothing.copy())
            first = received[np.argmin(trace.arrival[received])]
            offset = trace.arrival[first] - trace.send[first] + self.delay
        slot = trace.send + offset
        return PlayoutSchedule(self.name, slot, slot.copy(), details={"offset": offset})


def talkspurt_segments(
    send: np.ndarray, gap: float, resync_interval: float | None = None
) -> np.ndarray:
    """Segment number of every packet: a new segment starts at each talkspurt.

    A talkspurt starts where the sender paused (send times more than ``gap``
    apart). With ``resync_interval``, long talkspurts are further cut every
    ``resync_interval`` seconds of sending, so that a continuous (no silence
    suppression) source still gets playout adjustment points; this models a
    receiver that can stretch or compress audio (time-scale modification).
    """
    send = np.asarray(send, dtype=np.float64)
    if len(send) == 0:
        return np.empty(0, dtype=np.int64)
    starts = np.concatenate(([True], np.diff(send) > gap))
    talkspurt = np.cumsum(starts) - 1
    if resync_interval is None:
        return talkspurt
    if not resync_interval > 0:
        raise ValueError(f"resync_interval must be > 0 s, got {resync_interval}")
    first_send = send[np.flatnonzero(starts)][talkspurt]
    piece = np.floor((send - first_send) / resync_interval).astype(np.int64)
    # Renumber (talkspurt, piece) pairs consecutively.
    new = np.concatenate(([True], (np.diff(talkspurt) != 0) | (np.diff(piece) != 0)))
    return np.cumsum(new) - 1


class AdaptivePlayout(PlayoutPolicy):
    """Ramjee et al. (1994) algorithm 1: EWMA delay and variation estimates.

    For every packet, in arrival order, with n its network delay::

        d = alpha * d + (1 - alpha) * n
        v = alpha * v + (1 - alpha) * |d - n|

    At the first packet of a talkspurt to arrive, the playout delay of the
    talkspurt becomes ``d + beta * v`` (estimates including that packet); every
    packet of the talkspurt is played that long after it was sent. Initial
    estimates: d = delay of the first packet to arrive, v = ``initial_variation``.
    ``talkspurt_gap`` (default 1.5 frame intervals) separates talkspurts;
    ``resync_interval`` adds adjustment points inside long talkspurts (see
    :func:`talkspurt_segments`). ``margin`` (default 0, as published) is added
    to every playout delay: where the network has almost no jitter, ``beta * v``
    vanishes and packets a few microseconds later than the estimate are late;
    a practical buffer keeps a floor.
    """

    def __init__(
        self,
        alpha: float = RAMJEE_ALPHA,
        beta: float = RAMJEE_BETA,
        talkspurt_gap: float | None = None,
        resync_interval: float | None = None,
        initial_variation: float = 0.0,
        margin: float = 0.0,
        name: str = "adaptive",
    ) -> None:
        if not 0 <= alpha < 1:
            raise ValueError(f"alpha must be in [0, 1), got {alpha}")
        if not beta >= 0:
            raise ValueError(f"beta must be >= 0, got {beta}")
        if talkspurt_gap is not None and not talkspurt_gap > 0:
            raise ValueError(f"talkspurt_gap must be > 0 s, got {talkspurt_gap}")
        if resync_interval is not None and not resync_interval > 0:
            raise ValueError(f"resync_interval must be > 0 s, got {resync_interval}")
        if not initial_variation >= 0:
            raise ValueError(f"initial_variation must be >= 0 s, got {initial_variation}")
        if not margin >= 0:
            raise ValueError(f"margin must be >= 0 s, got {margin}")
        self.alpha = float(alpha)
        self.beta = float(beta)
        self.talkspurt_gap = talkspurt_gap
        self.resync_interval = resync_interval
        self.initial_variation = float(initial_variation)
        self.margin = float(margin)
        self.name = name

    def estimates(self, trace: VoiceTrace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(indices of received packets in arrival order, d, v after each of them)."""
        received = np.flatnonzero(trace.received)
        order = received[np.argsort(trace.arrival[received], kind="stable")]
        n = trace.arrival[order] - trace.send[order]
        if len(n) == 0:
            return order, n, n.copy()
        a = self.alpha
        # scipy.signal imports scipy.stats (~50 MB): only where a filter runs.
        from scipy.signal import lfilter  # noqa: PLC0415

        d = lfilter([1 - a], [1, -a], n, zi=[a * n[0]])[0]
        v = lfilter([1 - a], [1, -a], np.abs(d - n), zi=[a * self.initial_variation])[0]
        return order, d, v

    def schedule(self, trace: VoiceTrace) -> PlayoutSchedule:
        gap = self.talkspurt_gap if self.talkspurt_gap is not None else 1.5 * trace.frame_interval
        segment = talkspurt_segments(trace.send, gap, self.resync_interval)
        order, d, v = self.estimates(trace)
        n_segments = int(segment[-1]) + 1 if len(segment) else 0
        segment_delay = np.full(n_segments, np.nan)
        if len(order):
            seg_in_arrival_order = segment[order]
            seen, first = np.unique(seg_in_arrival_order, return_index=True)
            segment_delay[seen] = d[first] + self.beta * v[first] + self.margin
        slot = trace.send + segment_delay[segment] if n_segments else trace.send * np.nan
        return PlayoutSchedule(
            self.name,
            slot,
            slot.copy(),
            details={"segments": n_segments, "segment_delay": segment_delay},
        )


class ChunkPlayout(PlayoutPolicy):
    """Chunk-based Jitter Management (CJM), seed 001's pseudo-code.

    Reading of the pseudo-code (seed 001, "Algorithm"):

    * [Reading packets] arriving packets are stored in a receive buffer of
      ``buffer_chunks`` chunks of ``chunk_packets`` packets of at most
      ``max_packet_bytes`` bytes (seed: 100 x 50 x 576 B = 2.88 MB).
    * [Chunking] chunk k holds the packets with sequence positions
      ``k*chunk_packets ... (k+1)*chunk_packets - 1``. A chunk is complete when
      all of its packets are in the buffer, or when a packet of a later chunk
      arrives (the sender has moved on; what is missing is lost or late).
    * [PlayOut chunks] chunks are read from the buffer in order, each as soon
      as it is complete and the previous one has been played; the packets of a
      chunk are streamed out with their original spacing (the sender's timing),
      and playout waits for ``start_chunks`` complete chunks before it begins.
    * [Padding] packets missing when their chunk is read are replaced by padding
      ("append extra bits to make chunk filled"); packets arriving after their
      chunk was read are late. A packet of a new chunk that finds the buffer
      holding ``buffer_chunks`` chunks is dropped (overflow). Overflow is decided
      per chunk, at the arrival of its first packet; read times are those of the
      schedule without overflow (a refused chunk is played as padding).

    The last, incomplete chunk of a trace is read at its last arrival ("while
    buffer is not empty").
    """

    def __init__(
        self,
        chunk_packets: int = 50,
        buffer_chunks: int = 100,
        max_packet_bytes: int = 576,
        start_chunks: int = 1,
        name: str = "cjm",
    ) -> None:
        for label, value in (
            ("chunk_packets", chunk_packets),
            ("buffer_chunks", buffer_chunks),
            ("max_packet_bytes", max_packet_bytes),
            ("start_chunks", start_chunks),
        ):
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
                raise ValueError(f"{label} must be an int >= 1, got {value!r}")
        if start_chunks > buffer_chunks:
            raise ValueError("start_chunks cannot exceed buffer_chunks")
        self.chunk_packets = int(chunk_packets)
        self.buffer_chunks = int(buffer_chunks)
        self.max_packet_bytes = int(max_packet_bytes)
        self.start_chunks = int(start_chunks)
        self.name = name

    @property
    def buffer_bytes(self) -> int:
        return self.buffer_chunks * self.chunk_packets * self.max_packet_bytes

    def schedule(self, trace: VoiceTrace) -> PlayoutSchedule:
        n = len(trace)
        k_size = self.chunk_packets
        chunk = np.arange(n) // k_size
        n_chunks = int(chunk[-1]) + 1 if n else 0
        starts = np.arange(n_chunks) * k_size
        arrival = np.where(trace.received, trace.arrival, np.inf)
        if n_chunks == 0:
            empty = np.empty(0)
            return PlayoutSchedule(self.name, empty, empty.copy(), np.zeros(0, bool))

        complete = np.maximum.reduceat(arrival, starts)  # inf unless every packet arrived
        first_in = np.minimum.reduceat(arrival, starts)  # first arrival of each chunk
        later = np.concatenate((np.minimum.accumulate(first_in[::-1])[::-1][1:], [np.inf]))
        close = np.minimum(complete, later)
        # Flush: an incomplete chunk with no later arrivals is read at its last arrival.
        last_in = np.maximum.reduceat(np.where(trace.received, trace.arrival, -np.inf), starts)
        flush = np.isinf(close) & np.isfinite(first_in)
        close[flush] = last_in[flush]
        playable = np.isfinite(close)  # False only for trailing chunks nothing of which arrived

        reference = trace.send[starts]  # send time of each chunk's first packet
        lag = np.full(n_chunks, np.nan)  # read time minus the chunk's first send time
        m = int(np.count_nonzero(playable))
        if m:
            x = close[:m] - reference[:m]
            first_ready = close[: min(self.start_chunks, m)].max()
            x[0] = first_ready - reference[0]
            lag[:m] = np.maximum.accumulate(x)
        read = reference + lag  # when each chunk is taken from the buffer
        slot = trace.send + lag[chunk]
        deadline = read[chunk]

        # Buffer occupancy in chunks: a chunk enters with its first packet and leaves
        # when it is read. Chunks arrive in order of their first packet (ties: by
        # sequence); one that finds the buffer full is refused.
        in_buffer: list[float] = []
        refused = np.zeros(n_chunks, dtype=bool)
        max_occupancy = 0
        has_packets = np.flatnonzero(np.isfinite(first_in) & ~np.isnan(read))
        for k in has_packets[np.lexsort((has_packets, first_in[has_packets]))]:
            while in_buffer and in_buffer[0] <= first_in[k]:
                heapq.heappop(in_buffer)
            if len(in_buffer) >= self.buffer_chunks:
                refused[k] = True
                continue
            # A chunk read before any of its packets arrived never occupies the buffer.
            if read[k] > first_in[k]:
                heapq.heappush(in_buffer, float(read[k]))
            max_occupancy = max(max_occupancy, len(in_buffer))
        dropped = refused[chunk] & trace.received

        present = trace.received & (arrival <= deadline) & ~dropped
        padded_packets = np.bincount(chunk, weights=~present, minlength=n_chunks)
        details: dict[str, Any] = {
            "chunks": n_chunks,
            "chunk_read_time": read,
            "chunk_close_time": close,
            "max_occupancy_chunks": max_occupancy,
            "overflow_chunks": int(refused.sum()),
            "padded_packets": int(padded_packets.sum()),
            "buffer_bytes": self.buffer_bytes,
        }
        if trace.size is not None:
            carried = np.bincount(
                chunk, weights=np.where(present, trace.size, 0), minlength=n_chunks
            )
            details["padding_bytes"] = int(m * k_size * self.max_packet_bytes - carried[:m].sum())
        return PlayoutSchedule(self.name, slot, deadline, dropped, details)


def _stats(values: np.ndarray, prefix: str) -> dict[str, float]:
    if len(values) == 0:
        return {f"{prefix}_mean": np.nan, f"{prefix}_p99": np.nan, f"{prefix}_max": np.nan}
    return {
        f"{prefix}_mean": float(np.mean(values)),
        f"{prefix}_p99": float(np.percentile(values, 99)),
        f"{prefix}_max": float(np.max(values)),
    }


def _jitter_stats(send: np.ndarray, receive: np.ndarray, prefix: str) -> dict[str, float]:
    """Jitter of one stream: ``receive`` is NaN for packets not in it.

    ``<prefix>_jitter``: RFC 3550 interarrival jitter, mean of the running
    estimate over the packets in receive order; ``_jitter_final``: its last
    value; ``_ipdv_mean``: mean |RFC 3393 IPDV| of packets consecutive in
    sending order (:mod:`transportlab.models.metrics`).
    """
    present = ~np.isnan(receive)
    if present.sum() < 2:
        return {
            f"{prefix}_jitter": np.nan,
            f"{prefix}_jitter_final": np.nan,
            f"{prefix}_ipdv_mean": np.nan,
        }
    order = np.flatnonzero(present)
    order = order[np.argsort(receive[order], kind="stable")]
    j = metrics.rfc3550_jitter_series(receive[order] - send[order]).to_numpy()
    variation = metrics.ipdv(receive - send).to_numpy()
    return {
        f"{prefix}_jitter": float(j.mean()),
        f"{prefix}_jitter_final": float(j[-1]),
        f"{prefix}_ipdv_mean": float(np.mean(np.abs(variation))) if len(variation) else np.nan,
    }


def evaluate(trace: VoiceTrace, schedule: PlayoutSchedule) -> dict[str, float]:
    """Loss, delay and jitter of one call under one playout schedule.

    Rates are fractions of the packets sent: ``network_loss_rate`` (never
    arrived), ``late_loss_rate`` (arrived, not played), ``total_loss_rate`` (both:
    lost to the listener).
    ``delay_*`` is the one-way network delay of received packets (before
    playout), ``playout_delay_*`` the send-to-playout time of played packets.
    Jitter (RFC 3550, mean of the running estimate over the packets; RFC 3393
    IPDV of consecutive packets) before playout is taken on arrival times, after
    playout on playout times.
    """
    n = len(trace)
    received = trace.received
    played = schedule.played(trace)
    late = received & ~played
    result: dict[str, float] = {
        "sent": float(n),
        "received": float(received.sum()),
        "played": float(played.sum()),
        "late": float(late.sum()),
        "network_loss_rate": float(1 - received.sum() / n) if n else np.nan,
        "late_loss_rate": float(late.sum() / n) if n else np.nan,
        "total_loss_rate": float(1 - played.sum() / n) if n else np.nan,
    }
    result.update(_stats(trace.arrival[received] - trace.send[received], "delay"))
    result.update(_stats(schedule.slot[played] - trace.send[played], "playout_delay"))
    result.update(_jitter_stats(trace.send, trace.arrival, "before"))
    result.update(_jitter_stats(trace.send, np.where(played, schedule.slot, np.nan), "after"))
    return result
