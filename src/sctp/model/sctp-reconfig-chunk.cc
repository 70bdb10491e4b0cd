/*
 * RE-CONFIG chunk and parameters (RFC 6525 sections 3.1 and 4).
 */
#include "sctp-reconfig-chunk.h"

namespace ns3
{

bool
SctpReconfigParameter::IsRequest() const
{
    return type != SctpTlv::RECONFIG_RESPONSE;
}

bool
SctpReconfigParameter::Deserialize(const SctpTlv& tlv)
{
    *this = SctpReconfigParameter();
    type = tlv.type;
    SctpByteReader r(tlv.value.data(), tlv.value.size());
    std::size_t listBytes = 0;
    switch (type)
    {
    case SctpTlv::OUTGOING_SSN_RESET_REQUEST:
        // 4.1: three 32-bit fields, then 16-bit stream numbers.
        sequenceNumber = r.ReadU32();
        responseSequenceNumber = r.ReadU32();
        lastAssignedTsn = r.ReadU32();
        listBytes = tlv.value.size() >= 12 ? tlv.value.size() - 12 : 0;
        break;
    case SctpTlv::INCOMING_SSN_RESET_REQUEST:
        sequenceNumber = r.ReadU32(); // 4.2
        listBytes = tlv.value.size() >= 4 ? tlv.value.size() - 4 : 0;
        break;
    case SctpTlv::SSN_TSN_RESET_REQUEST:
        sequenceNumber = r.ReadU32(); // 4.3: exactly one field
        return r.IsOk() && tlv.value.size() == 4;
    case SctpTlv::RECONFIG_RESPONSE:
        // 4.4: 8 bytes, or 16 with the Sender's and Receiver's Next TSN.
        sequenceNumber = r.ReadU32();
        result = r.ReadU32();
        if (tlv.value.size() == 16)
        {
            hasNextTsns = true;
            senderNextTsn = r.ReadU32();
            receiverNextTsn = r.ReadU32();
        }
        return r.IsOk() && (tlv.value.size() == 8 || tlv.value.size() == 16);
    case SctpTlv::ADD_OUTGOING_STREAMS_REQUEST:
    case SctpTlv::ADD_INCOMING_STREAMS_REQUEST:
        // 4.5, 4.6: sequence number, number of new streams, 16 reserved bits.
        sequenceNumber = r.ReadU32();
        newStreams = r.ReadU16();
        r.ReadU16();
        return r.IsOk() && tlv.value.size() == 8;
    default:
        return false;
    }
    if (!r.IsOk() || listBytes % 2 != 0)
    {
        return false;
    }
    for (std::size_t i = 0; i < listBytes / 2; ++i)
    {
        streams.push_back(r.ReadU16());
    }
    return r.IsOk();
}

SctpTlv
SctpReconfigParameter::ToTlv() const
{
    std::vector<uint8_t> v;
    SctpByteWriter w(v);
    switch (type)
    {
    case SctpTlv::OUTGOING_SSN_RESET_REQUEST:
        w.WriteU32(sequenceNumber);
        w.WriteU32(responseSequenceNumber);
        w.WriteU32(lastAssignedTsn);
        for (uint16_t s : streams)
        {
            w.WriteU16(s);
        }
        break;
    case SctpTlv::INCOMING_SSN_RESET_REQUEST:
        w.WriteU32(sequenceNumber);
        for (uint16_t s : streams)
        {
            w.WriteU16(s);
        }
        break;
    case SctpTlv::SSN_TSN_RESET_REQUEST:
        w.WriteU32(sequenceNumber);
        break;
    case SctpTlv::RECONFIG_RESPONSE:
        w.WriteU32(sequenceNumber);
        w.WriteU32(result);
        if (hasNextTsns)
        {
            w.WriteU32(senderNextTsn);
            w.WriteU32(receiverNextTsn);
        }
        break;
    case SctpTlv::ADD_OUTGOING_STREAMS_REQUEST:
    case SctpTlv::ADD_INCOMING_STREAMS_REQUEST:
        w.WriteU32(sequenceNumber);
        w.WriteU16(newStreams);
        w.WriteU16(0); // reserved
        break;
    default:
        break;
    }
    return SctpTlv(type, std::move(v));
}

SctpReconfigParameter
SctpReconfigParameter::OutgoingReset(uint32_t requestSeq,
                                     uint32_t responseSeq,
                                     uint32_t lastAssignedTsn,
                                     const std::vector<uint16_t>& streams)
{
    SctpReconfigParameter p;
    p.type = SctpTlv::OUTGOING_SSN_RESET_REQUEST;
    p.sequenceNumber = requestSeq;
    p.responseSequenceNumber = responseSeq;
    p.lastAssignedTsn = lastAssignedTsn;
    p.streams = streams;
    return p;
}

SctpReconfigParameter
SctpReconfigParameter::IncomingReset(uint32_t requestSeq, const std::vector<uint16_t>& streams)
{
    SctpReconfigParameter p;
    p.type = SctpTlv::INCOMING_SSN_RESET_REQUEST;
    p.sequenceNumber = requestSeq;
    p.streams = streams;
    return p;
}

SctpReconfigParameter
SctpReconfigParameter::SsnTsnReset(uint32_t requestSeq)
{
    SctpReconfigParameter p;
    p.type = SctpTlv::SSN_TSN_RESET_REQUEST;
    p.sequenceNumber = requestSeq;
    return p;
}

SctpReconfigParameter
SctpReconfigParameter::Response(uint32_t responseSeq, uint32_t result)
{
    SctpReconfigParameter p;
    p.type = SctpTlv::RECONFIG_RESPONSE;
    p.sequenceNumber = responseSeq;
    p.result = result;
    return p;
}

SctpReconfigParameter
SctpReconfigParameter::AddOutgoingStreams(uint32_t requestSeq, uint16_t newStreams)
{
    SctpReconfigParameter p;
    p.type = SctpTlv::ADD_OUTGOING_STREAMS_REQUEST;
    p.sequenceNumber = requestSeq;
    p.newStreams = newStreams;
    return p;
}

SctpReconfigParameter
SctpReconfigParameter::AddIncomingStreams(uint32_t requestSeq, uint16_t newStreams)
{
    SctpReconfigParameter p = AddOutgoingStreams(requestSeq, newStreams);
    p.type = SctpTlv::ADD_INCOMING_STREAMS_REQUEST;
    return p;
}

std::string
SctpReconfigParameter::ResultName(uint32_t result)
{
    switch (result)
    {
    case SUCCESS_NOTHING_TO_DO:
        return "Success - Nothing to do";
    case SUCCESS_PERFORMED:
        return "Success - Performed";
    case DENIED:
        return "Denied";
    case ERROR_WRONG_SSN:
        return "Error - Wrong SSN";
    case ERROR_REQUEST_ALREADY_IN_PROGRESS:
        return "Error - Request already in progress";
    case ERROR_BAD_SEQUENCE_NUMBER:
        return "Error - Bad Sequence Number";
    case IN_PROGRESS:
        return "In progress";
    }
    return "Unknown(" + std::to_string(result) + ")";
}

std::string
SctpReconfigParameter::TypeName(uint16_t type)
{
    switch (type)
    {
    case SctpTlv::OUTGOING_SSN_RESET_REQUEST:
        return "OUTGOING_SSN_RESET";
    case SctpTlv::INCOMING_SSN_RESET_REQUEST:
        return "INCOMING_SSN_RESET";
    case SctpTlv::SSN_TSN_RESET_REQUEST:
        return "SSN_TSN_RESET";
    case SctpTlv::RECONFIG_RESPONSE:
        return "RESPONSE";
    case SctpTlv::ADD_OUTGOING_STREAMS_REQUEST:
        return "ADD_OUTGOING_STREAMS";
    case SctpTlv::ADD_INCOMING_STREAMS_REQUEST:
        return "ADD_INCOMING_STREAMS";
    }
    return "UNKNOWN(" + std::to_string(type) + ")";
}

bool
SctpReconfigChunk::Deserialize(const SctpChunk& chunk)
{
    parameters.clear();
    if (chunk.type != SctpChunk::RE_CONFIG)
    {
        return false;
    }
    std::vector<SctpTlv> tlvs;
    if (!SctpParseTlvs(chunk.value, chunk.valueLength, tlvs) || tlvs.empty())
    {
        return false;
    }
    for (const auto& tlv : tlvs)
    {
        SctpReconfigParameter p;
        if (!p.Deserialize(tlv))
        {
            return false;
        }
        parameters.push_back(std::move(p));
    }
    return true;
}

void
SctpReconfigChunk::Serialize(SctpByteWriter& w) const
{
    std::size_t start = w.GetPosition();
    w.WriteU8(SctpChunk::RE_CONFIG);
    w.WriteU8(0);
    w.WriteU16(0);
    std::size_t end = w.GetPosition();
    for (const auto& p : parameters)
    {
        SctpTlv tlv = p.ToTlv();
        tlv.Serialize(w);
        end = w.GetPosition() - ((4 - tlv.GetLength() % 4) % 4); // last padding not counted
    }
    w.PatchU16(start + 2, static_cast<uint16_t>(end - start));
}

std::vector<uint8_t>
SctpReconfigChunk::ToBytes() const
{
    std::vector<uint8_t> out;
    SctpByteWriter w(out);
    Serialize(w);
    return out;
}

} // namespace ns3
