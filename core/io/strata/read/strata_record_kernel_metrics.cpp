// RecordSink: the KernelMetrics records (--kernel-metrics, CUPTI's range profiler) into args of
// the kernels they measured. The collector writes a launch's record when the launch call returns,
// usually before CUPTI hands over the kernel's row; a file may hold them in either order, so the
// values are kept by correlation id and given to the kernels once every row is in the builder.
#include "io/strata/read/strata_record_sink.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace strata::strata_reader {

std::string RecordSink::load(const fmt::KernelMetricsRecord& r) {
    StringId kernel, names;
    if (!str(r.kernel, &kernel) || !str(r.names, &names)) return bad_;
    KernelMetrics m;
    auto [keys, newNames] = metricKeys_.try_emplace(names);
    if (newNames) {
        const std::string_view joined = b_.strings().view(names);
        for (size_t at = 0; !joined.empty() && at <= joined.size();) {
            const size_t end = std::min(joined.find('\n', at), joined.size());
            keys->second.push_back(b_.intern(joined.substr(at, end - at)));
            at = end + 1;
        }
    }
    m.names = keys->second;
    if (r.values.size() != m.names.size() * sizeof(double))
        return sprint("KernelMetrics record of %zu value bytes for %zu metric names (8 bytes each)",
                      r.values.size(), m.names.size());
    m.values.resize(m.names.size());
    if (!r.values.empty()) std::memcpy(m.values.data(), r.values.data(), r.values.size());
    auto [it, added] = kernelMetrics_.insert_or_assign(r.correlation, std::move(m));
    if (added) kernelMetricsOrder_.push_back(r.correlation);
    return {};
}

uint64_t RecordSink::attachKernelMetrics() {
    if (kernelMetrics_.empty()) return 0;
    struct Launch {
        ArgSetId args = kNoArgs;
        bool found = false;
    };
    std::unordered_map<int64_t, Launch> launches; // each record's values as one arg set
    ArgStore& args = b_.args();
    for (const int64_t correlation : kernelMetricsOrder_) { // file order: the same ids both ways
        const KernelMetrics& m = kernelMetrics_.at(correlation);
        args.begin();
        for (size_t i = 0; i < m.names.size(); ++i)
            if (!std::isnan(m.values[i])) args.addDouble(m.names[i], m.values[i]);
        launches[correlation].args = args.finish();
    }
    b_.updateGpuOpArgs([&](SliceKind kind, int64_t correlation, ArgSetId& slice) {
        if (kind != SliceKind::Kernel || correlation < 0) return;
        auto it = launches.find(correlation);
        if (it == launches.end()) return;
        it->second.found = true;
        if (slice == kNoArgs) {
            slice = it->second.args;
        } else if (it->second.args != kNoArgs) {
            // The kernel's own args first (a .strata kernel has none), then the metrics.
            args.begin();
            args.appendFrom(args, slice);
            args.appendFrom(args, it->second.args);
            slice = args.finish();
        }
    });
    uint64_t unmatched = 0;
    for (const auto& [correlation, launch] : launches) unmatched += launch.found ? 0 : 1;
    kernelMetrics_.clear();
    kernelMetricsOrder_.clear();
    metricKeys_.clear();
    return unmatched;
}

} // namespace strata::strata_reader
