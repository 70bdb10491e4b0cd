/*
 * Cutting SIP messages out of a byte stream (TCP), RFC 3261 section 18.3:
 * the header section ends at the first empty line and Content-Length, which
 * is mandatory on stream transports, gives the body length.
 */
#ifndef SIP_STREAM_FRAMER_H
#define SIP_STREAM_FRAMER_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup sip
 * \brief Reassembles complete SIP messages from stream segments.
 *
 * Feed received bytes with Append(); Extract() returns every message that is
 * complete so far and keeps the rest. A message split over any number of
 * segments, or several messages in one segment, come out the same. CRLF
 * keep-alives between messages are skipped (RFC 5626 section 3.5.1 double CRLF
 * ping; RFC 3261 7.5).
 *
 * A header section longer than the limit, or one without a valid
 * Content-Length, puts the framer in the error state: the stream cannot be
 * re-synchronised and the connection must be closed.
 */
class SipStreamFramer
{
  public:
    /** \param maxHeaderBytes largest header section accepted */
    explicit SipStreamFramer(std::size_t maxHeaderBytes = 16384, std::size_t maxBodyBytes = 65536);

    /** Add received bytes. */
    void Append(const uint8_t* data, std::size_t size);
    void Append(const std::string& data);

    /** Complete messages received so far, in order; removes them from the buffer. */
    std::vector<std::string> Extract();

    /** True once the stream could not be framed (see class description). */
    bool HasError() const;
    /** Why the framer failed. */
    const std::string& GetError() const;
    /** Bytes held waiting for the rest of a message. */
    std::size_t GetBufferedBytes() const;

  private:
    std::string m_buffer;
    std::size_t m_maxHeaderBytes;
    std::size_t m_maxBodyBytes;
    std::string m_error;
};

} // namespace ns3

#endif // SIP_STREAM_FRAMER_H
