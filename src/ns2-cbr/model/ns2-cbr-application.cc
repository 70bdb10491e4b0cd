#include "ns2-cbr-application.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket-factory.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"
#include "ns3/udp-socket-factory.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("Ns2CbrApplication");
NS_OBJECT_ENSURE_REGISTERED(Ns2CbrApplication);

TypeId
Ns2CbrApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Ns2CbrApplication")
            .SetParent<Application>()
            .SetGroupName("Applications")
            .AddConstructor<Ns2CbrApplication>()
            .AddAttribute("Remote",
                          "The address of the destination",
                          AddressValue(),
                          MakeAddressAccessor(&Ns2CbrApplication::m_peer),
                          MakeAddressChecker())
            .AddAttribute("Protocol",
                          "The socket factory type to use (e.g. ns3::TcpSocketFactory)",
                          TypeIdValue(UdpSocketFactory::GetTypeId()),
                          MakeTypeIdAccessor(&Ns2CbrApplication::m_tid),
                          MakeTypeIdChecker())
            .AddAttribute("PacketSize",
                          "Bytes per write (NS-2 packetSize_)",
                          UintegerValue(210),
                          MakeUintegerAccessor(&Ns2CbrApplication::m_size),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Interval",
                          "Time between writes (NS-2 interval_)",
                          TimeValue(Seconds(1.0)),
                          MakeTimeAccessor(&Ns2CbrApplication::m_interval),
                          MakeTimeChecker(Time(1)))
            .AddAttribute("MaxPackets",
                          "Writes after which the source stops (0: no limit; NS-2 maxpkts_)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&Ns2CbrApplication::m_maxPackets),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EnableSeqTsSizeHeader",
                          "Start each write with a SeqTsSizeHeader",
                          BooleanValue(false),
                          MakeBooleanAccessor(&Ns2CbrApplication::m_enableSeqTsSizeHeader),
                          MakeBooleanChecker())
            .AddTraceSource("Tx",
                            "A write accepted by the socket",
                            MakeTraceSourceAccessor(&Ns2CbrApplication::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("TxWithSeqTsSize",
                            "A write accepted by the socket, with its SeqTsSizeHeader",
                            MakeTraceSourceAccessor(&Ns2CbrApplication::m_txTraceWithSeqTsSize),
                            "ns3::PacketSink::SeqTsSizeCallback")
            .AddTraceSource("TxRefused",
                            "A write the socket refused (e.g. full send buffer)",
                            MakeTraceSourceAccessor(&Ns2CbrApplication::m_refusedTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

Ns2CbrApplication::Ns2CbrApplication()
    : m_size(210),
      m_interval(Seconds(1.0)),
      m_maxPackets(0),
      m_enableSeqTsSizeHeader(false),
      m_sent(0),
      m_refused(0),
      m_seq(0)
{
    NS_LOG_FUNCTION(this);
}

Ns2CbrApplication::~Ns2CbrApplication()
{
    NS_LOG_FUNCTION(this);
}

uint64_t
Ns2CbrApplication::GetSent() const
{
    return m_sent;
}

uint64_t
Ns2CbrApplication::GetRefused() const
{
    return m_refused;
}

void
Ns2CbrApplication::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_socket = nullptr;
    Application::DoDispose();
}

void
Ns2CbrApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (!m_socket)
    {
        m_socket = Socket::CreateSocket(GetNode(), m_tid);
        int bound = InetSocketAddress::IsMatchingType(m_peer) ? m_socket->Bind()
                                                                : m_socket->Bind6();
        NS_ABORT_MSG_IF(bound == -1, "Ns2CbrApplication: cannot bind its socket");
        NS_ABORT_MSG_IF(m_socket->Connect(m_peer) == -1,
                        "Ns2CbrApplication: cannot connect its socket");
        m_socket->ShutdownRecv();
    }
    // NS-2's CBR: the first packet at the start time, not one interval later.
    m_sendEvent = Simulator::ScheduleNow(&Ns2CbrApplication::SendOne, this);
}

void
Ns2CbrApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_sendEvent.Cancel();
}

void
Ns2CbrApplication::SendOne()
{
    NS_LOG_FUNCTION(this);
    Ptr<Packet> packet;
    SeqTsSizeHeader header;
    if (m_enableSeqTsSizeHeader)
    {
        header.SetSeq(m_seq);
        header.SetSize(m_size);
        NS_ABORT_MSG_IF(m_size < header.GetSerializedSize(),
                        "PacketSize is smaller than the SeqTsSizeHeader");
        packet = Create<Packet>(m_size - header.GetSerializedSize());
        packet->AddHeader(header);
    }
    else
    {
        packet = Create<Packet>(m_size);
    }
    ++m_seq;
    if (m_socket->Send(packet) >= 0)
    {
        ++m_sent;
        m_txTrace(packet);
        if (m_enableSeqTsSizeHeader)
        {
            Address from;
            m_socket->GetSockName(from);
            Ptr<Packet> payload = packet->Copy();
            SeqTsSizeHeader removed;
            payload->RemoveHeader(removed);
            m_txTraceWithSeqTsSize(payload, from, m_peer, header);
        }
    }
    else
    {
        ++m_refused;
        NS_LOG_WARN("write of " << m_size << " B refused (errno " << m_socket->GetErrno() << ")");
        m_refusedTrace(packet);
    }
    if (m_maxPackets == 0 || m_seq < m_maxPackets)
    {
        m_sendEvent = Simulator::Schedule(m_interval, &Ns2CbrApplication::SendOne, this);
    }
}

} // namespace ns3
