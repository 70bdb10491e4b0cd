/*
 * SctpSocket, part 3: the receive side of the association. DATA chunk acceptance
 * (section 6.2), duplicate and window handling, invalid streams (6.5), reassembly and
 * ordered delivery (through SctpReassemblyQueue), and SACK generation with gap blocks
 * and duplicate TSNs, immediately or delayed (6.2, 6.7).
 */
#include "sctp-l4-protocol.h"
#include "sctp-socket.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpSocketRx");

uint32_t
SctpSocket::GetAdvertisedWindow() const
{
    uint32_t held = m_reassembly.GetBufferedBytes() + m_rxMessageBytes;
    return held >= m_rcvBufSize ? 0 : m_rcvBufSize - held;
}

bool
SctpSocket::HandleData(const SctpChunk& chunk, bool& needImmediateSack, bool& gotNewData)
{
    SctpDataChunk data;
    if (!data.Deserialize(chunk))
    {
        ProtocolViolation("DATA chunk shorter than its header");
        return false;
    }
    if (!m_rxChunkTrace.IsEmpty())
    {
        m_rxChunkTrace(SctpChunk::DATA, chunk.flags, chunk.length, data.tsn);
    }
    SctpState s = m_state;
    if (s != SCTP_ESTABLISHED && s != SCTP_SHUTDOWN_PENDING && s != SCTP_SHUTDOWN_SENT &&
        s != SCTP_SHUTDOWN_RECEIVED)
    {
        return true; // not ready for data: the peer will retransmit
    }
    if (data.payloadLength == 0)
    {
        // Section 6.2: a DATA chunk without user data aborts the association.
        SendAbort({SctpTlv::CauseU32(SctpTlv::NO_USER_DATA, data.tsn)});
        DeleteAssociation(false, true);
        return false;
    }
    if (data.flags & SctpDataChunk::FLAG_I)
    {
        needImmediateSack = true;
    }
    bool hadGaps = m_tsnMap.HasGaps();
    switch (m_tsnMap.Check(data.tsn))
    {
    case SctpTsnMap::DUPLICATE:
        m_tsnMap.AddDuplicate(data.tsn);
        needImmediateSack = true;
        return true;
    case SctpTsnMap::TOO_FAR:
        needImmediateSack = true;
        return true;
    default:
        break;
    }
    if (GetAdvertisedWindow() == 0 && SctpTsnGt(data.tsn, m_tsnMap.GetHighestTsn()))
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
        return true;
    }
    m_tsnMap.Mark(data.tsn);
    gotNewData = true;
    if (hadGaps || m_tsnMap.HasGaps())
    {
        needImmediateSack = true; // section 6.7: report gaps (and their closing) at once
    }
    if (data.streamId >= m_inStreams)
    {
        // Section 6.5: acknowledge, report, discard.
        SendError({SctpTlv::InvalidStream(data.streamId)});
        needImmediateSack = true;
        return true;
    }
    std::size_t before = m_rxMessages.size();
    m_reassembly.Add(data, m_rxMessages);
    AccountDelivered(before);
    return true;
}

void
SctpSocket::AfterDataPacket(bool hadNewData, bool needImmediateSack)
{
    ++m_packetsSinceSack;
    if (m_state == SCTP_SHUTDOWN_SENT)
    {
        // Section 9.2: answer every packet with DATA with a SHUTDOWN (and a SACK).
        std::vector<uint8_t> chunk;
        SctpByteWriter w(chunk);
        SctpTsnChunk shutdown;
        shutdown.type = SctpChunk::SHUTDOWN;
        shutdown.tsn = m_tsnMap.GetCumulativeTsn();
        shutdown.Serialize(w);
        QueueControlChunk(chunk);
        needImmediateSack = true;
        StartT2();
    }
    if (needImmediateSack || m_packetsSinceSack >= m_sackFrequency)
    {
        m_sackNeeded = true;
    }
    else if (!m_sackTimer.IsPending())
    {
        m_sackTimer = Simulator::Schedule(m_sackDelay, &SctpSocket::OnDelayedSackTimer, this);
    }
    DeliverReceived();
}

void
SctpSocket::DeliverReceived()
{
    if (!m_rxMessages.empty())
    {
        NotifyDataRecv();
    }
}

void
SctpSocket::OnDelayedSackTimer()
{
    if (!IsAssociationAlive() || m_state == SCTP_COOKIE_WAIT || m_state == SCTP_COOKIE_ECHOED)
    {
        return;
    }
    m_sackNeeded = true;
    SendPending();
}

void
SctpSocket::BuildSack(SctpByteWriter& w)
{
    SctpSackChunk& sack = m_sackOut;
    sack.cumTsnAck = m_tsnMap.GetCumulativeTsn();
    sack.aRwnd = GetAdvertisedWindow();
    const auto& dups = m_tsnMap.GetDuplicates();
    sack.duplicateTsns.assign(dups.begin(), dups.end());
    // Keep the SACK within one packet: at most 256 gap blocks and what the MTU allows.
    uint32_t room = m_paths.empty() ? 1400 : m_paths[ReplyPath()]->GetPmdcs();
    uint32_t used = static_cast<uint32_t>(w.GetPosition()) - SctpCommonHeader::SIZE;
    uint32_t left = room > used + 16 + 4 * sack.duplicateTsns.size()
                        ? room - used - 16 - 4 * static_cast<uint32_t>(sack.duplicateTsns.size())
                        : 0;
    std::size_t maxBlocks = std::min<std::size_t>(256, left / 4);
    m_tsnMap.GetGapBlocks(sack.gapBlocks, maxBlocks);
    sack.Serialize(w);
    if (!m_txChunkTrace.IsEmpty())
    {
        m_txChunkTrace(SctpChunk::SACK,
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

} // namespace ns3
