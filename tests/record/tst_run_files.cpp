// Which files a run completes (issue 34): each run appends its Run record only to the files its
// own processes wrote, found by the run id they carry (core/record/run_files.h), never to another
// run's, however close in time or alike in name; and a run whose trace cannot be written is
// refused before it starts, or fails, instead of being lost in silence.
#include "contract/collector_env.h"
#include "contract/output_path.h"
#include "io/strata/strata_file_owner.h"
#include "io/strata/strata_trace_writer.h"
#include "io/trace_loader.h"
#include "model/trace.h"
#include "record/launcher.h"
#include "support/process_run.h"
#include "support/test_main.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>

using namespace strata;

namespace {

const QString kCli = QStringLiteral(STRATA_BINARY_DIR "/app/strata-cli");
const QString kFake = QStringLiteral(STRATA_BINARY_DIR "/tests/record_fake_target");

using strata::test::CliRun;
using strata::test::runCli;

// The pid in a name "<prefix><pid>.strata".
int64_t pidInName(const QString& name, const QString& prefix) {
    return name.mid(prefix.size(), name.size() - prefix.size() - 7).toLongLong();
}

bool hasWarning(const Trace& t, const char* text) {
    for (const auto& w : t.warnings())
        if (w.find(text) != std::string::npos) return true;
    return false;
}

// A .strata file as another run's process would leave it: its own run id (or none) and pid.
void writeForeign(const std::string& path, const std::string& runId, int64_t pid) {
    StrataTraceWriter w;
    std::string error;
    QVERIFY2(w.open(path, &error), error.c_str());
    w.metadata(collector_env::kMetaPid, std::to_string(pid));
    if (!runId.empty()) w.metadata(collector_env::kMetaRunId, runId);
    w.process(pid, "other");
    QVERIFY(w.close());
}

// The widest pid of this system, counted by hand from /proc (pid_max - 1), in digits.
int widestPidDigits() {
    std::ifstream f("/proc/sys/kernel/pid_max");
    long long pidMax = 0;
    f >> pidMax;
    return pidMax > 1 ? int(std::to_string(pidMax - 1).size()) : 7;
}

} // namespace

class TestRunFiles : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString fakeCollector_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // The launcher needs a collector file to inject; the fake target never loads CUDA.
        fakeCollector_ = dir_.filePath(QStringLiteral("libstrata_collector.so"));
        std::ofstream(fakeCollector_.toStdString()) << "not a real library\n";
        qputenv("STRATA_COLLECTOR", fakeCollector_.toUtf8());
    }

    void runIdsAreUnique() {
        std::set<std::string> ids;
        for (int i = 0; i < 100; ++i) {
            const std::string id = makeRunId();
            QCOMPARE(id.size(), size_t(32));
            QVERIFY2(id.find_first_not_of("0123456789abcdef") == std::string::npos, id.c_str());
            ids.insert(id);
        }
        QCOMPARE(ids.size(), size_t(100));
    }

    void sequentialPidRunsKeepTheirOwnRecords_data() {
        QTest::addColumn<bool>("collector");
        QTest::newRow("no collector: run-only traces") << false;
        QTest::newRow("stand-in collector") << true;
    }
    // Three runs one after the other, within about a second, with a {pid} template: three files,
    // each holding its own run's one record (exit code 1, 2, 3; the pid its name gives).
    void sequentialPidRunsKeepTheirOwnRecords() {
        QFETCH(bool, collector);
        const QString sub =
            dir_.filePath(collector ? QStringLiteral("seq-col") : QStringLiteral("seq-nocol"));
        QVERIFY(QDir().mkpath(sub));
        for (int i = 1; i <= 3; ++i) {
            QStringList args{QStringLiteral("record"), QStringLiteral("-q"), QStringLiteral("-o"),
                             sub + QStringLiteral("/seq-{pid}.strata")};
            if (collector)
                args << QStringLiteral("--") << kFake << QStringLiteral("--exit")
                     << QString::number(i);
            else
                args << QStringLiteral("--no-collector") << QStringLiteral("--")
                     << QStringLiteral("sh") << QStringLiteral("-c")
                     << QStringLiteral("exit %1").arg(i);
            const CliRun r = runCli(args);
            QCOMPARE(r.exitCode, i);
            QVERIFY2(!r.err.contains(QStringLiteral("error")), qPrintable(r.err));
        }
        const QStringList files = QDir(sub).entryList({QStringLiteral("seq-*.strata")});
        QCOMPARE(files.size(), 3);
        std::set<int> exitCodes;
        for (const QString& name : files) {
            const LoadResult loaded = loadTrace(QDir(sub).filePath(name).toStdString());
            QVERIFY(loaded.ok());
            const auto& run = loaded.trace->run();
            QVERIFY(run.has_value());
            QVERIFY2(!hasWarning(*loaded.trace, "more than one run record"), qPrintable(name));
            QCOMPARE(run->pid, pidInName(name, QStringLiteral("seq-")));
            QVERIFY(run->exitCode.has_value());
            exitCodes.insert(*run->exitCode);
            QCOMPARE(loaded.trace->sliceCount(), size_t(collector ? 4 : 0));
        }
        QCOMPARE(exitCodes, (std::set<int>{1, 2, 3}));
    }

    // Four ranks of one job recorded side by side into one folder with a {rank} template: each
    // rank's file holds that rank's record only (its RANK, its exit code, the pid that wrote it).
    void concurrentRanksKeepTheirOwnRecords() {
        const QString sub = dir_.filePath(QStringLiteral("ranks"));
        QVERIFY(QDir().mkpath(sub));
        std::vector<std::unique_ptr<QProcess>> ranks;
        for (int i = 0; i < 4; ++i) {
            auto p = std::make_unique<QProcess>();
            p->start(kCli, {QStringLiteral("record"), QStringLiteral("-q"), QStringLiteral("-o"),
                            sub + QStringLiteral("/rank-{rank}.strata"), QStringLiteral("-e"),
                            QStringLiteral("RANK=%1").arg(i), QStringLiteral("--"), kFake,
                            QStringLiteral("--sleep-ms"), QStringLiteral("300"),
                            QStringLiteral("--exit"), QString::number(10 + i)});
            ranks.push_back(std::move(p));
        }
        for (int i = 0; i < 4; ++i) {
            QVERIFY(ranks[size_t(i)]->waitForFinished(30000));
            QCOMPARE(ranks[size_t(i)]->exitCode(), 10 + i);
        }
        for (int i = 0; i < 4; ++i) {
            const std::string file = sub.toStdString() + "/rank-" + std::to_string(i) + ".strata";
            const LoadResult loaded = loadTrace(file);
            QVERIFY2(loaded.ok(), file.c_str());
            const auto& run = loaded.trace->run();
            QVERIFY(run.has_value());
            QVERIFY2(!hasWarning(*loaded.trace, "more than one run record"), file.c_str());
            QCOMPARE(run->exitCode, std::optional<int>(10 + i));
            using Env = std::vector<std::pair<std::string, std::string>>;
            QCOMPARE(run->envAdded, (Env{{"RANK", std::to_string(i)}}));
            QCOMPARE(loaded.trace->metadata().at("pid"), std::to_string(run->pid));
            QCOMPARE(loaded.trace->metadata().at("rank"), std::to_string(i));
        }
    }

    // Files that match the template and changed during the run but belong to no process of it
    // (another run's id, or no id and another pid) are neither listed nor completed.
    void otherRunsFilesAreLeftAlone() {
        const QString sub = dir_.filePath(QStringLiteral("foreign"));
        QVERIFY(QDir().mkpath(sub));
        RecordOptions o;
        o.command = {kFake.toStdString(), "--sleep-ms", "200"};
        o.output = sub.toStdString() + "/f-{pid}.strata";
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        const std::string other = sub.toStdString() + "/f-1.strata";
        const std::string noId = sub.toStdString() + "/f-2.strata";
        writeForeign(other, std::string(32, 'a'), 1);
        writeForeign(noId, {}, 2);
        QCOMPARE(l.wait(), 0);
        const std::string mine = sub.toStdString() + "/f-" + std::to_string(l.pid()) + ".strata";
        const RecordingResult r = l.finish();
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.files, std::vector<std::string>{mine});
        QVERIFY(r.notes.empty());
        for (const std::string& f : {other, noId}) {
            const LoadResult loaded = loadTrace(f);
            QVERIFY(loaded.ok());
            QVERIFY2(!loaded.trace->run().has_value(), f.c_str());
        }
        const StrataFileOwner owner = readStrataFileOwner(mine);
        QVERIFY(owner.strata);
        QCOMPARE(owner.runId, l.runId());
        QCOMPARE(owner.pid, int64_t(l.pid()));
    }

    // A collector older than run ids: the target's own file (the target's pid in its metadata)
    // is still the run's, with a note saying why it was taken.
    void fileWithoutRunIdIsTakenByItsPid() {
        RecordOptions o;
        o.command = {kFake.toStdString(), "--no-run-id", "--exit", "4"};
        o.output = dir_.filePath(QStringLiteral("old-{pid}.strata")).toStdString();
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        QCOMPARE(l.wait(), 4);
        const RecordingResult r = l.finish();
        QVERIFY2(r.error.empty(), r.error.c_str());
        QCOMPARE(r.files.size(), size_t(1));
        QVERIFY(!r.runOnly);
        QCOMPARE(r.notes.size(), size_t(1));
        QVERIFY2(r.notes[0].find("carries no run id") != std::string::npos, r.notes[0].c_str());
        const LoadResult loaded = loadTrace(r.files[0]);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.trace->run()->exitCode, std::optional<int>(4));
        QCOMPARE(loaded.trace->sliceCount(), size_t(4));
    }

    // The run-only trace carries the run id too.
    void runOnlyTraceCarriesTheRunId() {
        RecordOptions o;
        o.command = {kFake.toStdString(), "--no-trace"};
        o.output = dir_.filePath(QStringLiteral("ro-{pid}.strata")).toStdString();
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        QCOMPARE(l.wait(), 0);
        const RecordingResult r = l.finish();
        QVERIFY(r.runOnly);
        QCOMPARE(readStrataFileOwner(r.files.at(0)).runId, l.runId());
    }

    // A file name longer than the file system allows is refused before the program starts,
    // with a message that says so; strata-cli exits with 2 and no file is written.
    void tooLongTemplateIsRefused() {
        const QString sub = dir_.filePath(QStringLiteral("long"));
        QVERIFY(QDir().mkpath(sub));
        // "<n x a>-{pid}.strata" is n + 1 + digits + 7 bytes once {pid} is filled in.
        const int fits = 255 - 1 - widestPidDigits() - 7;
        const QString tooLong = sub + QLatin1Char('/') + QString(fits + 1, QLatin1Char('a')) +
                                QStringLiteral("-{pid}.strata");
        const CliRun r =
            runCli({QStringLiteral("record"), QStringLiteral("--no-collector"),
                    QStringLiteral("-o"), tooLong, QStringLiteral("--"), QStringLiteral("true")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("output file name too long")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("is 256 bytes")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("more than the 255")), qPrintable(r.err));
        QCOMPARE(QDir(sub).entryList(QDir::Files).size(), 0);

        // One byte shorter fits at the widest pid: it runs and its record is written.
        const QString fitting = sub + QLatin1Char('/') + QString(fits, QLatin1Char('a')) +
                                QStringLiteral("-{pid}.strata");
        const CliRun ok = runCli({QStringLiteral("record"), QStringLiteral("-q"),
                                  QStringLiteral("--no-collector"), QStringLiteral("-o"), fitting,
                                  QStringLiteral("--"), QStringLiteral("true")});
        QCOMPARE(ok.exitCode, 0);
        QCOMPARE(QDir(sub).entryList(QDir::Files).size(), 1);

        // The launcher itself (the GUI's path) gives the same reason.
        RecordOptions o;
        o.command = {"true"};
        o.inject = false;
        o.output = tooLong.toStdString();
        Launcher l;
        std::string error;
        QVERIFY(!l.start(o, &error));
        QVERIFY2(error.find("output file name too long") != std::string::npos, error.c_str());
    }

    // When the run record cannot be written anywhere (here the program removes its own output
    // folder), strata-cli says so and does not exit with 0.
    void lostRunRecordFailsTheRecording() {
        const QString sub = dir_.filePath(QStringLiteral("gone"));
        QVERIFY(QDir().mkpath(sub));
        const CliRun r = runCli({QStringLiteral("record"), QStringLiteral("-q"),
                                 QStringLiteral("--no-collector"), QStringLiteral("-o"),
                                 sub + QStringLiteral("/x-{pid}.strata"), QStringLiteral("--"),
                                 QStringLiteral("sh"), QStringLiteral("-c"),
                                 QStringLiteral("rmdir \"$1\""), QStringLiteral("sh"), sub});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("error: the run record was not written")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("cannot create")), qPrintable(r.err));
    }
};

STRATA_TEST_GUILESS_MAIN(TestRunFiles)
#include "tst_run_files.moc"
