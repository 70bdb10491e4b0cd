/*
 * What an SCTP association reports: its state, the primary path's congestion window,
 * slow start threshold and RTO, RTT samples, the peer's window, every chunk sent and
 * received, retransmissions, deliveries, the destination of every chunk, path events
 * and abandoned messages. The socket owns one SctpAssociationTraces and exports each
 * member as one of its trace sources (State, CongestionWindow, TxChunk, ...); its
 * association and the association's parts fire them.
 */
#ifndef SCTP_ASSOCIATION_TRACES_H
#define SCTP_ASSOCIATION_TRACES_H

#include "sctp-message-tag.h"

#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Association states (RFC 9260 section 4), plus LISTEN for a listening socket.
 */
enum SctpState : uint8_t
{
    SCTP_CLOSED = 0,
    SCTP_LISTEN = 1,
    SCTP_COOKIE_WAIT = 2,
    SCTP_COOKIE_ECHOED = 3,
    SCTP_ESTABLISHED = 4,
    SCTP_SHUTDOWN_PENDING = 5,
    SCTP_SHUTDOWN_SENT = 6,
    SCTP_SHUTDOWN_RECEIVED = 7,
    SCTP_SHUTDOWN_ACK_SENT = 8,
};

/** \return the RFC name of an association state, e.g. "COOKIE-WAIT". */
std::string SctpStateName(SctpState state);

/**
 * \ingroup sctp
 * \brief Changes of a peer address, after the SCTP_PEER_ADDR_CHANGE notification of the
 *        sockets API (RFC 6458 section 6.1.2), plus the destination new data goes to.
 */
enum class SctpPathEvent : uint8_t
{
    AVAILABLE = 0,    //!< the destination became active again (8.2, 8.3)
    UNREACHABLE = 1,  //!< the error counter exceeded Path.Max.Retrans: inactive (8.2)
    CONFIRMED = 2,    //!< path verification succeeded (5.4)
    MADE_PRIMARY = 3, //!< the destination became the primary path
    DATA_PATH = 4,    //!< new data now goes to this destination (failover or return)
    POTENTIALLY_FAILED = 5, //!< the error counter exceeded PFMR (RFC 7829 section 3)
};

/** \return a name like "UNREACHABLE". */
std::string SctpPathEventName(SctpPathEvent event);

/**
 * \ingroup sctp
 * \brief What happened to a stream reconfiguration request (RFC 6525), reported by the
 *        StreamReconfig trace source with the parameter type and sequence number.
 */
enum class SctpReconfigEvent : uint8_t
{
    REQUEST_SENT = 0,          //!< this endpoint sent a request (5.1)
    REQUEST_RETRANSMITTED = 1, //!< its timer expired and the request went again (5.1.1)
    RESPONSE_RECEIVED = 2,     //!< the peer answered one of our requests, with its result
    REQUEST_RECEIVED = 3,      //!< the peer's request, with the result this endpoint answered
    PERFORMED = 4,             //!< a deferred reset of incoming streams was performed (5.2.2)
};

/** \return a name like "REQUEST_SENT". */
std::string SctpReconfigEventName(SctpReconfigEvent event);

/**
 * \ingroup sctp
 * \brief The trace sources of an SCTP socket, fired by its association (see
 *        SctpSocket::GetTypeId for their names and signatures).
 */
struct SctpAssociationTraces
{
    TracedValue<SctpState> state{SCTP_CLOSED};   //!< State
    TracedValue<uint32_t> cwnd{0};               //!< CongestionWindow (primary path)
    TracedValue<uint32_t> ssthresh{0};           //!< SlowStartThreshold (primary path)
    TracedValue<Time> rto{Time(0)};              //!< RTO (primary path)
    TracedValue<Time> rtt{Time(0)};              //!< RTT (last sample, any path)
    TracedValue<uint32_t> peerRwnd{0};           //!< PeerRwnd
    TracedCallback<uint8_t, uint8_t, uint16_t, uint32_t> txChunk; //!< TxChunk
    TracedCallback<uint8_t, uint8_t, uint16_t, uint32_t> rxChunk; //!< RxChunk
    TracedCallback<uint32_t, bool> retransmission;                //!< Retransmission
    TracedCallback<Ptr<const Packet>, uint16_t, uint16_t, uint32_t> deliver; //!< Deliver
    TracedCallback<uint8_t, uint32_t, uint32_t, bool> chunkPath;  //!< ChunkPath
    TracedCallback<uint32_t, SctpPathEvent> pathEvent;            //!< PathEvent
    TracedCallback<uint16_t, uint16_t, uint32_t, uint32_t, SctpPrPolicy> abandon; //!< Abandon
    /** StreamReconfig: event, parameter type (RFC 6525 4), request sequence number, result */
    TracedCallback<SctpReconfigEvent, uint16_t, uint32_t, uint32_t> reconfig;
};

} // namespace ns3

#endif /* SCTP_ASSOCIATION_TRACES_H */
