/*
 * What a finished (or started) SIP transaction reports through the
 * TransactionStart / TransactionEnd trace sources of SipStack.
 */
#ifndef SIP_TRANSACTION_RECORD_H
#define SIP_TRANSACTION_RECORD_H

#include "ns3/nstime.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup sip
 * One SIP transaction, as seen by the element that ran it.
 */
struct SipTransactionRecord
{
    /** Outcome codes besides a final status code (100-699). */
    enum Outcome : int32_t
    {
        PENDING = -1,         //!< no final response yet (start record)
        TIMEOUT = 0,          //!< Timer B / F fired (client), Timer H (server, no ACK)
        TRANSPORT_ERROR = -2, //!< the transport reported a failure (RFC 3261 17.1.4)
        ABANDONED = -3,       //!< the stack stopped while the transaction was running
    };

    uint64_t id{0};
    bool client{true};         //!< client (UAC / proxy forwarding) or server transaction
    std::string method;        //!< INVITE, REGISTER, BYE, ...
    std::string callId;
    Time start;                //!< request first sent (client) or received (server)
    Time firstProvisional{-1}; //!< first 1xx received (client) or sent (server); -1 if none
    Time end{-1};              //!< final response received / sent, or time-out; -1 if pending
    int32_t status{PENDING};   //!< final status code, or an Outcome
    uint32_t retransmissions{0}; //!< request retransmissions sent (client) or received (server)
    bool reliable{false};      //!< ran over a reliable transport (no retransmission timers)
};

} // namespace ns3

#endif // SIP_TRANSACTION_RECORD_H
