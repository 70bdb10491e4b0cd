/*
 * The record format of the object transfers: every write carries a small header
 * saying which object the bytes belong to, so that a receiver can tell when each
 * object is complete however the objects are multiplexed on connections.
 */
#ifndef OBJECT_TRANSFER_RECORD_H
#define OBJECT_TRANSFER_RECORD_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * \ingroup transfer
 * Header of one record: magic, object id, payload length, offset of the payload in
 * the object, send time (ns). Network byte order, 20 bytes.
 */
struct ObjectTransferRecord
{
    static constexpr uint32_t SIZE = 20;
    static constexpr uint16_t MAGIC = 0x4f54; // "OT"

    uint16_t object{0};
    uint32_t length{0};
    uint32_t offset{0};
    int64_t sentNs{0};

    /** Write the header into \p out (SIZE bytes). */
    void Write(uint8_t* out) const;
    /** Read a header from \p in (SIZE bytes). \return false if the magic is wrong. */
    bool Read(const uint8_t* in);
};

} // namespace ns3

#endif // OBJECT_TRANSFER_RECORD_H
