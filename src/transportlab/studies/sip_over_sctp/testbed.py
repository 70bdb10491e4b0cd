"""SIP in ns-3 from Python: the standard testbed and the recorded tables.

The SIP elements themselves are C++ (``src/sip``: ``ns3::SipStack``,
``ns3::SipUserAgent``, ``ns3::SipProxy``, transports for UDP, TCP and SCTP);
this module wires them into the topology of seed 002 and turns what
``ns3::SipRecorder`` recorded into pandas DataFrames.

Topology (seed 002, Figures 5.4 and 5.8): a router in the middle, linked to
host A (user agents a1..aN), host B (user agents b1..bN) and the proxy host P.
All traffic between them crosses the router, where the NIST Net drops of the
seed are modelled by a packet error model on each of the router's incoming
links (so every packet has one chance ``loss_rate`` of being dropped).

Everything here builds, runs or records a simulation: it belongs to the run step of
the ``sip_over_sctp`` study (its source is part of that study's cache key,
:mod:`transportlab.engine.fingerprint`) and computes no metric (those are in
``transportlab.studies.sip_over_sctp.analysis``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from transportlab.ns3 import native
from transportlab.ns3.recording import vector_array

#: SipRecorder::MethodCode
METHODS = {0: "REGISTER", 1: "INVITE", 2: "ACK", 3: "BYE", 4: "CANCEL", 5: "OPTIONS", 255: "other"}
#: SipTransactionRecord::Outcome values besides status codes
OUTCOMES = {-1: "pending", 0: "timeout", -2: "transport-error", -3: "abandoned"}
#: columns of SipRecorder::GetCallTimes
CALL_TIME_COLUMNS = (
    "invite",
    "trying",
    "ringing",
    "answered",
    "ack",
    "bye_sent",
    "bye_done",
    "callee_answer_delay",
)
PROTOCOLS = ("udp", "tcp", "sctp")
#: How connections/associations are laid out between user-agent hosts and the proxy.
#: "seed": the Partysip set-up of seed 002 section 5.3.1 (inbound port 5060, outbound
#: port 5061, every message sent from the outbound socket): one association per host
#: and direction. "shared": RFC 3261 section 18 connection reuse, one per host pair.
LAYOUTS = ("seed", "shared")
SIP_DOMAIN = "transportlab.test"


def _ns():
    return native.load()  # ns-3, loaded on first use


def _seconds(ns_column: np.ndarray) -> np.ndarray:
    """ns -> s, with the recorder's -1 ("did not happen") as NaN."""
    values = ns_column.astype(np.float64) / 1e9
    values[ns_column < 0] = np.nan
    return values


def transport_available(kind: str) -> bool:
    """Whether the SIP transport ``kind`` ("udp", "tcp", "sctp") exists in this build."""
    ns = _ns()
    return bool(ns.SipHelper.IsTransportAvailable(kind))


class SipRecorder:
    """Python face of ``ns3::SipRecorder``: watch elements, then read DataFrames.

    Each watched element gets a name (``endpoint``) that appears in every table.
    """

    def __init__(self) -> None:
        ns = _ns()
        self.native = ns.CreateObject[ns.SipRecorder]()
        self._names: list[str] = []

    def _endpoint(self, name: str) -> int:
        if name not in self._names:
            self._names.append(name)
        return self._names.index(name)

    def watch_stack(self, stack, name: str) -> None:
        if not self.native.WatchStack(stack, self._endpoint(name)):
            raise RuntimeError("SipStack has no TransactionEnd trace source")

    def watch_user_agent(self, agent, name: str) -> None:
        if not self.native.WatchUserAgent(agent, self._endpoint(name)):
            raise RuntimeError("SipUserAgent has no CallEnd/Registered trace source")

    def watch_transport(self, transport, name: str) -> None:
        if not self.native.WatchTransport(transport, self._endpoint(name)):
            raise RuntimeError("SipTransport has no Tx/Rx trace source")

    def _names_of(self, ids: np.ndarray) -> np.ndarray:
        names = np.array(self._names or [""], dtype=object)
        return names[ids] if len(ids) else np.array([], dtype=object)

    def transactions(self) -> pd.DataFrame:
        """One row per transaction outcome.

        Columns: endpoint, role (client/server), method, status (final code, or 0
        time-out, -2 transport error, -3 abandoned), outcome (text), start, provisional,
        end (s), duration (s), retransmissions, reliable, call_id.
        """
        r = self.native
        n = int(r.GetTransactionCount())
        status = vector_array(r.GetTxStatus(), np.int32).astype(np.int64)
        start = _seconds(vector_array(r.GetTxStartNs(), np.int64))
        end = _seconds(vector_array(r.GetTxEndNs(), np.int64))
        frame = pd.DataFrame(
            {
                "endpoint": self._names_of(vector_array(r.GetTxEndpoints(), np.uint32)),
                "role": np.where(vector_array(r.GetTxClient(), np.uint8) == 1, "client", "server"),
                "method": [
                    METHODS.get(int(m), "other") for m in vector_array(r.GetTxMethods(), np.uint8)
                ],
                "status": status,
                "outcome": [OUTCOMES.get(int(s), "response") for s in status],
                "start": start,
                "provisional": _seconds(vector_array(r.GetTxProvisionalNs(), np.int64)),
                "end": end,
                "duration": end - start,
                "retransmissions": vector_array(r.GetTxRetransmissions(), np.uint32).astype(
                    np.int64
                ),
                "reliable": vector_array(r.GetTxReliable(), np.uint8).astype(bool),
                "call_id": [str(r.GetTxCallId(i)) for i in range(n)],
            }
        )
        return frame

    def calls(self) -> pd.DataFrame:
        """One row per call end, caller and callee side (times in s, NaN: did not happen)."""
        r = self.native
        n = int(r.GetCallCount())
        data: dict[str, Any] = {
            "endpoint": self._names_of(vector_array(r.GetCallEndpoints(), np.uint32)),
            "side": np.where(vector_array(r.GetCallCaller(), np.uint8) == 1, "caller", "callee"),
            "call_number": vector_array(r.GetCallNumbers(), np.uint32).astype(np.int64),
        }
        for i, name in enumerate(CALL_TIME_COLUMNS):
            data[name] = _seconds(vector_array(r.GetCallTimes(i), np.int64))
        data["invite_status"] = vector_array(r.GetCallInviteStatus(), np.int32).astype(np.int64)
        data["bye_status"] = vector_array(r.GetCallByeStatus(), np.int32).astype(np.int64)
        data["ok_retransmissions"] = vector_array(r.GetCallOkRetransmissions(), np.uint32).astype(
            np.int64
        )
        data["call_id"] = [str(r.GetCallId(i)) for i in range(n)]
        return pd.DataFrame(data)

    def registrations(self) -> pd.DataFrame:
        """One row per REGISTER outcome: endpoint, status, end (s), duration (s)."""
        r = self.native
        return pd.DataFrame(
            {
                "endpoint": self._names_of(vector_array(r.GetRegEndpoints(), np.uint32)),
                "status": vector_array(r.GetRegStatus(), np.int32).astype(np.int64),
                "end": _seconds(vector_array(r.GetRegEndNs(), np.int64)),
                "duration": vector_array(r.GetRegDurationNs(), np.int64) / 1e9,
            }
        )

    def messages(self) -> pd.DataFrame:
        """One row per message sent/received by a watched transport.

        Columns: endpoint, direction (sent/received), method, status (0 for requests),
        kind ("INVITE" or "180 INVITE"...), size (bytes of SIP text), time (s),
        stream, connection, peer (IPv4 as text), call_id.
        """
        r = self.native
        n = int(r.GetMessageCount())
        methods = [METHODS.get(int(m), "other") for m in vector_array(r.GetMsgMethods(), np.uint8)]
        status = vector_array(r.GetMsgStatus(), np.uint16).astype(np.int64)
        peers = vector_array(r.GetMsgPeers(), np.uint32)
        return pd.DataFrame(
            {
                "endpoint": self._names_of(vector_array(r.GetMsgEndpoints(), np.uint32)),
                "direction": np.where(
                    vector_array(r.GetMsgReceived(), np.uint8) == 1, "received", "sent"
                ),
                "method": methods,
                "status": status,
                "kind": [m if s == 0 else f"{s} {m}" for m, s in zip(methods, status, strict=True)],
                "size": vector_array(r.GetMsgSizes(), np.uint32).astype(np.int64),
                "time": vector_array(r.GetMsgTimesNs(), np.int64) / 1e9,
                "stream": vector_array(r.GetMsgStreams(), np.uint16).astype(np.int64),
                "connection": vector_array(r.GetMsgConnections(), np.uint64).astype(np.int64),
                "peer": [f"{p >> 24}.{(p >> 16) & 255}.{(p >> 8) & 255}.{p & 255}" for p in peers],
                "call_id": [str(r.GetMsgCallId(i)) for i in range(n)],
            }
        )


@dataclass
class SipTestbed:
    """Everything :func:`build_testbed` created (kept alive for the run)."""

    protocol: str
    nodes: Any
    router: Any
    host_a: Any
    host_b: Any
    proxy_host: Any
    proxy_address: Any
    proxy_stack: Any
    proxy: Any
    stack_a: Any
    stack_b: Any
    callers: list = field(default_factory=list)
    callees: list = field(default_factory=list)
    error_models: list = field(default_factory=list)
    recorder: SipRecorder | None = None
    devices: list = field(default_factory=list)


def _layout_attributes(layout: str, role: str) -> dict[str, Any]:
    """SipStreamTransport attributes of ``role`` ("proxy" or "agent") for ``layout``.

    seed: the proxy sends everything from its outbound port 5061 (Partysip's
    out_socket), never over associations the user agents opened; user agents send
    to the proxy's port 5060 over the association they opened (from an ephemeral
    port: the seed's linphone used 5060, which a one-to-one socket cannot share
    with its listener; the port number changes nothing in the timing).
    shared: RFC 3261 18 with the RFC 5923 alias: responses over the incoming
    connection, requests reuse the connection the peer opened.
    """
    ns = _ns()
    if layout == "seed":
        return {
            "OutboundPort": ns.UintegerValue(5061 if role == "proxy" else 0),
            "ResponsesOnIncomingConnection": ns.BooleanValue(False),
            "SendOnAcceptedConnections": ns.BooleanValue(False),
            "AliasIncomingConnections": ns.BooleanValue(False),
        }
    return {
        "OutboundPort": ns.UintegerValue(0),
        "ResponsesOnIncomingConnection": ns.BooleanValue(True),
        "SendOnAcceptedConnections": ns.BooleanValue(True),
        "AliasIncomingConnections": ns.BooleanValue(True),
    }


def build_testbed(
    protocol: str = "udp",
    n_pairs: int = 1,
    *,
    layout: str = "seed",
    link_rate: str = "100Mbps",
    link_delay: str = "100us",
    loss_rate: float = 0.0,
    loss_start: float = 0.0,
    register_at: float = 0.1,
    call_start: float = 1.0,
    call_duration: float = 1.0,
    call_interval: float = 1.0,
    answer_delay: float = 0.0,
    max_calls: int = 0,
    re_register: float = 0.0,
    setup_timeout: float = 0.0,
    record_messages: bool = False,
    stack_attributes: dict[str, Any] | None = None,
    proxy_processing_delay: float = 0.0,
    agent_processing_delay: float = 0.0,
    transport_attributes: dict[str, Any] | None = None,
    pcap_prefix: str | None = None,
) -> SipTestbed:
    """Build the seed 002 testbed: hosts A and B with ``n_pairs`` user agents each
    (ai calls bi through the proxy), the proxy host, one router; SIP over ``protocol``
    ("udp", "tcp" or "sctp").

    Call this inside :func:`transportlab.ns3.simulation.simulation`. Times in seconds.
    ``loss_rate`` is the packet drop probability at the router from ``loss_start``
    on. ``stack_attributes`` are extra ``ns3::SipStack`` attributes (T1, T2...).
    ``re_register`` > 0 refreshes each registration that long after it succeeded.
    ``setup_timeout`` > 0: a caller gives up a call without final response after it.
    ``transport_attributes`` are extra transport attributes (e.g. the SCTP
    ``StreamMapping``) for every stack.
    """
    if protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {protocol!r}; one of {PROTOCOLS}")
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; one of {LAYOUTS}")
    ns = _ns()
    if not transport_available(protocol):
        raise RuntimeError(f"the {protocol} SIP transport is not available in this build")
    # Full-size TCP segments (ns-3's default is 536 bytes) so that a SIP message
    # travels in one segment, as on the seed's Ethernet.
    ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(1448))
    nodes = ns.NodeContainer()
    nodes.Create(4)
    router, host_a, host_b, proxy_host = (nodes.Get(i) for i in range(4))
    internet = ns.InternetStackHelper()
    internet.Install(nodes)
    if protocol == "sctp":
        ns.SctpStackHelper().Install(nodes)
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue(link_rate))
    p2p.SetChannelAttribute("Delay", ns.StringValue(link_delay))
    addresses = ns.Ipv4AddressHelper()
    host_addresses = []
    devices = []
    error_models = []
    for index, host in enumerate((host_a, host_b, proxy_host), start=1):
        pair = p2p.Install(router, host)
        devices.append(pair)
        addresses.SetBase(ns.Ipv4Address(f"10.1.{index}.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces = addresses.Assign(pair)
        host_addresses.append(interfaces.GetAddress(1))
        if loss_rate > 0:
            model = ns.CreateObject[ns.RateErrorModel]()
            model.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
            model.SetAttribute("ErrorRate", ns.DoubleValue(float(loss_rate)))
            pair.Get(0).SetAttribute("ReceiveErrorModel", ns.PointerValue(model))
            if loss_start > 0:
                model.Disable()
                ns.ScheduleErrorModelState(model, ns.Seconds(float(loss_start)), True)
            error_models.append(model)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    address_a, address_b, proxy_address = host_addresses
    if pcap_prefix:
        # The proxy's link, as the seed's Ethereal on the proxy host saw it.
        p2p.EnablePcap(pcap_prefix, devices[2].Get(1), True)

    def helper(role: str, processing: float):
        sip = ns.SipHelper()
        sip.SetTransport(protocol)
        if protocol != "udp":
            for name, value in _layout_attributes(layout, role).items():
                sip.SetTransportAttribute(name, value)
        for name, value in (transport_attributes or {}).items():
            sip.SetTransportAttribute(name, value)
        for name, value in (stack_attributes or {}).items():
            sip.SetStackAttribute(name, value)
        sip.SetStackAttribute("ProcessingDelay", ns.TimeValue(ns.Seconds(float(processing))))
        return sip

    proxy_sip = helper("proxy", proxy_processing_delay)
    proxy_stack = proxy_sip.InstallStack(proxy_host, proxy_address, 5060)
    proxy = proxy_sip.InstallProxy(proxy_stack)
    proxy.SetStartTime(ns.Seconds(0.0))

    agent_sip = helper("agent", agent_processing_delay)
    stack_a = agent_sip.InstallStack(host_a, address_a, 5060)
    stack_b = agent_sip.InstallStack(host_b, address_b, 5060)
    agent_sip.SetUserAgentAttribute(
        "CallDuration",
        ns.StringValue(f"ns3::ConstantRandomVariable[Constant={float(call_duration)!r}]"),
    )
    agent_sip.SetUserAgentAttribute(
        "CallInterval",
        ns.StringValue(f"ns3::ConstantRandomVariable[Constant={float(call_interval)!r}]"),
    )
    agent_sip.SetUserAgentAttribute(
        "AnswerDelay",
        ns.StringValue(f"ns3::ConstantRandomVariable[Constant={float(answer_delay)!r}]"),
    )
    agent_sip.SetUserAgentAttribute("MaxCalls", ns.UintegerValue(int(max_calls)))
    agent_sip.SetUserAgentAttribute("SetupTimeout", ns.TimeValue(ns.Seconds(float(setup_timeout))))
    agent_sip.SetUserAgentAttribute(
        "ReRegisterInterval", ns.TimeValue(ns.Seconds(float(re_register)))
    )
    callers, callees = [], []
    for i in range(1, n_pairs + 1):
        callee = agent_sip.InstallUserAgent(stack_b, f"b{i}", proxy_address)
        callee.SetStartTime(ns.Seconds(float(register_at)))
        callees.append(callee)
    for i in range(1, n_pairs + 1):
        caller = agent_sip.InstallUserAgent(stack_a, f"a{i}", proxy_address)
        caller.SetAttribute("CallTo", ns.StringValue(f"b{i}"))
        # Start the caller's application (REGISTER) with the callees, and delay
        # its first INVITE to call_start.
        caller.SetStartTime(ns.Seconds(float(register_at)))
        caller.SetAttribute(
            "CallStartDelay", ns.TimeValue(ns.Seconds(max(0.0, call_start - register_at)))
        )
        callers.append(caller)

    recorder = SipRecorder()
    recorder.watch_stack(proxy_stack, "proxy")
    recorder.watch_stack(stack_a, "host_a")
    recorder.watch_stack(stack_b, "host_b")
    for agent in callers + callees:
        recorder.watch_user_agent(agent, str(agent.GetAddressOfRecord()).split("@")[0][4:])
    if record_messages:
        recorder.watch_transport(proxy_stack.GetTransport(), "proxy")
        recorder.watch_transport(stack_a.GetTransport(), "host_a")
        recorder.watch_transport(stack_b.GetTransport(), "host_b")
    return SipTestbed(
        protocol=protocol,
        nodes=nodes,
        router=router,
        host_a=host_a,
        host_b=host_b,
        proxy_host=proxy_host,
        proxy_address=proxy_address,
        proxy_stack=proxy_stack,
        proxy=proxy,
        stack_a=stack_a,
        stack_b=stack_b,
        callers=callers,
        callees=callees,
        error_models=error_models,
        recorder=recorder,
        devices=devices,
    )
