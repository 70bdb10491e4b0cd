#include "agent-trace-recorder.h"

#include "ns3/callback.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-header.h"
#include "ns3/udp-header.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AgentTraceRecorder");
NS_OBJECT_ENSURE_REGISTERED(AgentTraceRecorder);

namespace
{
constexpr uint8_t PROTO_TCP = 6;
constexpr uint8_t PROTO_UDP = 17;
constexpr uint8_t PROTO_SCTP = 132;
constexpr uint16_t AODV_PORT = 654;
constexpr uint32_t SCTP_COMMON_HEADER = 12;
} // namespace

TypeId
AgentTraceRecorder::GetTypeId()
{
    static TypeId tid = TypeId("ns3::AgentTraceRecorder")
                            .SetParent<Object>()
                            .SetGroupName("Internet")
                            .AddConstructor<AgentTraceRecorder>();
    return tid;
}

AgentTraceRecorder::AgentTraceRecorder()
{
    NS_LOG_FUNCTION(this);
}

AgentTraceRecorder::~AgentTraceRecorder()
{
    NS_LOG_FUNCTION(this);
}

void
AgentTraceRecorder::SetPeer(Ipv4Address peer)
{
    m_peer = peer;
}

bool
AgentTraceRecorder::Watch(Ptr<Ipv4L3Protocol> ipv4)
{
    NS_LOG_FUNCTION(this << ipv4);
    Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t> sent(
        [this](const Ipv4Header& h, Ptr<const Packet> p, uint32_t) { Record(0, h, p); });
    Callback<void, const Ipv4Header&, Ptr<const Packet>, uint32_t> received(
        [this](const Ipv4Header& h, Ptr<const Packet> p, uint32_t) { Record(1, h, p); });
    bool ok = ipv4->TraceConnectWithoutContext("SendOutgoing", sent);
    return ipv4->TraceConnectWithoutContext("LocalDeliver", received) && ok;
}

void
AgentTraceRecorder::Record(uint8_t kind, const Ipv4Header& header, Ptr<const Packet> packet)
{
    if (header.GetSource() != m_peer && header.GetDestination() != m_peer)
    {
        return;
    }
    uint8_t protocol = header.GetProtocol();
    uint32_t size = packet->GetSize();
    uint32_t payload = 0;
    uint8_t chunkType = 255;
    if (protocol == PROTO_UDP)
    {
        UdpHeader udp;
        packet->PeekHeader(udp);
        if (udp.GetDestinationPort() == AODV_PORT || udp.GetSourcePort() == AODV_PORT)
        {
            return;
        }
        payload = size - udp.GetSerializedSize();
    }
    else if (protocol == PROTO_TCP)
    {
        TcpHeader tcp;
        packet->PeekHeader(tcp);
        payload = size - tcp.GetSerializedSize();
    }
    else if (protocol == PROTO_SCTP)
    {
        payload = size > SCTP_COMMON_HEADER ? size - SCTP_COMMON_HEADER : 0;
        if (size > SCTP_COMMON_HEADER)
        {
            uint8_t bytes[SCTP_COMMON_HEADER + 1];
            packet->CopyData(bytes, SCTP_COMMON_HEADER + 1);
            chunkType = bytes[SCTP_COMMON_HEADER];
        }
    }
    else
    {
        return;
    }
    m_kinds.push_back(kind);
    m_times.push_back(Simulator::Now().GetNanoSeconds());
    m_sources.push_back(header.GetSource().Get());
    m_destinations.push_back(header.GetDestination().Get());
    m_ids.push_back(header.GetIdentification());
    m_protocols.push_back(protocol);
    m_sizes.push_back(size);
    m_payloads.push_back(payload);
    m_chunkTypes.push_back(chunkType);
}

uint32_t
AgentTraceRecorder::GetN() const
{
    return m_kinds.size();
}

const std::vector<uint8_t>&
AgentTraceRecorder::GetKinds() const
{
    return m_kinds;
}

const std::vector<int64_t>&
AgentTraceRecorder::GetTimesNs() const
{
    return m_times;
}

const std::vector<uint32_t>&
AgentTraceRecorder::GetSources() const
{
    return m_sources;
}

const std::vector<uint32_t>&
AgentTraceRecorder::GetDestinations() const
{
    return m_destinations;
}

const std::vector<uint16_t>&
AgentTraceRecorder::GetIdentifications() const
{
    return m_ids;
}

const std::vector<uint8_t>&
AgentTraceRecorder::GetProtocols() const
{
    return m_protocols;
}

const std::vector<uint32_t>&
AgentTraceRecorder::GetSizes() const
{
    return m_sizes;
}

const std::vector<uint32_t>&
AgentTraceRecorder::GetPayloads() const
{
    return m_payloads;
}

const std::vector<uint8_t>&
AgentTraceRecorder::GetChunkTypes() const
{
    return m_chunkTypes;
}

} // namespace ns3
