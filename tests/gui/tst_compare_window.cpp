// Two runs compared in one main window (workspace/trace_comparison.h, the Compare dock): the
// bundled sample trace against itself (nothing changed) and against a copy with planted changes
// written by the test: the GEMM kernel 20 % slower, a kernel added, the aten::relu ops removed.
// The dock finds exactly those, with the differences worked out here from the JSON; the timeline
// shows the candidate's groups under the baseline's; choosing steps shifts the candidate so the
// two steps begin together; a click on a row overlays both sides' durations.
#include "analysis/compare/trace_diff.h"
#include "compare/compare_panel.h"
#include "support/main_window_fixture.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "workspace/trace_comparison.h"

#include <QAbstractItemModelTester>

#include <nlohmann/json.hpp>

#include <qcustomplot.h>

#include <cmath>
#include <fstream>

namespace {

nlohmann::json readSample() {
    std::ifstream f(kSample.toStdString());
    return nlohmann::json::parse(f);
}

constexpr const char* kAdded = "planted_added_kernel";

struct Planted {
    QString path;
    TimeNs gemmDelta = 0; // the candidate's GEMM total minus the baseline's
    uint64_t reluOps = 0;
};

// The sample with the changes planted: every GEMM kernel's dur x 1.2 (rounded to the ns), one
// kernel added on a stream of its own, every aten::relu op removed.
Planted writePlanted(const QTemporaryDir& dir) {
    nlohmann::json j = readSample();
    Planted p;
    nlohmann::json kept = nlohmann::json::array();
    bool added = false;
    for (nlohmann::json& e : j["traceEvents"]) {
        const std::string name = e.value("name", "");
        if (e.value("ph", "") == "X" && e.value("cat", "") == "cpu_op" && name == "aten::relu") {
            ++p.reluOps;
            continue;
        }
        if (e.value("cat", "") == "kernel" && name == kGemm) {
            const double dur = e["dur"].get<double>();
            const double slower = std::round(dur * 1200.0) / 1000.0; // µs to the ns
            p.gemmDelta +=
                TimeNs(std::llround(slower * 1000.0)) - TimeNs(std::llround(dur * 1000.0));
            e["dur"] = slower;
        }
        kept.push_back(e);
        if (!added && e.value("cat", "") == "kernel") {
            nlohmann::json x = e;
            x["name"] = kAdded;
            x["args"]["stream"] = 99;
            x["args"].erase("correlation");
            x["args"].erase("External id");
            kept.push_back(x);
            added = true;
        }
    }
    j["traceEvents"] = kept;
    p.path = dir.filePath(QStringLiteral("candidate.json"));
    std::ofstream(p.path.toStdString()) << j.dump();
    return p;
}

const DiffRow* rowNamed(const std::vector<DiffRow>& rows, const std::string& name) {
    for (const DiffRow& r : rows)
        if (r.name == name) return &r;
    return nullptr;
}

std::vector<const DiffRow*> notSame(const std::vector<DiffRow>& rows) {
    std::vector<const DiffRow*> out;
    for (const DiffRow& r : rows)
        if (r.status != DiffStatus::Same) out.push_back(&r);
    return out;
}

// The start (ns) of step `name` in the sample's JSON.
TimeNs stepStart(const std::string& name) {
    const nlohmann::json j = readSample();
    for (const nlohmann::json& e : j["traceEvents"])
        if (e.value("name", "") == name)
            return TimeNs(std::llround(e["ts"].get<double>() * 1000.0));
    return -1;
}

// The length (ns) of step `name` in the sample's JSON.
TimeNs stepLength(const std::string& name) {
    const nlohmann::json j = readSample();
    for (const nlohmann::json& e : j["traceEvents"])
        if (e.value("name", "") == name)
            return TimeNs(std::llround((e["ts"].get<double>() + e["dur"].get<double>()) * 1000.0)) -
                   TimeNs(std::llround(e["ts"].get<double>() * 1000.0));
    return -1;
}

} // namespace

class TstCompareWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { initMainWindowTests(); }
    void sameTraceHasNoDifference();
    void plantedChangesFound();
    void stepsAlignTheTwo();
    void rowClickOverlaysDurations();
    void twoRangesOfOneTrace();
    void modelsPassTheModelTester();
};

void TstCompareWindow::sameTraceHasNoDifference() {
    MainWindow w(testOptions());
    QString error;
    QVERIFY2(w.openSync(OpenRequest::comparison(kSample, kSample), &error), qPrintable(error));
    auto* panel = w.panel<ComparePanel>();
    QVERIFY(panel);
    for (auto tab : {ComparePanel::Kernels, ComparePanel::Ops, ComparePanel::Copies}) {
        QVERIFY(!panel->rows(tab).empty());
        QVERIFY(notSame(panel->rows(tab)).empty());
    }
    QVERIFY(panel->summaryText().contains(QStringLiteral("0 changed, 0 added, 0 removed")));
}

void TstCompareWindow::plantedChangesFound() {
    QTemporaryDir dir;
    const Planted p = writePlanted(dir);
    MainWindow w(testOptions());
    QString error;
    QVERIFY2(w.openSync(OpenRequest::comparison(kSample, p.path), &error), qPrintable(error));
    auto* panel = w.panel<ComparePanel>();
    const auto& kernels = panel->rows(ComparePanel::Kernels);
    const auto changedKernels = notSame(kernels);
    QCOMPARE(changedKernels.size(), size_t(2));
    const DiffRow* gemm = rowNamed(kernels, kGemm);
    QVERIFY(gemm);
    QCOMPARE(int(gemm->status), int(DiffStatus::Changed));
    QCOMPARE(gemm->baseline.count, uint64_t(24));
    QCOMPARE(gemm->candidate.count, uint64_t(24));
    QCOMPARE(gemm->deltaTotal(), p.gemmDelta);
    const DiffRow* added = rowNamed(kernels, kAdded);
    QVERIFY(added);
    QCOMPARE(int(added->status), int(DiffStatus::Added));
    QCOMPARE(added->candidate.count, uint64_t(1));
    const auto changedOps = notSame(panel->rows(ComparePanel::Ops));
    QCOMPARE(changedOps.size(), size_t(1));
    QCOMPARE(changedOps[0]->name, std::string("aten::relu"));
    QCOMPARE(int(changedOps[0]->status), int(DiffStatus::Removed));
    QCOMPARE(changedOps[0]->baseline.count, p.reluOps);
    QVERIFY(notSame(panel->rows(ComparePanel::Copies)).empty());
    // Step by step, the k-th of each side: the sample's four steps, their lengths as in the JSON.
    const auto& steps = panel->stepRows();
    QCOMPARE(steps.size(), size_t(4));
    for (size_t k = 0; k < 4; ++k) {
        const std::string name = "ProfilerStep#" + std::to_string(10 + k);
        QCOMPARE(steps[k].baseline.step, name);
        QCOMPARE(steps[k].candidate.step, name);
        QCOMPARE(steps[k].baseline.length, stepLength(name));
        QCOMPARE(steps[k].candidate.length, stepLength(name));
    }
    // The largest effect first: the GEMM.
    QCOMPARE(kernels.front().name, std::string(kGemm));
    // One timeline: the candidate's groups under the baseline's.
    const auto& groups = w.timeline()->layout().groups();
    int firstCandidate = -1, lastBaseline = -1, baselineGroups = 0, candidateGroups = 0;
    for (int g = 0; g < int(groups.size()); ++g) {
        if (groups[size_t(g)].label.startsWith(QStringLiteral("baseline: "))) {
            ++baselineGroups;
            if (groups[size_t(g)].gpu) lastBaseline = g;
        }
        if (groups[size_t(g)].label.startsWith(QStringLiteral("candidate: "))) {
            ++candidateGroups;
            if (groups[size_t(g)].gpu && firstCandidate < 0) firstCandidate = g;
        }
    }
    QVERIFY(baselineGroups > 0 && candidateGroups == baselineGroups);
    QVERIFY(lastBaseline < firstCandidate);
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("sample_trace.json vs candidate.json")));
}

void TstCompareWindow::stepsAlignTheTwo() {
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::comparison(kSample, kSample)));
    auto* panel = w.panel<ComparePanel>();
    TraceComparison* c = w.workspace()->comparison();
    QCOMPARE(c->candidateOffset(), TimeNs(0));
    QCOMPARE(c->steps(true).size(), qsizetype(4));
    panel->chooseStep(false, QStringLiteral("ProfilerStep#10"));
    panel->chooseStep(true, QStringLiteral("ProfilerStep#12"));
    c->waitForFinished();
    QCOMPARE(c->candidateOffset(), stepStart("ProfilerStep#10") - stepStart("ProfilerStep#12"));
    // One step against another of the same run: a kernel launched the same number of times in
    // each step stays the same.
    QVERIFY(c->diff());
    QVERIFY(!c->diff()->bySteps); // one step a side: no spread to measure
    const DiffRow* gemm = rowNamed(panel->rows(ComparePanel::Kernels), kGemm);
    QVERIFY(gemm);
    QCOMPARE(gemm->baseline.count, uint64_t(6));
    QCOMPARE(gemm->candidate.count, uint64_t(6));
}

void TstCompareWindow::rowClickOverlaysDurations() {
    QTemporaryDir dir;
    const Planted p = writePlanted(dir);
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::comparison(kSample, p.path)));
    auto* panel = w.panel<ComparePanel>();
    panel->showRow(ComparePanel::Kernels, 0); // the GEMM
    QCustomPlot* h = panel->histograms();
    QCOMPARE(h->plottableCount(), 2);
    for (int k = 0; k < 2; ++k) {
        auto* bars = qobject_cast<QCPBars*>(h->plottable(k));
        QVERIFY(bars);
        double n = 0;
        for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
            n += it->value;
        QCOMPARE(n, 24.0);
    }
}

// Two ranges of the sample: steps 10 and 11 against steps 12 and 13, chosen as ranges (Edit >
// Set Selected Range as Baseline, Compare Selected Range with the Baseline): the candidate is
// shifted so its range begins where the baseline's does, and the GEMM ran 12 times in each.
void TstCompareWindow::twoRangesOfOneTrace() {
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::trace(kSample)));
    const TimeRange first{stepStart("ProfilerStep#10"), stepStart("ProfilerStep#12")};
    const TimeRange second{stepStart("ProfilerStep#12"), w.trace()->bounds().end};
    w.navigation()->setSelectedRange(first);
    w.action("actionBaselineRange")->trigger();
    w.navigation()->setSelectedRange(second);
    w.action("actionCompareRange")->trigger();
    TraceComparison* c = w.workspace()->comparison();
    c->waitForFinished();
    QVERIFY(!c->isEmpty());
    QCOMPARE(c->baseline().range, std::optional<TimeRange>(first));
    QCOMPARE(c->candidate().range, std::optional<TimeRange>(second));
    QCOMPARE(c->candidateOffset(), first.start - second.start);
    QVERIFY(c->diff());
    const DiffRow* gemm = rowNamed(w.panel<ComparePanel>()->rows(ComparePanel::Kernels), kGemm);
    QVERIFY(gemm);
    QCOMPARE(gemm->baseline.count, uint64_t(12));
    QCOMPARE(gemm->candidate.count, uint64_t(12));
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("sample_trace.json vs sample_trace.json")));
}

// Every model of the Compare dock (kernels, ops, copies, sections, devices, steps and their sort
// proxies) under QAbstractItemModelTester on the sample against its planted copy: checked whole
// once filled, then through a row shown and a second comparison opened in the same window.
void TstCompareWindow::modelsPassTheModelTester() {
    QTemporaryDir dir;
    const Planted p = writePlanted(dir);
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::comparison(kSample, p.path)));
    auto* panel = w.panel<ComparePanel>();
    QVERIFY(panel);
    const QList<QAbstractItemModel*> models = panel->findChildren<QAbstractItemModel*>();
    QVERIFY(models.size() >= 6);
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
    for (QAbstractItemModel* m : models)
        testers.push_back(std::make_unique<QAbstractItemModelTester>(
            m, QAbstractItemModelTester::FailureReportingMode::QtTest));
    QVERIFY(!panel->rows(ComparePanel::Kernels).empty());
    panel->showRow(ComparePanel::Kernels, 0);
    QVERIFY(w.openSync(OpenRequest::comparison(kSample, kSample)));
    if (w.panel<ComparePanel>() == panel) // the same dock, its models reset under the testers
        QVERIFY(notSame(panel->rows(ComparePanel::Kernels)).empty());
}

STRATA_TEST_MAIN(TstCompareWindow)
#include "tst_compare_window.moc"
