/*
 * The timer constants of RFC 3261 section 17.1.1.1 and Table 4.
 */
#ifndef SIP_TIMER_VALUES_H
#define SIP_TIMER_VALUES_H

#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup sip
 * T1 (RTT estimate, 500 ms), T2 (maximum retransmit interval for non-INVITE
 * requests and INVITE responses, 4 s), T4 (maximum time a message stays in the
 * network, 5 s) and Timer D (wait for response retransmissions after a non-2xx
 * final response to INVITE, at least 32 s over UDP).
 */
struct SipTimerValues
{
    Time t1{MilliSeconds(500)};
    Time t2{Seconds(4)};
    Time t4{Seconds(5)};
    Time timerD{Seconds(32)};

    /** Timer B, F and H: 64*T1. */
    Time TransactionTimeout() const
    {
        return t1 * 64;
    }
};

} // namespace ns3

#endif // SIP_TIMER_VALUES_H
