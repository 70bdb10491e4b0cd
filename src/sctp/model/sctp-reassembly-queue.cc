#include "sctp-reassembly-queue.h"

namespace ns3
{

void
SctpReassemblyQueue::Initialize(uint16_t inboundStreams)
{
    m_ordering.Initialize(inboundStreams);
    m_fragments.clear();
    m_fragmentBytes = 0;
}

uint32_t
SctpReassemblyQueue::GetBufferedBytes() const
{
    return m_fragmentBytes + m_ordering.GetHeldBytes();
}

uint16_t
SctpReassemblyQueue::GetNextSsn(uint16_t streamId) const
{
    return m_ordering.GetNext(streamId);
}

void
SctpReassemblyQueue::Deliver(SctpReceivedMessage&& message, std::deque<SctpReceivedMessage>& out)
{
    if (message.unordered)
    {
        out.push_back(std::move(message));
        return;
    }
    uint16_t ssn = message.ssn;
    m_ordering.Deliver(ssn, std::move(message), out);
}

bool
SctpReassemblyQueue::Add(const SctpDataChunk& chunk, std::deque<SctpReceivedMessage>& out)
{
    bool unordered = (chunk.flags & SctpDataChunk::FLAG_U) != 0;
    uint8_t be = chunk.flags & (SctpDataChunk::FLAG_B | SctpDataChunk::FLAG_E);
    if (chunk.streamId >= m_ordering.GetStreamCount())
    {
        return false;
    }
    if (be == (SctpDataChunk::FLAG_B | SctpDataChunk::FLAG_E))
    {
        // The common case: an unfragmented message.
        SctpReceivedMessage m;
        m.data = Create<Packet>(chunk.payload, chunk.payloadLength);
        m.streamId = chunk.streamId;
        m.ssn = chunk.ssn;
        m.tsn = chunk.tsn;
        m.ppid = chunk.ppid;
        m.unordered = unordered;
        Deliver(std::move(m), out);
        return true;
    }
    Fragment f;
    f.streamId = chunk.streamId;
    f.ssn = chunk.ssn;
    f.flags = chunk.flags;
    f.ppid = chunk.ppid;
    f.bytes.assign(chunk.payload, chunk.payload + chunk.payloadLength);
    if (!m_fragments.emplace(chunk.tsn, std::move(f)).second)
    {
        return false;
    }
    m_fragmentBytes += chunk.payloadLength;
    TryReassemble(chunk.tsn, out);
    return true;
}

void
SctpReassemblyQueue::TryReassemble(uint32_t tsn, std::deque<SctpReceivedMessage>& out)
{
    auto here = m_fragments.find(tsn);
    const Fragment& ref = here->second;
    auto sameMessage = [&ref](const Fragment& f) {
        bool refUnordered = (ref.flags & SctpDataChunk::FLAG_U) != 0;
        bool fUnordered = (f.flags & SctpDataChunk::FLAG_U) != 0;
        return f.streamId == ref.streamId && fUnordered == refUnordered &&
               (refUnordered || f.ssn == ref.ssn);
    };
    // Walk back to the beginning fragment over consecutive TSNs.
    auto first = here;
    while (!(first->second.flags & SctpDataChunk::FLAG_B))
    {
        if (first == m_fragments.begin())
        {
            return;
        }
        auto prev = std::prev(first);
        if (prev->first != first->first - 1 || !sameMessage(prev->second) ||
            (prev->second.flags & SctpDataChunk::FLAG_E))
        {
            return;
        }
        first = prev;
    }
    // Walk forward to the ending fragment.
    auto last = here;
    while (!(last->second.flags & SctpDataChunk::FLAG_E))
    {
        auto next = std::next(last);
        if (next == m_fragments.end() || next->first != last->first + 1 ||
            !sameMessage(next->second) || (next->second.flags & SctpDataChunk::FLAG_B))
        {
            return;
        }
        last = next;
    }
    std::size_t total = 0;
    for (auto it = first;; ++it)
    {
        total += it->second.bytes.size();
        if (it == last)
        {
            break;
        }
    }
    std::vector<uint8_t> whole;
    whole.reserve(total);
    for (auto it = first;; ++it)
    {
        whole.insert(whole.end(), it->second.bytes.begin(), it->second.bytes.end());
        if (it == last)
        {
            break;
        }
    }
    SctpReceivedMessage m;
    m.data = Create<Packet>(whole.data(), static_cast<uint32_t>(whole.size()));
    m.streamId = first->second.streamId;
    m.ssn = first->second.ssn;
    m.tsn = first->first;
    m.ppid = first->second.ppid;
    m.unordered = (first->second.flags & SctpDataChunk::FLAG_U) != 0;
    m_fragments.erase(first, std::next(last));
    m_fragmentBytes -= static_cast<uint32_t>(total);
    Deliver(std::move(m), out);
}

void
SctpReassemblyQueue::SkipTo(uint32_t cumTsn, std::deque<SctpReceivedMessage>& out)
{
    while (!m_fragments.empty() && SctpTsnLe(m_fragments.begin()->first, cumTsn))
    {
        m_fragmentBytes -= static_cast<uint32_t>(m_fragments.begin()->second.bytes.size());
        m_fragments.erase(m_fragments.begin());
    }
}

void
SctpReassemblyQueue::SkipStream(uint16_t streamId,
                                uint16_t ssn,
                                std::deque<SctpReceivedMessage>& out)
{
    m_ordering.SkipTo(streamId, ssn, out);
}

void
SctpReassemblyQueue::ResetSsn(uint16_t streamId)
{
    m_ordering.Reset(streamId);
}

void
SctpReassemblyQueue::AddStreams(uint16_t count)
{
    m_ordering.AddStreams(count);
}

} // namespace ns3
