#include "sctp-data-format.h"

#include "sctp-chunk.h"
#include "sctp-tx-queue.h"

#include <algorithm>

namespace ns3
{

SctpDataFormat::~SctpDataFormat() = default;

// ------------------------------------------------------------------ DATA

void
SctpDataChunkFormat::Initialize(uint16_t outboundStreams)
{
    m_nextSsn.assign(outboundStreams, 0);
}

void
SctpDataChunkFormat::ResetStream(uint16_t streamId)
{
    if (streamId < m_nextSsn.size())
    {
        m_nextSsn[streamId] = 0;
    }
}

void
SctpDataChunkFormat::AddStreams(uint16_t count)
{
    m_nextSsn.resize(m_nextSsn.size() + count, 0);
}

uint8_t
SctpDataChunkFormat::GetChunkType() const
{
    return SctpChunk::DATA;
}

uint32_t
SctpDataChunkFormat::GetHeaderSize() const
{
    return SctpDataChunk::HEADER_SIZE;
}

bool
SctpDataChunkFormat::AllowsInterleaving() const
{
    return false; // RFC 9260 6.9: a message's fragments take consecutive TSNs
}

void
SctpDataChunkFormat::NumberMessage(SctpOutboundMessage& m)
{
    // Only ordered messages use the SSN (RFC 9260 3.3.1: ignored when U is set); it is
    // assigned at the first chunk, not at Send(), so that a message abandoned before any
    // of it was sent (PR-SCTP) leaves no hole in its stream's sequence.
    if (!m.unordered && m.streamId < m_nextSsn.size())
    {
        m.ssn = m_nextSsn[m.streamId]++;
    }
}

void
SctpDataChunkFormat::Serialize(SctpByteWriter& w, const SctpTxChunk& chunk) const
{
    SctpDataChunk::SerializeHeader(w,
                                   chunk.flags,
                                   chunk.tsn,
                                   chunk.message->streamId,
                                   chunk.message->ssn,
                                   chunk.message->ppid,
                                   chunk.length);
    w.WriteBytes(chunk.message->data.data() + chunk.offset, chunk.length);
    w.PadTo4();
}

uint8_t
SctpDataChunkFormat::WriteForwardTsn(SctpByteWriter& w,
                                     uint32_t newCumTsn,
                                     const std::deque<SctpTxChunk>& outstanding) const
{
    // RFC 3758 3.5 C3, C4: the new cumulative TSN and, per stream, the largest SSN of
    // the ordered messages it skips (unordered ones need no entry: the TSN says it all).
    SctpForwardTsnChunk forward;
    forward.newCumTsn = newCumTsn;
    for (const auto& c : outstanding)
    {
        if (SctpTsnGt(c.tsn, newCumTsn))
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
    forward.Serialize(w);
    return SctpChunk::FORWARD_TSN;
}

// ------------------------------------------------------------------ I-DATA

void
SctpIDataChunkFormat::Initialize(uint16_t outboundStreams)
{
    m_nextOrderedMid.assign(outboundStreams, 0);
    m_nextUnorderedMid.assign(outboundStreams, 0);
}

void
SctpIDataChunkFormat::ResetStream(uint16_t streamId)
{
    // RFC 8260 2.3.2: a stream reset (RFC 6525) starts both MID counters of the stream
    // again at 0; the peer's receiver expects MID 0 then (SctpReceiver::ResetInboundStream).
    if (streamId < m_nextOrderedMid.size())
    {
        m_nextOrderedMid[streamId] = 0;
        m_nextUnorderedMid[streamId] = 0;
    }
}

void
SctpIDataChunkFormat::AddStreams(uint16_t count)
{
    m_nextOrderedMid.resize(m_nextOrderedMid.size() + count, 0);
    m_nextUnorderedMid.resize(m_nextUnorderedMid.size() + count, 0);
}

uint8_t
SctpIDataChunkFormat::GetChunkType() const
{
    return SctpChunk::I_DATA;
}

uint32_t
SctpIDataChunkFormat::GetHeaderSize() const
{
    return SctpIDataChunk::HEADER_SIZE;
}

bool
SctpIDataChunkFormat::AllowsInterleaving() const
{
    return true; // RFC 8260 2.1: MID and FSN identify every fragment
}

void
SctpIDataChunkFormat::NumberMessage(SctpOutboundMessage& m)
{
    // RFC 8260 2.1: two MID counters per outgoing stream, one for ordered and one for
    // unordered messages, each starting at 0 and incremented by 1 per message. As with
    // the SSN, a message abandoned before its first chunk was cut takes no MID.
    if (m.streamId >= m_nextOrderedMid.size())
    {
        return;
    }
    std::vector<uint32_t>& counters = m.unordered ? m_nextUnorderedMid : m_nextOrderedMid;
    m.mid = counters[m.streamId]++;
    m.ssn = static_cast<uint16_t>(m.mid); // what traces and the abandon trace report
}

void
SctpIDataChunkFormat::Serialize(SctpByteWriter& w, const SctpTxChunk& chunk) const
{
    // The first fragment (B) carries the PPID, the others their FSN in the same field.
    bool first = (chunk.flags & SctpIDataChunk::FLAG_B) != 0;
    SctpIDataChunk::SerializeHeader(w,
                                    chunk.flags,
                                    chunk.tsn,
                                    chunk.message->streamId,
                                    chunk.message->mid,
                                    first ? chunk.message->ppid : chunk.fsn,
                                    chunk.length);
    w.WriteBytes(chunk.message->data.data() + chunk.offset, chunk.length);
    w.PadTo4();
}

uint8_t
SctpIDataChunkFormat::WriteForwardTsn(SctpByteWriter& w,
                                      uint32_t newCumTsn,
                                      const std::deque<SctpTxChunk>& outstanding) const
{
    // RFC 8260 2.3.1: one entry per stream and ordering (U flag) with the largest MID
    // skipped. Unordered messages need entries too: with interleaving, a TSN below the
    // new cumulative TSN does not tell the receiver which message it belonged to, and a
    // partly received unordered message must be dropped by its MID.
    SctpIForwardTsnChunk forward;
    forward.newCumTsn = newCumTsn;
    for (const auto& c : outstanding)
    {
        if (SctpTsnGt(c.tsn, newCumTsn))
        {
            break;
        }
        if (!c.abandoned)
        {
            continue;
        }
        const SctpOutboundMessage& m = *c.message;
        auto it = std::find_if(forward.entries.begin(), forward.entries.end(), [&m](const auto& e) {
            return e.streamId == m.streamId && e.unordered == m.unordered;
        });
        if (it == forward.entries.end())
        {
            forward.entries.push_back({m.streamId, m.unordered, m.mid});
        }
        else if (SctpTsnLt(it->mid, m.mid)) // serial number arithmetic, as for TSNs
        {
            it->mid = m.mid;
        }
    }
    forward.Serialize(w);
    return SctpChunk::I_FORWARD_TSN;
}

} // namespace ns3
