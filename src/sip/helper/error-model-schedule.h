/*
 * Switching an ns-3 error model on or off at a given simulation time (for
 * example: no loss while user agents register, loss from the start of the
 * measurement on). Python cannot schedule member functions, so this lives in C++.
 */
#ifndef ERROR_MODEL_SCHEDULE_H
#define ERROR_MODEL_SCHEDULE_H

#include "ns3/error-model.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup sip
 * Enable (\p enable true) or disable \p model at absolute time \p at.
 */
void ScheduleErrorModelState(Ptr<ErrorModel> model, Time at, bool enable);

} // namespace ns3

#endif // ERROR_MODEL_SCHEDULE_H
