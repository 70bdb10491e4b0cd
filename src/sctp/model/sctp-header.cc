#include "sctp-header.h"

namespace ns3
{

void
SctpByteWriter::WriteBytes(const uint8_t* data, std::size_t length)
{
    if (length > 0)
    {
        m_buf.insert(m_buf.end(), data, data + length);
    }
}

} // namespace ns3
