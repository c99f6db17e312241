// The eight ranks of one PARAM DLRM training step (NCCL, 8 V100s; ../shared/traces/multirank/
// param-dlrm/) through the cross-rank analysis: their labels and kernel counts (the numbers
// tests/data/ranks/expected_ranks.py counts from the raw JSON), their collectives lined up under
// the traces' own wall clock, the same set with each rank's clock moved re-aligned by its
// collectives, a planted straggler named with its delay, shift-equivariance, and the set exported
// as one Perfetto JSON with the offsets applied. Skipped where the traces are absent.
#include "support/rank_set_fixture.h"
#include "support/test_main.h"

#include "analysis/json/cross_rank_json.h"
#include "analysis/ranks/clock_alignment.h"
#include "io/export/perfetto_json_export.h"
#include "io/set/trace_set_merge.h"
#include "model/build/trace_builder.h"
#include "model/names/track_names.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <set>

using namespace strata;
using namespace strata::test;

namespace {

constexpr int64_t kUs = 1000; // ns

} // namespace

class TstRanksDlrm : public QObject {
    Q_OBJECT
private slots:
    void labelsAndKernels();
    void collectivesLineUp();
    void rank7StartedLate();
    void knownOffsetsRealigned();
    void plantedStraggler();
    void shiftEquivariance();
    void exportedSetLinesUp();
    void sameDeviceKeptApart();
    void shiftedLikeMergedAgain();
    void globalInstantsFollowTheirRank();
};

void TstRanksDlrm::labelsAndKernels() {
    REQUIRE_DLRM_FILES(files);
    const std::vector<RankDigest> d = digestFiles(files);
    // expected_ranks.py: kernels (category "kernel") per rank, 8 NCCL kernels each on stream 84.
    const uint64_t kernels[8] = {245, 310, 246, 315, 251, 245, 246, 246};
    for (size_t r = 0; r < 8; ++r) {
        QCOMPARE(d[r].identity.rank, int64_t(r));
        QCOMPARE(int(d[r].identity.source), int(RankSource::DistributedInfo));
        QCOMPARE(d[r].identity.worldSize, int64_t(8));
        QCOMPARE(d[r].kernels, kernels[r]);
        QCOMPARE(d[r].collectives.size(), size_t(8));
        for (const CollectiveKernel& c : d[r].collectives) {
            QCOMPARE(c.stream, int64_t(84));
            QVERIFY(c.group.empty()); // PyTorch 2.0: no process group in the args
            QVERIFY(c.op == "SendRecv" || c.op == "AllReduce");
        }
        QVERIFY(d[r].clock.wallClock);
        QVERIFY(!d[r].clock.baseTimeNs);
        QCOMPARE(d[r].steps.size(), size_t(1));
        QCOMPARE(d[r].steps[0].name, std::string("ProfilerStep#10"));
    }
}

void TstRanksDlrm::collectivesLineUp() {
    REQUIRE_DLRM_FILES(files);
    const CrossRankReport r = crossRank(digestFiles(files), {});
    // The timestamps are wall clock (2023-09-07) and the ends of every matched instance agree
    // within 7 µs under it: auto keeps the time base, every offset 0.
    QCOMPARE(int(r.alignment.method), int(AlignMethod::Time));
    QCOMPARE(r.alignment.matched, size_t(8));
    QCOMPARE(*r.alignment.spread, 7 * kUs);
    for (const CrossRankRow& row : r.ranks) QCOMPARE(*row.offset, TimeNs(0));
    for (const CrossRankCollective& c : r.collectives) QCOMPARE(c.ranks.size(), size_t(8));
    QCOMPARE(r.ranks[*r.steps[0].straggler].rank, int64_t(7));
}

// How late each rank started ProfilerStep#10 (issue 44): the step's start (ts, µs) in each file,
// read off the JSON: rank 0 26674, 1 21205, 2 28092, 3 21900, 4 24049, 5 24195, 6 28080, 7 28718
// (+1694128201400000; the offsets are all 0). Rank 1 started first; rank 7 started 28718 - 21205
// = 7513 µs after it: the rank the others waited for, as tests/data/ranks/expected_late_starts.py
// computes from the raw files. The same in ranks --json's late_start_us.
void TstRanksDlrm::rank7StartedLate() {
    REQUIRE_DLRM_FILES(files);
    const CrossRankReport r = crossRank(digestFiles(files), {});
    const int64_t lateUs[8] = {5469, 0, 6887, 695, 2844, 2990, 6875, 7513};
    QCOMPARE(r.steps.size(), size_t(1));
    const CrossRankStep& s = r.steps[0];
    QCOMPARE(s.ranks.size(), size_t(8));
    for (size_t k = 0; k < 8; ++k) {
        QCOMPARE(s.ranks[k].rank, k);
        QVERIFY(s.ranks[k].lateStart.has_value());
        QCOMPARE(*s.ranks[k].lateStart, lateUs[k] * kUs);
    }
    QCOMPARE(*s.lastToStart, size_t(7));
    QCOMPARE(s.startedLate, 7513 * kUs);
    QCOMPARE(*s.straggler, size_t(7)); // the same rank the collectives' waits name
    const nlohmann::json j = crossRankToJson(r);
    const nlohmann::json& step = j["steps"][0];
    QCOMPARE(step["last_to_start_rank"].get<int64_t>(), int64_t(7));
    QCOMPARE(step["started_late_us"].get<double>(), 7513.0);
    for (size_t k = 0; k < 8; ++k)
        QCOMPARE(step["ranks"][k]["late_start_us"].get<double>(), double(lateUs[k]));
}

// Each rank's clock moved by a different amount: auto sees the collectives no longer line up
// under the time base and aligns by them, recovering every shift within their spread.
void TstRanksDlrm::knownOffsetsRealigned() {
    REQUIRE_DLRM_FILES(files);
    QTemporaryDir dir;
    const int64_t shiftUs[8] = {0, 1333, -2666, 3000, 4333, -5666, 6000, 73331};
    std::vector<std::string> shifted;
    for (size_t r = 0; r < 8; ++r) {
        shifted.push_back(dir.filePath(QString("rank%1.json").arg(r)).toStdString());
        writeShifted(files[r], shifted.back(), shiftUs[r]);
    }
    const CrossRankReport r = crossRank(digestFiles(shifted), {});
    const ClockAlignment& a = r.alignment;
    QCOMPARE(int(a.method), int(AlignMethod::Collectives));
    QVERIFY(a.reason.find("under the common time base their ends differ by up to") !=
            std::string::npos);
    QVERIFY(*a.spread <= 10 * kUs);
    for (size_t k = 0; k < 8; ++k) {
        const TimeNs error = *a.offsets[k] + shiftUs[k] * kUs;
        QVERIFY2(std::abs(error) <= *a.spread,
                 qPrintable(QString("rank %1 off by %2 ns").arg(k).arg(error)));
    }
}

// Rank 2 computes 20 ms longer before its first collective: from the start of its first NCCL
// kernel on, its trace is 20 ms later; every other rank waits those 20 ms inside its first NCCL
// kernel (which grows by them) and is 20 ms later after it. The arrivals at that kernel (µs
// after 1694128201400000, read off the files) were: rank 0 29795, 1 24306, 2 31422, 3 25808,
// 4 27058, 5 27261, 6 31425, 7 31930. Rank 2 now arrives at 51422, last; the others waited
// 51422 - a: 21627, 27116, 25614, 24364, 24161, 19997, 19492 µs, their median (the lower middle
// of seven) 24161 µs. At the later instances nothing changed: rank 7 was last at #1..#4 by
// 1017, 167, 124 and 127 µs (its total 1435 µs), so rank 2 is the step's straggler, 24161 µs.
void TstRanksDlrm::plantedStraggler() {
    REQUIRE_DLRM_FILES(files);
    QTemporaryDir dir;
    const int64_t delta = 20000;
    std::vector<std::string> planted;
    for (size_t r = 0; r < 8; ++r) {
        const auto [start, end] = firstCollective(files[r]);
        const Insertion at{r == 2 ? start : end - 1, delta};
        planted.push_back(dir.filePath(QString("rank%1.json").arg(r)).toStdString());
        writeShifted(files[r], planted.back(), 0, at);
    }
    const CrossRankReport r = crossRank(digestFiles(planted), {});
    QCOMPARE(int(r.alignment.method), int(AlignMethod::Time)); // the ends still line up
    const CrossRankCollective& first = r.collectives.front();
    QCOMPARE(r.ranks[first.lateRank].rank, int64_t(2));
    QCOMPARE(first.lateBy, 24161 * kUs);
    const CrossRankStep& s = r.steps.at(0);
    QVERIFY(s.byCollectives);
    QCOMPARE(r.ranks[*s.straggler].rank, int64_t(2));
    QCOMPARE(s.delay, 24161 * kUs);
    QCOMPARE(s.ranks[7].causedWait, (1017 + 167 + 124 + 127) * kUs);
}

void TstRanksDlrm::shiftEquivariance() {
    REQUIRE_DLRM_FILES(files);
    QTemporaryDir dir;
    std::vector<std::string> moved = files;
    moved[5] = dir.filePath("rank5.json").toStdString();
    writeShifted(files[5], moved[5], 1234);
    AlignRequest q;
    q.method = AlignMethod::Collectives;
    const CrossRankReport a = crossRank(digestFiles(files), q);
    const CrossRankReport b = crossRank(digestFiles(moved), q);
    for (size_t k = 0; k < 8; ++k)
        QCOMPARE(*b.alignment.offsets[k], *a.alignment.offsets[k] - (k == 5 ? 1234 * kUs : 0));
    QCOMPARE(*b.alignment.spread, *a.alignment.spread);
    for (size_t i = 0; i < a.collectives.size(); ++i)
        QCOMPARE(b.collectives[i].arrival, a.collectives[i].arrival);
}

// The shifted set exported as one file: one process per rank and device, and the NCCL kernels'
// ends line up there as the alignment says (within its spread).
void TstRanksDlrm::exportedSetLinesUp() {
    REQUIRE_DLRM_FILES(files);
    QTemporaryDir dir;
    const int64_t shiftUs[8] = {500, -1333, 2666, 0, 9000, -5666, 6000, 1};
    std::vector<std::string> shifted;
    std::vector<std::shared_ptr<const Trace>> traces;
    for (size_t r = 0; r < 8; ++r) {
        shifted.push_back(dir.filePath(QString("rank%1.json").arg(r)).toStdString());
        writeShifted(files[r], shifted.back(), shiftUs[r]);
        traces.push_back(loadTrace(shifted.back()).trace);
    }
    const CrossRankReport r = crossRank(digestFiles(shifted), {});
    std::vector<TracePart> parts;
    for (size_t k = 0; k < 8; ++k)
        parts.push_back(
            {traces[k].get(), "rank " + std::to_string(k), *r.alignment.offsets[k], shifted[k]});
    const std::string out = dir.filePath("set.json").toStdString();
    const PerfettoExportResult res = exportPerfettoJsonSet(parts, out);
    QVERIFY2(res.ok, res.error.c_str());
    const nlohmann::json j = readJson(out);
    QCOMPARE(j["otherData"]["strata_parts"].size(), size_t(8));
    std::map<int64_t, std::string> processes;
    std::map<int64_t, std::vector<double>> ends; // pid -> NCCL kernel ends (µs)
    for (const nlohmann::json& e : j["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "process_name")
            processes[e["pid"].get<int64_t>()] = e["args"]["name"].get<std::string>();
        if (e.value("cat", "") == "kernel" && e["name"].get<std::string>().find("nccl") == 0)
            ends[e["pid"].get<int64_t>()].push_back(e["ts"].get<double>() + e["dur"].get<double>());
    }
    QCOMPARE(ends.size(), size_t(8));
    for (size_t k = 0; k < 8; ++k) {
        const std::string cpu = "rank " + std::to_string(k) + ": python3";
        const std::string gpu = "rank " + std::to_string(k) + ": GPU " + std::to_string(k);
        int found = 0;
        for (const auto& [pid, name] : processes) found += name == cpu || name == gpu;
        QCOMPARE(found, 2);
    }
    const double spreadUs = double(*r.alignment.spread) / 1000.0;
    for (size_t i = 0; i < 8; ++i) {
        double lo = 1e300, hi = -1e300;
        for (auto& [pid, v] : ends) {
            std::sort(v.begin(), v.end());
            lo = std::min(lo, v[i]);
            hi = std::max(hi, v[i]);
        }
        QVERIFY2(hi - lo <= spreadUs + 1e-6,
                 qPrintable(QString("instance %1: %2 us").arg(i).arg(hi - lo)));
    }
}

// Two ranks on the same device number (rank 0's file twice): the set's export, and the merged
// trace the GUI shows (io/set/trace_set_merge.h), keep them apart: device 0 and device 1,
// named "rank 0: GPU 0" and "rank 1: GPU 0", each with rank 0's 245 kernels
// (expected_ranks.py), the second shifted by its offset; every kernel with the args the file gave
// it (keys through the merged string pool), launched by its own rank's runtime call, and each
// rank's flows between its own tracks.
void TstRanksDlrm::sameDeviceKeptApart() {
    REQUIRE_DLRM_FILES(files);
    const LoadResult a = loadTrace(files[0]);
    QVERIFY(a.ok());
    const TimeNs offset = 1500 * kUs;
    const LoadResult m = mergeTraceSet(
        {{a.trace.get(), "rank 0", 0, files[0]}, {a.trace.get(), "rank 1", offset, files[0]}},
        "2 ranks");
    QVERIFY2(m.ok(), m.error ? m.error->toString().c_str() : "");
    const Trace& t = *m.trace;
    std::map<int32_t, uint64_t> kernels;
    std::map<int32_t, TimeNs> first;
    for (const Track& tr : t.tracks()) {
        if (tr.kind != TrackKind::GpuStream) continue;
        for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
            if (tr.slices.kind[i] != SliceKind::Kernel) continue;
            ++kernels[tr.device];
            if (!first.count(tr.device) || tr.slices.start[i] < first[tr.device])
                first[tr.device] = tr.slices.start[i];
        }
    }
    QCOMPARE(t.sliceCount(), 2 * a.trace->sliceCount());
    QCOMPARE(t.flows().size(), 2 * a.trace->flows().size());
    std::map<TrackId, int32_t> deviceOfTrack; // a CPU track: the device its launches went to
    for (const Track& tr : t.tracks()) {
        if (tr.kind != TrackKind::GpuStream) continue;
        const TrackId id = TrackId(&tr - t.tracks().data());
        for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
            if (tr.slices.kind[i] != SliceKind::Kernel) continue;
            const SliceRef k{id, i};
            const SliceRef launch = t.launchOf(k);
            QVERIFY(launch.valid());
            const Track& cpu = t.track(launch.track);
            QVERIFY(!deviceOfTrack.count(launch.track) || deviceOfTrack[launch.track] == tr.device);
            deviceOfTrack[launch.track] = tr.device;
            QVERIFY(cpu.pid != tr.pid);
        }
    }
    std::set<TrackId> launchers; // the threads that launch kernels in the file
    for (TrackId id = 0; id < a.trace->tracks().size(); ++id)
        for (SliceIndex i = 0; i < a.trace->track(id).slices.size(); ++i)
            if (a.trace->track(id).slices.kind[i] == SliceKind::Kernel)
                launchers.insert(a.trace->launchOf({id, i}).track);
    QCOMPARE(deviceOfTrack.size(), 2 * launchers.size());
    // The args of rank 1's first kernel read as rank 0's first kernel's.
    const auto argsText = [](const Trace& tr, SliceRef r) {
        std::map<std::string, std::string> out;
        for (const Arg& arg : tr.args(tr.track(r.track).slices.args[r.index]))
            out[std::string(tr.str(arg.key))] = arg.value.toString();
        return out;
    };
    const auto firstKernel = [](const Trace& tr, int32_t device) {
        for (TrackId id = 0; id < tr.tracks().size(); ++id) {
            const Track& k = tr.track(id);
            if (k.kind != TrackKind::GpuStream || k.device != device) continue;
            for (SliceIndex i = 0; i < k.slices.size(); ++i)
                if (k.slices.kind[i] == SliceKind::Kernel) return SliceRef{id, i};
        }
        return SliceRef{};
    };
    const auto original = argsText(*a.trace, firstKernel(*a.trace, 0));
    QVERIFY(original.count("grid"));
    QCOMPARE(argsText(t, firstKernel(t, 1)), original);
    QCOMPARE(kernels.size(), size_t(2));
    QCOMPARE(kernels[0], uint64_t(245));
    QCOMPARE(kernels[1], uint64_t(245));
    QCOMPARE(first[1] - first[0], offset);
    // The device's model from the file's deviceProperties, as a single trace's group shows it.
    QCOMPARE(deviceGroupName(t, 0), std::string("rank 0: GPU 0 (Tesla V100-SXM2-32GB)"));
    QCOMPARE(deviceGroupName(t, 1), std::string("rank 1: GPU 0 (Tesla V100-SXM2-32GB)"));
}

// Another alignment without the parts (shiftMergedParts, what the window does once it let the
// ranks go): ranks 0 and 1 merged at offsets (0, 0) then moved by (+2 ms, -1.5 ms) equal the same
// ranks merged at (+2 ms, -1.5 ms): every track's starts, counters, instants and the bounds.
void TstRanksDlrm::shiftedLikeMergedAgain() {
    REQUIRE_DLRM_FILES(files);
    const LoadResult a = loadTrace(files[0]);
    const LoadResult b = loadTrace(files[1]);
    QVERIFY(a.ok() && b.ok());
    const TimeNs d0 = 2000 * kUs, d1 = -1500 * kUs;
    MergeLayout layout;
    const LoadResult m0 = mergeTraceSet(
        {{a.trace.get(), "rank 0", 0, files[0]}, {b.trace.get(), "rank 1", 0, files[1]}}, "2",
        &layout);
    const LoadResult m1 = mergeTraceSet(
        {{a.trace.get(), "rank 0", d0, files[0]}, {b.trace.get(), "rank 1", d1, files[1]}}, "2");
    QVERIFY(m0.ok() && m1.ok());
    QCOMPARE(layout.partOfTrack.size(), m0.trace->tracks().size());
    const auto shifted = shiftMergedParts(*m0.trace, layout, {d0, d1});
    const Trace& x = *shifted;
    const Trace& y = *m1.trace;
    QCOMPARE(x.tracks().size(), y.tracks().size());
    for (TrackId i = 0; i < x.tracks().size(); ++i) {
        QVERIFY(x.track(i).slices.start == y.track(i).slices.start);
        QVERIFY(x.track(i).counter.ts == y.track(i).counter.ts);
        QVERIFY(x.track(i).instants.ts == y.track(i).instants.ts);
        QVERIFY(x.track(i).instants.name == y.track(i).instants.name);
    }
    QCOMPARE(x.bounds().start, y.bounds().start);
    QCOMPARE(x.bounds().end, y.bounds().end);
    QCOMPARE(x.sliceCount(), y.sliceCount());
}

// The profiler's trace-wide markers (global instants) of every part land on the merged trace's
// one global track in time order, each moved with its part: two parts with markers at 10/30 us
// and 20 us, the second shifted by +15 us, give 10, 30, 35 us; moving the second part back by
// -15 us afterwards (shiftMergedParts) gives 10, 20, 30 us with the names following.
void TstRanksDlrm::globalInstantsFollowTheirRank() {
    const auto make = [](std::vector<std::pair<TimeNs, const char*>> marks) {
        TraceBuilder b;
        SliceInput s;
        s.start = 0;
        s.dur = 50 * kUs;
        s.name = b.intern("work");
        b.addSlice(b.threadTrack(1, 1), s);
        for (auto [t, name] : marks)
            b.addInstant(b.globalInstantTrack(), t, b.intern(name), 0, kNoArgs);
        return b.build();
    };
    const auto a = make({{10 * kUs, "a10"}, {30 * kUs, "a30"}});
    const auto b = make({{20 * kUs, "b20"}});
    MergeLayout layout;
    const LoadResult m = mergeTraceSet(
        {{a.get(), "rank 0", 0, "a"}, {b.get(), "rank 1", 15 * kUs, "b"}}, "2", &layout);
    QVERIFY(m.ok());
    const auto marks = [](const Trace& t) {
        std::vector<std::pair<TimeNs, std::string>> out;
        for (const Track& tr : t.tracks())
            if (tr.kind == TrackKind::GlobalInstants)
                for (size_t i = 0; i < tr.instants.size(); ++i)
                    out.emplace_back(tr.instants.ts[i], std::string(t.str(tr.instants.name[i])));
        return out;
    };
    using Marks = std::vector<std::pair<TimeNs, std::string>>;
    QCOMPARE(marks(*m.trace), (Marks{{10 * kUs, "a10"}, {30 * kUs, "a30"}, {35 * kUs, "b20"}}));
    QCOMPARE(layout.partOfGlobalInstant, (std::vector<uint32_t>{0, 0, 1}));
    const auto back = shiftMergedParts(*m.trace, layout, {0, -15 * kUs});
    QCOMPARE(marks(*back), (Marks{{10 * kUs, "a10"}, {20 * kUs, "b20"}, {30 * kUs, "a30"}}));
    QCOMPARE(layout.partOfGlobalInstant, (std::vector<uint32_t>{0, 1, 0}));
    QCOMPARE(back->bounds().start, TimeNs(0));
    QCOMPARE(back->bounds().end, TimeNs(50 * kUs));
}

STRATA_TEST_GUILESS_MAIN(TstRanksDlrm)
#include "tst_ranks_dlrm.moc"
