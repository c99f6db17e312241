// The query layer (core/query) on a hand-made Kineto trace; every expected value is worked out
// by hand from the events below (times in the file in µs, in the tables in ns).
//
// process 1, thread 10 "main":
//   ProfilerStep#1 [0, 100)     aten::mm [10, 40) (Input Dims [[8,1024],[1024,16]])
//                                 cudaLaunchKernel [20, 25) corr 1
//                               aten::copy_ [50, 80)
//                                 cudaMemcpyAsync [55, 60) corr 2
//   ProfilerStep#2 [100, 200)   aten::mm [110, 140)
//                                 cudaLaunchKernel [120, 125) corr 3
//   instant "mark" at 5 (thread scope)
// GPU 0 stream 7: gemm [30, 50) corr 1 grid 64x2x1 block 256; Memcpy HtoD (Pageable -> Device)
//   [62, 70) corr 2, 4096 bytes; gemm [130, 160) corr 3 grid 1x1x1 block 128
// (11 slices: 8 on the thread, 3 on the GPU)
// counter "mem" of process 1: 1 at 0, 3 at 50
#include "support/kineto_json_fixture.h"
#include "support/test_main.h"

#include "query_rows.h"

#include <QtTest>

#include <QDir>

#include <filesystem>

using namespace strata;
using strata::test::query;
using Rows = std::vector<strata::test::QueryRows::Row>;

namespace {

std::shared_ptr<const Trace> makeTrace() {
    test::KinetoJson j;
    j.threadName(10, "main")
        .x("user_annotation", "ProfilerStep#1", 1, 10, 0, 100)
        .x("cpu_op", "aten::mm", 1, 10, 10, 30, "\"Input Dims\": [[8, 1024], [1024, 16]]")
        .call("cudaLaunchKernel", 10, 20, 5, 1)
        .cpuOp("aten::copy_", 10, 50, 30)
        .call("cudaMemcpyAsync", 10, 55, 5, 2)
        .x("user_annotation", "ProfilerStep#2", 1, 10, 100, 100)
        .cpuOp("aten::mm", 10, 110, 30)
        .call("cudaLaunchKernel", 10, 120, 5, 3)
        .x("kernel", "gemm", 0, 7, 30, 20,
           "\"device\":0,\"stream\":7,\"correlation\":1,\"grid\":[64,2,1],\"block\":[256,1,1]")
        .copy("Memcpy HtoD (Pageable -> Device)", 62, 8, 2, 4096)
        .x("kernel", "gemm", 0, 7, 130, 30,
           "\"device\":0,\"stream\":7,\"correlation\":3,\"grid\":[1,1,1],\"block\":[128,1,1]")
        .event("{\"ph\":\"i\",\"s\":\"t\",\"name\":\"mark\",\"pid\":1,\"tid\":10,\"ts\":5}")
        .event("{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":0,\"args\":{\"v\":1}}")
        .event("{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":50,\"args\":{\"v\":3}}");
    return j.load();
}

QuerySource source(std::shared_ptr<const Trace> t, int32_t rank = -1) {
    QuerySource s;
    s.trace = std::move(t);
    s.rank = rank;
    return s;
}

} // namespace

class TestQueryEngine : public QObject {
    Q_OBJECT
    std::shared_ptr<const Trace> trace_;
    std::unique_ptr<QueryEngine> engine_;

    Rows q(const std::string& sql) {
        QueryOutcome o;
        Rows r = query(*engine_, sql, &o);
        if (!o.ok) qWarning("%s: %s", sql.c_str(), o.error.c_str());
        return r;
    }

private slots:
    void initTestCase() {
        trace_ = makeTrace();
        QVERIFY(trace_);
        engine_ = std::make_unique<QueryEngine>(std::vector<QuerySource>{source(trace_)});
        QVERIFY2(engine_->ok(), engine_->error().c_str());
    }

    void kernelTotalsByName() {
        // Names in BINARY order (upper case first), with and without GROUP BY.
        const Rows totals = {{"Memcpy HtoD (Pageable -> Device)", "1", "8000"},
                             {"gemm", "2", "50000"}};
        QCOMPARE(q("SELECT name, count(*), sum(dur) FROM gpu_ops GROUP BY name ORDER BY name"),
                 totals);
        QCOMPARE(q("SELECT name, count(*), sum(dur) FROM gpu_ops GROUP BY name"), totals);
        QCOMPARE(q("SELECT name FROM gpu_ops ORDER BY name"),
                 (Rows{{"Memcpy HtoD (Pageable -> Device)"}, {"gemm"}, {"gemm"}}));
        QCOMPARE(q("SELECT name FROM gpu_ops ORDER BY name DESC"),
                 (Rows{{"gemm"}, {"gemm"}, {"Memcpy HtoD (Pageable -> Device)"}}));
        QCOMPARE(q("SELECT DISTINCT name FROM slices WHERE name LIKE 'aten%'"),
                 (Rows{{"aten::copy_"}, {"aten::mm"}}));
        // Another collation or a second key: SQLite sorts itself.
        QCOMPARE(q("SELECT name FROM gpu_ops ORDER BY name COLLATE NOCASE"),
                 (Rows{{"gemm"}, {"gemm"}, {"Memcpy HtoD (Pageable -> Device)"}}));
        QCOMPARE(q("SELECT name, ts FROM gpu_ops ORDER BY name, ts DESC"),
                 (Rows{{"Memcpy HtoD (Pageable -> Device)", "62000"},
                       {"gemm", "130000"},
                       {"gemm", "30000"}}));
        // Kind and category in their text's order too.
        QCOMPARE(q("SELECT kind, count(*) FROM slices GROUP BY kind"),
                 (Rows{{"cpu_op", "3"},
                       {"cuda_runtime", "3"},
                       {"gpu_memcpy", "1"},
                       {"kernel", "2"},
                       {"user_annotation", "2"}}));
        QCOMPARE(q("SELECT category, count(*) FROM gpu_ops GROUP BY category ORDER BY category"),
                 (Rows{{"gpu_memcpy", "1"}, {"kernel", "2"}}));
    }

    void gpuOpColumns() {
        QCOMPARE(q("SELECT kind, device, stream, grid, block, bytes, copy_kind, src_memory, "
                   "correlation FROM gpu_ops ORDER BY ts"),
                 (Rows{{"kernel", "0", "7", "128", "256", "NULL", "NULL", "NULL", "1"},
                       {"gpu_memcpy", "0", "7", "0", "0", "4096", "HtoD", "Pageable", "2"},
                       {"kernel", "0", "7", "1", "128", "NULL", "NULL", "NULL", "3"}}));
        QCOMPARE(q("SELECT count(*) FROM gpu_ops WHERE grid > 100"), (Rows{{"1"}}));
    }

    // Each GPU op joined to its launching call and the CPU op around that call.
    void joinToLaunchingOp() {
        QCOMPARE(q("SELECT g.name, g.launch, g.cpu_op, s.name, s.ts, l.ts FROM gpu_ops g "
                   "JOIN slices s ON s.id = g.cpu_op_id JOIN api_calls l ON l.id = g.launch_id "
                   "ORDER BY g.ts"),
                 (Rows{{"gemm", "cudaLaunchKernel", "aten::mm", "aten::mm", "10000", "20000"},
                       {"Memcpy HtoD (Pageable -> Device)", "cudaMemcpyAsync", "aten::copy_",
                        "aten::copy_", "50000", "55000"},
                       {"gemm", "cudaLaunchKernel", "aten::mm", "aten::mm", "110000", "120000"}}));
        QCOMPARE(q("SELECT name, gpu_ops, cpu_op, thread FROM api_calls ORDER BY ts"),
                 (Rows{{"cudaLaunchKernel", "1", "aten::mm", "main"},
                       {"cudaMemcpyAsync", "1", "aten::copy_", "main"},
                       {"cudaLaunchKernel", "1", "aten::mm", "main"}}));
    }

    // A GPU op in a step: its start in [step start, step end).
    void totalsPerStep() {
        QCOMPARE(
            q("SELECT st.step, st.name, count(*), sum(g.dur) FROM steps st JOIN gpu_ops g "
              "ON g.ts >= st.ts AND g.ts < st.end GROUP BY st.step ORDER BY st.step"),
            (Rows{{"0", "ProfilerStep#1", "2", "28000"}, {"1", "ProfilerStep#2", "1", "30000"}}));
    }

    void lookups() {
        QCOMPARE(q("SELECT kind, name FROM slices WHERE correlation = 3 ORDER BY ts"),
                 (Rows{{"cuda_runtime", "cudaLaunchKernel"}, {"kernel", "gemm"}}));
        const Rows id = q("SELECT id FROM slices WHERE name = 'aten::copy_'");
        QCOMPARE(id.size(), size_t(1));
        QCOMPARE(q("SELECT name, depth FROM slices WHERE parent_id = " + id[0][0]),
                 (Rows{{"cudaMemcpyAsync", "2"}}));
        QCOMPARE(q("SELECT name, ts, dur, self FROM slices WHERE id = " + id[0][0]),
                 (Rows{{"aten::copy_", "50000", "30000", "25000"}}));
        QCOMPARE(q("SELECT name FROM gpu_ops WHERE launch_id = (SELECT id FROM api_calls WHERE "
                   "correlation = 2)"),
                 (Rows{{"Memcpy HtoD (Pageable -> Device)"}}));
        QCOMPARE(q("SELECT count(*) FROM slices WHERE id = 99999"), (Rows{{"0"}}));
    }

    void timeBounds() {
        QCOMPARE(q("SELECT count(*) FROM slices WHERE ts >= 100000 AND ts < 200000"),
                 (Rows{{"4"}}));
        QCOMPARE(q("SELECT name FROM slices WHERE ts > 120000 AND ts <= 130000"), (Rows{{"gemm"}}));
        QCOMPARE(q("SELECT count(*) FROM slices WHERE ts > 129999.5 AND ts < 130000.5"),
                 (Rows{{"1"}}));
    }

    void argsTyped() {
        QCOMPARE(q("SELECT s.name, a.value, a.type FROM slices s JOIN args a ON a.slice_id = s.id "
                   "WHERE a.key = 'Input Dims'"),
                 (Rows{{"aten::mm", "[[8, 1024], [1024, 16]]", "json"}}));
        QCOMPARE(q("SELECT typeof(value), value FROM args WHERE key = 'bytes'"),
                 (Rows{{"integer", "4096"}}));
        // A scan sees every arg of every slice: the 3 GPU ops' device and stream, the kernels'
        // grid and block, the copy's bytes, Input Dims (a correlation id is a column of its own,
        // not an arg).
        QCOMPARE(q("SELECT count(*) FROM args"), (Rows{{"12"}}));
        QCOMPARE(q("SELECT count(*) FROM args WHERE key = 'correlation'"), (Rows{{"0"}}));
    }

    void otherTables() {
        QCOMPARE(q("SELECT pid, tid, name FROM threads WHERE tid = 10"),
                 (Rows{{"1", "10", "main"}}));
        QCOMPARE(q("SELECT name, ts, scope, tid FROM instants"),
                 (Rows{{"mark", "5000", "thread", "10"}}));
        // A Chrome counter's series is named "<name> <arg>".
        QCOMPARE(q("SELECT ts, value FROM counters WHERE name = 'mem v' ORDER BY ts"),
                 (Rows{{"0", "1"}, {"50000", "3"}}));
        QCOMPARE(q("SELECT count(*) FROM flows WHERE from_id IS NOT NULL"),
                 q("SELECT count(*) FROM flows"));
        // Idle on stream 7: 50 -> 62 and 70 -> 130 µs, both over the 10 µs threshold.
        QCOMPARE(q("SELECT level, ts, dur FROM gaps ORDER BY level, ts"),
                 (Rows{{"device", "50000", "12000"},
                       {"device", "70000", "60000"},
                       {"stream", "50000", "12000"},
                       {"stream", "70000", "60000"}}));
        QCOMPARE(q("SELECT g.dur, s.name FROM gaps g JOIN slices s ON s.id = g.next_id "
                   "WHERE level = 'device' ORDER BY g.ts"),
                 (Rows{{"12000", "Memcpy HtoD (Pageable -> Device)"}, {"60000", "gemm"}}));
        QCOMPARE(q("SELECT rank FROM slices LIMIT 1"), (Rows{{"NULL"}}));
        // The analysis given with the trace decides the gaps: over 20 µs, only the 60 µs one.
        QuerySource withSettings = source(trace_);
        AnalysisSettings settings;
        settings.gapThreshold = 20'000;
        withSettings.analysis = std::make_shared<TraceAnalysis>(trace_, settings);
        QueryEngine twenty({withSettings});
        QCOMPARE(query(twenty, "SELECT ts, dur FROM gaps WHERE level = 'device'"),
                 (Rows{{"70000", "60000"}}));
    }

    void refusesWrites() {
        const std::string db = QDir::temp().filePath("strata-query-attach.db").toStdString();
        std::filesystem::remove(db);
        const std::vector<std::string> writes = {
            "CREATE TABLE t(x)",        "CREATE TEMP TABLE t(x)",
            "ATTACH '" + db + "' AS x", "PRAGMA writable_schema = 1",
            "DELETE FROM slices",       "SELECT load_extension('/nowhere/x.so')",
            "VACUUM INTO '" + db + "'"};
        for (const std::string& sql : writes) {
            QueryOutcome o;
            query(*engine_, sql, &o);
            QVERIFY2(!o.ok, sql.c_str());
            QVERIFY2(!o.error.empty(), sql.c_str());
        }
        QVERIFY(!std::filesystem::exists(db));
        QueryOutcome o;
        query(*engine_, "CREATE TABLE t(x)", &o);
        QVERIFY2(o.error.find("only reads") != std::string::npos, o.error.c_str());
        // The schema's pragmas are allowed.
        QCOMPARE(q("SELECT count(*) FROM pragma_table_info('steps')"), (Rows{{"7"}}));
    }

    void syntaxErrorNamesThePosition() {
        QueryOutcome o;
        query(*engine_, "SELECT name\n  FROM slices WHER dur > 0", &o);
        QVERIFY(!o.ok);
        QVERIFY2(o.error.find("line 2, column") != std::string::npos, o.error.c_str());
        query(*engine_, "SELECT nme FROM slices", &o);
        QVERIFY2(o.error.find("no such column: nme") != std::string::npos, o.error.c_str());
        QCOMPARE(o.errorOffset, 7);
        QVERIFY2(o.error.find("line 1, column 8") != std::string::npos, o.error.c_str());
    }

    void stopsWhenAsked() {
        // A cross join of every slice with every slice, three times over: stopped by the flag.
        const std::string endless = "SELECT count(*) FROM slices a, slices b, slices c, slices d, "
                                    "slices e, slices f, slices g";
        std::atomic<bool> cancel{false};
        QueryControl control;
        control.cancel = &cancel;
        uint64_t calls = 0;
        control.progress = [&](uint64_t) {
            if (++calls == 50) cancel = true;
            return true;
        };
        test::QueryRows rows;
        QueryOutcome o = engine_->run(endless, rows, control);
        QVERIFY(!o.ok);
        QVERIFY(o.cancelled);
        QCOMPARE(calls, uint64_t(50));
        // The progress callback alone stops it too.
        control.cancel = nullptr;
        calls = 0;
        control.progress = [&](uint64_t) { return ++calls < 20; };
        o = engine_->run(endless, rows, control);
        QVERIFY(o.cancelled);
        // A sink that wants no more rows ends the statement without an error.
        rows.stopAfter = 2;
        o = engine_->run("SELECT * FROM slices", rows);
        QVERIFY(o.ok);
        QCOMPARE(rows.rows.size(), size_t(2));
        QCOMPARE(o.rows, uint64_t(2));
    }

    void severalStatements() {
        test::QueryRows rows;
        const QueryOutcome o = engine_->run(
            "SELECT 1; -- a comment\nSELECT name FROM devices; SELECT 2 AS two;", rows);
        QVERIFY(o.ok);
        QCOMPARE(o.statements, 3);
        QCOMPARE(rows.names, (std::vector<std::string>{"two"}));
        QCOMPARE(rows.rows, (Rows{{"2"}}));
    }

    // Two ranks: ids unique over the set, joins by id stay within a rank, GROUP BY name groups
    // the same name of both ranks.
    void rankSet() {
        QueryEngine set({source(trace_, 0), source(makeTrace(), 1)});
        QCOMPARE(query(set, "SELECT rank, count(*) FROM gpu_ops GROUP BY rank ORDER BY rank"),
                 (Rows{{"0", "3"}, {"1", "3"}}));
        QCOMPARE(query(set, "SELECT count(DISTINCT id) = count(*), count(*) FROM slices"),
                 (Rows{{"1", "22"}}));
        QCOMPARE(query(set, "SELECT count(*), sum(g.rank = l.rank) FROM gpu_ops g JOIN api_calls l "
                            "ON l.id = g.launch_id"),
                 (Rows{{"6", "6"}}));
        QCOMPARE(
            query(set, "SELECT name, count(*), sum(dur) FROM gpu_ops GROUP BY name"),
            (Rows{{"Memcpy HtoD (Pageable -> Device)", "2", "16000"}, {"gemm", "4", "100000"}}));
        QCOMPARE(
            query(set, "SELECT rank, count(*) FROM slices WHERE correlation = 1 GROUP BY rank"),
            (Rows{{"0", "2"}, {"1", "2"}}));
    }
};

STRATA_TEST_GUILESS_MAIN(TestQueryEngine)
#include "tst_query_engine.moc"
