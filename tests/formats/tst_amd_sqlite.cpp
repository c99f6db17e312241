// AMD's SQLite profiles (io/formats/amd: rocpd_file, rpd_file, rocprof_results): hand-made files
// written here with SQLite's own API in each tool's shape, every expected value written out
// below. The real files of ../shared/formats are checked against independent scripts
// (tests/data/formats/expected_amd.py, check_rocprof_csv.py).
//
// In all three (ns): thread 7/7; a launch [100, 150) and a second launch [300, 320), a copy call
// [200, 230); kernel 1 [160, 260) and kernel 2 [330, 400) on two queues of one GPU, a
// host-to-device copy [240, 250) of 4096 bytes on another GPU; each linked to its call.
//
// rocpd (rocprofv3, schema 3): session tables `<name>_s1` read through the views `<name>`.
//   agents     1 CPU; 2 GPU type_index 0 "AMD Instinct MI300X"; 3 GPU type_index 1, no product
//              name (named "gfx90a"); thread 7/7 "main"
//   regions    hipLaunchKernel, hipModuleLaunchKernel, hipMemcpyAsync (HIP_RUNTIME_API_EXT:
//              cuda_runtime, stack ids 101, 102, 103); roctx "step" [90, 450)
//              (MARKER_CORE_RANGE_API: user_annotation); hsa_queue_create [50, 60) (HSA_CORE_API: a
//              Generic slice in that category); a region [500, 490) (skipped)
//   dispatches gemm_kernel (display name) agent 2 stream 1, 1024x1x1 items in 256x1x1 groups:
//              grid 4x1x1 block 256x1x1, stack 101; add_kernel.kd (no display name) agent 2
//              stream 2, 100x4x1 items in 64x2x1 groups: grid 2x2x1, stack 102; one with a NULL
//              end (skipped)
//   copy       agent 1 (CPU) -> agent 3 (GPU, device 1), stream 1, 4096 bytes, stack 103:
//              "Memcpy HtoD (Unknown -> Unknown)" on (device 1, stream 1)
//   not shown  one rocpd_memory_allocate row
//   => devices 0 "AMD Instinct MI300X" and 1 "gfx90a"; 5 + 2 + 1 = 8 slices
// rpd (rocmProfileData):
//   rocpd_api  hipLaunchKernel (id 1), hipModuleLaunchKernel (2), hipMemcpyAsync (3) on 7/7;
//              UserMarker with args "step" [90, 450) (a user_annotation named "step"); a call with
//              a NULL end (skipped)
//   rocpd_op   gemm_kernel gpu 0 queue 0 (call 1: 1024/256 -> grid 4, block 256); add_kernel gpu 0
//              queue 1 (call 2: grid 2x2x1, block 64x2x1); CopyHostToDevice gpu 1 queue 0 (call
//              3, rocpd_copyapi size 4096); a "BarrierAnd" op (not shown, named); a kernel
//              [430, 425) (skipped)
//   monitor    GPU 0 "temp" 45.5 at 100: a counter "GPU 0 temp"
//   => 4 + 2 + 1 = 7 slices
// rocprof (v1) results.db:
//   HIP        the three calls with Index 1, 2, 3 (hipMemcpyAsync's args "... sizeBytes(4096)
//   ...");
//              hipDeviceSynchronize with a NULL EndNs (skipped)
//   OPS        "gemm_kernel(float*, int)" dev-id 2 stream-id 0 Index 1; add_kernel dev-id 2
//              stream-id 1 Index 2
//   COPY       CopyHostToDevice dev-id 3 stream-id 0 Index 3: 4096 bytes from its call's args
//   HSA        one row: named as not shown
//   => 3 + 2 + 1 = 6 slices
// A copy of each file cut at 1.5 KB and at half its size is refused naming the file, or loaded
// with a warning: never a crash, never silence. With its kernels' table's root page zeroed (the
// file otherwise whole), each loads without the kernels (and rpd's copy, an op too), with the
// calls and the other copies, and a warning naming the table and SQLite's "database disk image
// is malformed".
#include "io/trace_loader.h"
#include "support/strata_format_fixture.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>

using namespace strata;

namespace {

SliceRef find(const Trace& t, std::string_view name) {
    return ::findSlice(t, name).ref;
}

bool exec(sqlite3* db, const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) == SQLITE_OK) return true;
    qWarning("sqlite: %s in %s", err ? err : "?", sql.c_str());
    sqlite3_free(err);
    return false;
}

std::string writeDb(const QTemporaryDir& dir, const char* name, const std::string& sql) {
    const std::string path = dir.filePath(QString::fromLatin1(name)).toStdString();
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    const bool ok = exec(db, sql);
    sqlite3_close(db);
    return ok ? path : std::string();
}

const char* const kRocpdViews[] = {
    "metadata", "string", "info_agent",      "info_thread", "info_kernel_symbol",
    "event",    "region", "kernel_dispatch", "memory_copy", "memory_allocate"};

std::string rocpdSql() {
    std::string sql =
        "CREATE TABLE rocpd_metadata_s1(id INTEGER PRIMARY KEY, tag TEXT, value TEXT);"
        "INSERT INTO rocpd_metadata_s1 VALUES (1, 'schema_version', '3'), (2, 'uuid', '_s1');"
        "CREATE TABLE rocpd_string_s1(id INTEGER PRIMARY KEY, guid TEXT, string TEXT);"
        "INSERT INTO rocpd_string_s1 VALUES (1, 'g', 'hipLaunchKernel'),"
        " (2, 'g', 'hipModuleLaunchKernel'), (3, 'g', 'hipMemcpyAsync'), (4, 'g', 'step'),"
        " (5, 'g', 'hsa_queue_create'), (6, 'g', 'HIP_RUNTIME_API_EXT'),"
        " (7, 'g', 'MARKER_CORE_RANGE_API'), (8, 'g', 'HSA_CORE_API'),"
        " (9, 'g', 'KERNEL_DISPATCH'), (10, 'g', 'MEMORY_COPY');"
        "CREATE TABLE rocpd_info_agent_s1(id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER,"
        " pid INTEGER, type TEXT, absolute_index INTEGER, logical_index INTEGER,"
        " type_index INTEGER, uuid INTEGER, name TEXT, model_name TEXT, vendor_name TEXT,"
        " product_name TEXT, user_name TEXT, extdata TEXT);"
        "INSERT INTO rocpd_info_agent_s1 VALUES"
        " (1, 'g', 1, 7, 'CPU', 0, 0, 0, 0, 'Xeon', '', 'Intel', 'Xeon', '', '{}'),"
        " (2, 'g', 1, 7, 'GPU', 1, 1, 0, 0, 'gfx942', '', 'AMD', 'AMD Instinct MI300X', '', '{}'),"
        " (3, 'g', 1, 7, 'GPU', 2, 2, 1, 0, 'gfx90a', '', 'AMD', '', '', '{}');"
        "CREATE TABLE rocpd_info_thread_s1(id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER,"
        " ppid INTEGER, pid INTEGER, tid INTEGER, name TEXT, start INTEGER, \"end\" INTEGER,"
        " extdata TEXT);"
        "INSERT INTO rocpd_info_thread_s1 VALUES (7, 'g', 1, 1, 7, 7, 'main', 0, 1000, '{}');"
        "CREATE TABLE rocpd_info_kernel_symbol_s1(id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER,"
        " pid INTEGER, code_object_id INTEGER, kernel_name TEXT, display_name TEXT);"
        "INSERT INTO rocpd_info_kernel_symbol_s1 VALUES"
        " (1, 'g', 1, 7, 1, 'gemm_kernel.kd', 'gemm_kernel'), (2, 'g', 1, 7, 1, 'add_kernel.kd',"
        " NULL);"
        "CREATE TABLE rocpd_event_s1(id INTEGER PRIMARY KEY, guid TEXT, category_id INTEGER,"
        " stack_id INTEGER, parent_stack_id INTEGER, correlation_id INTEGER, call_stack TEXT,"
        " line_info TEXT, extdata TEXT);"
        "INSERT INTO rocpd_event_s1 VALUES (1, 'g', 6, 101, 0, 0, '{}', '{}', '{}'),"
        " (2, 'g', 6, 102, 0, 0, '{}', '{}', '{}'), (3, 'g', 6, 103, 0, 0, '{}', '{}', '{}'),"
        " (4, 'g', 7, 104, 0, 0, '{}', '{}', '{}'), (5, 'g', 8, 105, 0, 0, '{}', '{}', '{}'),"
        " (11, 'g', 9, 101, 0, 0, '{}', '{}', '{}'), (12, 'g', 9, 102, 0, 0, '{}', '{}', '{}'),"
        " (13, 'g', 10, 103, 0, 0, '{}', '{}', '{}'), (14, 'g', 9, 106, 0, 0, '{}', '{}', '{}');"
        "CREATE TABLE rocpd_region_s1(id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER, pid INTEGER,"
        " tid INTEGER, start INTEGER, \"end\" INTEGER, name_id INTEGER, event_id INTEGER,"
        " extdata TEXT);"
        "INSERT INTO rocpd_region_s1 VALUES (1, 'g', 1, 7, 7, 100, 150, 1, 1, '{}'),"
        " (2, 'g', 1, 7, 7, 300, 320, 2, 2, '{}'), (3, 'g', 1, 7, 7, 200, 230, 3, 3, '{}'),"
        " (4, 'g', 1, 7, 7, 90, 450, 4, 4, '{}'), (5, 'g', 1, 7, 7, 50, 60, 5, 5, '{}'),"
        " (6, 'g', 1, 7, 7, 500, 490, 1, 1, '{}');"
        "CREATE TABLE rocpd_kernel_dispatch_s1(id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER,"
        " pid INTEGER, tid INTEGER, agent_id INTEGER, kernel_id INTEGER, dispatch_id INTEGER,"
        " queue_id INTEGER, stream_id INTEGER, start INTEGER, \"end\" INTEGER,"
        " private_segment_size INTEGER, group_segment_size INTEGER, workgroup_size_x INTEGER,"
        " workgroup_size_y INTEGER, workgroup_size_z INTEGER, grid_size_x INTEGER,"
        " grid_size_y INTEGER, grid_size_z INTEGER, region_name_id INTEGER, event_id INTEGER,"
        " extdata TEXT);"
        "INSERT INTO rocpd_kernel_dispatch_s1 VALUES"
        " (1, 'g', 1, 7, 7, 2, 1, 1, 1, 1, 160, 260, 0, 0, 256, 1, 1, 1024, 1, 1, 1, 11, '{}'),"
        " (2, 'g', 1, 7, 7, 2, 2, 2, 2, 2, 330, 400, 0, 0, 64, 2, 1, 100, 4, 1, 2, 12, '{}'),"
        " (3, 'g', 1, 7, 7, 2, 1, 3, 1, 1, 600, NULL, 0, 0, 256, 1, 1, 256, 1, 1, 1, 14, '{}');"
        "CREATE TABLE rocpd_memory_copy_s1(id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER,"
        " pid INTEGER, tid INTEGER, start INTEGER, \"end\" INTEGER, name_id INTEGER,"
        " dst_agent_id INTEGER, dst_address INTEGER, src_agent_id INTEGER, src_address INTEGER,"
        " size INTEGER, queue_id INTEGER, stream_id INTEGER, region_name_id INTEGER,"
        " event_id INTEGER, extdata TEXT);"
        "INSERT INTO rocpd_memory_copy_s1 VALUES"
        " (1, 'g', 1, 7, 7, 240, 250, 3, 3, 0, 1, 0, 4096, 3, 1, 3, 13, '{}');"
        "CREATE TABLE rocpd_memory_allocate_s1(id INTEGER PRIMARY KEY, guid TEXT, nid INTEGER,"
        " pid INTEGER, tid INTEGER, agent_id INTEGER, type TEXT, level TEXT, start INTEGER,"
        " \"end\" INTEGER, address INTEGER, size INTEGER, queue_id INTEGER, stream_id INTEGER,"
        " event_id INTEGER, extdata TEXT);"
        "INSERT INTO rocpd_memory_allocate_s1 VALUES"
        " (1, 'g', 1, 7, 7, 2, 'ALLOC', 'REAL', 20, 30, 0, 1048576, 0, 0, NULL, '{}');";
    for (const char* v : kRocpdViews)
        sql += std::string("CREATE VIEW rocpd_") + v + " AS SELECT * FROM rocpd_" + v + "_s1;";
    return sql;
}

const char* const kRpdSql =
    "CREATE TABLE rocpd_string(id INTEGER PRIMARY KEY, string TEXT NOT NULL);"
    "INSERT INTO rocpd_string VALUES (1, 'hipLaunchKernel'), (2, 'hipModuleLaunchKernel'),"
    " (3, 'hipMemcpyAsync'), (4, 'UserMarker'), (5, 'step'), (6, ''), (7, 'KernelExecution'),"
    " (8, 'CopyHostToDevice'), (9, 'BarrierAnd'), (10, 'gemm_kernel'), (11, 'add_kernel');"
    "CREATE TABLE rocpd_api(id INTEGER PRIMARY KEY, pid INTEGER, tid INTEGER, start INTEGER,"
    " \"end\" INTEGER, apiName_id INTEGER, args_id INTEGER);"
    "INSERT INTO rocpd_api VALUES (1, 7, 7, 100, 150, 1, 6), (2, 7, 7, 300, 320, 2, 6),"
    " (3, 7, 7, 200, 230, 3, 6), (4, 7, 7, 90, 450, 4, 5), (5, 7, 7, 500, NULL, 1, 6);"
    "CREATE TABLE rocpd_op(id INTEGER PRIMARY KEY, gpuId INTEGER, queueId INTEGER,"
    " sequenceId INTEGER, completionSignal TEXT, start INTEGER, \"end\" INTEGER,"
    " description_id INTEGER, opType_id INTEGER);"
    "INSERT INTO rocpd_op VALUES (1, 0, 0, 0, '', 160, 260, 10, 7),"
    " (2, 0, 1, 0, '', 330, 400, 11, 7), (3, 1, 0, 0, '', 240, 250, 6, 8),"
    " (4, 0, 0, 0, '', 410, 420, 6, 9), (5, 0, 0, 0, '', 430, 425, 10, 7);"
    "CREATE TABLE rocpd_api_ops(id INTEGER PRIMARY KEY, api_id INTEGER, op_id INTEGER);"
    "INSERT INTO rocpd_api_ops VALUES (1, 1, 1), (2, 2, 2), (3, 3, 3);"
    "CREATE TABLE rocpd_kernelapi(api_ptr_id INTEGER PRIMARY KEY, stream TEXT, gridX INTEGER,"
    " gridY INTEGER, gridZ INTEGER, workgroupX INTEGER, workgroupY INTEGER, workgroupZ INTEGER,"
    " groupSegmentSize INTEGER, privateSegmentSize INTEGER, kernelName_id INTEGER);"
    "INSERT INTO rocpd_kernelapi VALUES (1, '0x0', 1024, 1, 1, 256, 1, 1, 0, 0, 10),"
    " (2, '0x1', 100, 4, 1, 64, 2, 1, 0, 0, 11);"
    "CREATE TABLE rocpd_copyapi(api_ptr_id INTEGER PRIMARY KEY, stream TEXT, size INTEGER,"
    " width INTEGER, height INTEGER, kind INTEGER, dst TEXT, src TEXT, dstDevice INTEGER,"
    " srcDevice INTEGER, sync INTEGER, pinned INTEGER);"
    "INSERT INTO rocpd_copyapi VALUES (3, '0x0', 4096, 0, 0, 1, '0x10', '0x20', 1, 0, 0, 0);"
    "CREATE TABLE rocpd_monitor(id INTEGER PRIMARY KEY, deviceType TEXT, deviceId INTEGER,"
    " monitorType TEXT, start INTEGER, \"end\" INTEGER, value TEXT);"
    "INSERT INTO rocpd_monitor VALUES (1, 'gpu', 0, 'temp', 100, 200, '45.5');";

// rocprof's columns: its API tables (HIP, HSA) and its GPU tables (OPS, COPY).
const char* const kRocprofCalls =
    "(\"BeginNs\" INTEGER, \"EndNs\" INTEGER, \"pid\" INTEGER, \"tid\" INTEGER, \"Name\" TEXT, "
    "\"args\" TEXT, \"Index\" INTEGER, \"Data\" TEXT, \"__section\" INTEGER, \"__lane\" INTEGER, "
    "\"DurationNs\" INTEGER);";
const char* const kRocprofOps =
    "(\"BeginNs\" INTEGER, \"EndNs\" INTEGER, \"dev-id\" INTEGER, \"queue-id\" INTEGER, "
    "\"Name\" TEXT, \"pid\" INTEGER, \"tid\" INTEGER, \"roctx-range\" TEXT, \"stream-id\" "
    "INTEGER, \"Index\" INTEGER, \"Data\" TEXT, \"__section\" INTEGER, \"__lane\" INTEGER, "
    "\"DurationNs\" INTEGER);";

std::string rocprofSql() {
    std::string sql;
    for (const char* part :
         {"CREATE TABLE HIP ", kRocprofCalls,
          "INSERT INTO HIP VALUES (100, 150, 7, 7, 'hipLaunchKernel',"
          " '( function_address(0x1) numBlocks(4) dimBlocks(256) )', 1, '', 2, 7, 50),"
          " (300, 320, 7, 7, 'hipModuleLaunchKernel', '( f(0x2) )', 2, '', 2, 7, 20),"
          " (200, 230, 7, 7, 'hipMemcpyAsync',"
          " '( dst(0x10) src(0x20) sizeBytes(4096) kind(1) stream(0x0))', 3, '', 2, 7, 30),"
          " (500, NULL, 7, 7, 'hipDeviceSynchronize', '', 4, '', 2, 7, NULL);",
          "CREATE TABLE OPS ", kRocprofOps,
          "INSERT INTO OPS VALUES (160, 260, 2, 0, 'gemm_kernel(float*, int)', 7, 7, '', 0, 1,"
          " '', 8, 0, 100), (330, 400, 2, 1, 'add_kernel', 7, 7, '', 1, 2, '', 8, 1, 70);",
          "CREATE TABLE COPY ", kRocprofOps,
          "INSERT INTO COPY VALUES (240, 250, 3, 0, 'CopyHostToDevice', 7, 7, '', 0, 3, '', 1,"
          " 0, 10);",
          "CREATE TABLE HSA ", kRocprofCalls,
          "INSERT INTO HSA VALUES (50, 60, 7, 7, 'hsa_queue_create', '', 5, '', 3, 7, 10);"})
        sql += part;
    return sql;
}

// One GPU slice's lane and launch as the header says.
void checkGpu(const Trace& t, const char* name, SliceKind kind, TimeNs start, TimeNs dur,
              int device, int64_t stream, const char* launch) {
    const SliceRef s = find(t, name);
    QVERIFY2(s.valid(), name);
    QCOMPARE(t.kind(s), kind);
    QCOMPARE(t.start(s), start);
    QCOMPARE(t.duration(s), dur);
    QCOMPARE(t.track(s.track).kind, TrackKind::GpuStream);
    const GpuActivity* g = t.gpu(s);
    QVERIFY(g);
    QCOMPARE(g->device, device);
    QCOMPARE(g->stream, stream);
    QCOMPARE(t.launchOf(s), find(t, launch));
    QVERIFY(find(t, launch).valid());
}

void checkGrid(const Trace& t, const char* name, std::array<int32_t, 3> grid,
               std::array<int32_t, 3> block) {
    const GpuActivity* g = t.gpu(find(t, name));
    QVERIFY(g);
    QCOMPARE(g->grid, grid);
    QCOMPARE(g->block, block);
}

void checkCall(const Trace& t, const char* name, SliceKind kind, const char* category, TimeNs start,
               TimeNs dur) {
    const SliceRef s = find(t, name);
    QVERIFY2(s.valid(), name);
    QCOMPARE(t.kind(s), kind);
    QCOMPARE(t.str(t.track(s.track).slices.category[s.index]), std::string_view(category));
    QCOMPARE(t.start(s), start);
    QCOMPARE(t.duration(s), dur);
    QCOMPARE(t.track(s.track).kind, TrackKind::Thread);
    QCOMPARE(t.track(s.track).pid, int64_t(7));
    QCOMPARE(t.track(s.track).tid, int64_t(7));
}

// The copy all three files hold: host to device, 4096 bytes, from its call.
void checkCopy(const Trace& t, int device, int64_t stream) {
    const char* name = "Memcpy HtoD (Unknown -> Unknown)";
    checkGpu(t, name, SliceKind::Memcpy, 240, 10, device, stream, "hipMemcpyAsync");
    QCOMPARE(t.gpu(find(t, name))->copyKind, uint8_t(1));
    QCOMPARE(t.gpu(find(t, name))->bytes, int64_t(4096));
}

// Zeroes the root page of `table` in the file at `path` (its size kept): SQLite then finds that
// table's b-tree malformed when a statement reaches it.
bool zeroRootPage(const std::string& path, const char* table) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* st = nullptr;
    int64_t page = 0, size = 0;
    sqlite3_prepare_v2(db,
                       "SELECT rootpage, (SELECT page_size FROM pragma_page_size) FROM "
                       "sqlite_master WHERE name = ?",
                       -1, &st, nullptr);
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        page = sqlite3_column_int64(st, 0);
        size = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    std::string bytes = strata::test::readAll(path);
    if (page < 2 || size <= 0 || size_t(page * size) > bytes.size()) return false;
    bytes.replace(size_t((page - 1) * size), size_t(size), size_t(size), '\0');
    strata::test::writeAll(path, bytes);
    return true;
}

LoadResult loadChecked(const std::string& path, const char* format) {
    LoadResult r = loadTrace(path);
    if (!r.ok()) qWarning("%s", r.error ? r.error->toString().c_str() : "?");
    if (r.format != format) qWarning("read as %s, not %s", r.format.c_str(), format);
    return r;
}

} // namespace

class TestAmdSqlite : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void rocpdThroughItsViews() {
        // No extension: recognised by its views.
        const std::string path = writeDb(dir_, "rocpd-run", rocpdSql());
        QVERIFY(!path.empty());
        const LoadResult r = loadChecked(path, "rocpd");
        QVERIFY(r.ok());
        QCOMPARE(r.format, std::string("rocpd"));
        const Trace& t = *r.trace;
        checkCall(t, "hipLaunchKernel", SliceKind::CudaRuntime, "cuda_runtime", 100, 50);
        checkCall(t, "hipModuleLaunchKernel", SliceKind::CudaRuntime, "cuda_runtime", 300, 20);
        checkCall(t, "hipMemcpyAsync", SliceKind::CudaRuntime, "cuda_runtime", 200, 30);
        checkCall(t, "step", SliceKind::UserAnnotation, "user_annotation", 90, 360);
        checkCall(t, "hsa_queue_create", SliceKind::Generic, "HSA_CORE_API", 50, 10);
        checkGpu(t, "gemm_kernel", SliceKind::Kernel, 160, 100, 0, 1, "hipLaunchKernel");
        checkGpu(t, "add_kernel.kd", SliceKind::Kernel, 330, 70, 0, 2, "hipModuleLaunchKernel");
        checkGrid(t, "gemm_kernel", {4, 1, 1}, {256, 1, 1});
        checkGrid(t, "add_kernel.kd", {2, 2, 1}, {64, 2, 1});
        checkCopy(t, 1, 1);
        QCOMPARE(t.devices().size(), size_t(2));
        QCOMPARE(t.devices()[0].id, 0);
        QCOMPARE(t.devices()[0].name, std::string("AMD Instinct MI300X"));
        QCOMPARE(t.devices()[1].id, 1);
        QCOMPARE(t.devices()[1].name, std::string("gfx90a"));
        QCOMPARE(t.thread(7, 7) ? t.str(t.thread(7, 7)->name) : "", "main");
        QCOMPARE(t.sliceCount(), size_t(8));
        QVERIFY2(::hasWarning(t, "rocpd: 1 rows skipped (a region with no start or end, or an "
                                 "end before the start)"),
                 ::allWarnings(t).c_str());
        QVERIFY(::hasWarning(t, "rocpd: 1 rows skipped (a kernel dispatch with no start or end"));
        QVERIFY(::hasWarning(t, "rocpd: not shown by Strata: rocpd_memory_allocate"));
        QCOMPARE(t.warnings().size(), size_t(3));
    }

    void rpdOpsAndCalls() {
        const std::string path = writeDb(dir_, "trace-rpd", kRpdSql);
        QVERIFY(!path.empty());
        const LoadResult r = loadChecked(path, "rpd");
        QVERIFY(r.ok());
        QCOMPARE(r.format, std::string("rpd"));
        const Trace& t = *r.trace;
        checkCall(t, "hipLaunchKernel", SliceKind::CudaRuntime, "cuda_runtime", 100, 50);
        checkCall(t, "hipModuleLaunchKernel", SliceKind::CudaRuntime, "cuda_runtime", 300, 20);
        checkCall(t, "hipMemcpyAsync", SliceKind::CudaRuntime, "cuda_runtime", 200, 30);
        checkCall(t, "step", SliceKind::UserAnnotation, "user_annotation", 90, 360);
        checkGpu(t, "gemm_kernel", SliceKind::Kernel, 160, 100, 0, 0, "hipLaunchKernel");
        checkGpu(t, "add_kernel", SliceKind::Kernel, 330, 70, 0, 1, "hipModuleLaunchKernel");
        checkGrid(t, "gemm_kernel", {4, 1, 1}, {256, 1, 1});
        checkGrid(t, "add_kernel", {2, 2, 1}, {64, 2, 1});
        checkCopy(t, 1, 0);
        QCOMPARE(t.sliceCount(), size_t(7));
        std::vector<std::pair<std::string, double>> counters;
        for (const Track& k : t.tracks())
            if (k.kind == TrackKind::Counter)
                for (size_t i = 0; i < k.counter.size(); ++i)
                    counters.emplace_back(std::string(t.str(k.name)) + "@" +
                                              std::to_string(k.counter.ts[i]),
                                          k.counter.value[i]);
        QCOMPARE(counters, (std::vector<std::pair<std::string, double>>{{"GPU 0 temp@100", 45.5}}));
        QVERIFY2(::hasWarning(t, "rpd: 1 rows skipped (a call with no start or end, or an end "
                                 "before the start)"),
                 ::allWarnings(t).c_str());
        QVERIFY(::hasWarning(t, "rpd: 1 rows skipped (an op with no start or end, or an end "
                                "before the start)"));
        QVERIFY(::hasWarning(t, "rpd: 1 GPU ops of type \"BarrierAnd\" not shown"));
        QCOMPARE(t.warnings().size(), size_t(3));
    }

    void rocprofResults() {
        const std::string path = writeDb(dir_, "results.db", rocprofSql());
        QVERIFY(!path.empty());
        const LoadResult r = loadChecked(path, "rocprof");
        QVERIFY(r.ok());
        QCOMPARE(r.format, std::string("rocprof"));
        const Trace& t = *r.trace;
        checkCall(t, "hipLaunchKernel", SliceKind::CudaRuntime, "cuda_runtime", 100, 50);
        checkCall(t, "hipModuleLaunchKernel", SliceKind::CudaRuntime, "cuda_runtime", 300, 20);
        checkCall(t, "hipMemcpyAsync", SliceKind::CudaRuntime, "cuda_runtime", 200, 30);
        checkGpu(t, "gemm_kernel(float*, int)", SliceKind::Kernel, 160, 100, 2, 0,
                 "hipLaunchKernel");
        checkGpu(t, "add_kernel", SliceKind::Kernel, 330, 70, 2, 1, "hipModuleLaunchKernel");
        checkCopy(t, 3, 0);
        QCOMPARE(t.sliceCount(), size_t(6));
        QVERIFY2(::hasWarning(t, "rocprof: 1 rows skipped (no BeginNs or EndNs, or an end before "
                                 "the start)"),
                 ::allWarnings(t).c_str());
        QVERIFY(::hasWarning(t, "rocprof: not shown by Strata: HSA"));
        QCOMPARE(t.warnings().size(), size_t(2));
    }

    // The kernels' table damaged inside an intact file: the rest read, the table named.
    void damagedKernelTableSaysWhere_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("table");
        QTest::addColumn<QString>("kernel");
        QTest::addColumn<QString>("warning");
        QTest::addColumn<bool>("copyKept"); // rpd's copies are rows of rocpd_op too
        QTest::newRow("rocpd") << 0 << "rocpd_kernel_dispatch_s1"
                               << "gemm_kernel"
                               << "rocpd: rocpd_kernel_dispatch read up to an error" << true;
        QTest::newRow("rpd") << 1 << "rocpd_op"
                             << "gemm_kernel"
                             << "rpd: rocpd_op read up to an error" << false;
        QTest::newRow("rocprof") << 2 << "OPS"
                                 << "gemm_kernel(float*, int)"
                                 << "rocprof: OPS read up to an error" << true;
    }
    void damagedKernelTableSaysWhere() {
        QFETCH(int, kind);
        QFETCH(QString, table);
        QFETCH(QString, kernel);
        QFETCH(QString, warning);
        QFETCH(bool, copyKept);
        const std::string sql[] = {rocpdSql(), kRpdSql, rocprofSql()};
        const std::string path = writeDb(dir_, "damaged.db", sql[kind]);
        QVERIFY(!path.empty());
        QVERIFY(zeroRootPage(path, table.toLatin1().constData()));
        const LoadResult r = loadTrace(path);
        QFile::remove(QString::fromStdString(path));
        QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
        QVERIFY(!find(*r.trace, kernel.toStdString()).valid());
        QVERIFY(find(*r.trace, "hipLaunchKernel").valid());
        QCOMPARE(find(*r.trace, "Memcpy HtoD (Unknown -> Unknown)").valid(), copyKept);
        QVERIFY2(
            ::hasWarning(*r.trace, warning.toStdString() + ": database disk image is malformed"),
            ::allWarnings(*r.trace).c_str());
    }

    void truncatedFilesSayWhy_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("half");
        const char* kinds[] = {"rocpd", "rpd", "rocprof"};
        for (int k = 0; k < 3; ++k) {
            QTest::newRow((std::string(kinds[k]) + " at 1.5 KB").c_str()) << k << false;
            QTest::newRow((std::string(kinds[k]) + " at half").c_str()) << k << true;
        }
    }
    void truncatedFilesSayWhy() {
        QFETCH(int, kind);
        QFETCH(bool, half);
        const std::string sql[] = {rocpdSql(), kRpdSql, rocprofSql()};
        const std::string full = writeDb(dir_, "full.db", sql[kind]);
        QVERIFY(!full.empty());
        const std::string bytes = strata::test::readAll(full);
        const std::string cut =
            dir_.filePath(QStringLiteral("cut-%1-%2.db").arg(kind).arg(half)).toStdString();
        strata::test::writeAll(cut, bytes.substr(0, half ? bytes.size() / 2 : 1536));
        QFile::remove(QString::fromStdString(full));
        const LoadResult r = loadTrace(cut);
        // Refused with the file named, or read with what could be read and a warning.
        qInfo("%s", r.ok() ? ("read, " + ::allWarnings(*r.trace)).c_str()
                           : ("refused: " + r.error->toString()).c_str());
        if (r.ok())
            QVERIFY2(!r.trace->warnings().empty(), r.format.c_str());
        else
            QVERIFY2(r.error->toString().find(cut) != std::string::npos,
                     r.error->toString().c_str());
    }
};

STRATA_TEST_GUILESS_MAIN(TestAmdSqlite)
#include "tst_amd_sqlite.moc"
