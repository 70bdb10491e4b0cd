#include "sctp-stack-helper.h"

#include "ns3/config.h"
#include "ns3/ipv4.h"
#include "ns3/ipv6.h"
#include "ns3/names.h"
#include "ns3/node-list.h"
#include "ns3/sctp-l4-protocol.h"
#include "ns3/string.h"

#include <stdexcept>

namespace ns3
{

SctpStackHelper::SctpStackHelper()
{
    m_factory.SetTypeId(SctpL4Protocol::GetTypeId());
}

void
SctpStackHelper::SetProtocolAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

void
SctpStackHelper::Install(Ptr<Node> node) const
{
    if (!node)
    {
        throw std::invalid_argument("SctpStackHelper::Install: null node");
    }
    if (node->GetObject<SctpL4Protocol>())
    {
        return;
    }
    if (!node->GetObject<Ipv4>() && !node->GetObject<Ipv6>())
    {
        throw std::invalid_argument("SctpStackHelper::Install: node " +
                                    std::to_string(node->GetId()) +
                                    " has no internet stack; install InternetStackHelper first");
    }
    Ptr<SctpL4Protocol> sctp = m_factory.Create<SctpL4Protocol>();
    node->AggregateObject(sctp);
}

void
SctpStackHelper::Install(NodeContainer nodes) const
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Install(*it);
    }
}

void
SctpStackHelper::Install(const std::string& nodeName) const
{
    Install(Names::Find<Node>(nodeName));
}

void
SctpStackHelper::InstallAll() const
{
    Install(NodeContainer::GetGlobal());
}

int64_t
SctpStackHelper::AssignStreams(NodeContainer nodes, int64_t stream) const
{
    int64_t current = stream;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        Ptr<SctpL4Protocol> sctp = (*it)->GetObject<SctpL4Protocol>();
        if (sctp)
        {
            current += sctp->AssignStreams(current);
        }
    }
    return current - stream;
}

std::map<std::string, std::string>
SctpStackHelper::GetNs2Defaults(const std::string& version)
{
    if (version != "2.35" && version != "2.34")
    {
        throw std::invalid_argument("SctpStackHelper: unknown NS-2 version '" + version +
                                    "' (known: 2.35, 2.34)");
    }
    const std::string p = "ns3::SctpSocket::";
    std::map<std::string, std::string> d = {
        {p + "RtoInitial", "3s"},             // initialRto_
        {p + "RtoMin", "1s"},                 // minRto_
        {p + "RtoMax", "60s"},                // maxRto_
        {p + "RtoAlpha", "0.125"},            // RTO_ALPHA
        {p + "RtoBeta", "0.25"},              // RTO_BETA
        {p + "AssociationMaxRetrans", "10"},  // associationMaxRetrans_
        {p + "PathMaxRetrans", "5"},          // pathMaxRetrans_
        {p + "MaxInitRetransmits", "8"},      // maxInitRetransmits_
        {p + "HbInterval", "30s"},            // heartbeatInterval_
        {p + "Mtu", "1500"},                  // mtu_
        {p + "RcvBufSize", "65536"},          // initialRwnd_
        {p + "InitialSsthresh", "65536"},     // initialSsthresh_
        {p + "InitialCwnd", "4380"},          // 2.35: MIN(4*MDS, MAX(4380, 2*MDS)), MDS 1468
        {p + "FastRtxTrigger", "3"},          // fastRtxTrigger_ (2.35)
        {p + "OutboundStreams", "1"},         // numOutStreams_
        {p + "Unordered", "false"},           // unordered_
        {p + "SackDelay", "200ms"},           // sackDelay_
        {p + "SackFrequency", "2"},           // useDelayedSacks_ 1, DELAYED_SACK_TRIGGER 2
        {p + "MaxBurst", "4"},                // useMaxBurst_ 1, MAX_BURST 4
        {p + "MaxSegment", "1452"},           // dataChunkSize_ 1468 incl. 16-B header
    };
    if (version == "2.34")
    {
        d[p + "FastRtxTrigger"] = "4";
        d[p + "InitialCwnd"] = "2904"; // initialCwnd_ 2 x (MTU - headers) per the ns manual
    }
    return d;
}

void
SctpStackHelper::SetNs2Defaults(const std::string& version)
{
    for (const auto& [name, value] : GetNs2Defaults(version))
    {
        Config::SetDefault(name, StringValue(value));
    }
}

} // namespace ns3
