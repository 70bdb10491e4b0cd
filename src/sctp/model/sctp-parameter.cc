#include "sctp-parameter.h"

#include <algorithm>

namespace ns3
{

void
SctpTlv::Serialize(SctpByteWriter& w) const
{
    w.WriteU16(type);
    w.WriteU16(static_cast<uint16_t>(GetLength()));
    w.WriteBytes(value.data(), value.size());
    w.PadTo4();
}

std::vector<uint8_t>
SctpTlv::ToBytes() const
{
    std::vector<uint8_t> out;
    SctpByteWriter w(out);
    w.WriteU16(type);
    w.WriteU16(static_cast<uint16_t>(GetLength()));
    w.WriteBytes(value.data(), value.size());
    return out;
}

SctpTlv
SctpTlv::Ipv4Address(const ns3::Ipv4Address& address)
{
    std::vector<uint8_t> v(4);
    address.Serialize(v.data());
    return SctpTlv(IPV4_ADDRESS, std::move(v));
}

SctpTlv
SctpTlv::Ipv6Address(const ns3::Ipv6Address& address)
{
    std::vector<uint8_t> v(16);
    address.Serialize(v.data());
    return SctpTlv(IPV6_ADDRESS, std::move(v));
}

SctpTlv
SctpTlv::CookiePreservative(uint32_t incrementMs)
{
    std::vector<uint8_t> v;
    SctpByteWriter w(v);
    w.WriteU32(incrementMs);
    return SctpTlv(COOKIE_PRESERVATIVE, std::move(v));
}

SctpTlv
SctpTlv::SupportedAddressTypes(bool ipv4, bool ipv6)
{
    std::vector<uint8_t> v;
    SctpByteWriter w(v);
    if (ipv4)
    {
        w.WriteU16(IPV4_ADDRESS);
    }
    if (ipv6)
    {
        w.WriteU16(IPV6_ADDRESS);
    }
    return SctpTlv(SUPPORTED_ADDRESS_TYPES, std::move(v));
}

SctpTlv
SctpTlv::SupportedExtensions(const std::vector<uint8_t>& chunkTypes)
{
    return SctpTlv(SUPPORTED_EXTENSIONS, chunkTypes);
}

bool
SctpTlv::ListsChunkType(uint8_t chunkType) const
{
    return type == SUPPORTED_EXTENSIONS &&
           std::find(value.begin(), value.end(), chunkType) != value.end();
}

SctpTlv
SctpTlv::Cause(uint16_t code, const std::vector<uint8_t>& info)
{
    return SctpTlv(code, info);
}

SctpTlv
SctpTlv::CauseU32(uint16_t code, uint32_t value)
{
    std::vector<uint8_t> v;
    SctpByteWriter w(v);
    w.WriteU32(value);
    return SctpTlv(code, std::move(v));
}

SctpTlv
SctpTlv::InvalidStream(uint16_t streamId)
{
    std::vector<uint8_t> v;
    SctpByteWriter w(v);
    w.WriteU16(streamId);
    w.WriteU16(0); // reserved
    return SctpTlv(INVALID_STREAM_IDENTIFIER, std::move(v));
}

SctpTlv
SctpTlv::MissingMandatoryParameter(uint16_t parameterType)
{
    std::vector<uint8_t> v;
    SctpByteWriter w(v);
    w.WriteU32(1); // number of missing parameters
    w.WriteU16(parameterType);
    return SctpTlv(MISSING_MANDATORY_PARAMETER, std::move(v));
}

SctpTlv
SctpTlv::ProtocolViolation(const std::string& text)
{
    std::vector<uint8_t> v(text.begin(), text.end());
    return SctpTlv(PROTOCOL_VIOLATION, std::move(v));
}

std::string
SctpTlv::CauseName(uint16_t code)
{
    switch (code)
    {
    case INVALID_STREAM_IDENTIFIER:
        return "Invalid Stream Identifier";
    case MISSING_MANDATORY_PARAMETER:
        return "Missing Mandatory Parameter";
    case STALE_COOKIE_ERROR:
        return "Stale Cookie Error";
    case OUT_OF_RESOURCE:
        return "Out of Resource";
    case UNRESOLVABLE_ADDRESS:
        return "Unresolvable Address";
    case UNRECOGNIZED_CHUNK_TYPE:
        return "Unrecognized Chunk Type";
    case INVALID_MANDATORY_PARAMETER:
        return "Invalid Mandatory Parameter";
    case UNRECOGNIZED_PARAMETERS:
        return "Unrecognized Parameters";
    case NO_USER_DATA:
        return "No User Data";
    case COOKIE_RECEIVED_WHILE_SHUTTING_DOWN:
        return "Cookie Received While Shutting Down";
    case RESTART_WITH_NEW_ADDRESSES:
        return "Restart of an Association with New Addresses";
    case USER_INITIATED_ABORT:
        return "User-Initiated Abort";
    case PROTOCOL_VIOLATION:
        return "Protocol Violation";
    default:
        return "Unknown cause " + std::to_string(code);
    }
}

bool
SctpParseTlvs(const uint8_t* data, std::size_t length, std::vector<SctpTlv>& out)
{
    std::size_t pos = 0;
    while (pos < length)
    {
        if (length - pos < 4)
        {
            return false;
        }
        uint16_t type = static_cast<uint16_t>((data[pos] << 8) | data[pos + 1]);
        uint16_t tlvLength = static_cast<uint16_t>((data[pos + 2] << 8) | data[pos + 3]);
        if (tlvLength < 4 || tlvLength > length - pos)
        {
            return false;
        }
        out.emplace_back(type, std::vector<uint8_t>(data + pos + 4, data + pos + tlvLength));
        std::size_t padded = (static_cast<std::size_t>(tlvLength) + 3) & ~static_cast<std::size_t>(3);
        pos += std::min(padded, length - pos);
    }
    return true;
}

} // namespace ns3
