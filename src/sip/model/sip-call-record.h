/*
 * What a user agent reports about each call through its CallEnd trace source.
 */
#ifndef SIP_CALL_RECORD_H
#define SIP_CALL_RECORD_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup sip
 * One call as seen by the caller (UAC) or the callee (UAS). Times are -1 when
 * the event did not happen. Status fields hold a final status code, or one of
 * SipTransactionRecord::Outcome (0: time-out, -2: transport error, -3:
 * abandoned), or -1 when the request was never sent / received.
 */
struct SipCallRecord
{
    bool caller{true};
    uint32_t callNumber{0};   //!< 1, 2, ... per user agent
    std::string callId;
    std::string localUser;
    std::string remoteUser;
    Time inviteSent{-1};      //!< caller: INVITE sent; callee: INVITE received
    Time trying{-1};          //!< caller: first 100 Trying received
    Time ringing{-1};         //!< caller: 180 received; callee: 180 sent
    Time answered{-1};        //!< caller: 2xx received; callee: 2xx sent
    Time ackSent{-1};         //!< caller: ACK sent; callee: ACK received
    Time byeSent{-1};         //!< caller: BYE sent; callee: BYE received
    Time byeDone{-1};         //!< caller: final response to BYE; callee: 200 sent
    Time answerDelay{-1};     //!< callee: time from 180 to 200 (the "human" answer time)
    int32_t inviteStatus{-1};
    int32_t byeStatus{-1};
    uint32_t okRetransmissions{0}; //!< callee: 2xx retransmissions (RFC 3261 13.3.1.4)
};

} // namespace ns3

#endif // SIP_CALL_RECORD_H
