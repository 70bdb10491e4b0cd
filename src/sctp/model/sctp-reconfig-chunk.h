/*
 * The RE-CONFIG chunk of SCTP stream reconfiguration (RFC 6525 section 3.1) and its six
 * parameters (section 4): Outgoing SSN Reset Request (13), Incoming SSN Reset Request
 * (14), SSN/TSN Reset Request (15), Re-configuration Response (16), Add Outgoing
 * Streams Request (17) and Add Incoming Streams Request (18). Wire format only; the
 * procedures of section 5 are SctpStreamReconfig's (sctp-stream-reconfig.h).
 *
 * Kept apart from sctp-chunk.h so that the chunk classes of RFC 9260 stay as they are.
 */
#ifndef SCTP_RECONFIG_CHUNK_H
#define SCTP_RECONFIG_CHUNK_H

#include "sctp-chunk.h"
#include "sctp-parameter.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief One parameter of a RE-CONFIG chunk (RFC 6525 section 4), decoded.
 *
 * Which fields mean something depends on \c type; the others stay zero / empty.
 */
class SctpReconfigParameter
{
  public:
    /** Result codes of the Re-configuration Response (RFC 6525 section 4.4). */
    enum Result : uint32_t
    {
        SUCCESS_NOTHING_TO_DO = 0,
        SUCCESS_PERFORMED = 1,
        DENIED = 2,
        ERROR_WRONG_SSN = 3,
        ERROR_REQUEST_ALREADY_IN_PROGRESS = 4,
        ERROR_BAD_SEQUENCE_NUMBER = 5,
        IN_PROGRESS = 6,
    };

    uint16_t type{0}; //!< SctpTlv::OUTGOING_SSN_RESET_REQUEST ... ADD_INCOMING_STREAMS_REQUEST
    /** Re-configuration Request Sequence Number (13, 14, 15, 17, 18) or, in a Response
     *  (16), the Re-configuration Response Sequence Number: the request it answers. */
    uint32_t sequenceNumber{0};
    uint32_t responseSequenceNumber{0}; //!< 13: the Incoming request this one answers (4.1)
    uint32_t lastAssignedTsn{0};        //!< 13: Sender's Last Assigned TSN (4.1)
    std::vector<uint16_t> streams;      //!< 13, 14: streams to reset (none: all)
    uint16_t newStreams{0};             //!< 17, 18: Number of new streams (4.5, 4.6)
    uint32_t result{0};                 //!< 16: Result (4.4)
    bool hasNextTsns{false};            //!< 16: the two optional TSN fields are present
    uint32_t senderNextTsn{0};          //!< 16: Sender's Next TSN (optional)
    uint32_t receiverNextTsn{0};        //!< 16: Receiver's Next TSN (optional)

    /** \return true for a request (13, 14, 15, 17, 18), false for a response (16). */
    bool IsRequest() const;
    /**
     * Decode \p tlv. \return false if its type is not one of RFC 6525's or its length
     * does not fit the type (a stream list of odd length, a short fixed part).
     */
    bool Deserialize(const SctpTlv& tlv);
    /** The parameter as a TLV (padding is added when it is serialized). */
    SctpTlv ToTlv() const;

    /** \name Builders */
    //!@{
    static SctpReconfigParameter OutgoingReset(uint32_t requestSeq,
                                               uint32_t responseSeq,
                                               uint32_t lastAssignedTsn,
                                               const std::vector<uint16_t>& streams);
    static SctpReconfigParameter IncomingReset(uint32_t requestSeq,
                                               const std::vector<uint16_t>& streams);
    static SctpReconfigParameter SsnTsnReset(uint32_t requestSeq);
    static SctpReconfigParameter Response(uint32_t responseSeq, uint32_t result);
    static SctpReconfigParameter AddOutgoingStreams(uint32_t requestSeq, uint16_t newStreams);
    static SctpReconfigParameter AddIncomingStreams(uint32_t requestSeq, uint16_t newStreams);
    //!@}

    /** \return the RFC name of a result code, e.g. "Success - Performed". */
    static std::string ResultName(uint32_t result);
    /** \return a short name of a parameter type, e.g. "OUTGOING_SSN_RESET". */
    static std::string TypeName(uint16_t type);
};

/** \ingroup sctp \brief RE-CONFIG chunk (RFC 6525 section 3.1): one or two parameters. */
class SctpReconfigChunk
{
  public:
    std::vector<SctpReconfigParameter> parameters;

    /**
     * \return false if the chunk is not RE-CONFIG, holds no parameter, or a parameter is
     *         malformed or of a type RFC 6525 does not define.
     */
    bool Deserialize(const SctpChunk& chunk);
    /** Write the chunk (flags 0; its Length excludes the last parameter's padding). */
    void Serialize(SctpByteWriter& w) const;
    /** The serialized chunk as bytes. */
    std::vector<uint8_t> ToBytes() const;
};

} // namespace ns3

#endif /* SCTP_RECONFIG_CHUNK_H */
