#include "sip-sdp.h"

#include <sstream>

namespace ns3
{
namespace sip
{

std::string
MakeAudioSdp(const std::string& user,
             Ipv4Address address,
             uint32_t sessionId,
             uint16_t rtpPort,
             uint32_t extraCandidates)
{
    std::ostringstream sdp;
    sdp << "v=0\r\n"
        << "o=" << user << " " << 1000000000u + sessionId << " " << 1000000000u + sessionId
        << " IN IP4 " << address << "\r\n"
        << "s=transportlab call\r\n"
        << "c=IN IP4 " << address << "\r\n"
        << "t=0 0\r\n"
        << "m=audio " << rtpPort << " RTP/AVP 0 8 101\r\n"
        << "a=rtpmap:0 PCMU/8000\r\n"
        << "a=rtpmap:8 PCMA/8000\r\n"
        << "a=rtpmap:101 telephone-event/8000\r\n"
        << "a=fmtp:101 0-15\r\n"
        << "a=ptime:20\r\n"
        << "a=sendrecv\r\n";
    for (uint32_t i = 0; i < extraCandidates; ++i)
    {
        sdp << "a=candidate:" << 1000 + i << " 1 UDP " << 2130706431u - i << " " << address << " "
            << rtpPort + 2 * (i + 1) << " typ host generation 0\r\n";
    }
    return sdp.str();
}

} // namespace sip
} // namespace ns3
