#include "sip-helper.h"

#include "ns3/boolean.h"
#include "ns3/ipv4-address.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipHelper");

namespace
{

std::string
TransportTypeName(const std::string& kind)
{
    if (kind == "udp")
    {
        return "ns3::SipUdpTransport";
    }
    if (kind == "tcp")
    {
        return "ns3::SipStreamTransport";
    }
    if (kind == "sctp")
    {
        return "ns3::SipSctpTransport";
    }
    return "";
}

} // namespace

SipHelper::SipHelper()
{
    SetTransport("udp");
    m_stack.SetTypeId("ns3::SipStack");
    m_userAgent.SetTypeId("ns3::SipUserAgent");
    m_proxy.SetTypeId("ns3::SipProxy");
}

bool
SipHelper::IsTransportAvailable(const std::string& kind)
{
    const std::string name = TransportTypeName(kind);
    TypeId tid;
    return !name.empty() && TypeId::LookupByNameFailSafe(name, &tid);
}

void
SipHelper::SetTransport(const std::string& kind)
{
    const std::string name = TransportTypeName(kind);
    NS_ABORT_MSG_IF(name.empty(), "SipHelper: unknown transport '" << kind
                                                                   << "' (udp, tcp or sctp)");
    NS_ABORT_MSG_IF(!IsTransportAvailable(kind),
                    "SipHelper: transport '" << kind << "' is not available in this build");
    m_kind = kind;
    m_transport = ObjectFactory();
    m_transport.SetTypeId(name);
}

void
SipHelper::SetTransportAttribute(const std::string& name, const AttributeValue& value)
{
    m_transport.Set(name, value);
}

void
SipHelper::SetStackAttribute(const std::string& name, const AttributeValue& value)
{
    m_stack.Set(name, value);
}

void
SipHelper::SetUserAgentAttribute(const std::string& name, const AttributeValue& value)
{
    m_userAgent.Set(name, value);
}

void
SipHelper::SetProxyAttribute(const std::string& name, const AttributeValue& value)
{
    m_proxy.Set(name, value);
}

Ptr<SipStack>
SipHelper::InstallStack(Ptr<Node> node, Ipv4Address address, uint16_t port)
{
    Ptr<SipTransport> transport = m_transport.Create<SipTransport>();
    transport->SetAttribute("Port", UintegerValue(port));
    Ptr<SipStack> stack = m_stack.Create<SipStack>();
    stack->Setup(node, address, transport);
    return stack;
}

Ptr<SipProxy>
SipHelper::InstallProxy(Ptr<SipStack> stack)
{
    Ptr<SipProxy> proxy = m_proxy.Create<SipProxy>();
    proxy->SetStack(stack);
    stack->GetNode()->AddApplication(proxy);
    return proxy;
}

Ptr<SipUserAgent>
SipHelper::InstallUserAgent(Ptr<SipStack> stack,
                            const std::string& user,
                            Ipv4Address proxy,
                            uint16_t proxyPort)
{
    Ptr<SipUserAgent> agent = m_userAgent.Create<SipUserAgent>();
    agent->SetAttribute("User", StringValue(user));
    agent->SetAttribute("ProxyAddress", Ipv4AddressValue(proxy));
    agent->SetAttribute("ProxyPort", UintegerValue(proxyPort));
    agent->SetStack(stack);
    stack->GetNode()->AddApplication(agent);
    return agent;
}

} // namespace ns3
