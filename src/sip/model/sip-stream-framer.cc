#include "sip-stream-framer.h"

#include "sip-header-util.h"

namespace ns3
{

SipStreamFramer::SipStreamFramer(std::size_t maxHeaderBytes, std::size_t maxBodyBytes)
    : m_maxHeaderBytes(maxHeaderBytes),
      m_maxBodyBytes(maxBodyBytes)
{
}

void
SipStreamFramer::Append(const uint8_t* data, std::size_t size)
{
    if (!m_error.empty())
    {
        return;
    }
    m_buffer.append(reinterpret_cast<const char*>(data), size);
}

void
SipStreamFramer::Append(const std::string& data)
{
    if (!m_error.empty())
    {
        return;
    }
    m_buffer += data;
}

std::vector<std::string>
SipStreamFramer::Extract()
{
    std::vector<std::string> messages;
    while (m_error.empty())
    {
        // Skip CRLF keep-alives before a start line.
        std::size_t start = 0;
        while (start < m_buffer.size() && (m_buffer[start] == '\r' || m_buffer[start] == '\n'))
        {
            ++start;
        }
        if (start > 0)
        {
            m_buffer.erase(0, start);
        }
        if (m_buffer.empty())
        {
            break;
        }
        const auto end = m_buffer.find("\r\n\r\n");
        if (end == std::string::npos)
        {
            if (m_buffer.size() > m_maxHeaderBytes)
            {
                m_error = "header section too long";
            }
            break;
        }
        if (end > m_maxHeaderBytes)
        {
            m_error = "header section too long";
            break;
        }
        // Find Content-Length (or its compact form "l") among the header lines.
        bool found = false;
        uint64_t length = 0;
        std::size_t lineStart = m_buffer.find("\r\n") + 2; // skip the start line
        while (lineStart < end + 2)
        {
            const auto lineEnd = m_buffer.find("\r\n", lineStart);
            const std::string line = m_buffer.substr(lineStart, lineEnd - lineStart);
            lineStart = lineEnd + 2;
            const auto colon = line.find(':');
            if (colon == std::string::npos)
            {
                continue;
            }
            const std::string name = sip::ToLower(sip::Trim(line.substr(0, colon)));
            if (name == "content-length" || name == "l")
            {
                if (found || !sip::ParseUnsigned(line.substr(colon + 1), length, 9))
                {
                    m_error = "bad or repeated Content-Length";
                    break;
                }
                found = true;
            }
        }
        if (!m_error.empty())
        {
            break;
        }
        if (!found)
        {
            m_error = "no Content-Length on a stream transport";
            break;
        }
        if (length > m_maxBodyBytes)
        {
            m_error = "body too long";
            break;
        }
        const std::size_t total = end + 4 + static_cast<std::size_t>(length);
        if (m_buffer.size() < total)
        {
            break; // wait for the rest of the body
        }
        messages.push_back(m_buffer.substr(0, total));
        m_buffer.erase(0, total);
    }
    return messages;
}

bool
SipStreamFramer::HasError() const
{
    return !m_error.empty();
}

const std::string&
SipStreamFramer::GetError() const
{
    return m_error;
}

std::size_t
SipStreamFramer::GetBufferedBytes() const
{
    return m_buffer.size();
}

} // namespace ns3
