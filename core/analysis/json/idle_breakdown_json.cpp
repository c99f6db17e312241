#include "analysis/json/idle_breakdown_json.h"

#include "analysis/json/json_units.h"

#include <map>
#include <utility>

namespace strata {

namespace {

using json_units::us;

nlohmann::json idleJson(const IdleSplit& s) {
    return {{"host_wait_us", us(double(s.hostWait))},
            {"kernel_wait_us", us(double(s.kernelWait))},
            {"other_us", us(double(s.other))},
            {"total_us", us(double(s.total()))},
            {"host_wait_intervals", s.hostWaitIntervals},
            {"kernel_wait_intervals", s.kernelWaitIntervals},
            {"other_intervals", s.otherIntervals}};
}

nlohmann::json queueJson(const StreamQueue* q, TimeNs origin, bool series) {
    nlohmann::json j = {{"launches", q ? q->launches : 0},
                        {"max_length", q ? q->maxLength : 0},
                        {"time_at_max_us", us(double(q ? q->timeAtMax : 0))},
                        {"time_at_limit_us", us(double(q ? q->timeAtLimit : 0))}};
    if (!series) return j;
    nlohmann::json points = nlohmann::json::array();
    if (q)
        for (const QueuePoint& p : q->series)
            points.push_back(nlohmann::json::array({us(double(p.time - origin)), p.length}));
    j["series"] = std::move(points);
    return j;
}

nlohmann::json rule() {
    return {
        {"idle", "HTA's get_idle_time_breakdown per (device, stream): the stream's own kernels, "
                 "copies and sets in start order; one interval per op after the first: its "
                 "start minus the previous op's end (negative where they overlap); nothing "
                 "before the first op or after the last"},
        {"host_wait", "the op's launch call started after the previous op ended"},
        {"kernel_wait", "not host wait, and the interval < kernel_delay_us (HTA's "
                        "consecutive_kernel_delay, 30 in its microseconds by default)"},
        {"other", "the rest (an op with no launch call found is never host wait)"},
        {"queue", "HTA's queue length: +1 at a listed launch call (cudaLaunchKernel, "
                  "cudaMemcpyAsync, cudaMemsetAsync, cuLaunchKernel, hipLaunchKernel, ...), -1 "
                  "at its op's start; starts before launches at equal times; time_at_max / "
                  "time_at_limit: the time to the next point summed over the points at the "
                  "maximum / at >= queue_limit"},
    };
}

} // namespace

nlohmann::json idleBreakdownToJson(const Trace& trace, const IdleBreakdown& idle,
                                   const LaunchQueue& queue, bool series) {
    const TimeNs origin = trace.bounds().start;
    std::map<std::pair<int32_t, int64_t>, const StreamQueue*> queues;
    for (const StreamQueue& q : queue.streams) queues[{q.device, q.stream}] = &q;
    nlohmann::json streams = nlohmann::json::array();
    for (const StreamIdle& s : idle.streams) {
        const auto it = queues.find({s.device, s.stream});
        streams.push_back(
            {{"device", s.device},
             {"stream", s.stream},
             {"ops", s.ops},
             {"without_launch", s.withoutLaunch},
             {"idle", idleJson(s.split)},
             {"queue", queueJson(it == queues.end() ? nullptr : it->second, origin, series)}});
    }
    return {{"kernel_delay_us", double(idle.kernelDelay) / 1000.0},
            {"queue_limit", queue.limit},
            {"not_launched", queue.notLaunched},
            {"streams", std::move(streams)},
            {"rule", rule()}};
}

} // namespace strata
