#include "analysis/json/gpu_time_breakdown_json.h"

#include "analysis/json/json_units.h"

namespace strata {

namespace {

using json_units::us;

void putSplit(nlohmann::json& j, const GpuTimeSplit& s) {
    j["ops"] = s.ops;
    j["total_us"] = us(double(s.total));
    j["computation_us"] = us(double(s.computation));
    j["communication_us"] = us(double(s.communication));
    j["exposed_comm_us"] = us(double(s.exposedComm));
    j["memcpy_us"] = us(double(s.memcpy));
    j["exposed_memcpy_us"] = us(double(s.exposedMemcpy));
    j["busy_us"] = us(double(s.busy));
    j["idle_us"] = us(double(s.idle));
}

nlohmann::json rule(BreakdownOps ops) {
    return {
        {"ops", ops == BreakdownOps::Linked
                    ? "linked: the kernels, copies and sets a runtime call launched (by "
                      "correlation), as TraceLens counts"
                    : "all: every kernel, copy and set whose start lies in the range"},
        {"communication", "kernels and sets named as collectives (nccl, rccl, all_reduce, "
                          "all_gather, reduce_scatter, alltoall, cross_device_reduce)"},
        {"memcpy", "copies, and ROCm's copy kernels (__amd_rocclr_copyBuffer*, MEMORY_COPY_*)"},
        {"computation", "every other kernel, and sets"},
        {"exposed", "exposed_comm: communication not overlapped by computation; "
                    "exposed_memcpy: memcpy overlapped by neither"},
        {"total", "first op start to latest op end per device; busy: union of all ops; "
                  "idle = total - busy = total - computation - exposed_comm - exposed_memcpy"},
        {"steps", "a step holds the ops launched inside it (an op with no launch: those that "
                  "start inside it); its total runs from its first op's start to its last "
                  "op's end"},
    };
}

} // namespace

nlohmann::json gpuTimeBreakdownToJson(const Trace& trace, const GpuTimeBreakdown& b) {
    const TimeNs origin = trace.bounds().start;
    nlohmann::json devices = nlohmann::json::array();
    for (const DeviceTimeBreakdown& d : b.devices) {
        nlohmann::json j;
        j["device"] = d.device;
        putSplit(j, d.split);
        nlohmann::json steps = nlohmann::json::array();
        for (const StepTimeSplit& s : d.steps) {
            nlohmann::json st;
            st["step"] = s.step.name;
            st["start_us"] = us(double(s.step.start - origin));
            st["end_us"] = us(double(s.step.end - origin));
            putSplit(st, s.split);
            steps.push_back(std::move(st));
        }
        j["steps"] = std::move(steps);
        devices.push_back(std::move(j));
    }
    return {{"devices", std::move(devices)},
            {"unlinked_left_out", b.unlinkedLeftOut},
            {"rule", rule(b.ops)}};
}

} // namespace strata
