/*
 * One SCTP association (RFC 9260): its state machine (section 4), verification tags and
 * tie-tags, stream counts, the handshake and shutdown timers T1, T2 and T5, the control
 * chunks (INIT, INIT ACK, COOKIE ECHO / ACK, SHUTDOWN*, ABORT, ERROR, HEARTBEAT
 * answers), the verification tag rules (8.5) and the dispatch of received chunks to its
 * parts:
 *
 *   SctpSender       transmission queue, bundling into packets, peer window, SACK
 *                    processing, fast recovery, retransmissions, zero window probing,
 *                    PR-SCTP (sctp-sender.h)
 *   SctpReceiver     TSN map, reassembly, SACK timer and building, FORWARD TSN
 *                    (sctp-receiver.h)
 *   SctpPathManager  destinations, primary and data path, source addresses, failure
 *                    detection, HEARTBEATs, SCTP-PF (sctp-path-manager.h)
 *   SctpCongestionOps  the congestion control, chosen by attribute
 *
 * The association works for its SctpSocket: it reads the socket's configuration
 * (SctpProtocolParameters, SctpAssociationConfig), fires the socket's trace sources
 * (SctpAssociationTraces) and calls back into the socket to deliver messages and to
 * notify the application. A listening socket's association stays in LISTEN: it answers
 * INIT without keeping state and creates a new socket for each valid COOKIE ECHO.
 * SctpL4Protocol maps (local port, peer port, peer address) to associations.
 */
#ifndef SCTP_ASSOCIATION_H
#define SCTP_ASSOCIATION_H

#include "sctp-association-traces.h"
#include "sctp-chunk.h"
#include "sctp-congestion-ops.h"
#include "sctp-cookie.h"
#include "sctp-header.h"
#include "sctp-path-manager.h"
#include "sctp-protocol-parameters.h"
#include "sctp-receiver.h"
#include "sctp-sender.h"
#include "sctp-stream-reconfig.h"

#include "ns3/address.h"
#include "ns3/event-id.h"
#include "ns3/net-device.h"
#include "ns3/object.h"
#include "ns3/socket.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ns3
{

class SctpL4Protocol;
class SctpSocket;

/**
 * \ingroup sctp
 * \brief An SCTP association: state machine, control chunks and its parts.
 */
class SctpAssociation : public Object
{
  public:
    static TypeId GetTypeId();
    SctpAssociation();
    ~SctpAssociation() override;

    /**
     * The socket this association works for (it owns the association): configuration,
     * endpoint, trace sources and the application come from there.
     */
    void SetSocket(SctpSocket* socket);
    Ptr<SctpSocket> GetSocket() const;
    /** The node's SCTP (the socket's). */
    void SetSctp(Ptr<SctpL4Protocol> sctp);
    void SetCongestionOps(Ptr<SctpCongestionOps> algorithm);
    Ptr<SctpCongestionOps> GetCongestionOps() const;

    /** \name Primitives of section 11.1, called by the socket */
    //!@{
    /** ASSOCIATE (11.1 B): INIT to \p peer (an IP address as Address) on \p peerPort. */
    void Associate(const Address& peer, uint16_t peerPort);
    /** The socket listens: INIT and COOKIE ECHO create associations (new sockets). */
    void Listen();
    /** A listening socket stops listening. */
    void StopListening();
    /** SHUTDOWN (11.1 C) once queued data is acknowledged; \p sendOnly: SHUT_WR. */
    int Close();
    void ShutdownSend();
    /** ABORT (11.1 D). \return false if there is no association. */
    bool Abort();
    /**
     * SEND (11.1 E) of \p message, checked against the peer's buffer, the socket's send
     * buffer (a PRIORITY message may make room, RFC 7496 4.3) and the streams.
     * \return ERROR_NOTERROR, or the SocketErrno that refuses it.
     */
    Socket::SocketErrno Send(Ptr<SctpOutboundMessage> message);
    /** Send the messages the user queued, as far as the windows allow. */
    void SendPending();
    /** The application read messages: announce a window that opened (SWS avoidance). */
    void OnWindowUpdate();
    /** SET PRIMARY (11.1 N). \return false if \p peer is not a destination. */
    bool SetPrimaryPath(const Address& peer);
    /** REQUEST HEARTBEAT (11.1 L). \return false for no such path or no association. */
    bool RequestHeartbeat(uint32_t index);
    //!@}

    /** Called by SctpL4Protocol: a packet for this association or listening socket. */
    void ReceivePacket(const SctpCommonHeader& header,
                       const std::vector<SctpChunk>& chunks,
                       const Address& source,
                       const Address& destination);
    /** Cancel every timer, the socket's window update too (a crash, a restart, the end). */
    void CancelAllTimers();

    /** \name State and inspection */
    //!@{
    SctpState GetState() const;
    /** Neither CLOSED nor LISTEN. */
    bool IsAlive() const;
    /** Up: ESTABLISHED or a SHUTDOWN state (past COOKIE-WAIT and COOKIE-ECHOED). */
    bool IsUp() const;
    uint32_t GetLocalVerificationTag() const;
    uint32_t GetPeerVerificationTag() const;
    uint16_t GetLocalPort() const;
    uint16_t GetPeerPort() const;
    uint16_t GetOutboundStreams() const;
    uint16_t GetInboundStreams() const;
    /** Both ends announced Forward-TSN-Supported (RFC 3758). */
    bool IsPrSctpActive() const;
    /**
     * Both endpoints announced I-DATA (RFC 8260 2.2): this endpoint's IDataSupported and
     * chunk type 64 in the peer's Supported Extensions. Negotiation only: the
     * association still sends DATA chunks.
     */
    bool IsIDataNegotiated() const;
    /**
     * Both endpoints announced RE-CONFIG (RFC 6525 section 3): this endpoint's
     * ReconfigSupported and chunk type 130 in the peer's Supported Extensions.
     */
    bool IsReconfigNegotiated() const;
    /** Stream reconfiguration (RFC 6525): the socket's requests go there. */
    SctpStreamReconfig& GetStreamReconfig();
    /** The user asked to shut down sending (Close, ShutdownSend). */
    bool IsClosing() const;
    uint32_t GetRestartCount() const;
    uint16_t GetLastAbortCause() const;
    SctpSender& GetSender();
    const SctpSender& GetSender() const;
    SctpReceiver& GetReceiver();
    const SctpReceiver& GetReceiver() const;
    SctpPathManager& GetPathManager();
    const SctpPathManager& GetPathManager() const;
    /**
     * Consistency check of the bookkeeping (flight sizes, queue order, TSN map): an
     * empty string when consistent, otherwise a description.
     */
    std::string CheckInvariants() const;
    //!@}

    /**
     * \name Services for the association's parts (SctpSender, SctpReceiver,
     * SctpPathManager)
     */
    //!@{
    const SctpProtocolParameters& GetParameters() const;
    const SctpAssociationConfig& GetConfig() const;
    SctpAssociationTraces& GetTraces();
    Ptr<SctpL4Protocol> GetSctp() const;
    /** The IP address the socket is bound to (the any-address if none). */
    const Address& GetBoundAddress() const;
    Ptr<NetDevice> GetBoundDevice() const;
    /** The local addresses the association may use (the socket's bound list or all). */
    std::vector<Address> GetLocalAddresses() const;
    /** Free bytes of the socket's send buffer. */
    uint32_t GetTxAvailable() const;
    /** Inside the processing of a received packet (sending waits for its end). */
    bool IsProcessingPacket() const;
    /** A control chunk to lead the next packet to the peer (section 6.10). */
    void QueueControlChunk(const std::vector<uint8_t>& chunkBytes);
    /**
     * Write what leads a packet to \p path: queued control chunks, then the SACK if one
     * is due. \return true if there was any (the packet is then a reply, 6.4).
     */
    bool WriteLeadingChunks(SctpByteWriter& w, SctpPath& path);
    /** Control chunks or a SACK wait for the next packet. */
    bool HasLeadingChunks() const;
    /** An ERROR chunk with \p causes (as many as fit) to lead the next packet. */
    void SendError(const std::vector<SctpTlv>& causes);
    /** ABORT with \p causes to the peer's tag. */
    void SendAbort(const std::vector<SctpTlv>& causes);
    /** ABORT with a Protocol Violation cause and the end of the association. */
    void ProtocolViolation(const std::string& what);
    /** The association ends: timers, registration and data go; the user is told. */
    void DeleteAssociation(bool notifyNormal, bool notifyError);
    /**
     * One more consecutive error for the association (8.1). \return false if that
     * exceeded Association.Max.Retrans: the association was aborted.
     */
    bool CountAssociationError();
    /** The peer proved alive (a SACK, a HEARTBEAT ACK): the error counter restarts. */
    void ResetAssociationErrors();
    /** SHUTDOWN-PENDING / -RECEIVED: send SHUTDOWN / SHUTDOWN ACK once all is acked. */
    void CheckShutdownProgress();
    /** (Re)start T2-shutdown (section 9.2). */
    void StartT2();
    /** Send \p chunks to \p destination from \p source (or the route's) right away. */
    void SendControlTo(uint32_t verificationTag,
                       const std::vector<uint8_t>& chunks,
                       const Address& destination,
                       const Address& source,
                       Ptr<NetDevice> device = nullptr);
    /** \name Upcalls into the socket */
    void NotifyDataSent(uint32_t bytes);
    void NotifySpaceAvailable();
    /**
     * Complete messages for the application (moved out of \p messages; the caller
     * clears it). \return true if the socket's receive queue grew.
     */
    bool DeliverMessages(std::deque<SctpReceivedMessage>& messages);
    void NotifyMessagesReady();
    /** User bytes delivered but not read yet (they occupy the receive buffer). */
    uint32_t GetUnreadBytes() const;
    //!@}

    /** Trace signature of the State source. */
    typedef void (*StateTracedCallback)(SctpState oldState, SctpState newState);

  protected:
    void DoDispose() override;

    // Stream reconfiguration changes the negotiated stream counts (RFC 6525 5.1.5, 5.2.5).
    friend class SctpStreamReconfig;

  private:
    // ---- sctp-association.cc: state machine, timers, control chunks, dispatch
    void SetState(SctpState state);
    void NewAssociation(uint32_t localTag, uint32_t localInitialTsn);
    void InitializeTransfer(uint32_t peerInitialTsn,
                            uint32_t peerRwnd,
                            uint16_t outboundStreams,
                            uint16_t inboundStreams);
    std::vector<SctpTlv> LocalAddressParameters() const;
    void SendInit();
    void SendCookieEcho();
    void SendControl(uint32_t verificationTag, const std::vector<uint8_t>& chunks);
    /** A control packet with the given ports (an answer without a TCB). */
    void SendControlFrom(uint16_t localPort,
                         uint16_t peerPort,
                         uint32_t verificationTag,
                         const std::vector<uint8_t>& chunks,
                         const Address& destination,
                         const Address& source,
                         Ptr<NetDevice> device);
    /** ABORT without a TCB (the ports and tags of the packet answered). */
    void SendAbortOnly(uint32_t tag,
                       bool tBit,
                       const std::vector<SctpTlv>& causes,
                       uint16_t localPort,
                       uint16_t peerPort,
                       const Address& destination,
                       const Address& source);
    void SendShutdown();
    void SendShutdownAck();
    void SendShutdownComplete(bool tBit);
    void StartT1();
    void OnT1Expired();
    void OnT2Expired();
    void OnT5Expired();
    bool CheckVerificationTag(const SctpCommonHeader& header,
                              const std::vector<SctpChunk>& chunks,
                              const Address& source,
                              const Address& destination);
    void ProcessChunks(const SctpCommonHeader& header,
                       const std::vector<SctpChunk>& chunks,
                       std::size_t first,
                       const Address& source,
                       const Address& destination);
    bool HandleUnknownChunk(const SctpChunk& chunk, std::vector<SctpTlv>& report);
    void HandleAbort(const SctpChunk& chunk);
    void HandleShutdown(const SctpChunk& chunk);
    void HandleShutdownAck(const SctpCommonHeader& header);
    void HandleShutdownComplete();
    void HandleError(const SctpChunk& chunk);
    void HandleHeartbeat(const SctpChunk& chunk,
                         const Address& source,
                         const Address& destination);

    // ---- sctp-association-setup.cc: set-up, collisions and restart (5.1, 5.2)
    bool CollectPeerAddresses(const SctpInitChunk& init,
                              const Address& source,
                              std::vector<Address>& out,
                              std::vector<SctpTlv>& unrecognized,
                              uint16_t& abortCause);
    /**
     * Sections 5.2.2 and 5.2.4.1: if \p addresses holds one the association does not
     * know, send an ABORT (cause 11, with that address) to \p peerTag and return true.
     */
    bool RejectRestartWithNewAddresses(const std::vector<Address>& addresses,
                                       uint32_t peerTag,
                                       const SctpCommonHeader& header,
                                       const Address& source,
                                       const Address& destination);
    bool HandleInit(const SctpCommonHeader& header,
                    const SctpChunk& chunk,
                    const Address& source,
                    const Address& destination);
    bool HandleInitAck(const SctpChunk& chunk, const Address& source);
    Ptr<SctpAssociation> HandleCookieEcho(const SctpCommonHeader& header,
                                          const SctpChunk& chunk,
                                          const Address& source,
                                          const Address& destination);
    void EstablishFromCookie(const SctpCookie& cookie,
                             const Address& source,
                             const Address& destination);
    void HandleCookieAck();
    void EnterEstablished();

    SctpSocket* m_socket{nullptr}; //!< owns this association
    Ptr<SctpL4Protocol> m_sctp;
    Ptr<SctpCongestionOps> m_congestionOps;
    SctpSender m_sender;
    SctpReceiver m_receiver;
    SctpPathManager m_pathManager;
    SctpStreamReconfig m_reconfig;

    // State, tags and streams
    SctpState m_state{SCTP_CLOSED};
    uint32_t m_localTag{0};
    uint32_t m_peerTag{0};
    /** RFC 9260 5.2.2: random Tie-Tags of this TCB (0 = none drawn yet); they stand for
     * the association in cookies instead of the verification tags, which stay secret. */
    uint32_t m_localTieTag{0};
    uint32_t m_peerTieTag{0};
    uint32_t m_localInitialTsn{0};
    uint16_t m_localPort{0};
    uint16_t m_peerPort{0};
    Address m_peerConnectAddress; //!< address given to Associate()
    uint16_t m_outStreams{0};
    uint16_t m_inStreams{0};
    bool m_peerForwardTsn{false};
    bool m_peerIData{false}; //!< the peer listed I-DATA in Supported Extensions
    bool m_peerReconfig{false}; //!< the peer listed RE-CONFIG in Supported Extensions
    uint32_t m_assocErrorCount{0};
    bool m_closeRequested{false};
    bool m_shutdownSend{false};
    bool m_registered{false};       //!< registered in the L4 demux
    bool m_processingPacket{false}; //!< inside ProcessChunks: sending waits for its end

    // Handshake and shutdown timers
    EventId m_t1Event;
    uint32_t m_t1Count{0};
    Time m_t1Rto;
    std::vector<uint8_t> m_cookieEcho; //!< the cookie to echo (COOKIE-ECHOED)
    uint32_t m_cookiePreservativeMs{0};
    EventId m_t2Event;
    Time m_t2Rto;
    EventId m_t5Event;

    std::vector<uint8_t> m_controlChunks; //!< control chunks waiting to lead the next packet
    std::vector<uint8_t> m_txBuffer;      //!< scratch: a control packet

    uint32_t m_restarts{0};
    uint16_t m_lastAbortCause{0};
};

} // namespace ns3

#endif /* SCTP_ASSOCIATION_H */
