#include "sip-user-agent.h"

#include "sip-sdp.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipUserAgent");

NS_OBJECT_ENSURE_REGISTERED(SipUserAgent);

TypeId
SipUserAgent::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SipUserAgent")
            .SetParent<Application>()
            .SetGroupName("Sip")
            .AddConstructor<SipUserAgent>()
            .AddAttribute("User",
                          "User part of the address of record.",
                          StringValue("alice"),
                          MakeStringAccessor(&SipUserAgent::m_user),
                          MakeStringChecker())
            .AddAttribute("Domain",
                          "Domain of the address of record (the proxy's domain).",
                          StringValue("transportlab.test"),
                          MakeStringAccessor(&SipUserAgent::m_domain),
                          MakeStringChecker())
            .AddAttribute("ProxyAddress",
                          "Address of the outbound proxy and registrar.",
                          Ipv4AddressValue(Ipv4Address("10.0.0.1")),
                          MakeIpv4AddressAccessor(&SipUserAgent::m_proxyAddress),
                          MakeIpv4AddressChecker())
            .AddAttribute("ProxyPort",
                          "Port of the outbound proxy and registrar.",
                          UintegerValue(5060),
                          MakeUintegerAccessor(&SipUserAgent::m_proxyPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Register",
                          "Send a REGISTER when the application starts.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SipUserAgent::m_register),
                          MakeBooleanChecker())
            .AddAttribute("RegisterExpires",
                          "Requested registration lifetime in seconds.",
                          UintegerValue(3600),
                          MakeUintegerAccessor(&SipUserAgent::m_registerExpires),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReRegisterInterval",
                          "Refresh the registration this long after each success (0: never).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SipUserAgent::m_reRegister),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CallTo",
                          "User to call (empty: never call).",
                          StringValue(""),
                          MakeStringAccessor(&SipUserAgent::m_callTo),
                          MakeStringChecker())
            .AddAttribute("CallStartDelay",
                          "Time from the application start to the first INVITE.",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&SipUserAgent::m_callStartDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("CallDuration",
                          "Seconds from the 2xx to the BYE (talk time).",
                          StringValue("ns3::ConstantRandomVariable[Constant=1.0]"),
                          MakePointerAccessor(&SipUserAgent::m_callDuration),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("CallInterval",
                          "Seconds from the end of a call (or its failure) to the next INVITE.",
                          StringValue("ns3::ConstantRandomVariable[Constant=1.0]"),
                          MakePointerAccessor(&SipUserAgent::m_callInterval),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("AnswerDelay",
                          "Seconds from sending 180 Ringing to sending the final response "
                          "(the time a person takes to answer).",
                          StringValue("ns3::ConstantRandomVariable[Constant=0.0]"),
                          MakePointerAccessor(&SipUserAgent::m_answerDelay),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("MaxCalls",
                          "Number of calls to make (0: no limit).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SipUserAgent::m_maxCalls),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("AnswerCode",
                          "Final response to incoming INVITEs: 200 accepts, 300-699 rejects.",
                          UintegerValue(200),
                          MakeUintegerAccessor(&SipUserAgent::m_answerCode),
                          MakeUintegerChecker<uint16_t>(200, 699))
            .AddAttribute("SdpCandidates",
                          "Extra candidate lines in the SDP offers and answers (about 75 bytes "
                          "each), for messages larger than the path MTU.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SipUserAgent::m_sdpCandidates),
                          MakeUintegerChecker<uint32_t>(0, 500))
            .AddAttribute("SetupTimeout",
                          "Give up a call without final response this long after the INVITE "
                          "(0: wait for ever, as the transaction does after a 1xx).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SipUserAgent::m_setupTimeout),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("CallEnd",
                            "A call ended (completed or failed), as caller or callee.",
                            MakeTraceSourceAccessor(&SipUserAgent::m_callEndTrace),
                            "ns3::SipUserAgent::CallTracedCallback")
            .AddTraceSource("Registered",
                            "A REGISTER transaction ended (status, duration).",
                            MakeTraceSourceAccessor(&SipUserAgent::m_registeredTrace),
                            "ns3::SipUserAgent::RegisteredTracedCallback");
    return tid;
}

SipUserAgent::SipUserAgent()
    : m_proxyPort(5060),
      m_register(true),
      m_registerExpires(3600),
      m_maxCalls(0),
      m_answerCode(200),
      m_sdpCandidates(0),
      m_running(false),
      m_registered(false),
      m_registerCSeq(0),
      m_callsStarted(0),
      m_callsCompleted(0),
      m_callsReceived(0)
{
}

SipUserAgent::~SipUserAgent() = default;

void
SipUserAgent::DoDispose()
{
    m_calls.clear();
    m_callOfTransaction.clear();
    m_stack = nullptr;
    Application::DoDispose();
}

void
SipUserAgent::SetStack(Ptr<SipStack> stack)
{
    m_stack = stack;
}

Ptr<SipStack>
SipUserAgent::GetStack() const
{
    return m_stack;
}

std::string
SipUserAgent::GetAddressOfRecord() const
{
    return "sip:" + m_user + "@" + m_domain;
}

uint32_t
SipUserAgent::GetCallsStarted() const
{
    return m_callsStarted;
}

uint32_t
SipUserAgent::GetCallsCompleted() const
{
    return m_callsCompleted;
}

bool
SipUserAgent::IsRegistered() const
{
    return m_registered;
}

int64_t
SipUserAgent::AssignStreams(int64_t stream)
{
    m_callDuration->SetStream(stream);
    m_callInterval->SetStream(stream + 1);
    m_answerDelay->SetStream(stream + 2);
    return 3;
}

std::string
SipUserAgent::UserAgentHeader() const
{
    return "transportlab-sip/1.0 (ns-3.44)";
}

SipDestination
SipUserAgent::ProxyDestination() const
{
    SipDestination destination;
    destination.address = m_proxyAddress;
    destination.port = m_proxyPort;
    return destination;
}

void
SipUserAgent::StartApplication()
{
    NS_ABORT_MSG_IF(!m_stack, "SipUserAgent " << m_user << " has no SipStack");
    m_running = true;
    m_stack->Start();
    m_stack->AddUser(m_user,
                     MakeCallback(&SipUserAgent::HandleRequest, this),
                     MakeCallback(&SipUserAgent::HandleStrayResponse, this));
    m_registerCallId = m_stack->NewCallId();
    if (m_register)
    {
        SendRegister();
    }
    if (!m_callTo.empty())
    {
        m_nextCall = Simulator::Schedule(m_callStartDelay, &SipUserAgent::MakeCall, this);
    }
}

void
SipUserAgent::StopApplication()
{
    m_running = false;
    m_nextCall.Cancel();
    for (auto& [id, call] : m_calls)
    {
        call.okTimer.Cancel();
        call.okGiveUp.Cancel();
        call.answerTimer.Cancel();
        call.byeTimer.Cancel();
    }
    if (m_stack)
    {
        m_stack->RemoveUser(m_user);
    }
}

// ---------------------------------------------------------------- registration

void
SipUserAgent::SendRegister()
{
    if (!m_running)
    {
        return;
    }
    const std::string aor = GetAddressOfRecord();
    Ptr<SipMessage> request = SipMessage::CreateRequest("REGISTER", "sip:" + m_domain);
    request->AddHeader("Max-Forwards", "70");
    request->AddHeader("To", "<" + aor + ">");
    request->AddHeader("From", "<" + aor + ">;tag=" + m_stack->NewTag());
    request->AddHeader("Call-ID", m_registerCallId);
    request->AddHeader("CSeq", std::to_string(++m_registerCSeq) + " REGISTER");
    request->AddHeader("Contact", "<" + m_stack->MakeContactUri(m_user) + ">");
    request->AddHeader("Expires", std::to_string(m_registerExpires));
    request->AddHeader("Allow", "INVITE, ACK, CANCEL, BYE, OPTIONS");
    request->AddHeader("User-Agent", UserAgentHeader());
    m_stack->SendRequest(request,
                         ProxyDestination(),
                         MakeCallback(&SipUserAgent::HandleRegisterResponse, this));
}

void
SipUserAgent::HandleRegisterResponse(Ptr<SipClientTransaction> transaction,
                                     Ptr<SipMessage> response)
{
    if (response && response->GetStatusCode() < 200)
    {
        return;
    }
    const SipTransactionRecord& record = transaction->GetRecord();
    m_stack->ReleaseStreamKey(m_registerCallId); // SCTP: the stream is free again
    m_registered = response && response->GetStatusCode() < 300;
    m_registeredTrace(record.status, record.end - record.start);
    if (m_registered && m_running && m_reRegister.IsStrictlyPositive())
    {
        Simulator::Schedule(m_reRegister, &SipUserAgent::SendRegister, this);
    }
    NS_LOG_INFO(m_user << " registration: " << record.status);
}

// ---------------------------------------------------------------- caller side

void
SipUserAgent::MakeCall()
{
    if (!m_running || m_callTo.empty())
    {
        return;
    }
    if (m_maxCalls != 0 && m_callsStarted >= m_maxCalls)
    {
        return;
    }
    ++m_callsStarted;
    const std::string callId = m_stack->NewCallId();
    Call& call = m_calls[callId];
    call.record.caller = true;
    call.record.callNumber = m_callsStarted;
    call.record.callId = callId;
    call.record.localUser = m_user;
    call.record.remoteUser = m_callTo;
    call.localTag = m_stack->NewTag();
    call.localUri = GetAddressOfRecord();
    call.remoteUri = "sip:" + m_callTo + "@" + m_domain;
    call.localCSeq = 1;

    Ptr<SipMessage> invite = SipMessage::CreateRequest("INVITE", call.remoteUri);
    invite->AddHeader("Max-Forwards", "70");
    invite->AddHeader("To", "<" + call.remoteUri + ">");
    invite->AddHeader("From", "\"" + m_user + "\" <" + call.localUri + ">;tag=" + call.localTag);
    invite->AddHeader("Call-ID", callId);
    invite->AddHeader("CSeq", std::to_string(call.localCSeq) + " INVITE");
    invite->AddHeader("Contact", "<" + m_stack->MakeContactUri(m_user) + ">");
    invite->AddHeader("Allow", "INVITE, ACK, CANCEL, BYE, OPTIONS");
    invite->AddHeader("User-Agent", UserAgentHeader());
    invite->SetBody("application/sdp",
                    sip::MakeAudioSdp(m_user,
                                      m_stack->GetAddress(),
                                      m_callsStarted,
                                      static_cast<uint16_t>(40000 + 2 * (m_callsStarted % 1000)),
                                      m_sdpCandidates));
    call.record.inviteSent = Simulator::Now();
    Ptr<SipClientTransaction> transaction =
        m_stack->SendRequest(invite,
                             ProxyDestination(),
                             MakeCallback(&SipUserAgent::HandleInviteResponse, this));
    m_callOfTransaction[transaction->GetId()] = callId;
    if (transaction->GetState() == SipClientTransaction::TERMINATED)
    {
        // failed synchronously; HandleInviteResponse ran before the map entry existed
        FinishCall(callId);
        return;
    }
    if (m_setupTimeout.IsStrictlyPositive())
    {
        m_calls[callId].setupTimer =
            Simulator::Schedule(m_setupTimeout, &SipUserAgent::SetupTimedOut, this, callId);
    }
}

void
SipUserAgent::SetupTimedOut(std::string callId)
{
    auto it = m_calls.find(callId);
    if (it == m_calls.end() || !it->second.record.answered.IsNegative() ||
        it->second.record.inviteStatus != -1)
    {
        return;
    }
    NS_LOG_INFO(m_user << " gives up call " << callId << " (no final response)");
    for (auto owner = m_callOfTransaction.begin(); owner != m_callOfTransaction.end();)
    {
        owner = (owner->second == callId) ? m_callOfTransaction.erase(owner) : std::next(owner);
    }
    it->second.record.inviteStatus = SipTransactionRecord::TIMEOUT;
    FinishCall(callId);
}

void
SipUserAgent::HandleInviteResponse(Ptr<SipClientTransaction> transaction, Ptr<SipMessage> response)
{
    auto owner = m_callOfTransaction.find(transaction->GetId());
    if (owner == m_callOfTransaction.end())
    {
        return;
    }
    const std::string callId = owner->second;
    auto it = m_calls.find(callId);
    if (it == m_calls.end())
    {
        return;
    }
    Call& call = it->second;
    if (!response)
    {
        call.record.inviteStatus = transaction->GetRecord().status;
        m_callOfTransaction.erase(owner);
        FinishCall(callId);
        return;
    }
    const uint16_t code = response->GetStatusCode();
    if (code < 200)
    {
        if (code == 100 && call.record.trying.IsNegative())
        {
            call.record.trying = Simulator::Now();
        }
        if (code >= 180 && call.record.ringing.IsNegative())
        {
            call.record.ringing = Simulator::Now();
        }
        return;
    }
    m_callOfTransaction.erase(owner);
    call.record.inviteStatus = code;
    if (code >= 300)
    {
        FinishCall(callId); // the transaction sent the ACK
        return;
    }
    // 2xx: the dialog is established (RFC 3261 12.1.2).
    call.setupTimer.Cancel();
    call.record.answered = Simulator::Now();
    call.remoteTag = response->GetToTag();
    sip::SipNameAddr contact;
    if (contact.Parse(response->GetHeader("Contact")))
    {
        call.remoteTarget = contact.uri.ToString();
    }
    else
    {
        call.remoteTarget = call.remoteUri;
    }
    const auto recordRoute = response->GetHeaders("Record-Route");
    call.routeSet.assign(recordRoute.rbegin(), recordRoute.rend());
    SendAck(call);
    const Time talk = Seconds(std::max(0.0, m_callDuration->GetValue()));
    call.byeTimer = Simulator::Schedule(talk, &SipUserAgent::SendBye, this, callId);
}

bool
SipUserAgent::NextHop(const Call& call, SipDestination& destination) const
{
    sip::SipUri uri;
    const std::string target = call.routeSet.empty() ? call.remoteTarget : call.routeSet.front();
    sip::SipNameAddr route;
    if (!call.routeSet.empty())
    {
        if (!route.Parse(target))
        {
            return false;
        }
        uri = route.uri;
    }
    else if (!uri.Parse(target))
    {
        return false;
    }
    uint32_t address = 0;
    if (!sip::ParseIpv4(uri.host, address))
    {
        // A domain name: our only server is the outbound proxy.
        destination = ProxyDestination();
        return true;
    }
    destination.address = Ipv4Address(address);
    destination.port = uri.GetPortOrDefault();
    return true;
}

Ptr<SipMessage>
SipUserAgent::MakeInDialogRequest(const Call& call, const std::string& method, uint32_t cseq)
{
    Ptr<SipMessage> request = SipMessage::CreateRequest(method, call.remoteTarget);
    for (const auto& route : call.routeSet)
    {
        request->AddHeader("Route", route);
    }
    request->AddHeader("Max-Forwards", "70");
    const std::string localTagged = "<" + call.localUri + ">;tag=" + call.localTag;
    const std::string remoteTagged = "<" + call.remoteUri + ">;tag=" + call.remoteTag;
    if (call.record.caller)
    {
        request->AddHeader("To", remoteTagged);
        request->AddHeader("From", "\"" + m_user + "\" " + localTagged);
    }
    else
    {
        request->AddHeader("To", remoteTagged);
        request->AddHeader("From", localTagged);
    }
    request->AddHeader("Call-ID", call.record.callId);
    request->AddHeader("CSeq", std::to_string(cseq) + " " + method);
    request->AddHeader("User-Agent", UserAgentHeader());
    return request;
}

void
SipUserAgent::SendAck(Call& call)
{
    if (call.ack)
    {
        m_stack->GetTransport()->Send(call.ack, call.ackDestination); // 2xx retransmitted
        return;
    }
    Ptr<SipMessage> ack = MakeInDialogRequest(call, "ACK", call.localCSeq);
    ack->AddHeader("Contact", "<" + m_stack->MakeContactUri(m_user) + ">");
    if (!NextHop(call, call.ackDestination))
    {
        NS_LOG_WARN("no route for the ACK of " << call.record.callId);
        return;
    }
    call.ackDestination.streamKey = call.record.callId;
    m_stack->SendAck(ack, call.ackDestination);
    call.ack = ack;
    call.record.ackSent = Simulator::Now();
}

void
SipUserAgent::SendBye(std::string callId)
{
    auto it = m_calls.find(callId);
    if (it == m_calls.end() || !m_running)
    {
        return;
    }
    Call& call = it->second;
    SipDestination destination;
    if (!NextHop(call, destination))
    {
        return;
    }
    Ptr<SipMessage> bye = MakeInDialogRequest(call, "BYE", ++call.localCSeq);
    call.record.byeSent = Simulator::Now();
    Ptr<SipClientTransaction> transaction =
        m_stack->SendRequest(bye, destination, MakeCallback(&SipUserAgent::HandleByeResponse, this));
    m_callOfTransaction[transaction->GetId()] = callId;
}

void
SipUserAgent::HandleByeResponse(Ptr<SipClientTransaction> transaction, Ptr<SipMessage> response)
{
    if (response && response->GetStatusCode() < 200)
    {
        return;
    }
    auto owner = m_callOfTransaction.find(transaction->GetId());
    if (owner == m_callOfTransaction.end())
    {
        return;
    }
    const std::string callId = owner->second;
    m_callOfTransaction.erase(owner);
    auto it = m_calls.find(callId);
    if (it == m_calls.end())
    {
        return;
    }
    it->second.record.byeStatus = response ? response->GetStatusCode() : transaction->GetRecord().status;
    it->second.record.byeDone = Simulator::Now();
    if (response && response->GetStatusCode() < 300)
    {
        ++m_callsCompleted;
    }
    FinishCall(callId);
}

void
SipUserAgent::FinishCall(std::string callId)
{
    // callId is a copy: a reference could point into the Call erased below (HandleBye
    // passes call.record.callId), and releasing the stream key then read freed memory,
    // so whether the callee's SCTP stream was freed depended on the allocator (glibc's
    // free overwrites the string's first bytes, jemalloc's leaves them).
    auto it = m_calls.find(callId);
    if (it == m_calls.end())
    {
        return;
    }
    Call& call = it->second;
    call.okTimer.Cancel();
    call.okGiveUp.Cancel();
    call.answerTimer.Cancel();
    call.byeTimer.Cancel();
    call.setupTimer.Cancel();
    const SipCallRecord record = call.record;
    m_calls.erase(it);
    m_stack->ReleaseStreamKey(callId);
    m_callEndTrace(record);
    if (record.caller)
    {
        ScheduleNextCall();
    }
}

void
SipUserAgent::ScheduleNextCall()
{
    if (!m_running || (m_maxCalls != 0 && m_callsStarted >= m_maxCalls))
    {
        return;
    }
    const Time gap = Seconds(std::max(0.0, m_callInterval->GetValue()));
    m_nextCall = Simulator::Schedule(gap, &SipUserAgent::MakeCall, this);
}

void
SipUserAgent::HandleStrayResponse(Ptr<SipMessage> response, const SipSource& source)
{
    // A 2xx to INVITE arriving after the transaction ended: our ACK was lost
    // (or is late); acknowledge again (RFC 3261 13.2.2.4).
    if (response->GetMethod() != "INVITE" || response->GetStatusCode() < 200 ||
        response->GetStatusCode() >= 300)
    {
        return;
    }
    auto it = m_calls.find(response->GetCallId());
    if (it != m_calls.end() && it->second.record.caller && it->second.ack)
    {
        SendAck(it->second);
    }
}

// ---------------------------------------------------------------- callee side

void
SipUserAgent::HandleRequest(Ptr<SipServerTransaction> transaction,
                            Ptr<SipMessage> request,
                            const SipSource& source)
{
    if (!m_running)
    {
        return;
    }
    const std::string method = request->GetMethod();
    if (method == "ACK")
    {
        HandleAck(request);
        return;
    }
    if (!transaction)
    {
        return;
    }
    if (method == "INVITE")
    {
        HandleInvite(transaction, request);
    }
    else if (method == "BYE")
    {
        HandleBye(transaction, request);
    }
    else
    {
        Ptr<SipMessage> response = SipMessage::CreateResponseTo(request, 501);
        response->SetToTag(m_stack->NewTag());
        transaction->SendResponse(response);
    }
}

void
SipUserAgent::HandleInvite(Ptr<SipServerTransaction> transaction, Ptr<SipMessage> request)
{
    const std::string callId = request->GetCallId();
    auto existing = m_calls.find(callId);
    if (existing != m_calls.end())
    {
        Call& call = existing->second;
        if (!call.record.caller && call.remoteTag == request->GetFromTag() && request->GetToTag().empty())
        {
            // The INVITE again, after our server transaction ended with the 2xx:
            // answer it with the same 2xx (the UAS core retransmits 2xx anyway).
            if (call.ok)
            {
                transaction->SendResponse(call.ok->Copy());
            }
            else if (call.inviteTransaction && call.inviteTransaction->GetLastResponse())
            {
                transaction->SendResponse(call.inviteTransaction->GetLastResponse()->Copy());
            }
            return;
        }
        Ptr<SipMessage> response = SipMessage::CreateResponseTo(request, 482);
        response->SetToTag(m_stack->NewTag());
        transaction->SendResponse(response);
        return;
    }
    if (!request->GetToTag().empty())
    {
        // re-INVITE of an unknown dialog
        transaction->SendResponse(SipMessage::CreateResponseTo(request, 481));
        return;
    }
    ++m_callsReceived;
    Call& call = m_calls[callId];
    call.record.caller = false;
    call.record.callNumber = m_callsReceived;
    call.record.callId = callId;
    call.record.localUser = m_user;
    sip::SipNameAddr from;
    from.Parse(request->GetHeader("From"));
    call.record.remoteUser = from.uri.user;
    call.record.inviteSent = Simulator::Now();
    call.localTag = m_stack->NewTag();
    call.remoteTag = from.GetTag();
    call.localUri = GetAddressOfRecord();
    call.remoteUri = from.uri.ToString();
    sip::SipNameAddr contact;
    call.remoteTarget =
        contact.Parse(request->GetHeader("Contact")) ? contact.uri.ToString() : call.remoteUri;
    // UAS route set: the Record-Route values in order (RFC 3261 12.1.1).
    call.routeSet = request->GetHeaders("Record-Route");
    call.localCSeq = 0;
    call.invite = request;
    call.inviteTransaction = transaction;

    Ptr<SipMessage> ringing = SipMessage::CreateResponseTo(request, 180);
    ringing->SetToTag(call.localTag);
    for (const auto& rr : call.routeSet)
    {
        ringing->AddHeader("Record-Route", rr);
    }
    ringing->AddHeader("Contact", "<" + m_stack->MakeContactUri(m_user) + ">");
    transaction->SendResponse(ringing);
    call.record.ringing = Simulator::Now();
    const Time delay = Seconds(std::max(0.0, m_answerDelay->GetValue()));
    call.record.answerDelay = delay;
    call.answerTimer = Simulator::Schedule(delay, &SipUserAgent::Answer, this, callId);
}

void
SipUserAgent::Answer(std::string callId)
{
    auto it = m_calls.find(callId);
    if (it == m_calls.end() || !m_running)
    {
        return;
    }
    Call& call = it->second;
    Ptr<SipMessage> response = SipMessage::CreateResponseTo(call.invite, m_answerCode);
    response->SetToTag(call.localTag);
    if (m_answerCode >= 300)
    {
        call.inviteTransaction->SendResponse(response);
        call.record.inviteStatus = m_answerCode;
        FinishCall(callId);
        return;
    }
    for (const auto& rr : call.routeSet)
    {
        response->AddHeader("Record-Route", rr);
    }
    response->AddHeader("Contact", "<" + m_stack->MakeContactUri(m_user) + ">");
    response->AddHeader("Allow", "INVITE, ACK, CANCEL, BYE, OPTIONS");
    response->AddHeader("User-Agent", UserAgentHeader());
    response->SetBody("application/sdp",
                      sip::MakeAudioSdp(m_user,
                                        m_stack->GetAddress(),
                                        call.record.callNumber,
                                        static_cast<uint16_t>(50000 + 2 * (call.record.callNumber % 1000)),
                                        m_sdpCandidates));
    call.ok = response;
    call.record.answered = Simulator::Now();
    call.record.inviteStatus = m_answerCode;
    call.inviteTransaction->SendResponse(response);
    call.inviteTransaction = nullptr; // ended with the 2xx
    // RFC 3261 13.3.1.4: retransmit the 2xx until the ACK arrives, on any transport.
    const SipTimerValues timers = m_stack->GetTimers();
    call.okInterval = timers.t1;
    call.okTimer = Simulator::Schedule(call.okInterval, &SipUserAgent::RetransmitOk, this, callId);
    call.okGiveUp =
        Simulator::Schedule(timers.TransactionTimeout(), &SipUserAgent::OkGiveUp, this, callId);
}

void
SipUserAgent::RetransmitOk(std::string callId)
{
    auto it = m_calls.find(callId);
    if (it == m_calls.end() || it->second.acked || !it->second.ok)
    {
        return;
    }
    Call& call = it->second;
    ++call.record.okRetransmissions;
    // Stateless send towards the top Via, as the server transaction would.
    Ptr<SipMessage> copy = call.ok->Copy();
    sip::SipVia via;
    uint32_t address = 0;
    SipDestination destination;
    if (copy->GetTopVia(via) && sip::ParseIpv4(via.GetResponseHost(), address))
    {
        destination.address = Ipv4Address(address);
        destination.port = via.GetPortOrDefault();
        destination.streamKey = callId;
        m_stack->GetTransport()->Send(copy, destination);
    }
    const SipTimerValues timers = m_stack->GetTimers();
    call.okInterval = std::min(call.okInterval * 2, timers.t2);
    call.okTimer = Simulator::Schedule(call.okInterval, &SipUserAgent::RetransmitOk, this, callId);
}

void
SipUserAgent::OkGiveUp(std::string callId)
{
    auto it = m_calls.find(callId);
    if (it == m_calls.end() || it->second.acked)
    {
        return;
    }
    NS_LOG_INFO(m_user << ": no ACK for the 2xx of " << callId << " within 64*T1");
    it->second.record.inviteStatus = SipTransactionRecord::TIMEOUT;
    FinishCall(callId);
}

void
SipUserAgent::HandleAck(Ptr<SipMessage> request)
{
    auto it = m_calls.find(request->GetCallId());
    if (it == m_calls.end() || it->second.record.caller)
    {
        return;
    }
    Call& call = it->second;
    if (!call.acked)
    {
        call.acked = true;
        call.record.ackSent = Simulator::Now();
        call.okTimer.Cancel();
        call.okGiveUp.Cancel();
    }
}

void
SipUserAgent::HandleBye(Ptr<SipServerTransaction> transaction, Ptr<SipMessage> request)
{
    auto it = m_calls.find(request->GetCallId());
    if (it == m_calls.end() || it->second.record.caller ||
        request->GetToTag() != it->second.localTag)
    {
        Ptr<SipMessage> response = SipMessage::CreateResponseTo(request, 481);
        response->SetToTag(m_stack->NewTag());
        transaction->SendResponse(response);
        return;
    }
    Call& call = it->second;
    call.record.byeSent = Simulator::Now();
    Ptr<SipMessage> ok = SipMessage::CreateResponseTo(request, 200);
    ok->AddHeader("User-Agent", UserAgentHeader());
    transaction->SendResponse(ok);
    call.record.byeDone = Simulator::Now();
    call.record.byeStatus = 200;
    if (!call.acked)
    {
        // The BYE proves the caller got our 2xx (RFC 3261 15: BYE may overtake the ACK).
        call.acked = true;
    }
    FinishCall(call.record.callId);
}

} // namespace ns3
