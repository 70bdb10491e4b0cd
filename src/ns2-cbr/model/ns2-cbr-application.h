/*
 * NS-2's constant-bit-rate source, Application/Traffic/CBR, over any ns-3 socket.
 */
#ifndef NS2_CBR_APPLICATION_H
#define NS2_CBR_APPLICATION_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/seq-ts-size-header.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class Socket;
class Packet;

/**
 * \brief One write of PacketSize bytes at its start time, then one every Interval.
 *
 * NS-2's CBR (cbr_traffic.cc, random_ 0) hands its first packet to the agent
 * when it starts and the next ones one interval apart; ns-3's OnOffApplication
 * sends its first packet one interval after the start. The writes go to the
 * socket whatever its state: a TCP socket that is still opening its connection
 * or an SCTP association still in COOKIE_WAIT buffers them, as NS-2's TCP and
 * SCTP agents queue what the application hands them before the handshake ends.
 * A write the socket refuses (a full send buffer) is counted (GetRefused) and
 * reported by the TxRefused trace, not retried: NS-2 has no such limit, so any
 * refusal is a difference to report.
 *
 * With EnableSeqTsSizeHeader each write starts with a SeqTsSizeHeader (sequence
 * number, time of the write, size) as OnOffApplication's does, so that
 * PacketSink can report the application-level delay; the TxWithSeqTsSize trace
 * has OnOffApplication's signature.
 */
class Ns2CbrApplication : public Application
{
  public:
    static TypeId GetTypeId();
    Ns2CbrApplication();
    ~Ns2CbrApplication() override;

    /** \return writes handed to the socket so far (accepted ones). */
    uint64_t GetSent() const;
    /** \return writes the socket refused. */
    uint64_t GetRefused() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;
    void SendOne();

    Address m_peer;             //!< remote address
    TypeId m_tid;               //!< socket factory type
    uint32_t m_size;            //!< bytes per write
    Time m_interval;            //!< time between writes
    uint64_t m_maxPackets;      //!< 0 = no limit
    bool m_enableSeqTsSizeHeader; //!< prepend a SeqTsSizeHeader
    Ptr<Socket> m_socket;       //!< the sending socket
    EventId m_sendEvent;        //!< the next write
    uint64_t m_sent;            //!< accepted writes
    uint64_t m_refused;         //!< refused writes
    uint32_t m_seq;             //!< next SeqTsSizeHeader sequence number

    TracedCallback<Ptr<const Packet>> m_txTrace;
    TracedCallback<Ptr<const Packet>, const Address&, const Address&, const SeqTsSizeHeader&>
        m_txTraceWithSeqTsSize;
    TracedCallback<Ptr<const Packet>> m_refusedTrace;
};

} // namespace ns3

#endif /* NS2_CBR_APPLICATION_H */
