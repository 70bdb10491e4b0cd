#include "sctp-chunk.h"

namespace ns3
{

bool
SctpChunk::IsKnownType(uint8_t type)
{
    return type <= SHUTDOWN_COMPLETE || type == FORWARD_TSN || type == I_DATA ||
           type == I_FORWARD_TSN;
}

std::string
SctpChunk::TypeName(uint8_t type)
{
    static const char* names[] = {"DATA",
                                  "INIT",
                                  "INIT_ACK",
                                  "SACK",
                                  "HEARTBEAT",
                                  "HEARTBEAT_ACK",
                                  "ABORT",
                                  "SHUTDOWN",
                                  "SHUTDOWN_ACK",
                                  "ERROR",
                                  "COOKIE_ECHO",
                                  "COOKIE_ACK",
                                  "ECNE",
                                  "CWR",
                                  "SHUTDOWN_COMPLETE"};
    if (type <= SHUTDOWN_COMPLETE)
    {
        return names[type];
    }
    if (type == FORWARD_TSN)
    {
        return "FORWARD_TSN";
    }
    if (type == I_DATA)
    {
        return "I_DATA";
    }
    if (type == I_FORWARD_TSN)
    {
        return "I_FORWARD_TSN";
    }
    if (type == RE_CONFIG)
    {
        return "RE_CONFIG";
    }
    return "UNKNOWN(" + std::to_string(type) + ")";
}

void
SctpChunk::SerializeEmpty(SctpByteWriter& w, uint8_t type, uint8_t flags)
{
    w.WriteU8(type);
    w.WriteU8(flags);
    w.WriteU16(4);
}

void
SctpChunk::SerializeRaw(SctpByteWriter& w,
                        uint8_t type,
                        uint8_t flags,
                        const uint8_t* value,
                        std::size_t valueLength)
{
    w.WriteU8(type);
    w.WriteU8(flags);
    w.WriteU16(static_cast<uint16_t>(4 + valueLength));
    w.WriteBytes(value, valueLength);
    w.PadTo4();
}

bool
SctpSplitChunks(const uint8_t* data, std::size_t length, std::vector<SctpChunk>& out)
{
    std::size_t pos = 0;
    while (pos < length)
    {
        if (length - pos < SctpChunk::HEADER_SIZE)
        {
            return false;
        }
        SctpChunk c;
        c.type = data[pos];
        c.flags = data[pos + 1];
        c.length = static_cast<uint16_t>((data[pos + 2] << 8) | data[pos + 3]);
        if (c.length < SctpChunk::HEADER_SIZE || c.length > length - pos)
        {
            return false;
        }
        c.value = data + pos + SctpChunk::HEADER_SIZE;
        c.valueLength = static_cast<uint16_t>(c.length - SctpChunk::HEADER_SIZE);
        out.push_back(c);
        std::size_t padded = (static_cast<std::size_t>(c.length) + 3) & ~static_cast<std::size_t>(3);
        // The last chunk's padding may be missing; anything else must be whole.
        pos += std::min(padded, length - pos);
    }
    return true;
}

bool
SctpDataChunk::Deserialize(const SctpChunk& chunk)
{
    if (chunk.valueLength < HEADER_SIZE - SctpChunk::HEADER_SIZE)
    {
        return false;
    }
    SctpByteReader r(chunk.value, chunk.valueLength);
    flags = chunk.flags;
    tsn = r.ReadU32();
    streamId = r.ReadU16();
    ssn = r.ReadU16();
    ppid = r.ReadU32();
    payload = r.GetCurrent();
    payloadLength = static_cast<uint16_t>(r.GetRemaining());
    return r.IsOk();
}

bool
SctpIDataChunk::Deserialize(const SctpChunk& chunk)
{
    if (chunk.type != SctpChunk::I_DATA ||
        chunk.valueLength < HEADER_SIZE - SctpChunk::HEADER_SIZE)
    {
        return false;
    }
    SctpByteReader r(chunk.value, chunk.valueLength);
    flags = chunk.flags;
    tsn = r.ReadU32();
    streamId = r.ReadU16();
    r.ReadU16(); // reserved: ignored on receipt (RFC 8260 2.1)
    mid = r.ReadU32();
    uint32_t field = r.ReadU32();
    bool first = (flags & FLAG_B) != 0;
    ppid = first ? field : 0;
    fsn = first ? 0 : field;
    payload = r.GetCurrent();
    payloadLength = static_cast<uint16_t>(r.GetRemaining());
    return r.IsOk();
}

void
SctpIDataChunk::SerializeHeader(SctpByteWriter& w,
                                uint8_t flags,
                                uint32_t tsn,
                                uint16_t streamId,
                                uint32_t mid,
                                uint32_t ppidOrFsn,
                                uint16_t payloadLength)
{
    w.WriteU8(SctpChunk::I_DATA);
    w.WriteU8(flags);
    w.WriteU16(static_cast<uint16_t>(HEADER_SIZE + payloadLength));
    w.WriteU32(tsn);
    w.WriteU16(streamId);
    w.WriteU16(0);
    w.WriteU32(mid);
    w.WriteU32(ppidOrFsn);
}

void
SctpDataChunk::SerializeHeader(SctpByteWriter& w,
                               uint8_t flags,
                               uint32_t tsn,
                               uint16_t streamId,
                               uint16_t ssn,
                               uint32_t ppid,
                               uint16_t payloadLength)
{
    w.WriteU8(SctpChunk::DATA);
    w.WriteU8(flags);
    w.WriteU16(static_cast<uint16_t>(HEADER_SIZE + payloadLength));
    w.WriteU32(tsn);
    w.WriteU16(streamId);
    w.WriteU16(ssn);
    w.WriteU32(ppid);
}

bool
SctpInitChunk::Deserialize(const SctpChunk& chunk)
{
    type = chunk.type;
    SctpByteReader r(chunk.value, chunk.valueLength);
    initiateTag = r.ReadU32();
    aRwnd = r.ReadU32();
    outboundStreams = r.ReadU16();
    inboundStreams = r.ReadU16();
    initialTsn = r.ReadU32();
    if (!r.IsOk())
    {
        return false;
    }
    parameters.clear();
    return SctpParseTlvs(r.GetCurrent(), r.GetRemaining(), parameters);
}

void
SctpInitChunk::Serialize(SctpByteWriter& w) const
{
    std::size_t start = w.GetPosition();
    w.WriteU8(type);
    w.WriteU8(0);
    w.WriteU16(0);
    w.WriteU32(initiateTag);
    w.WriteU32(aRwnd);
    w.WriteU16(outboundStreams);
    w.WriteU16(inboundStreams);
    w.WriteU32(initialTsn);
    std::size_t end = w.GetPosition();
    for (const auto& p : parameters)
    {
        p.Serialize(w);
        end = w.GetPosition() - ((4 - p.GetLength() % 4) % 4); // last padding not counted
    }
    w.PatchU16(start + 2, static_cast<uint16_t>(end - start));
}

const SctpTlv*
SctpInitChunk::Find(uint16_t parameterType) const
{
    for (const auto& p : parameters)
    {
        if (p.type == parameterType)
        {
            return &p;
        }
    }
    return nullptr;
}

bool
SctpSackChunk::Deserialize(const SctpChunk& chunk)
{
    SctpByteReader r(chunk.value, chunk.valueLength);
    cumTsnAck = r.ReadU32();
    aRwnd = r.ReadU32();
    uint16_t nGaps = r.ReadU16();
    uint16_t nDups = r.ReadU16();
    if (!r.IsOk() || r.GetRemaining() < 4u * (static_cast<std::size_t>(nGaps) + nDups))
    {
        return false;
    }
    gapBlocks.clear();
    duplicateTsns.clear();
    for (uint16_t i = 0; i < nGaps; ++i)
    {
        uint16_t start = r.ReadU16();
        uint16_t end = r.ReadU16();
        gapBlocks.emplace_back(start, end);
    }
    for (uint16_t i = 0; i < nDups; ++i)
    {
        duplicateTsns.push_back(r.ReadU32());
    }
    return r.IsOk();
}

void
SctpSackChunk::Serialize(SctpByteWriter& w) const
{
    w.WriteU8(SctpChunk::SACK);
    w.WriteU8(0);
    w.WriteU16(static_cast<uint16_t>(GetSerializedSize()));
    w.WriteU32(cumTsnAck);
    w.WriteU32(aRwnd);
    w.WriteU16(static_cast<uint16_t>(gapBlocks.size()));
    w.WriteU16(static_cast<uint16_t>(duplicateTsns.size()));
    for (const auto& g : gapBlocks)
    {
        w.WriteU16(g.first);
        w.WriteU16(g.second);
    }
    for (uint32_t d : duplicateTsns)
    {
        w.WriteU32(d);
    }
}

bool
SctpHeartbeatChunk::Deserialize(const SctpChunk& chunk)
{
    type = chunk.type;
    std::vector<SctpTlv> tlvs;
    if (!SctpParseTlvs(chunk.value, chunk.valueLength, tlvs) || tlvs.empty() ||
        tlvs[0].type != SctpTlv::HEARTBEAT_INFO)
    {
        return false;
    }
    info = std::move(tlvs[0].value);
    return true;
}

void
SctpHeartbeatChunk::Serialize(SctpByteWriter& w) const
{
    w.WriteU8(type);
    w.WriteU8(0);
    w.WriteU16(static_cast<uint16_t>(8 + info.size()));
    SctpTlv(SctpTlv::HEARTBEAT_INFO, info).Serialize(w);
}

bool
SctpErrorChunk::Deserialize(const SctpChunk& chunk)
{
    type = chunk.type;
    flags = chunk.flags;
    causes.clear();
    return SctpParseTlvs(chunk.value, chunk.valueLength, causes);
}

void
SctpErrorChunk::Serialize(SctpByteWriter& w) const
{
    std::size_t start = w.GetPosition();
    w.WriteU8(type);
    w.WriteU8(flags);
    w.WriteU16(0);
    std::size_t end = w.GetPosition();
    for (const auto& c : causes)
    {
        c.Serialize(w);
        end = w.GetPosition() - ((4 - c.GetLength() % 4) % 4);
    }
    w.PatchU16(start + 2, static_cast<uint16_t>(end - start));
}

const SctpTlv*
SctpErrorChunk::Find(uint16_t causeCode) const
{
    for (const auto& c : causes)
    {
        if (c.type == causeCode)
        {
            return &c;
        }
    }
    return nullptr;
}

bool
SctpTsnChunk::Deserialize(const SctpChunk& chunk)
{
    type = chunk.type;
    if (chunk.valueLength != 4)
    {
        return false;
    }
    SctpByteReader r(chunk.value, chunk.valueLength);
    tsn = r.ReadU32();
    return r.IsOk();
}

void
SctpTsnChunk::Serialize(SctpByteWriter& w) const
{
    w.WriteU8(type);
    w.WriteU8(0);
    w.WriteU16(8);
    w.WriteU32(tsn);
}

bool
SctpCookieEchoChunk::Deserialize(const SctpChunk& chunk)
{
    cookie.assign(chunk.value, chunk.value + chunk.valueLength);
    return true;
}

void
SctpCookieEchoChunk::Serialize(SctpByteWriter& w) const
{
    SctpChunk::SerializeRaw(w, SctpChunk::COOKIE_ECHO, 0, cookie.data(), cookie.size());
}

bool
SctpForwardTsnChunk::Deserialize(const SctpChunk& chunk)
{
    if (chunk.valueLength < 4 || chunk.valueLength % 4 != 0)
    {
        return false;
    }
    SctpByteReader r(chunk.value, chunk.valueLength);
    newCumTsn = r.ReadU32();
    streams.clear();
    while (r.GetRemaining() >= 4)
    {
        uint16_t sid = r.ReadU16();
        uint16_t ssn = r.ReadU16();
        streams.emplace_back(sid, ssn);
    }
    return r.IsOk();
}

void
SctpForwardTsnChunk::Serialize(SctpByteWriter& w) const
{
    w.WriteU8(SctpChunk::FORWARD_TSN);
    w.WriteU8(0);
    w.WriteU16(static_cast<uint16_t>(8 + 4 * streams.size()));
    w.WriteU32(newCumTsn);
    for (const auto& s : streams)
    {
        w.WriteU16(s.first);
        w.WriteU16(s.second);
    }
}

bool
SctpIForwardTsnChunk::Deserialize(const SctpChunk& chunk)
{
    if (chunk.type != SctpChunk::I_FORWARD_TSN || chunk.valueLength < 4 ||
        (chunk.valueLength - 4) % 8 != 0)
    {
        return false;
    }
    SctpByteReader r(chunk.value, chunk.valueLength);
    newCumTsn = r.ReadU32();
    entries.clear();
    while (r.GetRemaining() >= 8)
    {
        Entry e;
        e.streamId = r.ReadU16();
        e.unordered = (r.ReadU16() & FLAG_U) != 0; // 15 reserved bits, then U
        e.mid = r.ReadU32();
        entries.push_back(e);
    }
    return r.IsOk();
}

void
SctpIForwardTsnChunk::Serialize(SctpByteWriter& w) const
{
    w.WriteU8(SctpChunk::I_FORWARD_TSN);
    w.WriteU8(0);
    w.WriteU16(static_cast<uint16_t>(8 + 8 * entries.size()));
    w.WriteU32(newCumTsn);
    for (const auto& e : entries)
    {
        w.WriteU16(e.streamId);
        w.WriteU16(e.unordered ? FLAG_U : 0);
        w.WriteU32(e.mid);
    }
}

} // namespace ns3
