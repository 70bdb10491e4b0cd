#include "link-failure.h"

#include "ns3/channel.h"
#include "ns3/csma-net-device.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkFailure");
NS_OBJECT_ENSURE_REGISTERED(UnpluggedErrorModel);
NS_OBJECT_ENSURE_REGISTERED(LinkFailure);

TypeId
UnpluggedErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::UnpluggedErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Sctp")
            .AddConstructor<UnpluggedErrorModel>()
            .AddAttribute("Inner",
                          "The device's own receive error model, consulted while plugged in.",
                          PointerValue(),
                          MakePointerAccessor(&UnpluggedErrorModel::m_inner),
                          MakePointerChecker<ErrorModel>());
    return tid;
}

uint32_t
UnpluggedErrorModel::GetDropped() const
{
    return m_dropped;
}

void
UnpluggedErrorModel::SetInner(Ptr<ErrorModel> inner)
{
    m_inner = inner;
}

Ptr<ErrorModel>
UnpluggedErrorModel::GetInner() const
{
    return m_inner;
}

void
UnpluggedErrorModel::DoDispose()
{
    m_inner = nullptr;
    ErrorModel::DoDispose();
}

bool
UnpluggedErrorModel::DoCorrupt(Ptr<Packet> p)
{
    // ErrorModel::IsCorrupt leaves the enabled check to the model: enabled = unplugged.
    if (IsEnabled())
    {
        ++m_dropped;
        return true;
    }
    return m_inner && m_inner->IsCorrupt(p);
}

void
UnpluggedErrorModel::DoReset()
{
    if (m_inner)
    {
        m_inner->Reset();
    }
}

TypeId
LinkFailure::GetTypeId()
{
    static TypeId tid = TypeId("ns3::LinkFailure").SetParent<Object>().SetGroupName("Sctp");
    return tid;
}

Ptr<UnpluggedErrorModel>
LinkFailure::ModelOf(Ptr<NetDevice> device, bool create)
{
    PointerValue current;
    if (!device->GetAttributeFailSafe("ReceiveErrorModel", current))
    {
        NS_ABORT_MSG("LinkFailure: device " << device->GetInstanceTypeId().GetName()
                                            << " has no ReceiveErrorModel attribute");
    }
    Ptr<UnpluggedErrorModel> model = DynamicCast<UnpluggedErrorModel>(current.GetObject());
    if (!model && create)
    {
        // The device's own error model (if any) keeps judging packets while plugged in.
        model = CreateObject<UnpluggedErrorModel>();
        model->Disable();
        model->SetInner(DynamicCast<ErrorModel>(current.GetObject()));
        device->SetAttribute("ReceiveErrorModel", PointerValue(model));
    }
    return model;
}

void
LinkFailure::SetUnplugged(Ptr<NetDevice> device, bool unplugged)
{
    NS_LOG_INFO((unplugged ? "unplug " : "plug ") << device->GetInstanceTypeId().GetName()
                                                  << " of node " << device->GetNode()->GetId());
    Ptr<UnpluggedErrorModel> model = ModelOf(device, true);
    unplugged ? model->Enable() : model->Disable();
    if (Ptr<CsmaNetDevice> csma = DynamicCast<CsmaNetDevice>(device))
    {
        csma->SetSendEnable(!unplugged);
        return;
    }
    // A point-to-point cable: what the device sends is lost at the other end too.
    Ptr<Channel> channel = device->GetChannel();
    if (channel && channel->GetNDevices() == 2)
    {
        Ptr<NetDevice> other =
            channel->GetDevice(0) == device ? channel->GetDevice(1) : channel->GetDevice(0);
        Ptr<UnpluggedErrorModel> otherModel = ModelOf(other, true);
        unplugged ? otherModel->Enable() : otherModel->Disable();
    }
}

void
LinkFailure::Unplug(Ptr<NetDevice> device)
{
    SetUnplugged(device, true);
}

void
LinkFailure::Plug(Ptr<NetDevice> device)
{
    SetUnplugged(device, false);
}

bool
LinkFailure::IsUnplugged(Ptr<NetDevice> device)
{
    Ptr<UnpluggedErrorModel> model = ModelOf(device, false);
    return model && model->IsEnabled();
}

void
LinkFailure::ScheduleUnplug(Time at, Ptr<NetDevice> device)
{
    ModelOf(device, true); // fail now, not in the middle of the run, if it cannot work
    Simulator::Schedule(at - Simulator::Now(), &LinkFailure::SetUnplugged, device, true);
}

void
LinkFailure::SchedulePlug(Time at, Ptr<NetDevice> device)
{
    Simulator::Schedule(at - Simulator::Now(), &LinkFailure::SetUnplugged, device, false);
}

void
LinkFailure::SetInterface(Ptr<Ipv4> ipv4, uint32_t interface, bool up)
{
    up ? ipv4->SetUp(interface) : ipv4->SetDown(interface);
}

void
LinkFailure::ScheduleInterfaceDown(Time at, Ptr<Ipv4> ipv4, uint32_t interface)
{
    Simulator::Schedule(at - Simulator::Now(), &LinkFailure::SetInterface, ipv4, interface, false);
}

void
LinkFailure::ScheduleInterfaceUp(Time at, Ptr<Ipv4> ipv4, uint32_t interface)
{
    Simulator::Schedule(at - Simulator::Now(), &LinkFailure::SetInterface, ipv4, interface, true);
}

} // namespace ns3
