/*
 * Putting a message on an SCTP stream, if this build has SCTP.
 */
#ifndef OBJECT_TRANSFER_STREAM_H
#define OBJECT_TRANSFER_STREAM_H

#include "ns3/packet.h"

namespace ns3
{

/**
 * \ingroup transfer
 * Tag \p packet so that an SCTP socket sends it on \p stream (ordered). Without the
 * SCTP module this does nothing (and SCTP sockets cannot be created anyway).
 */
void TagObjectTransferStream(Ptr<Packet> packet, uint16_t stream);

/**
 * \ingroup transfer
 * The SCTP stream \p packet (as returned by an SCTP socket's Recv) arrived on, or -1
 * if it carries no SCTP receive information (TCP, or no SCTP in this build).
 */
int32_t ObjectTransferReceivedStream(Ptr<const Packet> packet);

} // namespace ns3

#endif // OBJECT_TRANSFER_STREAM_H
