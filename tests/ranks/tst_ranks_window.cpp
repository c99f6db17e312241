// The eight ranks of one PARAM DLRM training step (../shared/traces/multirank/param-dlrm/) open in
// one main window (workspace/rank_set.h, the Ranks dock): one timeline whose track groups are
// labelled by rank, per-rank kernel counts (tests/data/ranks/expected_ranks.py counts them from
// the raw JSON), the collectives lined up (the first NCCL kernel of every rank ends within the
// alignment's spread on the merged timeline), an offset set by hand moving exactly that rank,
// a rank removed, a rank collapsed on the timeline, a click on a collective zooming every rank
// to it, a planted straggler named, and a set without common collectives refused alignment.
// Skipped where the traces are absent.
#include "ranks/ranks_panel.h"
#include "support/main_window_fixture.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "workspace/rank_set.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>

using namespace strata::test;

namespace {

constexpr TimeNs kUs = 1000;
// expected_ranks.py: kernels (category "kernel") per rank.
constexpr uint64_t kKernels[8] = {245, 310, 246, 315, 251, 245, 246, 246};

#define REQUIRE_DLRM(files)                                                                        \
    REQUIRE_DLRM_FILES(files##Std);                                                                \
    QStringList files;                                                                             \
    for (const std::string& f : files##Std) files << QString::fromStdString(f)

// The start and end (ns, as in the file) of the first NCCL kernel of a rank's raw JSON.
std::pair<TimeNs, TimeNs> firstNccl(const QString& path) {
    const nlohmann::json j = readJson(path.toStdString());
    std::pair<TimeNs, TimeNs> best{INT64_MAX, 0};
    for (const nlohmann::json& e : j["traceEvents"])
        if (e.value("cat", "") == "kernel" && e["name"].get<std::string>().rfind("nccl", 0) == 0 &&
            e["ts"].get<int64_t>() * kUs < best.first)
            best = {e["ts"].get<int64_t>() * kUs,
                    (e["ts"].get<int64_t>() + e["dur"].get<int64_t>()) * kUs};
    return best;
}

// The length (ns) of the step named `name` in a rank's raw JSON.
TimeNs stepLength(const QString& path, const std::string& name) {
    const nlohmann::json j = readJson(path.toStdString());
    for (const nlohmann::json& e : j["traceEvents"])
        if (e.value("name", "") == name && e.value("ph", "") == "X")
            return e["dur"].get<int64_t>() * kUs;
    return -1;
}

// The first NCCL kernel on the merged timeline in the group whose label starts with `prefix`.
std::optional<SliceRef> firstNcclIn(MainWindow& w, const QString& prefix) {
    const Trace& t = *w.trace();
    std::optional<SliceRef> best;
    for (const TrackGroup& g : w.timeline()->layout().groups()) {
        if (!g.gpu || !g.label.startsWith(prefix)) continue;
        for (TrackId id = 0; id < t.tracks().size(); ++id) {
            const Track& tr = t.track(id);
            if (tr.kind != TrackKind::GpuStream || tr.device != g.device) continue;
            for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
                const SliceRef r{id, i};
                if (t.name(r).rfind("nccl", 0) == 0 && (!best || t.start(r) < t.start(*best)))
                    best = r;
            }
        }
    }
    return best;
}

QStringList groupLabels(MainWindow& w) {
    QStringList out;
    for (const TrackGroup& g : w.timeline()->layout().groups()) out << g.label;
    return out;
}

} // namespace

class TstRanksWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { initMainWindowTests(); }
    void eightRanksInOneWindow();
    void offsetByHand();
    void removeAndCollapse();
    void collectiveClickZooms();
    void plantedStraggler();
    void noCommonCollectivesRefused();
    void folderOpensAsRanks();
    void dropOfSeveralFilesOpensRanks();
    void filesReadAgain();
    void addedRanksNumberedPast();
    void modelsPassTheModelTester();
};

void TstRanksWindow::eightRanksInOneWindow() {
    REQUIRE_DLRM(files);
    MainWindow w(testOptions());
    QString error;
    QVERIFY2(w.openSync(OpenRequest::paths(files), &error), qPrintable(error));
    auto* panel = w.panel<RanksPanel>();
    QVERIFY(panel);
    QCOMPARE(panel->rankRows().size(), size_t(8));
    const QStringList groups = groupLabels(w);
    for (int r = 0; r < 8; ++r) {
        const RanksPanel::RankRow& row = panel->rankRows()[size_t(r)];
        QCOMPARE(row.label, QStringLiteral("rank %1").arg(r));
        QCOMPARE(row.kernels, kKernels[r]);
        QVERIFY(row.offset.has_value());
        // Its GPU (with the model the file's deviceProperties name) and its CPU process, each a
        // group under its label.
        QVERIFY2(groups.contains(QStringLiteral("rank %1: GPU %1 (Tesla V100-SXM2-32GB)").arg(r)),
                 qPrintable(groups.join(" | ")));
        QVERIFY(std::any_of(groups.begin(), groups.end(), [r](const QString& g) {
            return g.startsWith(QStringLiteral("rank %1: python").arg(r));
        }));
    }
    // The merged trace holds every rank's kernels on its own device.
    std::map<int32_t, uint64_t> kernels;
    const Trace& t = *w.trace();
    for (const Track& tr : t.tracks())
        if (tr.kind == TrackKind::GpuStream)
            for (SliceIndex i = 0; i < tr.slices.size(); ++i)
                if (tr.slices.kind[i] == SliceKind::Kernel) ++kernels[tr.device];
    QCOMPARE(kernels.size(), size_t(8));
    for (int r = 0; r < 8; ++r) QCOMPARE(kernels[r], kKernels[r]);
    // The collectives line up: the first NCCL kernel of every rank ends within the spread.
    const CrossRankReport& report = w.workspace()->ranks()->report();
    QVERIFY(report.alignment.aligned());
    QVERIFY(report.alignment.spread.has_value());
    TimeNs lo = INT64_MAX, hi = INT64_MIN;
    for (int r = 0; r < 8; ++r) {
        const auto k = firstNcclIn(w, QStringLiteral("rank %1:").arg(r));
        QVERIFY(k);
        lo = std::min(lo, t.start(*k) + t.duration(*k));
        hi = std::max(hi, t.start(*k) + t.duration(*k));
    }
    QVERIFY2(hi - lo <= *report.alignment.spread, qPrintable(QString::number(hi - lo)));
    QVERIFY(panel->alignmentText().contains(QStringLiteral("8 ranks aligned")));
    QCOMPARE(panel->collectiveRows().size(), report.collectives.size());
    QVERIFY(!report.collectives.empty());
    QCOMPARE(panel->stepRows().size(), size_t(1));
    QCOMPARE(panel->stepRows()[0].name, QStringLiteral("ProfilerStep#10"));
    // Per rank in the step: its length as in its file, busy + idle = that length (one GPU each).
    QCOMPARE(panel->rankStepRows().size(), size_t(8));
    for (int r = 0; r < 8; ++r) {
        const RanksPanel::RankStepRow& row = panel->rankStepRows()[size_t(r)];
        QCOMPARE(row.rank, QStringLiteral("rank %1").arg(r));
        QCOMPARE(row.duration, stepLength(files[r], "ProfilerStep#10"));
        QCOMPARE(row.busy + row.idle, row.duration);
    }
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("8 ranks of param-dlrm")));
}

void TstRanksWindow::offsetByHand() {
    REQUIRE_DLRM(files);
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::paths(files)));
    RankSet* ranks = w.workspace()->ranks();
    const std::vector<std::optional<TimeNs>> computed = ranks->report().alignment.offsets;
    const TimeNs before = *computed[3];
    const TimeNs set = before + 5000 * kUs;
    w.panel<RanksPanel>()->setOffset(3, set);
    ranks->waitForMerge();
    QCOMPARE(int(ranks->report().alignment.method), int(AlignMethod::Manual));
    QCOMPARE(*ranks->report().alignment.offsets[3], set);
    for (size_t k = 0; k < 8; ++k)
        if (k != 3) QCOMPARE(ranks->report().alignment.offsets[k], computed[k]);
    // On the merged timeline rank 3's first NCCL kernel starts at its file's time plus the offset.
    const auto k = firstNcclIn(w, QStringLiteral("rank 3:"));
    QVERIFY(k);
    QCOMPARE(w.trace()->start(*k), firstNccl(files[3]).first + set);
    // The other ranks stay where they were (the merged trace's parts moved, not read again).
    const auto k2 = firstNcclIn(w, QStringLiteral("rank 2:"));
    QVERIFY(k2);
    QCOMPARE(w.trace()->start(*k2), firstNccl(files[2]).first + *computed[2]);
    // Another method brings the computed offsets back.
    AlignRequest time;
    time.method = AlignMethod::Time;
    ranks->setAlignment(time);
    ranks->waitForMerge();
    QCOMPARE(*ranks->report().alignment.offsets[3], before);
}

void TstRanksWindow::removeAndCollapse() {
    REQUIRE_DLRM(files);
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::paths(files)));
    RankSet* ranks = w.workspace()->ranks();
    ranks->requestCollapse(2, true);
    int collapsed = 0;
    for (const TrackGroup& g : w.timeline()->layout().groups()) {
        QCOMPARE(g.collapsed, g.label.startsWith(QStringLiteral("rank 2: ")));
        collapsed += g.collapsed;
    }
    // worker2's X events lie in pids 2 (its GPU), 59813 (python3) and "Spans" (Kineto's): the
    // three fold into one summary row, the first group's header, which shows its GPU's busy and
    // idle; nothing else of rank 2 is drawn.
    QCOMPARE(collapsed, 3);
    const TrackLayout& layout = w.timeline()->layout();
    int summaries = 0, shownRows = 0;
    for (const TrackRow& r : layout.rows()) {
        const TrackGroup& g = layout.groups()[size_t(r.group)];
        if (!g.label.startsWith(QStringLiteral("rank 2: ")) || r.height == 0) continue;
        ++shownRows;
        QVERIFY(r.kind == TrackRow::Kind::Group);
        QCOMPARE(g.rankLabel, QStringLiteral("rank 2 (3 groups)"));
        QCOMPARE(r.height, TrackLayout::kSummaryHeight);
        QVERIFY(layout.groups()[size_t(g.summaryGpu)].label.startsWith(
            QStringLiteral("rank 2: GPU 2")));
        ++summaries;
    }
    QCOMPARE(summaries, 1);
    QCOMPARE(shownRows, 1);
    // Expanded again: every group of the rank back, none folded.
    ranks->requestCollapse(2, false);
    for (const TrackGroup& g : layout.groups()) {
        QVERIFY(!g.collapsed && !g.folded);
        QVERIFY(g.rankLabel.isEmpty());
    }
    ranks->requestCollapse(2, true);
    ranks->removeRank(7);
    ranks->waitForMerge();
    QCOMPARE(w.panel<RanksPanel>()->rankRows().size(), size_t(7));
    for (const QString& g : groupLabels(w)) QVERIFY(!g.startsWith(QStringLiteral("rank 7:")));
    QCOMPARE(w.windowTitle().left(7), QStringLiteral("7 ranks"));
}

void TstRanksWindow::collectiveClickZooms() {
    REQUIRE_DLRM(files);
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::paths(files)));
    auto* panel = w.panel<RanksPanel>();
    const RankSet* ranks = w.workspace()->ranks();
    QVERIFY(!panel->collectiveRows().empty());
    panel->showCollective(0);
    const CrossRankCollective& c = ranks->report().collectives[panel->collectiveRows()[0].index];
    const TimeRange v = w.navigation()->visibleRange();
    for (size_t k = 0; k < c.ranks.size(); ++k) {
        QVERIFY(v.start <= ranks->traceTime(c.arrival[k]));
        QVERIFY(v.end >= ranks->traceTime(c.end[k]));
    }
    QVERIFY(v.end - v.start < w.trace()->bounds().end - w.trace()->bounds().start);
}

// tst_ranks_dlrm's planted straggler: rank 2 enters the first collective 20 ms late; the Steps
// tab names it, with the delay expected_ranks.py gives for it (24.161 ms).
void TstRanksWindow::plantedStraggler() {
    REQUIRE_DLRM(files);
    QTemporaryDir dir;
    QStringList planted;
    for (int r = 0; r < 8; ++r) {
        const auto [start, end] = firstNccl(files[r]);
        const Insertion at{r == 2 ? start / kUs : end / kUs - 1, 20000};
        planted << dir.filePath(QStringLiteral("rank%1.json").arg(r));
        writeShifted(files[r].toStdString(), planted.back().toStdString(), 0, at);
    }
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::paths(planted)));
    const auto& steps = w.panel<RanksPanel>()->stepRows();
    QCOMPARE(steps.size(), size_t(1));
    QCOMPARE(steps[0].straggler, QStringLiteral("rank 2"));
    QCOMPARE(steps[0].delay, 24161 * kUs);
}

// Two ranks that share no collective and no time base: refused, said, each shown on its own clock.
void TstRanksWindow::noCommonCollectivesRefused() {
    REQUIRE_DLRM(files);
    QTemporaryDir dir;
    QStringList set;
    for (int r : {0, 1}) {
        nlohmann::json j = readJson(files[r].toStdString());
        nlohmann::json kept = nlohmann::json::array();
        for (nlohmann::json& e : j["traceEvents"]) {
            if (e.value("name", "").rfind("nccl", 0) == 0) continue; // no collective
            if (e.contains("ts") && e["ts"].is_number_integer())
                e["ts"] = e["ts"].get<int64_t>() - 1694128000000000 + r * 777; // no wall clock
            kept.push_back(e);
        }
        j["traceEvents"] = kept;
        set << dir.filePath(QStringLiteral("rank%1.json").arg(r));
        writeJson(j, set.back().toStdString());
    }
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::paths(set)));
    const RankSet* ranks = w.workspace()->ranks();
    QVERIFY(!ranks->report().alignment.aligned());
    QVERIFY(!ranks->report().alignment.offsets[1].has_value());
    auto* panel = w.panel<RanksPanel>();
    QVERIFY2(panel->alignmentText().contains(QStringLiteral("Not aligned")),
             qPrintable(panel->alignmentText()));
    QCOMPARE(panel->rankRows()[1].offset, std::optional<TimeNs>());
    QCOMPARE(panel->collectiveRows().size(), size_t(0));
}

void TstRanksWindow::folderOpensAsRanks() {
    REQUIRE_DLRM(files);
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::paths({QFileInfo(files.front()).absolutePath()})));
    QCOMPARE(w.workspace()->ranks()->ranks().size(), size_t(8));
    // One file alone is one trace again: the set is closed.
    QVERIFY(w.openSync(OpenRequest::trace(files.front())));
    QVERIFY(w.workspace()->ranks()->isEmpty());
    QVERIFY(w.panel<RanksPanel>()->rankRows().empty());
}

// Several files dropped together: one window, the ranks of one job (loaded off the GUI thread).
void TstRanksWindow::dropOfSeveralFilesOpensRanks() {
    REQUIRE_DLRM(files);
    MainWindow w(testOptions());
    w.show();
    QSignalSpy merged(w.workspace()->ranks(), &RankSet::merged);
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& f : files) urls << QUrl::fromLocalFile(f);
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(50, 50), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QVERIFY2(merged.wait(60000), qPrintable(QStringLiteral("ranks %1, loading %2, error: %3")
                                                .arg(w.workspace()->ranks()->ranks().size())
                                                .arg(w.loader()->isLoading())
                                                .arg(w.errorText())));
    QCOMPARE(w.workspace()->ranks()->ranks().size(), size_t(8));
    QCOMPARE(w.panel<RanksPanel>()->rankRows().size(), size_t(8));
    QVERIFY(w.windowTitle().startsWith(QStringLiteral("8 ranks of param-dlrm")));
}

// Once merged, the ranks' own traces are let go: new analysis settings and a rank removed read
// the files again (the same kernels per rank as expected_ranks.py counts); a file gone by then is
// said in the banner, naming it, and the set shown stays.
void TstRanksWindow::filesReadAgain() {
    REQUIRE_DLRM(files);
    QTemporaryDir dir;
    QStringList copies;
    for (const QString& f : files) {
        copies << dir.filePath(QFileInfo(f).fileName());
        QVERIFY(QFile::copy(f, copies.back()));
    }
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::paths(copies)));
    RankSet* ranks = w.workspace()->ranks();
    for (const SetRank& r : ranks->ranks()) QVERIFY(!r.trace);
    QSignalSpy changed(ranks, &RankSet::changed);
    AnalysisSettings settings = w.workspace()->analyses()->settings();
    settings.gapThreshold *= 2;
    w.workspace()->analyses()->setSettings(settings);
    QVERIFY(changed.wait(30000));
    ranks->waitForMerge();
    for (size_t r = 0; r < 8; ++r)
        QCOMPARE(w.panel<RanksPanel>()->rankRows()[r].kernels, kKernels[r]);
    for (const SetRank& r : ranks->ranks()) QVERIFY(!r.trace);

    QVERIFY(QFile::remove(copies[5]));
    const size_t tracks = w.trace()->tracks().size();
    ranks->removeRank(7);
    ranks->waitForMerge();
    QVERIFY(w.banner()->isVisibleTo(&w));
    bool named = false;
    for (const QLabel* l : w.banner()->findChildren<QLabel*>())
        named |= l->text().contains(QFileInfo(copies[5]).fileName());
    QVERIFY(named);
    QCOMPARE(w.trace()->tracks().size(), tracks);
    // New settings cannot be applied to the ranks either: said, naming the file.
    QSignalSpy failed(ranks, &RankSet::mergeFailed);
    settings.gapThreshold *= 2;
    w.workspace()->analyses()->setSettings(settings);
    QVERIFY(failed.wait(30000));
    QVERIFY(failed.front().front().toString().contains(QFileInfo(copies[5]).fileName()));
}

// Files that name no rank (no distributedInfo, no number in the name) are numbered by their place;
// those added later take numbers past the set's, so no two ranks read the same. Files that say
// they are the same rank (the sample's distributedInfo: rank 0) are told apart by file name.
void TstRanksWindow::addedRanksNumberedPast() {
    QFile sample(kSample);
    QVERIFY(sample.open(QIODevice::ReadOnly));
    const QByteArray text = sample.readAll();
    QByteArray unnamed = text;
    unnamed.replace("\"distributedInfo\"", "\"notDistributedInfo\"");
    QTemporaryDir dir;
    const auto write = [&](const char* name, const QByteArray& bytes) {
        QFile f(dir.filePath(QString::fromLatin1(name) + ".json"));
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) return QString();
        return f.fileName();
    };
    const QStringList first{write("alpha", unnamed), write("beta", unnamed)};
    const QStringList later{write("gamma", unnamed), write("delta", unnamed)};
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::paths(first)));
    RankSet* ranks = w.workspace()->ranks();
    QCOMPARE(ranks->ranks().size(), size_t(2));
    QSignalSpy merged(ranks, &RankSet::merged);
    w.open(OpenRequest::ranks(later, true));
    QVERIFY(merged.wait(30000));
    QStringList labels;
    for (size_t i = 0; i < ranks->ranks().size(); ++i) labels << ranks->label(i);
    labels.sort();
    QCOMPARE(labels, (QStringList{"rank 0", "rank 1", "rank 2", "rank 3"}));

    const QStringList same{write("one", text), write("two", text)};
    MainWindow w2(testOptions());
    QVERIFY(w2.openSync(OpenRequest::paths(same)));
    labels.clear();
    for (size_t i = 0; i < 2; ++i) labels << w2.workspace()->ranks()->label(i);
    labels.sort();
    QCOMPARE(labels, (QStringList{"rank 0 (one.json)", "rank 0 (two.json)"}));
    const QStringList groups = groupLabels(w2);
    QVERIFY2(std::any_of(groups.begin(), groups.end(),
                         [](const QString& g) {
                             return g.startsWith(QStringLiteral("rank 0 (two.json): GPU 0"));
                         }),
             qPrintable(groups.join(" | ")));
}

// Every model of the Ranks dock (its four tables and their sort proxies) under
// QAbstractItemModelTester on the eight DLRM ranks: checked whole once filled, then through the
// resets that an offset set by hand and another alignment method bring.
void TstRanksWindow::modelsPassTheModelTester() {
    REQUIRE_DLRM(files);
    MainWindow w(testOptions());
    QVERIFY(w.openSync(OpenRequest::paths(files)));
    auto* panel = w.panel<RanksPanel>();
    QVERIFY(panel);
    const QList<QAbstractItemModel*> models = panel->findChildren<QAbstractItemModel*>();
    QVERIFY(models.size() >= 4);
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;
    for (QAbstractItemModel* m : models) {
        QVERIFY(m->rowCount() > 0);
        testers.push_back(std::make_unique<QAbstractItemModelTester>(
            m, QAbstractItemModelTester::FailureReportingMode::QtTest));
    }
    RankSet* ranks = w.workspace()->ranks();
    panel->setOffset(3, *ranks->report().alignment.offsets[3] + 5000 * kUs);
    ranks->waitForMerge();
    AlignRequest time;
    time.method = AlignMethod::Time;
    ranks->setAlignment(time);
    ranks->waitForMerge();
    QCOMPARE(panel->rankRows().size(), size_t(8));
}

STRATA_TEST_MAIN(TstRanksWindow)
#include "tst_ranks_window.moc"
