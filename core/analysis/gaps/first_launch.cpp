#include "analysis/gaps/first_launch.h"

#include <algorithm>

namespace strata {

void FirstLaunches::build() {
    built_ = true;
    for (TrackId ti = 0; ti < t_.tracks().size(); ++ti) {
        const Track& tr = t_.track(ti);
        if (tr.kind != TrackKind::GpuStream) continue;
        for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
            if (tr.slices.kind[i] != SliceKind::Kernel) continue;
            const SliceRef call = t_.launchOf({ti, i});
            if (call.valid())
                launches_[tr.slices.name[i]].push_back({t_.start(call), t_.duration(call)});
        }
    }
    for (auto& [name, v] : launches_) std::sort(v.begin(), v.end());
}

bool FirstLaunches::isWarmUp(SliceRef call) {
    if (!call.valid() || t_.duration(call) < kLong) return false;
    if (t_.name(call).find("LaunchKernel") == std::string_view::npos) return false;
    const std::vector<SliceRef> ops = t_.gpuOpsOf(call);
    const auto kernel = std::find_if(ops.begin(), ops.end(),
                                     [&](SliceRef r) { return t_.kind(r) == SliceKind::Kernel; });
    if (kernel == ops.end()) return false;
    if (!built_) build();
    const auto it = launches_.find(t_.track(kernel->track).slices.name[kernel->index]);
    if (it == launches_.end() || it->second.front().first != t_.start(call)) return false;
    const TimeNs dur = t_.duration(call);
    return std::any_of(it->second.begin() + 1, it->second.end(),
                       [&](const auto& l) { return 10 * l.second <= dur; });
}

} // namespace strata
