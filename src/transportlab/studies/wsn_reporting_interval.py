"""TCP, UDP and SCTP on a 56-node wireless sensor network (seed 003).

Chellaprabha, Chenthur Pandian and Vivekanandan compare TCP, UDP and SCTP on a
56-node sensor field in NS-2 (AODV over 802.11, two-ray ground propagation,
CBR reports of 256 bytes to one sink) for five data reporting intervals. This
module rebuilds that network with ns-3's real models. Where the paper leaves a
choice open, the decision is made here, in one place, and stated:

Placement (Figure 1 is not legible in the seed). 7 columns x 8 rows over
800 m x 400 m: columns 114.3 m apart (x = 57.1 ... 742.9 m), rows 50 m apart
(y = 25 ... 375 m). Every column holds one 150-m node in row 3 (y = 175 m):
these are the gateways 1-7, forming a backbone 114.3 m per hop. The sink, node
0, sits in the centre column at (400, 225) and reaches gateways 3, 4 and 5
(50 m and 124.7 m). The 48 short-range (60 m) sensors, nodes 8-55, fill the
other places column by column and reach each other only vertically (50 m), so
every sensor's route is "up or down its column to the gateway, then along the
backbone" - the role the paper gives to nodes 1-7.

Radio (Table 1 and NS-2's defaults). NS-2's receive threshold RXThresh =
3.652e-10 W (Table 1) and carrier-sense threshold CSThresh = 1.559e-11 W
(NS-2 default), frequency 2.4 GHz (Table 1), antennas 1.5 m high, unit gains,
system loss 1. The transmit power for a range R is the power that puts exactly
RXThresh at R under NS-2's TwoRayGround (Friis below the crossover distance
4 pi ht hr / lambda, ht^2 hr^2 / d^4 beyond it), as NS-2's threshold.cc does.
In ns-3: RxSensitivity = CSThresh (weaker signals never reach the PHY, as in
NS-2), CcaEdThreshold = CSThresh (they keep the channel busy),
ThresholdPreambleDetectionModel MinimumRssi = RXThresh (only frames above it
are received).

MAC: 802.11b DSSS, data (unicast and broadcast) at 2 Mb/s, control frames at
1 Mb/s, long PLCP preamble, RTS/CTS for every unicast frame (NS-2's
RTSThreshold_ 0), retry limits 7/4. Interface queue: the wifi MAC queue,
50 packets drop-tail, no queue-time limit, no traffic-control layer on top
(NS-2's PriQueue also gives routing packets priority; ns-3's DCF queue does
not).

Routing: AODV with NS-2's aodv.h constants (no HELLO messages: link-layer
feedback, active route timeout 10 s, expanding ring 5/2/7, 3 RREQ retries,
30 ms node traversal time, network diameter 30).

Energy: MICA2 mote radio (Crossbow MPR400 datasheet, 2 AA cells): 3.0 V,
receive 10 mA (also while listening, as a CC1000 listens in receive mode),
transmit 27 mA, sleep 1 uA, initial energy 27 kJ (2500 mAh at 3 V, never
depleted in 100 s).

Reporting interval. Table 1 lists 1, 2, 5, 10, 20 s; the Annexure says the
tables' intervals are "scaled down by the factor 10". ``interval_scale``
multiplies the printed interval: 1.0 takes Table 1 at face value (the
default: the published UDP throughputs, 105.7 ... 5.43, are 94-96 % of what 55
sensors offer at 1-20 s, 112.6 ... 5.6 kb/s), 0.1 reads the remark as "the real
intervals are 0.1-2 s".
"""

from __future__ import annotations

import math
import resource
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from transportlab.params import Param, ParameterSpace
from transportlab.studies import Study

# --- the field -------------------------------------------------------------------------------

FIELD_X_M = 800.0
FIELD_Y_M = 400.0
N_NODES = 56
SINK = 0
GATEWAYS = tuple(range(1, 8))
COLUMNS = 7
ROWS = 8
ROW_SPACING_M = FIELD_Y_M / ROWS  # 50 m
COLUMN_SPACING_M = FIELD_X_M / COLUMNS  # 114.29 m
GATEWAY_ROW = 3
SINK_COLUMN, SINK_ROW = 3, 4
ANTENNA_HEIGHT_M = 1.5  # NS-2 Antenna/OmniAntenna Z_

# --- NS-2 radio facts ------------------------------------------------------------------------

NS2_RX_THRESHOLD_W = 3.652e-10  # seed Table 1 (and NS-2's default RXThresh_)
NS2_CS_THRESHOLD_W = 1.559e-11  # NS-2 default CSThresh_
NS2_DEFAULT_FREQUENCY_HZ = 914e6  # NS-2 default freq_ (Lucent WaveLAN)
NS2_DEFAULT_TX_POWER_W = 0.28183815  # NS-2 default Pt_: 250 m at 914 MHz
SPEED_OF_LIGHT = 299792458.0
DSSS_CHANNEL_WIDTH_MHZ = 22.0

# --- transports ------------------------------------------------------------------------------

SOCKET_FACTORIES = {
    "tcp": "ns3::TcpSocketFactory",
    "udp": "ns3::UdpSocketFactory",
    "sctp": "ns3::SctpSocketFactory",
}
SINK_PORT_BASE = 5000
PRINTED_INTERVALS = (1.0, 2.0, 5.0, 10.0, 20.0)

# --- energy: MICA2 (Crossbow MPR400 datasheet) -------------------------------------------------

MICA2 = {
    "voltage_v": 3.0,
    "tx_current_a": 0.027,
    "rx_current_a": 0.010,
    "idle_current_a": 0.010,
    "sleep_current_a": 1e-6,
    "initial_energy_j": 27000.0,
}


# --- radio arithmetic (pure Python, tested) ----------------------------------------------------


def wavelength_m(frequency_hz: float) -> float:
    return SPEED_OF_LIGHT / frequency_hz


def crossover_distance_m(frequency_hz: float, height_m: float = ANTENNA_HEIGHT_M) -> float:
    """NS-2 TwoRayGround's crossover distance 4 pi ht hr / lambda."""
    return 4.0 * math.pi * height_m * height_m / wavelength_m(frequency_hz)


def two_ray_rx_power_w(
    tx_power_w: float,
    distance_m: float,
    frequency_hz: float,
    height_m: float = ANTENNA_HEIGHT_M,
    system_loss: float = 1.0,
) -> float:
    """Received power under NS-2's (and ns-3's) TwoRayGround with unit antenna gains."""
    if distance_m <= crossover_distance_m(frequency_hz, height_m):
        lam = wavelength_m(frequency_hz)
        return tx_power_w * lam * lam / ((4.0 * math.pi * distance_m) ** 2 * system_loss)
    return tx_power_w * height_m**4 / (distance_m**4 * system_loss)


def tx_power_for_range_w(
    range_m: float,
    rx_threshold_w: float,
    frequency_hz: float,
    height_m: float = ANTENNA_HEIGHT_M,
    system_loss: float = 1.0,
) -> float:
    """Transmit power that puts exactly ``rx_threshold_w`` at ``range_m`` (NS-2 threshold.cc)."""
    return rx_threshold_w / two_ray_rx_power_w(1.0, range_m, frequency_hz, height_m, system_loss)


def range_for_threshold_m(
    tx_power_w: float, threshold_w: float, frequency_hz: float, height_m: float = ANTENNA_HEIGHT_M
) -> float:
    """Distance at which the received power falls to ``threshold_w`` (e.g. carrier-sense range)."""
    lam = wavelength_m(frequency_hz)
    friis = lam / (4.0 * math.pi) * math.sqrt(tx_power_w / threshold_w)
    if friis <= crossover_distance_m(frequency_hz, height_m):
        return friis
    return (tx_power_w * height_m**4 / threshold_w) ** 0.25


def w_to_dbm(watts: float) -> float:
    return 10.0 * math.log10(watts * 1000.0)


# --- topology ----------------------------------------------------------------------------------


def positions() -> list[tuple[float, float]]:
    """(x, y) of nodes 0..55 in metres; see the module docstring."""

    def place(column: int, row: int) -> tuple[float, float]:
        return ((column + 0.5) * COLUMN_SPACING_M, (row + 0.5) * ROW_SPACING_M)

    result = [place(SINK_COLUMN, SINK_ROW)]
    result += [place(column, GATEWAY_ROW) for column in range(COLUMNS)]
    taken = {(SINK_COLUMN, SINK_ROW)} | {(c, GATEWAY_ROW) for c in range(COLUMNS)}
    for column in range(COLUMNS):
        for row in range(ROWS):
            if (column, row) not in taken:
                result.append(place(column, row))
    assert len(result) == N_NODES
    return result


def is_long_range(node: int) -> bool:
    return node == SINK or node in GATEWAYS


def node_ranges(params: Mapping[str, Any]) -> list[float]:
    return [
        params["long_range_m"] if is_long_range(n) else params["short_range_m"]
        for n in range(N_NODES)
    ]


def link_table(params: Mapping[str, Any]) -> pd.DataFrame:
    """Every ordered pair (a, b) with its distance and whether b receives a's frames."""
    pos = positions()
    ranges = node_ranges(params)
    rows = []
    for a in range(N_NODES):
        for b in range(N_NODES):
            if a != b:
                d = math.dist(pos[a], pos[b])
                rows.append({"tx": a, "rx": b, "distance_m": d, "receives": d <= ranges[a]})
    return pd.DataFrame(rows)


def sources(params: Mapping[str, Any]) -> list[int]:
    """Sensor nodes that report to the sink: all of 1..55, or ``n_sources`` spread over them."""
    sensors = list(range(1, N_NODES))
    n = params["n_sources"]
    if n == 0:
        return sensors
    return sensors[:: max(1, len(sensors) // n)][:n]


def effective_interval_s(params: Mapping[str, Any]) -> float:
    return params["reporting_interval"] * params["interval_scale"]


# --- parameters --------------------------------------------------------------------------------


def _positive_range(params: Mapping[str, Any]) -> str | None:
    if params["short_range_m"] >= params["long_range_m"]:
        return "short_range_m must be smaller than long_range_m"
    if params["cs_threshold_w"] >= params["rx_threshold_w"]:
        return "cs_threshold_w must be below rx_threshold_w (carrier sense reaches further)"
    return None


def _warmup_before_stop(params: Mapping[str, Any]) -> str | None:
    if params["start_time"] >= params["duration"]:
        return (
            f"start_time ({params['start_time']} s) must be before "
            f"duration ({params['duration']} s)"
        )
    return None


PARAMETERS = ParameterSpace(
    Param(
        "protocol",
        "udp",
        str,
        "transport protocol of the sensor reports",
        choices=tuple(SOCKET_FACTORIES),
    ),
    Param(
        "reporting_interval",
        1.0,
        float,
        "data reporting interval as printed in the seed",
        minimum=0.0,
        exclusive_minimum=True,
        unit="s",
    ),
    Param(
        "interval_scale",
        1.0,
        float,
        "factor applied to the printed interval (1.0: Table 1 as printed; 0.1: the "
        "Annexure's 'scaled by 10' read as 0.1-2 s)",
        choices=(1.0, 0.1),
    ),
    Param(
        "duration",
        100.0,
        float,
        "simulated time",
        minimum=1.0,
        maximum=10000.0,
        unit="s",
        quick=20.0,
    ),
    Param(
        "start_time",
        1.0,
        float,
        "earliest report; each sensor starts at a random time "
        "in [start_time, start_time + interval)",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "n_sources",
        0,
        int,
        "number of reporting sensors, every (55 // n)-th of nodes 1..55; 0 = all 55",
        minimum=0,
        maximum=N_NODES - 1,
        quick=11,
    ),
    Param(
        "packet_size",
        256,
        int,
        "sensor report size (application bytes)",
        minimum=24,
        maximum=1400,
        unit="B",
    ),
    Param(
        "queue_limit",
        50,
        int,
        "interface queue length (drop-tail)",
        minimum=1,
        maximum=10000,
        unit="packets",
    ),
    Param("long_range_m", 150.0, float, "range of the sink and nodes 1-7", minimum=1.0, unit="m"),
    Param("short_range_m", 60.0, float, "range of nodes 8-55", minimum=1.0, unit="m"),
    Param(
        "frequency_hz",
        2.4e9,
        float,
        "carrier frequency for the two-ray model (Table 1)",
        minimum=1e8,
        maximum=1e11,
        unit="Hz",
    ),
    Param(
        "rx_threshold_w",
        NS2_RX_THRESHOLD_W,
        float,
        "reception threshold (Table 1)",
        minimum=0.0,
        exclusive_minimum=True,
        unit="W",
    ),
    Param(
        "cs_threshold_w",
        NS2_CS_THRESHOLD_W,
        float,
        "carrier-sense threshold (NS-2 default)",
        minimum=0.0,
        exclusive_minimum=True,
        unit="W",
    ),
    Param(
        "tcp_variant",
        "ns3::TcpNewReno",
        str,
        "ns-3 TCP congestion control",
        choices=("ns3::TcpNewReno", "ns3::TcpCubic", "ns3::TcpLinuxReno"),
    ),
    consistency=[_positive_range, _warmup_before_stop],
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
    checksums: bool = False  #: compute IPv4/UDP/TCP checksums (only needed for pcap files)
    record_packets: bool = True  #: per-packet delays (needed for the delay metric)
    progress_interval: float = 0.0  #: >0: sample events and memory every this many seconds


def _config_defaults(ns, params: Mapping[str, Any]) -> None:
    """Attribute defaults that must be in place before the objects are created."""
    uint, boolean, time_ = ns.UintegerValue, ns.BooleanValue, ns.TimeValue
    cfg = ns.Config.SetDefault
    # Interface queue: NS-2 DropTail of `queue_limit` packets with no lifetime limit.
    queue_size = ns.QueueSize(f"{params['queue_limit']}p")
    cfg("ns3::WifiMacQueue::MaxSize", ns.QueueSizeValue(queue_size))
    cfg("ns3::WifiMacQueue::MaxDelay", time_(ns.Seconds(1e6)))
    # AODV with NS-2's aodv.h constants.
    node_traversal = 0.030
    net_diameter = 30
    net_traversal = 2 * node_traversal * net_diameter
    rreq_retries = 3
    cfg("ns3::aodv::RoutingProtocol::EnableHello", boolean(False))
    cfg("ns3::aodv::RoutingProtocol::ActiveRouteTimeout", time_(ns.Seconds(10)))
    cfg("ns3::aodv::RoutingProtocol::MyRouteTimeout", time_(ns.Seconds(10)))
    cfg("ns3::aodv::RoutingProtocol::RreqRetries", uint(rreq_retries))
    cfg("ns3::aodv::RoutingProtocol::TtlStart", uint(5))
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
    cfg("ns3::aodv::RoutingProtocol::MaxQueueLen", uint(64))
    cfg("ns3::aodv::RoutingProtocol::MaxQueueTime", time_(ns.Seconds(30)))
    # TCP: the nearest ns-3 relative of NS-2's default one-way TCP (Tahoe, window_ 20,
    # windowInit_ 2, minrto_ 0.2 s, an ACK per packet, no SACK/timestamps), one report per
    # segment as NS-2 sends one packet per CBR report.
    segment = params["packet_size"]
    variant = ns.TypeId.LookupByName(params["tcp_variant"])
    cfg("ns3::TcpL4Protocol::SocketType", ns.TypeIdValue(variant))
    cfg("ns3::TcpSocket::SegmentSize", uint(segment))
    cfg("ns3::TcpSocket::InitialCwnd", uint(2))
    cfg("ns3::TcpSocket::DelAckCount", uint(1))
    cfg("ns3::TcpSocket::RcvBufSize", uint(20 * segment))
    cfg("ns3::TcpSocketBase::MinRto", time_(ns.Seconds(0.2)))
    cfg("ns3::TcpSocketBase::Sack", boolean(False))
    cfg("ns3::TcpSocketBase::Timestamp", boolean(False))
    cfg("ns3::TcpSocketBase::WindowScaling", boolean(False))


def _install_transport(ns, protocol: str, nodes) -> None:
    """Install the transport protocol's stack where ns-3's InternetStackHelper does not."""
    if protocol == "sctp":
        found = ns.TypeId.LookupByNameFailSafe(SOCKET_FACTORIES["sctp"], ns.TypeId())
        if not found or not hasattr(ns, "SctpStackHelper"):
            raise RuntimeError(
                "SCTP is not available in this build: the sctp module (ns3::SctpSocketFactory, "
                "ns3::SctpStackHelper) has not been merged yet"
            )
        # NS-2.35's Agent/SCTP defaults (the seed ran NS-2's SCTP with its defaults).
        ns.SctpStackHelper.SetNs2Defaults()
        ns.SctpStackHelper().Install(nodes)


def _wifi(ns, params: Mapping[str, Any], nodes, ranges: list[float]):
    """802.11b ad hoc devices; node i transmits with the power for ``ranges[i]``."""
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
    phy = ns.YansWifiPhyHelper()
    phy.SetChannel(channel.Create())
    # YansWifiChannel compares with RxSensitivity + 10 log10(width / 20 MHz): compensate so
    # that the effective threshold is NS-2's CSThresh.
    width_correction_db = 10.0 * math.log10(DSSS_CHANNEL_WIDTH_MHZ / 20.0)
    cs_dbm = w_to_dbm(params["cs_threshold_w"])
    phy.Set("RxSensitivity", ns.DoubleValue(cs_dbm - width_correction_db))
    phy.Set("CcaEdThreshold", ns.DoubleValue(cs_dbm))
    phy.SetPreambleDetectionModel(
        "ns3::ThresholdPreambleDetectionModel",
        "MinimumRssi",
        ns.DoubleValue(w_to_dbm(params["rx_threshold_w"])),
    )
    wifi = ns.WifiHelper()
    wifi.SetStandard(ns.WIFI_STANDARD_80211b)
    wifi.SetRemoteStationManager(
        "ns3::ConstantRateWifiManager",
        "DataMode",
        ns.StringValue("DsssRate2Mbps"),
        "ControlMode",
        ns.StringValue("DsssRate1Mbps"),
        "NonUnicastMode",
        ns.StringValue("DsssRate2Mbps"),
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


def _mobility(ns, nodes) -> None:
    alloc = ns.CreateObject[ns.ListPositionAllocator]()
    for x, y in positions():
        alloc.Add(ns.Vector(x, y, 0.0))
    mobility = ns.MobilityHelper()
    mobility.SetPositionAllocator(alloc)
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel")
    mobility.Install(nodes)


def _energy(ns, devices, nodes):
    source_helper = ns.BasicEnergySourceHelper()
    source_helper.Set("BasicEnergySourceInitialEnergyJ", ns.DoubleValue(MICA2["initial_energy_j"]))
    source_helper.Set("BasicEnergySupplyVoltageV", ns.DoubleValue(MICA2["voltage_v"]))
    sources_ = source_helper.Install(nodes)
    radio = ns.WifiRadioEnergyModelHelper()
    radio.Set("TxCurrentA", ns.DoubleValue(MICA2["tx_current_a"]))
    radio.Set("RxCurrentA", ns.DoubleValue(MICA2["rx_current_a"]))
    radio.Set("IdleCurrentA", ns.DoubleValue(MICA2["idle_current_a"]))
    radio.Set("CcaBusyCurrentA", ns.DoubleValue(MICA2["rx_current_a"]))
    radio.Set("SwitchingCurrentA", ns.DoubleValue(MICA2["idle_current_a"]))
    radio.Set("SleepCurrentA", ns.DoubleValue(MICA2["sleep_current_a"]))
    models = radio.Install(devices, sources_)
    return sources_, models


def _counter(ns):
    counter = ns.CreateObject[ns.PacketCounter]()
    wifi = "/NodeList/*/DeviceList/*/$ns3::WifiNetDevice"
    ok = [
        counter.WatchWifiPhyTx(wifi + "/Phy"),
        counter.WatchWifiPhyRxDrop(wifi + "/Phy"),
        counter.WatchWifiPhyRxError(wifi + "/Phy"),
        counter.WatchWifiMacTx(wifi + "/Mac"),
        counter.WatchWifiMacDrop(wifi + "/Mac"),
        counter.WatchIpv4Drop("/NodeList/*/$ns3::Ipv4L3Protocol"),
        counter.WatchArpDrop("/NodeList/*/$ns3::ArpL3Protocol"),
    ]
    if not all(ok):
        raise RuntimeError(f"could not connect every packet counter trace source: {ok}")
    return counter


def _applications(ns, params, nodes, interfaces, recorder):
    """One CBR (OnOff, always on) source per sensor and one PacketSink per sensor at the sink."""
    factory = SOCKET_FACTORIES[params["protocol"]]
    interval = effective_interval_s(params)
    size = params["packet_size"]
    start_rv = ns.CreateObject[ns.UniformRandomVariable]()
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
        source = ns.OnOffHelper(factory, ns.InetSocketAddress(sink_address, port).ConvertTo())
        source.SetConstantRate(ns.DataRate(int(round(size * 8 / interval))), size)
        source.SetAttribute("EnableSeqTsSizeHeader", ns.BooleanValue(True))
        app = source.Install(nodes.Get(node)).Get(0)
        start = params["start_time"] + start_rv.GetValue(0.0, interval)
        app.SetStartTime(ns.Seconds(start))
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
    from transportlab.simulation import simulation  # noqa: PLC0415

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


def _current_rss_mb() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * resource.getpagesize() / 2**20


def run_scenario(
    params: Mapping[str, Any], seed: int = 1, run: int = 1, options: RunOptions = RunOptions()
) -> dict[str, pd.DataFrame]:
    """Build the network, run it, return tidy tables (see :func:`simulate`)."""
    from transportlab.recording import PacketRecorder  # noqa: PLC0415
    from transportlab.simulation import simulation  # noqa: PLC0415

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
        _mobility(ns, nodes)
        devices = _wifi(ns, params, nodes, node_ranges(params))
        stack = ns.InternetStackHelper()
        stack.SetRoutingHelper(ns.AodvHelper())
        stack.Install(nodes)
        _install_transport(ns, params["protocol"], nodes)
        address = ns.Ipv4AddressHelper()
        address.SetBase(ns.Ipv4Address("10.1.0.0"), ns.Ipv4Mask("255.255.0.0"))
        interfaces = address.Assign(devices)
        # The wifi MAC queue is NS-2's interface queue: no queue disc in front of it.
        ns.TrafficControlHelper().Uninstall(devices)
        energy_sources, radio_models = _energy(ns, devices, nodes)
        counter = _counter(ns)
        recorder = PacketRecorder()
        _applications(ns, params, nodes, interfaces, recorder)

        wall0 = time.perf_counter()
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
        wall = time.perf_counter() - wall0
        events = int(ns.Simulator.GetEventCount())

        energy = []
        for node in range(N_NODES):
            model = radio_models.Get(node)
            energy.append(
                {
                    "node": node,
                    "energy_j": float(model.GetTotalEnergyConsumption()),
                    "remaining_j": float(energy_sources.Get(node).GetRemainingEnergy()),
                }
            )
        counter.Snapshot()
        packets = recorder.to_frame()
        counts = _counts_frame(ns, counter)
    result = _tables(params, packets, counts, pd.DataFrame(energy), events)
    result["performance"] = pd.DataFrame(
        [
            {
                "wall_s": wall,
                "events": events,
                "events_per_s": events / wall if wall > 0 else np.nan,
                "peak_rss_mb": _rss_mb(),
            }
        ]
    )
    if progress:
        result["progress"] = pd.DataFrame(progress)
    if not options.record_packets:
        result.pop("packets")
    return result


def _counts_frame(ns, counter) -> pd.DataFrame:
    from transportlab.recording import _column  # noqa: PLC0415

    sources_ = _column(counter.GetSources(), np.uint8)
    classes = _column(counter.GetClasses(), np.uint8)
    source_names = np.array([str(ns.PacketCounter.GetSourceName(i)) for i in range(16)])
    class_names = np.array([str(ns.PacketCounter.GetClassName(i)) for i in range(16)])
    return pd.DataFrame(
        {
            "node": _column(counter.GetNodes(), np.uint32).astype(np.int64),
            "source": source_names[sources_],
            "packet_class": class_names[classes],
            "reason": _column(counter.GetReasons(), np.uint16).astype(np.int64),
            "count": _column(counter.GetCounts(), np.uint64).astype(np.int64),
        }
    )


# Drops that NS-2's trace would show as a "D" line: collisions and receptions lost while busy
# (PHY), queue overflow and retry-limit drops (MAC), no-route/TTL drops (IP/AODV) and ARP drops.
# Frames below the reception threshold (preamble not detected) are not drops in NS-2: its
# PHY hands them to the MAC only as carrier-sense energy.
WIFI_PHY_RX_FAILURE = {
    3: "RXING",
    4: "TXING",
    8: "BUSY_DECODING_PREAMBLE",
    9: "PREAMBLE_DETECT_FAILURE",
    10: "RECEPTION_ABORTED_BY_TX",
    11: "L_SIG_FAILURE",
    17: "PREAMBLE_DETECTION_PACKET_SWITCH",
    18: "FRAME_CAPTURE_PACKET_SWITCH",
}
NOT_A_DROP = {("wifi-phy-rx-drop", 9)}
DATA_CLASSES = ("tcp-data", "udp-data", "sctp-data")


def _tables(
    params, packets: pd.DataFrame, counts: pd.DataFrame, energy: pd.DataFrame, events: int
) -> dict[str, pd.DataFrame]:
    duration = params["duration"]
    sent = packets[packets["event"] == "sent"]
    received = packets[packets["event"] == "received"]
    delivered = int(len(received))
    drop_sources = (
        "wifi-phy-rx-drop",
        "wifi-phy-rx-error",
        "wifi-mac-drop",
        "ipv4-drop",
        "arp-drop",
    )
    drops = counts[counts["source"].isin(drop_sources)]
    keep = [
        (s, r) not in NOT_A_DROP for s, r in zip(drops["source"], drops["reason"], strict=False)
    ]
    drops = drops[np.array(keep, dtype=bool)]
    phy_tx = counts[counts["source"] == "wifi-phy-tx"]
    mac_tx = counts[counts["source"] == "wifi-mac-tx"]
    routing_packets = int(mac_tx.loc[mac_tx["packet_class"] == "routing", "count"].sum())
    mac_frames = int(phy_tx["count"].sum())
    summary = {
        "interval_s": effective_interval_s(params),
        "reporting_sensors": len(sources(params)),
        "duration_s": duration,
        "sent": int(len(sent)),
        "delivered": delivered,
        "delivery_ratio": delivered / len(sent) if len(sent) else np.nan,
        "throughput_kbps": float(received["size"].sum()) * 8 / duration / 1000.0,
        "mean_delay_ms": float(received["delay"].mean() * 1000.0) if delivered else np.nan,
        "energy_per_node_j": float(energy["energy_j"].mean()),
        "routing_packets": routing_packets,
        "mac_frames": mac_frames,
        "data_frames": int(phy_tx.loc[phy_tx["packet_class"].isin(DATA_CLASSES), "count"].sum()),
        "dropped_packets": int(drops["count"].sum()),
        "dropped_data": int(drops.loc[drops["packet_class"].isin(DATA_CLASSES), "count"].sum()),
        "routing_load": routing_packets / delivered if delivered else np.nan,
        "mac_load": mac_frames / delivered if delivered else np.nan,
        "events": events,
    }
    return {
        "summary": pd.DataFrame([summary]),
        "packets": packets,
        "counts": counts,
        "energy": energy,
    }


def simulate(params: Mapping[str, Any], seed: int, run: int) -> dict[str, pd.DataFrame]:
    """One replication: summary (one row), packets, counts, energy, performance tables.

    The tables carry no parameter columns (the sweep adds the point's parameters).
    """
    return run_scenario(params, seed=seed, run=run)


STUDY = Study(
    name="wsn_reporting_interval",
    title="TCP, UDP and SCTP on a 56-node sensor network vs data reporting interval",
    seed_files=("003_3eccc45171f7c0ea.txt",),
    notebook="04_wsn_reporting_interval.ipynb",
    parameters=PARAMETERS,
    simulate=simulate,
    description=__doc__.split("\n\n")[1],
    tags=("wireless", "aodv", "802.11", "energy"),
)
