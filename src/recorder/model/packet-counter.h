/*
 * Counters of packets seen at trace sources, keyed by node, trace source,
 * packet class and (for drops) reason.
 *
 * Wireless studies report loads and losses as counts: routing packets per
 * delivered data packet, MAC frames per delivered data packet, packets dropped
 * anywhere in the stack. Storing one row per event would cost memory in
 * proportion to the traffic (tens of millions of PHY events in a 56-node
 * network); these counters cost memory in proportion to the number of distinct
 * keys (a few thousand) and a hash-map increment per event.
 *
 * Python callables cannot be ns-3 callbacks, so the sinks live here and
 * Python reads the table once after Simulator::Run().
 */
#ifndef PACKET_COUNTER_H
#define PACKET_COUNTER_H

#include "ns3/ipv4-header.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/mac48-address.h"
#include "ns3/object.h"
#include "ns3/packet.h"
#include "ns3/wifi-mac.h"
#include "ns3/wifi-mpdu.h"
#include "ns3/wifi-phy-common.h"
#include "ns3/wifi-ppdu.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \brief Counts packets at wifi, IPv4 and ARP trace sources.
 *
 * Each Watch* method connects one kind of trace source through a Config path
 * (wildcards allowed); the node id is read from the "/NodeList/<id>/" part of
 * the trace context. Every event increments the counter of
 * (node, source, packet class, reason).
 *
 * Packet classes (see GetClassName): wifi control frames (RTS, CTS, ACK, other
 * control), management frames, ARP, routing (UDP to or from RoutingUdpPort,
 * 654 = AODV by default), TCP with payload, TCP without payload, UDP, SCTP
 * carrying DATA, other SCTP, other IPv4, other.
 */
class PacketCounter : public Object
{
  public:
    /** Trace sources the counter can watch (the Source column). */
    enum Source : uint8_t
    {
        WIFI_PHY_TX = 0,     //!< WifiPhy PhyTxBegin: every frame put on the air
        WIFI_PHY_RX_DROP,    //!< WifiPhy PhyRxDrop: a frame the PHY did not receive
        WIFI_MAC_TX,         //!< WifiMac MacTx: a packet handed to the MAC for sending
        WIFI_MAC_DROP,       //!< WifiMac DroppedMpdu: queue overflow, lifetime, retry limit;
                             //!< and, by WatchWifiRtsRetryLimit, the RTS of a frame given up
                             //!< at the RTS retry limit (NS-2 traces it as a drop of its own)
        IPV4_DROP,           //!< Ipv4L3Protocol Drop: no route, TTL, route error...
        ARP_DROP,            //!< ArpL3Protocol Drop: ARP pending queue overflow / no reply
        WIFI_PHY_RX_ERROR,   //!< WifiPhyStateHelper RxError: a received frame failed to decode
        WIFI_MAC_RX,         //!< WifiMac MacRx: a packet the MAC received and passed up
        NS2_COLLISION_DROP,  //!< SensitivityFilteredYansWifiPhy Ns2CollisionDrop: a decodable
                             //!< frame lost to NS-2's collision rule; reason 0: NS-2 traces
                             //!< it (COL line), 1: NS-2 frees it untraced (for another node)
        N_SOURCES
    };

    /** Packet classes (the Class column). */
    enum PacketClass : uint8_t
    {
        RTS = 0,
        CTS,
        ACK,
        CONTROL_OTHER,
        MANAGEMENT,
        ARP,
        ROUTING,
        TCP_DATA,
        TCP_CONTROL,
        UDP_DATA,
        SCTP_DATA,
        SCTP_CONTROL,
        IPV4_OTHER,
        OTHER,
        N_CLASSES
    };

    static TypeId GetTypeId();
    PacketCounter();
    ~PacketCounter() override;

    /** PhyTxBegin of every WifiPhy matching \p phyPath (e.g. "/NodeList/ * /DeviceList/ * /$ns3::WifiNetDevice/Phy"). */
    bool WatchWifiPhyTx(const std::string& phyPath);
    /** PhyRxDrop of every WifiPhy matching \p phyPath; reason = WifiPhyRxfailureReason. */
    bool WatchWifiPhyRxDrop(const std::string& phyPath);
    /** RxError (payload failed to decode) of every WifiPhy matching \p phyPath. */
    bool WatchWifiPhyRxError(const std::string& phyPath);
    /** MacTx of every WifiMac matching \p macPath (".../$ns3::WifiNetDevice/Mac"). */
    bool WatchWifiMacTx(const std::string& macPath);
    /** MacRx of every WifiMac matching \p macPath. */
    bool WatchWifiMacRx(const std::string& macPath);
    /** DroppedMpdu of every WifiMac matching \p macPath; reason = WifiMacDropReason. */
    bool WatchWifiMacDrop(const std::string& macPath);
    /**
     * MacTxFinalRtsFailed of every WifiRemoteStationManager matching \p managerPath
     * (".../$ns3::WifiNetDevice/RemoteStationManager"): a frame given up because its RTS
     * reached the retry limit, counted as a drop of the RTS itself (source WIFI_MAC_DROP,
     * class RTS, reason WIFI_MAC_DROP_REACHED_RETRY_LIMIT).
     *
     * This is NS-2.35's count: Mac802_11::RetransmitRTS (mac/mac-802_11.cc), when ssrc_
     * reaches ShortRetryLimit_, calls discard() twice, on pktRTS_ and then on pktTx_, and
     * discard() traces a "d ... MAC ... RET" line for each (an RTS whose transmitter is
     * this node, a data frame this node sent). ns-3 reports the data frame through
     * DroppedMpdu (WatchWifiMacDrop) and nothing for its RTS; this adds the RTS's line. A
     * frame given up when its DATA misses the ACK (RetransmitDATA, slrc_ or ssrc_ at its
     * limit) is discarded once in NS-2: one line, the DroppedMpdu, nothing added here
     * (MacTxFinalDataFailed is not watched).
     */
    bool WatchWifiRtsRetryLimit(const std::string& managerPath);
    /**
     * Ns2CollisionDrop of every SensitivityFilteredYansWifiPhy matching \p phyPath: the
     * decodable frames NS-2's collision rule lost, by class (the frame's own), reason 0 if
     * NS-2's Mac802_11::discard() writes a COL line for it, 1 if it frees it untraced.
     */
    bool WatchNs2CollisionDrops(const std::string& phyPath);
    /** Drop of every Ipv4L3Protocol matching \p ipv4Path ("/NodeList/ * /$ns3::Ipv4L3Protocol"); reason = DropReason. */
    bool WatchIpv4Drop(const std::string& ipv4Path);
    /** Drop of every ArpL3Protocol matching \p arpPath ("/NodeList/ * /$ns3::ArpL3Protocol"). */
    bool WatchArpDrop(const std::string& arpPath);

    /** Class of a packet that starts with an LLC/SNAP header (what the MAC sends and receives). */
    PacketClass ClassifyLlcPacket(Ptr<const Packet> packet) const;
    /** Class of a wifi frame as seen by the PHY (MAC header, body, FCS). */
    PacketClass ClassifyWifiFrame(Ptr<const Packet> packet) const;
    /** Class of an IPv4 packet given its header and its payload. */
    PacketClass ClassifyIpv4(const Ipv4Header& header, Ptr<const Packet> payload) const;

    /** Add \p count to a counter directly (for tests and for C++ models). */
    void Add(uint32_t node, Source source, PacketClass packetClass, uint16_t reason, uint64_t count);
    /** Value of one counter (0 if never incremented). */
    uint64_t Get(uint32_t node, Source source, PacketClass packetClass, uint16_t reason) const;
    /** Sum over nodes and reasons of one source and class. */
    uint64_t Total(Source source, PacketClass packetClass) const;

    /** Number of distinct keys counted so far. */
    std::size_t GetN() const;
    /** Forget every count (watched sources stay connected). */
    void Clear();

    /**
     * Copy the counters into the column vectors below, sorted by key, so that
     * the table is in a deterministic order. Call before reading the columns.
     */
    void Snapshot();
    const std::vector<uint32_t>& GetNodes() const;
    const std::vector<uint8_t>& GetSources() const;
    const std::vector<uint8_t>& GetClasses() const;
    const std::vector<uint16_t>& GetReasons() const;
    const std::vector<uint64_t>& GetCounts() const;

    /** Name of a source (column values in Python). */
    static std::string GetSourceName(uint8_t source);
    /** Name of a packet class. */
    static std::string GetClassName(uint8_t packetClass);
    /** Node id in a trace context "/NodeList/<id>/...", or UINT32_MAX. */
    static uint32_t NodeFromContext(const std::string& context);

  protected:
    void DoDispose() override;

  private:
    static uint64_t Key(uint32_t node, uint8_t source, uint8_t packetClass, uint16_t reason);
    void Count(const std::string& context, Source source, PacketClass packetClass, uint16_t reason);

    void PhyTx(std::string context, Ptr<const Packet> packet, double txPowerW);
    void PhyRxDrop(std::string context, Ptr<const Packet> packet, WifiPhyRxfailureReason reason);
    void PhyRxError(std::string context, Ptr<const Packet> packet, double snr);
    void MacTx(std::string context, Ptr<const Packet> packet);
    void MacRx(std::string context, Ptr<const Packet> packet);
    void MacDrop(std::string context, WifiMacDropReason reason, Ptr<const WifiMpdu> mpdu);
    void FinalRtsFailed(std::string context, Mac48Address receiver);
    void Ns2CollisionDrop(std::string context, Ptr<const WifiPpdu> ppdu, bool ns2Traces);
    void Ipv4Drop(std::string context,
                  const Ipv4Header& header,
                  Ptr<const Packet> packet,
                  Ipv4L3Protocol::DropReason reason,
                  Ptr<Ipv4> ipv4,
                  uint32_t interface);
    void ArpDrop(std::string context, Ptr<const Packet> packet);

    uint16_t m_routingPort; //!< UDP port of the routing protocol (attribute)
    std::unordered_map<uint64_t, uint64_t> m_counts;
    std::unordered_map<std::string, uint32_t> m_contextNodes; //!< parsed context cache

    std::vector<uint32_t> m_nodes;
    std::vector<uint8_t> m_sources;
    std::vector<uint8_t> m_classes;
    std::vector<uint16_t> m_reasons;
    std::vector<uint64_t> m_values;
};

} // namespace ns3

#endif // PACKET_COUNTER_H
