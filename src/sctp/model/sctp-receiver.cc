/*
 * SctpReceiver: DATA chunk acceptance (section 6.2), duplicate and window handling,
 * invalid streams (6.5), reassembly and ordered delivery (through SctpReassemblyQueue),
 * SACK generation with gap blocks and duplicate TSNs, immediately or delayed (6.2,
 * 6.7), and FORWARD TSN (RFC 3758 3.6).
 */
#include "sctp-receiver.h"

#include "sctp-association.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpReceiver");

SctpReceiver::SctpReceiver(SctpAssociation& association)
    : m_association(association)
{
}

void
SctpReceiver::Initialize(uint32_t peerInitialTsn, uint16_t inboundStreams)
{
    m_tsnMap.Initialize(peerInitialTsn);
    m_reassembly.Initialize(inboundStreams);
    m_iReassembly.Initialize(inboundStreams);
    m_packetsSinceSack = 0;
    m_sackNeeded = false;
    m_dataReceived = false;
    m_lastAdvertisedWindow = m_association.GetConfig().rcvBufSize; // what INIT / INIT ACK said
}

void
SctpReceiver::CancelTimers()
{
    Simulator::Cancel(m_sackTimer);
}

uint32_t
SctpReceiver::GetAdvertisedWindow() const
{
    uint32_t held = m_reassembly.GetBufferedBytes() + m_iReassembly.GetBufferedBytes() +
                    m_association.GetUnreadBytes();
    uint32_t buffer = m_association.GetConfig().rcvBufSize;
    return held >= buffer ? 0 : buffer - held;
}

uint32_t
SctpReceiver::GetLastAdvertisedWindow() const
{
    return m_lastAdvertisedWindow;
}

uint32_t
SctpReceiver::GetCumulativeTsn() const
{
    return m_tsnMap.GetCumulativeTsn();
}

uint32_t
SctpReceiver::GetForwardTsnReceivedCount() const
{
    return m_forwardTsnReceived;
}

const SctpTsnMap&
SctpReceiver::GetTsnMap() const
{
    return m_tsnMap;
}

const SctpReassemblyQueue&
SctpReceiver::GetReassemblyQueue() const
{
    return m_reassembly;
}

const SctpIDataReassemblyQueue&
SctpReceiver::GetIDataReassemblyQueue() const
{
    return m_iReassembly;
}

void
SctpReceiver::SetIData(bool iData)
{
    m_iData = iData;
}

void
SctpReceiver::ResetInboundStream(uint16_t streamId)
{
    if (m_iData)
    {
        m_iReassembly.ResetStream(streamId); // RFC 8260 2.3.2: the MIDs start at 0 again
    }
    else
    {
        m_reassembly.ResetSsn(streamId);
    }
}

void
SctpReceiver::AddInboundStreams(uint16_t count)
{
    // Both queues, as Initialize sizes both: the one not in use stays empty.
    m_reassembly.AddStreams(count);
    m_iReassembly.AddStreams(count);
}

bool
SctpReceiver::IsSackNeeded() const
{
    return m_sackNeeded;
}

void
SctpReceiver::RequestSack()
{
    m_sackNeeded = true;
}

std::string
SctpReceiver::CheckInvariants() const
{
    if (SctpTsnGt(m_tsnMap.GetCumulativeTsn(), m_tsnMap.GetHighestTsn()))
    {
        return "TSN map cumulative TSN above highest";
    }
    return "";
}

bool
SctpReceiver::HandleData(const SctpChunk& chunk, bool& needImmediateSack, bool& gotNewData)
{
    SctpAssociation& a = m_association;
    SctpDataChunk data;
    if (!data.Deserialize(chunk))
    {
        a.ProtocolViolation("DATA chunk shorter than its header");
        return false;
    }
    SctpAssociationTraces& traces = a.GetTraces();
    if (!traces.rxChunk.IsEmpty())
    {
        traces.rxChunk(SctpChunk::DATA, chunk.flags, chunk.length, data.tsn);
    }
    if (m_iData)
    {
        // RFC 8260 2.2: with I-DATA negotiated, a DATA chunk is a protocol violation.
        a.ProtocolViolation("DATA chunk on an association that uses I-DATA");
        return false;
    }
    switch (Accept(data.tsn,
                   data.flags,
                   data.streamId,
                   data.payloadLength,
                   needImmediateSack,
                   gotNewData))
    {
    case ABORTED:
        return false;
    case DISCARD:
        return true;
    default:
        break;
    }
    m_reassembly.Add(data, m_complete);
    Deliver();
    return true;
}

bool
SctpReceiver::HandleIData(const SctpChunk& chunk, bool& needImmediateSack, bool& gotNewData)
{
    SctpAssociation& a = m_association;
    SctpIDataChunk data;
    if (!data.Deserialize(chunk))
    {
        a.ProtocolViolation("I-DATA chunk shorter than its header");
        return false;
    }
    SctpAssociationTraces& traces = a.GetTraces();
    if (!traces.rxChunk.IsEmpty())
    {
        traces.rxChunk(SctpChunk::I_DATA, chunk.flags, chunk.length, data.tsn);
    }
    if (!m_iData)
    {
        // RFC 8260 2.2: I-DATA without its negotiation is a protocol violation.
        a.ProtocolViolation("I-DATA chunk on an association that did not negotiate it");
        return false;
    }
    switch (Accept(data.tsn,
                   data.flags,
                   data.streamId,
                   data.payloadLength,
                   needImmediateSack,
                   gotNewData))
    {
    case ABORTED:
        return false;
    case DISCARD:
        return true;
    default:
        break;
    }
    if (!m_iReassembly.Add(data, m_complete))
    {
        NS_LOG_LOGIC(&a << " I-DATA fragment contradicts the ones held, dropped");
    }
    Deliver();
    return true;
}

SctpReceiver::Acceptance
SctpReceiver::Accept(uint32_t tsn,
                     uint8_t flags,
                     uint16_t streamId,
                     uint16_t payloadLength,
                     bool& needImmediateSack,
                     bool& gotNewData)
{
    SctpAssociation& a = m_association;
    SctpState s = a.GetState();
    if (s != SCTP_ESTABLISHED && s != SCTP_SHUTDOWN_PENDING && s != SCTP_SHUTDOWN_SENT &&
        s != SCTP_SHUTDOWN_RECEIVED)
    {
        return DISCARD; // not ready for data: the peer will retransmit
    }
    if (payloadLength == 0)
    {
        // Section 6.2: a DATA chunk without user data aborts the association (RFC 8260
        // 2.1: the same for I-DATA).
        a.SendAbort({SctpTlv::CauseU32(SctpTlv::NO_USER_DATA, tsn)});
        a.DeleteAssociation(false, true);
        return ABORTED;
    }
    if (flags & SctpDataChunk::FLAG_I)
    {
        needImmediateSack = true;
    }
    bool hadGaps = m_tsnMap.HasGaps();
    switch (m_tsnMap.Check(tsn))
    {
    case SctpTsnMap::DUPLICATE:
        m_tsnMap.AddDuplicate(tsn);
        needImmediateSack = true;
        return DISCARD;
    case SctpTsnMap::TOO_FAR:
        needImmediateSack = true;
        return DISCARD;
    default:
        break;
    }
    if (GetAdvertisedWindow() == 0 && SctpTsnGt(tsn, m_tsnMap.GetHighestTsn()))
    {
        // Section 6.2: "When the receiver's advertised window is 0, the receiver MUST drop
        // any new incoming DATA chunk with a TSN larger than the largest TSN received so
        // far" (and SACK at once). Only then: a window smaller than the chunk is still
        // open. The sender may send such a chunk when it has nothing in flight (a zero
        // window probe, 6.1 A), so the buffer may overrun by less than one chunk; were it
        // dropped, a reader that leaves a few hundred bytes of window would never get
        // another chunk and the sender's probes would time out until it aborts. FreeBSD
        // drops at a window of 0 too (sctp_process_a_data_chunk).
        needImmediateSack = true;
        return DISCARD;
    }
    m_tsnMap.Mark(tsn);
    gotNewData = true;
    if (hadGaps || m_tsnMap.HasGaps())
    {
        needImmediateSack = true; // section 6.7: report gaps (and their closing) at once
    }
    if (streamId >= a.GetInboundStreams())
    {
        // Section 6.5: acknowledge, report, discard.
        a.SendError({SctpTlv::InvalidStream(streamId)});
        needImmediateSack = true;
        return DISCARD;
    }
    return REASSEMBLE;
}

bool
SctpReceiver::Deliver()
{
    // Also without new messages: a socket shut down for receiving drops what it holds.
    bool grew = m_association.DeliverMessages(m_complete);
    m_complete.clear();
    return grew;
}

void
SctpReceiver::AfterDataPacket(bool hadNewData, bool needImmediateSack)
{
    SctpAssociation& a = m_association;
    ++m_packetsSinceSack;
    if (a.GetState() == SCTP_SHUTDOWN_SENT)
    {
        // Section 9.2: answer every packet with DATA with a SHUTDOWN (and a SACK).
        std::vector<uint8_t> chunk;
        SctpByteWriter w(chunk);
        SctpTsnChunk shutdown;
        shutdown.type = SctpChunk::SHUTDOWN;
        shutdown.tsn = m_tsnMap.GetCumulativeTsn();
        shutdown.Serialize(w);
        a.QueueControlChunk(chunk);
        needImmediateSack = true;
        a.StartT2();
    }
    if (hadNewData && !m_dataReceived)
    {
        m_dataReceived = true;
        // RFC 9260 section 5.1 (RFC 4960 5.1 before it): "After the reception of the
        // first DATA chunk in an association the endpoint MUST immediately respond with a
        // SACK to acknowledge the DATA chunk"; later ones follow section 6.2. NS-2.35 does
        // so too. Off by default (ImmediateFirstSack) until the studies are re-run.
        if (a.GetConfig().immediateFirstSack)
        {
            needImmediateSack = true;
        }
    }
    if (needImmediateSack || m_packetsSinceSack >= a.GetConfig().sackFrequency)
    {
        m_sackNeeded = true;
    }
    else if (!m_sackTimer.IsPending())
    {
        m_sackTimer = Simulator::Schedule(a.GetConfig().sackDelay,
                                          &SctpReceiver::OnDelayedSackTimer,
                                          this);
    }
    a.NotifyMessagesReady();
}

void
SctpReceiver::OnDelayedSackTimer()
{
    SctpAssociation& a = m_association;
    if (!a.IsAlive() || a.GetState() == SCTP_COOKIE_WAIT || a.GetState() == SCTP_COOKIE_ECHOED)
    {
        return;
    }
    m_sackNeeded = true;
    a.SendPending();
}

void
SctpReceiver::BuildSack(SctpByteWriter& w, uint32_t room)
{
    SctpSackChunk& sack = m_sackOut;
    sack.cumTsnAck = m_tsnMap.GetCumulativeTsn();
    sack.aRwnd = GetAdvertisedWindow();
    const auto& dups = m_tsnMap.GetDuplicates();
    sack.duplicateTsns.assign(dups.begin(), dups.end());
    // Keep the SACK within one packet: at most 256 gap blocks and what the MTU allows.
    uint32_t used = static_cast<uint32_t>(w.GetPosition()) - SctpCommonHeader::SIZE;
    uint32_t left = room > used + 16 + 4 * sack.duplicateTsns.size()
                        ? room - used - 16 - 4 * static_cast<uint32_t>(sack.duplicateTsns.size())
                        : 0;
    std::size_t maxBlocks = std::min<std::size_t>(256, left / 4);
    m_tsnMap.GetGapBlocks(sack.gapBlocks, maxBlocks);
    sack.Serialize(w);
    SctpAssociationTraces& traces = m_association.GetTraces();
    if (!traces.txChunk.IsEmpty())
    {
        traces.txChunk(SctpChunk::SACK,
                       0,
                       static_cast<uint16_t>(sack.GetSerializedSize()),
                       sack.cumTsnAck);
    }
    m_tsnMap.ClearDuplicates();
    m_sackNeeded = false;
    m_packetsSinceSack = 0;
    m_lastAdvertisedWindow = sack.aRwnd;
    Simulator::Cancel(m_sackTimer);
}

bool
SctpReceiver::AcceptForwardTsn(uint32_t newCumTsn, bool& needImmediateSack)
{
    SctpState s = m_association.GetState();
    if (s != SCTP_ESTABLISHED && s != SCTP_SHUTDOWN_PENDING && s != SCTP_SHUTDOWN_SENT &&
        s != SCTP_SHUTDOWN_RECEIVED)
    {
        return false;
    }
    ++m_forwardTsnReceived;
    // RFC 3758 3.6 (and RFC 8260 2.3.1 for I-FORWARD-TSN): always answer with a SACK; an
    // out-of-date FORWARD TSN may mean that the last SACK was lost.
    needImmediateSack = true;
    uint32_t cum = m_tsnMap.GetCumulativeTsn();
    if (SctpTsnLe(newCumTsn, cum))
    {
        return false;
    }
    if (newCumTsn - cum > m_tsnMap.GetMaxWindow())
    {
        NS_LOG_LOGIC(&m_association << " forward TSN " << newCumTsn
                                    << " beyond the receive window ignored");
        return false;
    }
    m_tsnMap.ForwardTo(newCumTsn);
    return true;
}

void
SctpReceiver::HandleForwardTsn(const SctpChunk& chunk, bool& needImmediateSack)
{
    SctpForwardTsnChunk forward;
    if (!forward.Deserialize(chunk) || !AcceptForwardTsn(forward.newCumTsn, needImmediateSack))
    {
        return;
    }
    m_reassembly.SkipTo(forward.newCumTsn, m_complete);
    for (const auto& [streamId, ssn] : forward.streams)
    {
        m_reassembly.SkipStream(streamId, ssn, m_complete);
    }
    if (Deliver())
    {
        m_association.NotifyMessagesReady();
    }
}

void
SctpReceiver::HandleIForwardTsn(const SctpChunk& chunk, bool& needImmediateSack)
{
    SctpIForwardTsnChunk forward;
    if (!forward.Deserialize(chunk) || !AcceptForwardTsn(forward.newCumTsn, needImmediateSack))
    {
        return;
    }
    // Unlike FORWARD TSN, no fragment is dropped by its TSN: with interleaving a TSN below
    // the new cumulative TSN may belong to a message still being sent. The entries name
    // every abandoned message, ordered and unordered (RFC 8260 2.3.1).
    for (const auto& e : forward.entries)
    {
        m_iReassembly.Skip(e.streamId, e.unordered, e.mid, m_complete);
    }
    if (Deliver())
    {
        m_association.NotifyMessagesReady();
    }
}

} // namespace ns3
