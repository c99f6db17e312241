#include "io/synthetic/synthetic_sections.h"
#include "util/output_file.h"

#include "io/strata/strata_trace_writer.h"
#include "model/kernel_sections.h"

#include <algorithm>
#include <cstring>
#include <queue>
#include <random>
#include <vector>

namespace strata {

namespace {

constexpr int64_t kPid = 4242, kTid = 4242;

void putRecord(std::vector<uint8_t>& out, uint64_t c0, uint64_t c1, uint64_t t0, uint64_t t1,
               uint32_t block, uint16_t section, uint16_t sm, uint32_t launch) {
    out.resize(out.size() + kSectionRecordBytes);
    writeSectionRecord(out.data() + out.size() - kSectionRecordBytes,
                       {c0, c1, t0, t1, block, 0, section, sm, launch});
}

} // namespace

bool writeSyntheticSections(const std::string& path, const SynthSectionsOptions& o,
                            SynthSectionsTotals* totals, std::string* error) {
    // Written whole into a temporary beside `path`, renamed when complete (util/output_file.h).
    std::string why;
    const std::unique_ptr<OutputFile> file = OutputFile::open(path, &why);
    StrataTraceWriter w;
    if (!file || !w.openOn(fileno(file->stream()), path, &why)) {
        if (error) *error = why;
        return false;
    }
    w.process(kPid, "sections_matmul");
    w.thread(kPid, kTid, "main");
    DeviceInfo dev;
    dev.id = 0;
    dev.name = "Synthetic H100 (132 SMs)";
    dev.smCount = int32_t(o.sms);
    dev.computeMajor = 9;
    dev.clockRateKHz = int64_t(o.clockHz / 1000);
    w.device(dev);
    w.metadata("synthetic", "strata-cli synth-sections: generated, not recorded on a GPU");
    std::mt19937_64 rng(o.seed);
    std::normal_distribution<double> loadCycles(420, 60), computeCycles(640, 25),
        storeCycles(210, 20);
    const uint32_t kernel = w.string("matmul"), launchName = w.string("cudaLaunchKernel");
    const uint16_t hotSm = uint16_t(std::min<uint32_t>(7, o.sms - 1));
    const double nsPerCycle = 1e9 / o.clockHz;
    uint64_t cpuNs = 1'000'000;     // trace time of the next launch call
    uint64_t deviceNs = 50'000'000; // the device's globaltimer at the next kernel start
    std::vector<uint8_t> records;
    for (uint32_t l = 0; l < o.launches; ++l) {
        records.clear();
        // Slots free at (cycle offset from the kernel's start); a block goes to the earliest.
        using Slot = std::pair<uint64_t, uint32_t>; // free at, slot id (sm * slots + k)
        std::priority_queue<Slot, std::vector<Slot>, std::greater<>> free;
        for (uint32_t s = 0; s < o.sms * o.slotsPerSm; ++s) free.push({0, s});
        std::vector<uint64_t> smClock(o.sms);
        for (uint32_t s = 0; s < o.sms; ++s) smClock[s] = 1'000'000'000ull * (s + 1); // per-SM
        uint64_t kernelCycles = 0;
        for (uint32_t b = 0; b < o.blocks; ++b) {
            auto [at, slot] = free.top();
            free.pop();
            const uint16_t sm = uint16_t(slot / o.slotsPerSm);
            uint64_t c = at;
            auto section = [&](uint16_t id, double cycles) {
                const uint64_t len = uint64_t(std::max(20.0, cycles));
                const uint64_t t0 = deviceNs + uint64_t(double(c) * nsPerCycle);
                const uint64_t t1 = deviceNs + uint64_t(double(c + len) * nsPerCycle);
                putRecord(records, smClock[sm] + c, smClock[sm] + c + len, t0, t1, b, id, sm,
                          l + 1);
                if (totals) totals->cyclesBySection[id] += len;
                c += len;
            };
            for (uint32_t t = 0; t < o.tiles; ++t) {
                section(0, loadCycles(rng) * (sm == hotSm ? 1.6 : 1.0));
                section(1, computeCycles(rng));
            }
            section(2, storeCycles(rng));
            free.push({c + 40, slot}); // the next block starts a little after
            kernelCycles = std::max(kernelCycles, c);
        }
        const uint64_t kernelNs = uint64_t(double(kernelCycles) * nsPerCycle) + 1000;
        const uint64_t callEnd = cpuNs + 4000;
        const int64_t correlation = 100 + int64_t(l);
        w.cpuSlice(kPid, kTid, TimeNs(cpuNs), TimeNs(callEnd), launchName, SliceKind::CudaRuntime,
                   correlation, 0);
        GpuActivity g;
        g.device = 0;
        g.stream = 7;
        g.grid = {int32_t(o.blocks), 1, 1};
        g.block = {256, 1, 1};
        const uint64_t kernelStart = cpuNs + 6000;
        w.gpuOp(TimeNs(kernelStart), TimeNs(kernelStart + kernelNs), kernel, SliceKind::Kernel, g,
                correlation);
        StrataTraceWriter::SectionsLaunch s;
        s.correlation = correlation;
        s.kernel = "matmul";
        s.names = {"load tile", "compute", "store"};
        s.device = 0;
        s.clockHz = o.clockHz;
        s.attempted = records.size() / kSectionRecordBytes;
        s.records = records.data();
        s.count = records.size() / kSectionRecordBytes;
        w.sections(s);
        if (totals) totals->records += s.count;
        cpuNs = kernelStart + kernelNs + 20'000;
        deviceNs += kernelNs + 30'000'000; // the device clock runs on its own
    }
    if (!w.close()) {
        if (error) *error = w.lastError();
        return false;
    }
    if (!file->commit(&why)) {
        if (error) *error = why;
        return false;
    }
    return true;
}

} // namespace strata
