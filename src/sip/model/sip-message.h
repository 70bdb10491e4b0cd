/*
 * A SIP message (RFC 3261 section 7): request or response, header fields in
 * order, and a body. Messages travel through the simulated network as their
 * real text, so their sizes on the wire are those of real SIP messages.
 */
#ifndef SIP_MESSAGE_H
#define SIP_MESSAGE_H

#include "sip-header-util.h"

#include "ns3/ptr.h"
#include "ns3/simple-ref-count.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup sip
 * \brief A parsed or locally built SIP request or response.
 *
 * Header names are kept in their canonical form (compact forms such as "v"
 * or "i" are expanded when parsing); lookups are case-insensitive. Header
 * fields that may hold comma-separated lists (Via, Route, Record-Route,
 * Contact) are stored one value per entry.
 *
 * Serialize() always writes a Content-Length equal to the body size, as
 * RFC 3261 section 18.3 requires on stream transports.
 */
class SipMessage : public SimpleRefCount<SipMessage>
{
  public:
    /** Largest message Parse() accepts, in bytes (protection against garbage). */
    static constexpr std::size_t MAX_MESSAGE_SIZE = 65536;

    /** A request "METHOD request-uri SIP/2.0". */
    static Ptr<SipMessage> CreateRequest(const std::string& method, const std::string& requestUri);
    /** A response "SIP/2.0 code reason". */
    static Ptr<SipMessage> CreateResponse(uint16_t statusCode, const std::string& reason = "");
    /**
     * A response to \p request with the header fields RFC 3261 section 8.2.6.2
     * copies: all Via values, From, To, Call-ID and CSeq.
     */
    static Ptr<SipMessage> CreateResponseTo(Ptr<const SipMessage> request,
                                            uint16_t statusCode,
                                            const std::string& reason = "");
    /** The standard reason phrase of \p statusCode (RFC 3261 section 21), or "Unknown". */
    static std::string DefaultReason(uint16_t statusCode);

    /**
     * Parse one complete message (a datagram, an SCTP user message, or a
     * message cut out of a stream by SipStreamFramer).
     *
     * On a message-oriented transport the body ends where Content-Length says
     * (bytes beyond it are ignored); a Content-Length larger than the bytes
     * available makes the message malformed (RFC 3261 section 18.3).
     *
     * \param text the bytes of the message
     * \param error if not null, receives why the message was rejected
     * \return the message, or nullptr if it is malformed
     */
    static Ptr<SipMessage> Parse(const std::string& text, std::string* error = nullptr);

    SipMessage();

    /** A deep copy (for proxies, which forward modified copies). */
    Ptr<SipMessage> Copy() const;

    bool IsRequest() const;
    bool IsResponse() const;

    /** Request method; for a response the method of its CSeq. */
    std::string GetMethod() const;
    std::string GetRequestUri() const;
    void SetRequestUri(const std::string& uri);
    uint16_t GetStatusCode() const;
    std::string GetReasonPhrase() const;

    /** Append a header field value at the end. */
    void AddHeader(const std::string& name, const std::string& value);
    /** Insert a header field value before all others of the same name (e.g. a new Via). */
    void PrependHeader(const std::string& name, const std::string& value);
    /** Replace all values of \p name by \p value. */
    void SetHeader(const std::string& name, const std::string& value);
    /** First value of \p name, or "" if absent. */
    std::string GetHeader(const std::string& name) const;
    /** All values of \p name, in order. */
    std::vector<std::string> GetHeaders(const std::string& name) const;
    bool HasHeader(const std::string& name) const;
    /** Remove the first value of \p name. \return false if there was none. */
    bool RemoveFirstHeader(const std::string& name);
    /** Remove all values of \p name. */
    void RemoveHeaders(const std::string& name);
    /** All header fields in order, as (canonical name, value). */
    const std::vector<std::pair<std::string, std::string>>& GetAllHeaders() const;

    /** Set the body and its Content-Type (empty type removes Content-Type). */
    void SetBody(const std::string& contentType, const std::string& body);
    const std::string& GetBody() const;

    /** The message as sent on the wire. */
    std::string Serialize() const;
    /** Size of Serialize() in bytes. */
    uint32_t GetSerializedSize() const;

    // Convenience accessors of the fields every message must carry.
    std::string GetCallId() const;
    bool GetCSeq(sip::SipCSeq& cseq) const;
    bool GetTopVia(sip::SipVia& via) const;
    /** Branch parameter of the top Via, or "". */
    std::string GetTopViaBranch() const;
    std::string GetFromTag() const;
    std::string GetToTag() const;
    /** Add ";tag=..." to the To header field if it has none. */
    void SetToTag(const std::string& tag);

    /** Canonical spelling of a header name ("i" -> "Call-ID", "call-id" -> "Call-ID"). */
    static std::string CanonicalName(const std::string& name);

  private:
    bool m_isRequest{true};
    std::string m_method;
    std::string m_requestUri;
    uint16_t m_statusCode{0};
    std::string m_reason;
    std::vector<std::pair<std::string, std::string>> m_headers;
    std::string m_body;
};

} // namespace ns3

#endif // SIP_MESSAGE_H
