/*
 * Time series of ns-3 TracedValues (cwnd, ssthresh, RTO, queue length...)
 * recorded in C++ and read from Python once per run.
 */
#ifndef TRACED_VALUE_RECORDER_H
#define TRACED_VALUE_RECORDER_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \brief Records changes of numeric TracedValues as (series, time, value) rows.
 *
 * A series is a user-chosen id, one per watched trace source. Values of
 * integer, floating-point and Time trace sources are stored as double (Time in
 * seconds). Sockets are usually created when an application starts, so their
 * trace sources can be connected later with the *At variants, which schedule
 * the connection inside the simulation.
 */
class TracedValueRecorder : public Object
{
  public:
    /** The value type of the TracedValue to watch. */
    enum ValueType : uint8_t
    {
        UINT32 = 0,
        INT32 = 1,
        DOUBLE = 2,
        TIME = 3,
        UINT64 = 4,
    };

    static TypeId GetTypeId();
    TracedValueRecorder();
    ~TracedValueRecorder() override;

    /** Connect trace source \p name of \p object now. \return false if it does not exist. */
    bool Watch(Ptr<Object> object, const std::string& name, ValueType type, uint32_t series);

    /** Connect every trace source matching the Config \p path now. \return false if none matched. */
    bool WatchPath(const std::string& path, ValueType type, uint32_t series);

    /** Schedule WatchPath(path, type, series) at simulation time \p when. */
    void WatchPathAt(Time when, const std::string& path, ValueType type, uint32_t series);

    /** Append one sample at the current simulation time. */
    void Record(uint32_t series, double value);

    std::size_t GetN() const;
    void Clear();
    const std::vector<uint32_t>& GetSeries() const;
    const std::vector<int64_t>& GetTimesNs() const;
    const std::vector<double>& GetValues() const;
    /** Paths given to WatchPathAt that matched nothing when their time came. */
    const std::vector<std::string>& GetUnmatchedPaths() const;

  private:
    std::vector<uint32_t> m_series;
    std::vector<int64_t> m_timesNs;
    std::vector<double> m_values;
    std::vector<std::string> m_unmatched;
};

} // namespace ns3

#endif // TRACED_VALUE_RECORDER_H
