/*
 * SctpSocket, part 5: multi-homing (RFC 9260 sections 5.1.2, 5.4, 6.4, 8.2, 8.3). Which
 * destination new data and retransmissions go to, the source address (and interface)
 * of each destination, path failure detection with per-destination error counters,
 * HEARTBEATs on idle destinations, path verification, and the primary path.
 */
#include "sctp-l4-protocol.h"
#include "sctp-socket.h"

#include "ns3/inet-socket-address.h"
#include "ns3/inet6-socket-address.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpSocketPaths");

namespace
{

/** An IP address from an Address that may be an IP address or a socket address. */
Address
ToIp(const Address& a)
{
    if (InetSocketAddress::IsMatchingType(a))
    {
        return InetSocketAddress::ConvertFrom(a).GetIpv4();
    }
    if (Inet6SocketAddress::IsMatchingType(a))
    {
        return Inet6SocketAddress::ConvertFrom(a).GetIpv6();
    }
    return a;
}

} // namespace

// ------------------------------------------------------------------ local addresses

bool
SctpSocket::IsAnyAddress(const Address& ip) const
{
    return ip.IsInvalid() ||
           (Ipv4Address::IsMatchingType(ip) && Ipv4Address::ConvertFrom(ip).IsAny()) ||
           (Ipv6Address::IsMatchingType(ip) && Ipv6Address::ConvertFrom(ip).IsAny());
}

std::vector<Address>
SctpSocket::GetLocalAddresses() const
{
    if (!m_boundAddresses.empty())
    {
        return m_boundAddresses;
    }
    if (IsAnyAddress(m_localAddress))
    {
        return m_sctp ? m_sctp->GetLocalAddresses(m_ipv6) : std::vector<Address>();
    }
    return {m_localAddress};
}

bool
SctpSocket::IsLocallyMultihomed() const
{
    return m_localList.size() > 1;
}

Ptr<NetDevice>
SctpSocket::DeviceForLocalAddress(const Address& local) const
{
    return m_sctp ? m_sctp->GetDeviceForAddress(local) : nullptr;
}

void
SctpSocket::SelectSource(SctpPath& path, bool rotate)
{
    if (!IsLocallyMultihomed())
    {
        path.SetSource(Address(), nullptr); // one local address: the route decides
        return;
    }
    // Candidates: our addresses whose own interface has a route to the destination, so
    // that a packet from that address also leaves through that interface.
    std::vector<std::pair<Address, Ptr<NetDevice>>> usable;
    for (const auto& local : m_localList)
    {
        Ptr<NetDevice> device = DeviceForLocalAddress(local);
        if (!device || (m_boundDevice && device != m_boundDevice))
        {
            continue;
        }
        if (IsAnyAddress(m_sctp->GetSourceAddress(path.GetAddress(), device)))
        {
            continue;
        }
        usable.emplace_back(local, device);
    }
    if (usable.empty())
    {
        path.SetSource(Address(), nullptr);
        return;
    }
    std::size_t choice = 0;
    if (rotate)
    {
        // Section 6.4.1: the most divergent pair; with one destination, another source.
        for (std::size_t i = 0; i < usable.size(); ++i)
        {
            if (usable[i].first == path.GetSourceAddress())
            {
                choice = (i + 1) % usable.size();
                break;
            }
        }
    }
    else
    {
        // The source the routing table picks for this destination, if it is ours.
        Address preferred = m_sctp->GetSourceAddress(path.GetAddress(), m_boundDevice);
        for (std::size_t i = 0; i < usable.size(); ++i)
        {
            if (usable[i].first == preferred)
            {
                choice = i;
                break;
            }
        }
    }
    if (usable[choice].first != path.GetSourceAddress())
    {
        NS_LOG_INFO(this << " path " << path.GetIndex() << " to " << path.GetAddress()
                         << " sends from " << usable[choice].first);
    }
    path.SetSource(usable[choice].first, usable[choice].second);
}

bool
SctpSocket::SendOnPath(SctpPath& path, std::vector<uint8_t>& packet, const Address& replySource)
{
    if (!replySource.IsInvalid() && IsLocallyMultihomed())
    {
        // A reply (SACK) leaves from the address the peer's packet arrived at, through
        // that interface, when it routes to the destination: the answer takes the path
        // the peer just used successfully, whatever our own data path is.
        Ptr<NetDevice> device = DeviceForLocalAddress(replySource);
        if (device && (!m_boundDevice || device == m_boundDevice) &&
            !IsAnyAddress(m_sctp->GetSourceAddress(path.GetAddress(), device)) &&
            m_sctp->SendPacket(packet, replySource, path.GetAddress(), device))
        {
            return true;
        }
    }
    if (path.GetSourceAddress().IsInvalid())
    {
        return m_sctp->SendPacket(packet, m_localAddress, path.GetAddress(), m_boundDevice);
    }
    if (m_sctp->SendPacket(packet,
                           path.GetSourceAddress(),
                           path.GetAddress(),
                           path.GetSourceDevice()))
    {
        return true;
    }
    // The interface of the source lost its route (it went down): choose again.
    SelectSource(path, false);
    const Address& source = path.GetSourceAddress();
    return m_sctp->SendPacket(packet,
                              source.IsInvalid() ? m_localAddress : source,
                              path.GetAddress(),
                              source.IsInvalid() ? m_boundDevice : path.GetSourceDevice());
}

// ------------------------------------------------------------------ destinations

int32_t
SctpSocket::FindPath(const Address& peer) const
{
    Address ip = ToIp(peer);
    for (std::size_t i = 0; i < m_paths.size(); ++i)
    {
        if (m_paths[i]->GetAddress() == ip)
        {
            return static_cast<int32_t>(i);
        }
    }
    return -1;
}

bool
SctpSocket::IsPathUsable(const SctpPath& path) const
{
    return path.GetState() == SctpPath::ACTIVE && path.IsConfirmed();
}

uint32_t
SctpSocket::SelectDataPath()
{
    uint32_t n = static_cast<uint32_t>(m_paths.size());
    if (n <= 1)
    {
        m_dataPath = m_primaryPath;
        return m_dataPath;
    }
    SctpPath& primary = *m_paths[m_primaryPath];
    if (IsPathUsable(primary))
    {
        SetDataPath(m_primaryPath);
        return m_dataPath;
    }
    if (m_dataPath < n && m_dataPath != m_primaryPath && IsPathUsable(*m_paths[m_dataPath]))
    {
        return m_dataPath; // stay on the alternate chosen before (section 8.2: only ONE)
    }
    int32_t best = -1;
    for (uint32_t i = 0; i < n; ++i)
    {
        if (IsPathUsable(*m_paths[i]) &&
            (best < 0 || m_paths[i]->GetErrorCount() < m_paths[best]->GetErrorCount()))
        {
            best = static_cast<int32_t>(i);
        }
    }
    if (best >= 0)
    {
        SetDataPath(static_cast<uint32_t>(best));
        if (!m_returnToPrimary && primary.GetState() == SctpPath::INACTIVE)
        {
            MakePrimary(static_cast<uint32_t>(best));
        }
        return m_dataPath;
    }
    // RFC 7829 section 3: no active destination, but potentially failed ones: the one with
    // the fewest errors (ties: the most recently active) rather than a dormant choice.
    int32_t pf = BestPotentiallyFailedPath();
    if (pf >= 0)
    {
        SetDataPath(static_cast<uint32_t>(pf));
        return m_dataPath;
    }
    // Every destination is inactive or unconfirmed (section 8.2: implementation specific).
    if (m_dormantAction == SctpDormantAction::PRIMARY)
    {
        SetDataPath(m_primaryPath);
    }
    else if (m_dataPath >= n)
    {
        SetDataPath(m_primaryPath);
    }
    return m_dataPath; // LAST_USED keeps it; HOP moves it at every timeout
}

int32_t
SctpSocket::BestPotentiallyFailedPath() const
{
    if (!IsPfEnabled())
    {
        return -1;
    }
    int32_t best = -1;
    for (uint32_t i = 0; i < m_paths.size(); ++i)
    {
        const SctpPath& p = *m_paths[i];
        if (p.GetState() != SctpPath::POTENTIALLY_FAILED || !p.IsConfirmed())
        {
            continue;
        }
        if (best < 0 || p.GetErrorCount() < m_paths[best]->GetErrorCount() ||
            (p.GetErrorCount() == m_paths[best]->GetErrorCount() &&
             p.GetLastActiveTime() > m_paths[best]->GetLastActiveTime()))
        {
            best = static_cast<int32_t>(i);
        }
    }
    return best;
}

void
SctpSocket::SetDataPath(uint32_t index)
{
    if (index == m_dataPath)
    {
        return;
    }
    NS_LOG_INFO(this << " new data now goes to path " << index << " ("
                     << m_paths[index]->GetAddress() << ")");
    m_dataPath = index;
    m_pathEventTrace(index, SctpPathEvent::DATA_PATH);
}

uint32_t
SctpSocket::AlternatePath(uint32_t from) const
{
    uint32_t n = static_cast<uint32_t>(m_paths.size());
    if (m_dataPath != from && m_dataPath < n && IsPathUsable(*m_paths[m_dataPath]))
    {
        return m_dataPath;
    }
    for (uint32_t k = 1; k < n; ++k)
    {
        uint32_t i = (from + k) % n;
        if (IsPathUsable(*m_paths[i]))
        {
            return i;
        }
    }
    return from < n && m_paths[from]->IsConfirmed() ? from : m_dataPath;
}

uint32_t
SctpSocket::RetransmissionPath(uint32_t from, bool fast) const
{
    uint32_t n = static_cast<uint32_t>(m_paths.size());
    if (n <= 1)
    {
        return from;
    }
    bool alternate = m_rtxToAlt == SctpRtxToAlt::ALTERNATE ||
                     (m_rtxToAlt == SctpRtxToAlt::TIMEOUT_ALTERNATE && !fast);
    if (alternate)
    {
        return AlternatePath(from);
    }
    // Section 6.4.1: data for an inactive destination goes to an active one.
    if (from < n && IsPathUsable(*m_paths[from]))
    {
        return from;
    }
    return m_dataPath;
}

uint32_t
SctpSocket::ReplyPath() const
{
    // Section 6.4: SACKs go where the DATA came from (and do not vary while it does).
    if (m_lastDataSource >= 0 && static_cast<std::size_t>(m_lastDataSource) < m_paths.size() &&
        m_paths[m_lastDataSource]->IsConfirmed())
    {
        return static_cast<uint32_t>(m_lastDataSource);
    }
    return m_dataPath < m_paths.size() ? m_dataPath : m_primaryPath;
}

// ------------------------------------------------------------------ failure detection

void
SctpSocket::RecordPathError(SctpPath& path, bool /* countForAssociation */)
{
    if (path.GetState() == SctpPath::INACTIVE)
    {
        return; // section 8.3: an inactive destination's counter stops increasing
    }
    path.IncrementErrorCount();
    if (path.GetErrorCount() > m_pathMaxRetrans)
    {
        MarkPathInactive(path);
    }
    else if (IsPfEnabled() && path.GetErrorCount() > m_pfMaxRetrans &&
             path.GetState() == SctpPath::ACTIVE)
    {
        MarkPathPotentiallyFailed(path); // RFC 7829 section 3
    }
    // RFC 7829 section 5 (Primary Path Switchover): past PSMR errors on the primary, an
    // active alternate becomes the primary and stays so when the old one recovers.
    if (path.GetIndex() == m_primaryPath && m_paths.size() > 1 &&
        path.GetErrorCount() > m_psMaxRetrans)
    {
        uint32_t alt = AlternatePath(m_primaryPath);
        if (alt != m_primaryPath && IsPathUsable(*m_paths[alt]))
        {
            MakePrimary(alt);
            SelectDataPath();
        }
    }
    if (path.GetIndex() == m_primaryPath && m_changePrimaryThresh >= 0 && m_paths.size() > 1 &&
        path.GetErrorCount() >= static_cast<uint32_t>(m_changePrimaryThresh))
    {
        uint32_t alt = AlternatePath(m_primaryPath);
        if (alt != m_primaryPath && IsPathUsable(*m_paths[alt]))
        {
            MakePrimary(alt);
            SelectDataPath();
        }
    }
}

void
SctpSocket::MarkPathInactive(SctpPath& path)
{
    if (path.GetState() == SctpPath::INACTIVE)
    {
        return;
    }
    NS_LOG_INFO(this << " path " << path.GetIndex() << " (" << path.GetAddress()
                     << ") inactive after " << path.GetErrorCount() << " errors");
    path.SetState(SctpPath::INACTIVE);
    m_pathEventTrace(path.GetIndex(), SctpPathEvent::UNREACHABLE);
    SelectDataPath();
}

bool
SctpSocket::IsPfEnabled() const
{
    return m_pfMaxRetrans < m_pathMaxRetrans; // RFC 7829 section 3: PFMR >= PMR turns PF off
}

void
SctpSocket::MarkPathPotentiallyFailed(SctpPath& path)
{
    NS_LOG_INFO(this << " path " << path.GetIndex() << " (" << path.GetAddress()
                     << ") potentially failed after " << path.GetErrorCount() << " errors");
    path.SetState(SctpPath::POTENTIALLY_FAILED);
    m_pathEventTrace(path.GetIndex(), SctpPathEvent::POTENTIALLY_FAILED);
    // RFC 7829 section 3: no new data to a PF destination while another is active ...
    SelectDataPath();
    // ... and a HEARTBEAT every RTO to find out whether it works again. The first goes
    // now: the error that made it PF is the timeout that just expired.
    if (m_heartbeatsRunning && !path.IsHeartbeatOutstanding())
    {
        Simulator::Cancel(path.GetHeartbeatTimer());
        SendHeartbeat(path);
    }
}

void
SctpSocket::MarkPathActive(SctpPath& path)
{
    path.ResetErrorCount();
    if (path.GetState() == SctpPath::ACTIVE)
    {
        return;
    }
    NS_LOG_INFO(this << " path " << path.GetIndex() << " (" << path.GetAddress()
                     << ") active again");
    path.SetState(SctpPath::ACTIVE);
    m_pathEventTrace(path.GetIndex(), SctpPathEvent::AVAILABLE);
    SelectDataPath();
}

void
SctpSocket::MakePrimary(uint32_t index)
{
    if (index >= m_paths.size() || index == m_primaryPath)
    {
        return;
    }
    NS_LOG_INFO(this << " primary path is now " << index << " (" << m_paths[index]->GetAddress()
                     << ")");
    m_primaryPath = index;
    m_pathEventTrace(index, SctpPathEvent::MADE_PRIMARY);
    UpdatePrimaryTraces();
}

int
SctpSocket::SetPrimaryPath(const Address& peer)
{
    int32_t index = FindPath(peer);
    if (index < 0)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    MakePrimary(static_cast<uint32_t>(index));
    if (IsAssociationAlive())
    {
        SelectDataPath();
    }
    return 0;
}

// ------------------------------------------------------------------ heartbeats

bool
SctpSocket::HeartbeatsEnabled() const
{
    switch (m_heartbeatMode)
    {
    case SctpHeartbeatMode::ALL:
        return true;
    case SctpHeartbeatMode::MULTIHOMED:
        return m_paths.size() > 1;
    default:
        return false;
    }
}

void
SctpSocket::StartHeartbeats()
{
    StopHeartbeats();
    if (!HeartbeatsEnabled())
    {
        // No path verification without heartbeats: every destination counts as confirmed.
        for (auto& p : m_paths)
        {
            p->SetConfirmed(true);
        }
        return;
    }
    m_heartbeatsRunning = true;
    Time now = Simulator::Now();
    uint32_t unconfirmed = 0;
    for (auto& p : m_paths)
    {
        p->SetLastRttEligibleSend(now);
        if (p->IsConfirmed())
        {
            ArmHeartbeat(*p, now);
            continue;
        }
        // Section 5.4: probe unconfirmed addresses at once, HB.Max.Burst per RTO.
        Time delay = p->GetRto() * static_cast<int64_t>(unconfirmed / m_hbMaxBurst);
        ++unconfirmed;
        p->SetHeartbeatAnchor(now);
        p->GetHeartbeatTimer() =
            Simulator::Schedule(delay, &SctpSocket::OnHeartbeatTimer, this, p->GetIndex());
    }
}

void
SctpSocket::StopHeartbeats()
{
    m_heartbeatsRunning = false;
    for (auto& p : m_paths)
    {
        Simulator::Cancel(p->GetHeartbeatTimer());
        Simulator::Cancel(p->GetHeartbeatResponseTimer());
        p->SetHeartbeatOutstanding(false, 0, Time(0));
    }
}

Time
SctpSocket::HeartbeatPeriod(const SctpPath& path)
{
    Time rto = path.GetRto();
    if (!path.IsConfirmed() && path.GetState() == SctpPath::ACTIVE)
    {
        return rto; // section 5.4: one probe per RTO while the path is unconfirmed
    }
    if (path.GetState() == SctpPath::POTENTIALLY_FAILED)
    {
        return rto; // RFC 7829 section 3: a PF destination is probed once per RTO
    }
    // Section 8.3: RTO + HB.interval, with a jitter of +/- 50 % of the RTO.
    double jitter = m_sctp->DrawUniform(-0.5, 0.5);
    return rto + m_hbInterval + Time::FromDouble(jitter * rto.GetDouble(), Time::GetResolution());
}

void
SctpSocket::ArmHeartbeat(SctpPath& path, Time anchor)
{
    Simulator::Cancel(path.GetHeartbeatTimer());
    if (!m_heartbeatsRunning)
    {
        return;
    }
    Time now = Simulator::Now();
    Time at = anchor + HeartbeatPeriod(path);
    if (at < now)
    {
        at = now;
    }
    path.SetHeartbeatAnchor(anchor);
    path.GetHeartbeatTimer() =
        Simulator::Schedule(at - now, &SctpSocket::OnHeartbeatTimer, this, path.GetIndex());
}

void
SctpSocket::OnHeartbeatTimer(uint32_t index)
{
    if (!m_heartbeatsRunning || index >= m_paths.size() || !IsAssociationAlive())
    {
        return;
    }
    SctpPath& path = *m_paths[index];
    if (path.IsHeartbeatOutstanding())
    {
        return; // its response timer re-arms this one
    }
    // Idle (section 8.3): nothing able to measure the RTT went there this period. The
    // timer is re-armed lazily from the last such chunk instead of at every send.
    if (path.IsConfirmed() && path.GetState() == SctpPath::ACTIVE &&
        path.GetLastRttEligibleSend() > path.GetHeartbeatAnchor())
    {
        ArmHeartbeat(path, path.GetLastRttEligibleSend());
        return;
    }
    SendHeartbeat(path);
}

void
SctpSocket::SendHeartbeat(SctpPath& path)
{
    Time now = Simulator::Now();
    uint64_t nonce = m_sctp->GenerateNonce();
    // Heartbeat Information (opaque to the peer): path index, nonce, send time and the
    // destination address (sections 5.4 and 8.3).
    SctpHeartbeatChunk hb;
    hb.type = SctpChunk::HEARTBEAT;
    SctpByteWriter info(hb.info);
    info.WriteU32(path.GetIndex());
    info.WriteU32(static_cast<uint32_t>(nonce >> 32));
    info.WriteU32(static_cast<uint32_t>(nonce));
    uint64_t ns = static_cast<uint64_t>(now.GetNanoSeconds());
    info.WriteU32(static_cast<uint32_t>(ns >> 32));
    info.WriteU32(static_cast<uint32_t>(ns));
    uint8_t raw[16];
    if (Ipv4Address::IsMatchingType(path.GetAddress()))
    {
        Ipv4Address::ConvertFrom(path.GetAddress()).Serialize(raw);
        info.WriteBytes(raw, 4);
    }
    else
    {
        Ipv6Address::ConvertFrom(path.GetAddress()).Serialize(raw);
        info.WriteBytes(raw, 16);
    }
    std::vector<uint8_t> chunk;
    SctpByteWriter w(chunk);
    hb.Serialize(w);
    m_txBuffer.clear();
    SctpByteWriter p(m_txBuffer);
    SctpCommonHeader h;
    h.sourcePort = m_localPort;
    h.destinationPort = m_peerPort;
    h.verificationTag = m_peerTag;
    h.Serialize(p);
    p.WriteBytes(chunk.data(), chunk.size());
    m_txChunkTrace(SctpChunk::HEARTBEAT, 0, static_cast<uint16_t>(chunk.size()), 0);
    m_chunkPathTrace(SctpChunk::HEARTBEAT, 0, path.GetIndex(), false);
    SendOnPath(path, m_txBuffer);
    ++m_heartbeatsSent;
    path.SetHeartbeatOutstanding(true, nonce, now);
    path.SetLastRttEligibleSend(now);
    path.SetHeartbeatAnchor(now);
    Simulator::Cancel(path.GetHeartbeatResponseTimer());
    path.GetHeartbeatResponseTimer() = Simulator::Schedule(path.GetRto(),
                                                           &SctpSocket::OnHeartbeatResponseTimer,
                                                           this,
                                                           path.GetIndex());
}

void
SctpSocket::OnHeartbeatResponseTimer(uint32_t index)
{
    if (index >= m_paths.size() || !IsAssociationAlive())
    {
        return;
    }
    SctpPath& path = *m_paths[index];
    if (!path.IsHeartbeatOutstanding())
    {
        return;
    }
    // Not acknowledged within one RTO (section 8.3): an error, and the RTO backs off.
    Time sent = path.GetHeartbeatSendTime();
    path.SetHeartbeatOutstanding(false, path.GetHeartbeatNonce(), sent);
    NS_LOG_LOGIC(this << " HEARTBEAT to path " << index << " unanswered");
    // Section 8.1: only heartbeats on the path used for data count for the association;
    // section 5.4: never those probing an unconfirmed address.
    bool countForAssociation = path.IsConfirmed() && index == m_dataPath;
    // RFC 7829 section 3: the RTO of a PF destination is not backed off by unanswered
    // HEARTBEATs, so it keeps being probed every RTO.
    if (path.GetState() != SctpPath::POTENTIALLY_FAILED)
    {
        path.BackOffRto(m_rtoMax);
    }
    SctpPath::State before = path.GetState();
    RecordPathError(path, countForAssociation);
    UpdatePrimaryTraces();
    if (countForAssociation && !CountAssociationError())
    {
        return;
    }
    ArmHeartbeat(path, sent);
    if (path.GetState() != before)
    {
        // The destination turned potentially failed (RFC 7829 section 3) or inactive
        // (section 8.2) and new data may have moved to another one (SelectDataPath): send
        // now what waited for this destination's window, as a T3-rtx expiry does, rather
        // than at the next SACK or timeout.
        SendPending();
    }
}

int
SctpSocket::RequestHeartbeat(uint32_t index)
{
    if (index >= m_paths.size() || !IsAssociationAlive() || m_state == SCTP_COOKIE_WAIT ||
        m_state == SCTP_COOKIE_ECHOED)
    {
        m_errno = ERROR_INVAL;
        return -1;
    }
    SctpPath& path = *m_paths[index];
    if (path.IsHeartbeatOutstanding())
    {
        return 0;
    }
    SendHeartbeat(path);
    return 0;
}

void
SctpSocket::HandleHeartbeatAck(const SctpChunk& chunk, const Address& source)
{
    SctpHeartbeatChunk ack;
    if (!ack.Deserialize(chunk) || (ack.info.size() != 24 && ack.info.size() != 36))
    {
        return; // not one of ours
    }
    SctpByteReader r(ack.info.data(), ack.info.size());
    uint32_t index = r.ReadU32();
    uint64_t nonce = (static_cast<uint64_t>(r.ReadU32()) << 32) | r.ReadU32();
    uint64_t ns = (static_cast<uint64_t>(r.ReadU32()) << 32) | r.ReadU32();
    if (!r.IsOk() || index >= m_paths.size())
    {
        return;
    }
    SctpPath& path = *m_paths[index];
    uint8_t raw[16];
    std::size_t length = Ipv4Address::IsMatchingType(path.GetAddress()) ? 4 : 16;
    if (ack.info.size() != 20 + length)
    {
        return;
    }
    if (length == 4)
    {
        Ipv4Address::ConvertFrom(path.GetAddress()).Serialize(raw);
    }
    else
    {
        Ipv6Address::ConvertFrom(path.GetAddress()).Serialize(raw);
    }
    // Only the latest nonce of this destination counts: an old, replayed or forged
    // HEARTBEAT ACK neither confirms a path nor gives an RTT sample.
    if (!std::equal(raw, raw + length, ack.info.data() + 20) || nonce == 0 ||
        nonce != path.GetHeartbeatNonce() || NanoSeconds(static_cast<int64_t>(ns)) !=
                                                 path.GetHeartbeatSendTime())
    {
        return;
    }
    Time now = Simulator::Now();
    Time sent = path.GetHeartbeatSendTime();
    ++m_heartbeatAcks;
    Simulator::Cancel(path.GetHeartbeatResponseTimer());
    path.SetHeartbeatOutstanding(false, 0, sent);
    if (sent <= now)
    {
        Time rtt = now - sent;
        path.OnRttSample(rtt, m_rtoMin, m_rtoMax, m_rtoAlpha, m_rtoBeta);
        m_rttTrace = rtt;
    }
    m_assocErrorCount = 0; // section 8.3
    if (!path.IsConfirmed())
    {
        NS_LOG_INFO(this << " path " << index << " (" << path.GetAddress() << ") confirmed");
        path.SetConfirmed(true);
        m_pathEventTrace(index, SctpPathEvent::CONFIRMED);
    }
    MarkPathActive(path);
    SelectDataPath();
    UpdatePrimaryTraces();
    ArmHeartbeat(path, sent);
}

} // namespace ns3
