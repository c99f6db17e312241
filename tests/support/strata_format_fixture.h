#pragma once
// What the .strata format tests share: files written by hand through the writer, and lookups.
#include "io/strata/read/strata_trace_reader.h"
#include "io/strata/strata_crc32c.h"
#include "io/strata/strata_format.h"
#include "io/strata/strata_records.h"
#include "io/strata/strata_trace_writer.h"
#include "io/trace_loader.h"
#include "support/test_files.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>
#include <thread>

using namespace strata;

using strata::test::readAll;

using strata::test::writeAll;

inline uint32_t u32At(const std::string& b, size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

// All slices of a trace as (track kind, name, start, dur) for easy lookup.
struct Found {
    SliceRef ref;
    const Track* track = nullptr;
};

inline Found findSlice(const Trace& t, std::string_view name) {
    for (TrackId id = 0; id < t.tracks().size(); ++id) {
        const Track& tr = t.track(id);
        for (SliceIndex i = 0; i < tr.slices.size(); ++i)
            if (t.str(tr.slices.name[i]) == name) return {SliceRef{id, i}, &tr};
    }
    return {};
}

inline bool hasWarning(const Trace& t, const std::string& needle) {
    for (const auto& w : t.warnings())
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

inline std::string allWarnings(const Trace& t) {
    std::string s;
    for (const auto& w : t.warnings()) s += w + "\n";
    return s;
}

// Writes the files the tests read, in a temporary folder.
class StrataFormatFiles {
protected:
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

    // A file of 4 data chunks (3 CPU slices each) + the end-of-file chunk. `ends` gets the file
    // size after each chunk, `slicesBefore[k]` the slices in chunks < k.
    std::string writeFourChunks(std::vector<uint64_t>* ends) {
        const std::string p = path("four.strata");
        StrataTraceWriter w;
        std::string error;
        if (!w.open(p, &error)) return {};
        ends->push_back(w.bytesWritten());
        for (int c = 0; c < 4; ++c) {
            const uint32_t name = w.string("op" + std::to_string(c));
            for (int k = 0; k < 3; ++k) {
                const int64_t t = 1000 * (c * 3 + k);
                w.cpuSlice(1, 2, t, t + 100, name, SliceKind::CpuOp, -1, 0);
            }
            w.flush();
            ends->push_back(w.bytesWritten());
        }
        w.close();
        ends->push_back(w.bytesWritten());
        return p;
    }

    // One of every record type (values checked in roundTripEveryRecordType).
    bool writeEveryRecordType(const std::string& p) {
        StrataTraceWriter w;
        std::string error;
        if (!w.open(p, &error)) return false;
        w.metadata("command_line", "python train.py --epochs 1");
        w.process(77, "train.py");
        w.thread(77, 78, "main");
        DeviceInfo d;
        d.id = 0;
        d.name = "NVIDIA H100";
        d.smCount = 132;
        d.totalMemoryBytes = 85899345920;
        d.computeMajor = 9;
        d.computeMinor = 0;
        d.clockRateKHz = 1980000;
        d.memoryClockRateKHz = 2619000;
        w.device(d);
        const uint32_t launch = w.string("cudaLaunchKernel");
        const uint32_t gemm = w.string("gemm");
        const uint32_t step = w.string("step");
        w.cpuBegin(77, 78, 900, step, SliceKind::UserAnnotation);
        w.cpuSlice(77, 78, 1000, 1600, launch, SliceKind::CudaRuntime, 9, 2);
        w.cpuEnd(77, 78, 1700);
        w.flush();
        GpuActivity g;
        g.device = 0;
        g.stream = 7;
        g.context = 1;
        g.grid = {4, 2, 1};
        g.block = {128, 1, 1};
        g.registersPerThread = 64;
        g.staticSharedBytes = 1024;
        g.dynamicSharedBytes = 2048;
        g.bytes = 12345;
        g.copyKind = 1;
        g.srcMemory = 2;
        g.dstMemory = 3;
        g.graphId = 5;
        g.graphNodeId = 6;
        w.gpuOp(2000, 5000, gemm, SliceKind::Kernel, g, 9);
        w.asyncSlice(77, 5, 3000, 4000, w.string("range"));
        w.instant(77, 78, 1200, w.string("mark"));
        w.nameColor(step, 0x8076b900);
        w.counter(77, w.string("mem"), 1500, 2.5);
        w.warning("CUPTI dropped 3 records");
        return w.close();
    }
};
