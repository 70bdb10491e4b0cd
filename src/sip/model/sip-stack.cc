#include "sip-stack.h"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"

#include <cstdio>
#include <sstream>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipStack");

NS_OBJECT_ENSURE_REGISTERED(SipStack);

TypeId
SipStack::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SipStack")
            .SetParent<Object>()
            .SetGroupName("Sip")
            .AddConstructor<SipStack>()
            .AddAttribute("T1",
                          "RTT estimate: initial retransmit interval (RFC 3261 17.1.1.1).",
                          TimeValue(MilliSeconds(500)),
                          MakeTimeAccessor(&SipStack::m_t1),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("T2",
                          "Maximum retransmit interval for non-INVITE requests and INVITE "
                          "responses.",
                          TimeValue(Seconds(4)),
                          MakeTimeAccessor(&SipStack::m_t2),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("T4",
                          "Maximum duration a message remains in the network (Timers I, K).",
                          TimeValue(Seconds(5)),
                          MakeTimeAccessor(&SipStack::m_t4),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("TimerD",
                          "Wait time for response retransmissions after a non-2xx final "
                          "response to INVITE over UDP (at least 32 s).",
                          TimeValue(Seconds(32)),
                          MakeTimeAccessor(&SipStack::m_timerD),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("ProcessingDelay",
                          "Time to handle one received message; messages are served one at a "
                          "time in arrival order (0: no processing time).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SipStack::m_processingDelay),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("TransactionStart",
                            "A client or server transaction started.",
                            MakeTraceSourceAccessor(&SipStack::m_startTrace),
                            "ns3::SipStack::TransactionTracedCallback")
            .AddTraceSource("TransactionEnd",
                            "A transaction reached its outcome: final response received or "
                            "sent, time-out, or transport error.",
                            MakeTraceSourceAccessor(&SipStack::m_endTrace),
                            "ns3::SipStack::TransactionTracedCallback");
    return tid;
}

SipStack::SipStack()
    : m_started(false),
      m_nextTransactionId(1),
      m_nextIdentifier(1)
{
}

SipStack::~SipStack() = default;

void
SipStack::DoDispose()
{
    // Abandon the transactions, but leave the transport's sockets alone: this runs
    // when the simulation is torn down, when sending anything is no longer possible.
    m_started = false;
    Stop();
    if (m_transport)
    {
        m_transport->Dispose();
    }
    m_transport = nullptr;
    m_node = nullptr;
    m_defaultRequest = RequestCallback();
    m_defaultStray = StrayResponseCallback();
    m_users.clear();
    Object::DoDispose();
}

void
SipStack::Setup(Ptr<Node> node, Ipv4Address address, Ptr<SipTransport> transport)
{
    NS_ASSERT_MSG(!m_started, "SipStack::Setup after Start");
    m_node = node;
    m_address = address;
    m_transport = transport;
    m_transport->SetReceiveCallback(MakeCallback(&SipStack::Receive, this));
    m_transport->SetErrorCallback(MakeCallback(&SipStack::TransportFailed, this));
}

void
SipStack::Start()
{
    if (m_started)
    {
        return;
    }
    NS_ABORT_MSG_IF(!m_transport, "SipStack::Start without Setup");
    m_started = true;
    m_transport->Start(m_node, m_address);
}

void
SipStack::Stop()
{
    std::vector<Ptr<SipClientTransaction>> clients;
    for (auto& [key, t] : m_clients)
    {
        clients.push_back(t);
    }
    std::vector<Ptr<SipServerTransaction>> servers;
    for (auto& [key, t] : m_servers)
    {
        servers.push_back(t);
    }
    for (auto& t : clients)
    {
        t->Abandon();
    }
    for (auto& t : servers)
    {
        t->Abandon();
    }
    m_clients.clear();
    m_servers.clear();
    if (m_started && m_transport)
    {
        m_transport->Stop();
    }
    m_started = false;
}

Ptr<Node>
SipStack::GetNode() const
{
    return m_node;
}

Ptr<SipTransport>
SipStack::GetTransport() const
{
    return m_transport;
}

Ipv4Address
SipStack::GetAddress() const
{
    return m_address;
}

uint16_t
SipStack::GetPort() const
{
    return m_transport ? m_transport->GetPort() : 0;
}

std::string
SipStack::GetTransportName() const
{
    return m_transport ? m_transport->GetProtocolName() : "";
}

bool
SipStack::IsReliable() const
{
    return m_transport && m_transport->IsReliable();
}

SipTimerValues
SipStack::GetTimers() const
{
    SipTimerValues timers;
    timers.t1 = m_t1;
    timers.t2 = m_t2;
    timers.t4 = m_t4;
    timers.timerD = m_timerD;
    return timers;
}

std::string
SipStack::Identifier(uint64_t counter) const
{
    // Fixed width, so that every message of a kind has the same size.
    char text[32];
    std::snprintf(text,
                  sizeof(text),
                  "%04x%04x%08llx",
                  static_cast<unsigned>(m_node ? m_node->GetId() & 0xffff : 0),
                  static_cast<unsigned>(GetPort()),
                  static_cast<unsigned long long>(counter & 0xffffffffULL));
    return text;
}

std::string
SipStack::NewBranch()
{
    return "z9hG4bK" + Identifier(m_nextIdentifier++);
}

std::string
SipStack::NewTag()
{
    return Identifier(m_nextIdentifier++);
}

std::string
SipStack::NewCallId()
{
    std::ostringstream host;
    host << m_address;
    return Identifier(m_nextIdentifier++) + "@" + host.str();
}

std::string
SipStack::MakeVia(const std::string& branch) const
{
    std::ostringstream via;
    via << "SIP/2.0/" << GetTransportName() << " " << m_address << ":" << GetPort()
        << ";branch=" << branch;
    return via.str();
}

std::string
SipStack::MakeContactUri(const std::string& user) const
{
    std::ostringstream uri;
    uri << "sip:" << user << "@" << m_address << ":" << GetPort()
        << ";transport=" << sip::ToLower(GetTransportName());
    return uri.str();
}

std::string
SipStack::ClientKey(const std::string& branch, const std::string& method)
{
    return branch + "|" + (method == "ACK" ? std::string("INVITE") : method);
}

std::string
SipStack::ServerKey(Ptr<const SipMessage> request) const
{
    sip::SipVia via;
    request->GetTopVia(via);
    const std::string method = request->GetMethod();
    std::string branch = via.GetBranch();
    if (branch.compare(0, 7, "z9hG4bK") != 0)
    {
        // No RFC 3261 branch: fall back to the dialog identifiers and CSeq number.
        sip::SipCSeq cseq;
        request->GetCSeq(cseq);
        branch = request->GetCallId() + "/" + request->GetFromTag() + "/" +
                 std::to_string(cseq.number);
    }
    return branch + "|" + via.GetSentBy() + "|" +
           (method == "ACK" ? std::string("INVITE") : method);
}

bool
SipStack::Transmit(Ptr<const SipMessage> message, const SipDestination& destination)
{
    if (!m_transport || !m_started)
    {
        return false;
    }
    SipDestination d = destination;
    if (d.streamKey.empty())
    {
        d.streamKey = message->GetCallId();
    }
    return m_transport->Send(message, d);
}

Ptr<SipClientTransaction>
SipStack::SendRequest(Ptr<SipMessage> request,
                      const SipDestination& nextHop,
                      ResponseCallback callback)
{
    Start();
    const std::string branch = NewBranch();
    request->PrependHeader("Via", MakeVia(branch));
    SipDestination destination = nextHop;
    if (destination.streamKey.empty())
    {
        destination.streamKey = request->GetCallId();
    }
    Ptr<SipClientTransaction> transaction = Create<SipClientTransaction>(m_nextTransactionId++,
                                                                         request,
                                                                         destination,
                                                                         IsReliable(),
                                                                         GetTimers());
    transaction->SetSendCallback(MakeCallback(&SipStack::Transmit, this));
    transaction->SetResponseCallback(callback);
    transaction->SetOutcomeCallback(MakeCallback(&SipStack::ClientOutcome, this));
    transaction->SetTerminatedCallback(MakeCallback(&SipStack::ClientTerminated, this));
    m_clients[ClientKey(branch, request->GetMethod())] = transaction;
    SipTransactionRecord started = transaction->GetRecord();
    started.start = Simulator::Now();
    m_startTrace(started);
    transaction->Start();
    return transaction;
}

void
SipStack::SendAck(Ptr<SipMessage> ack, const SipDestination& nextHop)
{
    Start();
    ack->PrependHeader("Via", MakeVia(NewBranch()));
    Transmit(ack, nextHop);
}

void
SipStack::SendResponseStateless(Ptr<SipMessage> response)
{
    sip::SipVia via;
    uint32_t address = 0;
    if (!response->GetTopVia(via) || !sip::ParseIpv4(via.GetResponseHost(), address))
    {
        NS_LOG_WARN("cannot route response statelessly: no usable Via");
        return;
    }
    SipDestination destination;
    destination.address = Ipv4Address(address);
    destination.port = via.GetPortOrDefault();
    destination.streamKey = response->GetCallId();
    Transmit(response, destination);
}

void
SipStack::SetDefaultRequestHandler(RequestCallback handler)
{
    m_defaultRequest = handler;
}

void
SipStack::SetDefaultStrayResponseHandler(StrayResponseCallback handler)
{
    m_defaultStray = handler;
}

void
SipStack::AddUser(const std::string& user, RequestCallback requests, StrayResponseCallback stray)
{
    m_users[user] = std::make_pair(requests, stray);
}

void
SipStack::RemoveUser(const std::string& user)
{
    m_users.erase(user);
}

void
SipStack::ReleaseStreamKey(const std::string& key)
{
    if (m_transport)
    {
        m_transport->ReleaseStreamKey(key);
    }
}

uint32_t
SipStack::GetClientTransactionCount() const
{
    return static_cast<uint32_t>(m_clients.size());
}

uint32_t
SipStack::GetServerTransactionCount() const
{
    return static_cast<uint32_t>(m_servers.size());
}

void
SipStack::Receive(Ptr<SipMessage> message, const SipSource& source)
{
    if (!m_started)
    {
        return;
    }
    if (m_processingDelay.IsZero())
    {
        Process(message, source);
        return;
    }
    // One message at a time, in arrival order.
    const Time now = Simulator::Now();
    m_busyUntil = std::max(m_busyUntil, now) + m_processingDelay;
    Simulator::Schedule(m_busyUntil - now, &SipStack::Process, this, message, source);
}

void
SipStack::Process(Ptr<SipMessage> message, SipSource source)
{
    if (!m_started)
    {
        return;
    }
    if (message->IsRequest())
    {
        ProcessRequest(message, source);
    }
    else
    {
        ProcessResponse(message, source);
    }
}

void
SipStack::ProcessRequest(Ptr<SipMessage> request, const SipSource& source)
{
    // RFC 3261 18.2.1: note the source address if sent-by says otherwise.
    sip::SipVia via;
    request->GetTopVia(via);
    std::ostringstream sourceText;
    sourceText << source.address;
    if (via.host != sourceText.str())
    {
        via.params["received"] = sourceText.str();
        request->RemoveFirstHeader("Via");
        request->PrependHeader("Via", via.ToString());
    }
    const std::string key = ServerKey(request);
    auto existing = m_servers.find(key);
    if (existing != m_servers.end())
    {
        Ptr<SipServerTransaction> transaction = existing->second;
        transaction->ReceiveRequest(request);
        return;
    }
    if (request->GetMethod() == "ACK")
    {
        DispatchRequest(nullptr, request, source); // ACK to a 2xx: end to end (13.3.1.4)
        return;
    }
    Ptr<SipServerTransaction> transaction = Create<SipServerTransaction>(m_nextTransactionId++,
                                                                         request,
                                                                         source,
                                                                         IsReliable(),
                                                                         GetTimers());
    transaction->SetSendCallback(MakeCallback(&SipStack::Transmit, this));
    transaction->SetOutcomeCallback(MakeCallback(&SipStack::ServerOutcome, this));
    transaction->SetTerminatedCallback(MakeCallback(&SipStack::ServerTerminated, this));
    m_servers[key] = transaction;
    m_startTrace(transaction->GetRecord());
    transaction->Start();
    DispatchRequest(transaction, request, source);
}

void
SipStack::DispatchRequest(Ptr<SipServerTransaction> transaction,
                          Ptr<SipMessage> request,
                          const SipSource& source)
{
    sip::SipUri uri;
    uri.Parse(request->GetRequestUri());
    auto user = m_users.find(uri.user);
    if (user != m_users.end() && !user->second.first.IsNull())
    {
        user->second.first(transaction, request, source);
        return;
    }
    if (!m_defaultRequest.IsNull())
    {
        m_defaultRequest(transaction, request, source);
        return;
    }
    if (transaction)
    {
        transaction->SendResponse(SipMessage::CreateResponseTo(request, 404));
    }
}

void
SipStack::ProcessResponse(Ptr<SipMessage> response, const SipSource& source)
{
    sip::SipVia via;
    response->GetTopVia(via);
    std::ostringstream self;
    self << m_address;
    if (via.host != self.str() || via.GetPortOrDefault() != GetPort())
    {
        // RFC 3261 18.1.2: a response whose top Via is not ours is discarded.
        NS_LOG_WARN("discarding response with foreign top Via " << via.ToString());
        return;
    }
    const std::string key = ClientKey(via.GetBranch(), response->GetMethod());
    auto existing = m_clients.find(key);
    if (existing != m_clients.end())
    {
        Ptr<SipClientTransaction> transaction = existing->second;
        transaction->ReceiveResponse(response);
        return;
    }
    sip::SipNameAddr from;
    from.Parse(response->GetHeader("From"));
    auto user = m_users.find(from.uri.user);
    if (user != m_users.end() && !user->second.second.IsNull())
    {
        user->second.second(response, source);
        return;
    }
    if (!m_defaultStray.IsNull())
    {
        m_defaultStray(response, source);
    }
}

void
SipStack::TransportFailed(Ipv4Address address, uint16_t port)
{
    std::vector<Ptr<SipClientTransaction>> affected;
    for (auto& [key, t] : m_clients)
    {
        if (t->GetDestination().address == address && t->GetDestination().port == port)
        {
            affected.push_back(t);
        }
    }
    for (auto& t : affected)
    {
        t->TransportError();
    }
}

void
SipStack::ClientOutcome(Ptr<SipClientTransaction> transaction)
{
    m_endTrace(transaction->GetRecord());
}

void
SipStack::ClientTerminated(Ptr<SipClientTransaction> transaction)
{
    const std::string key =
        ClientKey(transaction->GetBranch(), transaction->GetRequest()->GetMethod());
    auto it = m_clients.find(key);
    if (it != m_clients.end() && it->second == transaction)
    {
        m_clients.erase(it);
    }
}

void
SipStack::ServerOutcome(Ptr<SipServerTransaction> transaction)
{
    m_endTrace(transaction->GetRecord());
}

void
SipStack::ServerTerminated(Ptr<SipServerTransaction> transaction)
{
    const std::string key = ServerKey(transaction->GetRequest());
    auto it = m_servers.find(key);
    if (it != m_servers.end() && it->second == transaction)
    {
        m_servers.erase(it);
    }
}

} // namespace ns3
