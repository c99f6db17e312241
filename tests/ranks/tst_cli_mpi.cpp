// `mpirun -n N strata-cli ranks --mpi` (app/cli/cli_mpi.h) on the eight PARAM DLRM ranks of
// ../shared/traces/multirank with every rank's clock moved and a straggler planted, plus a damaged
// file: the report of 1, 2 and 3 processes is the single-process `strata-cli ranks` report byte
// for byte, names the planted straggler, and has the damaged file as its one error row. Skipped,
// saying so, where strata-cli was built without MPI, mpirun is absent or the traces are.
#include "support/process_run.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace strata;
using namespace strata::test;

namespace {

ProcessRun run(const QString& program, const QStringList& args) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // CI runs as root, which Open MPI refuses unless told twice.
    env.insert("OMPI_ALLOW_RUN_AS_ROOT", "1");
    env.insert("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    return runProcess(program, args, env);
}

QString mpirun() {
    const QString configured = QStringLiteral(STRATA_MPIEXEC);
    if (!configured.isEmpty() && QFile::exists(configured)) return configured;
    return QStandardPaths::findExecutable("mpirun");
}

} // namespace

class TstCliMpi : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void reportEqualsSingleProcess();
    void fifoAmongInputs();

private:
    void writeDlrmSet();
    QTemporaryDir dir_;
    QStringList files_;
    QString damaged_;
};

void TstCliMpi::initTestCase() {
#ifndef STRATA_HAVE_MPI
    QSKIP("strata-cli was built without MPI (libopenmpi-dev not found when configured)");
#endif
    if (mpirun().isEmpty()) QSKIP("mpirun is not installed (Debian: openmpi-bin)");
}

// The set: rank 2 computes 20 ms longer before its first collective (tst_ranks_dlrm's
// plantedStraggler: the others wait for it there, the median of their waits 24161 µs, read off
// the files), then every rank's clock moved by its own amount, so that only the collectives can
// align them; a ninth file of random bytes, listed first (the largest-first order puts it last).
void TstCliMpi::writeDlrmSet() {
    const std::vector<std::string> dlrm = dlrmFiles();
    damaged_ = dir_.filePath("damaged.json");
    QFile bad(damaged_);
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write(QByteArray("\x08\x1f\x8b garbage, not a trace\n").repeated(100));
    bad.close();
    files_ << damaged_;
    const int64_t shiftUs[8] = {0, 1333, -2666, 3000, 4333, -5666, 6000, 73331};
    for (size_t r = 0; r < 8; ++r) {
        const auto [start, end] = firstCollective(dlrm[r]);
        const Insertion at{r == 2 ? start : end - 1, 20000};
        files_ << dir_.filePath(QString("rank%1.json").arg(r));
        writeShifted(dlrm[r], files_.back().toStdString(), shiftUs[r], at);
    }
}

void TstCliMpi::reportEqualsSingleProcess() {
    if (dlrmFiles().size() != 8) QSKIP("../shared/traces/multirank/param-dlrm is absent");
    writeDlrmSet();
    if (QTest::currentTestFailed()) return;
    const ProcessRun single =
        run(QStringLiteral(STRATA_CLI), QStringList{"ranks", "--json"} + files_);
    QCOMPARE(single.exitCode, 0);
    QVERIFY2(single.err.contains("damaged.json"), single.err.constData());
    const QJsonObject report = QJsonDocument::fromJson(single.out).object();
    QCOMPARE(report["ranks"].toArray().size(), 8);
    QCOMPARE(report["alignment"].toObject()["method"].toString(), QString("collectives"));
    const QJsonObject step = report["steps"].toArray().at(0).toObject();
    QCOMPARE(step["step"].toString(), QString("ProfilerStep#10"));
    QCOMPARE(step["straggler_rank"].toInt(), 2);
    QCOMPARE(step["straggler_by"].toString(), QString("collectives"));
    // 24161 µs on the wall clock; the collectives align the moved clocks to within their spread
    // (tst_ranks_dlrm: 10 µs at most).
    QVERIFY2(std::abs(step["delay_us"].toDouble() - 24161.0) <= 10.0,
             qPrintable(QString::number(step["delay_us"].toDouble())));
    const QJsonArray errors = report["errors"].toArray();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors[0].toObject()["file"].toString(), damaged_);
    QVERIFY(errors[0].toObject()["error"].toString().startsWith(damaged_ + ": "));

    for (const int processes : {1, 2, 3}) {
        const ProcessRun mpi =
            run(mpirun(), QStringList{"--oversubscribe", "-n", QString::number(processes),
                                      STRATA_CLI, "ranks", "--mpi", "--json"} +
                              files_);
        QVERIFY2(mpi.exitCode == 0, mpi.err.constData());
        QCOMPARE(mpi.out, single.out);
        QVERIFY2(
            mpi.err.contains(QString("9 files digested by %1 process").arg(processes).toUtf8()),
            mpi.err.constData());
    }
}

// A FIFO (no writer) among the files, under 3 processes: an error row at once, whichever process
// is handed it, the other ranks reported (three hand-made ranks, an AllReduce each).
void TstCliMpi::fifoAmongInputs() {
    QTemporaryDir dir;
    QStringList files;
    for (int r = 0; r < 3; ++r) {
        files << dir.filePath(QString("rank%1.json").arg(r));
        HandRank(r)
            .annotation("ProfilerStep#1", 1000, 1000)
            .kernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, "
                    "ncclWork*)",
                    20, 1100 + 100 * r, 400 - 100 * r)
            .write(files.back().toStdString());
    }
    const QString fifo = dir.filePath("fifo.json");
    QCOMPARE(::mkfifo(fifo.toLocal8Bit().constData(), 0600), 0);
    files.insert(1, fifo);
    const ProcessRun single =
        run(QStringLiteral(STRATA_CLI), QStringList{"ranks", "--json"} + files);
    QCOMPARE(single.exitCode, 0);
    QElapsedTimer clock;
    clock.start();
    const ProcessRun mpi = run(
        mpirun(),
        QStringList{"--oversubscribe", "-n", "3", STRATA_CLI, "ranks", "--mpi", "--json"} + files);
    // mpirun's own start takes a while; a wait on the FIFO would be forever (the run's limit).
    QVERIFY2(clock.elapsed() < 60000, "ranks --mpi waited on the FIFO");
    QVERIFY2(mpi.exitCode == 0, mpi.err.constData());
    QCOMPARE(mpi.out, single.out);
    const QJsonObject report = QJsonDocument::fromJson(mpi.out).object();
    QCOMPARE(report["ranks"].toArray().size(), 3);
    const QJsonArray errors = report["errors"].toArray();
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors[0].toObject()["file"].toString(), fifo);
    QVERIFY2(errors[0].toObject()["error"].toString().contains("FIFO"),
             qPrintable(errors[0].toObject()["error"].toString()));
}

STRATA_TEST_GUILESS_MAIN(TstCliMpi)
#include "tst_cli_mpi.moc"
