/*
 * Link failures for multi-homing experiments (used by the SCTP tests and the
 * multihoming_failover study, but not tied to SCTP): "unplug the cable" of a device
 * without telling IP (the 2002 Linux host of seed 002 section 5.5 did not notice), plug
 * it back, or take an IP interface down the way a host that notices the carrier loss
 * does (its routes through that interface disappear).
 */
#ifndef LINK_FAILURE_H
#define LINK_FAILURE_H

#include "ns3/error-model.h"
#include "ns3/ipv4.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup sctp
 * \brief An error model that drops every packet while enabled (a cable pulled out).
 *
 * A device has one receive error model. When it already has one (random loss, a drop
 * list), this model takes its place and keeps it as the inner model: while plugged in,
 * every packet is judged by the inner model as before; while unplugged, every packet is
 * dropped and the inner model sees none (as nothing reaches the device).
 */
class UnpluggedErrorModel : public ErrorModel
{
  public:
    static TypeId GetTypeId();
    /** Packets dropped while unplugged. */
    uint32_t GetDropped() const;
    /** The device's own receive error model, consulted while plugged in (may be null). */
    void SetInner(Ptr<ErrorModel> inner);
    Ptr<ErrorModel> GetInner() const;

  protected:
    void DoDispose() override;

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;
    uint32_t m_dropped{0};
    Ptr<ErrorModel> m_inner;
};

/**
 * \ingroup sctp
 * \brief Schedules link failures and repairs.
 */
class LinkFailure : public Object
{
  public:
    static TypeId GetTypeId();

    /**
     * Cut \p device off its channel at \p at, IP unaware: nothing arrives at it, and
     * nothing it sends arrives anywhere (point-to-point: the other end drops it too;
     * CSMA: the device stops transmitting). A receive error model already set on either
     * device (before this call or later, before the unplug) keeps working whenever the
     * cable is plugged in (UnpluggedErrorModel wraps it); one set while the device is
     * unplugged replaces the unplugged state.
     */
    static void ScheduleUnplug(Time at, Ptr<NetDevice> device);
    /** Undo ScheduleUnplug at \p at. */
    static void SchedulePlug(Time at, Ptr<NetDevice> device);
    /** Take IP interface \p interface of \p ipv4 down (or up) at \p at. */
    static void ScheduleInterfaceDown(Time at, Ptr<Ipv4> ipv4, uint32_t interface);
    static void ScheduleInterfaceUp(Time at, Ptr<Ipv4> ipv4, uint32_t interface);

    static void Unplug(Ptr<NetDevice> device);
    static void Plug(Ptr<NetDevice> device);
    static bool IsUnplugged(Ptr<NetDevice> device);

  private:
    static Ptr<UnpluggedErrorModel> ModelOf(Ptr<NetDevice> device, bool create);
    static void SetUnplugged(Ptr<NetDevice> device, bool unplugged);
    static void SetInterface(Ptr<Ipv4> ipv4, uint32_t interface, bool up);
};

} // namespace ns3

#endif /* LINK_FAILURE_H */
