#include "sip-stream-transport.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipStreamTransport");

NS_OBJECT_ENSURE_REGISTERED(SipStreamTransport);

TypeId
SipStreamTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SipStreamTransport")
            .SetParent<SipTransport>()
            .SetGroupName("Sip")
            .AddConstructor<SipStreamTransport>()
            .AddAttribute("SocketFactory",
                          "TypeId name of the socket factory (a connection-oriented transport).",
                          StringValue("ns3::TcpSocketFactory"),
                          MakeStringAccessor(&SipStreamTransport::m_socketFactory),
                          MakeStringChecker())
            .AddAttribute("MessageBoundaries",
                          "Each received packet is one whole message (SCTP); otherwise the "
                          "byte stream is framed by Content-Length (TCP).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SipStreamTransport::m_messageBoundaries),
                          MakeBooleanChecker())
            .AddAttribute("OutboundPort",
                          "Local port of connections this transport opens (0: ephemeral). "
                          "Equal to Port, connections come from the listening port, so the "
                          "peer can reuse them (one connection per pair).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SipStreamTransport::m_outboundPort),
                          MakeUintegerChecker<uint16_t>())
            .AddAttribute("ResponsesOnIncomingConnection",
                          "Send a response over the connection its request arrived on "
                          "(RFC 3261 18.2.2). False sends it like a request, by address.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SipStreamTransport::m_responsesOnIncoming),
                          MakeBooleanChecker())
            .AddAttribute("SendOnAcceptedConnections",
                          "Reuse a connection the peer opened from the destination address and "
                          "port for messages to it (RFC 3261 18 connection index).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SipStreamTransport::m_sendOnAccepted),
                          MakeBooleanChecker())
            .AddAttribute("AliasIncomingConnections",
                          "Index a connection the peer opened also under the Via sent-by of "
                          "the requests arriving on it (RFC 5923 alias), so that requests to "
                          "the peer reuse it.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&SipStreamTransport::m_alias),
                          MakeBooleanChecker());
    return tid;
}

SipStreamTransport::SipStreamTransport()
    : m_socketFactory("ns3::TcpSocketFactory"),
      m_messageBoundaries(false),
      m_outboundPort(0),
      m_responsesOnIncoming(true),
      m_sendOnAccepted(true),
      m_alias(false),
      m_nextConnectionId(1),
      m_openedCount(0)
{
}

SipStreamTransport::~SipStreamTransport() = default;

void
SipStreamTransport::DoDispose()
{
    // Called when the simulation is torn down, possibly after the nodes' protocols
    // were disposed: forget the sockets without closing them (closing would send).
    for (auto& [id, connection] : m_connections)
    {
        if (connection.socket)
        {
            connection.socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            connection.socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            connection.socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                                 MakeNullCallback<void, Ptr<Socket>>());
            connection.socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                                  MakeNullCallback<void, Ptr<Socket>>());
        }
    }
    m_connections.clear();
    m_originated.clear();
    m_accepted.clear();
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener = nullptr;
    }
    SipTransport::DoDispose();
}

void
SipStreamTransport::Start(Ptr<Node> node, Ipv4Address localAddress)
{
    if (m_listener)
    {
        return;
    }
    m_node = node;
    m_localAddress = localAddress;
    TypeId factory;
    if (!TypeId::LookupByNameFailSafe(m_socketFactory, &factory))
    {
        NS_FATAL_ERROR("SipStreamTransport: unknown socket factory " << m_socketFactory);
    }
    m_listener = Socket::CreateSocket(node, factory);
    ConfigureSocket(m_listener);
    if (m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0)
    {
        NS_FATAL_ERROR("SipStreamTransport: cannot bind port " << m_port);
    }
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&SipStreamTransport::HandleAccept, this));
}

void
SipStreamTransport::Stop()
{
    for (auto& [id, connection] : m_connections)
    {
        if (connection.socket)
        {
            connection.socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
            connection.socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
            connection.socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                                 MakeNullCallback<void, Ptr<Socket>>());
            connection.socket->SetConnectCallback(MakeNullCallback<void, Ptr<Socket>>(),
                                                  MakeNullCallback<void, Ptr<Socket>>());
            connection.socket->Close();
        }
    }
    m_connections.clear();
    m_originated.clear();
    m_accepted.clear();
    if (m_listener)
    {
        m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                      MakeNullCallback<void, Ptr<Socket>, const Address&>());
        m_listener->Close();
        m_listener = nullptr;
    }
}

bool
SipStreamTransport::IsReliable() const
{
    return true;
}

std::string
SipStreamTransport::GetProtocolName() const
{
    return "TCP";
}

uint32_t
SipStreamTransport::GetConnectionCount() const
{
    return static_cast<uint32_t>(m_connections.size());
}

uint32_t
SipStreamTransport::GetOpenedConnectionCount() const
{
    return m_openedCount;
}

Ptr<Socket>
SipStreamTransport::GetConnectionSocket(uint32_t i) const
{
    for (const auto& [id, connection] : m_connections)
    {
        if (i-- == 0)
        {
            return connection.socket;
        }
    }
    return nullptr;
}

void
SipStreamTransport::ConfigureSocket(Ptr<Socket> socket)
{
}

Ptr<Packet>
SipStreamTransport::MakePacket(const std::string& text,
                               Connection& connection,
                               const SipDestination& destination,
                               uint16_t& stream)
{
    stream = 0;
    return Create<Packet>(reinterpret_cast<const uint8_t*>(text.data()), text.size());
}

uint16_t
SipStreamTransport::GetReceivedStream(Ptr<Packet> packet) const
{
    return 0;
}

SipStreamTransport::Connection*
SipStreamTransport::FindConnection(uint64_t id)
{
    auto it = m_connections.find(id);
    return it == m_connections.end() ? nullptr : &it->second;
}

SipStreamTransport::Connection*
SipStreamTransport::FindBySocket(Ptr<Socket> socket)
{
    for (auto& [id, connection] : m_connections)
    {
        if (connection.socket == socket)
        {
            return &connection;
        }
    }
    return nullptr;
}

SipStreamTransport::Connection*
SipStreamTransport::FindForDestination(const SipDestination& destination, bool isResponse)
{
    if (isResponse && m_responsesOnIncoming && destination.connection != 0)
    {
        if (Connection* c = FindConnection(destination.connection))
        {
            return c;
        }
    }
    const auto key = std::make_pair(destination.address.Get(), destination.port);
    auto originated = m_originated.find(key);
    if (originated != m_originated.end())
    {
        return FindConnection(originated->second);
    }
    if (m_sendOnAccepted)
    {
        auto accepted = m_accepted.find(key);
        if (accepted != m_accepted.end())
        {
            return FindConnection(accepted->second);
        }
    }
    return nullptr;
}

SipStreamTransport::Connection&
SipStreamTransport::AddConnection(Ptr<Socket> socket,
                                  Ipv4Address peer,
                                  uint16_t peerPort,
                                  bool accepted)
{
    const uint64_t id = m_nextConnectionId++;
    Connection& connection = m_connections[id];
    connection.id = id;
    connection.socket = socket;
    connection.peer = peer;
    connection.peerPort = peerPort;
    connection.accepted = accepted;
    const auto key = std::make_pair(peer.Get(), peerPort);
    (accepted ? m_accepted : m_originated)[key] = id;
    return connection;
}

void
SipStreamTransport::WatchSocket(Ptr<Socket> socket)
{
    socket->SetRecvCallback(MakeCallback(&SipStreamTransport::HandleRead, this));
    socket->SetSendCallback(MakeCallback(&SipStreamTransport::HandleSendSpace, this));
    socket->SetCloseCallbacks(MakeCallback(&SipStreamTransport::HandleNormalClose, this),
                              MakeCallback(&SipStreamTransport::HandleErrorClose, this));
}

SipStreamTransport::Connection&
SipStreamTransport::OpenConnection(Ipv4Address address, uint16_t port)
{
    TypeId factory = TypeId::LookupByName(m_socketFactory);
    Ptr<Socket> socket = Socket::CreateSocket(m_node, factory);
    ConfigureSocket(socket);
    int bound = -1;
    if (m_outboundPort != 0)
    {
        bound = socket->Bind(InetSocketAddress(m_localAddress, m_outboundPort));
        if (bound != 0)
        {
            NS_LOG_WARN("cannot bind outbound port " << m_outboundPort
                                                     << "; using an ephemeral port");
        }
    }
    if (bound != 0)
    {
        socket->Bind();
    }
    ++m_openedCount;
    Connection& connection = AddConnection(socket, address, port, false);
    socket->SetConnectCallback(MakeCallback(&SipStreamTransport::HandleConnected, this),
                               MakeCallback(&SipStreamTransport::HandleConnectFailed, this));
    WatchSocket(socket);
    NS_LOG_INFO("node " << m_node->GetId() << " opens connection " << connection.id << " to "
                        << address << ":" << port);
    socket->Connect(InetSocketAddress(address, port));
    return connection;
}

bool
SipStreamTransport::Send(Ptr<const SipMessage> message, const SipDestination& destination)
{
    if (!m_listener)
    {
        return false;
    }
    Connection* connection = FindForDestination(destination, message->IsResponse());
    if (connection == nullptr)
    {
        connection = &OpenConnection(destination.address, destination.port);
    }
    const std::string text = message->Serialize();
    uint16_t stream = 0;
    Ptr<Packet> packet = MakePacket(text, *connection, destination, stream);
    SipTransportEvent event;
    event.peer = connection->peer;
    event.peerPort = connection->peerPort;
    event.connection = connection->id;
    event.stream = stream;
    event.size = static_cast<uint32_t>(text.size());
    connection->pending.emplace_back(packet, message);
    connection->pendingEvents.push_back(event);
    TrySend(*connection);
    return true;
}

void
SipStreamTransport::TrySend(Connection& connection)
{
    if (!connection.connected)
    {
        return;
    }
    while (!connection.pending.empty())
    {
        auto& [packet, message] = connection.pending.front();
        if (connection.socket->GetTxAvailable() < packet->GetSize())
        {
            return; // HandleSendSpace resumes
        }
        if (connection.socket->Send(packet) < 0)
        {
            NS_LOG_WARN("send on connection " << connection.id << " failed");
            return;
        }
        NotifySent(message, connection.pendingEvents.front());
        connection.pending.pop_front();
        connection.pendingEvents.pop_front();
    }
}

void
SipStreamTransport::HandleAccept(Ptr<Socket> socket, const Address& from)
{
    if (!InetSocketAddress::IsMatchingType(from))
    {
        socket->Close();
        return;
    }
    const InetSocketAddress inet = InetSocketAddress::ConvertFrom(from);
    Connection& connection = AddConnection(socket, inet.GetIpv4(), inet.GetPort(), true);
    connection.connected = true;
    WatchSocket(socket);
    NS_LOG_INFO("node " << m_node->GetId() << " accepts connection " << connection.id << " from "
                        << inet.GetIpv4() << ":" << inet.GetPort());
}

void
SipStreamTransport::HandleConnected(Ptr<Socket> socket)
{
    if (Connection* connection = FindBySocket(socket))
    {
        connection->connected = true;
        TrySend(*connection);
    }
}

void
SipStreamTransport::HandleConnectFailed(Ptr<Socket> socket)
{
    if (Connection* connection = FindBySocket(socket))
    {
        RemoveConnection(connection->id, true);
    }
}

void
SipStreamTransport::HandleRead(Ptr<Socket> socket)
{
    Connection* connection = FindBySocket(socket);
    if (connection == nullptr)
    {
        return;
    }
    const uint64_t id = connection->id;
    while (Ptr<Packet> packet = socket->Recv())
    {
        connection = FindConnection(id); // delivery may have changed the map
        if (connection == nullptr)
        {
            return;
        }
        if (packet->GetSize() == 0)
        {
            continue;
        }
        SipSource source;
        source.address = connection->peer;
        source.port = connection->peerPort;
        source.connection = id;
        source.stream = GetReceivedStream(packet);
        std::string bytes(packet->GetSize(), '\0');
        packet->CopyData(reinterpret_cast<uint8_t*>(bytes.data()), packet->GetSize());
        if (m_messageBoundaries)
        {
            Deliver(bytes, source);
            continue;
        }
        connection->framer.Append(bytes);
        const auto messages = connection->framer.Extract();
        const bool broken = connection->framer.HasError();
        const std::string error = connection->framer.GetError();
        for (const auto& text : messages)
        {
            Deliver(text, source);
        }
        if (broken)
        {
            NS_LOG_WARN("framing error on connection " << id << ": " << error << "; closing it");
            RemoveConnection(id, false);
            return;
        }
    }
}

void
SipStreamTransport::MessageParsed(Ptr<SipMessage> message, const SipSource& source)
{
    if (!m_alias || !message->IsRequest())
    {
        return;
    }
    Connection* connection = FindConnection(source.connection);
    sip::SipVia via;
    uint32_t address = 0;
    if (connection == nullptr || !connection->accepted || !message->GetTopVia(via) ||
        !sip::ParseIpv4(via.host, address) || address != connection->peer.Get())
    {
        return; // only a peer's own address may be aliased to its connection
    }
    const auto key = std::make_pair(address, via.GetPortOrDefault());
    if (m_accepted.find(key) == m_accepted.end())
    {
        m_accepted[key] = connection->id;
    }
}

void
SipStreamTransport::HandleSendSpace(Ptr<Socket> socket, uint32_t available)
{
    if (Connection* connection = FindBySocket(socket))
    {
        TrySend(*connection);
    }
}

void
SipStreamTransport::HandleNormalClose(Ptr<Socket> socket)
{
    if (Connection* connection = FindBySocket(socket))
    {
        RemoveConnection(connection->id, false);
    }
}

void
SipStreamTransport::HandleErrorClose(Ptr<Socket> socket)
{
    if (Connection* connection = FindBySocket(socket))
    {
        RemoveConnection(connection->id, true);
    }
}

void
SipStreamTransport::RemoveConnection(uint64_t id, bool failed)
{
    auto it = m_connections.find(id);
    if (it == m_connections.end())
    {
        return;
    }
    Connection& connection = it->second;
    for (auto* index : {&m_accepted, &m_originated})
    {
        for (auto entry = index->begin(); entry != index->end();)
        {
            entry = (entry->second == id) ? index->erase(entry) : std::next(entry);
        }
    }
    const bool undelivered = !connection.pending.empty();
    const Ipv4Address peer = connection.peer;
    const uint16_t peerPort = connection.peerPort;
    Ptr<Socket> socket = connection.socket;
    m_connections.erase(it);
    if (socket)
    {
        socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        socket->SetSendCallback(MakeNullCallback<void, Ptr<Socket>, uint32_t>());
        socket->SetCloseCallbacks(MakeNullCallback<void, Ptr<Socket>>(),
                                  MakeNullCallback<void, Ptr<Socket>>());
        socket->Close();
    }
    if (failed || undelivered)
    {
        NotifyError(peer, peerPort);
    }
}

} // namespace ns3
