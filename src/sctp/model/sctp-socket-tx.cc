/*
 * SctpSocket, part 2: the send side of the association. Bundling of control chunks and
 * DATA into packets (section 6.10), fragmentation (6.9), the rwnd and cwnd rules (6.1),
 * Max.Burst, SACK processing with gap blocks (6.2.1), RTT measurement and RTO (6.3),
 * the T3-rtx timer (6.3.2, 6.3.3), fast retransmit and fast recovery (7.2.4) and the
 * congestion window (7.2).
 */
#include "sctp-l4-protocol.h"
#include "sctp-socket.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpSocketTx");

uint32_t
SctpSocket::GetMaxPayload(const SctpPath& path) const
{
    uint32_t max = path.GetPmdcs() - SctpDataChunk::HEADER_SIZE;
    if (m_maxSegment != 0 && m_maxSegment < max)
    {
        max = m_maxSegment;
    }
    return max;
}

uint32_t
SctpSocket::GetTotalFlight() const
{
    uint32_t total = 0;
    for (const auto& p : m_paths)
    {
        total += p->GetFlightSize();
    }
    return total;
}

void
SctpSocket::SendPending()
{
    if (!IsAssociationAlive() || m_state == SCTP_COOKIE_WAIT || m_paths.empty())
    {
        return;
    }
    if (m_state == SCTP_COOKIE_ECHOED)
    {
        return; // control chunks wait for the association (they go with the COOKIE ECHO)
    }
    bool multipath = m_paths.size() > 1;
    if (m_txQueue.HasUnsentData() && IsPrSctpActive())
    {
        AbandonExpiredUnsent(Simulator::Now());
    }
    uint32_t dataPath = SelectDataPath();
    SctpPath& path = *m_paths[dataPath];
    if (m_txQueue.HasUnsentData() && path.GetFlightSize() == 0)
    {
        path.ApplyIdleDecay(Simulator::Now());
    }
    bool sentNew = false;
    if (multipath && (!m_controlChunks.empty() || m_sackNeeded || m_forwardTsnPending))
    {
        // Replies (SACK, control chunks) go where the peer's packets came from (6.4).
        uint32_t reply = ReplyPath();
        if (reply != dataPath)
        {
            BuildAndSendPacket(*m_paths[reply], false, false, sentNew);
        }
    }
    if (m_fastRtxPending)
    {
        m_fastRtxPending = false;
        if (multipath)
        {
            for (auto& p : m_paths)
            {
                bool any = false;
                for (const auto& c : m_txQueue.GetOutstanding())
                {
                    any = any || (c.markedForRetransmit && c.fastRetransmit &&
                                  c.rtxPath == p->GetIndex());
                }
                if (any)
                {
                    BuildAndSendPacket(*p, true, false, sentNew);
                }
            }
        }
        else
        {
            BuildAndSendPacket(path, true, false, sentNew);
        }
    }
    if (multipath && m_markedForRetransmit > 0)
    {
        // Retransmissions to other destinations than the data path (6.4).
        for (auto& p : m_paths)
        {
            if (p->GetIndex() == dataPath)
            {
                continue;
            }
            while (IsAssociationAlive())
            {
                bool any = false;
                for (const auto& c : m_txQueue.GetOutstanding())
                {
                    any = any || (c.markedForRetransmit && c.rtxPath == p->GetIndex());
                }
                if (!any || !BuildAndSendPacket(*p, false, false, sentNew))
                {
                    break;
                }
            }
        }
    }
    uint32_t burst = 0;
    while (IsAssociationAlive())
    {
        sentNew = false;
        if (!BuildAndSendPacket(path, false, true, sentNew))
        {
            break;
        }
        if (sentNew)
        {
            ++burst;
            if (m_maxBurst != 0 && burst >= m_maxBurst)
            {
                break;
            }
        }
    }
    UpdatePrimaryTraces();
}

bool
SctpSocket::BuildAndSendPacket(SctpPath& path,
                               bool fastRetransmitOnly,
                               bool allowNewData,
                               bool& sentNewData)
{
    m_txBuffer.clear();
    SctpByteWriter w(m_txBuffer);
    SctpCommonHeader header;
    header.sourcePort = m_localPort;
    header.destinationPort = m_peerPort;
    header.verificationTag = m_peerTag;
    header.Serialize(w);
    const std::size_t limit = SctpCommonHeader::SIZE + path.GetPmdcs();

    // Control chunks lead the packet (section 6.10), then the SACK.
    bool reply = !m_controlChunks.empty() || m_sackNeeded;
    if (!m_controlChunks.empty())
    {
        w.WriteBytes(m_controlChunks.data(), m_controlChunks.size());
        if (!m_txChunkTrace.IsEmpty() || !m_chunkPathTrace.IsEmpty())
        {
            std::vector<SctpChunk> views;
            SctpSplitChunks(m_controlChunks.data(), m_controlChunks.size(), views);
            for (const auto& v : views)
            {
                m_txChunkTrace(v.type, v.flags, v.length, 0);
                m_chunkPathTrace(v.type, 0, path.GetIndex(), false);
            }
        }
        m_controlChunks.clear();
    }
    if (m_sackNeeded)
    {
        BuildSack(w);
        m_chunkPathTrace(SctpChunk::SACK, 0, path.GetIndex(), false);
    }
    if (m_forwardTsnPending)
    {
        // RFC 3758 3.5 C3, C4: the new cumulative TSN and, per stream, the largest SSN of
        // the ordered messages it skips.
        m_forwardTsnPending = false;
        if (SctpTsnGt(m_advancedPeerAckPoint, m_cumTsnAcked))
        {
            SctpForwardTsnChunk forward;
            forward.newCumTsn = m_advancedPeerAckPoint;
            for (const auto& c : m_txQueue.GetOutstanding())
            {
                if (SctpTsnGt(c.tsn, m_advancedPeerAckPoint))
                {
                    break;
                }
                if (c.message->unordered)
                {
                    continue;
                }
                auto it = std::find_if(forward.streams.begin(),
                                       forward.streams.end(),
                                       [&c](const auto& e) { return e.first == c.message->streamId; });
                if (it == forward.streams.end())
                {
                    forward.streams.emplace_back(c.message->streamId, c.message->ssn);
                }
                else if (SctpSsnLt(it->second, c.message->ssn))
                {
                    it->second = c.message->ssn;
                }
            }
            std::size_t before = w.GetPosition();
            forward.Serialize(w);
            ++m_forwardTsnSent;
            m_txChunkTrace(SctpChunk::FORWARD_TSN,
                           0,
                           static_cast<uint16_t>(w.GetPosition() - before),
                           forward.newCumTsn);
            m_chunkPathTrace(SctpChunk::FORWARD_TSN, forward.newCumTsn, path.GetIndex(), false);
        }
    }

    bool dataAllowed = m_state == SCTP_ESTABLISHED || m_state == SCTP_SHUTDOWN_PENDING ||
                       m_state == SCTP_SHUTDOWN_RECEIVED;
    bool anyData = false;
    bool retransmittedLowest = false;
    if (dataAllowed)
    {
        // Retransmissions first (sections 6.3.3 E3 and 7.2.4).
        if (m_markedForRetransmit > 0)
        {
            auto& outstanding = m_txQueue.GetOutstanding();
            bool lowestOnPath = true;
            uint32_t marked = m_markedForRetransmit;
            for (auto& c : outstanding)
            {
                if (marked == 0)
                {
                    break;
                }
                bool isLowest = lowestOnPath && !c.gapAcked;
                if (!c.gapAcked && !c.abandoned && c.pathIndex == path.GetIndex())
                {
                    lowestOnPath = false;
                }
                if (!c.markedForRetransmit)
                {
                    continue;
                }
                --marked;
                if (c.rtxPath != path.GetIndex())
                {
                    continue;
                }
                if (fastRetransmitOnly && !c.fastRetransmit)
                {
                    continue;
                }
                if (!fastRetransmitOnly && path.GetFlightSize() >= path.GetCwnd())
                {
                    break;
                }
                if (w.GetPosition() + c.GetWireSize() > limit)
                {
                    break;
                }
                if (isLowest)
                {
                    retransmittedLowest = true;
                }
                TransmitChunk(c, path, true);
                anyData = true;
            }
        }
        // New data (section 6.1 rules A and B).
        if (!fastRetransmitOnly && allowNewData)
        {
            uint32_t maxPayload = GetMaxPayload(path);
            while (m_txQueue.HasUnsentData())
            {
                if (path.GetFlightSize() >= path.GetCwnd())
                {
                    break;
                }
                uint32_t length = m_txQueue.PeekNextChunkLength(maxPayload);
                uint32_t wire = (SctpDataChunk::HEADER_SIZE + length + 3) & ~3u;
                if (w.GetPosition() + wire > limit)
                {
                    break;
                }
                if (length > m_peerRwnd && GetTotalFlight() > 0)
                {
                    break; // rule A; with nothing in flight one chunk probes a zero window
                }
                if (length > m_peerRwnd)
                {
                    m_zeroWindowProbe = true;
                    m_sackDuringProbe = false;
                }
                SctpTxChunk& c = m_txQueue.NextChunk(maxPayload);
                TransmitChunk(c, path, false);
                anyData = true;
                sentNewData = true;
            }
        }
    }
    if (w.GetPosition() == SctpCommonHeader::SIZE)
    {
        return false;
    }
    SendOnPath(path, m_txBuffer, reply ? m_lastDataLocal : Address());
    if (anyData)
    {
        path.SetLastSendTime(Simulator::Now());
        // R1: start T3 if it is not running; restart it when the lowest outstanding
        // chunk of this destination was retransmitted (7.2.4 step 4).
        StartT3(path, retransmittedLowest);
    }
    return true;
}

void
SctpSocket::TransmitChunk(SctpTxChunk& chunk, SctpPath& path, bool retransmission)
{
    SctpByteWriter w(m_txBuffer);
    SctpDataChunk::SerializeHeader(w,
                                   chunk.flags,
                                   chunk.tsn,
                                   chunk.message->streamId,
                                   chunk.message->ssn,
                                   chunk.message->ppid,
                                   chunk.length);
    w.WriteBytes(chunk.message->data.data() + chunk.offset, chunk.length);
    w.PadTo4();
    Time now = Simulator::Now();
    ++chunk.transmissions;
    chunk.lastSent = now;
    if (retransmission)
    {
        ++m_retransmittedChunks;
        m_retransmissionTrace(chunk.tsn, chunk.fastRetransmit);
        chunk.markedForRetransmit = false;
        --m_markedForRetransmit;
        if (chunk.fastRetransmit)
        {
            chunk.fastRetransmit = false;
            chunk.fastRetransmitted = true;
        }
        chunk.missIndications = 0;
        SctpPath& old = *m_paths[chunk.pathIndex];
        if (old.IsRttPending() && old.GetRttTsn() == chunk.tsn)
        {
            old.CancelRttMeasurement(); // Karn's algorithm
        }
    }
    chunk.pathIndex = path.GetIndex();
    if (!chunk.inFlight)
    {
        chunk.inFlight = true;
        path.AddFlight(chunk.GetWireSize());
    }
    m_peerRwnd = chunk.length > m_peerRwnd ? 0 : m_peerRwnd - chunk.length;
    if (!retransmission)
    {
        path.SetLastRttEligibleSend(now);
        if (!path.IsRttPending())
        {
            path.StartRttMeasurement(chunk.tsn, now);
        }
    }
    if (!m_txChunkTrace.IsEmpty())
    {
        m_txChunkTrace(SctpChunk::DATA,
                       chunk.flags,
                       static_cast<uint16_t>(SctpDataChunk::HEADER_SIZE + chunk.length),
                       chunk.tsn);
    }
    m_chunkPathTrace(SctpChunk::DATA, chunk.tsn, path.GetIndex(), retransmission);
    NotifyDataSent(chunk.length);
}

// ------------------------------------------------------------------ T3-rtx

void
SctpSocket::StartT3(SctpPath& path, bool restart)
{
    if (path.IsT3Running() && !restart)
    {
        return;
    }
    Time now = Simulator::Now();
    Time rto = path.GetRto();
    path.SetT3(true, now + rto);
    EventId& ev = path.GetT3Event();
    // The event is rescheduled lazily: restarting a running timer only moves the
    // deadline; the event re-arms itself when it fires early (no event per SACK).
    if (ev.IsPending())
    {
        if (Simulator::GetDelayLeft(ev) <= rto)
        {
            return;
        }
        Simulator::Cancel(ev);
    }
    ev = Simulator::Schedule(rto, &SctpSocket::OnT3Event, this, path.GetIndex());
}

void
SctpSocket::StopT3(SctpPath& path)
{
    path.SetT3(false, path.GetT3Deadline());
}

void
SctpSocket::OnT3Event(uint32_t pathIndex)
{
    if (pathIndex >= m_paths.size())
    {
        return;
    }
    SctpPath& path = *m_paths[pathIndex];
    if (!path.IsT3Running())
    {
        return;
    }
    Time now = Simulator::Now();
    if (now < path.GetT3Deadline())
    {
        path.GetT3Event() =
            Simulator::Schedule(path.GetT3Deadline() - now, &SctpSocket::OnT3Event, this, pathIndex);
        return;
    }
    path.SetT3(false, now);
    OnT3Expired(path);
}

void
SctpSocket::MarkForRetransmit(SctpTxChunk& chunk, bool fast, uint32_t target)
{
    chunk.rtxPath = target;
    if (!fast)
    {
        // Section 6.3.3: after a T3-rtx expiry the RTO collapses again only with a new RTT
        // measurement; a chunk sent before the expiry and acknowledged late (its SACKs
        // were lost) measures the loss recovery, not the path (FreeBSD also stops the
        // measurement of chunks it marks on a timeout).
        SctpPath& sent = *m_paths[chunk.pathIndex];
        if (sent.IsRttPending() && sent.GetRttTsn() == chunk.tsn)
        {
            sent.CancelRttMeasurement();
        }
    }
    if (chunk.inFlight)
    {
        m_paths[chunk.pathIndex]->RemoveFlight(chunk.GetWireSize());
        chunk.inFlight = false;
        m_peerRwnd += chunk.length;
    }
    if (!chunk.markedForRetransmit)
    {
        chunk.markedForRetransmit = true;
        ++m_markedForRetransmit;
    }
    chunk.fastRetransmit = fast;
    chunk.missIndications = 0;
}

void
SctpSocket::OnT3Expired(SctpPath& path)
{
    NS_LOG_INFO(this << " T3-rtx expired on path " << path.GetIndex() << " rto " << path.GetRto());
    ++m_timeouts;
    // Section 6.1 A: an unanswered zero window probe is no error while the peer keeps
    // SACKing (its window may stay closed indefinitely).
    bool probeOnly = m_zeroWindowProbe && m_sackDuringProbe;
    m_sackDuringProbe = false;
    if (!probeOnly)
    {
        // Section 8.2: an error on this destination (it may become inactive and new data
        // move to an alternate); section 8.1: and on the association.
        RecordPathError(path, true);
        if (!CountAssociationError())
        {
            return;
        }
    }
    // E1, E2 (and 7.2.3): ssthresh, cwnd = 1 PMDCS, back off the RTO.
    path.OnRetransmissionTimeout(m_rtoMax);
    if (m_sourceFailover && IsLocallyMultihomed())
    {
        SelectSource(path, true); // section 6.4.1: another source-destination pair
    }
    uint32_t nPaths = static_cast<uint32_t>(m_paths.size());
    if (nPaths > 1 && m_dormantAction == SctpDormantAction::HOP &&
        std::none_of(m_paths.begin(), m_paths.end(), [this](const Ptr<SctpPath>& p) {
            return IsPathUsable(*p);
        }))
    {
        SetDataPath((m_dataPath + 1) % nPaths); // all destinations dormant: hop
    }
    // E3: every chunk outstanding on this destination is to be retransmitted, to an
    // alternate destination if the peer has one (section 6.4) - unless its PR-SCTP
    // policy abandons it (RFC 3758 3.5 A1).
    uint32_t target = RetransmissionPath(path.GetIndex(), false);
    bool prSctp = IsPrSctpActive();
    Time now = Simulator::Now();
    for (auto& c : m_txQueue.GetOutstanding())
    {
        if (c.abandoned || c.gapAcked || c.transmissions == 0)
        {
            continue;
        }
        if (c.markedForRetransmit && c.rtxPath == path.GetIndex())
        {
            c.rtxPath = target; // waiting for this destination's window: move it too
        }
        if (c.pathIndex != path.GetIndex())
        {
            continue;
        }
        if (prSctp && PolicyAbandons(c, now))
        {
            AbandonMessage(c.message, c.message->prPolicy);
            continue;
        }
        MarkForRetransmit(c, false, target);
    }
    m_fastRecovery = false;
    if (prSctp)
    {
        AdvancePeerAckPoint(now);
        if (SctpTsnGt(m_advancedPeerAckPoint, m_cumTsnAcked))
        {
            QueueForwardTsn(); // also resends a lost FORWARD TSN
        }
    }
    UpdatePrimaryTraces();
    SendPending();
    if (!IsAssociationAlive())
    {
        return;
    }
    bool waiting = path.GetFlightSize() > 0;
    for (const auto& c : m_txQueue.GetOutstanding())
    {
        waiting = waiting || (c.markedForRetransmit && c.rtxPath == path.GetIndex());
    }
    if (!path.IsT3Running() && waiting)
    {
        StartT3(path, false);
    }
    if (SctpTsnGt(m_advancedPeerAckPoint, m_cumTsnAcked) &&
        std::none_of(m_paths.begin(), m_paths.end(), [](const Ptr<SctpPath>& p) {
            return p->IsT3Running();
        }))
    {
        StartT3(*m_paths[m_dataPath], false); // RFC 3758 3.5 C5
    }
    if (m_abandonedSpace)
    {
        m_abandonedSpace = false;
        NotifySpaceAvailable();
    }
}

// ------------------------------------------------------------------ SACK

void
SctpSocket::HandleSack(const SctpChunk& chunk)
{
    if (!m_sackIn.Deserialize(chunk))
    {
        NS_LOG_LOGIC(this << " malformed SACK discarded");
        return;
    }
    if (m_state == SCTP_COOKIE_WAIT || m_state == SCTP_COOKIE_ECHOED)
    {
        return;
    }
    uint32_t cum = m_sackIn.cumTsnAck;
    if (SctpTsnLt(cum, m_cumTsnAcked))
    {
        return; // section 6.2.1 D i: an old SACK that arrived out of order
    }
    if (SctpTsnGt(cum, m_txQueue.GetHighestSentTsn()))
    {
        ProtocolViolation("cumulative TSN ack beyond the highest TSN sent");
        return;
    }
    for (const auto& [start, end] : m_sackIn.gapBlocks)
    {
        // RFC 9260 6.2.1: acknowledging a TSN never sent is a protocol violation.
        if (start <= end && SctpTsnGt(cum + end, m_txQueue.GetHighestSentTsn()))
        {
            ProtocolViolation("gap ack block beyond the highest TSN sent");
            return;
        }
    }
    bool probing = m_zeroWindowProbe;
    if (probing)
    {
        m_sackDuringProbe = true; // section 6.1 A: the peer answers while we probe
    }
    HandleSackAcked(cum, m_sackIn.aRwnd, m_sackIn.gapBlocks, false);
    if (probing && IsAssociationAlive())
    {
        // Section 6.1 A: the peer "has no buffer space" while its rwnd is smaller than the
        // size of the next DATA chunk, not only at an a_rwnd of 0. Probing is over once
        // the window takes that chunk; until then this SACK shows a live peer with a
        // closed window (not unreachable), and unanswered probes are no errors. A peer
        // that advertises a few hundred bytes and drops the probe must not get the
        // association aborted after Association.Max.Retrans probe timeouts.
        uint32_t next = NextChunkLength();
        if (m_sackIn.aRwnd == 0 || (next > 0 && m_peerRwnd < next))
        {
            m_assocErrorCount = 0;
        }
        else
        {
            m_zeroWindowProbe = false;
        }
    }
}

uint32_t
SctpSocket::NextChunkLength() const
{
    if (m_markedForRetransmit > 0)
    {
        for (const auto& c : m_txQueue.GetOutstanding())
        {
            if (c.markedForRetransmit)
            {
                return c.length; // retransmissions go first (6.1 C)
            }
        }
    }
    if (!m_txQueue.HasUnsentData() || m_paths.empty())
    {
        return 0;
    }
    uint32_t path = m_dataPath < m_paths.size() ? m_dataPath : m_primaryPath;
    return m_txQueue.PeekNextChunkLength(GetMaxPayload(*m_paths[path]));
}

void
SctpSocket::ProcessCumulativeAck(uint32_t cumTsnAck, uint32_t aRwnd, bool fromShutdown)
{
    if (SctpTsnLt(cumTsnAck, m_cumTsnAcked) || SctpTsnGt(cumTsnAck, m_txQueue.GetHighestSentTsn()))
    {
        return;
    }
    static const std::vector<std::pair<uint16_t, uint16_t>> noGaps;
    HandleSackAcked(cumTsnAck, aRwnd, noGaps, fromShutdown);
}

void
SctpSocket::AckChunk(SctpTxChunk& c, Time now, bool wasMarked)
{
    SctpPath& path = *m_paths[c.pathIndex];
    if (c.inFlight)
    {
        path.RemoveFlight(c.GetWireSize());
        c.inFlight = false;
    }
    // The destination credited with this acknowledgement (cwnd growth, T3-rtx restart,
    // section 8.2's error counter): the one the chunk was last sent to, or, when it was
    // marked for retransmission, the one it was moved to (FreeBSD moves a chunk to the
    // alternate when it marks it). A marked chunk was classified lost and is no longer
    // outstanding data on the destination it was sent to (section 2, "Outstanding Data";
    // 6.3.3 E3, 7.2.4): its acknowledgement typically comes late, through the alternate,
    // for a transmission made before that destination failed, and must not make a dead
    // destination look alive (restart its T3-rtx, grow its cwnd, clear its errors).
    uint32_t credited = wasMarked ? c.rtxPath : c.pathIndex;
    m_ackedPerPath[credited] += c.GetWireSize();
    // Section 8.2: "clear the error counter of the destination transport address to which
    // the DATA chunk was last sent" - only from a chunk sent there, and sent once: which
    // transmission of a retransmitted chunk arrived is ambiguous, and 8.2 allows not
    // clearing the counter then (FreeBSD does not: net_ack2 only counts chunks sent once).
    if (credited == c.pathIndex && c.transmissions == 1)
    {
        m_deliveredPerPath[credited] = 1;
    }
    if (path.IsRttPending() && path.GetRttTsn() == c.tsn)
    {
        if (c.transmissions == 1)
        {
            Time r = now - path.GetRttSendTime();
            path.OnRttSample(r, m_rtoMin, m_rtoMax, m_rtoAlpha, m_rtoBeta);
            m_rttTrace = r;
        }
        path.CancelRttMeasurement();
    }
}

void
SctpSocket::HandleSackAcked(uint32_t cum,
                            uint32_t aRwnd,
                            const std::vector<std::pair<uint16_t, uint16_t>>& gaps,
                            bool fromShutdown)
{
    Time now = Simulator::Now();
    std::size_t nPaths = m_paths.size();
    m_ackedPerPath.assign(nPaths, 0);
    m_deliveredPerPath.assign(nPaths, 0);
    m_flightBefore.resize(nPaths);
    for (std::size_t i = 0; i < nPaths; ++i)
    {
        m_flightBefore[i] = m_paths[i]->GetFlightSize();
    }
    bool cumAdvanced = SctpTsnGt(cum, m_cumTsnAcked);
    // Fast Recovery as it was when this SACK arrived: a SACK that starts it still grows
    // the window first (RFC 9260 7.2.3/7.2.4).
    bool inFastRecovery = m_fastRecovery;
    bool newlyAcked = false;
    uint32_t htna = cum; // highest TSN newly acknowledged
    uint32_t freed = 0;

    // 1. Chunks covered by the cumulative TSN ack.
    auto& outstanding = m_txQueue.GetOutstanding();
    while (!outstanding.empty() && SctpTsnLe(outstanding.front().tsn, cum))
    {
        SctpTxChunk& c = outstanding.front();
        if (c.gapAcked)
        {
            --m_gapAckedChunks;
        }
        else if (!c.abandoned)
        {
            AckChunk(c, now, c.markedForRetransmit);
            newlyAcked = true;
        }
        if (c.markedForRetransmit)
        {
            --m_markedForRetransmit;
        }
        freed += c.length;
        m_txQueue.PopAcked(c.tsn);
    }
    if (cumAdvanced)
    {
        m_cumTsnAcked = cum;
    }

    // 2. Gap Ack Blocks (and reneging of chunks no longer reported).
    if (!fromShutdown && (!gaps.empty() || m_gapAckedChunks > 0) && !outstanding.empty())
    {
        m_gapRanges.clear();
        for (const auto& g : gaps)
        {
            if (g.first == 0 || g.first > g.second)
            {
                continue; // malformed block: ignored
            }
            m_gapRanges.emplace_back(cum + g.first, cum + g.second);
        }
        std::sort(m_gapRanges.begin(), m_gapRanges.end(), [](const auto& a, const auto& b) {
            return SctpTsnLt(a.first, b.first);
        });
        std::size_t g = 0;
        uint32_t highestReported = cum;
        for (auto& c : outstanding)
        {
            while (g < m_gapRanges.size() && SctpTsnLt(m_gapRanges[g].second, c.tsn))
            {
                ++g;
            }
            bool covered = g < m_gapRanges.size() && SctpTsnGe(c.tsn, m_gapRanges[g].first) &&
                           SctpTsnLe(c.tsn, m_gapRanges[g].second);
            if (covered && c.transmissions > 0)
            {
                highestReported = c.tsn;
                if (!c.gapAcked)
                {
                    c.gapAcked = true;
                    ++m_gapAckedChunks;
                    bool wasMarked = c.markedForRetransmit;
                    if (c.markedForRetransmit)
                    {
                        c.markedForRetransmit = false;
                        c.fastRetransmit = false;
                        --m_markedForRetransmit;
                    }
                    if (!c.abandoned)
                    {
                        AckChunk(c, now, wasMarked);
                        newlyAcked = true;
                        htna = c.tsn;
                    }
                }
            }
            else if (!covered && c.gapAcked)
            {
                // The receiver dropped data it had reported (reneging). RFC 9260 6.2.1 D iv:
                // the chunk is outstanding again and possibly missing; count one miss
                // indication (below) and make sure T3-rtx runs for its destination, but
                // do not retransmit it at once.
                c.gapAcked = false;
                --m_gapAckedChunks;
                if (!c.abandoned)
                {
                    c.inFlight = true;
                    m_paths[c.pathIndex]->AddFlight(c.GetWireSize());
                    m_reneged.push_back(c.tsn);
                }
            }
        }
        // 3. Miss indications (7.2.4) for chunks below the highest newly acked TSN
        //    (HTNA), or below the highest reported one in Fast Recovery; a reneged
        //    chunk gets exactly one for this SACK wherever it lies (6.2.1 D iv).
        uint32_t limit = (m_fastRecovery && cumAdvanced) ? highestReported : htna;
        for (auto& c : outstanding)
        {
            bool reneged = std::find(m_reneged.begin(), m_reneged.end(), c.tsn) != m_reneged.end();
            if (!reneged && !SctpTsnLt(c.tsn, limit))
            {
                if (m_reneged.empty())
                {
                    break;
                }
                continue;
            }
            if (c.gapAcked || c.markedForRetransmit || c.transmissions == 0 ||
                c.fastRetransmitted || c.abandoned)
            {
                continue;
            }
            if (++c.missIndications >= m_fastRtxTrigger)
            {
                if (IsPrSctpActive() && PolicyAbandons(c, now))
                {
                    AbandonMessage(c.message, c.message->prPolicy); // RFC 3758 3.5 A2
                    continue;
                }
                MarkForRetransmit(c, true, RetransmissionPath(c.pathIndex, true));
                m_fastRtxPending = true;
                if (!m_fastRecovery)
                {
                    m_fastRecovery = true;
                    m_fastRecoveryExit = m_txQueue.GetHighestSentTsn();
                    ++m_fastRetransmits;
                    // RFC 9260 7.2.3/7.2.4: the cwnd increase for what this SACK
                    // acknowledged (step 4) comes first; the reduction is applied after it.
                    m_fastRtxReduce.push_back(c.pathIndex);
                }
            }
        }
        // 6.2.1 D iv: start T3-rtx for the destination of a reneged chunk if none runs.
        for (uint32_t tsn : m_reneged)
        {
            for (const auto& c : outstanding)
            {
                if (c.tsn == tsn && c.inFlight && !m_paths[c.pathIndex]->IsT3Running())
                {
                    StartT3(*m_paths[c.pathIndex], false);
                }
            }
        }
        m_reneged.clear();
    }

    // 4. Congestion window per destination (7.2.1, 7.2.2).
    for (std::size_t i = 0; i < nPaths; ++i)
    {
        if (m_ackedPerPath[i] == 0)
        {
            continue;
        }
        SctpPath& p = *m_paths[i];
        bool fullyUtilized = m_flightBefore[i] + p.GetPmdcs() > p.GetCwnd();
        p.OnBytesAcked(m_ackedPerPath[i], fullyUtilized, inFastRecovery);
        if (!m_deliveredPerPath[i])
        {
            continue; // only chunks sent elsewhere or retransmitted (AckChunk)
        }
        // Section 8.2: data acknowledged clears the destination's error counter (and
        // makes an inactive destination active again; RFC 7829 section 3: a potentially
        // failed one too).
        if (p.GetState() != SctpPath::ACTIVE)
        {
            MarkPathActive(p);
        }
        p.ResetErrorCount();
    }
    for (uint32_t i : m_fastRtxReduce)
    {
        SctpPath& p = *m_paths[i];
        p.OnFastRetransmit();
        NS_LOG_INFO(this << " fast retransmit on path " << i << ", cwnd " << p.GetCwnd());
    }
    m_fastRtxReduce.clear();
    if (m_fastRecovery && SctpTsnGe(m_cumTsnAcked, m_fastRecoveryExit))
    {
        m_fastRecovery = false;
    }
    if (newlyAcked)
    {
        m_assocErrorCount = 0;
    }

    // 5. Peer receiver window (6.2.1 C): a_rwnd minus what is still in flight.
    if (!fromShutdown)
    {
        uint32_t flight = GetTotalFlight();
        m_peerRwnd = aRwnd > flight ? aRwnd - flight : 0;
        m_peerRwndTrace = m_peerRwnd;
    }

    // PR-SCTP (RFC 3758 3.5 C1-C3): move the Advanced.Peer.Ack.Point over abandoned
    // chunks and tell the receiver if it is ahead of its cumulative TSN.
    if (IsPrSctpActive() && !fromShutdown)
    {
        AdvancePeerAckPoint(now);
        if (SctpTsnGt(m_advancedPeerAckPoint, cum))
        {
            QueueForwardTsn();
        }
    }

    // 6. T3-rtx (6.3.2 R2, R3).
    for (std::size_t i = 0; i < nPaths; ++i)
    {
        SctpPath& p = *m_paths[i];
        if (p.GetFlightSize() == 0)
        {
            StopT3(p);
        }
        else if (cumAdvanced && m_ackedPerPath[i] > 0)
        {
            StartT3(p, true);
        }
    }
    if (m_forwardTsnPending)
    {
        // RFC 3758 3.5 C5: a timer must run while a FORWARD TSN is unacknowledged.
        bool running = std::any_of(m_paths.begin(), m_paths.end(), [](const Ptr<SctpPath>& p) {
            return p->IsT3Running();
        });
        if (!running)
        {
            StartT3(*m_paths[m_dataPath < nPaths ? m_dataPath : m_primaryPath], false);
        }
    }
    UpdatePrimaryTraces();
    if (freed > 0 || m_abandonedSpace)
    {
        m_abandonedSpace = false;
        NotifySpaceAvailable();
    }
    if (m_state == SCTP_SHUTDOWN_PENDING || m_state == SCTP_SHUTDOWN_RECEIVED)
    {
        CheckShutdownProgress();
    }
}

void
SctpSocket::NotifySpaceAvailable()
{
    if (IsAssociationAlive() && !m_closeRequested && !m_shutdownSend)
    {
        NotifySend(GetTxAvailable());
    }
}

} // namespace ns3
