// OTF2 archives (io/formats/otf2) with a file damaged or missing, on a copy of the real Score-P
// ping-pong archive in tests/data/formats/otf2_ping_pong/ (its README: pipit's, MIT). The whole
// archive is checked against otf2-print by otf2_real_archive (check_otf2.py); here, what is kept
// when one location's events are lost.
//
// Per `otf2-print` of the archive: location 0 (group 0, "MPI Rank 0") and location 1 (group 1)
// each hold 60 events: 21 ENTER, 21 LEAVE, 8 MPI_SEND, 8 MPI_RECV, a PROGRAM_BEGIN and a
// PROGRAM_END. Strata makes each location's 21 pairs slices and its 16 messages instants, on the
// thread (pid = group, tid = location).
//   traces/1.evt missing   location 0 whole (21 slices, 16 instants), location 1 nothing, a
//                          warning naming location 1 (issue 47's fuzzing: OTF2's merged reader
//                          used to stop both locations at the first bad file, keeping nothing)
//   traces/0.evt torn      (its first 442 of 884 bytes) location 1 whole, location 0 fewer than
//                          21 slices, a warning naming location 0
//   traces.def missing     refused, the error naming the anchor
#include "io/trace_loader.h"
#include "support/strata_format_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

const char* const kFiles[] = {"traces.otf2",  "traces.def",   "traces/0.evt",
                              "traces/0.def", "traces/1.evt", "traces/1.def"};

// A copy of the archive in `dir`; its anchor's path.
std::string copyArchive(const QTemporaryDir& dir) {
    const QString from = QStringLiteral(STRATA_TEST_DATA "/formats/otf2_ping_pong/");
    QDir().mkpath(dir.filePath(QStringLiteral("traces")));
    for (const char* f : kFiles) QFile::copy(from + f, dir.filePath(QString::fromLatin1(f)));
    return dir.filePath(QStringLiteral("traces.otf2")).toStdString();
}

struct PerThread {
    size_t slices = 0, instants = 0;
};

PerThread onThreads(const Trace& t, int64_t pid) {
    PerThread n;
    for (const Track& k : t.tracks()) {
        if (k.kind != TrackKind::Thread || k.pid != pid) continue;
        n.slices += k.slices.size();
        n.instants += k.instants.size();
    }
    return n;
}

} // namespace

class TestOtf2Archive : public QObject {
    Q_OBJECT

private slots:
    void wholeArchive() {
        QTemporaryDir dir;
        const LoadResult r = loadTrace(copyArchive(dir));
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.format, std::string("otf2"));
        for (int64_t pid : {0, 1}) {
            QCOMPARE(onThreads(*r.trace, pid).slices, size_t(21));
            QCOMPARE(onThreads(*r.trace, pid).instants, size_t(16));
        }
        QVERIFY(!::hasWarning(*r.trace, "reading the events"));
    }

    void missingEventFileLosesOnlyItsLocation() {
        QTemporaryDir dir;
        const std::string anchor = copyArchive(dir);
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("traces/1.evt"))));
        const LoadResult r = loadTrace(anchor);
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(onThreads(*r.trace, 0).slices, size_t(21));
        QCOMPARE(onThreads(*r.trace, 0).instants, size_t(16));
        QCOMPARE(onThreads(*r.trace, 1).slices, size_t(0));
        QCOMPARE(onThreads(*r.trace, 1).instants, size_t(0));
        QVERIFY2(::hasWarning(*r.trace, "location 1"), ::allWarnings(*r.trace).c_str());
    }

    void tornEventFileKeepsTheOtherLocation() {
        QTemporaryDir dir;
        const std::string anchor = copyArchive(dir);
        const std::string evt = dir.filePath(QStringLiteral("traces/0.evt")).toStdString();
        const std::string bytes = strata::test::readAll(evt);
        QCOMPARE(bytes.size(), size_t(884));
        strata::test::writeAll(evt, bytes.substr(0, 442));
        const LoadResult r = loadTrace(anchor);
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(onThreads(*r.trace, 1).slices, size_t(21));
        QCOMPARE(onThreads(*r.trace, 1).instants, size_t(16));
        QVERIFY(onThreads(*r.trace, 0).slices < 21);
        QVERIFY2(::hasWarning(*r.trace, "reading the events of location 0 stopped"),
                 ::allWarnings(*r.trace).c_str());
    }

    void missingDefinitionsRefused() {
        QTemporaryDir dir;
        const std::string anchor = copyArchive(dir);
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("traces.def"))));
        const LoadResult r = loadTrace(anchor);
        QVERIFY(!r.ok());
        QVERIFY2(r.error->toString().find(anchor) != std::string::npos,
                 r.error->toString().c_str());
    }
};

STRATA_TEST_GUILESS_MAIN(TestOtf2Archive)
#include "tst_otf2_archive.moc"
