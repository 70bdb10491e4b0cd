/*
 * SctpAssociation, part 2: association set-up (RFC 9260 section 5): INIT and INIT ACK
 * with their address lists and parameters, the State Cookie, COOKIE ECHO / COOKIE ACK,
 * and the collision and restart cases of section 5.2 (tie-tags, cases A to D).
 */
#include "sctp-association.h"
#include "sctp-l4-protocol.h"
#include "sctp-socket.h"

#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpAssociationSetup");

namespace
{

/** An INIT or INIT ACK whose Supported Extensions parameter lists I-DATA (RFC 8260 2.2). */
bool
ListsIData(const SctpInitChunk& init)
{
    const SctpTlv* extensions = init.Find(SctpTlv::SUPPORTED_EXTENSIONS);
    return extensions && extensions->ListsChunkType(SctpChunk::I_DATA);
}

} // namespace

// ------------------------------------------------------------------ INIT

bool
SctpAssociation::RejectRestartWithNewAddresses(const std::vector<Address>& addresses,
                                          uint32_t peerTag,
                                          const SctpCommonHeader& header,
                                          const Address& source,
                                          const Address& destination)
{
    // Sections 5.2.2 and 5.2.4.1: a restart (INIT, or the COOKIE ECHO of case A) may not
    // add transport addresses. The first address the association does not know is
    // reported in a Restart of an Association with New Addresses cause of an ABORT.
    for (const auto& a : addresses)
    {
        if (m_pathManager.HasAddress(a))
        {
            continue;
        }
        std::vector<uint8_t> info;
        SctpByteWriter w(info);
        if (Ipv4Address::IsMatchingType(a))
        {
            SctpTlv::Ipv4Address(Ipv4Address::ConvertFrom(a)).Serialize(w);
        }
        else
        {
            SctpTlv::Ipv6Address(Ipv6Address::ConvertFrom(a)).Serialize(w);
        }
        SendAbortOnly(peerTag,
                      false,
                      {SctpTlv::Cause(SctpTlv::RESTART_WITH_NEW_ADDRESSES, info)},
                      header.destinationPort,
                      header.sourcePort,
                      source,
                      destination);
        return true;
    }
    return false;
}

bool
SctpAssociation::CollectPeerAddresses(const SctpInitChunk& init,
                                 const Address& source,
                                 std::vector<Address>& out,
                                 std::vector<SctpTlv>& unrecognized,
                                 uint16_t& abortCause)
{
    // Section 5.1.2: the source address and every usable address parameter are the
    // peer's transport addresses. Address parameters that cannot be a peer's unicast
    // address (the wildcard, broadcast, multicast, loopback, IPv4-mapped IPv6, one of
    // our own addresses) or of the other address family are ignored, not treated as
    // errors: the association still has the source address.
    out.clear();
    out.push_back(source);
    abortCause = 0;
    bool sourceIsV6 = Ipv6Address::IsMatchingType(source);
    bool listedV4 = false;
    bool listedV6 = false;
    const SctpTlv* supportedTypes = nullptr;
    auto add = [this, &out](const Address& a) {
        if (std::find(out.begin(), out.end(), a) == out.end() &&
            !(m_sctp && m_sctp->IsLocalAddress(a)))
        {
            out.push_back(a);
        }
    };
    for (const auto& p : init.parameters)
    {
        switch (p.type)
        {
        case SctpTlv::IPV4_ADDRESS:
            if (p.value.size() != 4)
            {
                abortCause = SctpTlv::INVALID_MANDATORY_PARAMETER;
                return false;
            }
            listedV4 = true;
            if (!sourceIsV6)
            {
                Ipv4Address a = Ipv4Address::Deserialize(p.value.data());
                if (!a.IsAny() && !a.IsBroadcast() && !a.IsMulticast() && !a.IsLocalhost())
                {
                    add(a);
                }
            }
            break;
        case SctpTlv::IPV6_ADDRESS:
            if (p.value.size() != 16)
            {
                abortCause = SctpTlv::INVALID_MANDATORY_PARAMETER;
                return false;
            }
            listedV6 = true;
            if (sourceIsV6)
            {
                Ipv6Address a = Ipv6Address::Deserialize(p.value.data());
                // Section 3.3.2.1: an IPv4 address is never sent as IPv4-mapped IPv6.
                if (!a.IsAny() && !a.IsMulticast() && !a.IsLocalhost() &&
                    !a.IsIpv4MappedAddress())
                {
                    add(a);
                }
            }
            break;
        case SctpTlv::HOST_NAME_ADDRESS:
            // RFC 9260 section 5.1.2 B: Host Name Address is no longer supported.
            abortCause = SctpTlv::UNRESOLVABLE_ADDRESS;
            return false;
        case SctpTlv::SUPPORTED_ADDRESS_TYPES:
            supportedTypes = &p;
            break;
        case SctpTlv::STATE_COOKIE:
        case SctpTlv::UNRECOGNIZED_PARAMETER:
        case SctpTlv::COOKIE_PRESERVATIVE:
        case SctpTlv::FORWARD_TSN_SUPPORTED:
        case SctpTlv::SUPPORTED_EXTENSIONS:
        case SctpTlv::ECN_CAPABLE:
            break;
        default: {
            // Section 3.2.1: the two high-order bits of the parameter type.
            uint16_t action = p.type >> 14;
            if (action == 1 || action == 3)
            {
                unrecognized.push_back(p);
            }
            if (action < 2)
            {
                return true; // stop processing further parameters
            }
            break;
        }
        }
    }
    if (supportedTypes && init.type == SctpChunk::INIT)
    {
        // Section 5.1.2: answer with a listed address type or abort with Unresolvable
        // Address. The family the INIT came over and the families of its address
        // parameters count as supported (the implementation note there).
        bool v4 = !sourceIsV6 || listedV4;
        bool v6 = sourceIsV6 || listedV6;
        SctpByteReader r(supportedTypes->value.data(), supportedTypes->value.size());
        while (r.GetRemaining() >= 2)
        {
            uint16_t type = r.ReadU16();
            v4 = v4 || type == SctpTlv::IPV4_ADDRESS;
            v6 = v6 || type == SctpTlv::IPV6_ADDRESS;
        }
        if (m_socket->IsIpv6() ? !v6 : !v4)
        {
            abortCause = SctpTlv::UNRESOLVABLE_ADDRESS;
            return false;
        }
    }
    return true;
}

bool
SctpAssociation::HandleInit(const SctpCommonHeader& header,
                       const SctpChunk& chunk,
                       const Address& source,
                       const Address& destination)
{
    SctpInitChunk init;
    if (!init.Deserialize(chunk) || init.initiateTag == 0)
    {
        return false; // RFC 9260 3.3.2: Initiate Tag 0 is silently discarded
    }
    if (init.outboundStreams == 0 || init.inboundStreams == 0)
    {
        SendAbortOnly(init.initiateTag,
                      false,
                      {SctpTlv::Cause(SctpTlv::INVALID_MANDATORY_PARAMETER)},
                      header.destinationPort,
                      header.sourcePort,
                      source,
                      destination);
        return false;
    }
    std::vector<Address> addresses;
    std::vector<SctpTlv> unrecognized;
    uint16_t abortCause = 0;
    if (!CollectPeerAddresses(init, source, addresses, unrecognized, abortCause))
    {
        SendAbortOnly(init.initiateTag,
                      false,
                      {SctpTlv::Cause(abortCause)},
                      header.destinationPort,
                      header.sourcePort,
                      source,
                      destination);
        return false;
    }
    if (m_state == SCTP_SHUTDOWN_ACK_SENT)
    {
        // Section 9.2: the SHUTDOWN COMPLETE was probably lost.
        SendShutdownAck();
        return false;
    }
    if (m_state == SCTP_ESTABLISHED || m_state == SCTP_SHUTDOWN_PENDING ||
        m_state == SCTP_SHUTDOWN_SENT || m_state == SCTP_SHUTDOWN_RECEIVED)
    {
        // Section 5.2.2: a restart must not add addresses.
        if (RejectRestartWithNewAddresses(addresses, init.initiateTag, header, source, destination))
        {
            return false;
        }
    }
    // Build the INIT ACK (sections 5.1, 5.2.1, 5.2.2).
    uint32_t localTag;
    uint32_t localTsn;
    uint32_t tieLocal = 0;
    uint32_t tiePeer = 0;
    if (m_state == SCTP_LISTEN || m_state == SCTP_CLOSED)
    {
        localTag = m_sctp->GenerateTag();
        localTsn = m_sctp->GenerateTsn();
    }
    else if (m_state == SCTP_COOKIE_WAIT || m_state == SCTP_COOKIE_ECHOED)
    {
        // 5.2.1: answer with the parameters of our own INIT.
        localTag = m_localTag;
        localTsn = m_localInitialTsn;
    }
    else
    {
        // 5.2.2: a new tag; the tie-tags let a COOKIE ECHO be recognized as a restart.
        do
        {
            localTag = m_sctp->GenerateTag();
        } while (localTag == m_localTag || localTag == m_peerTag);
        localTsn = m_sctp->GenerateTsn();
        // RFC 9260 5.2.2: random Tie-Tags kept in the TCB, not the live verification tags
        // (the cookie is authenticated, not encrypted: whoever gets this INIT ACK must
        // not learn the tags).
        while (m_localTieTag == 0 || m_localTieTag == m_localTag)
        {
            m_localTieTag = m_sctp->GenerateTag();
        }
        while (m_peerTieTag == 0 || m_peerTieTag == m_peerTag)
        {
            m_peerTieTag = m_sctp->GenerateTag();
        }
        tieLocal = m_localTieTag;
        tiePeer = m_peerTieTag;
    }
    SctpCookie cookie;
    cookie.creationTimeNs = Simulator::Now().GetNanoSeconds();
    const SctpAssociationConfig& config = GetConfig();
    uint64_t lifeMs = GetParameters().validCookieLife.GetMilliSeconds();
    if (const SctpTlv* preservative = init.Find(SctpTlv::COOKIE_PRESERVATIVE))
    {
        if (preservative->value.size() == 4)
        {
            SctpByteReader r(preservative->value.data(), 4);
            // Grant the increment, but never more than one hour (section 5.1.3).
            lifeMs += std::min<uint32_t>(r.ReadU32(), 3600000u);
        }
    }
    cookie.lifetimeMs = static_cast<uint32_t>(std::min<uint64_t>(lifeMs, 0xFFFFFFFFu));
    cookie.localTag = localTag;
    cookie.peerTag = init.initiateTag;
    cookie.localInitialTsn = localTsn;
    cookie.peerInitialTsn = init.initialTsn;
    cookie.peerRwnd = init.aRwnd;
    cookie.outboundStreams = std::min(config.outboundStreams, init.inboundStreams);
    cookie.inboundStreams = std::min(init.outboundStreams, config.maxInboundStreams);
    cookie.localTieTag = tieLocal;
    cookie.peerTieTag = tiePeer;
    cookie.localPort = header.destinationPort;
    cookie.peerPort = header.sourcePort;
    cookie.peerForwardTsn = init.Find(SctpTlv::FORWARD_TSN_SUPPORTED) != nullptr;
    cookie.peerIData = ListsIData(init);
    cookie.peerReconfig = config.reconfigSupported && SctpStreamReconfig::IsAnnounced(init);
    cookie.peerAddresses = addresses;

    SctpInitChunk ack;
    ack.type = SctpChunk::INIT_ACK;
    ack.initiateTag = localTag;
    ack.aRwnd = config.rcvBufSize;
    ack.outboundStreams = config.outboundStreams;
    ack.inboundStreams = config.maxInboundStreams;
    ack.initialTsn = localTsn;
    ack.parameters.emplace_back(SctpTlv::STATE_COOKIE, cookie.Seal(m_sctp->GetSecretKey()));
    for (auto& p : LocalAddressParameters())
    {
        ack.parameters.push_back(std::move(p));
    }
    if (config.prSctpEnabled)
    {
        ack.parameters.emplace_back(SctpTlv::FORWARD_TSN_SUPPORTED, std::vector<uint8_t>());
    }
    if (config.iDataSupported)
    {
        ack.parameters.push_back(SctpTlv::SupportedExtensions({SctpChunk::I_DATA}));
    }
    SctpStreamReconfig::Announce(config, ack.parameters);
    for (const auto& u : unrecognized)
    {
        ack.parameters.emplace_back(SctpTlv::UNRECOGNIZED_PARAMETER, u.ToBytes());
    }
    std::vector<uint8_t> bytes;
    SctpByteWriter w(bytes);
    ack.Serialize(w);
    if (bytes.size() > 65535)
    {
        return false;
    }
    SendControlFrom(header.destinationPort,
                    header.sourcePort,
                    init.initiateTag,
                    bytes,
                    source,
                    destination,
                    nullptr);
    return true;
}

bool
SctpAssociation::HandleInitAck(const SctpChunk& chunk, const Address& source)
{
    if (m_state != SCTP_COOKIE_WAIT)
    {
        return true; // section 5.2.3: discard
    }
    SctpInitChunk ack;
    if (!ack.Deserialize(chunk))
    {
        return false;
    }
    if (ack.initiateTag == 0)
    {
        DeleteAssociation(false, true); // section 3.3.3
        return false;
    }
    if (ack.outboundStreams == 0 || ack.inboundStreams == 0)
    {
        m_peerTag = ack.initiateTag;
        SendAbort({SctpTlv::Cause(SctpTlv::INVALID_MANDATORY_PARAMETER)});
        DeleteAssociation(false, true);
        return false;
    }
    const SctpTlv* cookie = ack.Find(SctpTlv::STATE_COOKIE);
    if (!cookie || cookie->value.empty())
    {
        m_peerTag = ack.initiateTag;
        SendAbort({SctpTlv::MissingMandatoryParameter(SctpTlv::STATE_COOKIE)});
        DeleteAssociation(false, true);
        return false;
    }
    std::vector<Address> addresses;
    std::vector<SctpTlv> unrecognized;
    uint16_t abortCause = 0;
    if (!CollectPeerAddresses(ack, source, addresses, unrecognized, abortCause))
    {
        m_peerTag = ack.initiateTag;
        SendAbort({SctpTlv::Cause(abortCause)});
        DeleteAssociation(false, true);
        return false;
    }
    m_peerTag = ack.initiateTag;
    m_peerForwardTsn = ack.Find(SctpTlv::FORWARD_TSN_SUPPORTED) != nullptr;
    m_peerIData = ListsIData(ack);
    m_peerReconfig = SctpStreamReconfig::IsAnnounced(ack);
    Address primary = m_pathManager.IsEmpty() ? source : m_pathManager.GetPrimaryPath()->GetAddress();
    if (std::find(addresses.begin(), addresses.end(), primary) == addresses.end())
    {
        primary = source;
    }
    m_pathManager.SetupPaths(addresses, primary);
    // Section 5.4 rule 1: only the address the user gave is confirmed; the others are
    // verified with HEARTBEATs once the association is up.
    m_pathManager.ConfirmPaths(m_peerConnectAddress);
    m_pathManager.ApplyPrimaryAttribute();
    for (const auto& a : addresses)
    {
        m_sctp->RegisterAssociation(this, m_localPort, m_peerPort, a);
    }
    InitializeTransfer(ack.initialTsn,
                       ack.aRwnd,
                       std::min(GetConfig().outboundStreams, ack.inboundStreams),
                       std::min(ack.outboundStreams, GetConfig().maxInboundStreams));
    m_cookieEcho = cookie->value;
    if (!unrecognized.empty())
    {
        // Section 3.2.1: report them in an ERROR bundled with the COOKIE ECHO.
        SendError(std::vector<SctpTlv>(1, SctpTlv(SctpTlv::UNRECOGNIZED_PARAMETERS, [&] {
            std::vector<uint8_t> v;
            SctpByteWriter w(v);
            for (const auto& u : unrecognized)
            {
                u.Serialize(w);
            }
            return v;
        }())));
    }
    SetState(SCTP_COOKIE_ECHOED);
    SendCookieEcho();
    m_t1Count = 0;
    m_t1Rto = GetParameters().rtoInitial;
    StartT1();
    return true;
}

// ------------------------------------------------------------------ COOKIE ECHO / ACK

Ptr<SctpAssociation>
SctpAssociation::HandleCookieEcho(const SctpCommonHeader& header,
                             const SctpChunk& chunk,
                             const Address& source,
                             const Address& destination)
{
    SctpCookie cookie;
    std::vector<uint8_t> sealed(chunk.value, chunk.value + chunk.valueLength);
    if (!cookie.Open(m_sctp->GetSecretKey(), sealed))
    {
        NS_LOG_INFO(this << " COOKIE ECHO with a bad MAC discarded");
        return nullptr; // section 5.1.5 step 2
    }
    if (header.verificationTag != cookie.localTag || cookie.localPort != header.destinationPort ||
        cookie.peerPort != header.sourcePort)
    {
        return nullptr; // step 3
    }
    Time staleness = cookie.GetStaleness(Simulator::Now());
    bool stale = staleness.IsStrictlyPositive();
    bool haveTcb = m_state != SCTP_LISTEN && m_state != SCTP_CLOSED;
    bool localMatch = haveTcb && cookie.localTag == m_localTag;
    bool peerMatch = haveTcb && cookie.peerTag == m_peerTag;
    if (stale && !(localMatch && peerMatch))
    {
        // Section 5.1.5 step 3: Stale Cookie error with the staleness in microseconds.
        std::vector<uint8_t> chunkBytes;
        SctpByteWriter w(chunkBytes);
        SctpErrorChunk error;
        error.type = SctpChunk::ERROR;
        error.causes.push_back(SctpTlv::CauseU32(
            SctpTlv::STALE_COOKIE_ERROR,
            static_cast<uint32_t>(std::min<int64_t>(staleness.GetMicroSeconds(), 0xFFFFFFFF))));
        error.Serialize(w);
        SendControlFrom(header.destinationPort,
                        header.sourcePort,
                        cookie.peerTag,
                        chunkBytes,
                        source,
                        destination,
                        nullptr);
        return nullptr;
    }
    if (!haveTcb)
    {
        // RFC 9260 5.2.4: a COOKIE ECHO for ports and an address of an association that
        // exists belongs to that association, whatever address it comes from: its TCB
        // applies the table of 5.2.4 (restart, collision, duplicate - or silent discard
        // of a cookie that matches none of its tags). Never a second association: a
        // cookie obtained with an INIT from a third-party address listing the peer's
        // address, or a replay of the real COOKIE ECHO from another address, would
        // otherwise build one and take over the live association's lookup entries.
        std::vector<Address> cookieAddresses = cookie.peerAddresses;
        cookieAddresses.push_back(source);
        for (const auto& a : cookieAddresses)
        {
            Ptr<SctpAssociation> existing =
                m_sctp->FindAssociation(header.destinationPort, header.sourcePort, a);
            if (existing && existing != this)
            {
                NS_LOG_INFO(this << " COOKIE ECHO from " << source
                                 << " handed to the association of " << a);
                return existing->IsAlive()
                           ? existing->HandleCookieEcho(header, chunk, source, destination)
                           : nullptr;
            }
        }
        // A new association from a listening socket.
        Address from = Ipv6Address::IsMatchingType(source)
                           ? Address(Inet6SocketAddress(Ipv6Address::ConvertFrom(source),
                                                        header.sourcePort))
                           : Address(InetSocketAddress(Ipv4Address::ConvertFrom(source),
                                                       header.sourcePort));
        if (!m_socket->AcceptAssociation(from))
        {
            SendAbortOnly(cookie.peerTag,
                          false,
                          {},
                          header.destinationPort,
                          header.sourcePort,
                          source,
                          destination);
            return nullptr;
        }
        Ptr<SctpSocket> socket = m_socket->Fork();
        m_sctp->AddSocket(socket);
        Ptr<SctpAssociation> association = socket->GetAssociation();
        association->EstablishFromCookie(cookie, source, destination);
        m_socket->NotifyNewAssociation(socket, from);
        return association;
    }
    // Section 5.2.4: a COOKIE ECHO while a TCB exists.
    bool tieMatch = cookie.localTieTag != 0 && cookie.localTieTag == m_localTieTag &&
                    cookie.peerTieTag == m_peerTieTag;
    if (!localMatch && !peerMatch && tieMatch)
    {
        // Case A: the peer restarted.
        if (m_state == SCTP_SHUTDOWN_ACK_SENT)
        {
            std::vector<uint8_t> bytes;
            SctpByteWriter w(bytes);
            SctpChunk::SerializeEmpty(w, SctpChunk::SHUTDOWN_ACK);
            SctpErrorChunk error;
            error.type = SctpChunk::ERROR;
            error.causes.push_back(SctpTlv::Cause(SctpTlv::COOKIE_RECEIVED_WHILE_SHUTTING_DOWN));
            error.Serialize(w);
            SendControlTo(cookie.peerTag, bytes, source, destination);
            return nullptr;
        }
        // Section 5.2.4.1: nor may the restart's COOKIE ECHO.
        if (RejectRestartWithNewAddresses(cookie.peerAddresses,
                                          cookie.peerTag,
                                          header,
                                          source,
                                          destination))
        {
            return nullptr;
        }
        NS_LOG_INFO(this << " peer restart detected");
        ++m_restarts;
        CancelAllTimers();
        m_sctp->UnregisterAssociation(this);
        EstablishFromCookie(cookie, source, destination);
        return this;
    }
    if (localMatch && !peerMatch)
    {
        // Case B: INIT collision; adopt the peer's new tag.
        m_peerTag = cookie.peerTag;
        if (m_state == SCTP_COOKIE_WAIT || m_state == SCTP_COOKIE_ECHOED)
        {
            InitializeTransfer(cookie.peerInitialTsn,
                               cookie.peerRwnd,
                               cookie.outboundStreams,
                               cookie.inboundStreams);
            EnterEstablished();
        }
        std::vector<uint8_t> ack;
        SctpByteWriter w(ack);
        SctpChunk::SerializeEmpty(w, SctpChunk::COOKIE_ACK);
        QueueControlChunk(ack);
        return this;
    }
    if (!localMatch && peerMatch && cookie.localTieTag == 0 && cookie.peerTieTag == 0)
    {
        return nullptr; // case C
    }
    if (localMatch && peerMatch)
    {
        // Case D.
        if (m_state == SCTP_COOKIE_ECHOED || m_state == SCTP_COOKIE_WAIT)
        {
            if (m_state == SCTP_COOKIE_WAIT)
            {
                InitializeTransfer(cookie.peerInitialTsn,
                                   cookie.peerRwnd,
                                   cookie.outboundStreams,
                                   cookie.inboundStreams);
            }
            EnterEstablished();
        }
        std::vector<uint8_t> ack;
        SctpByteWriter w(ack);
        SctpChunk::SerializeEmpty(w, SctpChunk::COOKIE_ACK);
        QueueControlChunk(ack);
        return this;
    }
    return nullptr;
}

void
SctpAssociation::EstablishFromCookie(const SctpCookie& cookie,
                                const Address& source,
                                const Address& destination)
{
    m_localPort = cookie.localPort;
    m_socket->SetLocalPort(cookie.localPort);
    m_peerPort = cookie.peerPort;
    NewAssociation(cookie.localTag, cookie.localInitialTsn);
    m_peerTag = cookie.peerTag;
    m_peerForwardTsn = cookie.peerForwardTsn;
    m_peerIData = cookie.peerIData;
    m_peerReconfig = cookie.peerReconfig;
    Address primary = source;
    if (std::find(cookie.peerAddresses.begin(), cookie.peerAddresses.end(), source) ==
        cookie.peerAddresses.end())
    {
        primary = cookie.peerAddresses[0];
    }
    std::vector<Address> addresses = cookie.peerAddresses;
    if (std::find(addresses.begin(), addresses.end(), source) == addresses.end())
    {
        addresses.push_back(source);
    }
    m_pathManager.SetupPaths(addresses, primary);
    // Section 5.4 rule 2: the address the INIT ACK went to (the INIT's source, the first
    // address in the cookie) is confirmed, and so is the COOKIE ECHO's source here.
    m_pathManager.ConfirmPaths(cookie.peerAddresses[0]);
    m_pathManager.ApplyPrimaryAttribute();
    InitializeTransfer(cookie.peerInitialTsn,
                       cookie.peerRwnd,
                       cookie.outboundStreams,
                       cookie.inboundStreams);
    for (const auto& a : addresses)
    {
        m_sctp->RegisterAssociation(this, m_localPort, m_peerPort, a); // never overwrites
    }
    m_registered = true;
    SetState(SCTP_ESTABLISHED);
    m_pathManager.StartHeartbeats();
    std::vector<uint8_t> ack;
    SctpByteWriter w(ack);
    SctpChunk::SerializeEmpty(w, SctpChunk::COOKIE_ACK);
    QueueControlChunk(ack);
}

void
SctpAssociation::HandleCookieAck()
{
    if (m_state != SCTP_COOKIE_ECHOED)
    {
        return; // section 5.2.5
    }
    EnterEstablished();
}

void
SctpAssociation::EnterEstablished()
{
    Simulator::Cancel(m_t1Event);
    m_cookieEcho.clear();
    SetState(SCTP_ESTABLISHED);
    m_pathManager.StartHeartbeats();
    m_socket->NotifyAssociationUp();
    if (m_closeRequested && m_state == SCTP_ESTABLISHED)
    {
        // Close() came before the association was up: queued messages go first.
        SetState(SCTP_SHUTDOWN_PENDING);
        CheckShutdownProgress();
    }
}

} // namespace ns3
