"""Where the sensor study's ns-3 and NS-2 columns part: one run of both, gap by cause (issue 25).

The NS-2 baseline (:mod:`~transportlab.studies.wsn_reporting_interval.ns2_baseline`) puts
ns-3 within 20 % of NS-2 on few rows of the delay and dropped-packets metrics. This module
takes one protocol at one reporting interval, one replication (the same field, start
times and settings in both simulators) and attributes the two gaps to causes with counts
and times:

* **drops** (:func:`drop_table`): every drop the compared metric counts, by cause and by
  the kind of packet dropped, in both simulators, read from the run's ``counts`` (NS-2: its
  trace's ``d`` lines by reason; ns-3: the packet counter's MAC, IP and ARP drops by
  ns-3's reason, and the decodable frames its PHY lost in collisions, as NS-2 traces a
  ``COL`` line for each). The causes sum to the compared ``dropped_packets`` of each
  simulator (checked), so the rows say which cause makes the gap.
* **delay, by selection** (:func:`delay_selection`): the mean delay over the reports each
  simulator delivered, split into the reports both delivered and those only one did.
  ``mean(NS-2) - mean(ns-3)`` is exactly the sum of three terms: what NS-2's own extra
  reports add to its mean, the difference on the same reports, and minus what ns-3's own
  extra reports add to its mean.
* **delay, by part of the path** (:func:`delay_split`, from a traced run of both
  simulators, :func:`traced_run`): per delivered report the wait at the source before its
  routing layer hands it to the interface (AODV's route discovery: NS-2's ``s AGT`` to
  ``s RTR``, ns-3's agent send to the source MAC's ``MacTx``) and the time from there to
  the sink (interface queue, channel access, retries and air time on every hop, and any
  wait at a relay), with the hops taken.

:func:`write` writes ``ns2_gap_drops.csv``, ``ns2_gap_delay.csv`` and
``ns2_gap_paths.csv`` under ``data/results[/quick]/wsn_reporting_interval/``; a traced
run costs one ns-3 run (80-400 s here) and one NS-2 run.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import files, paths, plotting
from transportlab.engine.plotting import save_figure
from transportlab.ns2 import wireless_trace
from transportlab.ns2.runner import run_script
from transportlab.studies.wsn_reporting_interval import STUDY, analysis, ns2_scenario, scenario
from transportlab.studies.wsn_reporting_interval.ns2_scenario import NS2_DROP_REASON_CODES
from transportlab.studies.wsn_reporting_interval.parameters import SINK

__all__ = [
    "DROP_CAUSES",
    "collision_table",
    "delay_selection",
    "delay_split",
    "drop_causes",
    "drop_table",
    "gap_figure",
    "key_numbers",
    "ns2_report_paths",
    "ns3_report_paths",
    "traced_point_main",
    "traced_run",
    "write",
]

#: what :func:`write` writes (tables and the figure, by name)
OUTPUTS = ("ns2_gap_drops", "ns2_gap_delay", "ns2_gap_paths", "ns2_gap_collisions", "ns2_gap")

#: ns-3.44's ``WifiMacDropReason`` (wifi-mac.h) and ``Ipv4L3Protocol::DropReason``
#: (ipv4-l3-protocol.h), as the packet counter stores them in ``reason``
NS3_MAC_DROP = {0: "interface queue full", 1: "interface queue lifetime",
                2: "MAC retry limit", 3: "MAC other"}  # fmt: skip
NS3_IP_DROP = {1: "routing: TTL", 2: "routing: no route", 3: "routing: other",
               4: "routing: other", 5: "routing: no route", 6: "routing: other",
               7: "routing: other"}  # fmt: skip
_NS2_REASON = {code: name for name, code in NS2_DROP_REASON_CODES.items()}
#: NS-2's reasons (cmu-trace.h) by cause; a ``RET`` at the MAC is the retry limit, ``IFQ``
#: a full interface queue, ``ARP`` a packet an unresolved ARP entry replaced, ``CBK`` the
#: packets AODV purges from the interface queue on a link failure, ``NRTE`` no route
NS2_CAUSE = {
    "COL": "collision (decodable frame lost)", "RET": "MAC retry limit",
    "IFQ": "interface queue full", "ARP": "ARP", "NRTE": "routing: no route",
    "TTL": "routing: TTL", "CBK": "routing: link-failure purge",
}  # fmt: skip
COLLISION = "collision (decodable frame lost)"
#: decodable frames ns-3's PHY lost to NS-2's collision rule that NS-2's trace would not
#: show: Mac802_11::discard() (ns-2.35 mac/mac-802_11.cc) writes a COL line only for a
#: frame addressed to the node, or broadcast data, and frees an overheard unicast frame
#: for another node untraced. ns-3's ``ns2_collision_drops`` (the compared metric's PHY
#: part) counts them; the packet counter's ``ns2-collision-drop`` rows (reason 1) say
#: which.
COLLISION_UNTRACED = "collision: frame for another node (NS-2 frees it untraced)"
#: the packet counter's source of the frames NS-2's collision rule lost, by kind
NS2_COLLISION_SOURCE = analysis.NS2_COLLISION_SOURCE
RECEIVE_OTHER = "receive side: other (NS-2: DUP, ERR, BSY...)"
#: the causes in the order of the table (:data:`COLLISION_UNTRACED` is not one: the
#: compared metric leaves those frames out, :func:`collision_table` shows them)
DROP_CAUSES = (
    COLLISION, RECEIVE_OTHER, "MAC retry limit",
    "interface queue full", "interface queue lifetime", "MAC other", "ARP",
    "routing: no route", "routing: link-failure purge", "routing: TTL", "routing: other",
)  # fmt: skip
DATA = ("udp-data", "tcp-data", "sctp-data")
#: what kind of packet a packet class is, in the drop table
KINDS = {"routing": "routing", "arp": "ARP", "rts": "RTS/CTS/ACK", "cts": "RTS/CTS/ACK",
         "ack": "RTS/CTS/ACK", "control-other": "RTS/CTS/ACK"}  # fmt: skip
ALL_KINDS = "all"


def _kind(packet_class: str) -> str:
    if packet_class in DATA:
        return "data"
    if packet_class.endswith("-control"):
        return "transport control"
    return KINDS.get(packet_class, "other")


def drop_causes(counts: pd.DataFrame, performance: pd.DataFrame, simulator: str) -> pd.DataFrame:
    """One run's drops as the compared ``dropped_packets`` counts them, by cause and kind of
    packet: columns ``cause``, ``kind``, ``count``.

    ``counts``/``performance`` are the run's raw tables. NS-2 (``simulator`` ``"ns2"``):
    every ``d`` line, by its reason. ns-3: the MAC's, IP's and ARP's drops by ns-3's reason
    (a frame given up at the RTS retry limit counts its RTS too, kind RTS/CTS/ACK, as
    NS-2's trace does: ``PacketCounter::WatchWifiRtsRetryLimit``), and the PHY's drops as
    NS-2 would trace them (decodable frames lost in collisions that NS-2 writes a COL
    line for, by kind of frame from the counter's ``ns2-collision-drop`` rows, without
    :data:`COLLISION_UNTRACED`; kind ``all`` and every decodable frame lost,
    ``ns2_collision_drops``, for a run counted without those rows), as
    ``analysis._trace_drops`` counts them."""
    if simulator not in ("ns2", "ns3"):
        raise ValueError(f"simulator must be 'ns2' or 'ns3', got {simulator!r}")
    sources = ("wifi-phy-rx-drop", "wifi-phy-rx-error", "wifi-mac-drop", "ipv4-drop", "arp-drop")
    if simulator == "ns3":
        sources = sources[2:]
    drops = counts[counts["source"].isin(sources)]
    causes = [_cause(simulator, s, int(r)) for s, r in zip(drops["source"], drops["reason"],
                                                           strict=True)]  # fmt: skip
    frame = pd.DataFrame({
        "cause": causes, "kind": [_kind(c) for c in drops["packet_class"]],
        "count": drops["count"].to_numpy(dtype=np.int64),
    })  # fmt: skip
    if simulator == "ns3":
        collisions = performance["ns2_collision_drops"].iloc[0]
        if pd.isna(collisions):
            raise ValueError("the ns-3 run did not count its collisions NS-2's way "
                             "(a stock PHY): its dropped_packets is not NS-2's")  # fmt: skip
        extra = _ns3_collisions(counts, int(collisions))
        frame = pd.concat([frame, extra], ignore_index=True)
    return frame.groupby(["cause", "kind"], as_index=False)["count"].sum()


def _ns3_collisions(counts: pd.DataFrame, total: int) -> pd.DataFrame:
    """ns-3's decodable frames lost in collisions that NS-2 traces, by kind, from the
    counter's ``ns2-collision-drop`` rows of reason 0 (all of them must add up to
    ``total``, its ``ns2_collision_drops``); one row of kind ``all`` with ``total``
    without such rows."""
    rows = counts[counts["source"] == NS2_COLLISION_SOURCE]
    if not len(rows):
        return pd.DataFrame([{"cause": COLLISION, "kind": ALL_KINDS, "count": total}])
    if int(rows["count"].sum()) != total:
        raise ValueError(f"the PHY's collision drops by frame ({int(rows['count'].sum())}) "
                         f"do not add up to ns2_collision_drops ({total})")  # fmt: skip
    traced = rows[rows["reason"] == 0]
    return pd.DataFrame({
        "cause": COLLISION, "kind": [_kind(c) for c in traced["packet_class"]],
        "count": traced["count"].to_numpy(dtype=np.int64),
    })  # fmt: skip


def collision_table(ns3_raw: Mapping[str, pd.DataFrame], ns2_raw: Mapping[str, pd.DataFrame]):
    """Per kind of frame (and ``all``), in both simulators of one run: the frames the
    PHYs sent, the decodable frames lost in collisions that NS-2's trace shows (NS-2: its
    ``COL`` lines; ns-3: the frames its PHYs lost to NS-2's rule that NS-2 would trace),
    those per frame sent (a broadcast is lost at every neighbour that loses it, so this
    can exceed 1), and ns-3's :data:`COLLISION_UNTRACED` (NS-2's trace cannot show them).
    Columns ``kind``, ``quantity``, ``ns3``, ``ns2``."""
    col = ns2_scenario.NS2_DROP_REASON_CODES["COL"]
    sides = {}
    for simulator, raw in (("ns3", ns3_raw), ("ns2", ns2_raw)):
        counts = raw["counts"]
        sent = counts[counts["source"] == "wifi-phy-tx"]
        if simulator == "ns3":
            lost = counts[(counts["source"] == NS2_COLLISION_SOURCE) & (counts["reason"] == 0)]
            other = counts[(counts["source"] == NS2_COLLISION_SOURCE) & (counts["reason"] == 1)]
        else:
            lost = counts[(counts["source"] == "wifi-phy-rx-drop") & (counts["reason"] == col)]
            other = lost.iloc[:0]
        sides[simulator] = {
            name: frame.groupby(frame["packet_class"].map(_kind))["count"].sum()
            for name, frame in (("sent", sent), ("lost", lost), ("other", other))
        }
    kinds = sorted(set().union(*(set(part.index) for side in sides.values()
                                 for part in side.values())))  # fmt: skip
    rows = []
    for kind in [*kinds, ALL_KINDS]:
        values = {}
        for simulator, side in sides.items():
            pick = {name: float(part.sum() if kind == ALL_KINDS else part.get(kind, 0))
                    for name, part in side.items()}  # fmt: skip
            values[simulator] = pick
        for quantity, name in (("frames sent", "sent"),
                               ("decodable frames lost in collisions, NS-2 traces them", "lost"),
                               ("lost frames for another node, NS-2 frees them untraced",
                                "other")):  # fmt: skip
            rows.append({"kind": kind, "quantity": quantity,
                         "ns3": values["ns3"][name],
                         "ns2": values["ns2"][name] if name != "other" else np.nan})  # fmt: skip
        rows.append({
            "kind": kind, "quantity": "traced collision losses per frame sent",
            **{sim: values[sim]["lost"] / values[sim]["sent"] if values[sim]["sent"] else np.nan
               for sim in ("ns3", "ns2")},
        })  # fmt: skip
    return pd.DataFrame(rows, columns=["kind", "quantity", "ns3", "ns2"])


def _cause(simulator: str, source: str, reason: int) -> str:
    if simulator == "ns2":
        name = _NS2_REASON.get(reason, "")
        if source in ("wifi-phy-rx-drop", "wifi-phy-rx-error") and name != "COL":
            return RECEIVE_OTHER
        return NS2_CAUSE.get(name, "routing: other" if source == "ipv4-drop" else "MAC other")
    if source == "wifi-mac-drop":
        return NS3_MAC_DROP.get(reason, "MAC other")
    if source == "ipv4-drop":
        return NS3_IP_DROP.get(reason, "routing: other")
    return "ARP"


def drop_table(ns3_raw: Mapping[str, pd.DataFrame], ns2_raw: Mapping[str, pd.DataFrame]):
    """Both simulators' drops of one run by cause (rows of :data:`DROP_CAUSES` present in
    either) and kind, the difference ns-3 - NS-2 and its share of the whole gap; the row
    ``total`` is each simulator's compared ``dropped_packets``."""
    parts = []
    for simulator, raw in (("ns3", ns3_raw), ("ns2", ns2_raw)):
        mine = drop_causes(raw["counts"], raw["performance"], simulator)
        parts.append(mine.assign(simulator=simulator))
    long = pd.concat(parts, ignore_index=True)
    table = long.pivot_table(index=["cause", "kind"], columns="simulator", values="count",
                             aggfunc="sum", fill_value=0).reset_index()  # fmt: skip
    table.columns.name = None
    for simulator in ("ns3", "ns2"):
        if simulator not in table:
            table[simulator] = 0
    order = {cause: i for i, cause in enumerate(DROP_CAUSES)}
    table = table.assign(_order=table["cause"].map(order).fillna(len(order)))
    table = table.sort_values(["_order", "kind"]).drop(columns="_order")
    total = {"cause": "total", "kind": ALL_KINDS, "ns3": int(table["ns3"].sum()),
             "ns2": int(table["ns2"].sum())}  # fmt: skip
    table = pd.concat([table, pd.DataFrame([total])], ignore_index=True)
    table["ns3_minus_ns2"] = table["ns3"] - table["ns2"]
    gap = total["ns3"] - total["ns2"]
    table["share_of_gap"] = table["ns3_minus_ns2"] / gap if gap else np.nan
    return table[["cause", "kind", "ns3", "ns2", "ns3_minus_ns2", "share_of_gap"]]


# ----------------------------------------------------------------------------- delay


def _delivered(packets: pd.DataFrame) -> pd.Series:
    got = packets[packets["event"] == "received"]
    return got.set_index(["flow", "seq"])["delay"].astype(float)


def delay_selection(ns3_packets: pd.DataFrame, ns2_packets: pd.DataFrame) -> pd.DataFrame:
    """The mean report delay (ms) of one run in both simulators, split by which simulator
    delivered a report (``packets`` tables: a report is its sensor ``flow`` and ``seq``).

    Rows ``quantity``/``ns3``/``ns2``: reports and mean delay over all delivered, over
    those both delivered and over those only one did; then the decomposition
    ``mean(NS-2) - mean(ns-3)`` = ``NS-2's own reports`` (its mean over all minus over the
    common ones) + ``same reports`` (NS-2 minus ns-3 on the common ones) + ``ns-3's own
    reports`` (ns-3's mean over the common ones minus over all), in column ``ns2``."""
    ns3, ns2 = _delivered(ns3_packets), _delivered(ns2_packets)
    common = ns3.index.intersection(ns2.index)
    only3 = ns3.index.difference(ns2.index)
    only2 = ns2.index.difference(ns3.index)

    def mean(series: pd.Series, index=None) -> float:
        values = series if index is None else series.reindex(index)
        return float(values.mean() * 1e3) if len(values) else np.nan

    rows = [
        ("reports delivered", len(ns3), len(ns2)),
        ("reports delivered by both", len(common), len(common)),
        ("reports delivered by this simulator only", len(only3), len(only2)),
        ("mean delay, all delivered (ms)", mean(ns3), mean(ns2)),
        ("mean delay, reports both delivered (ms)", mean(ns3, common), mean(ns2, common)),
        ("mean delay, reports only this simulator delivered (ms)", mean(ns3, only3),
         mean(ns2, only2)),
        ("median delay, reports both delivered (ms)",
         float(ns3.reindex(common).median() * 1e3) if len(common) else np.nan,
         float(ns2.reindex(common).median() * 1e3) if len(common) else np.nan),
    ]  # fmt: skip
    gap = mean(ns2) - mean(ns3)
    own2 = mean(ns2) - mean(ns2, common)
    same = mean(ns2, common) - mean(ns3, common)
    own3 = mean(ns3, common) - mean(ns3)
    rows += [
        ("gap: mean(NS-2) - mean(ns-3) (ms)", np.nan, gap),
        ("gap part: NS-2's own reports (ms)", np.nan, own2),
        ("gap part: the same reports (ms)", np.nan, same),
        ("gap part: ns-3's own reports (ms)", np.nan, own3),
    ]
    return pd.DataFrame(rows, columns=["quantity", "ns3", "ns2"])


REPORT_COLUMNS = ["flow", "seq", "sent", "handed", "received", "hops", "transmissions"]


def ns2_report_paths(lines: pd.DataFrame) -> pd.DataFrame:
    """Per UDP report NS-2 delivered to the sink, from its trace lines (``event``,
    ``level``, ``node``, ``uid``, ``type``, ``src_node``, ``cbr_seq``, ``time``): when its
    agent sent it (``s AGT``), when the source's routing agent handed it to the interface
    (``s RTR``: after route discovery), when the sink's agent received it (``r AGT``), the
    nodes that handed it on (``s``/``f RTR``: the hops) and its data-frame transmissions
    (``s MAC``, retries included): :data:`REPORT_COLUMNS`."""
    cbr = lines[lines["type"].astype(str) == "cbr"]
    level, event = cbr["level"].astype(str), cbr["event"].astype(str)
    sent = cbr[(event == "s") & (level == "AGT")].drop_duplicates("uid")
    got = cbr[(event == "r") & (level == "AGT") & (cbr["node"] == SINK)].drop_duplicates("uid")
    handed = cbr[event.isin(["s", "f"]) & (level == "RTR")]
    mac = cbr[(event == "s") & (level == "MAC")]
    first = handed[handed["node"] == handed["src_node"]].groupby("uid")["time"].min()
    frame = pd.DataFrame({
        "uid": got["uid"].to_numpy(), "received": got["time"].to_numpy(dtype=float),
    }).merge(sent[["uid", "src_node", "cbr_seq", "time"]].rename(columns={"time": "sent"}),
             on="uid", how="inner")  # fmt: skip
    frame["handed"] = frame["uid"].map(first)
    frame["hops"] = frame["uid"].map(handed.groupby("uid")["node"].nunique()).fillna(0)
    frame["transmissions"] = frame["uid"].map(mac.groupby("uid").size()).fillna(0)
    frame = frame.rename(columns={"src_node": "flow", "cbr_seq": "seq"})
    return _typed(frame)


def ns3_report_paths(paths_table: pd.DataFrame, packets: pd.DataFrame) -> pd.DataFrame:
    """The same per report for an ns-3 run traced with ``RunOptions(trace_paths=True)``:
    ``paths_table`` its ``paths`` (``mac_tx <node>`` when a node's MAC took a packet,
    ``sink_rx`` the sink MAC's receptions), ``packets`` its report table. A report is the
    path packet whose ``sink_rx`` time is the report's arrival time at the sink (the same
    event); ``handed`` is its first ``mac_tx``, at its source (ns-3's counterpart of
    ``s RTR``, after AODV's deferred route and ARP), ``hops`` its ``mac_tx`` events.
    Transmissions per frame are not recorded (NaN)."""
    points = paths_table["point"].astype(str)
    tx = paths_table[points.str.startswith("mac_tx ")]
    tx = tx.assign(node=points[tx.index].str.split().str[1].astype(int))
    rx = paths_table[points == "sink_rx"]
    got = packets[packets["event"] == "received"]
    arrivals = rx.drop_duplicates("packet").set_index("time")["packet"]
    arrivals = arrivals[~arrivals.index.duplicated(keep=False)]
    packet = got["time"].map(arrivals)
    own = tx[tx["node"] == tx["flow"]]
    frame = pd.DataFrame({
        "flow": got["flow"].to_numpy(), "seq": got["seq"].to_numpy(),
        "sent": got["sent_time"].to_numpy(dtype=float),
        "received": got["time"].to_numpy(dtype=float), "packet": packet.to_numpy(),
    })  # fmt: skip
    frame["handed"] = frame["packet"].map(own.groupby("packet")["time"].min())
    frame["hops"] = frame["packet"].map(tx.groupby("packet")["node"].nunique())
    frame["transmissions"] = np.nan
    return _typed(frame)


def _typed(frame: pd.DataFrame) -> pd.DataFrame:
    frame = frame[REPORT_COLUMNS].copy()
    for column in ("flow", "seq"):
        frame[column] = frame[column].astype(np.int64)
    for column in ("sent", "handed", "received", "hops", "transmissions"):
        frame[column] = frame[column].astype(float)
    return frame.sort_values(["flow", "seq"]).reset_index(drop=True)


#: a report that waited longer than this at its source waited for a route (a quiet hop
#: takes ~4 ms with RTS/CTS/ACK at 1 Mb/s; a route discovery at least a round trip of
#: RREQ/RREP over several hops)
ROUTE_WAIT_S = 0.010


def delay_split(reports: Mapping[str, pd.DataFrame], common_only: bool = True) -> pd.DataFrame:
    """Per simulator (``reports`` maps ``ns3``/``ns2`` to :func:`ns3_report_paths` /
    :func:`ns2_report_paths`), the mean delay of the delivered reports (ms) in its parts:
    the wait at the source (agent send to the interface: route discovery) and the rest to
    the sink (queues, channel access, retries and air time on every hop), the share of
    reports that waited more than :data:`ROUTE_WAIT_S` at the source and their mean wait,
    hops and data-frame transmissions per report. ``common_only``: on the reports both
    delivered (so the parts add up to the ``same reports`` gap of :func:`delay_selection`)."""
    mine = {name: frame.dropna(subset=["handed"]).set_index(["flow", "seq"])
            for name, frame in reports.items()}  # fmt: skip
    if common_only:
        common = mine["ns3"].index.intersection(mine["ns2"].index)
        mine = {name: frame.loc[common] for name, frame in mine.items()}
    rows = {}
    for name, frame in mine.items():
        wait = frame["handed"] - frame["sent"]
        rest = frame["received"] - frame["handed"]
        total = frame["received"] - frame["sent"]
        waited = wait > ROUTE_WAIT_S
        rows[name] = {
            "reports": float(len(frame)),
            "mean delay (ms)": total.mean() * 1e3,
            "part: wait at the source for a route (ms)": wait.mean() * 1e3,
            "part: interface to sink, every hop (ms)": rest.mean() * 1e3,
            "reports that waited for a route": float(waited.sum()),
            "their mean wait at the source (ms)": wait[waited].mean() * 1e3
            if waited.any() else np.nan,
            "hops per report": frame["hops"].mean(),
            "interface to sink per hop (ms)": (rest / frame["hops"]).mean() * 1e3,
            "data-frame transmissions per hop": (frame["transmissions"] / frame["hops"]).mean(),
        }  # fmt: skip
    table = pd.DataFrame(rows).rename_axis("quantity").reset_index()
    table["ns3_minus_ns2"] = table["ns3"] - table["ns2"]
    return table[["quantity", "ns3", "ns2", "ns3_minus_ns2"]]


#: the collision-table rows :func:`key_numbers` states, per kind of frame
COLLISION_KEYS = (("routing", "frames sent", "routing frames sent"),
                  ("routing", "decodable frames lost in collisions, NS-2 traces them",
                   "routing frames lost in collisions"),
                  ("routing", "traced collision losses per frame sent",
                   "routing frames lost per routing frame sent"),
                  ("all", "decodable frames lost in collisions, NS-2 traces them",
                   "frames lost in collisions"),
                  ("all", "lost frames for another node, NS-2 frees them untraced",
                   "frames lost in collisions for another node (NS-2: untraced)"))  # fmt: skip


def key_numbers(
    drops: pd.DataFrame, delay: pd.DataFrame, collisions: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Per traced point, the numbers notebook 04 states: both simulators' mean delay and
    dropped packets, the delay gap's parts (by selection and by path), the drop gap's
    causes (summed over the kinds of packet) and, given ``collisions``
    (:func:`collision_table` with ``reporting_interval``), the routing frames sent and
    lost in collisions (:data:`COLLISION_KEYS`), from the committed tables."""
    rows = []
    for interval, mine in delay.groupby("reporting_interval"):
        d = mine.set_index(["part", "quantity"])
        selection, path = "by selection", "by path, reports both delivered"

        def get(part, quantity, simulator, d=d):
            return float(d.loc[(part, quantity), simulator])

        values = {
            "mean delay ns-3 (ms)": get(selection, "mean delay, all delivered (ms)", "ns3"),
            "mean delay NS-2 (ms)": get(selection, "mean delay, all delivered (ms)", "ns2"),
            "delay gap NS-2 - ns-3 (ms)": get(selection, "gap: mean(NS-2) - mean(ns-3) (ms)",
                                              "ns2"),
            "of it: the same reports (ms)": get(selection, "gap part: the same reports (ms)",
                                                "ns2"),
            "of those: wait at the source for a route (ms)": get(path, WAIT, "ns2")
            - get(path, WAIT, "ns3"),
            "of those: interface to sink (ms)": get(path, REST, "ns2") - get(path, REST, "ns3"),
            "reports that waited for a route, ns-3": get(path, "reports that waited for a route",
                                                         "ns3"),
            "reports that waited for a route, NS-2": get(path, "reports that waited for a route",
                                                         "ns2"),
            "their mean wait ns-3 (ms)": get(path, "their mean wait at the source (ms)", "ns3"),
            "their mean wait NS-2 (ms)": get(path, "their mean wait at the source (ms)", "ns2"),
            "interface to sink per hop ns-3 (ms)": get(path, "interface to sink per hop (ms)",
                                                       "ns3"),
            "interface to sink per hop NS-2 (ms)": get(path, "interface to sink per hop (ms)",
                                                       "ns2"),
        }  # fmt: skip
        point = drops[drops["reporting_interval"] == interval]
        by_cause = point.groupby("cause", sort=False)[["ns3", "ns2"]].sum()
        values["dropped packets ns-3"] = float(by_cause.loc["total", "ns3"])
        values["dropped packets NS-2"] = float(by_cause.loc["total", "ns2"])
        for cause in DROP_CAUSES:
            if cause in by_cause.index:
                gap = by_cause.loc[cause, "ns3"] - by_cause.loc[cause, "ns2"]
                values[f"drop gap ns-3 - NS-2: {cause}"] = float(gap)
        if collisions is not None:
            mine = collisions[collisions["reporting_interval"] == interval]
            mine = mine.set_index(["kind", "quantity"])
            for kind, quantity, label in COLLISION_KEYS:
                for simulator, name in (("ns3", "ns-3"), ("ns2", "NS-2")):
                    value = mine.loc[(kind, quantity), simulator] if (kind, quantity) in \
                        mine.index else np.nan  # fmt: skip
                    if not pd.isna(value):
                        values[f"{label}, {name}"] = float(value)
        for quantity, value in values.items():
            rows.append({"reporting_interval": interval, "quantity": quantity, "value": value})
    table = pd.DataFrame(rows).pivot_table(index="quantity", columns="reporting_interval",
                                           values="value", sort=False)  # fmt: skip
    table.columns = [f"{c:g} s" for c in table.columns]
    return table.reset_index()


# ----------------------------------------------------------------------------- figure

NS2_COLOR = plotting.OTHER_COLORS[4]  # the palette's grey: the reference simulator
NAMES = {"ns3": "ns-3", "ns2": "NS-2.35"}
WAIT = "part: wait at the source for a route (ms)"
REST = "part: interface to sink, every hop (ms)"


def gap_figure(delay: pd.DataFrame, reports: pd.DataFrame, drops: pd.DataFrame):
    """The committed tables of the traced points as one figure: (a) every delivered report's
    delay against its send time at the first interval, in both simulators; (b) the mean
    delay of the reports both delivered, split into the wait at the source and the rest,
    per interval and simulator; (c) the drops by cause per interval and simulator. Returns
    the figure and its runs (one per simulator and point)."""
    intervals = sorted(set(delay["reporting_interval"]))
    fig, axes = plotting.subplots(1, 3, figsize=(15, 4.2))
    ax = axes[0]
    first = reports[reports["reporting_interval"] == intervals[0]]
    color = plotting.PROTOCOL_COLORS[str(first["protocol"].iloc[0]).lower()]
    for simulator, style in (("ns2", {"color": NS2_COLOR, "marker": "s", "ms": 3}),
                             ("ns3", {"color": color, "marker": "o", "ms": 2})):  # fmt: skip
        mine = first[first["simulator"] == simulator]
        ax.plot(mine["sent"], (mine["received"] - mine["sent"]) * 1e3, ls="none",
                label=NAMES[simulator], **style)  # fmt: skip
    ax.set_yscale("log")
    ax.set(xlabel="time the report was sent (s)", ylabel="report delay (ms)",
           title=f"(a) every delivered report, {intervals[0]:g} s")  # fmt: skip
    ax.legend(fontsize=7)
    ax = axes[1]
    split = delay[delay["part"] != "by selection"].set_index(["reporting_interval", "quantity"])
    labels, x = [], 0
    for interval in intervals:
        for simulator in ("ns3", "ns2"):
            wait = float(split.loc[(interval, WAIT), simulator])
            rest = float(split.loc[(interval, REST), simulator])
            shade = NS2_COLOR if simulator == "ns2" else color
            ax.bar(x, rest, color=shade, label="interface to sink" if x == 0 else None)
            ax.bar(x, wait, bottom=rest, color=shade, alpha=0.45, hatch="//",
                   label="wait at the source for a route" if x == 0 else None)  # fmt: skip
            labels.append(f"{NAMES[simulator]}\n{interval:g} s")
            x += 1
    ax.set_xticks(range(len(labels)), labels, fontsize=7)
    ax.set(ylabel="mean delay of the reports both delivered (ms)",
           title="(b) where the delay is spent")  # fmt: skip
    ax.legend(fontsize=7)
    ax = axes[2]
    kept = drops[drops["cause"] != "total"]
    causes = kept.groupby(["reporting_interval", "cause"], sort=False)[["ns3", "ns2"]].sum()
    names = [c for c in DROP_CAUSES if c in set(causes.index.get_level_values("cause"))]
    height = 0.8 / (2 * len(intervals))
    for k, interval in enumerate(intervals):
        mine = causes.loc[interval].reindex(names, fill_value=0)
        for j, simulator in enumerate(("ns3", "ns2")):
            offset = (2 * k + j) * height
            ax.barh(np.arange(len(names)) + offset, mine[simulator], height=height,
                    color=NS2_COLOR if simulator == "ns2" else color,
                    alpha=1.0 if k == 0 else 0.5,
                    label=f"{NAMES[simulator]}, {interval:g} s")  # fmt: skip
    ax.set_yticks(np.arange(len(names)) + 0.4 - height / 2, names, fontsize=7)
    ax.invert_yaxis()
    ax.set(xlabel="drops in the run (the compared metric's parts)", title="(c) drops by cause")
    ax.legend(fontsize=7)
    fig.suptitle(
        f"{first['protocol'].iloc[0]}, run {int(first['run'].iloc[0])} of the same field and "
        f"start times in both simulators; 1 run per simulator and interval",
        fontsize=9,
    )
    fig.tight_layout()
    return fig, 1


# ----------------------------------------------------------------------------- traced run

#: NS-2 trace keys read for the per-report paths
PATH_FIELDS = {"t": "time", "Ni": "node", "Nl": "level", "It": "type", "Ii": "uid",
               "Is": "src", "Id": "dst", "Pi": "cbr_seq"}  # fmt: skip


def _cbr_send_forward_or_receive(line: str) -> bool:
    return "-It cbr" in line and line[:1] in ("s", "f", "r")


def _ns2_lines(trace) -> pd.DataFrame:
    """The CBR lines :func:`ns2_report_paths` reads, from a trace (path or text stream)."""
    return wireless_trace.read_lines(trace, _cbr_send_forward_or_receive, PATH_FIELDS)


def point_params(protocol: str, interval: float, quick: bool = False) -> dict[str, Any]:
    """The parameters of experiment ``intervals``' point (``protocol``, ``interval``)."""
    experiment = STUDY.reproduction.experiment("intervals")
    base = STUDY.parameters.validate({}, quick=quick)
    points = experiment.quick_points(base) if quick else experiment.points(base)
    for point in points:
        if point["protocol"] == protocol and float(point["reporting_interval"]) == interval:
            return STUDY.parameters.validate(point, quick=quick, base=base)
    raise ValueError(f"experiment intervals has no point {protocol} at {interval} s")


def traced_run(
    protocol: str = "udp",
    interval: float = 1.0,
    seed: int = 1,
    run: int = 1,
    quick: bool = False,
) -> dict[str, dict[str, pd.DataFrame]]:
    """Run one point of ``intervals`` in both simulators with the per-report paths traced:
    ``{"ns3": raw tables + "reports", "ns2": raw tables + "reports"}``. Not cached: one
    ns-3 run and one NS-2 run."""
    params = point_params(protocol, interval, quick)
    ns3 = scenario.run_scenario(params, seed=seed, run=run,
                                options=scenario.RunOptions(trace_paths=True))  # fmt: skip
    ns3["reports"] = ns3_report_paths(ns3["paths"], ns3["packets"])
    ns2_params = ns2_scenario.PARAMETERS.validate(params)
    ns2 = ns2_scenario.run(ns2_params, seed, run)
    with run_script(ns2_scenario.tcl_script(ns2_params, seed, run),
                    timeout=ns2_scenario.TIMEOUT_SECONDS) as done:  # fmt: skip
        ns2["reports"] = ns2_report_paths(_ns2_lines(done.path(ns2_scenario.TRACE_FILE)))
    return {"ns3": ns3, "ns2": ns2}


#: the points traced in full mode: UDP (no transport dynamics) at the shortest interval,
#: where the delay gap is largest, and the longest, where the dropped-packets gap is
FULL_INTERVALS = (1.0, 20.0)


def traced_intervals(intervals: Sequence[float] | None, quick: bool) -> tuple[float, ...]:
    """The intervals a traced-run module writes: ``intervals`` if given, else
    :data:`FULL_INTERVALS` (quick mode: 1 s alone)."""
    if intervals is not None:
        return tuple(float(i) for i in intervals)
    return (1.0,) if quick else FULL_INTERVALS


def point_labels(protocol: str, interval: float, seed: int, run: int) -> dict[str, object]:
    """The columns that name a traced point in the tables of the traced-run modules."""
    return {"protocol": protocol.upper(), "reporting_interval": float(interval),
            "seed": seed, "run": run}  # fmt: skip


def tables(both: Mapping[str, Mapping[str, pd.DataFrame]]) -> dict[str, pd.DataFrame]:
    """The three tables of one traced point (:func:`traced_run`'s result)."""
    selection = delay_selection(both["ns3"]["packets"], both["ns2"]["packets"])
    split = delay_split({n: both[n]["reports"] for n in ("ns3", "ns2")})
    return {
        "ns2_gap_drops": drop_table(both["ns3"], both["ns2"]),
        "ns2_gap_delay": pd.concat(
            [selection.assign(part="by selection"),
             split.drop(columns="ns3_minus_ns2").assign(part="by path, reports both delivered")],
            ignore_index=True,
        ),
        "ns2_gap_paths": pd.concat(
            [both[n]["reports"].assign(simulator=n) for n in ("ns3", "ns2")], ignore_index=True
        ),
        "ns2_gap_collisions": collision_table(both["ns3"], both["ns2"]),
    }  # fmt: skip


def write(
    protocol: str = "udp",
    intervals: Sequence[float] | None = None,
    seed: int = 1,
    run: int = 1,
    quick: bool = False,
) -> list[Path]:
    """Trace each point in both simulators (default :data:`FULL_INTERVALS`, quick mode
    1 s), write the three tables with every point's rows (atomically, once all ran)."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    parts: dict[str, list[pd.DataFrame]] = {}
    for interval in traced_intervals(intervals, quick):
        label = point_labels(protocol, interval, seed, run)
        for name, frame in tables(traced_run(protocol, interval, seed, run, quick)).items():
            parts.setdefault(name, []).append(frame.assign(**label))
    joined = {name: pd.concat(frames, ignore_index=True) for name, frames in parts.items()}
    written = [files.write_csv(frame, folder / f"{name}.csv") for name, frame in joined.items()]
    fig, n_runs = gap_figure(joined["ns2_gap_delay"], joined["ns2_gap_paths"],
                             joined["ns2_gap_drops"])  # fmt: skip
    written.append(save_figure(fig, STUDY.name, "ns2_gap", quick=quick, n_runs=n_runs))
    return written


def traced_point_main(write_tables, description: str, argv: Sequence[str] | None = None) -> int:
    """The command line of the modules that trace one replication in both simulators
    (this one, ``ns2_gap_broadcasts``, ``ns2_gap_routes``): ``--protocol``, ``--interval``
    (repeatable), ``--run``, ``--quick``; ``write_tables(protocol, intervals, run=, quick=)``
    returns the path or paths it wrote, which are printed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--protocol", default="udp", choices=("udp", "tcp", "sctp"))
    parser.add_argument(
        "--interval",
        type=float,
        action="append",
        dest="intervals",
        help=f"reporting interval (repeatable; default {FULL_INTERVALS})",
    )
    parser.add_argument("--run", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    written = write_tables(args.protocol, args.intervals, run=args.run, quick=args.quick)
    for path in [written] if isinstance(written, (str, Path)) else written:
        print(Path(path))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return traced_point_main(write, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
