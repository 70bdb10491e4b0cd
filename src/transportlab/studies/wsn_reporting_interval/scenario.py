"""The ns-3 scenario of the sensor-network study: one replication, raw tables (cached).

Everything here (and what it imports) is the cache key of a simulation: it imports
no analysis. :func:`run_scenario` returns the raw tables ``packets`` (application
sends and receptions), ``counts`` (packet counters per node, source, packet class
and reason), ``energy`` (per node) and ``performance`` (time, events, memory; with
``RunOptions.progress_interval`` also ``progress``); ``analysis.analyse`` turns them
into the metrics.
"""

from __future__ import annotations

import math
import resource
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from transportlab.ns3.capabilities import sctp_available
from transportlab.ns3.helpers import SOCKET_FACTORIES, remove_queue_discipline
from transportlab.ns3.ns2_tcp import ns2_tcp_defaults, set_tcp_defaults
from transportlab.ns3.recording import PacketRecorder, PathRecorder, vector_array
from transportlab.ns3.simulation import simulation
from transportlab.studies.wsn_reporting_interval.frame_trace import FrameRecorder
from transportlab.studies.wsn_reporting_interval.network import (
    node_ranges,
    positions,
    start_times,
    tx_power_for_range_w,
    w_to_dbm,
)
from transportlab.studies.wsn_reporting_interval.parameters import (
    ANTENNA_HEIGHT_M,
    DSSS_CHANNEL_WIDTH_MHZ,
    MICA2,
    N_NODES,
    NS2_BASIC_MODE,
    NS2_CAPTURE_THRESHOLD_DB,
    NS2_DATA_MODE,
    PARAMETERS,
    SINK,
    SINK_PORT_BASE,
    effective_interval_s,
    sources,
    write_bytes,
)

# --- the simulation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RunOptions:
    """How a run is executed; none of these changes what is simulated.

    The benchmark (benchmarks/wsn_run.py) turns each one off and on and checks
    that the results are identical.
    """

    #: drop cancelled events from the scheduler (ns3::PurgingHeapScheduler) instead of keeping
    #: them until their time, like ns-3's default MapScheduler does
    purge_cancelled_events: bool = True
    #: decide at send time which receivers sense a frame (ns3::SensitivityFilteredYansWifiPhy)
    #: instead of scheduling an arrival at all 55 others (a third of them discard it on arrival)
    filter_weak_signals: bool = True
    #: also run ns-3's own energy framework (a BasicEnergySource and a WifiRadioEnergyModel
    #: with the MICA2 currents per node) beside the state-time accounting the study's energy
    #: comes from (``analysis.energy_breakdown``), as a cross-check of it (tested). Off by
    #: default: every PHY state change of every node charges the model, updates the source
    #: and recomputes the time left in the battery, a fifth of ``Simulator::Run`` (perf).
    ns3_energy_models: bool = False
    #: with ``ns3_energy_models``: ns3::HorizonWifiRadioEnergyModel, no rescheduling of
    #: "battery empty" events that cannot run before the end of the run (the MICA2 battery
    #: lasts days)
    energy_horizon: bool = True
    checksums: bool = False  #: compute IPv4/UDP/TCP checksums (only needed for pcap files)
    progress_interval: float = 0.0  #: >0: sample events and memory every this many seconds
    #: also return ``paths``: every packet each node's wifi MAC took for sending (``MacTx``:
    #: where NS-2's routing agent hands a packet to its interface, after route discovery)
    #: at point ``mac_tx <node>``, and its reception by the sink's MAC (``sink_rx``),
    #: numbered per transmission from the node that first sent it (``flow``); the sensor
    #: study's ns-3-vs-NS-2 delay experiment (``ns2_gap``) reads it
    trace_paths: bool = False
    #: also return ``frames``, ``frame_losses`` and ``frame_preamble_drops``: every frame
    #: each PHY sent, every decodable frame a PHY lost to NS-2's collision rule and every
    #: frame ns-3's preamble detection dropped, one row each
    #: (:class:`~transportlab.studies.wsn_reporting_interval.frame_trace.FrameRecorder`);
    #: the broadcast-collision experiment (``ns2_gap_broadcasts``) reads them
    trace_frames: bool = False


#: AODV's AllowedHelloLoss: with the default 1-s HelloInterval (hellos are off) a neighbour
#: heard in a RREQ stays listed 65535 s, longer than any run (see ``_config_defaults``)
NEIGHBOUR_ENTRIES_OUTLIVE_RUN = 65535


def _config_defaults(ns, params: Mapping[str, Any]) -> None:
    """Attribute defaults that must be in place before the objects are created."""
    uint, boolean, time_ = ns.UintegerValue, ns.BooleanValue, ns.TimeValue
    cfg = ns.Config.SetDefault
    # Interface queue: NS-2 DropTail of `queue_packets` packets with no lifetime limit.
    queue_size = ns.QueueSize(f"{params['queue_packets']}p")
    cfg("ns3::WifiMacQueue::MaxSize", ns.QueueSizeValue(queue_size))
    cfg("ns3::WifiMacQueue::MaxDelay", time_(ns.Seconds(1e6)))
    # AODV with NS-2's aodv.h constants.
    node_traversal = 0.030
    net_diameter = 30
    net_traversal = 2 * node_traversal * net_diameter
    rreq_retries = 3
    cfg("ns3::aodv::RoutingProtocol::EnableHello", boolean(False))
    # With AODV_LINK_LAYER_DETECTION (on in ns-2.35's aodv.h) NS-2.35's AODV starts no hello
    # and no neighbour timer (AODV::command "start"), fills its neighbour list from hellos
    # only (nb_insert from recvHello) and breaks a link only when the MAC gives up a data
    # packet (rt_ll_failed -> nb_delete -> handle_link_failure). ns-3's AODV, hellos off,
    # still lists every node it hears a RREQ from as a neighbour for AllowedHelloLoss x
    # HelloInterval (2 s by default) and takes the entry's expiry for a broken link
    # (Neighbors::Purge -> SendRerrWhenBreaksLinkToNextHop): working routes broken every few
    # seconds, RERRs and new discoveries NS-2 never makes, among them RREQs for neighbours
    # that the 150-m sink rebroadcasts, which give every sensor that hears it a direct
    # route to the sink it cannot reach (issue 25, ns2_gap_routes). Entries that outlive
    # any run (65535 x 1 s) leave the MAC's retry limit the only link break, as in NS-2.
    cfg("ns3::aodv::RoutingProtocol::AllowedHelloLoss", uint(NEIGHBOUR_ENTRIES_OUTLIVE_RUN))
    cfg("ns3::aodv::RoutingProtocol::ActiveRouteTimeout", time_(ns.Seconds(10)))
    cfg("ns3::aodv::RoutingProtocol::MyRouteTimeout", time_(ns.Seconds(10)))
    cfg("ns3::aodv::RoutingProtocol::RreqRetries", uint(rreq_retries))
    # ns-2.35's first RREQ for a destination goes network-wide, not with TTL_START (5):
    # AODV::sendRequest takes max(rt_req_last_ttl, rt_last_hop_count), and a new
    # aodv_rt_entry's rt_last_hop_count is INFINITY2, above TTL_THRESHOLD, so the TTL is
    # NETWORK_DIAMETER (issue 25, ns2_gap_discoveries: NS-2's trace sends its first RREQs
    # with TTL 30). Later searches start from the last hop count in both simulators.
    cfg("ns3::aodv::RoutingProtocol::TtlStart", uint(net_diameter))
    cfg("ns3::aodv::RoutingProtocol::TtlIncrement", uint(2))
    cfg("ns3::aodv::RoutingProtocol::TtlThreshold", uint(7))
    cfg("ns3::aodv::RoutingProtocol::NodeTraversalTime", time_(ns.Seconds(node_traversal)))
    cfg("ns3::aodv::RoutingProtocol::NetDiameter", uint(net_diameter))
    cfg("ns3::aodv::RoutingProtocol::NetTraversalTime", time_(ns.Seconds(net_traversal)))
    cfg("ns3::aodv::RoutingProtocol::PathDiscoveryTime", time_(ns.Seconds(2 * net_traversal)))
    cfg(
        "ns3::aodv::RoutingProtocol::BlackListTimeout",
        time_(ns.Seconds(rreq_retries * net_traversal)),
    )
    # NS-2.35's AODV sends no gratuitous RREP to the destination when an intermediate node
    # answers (RREQ_GRAT_RREP is commented out in aodv_packet.h); ns-3's default does.
    cfg("ns3::aodv::RoutingProtocol::GratuitousReply", boolean(False))
    cfg("ns3::aodv::RoutingProtocol::MaxQueueLen", uint(64))
    cfg("ns3::aodv::RoutingProtocol::MaxQueueTime", time_(ns.Seconds(30)))
    _config_tcp(ns, params)


def _config_tcp(ns, params: Mapping[str, Any]) -> None:
    """TCP socket defaults for ``stack_preset``.

    ns2: NS-2's default one-way TCP, Agent/TCP + TCPSink, all of it
    (:mod:`transportlab.ns3.ns2_tcp`): Tahoe (src/tcp-tahoe), 1000-byte packets (each
    256-byte report is padded to one, see ``parameters.write_bytes``), window_ 20 packets
    (receive buffer and initial ssthresh), windowInit_ 2, an ACK per packet, initial RTO
    3 s (rtxcur_init_; the SYN timer too), minrto_ 0.2 s, tcpTick_ 0.01 s, no SACK,
    timestamps or window scaling, no giving up. modern: ``tcp_variant`` with one report
    per segment, as before this option existed: NS-2's window, initial window, minimum
    RTO and ACKs, ns-3's recovery, timers and retry limits.
    """
    if params["stack_preset"] == "ns2":
        defaults = ns2_tcp_defaults()
    else:
        defaults = replace(
            ns2_tcp_defaults(params["packet_size"]),
            socket_type=params["tcp_variant"],
            recovery=None,
            initial_ssthresh=None,
            initial_rto_ns=None,
            clock_granularity_ns=None,
            connection_timeout_ns=None,
            connection_retries=None,
            data_retries=None,
        )
    set_tcp_defaults(ns, defaults)


def _install_transport(ns, protocol: str, stack_preset: str, nodes) -> None:
    """Install the transport protocol's stack where ns-3's InternetStackHelper does not."""
    if protocol == "sctp":
        if not sctp_available() or not hasattr(ns, "SctpStackHelper"):
            raise RuntimeError(
                "SCTP is not available in this build: the sctp module (ns3::SctpSocketFactory, "
                "ns3::SctpStackHelper) has not been merged yet"
            )
        if stack_preset == "ns2":
            # NS-2.35's Agent/SCTP defaults (the seed ran NS-2's SCTP with its defaults).
            ns.SctpStackHelper.SetNs2Defaults()
        else:
            ns.SctpStackHelper.SetRfc9260Defaults()
        ns.SctpStackHelper().Install(nodes)


def _wifi(
    ns, params: Mapping[str, Any], nodes, ranges: list[float], filter_weak_signals: bool = True
):
    """802.11b ad hoc devices; node i transmits with the power for ``ranges[i]``.

    ``filter_weak_signals`` installs ``ns3::SensitivityFilteredYansWifiPhy`` (same results,
    no arrival events for signals below the receivers' sensitivity) instead of YansWifiPhy.
    """
    # NS-2's models live in the filtered PHY only: refuse before any ns-3 object is set
    # (an attribute the stock PHY lacks would end the process with NS_FATAL_ERROR).
    if not filter_weak_signals and params["reception_model"] in ("ns2", "ns2_lock"):
        raise ValueError(
            f"reception_model {params['reception_model']!r} needs "
            "RunOptions(filter_weak_signals=True): NS-2's "
            "collision rule lives in ns3::SensitivityFilteredYansWifiPhy"
        )
    if not filter_weak_signals and params["carrier_sense_culling"] == "ns2":
        raise ValueError(
            "carrier_sense_culling 'ns2' needs RunOptions(filter_weak_signals=True): "
            "NS-2's culling lives in ns3::SensitivityFilteredYansWifiPhy"
        )
    frequency = params["frequency_hz"]
    channel = ns.YansWifiChannelHelper()
    channel.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel")
    channel.AddPropagationLoss(
        "ns3::TwoRayGroundPropagationLossModel",
        "Frequency",
        ns.DoubleValue(frequency),
        "SystemLoss",
        ns.DoubleValue(1.0),
        "HeightAboveZ",
        ns.DoubleValue(ANTENNA_HEIGHT_M),
    )
    if filter_weak_signals:
        phy = ns.SensitivityFilteredYansWifiPhyHelper()
    else:
        phy = ns.YansWifiPhyHelper()
    phy.SetChannel(channel.Create())
    # YansWifiChannel compares with RxSensitivity + 10 log10(width / 20 MHz): compensate so
    # that the effective threshold is NS-2's CSThresh.
    width_correction_db = 10.0 * math.log10(DSSS_CHANNEL_WIDTH_MHZ / 20.0)
    cs_dbm = w_to_dbm(params["cs_threshold_w"])
    phy.Set("RxSensitivity", ns.DoubleValue(cs_dbm - width_correction_db))
    phy.Set("CcaEdThreshold", ns.DoubleValue(cs_dbm))
    preamble_threshold = []
    rx_dbm = w_to_dbm(params["rx_threshold_w"])
    # Only frames above RXThresh are received (ns-3 does not lock on the others) ...
    min_rssi_dbm = rx_dbm
    if params["reception_model"] == "ns2_lock":
        # ... unless the receiver locks, as NS-2's MAC does, on every frame it senses (the
        # PHY's filter already drops those below CSThresh; 0.01 dB absorbs rounding) and
        # reports those below RXThresh lost at their end.
        min_rssi_dbm = cs_dbm - 0.01
        # NS-2's MAC holds such a frame from its first bit: one arriving within its
        # preamble detection window collides with it as well.
        phy.Set("Ns2LockUndecodable", ns.BooleanValue(True))
    if params["reception_model"] in ("ns2", "ns2_lock"):
        # RXThresh tells the decodable frames (NS-2 traces their collision drops) from the
        # others; under ns2 no frame below it is ever received, so nothing else changes.
        phy.Set("Ns2RxThreshold", ns.DoubleValue(rx_dbm))
    if params["reception_model"] in ("ns2", "ns2_lock"):
        # NS-2's Mac802_11 loses the frame being received when a signal arrives within
        # CPThresh_ of it, and a frame that starts during another one in the same case.
        phy.Set("Ns2Capture", ns.BooleanValue(True))
    if params["carrier_sense_culling"] == "ns2":
        phy.Set("Ns2CarrierSenseCulling", ns.BooleanValue(True))
        phy.Set("CaptureThreshold", ns.DoubleValue(NS2_CAPTURE_THRESHOLD_DB))
        preamble_threshold = ["Threshold", ns.DoubleValue(NS2_CAPTURE_THRESHOLD_DB)]
    phy.SetPreambleDetectionModel(
        "ns3::ThresholdPreambleDetectionModel",
        "MinimumRssi",
        ns.DoubleValue(min_rssi_dbm),
        *preamble_threshold,
    )
    wifi = ns.WifiHelper()
    wifi.SetStandard(ns.WIFI_STANDARD_80211b)
    manager = (
        "ns3::Ns2ConstantRateWifiManager"
        if params["retry_model"] == "ns2"
        else "ns3::ConstantRateWifiManager"
    )
    wifi.SetRemoteStationManager(
        manager,
        "DataMode",
        ns.StringValue(NS2_DATA_MODE),
        "ControlMode",
        ns.StringValue(NS2_BASIC_MODE),
        "NonUnicastMode",
        ns.StringValue(NS2_BASIC_MODE),
        "RtsCtsThreshold",
        ns.UintegerValue(0),
    )
    mac = ns.WifiMacHelper()
    mac.SetType("ns3::AdhocWifiMac")
    devices = wifi.Install(phy, mac, nodes)
    for node in range(nodes.GetN()):
        power_dbm = w_to_dbm(
            tx_power_for_range_w(ranges[node], params["rx_threshold_w"], frequency)
        )
        wifi_phy = ns.DynamicCast[ns.WifiNetDevice](devices.Get(node)).GetPhy()
        wifi_phy.SetTxPowerStart(power_dbm)
        wifi_phy.SetTxPowerEnd(power_dbm)
    return devices


def set_arp_entries(ns, devices, permanent: bool) -> None:
    """Mark every node's ARP entry for every other node permanent, or back to the
    auto-generated state ``NeighborCacheHelper`` gives them. AODV finds the neighbour a
    frame the MAC gave up was for by its MAC address, from the ARP cache
    (``Neighbors::LookupMacAddress``), which it reads only from alive or permanent entries:
    with the auto-generated ones ``preloaded`` runs with, the MAC's retry limit never
    reaches AODV, where NS-2's hands AODV every data packet it gives up (``rt_ll_failed``).
    Not applied by :func:`run_scenario`: with permanent entries ns-3 sends more reports
    straight to the 150-m sink over one-way links, not fewer (``ns2_gap_routes``, notebook
    04 section 8.8); the experiment that applies it is there."""
    interfaces = []
    for node in range(devices.GetN()):
        device = devices.Get(node)
        ipv4 = device.GetNode().GetObject[ns.Ipv4L3Protocol]()
        interfaces.append(ipv4.GetInterface(ipv4.GetInterfaceForDevice(device)))
    addresses = [interface.GetAddress(0).GetLocal() for interface in interfaces]
    for interface in interfaces:
        cache = interface.GetArpCache()
        for address in addresses:
            entry = cache.Lookup(address)
            if entry:
                if permanent:
                    entry.MarkPermanent()
                else:
                    entry.MarkAutoGenerated()


def _mobility(ns, params, nodes, seed: int, run: int) -> None:
    alloc = ns.CreateObject[ns.ListPositionAllocator]()
    for x, y in positions(params, seed, run):
        alloc.Add(ns.Vector(x, y, 0.0))
    mobility = ns.MobilityHelper()
    mobility.SetPositionAllocator(alloc)
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel")
    mobility.Install(nodes)


def _energy(ns, devices, nodes, horizon_s: float | None = None):
    """MICA2 batteries and radio energy models.

    ``horizon_s``: install ``ns3::HorizonWifiRadioEnergyModel`` with that Horizon (same
    results, see its header) instead of ``ns3::WifiRadioEnergyModel``.
    """
    source_helper = ns.BasicEnergySourceHelper()
    source_helper.Set("BasicEnergySourceInitialEnergyJ", ns.DoubleValue(MICA2["initial_energy_j"]))
    source_helper.Set("BasicEnergySupplyVoltageV", ns.DoubleValue(MICA2["voltage_v"]))
    sources_ = source_helper.Install(nodes)
    if horizon_s is None:
        radio = ns.WifiRadioEnergyModelHelper()
    else:
        radio = ns.HorizonWifiRadioEnergyModelHelper()
        radio.Set("Horizon", ns.TimeValue(ns.Seconds(horizon_s)))
    radio.Set("TxCurrentA", ns.DoubleValue(MICA2["tx_current_a"]))
    radio.Set("RxCurrentA", ns.DoubleValue(MICA2["rx_current_a"]))
    radio.Set("IdleCurrentA", ns.DoubleValue(MICA2["idle_current_a"]))
    radio.Set("CcaBusyCurrentA", ns.DoubleValue(MICA2["rx_current_a"]))
    radio.Set("SwitchingCurrentA", ns.DoubleValue(MICA2["idle_current_a"]))
    radio.Set("SleepCurrentA", ns.DoubleValue(MICA2["sleep_current_a"]))
    models = radio.Install(devices, sources_)
    return sources_, models


def _counter(ns, filtered_phy: bool = True):
    """The packet counter on every node's wifi and IP trace sources. ``filtered_phy``:
    the PHYs are SensitivityFilteredYansWifiPhy, so their Ns2CollisionDrop (the frames
    NS-2's collision rule lost, by kind and whether NS-2 traces them) is counted too."""
    counter = ns.CreateObject[ns.PacketCounter]()
    wifi = "/NodeList/*/DeviceList/*/$ns3::WifiNetDevice"
    ok = [
        counter.WatchWifiPhyTx(wifi + "/Phy"),
        counter.WatchWifiPhyRxDrop(wifi + "/Phy"),
        counter.WatchWifiPhyRxError(wifi + "/Phy"),
        counter.WatchWifiMacTx(wifi + "/Mac"),
        counter.WatchWifiMacDrop(wifi + "/Mac"),
        # the RTS of a frame given up at the RTS retry limit, a drop line of its own in
        # NS-2's trace (PacketCounter::WatchWifiRtsRetryLimit, Mac802_11::RetransmitRTS)
        counter.WatchWifiRtsRetryLimit(wifi + "/RemoteStationManager"),
        counter.WatchIpv4Drop("/NodeList/*/$ns3::Ipv4L3Protocol"),
        counter.WatchArpDrop("/NodeList/*/$ns3::ArpL3Protocol"),
    ]
    if filtered_phy:
        ok.append(counter.WatchNs2CollisionDrops(wifi + "/Phy"))
    if not all(ok):
        raise RuntimeError(f"could not connect every packet counter trace source: {ok}")
    return counter


def _applications(ns, params, nodes, interfaces, recorder, starts: Mapping[int, float]):
    """One NS-2 CBR source (ns3::Ns2CbrApplication) per sensor, one PacketSink each at the sink.

    As NS-2's Application/Traffic/CBR, each source writes its first report when it
    starts and one per interval after that (ns-3's OnOff would wait one interval
    first). A report is ``packet_size`` bytes, handed to TCP in ns2 mode as one
    1000-byte packet (``parameters.write_bytes``). ``starts``: each sensor's start time
    (``network.start_times``, the same as the NS-2 run's).
    """
    factory = SOCKET_FACTORIES[params["protocol"]]
    interval = effective_interval_s(params)
    size = write_bytes(params)
    sink_address = interfaces.GetAddress(SINK)
    apps = []
    for node in sources(params):
        port = SINK_PORT_BASE + node
        sink = ns.PacketSinkHelper(
            factory, ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo()
        )
        sink.SetAttribute("EnableSeqTsSizeHeader", ns.BooleanValue(True))
        sink_app = sink.Install(nodes.Get(SINK)).Get(0)
        sink_app.SetStartTime(ns.Seconds(0.0))
        recorder.watch_receiver(sink_app, node)
        app = ns.CreateObject[ns.Ns2CbrApplication]()
        app.SetAttribute(
            "Remote", ns.AddressValue(ns.InetSocketAddress(sink_address, port).ConvertTo())
        )
        app.SetAttribute("Protocol", ns.TypeIdValue(ns.TypeId.LookupByName(factory)))
        app.SetAttribute("PacketSize", ns.UintegerValue(size))
        app.SetAttribute("Interval", ns.TimeValue(ns.Seconds(interval)))
        app.SetAttribute("EnableSeqTsSizeHeader", ns.BooleanValue(True))
        nodes.Get(node).AddApplication(app)
        app.SetStartTime(ns.Seconds(starts[node]))
        app.SetStopTime(ns.Seconds(params["duration"]))
        recorder.watch_sender(app, node)
        apps.append(app)
    return apps


def range_probe(
    distance_m: float, range_m: float, frames: int = 3, params: Mapping[str, Any] | None = None
) -> int:
    """Frames a receiver at ``distance_m`` gets from a sender configured for ``range_m``.

    Two nodes with the study's radio, the sender broadcasting ``frames`` frames
    (no retries, no RTS/CTS). The check of the range translation: a 60-m node
    must reach 59 m and not 61 m.
    """
    params = PARAMETERS.validate(params or {})

    with simulation(seed=1, run=1, checksums=False) as ns:
        _config_defaults(ns, params)
        nodes = ns.NodeContainer()
        nodes.Create(2)
        alloc = ns.CreateObject[ns.ListPositionAllocator]()
        alloc.Add(ns.Vector(0.0, 0.0, 0.0))
        alloc.Add(ns.Vector(float(distance_m), 0.0, 0.0))
        mobility = ns.MobilityHelper()
        mobility.SetPositionAllocator(alloc)
        mobility.Install(nodes)
        devices = _wifi(ns, params, nodes, [float(range_m), float(range_m)])
        counter = ns.CreateObject[ns.PacketCounter]()
        counter.WatchWifiMacRx("/NodeList/1/DeviceList/*/$ns3::WifiNetDevice/Mac")
        sender = devices.Get(0)
        for _ in range(frames):
            sender.Send(ns.Create[ns.Packet](100), sender.GetBroadcast(), 0x0800)
        ns.Simulator.Stop(ns.Seconds(1.0))
        ns.Simulator.Run()
        received = sum(
            int(counter.Total(ns.PacketCounter.WIFI_MAC_RX, c))
            for c in range(int(ns.PacketCounter.N_CLASSES))
        )
    return received


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _current_rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def run_scenario(
    params: Mapping[str, Any], seed: int = 1, run: int = 1, options: RunOptions = RunOptions()
) -> dict[str, pd.DataFrame]:
    """Build the network, run it, return the raw tables (see the module docstring).

    ``params`` are validated here (missing ones take their defaults), so the
    benchmark and tests can pass a few; :func:`run` is what the sweep calls.
    """
    params = PARAMETERS.validate(params)
    with simulation(seed=seed, run=run, checksums=options.checksums) as ns:
        if options.purge_cancelled_events:
            factory = ns.ObjectFactory("ns3::PurgingHeapScheduler")
            # The run is never continued after `duration`: later events can never run.
            factory.Set("Horizon", ns.TimeValue(ns.Seconds(params["duration"])))
            ns.Simulator.SetScheduler(factory)
        _config_defaults(ns, params)
        nodes = ns.NodeContainer()
        nodes.Create(N_NODES)
        _mobility(ns, params, nodes, seed, run)
        devices = _wifi(ns, params, nodes, node_ranges(params), options.filter_weak_signals)
        stack = ns.InternetStackHelper()
        stack.SetRoutingHelper(ns.AodvHelper())
        stack.Install(nodes)
        _install_transport(ns, params["protocol"], params["stack_preset"], nodes)
        address = ns.Ipv4AddressHelper()
        address.SetBase(ns.Ipv4Address("10.1.0.0"), ns.Ipv4Mask("255.255.0.0"))
        interfaces = address.Assign(devices)
        if params["arp_model"] == "preloaded":
            ns.NeighborCacheHelper().PopulateNeighborCache()
        # The wifi MAC queue is NS-2's interface queue: no queue disc in front of it.
        remove_queue_discipline(ns, devices)
        if options.ns3_energy_models:
            energy_sources, radio_models = _energy(
                ns, devices, nodes, params["duration"] if options.energy_horizon else None
            )
        counter = _counter(ns, options.filter_weak_signals)
        state_times = _state_times(ns, devices)
        agents = _agent_trace(ns, nodes, interfaces)
        paths = _path_recorder(ns, devices) if options.trace_paths else None
        frames = FrameRecorder(ns, devices) if options.trace_frames else None
        recorder = PacketRecorder()
        _applications(ns, params, nodes, interfaces, recorder, start_times(params, seed, run))

        wall0, cpu0 = time.perf_counter(), _cpu_s()
        progress = []
        duration = params["duration"]
        step = options.progress_interval
        ns.Simulator.Stop(ns.Seconds(duration))
        if step > 0:
            t = 0.0
            while t < duration - 1e-9:
                t = min(duration, t + step)
                ns.Simulator.Stop(ns.Seconds(t) - ns.Simulator.Now())
                ns.Simulator.Run()
                progress.append(
                    {
                        "sim_time": t,
                        "events": int(ns.Simulator.GetEventCount()),
                        "wall_s": time.perf_counter() - wall0,
                        "rss_mb": _current_rss_mb(),
                    }
                )
        else:
            ns.Simulator.Run()
        wall, cpu = time.perf_counter() - wall0, _cpu_s() - cpu0
        events = int(ns.Simulator.GetEventCount())

        energy = pd.DataFrame(columns=["node", "energy_j", "remaining_j"])
        reschedules = {"energy_reschedules_skipped": np.nan, "energy_reschedules_done": np.nan}
        if options.ns3_energy_models:
            energy = pd.DataFrame(
                {
                    "node": np.arange(N_NODES),
                    "energy_j": [
                        float(radio_models.Get(n).GetTotalEnergyConsumption())
                        for n in range(N_NODES)
                    ],
                    "remaining_j": [
                        float(energy_sources.Get(n).GetRemainingEnergy()) for n in range(N_NODES)
                    ],
                }
            )
            reschedules = _energy_reschedules(ns, radio_models)
        state_times.Finish()
        arrivals = _arrival_counts(ns, devices)
        counter.Snapshot()
        packets = recorder.to_frame()
        path_table = paths.to_frame() if paths is not None else None
        if frames is not None:
            frame_table, loss_table = frames.frames(), frames.losses()
            early_table = frames.preamble_drops()
        counts = _counts_frame(ns, counter)
        states = _state_frame(ns, state_times)
        agent = _agent_frame(agents)
    result = {
        "packets": packets,
        "counts": counts,
        "energy": energy,
        "states": states,
        "agent": agent,
    }
    # Time and memory vary from run to run; `events` is exact (the summary reports it).
    result["performance"] = pd.DataFrame(
        [
            {
                "wall_s": wall,
                "cpu_s": cpu,
                "events": events,
                "events_per_s": events / wall if wall > 0 else np.nan,
                "peak_rss_mb": _rss_mb(),
                **arrivals,
                **reschedules,
            }
        ]
    )
    if progress:
        result["progress"] = pd.DataFrame(progress)
    if path_table is not None:
        result["paths"] = path_table
    if frames is not None:
        result["frames"], result["frame_losses"] = frame_table, loss_table
        result["frame_preamble_drops"] = early_table
    return result


def _path_recorder(ns, devices) -> PathRecorder:
    """A PathRecorder at every node's wifi MAC (``MacTx``) and the sink's (``MacRx``)."""
    paths = PathRecorder()
    for node in range(devices.GetN()):
        mac = ns.DynamicCast[ns.WifiNetDevice](devices.Get(node)).GetMac()
        paths.origin(mac, "MacTx", flow=node, point=f"mac_tx {node}")
        if node == SINK:
            paths.watch(mac, "MacRx", "sink_rx")
    return paths


def run(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication with the default :class:`RunOptions` (the study's run step)."""
    return run_scenario(params, seed=seed, run=run)


#: WifiPhyState values in order (ns-3 wifi-phy-state.h)
PHY_STATES = ("idle", "cca_busy", "tx", "rx", "switching", "sleep", "off")


def _state_times(ns, devices):
    """ns3::WifiStateTimes on every PHY, in node order (energy models apply afterwards)."""
    times = ns.CreateObject[ns.WifiStateTimes]()
    for node in range(devices.GetN()):
        phy = ns.DynamicCast[ns.WifiNetDevice](devices.Get(node)).GetPhy()
        if not times.Watch(phy):
            raise RuntimeError("could not connect WifiPhyStateHelper's State trace")
    return times


def _state_frame(ns, times) -> pd.DataFrame:
    """Seconds each node's PHY spent in each state: columns ``node`` and :data:`PHY_STATES`."""
    rows = []
    for node in range(int(times.GetN())):
        row = {"node": node}
        for index, state in enumerate(PHY_STATES):
            row[state] = float(times.GetSeconds(node, index))
        rows.append(row)
    return pd.DataFrame(rows)


def _agent_trace(ns, nodes, interfaces):
    """ns3::AgentTraceRecorder on every node: NS-2's AGT send/receive events to/from the sink."""
    agents = ns.CreateObject[ns.AgentTraceRecorder]()
    agents.SetPeer(interfaces.GetAddress(SINK))
    for node in range(nodes.GetN()):
        if not agents.Watch(nodes.Get(node).GetObject[ns.Ipv4L3Protocol]()):
            raise RuntimeError("could not connect Ipv4L3Protocol's SendOutgoing/LocalDeliver")
    return agents


def _agent_frame(agents) -> pd.DataFrame:
    """One row per AGT event: kind (sent/received), time, src/dst node, IP id, protocol, sizes.

    Node numbers come from the 10.1.0.0/16 addresses (node i has 10.1.0.(i+1)).
    """
    base = (10 << 24) | (1 << 16)
    kinds = vector_array(agents.GetKinds(), np.uint8)
    return pd.DataFrame(
        {
            "event": np.where(kinds == 0, "sent", "received"),
            "time": vector_array(agents.GetTimesNs(), np.int64) / 1e9,
            "src": vector_array(agents.GetSources(), np.uint32).astype(np.int64) - base - 1,
            "dst": vector_array(agents.GetDestinations(), np.uint32).astype(np.int64) - base - 1,
            "ip_id": vector_array(agents.GetIdentifications(), np.uint16).astype(np.int64),
            "ip_protocol": vector_array(agents.GetProtocols(), np.uint8).astype(np.int64),
            "size": vector_array(agents.GetSizes(), np.uint32).astype(np.int64),
            "payload": vector_array(agents.GetPayloads(), np.uint32).astype(np.int64),
            "chunk_type": vector_array(agents.GetChunkTypes(), np.uint8).astype(np.int64),
        }
    )


def _arrival_counts(ns, devices) -> dict[str, float]:
    """Signal arrivals scheduled, skipped and culled (NS-2's culling) by
    SensitivityFilteredYansWifiPhy, the culling distance, the receptions its NS-2 collision
    rule lost, the decodable frames NS-2 would trace as collision drops and the undecodable
    frames it received to their end (NaN if stock)."""
    scheduled = skipped = collisions = undecodable = culled = trace_drops = 0
    culling = np.nan
    for i in range(devices.GetN()):
        phy = ns.DynamicCast[ns.SensitivityFilteredYansWifiPhy](
            ns.DynamicCast[ns.WifiNetDevice](devices.Get(i)).GetPhy()
        )
        if not phy:
            return {
                "arrivals_scheduled": np.nan,
                "arrivals_skipped": np.nan,
                "ns2_collisions": np.nan,
                "ns2_undecodable": np.nan,
                "arrivals_culled": np.nan,
                "ns2_culling_distance_m": np.nan,
                "ns2_collision_drops": np.nan,
            }
        scheduled += int(phy.GetArrivalsScheduled())
        culled += int(phy.GetArrivalsCulled())
        if phy.GetNs2CullingDistance() >= 0:
            culling = float(phy.GetNs2CullingDistance())
        skipped += int(phy.GetArrivalsSkipped())
        collisions += int(phy.GetNs2Collisions())
        trace_drops += int(phy.GetNs2CollisionDrops())
        undecodable += int(phy.GetNs2UndecodableReceptions())
    return {
        "ns2_undecodable": undecodable,
        "arrivals_scheduled": scheduled,
        "arrivals_skipped": skipped,
        "ns2_collisions": collisions,
        "arrivals_culled": culled,
        "ns2_culling_distance_m": culling,
        "ns2_collision_drops": trace_drops,
    }


def _energy_reschedules(ns, models) -> dict[str, float]:
    """'Battery empty' reschedules HorizonWifiRadioEnergyModel skipped (NaN if stock)."""
    skipped = deferred = 0
    for i in range(models.GetN()):
        model = ns.DynamicCast[ns.HorizonWifiRadioEnergyModel](models.Get(i))
        if not model:
            return {"energy_reschedules_skipped": np.nan, "energy_reschedules_done": np.nan}
        skipped += int(model.GetSkippedReschedules())
        deferred += int(model.GetDeferredReschedules())
    return {"energy_reschedules_skipped": skipped, "energy_reschedules_done": deferred}


def _counts_frame(ns, counter) -> pd.DataFrame:
    sources_ = vector_array(counter.GetSources(), np.uint8)
    classes = vector_array(counter.GetClasses(), np.uint8)
    source_names = np.array([str(ns.PacketCounter.GetSourceName(i)) for i in range(16)])
    class_names = np.array([str(ns.PacketCounter.GetClassName(i)) for i in range(16)])
    return pd.DataFrame(
        {
            "node": vector_array(counter.GetNodes(), np.uint32).astype(np.int64),
            "source": source_names[sources_],
            "packet_class": class_names[classes],
            "reason": vector_array(counter.GetReasons(), np.uint16).astype(np.int64),
            "count": vector_array(counter.GetCounts(), np.uint64).astype(np.int64),
        }
    )
