// Find by argument (issue 48): the filter's syntax (core/analysis/arg_filter.h), its match over a
// small hand-built trace (every expectation worked out by hand from makeTrace below), the find's
// fallback to names, and counts on real traces against tests/data/analysis/arg_filter_counts.py.
#include "analysis/arg_filter.h"
#include "analysis/arg_filter_match.h"
#include "analysis/arg_filter_value.h"
#include "analysis/slice_search.h"
#include "io/trace_loader.h"
#include "model/build/trace_builder.h"
#include "support/process_run.h"
#include "support/test_main.h"

#include <QStandardPaths>
#include <QtTest>

using namespace strata;

namespace {

using Dim3 = std::array<int32_t, 3>;

// CPU thread (1, 1):
//   aten::mm            @0    100 ns  External id 12  Input Dims [[8, 1024], [1024, 1024]], Ev Idx
//   3 cudaLaunchKernel    @110   10 ns  correlation 471260, External id 12, cbid 211 aten::addmm
//   @200   50 ns  External id 13  Input Dims [[8,1024],[1024]] (no spaces) cudaLaunchKernel    @260
//   8 ns  correlation 471261, External id 13 vector<float> fill  @400 2000 ns  note "Hello World",
//   count "42" annotation          @1000  50 ns  user_annotation; args grid [4, 4, 4], device 3
//   instants [memory] @50 (Bytes 4096, Device Id 0), @60 (Bytes -4096, Device Id 0)
// GPU 0 stream 7:
//   gemm_kernel         @120 30 µs  corr 471260, ext 12, grid 16x8x1, block 256, 64 regs,
//                                   shared 1024 static + 2048 dynamic; arg grid [16, 8, 1]
//   gemm_kernel         @300  5 µs  corr 471261, grid 2048x1x1, block 128, 32 regs, shared 0
//   elementwise_kernel  @600  1 µs  corr 471262, grid 1024x1x1, block 512, 16 regs
//   Memcpy HtoD (Pageable -> Device)  @700 2 µs  4 MiB, HtoD
//   Memcpy DtoH (Device -> Pageable)  @900 100 ns  1 KiB, DtoH
std::shared_ptr<const Trace> makeTrace() {
    TraceBuilder b;
    const TrackId cpu = b.threadTrack(1, 1);
    const TrackId gpu = b.gpuStreamTrack(0, 7, 0, 7);
    auto cpuSlice = [&](const char* name, const char* cat, TimeNs s, TimeNs d, int64_t corr,
                        int64_t ext, ArgSetId args) {
        SliceInput in;
        in.start = s;
        in.dur = d;
        in.name = b.intern(name);
        in.category = b.intern(cat);
        in.kind = corr >= 0 ? SliceKind::CudaRuntime : SliceKind::CpuOp;
        in.correlation = corr;
        in.externalId = ext;
        in.args = args;
        b.addSlice(cpu, in);
    };
    ArgStore& a = b.args();
    auto key = [&](const char* k) { return b.intern(k); };
    a.begin();
    a.addJson(key("Input Dims"), "[\n [8,\n  1024], [1024, 1024]]");
    a.addInt(key("Ev Idx"), 3);
    cpuSlice("aten::mm", "cpu_op", 0, 100, -1, 12, a.finish());
    a.begin();
    a.addInt(key("cbid"), 211);
    cpuSlice("cudaLaunchKernel", "cuda_runtime", 110, 10, 471260, 12, a.finish());
    a.begin();
    a.addJson(key("Input Dims"), "[[8,1024],[1024]]");
    cpuSlice("aten::addmm", "cpu_op", 200, 50, -1, 13, a.finish());
    cpuSlice("cudaLaunchKernel", "cuda_runtime", 260, 8, 471261, 13, kNoArgs);
    a.begin();
    a.addString(key("note"), "Hello World");
    a.addString(key("count"), "42");
    cpuSlice("vector<float> fill", "cpu_op", 400, 2000, -1, -1, a.finish());
    a.begin();
    a.addJson(key("grid"), "[4, 4, 4]");
    a.addInt(key("device"), 3);
    cpuSlice("annotation", "user_annotation", 1000, 50, -1, -1, a.finish());
    for (int64_t bytes : {4096, -4096}) {
        a.begin();
        a.addInt(key("Bytes"), bytes);
        a.addInt(key("Device Id"), 0);
        b.addInstant(cpu, bytes > 0 ? 50 : 60, b.intern("[memory]"), b.intern("cpu_instant_event"),
                     a.finish());
    }
    auto gpuOp = [&](const char* name, SliceKind kind, TimeNs s, TimeNs d, int64_t corr,
                     GpuActivity g, int64_t ext = -1, ArgSetId args = kNoArgs) {
        g.device = 0;
        g.stream = 7;
        SliceInput in;
        in.start = s;
        in.dur = d;
        in.name = b.intern(name);
        in.category = b.intern(kind == SliceKind::Kernel ? "kernel" : "gpu_memcpy");
        in.kind = kind;
        in.correlation = corr;
        in.externalId = ext;
        in.gpu = &g;
        in.args = args;
        b.addSlice(gpu, in);
    };
    auto kernel = [](Dim3 grid, Dim3 block, int regs, int stat, int dyn) {
        GpuActivity g;
        g.grid = grid;
        g.block = block;
        g.registersPerThread = regs;
        g.staticSharedBytes = stat;
        g.dynamicSharedBytes = dyn;
        return g;
    };
    auto copy = [](int64_t bytes, uint8_t kind) {
        GpuActivity g;
        g.bytes = bytes;
        g.copyKind = kind;
        return g;
    };
    a.begin();
    a.addJson(key("grid"), "[16, 8, 1]");
    gpuOp("gemm_kernel", SliceKind::Kernel, 120, 30000, 471260,
          kernel({16, 8, 1}, {256, 1, 1}, 64, 1024, 2048), 12, a.finish());
    gpuOp("gemm_kernel", SliceKind::Kernel, 300, 5000, 471261,
          kernel({2048, 1, 1}, {128, 1, 1}, 32, 0, -1));
    gpuOp("elementwise_kernel", SliceKind::Kernel, 600, 1000, 471262,
          kernel({1024, 1, 1}, {512, 1, 1}, 16, -1, -1));
    gpuOp("Memcpy HtoD (Pageable -> Device)", SliceKind::Memcpy, 700, 2000, -1, copy(4 << 20, 1));
    gpuOp("Memcpy DtoH (Device -> Pageable)", SliceKind::Memcpy, 900, 100, -1, copy(1024, 2));
    return b.build();
}

// "name@start" for each slice found, in time order; "[memory]@ts" for instants.
QStringList found(const Trace& t, const SliceSearchResult& r) {
    QStringList out;
    auto text = [](std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); };
    for (SliceRef s : r.matches)
        out << QStringLiteral("%1@%2").arg(text(t.name(s))).arg(t.start(s));
    for (InstantRef i : r.instants) {
        const Track& tr = t.track(i.track);
        out << QStringLiteral("%1@%2")
                   .arg(text(t.str(tr.instants.name[i.index])))
                   .arg(tr.instants.ts[i.index]);
    }
    return out;
}

FilterTerm term(FilterOp op, const char* key, const char* value) {
    return {op, key, value};
}

} // namespace

Q_DECLARE_METATYPE(std::vector<strata::FilterTerm>)

class TestArgFilter : public QObject {
    Q_OBJECT
private slots:
    void parse_data();
    void parse();
    void numbers();
    void compactJsonText();
    void match_data();
    void match();
    void caseSensitive();
    void regexAppliesToNames();
    void unknownKeyIsAName();
    void notANumber();
    void matcherAlone();
    void realTraces_data();
    void realTraces();
};

void TestArgFilter::parse_data() {
    using T = std::vector<FilterTerm>;
    QTest::addColumn<QString>("text");
    QTest::addColumn<T>("terms");
    QTest::newRow("gt") << "grid>1024" << T{term(FilterOp::Gt, "grid", "1024")};
    QTest::newRow("spaces in key and value")
        << "Input Dims~[8, 1024]" << T{term(FilterOp::Contains, "Input Dims", "[8, 1024]")};
    QTest::newRow("spaces around the operator")
        << "  External id = 12 " << T{term(FilterOp::Eq, "External id", "12")};
    QTest::newRow("==") << "x==3" << T{term(FilterOp::Eq, "x", "3")};
    QTest::newRow("!=") << "k!=v" << T{term(FilterOp::Ne, "k", "v")};
    QTest::newRow("<= and >=") << "a>=1 && b<=2"
                               << T{term(FilterOp::Ge, "a", "1"), term(FilterOp::Le, "b", "2")};
    QTest::newRow("< and the first operator wins") << "a<b>c" << T{term(FilterOp::Lt, "a", "b>c")};
    QTest::newRow("name and key") << "gemm && dur>10us"
                                  << T{term(FilterOp::Name, "", "gemm"),
                                       term(FilterOp::Gt, "dur", "10us")};
    QTest::newRow("quoted value keeps &&")
        << "note=\"a && b\"" << T{term(FilterOp::Eq, "note", "a && b")};
    QTest::newRow("trailing &&") << "grid>1 &&" << T{term(FilterOp::Gt, "grid", "1")};
    QTest::newRow("plain name as typed")
        << " aten::mm " << T{term(FilterOp::Name, "", " aten::mm ")};
    QTest::newRow("no key") << "=x" << T{term(FilterOp::Name, "", "=x")};
    QTest::newRow("lone !") << "!x" << T{term(FilterOp::Name, "", "!x")};
    QTest::newRow("empty") << "" << T{};
}

void TestArgFilter::parse() {
    QFETCH(QString, text);
    QFETCH(std::vector<FilterTerm>, terms);
    const ArgFilter f = parseArgFilter(text.toStdString());
    QCOMPARE(f.terms.size(), terms.size());
    for (size_t i = 0; i < terms.size(); ++i) {
        QCOMPARE(int(f.terms[i].op), int(terms[i].op));
        QCOMPARE(QString::fromStdString(f.terms[i].key), QString::fromStdString(terms[i].key));
        QCOMPARE(QString::fromStdString(f.terms[i].value), QString::fromStdString(terms[i].value));
    }
}

void TestArgFilter::numbers() {
    QCOMPARE(parseFilterNumber("1024"), std::optional<long double>(1024));
    QCOMPARE(parseFilterNumber("-3"), std::optional<long double>(-3));
    QCOMPARE(parseFilterNumber("+2.5e3"), std::optional<long double>(2500));
    QCOMPARE(parseFilterNumber("10us", true), std::optional<long double>(10000));
    QCOMPARE(parseFilterNumber("10 ms", true), std::optional<long double>(10'000'000));
    QCOMPARE(parseFilterNumber("2s", true), std::optional<long double>(2'000'000'000));
    QCOMPARE(parseFilterNumber("5\xc2\xb5s", true), std::optional<long double>(5000));
    QCOMPARE(parseFilterNumber("7ns", true), std::optional<long double>(7));
    QVERIFY(!parseFilterNumber("10us"));
    QVERIFY(!parseFilterNumber("abc"));
    QVERIFY(!parseFilterNumber(""));
    QVERIFY(!parseFilterNumber("us", true));
    QVERIFY(!parseFilterNumber("1e99999"));
    QVERIFY(!parseFilterNumber("0x10"));
}

void TestArgFilter::compactJsonText() {
    QCOMPARE(QString::fromStdString(compactJson("[\n [1,\n 2],{\"a b\" :\"c, d\"}]")),
             QStringLiteral("[[1, 2], {\"a b\": \"c, d\"}]"));
    // A quote escaped inside a string does not end it.
    const std::string escaped = "[\"x\\\" ,y\"]";
    QCOMPARE(compactJson(escaped), escaped);
}

void TestArgFilter::match_data() {
    QTest::addColumn<QString>("query");
    QTest::addColumn<QStringList>("expected");
    const QString k0 = "gemm_kernel@120", k1 = "gemm_kernel@300", k2 = "elementwise_kernel@600";
    const QString m0 = "Memcpy HtoD (Pageable -> Device)@700";
    const QString m1 = "Memcpy DtoH (Device -> Pageable)@900";
    const QString mm = "aten::mm@0", addmm = "aten::addmm@200", l0 = "cudaLaunchKernel@110",
                  l1 = "cudaLaunchKernel@260", vec = "vector<float> fill@400",
                  ann = "annotation@1000";
    QTest::newRow("correlation") << "correlation=471260" << QStringList{l0, k0};
    QTest::newRow("correlation, the kernel")
        << "correlation=471260 && cat=kernel" << QStringList{k0};
    QTest::newRow("no correlation") << "correlation=999" << QStringList{};
    QTest::newRow("grid >") << "grid>1024" << QStringList{k1};
    QTest::newRow("grid >=") << "grid>=1024" << QStringList{k1, k2};
    QTest::newRow("grid > 100, model and args") << "grid>100" << QStringList{k0, k1, k2};
    QTest::newRow("grid from args alone") << "grid<100" << QStringList{ann};
    QTest::newRow("grid text") << "grid=[16, 8, 1]" << QStringList{k0};
    QTest::newRow("grid product") << "grid=128" << QStringList{k0};
    QTest::newRow("grid.y") << "grid.y=8" << QStringList{k0};
    QTest::newRow("grid.x from args") << "grid.x=4" << QStringList{ann};
    QTest::newRow("block") << "block>=256" << QStringList{k0, k2};
    QTest::newRow("Input Dims, any spacing") << "Input Dims~[8, 1024]" << QStringList{mm, addmm};
    QTest::newRow("Input Dims, compact needle") << "input dims~[8,1024]" << QStringList{mm, addmm};
    QTest::newRow("Input Dims, second shape") << "Input Dims~[1024, 1024]" << QStringList{mm};
    QTest::newRow("External id") << "External id=12" << QStringList{mm, l0, k0};
    QTest::newRow("external") << "external=13" << QStringList{addmm, l1};
    QTest::newRow("name and grid") << "name~gemm && grid>1024" << QStringList{k1};
    QTest::newRow("bare name and grid") << "gemm && grid>=1024" << QStringList{k1};
    QTest::newRow("dur in µs") << "dur>10us" << QStringList{k0};
    QTest::newRow("dur >= 5 µs") << "dur>=5us" << QStringList{k0, k1};
    QTest::newRow("dur in ns") << "dur<=10" << QStringList{l0, l1};
    QTest::newRow("registers") << "registers>=32" << QStringList{k0, k1};
    QTest::newRow("registers per thread") << "registers per thread=16" << QStringList{k2};
    QTest::newRow("shared static + dynamic") << "shared=3072" << QStringList{k0};
    QTest::newRow("shared 0") << "shared=0" << QStringList{k1};
    QTest::newRow("bytes") << "bytes>1048576" << QStringList{m0};
    QTest::newRow("copy kind") << "kind=HtoD" << QStringList{m0};
    QTest::newRow("copy kind, any case") << "kind=dtoh" << QStringList{m1};
    QTest::newRow("Bytes: the instants' arg, the copies' field")
        << "Bytes<0" << QStringList{"[memory]@60"};
    QTest::newRow("instant args") << "Device Id=0" << QStringList{"[memory]@50", "[memory]@60"};
    QTest::newRow("text contains, any case") << "note~world" << QStringList{vec};
    QTest::newRow("quoted text") << "note=\"hello world\"" << QStringList{vec};
    QTest::newRow("number in a string") << "count>40" << QStringList{vec};
    QTest::newRow("!= needs the key") << "cbid!=5" << QStringList{l0};
    QTest::newRow("!= same value") << "cbid!=211" << QStringList{};
    QTest::newRow("key with a space") << "Ev Idx=3" << QStringList{mm};
    QTest::newRow("~ and nothing: has the key") << "Input Dims~" << QStringList{mm, addmm};
    QTest::newRow("cat") << "cat=cpu_op" << QStringList{mm, addmm, vec};
    QTest::newRow("category") << "category=kernel" << QStringList{k0, k1, k2};
    QTest::newRow("device, field and arg") << "device=3" << QStringList{ann};
    QTest::newRow("device 0") << "device=0" << QStringList{k0, k1, k2, m0, m1};
    QTest::newRow("stream") << "stream=7 && dur>=2us" << QStringList{k0, k1, m0};
    QTest::newRow("name equals") << "name=GEMM_KERNEL" << QStringList{k0, k1};
    QTest::newRow("name differs") << "name!=gemm_kernel && cat=kernel" << QStringList{k2};
    QTest::newRow("plain name unchanged") << "gemm" << QStringList{k0, k1};
    QTest::newRow("a name with an operator") << "vector<float>" << QStringList{vec};
    QTest::newRow("a name with ->") << "HtoD (Pageable -> Device)" << QStringList{m0};
}

void TestArgFilter::match() {
    QFETCH(QString, query);
    QFETCH(QStringList, expected);
    const auto t = makeTrace();
    const SliceSearchResult r = findSlices(*t, {query.toStdString(), false, false});
    QVERIFY2(r.ok(), r.error.c_str());
    QCOMPARE(found(*t, r), expected);
}

void TestArgFilter::caseSensitive() {
    const auto t = makeTrace();
    QCOMPARE(found(*t, findSlices(*t, {"kind=htod", false, true})), QStringList{});
    QCOMPARE(found(*t, findSlices(*t, {"kind=HtoD", false, true})),
             QStringList{"Memcpy HtoD (Pageable -> Device)@700"});
    QCOMPARE(found(*t, findSlices(*t, {"note~world", false, true})), QStringList{});
    // Keys never depend on case.
    QCOMPARE(found(*t, findSlices(*t, {"NOTE~World", false, true})),
             QStringList{"vector<float> fill@400"});
}

void TestArgFilter::regexAppliesToNames() {
    const auto t = makeTrace();
    SliceSearchResult r = findSlices(*t, {"^gemm && grid>1024", true, false});
    QVERIFY(r.ok());
    QCOMPARE(found(*t, r), QStringList{"gemm_kernel@300"});
    // A key's value is never a regex: "." is a dot.
    r = findSlices(*t, {"note~h.llo", true, false});
    QCOMPARE(found(*t, r), QStringList{});
    r = findSlices(*t, {"(x && grid>1", true, false});
    QVERIFY(!r.ok());
    QVERIFY(r.badRegex);
    QVERIFY2(r.error.find("(x") != std::string::npos, r.error.c_str());
}

void TestArgFilter::unknownKeyIsAName() {
    const auto t = makeTrace();
    SliceSearchResult r = findSlices(*t, {"foo=1", false, false});
    QVERIFY(r.ok());
    QVERIFY(!r.byArgs);
    QVERIFY(r.matches.empty());
    QCOMPARE(QString::fromStdString(r.note), QStringLiteral("no event has key 'foo'"));
    // With a known key beside it: a filter that finds nothing, and says why.
    r = findSlices(*t, {"correlation=471260 && foo=1", false, false});
    QVERIFY(r.byArgs);
    QVERIFY(r.matches.empty());
    QCOMPARE(QString::fromStdString(r.note), QStringLiteral("no event has key 'foo'"));
    // A field no slice of this trace has, said once nothing is found.
    TraceBuilder b;
    SliceInput in;
    in.name = b.intern("step");
    in.dur = 5;
    b.addSlice(b.threadTrack(1, 1), in);
    const auto cpuOnly = b.build();
    r = findSlices(*cpuOnly, {"correlation=5", false, false});
    QVERIFY(r.byArgs);
    QCOMPARE(QString::fromStdString(r.note), QStringLiteral("no event has key 'correlation'"));
    r = findSlices(*cpuOnly, {"dur=5", false, false});
    QCOMPARE(r.matches.size(), size_t(1));
    QVERIFY(r.note.empty());
}

void TestArgFilter::notANumber() {
    const auto t = makeTrace();
    const SliceSearchResult r = findSlices(*t, {"grid>abc", false, false});
    QVERIFY(!r.ok());
    QVERIFY(!r.badRegex);
    QVERIFY(r.matches.empty());
    QCOMPARE(QString::fromStdString(r.error),
             QStringLiteral("'abc' is not a number (in 'grid>abc')"));
    // A time unit only where the field is a time.
    QVERIFY(!findSlices(*t, {"grid>10us", false, false}).ok());
    QVERIFY(findSlices(*t, {"dur>10us", false, false}).ok());
}

void TestArgFilter::matcherAlone() {
    // The matcher as a query layer would call it: (trace, filter) -> matches in track order.
    const auto t = makeTrace();
    const ArgFilterResult r = matchArgFilter(*t, parseArgFilter("registers>16"));
    QVERIFY(r.ok());
    QCOMPARE(r.slices.size(), size_t(2));
    QCOMPARE(t->start(r.slices[0]), TimeNs(120));
    QCOMPARE(t->start(r.slices[1]), TimeNs(300));
    QVERIFY(r.instants.empty());
    const ArgFilterResult none = matchArgFilter(*t, parseArgFilter("nokey>1"));
    QVERIFY(none.unknownKeys);
}

void TestArgFilter::realTraces_data() {
    QTest::addColumn<QString>("path");
    for (const char* name : {"tracelens-h100__Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz",
                             "hta__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"})
        QTest::newRow(name) << QStringLiteral(STRATA_SHARED_TRACES "/%1").arg(name);
}

void TestArgFilter::realTraces() {
    QFETCH(QString, path);
    if (!QFile::exists(path)) QSKIP("the shared traces are absent");
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (python.isEmpty()) QSKIP("no python3");
    const test::ProcessRun run = test::runProcess(
        python, {QStringLiteral(STRATA_TEST_DATA "/analysis/arg_filter_counts.py"), path});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const nlohmann::json expected = nlohmann::json::parse(run.out.toStdString());
    QVERIFY(expected.size() >= 10);
    const LoadResult loaded = loadTrace(path.toStdString());
    QVERIFY(loaded.ok());
    const Trace& t = *loaded.trace;
    size_t nonZero = 0;
    for (const auto& row : expected) {
        const std::string query = row[0];
        const SliceSearchResult r = findSlices(t, {query, false, false});
        QVERIFY2(r.ok(), (query + ": " + r.error).c_str());
        const std::string where = query + ": " + std::to_string(r.matches.size()) + " slices, " +
                                  std::to_string(r.instants.size()) + " instants";
        QVERIFY2(r.matches.size() == row[1].get<size_t>(), where.c_str());
        QVERIFY2(r.instants.size() == row[2].get<size_t>(), where.c_str());
        nonZero += r.matches.size() + r.instants.size() > 0;
    }
    QVERIFY(nonZero >= 8);
}

STRATA_TEST_GUILESS_MAIN(TestArgFilter)
#include "tst_arg_filter.moc"
