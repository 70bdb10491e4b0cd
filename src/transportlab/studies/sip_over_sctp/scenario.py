"""The ns-3 scenarios of sip_over_sctp: one replication, raw tables (cached).

``run`` dispatches on the ``scenario`` parameter. Every scenario returns what ns-3
recorded and nothing computed from it (:mod:`.analysis` does that, uncached):

``one_call``
    ``messages``: every SIP message host A, host B and the proxy sent or received.
``single_session``, ``multi_session``
    ``transactions``, ``calls``, ``registrations`` (:class:`.testbed.SipRecorder`);
    with ``sctp_trace`` also ``sctp_chunks`` (every chunk hosts A, B and the proxy sent:
    time, node tag of ``SCTP_TRACE_NODES``, socket ordinal, chunk type, TSN,
    retransmission) and ``sctp_delivered`` (every message handed to a receiving socket).
``throughput``
    ``counters``: bytes received by the sink at the end of the warm-up and at the end.
``hol``
    ``objects`` (completion time of each transfer in ns, -1: not completed) and
    ``records`` (one row per record delivered: object, offset, sent, delivered, stream).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from transportlab.ns3 import native
from transportlab.ns3.helpers import SOCKET_FACTORIES
from transportlab.ns3.sctp_recording import SctpRecorder
from transportlab.ns3.simulation import run_until, simulation
from transportlab.studies.sip_over_sctp import testbed as sip
from transportlab.studies.sip_over_sctp.parameters import (
    FIRST_CALL_AT,
    HOL_PORT,
    HOL_START,
    ONE_CALL_UNTIL,
    RE_REGISTER_AFTER,
    REGISTER_AT,
    SCTP_TRACE_NODES,
    STREAM_MAPPINGS,
    TCP_SEGMENT,
    THROUGHPUT_PORT,
    THROUGHPUT_WARMUP,
)


def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication (ns-3 RngRun ``run``) of the scenario ``params["scenario"]``."""
    scenario = params["scenario"]
    if scenario == "one_call":
        return _one_call(params, seed, run)
    if scenario == "single_session":
        return _single_session(params, seed, run)
    if scenario == "multi_session":
        return _multi_session(params, seed, run)
    if scenario == "throughput":
        return _throughput(params, seed, run)
    return _hol(params, seed, run)


# --------------------------------------------------------------------------- SIP testbed


def _sip_testbed(params: Mapping[str, Any], n_pairs: int, **options):
    ns = native.load()
    transport_attributes = {}
    if params["protocol"] == "sctp":
        transport_attributes["StreamMapping"] = ns.EnumValue[ns.SipSctpTransport.StreamMapping](
            getattr(ns.SipSctpTransport, STREAM_MAPPINGS[params["stream_mapping"]])
        )
    return sip.build_testbed(
        params["protocol"],
        n_pairs,
        layout=params["layout"],
        link_delay=f"{params['link_delay_us']}us",
        proxy_processing_delay=params["proxy_processing_ms"] / 1e3,
        agent_processing_delay=params["agent_processing_ms"] / 1e3,
        transport_attributes=transport_attributes,
        pcap_prefix=params["pcap_prefix"] or None,
        **options,
    )


def _one_call(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """a1 registers, calls b1 at 1 s (answered at once), talks 1 s, hangs up."""
    with simulation(seed, run):
        testbed = _sip_testbed(
            params,
            1,
            register_at=REGISTER_AT,
            call_start=FIRST_CALL_AT,
            call_duration=1.0,
            answer_delay=0.0,
            max_calls=1,
            record_messages=True,
        )
        run_until(ONE_CALL_UNTIL)
        return {"messages": testbed.recorder.messages()}


def _single_session(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
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
        return _recorded(testbed.recorder)


def _multi_session(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
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
        sctp = None
        if params["sctp_trace"]:
            sctp = SctpRecorder()
            hosts = {"host_a": testbed.host_a, "host_b": testbed.host_b}
            hosts["proxy"] = testbed.proxy_host
            for tag, name in SCTP_TRACE_NODES.items():
                sctp.watch_node(hosts[name], tag)
        run_until(FIRST_CALL_AT + params["window"])
        tables = _recorded(testbed.recorder)
        if sctp is not None:
            tables["sctp_chunks"] = sctp.chunks()
            tables["sctp_delivered"] = sctp.delivered()
        return tables


def _recorded(recorder) -> dict[str, pd.DataFrame]:
    return {
        "transactions": recorder.transactions(),
        "calls": recorder.calls(),
        "registrations": recorder.registrations(),
    }


# --------------------------------------------------------------------------- throughput


def _throughput(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """ttcp over a 100 Mb/s link: BulkSend (TCP, SCTP) or OnOff above the link rate (UDP)."""
    protocol, size = params["protocol"], params["message_size"]
    rate_bps = params["lan_rate_mbps"] * 1e6
    factory = SOCKET_FACTORIES[protocol]
    with simulation(seed, run) as ns:
        ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(TCP_SEGMENT))
        nodes = ns.NodeContainer()
        nodes.Create(2)
        ns.InternetStackHelper().Install(nodes)
        if protocol == "sctp":
            ns.SctpStackHelper().Install(nodes)
        link = ns.PointToPointHelper()
        link.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(int(rate_bps))))
        link.SetChannelAttribute("Delay", ns.StringValue("50us"))  # a switched LAN
        if protocol == "udp":
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
        remote = ns.InetSocketAddress(interfaces.GetAddress(1), THROUGHPUT_PORT).ConvertTo()
        sink_helper = ns.PacketSinkHelper(
            factory, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), THROUGHPUT_PORT).ConvertTo()
        )
        sink_apps = sink_helper.Install(nodes.Get(1))
        if protocol == "udp":
            # A blocking ttcp -u keeps the interface busy: offer a little more than
            # the link carries; the excess waits in the sender's queue.
            source = ns.OnOffHelper(factory, remote)
            source.SetConstantRate(ns.DataRate(int(rate_bps * 1.05)), size)
        else:
            source = ns.BulkSendHelper(factory, remote)
            source.SetAttribute("SendSize", ns.UintegerValue(size))  # one message per send
        source_apps = source.Install(nodes.Get(0))
        sink_apps.Start(ns.Seconds(0.0))
        source_apps.Start(ns.Seconds(0.01))
        sink = ns.DynamicCast[ns.PacketSink](sink_apps.Get(0))
        ns.Simulator.Stop(ns.Seconds(THROUGHPUT_WARMUP))
        ns.Simulator.Run()
        at_warmup = int(sink.GetTotalRx())
        ns.Simulator.Stop(ns.Seconds(params["throughput_duration"] - THROUGHPUT_WARMUP))
        ns.Simulator.Run()
        at_end = int(sink.GetTotalRx())
    return {
        "counters": pd.DataFrame([{"rx_bytes_at_warmup": at_warmup, "rx_bytes_at_end": at_end}])
    }


# --------------------------------------------------------------------------- head-of-line


def _hol(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """``objects`` transfers at once over one lossy link (ns3::ObjectTransferSender)."""
    config = params["hol_config"]
    factory = SOCKET_FACTORIES["sctp" if config.startswith("sctp") else "tcp"]
    n_objects = params["objects"]
    with simulation(seed, run) as ns:
        ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(TCP_SEGMENT))
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
        objects = pd.DataFrame(
            {
                "object": np.arange(n_objects),
                "completion_ns": np.array(list(receiver.GetCompletionNs()), dtype=np.int64),
            }
        )
        records = pd.DataFrame(
            {
                "object": np.array(list(receiver.GetRecordObjects()), dtype=np.int64),
                "offset": np.array(list(receiver.GetRecordOffsets()), dtype=np.int64),
                "sent": np.array(list(receiver.GetRecordSentNs()), dtype=np.int64) / 1e9,
                "delivered": np.array(list(receiver.GetRecordDeliveredNs()), dtype=np.int64) / 1e9,
                "stream": np.array(list(receiver.GetRecordStreams()), dtype=np.int64),
            }
        )
    return {"objects": objects, "records": records}
