/*
 * A SIP element's transaction layer and its link to the transport layer
 * (RFC 3261 sections 17 and 18): creates and matches client and server
 * transactions, dispatches requests and responses to the transaction users
 * (user agents, proxy) on the same node and port.
 */
#ifndef SIP_STACK_H
#define SIP_STACK_H

#include "sip-client-transaction.h"
#include "sip-message.h"
#include "sip-server-transaction.h"
#include "sip-timer-values.h"
#include "sip-transaction-record.h"
#include "sip-transport.h"

#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup sip
 * \brief Transaction layer of one SIP element (one node and port).
 *
 * Several transaction users may share a stack: the user agents running on
 * one host register their user names (requests are dispatched by the user
 * part of the Request-URI, responses without a transaction by the From user);
 * a proxy installs the default handlers. Over SCTP the user agents of a host
 * thus share one association with the proxy, each call on its own stream.
 *
 * ProcessingDelay models the time the element needs to handle a received
 * message (parsing, routing): messages wait in a first-in first-out queue
 * served one at a time. It is zero by default: the simulation then measures
 * protocol time only.
 */
class SipStack : public Object
{
  public:
    /** A request for the TU: its server transaction (nullptr for an ACK to a 2xx). */
    typedef Callback<void, Ptr<SipServerTransaction>, Ptr<SipMessage>, const SipSource&>
        RequestCallback;
    /** A response that matches no client transaction (e.g. a retransmitted 2xx to INVITE). */
    typedef Callback<void, Ptr<SipMessage>, const SipSource&> StrayResponseCallback;
    typedef SipClientTransaction::ResponseCallback ResponseCallback;
    /** Signature of the TransactionStart/TransactionEnd trace sources. */
    typedef void (*TransactionTracedCallback)(const SipTransactionRecord& record);

    static TypeId GetTypeId();
    SipStack();
    ~SipStack() override;

    /** Bind the stack to \p node, its sent-by \p address, and \p transport. */
    void Setup(Ptr<Node> node, Ipv4Address address, Ptr<SipTransport> transport);
    /** Start the transport (idempotent: every TU calls it). */
    void Start();
    /** Abandon all transactions and close the transport. */
    void Stop();

    Ptr<Node> GetNode() const;
    Ptr<SipTransport> GetTransport() const;
    Ipv4Address GetAddress() const;
    uint16_t GetPort() const;
    /** "UDP", "TCP" or "SCTP". */
    std::string GetTransportName() const;
    bool IsReliable() const;
    SipTimerValues GetTimers() const;

    /** A new branch parameter with the RFC 3261 magic cookie (fixed length). */
    std::string NewBranch();
    /** A new From/To tag (fixed length). */
    std::string NewTag();
    /** A new Call-ID (fixed length, globally unique in the simulation). */
    std::string NewCallId();
    /** Our Via value with \p branch. */
    std::string MakeVia(const std::string& branch) const;
    /** Our URI with \p user: sip:user@address:port;transport=x. */
    std::string MakeContactUri(const std::string& user) const;

    /**
     * Start a client transaction: add our Via (new branch) on top of
     * \p request and send it to \p nextHop.
     */
    Ptr<SipClientTransaction> SendRequest(Ptr<SipMessage> request,
                                          const SipDestination& nextHop,
                                          ResponseCallback callback);
    /**
     * Send a request outside any transaction (ACK to a 2xx, RFC 3261 13.2.2.4;
     * a proxy forwarding such an ACK, 16.6 step 8 / 16.11): adds our Via.
     */
    void SendAck(Ptr<SipMessage> ack, const SipDestination& nextHop);
    /**
     * Forward a response statelessly to the address of its (new) top Via
     * (RFC 3261 16.7 / 18.2.2), e.g. a 2xx retransmission at a proxy.
     */
    void SendResponseStateless(Ptr<SipMessage> response);

    /** Handler for requests to any user without its own handler (a proxy). */
    void SetDefaultRequestHandler(RequestCallback handler);
    /** Handler for responses without a transaction whose From user has no handler. */
    void SetDefaultStrayResponseHandler(StrayResponseCallback handler);
    /** Handlers of the user agent for \p user. */
    void AddUser(const std::string& user, RequestCallback requests, StrayResponseCallback stray);
    void RemoveUser(const std::string& user);

    /** A call ended: the transport may reuse its stream (SCTP). */
    void ReleaseStreamKey(const std::string& key);

    uint32_t GetClientTransactionCount() const;
    uint32_t GetServerTransactionCount() const;

  protected:
    void DoDispose() override;

  private:
    void Receive(Ptr<SipMessage> message, const SipSource& source);
    void Process(Ptr<SipMessage> message, SipSource source);
    void ProcessRequest(Ptr<SipMessage> request, const SipSource& source);
    void ProcessResponse(Ptr<SipMessage> response, const SipSource& source);
    void DispatchRequest(Ptr<SipServerTransaction> transaction,
                         Ptr<SipMessage> request,
                         const SipSource& source);
    bool Transmit(Ptr<const SipMessage> message, const SipDestination& destination);
    void TransportFailed(Ipv4Address address, uint16_t port);
    void ClientOutcome(Ptr<SipClientTransaction> transaction);
    void ClientTerminated(Ptr<SipClientTransaction> transaction);
    void ServerOutcome(Ptr<SipServerTransaction> transaction);
    void ServerTerminated(Ptr<SipServerTransaction> transaction);
    static std::string ClientKey(const std::string& branch, const std::string& method);
    std::string ServerKey(Ptr<const SipMessage> request) const;
    std::string Identifier(uint64_t counter) const;

    Ptr<Node> m_node;
    Ipv4Address m_address;
    Ptr<SipTransport> m_transport;
    bool m_started;
    Time m_t1;
    Time m_t2;
    Time m_t4;
    Time m_timerD;
    Time m_processingDelay;
    Time m_busyUntil;
    uint64_t m_nextTransactionId;
    uint64_t m_nextIdentifier;
    std::map<std::string, Ptr<SipClientTransaction>> m_clients;
    std::map<std::string, Ptr<SipServerTransaction>> m_servers;
    RequestCallback m_defaultRequest;
    StrayResponseCallback m_defaultStray;
    std::map<std::string, std::pair<RequestCallback, StrayResponseCallback>> m_users;
    TracedCallback<const SipTransactionRecord&> m_startTrace;
    TracedCallback<const SipTransactionRecord&> m_endTrace;
};

} // namespace ns3

#endif // SIP_STACK_H
