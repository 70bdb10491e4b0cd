#include "sctp-idata-reassembly-queue.h"

#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SctpIDataReassemblyQueue");

namespace
{
/** MID comparison in serial number arithmetic (RFC 8260 2.1: the MID wraps like a TSN). */
bool
MidLe(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) <= 0;
}
} // namespace

void
SctpIDataReassemblyQueue::Initialize(uint16_t inboundStreams)
{
    m_ordering.Initialize(inboundStreams);
    m_partial.clear();
    m_partialBytes = 0;
}

uint32_t
SctpIDataReassemblyQueue::GetBufferedBytes() const
{
    return m_partialBytes + m_ordering.GetHeldBytes();
}

uint32_t
SctpIDataReassemblyQueue::GetNextMid(uint16_t streamId) const
{
    return m_ordering.GetNext(streamId);
}

std::size_t
SctpIDataReassemblyQueue::GetPartialCount() const
{
    return m_partial.size();
}

void
SctpIDataReassemblyQueue::ResetStream(uint16_t streamId)
{
    // RFC 8260 2.3.2: a reset of the stream (RFC 6525) resets the sender's ordered and
    // unordered MID counters to 0. Only ordered messages have an expected MID here; the
    // reset is performed once every TSN up to the sender's last assigned one has arrived
    // (RFC 6525 5.2.2), so no fragment of an earlier message of the stream is still held.
    m_ordering.Reset(streamId);
}

void
SctpIDataReassemblyQueue::AddStreams(uint16_t count)
{
    m_ordering.AddStreams(count);
}

void
SctpIDataReassemblyQueue::Deliver(SctpReceivedMessage&& message,
                                  std::deque<SctpReceivedMessage>& out)
{
    if (message.unordered)
    {
        out.push_back(std::move(message)); // RFC 8260 2.1: no ordering by MID
        return;
    }
    uint32_t mid = message.mid;
    m_ordering.Deliver(mid, std::move(message), out);
}

bool
SctpIDataReassemblyQueue::Add(const SctpIDataChunk& chunk, std::deque<SctpReceivedMessage>& out)
{
    if (chunk.streamId >= m_ordering.GetStreamCount())
    {
        return false;
    }
    bool unordered = (chunk.flags & SctpIDataChunk::FLAG_U) != 0;
    bool first = (chunk.flags & SctpIDataChunk::FLAG_B) != 0;
    bool last = (chunk.flags & SctpIDataChunk::FLAG_E) != 0;
    if (!unordered && SctpStreamOrdering<uint32_t>::Before(chunk.mid,
                                                            m_ordering.GetNext(chunk.streamId)))
    {
        return false; // a message already delivered or skipped
    }
    SctpReceivedMessage m;
    m.streamId = chunk.streamId;
    m.mid = chunk.mid;
    m.ssn = static_cast<uint16_t>(chunk.mid);
    m.unordered = unordered;
    if (first && last)
    {
        // The common case: an unfragmented message.
        m.data = Create<Packet>(chunk.payload, chunk.payloadLength);
        m.tsn = chunk.tsn;
        m.ppid = chunk.ppid;
        Deliver(std::move(m), out);
        return true;
    }
    // The first fragment carries the PPID where the others carry their FSN: its FSN is
    // 0 (RFC 8260 2.1), so a later fragment with FSN 0 contradicts it.
    uint32_t fsn = first ? 0 : chunk.fsn;
    if (!first && fsn == 0)
    {
        return false;
    }
    Key key{chunk.streamId, unordered, chunk.mid};
    Partial& p = m_partial[key];
    if (p.fragments.count(fsn) > 0 || (p.haveLast && fsn > p.lastFsn) ||
        (last && !p.fragments.empty() && p.fragments.rbegin()->first > fsn))
    {
        return false;
    }
    if (first)
    {
        p.haveFirst = true;
        p.ppid = chunk.ppid;
        p.firstTsn = chunk.tsn;
    }
    if (last)
    {
        p.haveLast = true;
        p.lastFsn = fsn;
    }
    p.fragments.emplace(fsn,
                        std::vector<uint8_t>(chunk.payload, chunk.payload + chunk.payloadLength));
    p.bytes += chunk.payloadLength;
    m_partialBytes += chunk.payloadLength;
    if (!p.haveFirst || !p.haveLast || p.fragments.size() != p.lastFsn + 1)
    {
        return true; // FSNs 0..lastFsn all held only when the count matches (no duplicates)
    }
    std::vector<uint8_t> whole;
    whole.reserve(p.bytes);
    for (const auto& [n, bytes] : p.fragments)
    {
        whole.insert(whole.end(), bytes.begin(), bytes.end());
    }
    m.data = Create<Packet>(whole.data(), static_cast<uint32_t>(whole.size()));
    m.tsn = p.firstTsn;
    m.ppid = p.ppid;
    m_partialBytes -= p.bytes;
    m_partial.erase(key);
    Deliver(std::move(m), out);
    return true;
}

void
SctpIDataReassemblyQueue::Skip(uint16_t streamId,
                               bool unordered,
                               uint32_t mid,
                               std::deque<SctpReceivedMessage>& out)
{
    if (streamId >= m_ordering.GetStreamCount())
    {
        return;
    }
    // Drop the fragments of the abandoned messages. Every message of this stream and
    // ordering up to the entry's MID is complete or abandoned (the sender cuts a stream's
    // messages one after the other), so what is still partial up to it was abandoned.
    for (auto it = m_partial.lower_bound(Key{streamId, unordered, 0});
         it != m_partial.end() && std::get<0>(it->first) == streamId &&
         std::get<1>(it->first) == unordered;)
    {
        if (MidLe(std::get<2>(it->first), mid))
        {
            m_partialBytes -= it->second.bytes;
            it = m_partial.erase(it);
        }
        else
        {
            ++it;
        }
    }
    if (!unordered)
    {
        m_ordering.SkipTo(streamId, mid, out);
    }
}

} // namespace ns3
