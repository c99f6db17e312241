// Nsight Systems SQLite exports (io/formats/nsys): hand-made exports written here with SQLite's
// own API, in the shapes nsys versions give them, every expected value written out below. The
// real exports of ../shared/formats are checked against an independent script
// (tests/data/formats/expected_nsys.py).
//
// The export (ns): process 7 ("app"), thread 7/7 ("main"); globalTid = 7 << 24 | 7.
//   runtime  cudaLaunchKernel_v7000 [100, 150) corr 1; cudaMemcpyAsync_v3020 [200, 230) corr 2;
//            cuLaunchKernel [300, 320) corr 3 (a driver call); a row with a NULL end (skipped)
//   kernels  K1 [160, 260) dev 0 stream 13 corr 1, grid 4x1x1 block 128x1x1, 32 regs;
//            K2 [330, 400) dev 0 stream 14 corr 3
//   memcpy   [240, 250) HtoD Pageable -> Device, 4096 bytes, dev 0 stream 13, corr 2
//   sync     Stream Sync [400, 410) on stream 13
//   NVTX     domain 5 "app-domain" (eventType 75); push/pop "step" [90, 450) in domain 5;
//            push/pop "inner" [95, 140) with its name in StringIds (textId); a mark "here" at 120;
//            a push/pop with a NULL end (skipped); an eventType 33 row (skipped, not shown)
// GPU metrics and CPU samples (gpuMetricsAndCpuSamples, added to the new-schema export):
//   metrics  typeId 0x10001 (device 1): "SMs Active" (id 3) 10 at 100, 60 at 200; "DRAM Read"
//            (id 4) 5.5 at 100; typeId 0x10000 (device 0) "SMs Active" 20 at 150; a row with a
//            NULL value (skipped)
//   samples  thread 7/7: sample 1 at 110 main <- work <- leaf (stackDepth 2, 1, 0), sample 2 at
//            210 main <- work, sample 3 at 310 with no symbol in module libfoo.so at depth 0
//            under main; sample 4 at 320 with no callchain rows (an empty stack)
//   graphs   cudaGraphLaunch [500, 510) corr 8; its graph 42's run [520, 600) dev 0 stream 13
//            corr 8 (GRAPH_TRACE); cudaGraphInstantiate [50, 80) (CUDA_GRAPH_EVENTS) and
//            cudaGraphAddKernelNode [20, 30) (CUDA_GRAPH_NODE_EVENTS) on thread 7/7; a node
//            row with a NULL end (skipped)
#include "io/trace_loader.h"
#include "io/trace_reader.h"
#include "support/strata_format_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>

using namespace strata;

namespace {

SliceRef find(const Trace& t, std::string_view name) {
    return ::findSlice(t, name).ref;
}

constexpr int64_t kTid = (int64_t(7) << 24) | 7;

void exec(sqlite3* db, const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string e = err ? err : "?";
        sqlite3_free(err);
        QFAIL(("sqlite: " + e + " in " + sql).c_str());
    }
}

// `oldSchema`: META_DATA_EXPORT's predecessor EXPORT_META_DATA, no graph columns, no shortName.
std::string makeExport(const QTemporaryDir& dir, const QString& name, bool oldSchema) {
    const std::string path = dir.filePath(name).toStdString();
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    const std::string meta = oldSchema ? "EXPORT_META_DATA" : "META_DATA_EXPORT";
    const std::string t = std::to_string(kTid), p = std::to_string(int64_t(7) << 24);
    exec(db, "CREATE TABLE " + meta +
                 "(name TEXT, value TEXT);"
                 "INSERT INTO " +
                 meta +
                 " VALUES ('EXPORT_PRODUCT_VERSION', '2099.1'),"
                 "('EXPORT_SCHEMA_VERSION', '9.9.9'), ('EXPORT_USER', 'secret-user');"
                 "CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT);"
                 "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, "
                 "'cudaMemcpyAsync_v3020'),"
                 "(3, 'cuLaunchKernel'), (4, 'K1'), (5, 'K2'), (6, 'main'), (7, 'inner');"
                 "CREATE TABLE PROCESSES(globalPid INTEGER, pid INTEGER, name TEXT);"
                 "INSERT INTO PROCESSES VALUES (" +
                 p +
                 ", 7, 'app');"
                 "CREATE TABLE ThreadNames(nameId INTEGER, priority INTEGER, globalTid INTEGER);"
                 "INSERT INTO ThreadNames VALUES (6, 0, " +
                 t +
                 ");"
                 "CREATE TABLE TARGET_INFO_GPU(id INTEGER, name TEXT, smCount INTEGER, "
                 "totalMemory INTEGER, clockRate INTEGER);"
                 "INSERT INTO TARGET_INFO_GPU VALUES (0, 'Test GPU', 80, 1000, 1500000000);"
                 "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, eventClass "
                 "INTEGER,"
                 " globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER);"
                 "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (100, 150, 1, " +
                 t +
                 ", 1, 1, 0),"
                 "(200, 230, 1, " +
                 t + ", 2, 2, 0), (300, 320, 1, " + t +
                 ", 3, 3, 0),"
                 "(500, NULL, 1, " +
                 t + ", 4, 1, 0);");
    const std::string graph = oldSchema ? "" : ", graphNodeId INTEGER, shortName INTEGER";
    const std::string graphValues = oldSchema ? "" : ", NULL, 4";
    exec(db,
         "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER,"
         " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,"
         " demangledName INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER,"
         " blockY INTEGER, blockZ INTEGER, registersPerThread INTEGER" +
             graph +
             ");"
             "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (160, 260, 0, 1, 13, 1, " +
             p + ", 4, 4, 1, 1, 128, 1, 1, 32" + graphValues +
             "),"
             "(330, 400, 0, 1, 14, 3, " +
             p + ", 5, 1, 1, 1, 1, 1, 1, 8" + graphValues +
             ");"
             "CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER, end INTEGER, deviceId INTEGER,"
             " contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER,"
             " bytes INTEGER, copyKind INTEGER, srcKind INTEGER, dstKind INTEGER);"
             "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (240, 250, 0, 1, 13, 2, " +
             p +
             ", 4096, 1, 1, 3);"
             "CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION(start INTEGER, end INTEGER,"
             " deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,"
             " globalPid INTEGER, syncType INTEGER, eventId INTEGER);"
             "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (400, 410, 0, 1, 13, 9, " +
             p +
             ", 3, -1);"
             "CREATE TABLE NVTX_EVENTS(start INTEGER, end INTEGER, eventType INTEGER, text TEXT,"
             " globalTid INTEGER, textId INTEGER, domainId INTEGER);"
             "INSERT INTO NVTX_EVENTS VALUES (-5, NULL, 75, 'app-domain', " +
             t +
             ", NULL, 5),"
             "(90, 450, 59, 'step', " +
             t + ", NULL, 5), (95, 140, 59, NULL, " + t +
             ", 7, 0),"
             "(120, NULL, 34, 'here', " +
             t + ", NULL, 0), (600, NULL, 59, 'open', " + t +
             ", NULL, 0), (700, 710, 33, 'category', " + t +
             ", NULL, 0);"
             "CREATE TABLE SCHED_EVENTS(start INTEGER, cpu INTEGER, isSchedIn INTEGER, globalTid "
             "INTEGER);"
             "INSERT INTO SCHED_EVENTS VALUES (1, 0, 1, " +
             t + ");");
    sqlite3_close(db);
    return path;
}

} // namespace

class TestNsysSqlite : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void readsEveryTable_data() {
        QTest::addColumn<bool>("oldSchema");
        QTest::newRow("META_DATA_EXPORT, graph columns") << false;
        QTest::newRow("EXPORT_META_DATA, no graph columns") << true;
    }
    void readsEveryTable() {
        QFETCH(bool, oldSchema);
        // No extension: recognised by its tables.
        const std::string path =
            makeExport(dir_, oldSchema ? QStringLiteral("old") : QStringLiteral("new"), oldSchema);
        const LoadResult r = loadTrace(path);
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QCOMPARE(r.format, std::string("nsys-sqlite"));
        const Trace& trace = *r.trace;
        QCOMPARE(trace.metadata().at("nsys_version"), std::string("2099.1"));
        QVERIFY(!trace.metadata().count("EXPORT_USER"));

        // API calls, the version suffix dropped, correlated with their GPU work.
        const SliceRef launch = find(trace, "cudaLaunchKernel");
        QVERIFY(launch.valid());
        QCOMPARE(trace.kind(launch), SliceKind::CudaRuntime);
        QCOMPARE(trace.start(launch), TimeNs(100));
        QCOMPARE(trace.duration(launch), TimeNs(50));
        QCOMPARE(trace.track(launch.track).pid, int64_t(7));
        QCOMPARE(trace.track(launch.track).tid, int64_t(7));
        QCOMPARE(trace.kind(find(trace, "cuLaunchKernel")), SliceKind::CudaDriver);
        QVERIFY(find(trace, "cudaMemcpyAsync").valid());

        const SliceRef k1 = find(trace, "K1");
        QVERIFY(k1.valid());
        QCOMPARE(trace.kind(k1), SliceKind::Kernel);
        QCOMPARE(trace.launchOf(k1), launch);
        const GpuActivity* g = trace.gpu(k1);
        QVERIFY(g);
        QCOMPARE(g->device, 0);
        QCOMPARE(g->stream, int64_t(13));
        QCOMPARE(g->grid[0], 4);
        QCOMPARE(g->block[0], 128);
        QCOMPARE(g->registersPerThread, 32);
        QCOMPARE(trace.track(k1.track).kind, TrackKind::GpuStream);
        QCOMPARE(trace.launchOf(find(trace, "K2")), find(trace, "cuLaunchKernel"));

        const SliceRef copy = find(trace, "Memcpy HtoD (Pageable -> Device)");
        QVERIFY(copy.valid());
        QCOMPARE(trace.gpu(copy)->bytes, int64_t(4096));
        QCOMPARE(trace.launchOf(copy), find(trace, "cudaMemcpyAsync"));
        QCOMPARE(trace.kind(find(trace, "Stream Sync")), SliceKind::Synchronization);

        // NVTX: the domain's name as category, a name through textId, the mark an instant.
        const SliceRef step = find(trace, "step");
        QVERIFY(step.valid());
        QCOMPARE(trace.kind(step), SliceKind::UserAnnotation);
        QCOMPARE(trace.str(trace.track(step.track).slices.category[step.index]),
                 std::string_view("app-domain"));
        QCOMPARE(trace.duration(find(trace, "inner")), TimeNs(45));
        QCOMPARE(trace.instantCount(), size_t(1));

        QCOMPARE(trace.devices().size(), size_t(1));
        QCOMPARE(trace.devices()[0].name, std::string("Test GPU"));
        QCOMPARE(trace.devices()[0].smCount, 80);
        QCOMPARE(trace.thread(7, 7) ? trace.str(trace.thread(7, 7)->name) : "", "main");
        QCOMPARE(trace.process(7) ? trace.str(trace.process(7)->name) : "", "app");

        // 3 API calls + 2 kernels + 1 copy + 1 sync + 2 NVTX ranges.
        QCOMPARE(trace.sliceCount(), size_t(9));
        QVERIFY(::hasWarning(trace, "1 rows of CUPTI_ACTIVITY_KIND_RUNTIME skipped"));
        QVERIFY(::hasWarning(trace, "1 rows of NVTX_EVENTS skipped (a range with no end"));
        QVERIFY(::hasWarning(trace, "1 rows of NVTX_EVENTS skipped (an event type"));
        QVERIFY(::hasWarning(trace, "not shown by Strata: SCHED_EVENTS"));
    }

    void gpuMetricsAndCpuSamples() {
        const std::string path = makeExport(dir_, QStringLiteral("sampled"), false);
        sqlite3* db = nullptr;
        sqlite3_open(path.c_str(), &db);
        const std::string t = std::to_string(kTid);
        exec(db,
             "INSERT INTO StringIds VALUES (20, 'work'), (21, 'leaf'), (22, 'libfoo.so');"
             "CREATE TABLE TARGET_INFO_GPU_METRICS(typeId INTEGER, sourceId INTEGER, typeName "
             "TEXT, metricId INTEGER, metricName TEXT);"
             "INSERT INTO TARGET_INFO_GPU_METRICS VALUES (65537, 1, 'GA100', 3, 'SMs Active'),"
             "(65537, 1, 'GA100', 4, 'DRAM Read'), (65536, 0, 'GA100', 3, 'SMs Active');"
             "CREATE TABLE GPU_METRICS(typeId INTEGER, timestamp INTEGER, metricId INTEGER, "
             "value INTEGER);"
             "INSERT INTO GPU_METRICS VALUES (65537, 100, 3, 10), (65537, 200, 3, 60),"
             "(65537, 100, 4, 5.5), (65536, 150, 3, 20), (65536, 160, 3, NULL);"
             "CREATE TABLE COMPOSITE_EVENTS(id INTEGER, start INTEGER, cpu INTEGER, threadState "
             "INTEGER, globalTid INTEGER, cpuCycles INTEGER);"
             "INSERT INTO COMPOSITE_EVENTS VALUES (1, 110, 0, 1, " +
                 t + ", 0), (2, 210, 0, 1, " + t + ", 0), (3, 310, 0, 1, " + t +
                 ", 0), (4, 320, 0, 1, " + t +
                 ", 0);"
                 "CREATE TABLE SAMPLING_CALLCHAINS(id INTEGER, symbol INTEGER, module INTEGER, "
                 "stackDepth INTEGER);"
                 "INSERT INTO SAMPLING_CALLCHAINS VALUES (1, 21, 22, 0), (1, 20, 22, 1), "
                 "(1, 6, 22, 2), (2, 20, 22, 0), (2, 6, 22, 1), (3, NULL, 22, 0), (3, 6, 22, 1);"
                 "INSERT INTO StringIds VALUES (30, 'cudaGraphLaunch_v10000'), "
                 "(31, 'cudaGraphInstantiate'), (32, 'cudaGraphAddKernelNode');"
                 "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (500, 510, 1, " +
                 t +
                 ", 8, 30, 0);"
                 "CREATE TABLE CUPTI_ACTIVITY_KIND_GRAPH_TRACE(start INTEGER, end INTEGER, "
                 "deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER, "
                 "globalPid INTEGER, graphId INTEGER, graphExecId INTEGER);"
                 "INSERT INTO CUPTI_ACTIVITY_KIND_GRAPH_TRACE VALUES (520, 600, 0, 1, 13, 8, " +
                 std::to_string(int64_t(7) << 24) +
                 ", 42, 1);"
                 "CREATE TABLE CUDA_GRAPH_EVENTS(start INTEGER, end INTEGER, eventClass INTEGER, "
                 "globalTid INTEGER, nameId INTEGER, graphId INTEGER, originalGraphId INTEGER, "
                 "graphExecId INTEGER);"
                 "INSERT INTO CUDA_GRAPH_EVENTS VALUES (50, 80, 0, " +
                 t +
                 ", 31, 42, NULL, 1);"
                 "CREATE TABLE CUDA_GRAPH_NODE_EVENTS(start INTEGER, end INTEGER, eventClass "
                 "INTEGER, globalTid INTEGER, nameId INTEGER, graphNodeId INTEGER, "
                 "originalGraphNodeId INTEGER);"
                 "INSERT INTO CUDA_GRAPH_NODE_EVENTS VALUES (20, 30, 0, " +
                 t + ", 32, 5, NULL), (40, NULL, 0, " + t + ", 32, 6, NULL);");
        sqlite3_close(db);
        const LoadResult r = loadTrace(path);
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        const Trace& trace = *r.trace;

        // Counter rows on each device's pid, "GPU <device> <metric>".
        std::map<std::string, std::vector<std::pair<TimeNs, double>>> counters;
        for (const Track& k : trace.tracks()) {
            if (k.kind != TrackKind::Counter) continue;
            auto& c = counters[std::to_string(k.pid) + ":" + std::string(trace.str(k.name))];
            for (size_t i = 0; i < k.counter.size(); ++i)
                c.emplace_back(k.counter.ts[i], k.counter.value[i]);
        }
        using Samples = std::vector<std::pair<TimeNs, double>>;
        QCOMPARE(counters.size(), size_t(3));
        QCOMPARE(counters["1:GPU 1 SMs Active"], (Samples{{100, 10.0}, {200, 60.0}}));
        QCOMPARE(counters["1:GPU 1 DRAM Read"], (Samples{{100, 5.5}}));
        QCOMPARE(counters["0:GPU 0 SMs Active"], (Samples{{150, 20.0}}));
        QVERIFY(::hasWarning(trace, "1 rows of GPU_METRICS skipped (no timestamp or no value)"));

        // Each sample's stack, outermost first.
        const StackSamples& ss = trace.stackSamples();
        const SampleThread* th = ss.thread(7, 7);
        QVERIFY(th);
        QCOMPARE(th->count, uint64_t(4));
        auto stackOf = [&](uint64_t i) {
            std::vector<std::string> names;
            for (StringId f : ss.stackAt(*th, i)) names.emplace_back(trace.str(f));
            return names;
        };
        using Stack = std::vector<std::string>;
        QCOMPARE(ss.ts[th->first], TimeNs(110));
        QCOMPARE(stackOf(0), (Stack{"main", "work", "leaf"}));
        QCOMPARE(stackOf(1), (Stack{"main", "work"}));
        QCOMPARE(stackOf(2), (Stack{"main", "[libfoo.so]"}));
        QCOMPARE(stackOf(3), Stack{});
        QCOMPARE(ss.kind[th->first], uint8_t(StackKind::Native));
        // main, main/work, main/work/leaf, main/[libfoo.so]: shared prefixes made once.
        QCOMPARE(ss.callsiteCount(), size_t(4));
        QVERIFY(!::hasWarning(trace, "COMPOSITE_EVENTS"));

        // The graph's run, on its stream, linked to its launch; the creation calls on the thread.
        const SliceRef graph = find(trace, "CUDA Graph 42");
        QVERIFY(graph.valid());
        QCOMPARE(trace.start(graph), TimeNs(520));
        QCOMPARE(trace.duration(graph), TimeNs(80));
        QCOMPARE(trace.gpu(graph)->graphId, int64_t(42));
        QCOMPARE(trace.gpu(graph)->stream, int64_t(13));
        QCOMPARE(trace.launchOf(graph), find(trace, "cudaGraphLaunch"));
        QCOMPARE(trace.duration(find(trace, "cudaGraphInstantiate")), TimeNs(30));
        QCOMPARE(trace.start(find(trace, "cudaGraphAddKernelNode")), TimeNs(20));
        QCOMPARE(trace.track(find(trace, "cudaGraphAddKernelNode").track).tid, int64_t(7));
        QVERIFY(::hasWarning(trace, "1 rows of CUDA_GRAPH_NODE_EVENTS skipped"));
        QVERIFY(!::hasWarning(trace, "GRAPH_TRACE"));
    }

    void notAnExportSaysWhat() {
        const std::string path = dir_.filePath(QStringLiteral("other.sqlite")).toStdString();
        sqlite3* db = nullptr;
        sqlite3_open(path.c_str(), &db);
        exec(db, "CREATE TABLE t(a INTEGER); INSERT INTO t VALUES (1);");
        sqlite3_close(db);
        const LoadResult r = loadTrace(path);
        QVERIFY(!r.ok());
        QCOMPARE(r.format, std::string("nsys-sqlite"));
        QVERIFY2(r.error->toString().find("not an Nsight Systems export") != std::string::npos,
                 r.error->toString().c_str());
    }

    void truncatedFileSaysWhy() {
        const std::string full = makeExport(dir_, QStringLiteral("full.sqlite"), false);
        const std::string bytes = strata::test::readAll(full);
        const std::string cut = dir_.filePath(QStringLiteral("cut.sqlite")).toStdString();
        strata::test::writeAll(cut, bytes.substr(0, 1024 + 512));
        const LoadResult r = loadTrace(cut);
        // Either refused with SQLite's reason, or read with what could be read and a warning:
        // never a crash, never silence.
        if (r.ok())
            QVERIFY(!r.trace->warnings().empty());
        else
            QVERIFY(r.error->toString().find(cut) != std::string::npos);
    }

    // With an `nsys` on PATH (here a stand-in script that copies an export where --output says),
    // a report opens through the export it makes in the cache's folder, and says so; a second
    // open reuses it.
    void reportThroughNsysOnPath() {
        const std::string exported = makeExport(dir_, QStringLiteral("made.sqlite"), false);
        const QString bin = dir_.filePath(QStringLiteral("bin"));
        QDir().mkpath(bin);
        const std::string script = (bin + QStringLiteral("/nsys")).toStdString();
        strata::test::writeAll(script, "#!/bin/sh\nout=; prev=\nfor a in \"$@\"; do [ \"$prev\" = "
                                       "--output ] && out=\"$a\"; prev=\"$a\"; done\n"
                                       "echo run >> \"$out.count\"; cp \"" +
                                           exported + "\" \"$out\"\n");
        QFile::setPermissions(QString::fromStdString(script),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QByteArray oldPath = qgetenv("PATH"), oldCache = qgetenv("XDG_CACHE_HOME");
        qputenv("PATH", bin.toUtf8() + ":" + oldPath);
        qputenv("XDG_CACHE_HOME", dir_.filePath(QStringLiteral("cache")).toUtf8());
        const std::string report = dir_.filePath(QStringLiteral("run.nsys-rep")).toStdString();
        strata::test::writeAll(report, std::string("a report"));
        const LoadResult first = loadTrace(report);
        const LoadResult again = loadTrace(report);
        qputenv("PATH", oldPath);
        oldCache.isNull() ? qunsetenv("XDG_CACHE_HOME") : qputenv("XDG_CACHE_HOME", oldCache);
        QVERIFY2(first.ok(), first.error ? first.error->toString().c_str() : "");
        QCOMPARE(first.trace->sliceCount(), size_t(9));
        QVERIFY(
            ::hasWarning(*first.trace, "read through its SQLite export, made by `nsys export`"));
        QVERIFY(again.ok());
        // The stand-in ran once: the second open found the export made by the first.
        int runs = 0;
        for (const QFileInfo& f : QDir(dir_.filePath(QStringLiteral("cache/strata")))
                                      .entryInfoList({QStringLiteral("*.count")}))
            runs += int(strata::test::readAll(f.filePath().toStdString()).size() / 4);
        QCOMPARE(runs, 1);
    }

    void reportNamesTheExportCommand() {
        const std::string path = dir_.filePath(QStringLiteral("run.nsys-rep")).toStdString();
        strata::test::writeAll(path, std::string("not sqlite at all"));
        const LoadResult r = loadTrace(path);
        QVERIFY(!r.ok());
        QVERIFY2(r.error->toString().find("nsys export --type sqlite") != std::string::npos,
                 r.error->toString().c_str());
    }
};

STRATA_TEST_GUILESS_MAIN(TestNsysSqlite)
#include "tst_nsys_sqlite.moc"
