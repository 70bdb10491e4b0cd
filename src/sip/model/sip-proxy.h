/*
 * A stateful SIP proxy with a registrar (RFC 3261 sections 10.3 and 16).
 */
#ifndef SIP_PROXY_H
#define SIP_PROXY_H

#include "sip-location-service.h"
#include "sip-stack.h"

#include "ns3/application.h"
#include "ns3/traced-callback.h"

#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup sip
 * \brief Stateful proxy and registrar for one domain.
 *
 * REGISTER for the domain updates the location service (10.3) and is
 * answered with 200 OK. Other requests (16.3-16.6): Max-Forwards is checked
 * (483 at zero) and decremented; a Route naming this proxy is removed (loose
 * routing); a Request-URI in our domain is replaced by the registered contact
 * (404 if there is none); an initial INVITE gets 100 Trying at once and, with
 * RecordRoute, a Record-Route so that ACK and BYE pass the proxy too (as in
 * the seed's call flows). Each forwarded request runs in its own client
 * transaction; responses go back through the server transaction, 100 Trying
 * excepted; a client transaction time-out becomes 408 (16.8). ACKs to 2xx and
 * 2xx retransmissions that match no transaction are forwarded statelessly.
 */
class SipProxy : public Application
{
  public:
    /** Signature of the Forwarded trace source. */
    typedef void (*ForwardedTracedCallback)(Ptr<const SipMessage> request);

    static TypeId GetTypeId();
    SipProxy();
    ~SipProxy() override;

    void SetStack(Ptr<SipStack> stack);
    Ptr<SipStack> GetStack() const;
    Ptr<SipLocationService> GetLocationService() const;

    /** Requests forwarded so far, by method. */
    uint32_t GetForwardedCount(const std::string& method) const;
    /** Successful registrations so far. */
    uint32_t GetRegistrationCount() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    void HandleRequest(Ptr<SipServerTransaction> transaction,
                       Ptr<SipMessage> request,
                       const SipSource& source);
    void HandleResponse(Ptr<SipClientTransaction> transaction, Ptr<SipMessage> response);
    void HandleStrayResponse(Ptr<SipMessage> response, const SipSource& source);
    void Registrar(Ptr<SipServerTransaction> transaction, Ptr<SipMessage> request);
    /**
     * Route \p request (a copy we may modify): strip our Route, resolve the
     * Request-URI, decrement Max-Forwards. \return the status code of an error
     * response to send, or 0 with \p nextHop set.
     */
    uint16_t Route(Ptr<SipMessage> request, SipDestination& nextHop);
    void Reply(Ptr<SipServerTransaction> transaction, uint16_t code);
    bool IsOurHost(const std::string& host) const;
    bool IsOurUri(const sip::SipUri& uri) const;

    Ptr<SipStack> m_stack;
    Ptr<SipLocationService> m_location;
    std::string m_domain;
    bool m_recordRoute;
    bool m_sendTrying;
    uint32_t m_defaultExpires;
    bool m_running;
    std::map<uint64_t, Ptr<SipServerTransaction>> m_upstream; //!< client tx id -> server tx
    std::map<std::string, uint32_t> m_forwarded;
    uint32_t m_registrations;
    TracedCallback<Ptr<const SipMessage>> m_forwardedTrace;
};

} // namespace ns3

#endif // SIP_PROXY_H
