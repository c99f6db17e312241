// The KernelMetrics record (24, .strata 1.7; --kernel-metrics): writer -> file -> both readers ->
// args of the kernel with the same correlation id, whether the record comes before or after the
// kernel's row; a record whose kernel is not in the file is counted in one warning. Files written
// by the writer and by tests/data/record/make_strata_fixture.py (from the format document alone).
#include "support/strata_format_fixture.h"
#include "support/test_main.h"

#include <cmath>
#include <limits>
#include <map>

namespace {

using Args = std::map<std::string, double>;

const char* const kNames = "dram__bytes_read.sum\ngpu__time_duration.sum\n"
                           "sm__throughput.avg.pct_of_peak_sustained_elapsed";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The numeric args of the slice of `ref`.
Args argsOf(const Trace& t, SliceRef ref) {
    Args out;
    for (const Arg& a : t.argStore().decode(t.track(ref.track).slices.args[ref.index]))
        out[std::string(t.str(a.key))] = a.value.toDouble();
    return out;
}

// The kernel (or other GPU op) of correlation id `correlation`.
SliceRef opOf(const Trace& t, int64_t correlation) {
    for (TrackId id = 0; id < t.tracks().size(); ++id) {
        if (t.track(id).kind != TrackKind::GpuStream) continue;
        for (SliceIndex i = 0; i < t.track(id).slices.size(); ++i)
            if (t.extra({id, i}) && t.extra({id, i})->correlation == correlation) return {id, i};
    }
    return {};
}

GpuActivity stream7() {
    GpuActivity g;
    g.device = 0;
    g.stream = 7;
    g.context = 1;
    return g;
}

std::vector<std::string> warningsAbout(const Trace& t, const std::string& part) {
    std::vector<std::string> out;
    for (const auto& w : t.warnings())
        if (w.find(part) != std::string::npos) out.push_back(w);
    return out;
}

} // namespace

class TestStrataKernelMetrics : public QObject, public StrataFormatFiles {
    Q_OBJECT

private slots:
    void bodyAsDocumented() {
        // 20 bytes of fields (i64 correlation, i32 device, u32 kernel, u32 names), then an f64
        // per name: one record of two values after the two String records.
        const std::string p = path("body.strata");
        StrataTraceWriter w;
        std::string error;
        QVERIFY2(w.open(p, &error), error.c_str());
        const double values[2] = {1.5, kNaN};
        w.kernelMetrics(42, 3, "k", "a\nb", values, 2);
        QVERIFY(w.close());
        const std::string b = readAll(p);
        // header 8 + chunk header 20 + String "k" (5 + 5) + String "a\nb" (5 + 7) = 50.
        const size_t at = 50;
        QCOMPARE(uint8_t(b[at]), uint8_t(24));
        QCOMPARE(u32At(b, at + 1), 36u); // 20 + 2 x 8
        int64_t correlation;
        int32_t device;
        std::memcpy(&correlation, b.data() + at + 5, 8);
        std::memcpy(&device, b.data() + at + 13, 4);
        QCOMPARE(correlation, int64_t(42));
        QCOMPARE(device, 3);
        QCOMPARE(u32At(b, at + 17), 1u); // "k"
        QCOMPARE(u32At(b, at + 21), 2u); // "a\nb"
        double first, second;
        std::memcpy(&first, b.data() + at + 25, 8);
        std::memcpy(&second, b.data() + at + 33, 8);
        QCOMPARE(first, 1.5);
        QVERIFY(std::isnan(second));
    }

    void beforeAndAfterItsKernel() {
        // Launch 9's record before its kernel (the writer puts a chunk's GPU block after its other
        // records), launch 10's a chunk after it; 11 is a copy (no kernel: not given), 77 has no
        // op at all. Both readers: the same args, one warning counting 11 and 77.
        const std::string p = path("order.strata");
        {
            StrataTraceWriter w;
            std::string error;
            QVERIFY2(w.open(p, &error), error.c_str());
            const uint32_t gemm = w.string("gemm"), copy = w.string("copy");
            const double nine[3] = {4096, 20000, kNaN}, ten[3] = {8192, 19000, 50.5};
            w.gpuOp(1000, 3000, gemm, SliceKind::Kernel, stream7(), 9);
            w.kernelMetrics(9, 0, "gemm", kNames, nine, 3);
            w.gpuOp(4000, 6000, gemm, SliceKind::Kernel, stream7(), 10);
            w.gpuOp(7000, 8000, copy, SliceKind::Memcpy, stream7(), 11);
            w.flush();
            w.kernelMetrics(10, 0, "gemm", kNames, ten, 3);
            w.kernelMetrics(11, 0, "copy", kNames, ten, 3);
            w.kernelMetrics(77, 0, "gone", kNames, ten, 3);
            QVERIFY(w.close());
        }
        const std::string bytes = readAll(p);
        for (const auto how : {StrataLoadPath::Sequential, StrataLoadPath::Parallel}) {
            const LoadResult r = readStrataBuffer(bytes, p, {}, how);
            QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
            const Trace& t = *r.trace;
            QCOMPARE(argsOf(t, opOf(t, 9)),
                     (Args{{"dram__bytes_read.sum", 4096}, {"gpu__time_duration.sum", 20000}}));
            QCOMPARE(argsOf(t, opOf(t, 10)),
                     (Args{{"dram__bytes_read.sum", 8192},
                           {"gpu__time_duration.sum", 19000},
                           {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 50.5}}));
            const SliceRef c = opOf(t, 11);
            QCOMPARE(t.kind(c), SliceKind::Memcpy);
            QCOMPARE(t.track(c.track).slices.args[c.index], kNoArgs);
            QCOMPARE(warningsAbout(t, "kernel metrics"),
                     std::vector<std::string>{p + ": 2 kernel metrics record(s) name a launch "
                                                  "whose kernel is not in the trace; their values "
                                                  "are not shown"});
            QCOMPARE(t.warnings().size(), size_t(1));
        }
    }

    void fixtureWrittenByPython() {
        // tests/data/record/make_strata_fixture.py writes this from the format document: launch
        // 9's record before its kernel, 10's a chunk after it, 77's kernel absent.
        const std::string p = STRATA_TEST_DATA "/record/python_kernel_metrics.strata";
        const std::string bytes = readAll(p);
        QCOMPARE(bytes.substr(0, 8), std::string("STRATA\x01\x07", 8));
        for (const auto how : {StrataLoadPath::Sequential, StrataLoadPath::Parallel}) {
            const LoadResult r = readStrataBuffer(bytes, p, {}, how);
            QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
            const Trace& t = *r.trace;
            QCOMPARE(t.sliceCount(), size_t(2));
            QCOMPARE(argsOf(t, opOf(t, 9)),
                     (Args{{"dram__bytes_read.sum", 4096}, {"gpu__time_duration.sum", 20000}}));
            QCOMPARE(argsOf(t, opOf(t, 10)),
                     (Args{{"dram__bytes_read.sum", 8192},
                           {"gpu__time_duration.sum", 19000},
                           {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 50.5}}));
            QCOMPARE(t.warnings(),
                     std::vector<std::string>{p + ": 1 kernel metrics record(s) name a launch "
                                                  "whose kernel is not in the trace; their values "
                                                  "are not shown"});
        }
    }

    void valuesThatDoNotFitTheNamesAreDamage() {
        // Three names, two values: the chunk is damaged (a writer bug), the chunk before it kept.
        const std::string p = path("short.strata");
        {
            StrataTraceWriter w;
            std::string error;
            QVERIFY2(w.open(p, &error), error.c_str());
            w.gpuOp(1000, 3000, w.string("gemm"), SliceKind::Kernel, stream7(), 9);
            w.flush();
            const double two[2] = {1, 2};
            w.kernelMetrics(9, 0, "gemm", kNames, two, 2);
            QVERIFY(w.close());
        }
        const LoadResult r = loadTrace(p);
        QVERIFY(r.ok());
        QCOMPARE(r.trace->sliceCount(), size_t(1));
        QVERIFY2(hasWarning(*r.trace, "KernelMetrics record of 16 value bytes for 3 metric names "
                                      "(8 bytes each)"),
                 allWarnings(*r.trace).c_str());
        QVERIFY2(hasWarning(*r.trace, "kept the 1 chunk(s) before it"),
                 allWarnings(*r.trace).c_str());
    }
};

STRATA_TEST_GUILESS_MAIN(TestStrataKernelMetrics)
#include "tst_strata_kernel_metrics.moc"
