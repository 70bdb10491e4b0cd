#include "sctp-tsn-map.h"

#include "sctp-header.h"

namespace ns3
{

SctpTsnMap::SctpTsnMap(uint32_t maxWindow)
    : m_maxWindow(maxWindow)
{
    m_bits.assign(64, 0); // 4096 TSNs to start with
    m_mask = 64 * 64 - 1;
}

void
SctpTsnMap::Initialize(uint32_t initialTsn)
{
    m_cumTsn = initialTsn - 1;
    m_highestTsn = m_cumTsn;
    std::fill(m_bits.begin(), m_bits.end(), 0);
    m_duplicates.clear();
}

bool
SctpTsnMap::Test(uint32_t tsn) const
{
    uint32_t i = tsn & m_mask;
    return (m_bits[i >> 6] >> (i & 63)) & 1u;
}

void
SctpTsnMap::Set(uint32_t tsn)
{
    uint32_t i = tsn & m_mask;
    m_bits[i >> 6] |= (uint64_t{1} << (i & 63));
}

void
SctpTsnMap::Clear(uint32_t tsn)
{
    uint32_t i = tsn & m_mask;
    m_bits[i >> 6] &= ~(uint64_t{1} << (i & 63));
}

SctpTsnMap::Status
SctpTsnMap::Check(uint32_t tsn) const
{
    if (SctpTsnLe(tsn, m_cumTsn))
    {
        return DUPLICATE;
    }
    uint32_t distance = tsn - m_cumTsn;
    if (distance > m_maxWindow)
    {
        return TOO_FAR;
    }
    if (distance <= m_mask + 1 && SctpTsnLe(tsn, m_highestTsn) && Test(tsn))
    {
        return DUPLICATE;
    }
    return NEW;
}

void
SctpTsnMap::Grow(uint32_t needed)
{
    uint32_t size = m_mask + 1;
    while (size < needed)
    {
        size *= 2;
    }
    std::vector<uint32_t> received;
    for (uint32_t t = m_cumTsn + 1; SctpTsnLe(t, m_highestTsn); ++t)
    {
        if (Test(t))
        {
            received.push_back(t);
        }
    }
    m_bits.assign(size / 64, 0);
    m_mask = size - 1;
    for (uint32_t t : received)
    {
        Set(t);
    }
}

void
SctpTsnMap::Mark(uint32_t tsn)
{
    uint32_t distance = tsn - m_cumTsn;
    if (distance > m_mask + 1)
    {
        Grow(distance);
    }
    if (SctpTsnGt(tsn, m_highestTsn))
    {
        m_highestTsn = tsn;
    }
    if (distance == 1)
    {
        m_cumTsn = tsn;
        while (SctpTsnLt(m_cumTsn, m_highestTsn) && Test(m_cumTsn + 1))
        {
            Clear(m_cumTsn + 1);
            ++m_cumTsn;
        }
        return;
    }
    Set(tsn);
}

void
SctpTsnMap::ForwardTo(uint32_t newCumTsn)
{
    if (SctpTsnLe(newCumTsn, m_cumTsn))
    {
        return;
    }
    // Only TSNs up to the highest received can have a bit set: clearing is bounded by
    // the map's window however far the new cumulative TSN jumps.
    uint32_t clearTo = SctpTsnLt(newCumTsn, m_highestTsn) ? newCumTsn : m_highestTsn;
    for (uint32_t t = m_cumTsn + 1; SctpTsnLe(t, clearTo); ++t)
    {
        Clear(t);
    }
    m_cumTsn = newCumTsn;
    if (SctpTsnLt(m_highestTsn, m_cumTsn))
    {
        m_highestTsn = m_cumTsn;
    }
    while (SctpTsnLt(m_cumTsn, m_highestTsn) && Test(m_cumTsn + 1))
    {
        Clear(m_cumTsn + 1);
        ++m_cumTsn;
    }
}

uint32_t
SctpTsnMap::GetMaxWindow() const
{
    return m_maxWindow;
}

uint32_t
SctpTsnMap::GetCumulativeTsn() const
{
    return m_cumTsn;
}

uint32_t
SctpTsnMap::GetHighestTsn() const
{
    return m_highestTsn;
}

bool
SctpTsnMap::HasGaps() const
{
    return m_highestTsn != m_cumTsn;
}

void
SctpTsnMap::GetGapBlocks(std::vector<std::pair<uint16_t, uint16_t>>& out,
                         std::size_t maxBlocks) const
{
    out.clear();
    if (!HasGaps())
    {
        return;
    }
    bool inBlock = false;
    uint32_t start = 0;
    for (uint32_t t = m_cumTsn + 1;; ++t)
    {
        uint32_t offset = t - m_cumTsn;
        if (offset > 0xFFFF)
        {
            break; // Gap Ack Block offsets are 16 bits
        }
        bool received = Test(t);
        if (received && !inBlock)
        {
            inBlock = true;
            start = offset;
        }
        else if (!received && inBlock)
        {
            inBlock = false;
            out.emplace_back(static_cast<uint16_t>(start), static_cast<uint16_t>(offset - 1));
            if (out.size() >= maxBlocks)
            {
                return;
            }
        }
        if (t == m_highestTsn)
        {
            if (inBlock)
            {
                out.emplace_back(static_cast<uint16_t>(start), static_cast<uint16_t>(offset));
            }
            return;
        }
        if (!received && !inBlock)
        {
            // Skip whole empty words quickly.
            uint32_t i = t & m_mask;
            if ((i & 63) == 0 && m_bits[i >> 6] == 0 && SctpTsnLt(t + 63, m_highestTsn))
            {
                t += 63;
            }
        }
    }
}

void
SctpTsnMap::AddDuplicate(uint32_t tsn)
{
    if (m_duplicates.size() < 64)
    {
        m_duplicates.push_back(tsn);
    }
}

const std::vector<uint32_t>&
SctpTsnMap::GetDuplicates() const
{
    return m_duplicates;
}

void
SctpTsnMap::ClearDuplicates()
{
    m_duplicates.clear();
}

} // namespace ns3
