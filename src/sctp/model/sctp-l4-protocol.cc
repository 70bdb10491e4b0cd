#include "sctp-l4-protocol.h"

#include "sctp-association.h"
#include "sctp-congestion-ops.h"
#include "sctp-crc32c.h"
#include "sctp-socket-factory.h"
#include "sctp-socket.h"

#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6-routing-protocol.h"
#include "ns3/ipv6.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/object-vector.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpL4Protocol");
NS_OBJECT_ENSURE_REGISTERED(SctpL4Protocol);

TypeId
SctpL4Protocol::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SctpL4Protocol")
            .SetParent<IpL4Protocol>()
            .SetGroupName("Sctp")
            .AddConstructor<SctpL4Protocol>()
            .AddAttribute("SocketList",
                          "The SCTP sockets of this node (listening and associations).",
                          ObjectVectorValue(),
                          MakeObjectVectorAccessor(&SctpL4Protocol::m_sockets),
                          MakeObjectVectorChecker<SctpSocket>())
            .AddAttribute("CongestionOps",
                          "The congestion control of the associations of this node's SCTP "
                          "sockets: a subclass of ns3::SctpCongestionOps (as TcpL4Protocol's "
                          "SocketType chooses TCP's).",
                          TypeIdValue(SctpRfc9260CongestionOps::GetTypeId()),
                          MakeTypeIdAccessor(&SctpL4Protocol::m_congestionTypeId),
                          MakeTypeIdChecker())
            .AddAttribute("SecretKeyLength",
                          "Bytes of the endpoint's secret key that protects State Cookies "
                          "(RFC 9260 section 5.1.3); drawn from the simulator's RNG.",
                          UintegerValue(32),
                          MakeUintegerAccessor(&SctpL4Protocol::m_secretKeyLength),
                          MakeUintegerChecker<uint32_t>(16, 64))
            .AddTraceSource("Drop",
                            "A received packet was discarded: source address and reason",
                            MakeTraceSourceAccessor(&SctpL4Protocol::m_dropTrace),
                            "ns3::SctpL4Protocol::DropTracedCallback")
            .AddTraceSource("SocketCreated",
                            "A socket was created on this node (by an application, or for a "
                            "new association accepted by a listening socket)",
                            MakeTraceSourceAccessor(&SctpL4Protocol::m_socketCreatedTrace),
                            "ns3::SctpL4Protocol::SocketTracedCallback");
    return tid;
}

SctpL4Protocol::SctpL4Protocol()
{
    m_random = CreateObject<UniformRandomVariable>();
}

SctpL4Protocol::~SctpL4Protocol() = default;

void
SctpL4Protocol::DoDispose()
{
    for (auto& s : m_sockets)
    {
        s = nullptr;
    }
    m_sockets.clear();
    m_bindings.clear();
    m_associations.clear();
    m_node = nullptr;
    m_downTarget.Nullify();
    m_downTarget6.Nullify();
    IpL4Protocol::DoDispose();
}

void
SctpL4Protocol::SetNode(Ptr<Node> node)
{
    m_node = node;
}

Ptr<Node>
SctpL4Protocol::GetNode() const
{
    return m_node;
}

void
SctpL4Protocol::NotifyNewAggregate()
{
    Ptr<Node> node = this->GetObject<Node>();
    Ptr<Ipv4> ipv4 = this->GetObject<Ipv4>();
    Ptr<Ipv6> ipv6 = node ? node->GetObject<Ipv6>() : nullptr;
    if (!m_node && node && (ipv4 || ipv6))
    {
        SetNode(node);
        Ptr<SctpSocketFactory> factory = CreateObject<SctpSocketFactory>();
        factory->SetSctp(this);
        node->AggregateObject(factory);
    }
    if (ipv4 && m_downTarget.IsNull())
    {
        ipv4->Insert(this);
        SetDownTarget(MakeCallback(&Ipv4::Send, ipv4));
    }
    if (ipv6 && m_downTarget6.IsNull())
    {
        ipv6->Insert(this);
        SetDownTarget6(MakeCallback(&Ipv6::Send, ipv6));
    }
    IpL4Protocol::NotifyNewAggregate();
}

int64_t
SctpL4Protocol::AssignStreams(int64_t stream)
{
    m_random->SetStream(stream);
    return 1;
}

int
SctpL4Protocol::GetProtocolNumber() const
{
    return PROT_NUMBER;
}

Ptr<Socket>
SctpL4Protocol::CreateSocket()
{
    Ptr<SctpSocket> socket = CreateObject<SctpSocket>();
    socket->SetNode(m_node);
    socket->SetSctp(this);
    ObjectFactory congestion(m_congestionTypeId.GetName());
    socket->SetCongestionOps(congestion.Create<SctpCongestionOps>());
    AddSocket(socket);
    return socket;
}

void
SctpL4Protocol::AddSocket(Ptr<SctpSocket> socket)
{
    m_sockets.push_back(socket);
    m_socketCreatedTrace(socket);
}

void
SctpL4Protocol::RemoveSocket(Ptr<SctpSocket> socket)
{
    // The socket may outlive its place here (its user holds it): silence its timers,
    // whose events point at it.
    socket->GetAssociation()->CancelAllTimers();
    Unbind(socket);
    UnregisterAssociation(socket->GetAssociation());
    auto it = std::find(m_sockets.begin(), m_sockets.end(), socket);
    if (it != m_sockets.end())
    {
        m_sockets.erase(it);
    }
}

const std::vector<uint8_t>&
SctpL4Protocol::GetSecretKey() const
{
    if (m_secretKey.empty())
    {
        auto* self = const_cast<SctpL4Protocol*>(this);
        self->m_secretKey.resize(m_secretKeyLength);
        for (auto& b : self->m_secretKey)
        {
            b = static_cast<uint8_t>(self->m_random->GetInteger(0, 255));
        }
    }
    return m_secretKey;
}

uint32_t
SctpL4Protocol::GenerateTag()
{
    return m_random->GetInteger(1, 0xFFFFFFFFu);
}

uint32_t
SctpL4Protocol::GenerateTsn()
{
    return m_random->GetInteger(0, 0xFFFFFFFFu);
}

uint64_t
SctpL4Protocol::GenerateNonce()
{
    uint64_t high = m_random->GetInteger(0, 0xFFFFFFFFu);
    uint64_t low = m_random->GetInteger(0, 0xFFFFFFFFu);
    uint64_t nonce = (high << 32) | low;
    return nonce == 0 ? 1 : nonce; // 0 means "no heartbeat outstanding"
}

double
SctpL4Protocol::DrawUniform(double min, double max)
{
    return m_random->GetValue(min, max);
}

uint32_t
SctpL4Protocol::GetChecksumErrors() const
{
    return m_checksumErrors;
}

uint32_t
SctpL4Protocol::GetOutOfTheBluePackets() const
{
    return m_ootbPackets;
}

uint32_t
SctpL4Protocol::GetDiscardedPackets() const
{
    return m_discardedPackets;
}

// ---------------------------------------------------------------- binding and demux

bool
SctpL4Protocol::IsPortInUse(uint16_t port,
                            const Address& address,
                            Ptr<SctpSocket> socket) const
{
    for (const auto& b : m_bindings)
    {
        if (b.port != port)
        {
            continue;
        }
        if (b.socket == socket)
        {
            continue; // BindAdd: one socket, several addresses on one port
        }
        bool anyA = (Ipv4Address::IsMatchingType(b.address) &&
                     Ipv4Address::ConvertFrom(b.address).IsAny()) ||
                    (Ipv6Address::IsMatchingType(b.address) &&
                     Ipv6Address::ConvertFrom(b.address).IsAny());
        bool anyB = (Ipv4Address::IsMatchingType(address) &&
                     Ipv4Address::ConvertFrom(address).IsAny()) ||
                    (Ipv6Address::IsMatchingType(address) &&
                     Ipv6Address::ConvertFrom(address).IsAny());
        if (anyA || anyB || b.address == address)
        {
            return true;
        }
    }
    return false;
}

uint16_t
SctpL4Protocol::AllocateEphemeralPort()
{
    for (uint32_t tries = 0; tries < 16384; ++tries)
    {
        uint16_t port = m_nextEphemeralPort;
        m_nextEphemeralPort = m_nextEphemeralPort == 65535 ? 49152 : m_nextEphemeralPort + 1;
        bool used = false;
        for (const auto& b : m_bindings)
        {
            used = used || b.port == port;
        }
        for (const auto& [key, association] : m_associations)
        {
            used = used || key.localPort == port;
        }
        if (!used)
        {
            return port;
        }
    }
    return 0;
}

bool
SctpL4Protocol::Bind(Ptr<SctpSocket> socket, const Address& address, uint16_t& port)
{
    if (port == 0)
    {
        port = AllocateEphemeralPort();
        if (port == 0)
        {
            return false;
        }
    }
    else if (IsPortInUse(port, address, socket))
    {
        return false;
    }
    m_bindings.push_back(Binding{socket, address, port});
    return true;
}

void
SctpL4Protocol::Unbind(Ptr<SctpSocket> socket)
{
    m_bindings.erase(std::remove_if(m_bindings.begin(),
                                    m_bindings.end(),
                                    [&socket](const Binding& b) { return b.socket == socket; }),
                     m_bindings.end());
}

bool
SctpL4Protocol::RegisterAssociation(Ptr<SctpAssociation> association,
                                    uint16_t localPort,
                                    uint16_t peerPort,
                                    const Address& peerAddress)
{
    auto [it, inserted] =
        m_associations.emplace(AssociationKey{localPort, peerPort, peerAddress}, association);
    if (!inserted && it->second != association)
    {
        NS_LOG_WARN("association entry " << localPort << "/" << peerPort << "/" << peerAddress
                                         << " belongs to another association: kept");
        return false;
    }
    return true;
}

Ptr<SctpAssociation>
SctpL4Protocol::FindAssociation(uint16_t localPort,
                                uint16_t peerPort,
                                const Address& peerAddress) const
{
    auto it = m_associations.find(AssociationKey{localPort, peerPort, peerAddress});
    return it == m_associations.end() ? nullptr : it->second;
}

void
SctpL4Protocol::UnregisterAssociation(Ptr<SctpAssociation> association)
{
    for (auto it = m_associations.begin(); it != m_associations.end();)
    {
        if (it->second == association)
        {
            it = m_associations.erase(it);
        }
        else
        {
            ++it;
        }
    }
}

std::vector<Ptr<SctpAssociation>>
SctpL4Protocol::GetAssociations() const
{
    std::vector<Ptr<SctpAssociation>> out;
    for (const auto& [key, association] : m_associations)
    {
        if (std::find(out.begin(), out.end(), association) == out.end())
        {
            out.push_back(association);
        }
    }
    return out;
}

Ptr<SctpSocket>
SctpL4Protocol::FindListener(uint16_t port, const Address& destination) const
{
    for (const auto& b : m_bindings)
    {
        if (b.port != port || b.socket->GetState() != SCTP_LISTEN)
        {
            continue;
        }
        bool any = (Ipv4Address::IsMatchingType(b.address) &&
                    Ipv4Address::ConvertFrom(b.address).IsAny()) ||
                   (Ipv6Address::IsMatchingType(b.address) &&
                    Ipv6Address::ConvertFrom(b.address).IsAny());
        if (any || b.address == destination)
        {
            return b.socket;
        }
    }
    return nullptr;
}

Ptr<SctpAssociation>
SctpL4Protocol::FindByListedAddress(const SctpCommonHeader& header, const SctpChunk& chunk) const
{
    SctpInitChunk init;
    if (!init.Deserialize(chunk))
    {
        return nullptr;
    }
    for (const auto& p : init.parameters)
    {
        Address listed;
        if (p.type == SctpTlv::IPV4_ADDRESS && p.value.size() == 4)
        {
            listed = Ipv4Address::Deserialize(p.value.data());
        }
        else if (p.type == SctpTlv::IPV6_ADDRESS && p.value.size() == 16)
        {
            listed = Ipv6Address::Deserialize(p.value.data());
        }
        else
        {
            continue;
        }
        auto it = m_associations.find(
            AssociationKey{header.destinationPort, header.sourcePort, listed});
        if (it != m_associations.end())
        {
            return it->second;
        }
    }
    return nullptr;
}

// ---------------------------------------------------------------- receive

IpL4Protocol::RxStatus
SctpL4Protocol::Receive(Ptr<Packet> p,
                        const Ipv4Header& header,
                        Ptr<Ipv4Interface> incomingInterface)
{
    uint32_t n = p->GetSize();
    if (m_inReceive)
    {
        std::vector<uint8_t> local(n);
        p->CopyData(local.data(), n);
        return ReceiveBytes(local.data(), n, header.GetSource(), header.GetDestination());
    }
    m_rxScratch.resize(n);
    p->CopyData(m_rxScratch.data(), n);
    return ReceiveBytes(m_rxScratch.data(), n, header.GetSource(), header.GetDestination());
}

IpL4Protocol::RxStatus
SctpL4Protocol::Receive(Ptr<Packet> p,
                        const Ipv6Header& header,
                        Ptr<Ipv6Interface> incomingInterface)
{
    uint32_t n = p->GetSize();
    std::vector<uint8_t> local(n);
    p->CopyData(local.data(), n);
    return ReceiveBytes(local.data(), n, header.GetSource(), header.GetDestination());
}

IpL4Protocol::RxStatus
SctpL4Protocol::ReceiveBytes(const uint8_t* data,
                             uint32_t length,
                             const Address& source,
                             const Address& destination)
{
    if (length < SctpCommonHeader::SIZE)
    {
        ++m_discardedPackets;
        m_dropTrace(source, "shorter than the common header");
        return RX_OK;
    }
    if (!SctpVerifyChecksum(data, length))
    {
        // Section 6.8: silently discard packets with an invalid checksum.
        ++m_checksumErrors;
        m_dropTrace(source, "bad checksum");
        return RX_CSUM_FAILED;
    }
    SctpByteReader reader(data, length);
    SctpCommonHeader header;
    header.Deserialize(reader);
    if (header.sourcePort == 0 || header.destinationPort == 0)
    {
        ++m_discardedPackets;
        m_dropTrace(source, "port 0");
        return RX_OK;
    }
    // Section 8.4 rule 1: non-unicast source addresses.
    if ((Ipv4Address::IsMatchingType(source) &&
         (Ipv4Address::ConvertFrom(source).IsBroadcast() ||
          Ipv4Address::ConvertFrom(source).IsMulticast() ||
          Ipv4Address::ConvertFrom(source).IsAny())) ||
        (Ipv6Address::IsMatchingType(source) && (Ipv6Address::ConvertFrom(source).IsMulticast() ||
                                                  Ipv6Address::ConvertFrom(source).IsAny())))
    {
        ++m_discardedPackets;
        m_dropTrace(source, "non-unicast source");
        return RX_OK;
    }

    bool wasInReceive = m_inReceive;
    std::vector<SctpChunk> localChunks;
    std::vector<SctpChunk>& chunks = wasInReceive ? localChunks : m_chunkScratch;
    chunks.clear();
    bool wellFormed = SctpSplitChunks(data + SctpCommonHeader::SIZE,
                                      length - SctpCommonHeader::SIZE,
                                      chunks);
    if (!wellFormed)
    {
        // A chunk overruns the packet: the chunks before it are processed, it is not.
        m_dropTrace(source, "malformed chunk");
    }
    if (chunks.empty())
    {
        ++m_discardedPackets;
        m_dropTrace(source, "no chunks");
        return RX_OK;
    }
    // Section 6.10: INIT, INIT ACK and SHUTDOWN COMPLETE are never bundled.
    if (chunks.size() > 1)
    {
        for (const auto& c : chunks)
        {
            if (c.type == SctpChunk::INIT || c.type == SctpChunk::INIT_ACK ||
                c.type == SctpChunk::SHUTDOWN_COMPLETE)
            {
                ++m_discardedPackets;
                m_dropTrace(source, "INIT, INIT ACK or SHUTDOWN COMPLETE bundled");
                return RX_OK;
            }
        }
    }
    // Section 8.5.1: tag 0 only with INIT; INIT only with tag 0.
    bool isInit = chunks[0].type == SctpChunk::INIT;
    if ((header.verificationTag == 0) != isInit)
    {
        ++m_discardedPackets;
        m_dropTrace(source, "verification tag 0 rule");
        return RX_OK;
    }

    m_inReceive = true;
    auto it = m_associations.find(
        AssociationKey{header.destinationPort, header.sourcePort, source});
    Ptr<SctpAssociation> listed;
    if (it == m_associations.end() &&
        (chunks[0].type == SctpChunk::INIT || chunks[0].type == SctpChunk::INIT_ACK))
    {
        listed = FindByListedAddress(header, chunks[0]);
    }
    if (it != m_associations.end())
    {
        Ptr<SctpAssociation> association = it->second; // keep alive while it processes
        association->ReceivePacket(header, chunks, source, destination);
    }
    else if (listed)
    {
        listed->ReceivePacket(header, chunks, source, destination);
    }
    else
    {
        Ptr<SctpSocket> listener = FindListener(header.destinationPort, destination);
        if (listener &&
            (chunks[0].type == SctpChunk::INIT || chunks[0].type == SctpChunk::COOKIE_ECHO))
        {
            listener->GetAssociation()->ReceivePacket(header, chunks, source, destination);
        }
        else
        {
            HandleOutOfTheBlue(header, chunks, source, destination);
        }
    }
    m_inReceive = wasInReceive;
    return RX_OK;
}

void
SctpL4Protocol::HandleOutOfTheBlue(const SctpCommonHeader& header,
                                   const std::vector<SctpChunk>& chunks,
                                   const Address& source,
                                   const Address& destination)
{
    ++m_ootbPackets;
    // Rules 2, 6, 7: never answer ABORT, SHUTDOWN COMPLETE, COOKIE ACK or a Stale Cookie.
    for (const auto& c : chunks)
    {
        if (c.type == SctpChunk::ABORT || c.type == SctpChunk::SHUTDOWN_COMPLETE ||
            c.type == SctpChunk::COOKIE_ACK)
        {
            m_dropTrace(source, "out of the blue: silently discarded");
            return;
        }
        if (c.type == SctpChunk::ERROR)
        {
            SctpErrorChunk e;
            if (e.Deserialize(c) && e.Find(SctpTlv::STALE_COOKIE_ERROR))
            {
                m_dropTrace(source, "out of the blue: stale cookie error discarded");
                return;
            }
        }
    }
    if (chunks[0].type == SctpChunk::INIT)
    {
        // Rule 3: nobody listens; the ABORT carries the INIT's Initiate Tag, T bit clear.
        SctpInitChunk init;
        if (!init.Deserialize(chunks[0]) || init.initiateTag == 0)
        {
            m_dropTrace(source, "out of the blue: malformed INIT");
            return;
        }
        SendOotbResponse(SctpChunk::ABORT, init.initiateTag, false, header, source, destination, {});
        return;
    }
    for (const auto& c : chunks)
    {
        if (c.type == SctpChunk::SHUTDOWN_ACK)
        {
            // Rule 5.
            SendOotbResponse(SctpChunk::SHUTDOWN_COMPLETE,
                             header.verificationTag,
                             true,
                             header,
                             source,
                             destination,
                             {});
            return;
        }
    }
    // Rule 8 (includes a COOKIE ECHO that no listener can take).
    SendOotbResponse(SctpChunk::ABORT, header.verificationTag, true, header, source, destination, {});
}

void
SctpL4Protocol::SendOotbResponse(uint8_t chunkType,
                                 uint32_t tag,
                                 bool tBit,
                                 const SctpCommonHeader& header,
                                 const Address& source,
                                 const Address& destination,
                                 const std::vector<SctpTlv>& causes)
{
    std::vector<uint8_t> out;
    SctpByteWriter w(out);
    SctpCommonHeader h;
    h.sourcePort = header.destinationPort;
    h.destinationPort = header.sourcePort;
    h.verificationTag = tag;
    h.Serialize(w);
    if (chunkType == SctpChunk::ABORT)
    {
        SctpErrorChunk abort;
        abort.type = SctpChunk::ABORT;
        abort.flags = tBit ? SctpChunk::FLAG_T : 0;
        abort.causes = causes;
        abort.Serialize(w);
    }
    else
    {
        SctpChunk::SerializeEmpty(w, chunkType, tBit ? SctpChunk::FLAG_T : 0);
    }
    NS_LOG_INFO("OOTB response " << SctpChunk::TypeName(chunkType) << " to " << source);
    SendPacket(out, destination, source, nullptr);
}

// ---------------------------------------------------------------- send

bool
SctpL4Protocol::SendPacket(std::vector<uint8_t>& bytes,
                           const Address& source,
                           const Address& destination,
                           Ptr<NetDevice> outputDevice)
{
    SctpWriteChecksum(bytes.data(), bytes.size());
    Ptr<Packet> packet = Create<Packet>(bytes.data(), static_cast<uint32_t>(bytes.size()));
    if (Ipv4Address::IsMatchingType(destination))
    {
        Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
        if (!ipv4 || m_downTarget.IsNull())
        {
            return false;
        }
        Ipv4Address dst = Ipv4Address::ConvertFrom(destination);
        Ipv4Address src = Ipv4Address::IsMatchingType(source) ? Ipv4Address::ConvertFrom(source)
                                                                : Ipv4Address::GetAny();
        Ipv4Header header;
        header.SetSource(src);
        header.SetDestination(dst);
        header.SetProtocol(PROT_NUMBER);
        Socket::SocketErrno err;
        Ptr<Ipv4Route> route;
        if (ipv4->GetRoutingProtocol())
        {
            route = ipv4->GetRoutingProtocol()->RouteOutput(packet, header, outputDevice, err);
        }
        if (!route)
        {
            NS_LOG_LOGIC("no route to " << dst);
            return false;
        }
        if (src.IsAny())
        {
            src = route->GetSource();
        }
        m_downTarget(packet, src, dst, PROT_NUMBER, route);
        return true;
    }
    if (Ipv6Address::IsMatchingType(destination))
    {
        Ptr<Ipv6> ipv6 = m_node->GetObject<Ipv6>();
        if (!ipv6 || m_downTarget6.IsNull())
        {
            return false;
        }
        Ipv6Address dst = Ipv6Address::ConvertFrom(destination);
        Ipv6Address src = Ipv6Address::IsMatchingType(source) ? Ipv6Address::ConvertFrom(source)
                                                                : Ipv6Address::GetAny();
        Ipv6Header header;
        header.SetSource(src);
        header.SetDestination(dst);
        header.SetNextHeader(PROT_NUMBER);
        Socket::SocketErrno err;
        Ptr<Ipv6Route> route;
        if (ipv6->GetRoutingProtocol())
        {
            route = ipv6->GetRoutingProtocol()->RouteOutput(packet, header, outputDevice, err);
        }
        if (!route)
        {
            return false;
        }
        if (src.IsAny())
        {
            src = route->GetSource();
        }
        m_downTarget6(packet, src, dst, PROT_NUMBER, route);
        return true;
    }
    return false;
}

Address
SctpL4Protocol::GetSourceAddress(const Address& destination, Ptr<NetDevice> outputDevice) const
{
    Ptr<Packet> probe = Create<Packet>();
    Socket::SocketErrno err;
    if (Ipv4Address::IsMatchingType(destination))
    {
        Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
        if (ipv4 && ipv4->GetRoutingProtocol())
        {
            Ipv4Header h;
            h.SetDestination(Ipv4Address::ConvertFrom(destination));
            h.SetProtocol(PROT_NUMBER);
            Ptr<Ipv4Route> route = ipv4->GetRoutingProtocol()->RouteOutput(probe, h, outputDevice, err);
            if (route)
            {
                return route->GetSource();
            }
        }
        return Ipv4Address::GetAny();
    }
    Ptr<Ipv6> ipv6 = m_node->GetObject<Ipv6>();
    if (ipv6 && ipv6->GetRoutingProtocol() && Ipv6Address::IsMatchingType(destination))
    {
        Ipv6Header h;
        h.SetDestination(Ipv6Address::ConvertFrom(destination));
        h.SetNextHeader(PROT_NUMBER);
        Ptr<Ipv6Route> route = ipv6->GetRoutingProtocol()->RouteOutput(probe, h, outputDevice, err);
        if (route)
        {
            return route->GetSource();
        }
    }
    return Ipv6Address::GetAny();
}

uint32_t
SctpL4Protocol::GetPathMtu(const Address& destination, Ptr<NetDevice> outputDevice) const
{
    Ptr<Packet> probe = Create<Packet>();
    Socket::SocketErrno err;
    if (Ipv4Address::IsMatchingType(destination))
    {
        Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
        if (ipv4 && ipv4->GetRoutingProtocol())
        {
            Ipv4Header h;
            h.SetDestination(Ipv4Address::ConvertFrom(destination));
            h.SetProtocol(PROT_NUMBER);
            Ptr<Ipv4Route> route = ipv4->GetRoutingProtocol()->RouteOutput(probe, h, outputDevice, err);
            if (route && route->GetOutputDevice())
            {
                int32_t i = ipv4->GetInterfaceForDevice(route->GetOutputDevice());
                if (i >= 0)
                {
                    return ipv4->GetMtu(i);
                }
                return route->GetOutputDevice()->GetMtu();
            }
        }
        return 0;
    }
    Ptr<Ipv6> ipv6 = m_node->GetObject<Ipv6>();
    if (ipv6 && ipv6->GetRoutingProtocol() && Ipv6Address::IsMatchingType(destination))
    {
        Ipv6Header h;
        h.SetDestination(Ipv6Address::ConvertFrom(destination));
        h.SetNextHeader(PROT_NUMBER);
        Ptr<Ipv6Route> route = ipv6->GetRoutingProtocol()->RouteOutput(probe, h, outputDevice, err);
        if (route && route->GetOutputDevice())
        {
            int32_t i = ipv6->GetInterfaceForDevice(route->GetOutputDevice());
            if (i >= 0)
            {
                return ipv6->GetMtu(i);
            }
        }
    }
    return 0;
}

std::vector<Address>
SctpL4Protocol::GetLocalAddresses(bool ipv6) const
{
    std::vector<Address> out;
    if (!ipv6)
    {
        Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
        if (!ipv4)
        {
            return out;
        }
        for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
        {
            for (uint32_t j = 0; j < ipv4->GetNAddresses(i); ++j)
            {
                Ipv4Address a = ipv4->GetAddress(i, j).GetLocal();
                if (!a.IsLocalhost() && !a.IsAny())
                {
                    out.push_back(a);
                }
            }
        }
        return out;
    }
    Ptr<Ipv6> ip6 = m_node->GetObject<Ipv6>();
    if (!ip6)
    {
        return out;
    }
    for (uint32_t i = 0; i < ip6->GetNInterfaces(); ++i)
    {
        for (uint32_t j = 0; j < ip6->GetNAddresses(i); ++j)
        {
            Ipv6Address a = ip6->GetAddress(i, j).GetAddress();
            if (!a.IsLocalhost() && !a.IsAny() && !a.IsLinkLocal())
            {
                out.push_back(a);
            }
        }
    }
    return out;
}

bool
SctpL4Protocol::IsLocalAddress(const Address& address) const
{
    for (const auto& a : GetLocalAddresses(Ipv6Address::IsMatchingType(address)))
    {
        if (a == address)
        {
            return true;
        }
    }
    return false;
}

Ptr<NetDevice>
SctpL4Protocol::GetDeviceForAddress(const Address& address) const
{
    if (Ipv4Address::IsMatchingType(address))
    {
        Ptr<Ipv4> ipv4 = m_node->GetObject<Ipv4>();
        if (ipv4)
        {
            int32_t i = ipv4->GetInterfaceForAddress(Ipv4Address::ConvertFrom(address));
            if (i >= 0)
            {
                return ipv4->GetNetDevice(i);
            }
        }
        return nullptr;
    }
    if (Ipv6Address::IsMatchingType(address))
    {
        Ptr<Ipv6> ipv6 = m_node->GetObject<Ipv6>();
        if (ipv6)
        {
            int32_t i = ipv6->GetInterfaceForAddress(Ipv6Address::ConvertFrom(address));
            if (i >= 0)
            {
                return ipv6->GetNetDevice(i);
            }
        }
    }
    return nullptr;
}

void
SctpL4Protocol::SetDownTarget(IpL4Protocol::DownTargetCallback callback)
{
    m_downTarget = callback;
}

void
SctpL4Protocol::SetDownTarget6(IpL4Protocol::DownTargetCallback6 callback)
{
    m_downTarget6 = callback;
}

IpL4Protocol::DownTargetCallback
SctpL4Protocol::GetDownTarget() const
{
    return m_downTarget;
}

IpL4Protocol::DownTargetCallback6
SctpL4Protocol::GetDownTarget6() const
{
    return m_downTarget6;
}

} // namespace ns3
