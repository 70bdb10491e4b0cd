/*
 * The SIP transport layer (RFC 3261 section 18) as an abstract interface, so
 * that the transaction layer, user agents and proxy are the same over UDP,
 * TCP and SCTP.
 */
#ifndef SIP_TRANSPORT_H
#define SIP_TRANSPORT_H

#include "sip-message.h"

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup sip
 * Where a received message came from: the remote transport address and, on
 * connection-oriented transports, the connection (association) it arrived on,
 * so that responses can be sent back over it (RFC 3261 section 18.2.2).
 */
struct SipSource
{
    Ipv4Address address;
    uint16_t port{0};
    uint64_t connection{0}; //!< 0 on datagram transports
    uint16_t stream{0};     //!< SCTP stream the message arrived on (0 otherwise)
};

/**
 * \ingroup sip
 * Where to send a message.
 */
struct SipDestination
{
    Ipv4Address address;
    uint16_t port{5060};
    /** Connection a request arrived on, for its responses (0: none / any). */
    uint64_t connection{0};
    /**
     * Key grouping messages that belong together (the Call-ID): over SCTP,
     * messages with the same key go on the same stream (one stream per call).
     */
    std::string streamKey;
};

/**
 * \ingroup sip
 * One message passing the transport layer (for traces and recorders).
 */
struct SipTransportEvent
{
    Ipv4Address peer;        //!< remote address
    uint16_t peerPort{0};    //!< remote port
    uint64_t connection{0};  //!< connection / association id, 0 for UDP
    uint16_t stream{0};      //!< SCTP stream id, 0 otherwise
    uint32_t size{0};        //!< bytes of SIP text (without transport headers)
};

/**
 * \ingroup sip
 * \brief Abstract SIP transport: sends and receives whole SIP messages.
 *
 * Implementations: SipUdpTransport (datagrams), SipStreamTransport (TCP, and
 * SCTP through SipSctpTransport). A transport listens on its Port and hands
 * every well-formed received message to the receive callback; malformed ones
 * are dropped (and reported by the Drop trace), never fatal.
 */
class SipTransport : public Object
{
  public:
    /** Called for each received, well-formed message. */
    typedef Callback<void, Ptr<SipMessage>, const SipSource&> ReceiveCallback;
    /** Called when a message could not be delivered to \p address:\p port (connection failure). */
    typedef Callback<void, Ipv4Address, uint16_t> ErrorCallback;

    /** Signature of the Tx and Rx trace sources. */
    typedef void (*MessageTracedCallback)(Ptr<const SipMessage> message,
                                          const SipTransportEvent& event);
    /** Signature of the Drop trace source. */
    typedef void (*DropTracedCallback)(const std::string& reason, uint32_t size);

    static TypeId GetTypeId();
    SipTransport();
    ~SipTransport() override;

    /** Open the listening socket(s) on \p node; \p localAddress is the sent-by address. */
    virtual void Start(Ptr<Node> node, Ipv4Address localAddress) = 0;
    /** Close every socket. */
    virtual void Stop() = 0;
    /**
     * Send \p message to \p destination.
     * \return false if it could not even be handed to a socket
     */
    virtual bool Send(Ptr<const SipMessage> message, const SipDestination& destination) = 0;
    /** True for TCP and SCTP: the transaction layer does not retransmit (RFC 3261 17). */
    virtual bool IsReliable() const = 0;
    /** Transport token for Via and URIs: "UDP", "TCP" or "SCTP". */
    virtual std::string GetProtocolName() const = 0;
    /** Forget the stream assigned to \p key (a call has ended); no-op except over SCTP. */
    virtual void ReleaseStreamKey(const std::string& key);

    /** The port this transport listens on (sent-by port in Via). */
    uint16_t GetPort() const;
    void SetReceiveCallback(ReceiveCallback callback);
    void SetErrorCallback(ErrorCallback callback);

  protected:
    void DoDispose() override;
    /** Parse \p text received from \p source and deliver it (or drop it if malformed). */
    void Deliver(const std::string& text, const SipSource& source);
    /** Hook: \p message from \p source parsed well, about to be delivered. */
    virtual void MessageParsed(Ptr<SipMessage> message, const SipSource& source);
    /** Report a message handed to a socket. */
    void NotifySent(Ptr<const SipMessage> message, const SipTransportEvent& event);
    /** Report a failure to reach \p address:\p port. */
    void NotifyError(Ipv4Address address, uint16_t port);

    uint16_t m_port;   //!< listening port (attribute)
    Ptr<Node> m_node;  //!< node the transport runs on
    Ipv4Address m_localAddress;

  private:
    ReceiveCallback m_receive;
    ErrorCallback m_error;
    TracedCallback<Ptr<const SipMessage>, const SipTransportEvent&> m_txTrace;
    TracedCallback<Ptr<const SipMessage>, const SipTransportEvent&> m_rxTrace;
    TracedCallback<const std::string&, uint32_t> m_dropTrace;
};

} // namespace ns3

#endif // SIP_TRANSPORT_H
