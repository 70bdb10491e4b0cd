/*
 * SIP over UDP (RFC 3261 section 18): one datagram per message, one socket
 * bound to the SIP port for sending and receiving.
 */
#ifndef SIP_UDP_TRANSPORT_H
#define SIP_UDP_TRANSPORT_H

#include "sip-transport.h"

#include "ns3/socket.h"

namespace ns3
{

/**
 * \ingroup sip
 * \brief Datagram SIP transport. Unreliable: the transaction layer retransmits.
 */
class SipUdpTransport : public SipTransport
{
  public:
    static TypeId GetTypeId();
    SipUdpTransport();
    ~SipUdpTransport() override;

    void Start(Ptr<Node> node, Ipv4Address localAddress) override;
    void Stop() override;
    bool Send(Ptr<const SipMessage> message, const SipDestination& destination) override;
    bool IsReliable() const override;
    std::string GetProtocolName() const override;

  protected:
    void DoDispose() override;

  private:
    void HandleRead(Ptr<Socket> socket);

    Ptr<Socket> m_socket;
};

} // namespace ns3

#endif // SIP_UDP_TRANSPORT_H
