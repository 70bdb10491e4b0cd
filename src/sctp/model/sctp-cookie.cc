#include "sctp-cookie.h"

#include "sctp-header.h"

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv6-address.h"

#include <cstring>

namespace ns3
{

namespace
{

constexpr uint32_t kSha256K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

inline uint32_t
Rotr(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

void
Sha256Block(uint32_t h[8], const uint8_t block[64])
{
    uint32_t w[64];
    for (int t = 0; t < 16; ++t)
    {
        w[t] = (static_cast<uint32_t>(block[4 * t]) << 24) |
               (static_cast<uint32_t>(block[4 * t + 1]) << 16) |
               (static_cast<uint32_t>(block[4 * t + 2]) << 8) | block[4 * t + 3];
    }
    for (int t = 16; t < 64; ++t)
    {
        uint32_t s0 = Rotr(w[t - 15], 7) ^ Rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = Rotr(w[t - 2], 17) ^ Rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; ++t)
    {
        uint32_t s1 = Rotr(e, 6) ^ Rotr(e, 11) ^ Rotr(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = hh + s1 + ch + kSha256K[t] + w[t];
        uint32_t s0 = Rotr(a, 2) ^ Rotr(a, 13) ^ Rotr(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = s0 + maj;
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

void
WriteAddress(SctpByteWriter& w, const Address& a)
{
    if (Ipv4Address::IsMatchingType(a))
    {
        uint8_t b[4];
        Ipv4Address::ConvertFrom(a).Serialize(b);
        w.WriteU8(4);
        w.WriteBytes(b, 4);
    }
    else if (Ipv6Address::IsMatchingType(a))
    {
        uint8_t b[16];
        Ipv6Address::ConvertFrom(a).Serialize(b);
        w.WriteU8(6);
        w.WriteBytes(b, 16);
    }
}

} // namespace

std::array<uint8_t, 32>
SctpSha256(const uint8_t* data, std::size_t length)
{
    uint32_t h[8] = {0x6a09e667,
                     0xbb67ae85,
                     0x3c6ef372,
                     0xa54ff53a,
                     0x510e527f,
                     0x9b05688c,
                     0x1f83d9ab,
                     0x5be0cd19};
    std::size_t full = length / 64;
    for (std::size_t i = 0; i < full; ++i)
    {
        Sha256Block(h, data + 64 * i);
    }
    uint8_t tail[128] = {};
    std::size_t rest = length - 64 * full;
    if (rest > 0)
    {
        std::memcpy(tail, data + 64 * full, rest);
    }
    tail[rest] = 0x80;
    std::size_t tailBlocks = (rest + 1 + 8 <= 64) ? 1 : 2;
    uint64_t bits = static_cast<uint64_t>(length) * 8;
    for (int i = 0; i < 8; ++i)
    {
        tail[64 * tailBlocks - 1 - i] = static_cast<uint8_t>(bits >> (8 * i));
    }
    for (std::size_t i = 0; i < tailBlocks; ++i)
    {
        Sha256Block(h, tail + 64 * i);
    }
    std::array<uint8_t, 32> out{};
    for (int i = 0; i < 8; ++i)
    {
        out[4 * i] = static_cast<uint8_t>(h[i] >> 24);
        out[4 * i + 1] = static_cast<uint8_t>(h[i] >> 16);
        out[4 * i + 2] = static_cast<uint8_t>(h[i] >> 8);
        out[4 * i + 3] = static_cast<uint8_t>(h[i]);
    }
    return out;
}

std::array<uint8_t, 32>
SctpHmacSha256(const std::vector<uint8_t>& key, const uint8_t* data, std::size_t length)
{
    uint8_t k[64] = {};
    if (key.size() > 64)
    {
        auto hashed = SctpSha256(key.data(), key.size());
        std::memcpy(k, hashed.data(), 32);
    }
    else if (!key.empty())
    {
        std::memcpy(k, key.data(), key.size());
    }
    std::vector<uint8_t> inner(64 + length);
    for (int i = 0; i < 64; ++i)
    {
        inner[i] = k[i] ^ 0x36;
    }
    if (length > 0)
    {
        std::memcpy(inner.data() + 64, data, length);
    }
    auto innerHash = SctpSha256(inner.data(), inner.size());
    uint8_t outer[64 + 32];
    for (int i = 0; i < 64; ++i)
    {
        outer[i] = k[i] ^ 0x5c;
    }
    std::memcpy(outer + 64, innerHash.data(), 32);
    return SctpSha256(outer, sizeof(outer));
}

std::vector<uint8_t>
SctpCookie::Seal(const std::vector<uint8_t>& key) const
{
    std::vector<uint8_t> out;
    SctpByteWriter w(out);
    w.WriteU32(static_cast<uint32_t>(static_cast<uint64_t>(creationTimeNs) >> 32));
    w.WriteU32(static_cast<uint32_t>(creationTimeNs));
    w.WriteU32(lifetimeMs);
    w.WriteU32(localTag);
    w.WriteU32(peerTag);
    w.WriteU32(localInitialTsn);
    w.WriteU32(peerInitialTsn);
    w.WriteU32(peerRwnd);
    w.WriteU16(outboundStreams);
    w.WriteU16(inboundStreams);
    w.WriteU32(localTieTag);
    w.WriteU32(peerTieTag);
    w.WriteU16(localPort);
    w.WriteU16(peerPort);
    // One byte of peer capabilities (bit 0 PR-SCTP, bit 1 I-DATA): the cookie's size and,
    // without I-DATA, its bytes are those of the model before I-DATA existed.
    // Bit 2: RE-CONFIG (RFC 6525), 0 unless negotiated, so the bytes stay as they were.
    w.WriteU8((peerForwardTsn ? 1 : 0) | (peerIData ? 2 : 0) | (peerReconfig ? 4 : 0));
    w.WriteU8(static_cast<uint8_t>(std::min<std::size_t>(peerAddresses.size(), 255)));
    for (std::size_t i = 0; i < peerAddresses.size() && i < 255; ++i)
    {
        WriteAddress(w, peerAddresses[i]);
    }
    auto mac = SctpHmacSha256(key, out.data(), out.size());
    w.WriteBytes(mac.data(), mac.size());
    return out;
}

bool
SctpCookie::Open(const std::vector<uint8_t>& key, const std::vector<uint8_t>& sealed)
{
    if (sealed.size() < MAC_SIZE + 50)
    {
        return false;
    }
    std::size_t bodyLength = sealed.size() - MAC_SIZE;
    auto mac = SctpHmacSha256(key, sealed.data(), bodyLength);
    uint8_t diff = 0;
    for (uint32_t i = 0; i < MAC_SIZE; ++i)
    {
        diff |= static_cast<uint8_t>(mac[i] ^ sealed[bodyLength + i]);
    }
    if (diff != 0)
    {
        return false;
    }
    SctpByteReader r(sealed.data(), bodyLength);
    uint64_t hi = r.ReadU32();
    uint64_t lo = r.ReadU32();
    creationTimeNs = static_cast<int64_t>((hi << 32) | lo);
    lifetimeMs = r.ReadU32();
    localTag = r.ReadU32();
    peerTag = r.ReadU32();
    localInitialTsn = r.ReadU32();
    peerInitialTsn = r.ReadU32();
    peerRwnd = r.ReadU32();
    outboundStreams = r.ReadU16();
    inboundStreams = r.ReadU16();
    localTieTag = r.ReadU32();
    peerTieTag = r.ReadU32();
    localPort = r.ReadU16();
    peerPort = r.ReadU16();
    uint8_t capabilities = r.ReadU8();
    peerForwardTsn = (capabilities & 1) != 0;
    peerIData = (capabilities & 2) != 0;
    peerReconfig = (capabilities & 4) != 0;
    uint8_t n = r.ReadU8();
    peerAddresses.clear();
    for (uint8_t i = 0; i < n && r.IsOk(); ++i)
    {
        uint8_t family = r.ReadU8();
        if (family == 4)
        {
            uint8_t b[4];
            if (r.ReadBytes(b, 4))
            {
                peerAddresses.push_back(Ipv4Address::Deserialize(b));
            }
        }
        else if (family == 6)
        {
            uint8_t b[16];
            if (r.ReadBytes(b, 16))
            {
                peerAddresses.push_back(Ipv6Address::Deserialize(b));
            }
        }
        else
        {
            return false;
        }
    }
    return r.IsOk() && !peerAddresses.empty();
}

Time
SctpCookie::GetStaleness(Time now) const
{
    return now - (NanoSeconds(creationTimeNs) + MilliSeconds(lifetimeMs));
}

} // namespace ns3
