/*
 * SctpSender, partial reliability (RFC 3758 PR-SCTP with the policies of RFC 7496): the
 * sender abandons messages whose policy says so (lifetime expired, too many
 * retransmissions, or a lower priority when the send buffer is full), moves the
 * Advanced.Peer.Ack.Point over abandoned chunks and tells the receiver with FORWARD TSN,
 * or I-FORWARD-TSN when I-DATA is used (RFC 8260 2.3; SctpReceiver::HandleForwardTsn and
 * HandleIForwardTsn are the other end).
 */
#include "sctp-association.h"
#include "sctp-sender.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpSenderPrSctp");

bool
SctpSender::PolicyAbandons(const SctpTxChunk& chunk, Time now) const
{
    const SctpOutboundMessage& m = *chunk.message;
    switch (m.prPolicy)
    {
    case SctpPrPolicy::TTL:
        // RFC 7496 4.1: lifetime in ms; 0 = no lifetime.
        return m.prValue != 0 && now > m.enqueueTime + MilliSeconds(m.prValue);
    case SctpPrPolicy::RTX:
        // RFC 7496 4.2 / NS-2 k-rtx: at most prValue retransmissions.
        return chunk.transmissions > m.prValue;
    default:
        return false;
    }
}

void
SctpSender::AbandonMessage(Ptr<SctpOutboundMessage> message, SctpPrPolicy reason)
{
    if (message->abandoned)
    {
        return;
    }
    message->abandoned = true;
    ++m_abandonedMessages;
    if (message->chunksCut == 0)
    {
        ++m_abandonedUnsent;
    }
    // RFC 3758 3.5 A3: every chunk of the message is abandoned with it. With I-DATA its
    // chunks may be interleaved with other messages' (RFC 8260 2.1): walk its TSN range.
    uint32_t span = message->chunksCut > 0 ? message->lastTsn - message->firstTsn + 1 : 0;
    for (uint32_t k = 0; k < span; ++k)
    {
        SctpTxChunk* c = m_txQueue.Find(message->firstTsn + k);
        if (!c || c->abandoned || c->message != message)
        {
            continue; // already acknowledged and released
        }
        SctpPath& path = m_association.GetPathManager().At(c->pathIndex);
        if (c->inFlight)
        {
            path.RemoveFlight(c->GetWireSize());
            c->inFlight = false;
            m_peerRwnd += c->length;
        }
        if (c->markedForRetransmit)
        {
            c->markedForRetransmit = false;
            c->fastRetransmit = false;
            --m_markedForRetransmit;
        }
        if (path.IsRttPending() && path.GetRttTsn() == c->tsn)
        {
            path.CancelRttMeasurement();
        }
        c->abandoned = true;
        m_txQueue.ReleaseAbandoned(c->length);
    }
    m_txQueue.DropUnsent(message);
    m_abandonedSpace = true;
    uint16_t ssn = (!message->unordered && message->chunksCut > 0) ? message->ssn : 0;
    uint32_t firstTsn = message->chunksCut > 0 ? message->firstTsn : 0;
    NS_LOG_INFO(&m_association << " abandoned a message of " << message->data.size() << " bytes, stream "
                     << message->streamId << ", first TSN " << firstTsn);
    m_association.GetTraces().abandon(message->streamId,
                                      ssn,
                                      firstTsn,
                                      static_cast<uint32_t>(message->data.size()),
                                      reason);
}

void
SctpSender::AbandonExpiredUnsent(Time now)
{
    // RFC 3758 3.5 A3 / RFC 7496 4.1: a message whose lifetime expired before it was
    // sent is not sent.
    while (Ptr<SctpOutboundMessage> m = m_txQueue.PeekUnsentMessage())
    {
        if (m->prPolicy != SctpPrPolicy::TTL || m->prValue == 0 ||
            now <= m->enqueueTime + MilliSeconds(m->prValue))
        {
            break;
        }
        AbandonMessage(m, SctpPrPolicy::TTL);
    }
}

bool
SctpSender::MakeRoomByPriority(uint32_t size, uint32_t priority)
{
    SctpAssociation& a = m_association;
    // RFC 7496 4.3: abandon messages of lower priority (higher value) to make room,
    // first those not sent yet (newest first), then outstanding ones.
    std::vector<Ptr<SctpOutboundMessage>> victims;
    const std::vector<Ptr<SctpOutboundMessage>> pending = m_txQueue.GetPending();
    for (auto it = pending.rbegin(); it != pending.rend(); ++it)
    {
        if ((*it)->prPolicy == SctpPrPolicy::PRIORITY && (*it)->prValue > priority &&
            (*it)->chunksCut == 0)
        {
            victims.push_back(*it);
        }
    }
    for (const auto& c : m_txQueue.GetOutstanding())
    {
        const auto& m = c.message;
        if (!c.abandoned && !c.gapAcked && m->prPolicy == SctpPrPolicy::PRIORITY &&
            m->prValue > priority &&
            std::find(victims.begin(), victims.end(), m) == victims.end())
        {
            victims.push_back(m);
        }
    }
    for (const auto& m : victims)
    {
        if (size <= a.GetTxAvailable())
        {
            break;
        }
        AbandonMessage(m, SctpPrPolicy::PRIORITY);
    }
    if (m_advancedPeerAckPoint != m_cumTsnAcked || !m_txQueue.GetOutstanding().empty())
    {
        AdvancePeerAckPoint(Simulator::Now());
        if (SctpTsnGt(m_advancedPeerAckPoint, m_cumTsnAcked))
        {
            QueueForwardTsn();
        }
    }
    return size <= a.GetTxAvailable();
}

void
SctpSender::AdvancePeerAckPoint(Time now)
{
    // RFC 3758 3.5 C1, C2: from the cumulative TSN ack over abandoned chunks. A chunk
    // the peer has not reported, whose lifetime expired, is abandoned here (as FreeBSD
    // does) so that a lost voice frame is skipped at the first SACK after its deadline.
    if (SctpTsnLt(m_advancedPeerAckPoint, m_cumTsnAcked))
    {
        m_advancedPeerAckPoint = m_cumTsnAcked;
    }
    while (SctpTxChunk* c = m_txQueue.Find(m_advancedPeerAckPoint + 1))
    {
        if (!c->abandoned)
        {
            if (c->gapAcked || c->transmissions == 0 || c->message->prPolicy != SctpPrPolicy::TTL ||
                !PolicyAbandons(*c, now))
            {
                break;
            }
            AbandonMessage(c->message, SctpPrPolicy::TTL);
        }
        m_advancedPeerAckPoint = c->tsn;
    }
}

void
SctpSender::QueueForwardTsn()
{
    m_forwardTsnPending = true;
}

} // namespace ns3
