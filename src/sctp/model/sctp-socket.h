/*
 * The SCTP socket: the user API of ns-3 sockets (one-to-one style, one association per
 * socket as with TCP, RFC 6458 section 4) and the association it owns: state machine
 * and control chunks (sctp-socket.cc), association set-up and collisions
 * (sctp-socket-setup.cc), send side (sctp-socket-tx.cc) and receive side (sctp-socket-rx.cc).
 *
 * One Send() is one user message. Messages keep their boundaries: Recv() returns one
 * whole message (or the first maxSize bytes of it).
 */
#ifndef SCTP_SOCKET_H
#define SCTP_SOCKET_H

#include "sctp-chunk.h"
#include "sctp-cookie.h"
#include "sctp-header.h"
#include "sctp-message-tag.h"
#include "sctp-path.h"
#include "sctp-reassembly-queue.h"
#include "sctp-tsn-map.h"
#include "sctp-tx-queue.h"

#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"
#include "ns3/traced-value.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

class SctpL4Protocol;

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
 * \brief Where retransmissions go when the peer has several addresses (NS-2 rtxToAlt_).
 */
enum class SctpRtxToAlt : uint8_t
{
    SAME = 0,              //!< always to the destination the chunk was sent to
    ALTERNATE = 1,         //!< timeouts and fast retransmissions to an alternate (NS-2 default)
    TIMEOUT_ALTERNATE = 2, //!< timeouts to an alternate, fast retransmissions to the same
};

/** \ingroup sctp \brief Destination of new data when every destination is inactive. */
enum class SctpDormantAction : uint8_t
{
    HOP = 0,       //!< move to the next destination at every timeout (NS-2 default)
    PRIMARY = 1,   //!< keep sending to the primary path
    LAST_USED = 2, //!< keep the destination last used
};

/** \ingroup sctp \brief Which associations send HEARTBEATs on idle destinations (8.3). */
enum class SctpHeartbeatMode : uint8_t
{
    OFF = 0,        //!< never (paths are then taken as confirmed)
    MULTIHOMED = 1, //!< associations whose peer has more than one address
    ALL = 2,        //!< every association (RFC 9260 default behaviour)
};

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

    // Inspection (tests, notebooks, fuzzing)
    SctpState GetState() const;
    uint32_t GetNPaths() const;
    Ptr<SctpPath> GetPath(uint32_t index) const;
    Ptr<SctpPath> GetPrimaryPath() const;
    uint32_t GetPrimaryPathIndex() const;
    /** The destination new data currently goes to (the primary unless it failed). */
    uint32_t GetDataPathIndex() const;
    /** Index of the path to \p peer (an IP address as Address), or -1. */
    int32_t FindPath(const Address& peer) const;
    /** The local addresses the association uses (the bound list or all of the node's). */
    std::vector<Address> GetLocalAddresses() const;
    uint32_t GetLocalVerificationTag() const;
    uint32_t GetPeerVerificationTag() const;
    uint16_t GetLocalPort() const;
    uint16_t GetPeerPort() const;
    /** Next TSN this endpoint will assign. */
    uint32_t GetNextTsn() const;
    /** Cumulative TSN acknowledged by the peer. */
    uint32_t GetCumulativeTsnAcked() const;
    /** Cumulative TSN received from the peer. */
    uint32_t GetCumulativeTsnReceived() const;
    uint32_t GetPeerRwnd() const;
    uint16_t GetOutboundStreams() const;
    uint16_t GetInboundStreams() const;
    uint32_t GetFastRetransmitCount() const;
    uint32_t GetTimeoutCount() const;
    uint32_t GetRetransmittedChunkCount() const;
    uint32_t GetRestartCount() const;
    uint64_t GetDeliveredBytes() const;
    /** \name PR-SCTP (RFC 3758) */
    //!@{
    /** Both ends announced Forward-TSN-Supported. */
    bool IsPrSctpActive() const;
    uint32_t GetAdvancedPeerAckPoint() const;
    /** Messages abandoned by this sender (sent in part or not at all). */
    uint32_t GetAbandonedMessageCount() const;
    /** Messages abandoned before any of their chunks was sent. */
    uint32_t GetAbandonedUnsentCount() const;
    uint32_t GetForwardTsnSentCount() const;
    uint32_t GetForwardTsnReceivedCount() const;
    //!@}
    /** HEARTBEATs sent / HEARTBEAT ACKs accepted (8.3, 5.4). */
    uint32_t GetHeartbeatCount() const;
    uint32_t GetHeartbeatAckCount() const;
    /** Cause code of the last ABORT sent or received (0 if none). */
    uint16_t GetLastAbortCause() const;
    /**
     * Consistency check of the association's bookkeeping (flight sizes, queue order,
     * TSN map): an empty string when consistent, otherwise a description.
     */
    std::string CheckInvariants() const;

    /** Called by SctpL4Protocol: a packet for this association or listening socket. */
    void ReceivePacket(const SctpCommonHeader& header,
                       const std::vector<SctpChunk>& chunks,
                       const Address& source,
                       const Address& destination);

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

  protected:
    void DoDispose() override;

  private:
    friend class SctpL4Protocol;

    // ---- sctp-socket.cc: API helpers, state machine, control chunks ----
    void SetState(SctpState state);
    bool IsAssociationAlive() const;
    void NewAssociation(uint32_t localTag, uint32_t localInitialTsn);
    void SetupPaths(const std::vector<Address>& peerAddresses, const Address& primary);
    void InitializeTransfer(uint32_t peerInitialTsn,
                            uint32_t peerRwnd,
                            uint16_t outboundStreams,
                            uint16_t inboundStreams);
    void DeleteAssociation(bool notifyNormal, bool notifyError);
    void CancelAllTimers();
    bool CollectPeerAddresses(const SctpInitChunk& init,
                              const Address& source,
                              std::vector<Address>& out,
                              std::vector<SctpTlv>& unrecognized,
                              uint16_t& abortCause);
    std::vector<SctpTlv> LocalAddressParameters() const;
    void SendInit();
    void SendInitAck(const SctpCommonHeader& header,
                     const SctpInitChunk& init,
                     const Address& source,
                     const Address& destination);
    void SendCookieEcho();
    void SendControl(uint32_t verificationTag, const std::vector<uint8_t>& chunks);
    void SendControlTo(uint32_t verificationTag,
                       const std::vector<uint8_t>& chunks,
                       const Address& destination,
                       const Address& source,
                       Ptr<NetDevice> device = nullptr);
    void SendAbort(const std::vector<SctpTlv>& causes, bool toPeerTag = true);
    void SendShutdown();
    void SendShutdownAck();
    void SendShutdownComplete(bool tBit);
    void SendError(const std::vector<SctpTlv>& causes);
    void CheckShutdownProgress();
    void StartT1();
    void OnT1Expired();
    void StartT2();
    void OnT2Expired();
    void OnT5Expired();
    bool CountAssociationError();

    bool CheckVerificationTag(const SctpCommonHeader& header,
                              const std::vector<SctpChunk>& chunks,
                              const Address& source,
                              const Address& destination);
    void ProcessChunks(const SctpCommonHeader& header,
                       const std::vector<SctpChunk>& chunks,
                       std::size_t first,
                       const Address& source,
                       const Address& destination);
    void QueueControlChunk(const std::vector<uint8_t>& chunkBytes);
    void OnWindowUpdate();
    void SendAbortOnly(uint32_t tag,
                       bool tBit,
                       const std::vector<SctpTlv>& causes,
                       uint16_t localPort,
                       uint16_t peerPort,
                       const Address& destination,
                       const Address& source);
    bool HandleInit(const SctpCommonHeader& header,
                    const SctpChunk& chunk,
                    const Address& source,
                    const Address& destination);
    bool HandleInitAck(const SctpChunk& chunk, const Address& source);
    Ptr<SctpSocket> HandleCookieEcho(const SctpCommonHeader& header,
                                     const SctpChunk& chunk,
                                     const Address& source,
                                     const Address& destination);
    void EstablishFromCookie(const SctpCookie& cookie,
                             const Address& source,
                             const Address& destination);
    void HandleCookieAck();
    void EnterEstablished();
    void ApplyPrimaryAttribute();
    void HandleAbort(const SctpChunk& chunk);
    void HandleShutdown(const SctpChunk& chunk);
    void HandleShutdownAck(const SctpCommonHeader& header);
    void HandleShutdownComplete();
    void HandleError(const SctpChunk& chunk);
    void HandleHeartbeat(const SctpChunk& chunk,
                         const Address& source,
                         const Address& destination);
    void HandleHeartbeatAck(const SctpChunk& chunk, const Address& source);
    void HandleForwardTsn(const SctpChunk& chunk, bool& needImmediateSack);

    // ---- sctp-socket-paths.cc: multi-homing (5.1.2, 5.4, 6.4, 8.2, 8.3) ----
    bool IsLocallyMultihomed() const;
    bool IsAnyAddress(const Address& ip) const;
    void SelectSource(SctpPath& path, bool rotate);
    Ptr<NetDevice> DeviceForLocalAddress(const Address& local) const;
    bool SendOnPath(SctpPath& path,
                    std::vector<uint8_t>& packet,
                    const Address& replySource = Address());
    bool IsPathUsable(const SctpPath& path) const;
    uint32_t SelectDataPath();
    void SetDataPath(uint32_t index);
    uint32_t AlternatePath(uint32_t from) const;
    uint32_t RetransmissionPath(uint32_t from, bool fast) const;
    uint32_t ReplyPath() const;
    void RecordPathError(SctpPath& path, bool countForAssociation);
    void MarkPathInactive(SctpPath& path);
    void MarkPathActive(SctpPath& path);
    /** RFC 7829: PotentiallyFailedMaxRetrans < PathMaxRetrans. */
    bool IsPfEnabled() const;
    void MarkPathPotentiallyFailed(SctpPath& path);
    /** A confirmed PF destination for new data when none is active (RFC 7829 3). */
    int32_t BestPotentiallyFailedPath() const;
    void MakePrimary(uint32_t index);
    bool HeartbeatsEnabled() const;
    void StartHeartbeats();
    void StopHeartbeats();
    void ArmHeartbeat(SctpPath& path, Time anchor);
    void OnHeartbeatTimer(uint32_t index);
    void SendHeartbeat(SctpPath& path);
    void OnHeartbeatResponseTimer(uint32_t index);
    Time HeartbeatPeriod(const SctpPath& path);

    // ---- sctp-socket-prsctp.cc: partial reliability (RFC 3758, RFC 7496) ----
    bool PolicyAbandons(const SctpTxChunk& chunk, Time now) const;
    void AbandonMessage(Ptr<SctpOutboundMessage> message, SctpPrPolicy reason);
    void AbandonExpiredUnsent(Time now);
    bool MakeRoomByPriority(uint32_t size, uint32_t priority);
    void AdvancePeerAckPoint(Time now);
    void QueueForwardTsn();
    void AccountDelivered(std::size_t before);
    bool HandleUnknownChunk(const SctpChunk& chunk, std::vector<SctpTlv>& report);
    void ProtocolViolation(const std::string& what);

    // ---- sctp-socket-tx.cc: send side ----
    uint32_t GetMaxPayload(const SctpPath& path) const;
    void SendPending();
    bool BuildAndSendPacket(SctpPath& path,
                            bool fastRetransmitOnly,
                            bool allowNewData,
                            bool& sentNewData);
    void TransmitChunk(SctpTxChunk& chunk, SctpPath& path, bool retransmission);
    void HandleSack(const SctpChunk& chunk);
    void ProcessCumulativeAck(uint32_t cumTsnAck, uint32_t aRwnd, bool fromShutdown);
    void HandleSackAcked(uint32_t cumTsnAck,
                         uint32_t aRwnd,
                         const std::vector<std::pair<uint16_t, uint16_t>>& gaps,
                         bool fromShutdown);
    /**
     * A newly acknowledged chunk leaves the flight and is credited to a destination;
     * \p wasMarked: it was marked for retransmission when the acknowledgement came (its
     * last transmission was classified lost; it belongs to the destination it was moved
     * to).
     */
    void AckChunk(SctpTxChunk& chunk, Time now, bool wasMarked);
    void MarkForRetransmit(SctpTxChunk& chunk, bool fast, uint32_t target);
    uint32_t GetTotalFlight() const;
    /** User bytes of the DATA chunk to be sent next (a retransmission first; 0 if none). */
    uint32_t NextChunkLength() const;
    void StartT3(SctpPath& path, bool restart);
    void StopT3(SctpPath& path);
    void OnT3Event(uint32_t pathIndex);
    void OnT3Expired(SctpPath& path);
    void NotifySpaceAvailable();

    // ---- sctp-socket-rx.cc: receive side ----
    /** \return false if the association was aborted (stop processing the packet). */
    bool HandleData(const SctpChunk& chunk, bool& needImmediateSack, bool& gotNewData);
    void AfterDataPacket(bool hadData, bool needImmediateSack);
    void BuildSack(SctpByteWriter& w);
    void OnDelayedSackTimer();
    uint32_t GetAdvertisedWindow() const;
    void DeliverReceived();

    // Configuration (attributes)
    uint32_t m_sndBufSize;
    uint32_t m_rcvBufSize;
    uint16_t m_numOutStreams;
    uint16_t m_maxInStreams;
    uint16_t m_defaultStream;
    uint32_t m_defaultPpid;
    bool m_defaultUnordered;
    Time m_rtoInitial;
    Time m_rtoMin;
    Time m_rtoMax;
    double m_rtoAlpha;
    double m_rtoBeta;
    uint32_t m_maxBurst;
    Time m_validCookieLife;
    uint32_t m_assocMaxRetrans;
    uint32_t m_pathMaxRetrans;
    uint32_t m_maxInitRetransmits;
    Time m_hbInterval;
    Time m_sackDelay;
    uint32_t m_sackFrequency;
    uint32_t m_fastRtxTrigger;
    uint32_t m_initialCwnd;
    uint32_t m_initialSsthresh;
    uint32_t m_maxSegment;
    uint32_t m_mtu;
    bool m_useCookiePreservative;
    Address m_primaryAddressAttribute; //!< PrimaryAddress attribute (IP as Address)
    uint32_t m_hbMaxBurst;
    SctpHeartbeatMode m_heartbeatMode;
    SctpRtxToAlt m_rtxToAlt;
    SctpDormantAction m_dormantAction;
    bool m_returnToPrimary;
    int32_t m_changePrimaryThresh;
    uint32_t m_pfMaxRetrans;      //!< RFC 7829 PotentiallyFailed.Max.Retrans (PFMR)
    uint32_t m_psMaxRetrans;      //!< RFC 7829 Primary.Switchover.Max.Retrans (PSMR)
    bool m_sourceFailover;
    bool m_prSctpEnabled;
    SctpPrPolicy m_defaultPrPolicy;
    uint32_t m_defaultPrValue;

    // Endpoint
    Ptr<Node> m_node;
    Ptr<SctpL4Protocol> m_sctp;
    Ptr<NetDevice> m_boundDevice;
    mutable SocketErrno m_errno{ERROR_NOTERROR};
    bool m_bound{false};
    bool m_ipv6{false};
    Address m_localAddress; //!< IP address bound (Any if none; the first of a list)
    std::vector<Address> m_boundAddresses; //!< BindAdd list (empty: m_localAddress only)
    std::vector<Address> m_localList;      //!< local addresses of the association
    uint16_t m_localPort{0};
    bool m_shutdownSend{false};
    bool m_shutdownRecv{false};
    bool m_closeRequested{false};
    bool m_registered{false}; //!< association registered in the L4 demux
    bool m_processingPacket{false}; //!< inside ProcessChunks: sending waits for its end

    // Association
    TracedValue<SctpState> m_state;
    uint32_t m_localTag{0};
    uint32_t m_peerTag{0};
    /** RFC 9260 5.2.2: random Tie-Tags of this TCB (0 = none drawn yet); they stand for
     * the association in cookies instead of the verification tags, which stay secret. */
    uint32_t m_localTieTag{0};
    uint32_t m_peerTieTag{0};
    uint32_t m_peerInitialRwnd{0}; //!< the peer's a_rwnd from INIT / INIT ACK (its buffer)
    bool m_zeroWindowProbe{false}; //!< a DATA chunk was sent into a closed window (6.1 A)
    bool m_sackDuringProbe{false}; //!< and the peer has SACKed since (it is alive)
    uint16_t m_peerPort{0};
    Address m_peerConnectAddress; //!< address given to Connect()
    std::vector<Ptr<SctpPath>> m_paths;
    uint32_t m_primaryPath{0};
    uint32_t m_dataPath{0};       //!< destination of new data (primary or an alternate)
    int32_t m_lastDataSource{-1}; //!< path whose address sent the latest DATA (SACK target)
    Address m_lastDataLocal;       //!< our address the latest DATA arrived at (SACK source)
    bool m_heartbeatsRunning{false};
    uint32_t m_localInitialTsn{0};
    uint16_t m_outStreams{0};
    uint16_t m_inStreams{0};
    bool m_peerForwardTsn{false};
    uint32_t m_assocErrorCount{0};

    // Handshake and shutdown timers
    EventId m_t1Event;
    uint32_t m_t1Count{0};
    uint32_t m_initRestarts{0};
    Time m_t1Rto;
    std::vector<uint8_t> m_cookieEcho; //!< the cookie to echo (COOKIE-ECHOED)
    uint32_t m_cookiePreservativeMs{0};
    EventId m_t2Event;
    Time m_t2Rto;
    EventId m_t5Event;

    // Send side
    SctpTxQueue m_txQueue;
    uint32_t m_peerRwnd{0};
    uint32_t m_cumTsnAcked{0};
    bool m_fastRecovery{false};
    uint32_t m_fastRecoveryExit{0};
    uint32_t m_markedForRetransmit{0}; //!< chunks marked for retransmission
    uint32_t m_gapAckedChunks{0};      //!< outstanding chunks currently gap-acked
    bool m_fastRtxPending{false};      //!< send one packet of fast retransmissions now
    uint32_t m_advancedPeerAckPoint{0}; //!< RFC 3758 Advanced.Peer.Ack.Point
    bool m_forwardTsnPending{false};    //!< a FORWARD TSN is to lead the next packet
    bool m_abandonedSpace{false};       //!< abandoning freed send buffer: tell the user
    SctpSackChunk m_sackIn;            //!< scratch: the SACK being processed
    std::vector<uint32_t> m_ackedPerPath;
    /** Scratch: the SACK being processed acknowledges a chunk sent to the destination
     * once and not moved elsewhere: its error counter is cleared (8.2, AckChunk). */
    std::vector<uint8_t> m_deliveredPerPath;
    std::vector<uint32_t> m_flightBefore;
    std::vector<std::pair<uint32_t, uint32_t>> m_gapRanges; //!< scratch: absolute TSN ranges
    std::vector<uint32_t> m_reneged;      //!< scratch: TSNs reneged by the SACK being processed
    std::vector<uint32_t> m_fastRtxReduce; //!< scratch: paths whose cwnd a fast retransmit cuts

    // Receive side
    SctpTsnMap m_tsnMap;
    SctpReassemblyQueue m_reassembly;
    std::deque<SctpReceivedMessage> m_rxMessages;
    uint32_t m_rxMessageBytes{0};
    bool m_sackNeeded{false};
    uint32_t m_packetsSinceSack{0};
    EventId m_sackTimer;
    uint32_t m_lastAdvertisedWindow{0};
    SctpSackChunk m_sackOut; //!< scratch: the SACK being built

    // Scratch buffers reused for every outgoing packet
    std::vector<uint8_t> m_txBuffer;
    std::vector<SctpTlv> m_causeScratch;
    std::vector<uint8_t> m_controlChunks; //!< control chunks waiting to lead the next packet
    EventId m_windowUpdateEvent;

    // Counters
    uint32_t m_fastRetransmits{0};
    uint32_t m_timeouts{0};
    uint32_t m_retransmittedChunks{0};
    uint32_t m_restarts{0};
    uint64_t m_deliveredBytes{0};
    uint16_t m_lastAbortCause{0};
    uint32_t m_abandonedMessages{0};
    uint32_t m_abandonedUnsent{0};
    uint32_t m_forwardTsnSent{0};
    uint32_t m_forwardTsnReceived{0};
    uint32_t m_heartbeatsSent{0};
    uint32_t m_heartbeatAcks{0};

    // Traces
    TracedValue<uint32_t> m_cwndTrace;     //!< primary path cwnd
    TracedValue<uint32_t> m_ssthreshTrace; //!< primary path ssthresh
    TracedValue<Time> m_rtoTrace;          //!< primary path RTO
    TracedValue<Time> m_rttTrace;          //!< last RTT sample
    TracedValue<uint32_t> m_peerRwndTrace;
    TracedCallback<uint8_t, uint8_t, uint16_t, uint32_t> m_txChunkTrace;
    TracedCallback<uint8_t, uint8_t, uint16_t, uint32_t> m_rxChunkTrace;
    TracedCallback<uint32_t, bool> m_retransmissionTrace;
    TracedCallback<Ptr<const Packet>, uint16_t, uint16_t, uint32_t> m_deliverTrace;
    TracedCallback<uint8_t, uint32_t, uint32_t, bool> m_chunkPathTrace;
    TracedCallback<uint32_t, SctpPathEvent> m_pathEventTrace;
    TracedCallback<uint16_t, uint16_t, uint32_t, uint32_t, SctpPrPolicy> m_abandonTrace;

  public:
    /** Trace signature of the Deliver source: message, stream, SSN, TSN. */
    typedef void (*DeliverTracedCallback)(Ptr<const Packet> message,
                                          uint16_t streamId,
                                          uint16_t ssn,
                                          uint32_t tsn);

  private:

    void UpdatePrimaryTraces();
};

} // namespace ns3

#endif /* SCTP_SOCKET_H */
