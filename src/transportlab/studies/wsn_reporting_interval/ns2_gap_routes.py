"""Which next hops the two simulators' AODV routes take, against the field's links (issue 25).

:mod:`~transportlab.studies.wsn_reporting_interval.ns2_gap` found that the reports NS-2
delivers and ns-3 does not are about as many as the data frames ns-3's MACs give up at
the retry limit, where NS-2's give up almost none. This module takes the same traced run
(one replication, the same field and start times in both simulators) and asks where
those frames were sent:

* every hop a data frame is sent over is classed against the field's links
  (:func:`link_classes`, from the positions and the two radio ranges
  ``network.link_table`` uses): **two-way**; **one-way, next hop out of reach** (the
  sender hears the next hop, a 150-m node, but the next hop is beyond the sender's
  range: its RTS never arrives); **one-way, answer out of reach** (the next hop
  receives the sender but its CTS/ACK cannot reach back); **no link**;
* per class and simulator (:func:`hop_table`): the reports whose first hop is in it,
  how many of them reached the sink, and the data frames given up at the MAC retry
  limit on such hops (NS-2: its ``d ... RET`` lines of ``cbr`` packets with their
  ``-Hd`` next hop; ns-3: ``WifiMac::DroppedMpdu`` with the frame's receiver address);
* where the next hops of the frames given up come from (:func:`route_sources`): for
  each, the last AODV message the sender received from that next hop before it. Both
  AODVs learn a next hop only from a message it sent, but not from the same ones: ns-3
  makes a 1-hop route to the sender of every AODV message it receives
  (``RoutingProtocol::RecvAodv`` -> ``UpdateRouteToNeighbor``), NS-2.35 learns routes to
  a RREQ's originator and a RREP's destination only (``AODV::recvRequest``,
  ``recvReply``); and the AODV traffic behind them (:func:`_routing_counts`: RREQs for
  nodes other than the sink, the sink's broadcasts, RERRs).

ns-3's frames are read by :class:`FrameLog`, a small C++ recorder (``cppyy.cppdef``: a
Python callable cannot be an ns-3 trace sink) on every node's PHY (``MonitorSnifferTx``
/ ``MonitorSnifferRx``: each transmission attempt and each decoded frame, with its MAC
header) and MAC (``DroppedMpdu``). It is attached inside ``scenario.run_scenario``
through the ``trace_paths`` hook (:func:`_frames_attached`), so the cached run code is
unchanged. NS-2's come from its trace file.

Each point runs NS-2 once and ns-3 in each of :data:`NS3_MODELS`: the port before issue
25's fix, after it, and after it with ARP entries ns-3's AODV can read.

:func:`write` writes ``ns2_gap_routes.csv`` under
``data/results[/quick]/wsn_reporting_interval/``.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from transportlab.engine import files, paths
from transportlab.ns2 import wireless_trace
from transportlab.ns2.runner import run_script
from transportlab.ns3.helpers import cxx_namespace
from transportlab.ns3.recording import vector_array
from transportlab.studies.wsn_reporting_interval import STUDY, ns2_gap, ns2_scenario, scenario
from transportlab.studies.wsn_reporting_interval.network import node_ranges, positions
from transportlab.studies.wsn_reporting_interval.parameters import SINK

__all__ = [
    "HOP_CLASSES",
    "NS3_MODELS",
    "FrameLog",
    "classify",
    "first_hops",
    "hop_table",
    "key_numbers",
    "link_classes",
    "ns2_frames",
    "ns2_traced",
    "ns3_traced",
    "route_sources",
    "routes_table",
    "write",
]

TWO_WAY = "two-way"
#: the sender hears the next hop (a 150-m node) but is beyond its own range of it: the
#: RTS never arrives, nothing answers (section 8.4's "sensors that hear a 150-m node they
#: cannot reach")
NEXT_HOP_OUT_OF_REACH = "one-way: next hop out of the sender's reach"
#: the next hop receives the sender but the sender is beyond the next hop's range: its
#: CTS and ACK never arrive
ANSWER_OUT_OF_REACH = "one-way: the next hop's answer out of reach"
NO_LINK = "no link"
HOP_CLASSES = (TWO_WAY, NEXT_HOP_OUT_OF_REACH, ANSWER_OUT_OF_REACH, NO_LINK)


def classify(sender_reaches: bool, next_hop_reaches: bool) -> str:
    """The class of a hop from whether each end's frames reach the other (802.11 unicast
    needs both: RTS and DATA one way, CTS and ACK back)."""
    if sender_reaches and next_hop_reaches:
        return TWO_WAY
    if next_hop_reaches:
        return NEXT_HOP_OUT_OF_REACH
    if sender_reaches:
        return ANSWER_OUT_OF_REACH
    return NO_LINK


def link_classes(
    coordinates: Sequence[tuple[float, float]], ranges: Sequence[float]
) -> dict[tuple[int, int], str]:
    """Every ordered pair (sender, next hop) of a field with its class: a node's frames
    reach every node within its range (``network.link_table``'s rule: distance at most the
    transmitter's range; the TwoRayGround power both simulators set for that range and
    their common reception threshold make it exact)."""
    if len(coordinates) != len(ranges):
        raise ValueError(f"{len(coordinates)} positions but {len(ranges)} ranges")
    classes = {}
    for a, pa in enumerate(coordinates):
        for b, pb in enumerate(coordinates):
            if a != b:
                d = math.dist(pa, pb)
                classes[(a, b)] = classify(d <= ranges[a], d <= ranges[b])
    return classes


def field_link_classes(params: Mapping[str, Any], seed: int, run: int):
    """:func:`link_classes` of the field a replication runs on (both simulators')."""
    return link_classes(positions(params, seed, run), node_ranges(params))


# ----------------------------------------------------------------------------- ns-3 frames

#: what :class:`FrameLog` records per frame (``event``) and of what (``kind``)
EVENTS = ("tx", "rx", "mac-drop")
KINDS = {0: "data", 1: "RREQ", 2: "RREP", 3: "RERR", 4: "RREP-ACK"}
#: ns-3.44's ``WifiMacDropReason`` of a frame given up at the retry limit
NS3_RETRY_LIMIT = 2

_CXX = r"""
#include "ns3/aodv-packet.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/llc-snap-header.h"
#include "ns3/seq-ts-size-header.h"
#include "ns3/udp-header.h"
#include "ns3/wifi-mac-header.h"
#include "ns3/wifi-mac.h"
#include "ns3/wifi-mpdu.h"
#include "ns3/wifi-net-device.h"
#include "ns3/wifi-phy.h"
#include <map>
#include <vector>

namespace tlroutes {
using namespace ns3;

// One row per data or AODV frame a node's PHY sends (every attempt), decodes when it is
// addressed to the node or broadcast (AODV only), or its MAC gives up (DroppedMpdu).
class FrameLog {
  public:
    std::vector<int64_t> time_ns;
    std::vector<int32_t> node, peer, src, dst, origin, target, hops, reason, ttl;
    std::vector<uint8_t> event, kind;
    std::vector<int64_t> seq, dst_seqno;

    void AddNode(int32_t id, Ptr<WifiNetDevice> device, Ipv4Address address) {
        m_byMac[Mac48Address::ConvertFrom(device->GetAddress())] = id;
        m_byIp[address.Get()] = id;
        Ptr<WifiPhy> phy = device->GetPhy();
        phy->TraceConnectWithoutContext("MonitorSnifferTx",
            Callback<void, Ptr<const Packet>, uint16_t, WifiTxVector, MpduInfo, uint16_t>(
                [this, id](Ptr<const Packet> p, uint16_t, WifiTxVector, MpduInfo, uint16_t) {
                    Sniffed(id, 0, p);
                }));
        Mac48Address own = Mac48Address::ConvertFrom(device->GetAddress());
        phy->TraceConnectWithoutContext("MonitorSnifferRx",
            Callback<void, Ptr<const Packet>, uint16_t, WifiTxVector, MpduInfo, SignalNoiseDbm,
                     uint16_t>(
                [this, id, own](Ptr<const Packet> p, uint16_t, WifiTxVector, MpduInfo,
                                SignalNoiseDbm, uint16_t) {
                    WifiMacHeader h;
                    p->PeekHeader(h);
                    if (h.GetAddr1() == own || h.GetAddr1().IsBroadcast()) {
                        Sniffed(id, 1, p);
                    }
                }));
        device->GetMac()->TraceConnectWithoutContext("DroppedMpdu",
            Callback<void, WifiMacDropReason, Ptr<const WifiMpdu>>(
                [this, id](WifiMacDropReason why, Ptr<const WifiMpdu> mpdu) {
                    Ptr<Packet> copy = mpdu->GetPacket()->Copy();
                    Parse(id, 2, mpdu->GetHeader().GetAddr1(), copy, static_cast<int32_t>(why));
                }));
    }

    size_t GetN() const { return time_ns.size(); }

  private:
    std::map<Mac48Address, int32_t> m_byMac;
    std::map<uint32_t, int32_t> m_byIp;

    int32_t ByMac(Mac48Address a) const {
        auto it = m_byMac.find(a);
        return it == m_byMac.end() ? -1 : it->second;
    }
    int32_t ByIp(Ipv4Address a) const {
        auto it = m_byIp.find(a.Get());
        return it == m_byIp.end() ? -1 : it->second;
    }

    void Sniffed(int32_t id, uint8_t ev, Ptr<const Packet> p) {
        Ptr<Packet> copy = p->Copy();
        WifiMacHeader h;
        copy->RemoveHeader(h);
        if (!h.IsData()) {
            return;  // RTS, CTS, ACK: the frames they protect are what is recorded
        }
        // the peer of a sent frame is its receiver, of a received one its transmitter
        Parse(id, ev, ev == 0 ? h.GetAddr1() : h.GetAddr2(), copy, -1);
    }

    void Parse(int32_t id, uint8_t ev, Mac48Address peerMac, Ptr<Packet> p, int32_t why) {
        LlcSnapHeader llc;
        p->RemoveHeader(llc);
        if (llc.GetType() != 0x0800) {
            return;
        }
        Ipv4Header ip;
        p->RemoveHeader(ip);
        if (ip.GetProtocol() != 17) {
            return;
        }
        UdpHeader udp;
        p->RemoveHeader(udp);
        int32_t k = -1, org = -1, tgt = -1, hop = -1;
        int64_t number = -1, seqno = -1;
        if (udp.GetDestinationPort() == 654) {
            aodv::TypeHeader type;
            p->RemoveHeader(type);
            switch (type.Get()) {
            case aodv::AODVTYPE_RREQ: {
                aodv::RreqHeader h;
                p->RemoveHeader(h);
                k = 1; org = ByIp(h.GetOrigin()); tgt = ByIp(h.GetDst());
                hop = h.GetHopCount(); number = h.GetId();
                seqno = h.GetUnknownSeqno() ? -1 : static_cast<int64_t>(h.GetDstSeqno());
                break;
            }
            case aodv::AODVTYPE_RREP: {
                aodv::RrepHeader h;
                p->RemoveHeader(h);
                k = 2; org = ByIp(h.GetOrigin()); tgt = ByIp(h.GetDst());
                hop = h.GetHopCount(); number = h.GetAckRequired() ? 1 : 0;
                seqno = h.GetDstSeqno();
                break;
            }
            case aodv::AODVTYPE_RERR: {
                aodv::RerrHeader h;
                p->RemoveHeader(h);
                k = 3;
                hop = h.GetDestCount();
                std::pair<Ipv4Address, uint32_t> first;
                if (h.RemoveUnDestination(first)) {
                    tgt = ByIp(first.first);
                    seqno = first.second;
                }
                break;
            }
            case aodv::AODVTYPE_RREP_ACK:
                k = 4;
                break;
            }
        } else {
            SeqTsSizeHeader report;
            p->RemoveHeader(report);
            k = 0;
            number = report.GetSeq();
        }
        if (k < 0) {
            return;
        }
        time_ns.push_back(Simulator::Now().GetNanoSeconds());
        node.push_back(id);
        event.push_back(ev);
        peer.push_back(peerMac.IsBroadcast() ? -1 : ByMac(peerMac));
        kind.push_back(static_cast<uint8_t>(k));
        src.push_back(ByIp(ip.GetSource()));
        dst.push_back(ByIp(ip.GetDestination()));
        seq.push_back(number);
        origin.push_back(org);
        target.push_back(tgt);
        hops.push_back(hop);
        reason.push_back(why);
        ttl.push_back(ip.GetTtl());
        dst_seqno.push_back(seqno);
    }
};
}
"""


def _cxx():
    # ns-3 and our library are loaded: called inside a simulation
    return cxx_namespace("tlroutes", _CXX)


class FrameLog:
    """:data:`EVENTS` of data and AODV frames at every node of an ns-3 run (C++ sinks)."""

    def __init__(self, ns, devices, interfaces=None) -> None:
        self._log = _cxx().FrameLog()
        for node in range(devices.GetN()):
            device = ns.DynamicCast[ns.WifiNetDevice](devices.Get(node))
            ipv4 = device.GetNode().GetObject[ns.Ipv4]()
            address = ipv4.GetAddress(ipv4.GetInterfaceForDevice(device), 0).GetLocal()
            self._log.AddNode(node, device, address)

    def to_frame(self) -> pd.DataFrame:
        """One row per event: ``time`` (s), ``node``, ``event``, ``peer`` (the receiver of a
        sent or dropped frame, the transmitter of a received one; -1 broadcast), ``kind``,
        ``src``/``dst`` (IP, as nodes; -1 broadcast), ``seq`` (a report's sequence number,
        a RREQ's id, a RREP's ack-required flag), ``origin``/``target`` (a RREQ's or RREP's
        originator and destination), ``hops`` (their hop count), ``reason`` (a drop's
        ``WifiMacDropReason``), ``ttl`` (the IP header's TTL as sent), ``dst_seqno`` (a
        RREQ's destination sequence number, -1 unknown, or a RREP's; a RERR's first
        unreachable destination is its ``target``, their count its ``hops``)."""
        log = self._log
        ints = {name: vector_array(getattr(log, name), np.int32).astype(np.int64)
                for name in ("node", "peer", "src", "dst", "origin", "target", "hops",
                             "reason", "ttl")}  # fmt: skip
        events = vector_array(log.event, np.uint8)
        kinds = vector_array(log.kind, np.uint8)
        return pd.DataFrame({
            "time": vector_array(log.time_ns, np.int64) / 1e9,
            "event": np.array(EVENTS, dtype=object)[events] if len(events) else [],
            "kind": [KINDS[k] for k in kinds],
            "seq": vector_array(log.seq, np.int64),
            "dst_seqno": vector_array(log.dst_seqno, np.int64),
            **ints,
        })[["time", "node", "event", "kind", "peer", "src", "dst", "seq", "origin", "target",
            "hops", "reason", "ttl", "dst_seqno"]]  # fmt: skip


#: how :func:`_frames_attached` leaves the preloaded ARP entries: as the scenario made
#: them, permanent (AODV's neighbour table finds their MAC addresses, so the MAC's retry
#: limit reaches AODV), or auto-generated (ns-3's ``NeighborCacheHelper``, as the port had
#: them before issue 25's fix: ``scenario.set_arp_entries``)
ARP_ENTRIES = (None, "permanent", "auto-generated")


@contextlib.contextmanager
def _frames_attached(arp_entries: str | None = None) -> Iterator[list[FrameLog]]:
    """Attach a :class:`FrameLog` to the next ``scenario.run_scenario`` traced with
    ``trace_paths`` (and set its ARP entries to ``arp_entries``, :data:`ARP_ENTRIES`):
    its ``_path_recorder`` is called once the devices exist, their addresses are assigned
    and the neighbour caches filled, before the run. Wrapping it here leaves the scenario
    module, and with it every cached simulation's key, as it is."""
    if arp_entries not in ARP_ENTRIES:
        raise ValueError(f"arp_entries must be one of {ARP_ENTRIES}, got {arp_entries!r}")
    logs: list[FrameLog] = []
    original = scenario._path_recorder

    def recorder_and_frames(ns, devices):
        recorder = original(ns, devices)
        if arp_entries is not None:
            scenario.set_arp_entries(ns, devices, permanent=arp_entries == "permanent")
        logs.append(FrameLog(ns, devices))
        return recorder

    scenario._path_recorder = recorder_and_frames
    try:
        yield logs
    finally:
        scenario._path_recorder = original


# ----------------------------------------------------------------------------- NS-2 frames

#: NS-2's AODV message names (``-Pc``, aodv/aodv_packet.h via cmu-trace.cc) as ours
NS2_AODV_KINDS = {"REQUEST": "RREQ", "REPLY": "RREP", "ERROR": "RERR"}


#: new-trace keys read: time, node, level, drop reason, IP type and source, the next hop
#: (``-Hd``, -2 broadcast), the MAC transmitter, a report's sequence number (``-Pi``) and
#: AODV's message name, broadcast id, originator, destination and hop count
NS2_FIELDS = {"t": "time", "Ni": "node", "Nl": "level", "Nw": "reason", "It": "type",
              "Is": "src", "Hd": "next_hop", "Ms": "mac_src", "Pi": "cbr_seq",
              "Pc": "aodv_message", "Pb": "broadcast_id", "Ps": "origin", "Pd": "target",
              "Ph": "hops", "Id": "dst", "Iv": "ttl", "Pds": "dst_seqno"}  # fmt: skip
NS2_FRAME_COLUMNS = ["time", "node", "event", "kind", "peer", "src", "seq", "origin",
                     "target", "hops", "reason_name", "ttl", "dst_seqno"]  # fmt: skip


def _data_or_aodv(line: str) -> bool:
    return line[:1] in ("s", "r", "d") and ("-It cbr" in line or "-It AODV" in line)


def _integers_where(mask: np.ndarray, values: pd.Series) -> np.ndarray:
    """``values`` as integers where ``mask`` holds (each of those lines has the key), else
    -1."""
    numbers = np.full(len(values), -1, dtype=np.int64)
    numbers[mask] = pd.to_numeric(values[mask]).to_numpy(np.int64)
    return numbers


def ns2_frames(stream) -> pd.DataFrame:
    """NS-2's trace lines of data (``cbr``) and AODV frames as :class:`FrameLog`'s table:
    ``s MAC`` lines (a frame the MAC sends; ``-Hd`` its next hop) are ``tx``, ``r RTR``
    lines (a frame delivered to the routing agent; ``-Ms`` the transmitter's MAC address,
    NS-2's node id in hex) ``rx``, ``d MAC`` lines ``mac-drop`` with NS-2's reason in
    ``reason_name`` (``RET``: the retry limit), ``d IFQ ARP`` lines ``arp-drop`` (NS-2's
    ARP holds one packet per address it is resolving and drops the one a newer packet
    replaces; ns-3 has no such event). ``seq`` is a report's ``-Pi``, a RREQ's
    broadcast id ``-Pb``; a RREP's ``origin`` is its IP destination (the RREQ's
    originator, ``AODV::sendReply``); ``ttl`` the IP TTL ``-Iv`` (before the receiver's
    routing agent decrements it); ``dst_seqno`` a RREQ's or RREP's destination sequence
    number ``-Pds`` (a RREQ's is 0 when the originator knows none)."""
    lines = wireless_trace.read_lines(stream, _data_or_aodv, NS2_FIELDS)
    event, level = lines["event"].to_numpy(), lines["level"].to_numpy()
    why = lines["reason"].to_numpy()
    data = (lines["type"] == "cbr").to_numpy()
    name = np.select(
        [(event == "s") & (level == "MAC"), (event == "d") & (level == "MAC"),
         (event == "r") & (level == "RTR"), (event == "d") & (level == "IFQ") & (why == "ARP")],
        ["tx", "mac-drop", "rx", "arp-drop"], default="",
    )  # fmt: skip
    aodv = lines["aodv_message"].map(NS2_AODV_KINDS).fillna("").to_numpy(object)
    kind = np.where(data, "data", aodv)
    lines = lines.assign(name=name, kind=kind)[(name != "") & (kind != "")]
    lines = lines.reset_index(drop=True)
    if lines.empty:
        return pd.DataFrame(columns=NS2_FRAME_COLUMNS)
    rx = (lines["name"] == "rx").to_numpy()
    data, kind = (lines["kind"] == "data").to_numpy(), lines["kind"].to_numpy()
    rreq, rrep = kind == "RREQ", kind == "RREP"
    rreq_or_rrep = rreq | rrep
    # -Hd is the next hop of a frame the node sends (-2: broadcast); a received frame's
    # transmitter is its MAC source, the node id in hex
    next_hop = lines["next_hop"].fillna(-1).to_numpy(np.int64)
    peer = np.where(rx, wireless_trace.hex_numbers(lines["mac_src"].where(rx)), next_hop)
    seq = np.where(
        data, _integers_where(data, lines["cbr_seq"]), _integers_where(rreq, lines["broadcast_id"])
    )
    origin = np.where(
        rreq, _integers_where(rreq, lines["origin"]), _integers_where(rrep, lines["dst_node"])
    )
    return pd.DataFrame({
        "time": lines["time"].to_numpy(float), "node": lines["node"].to_numpy(np.int64),
        "event": lines["name"].to_numpy(object), "kind": kind,
        "peer": np.where(peer >= 0, peer, -1), "src": lines["src_node"].to_numpy(np.int64),
        "seq": seq, "origin": origin,
        "target": _integers_where(rreq_or_rrep, lines["target"]),
        "hops": _integers_where(rreq_or_rrep, lines["hops"]),
        "reason_name": np.where(lines["name"].isin(("mac-drop", "arp-drop")),
                                lines["reason"].fillna("---"), ""),
        "ttl": lines["ttl"].fillna(-1).to_numpy(np.int64),
        "dst_seqno": _integers_where(rreq_or_rrep, lines["dst_seqno"]),
    })[NS2_FRAME_COLUMNS]  # fmt: skip


# ----------------------------------------------------------------------------- tables

NEVER_SENT = "none: never sent by the source's MAC"
ALL = "all"
SIMULATORS = ("ns3", "ns2")


def given_up(frames: pd.DataFrame) -> pd.Series:
    """Whether each row is a frame its MAC gave up at the retry limit (ns-3:
    ``DroppedMpdu`` with :data:`NS3_RETRY_LIMIT`; NS-2: a ``d MAC RET`` line)."""
    drop = frames["event"] == "mac-drop"
    if "reason_name" in frames:
        return drop & (frames["reason_name"] == "RET")
    return drop & (frames["reason"] == NS3_RETRY_LIMIT)


def _class_of(frame: pd.DataFrame, classes: Mapping[tuple[int, int], str]) -> pd.Series:
    return pd.Series(
        [classes.get((n, p), NO_LINK) for n, p in zip(frame["node"], frame["peer"], strict=True)],
        index=frame.index, dtype=object,
    )  # fmt: skip


def _tried(frames: pd.DataFrame) -> pd.DataFrame:
    """The data frames a MAC tried to send: a DATA transmission, or a frame given up at
    the retry limit (one given up at the RTS limit never had its DATA on the air, so only
    its drop shows it; NS-2's other ``d MAC`` lines are the receivers')."""
    return frames[(frames["kind"] == "data") & ((frames["event"] == "tx") | given_up(frames))]


def first_hops(
    frames: pd.DataFrame, sent: pd.DataFrame, classes: Mapping[tuple[int, int], str]
) -> pd.DataFrame:
    """Per report an application sent (``sent``: ``flow``, ``seq``), the next hop its
    source's MAC first tried to send it to and that hop's class (:data:`NEVER_SENT` if the
    source's MAC never tried: no route before the end, or dropped on the way down)."""
    data = _tried(frames)
    own = data[data["node"] == data["src"]].sort_values("time", kind="stable")
    first = own.drop_duplicates(["src", "seq"]).rename(columns={"src": "flow"})
    table = sent[["flow", "seq"]].drop_duplicates().merge(
        first[["flow", "seq", "node", "peer"]], on=["flow", "seq"], how="left")  # fmt: skip
    known = table["peer"].notna()
    table["hop_class"] = NEVER_SENT
    table.loc[known, "hop_class"] = _class_of(
        table[known].astype({"node": np.int64, "peer": np.int64}), classes)  # fmt: skip
    return table.rename(columns={"peer": "next_hop"})[["flow", "seq", "next_hop", "hop_class"]]


def hop_table(
    frames: Mapping[str, pd.DataFrame],
    packets: Mapping[str, pd.DataFrame],
    classes: Mapping[tuple[int, int], str],
) -> pd.DataFrame:
    """Per simulator (``frames``: :class:`FrameLog`'s / :func:`ns2_frames`' table,
    ``packets``: the run's report table with ``event`` sent/received, ``flow``, ``seq``)
    and hop class (:data:`HOP_CLASSES`, :data:`NEVER_SENT`, ``all``): the reports whose
    first hop is in it and how many of them reached the sink, the data frames the MACs
    tried over such hops (one per frame and hop, retries not counted), those given up at the retry
    limit (all hops; at the report's own source) and the RREPs given up at the retry
    limit. Columns ``quantity``, ``hop_class``, ``ns3``, ``ns2``."""
    parts = []
    for simulator in SIMULATORS:
        mine, reports = frames[simulator], packets[simulator]
        sent = reports[reports["event"] == "sent"]
        got = reports[reports["event"] == "received"][["flow", "seq"]].drop_duplicates()
        hops = first_hops(mine, sent, classes)
        hops["delivered"] = pd.MultiIndex.from_frame(hops[["flow", "seq"]]).isin(
            pd.MultiIndex.from_frame(got))  # fmt: skip
        data = mine[mine["kind"] == "data"]
        sends = _tried(mine).drop_duplicates(["node", "peer", "src", "seq"])
        lost = data[given_up(data)]
        rreps = mine[(mine["kind"] == "RREP") & given_up(mine)]
        counts = {
            "reports whose first hop is of this class": hops["hop_class"].value_counts(),
            "of them delivered to the sink": hops.loc[hops["delivered"], "hop_class"]
            .value_counts(),
            "data frames the MACs tried over such hops": _class_of(sends, classes).value_counts(),
            "data frames given up at the retry limit": _class_of(lost, classes).value_counts(),
            "of them at the report's source": _class_of(lost[lost["node"] == lost["src"]],
                                                         classes).value_counts(),
            "RREPs given up at the retry limit": _class_of(rreps, classes).value_counts(),
        }  # fmt: skip
        for quantity, series in counts.items():
            for hop_class in (*HOP_CLASSES, NEVER_SENT, ALL):
                if hop_class == NEVER_SENT and not quantity.startswith(("reports", "of them d")):
                    continue
                value = int(series.sum()) if hop_class == ALL else int(series.get(hop_class, 0))
                parts.append({"simulator": simulator, "quantity": quantity,
                              "hop_class": hop_class, "value": value})  # fmt: skip
        for quantity, value in _routing_counts(mine).items():
            parts.append({"simulator": simulator, "quantity": quantity, "hop_class": ALL,
                          "value": value})  # fmt: skip
    long = pd.DataFrame(parts)
    table = long.pivot_table(index=["quantity", "hop_class"], columns="simulator",
                             values="value", sort=False).reset_index()  # fmt: skip
    table.columns.name = None
    return table[["quantity", "hop_class", "ns3", "ns2"]]


# ----------------------------------------------------------------------------- traced run


def ns3_traced(
    params: Mapping[str, Any],
    seed: int,
    run: int,
    attributes: Mapping[str, Any] | None = None,
    arp_entries: str | None = None,
) -> dict[str, pd.DataFrame]:
    """One ns-3 replication with every data and AODV frame recorded: ``packets`` (the
    run's report table) and ``frames`` (:class:`FrameLog`). ``attributes``: ns-3 default
    attribute values set after the scenario's own; ``arp_entries``: :data:`ARP_ENTRIES`
    (both for :data:`NS3_MODELS`). Not cached."""
    params = scenario.PARAMETERS.validate(params)
    with _frames_attached(arp_entries) as logs, _attributes_set(attributes or {}):
        raw = scenario.run_scenario(params, seed=seed, run=run,
                                    options=scenario.RunOptions(trace_paths=True))  # fmt: skip
        frames = logs[0].to_frame()
    return {"packets": raw["packets"], "frames": frames}


def ns2_traced(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """The same replication in NS-2: its report table and :func:`ns2_frames` of its trace."""
    ns2_params = ns2_scenario.PARAMETERS.validate(scenario.PARAMETERS.validate(params))
    problem = ns2_scenario.ns2_problem(ns2_params)
    if problem:
        raise ValueError(problem)
    starts = ns2_scenario.start_times(ns2_params, seed, run)
    with run_script(ns2_scenario.tcl_script(ns2_params, seed, run),
                    timeout=ns2_scenario.TIMEOUT_SECONDS) as done:  # fmt: skip
        trace = done.path(ns2_scenario.TRACE_FILE)
        tables = ns2_scenario.tables_from_trace(trace, ns2_params, starts,
                                                ns2_scenario._consumed(done.stdout))  # fmt: skip
        with open(trace) as stream:
            frames = ns2_frames(stream)
    return {"packets": tables["packets"], "frames": frames}


@contextlib.contextmanager
def _attributes_set(attributes: Mapping[str, Any]) -> Iterator[None]:
    """Set ns-3 attribute defaults (``"ns3::aodv::RoutingProtocol::X": value``) after the
    scenario's own ``_config_defaults`` (wrapped like :func:`_frames_attached`)."""
    if not attributes:
        yield
        return
    original = scenario._config_defaults

    def defaults_then_ours(ns, params):
        original(ns, params)
        for name, value in attributes.items():
            ns.Config.SetDefault(name, _attribute_value(ns, value))

    scenario._config_defaults = defaults_then_ours
    try:
        yield
    finally:
        scenario._config_defaults = original


def _attribute_value(ns, value):
    if isinstance(value, bool):
        return ns.BooleanValue(value)
    if isinstance(value, int):
        return ns.UintegerValue(value)
    if isinstance(value, float):
        return ns.TimeValue(ns.Seconds(value))
    return ns.StringValue(str(value))


def _routing_counts(frames: pd.DataFrame) -> dict[str, int]:
    """The AODV traffic behind the routes: route discoveries for the sink and for any
    other node (RREQs a node originated, each counted once however often it was resent
    by the MAC), the AODV messages the sink broadcast (a node that hears one learns
    nothing in NS-2.35 but a 1-hop route to the sink in ns-3) and the RERRs sent."""
    sent = frames[frames["event"] == "tx"]
    own = sent[(sent["kind"] == "RREQ") & (sent["node"] == sent["origin"])]
    own = own.drop_duplicates(["origin", "seq"])
    return {
        "RREQs originated for the sink": int((own["target"] == SINK).sum()),
        "RREQs originated for another node": int((own["target"] != SINK).sum()),
        "AODV messages the sink broadcast": int(((sent["node"] == SINK)
                                                 & (sent["peer"] == -1)
                                                 & (sent["kind"] != "data")).sum()),
        "RERRs sent": int((sent["kind"] == "RERR").sum()),
    }  # fmt: skip


NOTHING_HEARD = "nothing"


def route_sources(frames: pd.DataFrame, classes: Mapping[tuple[int, int], str]) -> pd.DataFrame:
    """Per data frame a simulator's MAC gave up at the retry limit: its hop's class,
    whether the next hop is the sink, and the last AODV message the sender's routing agent
    received from that next hop before (:data:`NOTHING_HEARD` if none): the only way
    either AODV learns a next hop is from a message that node sent. Counts by those three,
    column ``frames``."""
    lost = frames[(frames["kind"] == "data") & given_up(frames)].sort_values("time")
    heard = frames[(frames["event"] == "rx") & (frames["kind"] != "data")].sort_values("time")
    columns = ["hop_class", "next_hop_is_sink", "last_heard_from_next_hop", "frames"]
    if lost.empty:
        return pd.DataFrame(columns=columns)
    joined = pd.merge_asof(
        lost[["time", "node", "peer"]], heard[["time", "node", "peer", "kind"]],
        on="time", by=["node", "peer"], allow_exact_matches=False,
    )  # fmt: skip
    joined["hop_class"] = _class_of(joined, classes)
    joined["next_hop_is_sink"] = joined["peer"] == SINK
    joined["last_heard_from_next_hop"] = joined["kind"].fillna(NOTHING_HEARD)
    table = joined.groupby(columns[:3], as_index=False).size().rename(columns={"size": "frames"})
    return table.sort_values("frames", ascending=False, kind="stable").reset_index(drop=True)


# ----------------------------------------------------------------------------- the table

#: the sink's class of a hop when the route source table names the next hop
NEXT_HOP_SINK = {True: "the sink", False: "another node"}


def routes_table(
    ns3: Mapping[str, pd.DataFrame],
    ns2: Mapping[str, pd.DataFrame],
    classes: Mapping[tuple[int, int], str],
) -> pd.DataFrame:
    """One traced point: :func:`hop_table` and, per hop class, the data frames given up at
    the retry limit by what the sender last heard from the next hop (:func:`route_sources`),
    as rows ``quantity``, ``hop_class``, ``ns3``, ``ns2``."""
    frames = {"ns3": ns3["frames"], "ns2": ns2["frames"]}
    table = hop_table(frames, {"ns3": ns3["packets"], "ns2": ns2["packets"]}, classes)
    sources = []
    for simulator, mine in frames.items():
        for row in route_sources(mine, classes).itertuples(index=False):
            sources.append({
                "quantity": "given up at the retry limit, next hop "
                            f"{NEXT_HOP_SINK[bool(row.next_hop_is_sink)]}, the last AODV "
                            f"message heard from it: {row.last_heard_from_next_hop}",
                "hop_class": row.hop_class, "simulator": simulator, "frames": row.frames,
            })  # fmt: skip
    if sources:
        wide = pd.DataFrame(sources).pivot_table(
            index=["quantity", "hop_class"], columns="simulator", values="frames",
            aggfunc="sum", fill_value=0).reset_index()  # fmt: skip
        wide.columns.name = None
        for simulator in SIMULATORS:
            if simulator not in wide:
                wide[simulator] = 0
        table = pd.concat([table, wide[["quantity", "hop_class", "ns3", "ns2"]]],
                          ignore_index=True)  # fmt: skip
    for simulator in SIMULATORS:
        table[simulator] = table[simulator].astype(np.int64)
    return table


ALLOWED_HELLO_LOSS = "ns3::aodv::RoutingProtocol::AllowedHelloLoss"
BEFORE = "before the fix"
AFTER = "after the fix"
READABLE_ARP = "after the fix, ARP entries AODV can read"
#: the ns-3 models the table compares with NS-2 (``attributes``, ``arp_entries`` of
#: :func:`ns3_traced`): the port before issue 25's fix (ns-3's default AllowedHelloLoss 2:
#: a neighbour heard in a RREQ listed for 2 s, its expiry taken for a broken link), the
#: port after it (one change: neighbour entries outlive the run,
#: ``scenario.NEIGHBOUR_ENTRIES_OUTLIVE_RUN``) and the fix with the preloaded ARP entries
#: made permanent, so that the MAC's retry limit reaches AODV as NS-2's does (not in the
#: port: ``scenario.set_arp_entries``)
NS3_MODELS = {
    BEFORE: ({ALLOWED_HELLO_LOSS: 2}, None),
    AFTER: ({}, None),
    READABLE_ARP: ({}, "permanent"),
}
#: the points traced in full mode (``ns2_gap``'s)
FULL_INTERVALS = ns2_gap.FULL_INTERVALS


def models_at(interval: float, intervals: Sequence[float]) -> tuple[str, ...]:
    """The ns-3 models traced at ``interval`` of ``intervals`` (all of them, at every one)."""
    return tuple(NS3_MODELS)


def traced_point(
    protocol: str, interval: float, seed: int, run: int, quick: bool, models: Sequence[str]
) -> pd.DataFrame:
    """:func:`routes_table` of one point for each ns-3 model against one NS-2 run, with the
    columns ``ns3_model`` and the point's labels first."""
    params = ns2_gap.point_params(protocol, interval, quick)
    classes = field_link_classes(params, seed, run)
    ns2 = ns2_traced(params, seed, run)
    parts = []
    for model in models:
        attributes, arp_entries = NS3_MODELS[model]
        ns3 = ns3_traced(params, seed, run, attributes, arp_entries)
        parts.append(routes_table(ns3, ns2, classes).assign(ns3_model=model))
    table = pd.concat(parts, ignore_index=True)
    labels = ns2_gap.point_labels(protocol, interval, seed, run)
    table = table.assign(**labels)
    return table[[*labels, "ns3_model", "quantity", "hop_class", "ns3", "ns2"]]


def write(
    protocol: str = "udp",
    intervals: Sequence[float] | None = None,
    seed: int = 1,
    run: int = 1,
    quick: bool = False,
) -> list[Path]:
    """Trace each point (default :data:`FULL_INTERVALS`, quick mode 1 s) and write
    ``ns2_gap_routes.csv`` with every point's rows (atomically, once all ran)."""
    folder = files.check_writable_folder(paths.results_dir(STUDY.name, quick))
    intervals = ns2_gap.traced_intervals(intervals, quick)
    parts = [traced_point(protocol, i, seed, run, quick, models_at(i, intervals))
             for i in intervals]  # fmt: skip
    table = pd.concat(parts, ignore_index=True)
    return [files.write_csv(table, folder / "ns2_gap_routes.csv")]


#: what :func:`key_numbers` states per point and model: (quantity, hop class, label)
KEYS = (
    ("of them delivered to the sink", ALL, "reports delivered"),
    ("reports whose first hop is of this class", NEXT_HOP_OUT_OF_REACH,
     "reports whose first hop cannot hear the sender"),
    ("data frames given up at the retry limit", ALL, "data frames given up at the retry limit"),
    ("data frames given up at the retry limit", NEXT_HOP_OUT_OF_REACH,
     "of them to a next hop that cannot hear the sender"),
    ("RREQs originated for another node", ALL, "RREQs for another node than the sink"),
    ("AODV messages the sink broadcast", ALL, "AODV messages the sink broadcast"),
    ("RERRs sent", ALL, "RERRs sent"),
)  # fmt: skip


#: the column of a model in :func:`key_numbers`
SHORT = {BEFORE: "before", AFTER: "after", READABLE_ARP: "after+ARP"}
DIRECT = "of them straight to the sink after a RREQ from it"


def key_numbers(table: pd.DataFrame) -> pd.DataFrame:
    """The numbers notebook 04 section 8.8 states (``ns2_gap_routes.csv``): rows
    :data:`KEYS` for ns-3 and NS-2 (and, of the frames ns-3 gave up on hops whose next hop
    cannot hear the sender, :data:`DIRECT`), a column per point and ns-3 model (``1 s
    before``...); NS-2 is the same run in every column of a point."""
    columns = {}
    for (interval, model), mine in table.groupby(["reporting_interval", "ns3_model"],
                                                 sort=False):  # fmt: skip
        values = mine.set_index(["quantity", "hop_class"])
        column = {}
        for quantity, hop_class, label in KEYS:
            for simulator, name in (("ns3", "ns-3"), ("ns2", "NS-2")):
                key = (quantity, hop_class)
                column[f"{label}, {name}"] = (
                    int(values.loc[key, simulator]) if key in values.index else 0
                )
        direct = mine[
            mine["quantity"].str.endswith("next hop the sink, the last AODV message heard "
                                          "from it: RREQ")
            & (mine["hop_class"] == NEXT_HOP_OUT_OF_REACH)
        ]  # fmt: skip
        column[f"{DIRECT}, ns-3"] = int(direct["ns3"].sum())
        column[f"{DIRECT}, NS-2"] = int(direct["ns2"].sum())
        columns[f"{interval:g} s {SHORT.get(model, model)}"] = column
    return pd.DataFrame(columns).rename_axis("quantity").reset_index()


def main(argv: Sequence[str] | None = None) -> int:
    return ns2_gap.traced_point_main(write, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    raise SystemExit(main())
