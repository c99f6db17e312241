// The roofline of the kernels measured with per-kernel counters (issue 51;
// analysis/ops/roofline.h) on tests/data/analysis/roofline.json, by hand. Device 0's ceilings:
// DRAM max(1000 x 2e9, 500 x 2e9) = 2e12 B/s (the largest a launch reports); FP32 2 x 16896 x
// 1.5e9 = 5.0688e13 FLOP/s, FP64 2 x 8448 x 1.5e9 = 2.5344e13; no FP16 peak. Device 1: none.
//   gemm_tile (GPU 0, 2 launches): FP32 2 x (2 x 1e9 + 1e8 + 1e8) = 4.4e9 FLOP, 2 x 1.1e8 = 2.2e8
//     B, 100 + 120 us (gpu__time_duration.sum, not the slices' 100 and 130): intensity 20,
//     achieved 2e13; the FP32 ridge 25.344 > 20: memory-bound, attainable 20 x 2e12 = 4e13,
//     half the roof.
//   copy_kernel: 0 FLOP, 8e8 B, 400 us (its duration: no gpu__time_duration.sum): intensity 0,
//     memory-bound, attainable 0: no share.
//   dgemm: FP64 2 x 5e9 = 1e10 FLOP, 1e8 B, 500 us: intensity 100 >= 12.672: compute-bound,
//     attainable 2.5344e13, achieved 2e13: 0.78914...
//   gemm_tile (GPU 1): 2e6 FLOP, 1e6 B, 10 us: intensity 2, achieved 2e11, no ceilings: unknown.
//   partial: DRAM read only: incomplete. plain: no kernel metric, not counted.
#include "analysis/json/roofline_json.h"
#include "analysis/ops/gpu_ops.h"
#include "analysis/ops/roofline.h"
#include "io/trace_loader.h"
#include "model/counter_units.h"
#include "support/process_run.h"
#include "support/test_main.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace strata;

namespace {

const std::string kFile = STRATA_TEST_DATA "/analysis/roofline.json";

bool near(double a, double b) {
    return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

class TestRoofline : public QObject {
    Q_OBJECT

private slots:
    void kernelsAndCeilings() {
        const std::shared_ptr<const Trace> t = loadTrace(kFile).trace;
        QVERIFY(t);
        const Roofline r = computeRoofline(*t, collectGpuOps(*t));
        QCOMPARE(r.launches.size(), size_t(5));
        QCOMPARE(r.incomplete, uint64_t(1));
        QCOMPARE(r.devices.size(), size_t(2));
        const RooflineCeilings* d0 = r.ceilings(0);
        QVERIFY(d0 && d0->bytesPerSecond && d0->flopsPerSecond[1] && d0->flopsPerSecond[0]);
        QVERIFY(near(*d0->bytesPerSecond, 2e12));
        QVERIFY(near(*d0->flopsPerSecond[size_t(FlopPrecision::Fp32)], 5.0688e13));
        QVERIFY(near(*d0->flopsPerSecond[size_t(FlopPrecision::Fp64)], 2.5344e13));
        QVERIFY(!d0->flopsPerSecond[size_t(FlopPrecision::Fp16)]);
        const RooflineCeilings* d1 = r.ceilings(1);
        QVERIFY(d1 && !d1->bytesPerSecond && !d1->flopsPerSecond[1]);

        QCOMPARE(r.kernels.size(), size_t(4)); // by time: dgemm, copy_kernel, gemm_tile x 2
        const RooflineKernel& dgemm = r.kernels[0];
        QCOMPARE(t->str(dgemm.nameId), std::string_view("dgemm"));
        QVERIFY(dgemm.precision == FlopPrecision::Fp64);
        QVERIFY(near(dgemm.flops[0], 1e10) && near(*dgemm.intensity(), 100));
        QVERIFY(dgemm.bound == RooflineBound::Compute);
        QVERIFY(near(*dgemm.attainable, 2.5344e13) && near(*dgemm.achieved(), 2e13));
        QVERIFY(near(*dgemm.roofShare(), 2e13 / 2.5344e13));

        const RooflineKernel& copy = r.kernels[1];
        QCOMPARE(t->str(copy.nameId), std::string_view("copy_kernel"));
        QVERIFY(near(copy.bytes, 8e8) && near(copy.seconds, 4e-4));
        QCOMPARE(*copy.intensity(), 0.0);
        QVERIFY(copy.bound == RooflineBound::Memory);
        QCOMPARE(*copy.attainable, 0.0);
        QVERIFY(!copy.roofShare());

        const RooflineKernel& gemm = r.kernels[2];
        QCOMPARE(t->str(gemm.nameId), std::string_view("gemm_tile"));
        QCOMPARE(gemm.device, 0);
        QCOMPARE(gemm.launches, uint64_t(2));
        QVERIFY(gemm.precision == FlopPrecision::Fp32);
        QVERIFY(near(gemm.flops[1], 4.4e9) && near(gemm.bytes, 2.2e8));
        QVERIFY(near(gemm.seconds, 2.2e-4));
        QVERIFY(near(*gemm.intensity(), 20) && near(*gemm.achieved(), 2e13));
        QVERIFY(gemm.bound == RooflineBound::Memory);
        QVERIFY(near(*gemm.attainable, 4e13) && near(*gemm.roofShare(), 0.5));

        const RooflineKernel& other = r.kernels[3];
        QCOMPARE(other.device, 1);
        QVERIFY(near(*other.intensity(), 2) && near(*other.achieved(), 2e11));
        QVERIFY(other.bound == RooflineBound::Unknown && !other.attainable);
    }

    void traceWithoutCounters() {
        const std::shared_ptr<const Trace> t =
            loadTrace(STRATA_TEST_DATA "/analysis/gpu_metrics.json").trace;
        QVERIFY(t);
        const Roofline r = computeRoofline(*t, collectGpuOps(*t));
        QVERIFY(r.launches.empty() && r.kernels.empty() && r.devices.empty());
        QCOMPARE(r.incomplete, uint64_t(0));
    }

    void siText() {
        QCOMPARE(formatSi(2e13, "FLOP/s"), std::string("20.0 TFLOP/s"));
        QCOMPARE(formatSi(2.2e8, "B"), std::string("220 MB"));
        QCOMPARE(formatSi(999.7, "B"), std::string("1.00 kB"));
        QCOMPARE(formatSi(0, "B"), std::string("0 B"));
        QCOMPARE(formatSi(4.5e-3, "s"), std::string("4.50 ms"));
    }

    void cliTableAndJson() {
        const test::ProcessRun text =
            test::runStrataCli({"roofline", QString::fromStdString(kFile)});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(QString::fromUtf8(text.out).contains(
                     "5 kernel launches measured, 1 without the roofline's counters"),
                 text.out.constData());
        QVERIFY2(QString::fromUtf8(text.out).contains(
                     "GPU 0 ceilings: DRAM 2.00 TB/s, FP64 25.3 TFLOP/s, FP32 50.7 "
                     "TFLOP/s"),
                 text.out.constData());
        QVERIFY2(QString::fromUtf8(text.out).contains("GPU 1 ceilings: DRAM - (not measured"),
                 text.out.constData());
        QVERIFY2(
            QString::fromUtf8(text.out).contains(" 20   20.0 TFLOP/s   50 % memory   gemm_tile"),
            text.out.constData());
        QVERIFY2(QString::fromUtf8(text.out).contains(" 100   20.0 TFLOP/s   79 % compute  dgemm"),
                 text.out.constData());

        const test::ProcessRun js =
            test::runStrataCli({"roofline", "--json", QString::fromStdString(kFile)});
        QCOMPARE(js.exitCode, 0);
        const nlohmann::json j = nlohmann::json::parse(js.out.toStdString());
        QCOMPARE(j["launches_measured"].get<int>(), 5);
        QCOMPARE(j["launches_incomplete"].get<int>(), 1);
        QCOMPARE(j["devices"][0]["dram_bytes_per_s"].get<double>(), 2e12);
        QVERIFY(j["devices"][0]["flops_per_s"]["FP16"].is_null());
        const nlohmann::json& g = j["kernels"][2];
        QCOMPARE(g["name"].get<std::string>(), std::string("gemm_tile"));
        QCOMPARE(g["launches"].get<int>(), 2);
        QCOMPARE(g["precision"].get<std::string>(), std::string("FP32"));
        QCOMPARE(g["bound"].get<std::string>(), std::string("memory"));
        QVERIFY(near(g["intensity"].get<double>(), 20));
        QVERIFY(near(g["time_us"].get<double>(), 220));
        QVERIFY(near(g["roof_share"].get<double>(), 0.5));
        QVERIFY(j["kernels"][1]["roof_share"].is_null());
        QCOMPARE(j["kernels"][3]["bound"].get<std::string>(), std::string("unknown"));
    }

    void cliWithoutCounters() {
        const test::ProcessRun r =
            test::runStrataCli({"roofline", STRATA_TEST_DATA "/analysis/gpu_metrics.json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(QString::fromUtf8(r.out).contains(
                     "no kernel carries per-kernel counters: record with strata-cli "
                     "record --kernel-metrics REGEX"),
                 r.out.constData());
    }
};

STRATA_TEST_MAIN(TestRoofline)
#include "tst_roofline.moc"
