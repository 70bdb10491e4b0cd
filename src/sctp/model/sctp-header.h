/*
 * SCTP wire format basics: the common header (RFC 9260 section 3.1) and bounds-checked
 * byte readers/writers used by every chunk and parameter class.
 *
 * Packets are parsed from a contiguous copy of their bytes. The reader never asserts:
 * reading past the end sets a failure flag and yields zeros, so a truncated or forged
 * packet can only ever be rejected, never crash the simulation.
 */
#ifndef SCTP_HEADER_H
#define SCTP_HEADER_H

#include <cstdint>
#include <cstring>
#include <vector>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief Appends network-byte-order fields to a byte vector.
 */
class SctpByteWriter
{
  public:
    explicit SctpByteWriter(std::vector<uint8_t>& buffer)
        : m_buf(buffer)
    {
    }

    void WriteU8(uint8_t v)
    {
        m_buf.push_back(v);
    }

    void WriteU16(uint16_t v)
    {
        m_buf.push_back(static_cast<uint8_t>(v >> 8));
        m_buf.push_back(static_cast<uint8_t>(v));
    }

    void WriteU32(uint32_t v)
    {
        m_buf.push_back(static_cast<uint8_t>(v >> 24));
        m_buf.push_back(static_cast<uint8_t>(v >> 16));
        m_buf.push_back(static_cast<uint8_t>(v >> 8));
        m_buf.push_back(static_cast<uint8_t>(v));
    }

    /** Append \p length bytes (out of line: GCC 12 inlining gives false overflow warnings). */
    void WriteBytes(const uint8_t* data, std::size_t length);

    /** Append zero bytes up to the next multiple of 4 (chunk and parameter padding). */
    void PadTo4()
    {
        while (m_buf.size() % 4 != 0)
        {
            m_buf.push_back(0);
        }
    }

    std::size_t GetPosition() const
    {
        return m_buf.size();
    }

    /** Overwrite a 16-bit field written earlier (chunk/parameter length fields). */
    void PatchU16(std::size_t position, uint16_t v)
    {
        m_buf[position] = static_cast<uint8_t>(v >> 8);
        m_buf[position + 1] = static_cast<uint8_t>(v);
    }

    std::vector<uint8_t>& GetBuffer()
    {
        return m_buf;
    }

  private:
    std::vector<uint8_t>& m_buf;
};

/**
 * \ingroup sctp
 * \brief Reads network-byte-order fields from a byte range; never reads out of bounds.
 */
class SctpByteReader
{
  public:
    SctpByteReader(const uint8_t* data, std::size_t length)
        : m_data(data),
          m_length(length)
    {
    }

    uint8_t ReadU8()
    {
        if (!Need(1))
        {
            return 0;
        }
        return m_data[m_pos++];
    }

    uint16_t ReadU16()
    {
        if (!Need(2))
        {
            return 0;
        }
        uint16_t v = static_cast<uint16_t>((m_data[m_pos] << 8) | m_data[m_pos + 1]);
        m_pos += 2;
        return v;
    }

    uint32_t ReadU32()
    {
        if (!Need(4))
        {
            return 0;
        }
        uint32_t v = (static_cast<uint32_t>(m_data[m_pos]) << 24) |
                     (static_cast<uint32_t>(m_data[m_pos + 1]) << 16) |
                     (static_cast<uint32_t>(m_data[m_pos + 2]) << 8) |
                     static_cast<uint32_t>(m_data[m_pos + 3]);
        m_pos += 4;
        return v;
    }

    /** Copy \p length bytes out; false (and failure flag) if fewer remain. */
    bool ReadBytes(uint8_t* out, std::size_t length)
    {
        if (!Need(length))
        {
            return false;
        }
        if (length > 0)
        {
            std::memcpy(out, m_data + m_pos, length);
        }
        m_pos += length;
        return true;
    }

    bool Skip(std::size_t length)
    {
        if (!Need(length))
        {
            return false;
        }
        m_pos += length;
        return true;
    }

    std::size_t GetRemaining() const
    {
        return m_length - m_pos;
    }

    std::size_t GetPosition() const
    {
        return m_pos;
    }

    const uint8_t* GetCurrent() const
    {
        return m_data + m_pos;
    }

    /** \return false once any read went past the end. */
    bool IsOk() const
    {
        return m_ok;
    }

  private:
    bool Need(std::size_t n)
    {
        if (!m_ok || m_length - m_pos < n)
        {
            m_ok = false;
            return false;
        }
        return true;
    }

    const uint8_t* m_data;
    std::size_t m_length;
    std::size_t m_pos{0};
    bool m_ok{true};
};

/**
 * \ingroup sctp
 * \brief The 12-byte SCTP common header (RFC 9260 section 3.1).
 *
 * The checksum covers the whole packet, so it is computed when the packet is complete
 * (SctpWriteChecksum) and verified before this header is parsed (SctpVerifyChecksum).
 */
class SctpCommonHeader
{
  public:
    static constexpr uint32_t SIZE = 12;

    uint16_t sourcePort{0};
    uint16_t destinationPort{0};
    uint32_t verificationTag{0};
    uint32_t checksum{0}; //!< as found on the wire, least significant byte first

    /** Write the header with a zero checksum field. */
    void Serialize(SctpByteWriter& w) const
    {
        w.WriteU16(sourcePort);
        w.WriteU16(destinationPort);
        w.WriteU32(verificationTag);
        w.WriteU32(0);
    }

    /** \return false if fewer than 12 bytes are available. */
    bool Deserialize(SctpByteReader& r)
    {
        sourcePort = r.ReadU16();
        destinationPort = r.ReadU16();
        verificationTag = r.ReadU32();
        checksum = r.ReadU32();
        return r.IsOk();
    }
};

/** Serial number arithmetic on 32-bit TSNs (RFC 9260 section 1.6, RFC 1982). */
inline bool
SctpTsnLt(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) < 0;
}

inline bool
SctpTsnLe(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) <= 0;
}

inline bool
SctpTsnGt(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) > 0;
}

inline bool
SctpTsnGe(uint32_t a, uint32_t b)
{
    return static_cast<int32_t>(a - b) >= 0;
}

/** Serial number comparison on 16-bit SSNs. */
inline bool
SctpSsnLt(uint16_t a, uint16_t b)
{
    return static_cast<int16_t>(static_cast<uint16_t>(a - b)) < 0;
}

} // namespace ns3

#endif /* SCTP_HEADER_H */
