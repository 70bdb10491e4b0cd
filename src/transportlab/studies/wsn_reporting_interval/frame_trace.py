"""Every frame an ns-3 sensor-field run put on the air, and every decodable frame its PHYs
lost to NS-2's collision rule, one row each (issue 25, the broadcast-collision experiment).

NS-2's trace has a ``s ... -Nl MAC`` line per frame a MAC sent and a ``d ... -Nw COL`` line
per decodable frame its Mac802_11 lost in a collision; the package counter
(``PacketCounter``) only counts them. :class:`FrameRecorder` records the same two things
in ns-3, in C++ (about 65,000 frames a run: no Python call per frame):

* ``frames``: one row per PPDU a PHY started sending (``PhyTxPsduBegin``): the node, the
  start and the air time (``WifiPhy::CalculateTxDuration``), the class of the frame as the
  packet counter tells it (``PacketCounter::ClassifyWifiFrame``), the receiver's node (-1
  broadcast, -2 a MAC address that is no node's) and the first MPDU's packet uid;
* ``losses``: one row per frame a ``SensitivityFilteredYansWifiPhy`` reported through
  ``Ns2CollisionDrop``: the receiving node, the time, the lost frame's uid and whether
  NS-2's Mac802_11::discard would write a COL line for it;
* ``preamble drops``: one row per frame ns-3's preamble detection dropped
  (``PhyRxPpduDrop``, reasons BUSY_DECODING_PREAMBLE, PREAMBLE_DETECT_FAILURE and
  PREAMBLE_DETECTION_PACKET_SWITCH): frames that arrived within 4 us of another one,
  before ns-3 had a current reception. ns-3's preamble detection resolves them its own
  way; the NS-2 rule judges them from their first bit as well, so those NS-2 would trace
  are among ``losses`` too (before issue 25's preamble fix they were not).

The uid names a frame only together with its sender and time: a retransmission keeps the
uid of its MPDU. :func:`transportlab.studies.wsn_reporting_interval.ns2_gap_broadcasts.
ns3_losses` does that matching.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from transportlab.ns3.helpers import cxx_namespace
from transportlab.ns3.recording import vector_array

__all__ = ["FrameRecorder"]

_CXX = """
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/wifi-module.h"
#include "ns3/internet-module.h"
#include "ns3/recorder-module.h"
#include <map>
#include <vector>
namespace tlwsnframes {
using namespace ns3;
/** Rows of frames sent and of decodable frames lost to NS-2's collision rule. */
struct Frames {
    Ptr<PacketCounter> classifier{CreateObject<PacketCounter>()};
    std::map<Mac48Address, int32_t> nodeOf;
    std::vector<uint32_t> txNode; std::vector<double> txStart, txDuration;
    std::vector<uint64_t> txUid; std::vector<int32_t> txClass, txTo, txAodv;
    std::vector<uint32_t> lossNode; std::vector<double> lossTime;
    // int32_t, not uint8_t: cppyy hands uint8_t elements to Python as 1-character str
    std::vector<uint64_t> lossUid; std::vector<int32_t> lossTraced;
    std::vector<uint32_t> earlyNode; std::vector<double> earlyTime;
    std::vector<uint64_t> earlyUid; std::vector<int32_t> earlyReason;

    static uint64_t Uid(Ptr<const WifiPsdu> psdu) {
        return (*psdu->begin())->GetPacket()->GetUid();
    }
    /** The AODV message type (RFC 3561: 1 RREQ, 2 RREP, 3 RERR) of a routing frame's MSDU
     *  (LLC/SNAP, IPv4, UDP, AODV's type byte); -1 if it has none. */
    static int32_t AodvType(Ptr<const WifiPsdu> psdu) {
        Ptr<Packet> p = (*psdu->begin())->GetPacket()->Copy();
        LlcSnapHeader llc;
        if (p->GetSize() < llc.GetSerializedSize()) { return -1; }
        p->RemoveHeader(llc);
        Ipv4Header ip;
        if (llc.GetType() != 0x0800 || p->GetSize() < 20) { return -1; }
        p->RemoveHeader(ip);
        UdpHeader udp;
        if (ip.GetProtocol() != 17 || p->GetSize() < 9) { return -1; }
        p->RemoveHeader(udp);
        uint8_t type = 0;
        p->CopyData(&type, 1);
        return type;
    }

    void Name(Ptr<WifiNetDevice> device, uint32_t node) {
        nodeOf[Mac48Address::ConvertFrom(device->GetAddress())] = static_cast<int32_t>(node);
    }
    bool Attach(Ptr<WifiNetDevice> device, uint32_t node) {
        Ptr<WifiPhy> phy = device->GetPhy();
        // the air time as the PHY computes it for this PSDU and TXVECTOR
        bool ok = phy->TraceConnectWithoutContext("PhyTxPsduBegin",
            Callback<void, WifiConstPsduMap, WifiTxVector, double>(
                [this, node, phy](WifiConstPsduMap psdus, WifiTxVector tx, double) {
                    auto psdu = psdus.begin()->second;
                    const Mac48Address to = psdu->GetHeader(0).GetAddr1();
                    auto found = nodeOf.find(to);
                    txNode.push_back(node);
                    txStart.push_back(Simulator::Now().GetSeconds());
                    txDuration.push_back(
                        WifiPhy::CalculateTxDuration(psdus, tx, phy->GetPhyBand()).GetSeconds());
                    txUid.push_back(Uid(psdu));
                    const int32_t klass = classifier->ClassifyWifiFrame(psdu->GetPacket());
                    txClass.push_back(klass);
                    txAodv.push_back(klass == PacketCounter::ROUTING ? AodvType(psdu) : -1);
                    txTo.push_back(to.IsBroadcast() ? -1 : found == nodeOf.end() ? -2
                                                                                : found->second);
                }));
        ok = phy->TraceConnectWithoutContext("Ns2CollisionDrop",
            Callback<void, Ptr<const WifiPpdu>, bool>(
                [this, node](Ptr<const WifiPpdu> ppdu, bool traced) {
                    auto psdu = ppdu->GetPsdu();
                    if (!psdu) { return; }
                    lossNode.push_back(node);
                    lossTime.push_back(Simulator::Now().GetSeconds());
                    lossUid.push_back(Uid(psdu));
                    lossTraced.push_back(traced ? 1 : 0);
                })) && ok;
        // Frames arriving within the preamble detection window of another one (4 us):
        // ns-3's preamble detection drops them (keeps the strongest if its SNR passes);
        // the NS-2 rule judges them from their first bit (Ns2CollisionDrop).
        ok = phy->TraceConnectWithoutContext("PhyRxPpduDrop",
            Callback<void, Ptr<const WifiPpdu>, WifiPhyRxfailureReason>(
                [this, node](Ptr<const WifiPpdu> ppdu, WifiPhyRxfailureReason reason) {
                    auto psdu = ppdu->GetPsdu();
                    if (!psdu || (reason != BUSY_DECODING_PREAMBLE
                                  && reason != PREAMBLE_DETECT_FAILURE
                                  && reason != PREAMBLE_DETECTION_PACKET_SWITCH)) { return; }
                    earlyNode.push_back(node);
                    earlyTime.push_back(Simulator::Now().GetSeconds());
                    earlyUid.push_back(Uid(psdu));
                    earlyReason.push_back(static_cast<int32_t>(reason));
                })) && ok;
        return ok;
    }
};
}
"""


def _cxx():
    # ns-3 and our library are loaded: called inside a simulation
    return cxx_namespace("tlwsnframes", _CXX)


class FrameRecorder:
    """Records every node's frames and collision losses (module docstring); build it after
    the devices, before ``Simulator::Run``."""

    def __init__(self, ns, devices) -> None:
        self._native = _cxx().Frames()
        wifi = [ns.DynamicCast[ns.WifiNetDevice](devices.Get(n)) for n in range(devices.GetN())]
        for node, device in enumerate(wifi):
            self._native.Name(device, node)
        for node, device in enumerate(wifi):
            if not self._native.Attach(device, node):
                raise RuntimeError(
                    f"node {node}: no PhyTxPsduBegin, Ns2CollisionDrop or PhyRxPpduDrop trace "
                    "source "
                    "(the frame trace needs SensitivityFilteredYansWifiPhy)"
                )

    def frames(self) -> pd.DataFrame:
        """``node``, ``start``, ``duration`` (s), ``packet_class`` (the counter's number),
        ``to`` (receiver node, -1 broadcast), ``uid``, ``aodv_type`` (a routing frame's
        AODV message type, RFC 3561 numbers; -1 for other frames)."""
        n = self._native
        return pd.DataFrame(
            {
                "node": vector_array(n.txNode, np.uint32).astype(np.int64),
                "start": vector_array(n.txStart, np.float64),
                "duration": vector_array(n.txDuration, np.float64),
                "packet_class": vector_array(n.txClass, np.int32).astype(np.int64),
                "to": vector_array(n.txTo, np.int32).astype(np.int64),
                "uid": vector_array(n.txUid, np.uint64).astype(np.int64),
                "aodv_type": vector_array(n.txAodv, np.int32).astype(np.int64),
            }
        )

    def preamble_drops(self) -> pd.DataFrame:
        """Frames ns-3's preamble detection dropped (``PhyRxPpduDrop`` with
        BUSY_DECODING_PREAMBLE, PREAMBLE_DETECT_FAILURE or PREAMBLE_DETECTION_PACKET_SWITCH):
        ``node`` (the receiver), ``time``, ``uid``, ``reason`` (WifiPhyRxfailureReason)."""
        n = self._native
        return pd.DataFrame(
            {
                "node": vector_array(n.earlyNode, np.uint32).astype(np.int64),
                "time": vector_array(n.earlyTime, np.float64),
                "uid": vector_array(n.earlyUid, np.uint64).astype(np.int64),
                "reason": vector_array(n.earlyReason, np.int32).astype(np.int64),
            }
        )

    def losses(self) -> pd.DataFrame:
        """``node`` (the receiver), ``time``, ``uid``, ``traced`` (NS-2 writes COL)."""
        n = self._native
        return pd.DataFrame(
            {
                "node": vector_array(n.lossNode, np.uint32).astype(np.int64),
                "time": vector_array(n.lossTime, np.float64),
                "uid": vector_array(n.lossUid, np.uint64).astype(np.int64),
                "traced": vector_array(n.lossTraced, np.int32).astype(np.int64).astype(bool),
            }
        )
