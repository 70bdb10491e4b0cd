"""Message interleaving (RFC 8260) against usrsctp: bulk and small messages on two streams.

One association on a 10 Mb/s, 10 ms link carries 1 MB of bulk in four 256-KB messages on
stream 0 (written at once, 4-MB send and receive buffers) and 50 messages of 100 bytes on
stream 1, one due every 20 ms from t = 0 (written when due). Each case runs on usrsctp
(``usrsctp-oracle`` keys ``small_count``, ``idata``, ``ss``, ``prio0``/``prio1``) and on
the ns-3 model (attributes ``IDataSupported``, ``StreamScheduler``,
``SctpSocket::SetStreamPriority``), with DATA or I-DATA, each scheduler both have
(:data:`SCHEDULERS`: FCFS, RR, RR per packet, priority with the small stream first, fair
bandwidth / fair capacity), without loss and with the same forward packets lost
(:data:`LOSS_PACKETS`, counted at the receiver as in the other scenarios).

Compared per case: the small messages' latency (delivery minus due time: median, 95th
percentile, max), how many of them arrive before the last bulk message, and the bulk's
completion. What differs is named with its RFC section (:data:`INTERLEAVING_DIFFERENCES`).

Pure Python at import time: ns-3 is loaded only by :func:`run_model`.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from io import StringIO

import numpy as np
import pandas as pd

from transportlab.ns3.helpers import cxx_namespace
from transportlab.ns3.simulation import run_until, simulation
from transportlab.studies.sctp_validation import stacks, wire

RATE_MBPS = 10.0
DELAY_MS = 10.0
BULK_SIZE = 262_144
BULK_BYTES = 1_048_576
SMALL_COUNT = 50
SMALL_SIZE = 100
SMALL_INTERVAL_MS = 20
BUFFER = 4 * 1024 * 1024
STOP_S = 60.0
#: Forward packets lost in the ``loss`` cases (1 = INIT, 2 = COOKIE ECHO, 3 = first DATA).
LOSS_PACKETS = (20, 120, 400)
SMALL_ID0 = 1_000_000
#: name -> (usrsctp SCTP_PLUGGABLE_SS value, ns-3 StreamScheduler TypeId).
SCHEDULERS = {
    "fcfs": (5, "ns3::SctpFcfsStreamScheduler"),
    "rr": (1, "ns3::SctpRoundRobinStreamScheduler"),
    "rr_packet": (2, "ns3::SctpRoundRobinPacketStreamScheduler"),
    "prio": (3, "ns3::SctpPriorityStreamScheduler"),
    "fair": (4, "ns3::SctpFairCapacityStreamScheduler"),
}
#: Stream priorities (lower first, both stacks): the small stream before the bulk.
PRIORITY = {0: 1, 1: 0}


@dataclass(frozen=True)
class Case:
    scheduler: str
    idata: bool
    loss: bool

    @property
    def name(self) -> str:
        chunks = "idata" if self.idata else "data"
        return f"il_{chunks}_{self.scheduler}_{'loss' if self.loss else 'noloss'}"


def cases() -> list[Case]:
    return [
        Case(s, idata, loss)
        for loss in (False, True)
        for idata in (False, True)
        for s in SCHEDULERS
    ]


def due_s(message_id: int) -> float:
    """When small message ``message_id`` is due (the application's send time)."""
    return (message_id - SMALL_ID0) * SMALL_INTERVAL_MS / 1e3


def oracle_args(case: Case, seed: int = 1) -> list[str]:
    args = [
        f"rate_bps={RATE_MBPS * 1e6!r}",
        f"delay_ms={DELAY_MS!r}",
        "streams=2",
        f"message_size={BULK_SIZE}",
        f"total_bytes={BULK_BYTES}",
        f"sndbuf={BUFFER}",
        f"rcvbuf={BUFFER}",
        f"small_count={SMALL_COUNT}",
        f"small_size={SMALL_SIZE}",
        f"small_interval_ms={SMALL_INTERVAL_MS}",
        f"idata={int(case.idata)}",
        f"ss={SCHEDULERS[case.scheduler][0]}",
        f"prio0={PRIORITY[0]}",
        f"prio1={PRIORITY[1]}",
        f"seed={seed}",
        f"stop_s={STOP_S!r}",
    ]
    if case.loss:
        args.append("drop_packets=" + ",".join(str(n) for n in LOSS_PACKETS))
    return args


def run_usrsctp(case: Case, seed: int = 1) -> pd.DataFrame:
    """Per message: ``stream``, ``id``, ``written_s``, ``delivered_s``; attribute
    ``idata`` of the frame: whether the association negotiated I-DATA."""
    return run_usrsctp_wire(case, seed)[0]


def run_usrsctp_wire(case: Case, seed: int = 1) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`run_usrsctp` and what usrsctp put on the link (:func:`wire_from_oracle`)."""
    path = stacks.oracle_path()
    if path is None:
        raise stacks.OracleNotAvailableError("usrsctp-oracle is not built")
    done = subprocess.run(
        [str(path), *oracle_args(case, seed), "chunk_trace=1"],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode not in (0, 3):  # 3: not complete by stop_s (reported, not raised)
        raise subprocess.CalledProcessError(done.returncode, done.args, done.stdout, done.stderr)
    out = done.stdout
    t = pd.read_csv(StringIO(out), keep_default_na=False)
    frame = _messages(
        t[t.event == "msg_write"], t[t.event == "msg_deliver"], lambda f: f.time_ns / 1e9
    )
    negotiated = t[t.event == "idata"]
    frame.attrs["idata"] = bool(len(negotiated) and int(negotiated.value.iloc[0]) == 1)
    frame.attrs["complete"] = done.returncode == 0
    return frame, wire_from_oracle(t)


#: Columns of a wire table (:func:`wire_from_oracle`, :func:`run_model_wire`).
WIRE_COLUMNS = ("time_s", "kind", "packet", "tsn", "stream", "flags", "message", "bytes")


def wire_from_oracle(t: pd.DataFrame) -> pd.DataFrame:
    """usrsctp-oracle's rows (with ``chunk_trace=1``) as a wire table: one row per DATA /
    I-DATA chunk the client handed to its link (``kind`` chunk: relative TSN, stream,
    flags, SSN or MID, payload bytes; ``packet`` numbers the forward packets, 1 = INIT), per
    SACK the server sent (``kind`` sack, ``tsn`` its cumulative TSN ack, relative), per
    forward packet the link queue dropped (``kind`` drop), per T3-rtx expiry (``kind``
    t3) and per change of the client's cwnd (``kind`` cwnd, ``bytes`` the new cwnd;
    usrsctp's as the oracle polls it after each library call)."""
    t = t.reset_index(drop=True)
    packet = (t.event.eq("pkt_tx") & t.dir.eq("fwd")).cumsum()
    chunks = t[t.event == "chunk_tx"]
    parts = chunks.kind.astype(str).str.split("/", expand=True)
    rows = [
        pd.DataFrame(
            {
                "time_s": chunks.time_ns / 1e9,
                "kind": "chunk",
                "packet": packet[chunks.index],
                "tsn": chunks.tsn.astype(np.int64),
                "stream": parts[0].astype(np.int64) if len(chunks) else [],
                "flags": parts[1].astype(np.int64) if len(chunks) else [],
                "message": parts[2].astype(np.int64) if len(chunks) else [],
                "bytes": chunks.value.astype(np.int64),
            }
        )
    ]
    sacks = t[t.event.eq("pkt_tx") & t.dir.eq("rev") & t.kind.astype(str).str.contains("SACK")]
    drops = t[t.event.eq("pkt_drop") & t.dir.eq("fwd") & t.kind.eq("queue")]
    t3 = t[t.event == "t3_timeout"]
    cwnd = t[t.event == "cwnd"]
    for kind, f, tsn, size in (
        ("sack", sacks, sacks.tsn, -1),
        ("drop", drops, -1, drops.value),
        ("t3", t3, -1, -1),
        ("cwnd", cwnd, -1, cwnd.value),
    ):
        rows.append(
            pd.DataFrame(
                {
                    "time_s": f.time_ns / 1e9,
                    "kind": kind,
                    "packet": packet[f.index],
                    "tsn": tsn,
                    "bytes": size,
                }
            )
        )
    wire = pd.concat(rows).sort_index(kind="stable")
    return _wire_types(wire)


def _wire_types(wire: pd.DataFrame) -> pd.DataFrame:
    wire = wire.reindex(columns=list(WIRE_COLUMNS))
    for c in WIRE_COLUMNS[2:]:
        wire[c] = wire[c].fillna(-1).astype(np.int64)
    wire["kind"] = wire["kind"].astype(str)
    wire["time_s"] = wire["time_s"].astype(float)
    return wire.reset_index(drop=True)


def _messages(writes: pd.DataFrame, delivers: pd.DataFrame, seconds) -> pd.DataFrame:
    w = pd.DataFrame({"id": writes.value.astype(np.int64), "written_s": seconds(writes)})
    d = pd.DataFrame(
        {
            "id": delivers.value.astype(np.int64),
            "stream": delivers.kind.astype(np.int64),
            "delivered_s": seconds(delivers),
        }
    )
    return d.merge(w, on="id", how="left").sort_values("delivered_s", ignore_index=True)


_CXX = """
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/sctp-module.h"
#include <cstring>
#include <deque>
#include <sstream>
#include <vector>
namespace tlvalidinterleave {
using namespace ns3;
/** Bulk on stream 0 (written as the send buffer takes it), small messages on stream 1
 *  (each written when due, or when the buffer takes it); every message's id is in its
 *  first 4 bytes. Rows: (time, event 0 write / 1 deliver, stream, id). */
struct Run {
    Ptr<Socket> client, listener;
    uint32_t bulkSize{262144}, bulkBytes{1048576}, smallSize{100}, smallCount{50};
    double smallIntervalS{0.02};
    uint32_t bulkWritten{0}, bulkBytesWritten{0}, smallDue{0}, smallWritten{0};
    bool connected{false};
    std::vector<double> times;
    std::vector<uint8_t> events;
    std::vector<uint16_t> streams;
    std::vector<uint32_t> ids;
    void Row(uint8_t e, uint16_t s, uint32_t id) {
        times.push_back(Simulator::Now().GetSeconds());
        events.push_back(e); streams.push_back(s); ids.push_back(id);
    }
    void Start(Address peer) {
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&Run::OnAccept, this));
        listener->Listen();
        client->SetConnectCallback(MakeCallback(&Run::OnConnected, this),
                                   MakeCallback(&Run::OnFailed, this));
        client->SetSendCallback(MakeCallback(&Run::OnSpace, this));
        Simulator::ScheduleNow(&Run::Connect, this, peer);
        for (uint32_t k = 0; k < smallCount; ++k)
            Simulator::Schedule(Seconds(k * smallIntervalS), &Run::Due, this);
    }
    void Connect(Address peer) { client->Connect(peer); }
    void OnFailed(Ptr<Socket>) {}
    void OnConnected(Ptr<Socket>) { connected = true; Write(); }
    void OnSpace(Ptr<Socket>, uint32_t) { Write(); }
    void Due() { ++smallDue; Write(); }
    bool SendOne(uint16_t sid, uint32_t size, uint32_t id) {
        std::vector<uint8_t> bytes(size, 0);
        std::memcpy(bytes.data(), &id, 4);
        Ptr<Packet> p = Create<Packet>(bytes.data(), size);
        SctpSendInfoTag tag(sid, 0, false);
        p->AddPacketTag(tag);
        if (client->Send(p) != static_cast<int>(size)) return false;
        Row(0, sid, id);
        return true;
    }
    void Write() {
        if (!connected) return;
        while (smallWritten < smallDue && SendOne(1, smallSize, 1000000u + smallWritten))
            ++smallWritten;
        while (bulkBytesWritten < bulkBytes) {
            uint32_t size = std::min(bulkSize, bulkBytes - bulkBytesWritten);
            if (!SendOne(0, size, bulkWritten)) break;
            ++bulkWritten;
            bulkBytesWritten += size;
        }
    }
    void OnAccept(Ptr<Socket> s, const Address&) {
        s->SetRecvCallback(MakeCallback(&Run::OnRecv, this));
    }
    void OnRecv(Ptr<Socket> s) {
        while (Ptr<Packet> p = s->Recv()) {
            SctpReceiveInfoTag tag;
            p->PeekPacketTag(tag);
            uint32_t id = 0;
            if (p->GetSize() >= 4) p->CopyData(reinterpret_cast<uint8_t*>(&id), 4);
            Row(1, tag.streamId, id);
        }
    }
};
/** What each side hands to its link (a device's MacTx, before the drop-tail queue, where
 *  usrsctp-oracle's chunk_tx and pkt_tx rows are taken): per DATA / I-DATA chunk of a
 *  forward packet its TSN, stream, flags, SSN or MID and payload; per SACK of a reverse
 *  packet its cumulative TSN ack; per packet the forward queue drops. Rows: (time, kind
 *  0 chunk / 1 SACK / 2 queue drop, packet number, TSN, stream, flags, message, bytes). */
struct Wire {
    std::vector<double> times;
    std::vector<uint8_t> kinds, flags;
    std::vector<uint32_t> packets, tsns, messages, bytes;
    std::vector<uint16_t> streams;
    uint32_t fwdPackets{0};
    void Watch(Ptr<NetDevice> sender, Ptr<NetDevice> receiver) {
        sender->TraceConnectWithoutContext("MacTx", MakeCallback(&Wire::OnForward, this));
        receiver->TraceConnectWithoutContext("MacTx", MakeCallback(&Wire::OnReverse, this));
        PointerValue queue;
        sender->GetAttribute("TxQueue", queue);
        queue.Get<Queue<Packet>>()->TraceConnectWithoutContext(
            "Drop", MakeCallback(&Wire::OnDrop, this));
        // With flow control and no queue disc the traffic control layer drops what the
        // stopped (full) device queue cannot take, before MacTx: the oracle's queue drops.
        std::ostringstream tc;
        tc << "/NodeList/" << sender->GetNode()->GetId() << "/$ns3::TrafficControlLayer/TcDrop";
        Config::ConnectWithoutContext(tc.str(), MakeCallback(&Wire::OnTcDrop, this));
    }
    void Add(uint8_t kind, uint32_t tsn, uint16_t sid, uint8_t f, uint32_t msg, uint32_t n) {
        times.push_back(Simulator::Now().GetSeconds());
        kinds.push_back(kind); packets.push_back(fwdPackets); tsns.push_back(tsn);
        streams.push_back(sid); flags.push_back(f); messages.push_back(msg); bytes.push_back(n);
    }
    static uint32_t Rd32(const uint8_t* p) {
        return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
    }
    /** The SCTP packet's bytes (after the point-to-point and IPv4 headers). */
    static std::vector<uint8_t> Sctp(Ptr<const Packet> packet) {
        std::vector<uint8_t> b(packet->GetSize());
        packet->CopyData(b.data(), b.size());
        size_t off = (b.size() >= 2 && b[0] == 0x00 && b[1] == 0x21) ? 2 : 0; // PPP: IPv4
        if (b.size() < off + 20 || (b[off] >> 4) != 4 || b[off + 9] != 132) return {};
        off += (b[off] & 0x0f) * 4;
        return std::vector<uint8_t>(b.begin() + off, b.end());
    }
    void OnForward(Ptr<const Packet> packet) { Chunks(Sctp(packet)); }
    /** A packet the traffic control layer dropped (IPv4 header included). */
    void OnTcDrop(Ptr<const Packet> packet) {
        Chunks(Sctp(packet));
        Add(2, 0, 0, 0, 0, packet->GetSize());
    }
    void Chunks(const std::vector<uint8_t>& p) {
        if (p.size() < 12) return;
        ++fwdPackets;
        for (size_t off = 12; off + 4 <= p.size();) {
            uint8_t type = p[off];
            size_t len = (size_t(p[off + 2]) << 8) | p[off + 3];
            if (len < 4 || off + len > p.size()) break;
            bool idata = type == 64;
            if ((type == 0 && len >= 16) || (idata && len >= 20)) {
                uint16_t sid = uint16_t((p[off + 8] << 8) | p[off + 9]);
                uint32_t msg = idata ? Rd32(&p[off + 12])
                                     : uint32_t((p[off + 10] << 8) | p[off + 11]);
                uint32_t bytes = uint32_t(len - (idata ? 20 : 16));
                Add(0, Rd32(&p[off + 4]), sid, p[off + 1], msg, bytes);
            }
            off += (len + 3) & ~size_t(3);
        }
    }
    void OnReverse(Ptr<const Packet> packet) {
        std::vector<uint8_t> p = Sctp(packet);
        for (size_t off = 12; off + 4 <= p.size();) {
            size_t len = (size_t(p[off + 2]) << 8) | p[off + 3];
            if (len < 4 || off + len > p.size()) break;
            if (p[off] == 3 && len >= 8) Add(1, Rd32(&p[off + 4]), 0, 0, 0, 0);
            off += (len + 3) & ~size_t(3);
        }
    }
    void OnDrop(Ptr<const Packet> packet) { Add(2, 0, 0, 0, 0, packet->GetSize()); }
    void WatchCwnd(Ptr<Socket> client) {
        client->TraceConnectWithoutContext("CongestionWindow", MakeCallback(&Wire::OnCwnd, this));
    }
    void OnCwnd(uint32_t, uint32_t cwnd) { Add(3, 0, 0, 0, 0, cwnd); }
};
}
"""


def _cxx():
    # ns-3 and our library are loaded: called inside a simulation
    return cxx_namespace("tlvalidinterleave", _CXX)


def run_model(case: Case, seed: int = 1, run: int = 1) -> pd.DataFrame:
    """The same case on the ns-3 model (same columns as :func:`run_usrsctp`)."""
    return run_model_wire(case, seed, run)[0]


def run_model_wire(
    case: Case, seed: int = 1, run: int = 1, pcap_prefix: str | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`run_model` and what the model put on the link: the wire table of
    :func:`wire_from_oracle`, taken where the oracle takes it (the devices' MacTx and the
    traffic control layer's drops, before the drop-tail queue; T3 expiries are not in it).
    ``pcap_prefix``: also a pcap of the sender's device (after its queue, both directions),
    ``<prefix>-0-0.pcap``, that tshark decodes."""
    with simulation(seed=seed, run=run) as ns:
        h = _cxx()
        for attr, value in (
            ("RtoInitial", ns.TimeValue(ns.MilliSeconds(1000))),
            ("RtoMin", ns.TimeValue(ns.MilliSeconds(1000))),
            ("RtoMax", ns.TimeValue(ns.MilliSeconds(60000))),
            ("SackDelay", ns.TimeValue(ns.MilliSeconds(200))),
            ("SackFrequency", ns.UintegerValue(2)),
            ("SndBufSize", ns.UintegerValue(BUFFER)),
            ("RcvBufSize", ns.UintegerValue(BUFFER)),
            ("MaxBurst", ns.UintegerValue(4)),
            ("OutboundStreams", ns.UintegerValue(10)),
            ("MaxInboundStreams", ns.UintegerValue(10)),
            ("AssociationMaxRetrans", ns.UintegerValue(100)),
            ("PathMaxRetrans", ns.UintegerValue(100)),
            ("IDataSupported", ns.BooleanValue(case.idata)),
            (
                "StreamScheduler",
                ns.TypeIdValue(ns.TypeId.LookupByName(SCHEDULERS[case.scheduler][1])),
            ),
        ):
            ns.Config.SetDefault(f"ns3::SctpSocket::{attr}", value)
        nodes, p2p, devices, interfaces = stacks.two_node_link(ns, RATE_MBPS, DELAY_MS, 100)
        em = ns.CreateObject[ns.SctpDropErrorModel]()
        for n in LOSS_PACKETS if case.loss else ():
            em.AddPacket(n)
        devices.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
        wire = h.Wire()
        wire.Watch(devices.Get(0), devices.Get(1))
        if pcap_prefix:
            p2p.EnablePcap(str(pcap_prefix), devices.Get(0), True)
        factory = ns.TypeId.LookupByName("ns3::SctpSocketFactory")
        r = h.Run()
        r.bulkSize, r.bulkBytes, r.smallSize, r.smallCount = (
            BULK_SIZE,
            BULK_BYTES,
            SMALL_SIZE,
            SMALL_COUNT,
        )
        r.smallIntervalS = SMALL_INTERVAL_MS / 1e3
        r.listener = ns.Socket.CreateSocket(nodes.Get(1), factory)
        r.client = ns.Socket.CreateSocket(nodes.Get(0), factory)
        client = ns.DynamicCast[ns.SctpSocket](r.client)
        wire.WatchCwnd(r.client)
        for sid, prio in PRIORITY.items():
            client.SetStreamPriority(sid, prio)
        r.listener.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 5004).ConvertTo())
        r.Start(ns.InetSocketAddress(interfaces.GetAddress(1), 5004).ConvertTo())
        run_until(STOP_S)
        rows = pd.DataFrame(
            {
                "time_ns": np.array([float(x) for x in r.times]) * 1e9,
                "event": [ord(x) if isinstance(x, str) else int(x) for x in r.events],
                "kind": [int(x) for x in r.streams],
                "value": [int(x) for x in r.ids],
            }
        )
        negotiated = bool(client.GetAssociation().IsIDataNegotiated())
        wire_rows = pd.DataFrame(
            {
                "time_s": np.array([float(x) for x in wire.times]),
                "kind": [("chunk", "sack", "drop", "cwnd")[_byte(x)] for x in wire.kinds],
                "packet": [int(x) for x in wire.packets],
                "tsn": [int(x) for x in wire.tsns],
                "stream": [int(x) for x in wire.streams],
                "flags": [_byte(x) for x in wire.flags],
                "message": [int(x) for x in wire.messages],
                "bytes": [int(x) for x in wire.bytes],
            }
        )
        del r, client, em, devices, nodes, p2p, interfaces, wire
    chunk_rows = wire_rows.kind.isin(["chunk", "sack"])
    if (wire_rows.kind == "chunk").any():
        base = int(wire_rows.tsn[wire_rows.kind == "chunk"].iloc[0])
        wire_rows.loc[chunk_rows, "tsn"] = (wire_rows.tsn[chunk_rows] - base) % (1 << 32)
    # a SACK before the first DATA (none here) would wrap: its cumulative TSN ack precedes it
    wire_rows.loc[chunk_rows & (wire_rows.tsn >= 1 << 31), "tsn"] -= 1 << 32
    wire_rows.loc[wire_rows.kind.isin(["drop", "cwnd"]), "tsn"] = -1
    frame = _messages(rows[rows.event == 0], rows[rows.event == 1], lambda f: f.time_ns / 1e9)
    frame.attrs["idata"] = negotiated
    frame.attrs["complete"] = len(frame) == SMALL_COUNT + BULK_BYTES // BULK_SIZE
    return frame, _wire_types(wire_rows)


def _byte(x) -> int:
    return ord(x) if isinstance(x, str) else int(x)


def summary(messages: pd.DataFrame) -> dict:
    """Small-message latency (delivery - due, s), small messages delivered before the last
    bulk message, bulk completion (s), messages delivered."""
    small = messages[messages.stream == 1]
    bulk = messages[messages.stream == 0]
    latency = small.delivered_s - small.id.map(due_s)
    last_bulk = float(bulk.delivered_s.max()) if len(bulk) else float("nan")
    return {
        "small_delivered": len(small),
        "bulk_delivered": len(bulk),
        "latency_median_s": float(latency.median()),
        "latency_p95_s": float(latency.quantile(0.95)),
        "latency_max_s": float(latency.max()),
        "small_before_last_bulk": int((small.delivered_s < last_bulk).sum()),
        "bulk_done_s": last_bulk,
        "order": ",".join(f"{'b' if s == 0 else 's'}" for s in messages.stream),
    }


@dataclass(frozen=True)
class InterleavingDifference:
    key: str
    title: str
    rfc: str
    text: str


INTERLEAVING_DIFFERENCES = {
    d.key: d
    for d in (
        InterleavingDifference(
            "usrsctp_rr_packet_data_stall",
            "usrsctp's round-robin-per-packet scheduler splits DATA messages and stalls",
            "RFC 9260 6.9, RFC 8260 3.3",
            "9260 6.9: the fragments of a user message sent in DATA chunks take consecutive "
            "TSNs; the receiver reassembles them by TSN. usrsctp 0.9.5's "
            "SCTP_SS_ROUND_ROBIN_PACKET picks the stream of every packet in "
            "sctp_ss_rrp_select, which returns the next stream without looking at "
            "locked_on_sending (the stream whose DATA message is half sent, honoured by the "
            "other schedulers' sctp_ss_default_select), so with DATA a small message takes "
            "TSNs between two fragments of a bulk message. The receiver never completes "
            "those messages; their fragments fill its reassembly queue until it drops every "
            "new TSN (usrsctp's limit of 512 chunks on queue, SCTP_ASOC_MAX_CHUNKS_ON_QUEUE), "
            "the cumulative TSN ack stops and T3-rtx resends the next TSN with a doubling RTO "
            "until the run ends. The model's round robin per packet moves to another stream "
            "only at a message boundary with DATA and completes.",
        ),
        InterleavingDifference(
            "usrsctp_fcfs_interleaves",
            "usrsctp's first-come-first-served scheduler lets later messages in between "
            "fragments with I-DATA",
            "RFC 8260 3.1",
            "8260 3.1: the first-come, first-served scheduler passes the messages through in "
            "the order the application wrote them, whether or not I-DATA is used. With I-DATA "
            "usrsctp's SCTP_SS_FIRST_COME sends small messages written later between the "
            "fragments of an earlier bulk message (they arrive before it); the model sends "
            "every fragment of the bulk message first, as with DATA.",
        ),
        InterleavingDifference(
            "rr_first_turn",
            "round robin starts with the small stream on usrsctp, with the bulk on the model",
            "RFC 8260 3.2",
            "8260 3.2 serves the streams in turn but does not say which goes first. usrsctp "
            "sends each message as it is written (SCTP_NODELAY), so the small messages "
            "written at establishment take the first TSNs before the bulk is written; the "
            "model takes the messages the application writes in its connect callback (inside "
            "the COOKIE ACK's processing) together at the end of that packet, and its round "
            "robin, with no stream served yet, starts at stream 0, the bulk. After that both "
            "switch alike (with DATA one small message per whole bulk message), and the small "
            "messages both stacks send after the last bulk message have the same latency.",
        ),
        InterleavingDifference(
            "queue_delay",
            "small-message latency set by the bottleneck queue each stack's cwnd fills",
            "RFC 9260 7.2.1, 6.1",
            "The scheduler hands each small message to the link as soon as it is due on both "
            "stacks (the same wait at the sender); the latency differs on the link: the wait "
            "behind the DATA already in the 100-packet bottleneck queue, which each stack's "
            "congestion window fills differently (usrsctp's slow start grows faster, L = 2 "
            "per SACK and a larger initial cwnd, the abc_l2 / initial_cwnd differences of the "
            "bulk scenarios, overshoots to a larger cwnd and loses more at the queue).",
        ),
        InterleavingDifference(
            "bulk_pace",
            "with DATA a small message waits for a whole bulk message, which takes longer "
            "on the stack that loses more at the queue",
            "RFC 9260 6.9, 7.2.1",
            "With DATA the fragments of a bulk message take consecutive TSNs (9260 6.9), so a "
            "small message due while one is sent waits for its last fragment: the longest "
            "wait at the sender equals the longest bulk message on both stacks, and the small "
            "messages before the last bulk message are those due before it started. Both "
            "stacks follow the same priority rule; the bulk messages take different times "
            "because usrsctp's faster slow start overruns the queue more (queue drops and "
            "retransmissions) and recovers during a bulk message.",
        ),
    )
}
#: Median small-message latency agrees within this fraction of usrsctp's, or this many s.
LATENCY_TOLERANCE = (0.10, 0.010)
#: Small messages delivered before the last bulk message agree within this many.
ORDER_TOLERANCE = 5


def _close(a: float, b: float) -> bool:
    """``b`` agrees with ``a`` (the reference) within :data:`LATENCY_TOLERANCE`."""
    return bool(abs(b - a) <= max(LATENCY_TOLERANCE[0] * abs(a), LATENCY_TOLERANCE[1]))


def wire_facts(messages: pd.DataFrame, wire_table: pd.DataFrame) -> dict:
    """What one stack's wire table shows (:mod:`.wire`): small messages given TSNs before
    the first bulk chunk and between bulk runs, bulk messages' durations and foreign TSNs,
    the small messages' wait at the sender and on the link, losses, cwnd peak, ack stall."""
    timing = wire.small_timing(wire_table, messages, due_s)
    first = wire.first_transmissions(wire_table)
    bulk = first[first.stream == wire.BULK_STREAM].groupby("message").time_s.agg(["min", "max"])
    last_bulk_start = float(bulk["min"].max()) if len(bulk) else float("nan")
    c = wire.chunks(wire_table)
    cwnd = wire_table.bytes[wire_table.kind == "cwnd"]
    return {
        "runs": wire.small_runs_between_bulk(wire_table),
        "timing": timing,
        "wait_median_s": wire.median(timing.sender_wait_s),
        "link_median_s": wire.median(timing.link_s),
        "wait_max_s": float(timing.sender_wait_s.max()) if len(timing) else float("nan"),
        "bulk_durations_s": [float(x) for x in (bulk["max"] - bulk["min"])],
        "last_bulk_start_s": last_bulk_start,
        "due_before_last_bulk": int((timing.due_s < last_bulk_start).sum()),
        "foreign": [int(x) for x in wire.bulk_messages(wire_table).foreign],
        "queue_drops": wire.queue_drops(wire_table),
        "retransmitted": wire.retransmitted_chunks(wire_table),
        "retransmitted_before_last_bulk": int(
            (c.tsn.duplicated() & (c.time_s < last_bulk_start)).sum()
        ),
        "cwnd_peak": int(cwnd.max()) if len(cwnd) else 0,
        "stall": wire.ack_stall(wire_table),
    }


def _explanations(
    case: Case, u: pd.DataFrame, m: pd.DataFrame, uw: pd.DataFrame, mw: pd.DataFrame, su, sm
) -> dict[str, str]:
    """The named differences whose measured check holds on this pair of wire tables, with
    their evidence (numbers from the traces). Each check is stated in its comment."""
    fu, fm = wire_facts(u, uw), wire_facts(m, mw)
    seen: dict[str, str] = {}
    # usrsctp_rr_packet_data_stall: with DATA usrsctp put TSNs of other messages inside a
    # fragmented message (the model none), its receiver's cumulative TSN ack stopped short
    # of the last TSN sent while the next TSN was sent again, and no bulk message arrived.
    st = fu["stall"]
    if (
        not case.idata
        and sum(fu["foreign"]) > 0
        and sum(fm["foreign"]) == 0
        and st["cum_ack"] < st["highest_tsn"]
        and st["next_sent"] >= 2
        and su["bulk_delivered"] == 0
    ):
        held = wire.undelivered_fragments_below(uw, st["cum_ack"])
        stranded = wire.stranded_fragments(uw, st["cum_ack"])
        seen["usrsctp_rr_packet_data_stall"] = (
            f"usrsctp gave {sum(fu['foreign'])} TSNs of small messages to slots inside its "
            f"{len(fu['foreign'])} bulk DATA messages (per message {fu['foreign']}; the model "
            f"0); its receiver's cumulative TSN ack stopped at {st['cum_ack']} from "
            f"{st['since_s']:.3f} s ({st['sacks_after']} SACKs repeat it) with "
            f"{held} bulk fragments acked and never delivered, {stranded} of them past a "
            f"foreign TSN (usrsctp queues at most 512 chunks); TSN {st['cum_ack'] + 1} was "
            f"sent {st['next_sent']} times ({st['t3']} T3-rtx expiries), highest TSN sent "
            f"{st['highest_tsn']}; usrsctp delivered {su['small_delivered']} of {SMALL_COUNT} "
            f"small and 0 bulk messages in {STOP_S:.0f} s, the model all by "
            f"{sm['bulk_done_s']:.3f} s"
        )
    if (
        case.scheduler == "fcfs"
        and case.idata
        and su["small_before_last_bulk"] > sm["small_before_last_bulk"] + ORDER_TOLERANCE
    ):
        seen["usrsctp_fcfs_interleaves"] = (
            f"{su['small_before_last_bulk']} small messages arrived before the last bulk "
            f"message on usrsctp, {sm['small_before_last_bulk']} on the model (as with DATA)"
        )
    if not (u.attrs["complete"] and m.attrs["complete"]):
        return seen
    # rr_first_turn: round robin; usrsctp gave small messages the first TSNs, the model
    # none; every later gap between bulk runs holds as many small messages on both; and
    # the small messages both send after their last bulk chunk have the same latency.
    ru, rm = fu["runs"], fm["runs"]
    if case.scheduler == "rr" and ru[0] > 0 and rm[0] == 0 and len(ru) == len(rm):
        later_same = ru[1:-1] == rm[1:-1]
        k = max(sum(ru[:-1]), sum(rm[:-1]))  # small messages sent before the last run
        late_u = fu["timing"].delivered_s - fu["timing"].due_s
        late_m = fm["timing"].delivered_s - fm["timing"].due_s
        tail_u = wire.median(late_u[fu["timing"].id - SMALL_ID0 >= k])
        tail_m = wire.median(late_m[fm["timing"].id - SMALL_ID0 >= k])
        if later_same and _close(tail_u, tail_m):
            seen["rr_first_turn"] = (
                f"small messages given TSNs before the first bulk chunk and between bulk runs: "
                f"usrsctp {ru[:-1]}, model {rm[:-1]} (then {ru[-1]} / {rm[-1]} after the "
                f"last); median latency of the messages from the {k + 1}th on, sent after the "
                f"last bulk chunk on both: {tail_u:.3f} / {tail_m:.3f} s"
            )
    # queue_delay: each small message left both senders at the same time (median of the
    # per-message gap of the wait at the sender within the absolute latency tolerance), so
    # the latency gap arises on the link: the link-time medians differ beyond the tolerance,
    # in the direction of the latency gap.
    lat_u, lat_m = su["latency_median_s"], sm["latency_median_s"]
    d_link = fm["link_median_s"] - fu["link_median_s"]
    paired = fu["timing"].merge(fm["timing"], on="id", suffixes=("_u", "_m"))
    wait_gap = wire.median((paired.sender_wait_s_m - paired.sender_wait_s_u).abs())
    if (
        wait_gap <= LATENCY_TOLERANCE[1]
        and abs(d_link) > LATENCY_TOLERANCE[1]
        and np.sign(d_link) == np.sign(lat_m - lat_u)
    ):
        seen["queue_delay"] = (
            f"per small message the wait at the sender differs by {wait_gap * 1e3:.1f} ms "
            f"(median; medians {fu['wait_median_s']:.3f} / {fm['wait_median_s']:.3f} s); on "
            f"the link {fu['link_median_s']:.3f} / {fm['link_median_s']:.3f} s (latency "
            f"{lat_u:.3f} / {lat_m:.3f} s); cwnd peak {fu['cwnd_peak']} / {fm['cwnd_peak']} "
            f"bytes, queue drops {fu['queue_drops']} / {fm['queue_drops']}"
        )
    # bulk_pace: DATA, both stacks delivered before the last bulk message exactly the small
    # messages due before it started (within one), their longest wait at the sender is their
    # longest bulk message (within one interval), and the stack whose last bulk message
    # started later retransmitted more before it.
    if not case.idata and case.scheduler in ("prio", "fair"):
        same_rule = all(
            abs(f["due_before_last_bulk"] - s["small_before_last_bulk"]) <= 1
            and abs(f["wait_max_s"] - max(f["bulk_durations_s"])) <= SMALL_INTERVAL_MS / 1e3
            for f, s in ((fu, su), (fm, sm))
        )
        later, earlier = (fu, fm) if fu["last_bulk_start_s"] > fm["last_bulk_start_s"] else (fm, fu)
        if (
            same_rule
            and later["retransmitted_before_last_bulk"] > earlier["retransmitted_before_last_bulk"]
        ):
            seen["bulk_pace"] = (
                f"last bulk message started at {fu['last_bulk_start_s']:.3f} / "
                f"{fm['last_bulk_start_s']:.3f} s with {fu['due_before_last_bulk']} / "
                f"{fm['due_before_last_bulk']} small messages due before it; longest bulk "
                f"message {max(fu['bulk_durations_s']):.3f} / {max(fm['bulk_durations_s']):.3f}"
                f" s, longest wait at the sender {fu['wait_max_s']:.3f} / {fm['wait_max_s']:.3f}"
                f" s; chunks retransmitted before the last bulk message "
                f"{fu['retransmitted_before_last_bulk']} / {fm['retransmitted_before_last_bulk']}"
                f", queue drops {fu['queue_drops']} / {fm['queue_drops']}"
            )
    return seen


def compare_frames(
    case: Case,
    u: pd.DataFrame,
    m: pd.DataFrame,
    uw: pd.DataFrame | None = None,
    mw: pd.DataFrame | None = None,
) -> dict:
    """One row: both stacks' :func:`summary` side by side, the verdict and the evidence.

    A gap (order beyond :data:`ORDER_TOLERANCE`, median latency beyond
    :data:`LATENCY_TOLERANCE`, or a stack not completing) is ``explained`` only when the
    measured check of a named difference (:data:`INTERLEAVING_DIFFERENCES`) holds on the
    wire tables ``uw`` / ``mw`` (:func:`wire_facts`); without them nothing is explained."""
    su, sm = summary(u), summary(m)
    row: dict = {
        "case": case.name,
        "scheduler": case.scheduler,
        "idata": case.idata,
        "loss": case.loss,
        "usrsctp_idata_negotiated": u.attrs["idata"],
        "ns3_idata_negotiated": m.attrs["idata"],
        "usrsctp_complete": u.attrs["complete"],
        "ns3_complete": m.attrs["complete"],
    }
    for key in su:
        if key == "order":
            continue
        row[f"usrsctp_{key}"] = su[key]
        row[f"ns3_{key}"] = sm[key]
    row["same_order"] = su["order"] == sm["order"]
    lat_u, lat_m = su["latency_median_s"], sm["latency_median_s"]
    latency_ok = _close(lat_u, lat_m)
    order_ok = abs(su["small_before_last_bulk"] - sm["small_before_last_bulk"]) <= ORDER_TOLERANCE
    complete = u.attrs["complete"] and m.attrs["complete"]
    seen = {} if uw is None or mw is None else _explanations(case, u, m, uw, mw, su, sm)
    # which gap each explanation accounts for
    covers = {
        "usrsctp_rr_packet_data_stall": {"complete", "order", "latency"},
        "usrsctp_fcfs_interleaves": {"order", "latency"},
        "rr_first_turn": {"order", "latency"},
        "queue_delay": {"latency"},
        "bulk_pace": {"order", "latency"},
    }
    gaps = {
        g
        for g, ok in (("complete", complete), ("order", order_ok), ("latency", latency_ok))
        if not ok
    }
    covered = set().union(*(covers[k] for k in seen)) if seen else set()
    both_negotiated = u.attrs["idata"] == m.attrs["idata"] == case.idata
    if not both_negotiated:
        verdict = "differs"
    elif not gaps:
        verdict = "agrees"
    elif gaps <= covered:
        verdict = "explained"
    else:
        verdict = "differs"
    row["latency_diff"] = (lat_m - lat_u) / lat_u if lat_u > 0 else float("nan")
    row["verdict"] = verdict
    explaining = [k for k in seen if covers[k] & gaps]
    row["explained_by"] = ",".join(explaining) if verdict == "explained" else ""
    row["evidence"] = " | ".join(f"{k}: {v}" for k, v in seen.items())
    return row


def compare(case: Case, seed: int = 1) -> dict:
    """Both stacks on ``case``, compared (:func:`compare_frames`)."""
    u, uw = run_usrsctp_wire(case, seed)
    m, mw = run_model_wire(case)
    return compare_frames(case, u, m, uw, mw)


CASES = {c.name: c for c in cases()}


def run(name: str, seed: int = 1) -> dict[str, pd.DataFrame]:
    """Raw tables of one case for the study's cache: ``il_messages`` (both stacks'
    messages, column ``stack``), ``il_flags`` (negotiated I-DATA, complete) and ``il_wire``
    (both stacks' wire tables, column ``stack``: :func:`wire_from_oracle`)."""
    case = CASES[name]
    (u, uw), (m, mw) = run_usrsctp_wire(case, seed), run_model_wire(case)
    frames = {"usrsctp": u, "ns3": m}
    messages = pd.concat([f.assign(stack=k) for k, f in frames.items()], ignore_index=True)
    wires = pd.concat([uw.assign(stack="usrsctp"), mw.assign(stack="ns3")], ignore_index=True)
    flags = pd.DataFrame(
        [
            {"stack": k, "idata": f.attrs["idata"], "complete": f.attrs["complete"]}
            for k, f in frames.items()
        ]
    )
    return {"il_messages": messages, "il_flags": flags, "il_wire": wires}


def frames_from_tables(raw) -> tuple:
    """(usrsctp messages, model messages, usrsctp wire, model wire) from the cached tables
    of :func:`run` (the wire tables None in a cache written before them)."""
    messages, flags = raw["il_messages"], raw["il_flags"]
    frames = {}
    for stack in ("usrsctp", "ns3"):
        f = messages[messages["stack"] == stack].reset_index(drop=True)
        f = f[[c for c in f.columns if c in ("id", "stream", "delivered_s", "written_s")]]
        flag = flags[flags["stack"] == stack].iloc[0]
        f.attrs["idata"], f.attrs["complete"] = bool(flag.idata), bool(flag.complete)
        frames[stack] = f
    wires = raw.get("il_wire")
    if wires is None:
        return frames["usrsctp"], frames["ns3"], None, None
    uw, mw = (
        wires[wires["stack"] == s].reset_index(drop=True)[list(WIRE_COLUMNS)]
        for s in ("usrsctp", "ns3")
    )
    return frames["usrsctp"], frames["ns3"], uw, mw


def row_from_tables(name: str, raw) -> dict:
    """:func:`compare_frames` from the cached tables of :func:`run`."""
    return compare_frames(CASES[name], *frames_from_tables(raw))


def evidence_row(name: str, u, m, uw, mw) -> dict:
    """The wire facts behind case ``name``'s verdict, usrsctp / model side by side: small
    messages given TSNs before the first bulk chunk and in the next gaps, TSNs of other
    messages inside bulk messages, median wait at the sender and time on the link, the
    longest bulk message, queue drops, retransmitted chunks, cwnd peak, where usrsctp's
    cumulative ack stopped when it did not complete (-1: it completed)."""
    fu, fm = wire_facts(u, uw), wire_facts(m, mw)

    def pair(key, fmt="{}"):
        return f"{fmt.format(fu[key])} / {fmt.format(fm[key])}"

    stalled = not u.attrs["complete"]
    return {
        "case": name,
        "small_turns": f"{fu['runs'][:4]} / {fm['runs'][:4]}",
        "foreign_tsns": f"{sum(fu['foreign'])} / {sum(fm['foreign'])}",
        "wait_median_s": pair("wait_median_s", "{:.3f}"),
        "link_median_s": pair("link_median_s", "{:.3f}"),
        "longest_bulk_s": f"{max(fu['bulk_durations_s'], default=float('nan')):.3f} / "
        f"{max(fm['bulk_durations_s'], default=float('nan')):.3f}",
        "queue_drops": pair("queue_drops"),
        "retransmitted": pair("retransmitted"),
        "cwnd_peak_kB": f"{fu['cwnd_peak'] / 1e3:.0f} / {fm['cwnd_peak'] / 1e3:.0f}",
        "usrsctp_cum_ack_stop": fu["stall"]["cum_ack"] if stalled else -1,
    }


def table(selected: list[Case] | None = None) -> pd.DataFrame:
    return pd.DataFrame([compare(c) for c in (selected or cases())])
