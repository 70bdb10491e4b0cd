#include "error-model-schedule.h"

#include "ns3/simulator.h"

namespace ns3
{

void
ScheduleErrorModelState(Ptr<ErrorModel> model, Time at, bool enable)
{
    Simulator::Schedule(at - Simulator::Now(),
                        enable ? &ErrorModel::Enable : &ErrorModel::Disable,
                        model);
}

} // namespace ns3
