#include "packet-counter.h"

#include "ns3/config.h"
#include "ns3/llc-snap-header.h"
#include "ns3/log.h"
#include "ns3/tcp-header.h"
#include "ns3/udp-header.h"
#include "ns3/uinteger.h"
#include "ns3/wifi-mac-header.h"
#include "ns3/wifi-psdu.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PacketCounter");
NS_OBJECT_ENSURE_REGISTERED(PacketCounter);

namespace
{
constexpr uint16_t ETHERTYPE_IPV4 = 0x0800;
constexpr uint16_t ETHERTYPE_ARP = 0x0806;
constexpr uint8_t IP_PROTOCOL_TCP = 6;
constexpr uint8_t IP_PROTOCOL_UDP = 17;
constexpr uint8_t IP_PROTOCOL_SCTP = 132;
constexpr uint32_t SCTP_COMMON_HEADER_SIZE = 12;
constexpr uint8_t SCTP_CHUNK_DATA = 0;
// Smallest well-formed headers; shorter packets are not parsed (a Deserialize past the end
// of a buffer is a fatal assertion, which would kill the Python process).
constexpr uint32_t MIN_WIFI_CONTROL_SIZE = 10;
constexpr uint32_t MIN_WIFI_DATA_HEADER_SIZE = 24;
constexpr uint32_t LLC_SNAP_SIZE = 8;
constexpr uint32_t MIN_IPV4_HEADER_SIZE = 20;
constexpr uint32_t UDP_HEADER_SIZE = 8;
constexpr uint32_t MIN_TCP_HEADER_SIZE = 20;

const std::array<const char*, PacketCounter::N_SOURCES> SOURCE_NAMES = {
    "wifi-phy-tx",
    "wifi-phy-rx-drop",
    "wifi-mac-tx",
    "wifi-mac-drop",
    "ipv4-drop",
    "arp-drop",
    "wifi-phy-rx-error",
    "wifi-mac-rx",
    "ns2-collision-drop",
};

const std::array<const char*, PacketCounter::N_CLASSES> CLASS_NAMES = {
    "rts",
    "cts",
    "ack",
    "control-other",
    "management",
    "arp",
    "routing",
    "tcp-data",
    "tcp-control",
    "udp-data",
    "sctp-data",
    "sctp-control",
    "ipv4-other",
    "other",
};
} // namespace

TypeId
PacketCounter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PacketCounter")
            .SetParent<Object>()
            .SetGroupName("Recorder")
            .AddConstructor<PacketCounter>()
            .AddAttribute("RoutingUdpPort",
                          "UDP port whose packets are classed as routing packets "
                          "(654 = AODV, RFC 3561).",
                          UintegerValue(654),
                          MakeUintegerAccessor(&PacketCounter::m_routingPort),
                          MakeUintegerChecker<uint16_t>());
    return tid;
}

PacketCounter::PacketCounter()
    : m_routingPort(654)
{
    NS_LOG_FUNCTION(this);
}

PacketCounter::~PacketCounter()
{
    NS_LOG_FUNCTION(this);
}

void
PacketCounter::DoDispose()
{
    // Keep the counts: Python usually reads them after Simulator::Destroy().
    Object::DoDispose();
}

uint64_t
PacketCounter::Key(uint32_t node, uint8_t source, uint8_t packetClass, uint16_t reason)
{
    return (static_cast<uint64_t>(node) << 32) | (static_cast<uint64_t>(source) << 24) |
           (static_cast<uint64_t>(packetClass) << 16) | reason;
}

uint32_t
PacketCounter::NodeFromContext(const std::string& context)
{
    static const std::string prefix = "/NodeList/";
    if (context.compare(0, prefix.size(), prefix) != 0)
    {
        return std::numeric_limits<uint32_t>::max();
    }
    const char* start = context.c_str() + prefix.size();
    char* end = nullptr;
    unsigned long node = std::strtoul(start, &end, 10);
    if (end == start)
    {
        return std::numeric_limits<uint32_t>::max();
    }
    return static_cast<uint32_t>(node);
}

void
PacketCounter::Count(const std::string& context,
                     Source source,
                     PacketClass packetClass,
                     uint16_t reason)
{
    ++m_counts[Key(NodeFromContext(context), source, packetClass, reason)];
}

void
PacketCounter::Add(uint32_t node,
                   Source source,
                   PacketClass packetClass,
                   uint16_t reason,
                   uint64_t count)
{
    m_counts[Key(node, source, packetClass, reason)] += count;
}

uint64_t
PacketCounter::Get(uint32_t node, Source source, PacketClass packetClass, uint16_t reason) const
{
    auto it = m_counts.find(Key(node, source, packetClass, reason));
    return it == m_counts.end() ? 0 : it->second;
}

uint64_t
PacketCounter::Total(Source source, PacketClass packetClass) const
{
    uint64_t total = 0;
    for (const auto& [key, count] : m_counts)
    {
        if (((key >> 24) & 0xff) == source && ((key >> 16) & 0xff) == packetClass)
        {
            total += count;
        }
    }
    return total;
}

std::size_t
PacketCounter::GetN() const
{
    return m_counts.size();
}

void
PacketCounter::Clear()
{
    m_counts.clear();
}

// --- connections -------------------------------------------------------------------------

bool
PacketCounter::WatchWifiPhyTx(const std::string& phyPath)
{
    return Config::ConnectFailSafe(phyPath + "/PhyTxBegin",
                                   MakeCallback(&PacketCounter::PhyTx, this));
}

bool
PacketCounter::WatchWifiPhyRxDrop(const std::string& phyPath)
{
    return Config::ConnectFailSafe(phyPath + "/PhyRxDrop",
                                   MakeCallback(&PacketCounter::PhyRxDrop, this));
}

bool
PacketCounter::WatchWifiPhyRxError(const std::string& phyPath)
{
    return Config::ConnectFailSafe(phyPath + "/State/RxError",
                                   MakeCallback(&PacketCounter::PhyRxError, this));
}

bool
PacketCounter::WatchWifiMacTx(const std::string& macPath)
{
    return Config::ConnectFailSafe(macPath + "/MacTx", MakeCallback(&PacketCounter::MacTx, this));
}

bool
PacketCounter::WatchWifiMacRx(const std::string& macPath)
{
    return Config::ConnectFailSafe(macPath + "/MacRx", MakeCallback(&PacketCounter::MacRx, this));
}

bool
PacketCounter::WatchWifiMacDrop(const std::string& macPath)
{
    return Config::ConnectFailSafe(macPath + "/DroppedMpdu",
                                   MakeCallback(&PacketCounter::MacDrop, this));
}

bool
PacketCounter::WatchWifiRtsRetryLimit(const std::string& managerPath)
{
    return Config::ConnectFailSafe(managerPath + "/MacTxFinalRtsFailed",
                                   MakeCallback(&PacketCounter::FinalRtsFailed, this));
}

bool
PacketCounter::WatchNs2CollisionDrops(const std::string& phyPath)
{
    return Config::ConnectFailSafe(phyPath +
                                       "/$ns3::SensitivityFilteredYansWifiPhy/Ns2CollisionDrop",
                                   MakeCallback(&PacketCounter::Ns2CollisionDrop, this));
}

bool
PacketCounter::WatchIpv4Drop(const std::string& ipv4Path)
{
    return Config::ConnectFailSafe(ipv4Path + "/Drop",
                                   MakeCallback(&PacketCounter::Ipv4Drop, this));
}

bool
PacketCounter::WatchArpDrop(const std::string& arpPath)
{
    return Config::ConnectFailSafe(arpPath + "/Drop", MakeCallback(&PacketCounter::ArpDrop, this));
}

// --- sinks -------------------------------------------------------------------------------

void
PacketCounter::PhyTx(std::string context, Ptr<const Packet> packet, double /* txPowerW */)
{
    Count(context, WIFI_PHY_TX, ClassifyWifiFrame(packet), 0);
}

void
PacketCounter::PhyRxDrop(std::string context,
                         Ptr<const Packet> packet,
                         WifiPhyRxfailureReason reason)
{
    Count(context, WIFI_PHY_RX_DROP, ClassifyWifiFrame(packet), static_cast<uint16_t>(reason));
}

void
PacketCounter::PhyRxError(std::string context, Ptr<const Packet> packet, double /* snr */)
{
    Count(context, WIFI_PHY_RX_ERROR, ClassifyWifiFrame(packet), 0);
}

void
PacketCounter::MacTx(std::string context, Ptr<const Packet> packet)
{
    Count(context, WIFI_MAC_TX, ClassifyLlcPacket(packet), 0);
}

void
PacketCounter::MacRx(std::string context, Ptr<const Packet> packet)
{
    Count(context, WIFI_MAC_RX, ClassifyLlcPacket(packet), 0);
}

void
PacketCounter::MacDrop(std::string context, WifiMacDropReason reason, Ptr<const WifiMpdu> mpdu)
{
    PacketClass packetClass = OTHER;
    const WifiMacHeader& header = mpdu->GetHeader();
    if (header.IsData())
    {
        packetClass = ClassifyLlcPacket(mpdu->GetPacket());
    }
    else if (header.IsMgt())
    {
        packetClass = MANAGEMENT;
    }
    else if (header.IsCtl())
    {
        packetClass = CONTROL_OTHER;
    }
    Count(context, WIFI_MAC_DROP, packetClass, static_cast<uint16_t>(reason));
}

void
PacketCounter::FinalRtsFailed(std::string context, Mac48Address /* receiver */)
{
    // NS-2's discard(pktRTS_) in Mac802_11::RetransmitRTS: the RTS's own drop line
    Count(context,
          WIFI_MAC_DROP,
          RTS,
          static_cast<uint16_t>(WIFI_MAC_DROP_REACHED_RETRY_LIMIT));
}

void
PacketCounter::Ns2CollisionDrop(std::string context, Ptr<const WifiPpdu> ppdu, bool ns2Traces)
{
    auto psdu = ppdu->GetPsdu();
    const PacketClass packetClass = psdu ? ClassifyWifiFrame(psdu->GetPacket()) : OTHER;
    Count(context, NS2_COLLISION_DROP, packetClass, ns2Traces ? 0 : 1);
}

void
PacketCounter::Ipv4Drop(std::string context,
                        const Ipv4Header& header,
                        Ptr<const Packet> packet,
                        Ipv4L3Protocol::DropReason reason,
                        Ptr<Ipv4> /* ipv4 */,
                        uint32_t /* interface */)
{
    Count(context, IPV4_DROP, ClassifyIpv4(header, packet), static_cast<uint16_t>(reason));
}

void
PacketCounter::ArpDrop(std::string context, Ptr<const Packet> packet)
{
    // ARP's pending queue holds IP payloads without their IPv4 header: not classifiable.
    Count(context, ARP_DROP, OTHER, 0);
}

// --- classification ----------------------------------------------------------------------

PacketCounter::PacketClass
PacketCounter::ClassifyWifiFrame(Ptr<const Packet> packet) const
{
    if (packet->GetSize() < MIN_WIFI_CONTROL_SIZE)
    {
        return OTHER;
    }
    uint8_t frameControl[2];
    packet->CopyData(frameControl, 2);
    const uint8_t type = (frameControl[0] >> 2) & 0x3;
    const uint8_t subtype = (frameControl[0] >> 4) & 0xf;
    if (type == 1) // control
    {
        switch (subtype)
        {
        case 11:
            return RTS;
        case 12:
            return CTS;
        case 13:
            return ACK;
        default:
            return CONTROL_OTHER;
        }
    }
    if (type == 0)
    {
        return MANAGEMENT;
    }
    if (type != 2 || packet->GetSize() < MIN_WIFI_DATA_HEADER_SIZE)
    {
        return OTHER;
    }
    Ptr<Packet> copy = packet->Copy();
    WifiMacHeader header;
    copy->RemoveHeader(header);
    if (!header.HasData())
    {
        return OTHER;
    }
    return ClassifyLlcPacket(copy);
}

PacketCounter::PacketClass
PacketCounter::ClassifyLlcPacket(Ptr<const Packet> packet) const
{
    if (packet->GetSize() < LLC_SNAP_SIZE)
    {
        return OTHER;
    }
    Ptr<Packet> copy = packet->Copy();
    LlcSnapHeader llc;
    copy->RemoveHeader(llc);
    if (llc.GetType() == ETHERTYPE_ARP)
    {
        return ARP;
    }
    if (llc.GetType() != ETHERTYPE_IPV4 || copy->GetSize() < MIN_IPV4_HEADER_SIZE)
    {
        return OTHER;
    }
    uint8_t versionIhl = 0;
    copy->CopyData(&versionIhl, 1);
    if ((versionIhl >> 4) != 4 || copy->GetSize() < 4u * (versionIhl & 0xf))
    {
        return OTHER;
    }
    Ipv4Header ip;
    copy->RemoveHeader(ip);
    return ClassifyIpv4(ip, copy);
}

PacketCounter::PacketClass
PacketCounter::ClassifyIpv4(const Ipv4Header& header, Ptr<const Packet> payload) const
{
    if (header.GetFragmentOffset() != 0)
    {
        return IPV4_OTHER; // no transport header in a non-first fragment
    }
    // The IP header's length, not the buffer's: a frame seen by the PHY still ends with the
    // 4-byte FCS, which would make every pure TCP ACK look like a segment with data.
    const uint32_t size = std::min<uint32_t>(payload->GetSize(), header.GetPayloadSize());
    switch (header.GetProtocol())
    {
    case IP_PROTOCOL_UDP: {
        if (size < UDP_HEADER_SIZE)
        {
            return IPV4_OTHER;
        }
        UdpHeader udp;
        payload->PeekHeader(udp);
        if (udp.GetSourcePort() == m_routingPort || udp.GetDestinationPort() == m_routingPort)
        {
            return ROUTING;
        }
        return UDP_DATA;
    }
    case IP_PROTOCOL_TCP: {
        if (size < MIN_TCP_HEADER_SIZE)
        {
            return IPV4_OTHER;
        }
        uint8_t fixed[MIN_TCP_HEADER_SIZE];
        payload->CopyData(fixed, MIN_TCP_HEADER_SIZE);
        const uint32_t headerLength = 4u * (fixed[12] >> 4);
        if (headerLength < MIN_TCP_HEADER_SIZE || headerLength > size)
        {
            return IPV4_OTHER;
        }
        return size > headerLength ? TCP_DATA : TCP_CONTROL;
    }
    case IP_PROTOCOL_SCTP: {
        if (size < SCTP_COMMON_HEADER_SIZE + 4)
        {
            return SCTP_CONTROL;
        }
        std::vector<uint8_t> bytes(size);
        payload->CopyData(bytes.data(), size);
        uint32_t offset = SCTP_COMMON_HEADER_SIZE;
        while (offset + 4 <= size)
        {
            const uint8_t chunkType = bytes[offset];
            const uint32_t chunkLength = (uint32_t(bytes[offset + 2]) << 8) | bytes[offset + 3];
            if (chunkType == SCTP_CHUNK_DATA)
            {
                return SCTP_DATA;
            }
            if (chunkLength < 4)
            {
                break;
            }
            offset += (chunkLength + 3) & ~3u;
        }
        return SCTP_CONTROL;
    }
    default:
        return IPV4_OTHER;
    }
}

// --- results -----------------------------------------------------------------------------

void
PacketCounter::Snapshot()
{
    std::vector<std::pair<uint64_t, uint64_t>> rows(m_counts.begin(), m_counts.end());
    std::sort(rows.begin(), rows.end());
    m_nodes.clear();
    m_sources.clear();
    m_classes.clear();
    m_reasons.clear();
    m_values.clear();
    for (const auto& [key, count] : rows)
    {
        m_nodes.push_back(static_cast<uint32_t>(key >> 32));
        m_sources.push_back(static_cast<uint8_t>((key >> 24) & 0xff));
        m_classes.push_back(static_cast<uint8_t>((key >> 16) & 0xff));
        m_reasons.push_back(static_cast<uint16_t>(key & 0xffff));
        m_values.push_back(count);
    }
}

const std::vector<uint32_t>&
PacketCounter::GetNodes() const
{
    return m_nodes;
}

const std::vector<uint8_t>&
PacketCounter::GetSources() const
{
    return m_sources;
}

const std::vector<uint8_t>&
PacketCounter::GetClasses() const
{
    return m_classes;
}

const std::vector<uint16_t>&
PacketCounter::GetReasons() const
{
    return m_reasons;
}

const std::vector<uint64_t>&
PacketCounter::GetCounts() const
{
    return m_values;
}

std::string
PacketCounter::GetSourceName(uint8_t source)
{
    return source < N_SOURCES ? SOURCE_NAMES[source] : "unknown";
}

std::string
PacketCounter::GetClassName(uint8_t packetClass)
{
    return packetClass < N_CLASSES ? CLASS_NAMES[packetClass] : "unknown";
}

} // namespace ns3
