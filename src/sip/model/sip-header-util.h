/*
 * Small parsers for the parts of SIP header values the transaction layer,
 * proxy and user agent need (RFC 3261 sections 19.1 and 20): SIP URIs,
 * name-addr values with parameters, Via values, CSeq values.
 *
 * They are deliberately tolerant of whitespace and return false (never throw,
 * never assert) on malformed input: a malformed message must never stop the
 * simulation.
 */
#ifndef SIP_HEADER_UTIL_H
#define SIP_HEADER_UTIL_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{
namespace sip
{

/** Lower-case copy of \p text (ASCII). */
std::string ToLower(const std::string& text);

/** \p text without leading and trailing spaces and tabs. */
std::string Trim(const std::string& text);

/** Case-insensitive ASCII comparison. */
bool EqualsIgnoreCase(const std::string& a, const std::string& b);

/**
 * Split \p text at top-level occurrences of \p separator: separators inside
 * double quotes or angle brackets do not count (e.g. "a <sip:x;y>, b").
 */
std::vector<std::string> SplitTopLevel(const std::string& text, char separator);

/** Parse ";name=value;flag" parameters into \p params (names lower-cased). */
void ParseParameters(const std::string& text, std::map<std::string, std::string>& params);

/** A SIP URI: sip:user@host:port;params (RFC 3261 section 19.1.1). */
struct SipUri
{
    std::string scheme{"sip"};
    std::string user;
    std::string host;
    uint16_t port{0}; //!< 0 when absent
    std::map<std::string, std::string> params;

    /** Parse \p text ("sip:..." possibly inside <>). \return false if malformed. */
    bool Parse(const std::string& text);
    /** Port, or 5060 when absent. */
    uint16_t GetPortOrDefault() const;
    /** Text form without angle brackets. */
    std::string ToString() const;
};

/** A name-addr or addr-spec with header parameters: "Name" <sip:...>;tag=x. */
struct SipNameAddr
{
    std::string displayName;
    SipUri uri;
    std::map<std::string, std::string> params; //!< header parameters (after the URI)

    bool Parse(const std::string& text);
    std::string GetTag() const;
    std::string ToString() const;
};

/** One Via value: SIP/2.0/UDP host:port;branch=...;received=... */
struct SipVia
{
    std::string transport; //!< upper case, e.g. "UDP"
    std::string host;
    uint16_t port{0}; //!< 0 when absent
    std::map<std::string, std::string> params;

    bool Parse(const std::string& text);
    std::string GetBranch() const;
    /** host:port the response goes to (RFC 3261 18.2.2): received= overrides the host. */
    std::string GetResponseHost() const;
    uint16_t GetPortOrDefault() const;
    /** "host:port" as written (for transaction matching). */
    std::string GetSentBy() const;
    std::string ToString() const;
};

/** CSeq: sequence number and method. */
struct SipCSeq
{
    uint32_t number{0};
    std::string method;

    bool Parse(const std::string& text);
};

/**
 * Parse a dotted-quad IPv4 address into host byte order. (ns3::Ipv4Address
 * aborts on an invalid string, so check with this first.)
 */
bool ParseIpv4(const std::string& text, uint32_t& address);

/** Parse an unsigned decimal number of at most \p maxDigits digits. */
bool ParseUnsigned(const std::string& text, uint64_t& value, std::size_t maxDigits = 10);

} // namespace sip
} // namespace ns3

#endif // SIP_HEADER_UTIL_H
