/*
 * The SCTP socket: the ns-3 Socket API for one-to-one style SCTP (one association per
 * socket as with TCP, RFC 6458 section 4), the endpoint (bound port and addresses,
 * device), the messages delivered to the application, the attributes that configure
 * its association and the trace sources its association fires. The association itself
 * (state machine, send and receive sides, destinations) is an SctpAssociation.
 *
 * One Send() is one user message. Messages keep their boundaries: Recv() returns one
 * whole message (or the first maxSize bytes of it).
 */
#ifndef SCTP_SOCKET_H
#define SCTP_SOCKET_H

#include "sctp-association.h"
#include "sctp-stream-scheduler.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/socket.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class SctpL4Protocol;

/**
 * \ingroup sctp
 * \brief An SCTP socket owning at most one association.
 */
class SctpSocket : public Socket
{
  public:
    static TypeId GetTypeId();
    SctpSocket();
    /** Copy the configuration of a listening socket for a new association. */
    SctpSocket(const SctpSocket& listener);
    ~SctpSocket() override;

    void SetNode(Ptr<Node> node);
    void SetSctp(Ptr<SctpL4Protocol> sctp);
    Ptr<SctpL4Protocol> GetSctp() const;

    // ns-3 Socket API
    using Socket::Recv;
    using Socket::RecvFrom;
    using Socket::Send;
    using Socket::SendTo;
    SocketErrno GetErrno() const override;
    SocketType GetSocketType() const override;
    Ptr<Node> GetNode() const override;
    int Bind(const Address& address) override;
    /**
     * Add one more local address to a socket bound to a specific address (the
     * sctp_bindx(SCTP_BINDX_ADD_ADDR) of RFC 6458 section 9.1): \p address is an
     * InetSocketAddress / Inet6SocketAddress of this node with the bound port (or 0).
     * The association then uses exactly the bound addresses and lists them in INIT /
     * INIT ACK. Binding to the any-address uses all of the node's addresses.
     */
    int BindAdd(const Address& address);
    int Bind() override;
    int Bind6() override;
    int Close() override;
    int ShutdownSend() override;
    int ShutdownRecv() override;
    int Connect(const Address& address) override;
    int Listen() override;
    uint32_t GetTxAvailable() const override;
    int Send(Ptr<Packet> p, uint32_t flags) override;
    int SendTo(Ptr<Packet> p, uint32_t flags, const Address& toAddress) override;
    uint32_t GetRxAvailable() const override;
    Ptr<Packet> Recv(uint32_t maxSize, uint32_t flags) override;
    Ptr<Packet> RecvFrom(uint32_t maxSize, uint32_t flags, Address& fromAddress) override;
    int GetSockName(Address& address) const override;
    int GetPeerName(Address& address) const override;
    bool SetAllowBroadcast(bool allowBroadcast) override;
    bool GetAllowBroadcast() const override;
    void BindToNetDevice(Ptr<NetDevice> netdevice) override;

    /** The ABORT primitive (section 10.1 E): drop everything, send ABORT, close. */
    int Abort();
    /**
     * SET PRIMARY (section 10.1 N): \p peer is one of the peer's IP addresses (an
     * Ipv4Address / Ipv6Address as Address, or an Inet(6)SocketAddress).
     * \return 0, or -1 if the association has no such destination.
     */
    int SetPrimaryPath(const Address& peer);
    /** REQUEST HEARTBEAT (section 10.1 L) on path \p index. \return 0 or -1. */
    int RequestHeartbeat(uint32_t index);

    /**
     * The congestion control of this socket's association (as TcpSocketBase's
     * SetCongestionControlAlgorithm). SctpL4Protocol sets a new instance of its
     * `CongestionOps` TypeId on every socket it creates; an accepted association gets a
     * Fork() of its listening socket's.
     */
    void SetCongestionOps(Ptr<SctpCongestionOps> algorithm);
    Ptr<SctpCongestionOps> GetCongestionOps() const;

    /**
     * Per-stream values of the stream scheduler (RFC 8260 4.3.3,
     * SCTP_STREAM_SCHEDULER_VALUE): the priority the priority scheduler reads (a lower
     * value is served first; default 0) and the weight of weighted fair queueing (>= 1;
     * default 1). They hold for the association running now and for later ones (and
     * for the associations a listening socket accepts). \return 0, or -1 (ERROR_INVAL)
     * for a weight of 0.
     */
    int SetStreamPriority(uint16_t streamId, uint16_t priority);
    uint16_t GetStreamPriority(uint16_t streamId) const;
    int SetStreamWeight(uint16_t streamId, uint16_t weight);
    uint16_t GetStreamWeight(uint16_t streamId) const;
    /**
     * The stream scheduler of the association: a new instance of the StreamScheduler
     * attribute's TypeId for every association (before the first, a first-come
     * first-served placeholder that the association replaces).
     */
    Ptr<SctpStreamScheduler> GetStreamScheduler() const;

    /**
     * \name Stream reconfiguration (RFC 6525; RFC 6458 8.3.x SCTP_RESET_STREAMS,
     * SCTP_RESET_ASSOC, SCTP_ADD_STREAMS), once both ends announced it (the
     * ReconfigSupported attribute). Each returns 0 when the request is on its way (its
     * outcome is the StreamReconfig trace source) or -1 with GetErrno():
     * ERROR_OPNOTSUPP (not negotiated), ERROR_NOTCONN, ERROR_AGAIN (a request is
     * outstanding) or ERROR_INVAL (a stream that does not exist).
     */
    //!@{
    /** Reset the SSNs of \p streams (all if empty), outgoing and / or incoming. */
    int ResetStreams(const std::vector<uint16_t>& streams, bool outgoing, bool incoming);
    /** SSN/TSN Reset Request (RFC 6525 5.1.4). */
    int ResetAssociation();
    /** Add \p outgoing outbound and \p incoming inbound streams (5.1.5, 5.1.6). */
    int AddStreams(uint16_t outgoing, uint16_t incoming);
    //!@}

    /**
     * The association of this socket: its state, tags, streams, sender (TSNs, windows,
     * retransmission counters, PR-SCTP), receiver and destinations (paths).
     */
    Ptr<SctpAssociation> GetAssociation() const;
    /** The association's state (LISTEN for a listening socket). */
    SctpState GetState() const;
    uint16_t GetLocalPort() const;
    uint16_t GetPeerPort() const;
    /** The local addresses the association uses (the bound list or all of the node's). */
    std::vector<Address> GetLocalAddresses() const;
    /** User bytes of every message delivered to this socket's receive queue. */
    uint64_t GetDeliveredBytes() const;
    /**
     * Consistency check of the association's bookkeeping (flight sizes, queue order,
     * TSN map) and of the receive queue: an empty string when consistent, otherwise a
     * description.
     */
    std::string CheckInvariants() const;

    /** Trace signature of the State source. */
    typedef void (*StateTracedCallback)(SctpState oldState, SctpState newState);
    /** Trace signature of chunk traces: type, flags, length, TSN (DATA) or 0. */
    typedef void (*ChunkTracedCallback)(uint8_t type, uint8_t flags, uint16_t length, uint32_t tsn);
    /** Trace signature of the Retransmission source: TSN, true if fast retransmit. */
    typedef void (*RetransmissionTracedCallback)(uint32_t tsn, bool fast);
    /** Trace signature of ChunkPath: chunk type, TSN (DATA), path index, retransmission. */
    typedef void (*ChunkPathTracedCallback)(uint8_t type,
                                            uint32_t tsn,
                                            uint32_t pathIndex,
                                            bool retransmission);
    /** Trace signature of PathEvent: path index, event. */
    typedef void (*PathEventTracedCallback)(uint32_t pathIndex, SctpPathEvent event);
    /**
     * Trace signature of Abandon: stream, SSN (ordered messages), first TSN (0 if no
     * chunk was sent), size in bytes, the policy's reason (SctpPrPolicy).
     */
    typedef void (*AbandonTracedCallback)(uint16_t streamId,
                                          uint16_t ssn,
                                          uint32_t firstTsn,
                                          uint32_t size,
                                          SctpPrPolicy policy);
    /** Trace signature of StreamReconfig: event, parameter type (RFC 6525 section 4),
     *  request sequence number, result (RFC 6525 4.4; 0 where there is none). */
    typedef void (*StreamReconfigTracedCallback)(SctpReconfigEvent event,
                                                 uint16_t parameterType,
                                                 uint32_t sequenceNumber,
                                                 uint32_t result);
    /** Trace signature of the Deliver source: message, stream, SSN, TSN. */
    typedef void (*DeliverTracedCallback)(Ptr<const Packet> message,
                                          uint16_t streamId,
                                          uint16_t ssn,
                                          uint32_t tsn);

  protected:
    void DoDispose() override;

  private:
    friend class SctpAssociation; // its upcalls below

    // ---- upcalls of the association
    const SctpProtocolParameters& GetParameters() const;
    const SctpAssociationConfig& GetConfig() const;
    SctpAssociationTraces& GetTraces();
    const Address& GetBoundAddress() const;
    Ptr<NetDevice> GetBoundDevice() const;
    bool IsIpv6() const;
    /** The association set itself up (ports known) or ended (endpoint released). */
    void SetLocalPort(uint16_t port);
    void ReleaseEndpoint();
    /** A new association from this listening socket: a copy that takes it over. */
    Ptr<SctpSocket> Fork();
    void NotifyAssociationUp();
    void NotifyAssociationFailed();
    void NotifyAssociationClosed(bool normal);
    bool AcceptAssociation(const Address& from);
    void NotifyNewAssociation(Ptr<SctpSocket> socket, const Address& from);
    void NotifyDataSentUp(uint32_t bytes);
    void NotifySpaceAvailable();
    /** \return true if the receive queue grew. */
    bool AcceptMessages(std::deque<SctpReceivedMessage>& messages);
    void NotifyMessagesReady();
    void CancelWindowUpdate();
    void OnWindowUpdate();
    /** A new scheduler of the StreamScheduler TypeId with this socket's stream values. */
    Ptr<SctpStreamScheduler> CreateStreamScheduler() const;

    // Attributes: the association's configuration, and the defaults of Send()
    SctpProtocolParameters m_parameters;
    SctpAssociationConfig m_config;
    uint32_t m_sndBufSize;
    uint16_t m_defaultStream;
    uint32_t m_defaultPpid;
    bool m_defaultUnordered;
    SctpPrPolicy m_defaultPrPolicy;
    uint32_t m_defaultPrValue;
    TypeId m_streamSchedulerType;
    std::map<uint16_t, uint16_t> m_streamPriorities;
    std::map<uint16_t, uint16_t> m_streamWeights;

    // Endpoint
    Ptr<Node> m_node;
    Ptr<SctpL4Protocol> m_sctp;
    Ptr<NetDevice> m_boundDevice;
    mutable SocketErrno m_errno{ERROR_NOTERROR};
    bool m_bound{false};
    bool m_ipv6{false};
    Address m_localAddress; //!< IP address bound (Any if none; the first of a list)
    std::vector<Address> m_boundAddresses; //!< BindAdd list (empty: m_localAddress only)
    uint16_t m_localPort{0};
    bool m_shutdownRecv{false};

    Ptr<SctpAssociation> m_association;

    // Messages delivered to the application
    std::deque<SctpReceivedMessage> m_rxMessages;
    uint32_t m_rxMessageBytes{0};
    uint64_t m_deliveredBytes{0};
    EventId m_windowUpdateEvent;

    SctpAssociationTraces m_traces; //!< exported as this socket's trace sources
};

} // namespace ns3

#endif /* SCTP_SOCKET_H */
