// The collector's CUPTI-free pieces: the activity-buffer pool, the options read from the
// STRATA_* environment (contract/collector_env.h) and the copy/memory kind names it shares with the
// JSON reader (model/cupti_names.h). Expected values follow from the definitions: e.g. 4 MiB
// buffers -> max(16, 256 MiB / 4 MiB) = 64 buffers in the pool at most.
#include "buffer_pool.h"
#include "collector_config.h"
#include "io/json/json_gpu_args.h"
#include "model/names/cupti_names.h"
#include "support/test_main.h"
#ifdef STRATA_HAVE_CUPTI_HEADERS
#include "activities/nvtx_events.h"

#include <generated_nvtx_meta.h>
#endif

#include <QtTest>

#include <map>
#include <string>

using namespace strata;

namespace {
CollectorConfig configFrom(const std::map<std::string, std::string>& vars) {
    return readCollectorConfig([&](const char* name) -> const char* {
        auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    });
}
bool hasWarning(const CollectorConfig& c, const char* part) {
    for (const auto& w : c.warnings)
        if (w.find(part) != std::string::npos) return true;
    return false;
}
} // namespace

class TestCollectorUnits : public QObject {
    Q_OBJECT
private slots:
    void poolHandsOutAlignedBuffersUpToItsCap();
    void defaults();
    void outputTemplateExpanded();
    void captureGroups();
    void scheduleAndDuration();
    void badValuesFallBack();
    void nvtxCallbacksDecoded();
    void cuptiKindNames();
    void copyNamesReadBack();
};

void TestCollectorUnits::poolHandsOutAlignedBuffersUpToItsCap() {
    BufferPool pool;
    pool.configure(1000, 3, 1);
    QCOMPARE(pool.allocated(), size_t(1));
    uint8_t* a = pool.acquire();
    uint8_t* b = pool.acquire();
    uint8_t* c = pool.acquire();
    QVERIFY(a && b && c);
    QCOMPARE(reinterpret_cast<uintptr_t>(a) % 8, uintptr_t(0));
    QCOMPARE(reinterpret_cast<uintptr_t>(b) % 8, uintptr_t(0));
    QVERIFY(!pool.acquire()); // cap reached: CUPTI gets no buffer and counts the drop
    QCOMPARE(pool.refusals(), size_t(1));
    QCOMPARE(pool.allocated(), size_t(3));
    QCOMPARE(pool.inUse(), size_t(3));
    pool.release(b);
    QCOMPARE(pool.acquire(), b); // reused, not reallocated
    QCOMPARE(pool.allocated(), size_t(3));
    QCOMPARE(pool.highWater(), size_t(3));
    pool.release(a);
    pool.release(b);
    pool.release(c);
    QCOMPARE(pool.inUse(), size_t(0));
}

void TestCollectorUnits::defaults() {
    const CollectorConfig c = configFrom({});
    QCOMPARE(c.capture, uint32_t(kCaptureAll));
    QCOMPARE(c.bufferBytes, size_t(4) << 20);
    QCOMPARE(c.bufferCount, size_t(64));
    QCOMPARE(c.flushMs, 200);
    QVERIFY(!c.schedule.scheduleEnabled());
    QVERIFY(!c.schedule.rangeEnabled());
    QCOMPARE(c.schedule.stepName, std::string("step"));
    QCOMPARE(c.schedule.maxDurationNs, int64_t(0));
    QVERIFY(c.warnings.empty());
    QVERIFY(QString::fromStdString(c.outputPath).endsWith(QString("-%1.strata").arg(getpid())));
}

void TestCollectorUnits::outputTemplateExpanded() {
    const CollectorConfig c =
        configFrom({{"STRATA_OUTPUT", "/tmp/run-{rank}-{pid}.strata"}, {"RANK", "3"}});
    QCOMPARE(QString::fromStdString(c.outputPath), QString("/tmp/run-3-%1.strata").arg(getpid()));
    QCOMPARE(c.outputTemplate, std::string("/tmp/run-{rank}-{pid}.strata"));
}

void TestCollectorUnits::captureGroups() {
    QCOMPARE(configFrom({{"STRATA_CAPTURE", "api, kernels"}}).capture,
             uint32_t(kCaptureApi | kCaptureKernels));
    QCOMPARE(configFrom({{"STRATA_CAPTURE", "memory,nvtx,sync"}}).capture,
             uint32_t(kCaptureMemory | kCaptureNvtx | kCaptureSync));
    QCOMPARE(configFrom({{"STRATA_CAPTURE", "all"}}).capture, uint32_t(kCaptureAll));
    // api's halves: one API record kind each (the GPU's cost measurement).
    QCOMPARE(configFrom({{"STRATA_CAPTURE", "runtime,kernels"}}).capture,
             uint32_t(kCaptureRuntime | kCaptureKernels));
    QCOMPARE(configFrom({{"STRATA_CAPTURE", "driver"}}).capture, uint32_t(kCaptureDriver));
    QCOMPARE(configFrom({{"STRATA_CAPTURE", "runtime,driver"}}).capture, uint32_t(kCaptureApi));
    const CollectorConfig bad = configFrom({{"STRATA_CAPTURE", "bogus"}});
    QCOMPARE(bad.capture, uint32_t(kCaptureAll)); // nothing valid: everything, with warnings
    QVERIFY(hasWarning(bad, "unknown group \"bogus\""));
}

void TestCollectorUnits::scheduleAndDuration() {
    const CollectorConfig c = configFrom({{"STRATA_SCHEDULE_WAIT", "2"},
                                          {"STRATA_SCHEDULE_WARMUP", "1"},
                                          {"STRATA_SCHEDULE_ACTIVE", "3"},
                                          {"STRATA_SCHEDULE_REPEAT", "4"},
                                          {"STRATA_STEP_NAME", "train_step"},
                                          {"STRATA_CAPTURE_RANGE", "profile"},
                                          {"STRATA_DURATION_S", "2.5"},
                                          {"STRATA_BUFFER_SIZE", "8388608"},
                                          {"STRATA_FLUSH_MS", "50"}});
    QVERIFY(c.warnings.empty());
    QCOMPARE(c.schedule.wait, 2);
    QCOMPARE(c.schedule.warmup, 1);
    QCOMPARE(c.schedule.active, 3);
    QCOMPARE(c.schedule.repeat, 4);
    QCOMPARE(c.schedule.stepName, std::string("train_step"));
    QCOMPARE(c.schedule.rangeName, std::string("profile"));
    QCOMPARE(c.schedule.maxDurationNs, int64_t(2500000000));
    QCOMPARE(c.bufferBytes, size_t(8388608));
    QCOMPARE(c.bufferCount, size_t(32)); // 256 MiB / 8 MiB
    QCOMPARE(c.flushMs, 50);
}

void TestCollectorUnits::badValuesFallBack() {
    const CollectorConfig c = configFrom({{"STRATA_FLUSH_MS", "0"},
                                          {"STRATA_BUFFER_SIZE", "12abc"},
                                          {"STRATA_SCHEDULE_WAIT", "-1"},
                                          {"STRATA_DURATION_S", "nan"}});
    QCOMPARE(c.flushMs, 200);
    QCOMPARE(c.bufferBytes, size_t(4) << 20);
    QCOMPARE(c.schedule.wait, 0);
    QCOMPARE(c.schedule.maxDurationNs, int64_t(0));
    QVERIFY(hasWarning(c, "STRATA_FLUSH_MS=\"0\" ignored: expected an integer in [1, 3600000]"));
    QVERIFY(hasWarning(c, "STRATA_BUFFER_SIZE=\"12abc\" ignored"));
    QVERIFY(hasWarning(c, "STRATA_SCHEDULE_WAIT=\"-1\" ignored"));
    QVERIFY(hasWarning(c, "STRATA_DURATION_S=\"nan\" ignored"));
    QVERIFY(hasWarning(c, "without STRATA_SCHEDULE_ACTIVE")); // WAIT given, ACTIVE not
}

void TestCollectorUnits::nvtxCallbacksDecoded() {
#ifndef STRATA_HAVE_CUPTI_HEADERS
    QSKIP("no CUPTI headers in this build");
#else
    auto data = [](const void* params, const void* ret = nullptr) {
        return CUpti_NvtxData{"nvtx", params, ret};
    };
    nvtxEventAttributes_t attr{};
    attr.version = NVTX_VERSION;
    attr.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attr.message.ascii = "forward";

    nvtxRangePushA_params pushA{"step"};
    CUpti_NvtxData d = data(&pushA);
    NvtxEvent e = decodeNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePushA, &d);
    QCOMPARE(int(e.kind), int(NvtxEvent::Push));
    QCOMPARE(QString(e.name), QString("step"));

    nvtxDomainRangePushEx_params pushDomain{};
    pushDomain.core.eventAttrib = &attr;
    d = data(&pushDomain);
    e = decodeNvtxCallback(CUPTI_CBID_NVTX_nvtxDomainRangePushEx, &d);
    QCOMPARE(int(e.kind), int(NvtxEvent::Push));
    QCOMPARE(QString(e.name), QString("forward"));

    d = data(nullptr);
    QCOMPARE(int(decodeNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePop, &d).kind), int(NvtxEvent::Pop));
    QCOMPARE(int(decodeNvtxCallback(CUPTI_CBID_NVTX_nvtxDomainRangePop, &d).kind),
             int(NvtxEvent::Pop));

    nvtxMarkEx_params markEx{&attr};
    d = data(&markEx);
    e = decodeNvtxCallback(CUPTI_CBID_NVTX_nvtxMarkEx, &d);
    QCOMPARE(int(e.kind), int(NvtxEvent::Mark));
    QCOMPARE(QString(e.name), QString("forward"));

    nvtxRangeStartEx_params startEx{&attr};
    const nvtxRangeId_t id = 42;
    d = data(&startEx, &id);
    e = decodeNvtxCallback(CUPTI_CBID_NVTX_nvtxRangeStartEx, &d);
    QCOMPARE(int(e.kind), int(NvtxEvent::Start));
    QCOMPARE(e.id, uint64_t(42));
    d = data(&startEx); // no return value: the end could never be matched
    QCOMPARE(int(decodeNvtxCallback(CUPTI_CBID_NVTX_nvtxRangeStartEx, &d).kind),
             int(NvtxEvent::None));

    nvtxDomainRangeEnd_params endDomain{};
    endDomain.core.id = 42;
    d = data(&endDomain);
    e = decodeNvtxCallback(CUPTI_CBID_NVTX_nvtxDomainRangeEnd, &d);
    QCOMPARE(int(e.kind), int(NvtxEvent::End));
    QCOMPARE(e.id, uint64_t(42));

    attr.messageType = NVTX_MESSAGE_TYPE_UNICODE; // wide strings: no name, still a push
    attr.message.unicode = L"wide";
    nvtxRangePushEx_params pushWide{&attr};
    d = data(&pushWide);
    e = decodeNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePushEx, &d);
    QCOMPARE(int(e.kind), int(NvtxEvent::Push));
    QVERIFY(e.name == nullptr);

    d = data(&pushA);
    QCOMPARE(int(decodeNvtxCallback(CUPTI_CBID_NVTX_nvtxDomainCreateA, &d).kind),
             int(NvtxEvent::None));
#endif
}

// CUpti_ActivityMemcpyKind / CUpti_ActivityMemoryKind numbers to names and back (the
// collector also checks the numbers against CUPTI's headers at compile time).
void TestCollectorUnits::cuptiKindNames() {
    const std::pair<uint32_t, std::string_view> copies[] = {
        {1, "HtoD"}, {2, "DtoH"}, {3, "HtoA"}, {4, "AtoH"}, {5, "AtoA"},
        {6, "AtoD"}, {7, "DtoA"}, {8, "DtoD"}, {9, "HtoH"}, {10, "PtoP"}};
    for (const auto& [kind, name] : copies) {
        QCOMPARE(copyKindName(kind), name);
        QCOMPARE(copyKindFromName(name), uint8_t(kind));
    }
    const std::pair<uint32_t, std::string_view> memories[] = {
        {1, "Pageable"}, {2, "Pinned"},        {3, "Device"},        {4, "Array"},
        {5, "Managed"},  {6, "Device Static"}, {7, "Managed Static"}};
    for (const auto& [kind, name] : memories) {
        QCOMPARE(memoryKindName(kind), name);
        QCOMPARE(memoryKindFromName(name), uint8_t(kind));
    }
    // 0 is CUPTI's UNKNOWN; numbers past the table have no name either.
    for (uint32_t unknown : {0u, 11u, 255u, 0xffffffffu}) QVERIFY(copyKindName(unknown).empty());
    for (uint32_t unknown : {0u, 8u, 255u, 0xffffffffu}) QVERIFY(memoryKindName(unknown).empty());
    for (std::string_view text : {"", "Unknown", "htod", "HtoD ", "Memcpy HtoD"})
        QCOMPARE(copyKindFromName(text), uint8_t(0));
    for (std::string_view text : {"", "Unknown", "device", "Device 0", "Pageable "})
        QCOMPARE(memoryKindFromName(text), uint8_t(0));

    QCOMPARE(memcpyName(1, 1, 3), std::string("Memcpy HtoD (Pageable -> Device)"));
    QCOMPARE(memcpyName(8, 3, 3), std::string("Memcpy DtoD (Device -> Device)"));
    QCOMPARE(memcpyName(0, 0, 8), std::string("Memcpy Unknown (Unknown -> Unknown)"));
    QCOMPARE(peerMemcpyName(0, 1), std::string("Memcpy PtoP (Device 0 -> Device 1)"));
    QCOMPARE(memsetName(3), std::string("Memset (Device)"));
    QCOMPARE(memsetName(7), std::string("Memset (Managed Static)"));
    QCOMPARE(memsetName(42), std::string("Memset (Unknown)"));
}

// Every name the collector writes gives its numbers back through the JSON reader's parser.
void TestCollectorUnits::copyNamesReadBack() {
    for (uint32_t kind = 0; kind <= 11; ++kind) {
        for (uint32_t src = 0; src <= 8; ++src) {
            for (uint32_t dst = 0; dst <= 8; ++dst) {
                GpuActivity g;
                parseCopyName(memcpyName(kind, src, dst), &g);
                QCOMPARE(g.copyKind, uint8_t(kind <= 10 ? kind : 0));
                QCOMPARE(g.srcMemory, uint8_t(src <= 7 ? src : 0));
                QCOMPARE(g.dstMemory, uint8_t(dst <= 7 ? dst : 0));
            }
        }
    }
    for (uint32_t dst = 0; dst <= 8; ++dst) {
        GpuActivity g;
        parseCopyName(memsetName(dst), &g);
        QCOMPARE(g.copyKind, uint8_t(0));
        QCOMPARE(g.srcMemory, uint8_t(0));
        QCOMPARE(g.dstMemory, uint8_t(dst <= 7 ? dst : 0));
    }
    GpuActivity peer;
    parseCopyName(peerMemcpyName(2, 3), &peer);
    QCOMPARE(peer.copyKind, uint8_t(10)); // the devices are not memory kinds
    QCOMPARE(peer.srcMemory, uint8_t(0));
    QCOMPARE(peer.dstMemory, uint8_t(0));
}

STRATA_TEST_GUILESS_MAIN(TestCollectorUnits)
#include "tst_collector_units.moc"
