/*
 * The location service a registrar writes and a proxy reads (RFC 3261
 * sections 10.3 and 16.5): bindings from an address of record to contacts.
 */
#ifndef SIP_LOCATION_SERVICE_H
#define SIP_LOCATION_SERVICE_H

#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup sip
 * \brief Bindings user -> contact URI, with expiry. One contact per user
 * (a new registration replaces the old binding, as a single-device user's
 * refresh would).
 */
class SipLocationService : public Object
{
  public:
    /** One registered contact. */
    struct Binding
    {
        std::string contactUri; //!< e.g. sip:bob@10.1.2.1:5060;transport=udp
        Ipv4Address address;    //!< where requests for the contact go
        uint16_t port{5060};
        Time expires;           //!< absolute simulation time
    };

    static TypeId GetTypeId();
    SipLocationService();
    ~SipLocationService() override;

    /** Add or refresh the binding of \p user; \p lifetime 0 removes it. */
    void Register(const std::string& user, const Binding& binding, Time lifetime);
    /** The binding of \p user if there is one that has not expired. */
    bool Lookup(const std::string& user, Binding& binding);
    /** Number of bindings that have not expired. */
    uint32_t GetBindingCount();
    /** Number of successful lookups and failed ones so far. */
    uint32_t GetLookupCount() const;
    uint32_t GetFailedLookupCount() const;

  private:
    void Expire();

    std::map<std::string, Binding> m_bindings;
    uint32_t m_lookups;
    uint32_t m_failedLookups;
};

} // namespace ns3

#endif // SIP_LOCATION_SERVICE_H
