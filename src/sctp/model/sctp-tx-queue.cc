#include "sctp-tx-queue.h"

#include "sctp-chunk.h"

#include <algorithm>

namespace ns3
{

SctpTxQueue::SctpTxQueue()
    : m_scheduler(CreateObject<SctpFcfsStreamScheduler>()),
      m_format(Create<SctpDataChunkFormat>())
{
}

void
SctpTxQueue::SetDataFormat(Ptr<SctpDataFormat> format)
{
    m_format = format;
    m_format->Initialize(m_outboundStreams);
}

Ptr<SctpDataFormat>
SctpTxQueue::GetDataFormat() const
{
    return m_format;
}

void
SctpTxQueue::SetScheduler(Ptr<SctpStreamScheduler> scheduler)
{
    m_scheduler = scheduler;
}

Ptr<SctpStreamScheduler>
SctpTxQueue::GetScheduler() const
{
    return m_scheduler;
}

void
SctpTxQueue::Initialize(uint32_t initialTsn, uint16_t outboundStreams)
{
    m_scheduler->Clear();
    m_outstanding.clear();
    m_outboundStreams = outboundStreams;
    m_format->Initialize(outboundStreams);
    m_nextTsn = initialTsn;
    m_bufferedBytes = 0;
    m_unsentBytes = 0;
    m_abandonedBytes = 0;
}

void
SctpTxQueue::Enqueue(Ptr<SctpOutboundMessage> message)
{
    uint32_t size = static_cast<uint32_t>(message->data.size());
    m_bufferedBytes += size;
    m_unsentBytes += size;
    m_scheduler->Enqueue(message);
}

bool
SctpTxQueue::HasUnsentData() const
{
    return !m_scheduler->IsEmpty();
}

uint32_t
SctpTxQueue::PeekNextChunkLength(uint32_t maxPayload) const
{
    Ptr<SctpOutboundMessage> m = m_scheduler->Peek();
    if (!m)
    {
        return 0;
    }
    return std::min<uint32_t>(maxPayload, static_cast<uint32_t>(m->data.size()) - m->nextOffset);
}

SctpTxChunk&
SctpTxQueue::NextChunk(uint32_t maxPayload)
{
    Ptr<SctpOutboundMessage> m = m_scheduler->Peek();
    uint32_t size = static_cast<uint32_t>(m->data.size());
    uint32_t length = std::min(maxPayload, size - m->nextOffset);
    if (m->nextOffset == 0)
    {
        m_format->NumberMessage(*m); // SSN or MID, at the first chunk (see the format)
    }
    if (m->chunksCut == 0)
    {
        m->firstTsn = m_nextTsn;
    }
    SctpTxChunk c;
    c.fsn = m->chunksCut++; // RFC 8260 2.1: FSN 0, 1, 2, ... per message
    c.headerSize = static_cast<uint8_t>(m_format->GetHeaderSize());
    m->lastTsn = m_nextTsn;
    c.tsn = m_nextTsn++;
    c.offset = m->nextOffset;
    c.length = static_cast<uint16_t>(length);
    c.flags = 0;
    if (c.offset == 0)
    {
        c.flags |= SctpDataChunk::FLAG_B;
    }
    m->nextOffset += length;
    bool last = m->nextOffset == size;
    if (last)
    {
        c.flags |= SctpDataChunk::FLAG_E;
    }
    m_scheduler->ChunkCut(m, last);
    if (m->unordered)
    {
        c.flags |= SctpDataChunk::FLAG_U;
    }
    c.message = m;
    m_unsentBytes -= length;
    m_outstanding.push_back(std::move(c));
    return m_outstanding.back();
}

void
SctpTxQueue::PacketDone()
{
    m_scheduler->PacketDone();
}

std::deque<SctpTxChunk>&
SctpTxQueue::GetOutstanding()
{
    return m_outstanding;
}

const std::deque<SctpTxChunk>&
SctpTxQueue::GetOutstanding() const
{
    return m_outstanding;
}

SctpTxChunk*
SctpTxQueue::Find(uint32_t tsn)
{
    if (m_outstanding.empty())
    {
        return nullptr;
    }
    uint32_t index = tsn - m_outstanding.front().tsn;
    if (index >= m_outstanding.size())
    {
        return nullptr;
    }
    return &m_outstanding[index];
}

void
SctpTxQueue::PopAcked(uint32_t cumTsnAck)
{
    while (!m_outstanding.empty() && SctpTsnLe(m_outstanding.front().tsn, cumTsnAck))
    {
        const SctpTxChunk& c = m_outstanding.front();
        if (c.abandoned)
        {
            m_abandonedBytes -= c.length;
        }
        else
        {
            m_bufferedBytes -= c.length;
        }
        m_outstanding.pop_front();
    }
}

Ptr<SctpOutboundMessage>
SctpTxQueue::PeekUnsentMessage() const
{
    Ptr<SctpOutboundMessage> m = m_scheduler->Peek();
    if (!m || m->nextOffset != 0)
    {
        return nullptr;
    }
    return m;
}

uint32_t
SctpTxQueue::DropUnsent(Ptr<SctpOutboundMessage> message)
{
    if (!m_scheduler->Remove(message))
    {
        return 0;
    }
    uint32_t left = static_cast<uint32_t>(message->data.size()) - message->nextOffset;
    message->nextOffset = static_cast<uint32_t>(message->data.size());
    m_unsentBytes -= left;
    m_bufferedBytes -= left;
    return left;
}

std::vector<Ptr<SctpOutboundMessage>>
SctpTxQueue::GetPending() const
{
    return m_scheduler->GetMessages();
}

void
SctpTxQueue::ReleaseAbandoned(uint32_t bytes)
{
    m_bufferedBytes -= bytes;
    m_abandonedBytes += bytes;
}

uint32_t
SctpTxQueue::GetNextTsn() const
{
    return m_nextTsn;
}

uint32_t
SctpTxQueue::GetHighestSentTsn() const
{
    return m_nextTsn - 1;
}

uint32_t
SctpTxQueue::GetBufferedBytes() const
{
    return m_bufferedBytes;
}

uint32_t
SctpTxQueue::GetUnsentBytes() const
{
    return m_unsentBytes;
}

bool
SctpTxQueue::IsEmpty() const
{
    return m_scheduler->IsEmpty() && m_outstanding.empty();
}

uint16_t
SctpTxQueue::GetOutboundStreams() const
{
    return m_outboundStreams;
}

void
SctpTxQueue::ResetSsn(uint16_t streamId)
{
    m_format->ResetStream(streamId);
}

void
SctpTxQueue::AddStreams(uint16_t count)
{
    m_outboundStreams = static_cast<uint16_t>(m_outboundStreams + count);
    m_format->AddStreams(count);
}

} // namespace ns3
