/*
 * Installing SIP stacks, user agents and proxies on nodes.
 */
#ifndef SIP_HELPER_H
#define SIP_HELPER_H

#include "ns3/attribute.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/sip-proxy.h"
#include "ns3/sip-stack.h"
#include "ns3/sip-user-agent.h"

#include <string>

namespace ns3
{

/**
 * \ingroup sip
 * \brief Builds SIP elements: a SipStack (transaction layer + transport) per
 * host and port, and SipUserAgent / SipProxy applications on top.
 *
 * \code
 *   SipHelper sip;
 *   sip.SetTransport("udp");                 // or "tcp", "sctp"
 *   Ptr<SipStack> ps = sip.InstallStack(proxyNode, proxyAddress);
 *   Ptr<SipProxy> proxy = sip.InstallProxy(ps);
 *   Ptr<SipStack> as = sip.InstallStack(hostA, addressA);
 *   sip.SetUserAgentAttribute("CallTo", StringValue("bob"));
 *   Ptr<SipUserAgent> alice = sip.InstallUserAgent(as, "alice", proxyAddress);
 * \endcode
 */
class SipHelper
{
  public:
    SipHelper();

    /** "udp" (SipUdpTransport), "tcp" (SipStreamTransport) or "sctp" (SipSctpTransport). */
    void SetTransport(const std::string& kind);
    /** Whether \p kind can be used in this build ("sctp" needs the SCTP module). */
    static bool IsTransportAvailable(const std::string& kind);
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);
    void SetStackAttribute(const std::string& name, const AttributeValue& value);
    void SetUserAgentAttribute(const std::string& name, const AttributeValue& value);
    void SetProxyAttribute(const std::string& name, const AttributeValue& value);

    /** A stack on \p node with sent-by \p address, listening on \p port. */
    Ptr<SipStack> InstallStack(Ptr<Node> node, Ipv4Address address, uint16_t port = 5060);
    /** A proxy/registrar application on the stack's node. */
    Ptr<SipProxy> InstallProxy(Ptr<SipStack> stack);
    /** A user agent for \p user on the stack's node, using \p proxy as outbound proxy. */
    Ptr<SipUserAgent> InstallUserAgent(Ptr<SipStack> stack,
                                       const std::string& user,
                                       Ipv4Address proxy,
                                       uint16_t proxyPort = 5060);

  private:
    std::string m_kind;
    ObjectFactory m_transport;
    ObjectFactory m_stack;
    ObjectFactory m_userAgent;
    ObjectFactory m_proxy;
};

} // namespace ns3

#endif // SIP_HELPER_H
