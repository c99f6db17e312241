#pragma once
// Step time by role (issue 46), under the rule of the PyTorch profiler's TensorBoard plugin
// ("Overview": torch_tb_profiler/profiler/event_parser.py and overall_parser.py), so a user coming
// from it reads the same figures:
//   roles, in priority order: kernel, memcpy, memset, communication, runtime, data loading,
//   CPU op; "other" is the rest of the step. Each instant of a step counts once, for the first
//   role active then (a kernel under a runtime call is kernel time). Roles are taken over every
//   device and thread together, by the plugin's categories (a slice's category where the trace
//   has one; a Strata recording's kernels, copies and sets by their kind):
//     kernel         kernels that are not communication;
//     memcpy, memset copies and sets;
//     communication  the CPU ops named as the plugin's collectives (nccl: or gloo: broadcast,
//                    reduce, all_reduce, all_gather, reduce_scatter) and the kernels that share
//                    an External id with one (not kernelCategory(): an NCCL kernel launched by
//                    another op, or with no External id, is kernel time under this rule);
//     runtime        runtime API calls (categories runtime, cuda_runtime, mtia_runtime,
//                    glow_runtime, xpu_runtime, privateuse1_runtime; driver calls are not);
//     data loading   `enumerate(DataLoader)#...__next__` and `enumerate(DataPipe)#...` spans;
//     CPU op         every other slice of category cpu_op, operator, python, user_annotation or
//                    gpu_user_annotation (steps excepted; python_function frames are not).
//   steps          ProfilerStep#N (or --step-name), stretched to their device work as the plugin
//                  does: a step ends at the latest end of the GPU ops launched by the runtime
//                  calls that lie wholly inside it (if later than its CPU end), and starts no
//                  earlier than the previous step's end (or, for the first, than the end of GPU
//                  work launched before any step); trailing steps that launched no GPU work, or
//                  under 80 % of the step before, are left out (their kernels may be cut off).
//                  No step at all: one step "0" over the CPU ops (none when there is no CPU
//                  op: the plugin then makes a step of an empty span).
//   overlap        per step: computation (kernel time), communication, their overlap, and
//                  other = step - computation - communication + overlap (CPU ops stand for
//                  computation where the trace has no kernel).
#include "analysis/trace_steps.h"
#include "model/trace.h"

#include <array>
#include <string>
#include <vector>

namespace strata {

enum class StepRole : uint8_t {
    Kernel,
    Memcpy,
    Memset,
    Communication,
    Runtime,
    DataLoading,
    CpuOp,
    Other,
};
constexpr int kStepRoleCount = 8;
const char* stepRoleName(StepRole r); // "kernel", "memcpy", ..., "data_loading", "cpu_op", "other"

struct StepRoleTimes {
    std::string name;          // the step's name ("ProfilerStep#3"; "0" when the trace has none)
    TimeNs start = 0, end = 0; // stretched to its device work
    std::array<TimeNs, kStepRoleCount> role{}; // sums to end - start
    TimeNs computation = 0, communication = 0, overlap = 0, otherThanBoth = 0;
    TimeNs duration() const { return end - start; }
    friend bool operator==(const StepRoleTimes&, const StepRoleTimes&) = default;
};

struct StepRoles {
    std::vector<StepRoleTimes> steps;
    size_t tailStepsLeftOut = 0; // trailing steps with too little GPU work
    friend bool operator==(const StepRoles&, const StepRoles&) = default;
};

// The plugin's steps (the header's "steps"), without the roles: what the roles are split over
// and what its GPU metrics are averaged over (ops/kernel_metrics.h). Costs a pass over the slices.
struct TensorBoardSteps {
    std::vector<TraceStep> steps; // stretched, in order; step "0" when the trace has none
    size_t tailLeftOut = 0;       // trailing steps with too little GPU work
    // [first step's start, last step's end); empty when there is no step.
    TimeRange span() const;
};
// `stepPrefix` as findSteps takes it (empty: ProfilerStep#).
TensorBoardSteps tensorBoardSteps(const Trace& trace, const std::string& stepPrefix = {});

StepRoles stepRoles(const Trace& trace, const TensorBoardSteps& steps,
                    const std::string& stepPrefix = {});
inline StepRoles stepRoles(const Trace& trace, const std::string& stepPrefix = {}) {
    return stepRoles(trace, tensorBoardSteps(trace, stepPrefix), stepPrefix);
}

} // namespace strata
