/*
 * SCTP chunks (RFC 9260 section 3.3, RFC 3758 for FORWARD TSN): one class per chunk
 * type with Serialize() into a byte writer and Deserialize() from a chunk view that
 * reports malformed content instead of asserting.
 */
#ifndef SCTP_CHUNK_H
#define SCTP_CHUNK_H

#include "sctp-header.h"
#include "sctp-parameter.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Chunk type codes and a non-owning view of one chunk inside a packet.
 */
class SctpChunk
{
  public:
    enum Type : uint8_t
    {
        DATA = 0,
        INIT = 1,
        INIT_ACK = 2,
        SACK = 3,
        HEARTBEAT = 4,
        HEARTBEAT_ACK = 5,
        ABORT = 6,
        SHUTDOWN = 7,
        SHUTDOWN_ACK = 8,
        ERROR = 9,
        COOKIE_ECHO = 10,
        COOKIE_ACK = 11,
        ECNE = 12,
        CWR = 13,
        SHUTDOWN_COMPLETE = 14,
        I_DATA = 64, //!< RFC 8260 2.1 (sent and accepted when both ends negotiated I-DATA)
        RE_CONFIG = 130, //!< RFC 6525 3.1 (sctp-reconfig-chunk.h)
        FORWARD_TSN = 192,
        I_FORWARD_TSN = 194, //!< RFC 8260 2.3 (PR-SCTP with I-DATA)
    };

    /** The T bit of ABORT and SHUTDOWN COMPLETE: the verification tag is reflected. */
    static constexpr uint8_t FLAG_T = 0x01;
    static constexpr uint32_t HEADER_SIZE = 4;

    uint8_t type{0};
    uint8_t flags{0};
    uint16_t length{0};            //!< Chunk Length field (header included, padding excluded)
    const uint8_t* value{nullptr}; //!< bytes after the 4-byte chunk header
    uint16_t valueLength{0};       //!< length - 4

    /** \return true for the chunk types RFC 9260 and RFC 3758 define. */
    static bool IsKnownType(uint8_t type);
    /** \return a name like "DATA" or "UNKNOWN(77)". */
    static std::string TypeName(uint8_t type);

    /** Write a chunk that has no value (SHUTDOWN ACK, COOKIE ACK, SHUTDOWN COMPLETE). */
    static void SerializeEmpty(SctpByteWriter& w, uint8_t type, uint8_t flags = 0);
    /** Write a chunk header and an opaque value, then pad. */
    static void SerializeRaw(SctpByteWriter& w,
                             uint8_t type,
                             uint8_t flags,
                             const uint8_t* value,
                             std::size_t valueLength);
};

/**
 * \ingroup sctp
 * \brief Split the chunk area of a packet into chunk views (RFC 9260 section 3.2).
 * \return false if a chunk is shorter than 4 bytes or longer than the bytes left;
 *         \p out then holds the well-formed chunks that precede it.
 */
bool SctpSplitChunks(const uint8_t* data, std::size_t length, std::vector<SctpChunk>& out);

/** \ingroup sctp \brief DATA chunk (RFC 9260 section 3.3.1). */
class SctpDataChunk
{
  public:
    static constexpr uint8_t FLAG_E = 0x01; //!< ending fragment
    static constexpr uint8_t FLAG_B = 0x02; //!< beginning fragment
    static constexpr uint8_t FLAG_U = 0x04; //!< unordered
    static constexpr uint8_t FLAG_I = 0x08; //!< SACK immediately (RFC 7053, RFC 9260)
    static constexpr uint32_t HEADER_SIZE = 16;

    uint8_t flags{0};
    uint32_t tsn{0};
    uint16_t streamId{0};
    uint16_t ssn{0};
    uint32_t ppid{0};
    const uint8_t* payload{nullptr}; //!< view into the received packet
    uint16_t payloadLength{0};

    /** \return false if the chunk is shorter than its 16-byte header. */
    bool Deserialize(const SctpChunk& chunk);
    /** Write the 16-byte header; the caller appends \p payloadLength bytes and pads. */
    static void SerializeHeader(SctpByteWriter& w,
                                uint8_t flags,
                                uint32_t tsn,
                                uint16_t streamId,
                                uint16_t ssn,
                                uint32_t ppid,
                                uint16_t payloadLength);
};

/**
 * \ingroup sctp
 * \brief I-DATA chunk (RFC 8260 section 2.1): DATA with a 32-bit Message Identifier
 *        (MID) in place of the SSN, and the PPID only in the first fragment (B bit);
 *        the other fragments carry their Fragment Sequence Number (FSN) there. Sent in
 *        place of DATA when both ends negotiated I-DATA (SctpSocket IDataSupported).
 */
class SctpIDataChunk
{
  public:
    static constexpr uint8_t FLAG_E = SctpDataChunk::FLAG_E;
    static constexpr uint8_t FLAG_B = SctpDataChunk::FLAG_B;
    static constexpr uint8_t FLAG_U = SctpDataChunk::FLAG_U;
    static constexpr uint8_t FLAG_I = SctpDataChunk::FLAG_I;
    static constexpr uint32_t HEADER_SIZE = 20;

    uint8_t flags{0};
    uint32_t tsn{0};
    uint16_t streamId{0};
    uint32_t mid{0};
    uint32_t ppid{0}; //!< when the B bit is set (0 otherwise)
    uint32_t fsn{0};  //!< when the B bit is clear (the first fragment's FSN is 0)
    const uint8_t* payload{nullptr}; //!< view into the received packet
    uint16_t payloadLength{0};

    /** \return false if the chunk is not I-DATA or is shorter than its 20-byte header. */
    bool Deserialize(const SctpChunk& chunk);
    /**
     * Write the 20-byte header (reserved field 0); the caller appends \p payloadLength
     * bytes and pads. \p ppidOrFsn is the PPID if \p flags has B, else the FSN.
     */
    static void SerializeHeader(SctpByteWriter& w,
                                uint8_t flags,
                                uint32_t tsn,
                                uint16_t streamId,
                                uint32_t mid,
                                uint32_t ppidOrFsn,
                                uint16_t payloadLength);
};

/** \ingroup sctp \brief INIT and INIT ACK chunks (RFC 9260 sections 3.3.2, 3.3.3). */
class SctpInitChunk
{
  public:
    uint8_t type{SctpChunk::INIT};
    uint32_t initiateTag{0};
    uint32_t aRwnd{0};
    uint16_t outboundStreams{0};
    uint16_t inboundStreams{0};
    uint32_t initialTsn{0};
    std::vector<SctpTlv> parameters;

    /** \return false if the fixed part is short or a parameter is malformed. */
    bool Deserialize(const SctpChunk& chunk);
    void Serialize(SctpByteWriter& w) const;
    /** \return the first parameter of \p parameterType, or nullptr. */
    const SctpTlv* Find(uint16_t parameterType) const;
};

/** \ingroup sctp \brief SACK chunk (RFC 9260 section 3.3.4). */
class SctpSackChunk
{
  public:
    uint32_t cumTsnAck{0};
    uint32_t aRwnd{0};
    /** Gap Ack Blocks as (start, end) offsets from the cumulative TSN ack. */
    std::vector<std::pair<uint16_t, uint16_t>> gapBlocks;
    std::vector<uint32_t> duplicateTsns;

    /** \return false if the counts announce more blocks than the chunk holds. */
    bool Deserialize(const SctpChunk& chunk);
    void Serialize(SctpByteWriter& w) const;
    uint32_t GetSerializedSize() const
    {
        return 16 + 4 * static_cast<uint32_t>(gapBlocks.size() + duplicateTsns.size());
    }
};

/** \ingroup sctp \brief HEARTBEAT and HEARTBEAT ACK (RFC 9260 sections 3.3.5, 3.3.6). */
class SctpHeartbeatChunk
{
  public:
    uint8_t type{SctpChunk::HEARTBEAT};
    std::vector<uint8_t> info; //!< Heartbeat Information (opaque to the receiver)

    /** \return false unless the value is one well-formed Heartbeat Info parameter. */
    bool Deserialize(const SctpChunk& chunk);
    void Serialize(SctpByteWriter& w) const;
};

/** \ingroup sctp \brief ABORT and ERROR chunks: a list of error causes (3.3.7, 3.3.10). */
class SctpErrorChunk
{
  public:
    uint8_t type{SctpChunk::ERROR};
    uint8_t flags{0}; //!< ABORT: T bit
    std::vector<SctpTlv> causes;

    /** \return false if a cause is malformed (the well-formed ones are kept). */
    bool Deserialize(const SctpChunk& chunk);
    void Serialize(SctpByteWriter& w) const;
    const SctpTlv* Find(uint16_t causeCode) const;
};

/**
 * \ingroup sctp
 * \brief Chunks carrying one 32-bit TSN: SHUTDOWN (cumulative TSN ack, 3.3.8), ECNE and
 *        CWR (lowest TSN, appendix A).
 */
class SctpTsnChunk
{
  public:
    uint8_t type{SctpChunk::SHUTDOWN};
    uint32_t tsn{0};

    /** \return false unless the value is exactly 4 bytes. */
    bool Deserialize(const SctpChunk& chunk);
    void Serialize(SctpByteWriter& w) const;
};

/** \ingroup sctp \brief COOKIE ECHO (RFC 9260 section 3.3.11). */
class SctpCookieEchoChunk
{
  public:
    std::vector<uint8_t> cookie;
    bool Deserialize(const SctpChunk& chunk);
    void Serialize(SctpByteWriter& w) const;
};

/** \ingroup sctp \brief FORWARD TSN (RFC 3758 section 3.2). */
class SctpForwardTsnChunk
{
  public:
    uint32_t newCumTsn{0};
    /** (stream, stream sequence number) pairs. */
    std::vector<std::pair<uint16_t, uint16_t>> streams;
    bool Deserialize(const SctpChunk& chunk);
    void Serialize(SctpByteWriter& w) const;
};

/**
 * \ingroup sctp
 * \brief I-FORWARD-TSN (RFC 8260 section 2.3.1): FORWARD TSN for I-DATA, whose entries
 *        name the largest skipped MID per stream, ordered and unordered apart (U flag).
 */
class SctpIForwardTsnChunk
{
  public:
    static constexpr uint8_t FLAG_U = 0x01; //!< in the entry's 16-bit flags field

    struct Entry
    {
        uint16_t streamId{0};
        bool unordered{false};
        uint32_t mid{0};
    };

    uint32_t newCumTsn{0};
    std::vector<Entry> entries;
    /** \return false unless the value is a TSN and whole 8-byte entries. */
    bool Deserialize(const SctpChunk& chunk);
    void Serialize(SctpByteWriter& w) const;
};

} // namespace ns3

#endif /* SCTP_CHUNK_H */
