/*
 * The data receiver's record of received TSNs (RFC 9260 sections 6.2 and 6.7): the
 * cumulative TSN, the TSNs received above it (for Gap Ack Blocks) and the duplicates
 * to report. A circular bitmap keeps every operation O(1) per TSN.
 */
#ifndef SCTP_TSN_MAP_H
#define SCTP_TSN_MAP_H

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Received-TSN bookkeeping of the data receiver.
 */
class SctpTsnMap
{
  public:
    enum Status : uint8_t
    {
        NEW = 0,       //!< not received yet and within the window
        DUPLICATE = 1, //!< at or below the cumulative TSN, or already received
        TOO_FAR = 2,   //!< beyond the largest window this map accepts
    };

    /** \param maxWindow the largest distance above the cumulative TSN accepted. */
    explicit SctpTsnMap(uint32_t maxWindow = 1u << 20);

    /** The peer's Initial TSN: the cumulative TSN becomes initialTsn - 1. */
    void Initialize(uint32_t initialTsn);

    Status Check(uint32_t tsn) const;
    /** Record \p tsn (Check() must have returned NEW); advances the cumulative TSN. */
    void Mark(uint32_t tsn);
    /**
     * Move the cumulative TSN forward to \p newCumTsn (FORWARD TSN, RFC 3758 3.6), then
     * over the TSNs received just above it. The caller bounds the jump by GetMaxWindow().
     */
    void ForwardTo(uint32_t newCumTsn);
    /** The largest distance above the cumulative TSN this map accepts. */
    uint32_t GetMaxWindow() const;

    uint32_t GetCumulativeTsn() const;
    /** Largest TSN received so far (the cumulative TSN if none above it). */
    uint32_t GetHighestTsn() const;
    bool HasGaps() const;

    /**
     * Gap Ack Blocks as offsets from the cumulative TSN (at most \p maxBlocks).
     */
    void GetGapBlocks(std::vector<std::pair<uint16_t, uint16_t>>& out, std::size_t maxBlocks) const;

    /** \name Duplicate TSNs received since the last SACK */
    //!@{
    void AddDuplicate(uint32_t tsn);
    const std::vector<uint32_t>& GetDuplicates() const;
    void ClearDuplicates();
    //!@}

  private:
    bool Test(uint32_t tsn) const;
    void Set(uint32_t tsn);
    void Clear(uint32_t tsn);
    void Grow(uint32_t needed);

    uint32_t m_cumTsn{0};
    uint32_t m_highestTsn{0};
    uint32_t m_maxWindow;
    std::vector<uint64_t> m_bits; //!< bit (tsn & mask) set = received, for cum < tsn <= cum+size
    uint32_t m_mask{0};
    std::vector<uint32_t> m_duplicates;
};

} // namespace ns3

#endif /* SCTP_TSN_MAP_H */
