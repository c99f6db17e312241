// strata-bench sections FILE.strata [--npy OUT.npy]: in-kernel sections at scale. Loads FILE (a
// recording with Sections records, e.g. strata-cli synth-sections --blocks 16384 --tiles 30: about
// a million records) and prints one JSON object: the records, the load (decode + iteration
// numbering), the statistics over every launch pooled (what strata-cli sections computes), the
// Sections view's data for the largest launch (blocks, iterations, SM lanes); with --npy also the
// same samples written as a times[section][iteration] int64 .npy and imported back. With the GUI
// built, each chart of the Sections view drawn and repainted offscreen (ms per replot: the
// ≤ 16 ms target) and the timeline with the SM lanes open. Best of 3 rounds each.
#include "bench_commands.h"
#include "cpu_steal.h"

#include "analysis/sections/section_lanes.h"
#include "analysis/sections/section_stats.h"
#include "io/sections/sections_import.h"
#include "io/trace_loader.h"

#ifdef STRATA_BENCH_RENDER
#include "sections/section_charts.h"
#include "timeline/layout/track_layout.h"
#include "timeline/timeline_view.h"

#include <QApplication>
#include <QImage>
#include <qcustomplot.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

namespace {

using Clock = std::chrono::steady_clock;

double bestMs(int rounds, const std::function<void()>& f) {
    double best = 1e300;
    for (int i = 0; i < rounds; ++i) {
        const auto t0 = Clock::now();
        f();
        best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    return best;
}

// times[2][n] of the set's first two sections' cycles (as many of each), an int64 C-order .npy.
bool writeNpy(const std::string& path, const strata::SectionSet& set) {
    std::vector<std::vector<int64_t>> rows(2);
    for (const strata::SectionSample& s : set.samples)
        if (s.section < 2) rows[s.section].push_back(s.cycles);
    size_t n = rows[0].size();
    for (auto& r : rows) n = std::min(n, r.size());
    std::string header =
        "{'descr': '<i8', 'fortran_order': False, 'shape': (2, " + std::to_string(n) + "), }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::ofstream f(path, std::ios::binary);
    f.write("\x93NUMPY\x01\x00", 8);
    const uint16_t len = uint16_t(header.size());
    f.write(reinterpret_cast<const char*>(&len), 2);
    f << header;
    for (auto& r : rows) f.write(reinterpret_cast<const char*>(r.data()), std::streamsize(n * 8));
    return bool(f);
}

} // namespace

int strata::bench::sections(const Args& args) {
    if (args.empty()) {
        std::fprintf(stderr, "usage: strata-bench sections FILE.strata [--npy OUT.npy]\n");
        return 2;
    }
    std::string npy;
    for (size_t i = 1; i + 1 < args.size(); ++i)
        if (args[i] == "--npy") npy = args[i + 1];
    const CpuSteal steal;
    std::shared_ptr<const Trace> trace;
    const double loadMs = bestMs(3, [&] { trace = loadTrace(args[0]).trace; });
    if (!trace || trace->sections().empty()) {
        std::fprintf(stderr, "strata-bench sections: %s has no sections\n", args[0].c_str());
        return 1;
    }
    std::vector<const SectionSet*> sets;
    const SectionSet* largest = nullptr;
    size_t records = 0;
    for (const SectionSet& s : trace->sections()) {
        sets.push_back(&s);
        records += s.samples.size();
        if (!largest || s.samples.size() > largest->samples.size()) largest = &s;
    }
    SectionStats st;
    const double statsMs = bestMs(3, [&] { st = sectionStats(sets); });
    std::vector<BlockSections> blocks;
    const double blocksMs = bestMs(3, [&] { blocks = blockSections(*largest); });
    SmLaneLayout lanes;
    const double lanesMs = bestMs(3, [&] { lanes = layoutSmLanes(blocks); });
    const double iterMs = bestMs(3, [&] { (void)iterationSections(*largest); });
    double npyMs = -1;
    size_t npyValues = 0;
    if (!npy.empty() && writeNpy(npy, *largest)) {
        npyMs = bestMs(3, [&] {
            const SectionsImport r = importSections(npy);
            npyValues = r.ok() ? r.sets[0].samples.size() : 0;
            std::vector<const SectionSet*> one{&r.sets[0]};
            (void)sectionStats(one);
        });
    }
    std::printf("{\"file\": \"%s\", \"launches\": %zu, \"records\": %zu, \"largest_launch\": %zu,\n"
                " \"load_ms\": %.1f, \"stats_all_ms\": %.1f, \"blocks_ms\": %.1f, "
                "\"lanes_ms\": %.1f, \"iterations_ms\": %.1f,\n"
                " \"npy_values\": %zu, \"npy_import_and_stats_ms\": %.1f",
                args[0].c_str(), sets.size(), records, largest->samples.size(), loadMs, statsMs,
                blocksMs, lanesMs, iterMs, npyValues, npyMs);
#ifdef STRATA_BENCH_RENDER
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int argc = 1;
    char name[] = "strata-bench";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    const std::vector<const SectionSet*> one{largest};
    SectionViewData v;
    const double viewMs = bestMs(3, [&] { v = computeSectionView("bench", one); });
    QCustomPlot plot;
    plot.resize(1400, 800);
    QImage img(plot.size(), QImage::Format_ARGB32_Premultiplied);
    auto chart = [&](const std::function<void()>& draw, double* replotMs) {
        const double drawMs = bestMs(3, draw);
        // A repaint after a pan or a zoom: the data stays, the axes move.
        *replotMs = bestMs(5, [&] {
            plot.xAxis->moveRange(plot.xAxis->range().size() * 0.01);
            plot.replot(QCustomPlot::rpImmediateRefresh);
            plot.render(&img);
        });
        return drawMs;
    };
    double boxRe, iterRe, heatRe, smRe;
    const double boxMs = chart([&] { plotSectionBoxes(&plot, v); }, &boxRe);
    const double iterDrawMs = chart([&] { plotSectionIterations(&plot, v); }, &iterRe);
    const double heatMs = chart([&] { plotSectionHeatmap(&plot, v, 0); }, &heatRe);
    const double smMs = chart([&] { plotSmTimeline(&plot, v, 0); }, &smRe);
    TimelineView view;
    view.resize(1600, 1000);
    view.setTrace(trace);
    view.buildLevelOfDetail();
    for (size_t i = 0; i < view.layout().rows().size(); ++i)
        if (view.layout().rows()[i].kind == TrackRow::Kind::Sections)
            view.setRowExpanded(int(i), true);
    view.show();
    QApplication::processEvents();
    QImage frame(view.size(), QImage::Format_ARGB32_Premultiplied);
    const TimeRange all = trace->bounds();
    const double timelineMs = bestMs(3, [&] {
        view.setVisibleRange(all);
        view.render(&frame, QPoint(), QRegion(), QWidget::DrawChildren);
    });
    const TimeNs mid = all.start + all.duration() / 2;
    const double zoomedMs = bestMs(3, [&] {
        view.setVisibleRange({mid, mid + std::max<TimeNs>(1000, all.duration() / 50)});
        view.render(&frame, QPoint(), QRegion(), QWidget::DrawChildren);
    });
    std::printf(",\n \"view_data_ms\": %.1f, \"box_draw_ms\": %.1f, \"box_replot_ms\": %.1f, "
                "\"iterations_draw_ms\": %.1f, \"iterations_replot_ms\": %.1f,\n"
                " \"heatmap_draw_ms\": %.1f, \"heatmap_replot_ms\": %.1f, \"sm_timeline_draw_ms\": "
                "%.1f, \"sm_timeline_replot_ms\": %.1f,\n"
                " \"timeline_lanes_whole_ms\": %.1f, \"timeline_lanes_zoomed_ms\": %.1f",
                viewMs, boxMs, boxRe, iterDrawMs, iterRe, heatMs, heatRe, smMs, smRe, timelineMs,
                zoomedMs);
#endif
    std::printf(", \"steal_pct\": %.1f}\n", steal.percent());
    return 0;
}
