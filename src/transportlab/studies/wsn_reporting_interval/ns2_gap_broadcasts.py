"""Why NS-2's broadcasts collided far more often than ns-3's: every collision paired with
the frame it collided with, in both simulators (issue 25, notebook 04 section 8.7).

:mod:`~transportlab.studies.wsn_reporting_interval.ns2_gap`'s collision table showed, on
the same field and settings, NS-2 losing several times more decodable routing frames in
collisions per routing frame sent than ns-3. This module found the mechanism. For every
decodable frame a receiver lost in a collision (NS-2: a ``d ... -Nw COL`` line of the new
wireless trace; ns-3: ``Ns2CollisionDrop`` of ``SensitivityFilteredYansWifiPhy``, the
frames NS-2 would trace) it finds the transmission that was lost (:func:`ns2_frames`,
:func:`ns3_frames`) and the frame it collided with (:func:`collision_pairs`): the other
transmission that overlapped it in time and that the receiver senses, the one whose start
is nearest the lost frame's. Each pair is then classified by

* the start-time offset of the two frames: in the same 802.11 slot (the later sender
  could not have sensed the earlier frame yet), within DIFS plus the largest first
  backoff (what a random backoff on an idle medium spreads senders over), or later;
* whether the later sender senses the earlier one's frames (positions, powers and
  CSThresh, and NS-2's culling square): if not, a hidden terminal;
* the kinds of both frames, and which of them arrived first.

The pairs showed that ns-3's port of NS-2's rule missed the commonest case: two frames
starting within ns-3's 4-us preamble detection window of each other (two senders whose
backoffs end in the same slot) were resolved by ns-3's preamble detection, before the
PHY had a current reception for the rule to judge. ``SensitivityFilteredYansWifiPhy``
now applies the rule from a frame's first bit, as ns-2.35's Mac802_11::recv does
(issue 25); the recount of the frames the preamble detection dropped
(:func:`ns3_preamble_losses`, the ``ns3_preamble`` variant) stays as the check that it
leaves little out.

:func:`summary` tabulates the pairs per simulator; :func:`write` runs one replication of
both simulators at each interval of :data:`FULL_INTERVALS` (UDP) and writes
``ns2_gap_broadcasts.csv``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import files, paths
from transportlab.ns2 import wireless_trace
from transportlab.ns2.runner import run_script
from transportlab.studies.wsn_reporting_interval import STUDY, ns2_gap, ns2_scenario, scenario
from transportlab.studies.wsn_reporting_interval.network import (
    node_ranges,
    positions,
    two_ray_rx_power_w,
    tx_power_for_range_w,
)

__all__ = [
    "FULL_INTERVALS",
    "OFFSET_BINS",
    "collision_pairs",
    "key_numbers",
    "ns2_frames",
    "ns3_frames",
    "ns3_preamble_losses",
    "power_matrix",
    "sensing_matrix",
    "summary",
    "traced_frames",
    "write",
]

#: 802.11b DSSS timing, the same in both simulators (NS-2's Mac/802_11 defaults, ns-3's
#: 802.11b): a slot, DIFS and the first contention window (CWmin + 1 slots)
SLOT_S = 20e-6
DIFS_S = 50e-6
CW_MIN = 31
#: the offset classes: same slot; within DIFS plus the largest first backoff (what NS-2's
#: Mac802_11::send spreads the senders of an idle medium over); later than that
OFFSET_BINS = (
    ("same slot (< 20 us)", SLOT_S),
    ("within DIFS + first backoff (20-670 us)", DIFS_S + CW_MIN * SLOT_S),
    ("later (>= 670 us)", np.inf),
)
#: NS-2's CPThresh_ (the study's capture threshold, 10 dB) as a power ratio
CAPTURE_RATIO = 10 ** (ns2_scenario.NS2_CAPTURE_THRESHOLD_DB / 10)
#: a frame reaches its farthest receiver within this (a few hundred metres at c) after it
#: starts: the tolerance of "the drop happened during the frame"
PROPAGATION_S = 2e-6
#: the kinds of frame in the tables
RREQ, RREP, RERR, ROUTING_OTHER = "RREQ", "RREP", "RERR", "routing other"
DATA, ARP, RTS, CTS, ACK, OTHER = "data", "ARP", "RTS", "CTS", "ACK", "other"
RTS_CTS = "RTS or CTS"  # an NS-2 COL line of a control frame with a duration
#: AODV message types: NS-2's ``-Pt`` (aodv_packet.h AODVTYPE_*) and ns-3's TypeHeader
#: (RFC 3561 numbers)
NS2_AODV_TYPES = {"0x2": RREQ, "0x4": RREP, "0x8": RERR}
NS3_AODV_TYPES = {1: RREQ, 2: RREP, 3: RERR}
#: the packet counter's class numbers (packet-counter.h PacketClass) by kind
NS3_CLASSES = {0: RTS, 1: CTS, 2: ACK, 5: ARP, 7: DATA, 8: DATA, 9: DATA, 10: DATA, 11: DATA}
ROUTING_CLASS = 6
#: the points traced in full mode (those of ``ns2_gap``)
FULL_INTERVALS = ns2_gap.FULL_INTERVALS
OUTPUT = "ns2_gap_broadcasts"
#: what :func:`write` writes (read by scripts/derive_provenance.py)
OUTPUTS = (OUTPUT,)


# ----------------------------------------------------------------------------- NS-2

#: new-trace keys read: the MAC line's (time, node, level, reason, IP type and size, MAC
#: duration and addresses, the ARP/AODV tag), AODV's message type and SCTP's chunk type
NS2_FIELDS = {**wireless_trace.MAC_FIELDS, "Pt": "aodv_type", "Pct": "chunk"}


def _mac_send_or_collision(line: str) -> bool:
    """The MAC's send lines and the COL drop lines (the receptions are most of a trace)."""
    return "-Nl MAC" in line and (line[:1] == "s" or (line[:1] == "d" and "-Nw COL" in line))


def _ns2_kinds(lines: pd.DataFrame, classes: np.ndarray) -> np.ndarray:
    aodv = lines["aodv_type"].astype(str).map(NS2_AODV_TYPES).fillna(ROUTING_OTHER)
    named = {"udp-data": DATA, "tcp-data": DATA, "tcp-control": DATA, "sctp-data": DATA,
             "sctp-control": DATA, "arp": ARP, "rts": RTS, "cts": CTS, "ack": ACK}  # fmt: skip
    return np.where(classes == "routing", aodv.to_numpy(),
                    pd.Series(classes).map(named).fillna(OTHER).to_numpy())  # fmt: skip


def ns2_frames(trace) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The frames an NS-2 run's MACs sent and the decodable frames lost in collisions,
    from its trace (path or text stream).

    ``frames``: ``node``, ``start``, ``duration`` (NS-2's ``txtime``), ``kind``, ``to``
    (receiver node, -1 broadcast). ``losses``: ``node`` (the receiver), ``time``,
    ``frame`` (the row of ``frames`` lost: the latest frame of the same kind that started
    by then and lasted until then, sent by the line's MAC source, ``-Ms``, or for a CTS
    or ACK, which carry no sender, addressed to the line's ``-Md``)."""
    lines = wireless_trace.read_lines(trace, _mac_send_or_collision, NS2_FIELDS)
    sent = lines[lines["event"] == "s"].reset_index(drop=True)
    # the package's own classification of NS-2's MAC lines (class and air time)
    macs = ns2_scenario._mac_frames(sent)
    frames = pd.DataFrame({
        "node": sent["node"].to_numpy(np.int64),
        "start": sent["time"].to_numpy(float),
        "duration": macs["airtime"].to_numpy(float),
        "kind": _ns2_kinds(sent, macs["packet_class"].to_numpy()),
        "to": wireless_trace.broadcast_or_node(sent["mac_dst"]),
    })  # fmt: skip
    dropped = lines[lines["event"] == "d"].reset_index(drop=True)
    losses = pd.DataFrame({
        "node": dropped["node"].to_numpy(np.int64),
        "time": dropped["time"].to_numpy(float),
        "kind": _ns2_lost_kinds(dropped),
        "sender": wireless_trace.hex_numbers(dropped["mac_src"]),
        "to": wireless_trace.broadcast_or_node(dropped["mac_dst"]),
    })  # fmt: skip
    return frames, _match_ns2(frames, losses)


def _ns2_lost_kinds(dropped: pd.DataFrame) -> np.ndarray:
    """A COL line's kind: an IP packet's by its type, ``-P arp`` ARP; a control frame with
    a duration is an RTS or a CTS (:func:`_match_ns2` tells them apart by the frame it
    finds), one without is an ACK. Mac802_11::discard traces only the control frames
    addressed to the node (and its own RTS, never received)."""
    ip = dropped["type"].notna() & ~dropped["type"].isin(("nan", "None"))
    classes = np.where(ip, ns2_scenario._ip_classes(dropped.assign(level="MAC")), "")
    arp = ~ip & (dropped["tag"] == "arp")
    control = np.where(wireless_trace.hex_numbers(dropped["duration"]) > 0, "rts/cts", "ack")
    classes = np.where(ip, classes, np.where(arp, "arp", control))
    return np.where(classes == "rts/cts", RTS_CTS, _ns2_kinds(dropped, classes))


def _match_ns2(frames: pd.DataFrame, losses: pd.DataFrame) -> pd.DataFrame:
    """``losses`` with ``frame``: the row of ``frames`` each COL line lost (-1: none).

    A data, routing or ARP frame is looked up by its sender (``-Ms``), a control frame by
    its receiver (``-Md``: a CTS or ACK carries no sender, and node 0's RTS reads 0 as
    well), an RTS or CTS among both kinds (the line does not tell them apart)."""
    table = frames.assign(
        frame=np.arange(len(frames)),
        end=frames["start"] + frames["duration"],
        match_kind=frames["kind"].replace({RTS: RTS_CTS, CTS: RTS_CTS}),
    )
    control = losses["kind"].isin((RTS_CTS, ACK)).to_numpy()
    found = np.full(len(losses), -1, dtype=np.int64)
    for mask, by, key in ((~control, "node", "sender"), (control, "to", "to")):
        if not mask.any():
            continue
        left = losses[mask].assign(
            row=np.flatnonzero(mask), key=losses.loc[mask, key], match_kind=losses.loc[mask, "kind"]
        )
        right = table.assign(key=table[by])[["start", "end", "key", "match_kind", "frame"]]
        merged = pd.merge_asof(left.sort_values("time"), right.sort_values("start"),
                               left_on="time", right_on="start", by=["key", "match_kind"],
                               direction="backward")  # fmt: skip
        ok = merged["frame"].notna() & (merged["time"] <= merged["end"] + PROPAGATION_S)
        found[merged.loc[ok, "row"].to_numpy()] = merged.loc[ok, "frame"].to_numpy(np.int64)
    return losses.assign(frame=found)[["node", "time", "frame"]]


# ----------------------------------------------------------------------------- ns-3


def _ns3_table(frames: pd.DataFrame) -> pd.DataFrame:
    kinds = frames["packet_class"].map(NS3_CLASSES).fillna(OTHER)
    routing = frames["packet_class"] == ROUTING_CLASS
    kinds = kinds.where(~routing, frames["aodv_type"].map(NS3_AODV_TYPES).fillna(ROUTING_OTHER))
    return pd.DataFrame({
        "node": frames["node"].to_numpy(np.int64), "start": frames["start"].to_numpy(float),
        "duration": frames["duration"].to_numpy(float), "kind": kinds.to_numpy(),
        "to": frames["to"].to_numpy(np.int64),
    })  # fmt: skip


def _match_uid(frames: pd.DataFrame, table: pd.DataFrame, events: pd.DataFrame) -> np.ndarray:
    """The row of ``table`` (:func:`_ns3_table` of ``frames``) each event (``node``,
    ``time``, ``uid``) is about: the latest frame of its uid that started by then and
    lasted until then, from another node (a retransmission keeps its MPDU's uid); -1."""
    right = table.assign(frame=np.arange(len(table)), uid=frames["uid"].to_numpy(np.int64),
                         end=table["start"] + table["duration"])  # fmt: skip
    left = events.reset_index(drop=True).assign(row=np.arange(len(events)))
    merged = pd.merge_asof(left.sort_values("time"), right.sort_values("start")[
        ["start", "end", "uid", "frame", "node"]].rename(columns={"node": "sender"}),
        left_on="time", right_on="start", by="uid", direction="backward")  # fmt: skip
    ok = (merged["frame"].notna() & (merged["time"] <= merged["end"] + PROPAGATION_S)
          & (merged["sender"] != merged["node"]))  # fmt: skip
    found = np.full(len(events), -1, dtype=np.int64)
    found[merged.loc[ok, "row"].to_numpy()] = merged.loc[ok, "frame"].to_numpy(np.int64)
    return found


def ns3_frames(frames: pd.DataFrame, losses: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A run's ``frames`` and ``frame_losses`` (``RunOptions(trace_frames=True)``) in the
    form :func:`ns2_frames` returns, keeping the losses NS-2 would trace (a COL line),
    each matched to its frame by uid (:func:`_match_uid`)."""
    table = _ns3_table(frames)
    traced = losses[losses["traced"]].reset_index(drop=True)
    found = _match_uid(frames, table, traced)
    lost = {"node": traced["node"].to_numpy(np.int64), "time": traced["time"].to_numpy(float)}
    return table, pd.DataFrame({**lost, "frame": found})


def ns3_preamble_losses(
    frames: pd.DataFrame,
    drops: pd.DataFrame,
    power: np.ndarray,
    params: Mapping[str, Any],
    counted: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """The frames ns-3's preamble detection dropped (``frame_preamble_drops``) that NS-2
    would trace as collision losses, in :func:`ns2_frames`' losses form.

    A frame arriving within 4 us of another one (ns-3's preamble detection window), as
    two senders whose backoffs end in the same slot do, is handled by ns-3's preamble
    detection: one is kept if its SNR passes the threshold, the other dropped. Until
    issue 25's preamble fix, ``Ns2CollisionDrop`` applied NS-2's rule (Mac802_11::recv:
    the frame being received and a newcomer collide unless the first is CPThresh_
    stronger) only once the PHY had a current reception, after that window, and counted
    none of them: this recount was the check of that gap. The rule now judges a frame
    from its first bit and counts those losses itself, so the recount adds only the
    dropped frames its pairing judges otherwise than the PHY (the nearest overlapping
    frame against the frame the receiver held).
    Kept here: each dropped frame that is decodable at the receiver (``power[sender,
    receiver]`` at or above RXThresh), that NS-2 would trace (addressed to the receiver,
    or broadcast and not a control frame) and whose nearest overlapping frame
    (:func:`collision_pairs`' interferer) NS-2 would collide it with (the earlier of the
    two less than ``CPThresh_`` stronger at the receiver). ``counted``: the losses the rule
    counted (:func:`ns3_frames`); a frame among them is left out (a newcomer that arrives
    after the preamble detection but before the PHY header's end is both counted by the
    rule and dropped as BUSY_DECODING_PREAMBLE)."""
    table = _ns3_table(frames)
    found = _match_uid(frames, table, drops)
    events = drops.reset_index(drop=True).assign(frame=found)
    events = events[events["frame"] >= 0]
    sender = table["node"].to_numpy()[events["frame"]]
    to = table["to"].to_numpy()[events["frame"]]
    kind = table["kind"].to_numpy()[events["frame"]]
    receiver = events["node"].to_numpy()
    decodable = power[sender, receiver] >= params["rx_threshold_w"] * (1 - 1e-9)
    traced = (to == receiver) | ((to == -1) & ~np.isin(kind, (RTS, CTS, ACK)))
    kept = events[decodable & traced].drop_duplicates(["node", "frame"])
    if counted is not None:
        known = pd.MultiIndex.from_frame(counted[["node", "frame"]])
        kept = kept[~pd.MultiIndex.from_frame(kept[["node", "frame"]]).isin(known)]
    losses = kept[["node", "time", "frame"]].reset_index(drop=True)
    pairs = collision_pairs(table, losses, power >= params["cs_threshold_w"])
    collides = np.zeros(len(losses), dtype=bool)
    for i, pair in enumerate(pairs.itertuples()):
        if pair.interferer < 0:
            continue
        first, later = (pair.lost_sender, pair.interferer) if pair.offset_s >= 0 else \
            (pair.interferer, pair.lost_sender)  # fmt: skip
        ratio = power[first, pair.receiver] / power[later, pair.receiver]
        collides[i] = ratio < CAPTURE_RATIO
    return losses[collides].reset_index(drop=True)


# ----------------------------------------------------------------------------- pairing


def power_matrix(params: Mapping[str, Any], seed: int, run: int) -> np.ndarray:
    """``power[i, j]``: the power (W) node ``j`` receives from node ``i`` (TwoRayGround,
    each node at the power of its range, as both simulators set it); 0 on the diagonal."""
    where = np.asarray(positions(params, seed, run), dtype=float)
    ranges = node_ranges(params)
    n = len(where)
    power = np.zeros((n, n))
    for i in range(n):
        tx = tx_power_for_range_w(ranges[i], params["rx_threshold_w"], params["frequency_hz"])
        for j in range(n):
            if i != j:
                d = float(np.hypot(*(where[i] - where[j])))
                power[i, j] = two_ray_rx_power_w(tx, d, params["frequency_hz"])
    return power


def sensing_matrix(
    params: Mapping[str, Any], seed: int, run: int, culling_m: float | None = None
) -> np.ndarray:
    """``senses[i, j]``: node ``j`` senses node ``i``'s frames (NS-2's WirelessPhy::sendUp:
    received power (:func:`power_matrix`) at or above CSThresh) and, given NS-2's culling
    distance ``culling_m``, ``j`` lies in ``i``'s culling square (``|dx|`` and ``|dy|``
    at most ``culling_m`` + 5 m: WirelessChannel::getAffectedNodes)."""
    senses = power_matrix(params, seed, run) >= params["cs_threshold_w"]
    if culling_m is not None and np.isfinite(culling_m):
        where = np.asarray(positions(params, seed, run), dtype=float)
        near = np.abs(where[:, None, :] - where[None, :, :]) <= culling_m + 5.0
        senses &= near.all(axis=2)
    np.fill_diagonal(senses, False)
    return senses


def _offset_bin(offset: float) -> str:
    for name, upper in OFFSET_BINS:
        if abs(offset) < upper:
            return name
    return OFFSET_BINS[-1][0]


def collision_pairs(frames: pd.DataFrame, losses: pd.DataFrame, senses: np.ndarray):
    """Per lost frame (``losses``' rows with a ``frame``), the frame it collided with.

    ``frames``: ``node``, ``start``, ``duration``, ``kind``; ``losses``: ``node`` (the
    receiver), ``frame`` (the row lost); ``senses[i, j]``: ``j`` senses ``i``'s frames.
    The interferer is the transmission of a third node (neither the receiver nor the
    lost frame's sender) that the receiver senses and that overlaps the lost frame in
    time, the one whose start is nearest the lost frame's start. Columns: ``receiver``,
    ``lost_sender``, ``lost_kind``, ``interferer`` (its sender, -1 none found),
    ``interferer_kind``, ``offset_s`` (interferer start - lost start), ``offset_bin``
    (:data:`OFFSET_BINS`), ``first`` (``lost``, ``interferer`` or ``same start``),
    ``later_senses_earlier`` (the later of the two senders senses the earlier one's
    frames; for the same start, both directions), ``hidden`` (it does not)."""
    matched = losses[losses["frame"] >= 0]
    order = np.argsort(frames["start"].to_numpy(), kind="stable")
    start = frames["start"].to_numpy(float)[order]
    end = start + frames["duration"].to_numpy(float)[order]
    node = frames["node"].to_numpy(np.int64)[order]
    kind = frames["kind"].to_numpy(object)[order]
    longest = float(frames["duration"].max()) if len(frames) else 0.0
    rows = []
    for receiver, lost in zip(matched["node"].to_numpy(), matched["frame"].to_numpy(),
                              strict=True):  # fmt: skip
        s0 = float(frames["start"].iat[lost])
        e0 = s0 + float(frames["duration"].iat[lost])
        sender = int(frames["node"].iat[lost])
        lo = np.searchsorted(start, s0 - longest, side="left")
        hi = np.searchsorted(start, e0, side="left")
        window = np.arange(lo, hi)
        window = window[(end[window] > s0) & (node[window] != receiver)
                        & (node[window] != sender) & senses[node[window], receiver]]  # fmt: skip
        row = {"receiver": int(receiver), "lost_sender": sender,
               "lost_kind": frames["kind"].iat[lost]}  # fmt: skip
        if not len(window):
            rows.append({**row, "interferer": -1, "interferer_kind": "none found",
                         "offset_s": np.nan, "offset_bin": "none found", "first": "",
                         "later_senses_earlier": False, "hidden": False})  # fmt: skip
            continue
        best = window[np.argmin(np.abs(start[window] - s0))]
        other = int(node[best])
        offset = float(start[best] - s0)
        if offset > 0:
            first, sensed = "lost", bool(senses[sender, other])
        elif offset < 0:
            first, sensed = "interferer", bool(senses[other, sender])
        else:
            first = "same start"
            sensed = bool(senses[sender, other] and senses[other, sender])
        rows.append({**row, "interferer": other, "interferer_kind": kind[best],
                     "offset_s": offset, "offset_bin": _offset_bin(offset), "first": first,
                     "later_senses_earlier": sensed, "hidden": not sensed})  # fmt: skip
    columns = ["receiver", "lost_sender", "lost_kind", "interferer", "interferer_kind",
               "offset_s", "offset_bin", "first", "later_senses_earlier", "hidden"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


#: RREQ starts by the idle time before them at their sender: at most DIFS plus the largest
#: first backoff after the end of a frame the sender sensed (or its own), i.e. it waited
#: for a busy medium and then counted its backoff down; or longer (sent on an idle medium)
AFTER_BUSY = ("within 670 us of a sensed frame's end (waited, then backoff)", "later")


def idle_before(frames: pd.DataFrame, senses: np.ndarray, kind: str = RREQ) -> np.ndarray:
    """For each frame of ``kind`` (in ``frames``' order), the time (s) from the end of the
    last frame its sender sensed or sent before it started to its start (inf if none in
    the 0.2 s before)."""
    order = np.argsort(frames["start"].to_numpy(), kind="stable")
    start = frames["start"].to_numpy(float)[order]
    end = start + frames["duration"].to_numpy(float)[order]
    node = frames["node"].to_numpy(np.int64)[order]
    picked = np.flatnonzero(frames["kind"].to_numpy(object)[order] == kind)
    idle = np.full(len(picked), np.inf)
    for k, i in enumerate(picked):
        window = np.arange(np.searchsorted(start, start[i] - 0.2), i)
        heard = (node[window] == node[i]) | senses[node[window], node[i]]
        window = window[heard & (end[window] <= start[i] + PROPAGATION_S)]
        if len(window):
            idle[k] = start[i] - end[window].max()
    return idle


def _family(kind: str) -> str:
    return "routing" if kind in (RREQ, RREP, RERR, ROUTING_OTHER) else kind


def summary(
    frames: pd.DataFrame,
    losses: pd.DataFrame,
    pairs: pd.DataFrame,
    senses: np.ndarray | None = None,
) -> pd.DataFrame:
    """One simulator's tallies: rows ``group``, ``category``, ``count``, ``share`` (of
    the group's total; for ``per frame sent``, the losses per frame of that kind sent).

    Groups: ``frames sent`` and ``losses`` by kind, ``per frame sent`` (losses of that
    kind per frame of that kind sent, and of each AODV message type), ``matched``
    (losses paired with their transmission and with an interferer), and for the routing
    frames lost (RREQ, RREP, RERR): ``routing: offset`` (:data:`OFFSET_BINS`),
    ``routing: sensing`` (hidden terminal or not), ``routing: offset and sensing``,
    ``routing: first``, ``routing: interferer kind``, ``routing: lost kind``; and
    ``all: offset``, ``all: sensing``, ``all: offset and sensing`` over every lost
    frame; given ``senses``, ``RREQ: idle before start`` (:data:`AFTER_BUSY`,
    :func:`idle_before`)."""
    rows = []

    def add(group: str, counts: pd.Series, total: float | None = None) -> None:
        whole = float(counts.sum()) if total is None else total
        for category, count in counts.items():
            rows.append({"group": group, "category": str(category), "count": float(count),
                         "share": float(count) / whole if whole else np.nan})  # fmt: skip

    lost_kind = frames["kind"].to_numpy(object)[losses.loc[losses["frame"] >= 0, "frame"]]
    sent = frames["kind"].map(_family).value_counts().sort_index()
    lost = pd.Series(lost_kind).map(_family).value_counts().sort_index()
    add("frames sent", sent)
    add("losses", lost)
    # by family (routing as one, as ns2_gap's collision table counts it), then each
    # AODV message type on its own: ns-3's AODV sends far more RREPs than NS-2's, so the
    # routing ratio mixes two populations; RREQ per RREQ compares like with like
    by_type = frames["kind"].value_counts()
    lost_by_type = pd.Series(lost_kind).value_counts()
    routing_types = [k for k in (RREQ, RREP, RERR) if k in by_type.index]
    for category, n_sent, n_lost in [
        *[(c, sent[c], lost.get(c, 0)) for c in sent.index],
        *[(c, by_type[c], lost_by_type.get(c, 0)) for c in routing_types],
    ]:
        rows.append({"group": "per frame sent", "category": category, "count": float(n_lost),
                     "share": float(n_lost) / float(n_sent) if n_sent else np.nan})  # fmt: skip
    found = pairs["interferer"] >= 0
    add(
        "matched",
        pd.Series(
            {
                "losses": len(losses),
                "with their frame": len(pairs),
                "with an interferer": int(found.sum()),
            }
        ),
        float(len(losses)),
    )
    for scope, mine in (("routing", pairs[found & pairs["lost_kind"].map(_family).eq("routing")]),
                        ("all", pairs[found])):  # fmt: skip
        bins = [name for name, _ in OFFSET_BINS]
        add(f"{scope}: offset", mine["offset_bin"].value_counts().reindex(bins, fill_value=0))
        sensing = mine.assign(s=np.where(mine["hidden"], "hidden terminal",
                                         "later sender senses the earlier"))  # fmt: skip
        add(f"{scope}: sensing", sensing["s"].value_counts().reindex(
            ["hidden terminal", "later sender senses the earlier"], fill_value=0))  # fmt: skip
        by_bin = sensing.groupby(["offset_bin", "s"]).size()
        for (offset_bin, s), count in by_bin.items():
            rows.append({"group": f"{scope}: offset and sensing",
                         "category": f"{offset_bin} | {s}", "count": float(count),
                         "share": float(count) / len(mine) if len(mine) else np.nan})  # fmt: skip
        if scope == "routing":
            add("routing: first", mine["first"].value_counts())
            add("routing: interferer kind", mine["interferer_kind"].value_counts())
            add("routing: lost kind", mine["lost_kind"].value_counts())
    if senses is not None:
        idle = idle_before(frames, senses)
        waited = int((idle <= DIFS_S + CW_MIN * SLOT_S + PROPAGATION_S).sum())
        add("RREQ: idle before start",
            pd.Series({AFTER_BUSY[0]: waited, AFTER_BUSY[1]: len(idle) - waited}))  # fmt: skip
    return pd.DataFrame(rows, columns=["group", "category", "count", "share"])


# ----------------------------------------------------------------------------- runs


def traced_frames(
    protocol: str = "udp",
    interval: float = 1.0,
    seed: int = 1,
    run: int = 1,
    quick: bool = False,
) -> dict[str, tuple[pd.DataFrame, pd.DataFrame, np.ndarray]]:
    """One point of ``intervals`` in both simulators with every frame traced:
    ``{variant: (frames, losses, senses)}`` in :func:`ns2_frames`' form, for the variants
    of :data:`VARIANTS` (ns-3's losses as its NS-2 rule counts them, and with the
    preamble-window losses NS-2 would count added: :func:`ns3_preamble_losses`). Not
    cached: one ns-3 run and one NS-2 run."""
    params = ns2_gap.point_params(protocol, interval, quick)
    ns3 = scenario.run_scenario(params, seed=seed, run=run,
                                options=scenario.RunOptions(trace_frames=True))  # fmt: skip
    culling3 = float(ns3["performance"]["ns2_culling_distance_m"].iloc[0])
    frames3, losses3 = ns3_frames(ns3["frames"], ns3["frame_losses"])
    power = power_matrix(params, seed, run)
    early = ns3_preamble_losses(
        ns3["frames"], ns3["frame_preamble_drops"], power, params, counted=losses3
    )
    ns2_params = ns2_scenario.PARAMETERS.validate(params)
    with run_script(ns2_scenario.tcl_script(ns2_params, seed, run),
                    timeout=ns2_scenario.TIMEOUT_SECONDS) as done:  # fmt: skip
        frames2, losses2 = ns2_frames(done.path(ns2_scenario.TRACE_FILE))
        culling2 = ns2_scenario.culling_distance_m(done.stdout)
    senses3 = sensing_matrix(params, seed, run, _culling(params, culling3))
    return {
        "ns3": (frames3, losses3, senses3),
        "ns3_preamble": (frames3, pd.concat([losses3, early], ignore_index=True), senses3),
        "ns2": (frames2, losses2, sensing_matrix(params, seed, run, culling2)),
    }


#: the tables' variants: ns-3's losses as its NS-2 rule counts them (ns2_gap's count),
#: the same run with the preamble-window losses NS-2 would count added, NS-2's COL lines
VARIANTS = {"ns3": "ns-3", "ns3_preamble": "ns-3 + preamble window", "ns2": "NS-2.35"}


def _culling(params: Mapping[str, Any], distance: float) -> float | None:
    return distance if params["carrier_sense_culling"] == "ns2" and distance >= 0 else None


def table(both: Mapping[str, tuple[pd.DataFrame, pd.DataFrame, np.ndarray]]) -> pd.DataFrame:
    """Each variant's :func:`summary` of one traced point, with ``simulator`` (the
    variant, :data:`VARIANTS`)."""
    parts = []
    for simulator, (frames, losses, senses) in both.items():
        pairs = collision_pairs(frames, losses, senses)
        parts.append(summary(frames, losses, pairs, senses).assign(simulator=simulator))
    return pd.concat(parts, ignore_index=True)


def write(
    protocol: str = "udp",
    intervals: Sequence[float] | None = None,
    seed: int = 1,
    run: int = 1,
    quick: bool = False,
) -> Path:
    """Trace each point in both simulators (default :data:`FULL_INTERVALS`, quick mode
    1 s) and write ``ns2_gap_broadcasts.csv`` (atomically, once all ran)."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    parts = [
        table(traced_frames(protocol, interval, seed, run, quick)).assign(
            **ns2_gap.point_labels(protocol, interval, seed, run)
        )
        for interval in ns2_gap.traced_intervals(intervals, quick)
    ]
    return files.write_csv(pd.concat(parts, ignore_index=True), folder / f"{OUTPUT}.csv")


#: the same-slot class of :data:`OFFSET_BINS` where the later sender senses the earlier
SAME_SLOT_SENSED = f"{OFFSET_BINS[0][0]} | later sender senses the earlier"


def key_numbers(committed: pd.DataFrame) -> pd.DataFrame:
    """The numbers notebook 04 states, per interval (columns ``<interval> s``) and variant
    (:data:`VARIANTS`, in that order per quantity): losses per frame sent (routing, RREQ,
    RTS), the shares of the routing frames' collisions by offset class, in the same slot
    between senders that sense each other, by hidden terminals, and where the lost frame
    started first."""
    values = {}
    for (interval, simulator), mine in committed.groupby(["reporting_interval", "simulator"]):
        mine = mine.set_index(["group", "category"])

        def get(group, category, mine=mine):
            key = (group, category)
            return float(mine.loc[key, "share"]) if key in mine.index else 0.0

        values[(interval, simulator)] = {
            "routing losses per routing frame sent": get("per frame sent", "routing"),
            "RREQ losses per RREQ sent": get("per frame sent", RREQ),
            "RTS losses per RTS sent": get("per frame sent", RTS),
            **{f"routing collisions: {label}": get("routing: offset", label)
               for label, _ in OFFSET_BINS},
            "routing collisions: same slot, senders sense each other": get(
                "routing: offset and sensing", SAME_SLOT_SENSED),
            "routing collisions: hidden terminal": get("routing: sensing", "hidden terminal"),
            "routing collisions: lost frame first": get("routing: first", "lost"),
            "RREQs sent after waiting for a busy medium": get("RREQ: idle before start",
                                                              AFTER_BUSY[0]),
        }  # fmt: skip
    intervals = sorted({interval for interval, _ in values})
    quantities = list(next(iter(values.values())))
    rows = []
    for quantity in quantities:
        for simulator, name in VARIANTS.items():
            if all((i, simulator) in values for i in intervals):
                rows.append({"quantity": f"{quantity}, {name}",
                             **{f"{i:g} s": values[(i, simulator)][quantity]
                                for i in intervals}})  # fmt: skip
    return pd.DataFrame(rows)


def main(argv: Sequence[str] | None = None) -> int:
    return ns2_gap.traced_point_main(write, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
