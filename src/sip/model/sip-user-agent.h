/*
 * A SIP user agent (RFC 3261 sections 8, 10, 12-15): registers with its
 * registrar, places calls through an outbound proxy (INVITE, ACK, BYE) and
 * answers calls (180 Ringing, then 200 OK after an answer delay).
 */
#ifndef SIP_USER_AGENT_H
#define SIP_USER_AGENT_H

#include "sip-call-record.h"
#include "sip-stack.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup sip
 * \brief User agent client and server of one user (address of record
 * sip:User\@Domain).
 *
 * Caller behaviour, when CallTo is set: CallStartDelay after the application
 * starts, send INVITE to sip:CallTo\@Domain through the outbound proxy;
 * acknowledge the 2xx (ACK through the route set recorded by the proxy); hang
 * up with BYE after CallDuration; wait CallInterval and call again, until
 * MaxCalls calls were made (0: no limit). A call whose INVITE fails (error
 * response, Timer B time-out, transport error) is followed by the next one
 * after CallInterval.
 *
 * Callee behaviour: an INVITE is answered at once with 180 Ringing and, after
 * AnswerDelay (the seed's manual answering), with AnswerCode (200: accept,
 * with an SDP answer). A 2xx is retransmitted (T1 doubling up to T2) until the
 * ACK arrives, for at most 64*T1, on every transport (RFC 3261 13.3.1.4).
 *
 * With Register, a REGISTER is sent when the application starts and, with
 * ReRegisterInterval, refreshed that long after each successful registration
 * (so that later registrations find the connection or association up).
 *
 * Several user agents may share one SipStack (one host, one port).
 */
class SipUserAgent : public Application
{
  public:
    /** Signature of the CallEnd trace source. */
    typedef void (*CallTracedCallback)(const SipCallRecord& record);
    /** Signature of the Registered trace source (status: final code or outcome). */
    typedef void (*RegisteredTracedCallback)(int32_t status, Time duration);

    static TypeId GetTypeId();
    SipUserAgent();
    ~SipUserAgent() override;

    /** The stack (node, port, transport) this user agent uses. */
    void SetStack(Ptr<SipStack> stack);
    Ptr<SipStack> GetStack() const;

    /** Address of record: sip:User@Domain. */
    std::string GetAddressOfRecord() const;
    /** Calls started so far (as caller). */
    uint32_t GetCallsStarted() const;
    /** Calls that reached the end (BYE answered), as caller. */
    uint32_t GetCallsCompleted() const;
    /** Whether the last REGISTER succeeded. */
    bool IsRegistered() const;

    /**
     * Assign fixed random variable stream numbers to the random variables
     * used by this model; returns the number of streams assigned.
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    /** One dialog (call) of this user agent. */
    struct Call
    {
        SipCallRecord record;
        std::string localTag;
        std::string remoteTag;
        std::string localUri;    //!< our AoR
        std::string remoteUri;   //!< the peer's AoR
        std::string remoteTarget; //!< the peer's Contact URI
        std::vector<std::string> routeSet;
        uint32_t localCSeq{0};
        Ptr<SipMessage> invite;  //!< callee: the INVITE received
        Ptr<SipMessage> ok;      //!< callee: the 2xx sent
        Ptr<SipServerTransaction> inviteTransaction;
        Ptr<SipMessage> ack;     //!< caller: the ACK sent (for 2xx retransmissions)
        SipDestination ackDestination;
        Time okInterval;
        EventId okTimer;         //!< callee: 2xx retransmission (13.3.1.4)
        EventId okGiveUp;        //!< callee: 64*T1 without ACK
        EventId answerTimer;
        EventId byeTimer;
        EventId setupTimer;      //!< caller: give up waiting for a final response
        bool acked{false};
    };

    void StartApplication() override;
    void StopApplication() override;

    void SendRegister();
    void HandleRegisterResponse(Ptr<SipClientTransaction> transaction, Ptr<SipMessage> response);
    void MakeCall();
    void HandleInviteResponse(Ptr<SipClientTransaction> transaction, Ptr<SipMessage> response);
    void SendAck(Call& call);
    void SendBye(std::string callId);
    void HandleByeResponse(Ptr<SipClientTransaction> transaction, Ptr<SipMessage> response);
    /**
     * End call \p callId: cancel its timers, erase it, release its SCTP stream key,
     * fire CallEnd and (as caller) schedule the next call.
     * \param callId taken by value: callers may pass the erased call's own Call-ID
     *        (HandleBye passes call.record.callId), which a reference would leave dangling
     */
    void FinishCall(std::string callId);
    void SetupTimedOut(std::string callId);
    void ScheduleNextCall();

    void HandleRequest(Ptr<SipServerTransaction> transaction,
                       Ptr<SipMessage> request,
                       const SipSource& source);
    void HandleStrayResponse(Ptr<SipMessage> response, const SipSource& source);
    void HandleInvite(Ptr<SipServerTransaction> transaction, Ptr<SipMessage> request);
    void Answer(std::string callId);
    void RetransmitOk(std::string callId);
    void OkGiveUp(std::string callId);
    void HandleAck(Ptr<SipMessage> request);
    void HandleBye(Ptr<SipServerTransaction> transaction, Ptr<SipMessage> request);

    /** Next hop of an in-dialog request: first route, else the remote target. */
    bool NextHop(const Call& call, SipDestination& destination) const;
    /** A request inside \p call with the common header fields. */
    Ptr<SipMessage> MakeInDialogRequest(const Call& call, const std::string& method, uint32_t cseq);
    SipDestination ProxyDestination() const;
    std::string UserAgentHeader() const;

    Ptr<SipStack> m_stack;
    std::string m_user;
    std::string m_domain;
    Ipv4Address m_proxyAddress;
    uint16_t m_proxyPort;
    bool m_register;
    uint32_t m_registerExpires;
    Time m_reRegister;
    std::string m_callTo;
    Time m_callStartDelay;
    Ptr<RandomVariableStream> m_callDuration;
    Ptr<RandomVariableStream> m_callInterval;
    Ptr<RandomVariableStream> m_answerDelay;
    uint32_t m_maxCalls;
    uint16_t m_answerCode;
    uint32_t m_sdpCandidates;
    Time m_setupTimeout;

    bool m_running;
    bool m_registered;
    uint32_t m_registerCSeq;
    std::string m_registerCallId;
    uint32_t m_callsStarted;
    uint32_t m_callsCompleted;
    uint32_t m_callsReceived;
    EventId m_nextCall;
    std::map<std::string, Call> m_calls;        //!< by Call-ID (as caller and callee)
    std::map<uint64_t, std::string> m_callOfTransaction;

    TracedCallback<const SipCallRecord&> m_callEndTrace;
    TracedCallback<int32_t, Time> m_registeredTrace;
};

} // namespace ns3

#endif // SIP_USER_AGENT_H
