/*
 * How the sender frames user data: DATA chunks (RFC 9260 section 3.3.1) or I-DATA chunks
 * (RFC 8260 section 2.1), and the matching FORWARD TSN (RFC 3758 3.2) or I-FORWARD-TSN
 * (RFC 8260 2.3.1). SctpTxQueue numbers each message through its format when the
 * message's first chunk is cut, SctpSender writes chunks through it. The association
 * chooses the format once the handshake has told whether both ends support I-DATA
 * (RFC 8260 2.2: then every user message goes in I-DATA, none in DATA).
 *
 * The two differ in what the receiver needs to reassemble: with DATA the fragments of a
 * message must have consecutive TSNs (RFC 9260 6.9), so a message is finished before the
 * next one starts; I-DATA names the message (MID) and the fragment (FSN) in every chunk,
 * so fragments of messages of different streams may be interleaved (AllowsInterleaving).
 */
#ifndef SCTP_DATA_FORMAT_H
#define SCTP_DATA_FORMAT_H

#include "sctp-header.h"

#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <deque>
#include <vector>

namespace ns3
{

class SctpOutboundMessage;
struct SctpTxChunk;

/**
 * \ingroup sctp
 * \brief Framing of user data into chunks (abstract): DATA or I-DATA.
 */
class SctpDataFormat : public SimpleRefCount<SctpDataFormat>
{
  public:
    virtual ~SctpDataFormat();

    /** A new association with \p outboundStreams streams: every sequence starts at 0. */
    virtual void Initialize(uint16_t outboundStreams) = 0;
    /** Chunk type of the user data chunks (DATA 0, I-DATA 64). */
    virtual uint8_t GetChunkType() const = 0;
    /** Bytes of the chunk header before the user data (16 or 20). */
    virtual uint32_t GetHeaderSize() const = 0;
    /** Fragments of messages of different streams may be interleaved. */
    virtual bool AllowsInterleaving() const = 0;
    /** Give \p message its sequence number (SSN or MID) as its first chunk is cut. */
    virtual void NumberMessage(SctpOutboundMessage& message) = 0;
    /** Start \p streamId's sequence again at 0 (a stream reset, RFC 6525 5.2.2). */
    virtual void ResetStream(uint16_t streamId) = 0;
    /** \p count more outbound streams, their sequences at 0 (RFC 6525 5.2.5). */
    virtual void AddStreams(uint16_t count) = 0;
    /** Write \p chunk: header, user data, padding. */
    virtual void Serialize(SctpByteWriter& w, const SctpTxChunk& chunk) const = 0;
    /**
     * Write the chunk that moves the peer's cumulative TSN to \p newCumTsn over the
     * abandoned chunks among \p outstanding (those up to \p newCumTsn).
     * \return its chunk type (FORWARD TSN 192, I-FORWARD-TSN 194).
     */
    virtual uint8_t WriteForwardTsn(SctpByteWriter& w,
                                    uint32_t newCumTsn,
                                    const std::deque<SctpTxChunk>& outstanding) const = 0;
};

/**
 * \ingroup sctp
 * \brief DATA chunks (RFC 9260 3.3.1): a 16-bit SSN per stream for ordered messages
 *        (unordered ones carry 0), the PPID in every fragment, FORWARD TSN (RFC 3758).
 */
class SctpDataChunkFormat : public SctpDataFormat
{
  public:
    void Initialize(uint16_t outboundStreams) override;
    uint8_t GetChunkType() const override;
    uint32_t GetHeaderSize() const override;
    bool AllowsInterleaving() const override;
    void NumberMessage(SctpOutboundMessage& message) override;
    void ResetStream(uint16_t streamId) override;
    void AddStreams(uint16_t count) override;
    void Serialize(SctpByteWriter& w, const SctpTxChunk& chunk) const override;
    uint8_t WriteForwardTsn(SctpByteWriter& w,
                            uint32_t newCumTsn,
                            const std::deque<SctpTxChunk>& outstanding) const override;

  private:
    std::vector<uint16_t> m_nextSsn;
};

/**
 * \ingroup sctp
 * \brief I-DATA chunks (RFC 8260 2.1): a 32-bit MID counted per stream, separately for
 *        ordered and unordered messages; the PPID in the first fragment (B bit), the
 *        FSN in the others; I-FORWARD-TSN (RFC 8260 2.3) for PR-SCTP.
 */
class SctpIDataChunkFormat : public SctpDataFormat
{
  public:
    void Initialize(uint16_t outboundStreams) override;
    uint8_t GetChunkType() const override;
    uint32_t GetHeaderSize() const override;
    bool AllowsInterleaving() const override;
    void NumberMessage(SctpOutboundMessage& message) override;
    void ResetStream(uint16_t streamId) override;
    void AddStreams(uint16_t count) override;
    void Serialize(SctpByteWriter& w, const SctpTxChunk& chunk) const override;
    uint8_t WriteForwardTsn(SctpByteWriter& w,
                            uint32_t newCumTsn,
                            const std::deque<SctpTxChunk>& outstanding) const override;

  private:
    std::vector<uint32_t> m_nextOrderedMid;
    std::vector<uint32_t> m_nextUnorderedMid;
};

} // namespace ns3

#endif /* SCTP_DATA_FORMAT_H */
