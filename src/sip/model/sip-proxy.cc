#include "sip-proxy.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipProxy");

NS_OBJECT_ENSURE_REGISTERED(SipProxy);

TypeId
SipProxy::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SipProxy")
            .SetParent<Application>()
            .SetGroupName("Sip")
            .AddConstructor<SipProxy>()
            .AddAttribute("Domain",
                          "The domain this proxy is responsible for (registrar and location).",
                          StringValue("transportlab.test"),
                          MakeStringAccessor(&SipProxy::m_domain),
                          MakeStringChecker())
            .AddAttribute("RecordRoute",
                          "Insert Record-Route in initial INVITEs, so that ACK and BYE pass "
                          "through the proxy.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SipProxy::m_recordRoute),
                          MakeBooleanChecker())
            .AddAttribute("SendTrying",
                          "Answer each INVITE at once with 100 Trying.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SipProxy::m_sendTrying),
                          MakeBooleanChecker())
            .AddAttribute("DefaultExpires",
                          "Registration lifetime (s) when the REGISTER states none.",
                          UintegerValue(3600),
                          MakeUintegerAccessor(&SipProxy::m_defaultExpires),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("Forwarded",
                            "A request was forwarded (the copy sent downstream).",
                            MakeTraceSourceAccessor(&SipProxy::m_forwardedTrace),
                            "ns3::SipProxy::ForwardedTracedCallback");
    return tid;
}

SipProxy::SipProxy()
    : m_recordRoute(true),
      m_sendTrying(true),
      m_defaultExpires(3600),
      m_running(false),
      m_registrations(0)
{
    m_location = CreateObject<SipLocationService>();
}

SipProxy::~SipProxy() = default;

void
SipProxy::DoDispose()
{
    m_upstream.clear();
    m_stack = nullptr;
    m_location = nullptr;
    Application::DoDispose();
}

void
SipProxy::SetStack(Ptr<SipStack> stack)
{
    m_stack = stack;
}

Ptr<SipStack>
SipProxy::GetStack() const
{
    return m_stack;
}

Ptr<SipLocationService>
SipProxy::GetLocationService() const
{
    return m_location;
}

uint32_t
SipProxy::GetForwardedCount(const std::string& method) const
{
    auto it = m_forwarded.find(method);
    return it == m_forwarded.end() ? 0 : it->second;
}

uint32_t
SipProxy::GetRegistrationCount() const
{
    return m_registrations;
}

void
SipProxy::StartApplication()
{
    NS_ABORT_MSG_IF(!m_stack, "SipProxy has no SipStack");
    m_running = true;
    m_stack->Start();
    m_stack->SetDefaultRequestHandler(MakeCallback(&SipProxy::HandleRequest, this));
    m_stack->SetDefaultStrayResponseHandler(MakeCallback(&SipProxy::HandleStrayResponse, this));
}

void
SipProxy::StopApplication()
{
    m_running = false;
    if (m_stack)
    {
        m_stack->SetDefaultRequestHandler(SipStack::RequestCallback());
        m_stack->SetDefaultStrayResponseHandler(SipStack::StrayResponseCallback());
    }
}

bool
SipProxy::IsOurHost(const std::string& host) const
{
    std::ostringstream self;
    self << m_stack->GetAddress();
    return sip::EqualsIgnoreCase(host, m_domain) || host == self.str();
}

bool
SipProxy::IsOurUri(const sip::SipUri& uri) const
{
    std::ostringstream self;
    self << m_stack->GetAddress();
    return uri.host == self.str() && uri.GetPortOrDefault() == m_stack->GetPort();
}

void
SipProxy::Reply(Ptr<SipServerTransaction> transaction, uint16_t code)
{
    Ptr<SipMessage> response = SipMessage::CreateResponseTo(transaction->GetRequest(), code);
    if (code >= 200)
    {
        response->SetToTag(m_stack->NewTag());
    }
    transaction->SendResponse(response);
}

uint16_t
SipProxy::Route(Ptr<SipMessage> request, SipDestination& nextHop)
{
    // 16.3 / 16.6 step 3: Max-Forwards.
    if (request->HasHeader("Max-Forwards"))
    {
        uint64_t maxForwards = 0;
        sip::ParseUnsigned(request->GetHeader("Max-Forwards"), maxForwards, 3);
        if (maxForwards == 0)
        {
            return 483;
        }
        request->SetHeader("Max-Forwards", std::to_string(maxForwards - 1));
    }
    else
    {
        request->SetHeader("Max-Forwards", "69");
    }
    // 16.4: a Route naming us was put there by us (loose routing): remove it.
    sip::SipNameAddr route;
    if (request->HasHeader("Route") && route.Parse(request->GetHeader("Route")) &&
        IsOurUri(route.uri))
    {
        request->RemoveFirstHeader("Route");
    }
    sip::SipUri target;
    if (request->HasHeader("Route"))
    {
        // 16.6 step 7: the next hop is the first Route.
        if (!route.Parse(request->GetHeader("Route")))
        {
            return 400;
        }
        target = route.uri;
    }
    else
    {
        sip::SipUri uri;
        if (!uri.Parse(request->GetRequestUri()))
        {
            return 400;
        }
        if (IsOurHost(uri.host) && !IsOurUri(uri))
        {
            // 16.5: the Request-URI is in our domain: ask the location service.
            SipLocationService::Binding binding;
            if (!m_location->Lookup(uri.user, binding))
            {
                return 404;
            }
            request->SetRequestUri(binding.contactUri);
            nextHop.address = binding.address;
            nextHop.port = binding.port;
            nextHop.streamKey = request->GetCallId();
            return 0;
        }
        target = uri;
    }
    uint32_t address = 0;
    if (!sip::ParseIpv4(target.host, address))
    {
        return 404; // no DNS in this model
    }
    nextHop.address = Ipv4Address(address);
    nextHop.port = target.GetPortOrDefault();
    nextHop.streamKey = request->GetCallId();
    return 0;
}

void
SipProxy::HandleRequest(Ptr<SipServerTransaction> transaction,
                        Ptr<SipMessage> request,
                        const SipSource& source)
{
    if (!m_running)
    {
        return;
    }
    const std::string method = request->GetMethod();
    if (!transaction)
    {
        // ACK to a 2xx: forwarded without a transaction (16.6 step 10 / 16.11 note).
        Ptr<SipMessage> ack = request->Copy();
        SipDestination nextHop;
        if (Route(ack, nextHop) == 0)
        {
            ++m_forwarded["ACK"];
            m_stack->SendAck(ack, nextHop);
            m_forwardedTrace(ack);
        }
        return;
    }
    sip::SipUri uri;
    uri.Parse(request->GetRequestUri());
    if (method == "REGISTER" && IsOurHost(uri.host))
    {
        Registrar(transaction, request);
        return;
    }
    if (method == "INVITE" && m_sendTrying)
    {
        Reply(transaction, 100);
    }
    Ptr<SipMessage> forward = request->Copy();
    SipDestination nextHop;
    const uint16_t error = Route(forward, nextHop);
    if (error != 0)
    {
        Reply(transaction, error);
        return;
    }
    if (method == "INVITE" && m_recordRoute && forward->GetToTag().empty())
    {
        std::ostringstream rr;
        rr << "<sip:" << m_stack->GetAddress() << ":" << m_stack->GetPort()
           << ";transport=" << sip::ToLower(m_stack->GetTransportName()) << ";lr>";
        forward->PrependHeader("Record-Route", rr.str());
    }
    ++m_forwarded[method];
    Ptr<SipClientTransaction> client =
        m_stack->SendRequest(forward, nextHop, MakeCallback(&SipProxy::HandleResponse, this));
    m_forwardedTrace(forward);
    if (client->GetState() != SipClientTransaction::TERMINATED)
    {
        m_upstream[client->GetId()] = transaction;
    }
    else if (!transaction->HasFinalResponse())
    {
        Reply(transaction, 503);
    }
}

void
SipProxy::HandleResponse(Ptr<SipClientTransaction> client, Ptr<SipMessage> response)
{
    auto it = m_upstream.find(client->GetId());
    if (it == m_upstream.end())
    {
        return;
    }
    Ptr<SipServerTransaction> server = it->second;
    if (!response)
    {
        // 16.8: a client transaction timed out (or failed): 408 upstream.
        m_upstream.erase(it);
        if (!server->HasFinalResponse())
        {
            Reply(server, 408);
        }
        m_stack->ReleaseStreamKey(client->GetRequest()->GetCallId());
        return;
    }
    const uint16_t code = response->GetStatusCode();
    if (code >= 200)
    {
        m_upstream.erase(it);
    }
    if (code == 100)
    {
        return; // 16.7 step 5: 100 Trying is not forwarded
    }
    Ptr<SipMessage> upstream = response->Copy();
    upstream->RemoveFirstHeader("Via"); // 16.7 step 3: our Via
    server->SendResponse(upstream);
    const std::string method = response->GetMethod();
    if ((method == "BYE" && code >= 200) || (method == "INVITE" && code >= 300))
    {
        m_stack->ReleaseStreamKey(response->GetCallId()); // the call is over
    }
}

void
SipProxy::HandleStrayResponse(Ptr<SipMessage> response, const SipSource& source)
{
    if (!m_running)
    {
        return;
    }
    // Typically a retransmitted 2xx to INVITE after our transaction ended:
    // forward it statelessly along the Via path (16.7 / 16.11).
    Ptr<SipMessage> upstream = response->Copy();
    upstream->RemoveFirstHeader("Via");
    if (!upstream->HasHeader("Via"))
    {
        return; // it was for us
    }
    m_stack->SendResponseStateless(upstream);
}

void
SipProxy::Registrar(Ptr<SipServerTransaction> transaction, Ptr<SipMessage> request)
{
    // RFC 3261 10.3.
    sip::SipNameAddr to;
    if (!to.Parse(request->GetHeader("To")))
    {
        Reply(transaction, 400);
        return;
    }
    uint64_t expires = m_defaultExpires;
    if (request->HasHeader("Expires"))
    {
        sip::ParseUnsigned(request->GetHeader("Expires"), expires, 10);
    }
    Ptr<SipMessage> ok = SipMessage::CreateResponseTo(request, 200);
    ok->SetToTag(m_stack->NewTag());
    for (const auto& value : request->GetHeaders("Contact"))
    {
        sip::SipNameAddr contact;
        if (!contact.Parse(value))
        {
            Reply(transaction, 400);
            return;
        }
        uint64_t contactExpires = expires;
        auto param = contact.params.find("expires");
        if (param != contact.params.end())
        {
            sip::ParseUnsigned(param->second, contactExpires, 10);
        }
        SipLocationService::Binding binding;
        binding.contactUri = contact.uri.ToString();
        uint32_t address = 0;
        if (!sip::ParseIpv4(contact.uri.host, address))
        {
            Reply(transaction, 400);
            return;
        }
        binding.address = Ipv4Address(address);
        binding.port = contact.uri.GetPortOrDefault();
        m_location->Register(to.uri.user, binding, Seconds(static_cast<double>(contactExpires)));
        if (contactExpires > 0)
        {
            ok->AddHeader("Contact",
                          "<" + binding.contactUri + ">;expires=" + std::to_string(contactExpires));
        }
    }
    ++m_registrations;
    transaction->SendResponse(ok);
    m_stack->ReleaseStreamKey(request->GetCallId()); // SCTP: the registration is done
}

} // namespace ns3
