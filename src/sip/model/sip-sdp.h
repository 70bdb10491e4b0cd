/*
 * Session descriptions (RFC 4566) for INVITE offers and 200 OK answers, so
 * that those messages have the size of real ones (an audio session offering
 * PCMU, PCMA and telephone events).
 */
#ifndef SIP_SDP_H
#define SIP_SDP_H

#include "ns3/ipv4-address.h"

#include <cstdint>
#include <string>

namespace ns3
{
namespace sip
{

/**
 * An SDP audio offer/answer of a typical softphone (about 250 bytes), plus
 * \p extraCandidates ICE-style candidate lines (about 75 bytes each) for
 * larger messages, as an endpoint with many addresses would send.
 */
std::string MakeAudioSdp(const std::string& user,
                         Ipv4Address address,
                         uint32_t sessionId,
                         uint16_t rtpPort,
                         uint32_t extraCandidates = 0);

} // namespace sip
} // namespace ns3

#endif // SIP_SDP_H
