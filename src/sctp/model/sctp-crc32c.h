/*
 * CRC32c (Castagnoli), the SCTP checksum (RFC 9260 section 6.8 and appendix A).
 */
#ifndef SCTP_CRC32C_H
#define SCTP_CRC32C_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief CRC32c of \p length bytes at \p data, as SCTP puts it in its common header.
 *
 * The value returned is the CRC after the final bit inversion. RFC 9260 appendix A
 * transmits it least significant byte first: use SctpWriteChecksum() to place it.
 * Uses the SSE4.2 crc32 instruction when the CPU has it, a slicing-by-8 table
 * otherwise (both give identical results).
 */
uint32_t SctpCrc32c(const uint8_t* data, std::size_t length);

/**
 * \brief Compute the checksum of a complete SCTP packet (common header first) and
 *        store it in bytes 8..11; the field is zeroed before the computation.
 */
void SctpWriteChecksum(uint8_t* packet, std::size_t length);

/**
 * \brief Verify the checksum of a complete SCTP packet without modifying it.
 * \return true if the stored checksum is correct (packets shorter than the common
 *         header are never correct).
 */
bool SctpVerifyChecksum(const uint8_t* packet, std::size_t length);

} // namespace ns3

#endif /* SCTP_CRC32C_H */
