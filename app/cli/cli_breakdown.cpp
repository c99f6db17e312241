// strata-cli breakdown: where each device's GPU time went with overlap accounted (computation,
// communication and memcpy, their exposed parts, busy, idle; core/analysis/ops/
// gpu_time_breakdown.h), per device and per step, as a table or (--json) one JSON object; for
// several FILEs (the ranks of a job) each one's, then the step time by role per rank
// (core/analysis/ranks/rank_step_roles.h: a row per rank, in rank order, and the whole).
#include "cli_commands.h"
#include "cli_options.h"
#include "util/terminal_text.h"

#include "analysis/json/gpu_time_breakdown_json.h"
#include "analysis/json/rank_step_roles_json.h"
#include "analysis/json/step_roles_json.h"
#include "analysis/ops/gpu_time_breakdown.h"
#include "analysis/ops/step_roles.h"
#include "model/names/time_text.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

namespace {

using namespace strata;

const char* const kUsage =
    "usage: strata-cli breakdown [--json] [--ops all|linked] [--step-name PREFIX]\n"
    "                            [--range-us START:END] [--step NAME] FILE...\n"
    "\n"
    "  --json               one JSON object: devices [{device, ops, total_us, computation_us,\n"
    "                       communication_us, exposed_comm_us, memcpy_us, exposed_memcpy_us,\n"
    "                       busy_us, idle_us, steps [...]}], unlinked_left_out, rule,\n"
    "                       step_roles {steps [{step, total_us, kernel_us, memcpy_us,\n"
    "                       memset_us, communication_us, runtime_us, data_loading_us,\n"
    "                       cpu_op_us, other_us, overlap {...}}], average} (several FILEs:\n"
    "                       {traces: [{file, ...}], ranks: [{rank, file, host, step_roles\n"
    "                       {steps_summed, total_us, kernel_us, ..., overlap {...}, steps\n"
    "                       [...], tail_steps_left_out}}], whole {step_roles}, rank_step})\n"
    "  --ops all|linked     every kernel, copy and set (all, the default), or only those a\n"
    "                       runtime call launched (linked: as TraceLens counts)\n"
    "  --step-name PREFIX   steps are the slices named PREFIX... (default ProfilerStep#)\n"
    "  --range-us START:END only ops that start in [START, END) µs from the trace start\n"
    "  --step NAME          several FILEs: the per-rank step roles of the steps named NAME\n"
    "                       (ProfilerStep#12) alone (default: summed over every step)\n"
    "The rule (docs/analysis.md, \"GPU time breakdown\"): communication is NCCL/RCCL and other\n"
    "collective kernels, memcpy is copies and ROCm's copy kernels, computation the rest;\n"
    "exposed communication is not overlapped by computation, exposed memcpy by neither;\n"
    "total runs from the first op's start to the last op's end, idle = total - busy.\n"
    "Step time by role (the TensorBoard profiler's Overview): each instant of a step counted\n"
    "once, for the first role active then: kernel, memcpy, memset, communication, runtime,\n"
    "data loading, CPU op, other. Several FILEs (the ranks of a job): after each one's\n"
    "tables, a rank x role table of the step time summed over each rank's steps (each rank's\n"
    "own steps, as for it alone), with the comm/compute overlap, and their sum over the ranks.\n";

std::string share(TimeNs part, TimeNs total) {
    char b[16];
    std::snprintf(b, sizeof b, "%5.1f%%", total > 0 ? 100.0 * double(part) / double(total) : 0.0);
    return b;
}

void printRow(const char* label, const GpuTimeSplit& s) {
    std::printf("%-24s %12s %12s %12s %12s %12s %12s %12s %12s\n", label,
                formatDuration(s.total).c_str(), formatDuration(s.computation).c_str(),
                formatDuration(s.communication).c_str(), formatDuration(s.exposedComm).c_str(),
                formatDuration(s.memcpy).c_str(), formatDuration(s.exposedMemcpy).c_str(),
                formatDuration(s.busy).c_str(), formatDuration(s.idle).c_str());
}

void printTable(const std::string& file, const GpuTimeBreakdown& b) {
    std::printf("%s: GPU time breakdown (%s ops)\n", terminalSafe(file).c_str(),
                breakdownOpsName(b.ops));
    if (b.devices.empty())
        std::printf("no kernel, copy or set%s\n",
                    b.ops == BreakdownOps::Linked ? " a runtime call launched" : "");
    if (b.unlinkedLeftOut)
        std::printf("%llu ops no runtime call launched left out (--ops all counts them)\n",
                    static_cast<unsigned long long>(b.unlinkedLeftOut));
    for (const DeviceTimeBreakdown& d : b.devices) {
        const GpuTimeSplit& s = d.split;
        std::printf("\ndevice %d: %llu ops; computation %s, exposed communication %s, exposed "
                    "memcpy %s, idle %s of the total\n",
                    d.device, static_cast<unsigned long long>(s.ops),
                    share(s.computation, s.total).c_str(), share(s.exposedComm, s.total).c_str(),
                    share(s.exposedMemcpy, s.total).c_str(), share(s.idle, s.total).c_str());
        std::printf("%-24s %12s %12s %12s %12s %12s %12s %12s %12s\n", "", "total", "computation",
                    "comm", "exposed comm", "memcpy", "exposed copy", "busy", "idle");
        printRow("whole", s);
        for (const StepTimeSplit& st : d.steps)
            printRow(terminalSafe(st.step.name).substr(0, 24).c_str(), st.split);
    }
}

void printRoles(const StepRoles& roles) {
    if (roles.steps.empty()) return;
    std::printf("\nstep time by role (TensorBoard's Overview)%s\n%-24s %12s",
                roles.tailStepsLeftOut ? " (trailing steps with too little GPU work left out)" : "",
                "", "total");
    for (int r = 0; r < kStepRoleCount; ++r) std::printf(" %12s", stepRoleName(StepRole(r)));
    std::printf(" %12s\n", "comm overlap");
    for (const StepRoleTimes& t : roles.steps) {
        std::printf("%-24s %12s", terminalSafe(t.name).substr(0, 24).c_str(),
                    formatDuration(t.duration()).c_str());
        for (int r = 0; r < kStepRoleCount; ++r)
            std::printf(" %12s", formatDuration(t.role[size_t(r)]).c_str());
        std::printf(" %12s\n", formatDuration(t.overlap).c_str());
    }
}

void printRankRow(const std::string& label, const StepRoleSum& s, const std::string& file) {
    std::printf("%6s %5zu %11s", label.c_str(), s.steps, formatDuration(s.total).c_str());
    for (int r = 0; r < kStepRoleCount; ++r)
        std::printf(" %11s", formatDuration(s.role[size_t(r)]).c_str());
    std::printf(" %11s %11s %11s%s%s\n", formatDuration(s.computation).c_str(),
                formatDuration(s.communication).c_str(), formatDuration(s.overlap).c_str(),
                file.empty() ? "" : "  ", terminalSafe(file).c_str());
}

// The rank x role table of several FILEs: each rank's steps summed (or those named `step`).
void printRanks(const std::vector<RolesRankRow>& rows, const std::string& step) {
    std::printf("\nstep time by role per rank (TensorBoard's Overview), %s\n",
                step.empty() ? "summed over each rank's steps"
                             : ("step " + terminalSafe(step) + " alone").c_str());
    std::printf("%6s %5s %11s", "rank", "steps", "total");
    const char* const heads[kStepRoleCount] = {"kernel",  "memcpy",   "memset", "comm",
                                               "runtime", "dataload", "cpu_op", "other"};
    for (const char* h : heads) std::printf(" %11s", h);
    std::printf(" %11s %11s %11s  %s\n", "computation", "comm (all)", "overlap", "file");
    std::vector<RankIdentity> ids;
    for (const RolesRankRow& r : rows) ids.push_back(r.id);
    StepRoleSum whole;
    for (size_t i : rankOrder(ids)) {
        const StepRoleSum sum = sumStepRoles(rows[i].roles, step);
        whole += sum;
        printRankRow(std::to_string(rows[i].id.rank), sum, rows[i].file);
    }
    printRankRow("all", whole, "");
}

} // namespace

namespace strata::cli {

int breakdown(const Args& args) {
    bool json = false;
    std::string opsText, stepPrefix, rankStep;
    std::optional<std::pair<double, double>> rangeUsText;
    std::vector<std::string> files;
    CommandLine line("breakdown", kUsage);
    line.flag("--json", &json)
        .option("--ops", text(&opsText))
        .option("--step-name", text(&stepPrefix))
        .option("--range-us", rangeUs("--range-us", &rangeUsText))
        .option("--step", text(&rankStep))
        .files(&files, 1, SIZE_MAX);
    if (const auto exit = line.parse(args)) return *exit;
    BreakdownOps ops = BreakdownOps::All;
    if (opsText == "linked")
        ops = BreakdownOps::Linked;
    else if (!opsText.empty() && opsText != "all")
        return line.usageError("--ops expects all or linked, got '" + opsText + "'");
    std::vector<RolesRankRow> ranks;
    const int status = forEachTrace(
        "breakdown", files, json,
        [&](const std::string& file, const Trace& trace, double) {
            const auto t0 = std::chrono::steady_clock::now();
            const GpuTimeBreakdown b =
                gpuTimeBreakdown(trace, ops, rangeFromUs(trace, rangeUsText), stepPrefix);
            const StepRoles roles = stepRoles(trace, stepPrefix);
            const double ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
            const int64_t index = std::find(files.begin(), files.end(), file) - files.begin();
            ranks.push_back({rankIdentity(trace, file, index), file, roles});
            if (!json) {
                printTable(file, b);
                printRoles(roles);
                return nlohmann::json();
            }
            nlohmann::json j = gpuTimeBreakdownToJson(trace, b);
            j["step_roles"] = stepRolesToJson(trace, roles);
            j["analysis_ms"] = ms;
            return j;
        },
        [&](nlohmann::json& all) {
            if (files.size() < 2) return;
            if (!json) return printRanks(ranks, rankStep);
            all.update(stepRolesOfRanksToJson(ranks, rankStep));
        });
    return status;
}

} // namespace strata::cli
