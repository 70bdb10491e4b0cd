#include "sip-sctp-transport.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/sctp-message-tag.h"
#include "ns3/sctp-socket.h"
#include "ns3/uinteger.h"

#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipSctpTransport");

NS_OBJECT_ENSURE_REGISTERED(SipSctpTransport);

TypeId
SipSctpTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SipSctpTransport")
            .SetParent<SipStreamTransport>()
            .SetGroupName("Sip")
            .AddConstructor<SipSctpTransport>()
            .AddAttribute("Streams",
                          "Outbound streams requested (and inbound streams accepted) per "
                          "association.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&SipSctpTransport::m_streams),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("StreamMapping",
                          "Which stream each SIP message goes on (RFC 4168 section 5.1).",
                          EnumValue(SipSctpTransport::PER_CALL),
                          MakeEnumAccessor<StreamMapping>(&SipSctpTransport::m_mapping),
                          MakeEnumChecker(SipSctpTransport::PER_CALL,
                                          "PerCall",
                                          SipSctpTransport::SINGLE_UNORDERED,
                                          "SingleUnordered",
                                          SipSctpTransport::SINGLE_ORDERED,
                                          "SingleOrdered"))
            .AddAttribute("Ppid",
                          "Payload Protocol Identifier of the DATA chunks.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SipSctpTransport::m_ppid),
                          MakeUintegerChecker<uint32_t>());
    return tid;
}

SipSctpTransport::SipSctpTransport()
    : m_streams(16),
      m_mapping(PER_CALL),
      m_ppid(0)
{
    m_socketFactory = "ns3::SctpSocketFactory";
    m_messageBoundaries = true;
}

SipSctpTransport::~SipSctpTransport() = default;

void
SipSctpTransport::NotifyConstructionCompleted()
{
    // The base class's SocketFactory and MessageBoundaries attributes were just set
    // to their (TCP) defaults after our constructor ran.
    SipStreamTransport::NotifyConstructionCompleted();
    m_socketFactory = "ns3::SctpSocketFactory";
    m_messageBoundaries = true;
}

std::string
SipSctpTransport::GetProtocolName() const
{
    return "SCTP";
}

void
SipSctpTransport::ConfigureSocket(Ptr<Socket> socket)
{
    socket->SetAttributeFailSafe("OutboundStreams", UintegerValue(m_streams));
    socket->SetAttributeFailSafe("MaxInboundStreams", UintegerValue(m_streams));
}

uint16_t
SipSctpTransport::StreamFor(Connection& connection, const std::string& key)
{
    uint16_t count = m_streams;
    if (Ptr<SctpSocket> sctp = DynamicCast<SctpSocket>(connection.socket))
    {
        if (sctp->GetAssociation()->GetOutboundStreams() > 0)
        {
            count = sctp->GetAssociation()->GetOutboundStreams(); // as negotiated with the peer
        }
    }
    const uint64_t use = ++connection.useCounter;
    auto found = connection.streamOfKey.find(key);
    if (found != connection.streamOfKey.end() && found->second < count)
    {
        connection.streamLastUse[found->second] = use;
        return found->second;
    }
    // The lowest free stream; if all are taken, the least recently used one.
    uint16_t chosen = 0;
    bool free = false;
    for (uint16_t s = 0; s < count; ++s)
    {
        if (connection.keyOfStream.find(s) == connection.keyOfStream.end())
        {
            chosen = s;
            free = true;
            break;
        }
    }
    if (!free)
    {
        uint64_t oldest = std::numeric_limits<uint64_t>::max();
        for (uint16_t s = 0; s < count; ++s)
        {
            if (connection.streamLastUse[s] < oldest)
            {
                oldest = connection.streamLastUse[s];
                chosen = s;
            }
        }
        connection.streamOfKey.erase(connection.keyOfStream[chosen]);
    }
    connection.streamOfKey[key] = chosen;
    connection.keyOfStream[chosen] = key;
    connection.streamLastUse[chosen] = use;
    return chosen;
}

void
SipSctpTransport::ReleaseStreamKey(const std::string& key)
{
    for (auto& [id, connection] : m_connections)
    {
        auto found = connection.streamOfKey.find(key);
        if (found != connection.streamOfKey.end())
        {
            connection.keyOfStream.erase(found->second);
            connection.streamOfKey.erase(found);
        }
    }
}

Ptr<Packet>
SipSctpTransport::MakePacket(const std::string& text,
                             Connection& connection,
                             const SipDestination& destination,
                             uint16_t& stream)
{
    // RFC 4168: one SIP message, one SCTP user message.
    Ptr<Packet> packet =
        Create<Packet>(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    stream = (m_mapping == PER_CALL) ? StreamFor(connection, destination.streamKey) : 0;
    SctpSendInfoTag tag(stream, m_ppid, m_mapping == SINGLE_UNORDERED);
    packet->AddPacketTag(tag);
    return packet;
}

uint16_t
SipSctpTransport::GetReceivedStream(Ptr<Packet> packet) const
{
    SctpReceiveInfoTag tag;
    return packet->PeekPacketTag(tag) ? tag.streamId : 0;
}

} // namespace ns3
