// A live run (issue 50), on the stand-in CUPTI: with STRATA_LIVE=1 every flush of the collector
// forces CUPTI's unfinished buffers out (without it none does before the end), and `strata-cli
// record --live` says once a second how the run goes, from its file as it grows, while the trace
// it leaves is the whole run's.
#include "io/trace_loader.h"
#include "model/trace.h"
#include "support/process_run.h"
#include "support/test_main.h"
#include "support/trace_counts.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using strata::test::kernelsIn;

namespace {

QMap<QString, QString> keyValues(const QByteArray& out) {
    QMap<QString, QString> m;
    for (const QByteArray& line : out.split('\n')) {
        const qsizetype eq = line.indexOf('=');
        if (eq > 0) m[QString::fromUtf8(line.left(eq))] = QString::fromUtf8(line.mid(eq + 1));
    }
    return m;
}

} // namespace

class TestCollectorLive : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    test::ProcessRun paced(const QString& out, bool live) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("STRATA_OUTPUT"), out);
        env.insert(QStringLiteral("STRATA_FLUSH_MS"), QStringLiteral("50"));
        env.insert(QStringLiteral("HARNESS_SECONDS"), QStringLiteral("1"));
        if (live) env.insert(QStringLiteral("STRATA_LIVE"), QStringLiteral("1"));
        return test::runProcess(QStringLiteral(STRATA_COLLECTOR_HARNESS), {"paced"}, env, 60000);
    }

private slots:
    void liveFlushesForceCuptiBuffersOut() {
        const test::ProcessRun live = paced(dir_.filePath(QStringLiteral("live.strata")), true);
        QCOMPARE(live.exitCode, 0);
        auto kv = keyValues(live.out);
        QVERIFY2(kv.value(QStringLiteral("flushes")).toInt() >= 1, live.out.constData());
        QCOMPARE(kv.value(QStringLiteral("forced_flushes")), kv.value(QStringLiteral("flushes")));

        const test::ProcessRun plain = paced(dir_.filePath(QStringLiteral("plain.strata")), false);
        QCOMPARE(plain.exitCode, 0);
        kv = keyValues(plain.out);
        QVERIFY2(kv.value(QStringLiteral("flushes")).toInt() >= 1, plain.out.constData());
        QCOMPARE(kv.value(QStringLiteral("forced_flushes")), QStringLiteral("0"));
    }

    // 2000 kernels a second, each busy half its period, for 3 s: a line a second; once a whole
    // second of GPU time has arrived, the GPU is 50 % busy; the trace holds every kernel the
    // program launched.
    void recordLiveSaysHowItGoes() {
#ifndef STRATA_CLI
        QSKIP("strata-cli is not built");
#else
        const QString out = dir_.filePath(QStringLiteral("record-live.strata"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HARNESS_SECONDS"), QStringLiteral("3"));
        env.insert(QStringLiteral("HARNESS_RATE"), QStringLiteral("2000"));
        const test::ProcessRun r =
            test::runProcess(QStringLiteral(STRATA_CLI),
                             {"record", "--live", "-o", out, "--collector", STRATA_COLLECTOR_SO,
                              "--", STRATA_COLLECTOR_HARNESS, "paced"},
                             env, 60000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString err = QString::fromUtf8(r.err);
        static const QRegularExpression line(QStringLiteral(
            "strata-cli record: live: ([0-9,]+) kernels/s · GPU busy ([0-9]+)% · 0 dropped · "
            "[0-9.]+ MB\\n"));
        int lines = 0, busy50 = 0, moving = 0;
        for (auto it = line.globalMatch(err); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            ++lines;
            if (m.captured(2) == QStringLiteral("50")) ++busy50;
            if (m.captured(1) != QStringLiteral("0")) ++moving;
        }
        QVERIFY2(lines >= 1 && moving >= 1 && busy50 >= 1, qPrintable(err));
        const LoadResult t = loadTrace(out.toStdString());
        QVERIFY(t.trace);
        QCOMPARE(QString::number(kernelsIn(*t.trace)),
                 keyValues(r.out).value(QStringLiteral("kernels")));
#endif
    }
};

STRATA_TEST_GUILESS_MAIN(TestCollectorLive)
#include "tst_collector_live.moc"
