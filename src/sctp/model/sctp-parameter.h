/*
 * SCTP variable-length parameters (RFC 9260 section 3.2.1 and 3.3.2.1) and error causes
 * (section 3.3.10). Both share the type-length-value layout, so one class holds either.
 */
#ifndef SCTP_PARAMETER_H
#define SCTP_PARAMETER_H

#include "sctp-header.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief One TLV: an INIT/INIT ACK parameter, an error cause, or a Heartbeat Info.
 */
class SctpTlv
{
  public:
    /** Parameter types (RFC 9260 section 3.3.2.1, RFC 3758, RFC 6525). */
    enum ParameterType : uint16_t
    {
        HEARTBEAT_INFO = 1,
        IPV4_ADDRESS = 5,
        IPV6_ADDRESS = 6,
        STATE_COOKIE = 7,
        UNRECOGNIZED_PARAMETER = 8,
        COOKIE_PRESERVATIVE = 9,
        HOST_NAME_ADDRESS = 11,
        SUPPORTED_ADDRESS_TYPES = 12,
        // RFC 6525 section 4: parameters of the RE-CONFIG chunk (sctp-reconfig-chunk.h)
        OUTGOING_SSN_RESET_REQUEST = 13,
        INCOMING_SSN_RESET_REQUEST = 14,
        SSN_TSN_RESET_REQUEST = 15,
        RECONFIG_RESPONSE = 16,
        ADD_OUTGOING_STREAMS_REQUEST = 17,
        ADD_INCOMING_STREAMS_REQUEST = 18,
        ECN_CAPABLE = 0x8000,
        SUPPORTED_EXTENSIONS = 0x8008, //!< RFC 5061 4.2.7: chunk types the sender supports
        FORWARD_TSN_SUPPORTED = 0xC000,
    };

    /** Error cause codes (RFC 9260 section 3.3.10). */
    enum CauseCode : uint16_t
    {
        INVALID_STREAM_IDENTIFIER = 1,
        MISSING_MANDATORY_PARAMETER = 2,
        STALE_COOKIE_ERROR = 3,
        OUT_OF_RESOURCE = 4,
        UNRESOLVABLE_ADDRESS = 5,
        UNRECOGNIZED_CHUNK_TYPE = 6,
        INVALID_MANDATORY_PARAMETER = 7,
        UNRECOGNIZED_PARAMETERS = 8,
        NO_USER_DATA = 9,
        COOKIE_RECEIVED_WHILE_SHUTTING_DOWN = 10,
        RESTART_WITH_NEW_ADDRESSES = 11,
        USER_INITIATED_ABORT = 12,
        PROTOCOL_VIOLATION = 13,
    };

    SctpTlv() = default;

    SctpTlv(uint16_t type, std::vector<uint8_t> value)
        : type(type),
          value(std::move(value))
    {
    }

    uint16_t type{0};
    std::vector<uint8_t> value;

    /** Length field value: 4 + value size (padding excluded). */
    uint32_t GetLength() const
    {
        return 4 + static_cast<uint32_t>(value.size());
    }

    /** Write type, length, value and padding to a multiple of 4. */
    void Serialize(SctpByteWriter& w) const;

    /** Raw bytes of the TLV as on the wire, padding excluded (for Unrecognized Parameter). */
    std::vector<uint8_t> ToBytes() const;

    // Builders for the parameters and causes this model sends.
    static SctpTlv Ipv4Address(const ns3::Ipv4Address& address);
    static SctpTlv Ipv6Address(const ns3::Ipv6Address& address);
    static SctpTlv CookiePreservative(uint32_t incrementMs);
    static SctpTlv SupportedAddressTypes(bool ipv4, bool ipv6);
    /** Supported Extensions (RFC 5061 4.2.7): one byte per chunk type. */
    static SctpTlv SupportedExtensions(const std::vector<uint8_t>& chunkTypes);
    /** \return true if this is a Supported Extensions parameter listing \p chunkType. */
    bool ListsChunkType(uint8_t chunkType) const;
    static SctpTlv Cause(uint16_t code, const std::vector<uint8_t>& info = {});
    static SctpTlv CauseU32(uint16_t code, uint32_t value);
    static SctpTlv InvalidStream(uint16_t streamId);
    static SctpTlv MissingMandatoryParameter(uint16_t parameterType);
    static SctpTlv ProtocolViolation(const std::string& text);

    /** \return a readable name of the cause code (for logs and tests). */
    static std::string CauseName(uint16_t code);
};

/**
 * \ingroup sctp
 * \brief Parse consecutive TLVs filling \p length bytes (padding between them skipped).
 * \return false if a TLV is shorter than 4 bytes or runs past the end; \p out then holds
 *         the well-formed TLVs found before it.
 */
bool SctpParseTlvs(const uint8_t* data, std::size_t length, std::vector<SctpTlv>& out);

} // namespace ns3

#endif /* SCTP_PARAMETER_H */
