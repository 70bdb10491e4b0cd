#include "sip-transport.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipTransport");

NS_OBJECT_ENSURE_REGISTERED(SipTransport);

TypeId
SipTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SipTransport")
            .SetParent<Object>()
            .SetGroupName("Sip")
            .AddAttribute("Port",
                          "Port the transport listens on (and writes in Via sent-by).",
                          UintegerValue(5060),
                          MakeUintegerAccessor(&SipTransport::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddTraceSource("Tx",
                            "A SIP message was handed to a socket.",
                            MakeTraceSourceAccessor(&SipTransport::m_txTrace),
                            "ns3::SipTransport::MessageTracedCallback")
            .AddTraceSource("Rx",
                            "A well-formed SIP message was received.",
                            MakeTraceSourceAccessor(&SipTransport::m_rxTrace),
                            "ns3::SipTransport::MessageTracedCallback")
            .AddTraceSource("Drop",
                            "Received bytes were discarded as malformed (reason, size).",
                            MakeTraceSourceAccessor(&SipTransport::m_dropTrace),
                            "ns3::SipTransport::DropTracedCallback");
    return tid;
}

SipTransport::SipTransport()
    : m_port(5060)
{
}

SipTransport::~SipTransport() = default;

void
SipTransport::DoDispose()
{
    m_node = nullptr;
    m_receive = MakeNullCallback<void, Ptr<SipMessage>, const SipSource&>();
    m_error = MakeNullCallback<void, Ipv4Address, uint16_t>();
    Object::DoDispose();
}

void
SipTransport::ReleaseStreamKey(const std::string& key)
{
}

uint16_t
SipTransport::GetPort() const
{
    return m_port;
}

void
SipTransport::SetReceiveCallback(ReceiveCallback callback)
{
    m_receive = callback;
}

void
SipTransport::SetErrorCallback(ErrorCallback callback)
{
    m_error = callback;
}

void
SipTransport::Deliver(const std::string& text, const SipSource& source)
{
    std::string error;
    Ptr<SipMessage> message = SipMessage::Parse(text, &error);
    if (!message)
    {
        NS_LOG_WARN("dropping malformed message from " << source.address << ":" << source.port
                                                       << ": " << error);
        m_dropTrace(error, static_cast<uint32_t>(text.size()));
        return;
    }
    SipTransportEvent event;
    event.peer = source.address;
    event.peerPort = source.port;
    event.connection = source.connection;
    event.stream = source.stream;
    event.size = static_cast<uint32_t>(text.size());
    MessageParsed(message, source);
    m_rxTrace(message, event);
    if (!m_receive.IsNull())
    {
        m_receive(message, source);
    }
}

void
SipTransport::MessageParsed(Ptr<SipMessage> message, const SipSource& source)
{
}

void
SipTransport::NotifySent(Ptr<const SipMessage> message, const SipTransportEvent& event)
{
    m_txTrace(message, event);
}

void
SipTransport::NotifyError(Ipv4Address address, uint16_t port)
{
    if (!m_error.IsNull())
    {
        m_error(address, port);
    }
}

} // namespace ns3
