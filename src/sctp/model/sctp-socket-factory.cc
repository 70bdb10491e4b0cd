#include "sctp-socket-factory.h"

#include "sctp-l4-protocol.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(SctpSocketFactory);

TypeId
SctpSocketFactory::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SctpSocketFactory")
                            .SetParent<SocketFactory>()
                            .SetGroupName("Sctp")
                            .AddConstructor<SctpSocketFactory>();
    return tid;
}

void
SctpSocketFactory::SetSctp(Ptr<SctpL4Protocol> sctp)
{
    m_sctp = sctp;
}

Ptr<Socket>
SctpSocketFactory::CreateSocket()
{
    return m_sctp->CreateSocket();
}

void
SctpSocketFactory::DoDispose()
{
    m_sctp = nullptr;
    SocketFactory::DoDispose();
}

} // namespace ns3
