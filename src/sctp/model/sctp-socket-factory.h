/*
 * Socket factory aggregated to nodes with SCTP, so that applications create SCTP
 * sockets by the factory's TypeId name "ns3::SctpSocketFactory".
 */
#ifndef SCTP_SOCKET_FACTORY_H
#define SCTP_SOCKET_FACTORY_H

#include "ns3/socket-factory.h"

namespace ns3
{

class SctpL4Protocol;

/** \ingroup sctp \brief Creates SctpSocket instances for a node's SctpL4Protocol. */
class SctpSocketFactory : public SocketFactory
{
  public:
    static TypeId GetTypeId();
    void SetSctp(Ptr<SctpL4Protocol> sctp);
    Ptr<Socket> CreateSocket() override;

  protected:
    void DoDispose() override;

  private:
    Ptr<SctpL4Protocol> m_sctp;
};

} // namespace ns3

#endif /* SCTP_SOCKET_FACTORY_H */
