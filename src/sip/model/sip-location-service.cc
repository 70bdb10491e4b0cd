#include "sip-location-service.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipLocationService");

NS_OBJECT_ENSURE_REGISTERED(SipLocationService);

TypeId
SipLocationService::GetTypeId()
{
    static TypeId tid = TypeId("ns3::SipLocationService")
                            .SetParent<Object>()
                            .SetGroupName("Sip")
                            .AddConstructor<SipLocationService>();
    return tid;
}

SipLocationService::SipLocationService()
    : m_lookups(0),
      m_failedLookups(0)
{
}

SipLocationService::~SipLocationService() = default;

void
SipLocationService::Register(const std::string& user, const Binding& binding, Time lifetime)
{
    if (lifetime.IsZero())
    {
        m_bindings.erase(user);
        return;
    }
    Binding b = binding;
    b.expires = Simulator::Now() + lifetime;
    m_bindings[user] = b;
}

void
SipLocationService::Expire()
{
    const Time now = Simulator::Now();
    for (auto it = m_bindings.begin(); it != m_bindings.end();)
    {
        it = (it->second.expires <= now) ? m_bindings.erase(it) : std::next(it);
    }
}

bool
SipLocationService::Lookup(const std::string& user, Binding& binding)
{
    Expire();
    auto it = m_bindings.find(user);
    if (it == m_bindings.end())
    {
        ++m_failedLookups;
        return false;
    }
    ++m_lookups;
    binding = it->second;
    return true;
}

uint32_t
SipLocationService::GetBindingCount()
{
    Expire();
    return static_cast<uint32_t>(m_bindings.size());
}

uint32_t
SipLocationService::GetLookupCount() const
{
    return m_lookups;
}

uint32_t
SipLocationService::GetFailedLookupCount() const
{
    return m_failedLookups;
}

} // namespace ns3
