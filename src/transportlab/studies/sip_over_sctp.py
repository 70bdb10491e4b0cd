"""SIP over UDP, TCP and SCTP: transport throughput, transaction times, calls under loss,
and head-of-line blocking (seed 002, a 2003 project report: SIP over SCTP with Linphone
and Partysip on Linux, NIST Net loss).

One ``simulate`` call runs one replication of one configuration of one of four
experiments, chosen by the ``experiment`` parameter:

``throughput`` (seed Figure 5.2)
    Two hosts on a 100 Mb/s full-duplex link; a sender writes ``message_size``-byte
    messages as fast as the transport takes them (TCP and SCTP: ns-3 BulkSend, one
    message per send, TCP_NODELAY as ttcp -D; UDP: an OnOff source above the link
    rate, as a blocking ttcp -u sender keeps the interface busy); the receiver's goodput
    is measured after a warm-up. Messages above the MTU are fragmented by IP (UDP),
    segmented (TCP) or fragmented into DATA chunks (SCTP).
``single_session`` (seed section 5.3)
    One user agent per side and the proxy (Figure 5.4 topology, see
    :mod:`transportlab.sip`): registration (associations / connections not yet up, and
    a refresh once they are), one call set-up (answered ``answer_delay`` after 180
    Ringing; the seed subtracted its manual answering time, so do we) and its
    termination. Optional processing times at the proxy and the user agents split the
    seed's numbers into protocol and testbed parts.
``multi_session`` (seed section 5.4, Table 5.3)
    ``n_pairs`` user agents on each side; each caller calls its callee back to back
    through the proxy; every packet crossing the router is dropped with probability
    ``loss_rate`` (from the first INVITE on: registrations happen loss-free). Counted:
    calls completed (INVITE and BYE both answered 200) within ``window`` seconds.
``hol`` (seed section 3.4, Rajamani et al.)
    ``objects`` transfers of ``object_size`` bytes at once over a lossy 10 Mb/s link,
    interleaved in ``record_size`` records, over one SCTP association with a stream per
    transfer, one association with one stream, one TCP connection, or one TCP
    connection per transfer; the completion time of each transfer.

Tables returned (all tidy, one row per item): ``summary`` (one row per run: the
experiment's headline numbers), plus ``transactions``/``calls`` (SIP experiments),
``objects`` (hol).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from transportlab import _native
from transportlab.params import Param, ParameterSpace
from transportlab.studies import Study

EXPERIMENTS = ("throughput", "single_session", "multi_session", "hol")
TRANSPORTS = ("udp", "tcp", "sctp")
LAYOUTS = ("seed", "shared")
STREAM_MAPPINGS = {
    "per-call": "PerCall",
    "single-unordered": "SingleUnordered",
    "single-ordered": "SingleOrdered",
}
HOL_CONFIGS = ("sctp-streams", "sctp-one-stream", "tcp-one", "tcp-per-object")
REGISTER_AT = 0.1  # s: user agents start and register
FIRST_CALL_AT = 1.0  # s: first INVITE (and start of loss and of the window)
RE_REGISTER_AFTER = 0.2  # s: single session, registration refresh (associations up)


def sctp_available() -> bool:
    """Whether this build has the SCTP module (and SIP over SCTP), without importing ns-3."""
    try:
        include = _native.native_dir() / "include" / "ns3"
    except _native.NativeLibraryNotFoundError:
        return False
    return (include / "sip-sctp-transport.h").is_file()


def _transport_built(values: Mapping[str, Any]) -> str | None:
    uses_sctp = values["transport"] == "sctp" or (
        values["experiment"] == "hol" and values["hol_config"].startswith("sctp")
    )
    if uses_sctp and not sctp_available():
        return "SCTP is not available in this build (the SCTP module src/sctp is missing)"
    return None


def _window_fits(values: Mapping[str, Any]) -> str | None:
    if values["experiment"] == "throughput" and values["throughput_duration"] <= 0.5:
        return "throughput_duration must exceed the 0.5 s warm-up"
    return None


PARAMETERS = ParameterSpace(
    Param(
        "experiment",
        "multi_session",
        str,
        "which experiment this run belongs to",
        choices=EXPERIMENTS,
    ),
    Param(
        "transport", "udp", str, "transport of SIP (or of the throughput test)", choices=TRANSPORTS
    ),
    Param(
        "layout",
        "seed",
        str,
        "connections/associations between user-agent hosts and proxy: 'seed' = the "
        "proxy sends from its outbound port 5061 (one association per host and "
        "direction, as in seed section 5.3.1), 'shared' = one per host pair "
        "(RFC 3261 connection reuse)",
        choices=LAYOUTS,
    ),
    Param(
        "stream_mapping",
        "per-call",
        str,
        "SCTP: each call on its own stream, or all messages on stream 0 unordered "
        "(RFC 4168 5.1) or ordered",
        choices=tuple(STREAM_MAPPINGS),
    ),
    Param(
        "message_size",
        512,
        int,
        "throughput: bytes per message (ttcp -l)",
        minimum=16,
        maximum=60000,
        unit="B",
    ),
    Param(
        "throughput_duration",
        3.0,
        float,
        "throughput: simulated seconds per run",
        minimum=0.5,
        exclusive_minimum=True,
        quick=1.5,
        unit="s",
    ),
    Param("lan_rate_mbps", 100.0, float, "throughput: link rate", minimum=0.1, unit="Mb/s"),
    Param(
        "answer_delay",
        2.0,
        float,
        "time from 180 Ringing to 200 OK at the callee (subtracted from call set-up)",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "proxy_processing_ms",
        0.0,
        float,
        "time the proxy needs per received message (0: protocol time only)",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "agent_processing_ms",
        0.0,
        float,
        "time a user-agent host needs per received message",
        minimum=0.0,
        unit="ms",
    ),
    Param(
        "link_delay_us",
        100.0,
        float,
        "SIP testbed: one-way delay of each of the three host-router links",
        minimum=0.0,
        unit="us",
    ),
    Param(
        "loss_rate",
        0.05,
        float,
        "probability that the router drops a packet",
        minimum=0.0,
        maximum=0.9,
    ),
    Param(
        "n_pairs", 8, int, "multi_session: user agents per side (seed: 8)", minimum=1, maximum=64
    ),
    Param(
        "window",
        120.0,
        float,
        "multi_session: measurement window from the first INVITE",
        minimum=1.0,
        quick=30.0,
        unit="s",
    ),
    Param(
        "call_duration",
        1.0,
        float,
        "multi_session: talk time from 200 OK to BYE",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "call_interval",
        1.0,
        float,
        "multi_session: pause after a call before the next INVITE",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "setup_timeout",
        32.0,
        float,
        "multi_session: a caller gives up a call without "
        "final response after this long (64*T1, Timer B's value)",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "multi_answer_delay",
        0.0,
        float,
        "multi_session: answer delay at the callees",
        minimum=0.0,
        unit="s",
    ),
    Param("hol_config", "sctp-streams", str, "hol: transport configuration", choices=HOL_CONFIGS),
    Param("objects", 8, int, "hol: concurrent transfers", minimum=1, maximum=64),
    Param(
        "object_size", 100_000, int, "hol: bytes per transfer", minimum=1000, quick=30_000, unit="B"
    ),
    Param(
        "record_size",
        1000,
        int,
        "hol: bytes per write (one SCTP message)",
        minimum=64,
        maximum=60000,
        unit="B",
    ),
    Param(
        "hol_interleave",
        True,
        bool,
        "hol: alternate the objects' records on a shared "
        "connection (else one object after the other, as HTTP/1.1 pipelining)",
    ),
    Param(
        "hol_rate_mbps",
        10.0,
        float,
        "hol: link rate (Rajamani et al.: 10 Mb/s)",
        minimum=0.1,
        unit="Mb/s",
    ),
    Param("hol_delay_ms", 20.0, float, "hol: one-way link delay", minimum=0.0, unit="ms"),
    Param(
        "hol_timeout",
        600.0,
        float,
        "hol: give up after this simulated time",
        minimum=10.0,
        quick=300.0,
        unit="s",
    ),
    consistency=[_transport_built, _window_fits],
)


# --------------------------------------------------------------------------- SIP runs


def _sip_testbed(params: Mapping[str, Any], n_pairs: int, **options):
    from transportlab import ns, sip  # noqa: PLC0415

    transport_attributes = {}
    if params["transport"] == "sctp":
        transport_attributes["StreamMapping"] = ns.EnumValue[ns.SipSctpTransport.StreamMapping](
            getattr(
                ns.SipSctpTransport,
                {
                    "per-call": "PER_CALL",
                    "single-unordered": "SINGLE_UNORDERED",
                    "single-ordered": "SINGLE_ORDERED",
                }[params["stream_mapping"]],
            )
        )
    return sip.build_testbed(
        params["transport"],
        n_pairs,
        layout=params["layout"],
        link_delay=f"{params['link_delay_us']}us",
        proxy_processing_delay=params["proxy_processing_ms"] / 1e3,
        agent_processing_delay=params["agent_processing_ms"] / 1e3,
        transport_attributes=transport_attributes,
        **options,
    )


def _single_session(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    from transportlab.simulation import run_until, simulation  # noqa: PLC0415

    answer = params["answer_delay"]
    with simulation(seed, run):
        testbed = _sip_testbed(
            params,
            1,
            register_at=REGISTER_AT,
            call_start=FIRST_CALL_AT,
            call_duration=1.0,
            answer_delay=answer,
            max_calls=1,
            re_register=RE_REGISTER_AFTER,
            loss_rate=0.0,
        )
        run_until(FIRST_CALL_AT + answer + 40.0)
        transactions = testbed.recorder.transactions()
        calls = testbed.recorder.calls()
        registrations = testbed.recorder.registrations()
    caller_reg = registrations[registrations["endpoint"] == "a1"].sort_values("end")
    clients = transactions[
        (transactions["endpoint"] == "host_a") & (transactions["role"] == "client")
    ]
    invite = clients[clients["method"] == "INVITE"]
    bye = clients[clients["method"] == "BYE"]
    callee = calls[calls["side"] == "callee"]
    answer_applied = float(callee["callee_answer_delay"].iloc[0]) if len(callee) else np.nan
    summary = pd.DataFrame(
        [
            {
                "registration_ms": caller_reg["duration"].iloc[0] * 1e3
                if len(caller_reg)
                else np.nan,
                "registration_warm_ms": (
                    caller_reg["duration"].iloc[1] * 1e3 if len(caller_reg) > 1 else np.nan
                ),
                "call_setup_s": (
                    float(invite["duration"].iloc[0]) - answer_applied if len(invite) else np.nan
                ),
                "call_setup_with_answer_s": float(invite["duration"].iloc[0])
                if len(invite)
                else np.nan,
                "call_termination_s": float(bye["duration"].iloc[0]) if len(bye) else np.nan,
                "invite_status": int(invite["status"].iloc[0]) if len(invite) else -1,
                "bye_status": int(bye["status"].iloc[0]) if len(bye) else -1,
            }
        ]
    )
    return {"summary": summary, "transactions": transactions, "calls": calls}


def _multi_session(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    from transportlab.simulation import run_until, simulation  # noqa: PLC0415

    window_end = FIRST_CALL_AT + params["window"]
    with simulation(seed, run):
        testbed = _sip_testbed(
            params,
            params["n_pairs"],
            register_at=REGISTER_AT,
            call_start=FIRST_CALL_AT,
            call_duration=params["call_duration"],
            call_interval=params["call_interval"],
            answer_delay=params["multi_answer_delay"],
            loss_rate=params["loss_rate"],
            loss_start=FIRST_CALL_AT,
            setup_timeout=params["setup_timeout"],
        )
        run_until(window_end)
        transactions = testbed.recorder.transactions()
        calls = testbed.recorder.calls()
        registrations = testbed.recorder.registrations()
    callers = calls[calls["side"] == "caller"]
    completed = callers[(callers["invite_status"] == 200) & (callers["bye_status"] == 200)]
    proxy = transactions[(transactions["endpoint"] == "proxy") & (transactions["role"] == "server")]
    proxy_invites = proxy[(proxy["method"] == "INVITE") & (proxy["status"] == 200)]
    proxy_byes = proxy[(proxy["method"] == "BYE") & (proxy["status"] == 200)]
    caller_tx = transactions[
        (transactions["endpoint"] == "host_a")
        & (transactions["role"] == "client")
        & transactions["method"].isin(["INVITE", "BYE"])
    ]
    summary = pd.DataFrame(
        [
            {
                "completed_calls": len(completed),
                "calls_ended": len(callers),
                "failed_calls": int(
                    ((callers["invite_status"] != 200) | (callers["bye_status"] != 200)).sum()
                ),
                "proxy_invite_transactions": len(proxy_invites),
                "proxy_bye_transactions": len(proxy_byes),
                "proxy_call_transactions": len(proxy_invites) + len(proxy_byes),
                "transaction_timeouts": int((caller_tx["outcome"] == "timeout").sum()),
                "mean_setup_s": float((completed["answered"] - completed["invite"]).mean())
                if len(completed)
                else np.nan,
                "mean_teardown_s": float((completed["bye_done"] - completed["bye_sent"]).mean())
                if len(completed)
                else np.nan,
                "registered": int((registrations["status"] == 200).sum()),
            }
        ]
    )
    # (the transaction table is left out: thousands of rows per run, all in "calls")
    return {"summary": summary, "calls": calls}


# --------------------------------------------------------------------------- throughput

THROUGHPUT_WARMUP = 0.5  # s of each run not measured (connection set-up, slow start)
SINK_PORT = 5001  # ttcp's port
FACTORIES = {
    "udp": "ns3::UdpSocketFactory",
    "tcp": "ns3::TcpSocketFactory",
    "sctp": "ns3::SctpSocketFactory",
}


def _throughput(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    from transportlab.simulation import simulation  # noqa: PLC0415

    transport, size = params["transport"], params["message_size"]
    rate_bps = params["lan_rate_mbps"] * 1e6
    duration = params["throughput_duration"]
    with simulation(seed, run) as ns:
        ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(1448))
        nodes = ns.NodeContainer()
        nodes.Create(2)
        ns.InternetStackHelper().Install(nodes)
        if transport == "sctp":
            ns.SctpStackHelper().Install(nodes)
        link = ns.PointToPointHelper()
        link.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(int(rate_bps))))
        link.SetChannelAttribute("Delay", ns.StringValue("50us"))  # a switched LAN
        if transport == "udp":
            # A blocking sendto() never loses a datagram at the sender: the socket
            # buffer holds what the interface cannot send yet. A queue that never
            # overflows during the run does the same here (a dropped fragment would
            # waste its whole datagram).
            link.SetQueue(
                "ns3::DropTailQueue<Packet>", "MaxSize", ns.QueueSizeValue(ns.QueueSize("2000000p"))
            )
        devices = link.Install(nodes.Get(0), nodes.Get(1))
        addresses = ns.Ipv4AddressHelper()
        addresses.SetBase(ns.Ipv4Address("10.0.0.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces = addresses.Assign(devices)
        remote = ns.InetSocketAddress(interfaces.GetAddress(1), SINK_PORT).ConvertTo()
        sink_helper = ns.PacketSinkHelper(
            FACTORIES[transport],
            ns.InetSocketAddress(ns.Ipv4Address.GetAny(), SINK_PORT).ConvertTo(),
        )
        sink_apps = sink_helper.Install(nodes.Get(1))
        if transport == "udp":
            # A blocking ttcp -u keeps the interface busy: offer a little more than
            # the link carries; the excess waits in the sender's queue.
            source = ns.OnOffHelper(FACTORIES[transport], remote)
            source.SetConstantRate(ns.DataRate(int(rate_bps * 1.05)), size)
        else:
            source = ns.BulkSendHelper(FACTORIES[transport], remote)
            source.SetAttribute("SendSize", ns.UintegerValue(size))  # one message per send
        source_apps = source.Install(nodes.Get(0))
        sink_apps.Start(ns.Seconds(0.0))
        source_apps.Start(ns.Seconds(0.01))
        sink = ns.DynamicCast[ns.PacketSink](sink_apps.Get(0))
        ns.Simulator.Stop(ns.Seconds(THROUGHPUT_WARMUP))
        ns.Simulator.Run()
        bytes_at_warmup = int(sink.GetTotalRx())
        ns.Simulator.Stop(ns.Seconds(duration - THROUGHPUT_WARMUP))
        ns.Simulator.Run()
        received = int(sink.GetTotalRx()) - bytes_at_warmup
    goodput = received * 8 / (duration - THROUGHPUT_WARMUP)
    summary = pd.DataFrame(
        [
            {
                "goodput_mbps": goodput / 1e6,
                "utilisation": goodput / rate_bps,
                "wire_bound_mbps": wire_bound_bps(transport, size, rate_bps) / 1e6,
            }
        ]
    )
    return {"summary": summary}


PPP, IPV4, UDP_HEADER, TCP_HEADER = 2, 20, 8, 32  # ns-3 TCP: 20 + 12 timestamp option
SCTP_COMMON, SCTP_DATA = 12, 16
MTU = 1500


def wire_bound_bps(transport: str, message_size: int, rate_bps: float) -> float:
    """Goodput if the link is never idle and only headers take capacity (a hand
    calculation to check the simulation against; point-to-point framing, 2 bytes).

    UDP: a datagram of L bytes leaves as ceil((L+8)/1480) IP fragments. TCP: full
    1448-byte segments whatever the write size (BulkSend keeps the buffer full).
    SCTP: as many whole DATA chunks (16-byte header, padded to 4 bytes) as fit in a
    1500-byte packet (bundling), or, for messages above the MTU, fragments of
    1500-20-12-16 = 1452 bytes."""
    if transport == "udp":
        datagram = message_size + UDP_HEADER
        fragments = -(-datagram // (MTU - IPV4))
        wire = datagram + fragments * (IPV4 + PPP)
        return rate_bps * message_size / wire
    if transport == "tcp":
        segment = 1448
        return rate_bps * segment / (segment + TCP_HEADER + IPV4 + PPP)
    chunk = SCTP_DATA + message_size + (-message_size % 4)
    room = MTU - IPV4 - SCTP_COMMON
    if chunk <= room:
        per_packet = room // chunk
        wire = IPV4 + PPP + SCTP_COMMON + per_packet * chunk
        return rate_bps * per_packet * message_size / wire
    fragment = room - SCTP_DATA
    fragments = -(-message_size // fragment)
    wire = (
        fragments * (IPV4 + PPP + SCTP_COMMON + SCTP_DATA)
        + message_size
        + (-(message_size - (fragments - 1) * fragment) % 4)
    )
    return rate_bps * message_size / wire


# --------------------------------------------------------------------------- head-of-line

HOL_PORT = 8080
HOL_START = 1.0


def _hol(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    from transportlab.simulation import run_until, simulation  # noqa: PLC0415

    config = params["hol_config"]
    factory = FACTORIES["sctp" if config.startswith("sctp") else "tcp"]
    n_objects = params["objects"]
    with simulation(seed, run) as ns:
        ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(1448))
        nodes = ns.NodeContainer()
        nodes.Create(2)
        server, client = nodes.Get(0), nodes.Get(1)
        ns.InternetStackHelper().Install(nodes)
        if config.startswith("sctp"):
            ns.SctpStackHelper().Install(nodes)
        link = ns.PointToPointHelper()
        link.SetDeviceAttribute(
            "DataRate", ns.DataRateValue(ns.DataRate(int(params["hol_rate_mbps"] * 1e6)))
        )
        link.SetChannelAttribute("Delay", ns.TimeValue(ns.MilliSeconds(params["hol_delay_ms"])))
        devices = link.Install(server, client)
        models = []
        if params["loss_rate"] > 0:
            for index in range(2):  # data and acknowledgements are lost alike
                model = ns.CreateObject[ns.RateErrorModel]()
                model.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
                model.SetAttribute("ErrorRate", ns.DoubleValue(params["loss_rate"]))
                devices.Get(index).SetAttribute("ReceiveErrorModel", ns.PointerValue(model))
                models.append(model)
        addresses = ns.Ipv4AddressHelper()
        addresses.SetBase(ns.Ipv4Address("10.0.0.0"), ns.Ipv4Mask("255.255.255.0"))
        interfaces = addresses.Assign(devices)
        receiver = ns.CreateObject[ns.ObjectTransferReceiver]()
        receiver.SetAttribute("SocketFactory", ns.StringValue(factory))
        receiver.SetAttribute("Port", ns.UintegerValue(HOL_PORT))
        receiver.SetAttribute("Objects", ns.UintegerValue(n_objects))
        receiver.SetAttribute("ObjectSize", ns.UintegerValue(params["object_size"]))
        receiver.SetAttribute("StopWhenComplete", ns.BooleanValue(True))
        client.AddApplication(receiver)
        sender = ns.CreateObject[ns.ObjectTransferSender]()
        sender.SetAttribute("SocketFactory", ns.StringValue(factory))
        sender.SetAttribute(
            "Remote",
            ns.AddressValue(ns.InetSocketAddress(interfaces.GetAddress(1), HOL_PORT).ConvertTo()),
        )
        sender.SetAttribute("Objects", ns.UintegerValue(n_objects))
        sender.SetAttribute("ObjectSize", ns.UintegerValue(params["object_size"]))
        sender.SetAttribute("RecordSize", ns.UintegerValue(params["record_size"]))
        sender.SetAttribute(
            "Connections", ns.UintegerValue(n_objects if config == "tcp-per-object" else 1)
        )
        sender.SetAttribute("StreamPerObject", ns.BooleanValue(config == "sctp-streams"))
        sender.SetAttribute("Interleave", ns.BooleanValue(params["hol_interleave"]))
        server.AddApplication(sender)
        receiver.SetStartTime(ns.Seconds(0.0))
        sender.SetStartTime(ns.Seconds(HOL_START))
        run_until(params["hol_timeout"])
        completion = np.array(list(receiver.GetCompletionNs()), dtype=np.int64)
        records = pd.DataFrame(
            {
                "object": np.array(list(receiver.GetRecordObjects()), dtype=np.int64),
                "offset": np.array(list(receiver.GetRecordOffsets()), dtype=np.int64),
                "sent": np.array(list(receiver.GetRecordSentNs()), dtype=np.int64) / 1e9,
                "delivered": np.array(list(receiver.GetRecordDeliveredNs()), dtype=np.int64) / 1e9,
                "stream": np.array(list(receiver.GetRecordStreams()), dtype=np.int64),
            }
        )
    done = completion >= 0
    # From the first record written (the connection or association is up): the
    # hand-shake, lost or not, is the same for every configuration but tcp-per-object.
    first_write = records["sent"].min() if len(records) else HOL_START
    times = np.where(done, completion / 1e9 - first_write, np.nan)
    with_setup = np.where(done, completion / 1e9 - HOL_START, np.nan)
    objects = pd.DataFrame(
        {
            "object": np.arange(n_objects),
            "completion_s": times,
            "completion_with_setup_s": with_setup,
        }
    )
    records["delay"] = records["delivered"] - records["sent"]
    summary = pd.DataFrame(
        [
            {
                "completed": int(done.sum()),
                "mean_completion_s": float(np.nanmean(times)) if done.any() else np.nan,
                "max_completion_s": float(np.nanmax(times)) if done.any() else np.nan,
                "min_completion_s": float(np.nanmin(times)) if done.any() else np.nan,
                "mean_record_delay_s": float(records["delay"].mean()) if len(records) else np.nan,
                "p99_record_delay_s": float(records["delay"].quantile(0.99))
                if len(records)
                else np.nan,
            }
        ]
    )
    return {"summary": summary, "objects": objects, "records": records}


# --------------------------------------------------------------------------- entry point


def simulate(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication (ns-3 RngRun ``run``) of one configuration of one experiment."""
    params = PARAMETERS.validate(params)
    experiment = params["experiment"]
    if experiment == "single_session":
        return _single_session(params, seed, run)
    if experiment == "multi_session":
        return _multi_session(params, seed, run)
    if experiment == "throughput":
        return _throughput(params, seed, run)
    return _hol(params, seed, run)


def _helper_version() -> str:
    """Hash of the shared testbed code in transportlab/sip.py, which the sweep cache's
    code fingerprint does not cover: a change there must not reuse old results."""
    source = Path(__file__).resolve().parents[1] / "sip.py"
    return "sip-" + hashlib.sha256(source.read_bytes()).hexdigest()[:12]


STUDY = Study(
    name="sip_over_sctp",
    title="SIP over UDP, TCP and SCTP: transaction times, calls under loss, multi-streaming",
    seed_files=("002_8ca3fd7f92b4e1a6.txt",),
    notebook="03_sip_over_sctp.ipynb",
    parameters=PARAMETERS,
    simulate=simulate,
    description="RFC 3261 user agents and a stateful proxy in ns-3 over UDP, TCP and SCTP: "
    "the seed's throughput, single-session and multi-session tests, and head-of-line "
    "blocking.",
    tags=("sip", "sctp", "tcp", "udp", "multistreaming"),
    version=_helper_version(),
)
