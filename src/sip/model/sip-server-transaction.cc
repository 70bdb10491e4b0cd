#include "sip-server-transaction.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipServerTransaction");

SipServerTransaction::SipServerTransaction(uint64_t id,
                                           Ptr<SipMessage> request,
                                           const SipSource& source,
                                           bool reliable,
                                           const SipTimerValues& timers)
    : m_request(request),
      m_source(source),
      m_reliable(reliable),
      m_invite(request->GetMethod() == "INVITE"),
      m_timers(timers),
      m_state(m_invite ? PROCEEDING : TRYING)
{
    m_record.id = id;
    m_record.client = false;
    m_record.method = request->GetMethod();
    m_record.callId = request->GetCallId();
    m_record.reliable = reliable;
}

SipServerTransaction::~SipServerTransaction() = default;

void
SipServerTransaction::SetSendCallback(SendCallback send)
{
    m_send = send;
}

void
SipServerTransaction::SetOutcomeCallback(NotifyCallback callback)
{
    m_outcome = callback;
}

void
SipServerTransaction::SetTerminatedCallback(NotifyCallback callback)
{
    m_terminated = callback;
}

uint64_t
SipServerTransaction::GetId() const
{
    return m_record.id;
}

Ptr<SipMessage>
SipServerTransaction::GetRequest() const
{
    return m_request;
}

const SipSource&
SipServerTransaction::GetSource() const
{
    return m_source;
}

SipServerTransaction::State
SipServerTransaction::GetState() const
{
    return m_state;
}

bool
SipServerTransaction::IsInvite() const
{
    return m_invite;
}

Ptr<SipMessage>
SipServerTransaction::GetLastResponse() const
{
    return m_lastResponse;
}

bool
SipServerTransaction::HasFinalResponse() const
{
    return m_lastResponse && m_lastResponse->GetStatusCode() >= 200;
}

const SipTransactionRecord&
SipServerTransaction::GetRecord() const
{
    return m_record;
}

SipDestination
SipServerTransaction::GetResponseDestination() const
{
    // RFC 3261 18.2.2: back over the request's connection if reliable; else to
    // the address in "received" (the source address) and the sent-by port.
    SipDestination destination;
    sip::SipVia via;
    m_request->GetTopVia(via);
    destination.address = m_source.address;
    destination.port = via.GetPortOrDefault();
    destination.connection = m_source.connection;
    destination.streamKey = m_request->GetCallId();
    return destination;
}

void
SipServerTransaction::Start()
{
    m_record.start = Simulator::Now();
    if (m_invite)
    {
        m_tryingTimer = Simulator::Schedule(MilliSeconds(200),
                                            &SipServerTransaction::OnTrying,
                                            Ptr<SipServerTransaction>(this));
    }
}

void
SipServerTransaction::OnTrying()
{
    if (m_state == PROCEEDING && !m_lastResponse)
    {
        SendResponse(SipMessage::CreateResponseTo(m_request, 100));
    }
}

void
SipServerTransaction::Transmit(Ptr<SipMessage> response)
{
    if (!m_send.IsNull())
    {
        m_send(response, GetResponseDestination());
    }
}

void
SipServerTransaction::SendResponse(Ptr<SipMessage> response)
{
    if (m_state == COMPLETED || m_state == CONFIRMED || m_state == TERMINATED)
    {
        return; // a final response has been sent already
    }
    const uint16_t code = response->GetStatusCode();
    m_lastResponse = response;
    m_tryingTimer.Cancel();
    if (code < 200)
    {
        if (m_record.firstProvisional.IsNegative())
        {
            m_record.firstProvisional = Simulator::Now();
        }
        m_state = PROCEEDING;
        Transmit(response);
        return;
    }
    Transmit(response);
    Finish(code);
    Ptr<SipServerTransaction> self(this);
    if (m_invite && code < 300)
    {
        Terminate(); // 2xx: the UAS core retransmits it (13.3.1.4)
        return;
    }
    m_state = COMPLETED;
    if (m_invite)
    {
        if (!m_reliable)
        {
            m_retransmitInterval = m_timers.t1;
            m_retransmitTimer =
                Simulator::Schedule(m_retransmitInterval, &SipServerTransaction::OnTimerG, self);
        }
        m_timeoutTimer = Simulator::Schedule(m_timers.TransactionTimeout(),
                                             &SipServerTransaction::OnTimerH,
                                             self);
    }
    else
    {
        const Time wait = m_reliable ? Time(0) : m_timers.TransactionTimeout();
        m_waitTimer = Simulator::Schedule(wait, &SipServerTransaction::OnTimerJ, self);
    }
}

void
SipServerTransaction::ReceiveRequest(Ptr<SipMessage> request)
{
    if (request->GetMethod() == "ACK")
    {
        if (m_invite && m_state == COMPLETED)
        {
            m_state = CONFIRMED;
            m_retransmitTimer.Cancel();
            m_timeoutTimer.Cancel();
            const Time wait = m_reliable ? Time(0) : m_timers.t4;
            m_waitTimer = Simulator::Schedule(wait,
                                              &SipServerTransaction::OnTimerI,
                                              Ptr<SipServerTransaction>(this));
        }
        return;
    }
    // A retransmission of the request: resend the last response, if any.
    ++m_record.retransmissions;
    if ((m_state == PROCEEDING || m_state == COMPLETED) && m_lastResponse)
    {
        Transmit(m_lastResponse);
    }
}

void
SipServerTransaction::OnTimerG()
{
    if (m_state != COMPLETED)
    {
        return;
    }
    Transmit(m_lastResponse);
    m_retransmitInterval = std::min(m_retransmitInterval * 2, m_timers.t2);
    m_retransmitTimer = Simulator::Schedule(m_retransmitInterval,
                                            &SipServerTransaction::OnTimerG,
                                            Ptr<SipServerTransaction>(this));
}

void
SipServerTransaction::OnTimerH()
{
    if (m_state == COMPLETED)
    {
        NS_LOG_INFO("Timer H: no ACK for the final response of transaction " << m_record.id);
        Terminate();
    }
}

void
SipServerTransaction::OnTimerI()
{
    Terminate();
}

void
SipServerTransaction::OnTimerJ()
{
    Terminate();
}

void
SipServerTransaction::Abandon()
{
    // Silently: the stack is shutting down and nobody listens any more.
    m_outcome = MakeNullCallback<void, Ptr<SipServerTransaction>>();
    if (m_record.end.IsNegative())
    {
        Finish(SipTransactionRecord::ABANDONED);
    }
    Terminate();
}

void
SipServerTransaction::Finish(int32_t status)
{
    if (!m_record.end.IsNegative())
    {
        return;
    }
    m_record.end = Simulator::Now();
    m_record.status = status;
    if (!m_outcome.IsNull())
    {
        m_outcome(Ptr<SipServerTransaction>(this));
    }
}

void
SipServerTransaction::Terminate()
{
    if (m_state == TERMINATED)
    {
        return;
    }
    m_state = TERMINATED;
    m_tryingTimer.Cancel();
    m_retransmitTimer.Cancel();
    m_timeoutTimer.Cancel();
    m_waitTimer.Cancel();
    NotifyCallback terminated = m_terminated;
    m_terminated = MakeNullCallback<void, Ptr<SipServerTransaction>>();
    if (!terminated.IsNull())
    {
        terminated(Ptr<SipServerTransaction>(this));
    }
}

} // namespace ns3
