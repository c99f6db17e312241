#pragma once
// Small GPU traces built directly with TraceBuilder for the core/analysis unit tests.
// Times are in nanoseconds; names default to "k".
#include "model/trace_builder.h"

#include <memory>
#include <string>

namespace strata::test {

class GpuTraceFixture {
public:
    static constexpr int64_t kPid = 100; // the CPU process that launches
    static constexpr int64_t kTid = 101;

    // A GPU op on (device, stream); returns nothing: tests find ops back by their times.
    void op(SliceKind kind, int32_t device, int64_t stream, TimeNs start, TimeNs dur,
            const std::string& name = "k", int64_t correlation = -1) {
        GpuActivity g;
        g.device = device;
        g.stream = stream;
        SliceInput s;
        s.start = start;
        s.dur = dur;
        s.name = b.intern(name);
        s.category = b.intern(kind == SliceKind::Kernel   ? "kernel"
                              : kind == SliceKind::Memcpy ? "gpu_memcpy"
                                                          : "gpu_memset");
        s.kind = kind;
        s.correlation = correlation;
        s.gpu = &g;
        b.addSlice(b.gpuStreamTrack(device, stream, device, stream), s);
    }
    void kernel(int32_t device, int64_t stream, TimeNs start, TimeNs dur,
                const std::string& name = "k", int64_t correlation = -1) {
        op(SliceKind::Kernel, device, stream, start, dur, name, correlation);
    }
    void memcpy(int32_t device, int64_t stream, TimeNs start, TimeNs dur) {
        op(SliceKind::Memcpy, device, stream, start, dur, "Memcpy HtoD");
    }
    void memset(int32_t device, int64_t stream, TimeNs start, TimeNs dur) {
        op(SliceKind::Memset, device, stream, start, dur, "Memset");
    }
    // A CPU API call (cudaLaunchKernel by default) on the launching thread.
    void launch(TimeNs start, TimeNs dur, int64_t correlation,
                const std::string& name = "cudaLaunchKernel",
                SliceKind kind = SliceKind::CudaRuntime) {
        SliceInput s;
        s.start = start;
        s.dur = dur;
        s.name = b.intern(name);
        s.category = b.intern(kind == SliceKind::CudaDriver ? "cuda_driver" : "cuda_runtime");
        s.kind = kind;
        s.correlation = correlation;
        b.addSlice(b.threadTrack(kPid, kTid), s);
    }
    // A CPU op that is not GPU work (must be ignored by every GPU analysis).
    void cpuOp(TimeNs start, TimeNs dur, const std::string& name = "aten::mm") {
        SliceInput s;
        s.start = start;
        s.dur = dur;
        s.name = b.intern(name);
        s.category = b.intern("cpu_op");
        s.kind = SliceKind::CpuOp;
        b.addSlice(b.threadTrack(kPid, kTid), s);
    }
    std::shared_ptr<const Trace> build() { return b.build(); }

    TraceBuilder b;
};

} // namespace strata::test
