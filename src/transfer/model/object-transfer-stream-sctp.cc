#include "object-transfer-stream.h"

#include "ns3/sctp-message-tag.h"

namespace ns3
{

void
TagObjectTransferStream(Ptr<Packet> packet, uint16_t stream)
{
    SctpSendInfoTag tag(stream, 0, false);
    packet->ReplacePacketTag(tag);
}

} // namespace ns3

namespace ns3
{

int32_t
ObjectTransferReceivedStream(Ptr<const Packet> packet)
{
    SctpReceiveInfoTag tag;
    return packet->PeekPacketTag(tag) ? static_cast<int32_t>(tag.streamId) : -1;
}

} // namespace ns3
