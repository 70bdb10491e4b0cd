#include "sip-header-util.h"

#include <algorithm>
#include <cctype>

namespace ns3
{
namespace sip
{

std::string
ToLower(const std::string& text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
        return static_cast<char>(std::tolower(c));
    });
    return out;
}

std::string
Trim(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos)
    {
        return "";
    }
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

bool
EqualsIgnoreCase(const std::string& a, const std::string& b)
{
    if (a.size() != b.size())
    {
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i)
    {
        if (std::tolower(static_cast<unsigned char>(a[i])) !=
            std::tolower(static_cast<unsigned char>(b[i])))
        {
            return false;
        }
    }
    return true;
}

std::vector<std::string>
SplitTopLevel(const std::string& text, char separator)
{
    std::vector<std::string> parts;
    std::string current;
    bool quoted = false;
    int angle = 0;
    for (std::size_t i = 0; i < text.size(); ++i)
    {
        const char c = text[i];
        if (quoted)
        {
            current += c;
            if (c == '\\' && i + 1 < text.size())
            {
                current += text[++i];
            }
            else if (c == '"')
            {
                quoted = false;
            }
            continue;
        }
        if (c == '"')
        {
            quoted = true;
        }
        else if (c == '<')
        {
            ++angle;
        }
        else if (c == '>' && angle > 0)
        {
            --angle;
        }
        else if (c == separator && angle == 0)
        {
            parts.push_back(Trim(current));
            current.clear();
            continue;
        }
        current += c;
    }
    parts.push_back(Trim(current));
    return parts;
}

void
ParseParameters(const std::string& text, std::map<std::string, std::string>& params)
{
    for (const auto& part : SplitTopLevel(text, ';'))
    {
        if (part.empty())
        {
            continue;
        }
        const auto eq = part.find('=');
        if (eq == std::string::npos)
        {
            params[ToLower(Trim(part))] = "";
        }
        else
        {
            params[ToLower(Trim(part.substr(0, eq)))] = Trim(part.substr(eq + 1));
        }
    }
}

bool
ParseUnsigned(const std::string& text, uint64_t& value, std::size_t maxDigits)
{
    const std::string t = Trim(text);
    if (t.empty() || t.size() > maxDigits)
    {
        return false;
    }
    uint64_t v = 0;
    for (char c : t)
    {
        if (c < '0' || c > '9')
        {
            return false;
        }
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    value = v;
    return true;
}

bool
ParseIpv4(const std::string& text, uint32_t& address)
{
    std::vector<std::string> parts;
    std::string current;
    for (char c : Trim(text))
    {
        if (c == '.')
        {
            parts.push_back(current);
            current.clear();
        }
        else
        {
            current += c;
        }
    }
    parts.push_back(current);
    if (parts.size() != 4)
    {
        return false;
    }
    uint32_t value = 0;
    for (const auto& part : parts)
    {
        uint64_t octet = 0;
        if (!ParseUnsigned(part, octet, 3) || octet > 255 || part != Trim(part))
        {
            return false;
        }
        value = (value << 8) | static_cast<uint32_t>(octet);
    }
    address = value;
    return true;
}

namespace
{

/** Split "host:port" (IPv4 or name; IPv6 references in [] are accepted too). */
bool
ParseHostPort(const std::string& text, std::string& host, uint16_t& port)
{
    const std::string t = Trim(text);
    if (t.empty())
    {
        return false;
    }
    std::size_t colon = std::string::npos;
    if (t.front() == '[')
    {
        const auto close = t.find(']');
        if (close == std::string::npos)
        {
            return false;
        }
        host = t.substr(0, close + 1);
        colon = (close + 1 < t.size() && t[close + 1] == ':') ? close + 1 : std::string::npos;
        if (close + 1 < t.size() && colon == std::string::npos)
        {
            return false;
        }
    }
    else
    {
        colon = t.find(':');
        host = t.substr(0, colon);
    }
    if (host.empty())
    {
        return false;
    }
    for (char c : host)
    {
        if (std::isspace(static_cast<unsigned char>(c)))
        {
            return false;
        }
    }
    port = 0;
    if (colon != std::string::npos)
    {
        uint64_t p = 0;
        if (!ParseUnsigned(t.substr(colon + 1), p, 5) || p == 0 || p > 65535)
        {
            return false;
        }
        port = static_cast<uint16_t>(p);
    }
    return true;
}

} // namespace

bool
SipUri::Parse(const std::string& input)
{
    std::string text = Trim(input);
    if (!text.empty() && text.front() == '<')
    {
        if (text.back() != '>')
        {
            return false;
        }
        text = text.substr(1, text.size() - 2);
    }
    const auto colon = text.find(':');
    if (colon == std::string::npos)
    {
        return false;
    }
    scheme = ToLower(text.substr(0, colon));
    if (scheme != "sip" && scheme != "sips")
    {
        return false;
    }
    std::string rest = text.substr(colon + 1);
    // Headers (?a=b) are not used in this model; drop them.
    rest = rest.substr(0, rest.find('?'));
    const auto semicolon = rest.find(';');
    std::string userHost = rest.substr(0, semicolon);
    params.clear();
    if (semicolon != std::string::npos)
    {
        ParseParameters(rest.substr(semicolon + 1), params);
    }
    const auto at = userHost.rfind('@');
    user = (at == std::string::npos) ? "" : userHost.substr(0, at);
    const std::string hostPort = (at == std::string::npos) ? userHost : userHost.substr(at + 1);
    return ParseHostPort(hostPort, host, port);
}

uint16_t
SipUri::GetPortOrDefault() const
{
    return port == 0 ? 5060 : port;
}

std::string
SipUri::ToString() const
{
    std::string out = scheme + ":";
    if (!user.empty())
    {
        out += user + "@";
    }
    out += host;
    if (port != 0)
    {
        out += ":" + std::to_string(port);
    }
    for (const auto& [name, value] : params)
    {
        out += ";" + name;
        if (!value.empty())
        {
            out += "=" + value;
        }
    }
    return out;
}

bool
SipNameAddr::Parse(const std::string& input)
{
    const std::string text = Trim(input);
    displayName.clear();
    params.clear();
    const auto open = text.find('<');
    if (open != std::string::npos)
    {
        const auto close = text.find('>', open);
        if (close == std::string::npos)
        {
            return false;
        }
        displayName = Trim(text.substr(0, open));
        if (displayName.size() >= 2 && displayName.front() == '"' && displayName.back() == '"')
        {
            displayName = displayName.substr(1, displayName.size() - 2);
        }
        if (!uri.Parse(text.substr(open + 1, close - open - 1)))
        {
            return false;
        }
        const std::string rest = text.substr(close + 1);
        if (!rest.empty())
        {
            if (Trim(rest).front() != ';')
            {
                return false;
            }
            ParseParameters(Trim(rest).substr(1), params);
        }
        return true;
    }
    // addr-spec form: parameters after the URI belong to the header (RFC 3261 20).
    const auto semicolon = text.find(';');
    if (!uri.Parse(text.substr(0, semicolon)))
    {
        return false;
    }
    if (semicolon != std::string::npos)
    {
        ParseParameters(text.substr(semicolon + 1), params);
    }
    return true;
}

std::string
SipNameAddr::GetTag() const
{
    const auto it = params.find("tag");
    return it == params.end() ? "" : it->second;
}

std::string
SipNameAddr::ToString() const
{
    std::string out;
    if (!displayName.empty())
    {
        out += "\"" + displayName + "\" ";
    }
    out += "<" + uri.ToString() + ">";
    for (const auto& [name, value] : params)
    {
        out += ";" + name;
        if (!value.empty())
        {
            out += "=" + value;
        }
    }
    return out;
}

bool
SipVia::Parse(const std::string& input)
{
    const std::string text = Trim(input);
    // sent-protocol: SIP / 2.0 / transport, with optional LWS around the slashes
    std::size_t pos = 0;
    std::string fields[3];
    for (int i = 0; i < 3; ++i)
    {
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t'))
        {
            ++pos;
        }
        const std::size_t start = pos;
        while (pos < text.size() && text[pos] != '/' && text[pos] != ' ' && text[pos] != '\t')
        {
            ++pos;
        }
        fields[i] = text.substr(start, pos - start);
        while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t'))
        {
            ++pos;
        }
        if (i < 2)
        {
            if (pos >= text.size() || text[pos] != '/')
            {
                return false;
            }
            ++pos;
        }
    }
    if (!EqualsIgnoreCase(fields[0], "SIP") || fields[1] != "2.0" || fields[2].empty())
    {
        return false;
    }
    transport.clear();
    for (char c : fields[2])
    {
        transport += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    const std::string rest = text.substr(pos);
    const auto semicolon = rest.find(';');
    params.clear();
    if (semicolon != std::string::npos)
    {
        ParseParameters(rest.substr(semicolon + 1), params);
    }
    return ParseHostPort(rest.substr(0, semicolon), host, port);
}

std::string
SipVia::GetBranch() const
{
    const auto it = params.find("branch");
    return it == params.end() ? "" : it->second;
}

std::string
SipVia::GetResponseHost() const
{
    const auto it = params.find("received");
    return (it == params.end() || it->second.empty()) ? host : it->second;
}

uint16_t
SipVia::GetPortOrDefault() const
{
    return port == 0 ? 5060 : port;
}

std::string
SipVia::GetSentBy() const
{
    return ToLower(host) + ":" + std::to_string(GetPortOrDefault());
}

std::string
SipVia::ToString() const
{
    std::string out = "SIP/2.0/" + transport + " " + host;
    if (port != 0)
    {
        out += ":" + std::to_string(port);
    }
    // branch first, as is customary; the rest in name order.
    const auto branch = params.find("branch");
    if (branch != params.end())
    {
        out += ";branch=" + branch->second;
    }
    for (const auto& [name, value] : params)
    {
        if (name == "branch")
        {
            continue;
        }
        out += ";" + name;
        if (!value.empty())
        {
            out += "=" + value;
        }
    }
    return out;
}

bool
SipCSeq::Parse(const std::string& input)
{
    const std::string text = Trim(input);
    const auto space = text.find_first_of(" \t");
    if (space == std::string::npos)
    {
        return false;
    }
    uint64_t n = 0;
    if (!ParseUnsigned(text.substr(0, space), n, 10) || n > 0x7fffffffULL)
    {
        return false;
    }
    number = static_cast<uint32_t>(n);
    method = Trim(text.substr(space));
    if (method.empty())
    {
        return false;
    }
    for (char c : method)
    {
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '.' && c != '!' &&
            c != '%' && c != '*' && c != '_' && c != '+' && c != '`' && c != '\'' && c != '~')
        {
            return false;
        }
    }
    return true;
}

} // namespace sip
} // namespace ns3
