#include "object-transfer-stream.h"

namespace ns3
{

void
TagObjectTransferStream(Ptr<Packet> packet, uint16_t stream)
{
    // No SCTP in this build: nothing to tag.
}

} // namespace ns3

namespace ns3
{

int32_t
ObjectTransferReceivedStream(Ptr<const Packet> packet)
{
    return -1;
}

} // namespace ns3
