// strata-bench render FILE [--size WxH] [--png PREFIX] | --synthetic N [--size WxH] [--png PREFIX]
// Paints a TimelineView offscreen (QWidget::render of the whole view with DrawChildren: ruler,
// track tree and tracks area into a QImage, as a repaint of the window would) at zoom levels from
// the whole trace down to a 1 us window (a geometric sweep of 12 levels, 5 positions per level,
// each followed by two pans of a tenth of the window) and prints one JSON object with the paint
// time per frame. The level-of-detail summaries are built first (lod_build_ms) and the first frame
// is timed apart (first_frame_ms).
// --synthetic N builds the synthetic program (io/synthetic_trace.h, what strata-cli synth writes
// as JSON) of N events straight into a Trace: 4 CPU threads (python function > op > launch call)
// launching onto 4 GPUs of 4 streams each.
#include "bench_commands.h"
#include "bench_gui.h"
#include "cpu_steal.h"

#include "io/synthetic/synthetic_trace.h"
#include "io/trace_loader.h"
#include "timeline/frame_sweep.h"
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
    strata::SynthOptions o;
    o.events = n;
    o.seed = 42;
    o.devices = 4; // four CPU threads launching onto four GPUs
    o.streams = 4;
    o.events = std::max(o.events, strata::synthMinimumEvents(o));
    return strata::buildSyntheticTrace(o);
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
    const auto app = offscreenApp();

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
    std::vector<double> frames, cpu;
    const strata::bench::CpuSteal steal;
    const std::vector<TimeRange> sweep = frameSweep(all);
    // The middle level's middle place, as shown (before its pans).
    const size_t zoomShot = size_t(kSweepLevels / 2 * kSweepPerLevel + 2 * 3);
    for (size_t i = 0; i < sweep.size(); ++i) {
        view.setVisibleRange(sweep[i]);
        const double c0 = cpuMs();
        const auto t0 = Clock::now();
        view.render(&img, QPoint(), QRegion(), QWidget::DrawChildren);
        frames.push_back(ms(Clock::now() - t0));
        cpu.push_back(cpuMs() - c0);
        if (!png.empty() && i == zoomShot) img.save(QString::fromStdString(png + "-zoom.png"));
    }
    if (qEnvironmentVariableIsSet("STRATA_BENCH_VERBOSE")) // per zoom level, on stderr
        for (int lv = 0; lv < kSweepLevels; ++lv) {
            const auto from = lv * kSweepPerLevel, to = from + kSweepPerLevel;
            const std::vector<double> w(frames.begin() + from, frames.begin() + to);
            const std::vector<double> c(cpu.begin() + from, cpu.begin() + to);
            std::fprintf(stderr,
                         "level %2d window %.3g ns: median %.2f ms (cpu %.2f ms), max %.2f ms\n",
                         lv, frameSweepWindow(all, lv), percentile(w, 0.5), percentile(c, 0.5),
                         *std::max_element(w.begin(), w.end()));
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
