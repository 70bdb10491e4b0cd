/*
 * The destinations of an SCTP association (RFC 9260 sections 5.1.2, 5.4, 6.4, 8.2, 8.3;
 * RFC 7829): one SctpPath per peer address, the primary path and the destination new
 * data goes to, alternate destinations for retransmissions, the source address (and
 * interface) each destination is sent from, failure detection with per-destination
 * error counters (active, potentially failed, inactive), HEARTBEATs on idle
 * destinations, path verification, Primary Path Switchover, and the primary path's
 * congestion window, ssthresh and RTO as the socket's traces.
 */
#ifndef SCTP_PATH_MANAGER_H
#define SCTP_PATH_MANAGER_H

#include "sctp-chunk.h"
#include "sctp-path.h"

#include "ns3/address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class SctpAssociation;
class SctpCongestionOps;

/**
 * \ingroup sctp
 * \brief Destinations, data path choice, heartbeats and SCTP-PF of an SctpAssociation.
 */
class SctpPathManager
{
  public:
    explicit SctpPathManager(SctpAssociation& association);

    /**
     * One path per address of \p peerAddresses (any earlier ones are dropped), with its
     * source address, path MTU and RTO.Initial; \p primary becomes the primary path.
     */
    void SetupPaths(const std::vector<Address>& peerAddresses, const Address& primary);
    /** Section 5.4: the confirmed destinations; the others are verified by HEARTBEAT. */
    void ConfirmPaths(const Address& confirmed);
    /** cwnd and ssthresh of every destination at the start of the association (7.2.1). */
    void InitializeCongestionControl(SctpCongestionOps& congestion, uint32_t peerRwnd);
    /** The PrimaryAddress attribute, if it names a destination. */
    void ApplyPrimaryAttribute();
    /** Stop heartbeats and cancel every path's timers. */
    void CancelTimers();
    /** Dispose of every path (the association goes away). */
    void Dispose();

    /** \name Destinations */
    //!@{
    uint32_t GetNPaths() const;
    bool IsEmpty() const;
    /** Path \p index (nullptr if there is none). */
    Ptr<SctpPath> GetPath(uint32_t index) const;
    /** Path \p index, which must exist. */
    SctpPath& At(uint32_t index) const;
    /** Index of the path to \p peer (an IP address, or an Inet(6)SocketAddress), or -1. */
    int32_t FindPath(const Address& peer) const;
    /** \return true if the association has a destination \p peer (an IP address). */
    bool HasAddress(const Address& peer) const;
    uint32_t GetPrimaryPathIndex() const;
    /** The primary path (nullptr before the association has paths). */
    Ptr<SctpPath> GetPrimaryPath() const;
    /** The destination new data currently goes to (the primary unless it failed). */
    uint32_t GetDataPathIndex() const;
    /** Active and confirmed (new data may go there). */
    bool IsPathUsable(const SctpPath& path) const;
    /** Choose the destination of new data now (section 6.4, 8.2; RFC 7829). */
    uint32_t SelectDataPath();
    /** HOP dormant action: new data to another destination. */
    void SetDataPath(uint32_t index);
    /** Where retransmissions of chunks sent to \p from go (6.4, RtxToAlt). */
    uint32_t RetransmissionPath(uint32_t from, bool fast) const;
    /** Where replies (SACK, ERROR) go: where the latest DATA came from (6.4). */
    uint32_t ReplyPath() const;
    /** The local address the latest DATA arrived at (replies leave from there). */
    const Address& GetReplySource() const;
    /** A packet with DATA arrived from path \p sourcePath (-1: unknown) at \p local. */
    void RecordDataArrival(int32_t sourcePath, const Address& local);
    /** Make \p index the primary path (SET PRIMARY, 6.4; PSMR, ChangePrimaryThresh). */
    void MakePrimary(uint32_t index);
    /** The current primary path's cwnd, ssthresh and RTO into the socket's traces. */
    void UpdatePrimaryTraces();
    //!@}

    /** \name Local addresses and sending */
    //!@{
    /** The association uses more than one local address (6.4.1). */
    bool IsLocallyMultihomed() const;
    /** The interface of one of our addresses (nullptr if none). */
    Ptr<NetDevice> DeviceForLocalAddress(const Address& local) const;
    /**
     * Choose the source address of \p path: the routing table's choice, or with
     * \p rotate another one (6.4.1 after a T3-rtx expiry).
     */
    void SelectSource(SctpPath& path, bool rotate);
    /**
     * Checksum and send \p packet to \p path's destination from its source address; a
     * reply (\p replySource valid) leaves from the address the peer's packet came to.
     * \return false if no route.
     */
    bool SendOnPath(SctpPath& path,
                    std::vector<uint8_t>& packet,
                    const Address& replySource = Address());
    //!@}

    /** \name Failure detection (8.2, RFC 7829) */
    //!@{
    /** An error on \p path: its counter grows; PF, inactive, switchover as they apply. */
    void RecordPathError(SctpPath& path);
    /** Data or a HEARTBEAT ACK shows \p path works: counter cleared, active again. */
    void MarkPathActive(SctpPath& path);
    //!@}

    /** \name Heartbeats (5.4, 8.3) */
    //!@{
    void StartHeartbeats();
    void StopHeartbeats();
    /** REQUEST HEARTBEAT on path \p index (no-op if one is outstanding). */
    void RequestHeartbeat(uint32_t index);
    void HandleHeartbeatAck(const SctpChunk& chunk, const Address& source);
    uint32_t GetHeartbeatCount() const;
    uint32_t GetHeartbeatAckCount() const;
    //!@}

    /** "" when indices are consistent, else what is wrong. */
    std::string CheckInvariants() const;

  private:
    static bool IsAnyAddress(const Address& ip);
    uint32_t AlternatePath(uint32_t from) const;
    void MarkPathInactive(SctpPath& path);
    void MarkPathPotentiallyFailed(SctpPath& path);
    /** A confirmed PF destination for new data when none is active (RFC 7829 3). */
    int32_t BestPotentiallyFailedPath() const;
    bool HeartbeatsEnabled() const;
    void ArmHeartbeat(SctpPath& path, Time anchor);
    void OnHeartbeatTimer(uint32_t index);
    void SendHeartbeat(SctpPath& path);
    void OnHeartbeatResponseTimer(uint32_t index);
    Time HeartbeatPeriod(const SctpPath& path);
    void OnT3Expired(uint32_t index);

    SctpAssociation& m_association;
    std::vector<Ptr<SctpPath>> m_paths;
    uint32_t m_primaryPath{0};
    uint32_t m_dataPath{0};        //!< destination of new data (primary or an alternate)
    int32_t m_lastDataSource{-1};  //!< path whose address sent the latest DATA (SACK target)
    Address m_lastDataLocal;       //!< our address the latest DATA arrived at (SACK source)
    std::vector<Address> m_localList; //!< local addresses of the association
    bool m_heartbeatsRunning{false};
    uint32_t m_heartbeatsSent{0};
    uint32_t m_heartbeatAcks{0};
    std::vector<uint8_t> m_txBuffer; //!< scratch: a HEARTBEAT packet
};

} // namespace ns3

#endif /* SCTP_PATH_MANAGER_H */
