/*
 * Client transactions of RFC 3261 section 17.1: the INVITE client transaction
 * (17.1.1, timers A, B, D) and the non-INVITE client transaction (17.1.2,
 * timers E, F, K).
 */
#ifndef SIP_CLIENT_TRANSACTION_H
#define SIP_CLIENT_TRANSACTION_H

#include "sip-message.h"
#include "sip-timer-values.h"
#include "sip-transaction-record.h"
#include "sip-transport.h"

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/simple-ref-count.h"

namespace ns3
{

/**
 * \ingroup sip
 * \brief One client transaction.
 *
 * Over an unreliable transport the request is retransmitted by Timer A
 * (INVITE: T1, doubling) or Timer E (non-INVITE: T1, doubling up to T2, T2
 * once a provisional response arrived). Over a reliable transport it is sent
 * once. Timer B (INVITE, while Calling) and Timer F (non-INVITE) end the
 * transaction with a time-out after 64*T1 on every transport. A non-2xx
 * final response to INVITE is acknowledged by the transaction (ACK built as in
 * 17.1.1.3); Timers D and K absorb response retransmissions (zero on reliable
 * transports).
 */
class SipClientTransaction : public SimpleRefCount<SipClientTransaction>
{
  public:
    enum State
    {
        CALLING,    //!< INVITE sent, no response yet
        TRYING,     //!< non-INVITE sent, no response yet
        PROCEEDING, //!< provisional response received
        COMPLETED,  //!< final response received, absorbing retransmissions
        TERMINATED,
    };

    /**
     * TU notification: a response (provisional or final), or nullptr when the
     * transaction timed out or the transport failed (see GetRecord().status).
     */
    typedef Callback<void, Ptr<SipClientTransaction>, Ptr<SipMessage>> ResponseCallback;
    /** Hands a message to the transport. */
    typedef Callback<bool, Ptr<const SipMessage>, const SipDestination&> SendCallback;
    /** Told when the transaction reaches a final outcome or terminates. */
    typedef Callback<void, Ptr<SipClientTransaction>> NotifyCallback;

    SipClientTransaction(uint64_t id,
                         Ptr<SipMessage> request,
                         const SipDestination& destination,
                         bool reliable,
                         const SipTimerValues& timers);
    ~SipClientTransaction();

    void SetSendCallback(SendCallback send);
    void SetResponseCallback(ResponseCallback callback);
    /** Called once when the outcome is known (final response, time-out, error). */
    void SetOutcomeCallback(NotifyCallback callback);
    /** Called once when the transaction terminates (the owner forgets it). */
    void SetTerminatedCallback(NotifyCallback callback);

    /** Send the request and start the timers. */
    void Start();
    /** A response matching this transaction arrived. */
    void ReceiveResponse(Ptr<SipMessage> response);
    /** The transport could not deliver to our destination. */
    void TransportError();
    /** Stop all timers and terminate silently (stack shutting down). */
    void Abandon();

    uint64_t GetId() const;
    Ptr<SipMessage> GetRequest() const;
    const SipDestination& GetDestination() const;
    State GetState() const;
    bool IsInvite() const;
    std::string GetBranch() const;
    const SipTransactionRecord& GetRecord() const;

  private:
    void SendRequest();
    void SendAck(Ptr<SipMessage> response);
    void OnTimerA();
    void OnTimerB();
    void OnTimerD();
    void OnTimerE();
    void OnTimerF();
    void OnTimerK();
    void Finish(int32_t status);
    void Terminate();
    void CancelTimers();

    Ptr<SipMessage> m_request;
    Ptr<SipMessage> m_ack;
    SipDestination m_destination;
    bool m_reliable;
    bool m_invite;
    SipTimerValues m_timers;
    State m_state;
    Time m_retransmitInterval;
    EventId m_retransmitTimer; //!< A or E
    EventId m_timeoutTimer;    //!< B or F
    EventId m_waitTimer;       //!< D or K
    SipTransactionRecord m_record;
    SendCallback m_send;
    ResponseCallback m_response;
    NotifyCallback m_outcome;
    NotifyCallback m_terminated;
};

} // namespace ns3

#endif // SIP_CLIENT_TRANSACTION_H
