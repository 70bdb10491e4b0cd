/*
 * Per-stream ordered delivery, shared by the two reassembly queues: complete ordered
 * messages go to the application in the order of their sequence number within their
 * stream (RFC 9260 6.6 for DATA's 16-bit SSN, RFC 8260 2.1 for I-DATA's 32-bit MID).
 * Both numbers wrap and are compared in serial number arithmetic, so one template over
 * the number's unsigned type serves both; the queues keep what differs (reassembly by
 * consecutive TSNs or by MID and FSN, and how FORWARD TSN or I-FORWARD-TSN name what to
 * skip).
 */
#ifndef SCTP_STREAM_ORDERING_H
#define SCTP_STREAM_ORDERING_H

#include "ns3/packet.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <deque>
#include <map>
#include <type_traits>
#include <vector>

namespace ns3
{

/** \ingroup sctp \brief A complete user message ready for the application. */
struct SctpReceivedMessage
{
    Ptr<Packet> data;
    uint16_t streamId{0};
    uint16_t ssn{0}; //!< with I-DATA: the low 16 bits of the MID
    uint32_t mid{0}; //!< I-DATA message identifier (RFC 8260 2.1); 0 with DATA
    uint32_t tsn{0}; //!< TSN of the first fragment
    uint32_t ppid{0};
    bool unordered{false};
};

/**
 * \ingroup sctp
 * \brief The next expected sequence number of each inbound stream and the complete
 *        messages that wait for an earlier one.
 * \tparam Seq uint16_t (SSN) or uint32_t (MID)
 */
template <typename Seq>
class SctpStreamOrdering
{
    static_assert(std::is_unsigned_v<Seq>, "sequence numbers are unsigned and wrap");

  public:
    /** \p a comes before \p b in serial number arithmetic (half the number space ahead). */
    static bool Before(Seq a, Seq b)
    {
        return static_cast<std::make_signed_t<Seq>>(static_cast<Seq>(a - b)) < 0;
    }

    /** \p streams inbound streams, each expecting number 0, nothing held. */
    void Initialize(uint16_t streams)
    {
        m_streams.assign(streams, Stream());
        m_heldBytes = 0;
    }

    /** \p count more inbound streams, each expecting number 0 (RFC 6525 5.2.5). */
    void AddStreams(uint16_t count)
    {
        m_streams.resize(m_streams.size() + count);
    }

    /** Number of inbound streams. */
    std::size_t GetStreamCount() const
    {
        return m_streams.size();
    }

    /** The next number \p streamId expects (0 for a stream that does not exist). */
    Seq GetNext(uint16_t streamId) const
    {
        return streamId < m_streams.size() ? m_streams[streamId].next : 0;
    }

    /** The next message expected on \p streamId is number 0 again (a stream reset). */
    void Reset(uint16_t streamId)
    {
        if (streamId < m_streams.size())
        {
            m_streams[streamId].next = 0;
        }
    }

    /** Bytes of user data of the complete messages that wait for an earlier number. */
    uint32_t GetHeldBytes() const
    {
        return m_heldBytes;
    }

    /**
     * A complete ordered \p message numbered \p seq on a valid stream: appended to \p out
     * with those that waited behind it if it is the next one, held if it is early,
     * dropped if its number was delivered or skipped already (only a misbehaving peer
     * sends that).
     */
    void Deliver(Seq seq, SctpReceivedMessage&& message, std::deque<SctpReceivedMessage>& out)
    {
        Stream& stream = m_streams[message.streamId];
        if (seq == stream.next)
        {
            out.push_back(std::move(message));
            ++stream.next;
            Flush(stream, out);
            return;
        }
        if (Before(seq, stream.next))
        {
            return;
        }
        uint32_t size = message.data->GetSize();
        if (stream.pending.emplace(seq, std::move(message)).second)
        {
            m_heldBytes += size;
        }
    }

    /**
     * The messages of \p streamId up to number \p seq were abandoned (FORWARD TSN,
     * I-FORWARD-TSN): what is held up to \p seq is delivered and the stream goes on after
     * it. A number the stream has passed already changes nothing.
     */
    void SkipTo(uint16_t streamId, Seq seq, std::deque<SctpReceivedMessage>& out)
    {
        if (streamId >= m_streams.size())
        {
            return;
        }
        Stream& stream = m_streams[streamId];
        if (Before(seq, stream.next))
        {
            return;
        }
        while (!stream.pending.empty() && !Before(seq, stream.pending.begin()->first))
        {
            Release(stream, out);
        }
        stream.next = static_cast<Seq>(seq + 1);
        Flush(stream, out);
    }

  private:
    struct Less
    {
        bool operator()(Seq a, Seq b) const
        {
            return Before(a, b);
        }
    };

    struct Stream
    {
        Seq next{0};
        std::map<Seq, SctpReceivedMessage, Less> pending; //!< complete, waiting
    };

    /** The first held message of \p stream goes to \p out. */
    void Release(Stream& stream, std::deque<SctpReceivedMessage>& out)
    {
        auto it = stream.pending.begin();
        m_heldBytes -= it->second.data->GetSize();
        out.push_back(std::move(it->second));
        stream.pending.erase(it);
    }

    /** Deliver the held messages that are next in line. */
    void Flush(Stream& stream, std::deque<SctpReceivedMessage>& out)
    {
        while (!stream.pending.empty() && stream.pending.begin()->first == stream.next)
        {
            Release(stream, out);
            ++stream.next;
        }
    }

    std::vector<Stream> m_streams;
    uint32_t m_heldBytes{0};
};

} // namespace ns3

#endif /* SCTP_STREAM_ORDERING_H */
