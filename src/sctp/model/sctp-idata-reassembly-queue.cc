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
    m_streams.assign(inboundStreams, Stream());
    m_partial.clear();
    m_bufferedBytes = 0;
}

uint32_t
SctpIDataReassemblyQueue::GetBufferedBytes() const
{
    return m_bufferedBytes;
}

uint32_t
SctpIDataReassemblyQueue::GetNextMid(uint16_t streamId) const
{
    return streamId < m_streams.size() ? m_streams[streamId].nextMid : 0;
}

std::size_t
SctpIDataReassemblyQueue::GetPartialCount() const
{
    return m_partial.size();
}

void
SctpIDataReassemblyQueue::FlushStream(Stream& stream, std::deque<SctpReceivedMessage>& out)
{
    while (!stream.pending.empty() && stream.pending.begin()->first == stream.nextMid)
    {
        auto it = stream.pending.begin();
        m_bufferedBytes -= it->second.data->GetSize();
        out.push_back(std::move(it->second));
        stream.pending.erase(it);
        ++stream.nextMid;
    }
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
    Stream& stream = m_streams[message.streamId];
    if (message.mid == stream.nextMid)
    {
        out.push_back(std::move(message));
        ++stream.nextMid;
        FlushStream(stream, out);
        return;
    }
    if (MidLe(message.mid, stream.nextMid))
    {
        return; // delivered or skipped already (only a misbehaving peer sends this)
    }
    uint32_t mid = message.mid;
    uint32_t size = message.data->GetSize();
    if (stream.pending.emplace(mid, std::move(message)).second)
    {
        m_bufferedBytes += size;
    }
}

bool
SctpIDataReassemblyQueue::Add(const SctpIDataChunk& chunk, std::deque<SctpReceivedMessage>& out)
{
    if (chunk.streamId >= m_streams.size())
    {
        return false;
    }
    bool unordered = (chunk.flags & SctpIDataChunk::FLAG_U) != 0;
    bool first = (chunk.flags & SctpIDataChunk::FLAG_B) != 0;
    bool last = (chunk.flags & SctpIDataChunk::FLAG_E) != 0;
    if (!unordered && !MidLe(m_streams[chunk.streamId].nextMid, chunk.mid))
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
    m_bufferedBytes += chunk.payloadLength;
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
    m_bufferedBytes -= p.bytes;
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
    if (streamId >= m_streams.size())
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
            m_bufferedBytes -= it->second.bytes;
            it = m_partial.erase(it);
        }
        else
        {
            ++it;
        }
    }
    if (unordered)
    {
        return;
    }
    Stream& stream = m_streams[streamId];
    if (!MidLe(stream.nextMid, mid))
    {
        return; // an old entry: already past it
    }
    // Deliver what is held up to the skipped MID, then continue after it.
    while (!stream.pending.empty() && MidLe(stream.pending.begin()->first, mid))
    {
        auto it = stream.pending.begin();
        m_bufferedBytes -= it->second.data->GetSize();
        out.push_back(std::move(it->second));
        stream.pending.erase(it);
    }
    stream.nextMid = mid + 1;
    FlushStream(stream, out);
}

} // namespace ns3
