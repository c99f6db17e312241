// Launch latency (API call start -> kernel start): expectations computed by hand.
#include "analysis/ops/launch_latency.h"
#include "support/analysis_trace_fixture.h"
#include "support/test_main.h"

#include <QtTest>

using namespace strata;
using strata::test::GpuTraceFixture;

class TstLaunchLatency : public QObject {
    Q_OBJECT
private slots:
    void emptyTrace();
    void oneKernel();
    void statsOverSeveralKernels();
    void unmatchedKernels();
    void driverLaunchAndNegativeLatency();
    void onlyKernelsCount();
    void rangeRestriction();
};

void TstLaunchLatency::emptyTrace() {
    GpuTraceFixture f;
    const auto trace = f.build();
    const LaunchLatencyStats l = computeLaunchLatency(*trace);
    QCOMPARE(l.kernels, 0u);
    QCOMPARE(l.unmatched, 0u);
    QCOMPARE(l.latency.count, 0u);
    QVERIFY(l.launches.empty());
}

void TstLaunchLatency::oneKernel() {
    // cudaLaunchKernel at 1000 (dur 20), kernel at 1500: latency 500.
    GpuTraceFixture f;
    f.launch(1000, 20, 42);
    f.kernel(0, 7, 1500, 100, "k", 42);
    const auto trace = f.build();
    const LaunchLatencyStats l = computeLaunchLatency(*trace);
    QCOMPARE(l.kernels, 1u);
    QCOMPARE(l.unmatched, 0u);
    QCOMPARE(l.negative, 0u);
    QCOMPARE(l.latency.count, 1u);
    QCOMPARE(l.latency.min, 500);
    QCOMPARE(l.latency.max, 500);
    QCOMPARE(l.latency.median, 500);
    QCOMPARE(l.latency.mean, 500.0);
    QCOMPARE(l.launches.size(), size_t(1));
    QCOMPARE(l.launches[0].latency, 500);
    QCOMPARE(trace->name(l.launches[0].launch), std::string_view("cudaLaunchKernel"));
    QCOMPARE(trace->start(l.launches[0].kernel), 1500);
}

void TstLaunchLatency::statsOverSeveralKernels() {
    // Latencies 10, 40, 20, 30 (kernels in start order): sorted 10 20 30 40.
    // mean 25, median rank ceil(2) = 2 -> 20, p95 rank ceil(3.8) = 4 -> 40.
    GpuTraceFixture f;
    const TimeNs latency[4] = {10, 40, 20, 30};
    for (int i = 0; i < 4; ++i) {
        f.launch(i * 1000, 5, i + 1);
        f.kernel(0, 7, i * 1000 + latency[i], 3, "k", i + 1);
    }
    const auto trace = f.build();
    const LaunchLatencyStats l = computeLaunchLatency(*trace);
    QCOMPARE(l.kernels, 4u);
    QCOMPARE(l.latency.count, 4u);
    QCOMPARE(l.latency.total, 100);
    QCOMPARE(l.latency.mean, 25.0);
    QCOMPARE(l.latency.min, 10);
    QCOMPARE(l.latency.max, 40);
    QCOMPARE(l.latency.median, 20);
    QCOMPARE(l.latency.p95, 40);
    QCOMPARE(l.launches.size(), size_t(4));
    for (int i = 0; i < 4; ++i) QCOMPARE(l.launches[i].latency, latency[i]); // start order
}

void TstLaunchLatency::unmatchedKernels() {
    // One kernel without a correlation id, one whose correlation id has no API call.
    GpuTraceFixture f;
    f.launch(0, 5, 1);
    f.kernel(0, 7, 100, 10, "k", 1);
    f.kernel(0, 7, 200, 10, "k");
    f.kernel(0, 7, 300, 10, "k", 99);
    const auto trace = f.build();
    const LaunchLatencyStats l = computeLaunchLatency(*trace);
    QCOMPARE(l.kernels, 3u);
    QCOMPARE(l.unmatched, 2u);
    QCOMPARE(l.noCorrelation, 1u);
    QCOMPARE(l.latency.count, 1u);
    QCOMPARE(l.latency.max, 100);
}

void TstLaunchLatency::driverLaunchAndNegativeLatency() {
    // cuLaunchKernel (cuda_driver) at 500 launches a kernel at 800: 300.
    // A runtime call at 2000 "launches" a kernel at 1990: -10 (clock skew), kept and counted.
    GpuTraceFixture f;
    f.launch(500, 10, 7, "cuLaunchKernel", SliceKind::CudaDriver);
    f.kernel(0, 7, 800, 10, "k", 7);
    f.launch(2000, 10, 8);
    f.kernel(0, 7, 1990, 5, "k", 8);
    const auto trace = f.build();
    const LaunchLatencyStats l = computeLaunchLatency(*trace);
    QCOMPARE(l.kernels, 2u);
    QCOMPARE(l.unmatched, 0u);
    QCOMPARE(l.negative, 1u);
    QCOMPARE(l.latency.min, -10);
    QCOMPARE(l.latency.max, 300);
    QCOMPARE(l.latency.total, 290);
    QCOMPARE(trace->name(l.launches[0].launch), std::string_view("cuLaunchKernel"));
}

void TstLaunchLatency::onlyKernelsCount() {
    // A memcpy launched by cudaMemcpyAsync is not a kernel launch.
    GpuTraceFixture f;
    f.launch(0, 5, 1, "cudaMemcpyAsync");
    f.op(SliceKind::Memcpy, 0, 7, 50, 10, "Memcpy HtoD", 1);
    const auto trace = f.build();
    const LaunchLatencyStats l = computeLaunchLatency(*trace);
    QCOMPARE(l.kernels, 0u);
    QCOMPARE(l.latency.count, 0u);
}

void TstLaunchLatency::rangeRestriction() {
    // Kernels at 100, 200, 300 with latencies 50, 60, 70. Range [150, 300) holds the kernel at
    // 200 only (by kernel start; its launch at 140 lies outside the range and still counts).
    GpuTraceFixture f;
    f.launch(50, 5, 1);
    f.kernel(0, 7, 100, 10, "k", 1);
    f.launch(140, 5, 2);
    f.kernel(0, 7, 200, 10, "k", 2);
    f.launch(230, 5, 3);
    f.kernel(0, 7, 300, 10, "k", 3);
    const auto trace = f.build();
    const LaunchLatencyStats l = computeLaunchLatency(*trace, TimeRange{150, 300});
    QCOMPARE(l.kernels, 1u);
    QCOMPARE(l.latency.count, 1u);
    QCOMPARE(l.latency.max, 60);
}

STRATA_TEST_GUILESS_MAIN(TstLaunchLatency)
#include "tst_launch_latency.moc"
