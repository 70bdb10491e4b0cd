#include "sip-client-transaction.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipClientTransaction");

SipClientTransaction::SipClientTransaction(uint64_t id,
                                           Ptr<SipMessage> request,
                                           const SipDestination& destination,
                                           bool reliable,
                                           const SipTimerValues& timers)
    : m_request(request),
      m_destination(destination),
      m_reliable(reliable),
      m_invite(request->GetMethod() == "INVITE"),
      m_timers(timers),
      m_state(m_invite ? CALLING : TRYING)
{
    m_record.id = id;
    m_record.client = true;
    m_record.method = request->GetMethod();
    m_record.callId = request->GetCallId();
    m_record.reliable = reliable;
}

SipClientTransaction::~SipClientTransaction() = default;

void
SipClientTransaction::SetSendCallback(SendCallback send)
{
    m_send = send;
}

void
SipClientTransaction::SetResponseCallback(ResponseCallback callback)
{
    m_response = callback;
}

void
SipClientTransaction::SetOutcomeCallback(NotifyCallback callback)
{
    m_outcome = callback;
}

void
SipClientTransaction::SetTerminatedCallback(NotifyCallback callback)
{
    m_terminated = callback;
}

uint64_t
SipClientTransaction::GetId() const
{
    return m_record.id;
}

Ptr<SipMessage>
SipClientTransaction::GetRequest() const
{
    return m_request;
}

const SipDestination&
SipClientTransaction::GetDestination() const
{
    return m_destination;
}

SipClientTransaction::State
SipClientTransaction::GetState() const
{
    return m_state;
}

bool
SipClientTransaction::IsInvite() const
{
    return m_invite;
}

std::string
SipClientTransaction::GetBranch() const
{
    return m_request->GetTopViaBranch();
}

const SipTransactionRecord&
SipClientTransaction::GetRecord() const
{
    return m_record;
}

void
SipClientTransaction::Start()
{
    m_record.start = Simulator::Now();
    Ptr<SipClientTransaction> self(this);
    SendRequest();
    if (m_state == TERMINATED)
    {
        return; // the transport failed synchronously
    }
    m_retransmitInterval = m_timers.t1;
    if (!m_reliable)
    {
        m_retransmitTimer = Simulator::Schedule(m_retransmitInterval,
                                                m_invite ? &SipClientTransaction::OnTimerA
                                                         : &SipClientTransaction::OnTimerE,
                                                self);
    }
    m_timeoutTimer = Simulator::Schedule(m_timers.TransactionTimeout(),
                                         m_invite ? &SipClientTransaction::OnTimerB
                                                  : &SipClientTransaction::OnTimerF,
                                         self);
}

void
SipClientTransaction::SendRequest()
{
    if (!m_send.IsNull() && !m_send(m_request, m_destination))
    {
        TransportError();
    }
}

void
SipClientTransaction::OnTimerA()
{
    if (m_state != CALLING)
    {
        return;
    }
    ++m_record.retransmissions;
    NS_LOG_LOGIC("Timer A: retransmitting " << m_record.method << " after "
                                            << m_retransmitInterval.As(Time::MS));
    SendRequest();
    m_retransmitInterval = m_retransmitInterval * 2;
    m_retransmitTimer = Simulator::Schedule(m_retransmitInterval,
                                            &SipClientTransaction::OnTimerA,
                                            Ptr<SipClientTransaction>(this));
}

void
SipClientTransaction::OnTimerB()
{
    if (m_state != CALLING)
    {
        return;
    }
    NS_LOG_INFO("Timer B: INVITE transaction " << m_record.id << " timed out");
    Finish(SipTransactionRecord::TIMEOUT);
    Ptr<SipClientTransaction> self(this);
    if (!m_response.IsNull())
    {
        m_response(self, Ptr<SipMessage>());
    }
    Terminate();
}

void
SipClientTransaction::OnTimerE()
{
    if (m_state != TRYING && m_state != PROCEEDING)
    {
        return;
    }
    ++m_record.retransmissions;
    SendRequest();
    m_retransmitInterval =
        (m_state == TRYING) ? std::min(m_retransmitInterval * 2, m_timers.t2) : m_timers.t2;
    m_retransmitTimer = Simulator::Schedule(m_retransmitInterval,
                                            &SipClientTransaction::OnTimerE,
                                            Ptr<SipClientTransaction>(this));
}

void
SipClientTransaction::OnTimerF()
{
    if (m_state != TRYING && m_state != PROCEEDING)
    {
        return;
    }
    NS_LOG_INFO("Timer F: " << m_record.method << " transaction " << m_record.id
                            << " timed out");
    Finish(SipTransactionRecord::TIMEOUT);
    Ptr<SipClientTransaction> self(this);
    if (!m_response.IsNull())
    {
        m_response(self, Ptr<SipMessage>());
    }
    Terminate();
}

void
SipClientTransaction::OnTimerD()
{
    Terminate();
}

void
SipClientTransaction::OnTimerK()
{
    Terminate();
}

void
SipClientTransaction::ReceiveResponse(Ptr<SipMessage> response)
{
    const uint16_t code = response->GetStatusCode();
    Ptr<SipClientTransaction> self(this);
    if (m_state == COMPLETED)
    {
        if (m_invite && code >= 300 && m_ack)
        {
            // A retransmitted final response: our ACK was lost (17.1.1.2).
            m_send(m_ack, m_destination);
        }
        return;
    }
    if (m_state == TERMINATED)
    {
        return;
    }
    if (code < 200)
    {
        if (m_record.firstProvisional.IsNegative())
        {
            m_record.firstProvisional = Simulator::Now();
        }
        if (m_state == CALLING || m_state == TRYING)
        {
            m_state = PROCEEDING;
            if (m_invite)
            {
                m_retransmitTimer.Cancel(); // no more INVITE retransmissions in Proceeding
            }
        }
        if (!m_response.IsNull())
        {
            m_response(self, response);
        }
        return;
    }
    // Final response.
    Finish(code);
    if (m_invite && code < 300)
    {
        // 2xx: the TU acknowledges it end to end; the transaction ends (17.1.1.2).
        if (!m_response.IsNull())
        {
            m_response(self, response);
        }
        Terminate();
        return;
    }
    m_state = COMPLETED;
    CancelTimers();
    if (m_invite)
    {
        SendAck(response);
    }
    if (!m_response.IsNull())
    {
        m_response(self, response);
    }
    if (m_state != COMPLETED)
    {
        return; // the TU abandoned us
    }
    const Time wait = m_reliable ? Time(0) : (m_invite ? m_timers.timerD : m_timers.t4);
    m_waitTimer = Simulator::Schedule(wait,
                                      m_invite ? &SipClientTransaction::OnTimerD
                                               : &SipClientTransaction::OnTimerK,
                                      self);
}

void
SipClientTransaction::SendAck(Ptr<SipMessage> response)
{
    // RFC 3261 17.1.1.3: same Request-URI, Call-ID, From, CSeq number and the
    // top Via of the request; To from the response; the request's Route set.
    m_ack = SipMessage::CreateRequest("ACK", m_request->GetRequestUri());
    m_ack->AddHeader("Via", m_request->GetHeader("Via"));
    for (const auto& route : m_request->GetHeaders("Route"))
    {
        m_ack->AddHeader("Route", route);
    }
    m_ack->AddHeader("Max-Forwards", "70");
    m_ack->AddHeader("From", m_request->GetHeader("From"));
    m_ack->AddHeader("To", response->GetHeader("To"));
    m_ack->AddHeader("Call-ID", m_request->GetCallId());
    sip::SipCSeq cseq;
    m_request->GetCSeq(cseq);
    m_ack->AddHeader("CSeq", std::to_string(cseq.number) + " ACK");
    m_send(m_ack, m_destination);
}

void
SipClientTransaction::TransportError()
{
    if (m_state == TERMINATED || m_state == COMPLETED)
    {
        return;
    }
    Finish(SipTransactionRecord::TRANSPORT_ERROR);
    Ptr<SipClientTransaction> self(this);
    if (!m_response.IsNull())
    {
        m_response(self, Ptr<SipMessage>());
    }
    Terminate();
}

void
SipClientTransaction::Abandon()
{
    if (m_state == TERMINATED)
    {
        return;
    }
    // Silently: the stack is shutting down and nobody listens any more.
    m_outcome = MakeNullCallback<void, Ptr<SipClientTransaction>>();
    m_response = MakeNullCallback<void, Ptr<SipClientTransaction>, Ptr<SipMessage>>();
    if (m_record.end.IsNegative())
    {
        Finish(SipTransactionRecord::ABANDONED);
    }
    Terminate();
}

void
SipClientTransaction::Finish(int32_t status)
{
    if (!m_record.end.IsNegative())
    {
        return;
    }
    m_record.end = Simulator::Now();
    m_record.status = status;
    if (!m_outcome.IsNull())
    {
        m_outcome(Ptr<SipClientTransaction>(this));
    }
}

void
SipClientTransaction::CancelTimers()
{
    m_retransmitTimer.Cancel();
    m_timeoutTimer.Cancel();
    m_waitTimer.Cancel();
}

void
SipClientTransaction::Terminate()
{
    if (m_state == TERMINATED)
    {
        return;
    }
    m_state = TERMINATED;
    CancelTimers();
    NotifyCallback terminated = m_terminated;
    m_terminated = MakeNullCallback<void, Ptr<SipClientTransaction>>();
    if (!terminated.IsNull())
    {
        terminated(Ptr<SipClientTransaction>(this));
    }
}

} // namespace ns3
