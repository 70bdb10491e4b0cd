#include "traced-value-recorder.h"

#include "ns3/config.h"
#include "ns3/log.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TracedValueRecorder");
NS_OBJECT_ENSURE_REGISTERED(TracedValueRecorder);

namespace
{

/** Build the (old, new) callback for a TracedValue<T> that appends the new value. */
template <typename T>
Callback<void, T, T>
MakeSampleCallback(TracedValueRecorder* recorder, uint32_t series)
{
    return Callback<void, T, T>([recorder, series](T, T newValue) {
        recorder->Record(series, static_cast<double>(newValue));
    });
}

Callback<void, Time, Time>
MakeTimeSampleCallback(TracedValueRecorder* recorder, uint32_t series)
{
    return Callback<void, Time, Time>(
        [recorder, series](Time, Time newValue) { recorder->Record(series, newValue.GetSeconds()); });
}

template <typename Connector>
bool
ConnectTyped(TracedValueRecorder* recorder,
             TracedValueRecorder::ValueType type,
             uint32_t series,
             Connector connect)
{
    switch (type)
    {
    case TracedValueRecorder::UINT32:
        return connect(MakeSampleCallback<uint32_t>(recorder, series));
    case TracedValueRecorder::INT32:
        return connect(MakeSampleCallback<int32_t>(recorder, series));
    case TracedValueRecorder::DOUBLE:
        return connect(MakeSampleCallback<double>(recorder, series));
    case TracedValueRecorder::UINT64:
        return connect(MakeSampleCallback<uint64_t>(recorder, series));
    case TracedValueRecorder::TIME:
        return connect(MakeTimeSampleCallback(recorder, series));
    }
    return false;
}

} // namespace

TypeId
TracedValueRecorder::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TracedValueRecorder")
                            .SetParent<Object>()
                            .SetGroupName("Recorder")
                            .AddConstructor<TracedValueRecorder>();
    return tid;
}

TracedValueRecorder::TracedValueRecorder()
{
    NS_LOG_FUNCTION(this);
}

TracedValueRecorder::~TracedValueRecorder()
{
    NS_LOG_FUNCTION(this);
}

bool
TracedValueRecorder::Watch(Ptr<Object> object, const std::string& name, ValueType type, uint32_t series)
{
    NS_LOG_FUNCTION(this << object << name << series);
    return ConnectTyped(this, type, series, [&](const CallbackBase& cb) {
        return object->TraceConnectWithoutContext(name, cb);
    });
}

bool
TracedValueRecorder::WatchPath(const std::string& path, ValueType type, uint32_t series)
{
    NS_LOG_FUNCTION(this << path << series);
    return ConnectTyped(this, type, series, [&](const CallbackBase& cb) {
        return Config::ConnectWithoutContextFailSafe(path, cb);
    });
}

void
TracedValueRecorder::WatchPathAt(Time when, const std::string& path, ValueType type, uint32_t series)
{
    NS_LOG_FUNCTION(this << when << path << series);
    Ptr<TracedValueRecorder> self(this);
    Simulator::Schedule(when - Simulator::Now(), [self, path, type, series]() {
        if (!self->WatchPath(path, type, series))
        {
            self->m_unmatched.push_back(path);
        }
    });
}

void
TracedValueRecorder::Record(uint32_t series, double value)
{
    m_series.push_back(series);
    m_timesNs.push_back(Simulator::Now().GetNanoSeconds());
    m_values.push_back(value);
}

std::size_t
TracedValueRecorder::GetN() const
{
    return m_series.size();
}

void
TracedValueRecorder::Clear()
{
    m_series.clear();
    m_timesNs.clear();
    m_values.clear();
    m_unmatched.clear();
}

const std::vector<uint32_t>&
TracedValueRecorder::GetSeries() const
{
    return m_series;
}

const std::vector<int64_t>&
TracedValueRecorder::GetTimesNs() const
{
    return m_timesNs;
}

const std::vector<double>&
TracedValueRecorder::GetValues() const
{
    return m_values;
}

const std::vector<std::string>&
TracedValueRecorder::GetUnmatchedPaths() const
{
    return m_unmatched;
}

} // namespace ns3
