"""What a sender of the interleaving cases put on the link, measured from a wire table.

A wire table (:func:`.interleaving.wire_from_oracle`, :func:`.interleaving.run_model_wire`)
has one row per DATA / I-DATA chunk handed to the forward link (``kind`` chunk), per SACK
the receiver sent (sack), per forward packet the link's queue dropped (drop) and, for
usrsctp, per T3-rtx expiry (t3). These functions turn it into the evidence the
interleaving differences name: the order in which the scheduler gave streams their TSNs,
the TSNs of other messages inside a fragmented DATA message, the small messages' wait at
the sender and on the link, the losses the sender caused at the queue. Pure pandas.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: Chunk flag bits (RFC 9260 3.3.1, RFC 8260 2.1).
FLAG_END, FLAG_BEGIN = 1, 2
BULK_STREAM, SMALL_STREAM = 0, 1


def chunks(wire: pd.DataFrame) -> pd.DataFrame:
    """Every DATA / I-DATA chunk row, retransmissions included, in the order sent."""
    return wire[wire.kind == "chunk"].reset_index(drop=True)


def first_transmissions(wire: pd.DataFrame) -> pd.DataFrame:
    """Each TSN's first transmission, in TSN order: the order the scheduler chose."""
    c = chunks(wire)
    return c.drop_duplicates("tsn").sort_values("tsn", kind="stable", ignore_index=True)


def retransmitted_chunks(wire: pd.DataFrame) -> int:
    """Chunks sent again (a TSN seen before)."""
    c = chunks(wire)
    return int(c.tsn.duplicated().sum())


def queue_drops(wire: pd.DataFrame) -> int:
    """Forward packets the link's drop-tail queue dropped (the sender overran it)."""
    return int((wire.kind == "drop").sum())


def stream_runs(wire: pd.DataFrame) -> pd.DataFrame:
    """Consecutive TSNs of one stream (first transmissions): ``stream``, ``start_s``,
    ``chunks``, ``messages`` (distinct SSNs / MIDs in the run), ``first_tsn``."""
    f = first_transmissions(wire)
    if f.empty:
        return pd.DataFrame(columns=["stream", "start_s", "chunks", "messages", "first_tsn"])
    run_id = f.stream.ne(f.stream.shift()).cumsum()
    g = f.groupby(run_id, sort=True)
    return pd.DataFrame(
        {
            "stream": g.stream.first().to_numpy(),
            "start_s": g.time_s.min().to_numpy(),
            "chunks": g.size().to_numpy(),
            "messages": g.message.nunique().to_numpy(),
            "first_tsn": g.tsn.min().to_numpy(),
        }
    )


def small_runs_between_bulk(wire: pd.DataFrame) -> list[int]:
    """Small messages given TSNs before the first bulk chunk and in each gap between two
    bulk runs, in order (the last entry: after the last bulk chunk)."""
    runs = stream_runs(wire)
    out = [0]
    for r in runs.itertuples():
        if r.stream == BULK_STREAM:
            out.append(0)
        else:
            out[-1] += int(r.messages)
    return out


def bulk_messages(wire: pd.DataFrame) -> pd.DataFrame:
    """Per bulk message (SSN or MID): ``first_tsn``, ``last_tsn``, ``chunks`` and
    ``foreign`` (TSNs of other messages between its first and last fragment; with DATA
    RFC 9260 6.9 requires 0: the fragments take consecutive TSNs)."""
    f = first_transmissions(wire)
    b = f[f.stream == BULK_STREAM]
    g = b.groupby("message", sort=True)
    out = pd.DataFrame(
        {"first_tsn": g.tsn.min(), "last_tsn": g.tsn.max(), "chunks": g.size()}
    ).reset_index()
    out["foreign"] = out.last_tsn - out.first_tsn + 1 - out.chunks
    return out


def small_timing(wire: pd.DataFrame, messages: pd.DataFrame, due) -> pd.DataFrame:
    """Per small message: ``due_s``, ``sent_s`` (its chunk first handed to the link),
    ``delivered_s``, ``sender_wait_s`` (sent - due: the scheduler and the cwnd) and
    ``link_s`` (delivered - sent: the link's queue, transmission, propagation and any
    recovery). The k-th small message is stream 1's message k (SSN or MID)."""
    f = first_transmissions(wire)
    small = f[f.stream == SMALL_STREAM].groupby("message").time_s.min()
    m = messages[messages.stream == SMALL_STREAM].copy()
    m["k"] = m.id - m.id.min() if len(m) else m.id
    out = pd.DataFrame(
        {
            "id": m.id.to_numpy(),
            "due_s": m.id.map(due).to_numpy(),
            "sent_s": m.k.map(small).to_numpy(dtype=float),
            "delivered_s": m.delivered_s.to_numpy(),
        }
    ).sort_values("id", ignore_index=True)
    out["sender_wait_s"] = out.sent_s - out.due_s
    out["link_s"] = out.delivered_s - out.sent_s
    return out


def cumulative_ack(wire: pd.DataFrame) -> pd.DataFrame:
    """The receiver's SACKs: ``time_s`` and ``tsn`` (cumulative TSN ack, relative)."""
    return wire[wire.kind == "sack"][["time_s", "tsn"]].reset_index(drop=True)


def ack_stall(wire: pd.DataFrame) -> dict:
    """Where the cumulative TSN ack stopped: ``cum_ack`` (highest), ``since_s`` (when the
    receiver first acked it), ``next_sent`` (times the TSN after it was sent), ``sacks_after``
    (SACKs repeating it), ``highest_tsn`` sent, ``t3`` (T3-rtx expiries, usrsctp only)."""
    acks = cumulative_ack(wire)
    c = chunks(wire)
    if acks.empty:
        return {
            "cum_ack": -1,
            "since_s": float("nan"),
            "next_sent": 0,
            "sacks_after": 0,
            "highest_tsn": int(c.tsn.max()) if len(c) else -1,
            "t3": 0,
        }
    top = int(acks.tsn.max())
    since = float(acks.time_s[acks.tsn == top].min())
    return {
        "cum_ack": top,
        "since_s": since,
        "next_sent": int((c.tsn == top + 1).sum()),
        "sacks_after": int(((acks.tsn == top) & (acks.time_s > since)).sum()),
        "highest_tsn": int(c.tsn.max()) if len(c) else -1,
        "t3": int((wire.kind == "t3").sum()),
    }


def undelivered_fragments_below(wire: pd.DataFrame, tsn: int) -> int:
    """Bulk fragments with TSNs up to ``tsn`` (all acked, so held by the receiver) of bulk
    messages never completed: what the receiver's reassembly queue keeps."""
    f = first_transmissions(wire)
    return int(((f.stream == BULK_STREAM) & (f.tsn <= tsn)).sum())


def stranded_fragments(wire: pd.DataFrame, tsn: int) -> int:
    """Bulk fragments acked (TSN up to ``tsn``) that cannot join their DATA message: those
    from the first TSN of another message inside it on (the receiver reassembles DATA by
    consecutive TSNs, RFC 9260 6.9), which stay on its reassembly queue for good."""
    f = first_transmissions(wire)
    held = 0
    for _, g in f[f.stream == BULK_STREAM].groupby("message"):
        tsns = g.tsn.sort_values()
        gap = tsns.diff().fillna(1) > 1
        if gap.any():
            held += int(((tsns >= tsns[gap].min()) & (tsns <= tsn)).sum())
    return held


def packet_streams(wire: pd.DataFrame) -> pd.Series:
    """Per forward packet carrying new DATA: how many streams its first transmissions
    come from (1 = one stream per packet, RFC 8260 3.3's round robin per packet)."""
    f = first_transmissions(wire)
    return f.groupby("packet").stream.nunique()


def median(values) -> float:
    v = pd.Series(values, dtype=float).dropna()
    return float(v.median()) if len(v) else float("nan")


def quantile(values, q: float) -> float:
    v = pd.Series(values, dtype=float).dropna()
    return float(np.quantile(v, q)) if len(v) else float("nan")
