/*
 * Installs SCTP on nodes that already have the internet stack, and provides the NS-2.35
 * preset: the attribute defaults that reproduce ns-2.35's Agent/SCTP, the values of its
 * tcl/lib/ns-default.tcl (NS-2 prints each, e.g. `puts [Agent/SCTP set initialRto_]`):
 * initialRto_ 3 s, minRto_ 1 s, maxRto_ 60 s, associationMaxRetrans_ 10,
 * pathMaxRetrans_ 5, maxInitRetransmits_ 8, heartbeatInterval_ 30 s, mtu_ 1500,
 * initialRwnd_ 65536, initialSsthresh_ 65536, fastRtxTrigger_ 3, numOutStreams_ 1,
 * dataChunkSize_ 1468 (src/sctp/doc/sctp.md, "NS-2.35 preset", maps each to its attribute).
 */
#ifndef SCTP_STACK_HELPER_H
#define SCTP_STACK_HELPER_H

#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <map>
#include <string>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Aggregates an SctpL4Protocol (and with it an SctpSocketFactory) to nodes.
 */
class SctpStackHelper
{
  public:
    SctpStackHelper();

    /**
     * Add SCTP to every node of \p nodes. Nodes that already have SCTP are left alone.
     * \throws std::invalid_argument if a node has neither IPv4 nor IPv6.
     */
    void Install(NodeContainer nodes) const;
    void Install(Ptr<Node> node) const;
    void Install(const std::string& nodeName) const;
    void InstallAll() const;

    /** Set an attribute of the SctpL4Protocol objects this helper creates. */
    void SetProtocolAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Fix the random streams of the SCTP protocols on \p nodes (tags, TSNs, keys).
     * \return the number of streams used.
     */
    int64_t AssignStreams(NodeContainer nodes, int64_t stream) const;

    /**
     * The NS-2.35 preset as attribute name -> value ("ns3::SctpSocket::RtoInitial" ->
     * "3s", ...). \p version "2.35" (default) or "2.34" (fastRtxTrigger_ 4).
     * \throws std::invalid_argument for another version.
     */
    static std::map<std::string, std::string> GetNs2Defaults(const std::string& version = "2.35");

    /**
     * Apply the NS-2 preset with Config::SetDefault, for all SCTP sockets created
     * afterwards. \throws std::invalid_argument for an unknown version.
     */
    static void SetNs2Defaults(const std::string& version = "2.35");

    /**
     * A named stack preset as attribute name -> value, every value taken from the
     * document cited next to it in the source:
     * - "rfc9260": RFC 9260 section 16 (the model's own defaults; SCTP-PF off);
     * - "linux": the Linux kernel's net.sctp.* sysctl defaults
     *   (Documentation/networking/ip-sysctl.rst; SCTP-PF on with pf_retrans 0);
     * - "freebsd" (also "usrsctp"): the net.inet.sctp.* sysctl defaults of FreeBSD's
     *   SCTP stack, which usrsctp shares (sctp_sysctl.h, sctp_constants.h; PF off).
     * \throws std::invalid_argument for another name.
     */
    static std::map<std::string, std::string> GetPreset(const std::string& name);

    /** Apply GetPreset(\p name) with Config::SetDefault (sockets created afterwards). */
    static void SetPreset(const std::string& name);
    /** SetPreset("rfc9260"). */
    static void SetRfc9260Defaults();
    /** SetPreset("linux"). */
    static void SetLinuxDefaults();
    /** SetPreset("freebsd"). */
    static void SetFreeBsdDefaults();

  private:
    ObjectFactory m_factory;
};

} // namespace ns3

#endif /* SCTP_STACK_HELPER_H */
