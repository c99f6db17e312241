// Pinned tracks and notes (issue 48, item 4), driven through the real widgets (offscreen): a note
// added by Ctrl+click on the ruler and a flag from the selected range (their text typed into the
// dialog), M then Cancel leaving nothing; a thread pinned, a stream moved up, a stream hidden;
// the sidecar beside the trace holds them by stable keys; a new window opening the trace again
// finds them all; Delete removes the selected note; a group hidden and brought back; a foreign
// sidecar said and left alone; a folder that cannot be written said, the notes kept in memory.
// The sample trace (resources/sample_trace.json) has thread 4242/4242 and streams 7 and 20 of
// GPU 0.
#include "actions/export_actions.h"
#include "support/main_window_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"
#include "timeline/layout/track_layout.h"
#include "timeline/track_tree_widget.h"
#include "window/notes_sidecar.h"

#include <QInputDialog>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

constexpr TrackId kNone = ~TrackId(0);

// The note dialog's answer: `text` typed and OK, or Cancel.
bool answer(TimelineView* v, const QString& text, bool ok = true) {
    auto* d = v->findChild<QInputDialog*>(QStringLiteral("noteTextDialog"));
    if (!d || !d->isVisible()) return false;
    d->setTextValue(text);
    ok ? d->accept() : d->reject();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    return true;
}

bool trigger(QMenu* m, const QString& prefix) {
    for (QAction* a : m->actions())
        if (a->text().startsWith(prefix) && a->isEnabled()) {
            a->trigger();
            return true;
        }
    return false;
}

TrackId streamTrack(const Trace& t, int64_t stream) {
    for (TrackId id = 0; id < t.tracks().size(); ++id)
        if (t.track(id).kind == TrackKind::GpuStream && t.track(id).tid == stream &&
            t.track(id).lane == 0)
            return id;
    return kNone;
}

TrackId threadTrack(const Trace& t) {
    for (TrackId id = 0; id < t.tracks().size(); ++id)
        if (t.track(id).kind == TrackKind::Thread && t.track(id).pid == 4242 &&
            t.track(id).tid == 4242 && t.track(id).lane == 0)
            return id;
    return kNone;
}

// A window keeping the sidecar (tests keep no settings: it is asked for), `path` open.
std::unique_ptr<MainWindow> openWithNotes(const QString& path) {
    auto w = std::make_unique<MainWindow>(testOptions());
    w->findChild<NotesSidecar*>()->setEnabled(true);
    w->resize(1400, 900);
    if (!w->openSync(OpenRequest::trace(path))) return nullptr;
    w->show();
    if (!QTest::qWaitForWindowExposed(w.get())) return nullptr;
    return w;
}

QRect rowRect(MainWindow& w, TrackId t) {
    w.timeline()->setVerticalScroll(0);
    return w.timeline()->trackRect(t);
}

} // namespace

class TestTimelineNotes : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { initMainWindowTests(); }
    void notesAndTracksSurviveReopening();
    void groupHiddenAndShownAgain();
    void dragInTheTrackTree();
    void pinnedRowsMoveAmongThemselves();
    void foreignSidecarLeftAlone();
    void unwritableFolderKeepsNotesInMemory();
};

void TestTimelineNotes::notesAndTracksSurviveReopening() {
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("run.json"));
    QVERIFY(QFile::copy(kSample, trace));
    const QString sidecar = trace + QStringLiteral(".strata-notes.json");
    std::vector<TimelineNote> saved;
    {
        std::unique_ptr<MainWindow> w = openWithNotes(trace);
        QVERIFY(w);
        TimelineView* v = w->timeline();
        const TimeRange b = w->trace()->bounds();
        // Ctrl+click on the ruler: a note there, its text asked for.
        auto* ruler = v->findChild<TimelineRuler*>();
        const TimeRange vis = v->visibleRange();
        QTest::mouseClick(ruler, Qt::LeftButton, Qt::ControlModifier, QPoint(300, 14));
        QVERIFY(answer(v, QStringLiteral("warm-up done")));
        QCOMPARE(v->notes().size(), size_t(1));
        const TimeNs expected = vis.start + vis.duration() * 300 / ruler->width();
        QVERIFY(std::abs(v->notes()[0].start - expected) <= vis.duration() / ruler->width() + 1);
        QCOMPARE(v->notes()[0].text, std::string("warm-up done"));
        QVERIFY(!v->notes()[0].flag);
        // A double-click on its mark edits the text (the click selects it).
        QTest::mouseDClick(ruler, Qt::LeftButton, {}, QPoint(300, 3));
        QCOMPARE(v->selectedNote(), 0);
        QVERIFY(answer(v, QStringLiteral("warm-up over")));
        QCOMPARE(v->notes()[0].text, std::string("warm-up over"));
        // A flag from the selected range (500 µs to 900 µs into the trace).
        const TimeRange range{b.start + 500000, b.start + 900000};
        v->setSelectedRange(range);
        std::unique_ptr<QMenu> m(v->rulerMenuAt(QPoint(100, 14)));
        QVERIFY(trigger(m.get(), QStringLiteral("Add Flag for the Selected Range")));
        QVERIFY(answer(v, QStringLiteral("slow copies")));
        QCOMPARE(v->notes().size(), size_t(2));
        QVERIFY(v->notes()[1] == (TimelineNote{range.start, range.end, "slow copies", true}));
        // M adds a note; Cancel on its text takes it back.
        v->setFocus();
        QTest::keyClick(v, Qt::Key_M);
        QCOMPARE(v->notes().size(), size_t(3));
        QVERIFY(answer(v, {}, false));
        QCOMPARE(v->notes().size(), size_t(2));
        // The Notes menu lists both, in time order.
        m.reset(v->rulerMenuAt(QPoint(100, 14)));
        auto* list = m->findChild<QMenu*>(QStringLiteral("notesMenu"));
        QVERIFY(list);
        QCOMPARE(list->actions().size(), 2);
        // The thread pinned, stream 20 moved above stream 7, stream 7 hidden.
        const TrackId thread = threadTrack(*w->trace()), s7 = streamTrack(*w->trace(), 7),
                      s20 = streamTrack(*w->trace(), 20);
        QVERIFY(thread != kNone && s7 != kNone && s20 != kNone);
        QVERIFY(rowRect(*w, s7).top() < rowRect(*w, s20).top());
        m.reset(v->contextMenuAt(rowRect(*w, thread).topLeft() + QPoint(600, 5)));
        QVERIFY(trigger(m.get(), QStringLiteral("Pin Track to Top")));
        QCOMPARE(rowRect(*w, thread).top(), 0);
        m.reset(v->contextMenuAt(rowRect(*w, s20).center()));
        QVERIFY(trigger(m.get(), QStringLiteral("Move Up")));
        QVERIFY(rowRect(*w, s20).top() < rowRect(*w, s7).top());
        m.reset(v->contextMenuAt(rowRect(*w, s20).center()));
        QVERIFY(!trigger(m.get(), QStringLiteral("Move Up"))); // first of its group now
        m.reset(v->contextMenuAt(rowRect(*w, s7).center()));
        QVERIFY(trigger(m.get(), QStringLiteral("Hide Track")));
        QVERIFY(rowRect(*w, s7).isNull());
        saved = v->notes();
        // The sidecar as written, read by another parser.
        QFile f(sidecar);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(o.value("format").toString(), QStringLiteral("strata-notes"));
        QCOMPARE(o.value("notes").toArray().at(0).toObject().value("text").toString(),
                 QStringLiteral("warm-up over"));
        QCOMPARE(o.value("flags").toArray().at(0).toObject().value("start").toInteger(),
                 range.start);
        const QJsonObject tracks = o.value("tracks").toObject();
        QCOMPARE(tracks.value("pinned").toArray(), QJsonArray({"thread:4242:4242"}));
        QCOMPARE(tracks.value("hidden").toArray(), QJsonArray({"stream:0:7"}));
        QCOMPARE(tracks.value("order").toObject().value("gpu:0").toArray(),
                 QJsonArray({"stream:0:20", "stream:0:7"}));
        // The trace itself untouched.
        QCOMPARE(test::readAll(trace.toStdString()), test::readAll(kSample.toStdString()));
    }
    // Opened again in a new window: everything back.
    std::unique_ptr<MainWindow> w = openWithNotes(trace);
    QVERIFY(w);
    TimelineView* v = w->timeline();
    QVERIFY(v->notes() == saved);
    const TrackId thread = threadTrack(*w->trace()), s7 = streamTrack(*w->trace(), 7),
                  s20 = streamTrack(*w->trace(), 20);
    QCOMPARE(rowRect(*w, thread).top(), 0);
    QVERIFY(rowRect(*w, s7).isNull());
    QVERIFY(v->layout().rowOfTrack(s20) < v->layout().rowOfTrack(s7));
    // Delete removes the selected note, and the sidecar follows.
    v->selectNote(0);
    v->setFocus();
    QTest::keyClick(v, Qt::Key_Delete);
    QCOMPARE(v->notes().size(), size_t(1));
    QVERIFY(v->notes()[0].flag);
    QFile f(sidecar);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(o.value("notes").toArray().size(), 0);
    QCOMPARE(o.value("flags").toArray().size(), 1);
    // File > Export writes the flag left as a "strata.flag" async slice (b/e).
    const QString out = dir.filePath(QStringLiteral("export.json"));
    const PerfettoExportResult r = w->exportActions()->exportTo(out, false);
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.notes, uint64_t(1));
    QFile e(out);
    QVERIFY(e.open(QIODevice::ReadOnly));
    QStringList phases;
    for (const QJsonValue& ev :
         QJsonDocument::fromJson(e.readAll()).object().value("traceEvents").toArray())
        if (ev.toObject().value("cat") == QStringLiteral("strata.flag")) {
            phases << ev.toObject().value("ph").toString();
            QCOMPARE(ev.toObject().value("name").toString(), QStringLiteral("slow copies"));
        }
    QCOMPARE(phases, QStringList({"b", "e"}));
}

void TestTimelineNotes::groupHiddenAndShownAgain() {
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("run.json"));
    QVERIFY(QFile::copy(kSample, trace));
    std::unique_ptr<MainWindow> w = openWithNotes(trace);
    QVERIFY(w);
    TimelineView* v = w->timeline();
    const TrackId s7 = streamTrack(*w->trace(), 7);
    std::unique_ptr<QMenu> m(v->contextMenuAt(rowRect(*w, s7).center()));
    QVERIFY(trigger(m.get(), QStringLiteral("Hide Group \u201cGPU 0")));
    QVERIFY(rowRect(*w, s7).isNull());
    const int group = v->layout().rows()[size_t(v->layout().rowOfTrack(s7))].group;
    QCOMPARE(v->layout().rows()[size_t(v->layout().groups()[size_t(group)].headerRow)].height, 0);
    // Right-click anywhere: Show Hidden lists the group.
    m.reset(v->contextMenuAt(QPoint(600, 5)));
    auto* hidden = m->findChild<QMenu*>(QStringLiteral("hiddenTracksMenu"));
    QVERIFY(hidden);
    QVERIFY(trigger(hidden, QStringLiteral("Group \u201cGPU 0")));
    QVERIFY(!rowRect(*w, s7).isNull());
    QCOMPARE(v->layout().hiddenCount(), 0);
}

void TestTimelineNotes::dragInTheTrackTree() {
    // Stream 7's name dragged onto stream 20's row: stream 7 goes below it; the sidecar keeps it.
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("run.json"));
    QVERIFY(QFile::copy(kSample, trace));
    std::unique_ptr<MainWindow> w = openWithNotes(trace);
    QVERIFY(w);
    TimelineView* v = w->timeline();
    auto* tree = v->findChild<TrackTreeWidget*>();
    QVERIFY(tree);
    const TrackId s7 = streamTrack(*w->trace(), 7), s20 = streamTrack(*w->trace(), 20);
    const QRect r7 = rowRect(*w, s7), r20 = rowRect(*w, s20);
    QVERIFY(r7.top() < r20.top());
    QTest::mousePress(tree, Qt::LeftButton, {}, QPoint(80, r7.top() + 5));
    QMouseEvent move(QEvent::MouseMove, QPointF(80, r20.center().y()),
                     tree->mapToGlobal(QPointF(80, r20.center().y())), Qt::NoButton, Qt::LeftButton,
                     Qt::NoModifier);
    QCoreApplication::sendEvent(tree, &move);
    QTest::mouseRelease(tree, Qt::LeftButton, {}, QPoint(80, r20.bottom() - 2));
    QVERIFY(rowRect(*w, s20).top() < rowRect(*w, s7).top());
    QVERIFY(test::readAll(trace.toStdString() + ".strata-notes.json").find(R"("stream:0:20",)") !=
            std::string::npos);
}

void TestTimelineNotes::pinnedRowsMoveAmongThemselves() {
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("run.json"));
    QVERIFY(QFile::copy(kSample, trace));
    std::unique_ptr<MainWindow> w = openWithNotes(trace);
    QVERIFY(w);
    TimelineView* v = w->timeline();
    const TrackId thread = threadTrack(*w->trace()), s7 = streamTrack(*w->trace(), 7),
                  s20 = streamTrack(*w->trace(), 20);
    v->setTrackPinned(thread, true);
    v->setTrackPinned(s20, true); // pinned in that order: the thread first
    QCOMPARE(rowRect(*w, thread).top(), 0);
    QCOMPARE(rowRect(*w, s20).top(), rowRect(*w, thread).bottom() + 1);
    std::unique_ptr<QMenu> m(v->contextMenuAt(rowRect(*w, thread).topLeft() + QPoint(600, 5)));
    QVERIFY(!trigger(m.get(), QStringLiteral("Move Up"))); // the first pinned row
    QVERIFY(trigger(m.get(), QStringLiteral("Move Down")));
    QCOMPARE(rowRect(*w, s20).top(), 0);
    QVERIFY(rowRect(*w, thread).top() > 0);
    // The last pinned row goes no further down (not into the groups).
    m.reset(v->contextMenuAt(rowRect(*w, thread).topLeft() + QPoint(600, 5)));
    QVERIFY(!trigger(m.get(), QStringLiteral("Move Down")));
    QCOMPARE(v->trackArrangement().pinned,
             (std::vector<std::string>{"stream:0:20", "thread:4242:4242"}));
    // A layout option rebuilds the rows: pins, their order and a hidden track stay.
    v->setTrackHidden(s7, true);
    v->setShowQueues(true);
    QCOMPARE(rowRect(*w, s20).top(), 0);
    QCOMPARE(rowRect(*w, thread).top(), rowRect(*w, s20).bottom() + 1);
    QVERIFY(rowRect(*w, s7).isNull());
}

void TestTimelineNotes::foreignSidecarLeftAlone() {
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("run.json"));
    QVERIFY(QFile::copy(kSample, trace));
    const std::string foreign = R"({"notes": "someone else's"})";
    const QString sidecar = trace + QStringLiteral(".strata-notes.json");
    QVERIFY(test::writeAll(sidecar.toStdString(), foreign));
    std::unique_ptr<MainWindow> w = openWithNotes(trace);
    QVERIFY(w);
    auto* notes = w->findChild<NotesSidecar*>();
    QVERIFY2(notes->lastMessage().contains(sidecar) &&
                 notes->lastMessage().contains(QStringLiteral("not a Strata notes file")),
             qPrintable(notes->lastMessage()));
    QVERIFY(w->timeline()->notes().empty());
    w->timeline()->addNote(w->trace()->bounds().start, QStringLiteral("mine"));
    QCOMPARE(w->timeline()->notes().size(), size_t(1));
    QCOMPARE(test::readAll(sidecar.toStdString()), foreign);
    QVERIFY(notes->lastMessage().startsWith(QStringLiteral("Notes kept in memory")));
}

void TestTimelineNotes::unwritableFolderKeepsNotesInMemory() {
    QTemporaryDir dir;
    const QString trace = dir.filePath(QStringLiteral("run.json"));
    QVERIFY(QFile::copy(kSample, trace));
    QVERIFY(QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    struct Restore {
        QString path;
        ~Restore() {
            QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                            QFileDevice::ExeOwner);
        }
    } restore{dir.path()};
    if (QFileInfo(dir.path()).isWritable()) QSKIP("the folder stays writable (run as root)");
    std::unique_ptr<MainWindow> w = openWithNotes(trace);
    QVERIFY(w);
    w->timeline()->addNote(w->trace()->bounds().start, QStringLiteral("kept"));
    auto* notes = w->findChild<NotesSidecar*>();
    QVERIFY2(notes->lastMessage().startsWith(QStringLiteral("Notes kept in memory, not saved")),
             qPrintable(notes->lastMessage()));
    QVERIFY(!QFile::exists(trace + QStringLiteral(".strata-notes.json")));
    QCOMPARE(notes->notes().notes.size(), size_t(1));
}

STRATA_TEST_MAIN(TestTimelineNotes)
#include "tst_timeline_notes.moc"
