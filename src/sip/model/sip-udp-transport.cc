#include "sip-udp-transport.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/udp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipUdpTransport");

NS_OBJECT_ENSURE_REGISTERED(SipUdpTransport);

TypeId
SipUdpTransport::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SipUdpTransport")
                            .SetParent<SipTransport>()
                            .SetGroupName("Sip")
                            .AddConstructor<SipUdpTransport>();
    return tid;
}

SipUdpTransport::SipUdpTransport() = default;

SipUdpTransport::~SipUdpTransport() = default;

void
SipUdpTransport::DoDispose()
{
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket = nullptr; // no Close(): the node may be gone already
    }
    SipTransport::DoDispose();
}

void
SipUdpTransport::Start(Ptr<Node> node, Ipv4Address localAddress)
{
    if (m_socket)
    {
        return;
    }
    m_node = node;
    m_localAddress = localAddress;
    m_socket = Socket::CreateSocket(node, UdpSocketFactory::GetTypeId());
    if (m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0)
    {
        NS_FATAL_ERROR("SipUdpTransport: cannot bind port " << m_port << " on node "
                                                            << node->GetId());
    }
    m_socket->SetRecvCallback(MakeCallback(&SipUdpTransport::HandleRead, this));
}

void
SipUdpTransport::Stop()
{
    if (m_socket)
    {
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        m_socket->Close();
        m_socket = nullptr;
    }
}

bool
SipUdpTransport::Send(Ptr<const SipMessage> message, const SipDestination& destination)
{
    if (!m_socket)
    {
        return false;
    }
    const std::string text = message->Serialize();
    Ptr<Packet> packet =
        Create<Packet>(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    const int sent =
        m_socket->SendTo(packet, 0, InetSocketAddress(destination.address, destination.port));
    SipTransportEvent event;
    event.peer = destination.address;
    event.peerPort = destination.port;
    event.size = static_cast<uint32_t>(text.size());
    if (sent < 0)
    {
        NS_LOG_WARN("UDP send to " << destination.address << " failed");
        return false;
    }
    NotifySent(message, event);
    return true;
}

bool
SipUdpTransport::IsReliable() const
{
    return false;
}

std::string
SipUdpTransport::GetProtocolName() const
{
    return "UDP";
}

void
SipUdpTransport::HandleRead(Ptr<Socket> socket)
{
    Address from;
    while (Ptr<Packet> packet = socket->RecvFrom(from))
    {
        if (!InetSocketAddress::IsMatchingType(from) || packet->GetSize() == 0)
        {
            continue;
        }
        const InetSocketAddress inet = InetSocketAddress::ConvertFrom(from);
        std::string text(packet->GetSize(), '\0');
        packet->CopyData(reinterpret_cast<uint8_t*>(text.data()), packet->GetSize());
        SipSource source;
        source.address = inet.GetIpv4();
        source.port = inet.GetPort();
        Deliver(text, source);
    }
}

} // namespace ns3
