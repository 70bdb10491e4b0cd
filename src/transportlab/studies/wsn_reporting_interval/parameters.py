"""Parameters and constants of the sensor-network study (see the package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from transportlab.engine.params import Param, ParameterSpace

# --- the field -------------------------------------------------------------------------------
from transportlab.ns3 import ns2_tcp
from transportlab.ns3.capabilities import sctp_available
from transportlab.ns3.helpers import SOCKET_FACTORIES

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

# --- placements (network.positions) ---------------------------------------------------------

PLACEMENTS = ("field", "clusters", "columns", "random")
#: the placement rule of the package docstring: what the seed states (area, roles, ranges),
#: random where it is silent, a field per replication; decided before any comparison
DEFAULT_PLACEMENT = "field"
LONG_RANGE_M = 150.0  # Table 1: the sink and sensor nodes 1-7
SHORT_RANGE_M = 60.0  # Table 1: the other sensor nodes
CLUSTER_DX_M = 105.0  # backbone spacing in x
CLUSTER_DY_M = 50.0  # backbone nodes alternately 50 m above and below y = 200 m
CLUSTER_SENSOR_DX_M = (-15.0, 0.0, 15.0)
CLUSTER_SENSOR_DY_M = (25.0, 50.0)

# --- NS-2 radio facts ------------------------------------------------------------------------

NS2_RX_THRESHOLD_W = 3.652e-10  # seed Table 1 (and NS-2's default RXThresh_)
NS2_CS_THRESHOLD_W = 1.559e-11  # NS-2 default CSThresh_
NS2_DEFAULT_FREQUENCY_HZ = 914e6  # NS-2 default freq_ (Lucent WaveLAN)
NS2_DEFAULT_TX_POWER_W = 0.28183815  # NS-2 default Pt_: 250 m at 914 MHz
SPEED_OF_LIGHT = 299792458.0
DSSS_CHANNEL_WIDTH_MHZ = 22.0

# --- transports and reports ------------------------------------------------------------------

SINK_PORT_BASE = 5000
#: Values of ``stack_preset``: the defaults the TCP and SCTP stacks start from.
STACK_PRESETS = ("ns2", "modern")
#: Table 1's data reporting intervals (s), as printed
PRINTED_INTERVALS = (1.0, 2.0, 5.0, 10.0, 20.0)

# --- energy: NS-2.35 WirelessPhy's own charging (mac/wireless-phy.cc, no -txPower etc. given)

NS2_ENERGY = {
    "tx_power_w": 0.660,  # Pt_consume_
    "rx_power_w": 0.395,  # Pr_consume_: every packet above CSThresh_
    "idle_power_w": 0.0,  # P_idle_ (the 0.035 W line is commented out)
    "sleep_power_w": 0.0,
}
ENERGY_MODELS = ("ns2", "mica2")
ARP_MODELS = ("ns3", "preloaded")
CULLING_MODELS = ("none", "ns2")
RETRY_MODELS = ("ns3", "ns2")
RECEPTION_MODELS = ("ns3", "ns2", "ns2_lock")
START_MODES = ("staggered", "synchronized")
NS2_CAPTURE_THRESHOLD_DB = 10.0  # NS-2 default CPThresh_ (a power ratio of 10)
#: NS-2.35's Mac/802_11 rates (tcl/lan/ns-mac.tcl: dataRate_ 1Mb, basicRate_ 1Mb): unicast
#: DATA at dataRate_, RTS/CTS/ACK and broadcast DATA (AODV's RREQs) at basicRate_
#: (mac-802_11.cc, sendDATA); tests/ns2/test_defaults.py asks NS-2
NS2_DATA_MODE = "DsssRate1Mbps"
NS2_BASIC_MODE = "DsssRate1Mbps"

# --- energy: MICA2 (Crossbow MPR400 datasheet) -------------------------------------------------

MICA2 = {
    "voltage_v": 3.0,
    "tx_current_a": 0.027,
    "rx_current_a": 0.010,
    "idle_current_a": 0.010,
    "sleep_current_a": 1e-6,
    "initial_energy_j": 27000.0,
}


# --- which sensors report, how often -----------------------------------------------------------


def sources(params: Mapping[str, Any]) -> list[int]:
    """Sensor nodes that report to the sink: all of 1..55, or ``n_sources`` spread over them."""
    sensors = list(range(1, N_NODES))
    n = params["n_sources"]
    if n == 0:
        return sensors
    return sensors[:: max(1, len(sensors) // n)][:n]


def ns2_tcp_write_bytes(app_bytes: int, packet_size: int = ns2_tcp.PACKET_SIZE) -> int:
    """Bytes NS-2's Agent/TCP sends for one application write of ``app_bytes``.

    ``TcpAgent::sendmsg(nbytes)`` adds ``nbytes / size_ + (nbytes % size_ ? 1 : 0)``
    packets to ``curseq_``, and every packet is ``size_`` bytes: NS-2's TCP counts
    packets, so a 256-byte report leaves as one 1000-byte segment.
    """
    if app_bytes <= 0 or packet_size <= 0:
        raise ValueError("app_bytes and packet_size must be positive")
    return -(-app_bytes // packet_size) * packet_size


def write_bytes(params: Mapping[str, Any]) -> int:
    """Bytes one report hands to the transport: padded to NS-2's packets for TCP in ns2 mode."""
    if params["protocol"] == "tcp" and params["stack_preset"] == "ns2":
        return ns2_tcp_write_bytes(params["packet_size"])
    return params["packet_size"]


def effective_interval_s(params: Mapping[str, Any]) -> float:
    """The interval a sensor reports at: the printed one times ``interval_scale``."""
    return params["reporting_interval"] * params["interval_scale"]


# --- parameters --------------------------------------------------------------------------------


def _positive_range(params: Mapping[str, Any]) -> str | None:
    if params["short_range_m"] >= params["long_range_m"]:
        return "short_range_m must be smaller than long_range_m"
    if params["cs_threshold_w"] > params["rx_threshold_w"]:
        return (
            "cs_threshold_w must not exceed rx_threshold_w (carrier sense reaches at least "
            "as far as reception)"
        )
    return None


def _warmup_before_stop(params: Mapping[str, Any]) -> str | None:
    if params["start_time"] >= params["duration"]:
        return (
            f"start_time ({params['start_time']} s) must be before "
            f"duration ({params['duration']} s)"
        )
    return None


def _sctp_built(params: Mapping[str, Any]) -> str | None:
    if params["protocol"] == "sctp" and not sctp_available():
        return "SCTP is not available in this build (the project's SCTP model is not installed)"
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
        "factor applied to the printed interval (1.0: Table 1 as printed; 10.0: the "
        "Annexure's 'scaled down by the factor 10' taken literally, 10-200 s; 0.1: the "
        "opposite, 0.1-2 s)",
        choices=(1.0, 10.0, 0.1),
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
        "in [start_time, start_time + interval) (start_mode staggered) or at it (synchronized)",
        minimum=0.0,
        unit="s",
    ),
    Param(
        "start_mode",
        "staggered",
        str,
        "staggered: each sensor's first report at a uniform random time within the first "
        "interval; synchronized: every sensor at start_time (an NS-2 script that starts "
        "every CBR at one time, whose default random_ 0 then keeps them in step)",
        choices=START_MODES,
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
        "queue_packets",
        50,
        int,
        "interface queue length (drop-tail)",
        minimum=1,
        maximum=10000,
        unit="packets",
    ),
    Param(
        "long_range_m",
        LONG_RANGE_M,
        float,
        "range of the sink and nodes 1-7",
        minimum=1.0,
        unit="m",
    ),
    Param("short_range_m", SHORT_RANGE_M, float, "range of nodes 8-55", minimum=1.0, unit="m"),
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
        "ns-3 TCP congestion control with stack_preset 'modern' (ns2: Tahoe)",
        choices=("ns3::TcpNewReno", "ns3::TcpCubic", "ns3::TcpLinuxReno"),
    ),
    Param(
        "stack_preset",
        "ns2",
        str,
        "ns2: NS-2's Agent/TCP (Tahoe, 1000-byte packets fed by the reports, initial RTO "
        "3 s, window 20) and the NS-2.35 SCTP preset; modern: tcp_variant with one report "
        "per segment and the SCTP model's RFC 9260 defaults",
        choices=STACK_PRESETS,
    ),
    Param(
        "reception_model",
        "ns2_lock",
        str,
        "ns2_lock (NS-2's Mac802_11): a frame is lost when a signal arriving during it, from "
        "its first bit (ns-3's preamble detection window included), comes within CPThresh_ = "
        "10 dB of it, and so is the newcomer (SensitivityFilteredYansWifiPhy Ns2Capture); the "
        "receiver also locks on frames it senses but cannot decode (between CSThresh and "
        "RXThresh: received to their end, lost, and a frame arriving during them collides); "
        "ns2: the collision rule without the lock; ns3: ns-3's DSSS error model alone (a "
        "frame survives interference a few dB weaker)",
        choices=RECEPTION_MODELS,
    ),
    Param(
        "retry_model",
        "ns2",
        str,
        "ns3: ns-3.44's one retry count per frame (RTS and DATA failures together, the frame "
        "dropped at WifiMac FrameRetryLimit 7); ns2: NS-2's Mac802_11 counts, RTS failures "
        "since the last CTS up to ShortRetryLimit_ 7 and DATA failures since the last ACK "
        "up to LongRetryLimit_ 4 (ns3::Ns2ConstantRateWifiManager)",
        choices=RETRY_MODELS,
    ),
    Param(
        "carrier_sense_culling",
        "ns2",
        str,
        "ns2: NS-2's WirelessChannel delivers a frame only to nodes whose x and y lie within "
        "D + 5 m of the sender's, D fixed at the first transmission as the distance at which "
        "that first sender's signal falls to CSThresh (a 60-m sensor first: 256 m, which "
        "keeps the 150-m nodes' frames from nodes 261-405 m away that would sense them); "
        "none: every node that senses a frame gets it",
        choices=CULLING_MODELS,
    ),
    Param(
        "arp_model",
        "preloaded",
        str,
        "ns3: ns-3's ARP (a request a second, 3 retries, then every packet to that neighbour "
        "dropped for DeadTimeout 100 s, AODV not told); preloaded: every node knows every "
        "neighbour's MAC address from the start (NeighborCacheHelper; no ARP frames). ns-3's "
        "AODV cannot read these auto-generated entries, so neither ARP (as NS-2's does after "
        "three requests) nor the MAC's retry limit (as NS-2's MAC does) tells it of a next "
        "hop that cannot answer: such a route ends when it expires (notebook 04 section 8.8 "
        "shows why making the entries readable is not done)",
        choices=ARP_MODELS,
    ),
    Param(
        "placement",
        DEFAULT_PLACEMENT,
        str,
        "node placement: field (the declared rule: uniform over the 800 x 400 m field, each "
        "gateway within 150 m of the sink or an earlier gateway, each sensor within 60 m of a "
        "150-m node; one-way links as they fall), clusters (our layout without one-way "
        "links), columns (the earlier layout), random (stop 18's random layout)",
        choices=PLACEMENTS,
    ),
    Param(
        "placement_seed",
        0,
        int,
        "field and random: 0 = each replication its own field, drawn from its seed and run "
        "(the same field in ns-3 and NS-2); k >= 1 = the one field k in every run (ignored by "
        "clusters and columns)",
        minimum=0,
    ),
    Param(
        "energy_model",
        "ns2",
        str,
        "ns2: NS-2.35 WirelessPhy's charging (tx 0.660 W, rx 0.395 W above the carrier-sense "
        "threshold, idle idle_power_w); mica2: the MICA2 mote currents at 3 V",
        choices=ENERGY_MODELS,
        analysis_only=True,
    ),
    Param(
        "idle_power_w",
        0.0,
        float,
        "idle power of the ns2 energy model (NS-2.35's P_idle_ default: 0)",
        minimum=0.0,
        unit="W",
        analysis_only=True,
    ),
    consistency=[_positive_range, _warmup_before_stop, _sctp_built],
)
