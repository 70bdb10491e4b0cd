/*
 * SctpSender: bundling of control chunks and DATA into packets (section 6.10),
 * fragmentation (6.9), the rwnd and cwnd rules (6.1), Max.Burst, SACK processing with
 * gap blocks (6.2.1), RTT measurement (6.3), T3-rtx expiry (6.3.3), fast retransmit and
 * fast recovery (7.2.4); the congestion window itself is the association's
 * SctpCongestionOps'. PR-SCTP is in sctp-sender-prsctp.cc.
 */
#include "sctp-sender.h"

#include "sctp-association.h"
#include "sctp-l4-protocol.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpSender");

SctpSender::SctpSender(SctpAssociation& association)
    : m_association(association)
{
}

void
SctpSender::Initialize(uint32_t initialTsn, uint16_t outboundStreams)
{
    m_zeroWindowProbe = false;
    m_sackDuringProbe = false;
    m_txQueue.Initialize(initialTsn, outboundStreams);
    m_cumTsnAcked = initialTsn - 1;
    m_advancedPeerAckPoint = m_cumTsnAcked;
    m_forwardTsnPending = false;
    m_fastRecovery = false;
    m_markedForRetransmit = 0;
    m_gapAckedChunks = 0;
}

void
SctpSender::SetPeerInitialWindow(uint32_t peerRwnd)
{
    m_peerRwnd = peerRwnd;
    m_peerInitialRwnd = peerRwnd;
    m_association.GetTraces().peerRwnd = peerRwnd;
}

void
SctpSender::Reset()
{
    m_txQueue.Initialize(m_txQueue.GetNextTsn(), m_association.GetConfig().outboundStreams);
    m_cumTsnAcked = m_txQueue.GetNextTsn() - 1;
    m_markedForRetransmit = 0;
    m_gapAckedChunks = 0;
    SctpPathManager& paths = m_association.GetPathManager();
    for (uint32_t i = 0; i < paths.GetNPaths(); ++i)
    {
        SctpPath& p = paths.At(i);
        p.RemoveFlight(p.GetFlightSize());
    }
}

void
SctpSender::SetStreamScheduler(Ptr<SctpStreamScheduler> scheduler)
{
    m_txQueue.SetScheduler(scheduler);
}

Ptr<SctpStreamScheduler>
SctpSender::GetStreamScheduler() const
{
    return m_txQueue.GetScheduler();
}

void
SctpSender::SetIData(bool iData)
{
    // RFC 8260 2.2: with I-DATA negotiated every user message goes in I-DATA chunks, and
    // the scheduler may then interleave fragments of messages of different streams.
    Ptr<SctpDataFormat> format;
    if (iData)
    {
        format = Create<SctpIDataChunkFormat>();
    }
    else
    {
        format = Create<SctpDataChunkFormat>();
    }
    m_txQueue.SetDataFormat(format);
    m_txQueue.GetScheduler()->SetInterleaving(format->AllowsInterleaving());
}

void
SctpSender::Enqueue(Ptr<SctpOutboundMessage> message)
{
    m_txQueue.Enqueue(message);
}

// ------------------------------------------------------------------ inspection

bool
SctpSender::IsEmpty() const
{
    return m_txQueue.IsEmpty();
}

uint32_t
SctpSender::GetBufferedBytes() const
{
    return m_txQueue.GetBufferedBytes();
}

uint32_t
SctpSender::GetNextTsn() const
{
    return m_txQueue.GetNextTsn();
}

uint32_t
SctpSender::GetCumulativeTsnAcked() const
{
    return m_cumTsnAcked;
}

uint32_t
SctpSender::GetPeerRwnd() const
{
    return m_peerRwnd;
}

uint32_t
SctpSender::GetPeerInitialRwnd() const
{
    return m_peerInitialRwnd;
}

bool
SctpSender::IsInFastRecovery() const
{
    return m_fastRecovery;
}

uint32_t
SctpSender::GetFastRetransmitCount() const
{
    return m_fastRetransmits;
}

uint32_t
SctpSender::GetTimeoutCount() const
{
    return m_timeouts;
}

uint32_t
SctpSender::GetRetransmittedChunkCount() const
{
    return m_retransmittedChunks;
}

uint32_t
SctpSender::GetAdvancedPeerAckPoint() const
{
    return SctpTsnLt(m_advancedPeerAckPoint, m_cumTsnAcked) ? m_cumTsnAcked
                                                            : m_advancedPeerAckPoint;
}

uint32_t
SctpSender::GetAbandonedMessageCount() const
{
    return m_abandonedMessages;
}

uint32_t
SctpSender::GetAbandonedUnsentCount() const
{
    return m_abandonedUnsent;
}

uint32_t
SctpSender::GetForwardTsnSentCount() const
{
    return m_forwardTsnSent;
}

bool
SctpSender::HasForwardTsnPending() const
{
    return m_forwardTsnPending;
}

uint32_t
SctpSender::GetMaxPayload(const SctpPath& path) const
{
    uint32_t max = path.GetPmdcs() - m_txQueue.GetDataFormat()->GetHeaderSize();
    uint32_t maxSegment = m_association.GetConfig().maxSegment;
    if (maxSegment != 0 && maxSegment < max)
    {
        max = maxSegment;
    }
    return max;
}

uint32_t
SctpSender::GetTotalFlight() const
{
    const SctpPathManager& paths = m_association.GetPathManager();
    uint32_t total = 0;
    for (uint32_t i = 0; i < paths.GetNPaths(); ++i)
    {
        total += paths.At(i).GetFlightSize();
    }
    return total;
}

uint32_t
SctpSender::NextChunkLength() const
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
    const SctpPathManager& paths = m_association.GetPathManager();
    if (!m_txQueue.HasUnsentData() || paths.IsEmpty())
    {
        return 0;
    }
    uint32_t path = paths.GetDataPathIndex() < paths.GetNPaths() ? paths.GetDataPathIndex()
                                                                 : paths.GetPrimaryPathIndex();
    return m_txQueue.PeekNextChunkLength(GetMaxPayload(paths.At(path)));
}

std::string
SctpSender::CheckInvariants() const
{
    const SctpPathManager& paths = m_association.GetPathManager();
    uint32_t nPaths = paths.GetNPaths();
    std::vector<uint64_t> flight(nPaths, 0);
    const auto& outstanding = m_txQueue.GetOutstanding();
    uint32_t expected = m_cumTsnAcked + 1;
    uint32_t gapAcked = 0;
    uint32_t marked = 0;
    for (const auto& c : outstanding)
    {
        if (c.tsn != expected)
        {
            return "outstanding TSNs not consecutive from cum ack + 1 at " + std::to_string(c.tsn);
        }
        ++expected;
        if (c.pathIndex >= nPaths)
        {
            return "chunk on unknown path";
        }
        if (c.inFlight)
        {
            flight[c.pathIndex] += c.GetWireSize();
        }
        if (c.gapAcked)
        {
            ++gapAcked;
            if (c.inFlight)
            {
                return "gap-acked chunk counted in flight";
            }
        }
        if (c.markedForRetransmit)
        {
            ++marked;
            if (c.rtxPath >= nPaths)
            {
                return "retransmission to an unknown path";
            }
        }
        if (c.abandoned && (c.inFlight || c.markedForRetransmit))
        {
            return "abandoned chunk in flight or marked for retransmission";
        }
    }
    if (SctpTsnGt(m_advancedPeerAckPoint, m_cumTsnAcked) &&
        SctpTsnGt(m_advancedPeerAckPoint, m_txQueue.GetHighestSentTsn()))
    {
        return "Advanced.Peer.Ack.Point beyond the highest TSN sent";
    }
    if (!outstanding.empty() || m_association.IsAlive())
    {
        if (expected != m_txQueue.GetNextTsn() && !outstanding.empty())
        {
            return "next TSN does not follow the outstanding chunks";
        }
    }
    for (uint32_t i = 0; i < nPaths; ++i)
    {
        if (flight[i] != paths.At(i).GetFlightSize())
        {
            return "flight size of path " + std::to_string(i) + " is " +
                   std::to_string(paths.At(i).GetFlightSize()) + ", chunks say " +
                   std::to_string(flight[i]);
        }
        if (m_association.IsAlive() && m_association.GetState() != SCTP_COOKIE_WAIT &&
            paths.At(i).GetCwnd() == 0)
        {
            return "zero congestion window";
        }
    }
    if (gapAcked != m_gapAckedChunks)
    {
        return "gap-acked count mismatch";
    }
    if (marked != m_markedForRetransmit)
    {
        return "marked-for-retransmission count mismatch";
    }
    return "";
}

// ------------------------------------------------------------------ sending

void
SctpSender::SendPending()
{
    SctpAssociation& a = m_association;
    SctpPathManager& paths = a.GetPathManager();
    if (!a.IsAlive() || a.GetState() == SCTP_COOKIE_WAIT || paths.IsEmpty())
    {
        return;
    }
    if (a.GetState() == SCTP_COOKIE_ECHOED)
    {
        return; // control chunks wait for the association (they go with the COOKIE ECHO)
    }
    uint32_t nPaths = paths.GetNPaths();
    bool multipath = nPaths > 1;
    if (m_txQueue.HasUnsentData() && a.IsPrSctpActive())
    {
        AbandonExpiredUnsent(Simulator::Now());
    }
    uint32_t dataPath = paths.SelectDataPath();
    SctpPath& path = paths.At(dataPath);
    if (m_txQueue.HasUnsentData() && path.GetFlightSize() == 0)
    {
        a.GetCongestionOps()->Idle(path, Simulator::Now());
    }
    bool sentNew = false;
    if (multipath && (a.HasLeadingChunks() || m_forwardTsnPending))
    {
        // Replies (SACK, control chunks) go where the peer's packets came from (6.4).
        uint32_t reply = paths.ReplyPath();
        if (reply != dataPath)
        {
            BuildAndSendPacket(paths.At(reply), false, false, sentNew);
        }
    }
    if (m_fastRtxPending)
    {
        m_fastRtxPending = false;
        if (multipath)
        {
            for (uint32_t i = 0; i < nPaths; ++i)
            {
                bool any = false;
                for (const auto& c : m_txQueue.GetOutstanding())
                {
                    any = any || (c.markedForRetransmit && c.fastRetransmit && c.rtxPath == i);
                }
                if (any)
                {
                    BuildAndSendPacket(paths.At(i), true, false, sentNew);
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
        for (uint32_t i = 0; i < nPaths; ++i)
        {
            if (i == dataPath)
            {
                continue;
            }
            while (a.IsAlive())
            {
                bool any = false;
                for (const auto& c : m_txQueue.GetOutstanding())
                {
                    any = any || (c.markedForRetransmit && c.rtxPath == i);
                }
                if (!any || !BuildAndSendPacket(paths.At(i), false, false, sentNew))
                {
                    break;
                }
            }
        }
    }
    uint32_t maxBurst = a.GetParameters().maxBurst;
    uint32_t burst = 0;
    while (a.IsAlive())
    {
        sentNew = false;
        if (!BuildAndSendPacket(path, false, true, sentNew))
        {
            break;
        }
        if (sentNew)
        {
            ++burst;
            if (maxBurst != 0 && burst >= maxBurst)
            {
                break;
            }
        }
    }
    paths.UpdatePrimaryTraces();
}

bool
SctpSender::BuildAndSendPacket(SctpPath& path,
                               bool fastRetransmitOnly,
                               bool allowNewData,
                               bool& sentNewData)
{
    SctpAssociation& a = m_association;
    m_txBuffer.clear();
    SctpByteWriter w(m_txBuffer);
    SctpCommonHeader header;
    header.sourcePort = a.GetLocalPort();
    header.destinationPort = a.GetPeerPort();
    header.verificationTag = a.GetPeerVerificationTag();
    header.Serialize(w);
    const std::size_t limit = SctpCommonHeader::SIZE + path.GetPmdcs();

    // Control chunks and the SACK lead the packet (section 6.10), then FORWARD TSN.
    bool reply = a.WriteLeadingChunks(w, path);
    if (m_forwardTsnPending)
    {
        WriteForwardTsn(w, path);
    }

    SctpState state = a.GetState();
    bool dataAllowed = state == SCTP_ESTABLISHED || state == SCTP_SHUTDOWN_PENDING ||
                       state == SCTP_SHUTDOWN_RECEIVED;
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
            bool newDataInPacket = false;
            uint32_t maxPayload = GetMaxPayload(path);
            while (m_txQueue.HasUnsentData())
            {
                if (path.GetFlightSize() >= path.GetCwnd())
                {
                    break;
                }
                uint32_t length = m_txQueue.PeekNextChunkLength(maxPayload);
                uint32_t wire = (m_txQueue.GetDataFormat()->GetHeaderSize() + length + 3) & ~3u;
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
                newDataInPacket = true;
            }
            if (newDataInPacket)
            {
                m_txQueue.PacketDone(); // the round robin per packet scheduler moves on
            }
        }
    }
    if (w.GetPosition() == SctpCommonHeader::SIZE)
    {
        return false;
    }
    SctpPathManager& paths = a.GetPathManager();
    paths.SendOnPath(path, m_txBuffer, reply ? paths.GetReplySource() : Address());
    if (anyData)
    {
        path.SetLastSendTime(Simulator::Now());
        // R1: start T3 if it is not running; restart it when the lowest outstanding
        // chunk of this destination was retransmitted (7.2.4 step 4).
        path.StartT3(retransmittedLowest);
    }
    return true;
}

void
SctpSender::WriteForwardTsn(SctpByteWriter& w, SctpPath& path)
{
    // RFC 3758 3.5 C3, C4 (FORWARD TSN) or RFC 8260 2.3 (I-FORWARD-TSN with I-DATA):
    // the chunk format writes the entries of the messages skipped.
    m_forwardTsnPending = false;
    if (!SctpTsnGt(m_advancedPeerAckPoint, m_cumTsnAcked))
    {
        return;
    }
    std::size_t before = w.GetPosition();
    uint8_t type = m_txQueue.GetDataFormat()->WriteForwardTsn(w,
                                                              m_advancedPeerAckPoint,
                                                              m_txQueue.GetOutstanding());
    ++m_forwardTsnSent;
    SctpAssociationTraces& traces = m_association.GetTraces();
    traces.txChunk(type,
                   0,
                   static_cast<uint16_t>(w.GetPosition() - before),
                   m_advancedPeerAckPoint);
    traces.chunkPath(type, m_advancedPeerAckPoint, path.GetIndex(), false);
}

void
SctpSender::SerializeDataChunk(SctpByteWriter& w, const SctpTxChunk& chunk) const
{
    m_txQueue.GetDataFormat()->Serialize(w, chunk);
}

void
SctpSender::TransmitChunk(SctpTxChunk& chunk, SctpPath& path, bool retransmission)
{
    SctpByteWriter w(m_txBuffer);
    SerializeDataChunk(w, chunk);
    Time now = Simulator::Now();
    ++chunk.transmissions;
    chunk.lastSent = now;
    SctpAssociationTraces& traces = m_association.GetTraces();
    if (retransmission)
    {
        ++m_retransmittedChunks;
        traces.retransmission(chunk.tsn, chunk.fastRetransmit);
        chunk.markedForRetransmit = false;
        --m_markedForRetransmit;
        if (chunk.fastRetransmit)
        {
            chunk.fastRetransmit = false;
            chunk.fastRetransmitted = true;
        }
        chunk.missIndications = 0;
        SctpPath& old = m_association.GetPathManager().At(chunk.pathIndex);
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
    if (!traces.txChunk.IsEmpty())
    {
        traces.txChunk(m_txQueue.GetDataFormat()->GetChunkType(),
                       chunk.flags,
                       static_cast<uint16_t>(chunk.headerSize + chunk.length),
                       chunk.tsn);
    }
    traces.chunkPath(m_txQueue.GetDataFormat()->GetChunkType(),
                     chunk.tsn,
                     path.GetIndex(),
                     retransmission);
    m_association.NotifyDataSent(chunk.length);
}

// ------------------------------------------------------------------ T3-rtx

void
SctpSender::BackOff(SctpPath& path)
{
    // E1, E2 (and 7.2.3): ssthresh and cwnd as the congestion control says, the RTO
    // doubled, and no RTT measurement across the timeout.
    m_association.GetCongestionOps()->RetransmissionTimeout(path);
    path.BackOffRto(m_association.GetParameters().rtoMax);
    path.CancelRttMeasurement();
}

void
SctpSender::MarkForRetransmit(SctpTxChunk& chunk, bool fast, uint32_t target)
{
    SctpPathManager& paths = m_association.GetPathManager();
    chunk.rtxPath = target;
    if (!fast)
    {
        // Section 6.3.3: after a T3-rtx expiry the RTO collapses again only with a new RTT
        // measurement; a chunk sent before the expiry and acknowledged late (its SACKs
        // were lost) measures the loss recovery, not the path (FreeBSD also stops the
        // measurement of chunks it marks on a timeout).
        SctpPath& sent = paths.At(chunk.pathIndex);
        if (sent.IsRttPending() && sent.GetRttTsn() == chunk.tsn)
        {
            sent.CancelRttMeasurement();
        }
    }
    if (chunk.inFlight)
    {
        paths.At(chunk.pathIndex).RemoveFlight(chunk.GetWireSize());
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
SctpSender::OnT3Expired(SctpPath& path)
{
    SctpAssociation& a = m_association;
    SctpPathManager& paths = a.GetPathManager();
    NS_LOG_INFO(&a << " T3-rtx expired on path " << path.GetIndex() << " rto " << path.GetRto());
    ++m_timeouts;
    // Section 6.1 A: an unanswered zero window probe is no error while the peer keeps
    // SACKing (its window may stay closed indefinitely).
    bool probeOnly = m_zeroWindowProbe && m_sackDuringProbe;
    m_sackDuringProbe = false;
    if (!probeOnly)
    {
        // Section 8.2: an error on this destination (it may become inactive and new data
        // move to an alternate); section 8.1: and on the association.
        paths.RecordPathError(path);
        if (!a.CountAssociationError())
        {
            return;
        }
    }
    BackOff(path);
    if (a.GetConfig().sourceAddressFailover && paths.IsLocallyMultihomed())
    {
        paths.SelectSource(path, true); // section 6.4.1: another source-destination pair
    }
    uint32_t nPaths = paths.GetNPaths();
    if (nPaths > 1 && a.GetConfig().dormantAction == SctpDormantAction::HOP)
    {
        bool anyUsable = false;
        for (uint32_t i = 0; i < nPaths; ++i)
        {
            anyUsable = anyUsable || paths.IsPathUsable(paths.At(i));
        }
        if (!anyUsable)
        {
            paths.SetDataPath((paths.GetDataPathIndex() + 1) % nPaths); // all dormant: hop
        }
    }
    // E3: every chunk outstanding on this destination is to be retransmitted, to an
    // alternate destination if the peer has one (section 6.4) - unless its PR-SCTP
    // policy abandons it (RFC 3758 3.5 A1).
    uint32_t target = paths.RetransmissionPath(path.GetIndex(), false);
    bool prSctp = a.IsPrSctpActive();
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
    paths.UpdatePrimaryTraces();
    SendPending();
    if (!a.IsAlive())
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
        path.StartT3(false);
    }
    if (SctpTsnGt(m_advancedPeerAckPoint, m_cumTsnAcked))
    {
        bool running = false;
        for (uint32_t i = 0; i < nPaths; ++i)
        {
            running = running || paths.At(i).IsT3Running();
        }
        if (!running)
        {
            paths.At(paths.GetDataPathIndex()).StartT3(false); // RFC 3758 3.5 C5
        }
    }
    if (m_abandonedSpace)
    {
        m_abandonedSpace = false;
        a.NotifySpaceAvailable();
    }
}

// ------------------------------------------------------------------ SACK

void
SctpSender::HandleSack(const SctpChunk& chunk)
{
    SctpAssociation& a = m_association;
    if (!m_sackIn.Deserialize(chunk))
    {
        NS_LOG_LOGIC(&a << " malformed SACK discarded");
        return;
    }
    if (a.GetState() == SCTP_COOKIE_WAIT || a.GetState() == SCTP_COOKIE_ECHOED)
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
        a.ProtocolViolation("cumulative TSN ack beyond the highest TSN sent");
        return;
    }
    for (const auto& [start, end] : m_sackIn.gapBlocks)
    {
        // RFC 9260 6.2.1: acknowledging a TSN never sent is a protocol violation.
        if (start <= end && SctpTsnGt(cum + end, m_txQueue.GetHighestSentTsn()))
        {
            a.ProtocolViolation("gap ack block beyond the highest TSN sent");
            return;
        }
    }
    bool probing = m_zeroWindowProbe;
    if (probing)
    {
        m_sackDuringProbe = true; // section 6.1 A: the peer answers while we probe
    }
    HandleSackAcked(cum, m_sackIn.aRwnd, m_sackIn.gapBlocks, false);
    if (probing && a.IsAlive())
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
            a.ResetAssociationErrors();
        }
        else
        {
            m_zeroWindowProbe = false;
        }
    }
}

void
SctpSender::ProcessCumulativeAck(uint32_t cumTsnAck)
{
    if (SctpTsnLt(cumTsnAck, m_cumTsnAcked) || SctpTsnGt(cumTsnAck, m_txQueue.GetHighestSentTsn()))
    {
        return;
    }
    static const std::vector<std::pair<uint16_t, uint16_t>> noGaps;
    HandleSackAcked(cumTsnAck, m_peerRwnd, noGaps, true);
}

void
SctpSender::AckChunk(SctpTxChunk& c, Time now, bool wasMarked)
{
    SctpPath& path = m_association.GetPathManager().At(c.pathIndex);
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
            const SctpProtocolParameters& p = m_association.GetParameters();
            path.OnRttSample(r, p.rtoMin, p.rtoMax, p.rtoAlpha, p.rtoBeta);
            m_association.GetTraces().rtt = r;
        }
        path.CancelRttMeasurement();
    }
}

void
SctpSender::HandleSackAcked(uint32_t cum,
                            uint32_t aRwnd,
                            const std::vector<std::pair<uint16_t, uint16_t>>& gaps,
                            bool fromShutdown)
{
    SctpAssociation& a = m_association;
    SctpPathManager& paths = a.GetPathManager();
    SctpCongestionOps& congestion = *a.GetCongestionOps();
    Time now = Simulator::Now();
    std::size_t nPaths = paths.GetNPaths();
    m_ackedPerPath.assign(nPaths, 0);
    m_deliveredPerPath.assign(nPaths, 0);
    m_flightBefore.resize(nPaths);
    for (std::size_t i = 0; i < nPaths; ++i)
    {
        m_flightBefore[i] = paths.At(i).GetFlightSize();
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
        std::sort(m_gapRanges.begin(), m_gapRanges.end(), [](const auto& x, const auto& y) {
            return SctpTsnLt(x.first, y.first);
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
                    paths.At(c.pathIndex).AddFlight(c.GetWireSize());
                    m_reneged.push_back(c.tsn);
                }
            }
        }
        // 3. Miss indications (7.2.4) for chunks below the highest newly acked TSN
        //    (HTNA), or below the highest reported one in Fast Recovery; a reneged
        //    chunk gets exactly one for this SACK wherever it lies (6.2.1 D iv).
        uint32_t limit = (m_fastRecovery && cumAdvanced) ? highestReported : htna;
        uint32_t trigger = a.GetConfig().fastRtxTrigger;
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
            if (++c.missIndications >= trigger)
            {
                if (a.IsPrSctpActive() && PolicyAbandons(c, now))
                {
                    AbandonMessage(c.message, c.message->prPolicy); // RFC 3758 3.5 A2
                    continue;
                }
                MarkForRetransmit(c, true, paths.RetransmissionPath(c.pathIndex, true));
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
                if (c.tsn == tsn && c.inFlight && !paths.At(c.pathIndex).IsT3Running())
                {
                    paths.At(c.pathIndex).StartT3(false);
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
        SctpPath& p = paths.At(i);
        // RFC 9260 7.2.2 (RFC 8540 errata 3.12, 3.26): the flight size before the SACK at
        // least the cwnd (UtilizationAtCwnd); by default less than one PMDCS free counts too.
        bool fullyUtilized = a.GetConfig().utilizationAtCwnd
                                 ? m_flightBefore[i] >= p.GetCwnd()
                                 : m_flightBefore[i] + p.GetPmdcs() > p.GetCwnd();
        // CwndGrowthOnCumAckOnly: RFC 4960 7.2.1 and 7.2.2 grow the cwnd, and add to
        // partial_bytes_acked, only on a SACK that advances the cumulative TSN ack point;
        // NS-2.35's ProcessSackChunk calls AdjustCwnd only then (and adds gap-acked bytes
        // to partial_bytes_acked only on such a SACK). RFC 9260 dropped the condition.
        if (cumAdvanced || !a.GetConfig().cwndGrowthOnCumAckOnly)
        {
            congestion.BytesAcked(p, m_ackedPerPath[i], fullyUtilized, inFastRecovery);
        }
        if (!m_deliveredPerPath[i])
        {
            continue; // only chunks sent elsewhere or retransmitted (AckChunk)
        }
        // Section 8.2: data acknowledged clears the destination's error counter (and
        // makes an inactive destination active again; RFC 7829 section 3: a potentially
        // failed one too).
        if (p.GetState() != SctpPath::ACTIVE)
        {
            paths.MarkPathActive(p);
        }
        p.ResetErrorCount();
    }
    for (uint32_t i : m_fastRtxReduce)
    {
        SctpPath& p = paths.At(i);
        congestion.FastRetransmit(p);
        NS_LOG_INFO(&a << " fast retransmit on path " << i << ", cwnd " << p.GetCwnd());
    }
    m_fastRtxReduce.clear();
    if (m_fastRecovery && SctpTsnGe(m_cumTsnAcked, m_fastRecoveryExit))
    {
        m_fastRecovery = false;
    }
    if (newlyAcked)
    {
        a.ResetAssociationErrors();
    }

    // 5. Peer receiver window (6.2.1 C): a_rwnd minus what is still in flight.
    if (!fromShutdown)
    {
        uint32_t flight = GetTotalFlight();
        m_peerRwnd = aRwnd > flight ? aRwnd - flight : 0;
        a.GetTraces().peerRwnd = m_peerRwnd;
    }

    // PR-SCTP (RFC 3758 3.5 C1-C3): move the Advanced.Peer.Ack.Point over abandoned
    // chunks and tell the receiver if it is ahead of its cumulative TSN.
    if (a.IsPrSctpActive() && !fromShutdown)
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
        SctpPath& p = paths.At(i);
        if (p.GetFlightSize() == 0)
        {
            p.StopT3();
        }
        else if (cumAdvanced && m_ackedPerPath[i] > 0)
        {
            p.StartT3(true);
        }
    }
    if (m_forwardTsnPending)
    {
        // RFC 3758 3.5 C5: a timer must run while a FORWARD TSN is unacknowledged.
        bool running = false;
        for (std::size_t i = 0; i < nPaths; ++i)
        {
            running = running || paths.At(i).IsT3Running();
        }
        if (!running)
        {
            uint32_t dataPath = paths.GetDataPathIndex();
            paths.At(dataPath < nPaths ? dataPath : paths.GetPrimaryPathIndex()).StartT3(false);
        }
    }
    paths.UpdatePrimaryTraces();
    if (freed > 0 || m_abandonedSpace)
    {
        m_abandonedSpace = false;
        a.NotifySpaceAvailable();
    }
    if (a.GetState() == SCTP_SHUTDOWN_PENDING || a.GetState() == SCTP_SHUTDOWN_RECEIVED)
    {
        a.CheckShutdownProgress();
    }
}

} // namespace ns3
