#include "analysis/ops/kernel_stats.h"

#include "analysis/ops/gpu_ops.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace strata {

KernelStats computeKernelStats(const Trace& trace, TimeRange range) {
    return computeKernelStats(trace, collectGpuOps(trace, range));
}

KernelStats computeKernelStats(const Trace& trace, const GpuOpList& list) {
    KernelStats out;
    out.range = list.range;
    out.offGpuTrack = list.offGpuTrack;

    std::map<int32_t, DeviceGpuTime> devices;
    std::unordered_map<StringId, std::vector<TimeNs>> durationsByName;
    for (const GpuOp& op : list.ops) {
        DeviceGpuTime& dev = devices[op.device];
        dev.device = op.device;
        const TimeNs d = op.duration();
        switch (op.kind) {
        case SliceKind::Kernel: {
            ++dev.kernels;
            dev.kernelTime = addSaturating(dev.kernelTime, d);
            const StringId name = trace.track(op.ref.track).slices.name[op.ref.index];
            durationsByName[name].push_back(d);
            break;
        }
        case SliceKind::Memcpy:
            ++dev.memcpys;
            dev.memcpyTime = addSaturating(dev.memcpyTime, d);
            break;
        case SliceKind::Memset:
            ++dev.memsets;
            dev.memsetTime = addSaturating(dev.memsetTime, d);
            break;
        default:
            break;
        }
    }
    for (const BusySegment& seg : deviceBusySegments(list.ops))
        devices[seg.device].busyTime =
            addSaturating(devices[seg.device].busyTime, seg.end - seg.start);

    for (auto& [id, dev] : devices) {
        out.kernels += dev.kernels;
        out.memcpys += dev.memcpys;
        out.memsets += dev.memsets;
        out.kernelTime = addSaturating(out.kernelTime, dev.kernelTime);
        out.busyTime = addSaturating(out.busyTime, dev.busyTime);
        out.byDevice.push_back(dev);
    }

    out.byName.reserve(durationsByName.size());
    for (auto& [nameId, durations] : durationsByName) {
        KernelNameStats k;
        k.nameId = nameId;
        k.name = std::string(trace.str(nameId));
        k.time = summarizeDurations(durations);
        k.shareOfBusy = out.busyTime > 0
                            ? static_cast<double>(k.time.total) / static_cast<double>(out.busyTime)
                            : 0.0;
        out.byName.push_back(std::move(k));
    }
    std::sort(out.byName.begin(), out.byName.end(),
              [](const KernelNameStats& a, const KernelNameStats& b) {
                  if (a.time.total != b.time.total) return a.time.total > b.time.total;
                  return a.name < b.name;
              });
    return out;
}

} // namespace strata
