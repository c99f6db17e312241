// End-to-end GPU checks (CTest label "gpu"): every sample in kernels/samples recorded through
// `strata-cli record` with the real collector and CUPTI, then read back with loadTrace.
// Skips (QSKIP, with the reason) where no GPU is usable: no /dev/nvidia0, no libcudart, or
// cudaGetDeviceCount fails. Expected values come from what each sample does by construction
// (launch_gaps: 1000 launches, 50 µs of host work between them; pinned_vs_pageable: 16 MiB
// copies; ...), and from CUDA events the sample measures itself.
#include "analysis/graphs/graph_replays.h"
#include "analysis/graphs/graph_topology.h"
#include "analysis/sections/section_lanes.h"
#include "analysis/sections/section_stats.h"
#include "io/trace_loader.h"
#include "model/trace.h"
#include "support/gpu_available.h"
#include "support/slice_lookup.h"
#include "support/test_main.h"

#include <QtTest>

#include <algorithm>
#include <set>

using namespace strata;

namespace {

struct Recorded {
    int exitCode = -1;
    QString out, err;
    QMap<QString, QString> values; // the sample's key=value lines
    QStringList files;
};

QString samplePath(const QString& name) {
    return QString(STRATA_SAMPLES_DIR) + "/" + name;
}

void parseValues(const QString& text, QMap<QString, QString>* values) {
    for (const QString& line : text.split('\n', Qt::SkipEmptyParts)) {
        const int eq = line.indexOf('=');
        if (eq > 0 && !line.contains(' ')) values->insert(line.left(eq), line.mid(eq + 1));
    }
}

Recorded record(const QString& dir, const QString& sample, const QStringList& sampleArgs,
                const QStringList& recordOptions = {}) {
    Recorded r;
    QProcess p;
    QStringList args{"record", "-o", dir + "/" + sample + "-{pid}.strata"};
    args << recordOptions << "--" << samplePath(sample) << sampleArgs;
    p.start(STRATA_CLI, args);
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    parseValues(r.out, &r.values);
    for (const QString& f : QDir(dir).entryList({sample + "-*.strata"}, QDir::Files, QDir::Name))
        r.files << dir + "/" + f;
    return r;
}

QMap<QString, QString> runPlain(const QString& sample, const QStringList& args) {
    QProcess p;
    p.start(samplePath(sample), args);
    p.waitForFinished(300000);
    QMap<QString, QString> v;
    parseValues(QString::fromLocal8Bit(p.readAllStandardOutput()), &v);
    return v;
}

std::shared_ptr<const Trace> load(const QString& file) {
    LoadResult r = loadTrace(file.toStdString());
    if (!r.ok()) qWarning("%s", r.error ? r.error->toString().c_str() : "load failed");
    return r.trace;
}

} // namespace

class TestGpuRecord : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void launchGaps();
    void twoStreams();
    void pinnedVsPageable();
    void nvtxNested();
    void nvtxSchedule();
    void forkChild();
    void kernelTimesMatchEvents();
    void launchOverhead();
    void sectionsRecorded_data();
    void sectionsRecorded();
    void sectionsOverhead();
    void graphReplays_data();
    void graphReplays();

private:
    QTemporaryDir dir_;
    QString sub(const char* name) {
        const QString d = dir_.filePath(name);
        QDir().mkpath(d);
        return d;
    }
};

void TestGpuRecord::initTestCase() {
    const QString why = test::gpuUnavailableReason();
    if (!why.isEmpty()) QSKIP(qPrintable(why + " (GPU checks owed: see docs/gpu-validation.md)"));
    if (!QFile::exists(samplePath("launch_gaps")))
        QSKIP("kernels/samples were not built (no nvcc)");
    QVERIFY(dir_.isValid());
}

void TestGpuRecord::launchGaps() {
    const Recorded r = record(sub("gaps"), "launch_gaps", {"1000", "50"});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.values.value("counter"), QString("1000"));
    QCOMPARE(r.files.size(), qsizetype(1));
    auto t = load(r.files[0]);
    QVERIFY(t);
    QCOMPARE(QString::fromStdString(t->metadata().at("cuda_initialized")), QString("1"));
    const auto kernels = test::slicesNamed(*t, "tiny(int*)");
    QCOMPARE(kernels.size(), size_t(1000));
    std::vector<SliceRef> launches;
    for (SliceRef k : kernels) {
        const SliceRef l = t->launchOf(k);
        QVERIFY(l.valid());
        QCOMPARE(t->name(l), std::string_view("cudaLaunchKernel"));
        launches.push_back(l);
    }
    // CPU side, exact: each launch starts at least 50 µs after the previous one ended.
    for (size_t i = 1; i < launches.size(); ++i)
        QVERIFY(t->start(launches[i]) -
                    (t->start(launches[i - 1]) + t->duration(launches[i - 1])) >=
                50000);
    // GPU side: the idle gap between consecutive kernels is at least 50 µs, up to launch-latency
    // jitter; all but 1 % must meet it exactly.
    size_t shortGaps = 0;
    for (size_t i = 1; i < kernels.size(); ++i)
        if (t->start(kernels[i]) - (t->start(kernels[i - 1]) + t->duration(kernels[i - 1])) < 50000)
            ++shortGaps;
    QVERIFY2(shortGaps <= 10, qPrintable(QString("%1 gaps under 50 us").arg(shortGaps)));
}

void TestGpuRecord::twoStreams() {
    const Recorded r = record(sub("streams"), "two_streams", {});
    QCOMPARE(r.exitCode, 0);
    auto t = load(r.files.value(0));
    QVERIFY(t);
    const auto k = test::slicesNamed(*t, "spin(unsigned long long)");
    QCOMPARE(k.size(), size_t(12));
    std::set<TrackId> tracks;
    for (SliceRef s : k) tracks.insert(s.track);
    QCOMPARE(tracks.size(), size_t(2));
    int overlaps = 0;
    for (size_t i = 0; i < k.size(); ++i)
        for (size_t j = i + 1; j < k.size(); ++j)
            if (k[i].track != k[j].track && t->start(k[j]) < t->start(k[i]) + t->duration(k[i]))
                ++overlaps;
    QVERIFY(overlaps >= 1);
    SliceRef producer, consumer;
    for (SliceRef s : k) {
        if (t->duration(s) > 450000 && t->duration(s) < 800000) producer = s;
        if (t->duration(s) > 80000 && t->duration(s) < 180000) consumer = s;
    }
    QVERIFY(producer.valid() && consumer.valid());
    QVERIFY(t->start(consumer) >= t->start(producer) + t->duration(producer));
    QVERIFY(!test::slicesNamed(*t, "Stream Wait Event").empty());
}

void TestGpuRecord::pinnedVsPageable() {
    const Recorded r = record(sub("copies"), "pinned_vs_pageable", {"16"});
    QCOMPARE(r.exitCode, 0);
    auto t = load(r.files.value(0));
    QVERIFY(t);
    const struct {
        const char* name;
        int src, dst;
    } expected[] = {{"Memcpy HtoD (Pageable -> Device)", 1, 3},
                    {"Memcpy HtoD (Pinned -> Device)", 2, 3},
                    {"Memcpy DtoH (Device -> Pageable)", 3, 1},
                    {"Memcpy DtoH (Device -> Pinned)", 3, 2}};
    for (const auto& e : expected) {
        const auto c = test::slicesNamed(*t, e.name);
        QVERIFY2(c.size() == 1, e.name);
        QCOMPARE(t->gpu(c[0])->bytes, int64_t(16) << 20);
        QCOMPARE(int(t->gpu(c[0])->srcMemory), e.src);
        QCOMPARE(int(t->gpu(c[0])->dstMemory), e.dst);
        QCOMPARE(t->name(t->launchOf(c[0])), std::string_view("cudaMemcpyAsync"));
    }
    QCOMPARE(test::slicesNamed(*t, "Memset (Device)").size(), size_t(1));
}

void TestGpuRecord::nvtxNested() {
    const Recorded r = record(sub("nvtx"), "nvtx_nested", {"5"});
    QCOMPARE(r.exitCode, 0);
    auto t = load(r.files.value(0));
    QVERIFY(t);
    QCOMPARE(test::slicesNamed(*t, "step").size(), size_t(5));
    const auto forward = test::slicesNamed(*t, "forward");
    const auto layers = test::slicesNamed(*t, "layer");
    QCOMPARE(forward.size(), size_t(5));
    QCOMPARE(layers.size(), size_t(15));
    for (SliceRef l : layers) {
        const auto up = t->ancestors(l);
        QCOMPARE(up.size(), size_t(2));
        QCOMPARE(t->name(up[0]), std::string_view("step"));
        QCOMPARE(t->name(up[1]), std::string_view("forward"));
    }
    QCOMPARE(test::slicesNamed(*t, "whole run").size(),
             size_t(1));                    // ended on another thread: async
    QCOMPARE(t->instantCount(), size_t(5)); // "step begins"
    // The one colour the sample gives (nvtxRangePushEx), by name.
    QCOMPARE(t->nameColors().size(), size_t(1));
    QCOMPARE(t->str(t->nameColors().begin()->first), std::string_view("forward"));
    QCOMPARE(t->nameColors().begin()->second, 0xff76b900u);
    // Each layer's launch is inside its layer range.
    for (SliceRef k : test::slicesNamed(*t, "layer(unsigned long long)")) {
        const SliceRef launch = t->launchOf(k);
        QVERIFY(launch.valid());
        const auto up = t->ancestors(launch);
        QVERIFY(!up.empty());
        QCOMPARE(t->name(up.back()), std::string_view("layer"));
    }
}

void TestGpuRecord::nvtxSchedule() {
    const Recorded r =
        record(sub("schedule"), "nvtx_nested", {"10"},
               {"--wait", "2", "--active", "3", "--repeat", "1", "--step-name", "step"});
    QCOMPARE(r.exitCode, 0);
    auto t = load(r.files.value(0));
    QVERIFY(t);
    QCOMPARE(test::slicesNamed(*t, "step").size(), size_t(3)); // steps 2, 3, 4
    QCOMPARE(test::slicesNamed(*t, "layer").size(), size_t(9));
    QCOMPARE(test::slicesNamed(*t, "layer(unsigned long long)").size(), size_t(9));
}

void TestGpuRecord::forkChild() {
    const Recorded r = record(sub("fork"), "fork_child", {});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.values.value("fork_child_exit"), QString("0"));
    QCOMPARE(r.values.value("exec_child_exit"), QString("0"));
    QCOMPARE(r.files.size(), qsizetype(2)); // parent + exec'd child; the plain fork wrote nothing
    const QString parentFile =
        sub("fork") + "/fork_child-" + r.values.value("parent_pid") + ".strata";
    const QString childFile =
        sub("fork") + "/fork_child-" + r.values.value("exec_child_pid") + ".strata";
    auto parent = load(parentFile), child = load(childFile);
    QVERIFY(parent && child);
    QCOMPARE(test::slicesNamed(*parent, "work(unsigned long long)").size(), size_t(2));
    QCOMPARE(test::slicesNamed(*child, "work(unsigned long long)").size(), size_t(1));
}

void TestGpuRecord::kernelTimesMatchEvents() {
    const Recorded r = record(sub("events"), "launch_bound", {"--timed", "20", "500"});
    QCOMPARE(r.exitCode, 0);
    auto t = load(r.files.value(0));
    QVERIFY(t);
    const auto k = test::slicesNamed(*t, "spin(unsigned long long)");
    QCOMPARE(k.size(), size_t(21)); // the untimed warm-up, then the 20 timed kernels
    QString worst;
    double worstShare = 0;
    for (size_t i = 0; i < 20; ++i) {
        const double eventUs = r.values.value(QString("event_us_%1").arg(i)).toDouble();
        const double traceUs = double(t->duration(k[i + 1])) / 1000.0;
        QVERIFY(eventUs > 0);
        const double share = std::abs(traceUs - eventUs) / eventUs;
        if (share >= worstShare) {
            worstShare = share;
            worst =
                QString("kernel %1: trace %2 us, events %3 us").arg(i).arg(traceUs).arg(eventUs);
        }
    }
    qInfo("largest difference: %s", qPrintable(worst));
    QVERIFY2(worstShare <= 0.02, qPrintable(worst));
}

void TestGpuRecord::launchOverhead() {
    // Best of 3 each way. The target is 1 µs per launch; on an H100 VM (2026-11-26) it added
    // 1.3 and 1.8 µs in two runs, while the plain loop itself varied from 3.3 to 4.6 µs per
    // launch; most of it is CUPTI's API records (docs/gpu-validation.md). Checked at 2 µs.
    double plain = 1e18, traced = 1e18;
    QString lastFile;
    for (int i = 0; i < 3; ++i) {
        plain =
            std::min(plain, runPlain("launch_bound", {"100000"}).value("ns_per_launch").toDouble());
        const Recorded r =
            record(sub(qPrintable(QString("overhead%1").arg(i))), "launch_bound", {"100000"});
        QCOMPARE(r.exitCode, 0);
        traced = std::min(traced, r.values.value("ns_per_launch").toDouble());
        lastFile = r.files.value(0);
    }
    qInfo("launch_bound: %.1f ns/launch plain, %.1f ns/launch recorded, %.1f ns added", plain,
          traced, traced - plain);
    auto t = load(lastFile);
    QVERIFY(t);
    QCOMPARE(test::slicesNamed(*t, "empty()").size(), size_t(100001)); // + the warm-up launch
    QCOMPARE(QString::fromStdString(t->metadata().at("cupti_dropped_records")), QString("0"));
    QVERIFY2(traced - plain <= 2000.0,
             qPrintable(QString("%1 ns added per launch").arg(traced - plain)));
}

// The instrumented samples recorded end to end: their section records reach the trace through
// the collector, attached to their kernels; every block of the launch configuration is there, on
// an SM the device has; each block's sections fit in its kernel, and together the sections cover
// the kernel's duration to within 5 %.
void TestGpuRecord::sectionsRecorded_data() {
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("kernel");
    QTest::addColumn<int>("sections");
    QTest::newRow("matmul") << "sections_matmul"
                            << "matmul" << 3;
    QTest::newRow("reduce") << "sections_reduce"
                            << "reduce" << 3;
}

void TestGpuRecord::sectionsRecorded() {
    QFETCH(QString, sample);
    QFETCH(QString, kernel);
    QFETCH(int, sections);
    const Recorded r = record(sub(qPrintable(sample)), sample, {});
    QCOMPARE(r.exitCode, 0);
    QCOMPARE(r.values.value("delivery"), QString("collector"));
    auto t = load(r.files.value(0));
    QVERIFY(t);
    QCOMPARE(t->sections().size(), size_t(5)); // five launches
    const uint32_t blocks = r.values.value("blocks").toUInt();
    QVERIFY(blocks > 0);
    const int smCount = t->devices().empty() ? 0 : t->devices().front().smCount;
    QVERIFY(smCount > 0);
    for (const SectionSet& s : t->sections()) {
        QCOMPARE(QString::fromStdString(s.kernel), kernel);
        QCOMPARE(int(s.names.size()), sections);
        QCOMPARE(s.lost, uint64_t(0));
        QVERIFY(s.clockHz > 1e8);
        QCOMPARE(s.blockCount(), blocks);
        const SliceRef k = kernelOfSections(*t, s);
        QVERIFY2(k.valid(), "the launch's kernel is in the trace");
        const TimeNs kernelNs = t->duration(k);
        int64_t first = INT64_MAX, last = INT64_MIN;
        for (const BlockSections& b : blockSections(s)) {
            QVERIFY(b.sm < smCount);
            first = std::min(first, b.startNs);
            last = std::max(last, b.endNs);
            QVERIFY2(double(b.endNs - b.startNs) <= 1.05 * double(kernelNs),
                     "a block fits its kernel");
        }
        const double covered = double(last - first);
        qInfo("%s: sections cover %.0f ns of a %lld ns kernel", qPrintable(kernel), covered,
              static_cast<long long>(kernelNs));
        QVERIFY(std::abs(covered - double(kernelNs)) <= 0.05 * double(kernelNs));
    }
}

// What the marks cost: the same kernel with and without them (STRATA_SECTIONS=0), CUDA events,
// best of 3 runs each way, both printed. The reduce (3 marks per warp) has the target 2 %, checked
// at 5 % for run-to-run noise; the matmul marks every tile (a mark every ~0.9 µs of block time,
// ~170 ns each: docs/sections.md), measured +18.5 % on an H100, checked at 25 %.
void TestGpuRecord::sectionsOverhead() {
    struct Run {
        QString sample;
        QStringList args;
        double allowed;
    };
    const QList<Run> runs{{"sections_reduce", {"67108864", "20"}, 1.05},
                          {"sections_matmul", {"2048", "20"}, 1.25}};
    for (const auto& [sample, args, allowed] : runs) {
        double on = 1e300, off = 1e300;
        for (int i = 0; i < 3; ++i) {
            on = std::min(on, runPlain(sample, args).value("mean_kernel_ms").toDouble());
            off = std::min(off, runPlain(sample + "_off", args).value("mean_kernel_ms").toDouble());
        }
        qInfo("%s: %.4f ms with marks, %.4f ms without: %+.2f %%", qPrintable(sample), on, off,
              100.0 * (on - off) / off);
        QVERIFY(off > 0);
        QVERIFY(on <= off * allowed);
    }
}

// A graph of three kernel nodes replayed 100 times (kernels/samples/graph_replay.cu), against the
// shared and the static cudart: 100 cudaGraphLaunch calls, each with its three nodes, one graph id,
// three node ids, the nodes in capture order (A 20 us, B 10 us, C 30 us). The collector's topology
// of it (graph_topology.h): four nodes, the three kernels named as their records are and the host
// node between B and C named by its function, and the capture's chain A -> B -> host -> C; every
// replayed node one of its nodes (the records' graphNodeId are the clones' ids).
void TestGpuRecord::graphReplays_data() {
    QTest::addColumn<QString>("sample");
    QTest::newRow("shared cudart") << "graph_replay";
    QTest::newRow("static cudart") << "graph_replay_static";
}

void TestGpuRecord::graphReplays() {
    QFETCH(QString, sample);
    const Recorded r = record(sub(qPrintable(sample)), sample, {});
    QCOMPARE(r.exitCode, 0);
    auto t = load(r.files.value(0));
    QVERIFY(t);
    const std::vector<GraphReplay> replays = strata::graphReplays(*t);
    QCOMPARE(replays.size(), size_t(100));
    std::set<int64_t> graphs, nodeIds;
    for (const GraphReplay& g : replays) {
        QCOMPARE(g.nodes.size(), size_t(3));
        graphs.insert(g.graphId);
        QCOMPARE(t->name(g.nodes[0]), std::string_view("nodeA(unsigned long long)"));
        QCOMPARE(t->name(g.nodes[1]), std::string_view("nodeB(unsigned long long)"));
        QCOMPARE(t->name(g.nodes[2]), std::string_view("nodeC(unsigned long long)"));
        for (SliceRef n : g.nodes) nodeIds.insert(t->gpu(n)->graphNodeId);
    }
    QCOMPARE(graphs.size(), size_t(1));
    QVERIFY(*graphs.begin() >= 0);
    QCOMPARE(nodeIds.size(), size_t(3));
    QVERIFY(*nodeIds.begin() >= 0);

    const std::optional<GraphTopology> topo = graphTopology(*t, *graphs.begin(), *nodeIds.begin());
    for (const std::string& w : t->warnings())
        if (w.find("CUDA graph topology") != std::string::npos) qInfo("warning: %s", w.c_str());
    QVERIFY(topo);
    qInfo("topology: graph %lld, exec %lld, clone graph %lld; the records' graph id %lld",
          static_cast<long long>(topo->graphId), static_cast<long long>(topo->execId),
          static_cast<long long>(topo->cloneGraphId), static_cast<long long>(*graphs.begin()));
    QCOMPARE(topo->nodes.size(), size_t(4));
    for (int64_t id : nodeIds) QVERIFY2(topo->node(id), "a replayed node is not in the topology");
    const GraphReplay& first = replays.front();
    const int64_t a = t->gpu(first.nodes[0])->graphNodeId, b = t->gpu(first.nodes[1])->graphNodeId,
                  c = t->gpu(first.nodes[2])->graphNodeId;
    QCOMPARE(topo->node(a)->name, std::string("nodeA(unsigned long long)"));
    QCOMPARE(topo->node(c)->type, std::string("kernel"));
    int64_t host = -1;
    for (const GraphTopologyNode& n : topo->nodes)
        if (n.type == "host") host = n.id;
    QVERIFY(host >= 0);
    QCOMPARE(topo->node(host)->name, std::string("strata_graph_host_step"));
    QCOMPARE(topo->edges.size(), size_t(3));
    QCOMPARE(topo->predecessors(b), std::vector<int64_t>{a});
    QCOMPARE(topo->predecessors(host), std::vector<int64_t>{b});
    QCOMPARE(topo->predecessors(c), std::vector<int64_t>{host});
}

STRATA_TEST_GUILESS_MAIN(TestGpuRecord)
#include "tst_gpu_record.moc"
