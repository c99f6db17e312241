#include "io/formats/amd/rocprofv3_json_emit.h"

#include "io/formats/amd/rocprofiler_names.h"
#include "model/names/cupti_names.h"

#include <cstdint>

namespace strata {

const std::array<Rocprofv3Array, 8> kRocprofv3Arrays = {{
    {"kernel_dispatch", Rocprofv3RecordShape::Kernel, "KERNEL_DISPATCH"},
    {"memory_copy", Rocprofv3RecordShape::Copy, "MEMORY_COPY"},
    {"hip_api", Rocprofv3RecordShape::Api, "HIP_RUNTIME_API"},
    {"hsa_api", Rocprofv3RecordShape::Api, "HSA_API"},
    {"marker_api", Rocprofv3RecordShape::Api, "MARKER_CORE_API"},
    {"rccl_api", Rocprofv3RecordShape::Api, "RCCL_API"},
    {"rocdecode_api", Rocprofv3RecordShape::Api, "ROCDECODE_API"},
    {"rocjpeg_api", Rocprofv3RecordShape::Api, "ROCJPEG_API"},
}};

namespace {

std::string records(uint64_t n) {
    return std::to_string(n) + (n == 1 ? " record" : " records");
}

std::string baseName(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

void Rocprofv3JsonEmitter::beginRecords(const Rocprofv3Process& p, size_t index) {
    p_ = &p;
    correlationOffset_ = uint64_t(index) << 40;
    agents_.clear();
    symbols_.clear();
    kernelNames_.clear();
    callNames_.clear();
    unlistedAgents_.clear();
    for (const Rocprofv3Agent& a : p.agents) {
        agents_[a.handle] = &a;
        if (!a.gpu() || devices_.count(a.deviceIndex())) continue;
        devices_[a.deviceIndex()] = true;
        DeviceInfo d;
        d.id = a.deviceIndex();
        d.name = !a.productName.empty() ? a.productName
                 : !a.modelName.empty() ? a.modelName
                                        : a.name;
        d.smCount = int32_t(a.cuCount);
        b_.addDevice(d);
    }
    for (const Rocprofv3Symbol& s : p.symbols)
        if (s.kernelId >= 0) symbols_[s.kernelId] = &s;
    if (!p.program.empty()) b_.setProcessName(p.pid, b_.intern(baseName(p.program)));
    if (!p.hasPid)
        b_.addWarning("rocprofv3 JSON: a process without metadata.pid: its calls are shown "
                      "under pid 0");
}

bool Rocprofv3JsonEmitter::valid(const Rocprofv3Record& r) const {
    using R = Rocprofv3Record;
    if (r.bad || !(r.have & R::kHasStart) || !(r.have & R::kHasEnd) || r.start < 0 ||
        r.end < r.start)
        return false;
    switch (r.shape) {
    case Rocprofv3RecordShape::Kernel:
        return r.have & R::kHasAgent;
    case Rocprofv3RecordShape::Copy:
        return (r.have & R::kHasSrc) && (r.have & R::kHasDst);
    case Rocprofv3RecordShape::Api:
        return r.have & R::kHasThread;
    }
    return false;
}

void Rocprofv3JsonEmitter::add(const Rocprofv3Record& r) {
    if (!p_ || !valid(r)) {
        ++skipped_[r.array];
        return;
    }
    ++shown_;
    switch (r.shape) {
    case Rocprofv3RecordShape::Kernel:
        kernel(r);
        break;
    case Rocprofv3RecordShape::Copy:
        copy(r);
        break;
    case Rocprofv3RecordShape::Api:
        call(r);
        break;
    }
}

const Rocprofv3Agent* Rocprofv3JsonEmitter::agent(uint64_t handle) const {
    const auto it = agents_.find(handle);
    return it == agents_.end() ? nullptr : it->second;
}

// A listed agent's device index; an agent "agents" does not list gets the next free number.
int32_t Rocprofv3JsonEmitter::deviceOf(uint64_t handle) {
    if (const Rocprofv3Agent* a = agent(handle)) return a->deviceIndex();
    ++onUnlistedAgents_;
    const auto it = unlistedAgents_.find(handle);
    if (it != unlistedAgents_.end()) return it->second;
    const int32_t last = devices_.empty() ? -1 : devices_.rbegin()->first;
    const int32_t id = last < INT32_MAX ? last + 1 : 0;
    devices_[id] = true;
    unlistedAgents_[handle] = id;
    return id;
}

std::string_view Rocprofv3JsonEmitter::kindName(const Rocprofv3Record& r) const {
    if (r.kind >= 0 && size_t(r.kind) < p_->kinds.size() && !p_->kinds[r.kind].kind.empty())
        return p_->kinds[r.kind].kind;
    return kRocprofv3Arrays[r.array].domain;
}

std::string_view Rocprofv3JsonEmitter::operationName(const Rocprofv3Record& r) const {
    if (r.kind < 0 || size_t(r.kind) >= p_->kinds.size() || r.operation < 0) return {};
    const auto& ops = p_->kinds[r.kind].operations;
    return size_t(r.operation) < ops.size() ? std::string_view(ops[r.operation]) : "";
}

int64_t Rocprofv3JsonEmitter::correlation(const Rocprofv3Record& r) const {
    return r.correlation > 0 ? int64_t(uint64_t(r.correlation) + correlationOffset_) : -1;
}

StringId Rocprofv3JsonEmitter::kernelName(const Rocprofv3Record& r) {
    if (r.external > 0) { // --kernel-rename: the roctx range's name
        const auto it = p_->renamedKernels.find(uint64_t(r.external));
        if (it != p_->renamedKernels.end()) return b_.intern(it->second);
    }
    auto [it, added] = kernelNames_.try_emplace(r.kernelId, 0);
    if (added) {
        const auto s = symbols_.find(r.kernelId);
        it->second = s != symbols_.end() && !s->second->shownName().empty()
                         ? b_.intern(s->second->shownName())
                         : b_.intern("kernel " + std::to_string(r.kernelId));
    }
    return it->second;
}

void Rocprofv3JsonEmitter::kernel(const Rocprofv3Record& r) {
    GpuActivity a;
    a.device = deviceOf(r.agent);
    a.stream = int64_t(r.stream ? r.stream : r.queue);
    for (int d = 0; d < 3; ++d) {
        a.block[d] = int32_t(r.workgroup[d]);
        a.grid[d] = workGroups(r.grid[d], r.workgroup[d]);
    }
    const auto s = symbols_.find(r.kernelId);
    if (s != symbols_.end()) {
        const Rocprofv3Symbol& sym = *s->second;
        constexpr int64_t kMost = 1 << 16; // registers per lane: far fewer
        if (sym.archVgprs >= 0 && sym.archVgprs < kMost)
            a.registersPerThread =
                int32_t(sym.archVgprs +
                        (sym.accumVgprs > 0 && sym.accumVgprs < kMost ? sym.accumVgprs : 0));
        if (sym.groupSegmentSize >= 0) {
            a.staticSharedBytes = int32_t(sym.groupSegmentSize);
            if (r.groupSegmentSize >= sym.groupSegmentSize)
                a.dynamicSharedBytes = int32_t(r.groupSegmentSize - sym.groupSegmentSize);
        }
    } else if (r.groupSegmentSize >= 0) {
        a.staticSharedBytes = int32_t(r.groupSegmentSize);
    }
    SliceInput in;
    in.start = r.start;
    in.dur = r.end - r.start;
    in.name = kernelName(r);
    in.category = b_.intern("kernel");
    in.kind = SliceKind::Kernel;
    in.correlation = correlation(r);
    in.gpu = &a;
    b_.addSlice(rocprofilerGpuLane(b_, a.device, a.stream), in);
}

void Rocprofv3JsonEmitter::copy(const Rocprofv3Record& r) {
    const Rocprofv3Agent* src = agent(r.srcAgent);
    const Rocprofv3Agent* dst = agent(r.dstAgent);
    const bool srcGpu = src && src->gpu(), dstGpu = dst && dst->gpu();
    GpuActivity a;
    a.copyKind = copyKindOfDirection(operationName(r));
    // rocprofiler_memory_copy_operation_t: 1 host to host, 2 host to device, 3 device to host,
    // 4 device to device.
    static constexpr uint8_t kByOperation[5] = {0, 9, 1, 2, 8};
    if (!a.copyKind && r.operation >= 1 && r.operation <= 4) a.copyKind = kByOperation[r.operation];
    if (!a.copyKind && (src || dst))
        a.copyKind = srcGpu && dstGpu ? 8 : dstGpu ? 1 : srcGpu ? 2 : 9;
    a.device = dstGpu || (!srcGpu && a.copyKind != 2) ? deviceOf(r.dstAgent) : deviceOf(r.srcAgent);
    a.stream = int64_t(r.stream);
    a.bytes = r.bytes;
    SliceInput in;
    in.start = r.start;
    in.dur = r.end - r.start;
    in.name = b_.intern(memcpyName(a.copyKind, 0, 0));
    in.category = b_.intern("gpu_memcpy");
    in.kind = SliceKind::Memcpy;
    in.correlation = correlation(r);
    in.gpu = &a;
    b_.addSlice(rocprofilerGpuLane(b_, a.device, a.stream), in);
}

void Rocprofv3JsonEmitter::call(const Rocprofv3Record& r) {
    const std::string_view domain = kindName(r);
    const RocprofilerDomain d = rocprofilerDomain(domain);
    SliceInput in;
    in.start = r.start;
    in.dur = r.end - r.start;
    in.kind = d.kind;
    in.category = b_.intern(d.category);
    in.correlation = correlation(r);
    const auto message = d.kind == SliceKind::UserAnnotation && r.correlation > 0
                             ? p_->markerMessages.find(uint64_t(r.correlation))
                             : p_->markerMessages.end();
    if (message != p_->markerMessages.end()) {
        in.name = b_.intern(message->second);
    } else {
        const uint64_t key = uint64_t(r.kind) << 32 | uint32_t(r.operation);
        auto [it, added] = callNames_.try_emplace(key, 0);
        if (added) {
            const std::string_view op = operationName(r);
            it->second = b_.intern(!op.empty() ? std::string(op)
                                               : std::string(domain) + " operation " +
                                                     std::to_string(r.operation));
        }
        in.name = it->second;
    }
    const TrackId track = b_.threadTrack(p_->pid, r.threadId);
    if (d.kind == SliceKind::UserAnnotation && in.dur == 0)
        b_.addInstant(track, in.start, in.name, in.category, kNoArgs);
    else
        b_.addSlice(track, in);
}

void Rocprofv3JsonEmitter::finish() {
    for (size_t i = 0; i < skipped_.size(); ++i)
        if (skipped_[i])
            b_.addWarning("rocprofv3 JSON: " + records(skipped_[i]) + " of " +
                          std::string(kRocprofv3Arrays[i].name) +
                          " skipped (a field missing or not a number, or an end before the "
                          "start)");
    if (!notShown_.empty()) {
        std::string w = "rocprofv3 JSON: not shown by Strata: ";
        for (const auto& [array, n] : notShown_)
            w += (w.back() == ' ' ? "" : ", ") + array + " (" + records(n) + ")";
        b_.addWarning(std::move(w));
    }
    if (onUnlistedAgents_)
        b_.addWarning("rocprofv3 JSON: " + std::to_string(onUnlistedAgents_) +
                      " kernels or copies name an agent that \"agents\" does not list: shown on "
                      "devices numbered after the listed ones");
}

} // namespace strata
