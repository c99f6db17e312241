#pragma once
// Small GPU traces built directly with TraceBuilder for the core/analysis unit tests.
// Times are in nanoseconds; names default to "k".
#include "model/build/trace_builder.h"

#include <array>
#include <memory>
#include <string>

namespace strata::test {

class GpuTraceFixture {
public:
    static constexpr int64_t kPid = 100; // the CPU process that launches
    static constexpr int64_t kTid = 101;

    // A GPU op on (device, stream); returns nothing: tests find ops back by their times.
    void op(SliceKind kind, int32_t device, int64_t stream, TimeNs start, TimeNs dur,
            const std::string& name = "k", int64_t correlation = -1,
            std::array<int32_t, 3> grid = {0, 0, 0}) {
        GpuActivity g;
        g.device = device;
        g.stream = stream;
        g.grid = grid;
        if (grid[0]) g.block = {256, 1, 1};
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
    // A kernel launched with grid `grid` (blocks of 256 threads).
    void kernelWithGrid(int32_t device, int64_t stream, TimeNs start, TimeNs dur,
                        const std::string& name, std::array<int32_t, 3> grid) {
        op(SliceKind::Kernel, device, stream, start, dur, name, -1, grid);
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
    // Any CPU slice on the launching thread: a Python frame, a record_function / NVTX range.
    void cpu(TimeNs start, TimeNs dur, const std::string& name, SliceKind kind) {
        SliceInput s;
        s.start = start;
        s.dur = dur;
        s.name = b.intern(name);
        s.category = b.intern(kind == SliceKind::PythonFunction   ? "python_function"
                              : kind == SliceKind::UserAnnotation ? "user_annotation"
                                                                  : "cpu_op");
        s.kind = kind;
        b.addSlice(b.threadTrack(kPid, kTid), s);
    }
    void python(TimeNs start, TimeNs dur, const std::string& name) {
        cpu(start, dur, name, SliceKind::PythonFunction);
    }
    void annotation(TimeNs start, TimeNs dur, const std::string& name) {
        cpu(start, dur, name, SliceKind::UserAnnotation);
    }
    // A pageable HtoD copy of `bytes` on stream 7 of GPU 0.
    void pageableCopy(TimeNs start, TimeNs dur, uint64_t bytes, int64_t correlation = -1) {
        GpuActivity a;
        a.device = 0;
        a.stream = 7;
        a.copyKind = 1;  // HtoD
        a.srcMemory = 1; // pageable
        a.dstMemory = 3;
        a.bytes = int64_t(bytes);
        SliceInput s;
        s.start = start;
        s.dur = dur;
        s.name = b.intern("Memcpy HtoD (Pageable -> Device)");
        s.category = b.intern("gpu_memcpy");
        s.kind = SliceKind::Memcpy;
        s.correlation = correlation;
        s.gpu = &a;
        b.addSlice(b.gpuStreamTrack(0, 7, 0, 7), s);
    }
    std::shared_ptr<const Trace> build() { return b.build(); }

    TraceBuilder b;
};

// The hand-made trace of the gap-cause tests: stream 7 of GPU 0, kernels K1..K5 of 100 ns each
// with 100 ns gaps, one of each cause but launch overhead (gap_causes.h). Where each gap's time
// went on the launching thread (gap_breakdown.h):
//   K1 [0,100)   launched at -50
//   K2 [200,300) launched at [160,165), aten::add [110,150) ran before: gap [100,200) is
//                untraced 10 + aten::add 40 + untraced 10 + launch 5 + queued 35 -> launch_bound
//                (CPU-bound), late 60
//   K3 [400,500) launched at [380,385), cudaDeviceSynchronize [250,370): gap [300,400) is
//                blocked 70 + untraced 10 + launch 5 + queued 15 -> synchronization, late 80
//   K4 [600,700) launched at [386,396), before gap [500,600) began: queued 100 -> dependency
//   K5 [800,900) no launch record            gap [700,800) -> unattributed
inline std::shared_ptr<const Trace> gapCausesTrace() {
    GpuTraceFixture f;
    f.launch(-50, 10, 1);
    f.kernel(0, 7, 0, 100, "K1", 1);
    f.cpuOp(110, 40, "aten::add");
    f.launch(160, 5, 2);
    f.kernel(0, 7, 200, 100, "K2", 2);
    f.launch(250, 120, -1, "cudaDeviceSynchronize");
    f.launch(380, 5, 3);
    f.kernel(0, 7, 400, 100, "K3", 3);
    f.launch(386, 10, 4);
    f.kernel(0, 7, 600, 100, "K4", 4);
    f.kernel(0, 7, 800, 100, "K5");
    return f.build();
}

// The hand-made trace of the op statistics tests: aten::mm [0,1000) holds two launches of
// "gemm_k": at 100 (10 ns) -> kernel [150,250), at 400 (20 ns) -> kernel [470,770): durations 100
// and 300, latencies 50 and 70, calls 10 and 20. An "ew_elementwise" kernel [1800,1850) launched
// at 1760 outside any op. Two pageable HtoD copies of 1000 bytes, 100 ns each (10 GB/s).
inline std::shared_ptr<const Trace> opStatsTrace() {
    GpuTraceFixture f;
    f.cpuOp(0, 1000, "aten::mm");
    f.launch(100, 10, 1);
    f.kernel(0, 7, 150, 100, "gemm_k", 1);
    f.launch(400, 20, 2);
    f.kernel(0, 7, 470, 300, "gemm_k", 2);
    f.launch(1760, 10, 3);
    f.kernel(0, 7, 1800, 50, "ew_elementwise", 3);
    for (TimeNs s : {2000, 2200}) f.pageableCopy(s, 100, 1000);
    return f.build();
}

} // namespace strata::test
