#include "object-transfer-record.h"

namespace ns3
{

namespace
{

void
Put(uint8_t*& p, uint64_t value, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
    {
        *p++ = static_cast<uint8_t>(value >> (8 * i));
    }
}

uint64_t
Get(const uint8_t*& p, int bytes)
{
    uint64_t value = 0;
    for (int i = 0; i < bytes; ++i)
    {
        value = (value << 8) | *p++;
    }
    return value;
}

} // namespace

void
ObjectTransferRecord::Write(uint8_t* out) const
{
    Put(out, MAGIC, 2);
    Put(out, object, 2);
    Put(out, length, 4);
    Put(out, offset, 4);
    Put(out, static_cast<uint64_t>(sentNs), 8);
}

bool
ObjectTransferRecord::Read(const uint8_t* in)
{
    if (Get(in, 2) != MAGIC)
    {
        return false;
    }
    object = static_cast<uint16_t>(Get(in, 2));
    length = static_cast<uint32_t>(Get(in, 4));
    offset = static_cast<uint32_t>(Get(in, 4));
    sentNs = static_cast<int64_t>(Get(in, 8));
    return true;
}

} // namespace ns3
