#include "sip-message.h"

#include "ns3/log.h"

#include <cctype>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SipMessage");

namespace
{

/** Header fields whose values may be comma-separated lists (RFC 3261 section 7.3.1). */
bool
IsListHeader(const std::string& canonical)
{
    return canonical == "Via" || canonical == "Route" || canonical == "Record-Route" ||
           canonical == "Contact";
}

bool
IsTokenChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) ||
           std::string("-.!%*_+`'~").find(c) != std::string::npos;
}

void
SetError(std::string* error, const std::string& text)
{
    if (error != nullptr)
    {
        *error = text;
    }
}

} // namespace

std::string
SipMessage::CanonicalName(const std::string& name)
{
    static const std::pair<const char*, const char*> names[] = {
        {"v", "Via"},
        {"via", "Via"},
        {"f", "From"},
        {"from", "From"},
        {"t", "To"},
        {"to", "To"},
        {"i", "Call-ID"},
        {"call-id", "Call-ID"},
        {"m", "Contact"},
        {"contact", "Contact"},
        {"l", "Content-Length"},
        {"content-length", "Content-Length"},
        {"c", "Content-Type"},
        {"content-type", "Content-Type"},
        {"k", "Supported"},
        {"supported", "Supported"},
        {"s", "Subject"},
        {"subject", "Subject"},
        {"e", "Content-Encoding"},
        {"content-encoding", "Content-Encoding"},
        {"cseq", "CSeq"},
        {"max-forwards", "Max-Forwards"},
        {"route", "Route"},
        {"record-route", "Record-Route"},
        {"expires", "Expires"},
        {"user-agent", "User-Agent"},
        {"server", "Server"},
        {"allow", "Allow"},
        {"date", "Date"},
    };
    const std::string lower = sip::ToLower(name);
    for (const auto& [from, to] : names)
    {
        if (lower == from)
        {
            return to;
        }
    }
    return name;
}

std::string
SipMessage::DefaultReason(uint16_t statusCode)
{
    switch (statusCode)
    {
    case 100:
        return "Trying";
    case 180:
        return "Ringing";
    case 181:
        return "Call Is Being Forwarded";
    case 183:
        return "Session Progress";
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 480:
        return "Temporarily Unavailable";
    case 481:
        return "Call/Transaction Does Not Exist";
    case 482:
        return "Loop Detected";
    case 483:
        return "Too Many Hops";
    case 486:
        return "Busy Here";
    case 500:
        return "Server Internal Error";
    case 501:
        return "Not Implemented";
    case 503:
        return "Service Unavailable";
    default:
        return "Unknown";
    }
}

SipMessage::SipMessage() = default;

Ptr<SipMessage>
SipMessage::CreateRequest(const std::string& method, const std::string& requestUri)
{
    Ptr<SipMessage> m = Create<SipMessage>();
    m->m_isRequest = true;
    m->m_method = method;
    m->m_requestUri = requestUri;
    return m;
}

Ptr<SipMessage>
SipMessage::CreateResponse(uint16_t statusCode, const std::string& reason)
{
    Ptr<SipMessage> m = Create<SipMessage>();
    m->m_isRequest = false;
    m->m_statusCode = statusCode;
    m->m_reason = reason.empty() ? DefaultReason(statusCode) : reason;
    return m;
}

Ptr<SipMessage>
SipMessage::CreateResponseTo(Ptr<const SipMessage> request,
                             uint16_t statusCode,
                             const std::string& reason)
{
    Ptr<SipMessage> response = CreateResponse(statusCode, reason);
    for (const auto& via : request->GetHeaders("Via"))
    {
        response->AddHeader("Via", via);
    }
    response->AddHeader("From", request->GetHeader("From"));
    response->AddHeader("To", request->GetHeader("To"));
    response->AddHeader("Call-ID", request->GetHeader("Call-ID"));
    response->AddHeader("CSeq", request->GetHeader("CSeq"));
    return response;
}

Ptr<SipMessage>
SipMessage::Copy() const
{
    Ptr<SipMessage> m = Create<SipMessage>();
    *m = *this;
    return m;
}

Ptr<SipMessage>
SipMessage::Parse(const std::string& text, std::string* error)
{
    if (text.size() > MAX_MESSAGE_SIZE)
    {
        SetError(error, "message too large");
        return nullptr;
    }
    // RFC 3261 7.5: CRLFs before the start line are ignored.
    std::size_t start = 0;
    while (start < text.size() && (text[start] == '\r' || text[start] == '\n'))
    {
        ++start;
    }
    // End of the header section: the first empty line (CRLF CRLF; a bare LF is tolerated).
    std::size_t headerEnd = std::string::npos;
    std::size_t bodyStart = std::string::npos;
    for (std::size_t i = start; i < text.size(); ++i)
    {
        if (text[i] != '\n')
        {
            continue;
        }
        std::size_t j = i + 1;
        if (j < text.size() && text[j] == '\r')
        {
            ++j;
        }
        if (j < text.size() && text[j] == '\n')
        {
            headerEnd = i;
            bodyStart = j + 1;
            break;
        }
        if (j == text.size())
        {
            // The message ends right after the headers' last line with no empty line.
            break;
        }
    }
    if (headerEnd == std::string::npos)
    {
        SetError(error, "no end of header section");
        return nullptr;
    }

    // Split into lines and unfold continuation lines (RFC 3261 7.3.1).
    std::vector<std::string> lines;
    std::size_t pos = start;
    while (pos <= headerEnd)
    {
        std::size_t nl = text.find('\n', pos);
        if (nl == std::string::npos || nl > headerEnd)
        {
            nl = headerEnd;
        }
        std::string line = text.substr(pos, nl - pos);
        if (!line.empty() && line.back() == '\r')
        {
            line.pop_back();
        }
        if (line.find('\0') != std::string::npos)
        {
            SetError(error, "NUL byte in header section");
            return nullptr;
        }
        if (!lines.empty() && !line.empty() && (line[0] == ' ' || line[0] == '\t'))
        {
            if (lines.size() == 1)
            {
                SetError(error, "continuation of the start line");
                return nullptr;
            }
            lines.back() += " " + sip::Trim(line);
        }
        else
        {
            lines.push_back(line);
        }
        pos = nl + 1;
    }
    if (lines.empty() || lines[0].empty())
    {
        SetError(error, "empty start line");
        return nullptr;
    }

    Ptr<SipMessage> m = Create<SipMessage>();
    const std::string& startLine = lines[0];
    if (startLine.compare(0, 8, "SIP/2.0 ") == 0)
    {
        m->m_isRequest = false;
        if (startLine.size() < 11)
        {
            SetError(error, "short status line");
            return nullptr;
        }
        uint64_t code = 0;
        if (!sip::ParseUnsigned(startLine.substr(8, 3), code, 3) || code < 100 || code > 699 ||
            (startLine.size() > 11 && startLine[11] != ' '))
        {
            SetError(error, "bad status code");
            return nullptr;
        }
        m->m_statusCode = static_cast<uint16_t>(code);
        m->m_reason = startLine.size() > 12 ? startLine.substr(12) : "";
    }
    else
    {
        m->m_isRequest = true;
        const auto sp1 = startLine.find(' ');
        const auto sp2 = (sp1 == std::string::npos) ? sp1 : startLine.find(' ', sp1 + 1);
        if (sp1 == std::string::npos || sp2 == std::string::npos || sp1 == 0 || sp2 == sp1 + 1 ||
            startLine.substr(sp2 + 1) != "SIP/2.0")
        {
            SetError(error, "bad request line");
            return nullptr;
        }
        m->m_method = startLine.substr(0, sp1);
        for (char c : m->m_method)
        {
            if (!IsTokenChar(c))
            {
                SetError(error, "bad method");
                return nullptr;
            }
        }
        m->m_requestUri = startLine.substr(sp1 + 1, sp2 - sp1 - 1);
        sip::SipUri uri;
        if (!uri.Parse(m->m_requestUri))
        {
            SetError(error, "bad Request-URI");
            return nullptr;
        }
    }

    for (std::size_t i = 1; i < lines.size(); ++i)
    {
        const std::string& line = lines[i];
        const auto colon = line.find(':');
        if (colon == std::string::npos || colon == 0)
        {
            SetError(error, "header line without name");
            return nullptr;
        }
        const std::string rawName = sip::Trim(line.substr(0, colon));
        for (char c : rawName)
        {
            if (!IsTokenChar(c))
            {
                SetError(error, "bad header name");
                return nullptr;
            }
        }
        const std::string name = CanonicalName(rawName);
        const std::string value = sip::Trim(line.substr(colon + 1));
        if (IsListHeader(name))
        {
            for (const auto& item : sip::SplitTopLevel(value, ','))
            {
                if (!item.empty())
                {
                    m->m_headers.emplace_back(name, item);
                }
            }
        }
        else
        {
            m->m_headers.emplace_back(name, value);
        }
    }

    // Mandatory header fields (RFC 3261 8.1.1 and 8.2.2.1 for what a receiver relies on).
    sip::SipCSeq cseq;
    sip::SipVia via;
    sip::SipNameAddr from;
    sip::SipNameAddr to;
    if (!m->GetCSeq(cseq))
    {
        SetError(error, "missing or bad CSeq");
        return nullptr;
    }
    if (m->GetCallId().empty())
    {
        SetError(error, "missing Call-ID");
        return nullptr;
    }
    if (!m->GetTopVia(via))
    {
        SetError(error, "missing or bad Via");
        return nullptr;
    }
    if (!from.Parse(m->GetHeader("From")) || !to.Parse(m->GetHeader("To")))
    {
        SetError(error, "missing or bad From/To");
        return nullptr;
    }
    if (m->m_isRequest && cseq.method != m->m_method)
    {
        SetError(error, "CSeq method differs from request method");
        return nullptr;
    }
    if (m->HasHeader("Max-Forwards"))
    {
        uint64_t mf = 0;
        if (!sip::ParseUnsigned(m->GetHeader("Max-Forwards"), mf, 3) || mf > 255)
        {
            SetError(error, "bad Max-Forwards");
            return nullptr;
        }
    }

    const std::size_t available = (bodyStart <= text.size()) ? text.size() - bodyStart : 0;
    if (m->HasHeader("Content-Length"))
    {
        uint64_t length = 0;
        if (!sip::ParseUnsigned(m->GetHeader("Content-Length"), length, 9))
        {
            SetError(error, "bad Content-Length");
            return nullptr;
        }
        if (length > available)
        {
            SetError(error, "body shorter than Content-Length");
            return nullptr;
        }
        m->m_body = text.substr(bodyStart, length);
    }
    else
    {
        m->m_body = available > 0 ? text.substr(bodyStart) : "";
    }
    m->RemoveHeaders("Content-Length");
    return m;
}

bool
SipMessage::IsRequest() const
{
    return m_isRequest;
}

bool
SipMessage::IsResponse() const
{
    return !m_isRequest;
}

std::string
SipMessage::GetMethod() const
{
    if (m_isRequest)
    {
        return m_method;
    }
    sip::SipCSeq cseq;
    return GetCSeq(cseq) ? cseq.method : "";
}

std::string
SipMessage::GetRequestUri() const
{
    return m_requestUri;
}

void
SipMessage::SetRequestUri(const std::string& uri)
{
    m_requestUri = uri;
}

uint16_t
SipMessage::GetStatusCode() const
{
    return m_statusCode;
}

std::string
SipMessage::GetReasonPhrase() const
{
    return m_reason;
}

void
SipMessage::AddHeader(const std::string& name, const std::string& value)
{
    m_headers.emplace_back(CanonicalName(name), value);
}

void
SipMessage::PrependHeader(const std::string& name, const std::string& value)
{
    const std::string canonical = CanonicalName(name);
    for (auto it = m_headers.begin(); it != m_headers.end(); ++it)
    {
        if (sip::EqualsIgnoreCase(it->first, canonical))
        {
            m_headers.insert(it, {canonical, value});
            return;
        }
    }
    // No field of that name yet: Via goes first, anything else at the end.
    if (canonical == "Via")
    {
        m_headers.insert(m_headers.begin(), {canonical, value});
    }
    else
    {
        m_headers.emplace_back(canonical, value);
    }
}

void
SipMessage::SetHeader(const std::string& name, const std::string& value)
{
    const std::string canonical = CanonicalName(name);
    for (auto& [n, v] : m_headers)
    {
        if (sip::EqualsIgnoreCase(n, canonical))
        {
            v = value;
            // remove any further values
            bool first = true;
            for (auto it = m_headers.begin(); it != m_headers.end();)
            {
                if (sip::EqualsIgnoreCase(it->first, canonical))
                {
                    if (first)
                    {
                        first = false;
                        ++it;
                        continue;
                    }
                    it = m_headers.erase(it);
                }
                else
                {
                    ++it;
                }
            }
            return;
        }
    }
    m_headers.emplace_back(canonical, value);
}

std::string
SipMessage::GetHeader(const std::string& name) const
{
    const std::string canonical = CanonicalName(name);
    for (const auto& [n, v] : m_headers)
    {
        if (sip::EqualsIgnoreCase(n, canonical))
        {
            return v;
        }
    }
    return "";
}

std::vector<std::string>
SipMessage::GetHeaders(const std::string& name) const
{
    const std::string canonical = CanonicalName(name);
    std::vector<std::string> values;
    for (const auto& [n, v] : m_headers)
    {
        if (sip::EqualsIgnoreCase(n, canonical))
        {
            values.push_back(v);
        }
    }
    return values;
}

bool
SipMessage::HasHeader(const std::string& name) const
{
    const std::string canonical = CanonicalName(name);
    for (const auto& [n, v] : m_headers)
    {
        if (sip::EqualsIgnoreCase(n, canonical))
        {
            return true;
        }
    }
    return false;
}

bool
SipMessage::RemoveFirstHeader(const std::string& name)
{
    const std::string canonical = CanonicalName(name);
    for (auto it = m_headers.begin(); it != m_headers.end(); ++it)
    {
        if (sip::EqualsIgnoreCase(it->first, canonical))
        {
            m_headers.erase(it);
            return true;
        }
    }
    return false;
}

void
SipMessage::RemoveHeaders(const std::string& name)
{
    const std::string canonical = CanonicalName(name);
    for (auto it = m_headers.begin(); it != m_headers.end();)
    {
        it = sip::EqualsIgnoreCase(it->first, canonical) ? m_headers.erase(it) : it + 1;
    }
}

const std::vector<std::pair<std::string, std::string>>&
SipMessage::GetAllHeaders() const
{
    return m_headers;
}

void
SipMessage::SetBody(const std::string& contentType, const std::string& body)
{
    m_body = body;
    if (contentType.empty())
    {
        RemoveHeaders("Content-Type");
    }
    else
    {
        SetHeader("Content-Type", contentType);
    }
}

const std::string&
SipMessage::GetBody() const
{
    return m_body;
}

std::string
SipMessage::Serialize() const
{
    std::string out;
    out.reserve(256 + m_body.size() + 48 * m_headers.size());
    if (m_isRequest)
    {
        out += m_method + " " + m_requestUri + " SIP/2.0\r\n";
    }
    else
    {
        out += "SIP/2.0 " + std::to_string(m_statusCode) + " " + m_reason + "\r\n";
    }
    for (const auto& [name, value] : m_headers)
    {
        if (name == "Content-Length")
        {
            continue;
        }
        out += name + ": " + value + "\r\n";
    }
    out += "Content-Length: " + std::to_string(m_body.size()) + "\r\n\r\n";
    out += m_body;
    return out;
}

uint32_t
SipMessage::GetSerializedSize() const
{
    return static_cast<uint32_t>(Serialize().size());
}

std::string
SipMessage::GetCallId() const
{
    return GetHeader("Call-ID");
}

bool
SipMessage::GetCSeq(sip::SipCSeq& cseq) const
{
    return HasHeader("CSeq") && cseq.Parse(GetHeader("CSeq"));
}

bool
SipMessage::GetTopVia(sip::SipVia& via) const
{
    return HasHeader("Via") && via.Parse(GetHeader("Via"));
}

std::string
SipMessage::GetTopViaBranch() const
{
    sip::SipVia via;
    return GetTopVia(via) ? via.GetBranch() : "";
}

std::string
SipMessage::GetFromTag() const
{
    sip::SipNameAddr from;
    return from.Parse(GetHeader("From")) ? from.GetTag() : "";
}

std::string
SipMessage::GetToTag() const
{
    sip::SipNameAddr to;
    return to.Parse(GetHeader("To")) ? to.GetTag() : "";
}

void
SipMessage::SetToTag(const std::string& tag)
{
    if (!GetToTag().empty())
    {
        return;
    }
    SetHeader("To", GetHeader("To") + ";tag=" + tag);
}

} // namespace ns3
