/*
 * SIP over a connection-oriented transport (RFC 3261 section 18): TCP, and
 * SCTP through SipSctpTransport. Connections are opened on demand, indexed by
 * the far end's address and port, shared by client and server transactions,
 * and kept open.
 */
#ifndef SIP_STREAM_TRANSPORT_H
#define SIP_STREAM_TRANSPORT_H

#include "sip-stream-framer.h"
#include "sip-transport.h"

#include "ns3/address.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/type-id.h"

#include <deque>
#include <map>
#include <string>
#include <utility>

namespace ns3
{

/**
 * \ingroup sip
 * \brief SIP over connected sockets (TCP by default).
 *
 * The transport listens on Port. To send, it uses (RFC 3261 section 18):
 *  - for a response, the connection its request arrived on, if
 *    ResponsesOnIncomingConnection is true and that connection is still open;
 *  - otherwise a connection to the destination address and port: one it
 *    opened itself, or (if SendOnAcceptedConnections) one the peer opened
 *    from that address and port;
 *  - otherwise a new connection, from OutboundPort (0: an ephemeral port).
 *
 * With AliasIncomingConnections, a connection the peer opened is also indexed
 * under the sent-by address of the requests that arrive on it (when that is
 * the address the connection comes from), so that requests to the peer reuse
 * it: the "alias" of RFC 5923, and one connection per pair of elements.
 *
 * With the defaults this is RFC 3261's behaviour. The SCTP testbed of seed
 * 002 (Partysip with inbound port 5060 and outbound port 5061, sending every
 * message through its outbound socket) is OutboundPort = 5061,
 * ResponsesOnIncomingConnection = false, SendOnAcceptedConnections = false at
 * the proxy: one association per user agent and direction.
 *
 * On a byte stream, messages are framed by Content-Length (SipStreamFramer);
 * a framing error closes the connection. With MessageBoundaries (SCTP) each
 * received packet is one whole message.
 */
class SipStreamTransport : public SipTransport
{
  public:
    static TypeId GetTypeId();
    SipStreamTransport();
    ~SipStreamTransport() override;

    void Start(Ptr<Node> node, Ipv4Address localAddress) override;
    void Stop() override;
    bool Send(Ptr<const SipMessage> message, const SipDestination& destination) override;
    bool IsReliable() const override;
    std::string GetProtocolName() const override;

    /** Number of connections currently open or being opened. */
    uint32_t GetConnectionCount() const;
    /** Number of connections opened by this transport since Start. */
    uint32_t GetOpenedConnectionCount() const;
    /** Socket of the \p i-th open connection (in order of creation), for inspection. */
    Ptr<Socket> GetConnectionSocket(uint32_t i) const;

  protected:
    /** State of one connection (association). */
    struct Connection
    {
        uint64_t id{0};
        Ptr<Socket> socket;
        Ipv4Address peer;
        uint16_t peerPort{0};
        bool accepted{false};  //!< opened by the peer
        bool connected{false}; //!< handshake complete
        /** Messages waiting for the handshake or for send-buffer space. */
        std::deque<std::pair<Ptr<Packet>, Ptr<const SipMessage>>> pending;
        std::deque<SipTransportEvent> pendingEvents;
        SipStreamFramer framer;
        /** SCTP: stream assigned to each stream key, and keys by stream. */
        std::map<std::string, uint16_t> streamOfKey;
        std::map<uint16_t, std::string> keyOfStream;
        std::map<uint16_t, uint64_t> streamLastUse;
        uint64_t useCounter{0};
    };

    void DoDispose() override;

    /** Hook: configure a new socket before Bind/Connect (e.g. SCTP stream counts). */
    virtual void ConfigureSocket(Ptr<Socket> socket);
    /**
     * Hook: the packet carrying \p text on \p connection for \p destination.
     * The default is the bare text; SCTP adds its send-parameter tag.
     * \param stream set to the stream used (0 if none)
     */
    virtual Ptr<Packet> MakePacket(const std::string& text,
                                   Connection& connection,
                                   const SipDestination& destination,
                                   uint16_t& stream);
    /** RFC 5923-style alias: index the connection under the request's sent-by. */
    void MessageParsed(Ptr<SipMessage> message, const SipSource& source) override;
    /** Hook: SCTP stream a received packet arrived on (0 by default). */
    virtual uint16_t GetReceivedStream(Ptr<Packet> packet) const;

    std::string m_socketFactory; //!< TypeId name of the socket factory (attribute)
    bool m_messageBoundaries;    //!< each received packet is one message (attribute)
    std::map<uint64_t, Connection> m_connections; //!< open connections by id

  private:
    Connection* FindConnection(uint64_t id);
    Connection* FindBySocket(Ptr<Socket> socket);
    Connection* FindForDestination(const SipDestination& destination, bool isResponse);
    Connection& OpenConnection(Ipv4Address address, uint16_t port);
    Connection& AddConnection(Ptr<Socket> socket, Ipv4Address peer, uint16_t peerPort, bool accepted);
    void WatchSocket(Ptr<Socket> socket);
    void RemoveConnection(uint64_t id, bool failed);
    void TrySend(Connection& connection);

    void HandleAccept(Ptr<Socket> socket, const Address& from);
    void HandleConnected(Ptr<Socket> socket);
    void HandleConnectFailed(Ptr<Socket> socket);
    void HandleRead(Ptr<Socket> socket);
    void HandleSendSpace(Ptr<Socket> socket, uint32_t available);
    void HandleNormalClose(Ptr<Socket> socket);
    void HandleErrorClose(Ptr<Socket> socket);

    uint16_t m_outboundPort;
    bool m_responsesOnIncoming;
    bool m_sendOnAccepted;
    bool m_alias;
    Ptr<Socket> m_listener;
    std::map<std::pair<uint32_t, uint16_t>, uint64_t> m_originated; //!< by destination
    std::map<std::pair<uint32_t, uint16_t>, uint64_t> m_accepted;   //!< by peer address
    uint64_t m_nextConnectionId;
    uint32_t m_openedCount;
};

} // namespace ns3

#endif // SIP_STREAM_TRANSPORT_H
