/*
 * Server transactions of RFC 3261 section 17.2: the INVITE server transaction
 * (17.2.1, timers G, H, I, and the automatic 100 Trying) and the non-INVITE
 * server transaction (17.2.2, timer J).
 */
#ifndef SIP_SERVER_TRANSACTION_H
#define SIP_SERVER_TRANSACTION_H

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
 * \brief One server transaction.
 *
 * It absorbs request retransmissions by resending its last response, and
 * over unreliable transports retransmits a non-2xx final response to INVITE
 * (Timer G) until the ACK arrives or Timer H (64*T1) fires. A 2xx to INVITE
 * ends the transaction at once: its retransmission is the UAS core's job
 * (RFC 3261 13.3.1.4). If the TU has not answered an INVITE within 200 ms the
 * transaction sends 100 Trying itself (17.2.1).
 */
class SipServerTransaction : public SimpleRefCount<SipServerTransaction>
{
  public:
    enum State
    {
        TRYING,     //!< non-INVITE received, no response yet
        PROCEEDING, //!< INVITE received, or provisional response sent
        COMPLETED,  //!< final response sent
        CONFIRMED,  //!< ACK received for a non-2xx final response to INVITE
        TERMINATED,
    };

    typedef Callback<bool, Ptr<const SipMessage>, const SipDestination&> SendCallback;
    typedef Callback<void, Ptr<SipServerTransaction>> NotifyCallback;

    SipServerTransaction(uint64_t id,
                         Ptr<SipMessage> request,
                         const SipSource& source,
                         bool reliable,
                         const SipTimerValues& timers);
    ~SipServerTransaction();

    void SetSendCallback(SendCallback send);
    /** Called once when the outcome is known (final response sent, or Timer H). */
    void SetOutcomeCallback(NotifyCallback callback);
    void SetTerminatedCallback(NotifyCallback callback);

    /** Enter the initial state (and arm the 100 Trying timer for INVITE). */
    void Start();
    /** The TU sends a response through the transaction. */
    void SendResponse(Ptr<SipMessage> response);
    /** A retransmission of the request, or an ACK, matched this transaction. */
    void ReceiveRequest(Ptr<SipMessage> request);
    void Abandon();

    uint64_t GetId() const;
    Ptr<SipMessage> GetRequest() const;
    const SipSource& GetSource() const;
    State GetState() const;
    bool IsInvite() const;
    /** The last response sent, or nullptr. */
    Ptr<SipMessage> GetLastResponse() const;
    /** Whether a final response has been sent. */
    bool HasFinalResponse() const;
    /** Where responses go (RFC 3261 18.2.2). */
    SipDestination GetResponseDestination() const;
    const SipTransactionRecord& GetRecord() const;

  private:
    void Transmit(Ptr<SipMessage> response);
    void OnTrying();
    void OnTimerG();
    void OnTimerH();
    void OnTimerI();
    void OnTimerJ();
    void Finish(int32_t status);
    void Terminate();

    Ptr<SipMessage> m_request;
    Ptr<SipMessage> m_lastResponse;
    SipSource m_source;
    bool m_reliable;
    bool m_invite;
    SipTimerValues m_timers;
    State m_state;
    Time m_retransmitInterval;
    EventId m_tryingTimer;
    EventId m_retransmitTimer; //!< G
    EventId m_timeoutTimer;    //!< H
    EventId m_waitTimer;       //!< I or J
    SipTransactionRecord m_record;
    SendCallback m_send;
    NotifyCallback m_outcome;
    NotifyCallback m_terminated;
};

} // namespace ns3

#endif // SIP_SERVER_TRANSACTION_H
