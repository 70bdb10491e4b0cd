"""Stream reset mid-transfer (RFC 6525) on usrsctp and on the ns-3 model, both directions.

100 messages of 1000 bytes alternate over streams 0 and 1 on a 10 Mb/s, 10 ms link (no
loss); stream 1 is reset after 40 of them:

* ``stream_reset_outgoing``: the sender resets its outgoing stream 1 once it has written
  40 messages (an Outgoing SSN Reset Request, RFC 6525 5.1.2);
* ``stream_reset_incoming``: the receiver asks for its incoming stream 1 to be reset once
  it has received 40 messages (an Incoming SSN Reset Request, 5.1.3, answered by the
  sender's Outgoing SSN Reset Request, 5.2.3); the sender writes the other 60 messages
  once its outgoing stream is reset.

usrsctp runs it in ``usrsctp-oracle`` (keys ``reset_dir``, ``reset_after``,
``reset_stream``), the model between two ns-3 nodes with the same link. The verdict asks
that the receiving application see the same SSNs on both stacks (numbered from 0 again on
stream 1 after the reset, 6525 5.2.2) and compares the time of the last delivery; the
differences (:data:`RESET_DIFFERENCES`) are named with their RFC section and the trace
evidence.

Pure Python at import time: ns-3 is loaded only by :func:`run_model`.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from io import StringIO

import numpy as np
import pandas as pd

from transportlab.ns3.helpers import cxx_namespace
from transportlab.ns3.simulation import run_until, simulation
from transportlab.studies.sctp_validation import stacks

#: Scenario name -> direction (1: the sender resets its outgoing stream; 2: the receiver
#: asks for its incoming stream to be reset).
RESET_SCENARIOS = {"stream_reset_outgoing": 1, "stream_reset_incoming": 2}
DESCRIPTIONS = {
    1: "stream 1 reset by the sender after 40 of 100 1000-B messages (RFC 6525 5.1.2)",
    2: "stream 1 reset at the receiver's request after 40 of 100 messages (RFC 6525 5.1.3)",
}
MESSAGES = 100
RESET_AFTER = 40
STREAM = 1
SIZE = 1000
RATE_MBPS = 10.0
DELAY_MS = 10.0
STOP_S = 30.0
#: Event columns of both stacks' tables: deliveries (``deliver_ssn``: kind = stream,
#: value = SSN) and the reset's steps.
COLUMNS = ("time", "event", "dir", "kind", "value")


@dataclass(frozen=True)
class ResetDifference:
    key: str
    title: str
    rfc: str
    text: str


RESET_DIFFERENCES = {
    d.key: d
    for d in (
        ResetDifference(
            "reset_pending_send_refused",
            "sending on a stream with a pending reset refused",
            "RFC 6525 5.1.2, RFC 6458 8.3.2",
            "5.1.2 requires only that no new data be sent on a stream after the Outgoing SSN "
            "Reset Request is sent until the reset is performed; RFC 6458 8.3.2 leaves the "
            "application's writes to the implementation. usrsctp refuses sendv on the stream "
            "(EAGAIN) and the oracle's writer waits there, so stream 0 waits too; the model "
            "queues the messages and sends them once the reset is performed, and stream 0 "
            "keeps flowing.",
        ),
        ResetDifference(
            "reset_request_timing",
            "the request goes out when the stream's queued data has TSNs",
            "RFC 6525 5.1.2 (Sender's Last Assigned TSN), RFC 9260 7",
            "Both stacks send the request once the data queued on the stream before it has "
            "TSNs (the request carries the Sender's Last Assigned TSN and the receiver performs "
            "the reset when everything up to it has arrived, 5.2.2); when that happens "
            "depends on each stack's congestion window (the RFC 9260 section 7 differences "
            "the other scenarios name), so the request and the last delivery come at "
            "different times.",
        ),
    )
}

_CXX = """
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/sctp-module.h"
#include <string>
#include <vector>
namespace tlvalidreset {
using namespace ns3;
/** Both ends of the stream-reset scenario: the writer, the reader, the reset request
 *  and the StreamReconfig traces, as event rows (time, event, dir, kind, value). */
struct Run {
    Ptr<Socket> client, listener;
    Ptr<SctpSocket> server;
    uint32_t direction{1}, messages{100}, resetAfter{40}, size{1000};
    uint16_t stream{1};
    uint32_t written{0}, delivered{0}, failed{0};
    bool requested{false}, restWritten{false};
    std::vector<double> times;
    std::vector<std::string> events, dirs;
    std::vector<int64_t> kinds, values;
    void Row(const std::string& e, const std::string& d, int64_t k, int64_t v) {
        times.push_back(Simulator::Now().GetSeconds());
        events.push_back(e); dirs.push_back(d); kinds.push_back(k); values.push_back(v);
    }
    void Start(Address peer) {
        listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                    MakeCallback(&Run::OnAccept, this));
        listener->Listen();
        client->SetConnectCallback(MakeCallback(&Run::OnConnected, this),
                                   MakeCallback(&Run::OnFailed, this));
        DynamicCast<SctpSocket>(client)->TraceConnectWithoutContext(
            "StreamReconfig", MakeCallback(&Run::OnClientReconfig, this));
        Simulator::ScheduleNow(&Run::Connect, this, peer);
    }
    void Connect(Address peer) { client->Connect(peer); }
    void OnFailed(Ptr<Socket>) {}
    void Write(uint32_t upTo) {
        while (written < upTo) {
            Ptr<Packet> p = Create<Packet>(size);
            SctpSendInfoTag tag(static_cast<uint16_t>(written % 2), 0, false);
            p->AddPacketTag(tag);
            if (client->Send(p) != static_cast<int>(size)) ++failed;
            ++written;
            if (direction == 1 && written == resetAfter) {
                std::vector<uint16_t> s{stream};
                int rc = DynamicCast<SctpSocket>(client)->ResetStreams(s, true, false);
                requested = true;
                Row("reset_request", "fwd", -1, rc < 0 ? 1 : 0);
            }
        }
    }
    void OnConnected(Ptr<Socket>) { Write(direction == 1 ? messages : resetAfter); }
    void OnAccept(Ptr<Socket> s, const Address&) {
        server = DynamicCast<SctpSocket>(s);
        s->SetRecvCallback(MakeCallback(&Run::OnRecv, this));
        server->TraceConnectWithoutContext("StreamReconfig",
                                           MakeCallback(&Run::OnServerReconfig, this));
    }
    void OnRecv(Ptr<Socket> s) {
        while (Ptr<Packet> p = s->Recv()) {
            SctpReceiveInfoTag tag;
            p->PeekPacketTag(tag);
            ++delivered;
            Row("deliver_ssn", "fwd", tag.streamId, tag.ssn);
            if (direction == 2 && !requested && delivered == resetAfter) {
                std::vector<uint16_t> st{stream};
                int rc = server->ResetStreams(st, false, true);
                requested = true;
                Row("reset_request", "rev", -1, rc < 0 ? 1 : 0);
            }
        }
    }
    void OnClientReconfig(SctpReconfigEvent e, uint16_t type, uint32_t, uint32_t result) {
        Row(SctpReconfigEventName(e), "fwd", type, result);
        // The outgoing reset performed at the sender: in direction 2 the rest is written now
        // (as usrsctp-oracle's writer does after its reset event).
        if (direction == 2 && !restWritten && type == 13 &&
            (SctpReconfigEventName(e) == "RESPONSE_RECEIVED")) {
            restWritten = true;
            Write(messages);
        }
    }
    void OnServerReconfig(SctpReconfigEvent e, uint16_t type, uint32_t, uint32_t result) {
        Row(SctpReconfigEventName(e), "rev", type, result);
    }
};
}
"""


def _cxx():
    # ns-3 and our library are loaded: called inside a simulation
    return cxx_namespace("tlvalidreset", _CXX)


def is_reset(name: str) -> bool:
    return name in RESET_SCENARIOS


def oracle_args(direction: int, seed: int = 1) -> list[str]:
    return [
        f"rate_bps={RATE_MBPS * 1e6!r}",
        f"delay_ms={DELAY_MS!r}",
        f"message_size={SIZE}",
        f"total_bytes={SIZE * MESSAGES}",
        "streams=2",
        f"reset_dir={direction}",
        f"reset_after={RESET_AFTER}",
        f"reset_stream={STREAM}",
        f"seed={seed}",
        f"stop_s={STOP_S!r}",
    ]


def run_usrsctp(direction: int, seed: int = 1) -> pd.DataFrame:
    """usrsctp-oracle's deliveries and reset events (``COLUMNS``; time in seconds)."""
    path = stacks.oracle_path()
    if path is None:
        raise stacks.OracleNotAvailableError("usrsctp-oracle is not built")
    out = subprocess.run(
        [str(path), *oracle_args(direction, seed)], capture_output=True, text=True, check=True
    ).stdout
    t = pd.read_csv(StringIO(out), keep_default_na=False)
    t = t[t.event.isin(["deliver_ssn", "reset_request", "reset_event"])]
    return pd.DataFrame(
        {
            "time": t.time_ns.astype(np.int64).to_numpy() / 1e9,
            "event": t.event.astype(str).to_numpy(),
            "dir": t.dir.astype(str).to_numpy(),
            "kind": pd.to_numeric(t.kind, errors="coerce").fillna(-1).astype(np.int64).to_numpy(),
            "value": t.value.astype(np.int64).to_numpy(),
        }
    )


def run_model(direction: int, seed: int = 1, run: int = 1) -> pd.DataFrame:
    """The model's deliveries and StreamReconfig events (``COLUMNS``)."""
    with simulation(seed=seed, run=run) as ns:
        h = _cxx()
        nodes, p2p, devices, interfaces = stacks.two_node_link(ns, RATE_MBPS, DELAY_MS, 100)
        factory = ns.TypeId.LookupByName("ns3::SctpSocketFactory")
        r = h.Run()
        r.direction, r.messages, r.resetAfter, r.size, r.stream = (
            direction,
            MESSAGES,
            RESET_AFTER,
            SIZE,
            STREAM,
        )
        r.listener = ns.Socket.CreateSocket(nodes.Get(1), factory)
        r.client = ns.Socket.CreateSocket(nodes.Get(0), factory)
        for sock in (r.listener, r.client):
            for attr, value in (
                ("ReconfigSupported", ns.BooleanValue(True)),
                ("OutboundStreams", ns.UintegerValue(2)),
                ("MaxInboundStreams", ns.UintegerValue(2)),
            ):
                sock.SetAttribute(attr, value)
        r.listener.Bind(ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 5003).ConvertTo())
        r.Start(ns.InetSocketAddress(interfaces.GetAddress(1), 5003).ConvertTo())
        run_until(STOP_S)
        frame = pd.DataFrame(
            {
                "time": [float(x) for x in r.times],
                "event": [str(x) for x in r.events],
                "dir": [str(x) for x in r.dirs],
                "kind": [int(x) for x in r.kinds],
                "value": [int(x) for x in r.values],
            }
        )
        failed = int(r.failed)
        del r, devices, nodes, p2p, interfaces
    if failed:
        raise RuntimeError(f"stream reset scenario: {failed} sends failed on the model")
    return frame


def run(name: str, seed: int = 1) -> dict[str, pd.DataFrame]:
    """Raw tables of a stream-reset scenario: ``reset_usrsctp`` and ``reset_ns3``."""
    direction = RESET_SCENARIOS[name]
    return {"reset_usrsctp": run_usrsctp(direction, seed), "reset_ns3": run_model(direction)}


def expected_ssns(stream: int) -> list[int]:
    """SSNs of ``stream`` at the receiver: stream 1 numbered from 0 again after the reset."""
    before = [i for i in range(RESET_AFTER) if i % 2 == stream]
    after = [i for i in range(RESET_AFTER, MESSAGES) if i % 2 == stream]
    if stream != STREAM:
        return list(range(len(before) + len(after)))
    return list(range(len(before))) + list(range(len(after)))


def facts(table: pd.DataFrame, stack: str) -> dict:
    """What one stack's table shows: SSNs per stream, request/reset/last-delivery times."""
    ssn = table[table.event == "deliver_ssn"]
    request = table[table.event == "reset_request"]
    if stack == "usrsctp":
        done = table[table.event == "reset_event"]
    else:  # the sender's outgoing request answered: the reset performed (6525 5.2.2/5.2.3)
        done = table[(table.event == "RESPONSE_RECEIVED") & (table.kind == 13)]
    # stream 0 messages delivered between the request and the reset being done
    t_req = float(request.time.iloc[0]) if len(request) else float("nan")
    t_done = float(done.time.iloc[-1]) if len(done) else float("nan")
    during = ssn[(ssn.kind == 0) & (ssn.time > t_req) & (ssn.time <= t_done)]
    return {
        "ssns": {s: [int(v) for v in ssn[ssn.kind == s].value] for s in (0, 1)},
        "delivered": len(ssn),
        "request_s": t_req,
        "done_s": t_done,
        "last_s": float(ssn.time.iloc[-1]) if len(ssn) else float("nan"),
        "stream0_during_reset": len(during),
    }


def detail_row(name: str, raw: Mapping[str, pd.DataFrame]) -> dict:
    """The ``stream_reset`` table's row: both stacks' facts side by side."""
    u = facts(raw["reset_usrsctp"], "usrsctp")
    m = facts(raw["reset_ns3"], "ns3")
    direction = "outgoing" if RESET_SCENARIOS[name] == 1 else "incoming"
    row: dict = {"scenario": name, "direction": direction}
    for key in ("delivered", "request_s", "done_s", "last_s", "stream0_during_reset"):
        row[f"usrsctp_{key}"] = u[key]
        row[f"ns3_{key}"] = m[key]
    row["ssns_expected"] = all(u["ssns"][s] == expected_ssns(s) for s in (0, 1))
    row["ssns_agree"] = u["ssns"] == m["ssns"]
    return row


def summarise(name: str, raw: Mapping[str, pd.DataFrame]) -> dict:
    """A ``validation`` row (the columns of :func:`.differences.summarise_scenario`; the
    retransmission, cwnd and aligned-profile columns are empty: one profile, no loss)."""
    d = detail_row(name, raw)
    direction = RESET_SCENARIOS[name]
    usr, ns3 = d["usrsctp_last_s"], d["ns3_last_s"]
    diff = (ns3 - usr) / usr
    agrees = bool(d["ssns_agree"] and abs(diff) <= stacks.COMPLETION_TOLERANCE)
    seen: dict[str, str] = {}
    if direction == 1 and d["ns3_stream0_during_reset"] > d["usrsctp_stream0_during_reset"]:
        seen["reset_pending_send_refused"] = (
            f"between the request ({d['usrsctp_request_s']:.4f} s) and its reset event "
            f"({d['usrsctp_done_s']:.4f} s) usrsctp delivered {d['usrsctp_stream0_during_reset']} "
            f"stream-0 messages, the model {d['ns3_stream0_during_reset']} between "
            f"{d['ns3_request_s']:.4f} s and {d['ns3_done_s']:.4f} s"
        )
    if abs(d["ns3_request_s"] - d["usrsctp_request_s"]) > 1e-3 or abs(diff) > 1e-3:
        seen["reset_request_timing"] = (
            f"request usrsctp {d['usrsctp_request_s']:.4f} s, model {d['ns3_request_s']:.4f} s; "
            f"reset done {d['usrsctp_done_s']:.4f} s / {d['ns3_done_s']:.4f} s; last delivery "
            f"{usr:.4f} s / {ns3:.4f} s"
        )
    if not d["ssns_agree"]:
        verdict, why = "differs", []
    elif agrees:
        verdict, why = "agrees", []
    else:  # the send rule explains a gap when seen; otherwise the request's timing
        main = [k for k in ("reset_pending_send_refused",) if k in seen]
        verdict, why = "explained", main or list(seen)
    na = pd.NA
    return {
        "scenario": name,
        "group": "stream reset",
        "description": DESCRIPTIONS[direction],
        "usrsctp_s": usr,
        "ns3_s": ns3,
        "completion_diff": diff,
        "agrees": agrees,
        **{
            k: na
            for k in (
                "usrsctp_fast",
                "ns3_fast",
                "usrsctp_t3",
                "ns3_t3",
                "usrsctp_queue_drops",
                "ns3_queue_drops",
                "usrsctp_timeouts",
                "ns3_timeouts",
            )
        },
        "cwnd_diff": np.nan,
        "usrsctp_aligned_s": np.nan,
        "ns3_aligned_s": np.nan,
        "completion_diff_aligned": np.nan,
        "agrees_aligned": na,
        "cwnd_diff_aligned": np.nan,
        "verdict": verdict,
        "explained_by": ",".join(why),
        "aligned_explained_by": "",
        "differences_seen": ",".join(sorted(seen)),
        "evidence": " | ".join(f"{k}: {seen[k]}" for k in why)
        + ("" if d["ssns_agree"] else "SSNs seen by the receiving application differ"),
        "aligned_evidence": "",
        "expected_seen": bool(d["ssns_expected"]),
    }
