/*
 * SCTP as an ns-3 IP transport protocol (IP protocol 132): checksum verification,
 * demultiplexing of packets to associations and listening sockets, port allocation,
 * and the handling of out-of-the-blue packets (RFC 9260 section 8.4).
 */
#ifndef SCTP_L4_PROTOCOL_H
#define SCTP_L4_PROTOCOL_H

#include "sctp-chunk.h"
#include "sctp-header.h"

#include "ns3/ip-l4-protocol.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-interface.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv6-address.h"
#include "ns3/ipv6-header.h"
#include "ns3/ipv6-interface.h"
#include "ns3/ipv6-route.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/random-variable-stream.h"
#include "ns3/socket.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

class SctpAssociation;
class SctpSocket;

/**
 * \ingroup sctp
 * \brief The SCTP transport protocol of a node.
 */
class SctpL4Protocol : public IpL4Protocol
{
  public:
    static TypeId GetTypeId();
    static const uint8_t PROT_NUMBER = 132;

    SctpL4Protocol();
    ~SctpL4Protocol() override;

    void SetNode(Ptr<Node> node);
    Ptr<Node> GetNode() const;

    /** Create an SCTP socket on this node. */
    Ptr<Socket> CreateSocket();

    /**
     * Assign a fixed random stream number to the random variables (verification tags,
     * initial TSNs, cookie secret). \return the number of streams used.
     */
    int64_t AssignStreams(int64_t stream);

    // IpL4Protocol
    int GetProtocolNumber() const override;
    RxStatus Receive(Ptr<Packet> p,
                     const Ipv4Header& header,
                     Ptr<Ipv4Interface> incomingInterface) override;
    RxStatus Receive(Ptr<Packet> p,
                     const Ipv6Header& header,
                     Ptr<Ipv6Interface> incomingInterface) override;
    void SetDownTarget(IpL4Protocol::DownTargetCallback cb) override;
    void SetDownTarget6(IpL4Protocol::DownTargetCallback6 cb) override;
    IpL4Protocol::DownTargetCallback GetDownTarget() const override;
    IpL4Protocol::DownTargetCallback6 GetDownTarget6() const override;

    /**
     * Process the bytes of an SCTP packet (common header first) as if IP had delivered
     * them from \p source to \p destination. This is Receive() without the ns-3 Packet
     * and IP header; SctpPacketInjector and the fuzz tests use it.
     */
    RxStatus ReceiveBytes(const uint8_t* data,
                          uint32_t length,
                          const Address& source,
                          const Address& destination);

    // ---- services for SctpSocket ----
    /** \return false if \p port is taken on \p address. Port 0 allocates one. */
    bool Bind(Ptr<SctpSocket> socket, const Address& address, uint16_t& port);
    void Unbind(Ptr<SctpSocket> socket);
    /**
     * Make (local port, peer port, peer address) lead to \p association. An entry of
     * another association is never overwritten (a forged or replayed COOKIE ECHO must not
     * take a live association's traffic, RFC 9260 5.2.4): \return false then.
     */
    bool RegisterAssociation(Ptr<SctpAssociation> association,
                             uint16_t localPort,
                             uint16_t peerPort,
                             const Address& peerAddress);
    /** The association of (local port, peer port, peer address), or null. */
    Ptr<SctpAssociation> FindAssociation(uint16_t localPort,
                                         uint16_t peerPort,
                                         const Address& peerAddress) const;
    void UnregisterAssociation(Ptr<SctpAssociation> association);
    /** Every registered association, once (for checks of all of them). */
    std::vector<Ptr<SctpAssociation>> GetAssociations() const;
    /**
     * Forget \p socket entirely (bindings, associations, timers) without sending
     * anything: what a host crash looks like to the peer (restart tests).
     */
    void RemoveSocket(Ptr<SctpSocket> socket);
    void AddSocket(Ptr<SctpSocket> socket);

    /**
     * Compute the checksum of \p packet (common header first), wrap it in an ns-3 Packet
     * and send it to \p destination. \p source may be the any-address: the route decides.
     * \return false if there is no route.
     */
    bool SendPacket(std::vector<uint8_t>& packet,
                    const Address& source,
                    const Address& destination,
                    Ptr<NetDevice> outputDevice);

    /** Source address the node would use towards \p destination (Any if no route). */
    Address GetSourceAddress(const Address& destination, Ptr<NetDevice> outputDevice) const;
    /** MTU of the interface the route to \p destination leaves by (0 if no route). */
    uint32_t GetPathMtu(const Address& destination, Ptr<NetDevice> outputDevice) const;
    /** Unicast addresses of this node (IPv4 or IPv6), loopback excluded. */
    std::vector<Address> GetLocalAddresses(bool ipv6) const;
    /** \return true if \p address is one of this node's addresses. */
    bool IsLocalAddress(const Address& address) const;
    /** The device of the interface that has the local address \p address (or nullptr). */
    Ptr<NetDevice> GetDeviceForAddress(const Address& address) const;

    /** The endpoint's secret key for State Cookie MACs. */
    const std::vector<uint8_t>& GetSecretKey() const;
    /** A random non-zero verification tag (section 5.3.1). */
    uint32_t GenerateTag();
    /** A random initial TSN. */
    uint32_t GenerateTsn();
    /** A random 64-bit nonce for path verification HEARTBEATs (RFC 9260 section 5.4). */
    uint64_t GenerateNonce();
    /** A uniform random number in [min, max) (heartbeat jitter). */
    double DrawUniform(double min, double max);

    // Counters (tests)
    uint32_t GetChecksumErrors() const;
    uint32_t GetOutOfTheBluePackets() const;
    uint32_t GetDiscardedPackets() const;

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    struct AssociationKey
    {
        uint16_t localPort;
        uint16_t peerPort;
        Address peerAddress;

        bool operator<(const AssociationKey& o) const
        {
            if (localPort != o.localPort)
            {
                return localPort < o.localPort;
            }
            if (peerPort != o.peerPort)
            {
                return peerPort < o.peerPort;
            }
            return peerAddress < o.peerAddress;
        }
    };

    struct Binding
    {
        Ptr<SctpSocket> socket;
        Address address; //!< bound IP (Ipv4Address::GetAny() if any)
        uint16_t port;
    };

    Ptr<SctpSocket> FindListener(uint16_t port, const Address& destination) const;
    /**
     * RFC 9260 section 5.1.2: an INIT or INIT ACK belongs to an existing association if
     * one of the addresses it lists identifies it.
     */
    Ptr<SctpAssociation> FindByListedAddress(const SctpCommonHeader& header,
                                        const SctpChunk& chunk) const;
    void HandleOutOfTheBlue(const SctpCommonHeader& header,
                            const std::vector<SctpChunk>& chunks,
                            const Address& source,
                            const Address& destination);
    void SendOotbResponse(uint8_t chunkType,
                          uint32_t tag,
                          bool tBit,
                          const SctpCommonHeader& header,
                          const Address& source,
                          const Address& destination,
                          const std::vector<SctpTlv>& causes);
    uint16_t AllocateEphemeralPort();
    bool IsPortInUse(uint16_t port, const Address& address, Ptr<SctpSocket> socket) const;

    Ptr<Node> m_node;
    IpL4Protocol::DownTargetCallback m_downTarget;
    IpL4Protocol::DownTargetCallback6 m_downTarget6;
    std::vector<Ptr<SctpSocket>> m_sockets;
    std::vector<Binding> m_bindings;
    std::map<AssociationKey, Ptr<SctpAssociation>> m_associations;
    uint16_t m_nextEphemeralPort{49152};
    TypeId m_congestionTypeId; //!< the CongestionOps attribute

    Ptr<UniformRandomVariable> m_random;
    std::vector<uint8_t> m_secretKey;
    uint32_t m_secretKeyLength;

    std::vector<uint8_t> m_rxScratch;
    std::vector<SctpChunk> m_chunkScratch;
    bool m_inReceive{false};

    uint32_t m_checksumErrors{0};
    uint32_t m_ootbPackets{0};
    uint32_t m_discardedPackets{0};

    TracedCallback<const Address&, const std::string&> m_dropTrace;
    TracedCallback<Ptr<SctpSocket>> m_socketCreatedTrace;

  public:
    /** Trace signature of SocketCreated. */
    typedef void (*SocketTracedCallback)(Ptr<SctpSocket> socket);
};

} // namespace ns3

#endif /* SCTP_L4_PROTOCOL_H */
