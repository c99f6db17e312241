// strata-bench render FILE [--size WxH] [--png PREFIX] | --synthetic N [--size WxH] [--png PREFIX]
// Paints a TimelineView offscreen (QWidget::render of the whole view with DrawChildren: ruler,
// track tree and tracks area into a QImage, as a repaint of the window would) at zoom levels from
// the whole trace down to a 1 us window (a geometric sweep of 12 levels, 5 positions per level,
// each followed by two pans of a tenth of the window) and prints one JSON object with the paint
// time per frame. The level-of-detail summaries are built first (lod_build_ms) and the first frame
// is timed apart (first_frame_ms).
// --synthetic N builds a Kineto-like trace of N slices directly with TraceBuilder: 4 CPU threads
// (op > op > cudaLaunchKernel) launching kernels onto 4 streams of one GPU.
#include "bench_commands.h"
#include "cpu_steal.h"

#include "io/trace_loader.h"
#include "model/trace_builder.h"
#include "timeline/timeline_view.h"

#include <QApplication>
#include <QImage>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <time.h>

namespace {

using Clock = std::chrono::steady_clock;
double ms(Clock::duration d) {
    return std::chrono::duration<double, std::milli>(d).count();
}
double cpuMs() { // CPU time of the whole process (all threads), ms
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

std::shared_ptr<const strata::Trace> synthetic(uint64_t n) {
    using namespace strata;
    TraceBuilder b;
    constexpr int kThreads = 4, kStreams = 4;
    b.setProcessName(1000, b.intern("python3"));
    DeviceInfo dev;
    dev.id = 0;
    dev.name = "Synthetic GPU";
    b.addDevice(dev);
    TrackId th[kThreads], st[kStreams];
    for (int i = 0; i < kThreads; ++i) {
        th[i] = b.threadTrack(1000, 1000 + i);
        b.setThreadName(1000, 1000 + i, b.intern(i == 0 ? "python3" : "worker"));
    }
    for (int i = 0; i < kStreams; ++i) st[i] = b.gpuStreamTrack(0, 7 + i, 0, 7 + i);
    const StringId cat = b.intern("cpu_op");
    std::vector<StringId> ops, inner, kernels;
    for (int i = 0; i < 24; ++i) ops.push_back(b.intern("aten::op_" + std::to_string(i)));
    for (int i = 0; i < 16; ++i) inner.push_back(b.intern("aten::inner_" + std::to_string(i)));
    for (int i = 0; i < 64; ++i)
        kernels.push_back(b.intern("void kernel_" + std::to_string(i) + "<float>(...)"));
    const StringId launch = b.intern("cudaLaunchKernel");
    std::mt19937_64 rng(42);
    auto uni = [&](int64_t lo, int64_t hi) {
        return lo + static_cast<int64_t>(rng() % uint64_t(hi - lo + 1));
    };
    TimeNs thNow[kThreads] = {0, 0, 0, 0}, stFree[kStreams] = {0, 0, 0, 0};
    GpuActivity gpu;
    gpu.device = 0;
    for (uint64_t it = 0, c = 1; it < n / 4; ++it, ++c) {
        const int t = static_cast<int>(it % kThreads);
        const TimeNs s0 = thNow[t] + uni(500, 3000);
        const TimeNs d0 = uni(12000, 40000);
        SliceInput in;
        in.category = cat;
        in.kind = SliceKind::CpuOp;
        in.start = s0, in.dur = d0, in.name = ops[rng() % ops.size()], in.externalId = int64_t(c);
        b.addSlice(th[t], in);
        in.start = s0 + 1000, in.dur = d0 - 2000, in.name = inner[rng() % inner.size()];
        b.addSlice(th[t], in);
        const TimeNs ls = s0 + 1000 + uni(500, 2000);
        in.start = ls, in.dur = uni(3000, 6000), in.name = launch, in.kind = SliceKind::CudaRuntime;
        in.correlation = int64_t(c);
        b.addSlice(th[t], in);
        const int s = static_cast<int>(c % kStreams);
        const TimeNs ks =
            std::max(ls + 5000, stFree[s]) + (rng() % 8 == 0 ? uni(5000, 40000) : uni(0, 2000));
        const TimeNs kd = rng() % 10 == 0 ? uni(300, 900) : uni(2000, 60000);
        gpu.stream = 7 + s;
        in.start = ks, in.dur = kd, in.name = kernels[rng() % kernels.size()],
        in.kind = SliceKind::Kernel;
        in.gpu = &gpu;
        b.addSlice(st[s], in);
        in.gpu = nullptr;
        in.correlation = -1;
        stFree[s] = ks + kd;
        thNow[t] = s0 + d0;
    }
    return b.build();
}

double percentile(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    const size_t i = static_cast<size_t>(std::ceil(p * v.size())) - 1;
    return v[std::min(i, v.size() - 1)];
}

} // namespace

int strata::bench::render(const Args& args) {
    std::string file;
    uint64_t synth = 0;
    std::string png; // --png PREFIX: also save PREFIX-whole.png and PREFIX-zoom.png
    int w = 1920, h = 1080;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--size" && i + 1 < args.size()) {
            if (std::sscanf(args[++i].c_str(), "%dx%d", &w, &h) != 2 || w < 100 || h < 100) {
                std::fprintf(stderr, "strata-bench render: --size wants WxH (at least 100x100)\n");
                return 2;
            }
        } else if (args[i] == "--png" && i + 1 < args.size()) {
            png = args[++i];
        } else if (args[i] == "--synthetic" && i + 1 < args.size()) {
            synth = std::strtoull(args[++i].c_str(), nullptr, 10);
        } else if (file.empty() && args[i][0] != '-') {
            file = args[i];
        } else {
            std::fprintf(
                stderr,
                "usage: strata-bench render FILE [--size WxH] | --synthetic N [--size WxH]\n");
            return 2;
        }
    }
    if (file.empty() == (synth == 0)) {
        std::fprintf(stderr,
                     "usage: strata-bench render FILE [--size WxH] | --synthetic N [--size WxH]\n");
        return 2;
    }
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "strata-bench";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);

    const auto l0 = Clock::now();
    std::shared_ptr<const Trace> trace;
    if (synth) {
        trace = synthetic(synth);
    } else {
        LoadResult r = loadTrace(file);
        if (!r.ok()) {
            std::fprintf(stderr, "strata-bench render: %s\n",
                         r.error ? r.error->toString().c_str() : "load failed");
            return 1;
        }
        trace = r.trace;
    }
    const double loadMs = ms(Clock::now() - l0);

    TimelineView view;
    view.resize(w, h);
    view.setTrace(trace);
    const auto b0 = Clock::now();
    view.buildLevelOfDetail();
    const double lodMs = ms(Clock::now() - b0);
    view.show();
    QApplication::processEvents();
    QImage img(view.size(), QImage::Format_ARGB32_Premultiplied);
    const auto f0 = Clock::now();
    view.render(&img, QPoint(), QRegion(), QWidget::DrawChildren);
    const double firstMs = ms(Clock::now() - f0);
    if (!png.empty()) img.save(QString::fromStdString(png + "-whole.png"));

    const TimeRange all = trace->bounds();
    const double full = static_cast<double>(std::max<TimeNs>(all.duration(), 1000));
    constexpr int kLevels = 12;
    const double positions[] = {0.1, 0.3, 0.5, 0.7, 0.9};
    std::vector<double> frames, cpu;
    const strata::bench::CpuSteal steal;
    for (int lv = 0; lv < kLevels; ++lv) {
        const TimeNs dur =
            static_cast<TimeNs>(full * std::pow(1000.0 / full, lv / double(kLevels - 1)));
        for (double pos : positions) {
            const TimeNs centre = all.start + static_cast<TimeNs>(pos * all.duration());
            for (int pan = 0; pan < 3; ++pan) {
                const TimeNs s = centre - dur / 2 + pan * (dur / 10);
                view.setVisibleRange({s, s + dur});
                const double c0 = cpuMs();
                const auto t0 = Clock::now();
                view.render(&img, QPoint(), QRegion(), QWidget::DrawChildren);
                frames.push_back(ms(Clock::now() - t0));
                cpu.push_back(cpuMs() - c0);
                if (!png.empty() && lv == kLevels / 2 && pos == 0.5 && pan == 0)
                    img.save(QString::fromStdString(png + "-zoom.png"));
            }
        }
    }
    if (qEnvironmentVariableIsSet("STRATA_BENCH_VERBOSE")) // per zoom level, on stderr
        for (int lv = 0; lv < kLevels; ++lv) {
            const std::vector<double> w(frames.begin() + lv * 15, frames.begin() + lv * 15 + 15);
            const std::vector<double> c(cpu.begin() + lv * 15, cpu.begin() + lv * 15 + 15);
            std::fprintf(
                stderr, "level %2d window %.3g ns: median %.2f ms (cpu %.2f ms), max %.2f ms\n", lv,
                full * std::pow(1000.0 / full, lv / double(kLevels - 1)), percentile(w, 0.5),
                percentile(c, 0.5), *std::max_element(w.begin(), w.end()));
        }
    double sum = 0;
    for (double f : frames) sum += f;
    const double modelMb = trace->memoryBytes() / 1e6, viewMb = view.viewMemoryBytes() / 1e6;
    std::printf("{\"source\": \"%s\", \"size\": \"%dx%d\", \"frames\": %zu, \"median_ms\": %.3f, "
                "\"p95_ms\": %.3f, "
                "\"max_ms\": %.3f, \"mean_ms\": %.3f, \"cpu_median_ms\": %.3f, \"cpu_p95_ms\": "
                "%.3f, \"first_frame_ms\": %.3f, \"lod_build_ms\": %.1f, "
                "\"load_ms\": %.1f, \"slices\": %zu, \"tracks\": %zu, \"model_mb\": %.1f, "
                "\"view_mb\": %.1f, "
                "\"view_pct_of_model\": %.2f, \"steal_pct\": %.1f}\n",
                synth ? "synthetic" : file.c_str(), w, h, frames.size(), percentile(frames, 0.5),
                percentile(frames, 0.95), *std::max_element(frames.begin(), frames.end()),
                sum / frames.size(), percentile(cpu, 0.5), percentile(cpu, 0.95), firstMs, lodMs,
                loadMs, trace->sliceCount(), trace->tracks().size(), modelMb, viewMb,
                100.0 * viewMb / std::max(modelMb, 1e-9), steal.percent());
    return 0;
}
