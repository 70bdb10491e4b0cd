"""Why the two simulators' AODVs send different numbers of RREQs and RERRs (issue 25).

After the fix of :mod:`~transportlab.studies.wsn_reporting_interval.ns2_gap_routes`
ns-3 and NS-2.35 originate about as many route requests on the traced run but send very
different numbers of RREQ frames, and ns-3 sends more RERRs. This module counts, in both
simulators' frames of the same replication (``ns2_gap_routes.ns3_traced`` /
``ns2_traced``: every data and AODV frame sent, received and given up):

* every RREQ a node originated (:func:`route_requests`: each ring of an expanding ring
  search is one RREQ with its own id and IP TTL) with why it was sent (:data:`REASONS`,
  from what the originator's frames show before it), the frames other nodes rebroadcast
  it in, and whether the originator then heard a RREP for that destination;
* what each node did with each RREQ it received (:func:`rreq_receptions`, :data:`FATES`):
  rebroadcast it, answered it, discarded it as a duplicate or at TTL 0, or none of these;
* the RREPs sent, by the destination or from an intermediate node's route
  (:func:`rrep_origins`), and what each RERR followed at its sender (:func:`rerr_causes`);
* why a node's first copy of a RREQ was or was not passed on (:func:`first_copy_fates`,
  :data:`FIRST_COPY_FATES`), with the route to the RREQ's destination the node's frames
  show it held (the transmitter of the last RREP for that destination it received).

:func:`discovery_table` puts them side by side; :func:`write` runs the point for the
port's configuration and each variant of :data:`NS3_VARIANTS` (ns-3 attributes set only
inside this experiment) and writes ``ns2_gap_discoveries.csv``. :func:`first_copy_runs`
repeats the first-copy accounting of the RREQs with no destination number known over
several runs of one point (NS-2 against the port; per run and pooled, with intervals from
resampling the runs, and how many nodes receive each RREQ frame); ``--first-copy-runs N``
writes it for runs 1 to N as ``ns2_gap_first_copy_runs.csv``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from transportlab.engine import files, paths
from transportlab.studies.wsn_reporting_interval import STUDY, ns2_gap, ns2_gap_routes

__all__ = [
    "FATES",
    "NS3_VARIANTS",
    "REASONS",
    "FIRST_COPY_FATES",
    "discovery_table",
    "first_copy_fates",
    "first_copy_counts",
    "first_copy_gap",
    "first_copy_run_table",
    "first_copy_runs",
    "first_copy_table",
    "key_numbers",
    "rerr_causes",
    "route_requests",
    "rrep_origins",
    "rreq_receptions",
    "traced_point",
    "write",
    "write_first_copy_runs",
]

#: the tables this module writes (``scripts/derive_provenance.py`` names its command for them)
OUTPUTS = ("ns2_gap_discoveries", "ns2_gap_first_copy_runs")

FIRST = "first search for this destination"
RETRY = "retry: no RREP since the previous RREQ"
AFTER_BREAK = "new search after a link break seen"
AFTER_ROUTE = "new search, no break seen (route expired)"
#: why a node originated a RREQ, from its own frames before it: its first for that
#: destination; another with no RREP for the destination heard since the previous one (a
#: ring of the same search, or a search started again after giving up); after a RREP, with
#: a frame the node's MAC gave up at the retry limit or a RERR received in between; after a
#: RREP with neither (the route expired or was never used)
REASONS = (FIRST, RETRY, AFTER_BREAK, AFTER_ROUTE)

OWN = "its own RREQ heard back"
DESTINATION = "destination: answered"
REBROADCAST = "rebroadcast"
REPLIED = "answered from its own route"
TTL_ZERO = "discarded at TTL 0"
NOT_FORWARDED = "first copy neither answered nor rebroadcast"
DUPLICATE = "duplicate (discarded)"
#: what a node did with a RREQ it received (each reception once)
FATES = (OWN, DESTINATION, REBROADCAST, REPLIED, TTL_ZERO, NOT_FORWARDED, DUPLICATE)

#: how long after receiving a RREQ a node's RREP for it still counts as its answer, and
#: how long before a RERR an event at its sender counts as its cause (s)
ANSWER_WINDOW = 0.5
CAUSE_WINDOW = 1.0

SEQNO_NONE = "destination sequence number unknown"
SEQNO_AS_HEARD = "the sequence number of the last RREP heard"
SEQNO_RAISED = "raised past the last RREP heard"
SEQNO_OTHER = "known, no RREP heard for it"
#: the destination sequence number a RREQ carries, against the last RREP for that
#: destination its originator received (ns-3: unknown is a flag; NS-2: 0). ns-2.35 adds 1
#: to a route's number when the route expires (``AODV::rt_purge``) or its link breaks
#: (``handle_link_failure``), so its next RREQ asks for a newer route than the one heard
#: and a node holding the old one cannot answer (``recvRequest``: ``rt_seqno >=
#: rq_dst_seqno``); ns-3's ``RoutingTableEntry::Invalidate`` leaves the number as it was
SEQNO_CLASSES = (SEQNO_NONE, SEQNO_AS_HEARD, SEQNO_RAISED, SEQNO_OTHER)

BY_DESTINATION = "by the destination"
BY_INTERMEDIATE = "by an intermediate node"
FORWARDED = "forwarded"

RERR_LINK = "the sender's MAC gave up a frame (link break)"
RERR_PASSED = "the sender received a RERR (passed on)"
RERR_NO_ROUTE = "the sender received a data frame to forward (no route)"
#: both ports' ActiveRouteTimeout (ns-2.35's ACTIVE_ROUTE_TIMEOUT); ns-3 also lists a next
#: hop it forwards to, or a previous hop it receives from, as a neighbour for this long
#: (``Forwarding`` / ``RouteInput``: ``m_nb.Update(..., m_activeRouteTimeout)``) and takes
#: the entry's expiry, checked once per HelloInterval, for a broken link
ACTIVE_ROUTE_TIMEOUT = 10.0
RERR_IDLE = (f"none of these within {CAUSE_WINDOW:g} s; the sender's last data frame "
             f"{ACTIVE_ROUTE_TIMEOUT:g}-{ACTIVE_ROUTE_TIMEOUT + 2:g} s before")  # fmt: skip
RERR_OTHER = f"none of these within {CAUSE_WINDOW:g} s, otherwise"
RERR_CAUSES = (RERR_LINK, RERR_PASSED, RERR_NO_ROUTE, RERR_IDLE, RERR_OTHER)


def _kind(frames: pd.DataFrame, kind: str, event: str) -> pd.DataFrame:
    return frames[(frames["kind"] == kind) & (frames["event"] == event)]


def route_requests(frames: pd.DataFrame) -> pd.DataFrame:
    """One row per RREQ a node originated (``origin``, ``seq`` its id; each once however
    often its MAC sent it): ``time``, ``target``, ``ttl`` (the ring's IP TTL),
    ``reason`` (:data:`REASONS`), ``search`` (numbered per originator and destination;
    retries share their search's number), ``ring`` (1 for a search's first RREQ),
    ``rebroadcasts`` (nodes that sent it on), ``answered`` (the originator received a
    RREP for ``target`` after it and before its next RREQ for it), ``dst_seqno`` and
    ``seqno_class`` (:data:`SEQNO_CLASSES`)."""
    sent = _kind(frames, "RREQ", "tx")
    own = (sent[sent["node"] == sent["origin"]].sort_values("time", kind="stable")
           .drop_duplicates(["origin", "seq"]))  # fmt: skip
    others = sent[sent["node"] != sent["origin"]].drop_duplicates(["node", "origin", "seq"])
    rebroadcasts = others.groupby(["origin", "seq"]).size()
    replies = _kind(frames, "RREP", "rx").sort_values("time", kind="stable")
    breaks = frames[ns2_gap_routes.given_up(frames)
                    | ((frames["kind"] == "RERR") & (frames["event"] == "rx"))]  # fmt: skip
    rows = []
    for (origin, target), mine in own.groupby(["origin", "target"], sort=True):
        mask = (replies["node"] == origin) & (replies["target"] == target)
        heard = replies.loc[mask, "time"].to_numpy()
        heard_seqno = replies.loc[mask, "dst_seqno"].to_numpy()
        broke = np.sort(breaks.loc[breaks["node"] == origin, "time"].to_numpy())
        times = mine["time"].to_numpy()
        search, ring = 0, 0
        for i, row in enumerate(mine.itertuples(index=False)):
            later = times[i + 1] if i + 1 < len(times) else np.inf
            answered = bool(((heard > row.time) & (heard < later)).any())
            if i == 0:
                reason = FIRST
            else:
                between = heard[(heard > times[i - 1]) & (heard < row.time)]
                if between.size == 0:
                    reason = RETRY
                elif ((broke > between[-1]) & (broke < row.time)).any():
                    reason = AFTER_BREAK
                else:
                    reason = AFTER_ROUTE
            before = heard < row.time
            known = row.dst_seqno > 0 if "reason_name" in frames else row.dst_seqno >= 0
            if not known:
                seqno_class = SEQNO_NONE
            elif not before.any():
                seqno_class = SEQNO_OTHER
            elif row.dst_seqno > heard_seqno[before][-1]:
                seqno_class = SEQNO_RAISED
            else:
                seqno_class = SEQNO_AS_HEARD
            if reason == RETRY:
                ring += 1
            else:
                search, ring = search + 1, 1
            rows.append({"time": row.time, "origin": int(origin), "target": int(target),
                         "seq": int(row.seq), "ttl": int(row.ttl), "reason": reason,
                         "search": search, "ring": ring,
                         "rebroadcasts": int(rebroadcasts.get((origin, row.seq), 0)),
                         "answered": answered, "dst_seqno": int(row.dst_seqno),
                         "seqno_class": seqno_class})  # fmt: skip
    columns = ["time", "origin", "target", "seq", "ttl", "reason", "search", "ring",
               "rebroadcasts", "answered", "dst_seqno", "seqno_class"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns).sort_values("time", kind="stable",
                                                           ignore_index=True)  # fmt: skip


def rreq_receptions(frames: pd.DataFrame) -> pd.DataFrame:
    """One row per RREQ frame a node received: ``node``, ``origin``, ``seq``, ``target``,
    ``ttl`` (as received), ``fate`` (:data:`FATES`): a node's first copy of another
    node's RREQ is answered by the destination, rebroadcast if the node sent that RREQ
    on, answered from its own route if it sent a RREP to the RREQ's originator for its
    destination within :data:`ANSWER_WINDOW`, else discarded at TTL 0 if it arrived with
    TTL 1 or less (both AODVs forward a RREQ only with TTL 2 or more left), else neither;
    later copies are duplicates."""
    got = _kind(frames, "RREQ", "rx").sort_values("time", kind="stable")
    sent = _kind(frames, "RREQ", "tx")
    forwarded = set(zip(sent["node"], sent["origin"], sent["seq"], strict=True))
    rreps = _kind(frames, "RREP", "tx")
    answers = {key: np.sort(group["time"].to_numpy())
               for key, group in rreps.groupby(["node", "origin", "target"])}  # fmt: skip
    first = ~got.duplicated(["node", "origin", "seq"])
    fates = []
    for row, is_first in zip(got.itertuples(index=False), first, strict=True):
        if row.node == row.origin:
            fate = OWN
        elif not is_first:
            fate = DUPLICATE
        elif row.node == row.target:
            fate = DESTINATION
        elif (row.node, row.origin, row.seq) in forwarded:
            fate = REBROADCAST
        else:
            times = answers.get((row.node, row.origin, row.target), np.empty(0))
            if ((times >= row.time) & (times <= row.time + ANSWER_WINDOW)).any():
                fate = REPLIED
            elif row.ttl < 2:
                fate = TTL_ZERO
            else:
                fate = NOT_FORWARDED
        fates.append(fate)
    table = got[["time", "node", "origin", "seq", "target", "ttl"]].reset_index(drop=True)
    table["fate"] = pd.Series(fates, dtype=object)
    return table


COPY_DESTINATION = "answered by the destination"
COPY_REBROADCAST = "rebroadcast"
COPY_REPLIED = f"answered from its own route (its RREP within {ANSWER_WINDOW:g} s)"
#: how long after a RREQ a node's RREP to its originator still counts as a late answer (s)
LATE_WINDOW = 3.0
COPY_LATE = f"answered late (its RREP {ANSWER_WINDOW:g}-{LATE_WINDOW:g} s after)"
COPY_GIVEN_UP = f"answered, its RREP given up at the retry limit within {LATE_WINDOW:g} s"
COPY_ARP = f"answered, its RREP dropped by NS-2's ARP within {LATE_WINDOW:g} s"
COPY_TTL = "dropped: arrived with TTL 1"
COPY_LOOP = "dropped: its route's next hop is the RREQ's sender (ns-3's loop rule)"
COPY_SILENT_ROUTE = "no RREP, no rebroadcast: it had received a RREP for the destination"
COPY_SILENT = "no RREP, no rebroadcast: it had received no RREP for the destination"
#: what a node did with its first copy of another node's RREQ, tried in this order: the
#: destination answers; the node sent it on; it sent a RREP to the originator within
#: :data:`ANSWER_WINDOW`, or within :data:`LATE_WINDOW`, or its MAC gave such a RREP up at
#: the retry limit within :data:`LATE_WINDOW`, or NS-2's ARP dropped it within
#: :data:`LATE_WINDOW` (NS-2's ARP holds one packet per address it is resolving; the port's
#: ARP entries are all there from the start); it arrived with TTL 1 (both
#: AODVs answer such a RREQ but pass it on only with TTL 2 or more left: ns-2.35 checks
#: the TTL in ``AODV::forward``, ns-3 in ``RecvRequest`` after the answer); the node's
#: route to the destination leads to the RREQ's sender (ns-3's ``RecvRequest`` drops the
#: RREQ then, whether the route is valid or not; ns-2.35 has no such rule); else neither,
#: split by whether the node had received a RREP for the destination before
FIRST_COPY_FATES = (COPY_DESTINATION, COPY_REBROADCAST, COPY_REPLIED, COPY_LATE,
                    COPY_GIVEN_UP, COPY_ARP, COPY_TTL, COPY_LOOP, COPY_SILENT_ROUTE,
                    COPY_SILENT)  # fmt: skip


def _rrep_times(frames: pd.DataFrame) -> dict[tuple[int, int, int], np.ndarray]:
    """The sorted times of the RREP rows of ``frames`` by (node, origin, target)."""
    rreps = frames[frames["kind"] == "RREP"]
    return {key: np.sort(group["time"].to_numpy())
            for key, group in rreps.groupby(["node", "origin", "target"])}  # fmt: skip


def first_copy_fates(frames: pd.DataFrame) -> pd.DataFrame:
    """One row per first copy of another node's RREQ a node received (``time``, ``node``,
    ``origin``, ``seq``, ``target``, ``ttl``, ``sender`` the transmitter of that copy),
    with ``next_hop``: the node's route to ``target`` as its frames show it, the
    transmitter of the last RREP for ``target`` it received before (both AODVs take a
    RREP's transmitter as the next hop of the route they add or update; -1 none; a RREP
    that did not update the route is taken as if it had), and ``fate``
    (:data:`FIRST_COPY_FATES`)."""
    got = _kind(frames, "RREQ", "rx").sort_values("time", kind="stable")
    got = got[got["node"] != got["origin"]].drop_duplicates(["node", "origin", "seq"])
    sent = _kind(frames, "RREQ", "tx")
    forwarded = set(zip(sent["node"], sent["origin"], sent["seq"], strict=True))
    rreps = _kind(frames, "RREP", "tx")
    answers = {key: np.sort(group["time"].to_numpy())
               for key, group in rreps.groupby(["node", "origin", "target"])}  # fmt: skip
    given_up = _rrep_times(frames[ns2_gap_routes.given_up(frames)])
    arp_dropped = _rrep_times(frames[frames["event"] == "arp-drop"])
    heard = _kind(frames, "RREP", "rx").sort_values("time", kind="stable")
    routes = {key: (group["time"].to_numpy(), group["peer"].to_numpy())
              for key, group in heard.groupby(["node", "target"])}  # fmt: skip
    no_times = (np.empty(0), np.empty(0, dtype=np.int64))
    next_hops, fates = [], []
    for row in got.itertuples(index=False):
        times, peers = routes.get((row.node, row.target), no_times)
        before = np.searchsorted(times, row.time, side="left")
        next_hop = int(peers[before - 1]) if before else -1
        replies = answers.get((row.node, row.origin, row.target), np.empty(0))
        after = replies[replies >= row.time] - row.time
        key = (row.node, row.origin, row.target)
        drops, arp = given_up.get(key, np.empty(0)), arp_dropped.get(key, np.empty(0))
        drops_after = drops[drops >= row.time] - row.time
        arp_after = arp[arp >= row.time] - row.time
        if row.node == row.target:
            fate = COPY_DESTINATION
        elif (row.node, row.origin, row.seq) in forwarded:
            fate = COPY_REBROADCAST
        elif (after <= ANSWER_WINDOW).any():
            fate = COPY_REPLIED
        elif (after <= LATE_WINDOW).any():
            fate = COPY_LATE
        elif (drops_after <= LATE_WINDOW).any():
            fate = COPY_GIVEN_UP
        elif (arp_after <= LATE_WINDOW).any():
            fate = COPY_ARP
        elif row.ttl < 2:
            fate = COPY_TTL
        elif next_hop == row.peer:
            fate = COPY_LOOP
        else:
            fate = COPY_SILENT_ROUTE if next_hop >= 0 else COPY_SILENT
        next_hops.append(next_hop)
        fates.append(fate)
    table = got[["time", "node", "origin", "seq", "target", "ttl", "peer"]]
    table = table.rename(columns={"peer": "sender"}).reset_index(drop=True)
    table["next_hop"] = pd.Series(next_hops, dtype=np.int64)
    table["fate"] = pd.Series(fates, dtype=object)
    return table


def rrep_origins(frames: pd.DataFrame) -> pd.Series:
    """The RREP frames sent, counted by :data:`BY_DESTINATION` (the node is the RREP's
    destination), :data:`FORWARDED` (the node received a RREP for the same originator and
    destination within :data:`ANSWER_WINDOW` before) and :data:`BY_INTERMEDIATE`."""
    sent = _kind(frames, "RREP", "tx").sort_values("time", kind="stable")
    got = _kind(frames, "RREP", "rx")
    received = {key: np.sort(group["time"].to_numpy())
                for key, group in got.groupby(["node", "origin", "target"])}  # fmt: skip
    labels = []
    for row in sent.itertuples(index=False):
        times = received.get((row.node, row.origin, row.target), np.empty(0))
        if row.node == row.target:
            labels.append(BY_DESTINATION)
        elif ((times <= row.time) & (times >= row.time - ANSWER_WINDOW)).any():
            labels.append(FORWARDED)
        else:
            labels.append(BY_INTERMEDIATE)
    return pd.Series(labels, dtype=object).value_counts()


def rerr_causes(frames: pd.DataFrame) -> pd.DataFrame:
    """One row per RERR frame sent: ``time``, ``node``, ``cause`` (:data:`RERR_CAUSES`):
    the latest of these events at the sender within :data:`CAUSE_WINDOW` before it: a
    frame its MAC gave up at the retry limit, a RERR it received, a data frame it received
    for another node; without one, whether the sender's last data frame (sent or received)
    lies :data:`ACTIVE_ROUTE_TIMEOUT` to 2 s more before it (:data:`RERR_IDLE`). Also
    ``last_data_peer``: the other end of that last data frame (-1 none)."""
    sent = _kind(frames, "RERR", "tx").sort_values("time", kind="stable")
    data_in = _kind(frames, "data", "rx")
    if "dst" in data_in:
        data_in = data_in[data_in["dst"] != data_in["node"]]
    else:  # NS-2: the report's sink is the only destination
        data_in = data_in[data_in["node"] != ns2_gap_routes.SINK]
    events = pd.concat([
        frames[ns2_gap_routes.given_up(frames)].assign(cause=RERR_LINK),
        _kind(frames, "RERR", "rx").assign(cause=RERR_PASSED),
        data_in.assign(cause=RERR_NO_ROUTE),
    ])[["time", "node", "cause"]].sort_values("time", kind="stable")  # fmt: skip
    causes = []
    data = frames[(frames["kind"] == "data") & frames["event"].isin(("tx", "rx"))]
    data = data.sort_values("time", kind="stable")
    last_peers = []
    for row in sent.itertuples(index=False):
        mine = events[(events["node"] == row.node) & (events["time"] <= row.time)
                      & (events["time"] >= row.time - CAUSE_WINDOW)]  # fmt: skip
        own = data[(data["node"] == row.node) & (data["time"] <= row.time)]
        last_peers.append(int(own["peer"].iloc[-1]) if len(own) else -1)
        if len(mine):
            causes.append(mine["cause"].iloc[-1])
            continue
        idle = row.time - own["time"].iloc[-1] if len(own) else np.inf
        quiet = ACTIVE_ROUTE_TIMEOUT <= idle <= ACTIVE_ROUTE_TIMEOUT + 2
        causes.append(RERR_IDLE if quiet else RERR_OTHER)
    table = sent[["time", "node"]].reset_index(drop=True)
    table["cause"] = pd.Series(causes, dtype=object)
    table["last_data_peer"] = pd.Series(last_peers, dtype=np.int64)
    return table


RAISED_EN_ROUTE = "rebroadcasts asking for a higher destination number than the originator"
RAISED_ODD = "of them, an odd number (a route ns-2.35 invalidated)"


def raised_en_route(frames: pd.DataFrame) -> dict[str, int]:
    """The RREQ rebroadcasts that ask for a higher destination sequence number than their
    originator's RREQ did (both AODVs raise it to the forwarding node's own number for the
    destination, ``AODV::recvRequest`` / ``RoutingProtocol::RecvRequest``; ns-3's unknown
    number counts as lowest) and, of them, those asking for an odd number: ns-2.35's
    destinations only ever give even ones (``AODV::recvRequest``, ``sendReply``), so an odd
    one is a number ``rt_purge`` or ``handle_link_failure`` raised by one."""
    sent = _kind(frames, "RREQ", "tx")
    own = sent[sent["node"] == sent["origin"]].drop_duplicates(["origin", "seq"])
    others = sent[sent["node"] != sent["origin"]].drop_duplicates(["node", "origin", "seq"])
    joined = others.merge(own[["origin", "seq", "dst_seqno"]], on=["origin", "seq"],
                          suffixes=("", "_asked"))  # fmt: skip
    raised = joined[joined["dst_seqno"] > joined["dst_seqno_asked"]]
    return {RAISED_EN_ROUTE: len(raised), RAISED_ODD: int((raised["dst_seqno"] % 2 == 1).sum())}


FIRST_COPIES = f"first copies received per RREQ originated ({SEQNO_NONE})"
COPY_SPAN = "copies of one RREQ at one node: first to last (s)"
ROUTE_HELD = "at nodes that had received a RREP for the destination"
ROUTE_HELD_REBROADCAST = "of them rebroadcast (a route, but not one they would answer from)"


def _counts(frames: pd.DataFrame, packets: pd.DataFrame) -> list[tuple[str, str, float]]:
    """(quantity, detail, value) rows of one simulator's run."""
    rows: list[tuple[str, str, float]] = []
    requests = route_requests(frames)
    starts = requests[requests["ring"] == 1]
    rows.append(("RREQs originated", "all", len(requests)))
    for reason in REASONS:
        rows.append(("RREQs originated", reason, int((requests["reason"] == reason).sum())))
    for ttl, count in requests["ttl"].value_counts().sort_index().items():
        rows.append(("RREQs originated", f"TTL {ttl}", int(count)))
    rows.append(("route searches", "all", len(starts)))
    for reason in REASONS:
        if reason != RETRY:
            rows.append(("route searches", reason, int((starts["reason"] == reason).sum())))
    answered = requests.groupby(["origin", "target", "search"])["answered"].any()
    rows.append(("route searches", "answered", int(answered.sum())))
    rows.append(("route searches", "originators", int(starts["origin"].nunique())))
    rows.append(("route searches", "destinations other than the sink",
                 int((starts["target"] != ns2_gap_routes.SINK).sum())))  # fmt: skip
    rings = requests.groupby(["origin", "target", "search"]).size()
    for n, count in rings.value_counts().sort_index().items():
        rows.append(("route searches", f"with {n} RREQ(s)", int(count)))
    fates = rreq_receptions(frames)
    replied = fates[fates["fate"] == REPLIED].groupby(["origin", "seq"]).size()
    keys = zip(requests["origin"], requests["seq"], strict=True)
    requests["replies"] = [int(replied.get(key, 0)) for key in keys]
    for seqno_class in SEQNO_CLASSES:
        mine = requests[requests["seqno_class"] == seqno_class]
        rows.append(("RREQs originated", seqno_class, len(mine)))
        if len(mine):
            rows.append(("rebroadcasts per RREQ originated", seqno_class,
                         round(float(mine["rebroadcasts"].mean()), 2)))  # fmt: skip
            rows.append(("nodes answering from their own route per RREQ originated",
                         seqno_class, round(float(mine["replies"].mean()), 2)))  # fmt: skip
    unknown = requests[requests["seqno_class"] == SEQNO_NONE][["origin", "seq"]]
    if len(unknown):
        copies = first_copy_fates(frames).merge(unknown, on=["origin", "seq"])
        per_rreq = len(unknown)
        rows.append((FIRST_COPIES, "all", round(len(copies) / per_rreq, 2)))
        holders = copies[copies["next_hop"] >= 0]
        rows.append((FIRST_COPIES, ROUTE_HELD, round(len(holders) / per_rreq, 2)))
        passed_on = int((holders["fate"] == COPY_REBROADCAST).sum())
        rows.append((FIRST_COPIES, ROUTE_HELD_REBROADCAST, round(passed_on / per_rreq, 2)))
        counted = copies["fate"].value_counts()
        for fate in FIRST_COPY_FATES:
            rows.append((FIRST_COPIES, fate, round(int(counted.get(fate, 0)) / per_rreq, 2)))
    # both AODVs forget a RREQ id after a while (ns-2.35's BCAST_ID_SAVE, 6 s; ns-3's
    # PathDiscoveryTime, 3.6 s here) and would take a later copy for a new RREQ
    copies = _kind(frames, "RREQ", "rx").groupby(["node", "origin", "seq"])["time"]
    span = float((copies.max() - copies.min()).max()) if len(copies) else 0.0
    rows.append((COPY_SPAN, "longest", round(span, 3)))
    for ttl, mine in requests.groupby("ttl"):
        rows.append(("rebroadcasts per RREQ originated", f"TTL {ttl}",
                     round(float(mine["rebroadcasts"].mean()), 2)))  # fmt: skip
        rows.append(("RREQs answered (RREP heard before the next RREQ)", f"TTL {ttl}",
                     int(mine["answered"].sum())))  # fmt: skip
    sent = _kind(frames, "RREQ", "tx")
    rows.append(("RREQ frames sent", "all", len(sent)))
    rows += [("RREQ frames sent", detail, value)
             for detail, value in raised_en_route(frames).items()]  # fmt: skip
    own = int((sent["node"] == sent["origin"]).sum())
    rows.append(("RREQ frames sent", "by the originator", own))
    rows.append(("RREQ frames sent", "rebroadcasts", len(sent) - own))
    counted = fates["fate"].value_counts()
    for fate in FATES:
        rows.append(("RREQs received", fate, int(counted.get(fate, 0))))
    origins = rrep_origins(frames)
    rows.append(("RREP frames sent", "all", int(origins.sum())))
    for label in (BY_DESTINATION, BY_INTERMEDIATE, FORWARDED):
        rows.append(("RREP frames sent", label, int(origins.get(label, 0))))
    rerrs = rerr_causes(frames)
    causes = rerrs["cause"].value_counts()
    rows.append(("RERR frames sent", "all", int(causes.sum())))
    for cause in RERR_CAUSES:
        rows.append(("RERR frames sent", cause, int(causes.get(cause, 0))))
    idle = rerrs[rerrs["cause"] == RERR_IDLE]
    rows.append(("RERR frames sent", "of the last: that data frame to or from the sink",
                 int((idle["last_data_peer"] == ns2_gap_routes.SINK).sum())))  # fmt: skip
    lost = ns2_gap_routes.given_up(frames) & (frames["kind"] == "data")
    rows.append(("data frames given up at the retry limit", "all", int(lost.sum())))
    sent_reports = packets[packets["event"] == "sent"][["flow", "seq"]].drop_duplicates()
    got = packets[packets["event"] == "received"][["flow", "seq"]].drop_duplicates()
    rows.append(("reports", "sent", len(sent_reports)))
    rows.append(("reports", "delivered", len(got)))
    return rows


def discovery_table(runs: Mapping[str, Mapping[str, pd.DataFrame]]) -> pd.DataFrame:
    """Per simulator of ``runs`` (``ns3``/``ns2``: ``frames`` and ``packets`` of a traced
    run): the counts above as rows ``quantity``, ``detail``, one column per simulator (0
    where a simulator has no such row)."""
    parts = []
    for simulator, run in runs.items():
        for quantity, detail, value in _counts(run["frames"], run["packets"]):
            parts.append({"quantity": quantity, "detail": detail, "simulator": simulator,
                          "value": value})  # fmt: skip
    long = pd.DataFrame(parts)
    order = long[["quantity", "detail"]].drop_duplicates()
    wide = long.pivot_table(index=["quantity", "detail"], columns="simulator",
                            values="value", fill_value=0).reset_index()  # fmt: skip
    wide.columns.name = None
    wide = order.merge(wide, on=["quantity", "detail"], how="left")
    return wide[["quantity", "detail", *runs]]


PORT = "port"
#: the port resolves no address (``arp_model`` preloaded: every ARP entry there from the
#: start), where NS-2's ARP resolves each next hop first and holds one packet per address
#: meanwhile (a newer one drops it: ``d IFQ ARP``), which loses RREPs in the flood of
#: the start (section 8.9.1); this variant resolves with ns-3's own ARP holding one packet
#: per address too (``ArpCache`` ``PendingQueueSize`` 1, ns-3's default 3; ns-3 drops the
#: newer packet, NS-2 the older)
OWN_ARP = "ns-3's ARP holding one packet per address"
NO_RATE_LIMITS = "no RREQ/RERR rate limits"
RING_FROM_TTL_START = "first RREQ with TtlStart 5 (the port before issue 25's TtlStart fix)"
#: the ns-3 configurations traced against NS-2, set only inside this experiment
#: (``ns2_gap_routes.ns3_traced``'s ``attributes``): the port as committed; the port as it
#: was before this experiment found that ns-2.35's first RREQ for a destination with no
#: route entry goes network-wide (``AODV::sendRequest`` takes the larger of
#: ``rt_req_last_ttl``, 0 for a new entry, and ``rt_last_hop_count``, which
#: ``aodv_rt_entry``'s constructor sets to INFINITY2, so the ring search starts at
#: NETWORK_DIAMETER; the port now sets TtlStart to NetDiameter), with aodv.h's TTL_START
#: 5; the port with ns-3's per-node RREQ and RERR rate limits (10 per s,
#: ``RreqRateLimit``, ``RerrRateLimit``; ns-2.35's AODV has none) out of reach
NS3_VARIANTS: dict[str, dict[str, object]] = {
    PORT: {},
    RING_FROM_TTL_START: {"ns3::aodv::RoutingProtocol::TtlStart": 5},
    NO_RATE_LIMITS: {
        "ns3::aodv::RoutingProtocol::RreqRateLimit": 65535,
        "ns3::aodv::RoutingProtocol::RerrRateLimit": 65535,
    },
    OWN_ARP: {"ns3::ArpCache::PendingQueueSize": 1},
}
#: the scenario parameters a variant of :data:`NS3_VARIANTS` sets besides its attributes
NS3_VARIANT_PARAMS: dict[str, dict[str, object]] = {OWN_ARP: {"arp_model": "ns3"}}


def traced_point(
    protocol: str, interval: float, seed: int, run: int, quick: bool,
    variants: Sequence[str] = tuple(NS3_VARIANTS),
) -> pd.DataFrame:  # fmt: skip
    """:func:`discovery_table` of one point: NS-2 once, ns-3 once per variant (columns
    ``ns2`` and ``ns3: <variant>``), with the point's labels first."""
    params = ns2_gap.point_params(protocol, interval, quick)
    runs = {"ns2": ns2_gap_routes.ns2_traced(params, seed, run)}
    for variant in variants:
        variant_params = dict(params, **NS3_VARIANT_PARAMS.get(variant, {}))
        runs[f"ns3: {variant}"] = ns2_gap_routes.ns3_traced(variant_params, seed, run,
                                                            NS3_VARIANTS[variant])  # fmt: skip
    table = discovery_table(runs)
    labels = ns2_gap.point_labels(protocol, interval, seed, run)
    table = table.assign(**labels)
    return table[[*labels, "quantity", "detail", *runs]]


def write(
    protocol: str = "udp",
    intervals: Sequence[float] | None = None,
    seed: int = 1,
    run: int = 1,
    quick: bool = False,
) -> list[Path]:
    """Trace each point (default ``ns2_gap.FULL_INTERVALS``, quick mode 1 s) and write
    ``ns2_gap_discoveries.csv`` (atomically, once all ran)."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    intervals = ns2_gap.traced_intervals(intervals, quick)
    table = pd.concat([traced_point(protocol, i, seed, run, quick) for i in intervals],
                      ignore_index=True)  # fmt: skip
    return [files.write_csv(table, folder / "ns2_gap_discoveries.csv")]


#: the rows :func:`key_numbers` shows: (quantity, detail)
KEYS = (
    ("RREQ frames sent", "all"),
    ("RREQ frames sent", "rebroadcasts"),
    ("RREQ frames sent", RAISED_EN_ROUTE),
    ("RREQ frames sent", RAISED_ODD),
    ("RREQs originated", "all"),
    ("RREQs originated", "TTL 30"),
    ("route searches", "all"),
    ("route searches", FIRST),
    ("route searches", AFTER_BREAK),
    ("route searches", AFTER_ROUTE),
    ("RREQs originated", SEQNO_NONE),
    ("RREQs originated", SEQNO_AS_HEARD),
    ("RREQs originated", SEQNO_RAISED),
    ("rebroadcasts per RREQ originated", SEQNO_NONE),
    ("rebroadcasts per RREQ originated", SEQNO_AS_HEARD),
    ("rebroadcasts per RREQ originated", SEQNO_RAISED),
    ("nodes answering from their own route per RREQ originated", SEQNO_NONE),
    ("nodes answering from their own route per RREQ originated", SEQNO_AS_HEARD),
    ("nodes answering from their own route per RREQ originated", SEQNO_RAISED),
    ("RREQs received", DUPLICATE),
    ("RREP frames sent", BY_INTERMEDIATE),
    ("RERR frames sent", "all"),
    ("RERR frames sent", RERR_LINK),
    ("RERR frames sent", RERR_PASSED),
    ("RERR frames sent", RERR_IDLE),
    ("RERR frames sent", "of the last: that data frame to or from the sink"),
    ("reports", "delivered"),
)


#: the column names :func:`key_numbers` gives the simulators of the table
SHORT = {"ns2": "NS-2", f"ns3: {PORT}": "port", f"ns3: {RING_FROM_TTL_START}": "TtlStart 5",
         f"ns3: {NO_RATE_LIMITS}": "no rate limits", f"ns3: {OWN_ARP}": "ns-3 ARP"}  # fmt: skip


def key_numbers(table: pd.DataFrame) -> pd.DataFrame:
    """Rows :data:`KEYS` of ``ns2_gap_discoveries.csv``, a column per point and simulator
    (``1 s NS-2``, ``1 s port``...; :data:`SHORT`): counts as integers, per-RREQ means as
    they are."""
    simulators = [c for c in table.columns if c == "ns2" or c.startswith("ns3")]
    columns = {}
    for interval, mine in table.groupby("reporting_interval", sort=False):
        values = mine.set_index(["quantity", "detail"])
        for simulator in simulators:
            cells = [values.loc[key, simulator] if key in values.index else 0 for key in KEYS]
            # a per-RREQ mean is a fraction; every other row a count
            columns[f"{interval:g} s {SHORT.get(simulator, simulator)}"] = [
                float(v) if float(v) % 1 else int(v) for v in cells
            ]
    index = pd.Index([f"{q}: {d}" for q, d in KEYS], name="quantity")
    return pd.DataFrame(columns, index=index, dtype=object).reset_index()


def first_copy_table(table: pd.DataFrame) -> pd.DataFrame:
    """The :data:`FIRST_COPIES` rows of ``ns2_gap_discoveries.csv`` (all, those at route
    holders and of them the rebroadcast, then each of :data:`FIRST_COPY_FATES`), a column
    per point for NS-2, the port and the port with ns-3's ARP where the table has it
    (``1 s NS-2``, ``1 s port``, ``1 s ns-3 ARP``...)."""
    details = ["all", ROUTE_HELD, ROUTE_HELD_REBROADCAST, *FIRST_COPY_FATES]
    columns = {}
    for interval, mine in table.groupby("reporting_interval", sort=False):
        rows = mine[mine["quantity"] == FIRST_COPIES].set_index("detail")
        for simulator in ("ns2", f"ns3: {PORT}", f"ns3: {OWN_ARP}"):
            if simulator not in rows:
                continue
            values = rows[simulator].reindex(details, fill_value=0.0).astype(float)
            columns[f"{interval:g} s {SHORT[simulator]}"] = values.to_numpy()
    index = pd.Index(details, name="first copies per RREQ (no destination number known)")
    return pd.DataFrame(columns, index=index).reset_index()


ANSWERS = (COPY_DESTINATION, COPY_REPLIED, COPY_LATE, COPY_GIVEN_UP, COPY_ARP)
#: :func:`first_copy_gap`'s rows: the two gaps, then the parts that add up to each
GAP_REBROADCASTS = "rebroadcasts per RREQ: NS-2 minus port"
PART_REACH = "of it: fewer first copies received in ns-3 (the flood stopped before them)"
PART_ANSWERS = "of it: more first copies answered in ns-3 (by any of the answer fates)"
PART_TTL = "of it: more first copies dropped at TTL 1 in ns-3"
PART_LOOP = "of it: ns-3's loop rule"
PART_SILENT = "of it: more first copies with no RREP and no rebroadcast in ns-3"
GAP_REPLIES = "answers from a node's own route within 0.5 s per RREQ: port minus NS-2"
PART_HOLDERS = "of it: more route holders reached in ns-3 (at NS-2's share answering)"
PART_SHARE = "of it: a larger share of route holders answering in ns-3"
GAP_REBROADCASTS_ARP = "rebroadcasts per RREQ: NS-2 minus the port with ns-3's ARP"
GAP_REPLIES_ARP = ("answers from a node's own route within 0.5 s per RREQ: the port with "
                   "ns-3's ARP minus NS-2")  # fmt: skip
HOLDERS_NS2 = "route holders reached per RREQ: NS-2"
HOLDERS_NS3 = "route holders reached per RREQ: port"
SHARE_NS2 = "share of route holders answering within 0.5 s: NS-2"
SHARE_NS3 = "share of route holders answering within 0.5 s: port"


def first_copy_gap(table: pd.DataFrame) -> pd.DataFrame:
    """From ``ns2_gap_discoveries.csv``, per reporting interval (a column ``1 s``...), the
    gaps of the RREQs with no known destination number (:data:`FIRST_COPIES`), NS-2
    against the port, split into the fates of the first copies received: the rebroadcast
    gap is the difference in first copies received less the differences in those not
    rebroadcast (answered, dropped at TTL 1, by ns-3's loop rule, neither); the gap in
    answers from a node's own route is the difference in route holders reached at NS-2's
    share answering plus the difference in that share at ns-3's holders. Where the table
    has the variant :data:`OWN_ARP`, also both gaps between it and NS-2."""
    port, arp = f"ns3: {PORT}", f"ns3: {OWN_ARP}"
    columns = {}
    for interval, mine in table.groupby("reporting_interval", sort=False):
        rows = mine[mine["quantity"] == FIRST_COPIES].set_index("detail")
        ns2, ns3 = rows["ns2"].astype(float), rows[port].astype(float)

        def more_in_ns3(*fates: str, ns2=ns2, ns3=ns3) -> float:
            return float(sum(ns3[f] - ns2[f] for f in fates))

        share2 = ns2[COPY_REPLIED] / ns2[ROUTE_HELD] if ns2[ROUTE_HELD] else 0.0
        share3 = ns3[COPY_REPLIED] / ns3[ROUTE_HELD] if ns3[ROUTE_HELD] else 0.0
        column = {
            GAP_REBROADCASTS: ns2[COPY_REBROADCAST] - ns3[COPY_REBROADCAST],
            PART_REACH: ns2["all"] - ns3["all"],
            PART_ANSWERS: more_in_ns3(*ANSWERS),
            PART_TTL: more_in_ns3(COPY_TTL),
            PART_LOOP: more_in_ns3(COPY_LOOP),
            PART_SILENT: more_in_ns3(COPY_SILENT_ROUTE, COPY_SILENT),
            GAP_REPLIES: ns3[COPY_REPLIED] - ns2[COPY_REPLIED],
            PART_HOLDERS: (ns3[ROUTE_HELD] - ns2[ROUTE_HELD]) * share2,
            PART_SHARE: (share3 - share2) * ns3[ROUTE_HELD],
            HOLDERS_NS2: ns2[ROUTE_HELD],
            HOLDERS_NS3: ns3[ROUTE_HELD],
            SHARE_NS2: share2,
            SHARE_NS3: share3,
        }
        if arp in rows:
            column[GAP_REBROADCASTS_ARP] = ns2[COPY_REBROADCAST] - rows[arp][COPY_REBROADCAST]
            column[GAP_REPLIES_ARP] = rows[arp][COPY_REPLIED] - ns2[COPY_REPLIED]
        columns[f"{interval:g} s"] = {k: round(float(v), 2) for k, v in column.items()}
    return pd.DataFrame(columns).rename_axis("quantity").reset_index()


# ------------------------------------------------------------- first copies over runs

#: :func:`first_copy_counts`'s columns besides the fates: RREQs (1 a row), first copies
#: received, at route holders, RREQ frames sent (originator and rebroadcasts, one per
#: node) and RREQ frames received (first copies, duplicates and the originator's own)
RUN_RREQS = "RREQs with no destination number known"
RUN_COPIES = "first copies received"
RUN_FRAMES = "RREQ frames sent"
RUN_RECEPTIONS = "RREQ frames received"
#: the rebroadcast gap less the TTL-1 drops (:data:`PART_TTL`) is the gap in first copies
#: rebroadcast or dropped at TTL 1
REBROADCAST_OR_TTL = f"{COPY_REBROADCAST} or {COPY_TTL}"
PER_RREQ = "per RREQ: "
SHARE = "share of first copies: "
HEARD = "RREQ frames received per RREQ frame sent"
#: how close two frames' starts must be to count as simultaneous (s): within one 802.11b
#: slot (20 us) neither sender can hear the other before it starts
SIMULTANEOUS = 20e-6
HEARD_OWN = "receivers per RREQ frame sent by its originator"
HEARD_REBROADCAST = "receivers per RREQ rebroadcast frame"
NEIGHBOURS = "rebroadcasts: share of the sender's neighbours receiving it"
STARTS_TOGETHER = (f"rebroadcasts: share starting within {SIMULTANEOUS * 1e6:g} us of "
                   "another node's frame")  # fmt: skip
NEIGHBOURS_TOGETHER = "of them: share of the sender's neighbours receiving it"
NEIGHBOURS_APART = "of the others: share of the sender's neighbours receiving it"
#: the 95 % interval of :func:`first_copy_run_table`'s pooled rows: percentiles of this
#: many resamples of the runs (with replacement, the same run numbers for both simulators)
RESAMPLES = 4000


def first_copy_counts(frames: pd.DataFrame) -> pd.DataFrame:
    """One row per RREQ with no destination number known (:data:`SEQNO_NONE`) of a run's
    frames: ``origin``, ``seq``, ``rreqs`` (1), ``copies`` (:data:`RUN_COPIES`), ``route_held``
    (:data:`ROUTE_HELD`), one column per :data:`FIRST_COPY_FATES`, ``frames`` and
    ``receptions`` (:data:`RUN_FRAMES`, :data:`RUN_RECEPTIONS`)."""
    requests = route_requests(frames)
    unknown = requests.loc[requests["seqno_class"] == SEQNO_NONE, ["origin", "seq"]]
    unknown = unknown.reset_index(drop=True)
    keys = list(zip(unknown["origin"], unknown["seq"], strict=True))
    copies = first_copy_fates(frames)
    fates = copies.groupby(["origin", "seq", "fate"]).size()
    held = copies[copies["next_hop"] >= 0].groupby(["origin", "seq"]).size()
    total = copies.groupby(["origin", "seq"]).size()
    sent = _kind(frames, "RREQ", "tx").drop_duplicates(["node", "origin", "seq"])
    sent = sent.groupby(["origin", "seq"]).size()
    received = _kind(frames, "RREQ", "rx").groupby(["origin", "seq"]).size()
    table = unknown.assign(rreqs=1)
    table["copies"] = [int(total.get(key, 0)) for key in keys]
    table["route_held"] = [int(held.get(key, 0)) for key in keys]
    for fate in FIRST_COPY_FATES:
        table[fate] = [int(fates.get((*key, fate), 0)) for key in keys]
    table["frames"] = [int(sent.get(key, 0)) for key in keys]
    table["receptions"] = [int(received.get(key, 0)) for key in keys]
    return table.join(_rebroadcast_counts(frames, keys))


def _rebroadcast_counts(frames: pd.DataFrame, keys: list[tuple[int, int]]) -> pd.DataFrame:
    """Per RREQ of ``keys``: the frames its originator sent (``own_frames``) and the
    nodes that received them (``own_receivers``); its rebroadcast frames (one per node,
    ``rebroadcasts``), their receivers (``receivers``) and their senders' neighbours
    (``neighbours``: the nodes that received any frame from that sender in the run), and
    the same three for the rebroadcasts that started within :data:`SIMULTANEOUS` of a
    frame another node sent (``together``, ``together_receivers``,
    ``together_neighbours``)."""
    sent = _kind(frames, "RREQ", "tx").drop_duplicates(["node", "origin", "seq"])
    receivers = _kind(frames, "RREQ", "rx").groupby(["peer", "origin", "seq"]).size()
    neighbours = frames[frames["event"] == "rx"].groupby("peer")["node"].nunique()
    starts = frames[frames["event"] == "tx"].sort_values("time", kind="stable")
    times, nodes = starts["time"].to_numpy(), starts["node"].to_numpy()
    columns = ["own_frames", "own_receivers", "rebroadcasts", "receivers", "neighbours",
               "together", "together_receivers", "together_neighbours"]  # fmt: skip
    counts = {key: dict.fromkeys(columns, 0) for key in keys}
    for row in sent.itertuples(index=False):
        key = (row.origin, row.seq)
        if key not in counts:
            continue
        mine = counts[key]
        heard = int(receivers.get((row.node, row.origin, row.seq), 0))
        if row.node == row.origin:
            mine["own_frames"] += 1
            mine["own_receivers"] += heard
            continue
        around = int(neighbours.get(row.node, 0))
        mine["rebroadcasts"] += 1
        mine["receivers"] += heard
        mine["neighbours"] += around
        low = np.searchsorted(times, row.time - SIMULTANEOUS, side="left")
        high = np.searchsorted(times, row.time + SIMULTANEOUS, side="right")
        if (nodes[low:high] != row.node).any():
            mine["together"] += 1
            mine["together_receivers"] += heard
            mine["together_neighbours"] += around
    return pd.DataFrame([counts[key] for key in keys], columns=columns, dtype=np.int64)


def _run_quantities() -> list[tuple[str, tuple[str, ...], str | None]]:
    """(quantity, numerator columns, denominator column or None for a count)."""
    quantities: list[tuple[str, tuple[str, ...], str | None]] = [(RUN_RREQS, ("rreqs",), None)]
    quantities.append((PER_RREQ + RUN_COPIES, ("copies",), "rreqs"))
    quantities.append((PER_RREQ + ROUTE_HELD, ("route_held",), "rreqs"))
    quantities += [(PER_RREQ + fate, (fate,), "rreqs") for fate in FIRST_COPY_FATES]
    quantities.append((PER_RREQ + REBROADCAST_OR_TTL, (COPY_REBROADCAST, COPY_TTL), "rreqs"))
    quantities += [(SHARE + fate, (fate,), "copies") for fate in FIRST_COPY_FATES]
    quantities.append((HEARD, ("receptions",), "frames"))
    quantities.append((HEARD_OWN, ("own_receivers",), "own_frames"))
    quantities.append((HEARD_REBROADCAST, ("receivers",), "rebroadcasts"))
    quantities.append((NEIGHBOURS, ("receivers",), "neighbours"))
    quantities.append((STARTS_TOGETHER, ("together",), "rebroadcasts"))
    quantities.append((NEIGHBOURS_TOGETHER, ("together_receivers",), "together_neighbours"))
    quantities.append((NEIGHBOURS_APART, ("apart_receivers",), "apart_neighbours"))
    return quantities


def _sums(counts: pd.DataFrame) -> pd.Series:
    sums = counts.drop(columns=["origin", "seq"]).sum()
    sums["apart_receivers"] = sums["receivers"] - sums["together_receivers"]
    sums["apart_neighbours"] = sums["neighbours"] - sums["together_neighbours"]
    return sums


def _values(sums: pd.Series) -> np.ndarray:
    """Each :func:`_run_quantities` of summed counts (NaN where the denominator is 0)."""
    values = []
    for _, numerators, denominator in _run_quantities():
        top = float(sum(sums[c] for c in numerators))
        if denominator is None:
            values.append(top)
        else:
            values.append(top / sums[denominator] if sums[denominator] else np.nan)
    return np.array(values)


def first_copy_run_table(
    counts: Mapping[int, Mapping[str, pd.DataFrame]],
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> pd.DataFrame:
    """From :func:`first_copy_counts` per run (``{run: {"ns2": ..., "port": ...}}``), one
    row per run and quantity (:func:`_run_quantities`: the RREQs, then per RREQ the first
    copies received, at route holders, of each fate and :data:`REBROADCAST_OR_TTL`, each
    fate's share of the first copies, and :data:`HEARD`) and the same over all runs
    (``run`` "pooled": the runs' counts summed, so per RREQ of all runs), with
    ``ns2``, ``port``, ``ns2_minus_port``, ``n_runs`` and, pooled, 95 % intervals
    (``*_low``, ``*_high``): percentiles of ``resamples`` resamples of the runs (the run
    numbers drawn with replacement, the same for both simulators; none for the count of
    RREQs). The rebroadcast row's difference is :data:`GAP_REBROADCASTS`,
    :data:`REBROADCAST_OR_TTL`'s that gap less :data:`PART_TTL`, the first copies' is
    :data:`PART_REACH`."""
    names = [name for name, _, _ in _run_quantities()]
    runs = sorted(counts)
    sums = {sim: np.array([_sums(counts[run][sim]).to_numpy() for run in runs])
            for sim in ("ns2", "port")}  # fmt: skip
    index = _sums(counts[runs[0]]["ns2"]).index
    rows = []

    def values(sim: str, picks: np.ndarray) -> np.ndarray:
        return _values(pd.Series(sums[sim][picks].sum(axis=0), index=index))

    for i, run in enumerate(runs):
        ns2, port = values("ns2", np.array([i])), values("port", np.array([i]))
        for k, name in enumerate(names):
            rows.append({"run": str(run), "quantity": name, "ns2": ns2[k], "port": port[k],
                         "ns2_minus_port": ns2[k] - port[k], "n_runs": 1})  # fmt: skip
    everything = np.arange(len(runs))
    ns2, port = values("ns2", everything), values("port", everything)
    rng = np.random.default_rng(seed)
    draws = {"ns2": [], "port": []}
    for _ in range(resamples):
        picks = rng.integers(0, len(runs), len(runs))
        for sim in draws:
            draws[sim].append(values(sim, picks))
    both = {sim: np.array(v).reshape(resamples, len(names)) for sim, v in draws.items()}
    both["ns2_minus_port"] = both["ns2"] - both["port"]
    for k, (name, _, denominator) in enumerate(_run_quantities()):
        row = {"run": "pooled", "quantity": name, "ns2": ns2[k], "port": port[k],
               "ns2_minus_port": ns2[k] - port[k], "n_runs": len(runs)}  # fmt: skip
        for column, sample in both.items():
            drawn = sample[:, k]
            low, high = np.nan, np.nan
            if denominator and not np.isnan(drawn).all():
                low, high = np.nanpercentile(drawn, [2.5, 97.5])
            row[f"{column}_low"], row[f"{column}_high"] = low, high
        rows.append(row)
    table = pd.DataFrame(rows)
    columns = ["run", "quantity", "ns2", "ns2_low", "ns2_high", "port", "port_low", "port_high",
               "ns2_minus_port", "ns2_minus_port_low", "ns2_minus_port_high", "n_runs"]  # fmt: skip
    value_columns = [c for c in columns if c not in ("run", "quantity", "n_runs")]
    # + 0.0: no -0.0 from rounding a small negative difference
    table[value_columns] = table.reindex(columns=value_columns).astype(float).round(3) + 0.0
    return table[columns]


def first_copy_runs(
    runs: Sequence[int] = range(1, 6),
    protocol: str = "udp",
    interval: float = 20.0,
    seed: int = 1,
    quick: bool = False,
) -> pd.DataFrame:
    """:func:`first_copy_run_table` of ``runs`` of one point, each run traced in NS-2
    (``ns2_gap_routes.ns2_traced``) and in ns-3 as the port (``ns3_traced``, the field
    and start times of the same run number in both; not cached), with the point's labels
    first."""
    params = ns2_gap.point_params(protocol, interval, quick)
    counts = {}
    for run in runs:
        ns2 = ns2_gap_routes.ns2_traced(params, seed, run)["frames"]
        port = ns2_gap_routes.ns3_traced(params, seed, run, NS3_VARIANTS[PORT])["frames"]
        counts[int(run)] = {"ns2": first_copy_counts(ns2), "port": first_copy_counts(port)}
    table = first_copy_run_table(counts)
    labels = ns2_gap.point_labels(protocol, interval, seed, 0)
    labels.pop("run")
    return table.assign(**labels)[[*labels, *table.columns]]


FIRST_COPY_RUNS = "ns2_gap_first_copy_runs"


def write_first_copy_runs(
    runs: Sequence[int] = range(1, 6),
    protocol: str = "udp",
    interval: float = 20.0,
    seed: int = 1,
    quick: bool = False,
) -> Path:
    """Write :func:`first_copy_runs` as ``ns2_gap_first_copy_runs.csv`` (atomically)."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    table = first_copy_runs(runs, protocol, interval, seed, quick)
    return files.write_csv(table, folder / f"{FIRST_COPY_RUNS}.csv")


def main(argv: Sequence[str] | None = None) -> int:
    """The traced point's command line (``ns2_gap.traced_point_main``), or with
    ``--first-copy-runs N`` :func:`write_first_copy_runs` of runs 1 to N (``--interval``,
    default 20 s, ``--protocol``, ``--quick``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not any(a.startswith("--first-copy-runs") for a in args):
        return ns2_gap.traced_point_main(write, __doc__.splitlines()[0], args)
    parser = argparse.ArgumentParser(description=write_first_copy_runs.__doc__)
    parser.add_argument("--first-copy-runs", type=int, required=True, metavar="N")
    parser.add_argument("--protocol", default="udp", choices=("udp", "tcp", "sctp"))
    parser.add_argument("--interval", type=float, default=20.0)
    parser.add_argument("--quick", action="store_true")
    parsed = parser.parse_args(args)
    print(write_first_copy_runs(range(1, parsed.first_copy_runs + 1), parsed.protocol,
                                parsed.interval, quick=parsed.quick))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
