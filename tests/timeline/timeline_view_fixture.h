#pragma once
// The timeline tests' trace and window: a small trace whose every pixel is worked out by hand,
// shown in a TimelineView on the offscreen platform.
//
// The test trace (times in ns; layout constants from track_layout.h: header 22 px, depth row
// 18 px, row padding 3, GPU idle row 12+3, stream strip 6):
//   pid 100 "python", tid 1 "main"                      rows: y 0   header "python 100"
//     aten::mm [1000,5000) ext 7                                y 22  "main 1" (2 depths, h 39)
//       cudaLaunchKernel [2000,3000) corr 42 ext 7             y 61  header "GPU 0 (Test GPU)"
//     aten::add [6000,8000)                                     y 83  "GPU idle" (h 15)
//       cudaLaunchKernel [6500,7000) corr 43                    y 98  "Stream 7" (h 27)
//   GPU 0 stream 7: gemm_kernel [10000,20000) corr 42 ext 7     y 125 "Stream 8" (h 27)
//                   add_kernel [40000,41000) corr 43
//   GPU 0 stream 8: Memcpy HtoD [20500,22000)
// Bounds [1000, 41000). Stream 7 kernel gap: [20000,40000) = 20 us. Device busy union:
// [10000,20000) [20500,22000) [40000,41000) -> device gaps 500 ns and [22000,40000) = 18 us.
#include "model/build/trace_builder.h"
#include "timeline/timeline_view.h"
#include "timeline/tracks_area.h"

#include <QImage>
#include <QTest>

#include <memory>
#include <string_view>

namespace strata::test {

constexpr QRgb kBackground = 0xfffcfcfd; // timeline_painter.cpp
constexpr QRgb kLongGap = 0xffd6453a;
constexpr QRgb kIdleFill = 0xfff7dcd8;
constexpr QRgb kIdleHatch = 0xffd98a80;
constexpr QRgb kCorrelated = 0xfff08c00;

inline SliceRef add(TraceBuilder& b, TrackId t, TimeNs s, TimeNs d, const char* name, SliceKind k,
                    int64_t corr = -1, int64_t ext = -1) {
    SliceInput in;
    in.start = s;
    in.dur = d;
    in.name = b.intern(name);
    in.kind = k;
    in.correlation = corr;
    in.externalId = ext;
    b.addSlice(t, in);
    return {};
}

inline std::shared_ptr<const Trace> testTrace(bool gpuFirst = false, bool colored = false) {
    TraceBuilder b;
    if (colored) b.setNameColor(b.intern("aten::add"), 0x80123456); // drawn opaque
    b.setProcessName(100, b.intern("python"));
    b.setThreadName(100, 1, b.intern("main"));
    if (gpuFirst) {
        b.setProcessSortIndex(0, -5);
        b.setProcessSortIndex(100, 10);
    }
    DeviceInfo dev;
    dev.id = 0;
    dev.name = "Test GPU";
    b.addDevice(dev);
    const TrackId th = b.threadTrack(100, 1);
    add(b, th, 1000, 4000, "aten::mm", SliceKind::CpuOp, -1, 7);
    add(b, th, 2000, 1000, "cudaLaunchKernel", SliceKind::CudaRuntime, 42, 7);
    add(b, th, 6000, 2000, "aten::add", SliceKind::CpuOp);
    add(b, th, 6500, 500, "cudaLaunchKernel", SliceKind::CudaRuntime, 43);
    const TrackId s7 = b.gpuStreamTrack(0, 7, 0, 7);
    add(b, s7, 10000, 10000, "gemm_kernel", SliceKind::Kernel, 42, 7);
    add(b, s7, 40000, 1000, "add_kernel", SliceKind::Kernel, 43);
    const TrackId s8 = b.gpuStreamTrack(0, 8, 0, 8);
    add(b, s8, 20500, 1500, "Memcpy HtoD", SliceKind::Memcpy);
    return b.build();
}

inline SliceRef find(const Trace& tr, std::string_view name, TimeNs start) {
    for (TrackId t = 0; t < tr.tracks().size(); ++t) {
        const auto& s = tr.track(t).slices;
        for (SliceIndex i = 0; i < s.size(); ++i)
            if (tr.str(s.name[i]) == name && s.start[i] == start) return {t, i};
    }
    return {};
}

struct Fixture {
    std::shared_ptr<const Trace> trace;
    TimelineView view;
    // The geometry below is worked out for the CPU processes above the GPU (the layout's other
    // order; the default, GPU first, is checked in trackTreeOrderGpuFirst).
    explicit Fixture(std::shared_ptr<const Trace> t = testTrace(), bool gpuFirst = false)
        : trace(std::move(t)) {
        view.resize(1230, 600);
        view.setGpuSectionFirst(gpuFirst);
        view.setTrace(trace);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.waitForGaps(); // indexed off the GUI thread: a click on a gap finds it
    }
    int width() const { return view.tracksArea()->width(); }
    // x of time t in the whole-trace view, independent of the view's code.
    int x(TimeNs t) const {
        return static_cast<int>((t - 1000) * static_cast<double>(width()) / 40000.0);
    }
    QImage image() {
        view.waitForGaps(); // indexed off the GUI thread
        QImage img(view.tracksArea()->size(), QImage::Format_ARGB32_Premultiplied);
        view.tracksArea()->render(&img);
        return img;
    }
};

} // namespace strata::test
