// strata-cli samples on a file written through StrataTraceWriter (the fixture of
// tests/support/stack_samples_fixture.h): --json's numbers against counts made by hand, for all
// threads, --thread and --range, and on the model file `convert` makes of it; the table; a trace
// without samples (exit 0); an unknown thread (exit 1); `info` counting the samples.
#include "io/strata/strata_trace_writer.h"
#include "support/process_run.h"
#include "support/stack_samples_fixture.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace strata;
using strata::test::StackFixture;

namespace {

// name, self, total, self_share, total_share of each function, in the order printed.
using Fn = std::tuple<std::string, uint64_t, uint64_t, double, double>;
std::vector<Fn> functionsOf(const nlohmann::json& j) {
    std::vector<Fn> out;
    for (const auto& f : j.at("functions"))
        out.emplace_back(f.at("name").get<std::string>(), f.at("self").get<uint64_t>(),
                         f.at("total").get<uint64_t>(), f.at("self_share").get<double>(),
                         f.at("total_share").get<double>());
    return out;
}

} // namespace

class TestCliSamples : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString fixture_;

    QString path(const char* name) { return dir_.filePath(name); }

    // stdout parsed as JSON (null on failure, with the run's stderr shown).
    nlohmann::json runJson(const QStringList& args) {
        const test::ProcessRun r = test::runStrataCli(args);
        if (r.exitCode != 0) {
            qWarning("exit %d: %s", r.exitCode, r.err.constData());
            return nullptr;
        }
        return nlohmann::json::parse(r.out.toStdString(), nullptr, false);
    }

private slots:
    void initTestCase() {
        fixture_ = path("fixture.strata");
        StrataTraceWriter w;
        std::string error;
        QVERIFY(w.open(fixture_.toStdString(), &error));
        StackFixture::write(w, 4);
        QVERIFY(w.close());
    }

    void jsonOfAllThreads() {
        // 9 samples (1 empty). self: a 5, main 1, b 1, sleep 1; total: a 6, main 6, b 3, sleep 1.
        const nlohmann::json j = runJson({"samples", "--json", fixture_});
        QVERIFY(j.is_object());
        QCOMPARE(j.at("samples").get<uint64_t>(), uint64_t(9));
        QCOMPARE(j.at("empty_samples").get<uint64_t>(), uint64_t(1));
        QCOMPARE(j.at("threads").get<uint32_t>(), 3u);
        QCOMPARE(j.at("period_ns").get<int64_t>(), int64_t(1'000'000));
        QVERIFY(j.at("thread").is_null());
        const std::vector<Fn> want = {{StackFixture::kA, 5, 6, 5 / 9.0, 6 / 9.0},
                                      {StackFixture::kMain, 1, 6, 1 / 9.0, 6 / 9.0},
                                      {StackFixture::kB, 1, 3, 1 / 9.0, 3 / 9.0},
                                      {StackFixture::kSleep, 1, 1, 1 / 9.0, 1 / 9.0}};
        QCOMPARE(functionsOf(j), want);
    }

    void jsonOfOneThreadAndARange() {
        // tid 11: c2 c4 c4 c5: self a 3, sleep 1; total main 4, a 3, b 2, sleep 1.
        nlohmann::json j = runJson({"samples", "--json", "--thread", "11", fixture_});
        QVERIFY(j.is_object());
        QCOMPARE(j.at("thread").get<int64_t>(), int64_t(11));
        std::vector<Fn> want = {{StackFixture::kA, 3, 3, 3 / 4.0, 3 / 4.0},
                                {StackFixture::kSleep, 1, 1, 1 / 4.0, 1 / 4.0},
                                {StackFixture::kMain, 0, 4, 0.0, 4 / 4.0},
                                {StackFixture::kB, 0, 2, 0.0, 2 / 4.0}};
        QCOMPARE(functionsOf(j), want);
        // The trace starts at 1000 ns: 0:1.5us is [1000, 2500): 5 samples, self a 4, b 1;
        // total a 5, main 3, b 2.
        j = runJson({"samples", "--json", "--range", "0us:1.5us", fixture_});
        QVERIFY(j.is_object());
        QCOMPARE(j.at("samples").get<uint64_t>(), uint64_t(5));
        QCOMPARE(j.at("range_ns"), nlohmann::json({1000, 2500}));
        want = {{StackFixture::kA, 4, 5, 4 / 5.0, 5 / 5.0},
                {StackFixture::kB, 1, 2, 1 / 5.0, 2 / 5.0},
                {StackFixture::kMain, 0, 3, 0.0, 3 / 5.0}};
        QCOMPARE(functionsOf(j), want);
    }

    void modelFileGivesTheSameNumbers() {
        const QString model = path("model.strata");
        const test::CliRun c = test::runCli({"convert", fixture_, model});
        QVERIFY2(c.exitCode == 0, qPrintable(c.err));
        const nlohmann::json a = runJson({"samples", "--json", fixture_});
        const nlohmann::json b = runJson({"samples", "--json", model});
        QVERIFY(a.is_object() && b.is_object());
        QCOMPARE(functionsOf(b), functionsOf(a));
        QCOMPARE(b.at("samples"), a.at("samples"));
        QCOMPARE(b.at("period_ns"), a.at("period_ns"));
    }

    void table() {
        const test::ProcessRun r = test::runStrataCli({"samples", "--top", "2", fixture_});
        QCOMPARE(r.exitCode, 0);
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains("9 stack samples on 3 threads (1 with no frame)"), qPrintable(out));
        QVERIFY2(out.contains("         5  55.56%          6  66.67%  lib/a.py(10): a"),
                 qPrintable(out));
        QVERIFY(out.contains(StackFixture::kMain));
        QVERIFY(!out.contains(StackFixture::kB)); // --top 2
    }

    void traceWithoutSamples() {
        const QString p = path("none.strata");
        StrataTraceWriter w;
        std::string error;
        QVERIFY(w.open(p.toStdString(), &error));
        w.cpuSlice(1, 1, 0, 100, w.string("x"), SliceKind::CpuOp, -1, 0);
        QVERIFY(w.close());
        const test::ProcessRun r = test::runStrataCli({"samples", p});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("has no stack samples"), r.out.constData());
        const nlohmann::json j = runJson({"samples", "--json", p});
        QVERIFY(j.is_object());
        QCOMPARE(j.at("samples").get<uint64_t>(), uint64_t(0));
        QVERIFY(j.at("functions").empty());
    }

    void unknownThread() {
        const test::ProcessRun r = test::runStrataCli({"samples", "--thread", "99", fixture_});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("no samples of thread 99 (threads: 11, 12, 21)"),
                 r.err.constData());
        QCOMPARE(test::runStrataCli({"samples", "--thread", "x", fixture_}).exitCode, 2);
    }

    void infoCountsThem() {
        const test::ProcessRun r = test::runStrataCli({"info", fixture_});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("9 on 3 threads"), r.out.constData());
        const nlohmann::json j = runJson({"info", "--json", fixture_});
        QVERIFY(j.is_object());
        QCOMPARE(j.at("stack_samples").at("samples").get<uint64_t>(), uint64_t(9));
        QCOMPARE(j.at("stack_samples").at("threads").get<uint64_t>(), uint64_t(3));
    }
};

STRATA_TEST_GUILESS_MAIN(TestCliSamples)
#include "tst_cli_samples.moc"
