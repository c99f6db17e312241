// The build-time steps behind TraceBuilder::build() that run on both cores or sort without
// comparisons: radixSortStable, the id indices (dense and sparse ids), parallel nesting of many
// tracks with extra lanes, shared GPU activity values, PodVector::release_prefix. Expected values
// are worked out by hand.
#include "model/build/trace_builder.h"
#include "support/test_main.h"
#include "util/pod_vector.h"
#include "util/radix_sort.h"

#include <QtTest>

#include <functional>

using namespace strata;

namespace {

struct Item {
    int64_t key;
    int order; // input position, to check stability
};

SliceInput slice(TraceBuilder& b, const char* name, TimeNs start, TimeNs dur, int64_t corr = -1,
                 int64_t external = -1) {
    SliceInput s;
    s.start = start;
    s.dur = dur;
    s.name = b.intern(name);
    s.correlation = corr;
    s.externalId = external;
    return s;
}

} // namespace

class TestBuildSteps : public QObject {
    Q_OBJECT
private slots:
    void radixSortIsStableOnSignedKeys() {
        // Keys span negative and positive values; equal keys keep their input order.
        std::vector<Item> v{{5, 0}, {-3, 1}, {5, 2}, {0, 3}, {-3, 4}, {4096, 5}, {0, 6}};
        QVERIFY(radixSortStable(v.data(), v.size(), [](const Item& i) { return i.key; }));
        const std::vector<std::pair<int64_t, int>> want{{-3, 1}, {-3, 4}, {0, 3},   {0, 6},
                                                        {5, 0},  {5, 2},  {4096, 5}};
        QCOMPARE(v.size(), want.size());
        for (size_t i = 0; i < v.size(); ++i) {
            QCOMPARE(v[i].key, want[i].first);
            QCOMPARE(v[i].order, want[i].second);
        }
    }

    void radixSortManyPassesAndRefusal() {
        // Keys 3000009*i mod 2^32 spread over 32 bits: three 11-bit passes.
        std::vector<Item> v;
        for (int i = 0; i < 10000; ++i)
            v.push_back({int64_t((3ll * i * 1000003) % 4294967296ll), i});
        std::vector<Item> want = v;
        std::stable_sort(want.begin(), want.end(),
                         [](const Item& a, const Item& b) { return a.key < b.key; });
        QVERIFY(radixSortStable(v.data(), v.size(), [](const Item& i) { return i.key; }));
        for (size_t i = 0; i < v.size(); ++i) {
            QCOMPARE(v[i].key, want[i].key);
            QCOMPARE(v[i].order, want[i].order);
        }
        // A span of 2^62 needs 6 passes: refused with maxPasses 4, the input untouched.
        std::vector<Item> wide{{int64_t(1) << 62, 0}, {0, 1}};
        QVERIFY(!radixSortStable(wide.data(), wide.size(), [](const Item& i) { return i.key; }));
        QCOMPARE(wide[0].order, 0);
    }

    void radixSortSplitsLargeInputs() {
        // 300,000 16-byte values (past the 1 MiB above which the top digit splits the input
        // first), in three shapes: 50 clusters 10^7 apart as a scaled trace's ids; nearly all
        // keys in one top part (0..999, every 97th at 2^33); signed keys over 40 bits. The
        // expected order is std::stable_sort's.
        const auto shapes = std::vector<std::function<int64_t(int64_t)>>{
            [](int64_t i) { return (i % 50) * 10'000'000 + (i * 7919) % 100'000; },
            [](int64_t i) { return i % 97 == 0 ? int64_t(1) << 33 : i % 1000; },
            [](int64_t i) { return (i * 2'654'435'761) % (int64_t(1) << 40) - (int64_t(1) << 39); },
        };
        for (const auto& keyOf : shapes) {
            std::vector<Item> v;
            for (int i = 0; i < 300'000; ++i) v.push_back({keyOf(i), i});
            std::vector<Item> want = v;
            std::stable_sort(want.begin(), want.end(),
                             [](const Item& a, const Item& b) { return a.key < b.key; });
            QVERIFY(radixSortStable(v.data(), v.size(), [](const Item& i) { return i.key; }));
            for (size_t i = 0; i < v.size(); ++i) {
                QCOMPARE(v[i].key, want[i].key);
                QCOMPARE(v[i].order, want[i].order);
            }
        }
    }

    void radixSortLeavesOrderedInputAsIs() {
        // Keys already in order (equal neighbours included) over three digits: accepted, and
        // every value stays where it was.
        std::vector<Item> v;
        for (int i = 0; i < 200'000; ++i) v.push_back({int64_t(i / 3) * 1'000, i});
        QVERIFY(radixSortStable(v.data(), v.size(), [](const Item& i) { return i.key; }));
        for (int i = 0; i < 200'000; ++i) QCOMPARE(v[size_t(i)].order, i);
    }

    void sparseIndexOnManySlicesMatchesBruteForce() {
        // 60,000 launches on a thread and as many kernels on a stream, correlation ids
        // (i % 40) * 10^9 + i: far sparser than their count, so every entry is listed. The
        // stream's kernels run in reverse id order within each cluster, and every 9th id has a
        // second kernel on another stream: the list must hold each id's slices in ref order.
        TraceBuilder b;
        const TrackId cpu = b.threadTrack(1, 1);
        const TrackId s7 = b.gpuStreamTrack(0, 7, 0, 7);
        const TrackId s8 = b.gpuStreamTrack(0, 8, 0, 8);
        constexpr int64_t kN = 60'000;
        const auto idOf = [](int64_t i) { return (i % 40) * 1'000'000'000 + i; };
        for (int64_t i = 0; i < kN; ++i) {
            b.addSlice(cpu, slice(b, "launch", i * 10, 5, idOf(i)));
            b.addSlice(s7, slice(b, "k", i * 10 + 3, 5, idOf(kN - 1 - i)));
            if (i % 9 == 0) b.addSlice(s8, slice(b, "k", i * 10 + 4, 5, idOf(i)));
        }
        auto t = b.build();
        std::vector<std::pair<int64_t, SliceRef>> want;
        for (TrackId tr = 0; tr < t->tracks().size(); ++tr)
            for (SliceIndex k = 0; k < t->track(tr).slices.size(); ++k)
                if (const SliceExtra* e = t->extra(SliceRef{tr, k}); e && e->correlation >= 0)
                    want.push_back({e->correlation, SliceRef{tr, k}});
        QCOMPARE(want.size(), size_t(2 * kN + (kN + 8) / 9));
        std::sort(want.begin(), want.end());
        size_t at = 0;
        for (size_t j = 0; j < want.size(); j = at) {
            const int64_t id = want[j].first;
            const auto got = t->byCorrelation(id);
            for (const SliceRef& r : got) {
                QVERIFY(at < want.size());
                QCOMPARE(want[at].first, id);
                QCOMPARE(r, want[at].second);
                ++at;
            }
            QVERIFY(at > j);
        }
        QCOMPARE(at, want.size());
        // Id of i = 18: the launch (thread, index 18), the kernel on stream 7 at index kN-1-18,
        // the one on stream 8 at index 2 (i = 0, 9, 18).
        const auto got = t->byCorrelation(idOf(18));
        QCOMPARE(got.size(), size_t(3));
        QCOMPARE(got[0], (SliceRef{cpu, 18}));
        QCOMPARE(got[1], (SliceRef{s7, SliceIndex(kN - 1 - 18)}));
        QCOMPARE(got[2], (SliceRef{s8, 2}));
        QCOMPARE(t->byCorrelation(idOf(18) + 1).size(), size_t(0));
    }

    void manyFlowsBindOnBothCores() {
        // 30,000 ac2g flows (past the 20,000 pairs bound on both cores), ids 1..30,000 whose
        // times jump about: flow k leaves launch j = (k * 7919) % 30,000 (thread slice
        // [100j, 100j+50), s at 100j+10) and ends at kernel j (stream slice [100j+15, 100j+40),
        // f with "bp":"e" at 100j+20). Every 7th flow's f is at 100j+45 instead, inside no
        // kernel: skipped. The flows keep id order, and flowsFrom/To find them by either end.
        TraceBuilder b;
        const TrackId cpu = b.threadTrack(1, 1);
        const TrackId gpu = b.gpuStreamTrack(0, 7, 0, 7);
        constexpr int64_t kN = 30'000;
        for (int64_t j = 0; j < kN; ++j) {
            b.addSlice(cpu, slice(b, "launch", 100 * j, 50));
            b.addSlice(gpu, slice(b, "k", 100 * j + 15, 25));
        }
        const StringId ac2g = b.intern("ac2g");
        const TrackId gpuThread = b.threadTrack(0, 7);
        for (int64_t k = 1; k <= kN; ++k) {
            const int64_t j = (k * 7919) % kN;
            b.addFlowV1(TraceBuilder::FlowPhase::Start, cpu, 100 * j + 10, uint64_t(k), ac2g, ac2g,
                        false);
            b.addFlowV1(TraceBuilder::FlowPhase::End, gpuThread, 100 * j + (k % 7 ? 20 : 45),
                        uint64_t(k), ac2g, ac2g, true);
        }
        auto t = b.build();
        QCOMPARE(t->flows().size(), size_t(kN - kN / 7));
        size_t f = 0;
        for (int64_t k = 1; k <= kN; ++k) {
            if (k % 7 == 0) continue;
            const SliceIndex j = SliceIndex((k * 7919) % kN);
            const Flow& flow = t->flows()[f];
            QCOMPARE(flow.id, uint64_t(k));
            QCOMPARE(flow.from, (SliceRef{cpu, j}));
            QCOMPARE(flow.to, (SliceRef{gpu, j}));
            QCOMPARE(t->flowsFrom(SliceRef{cpu, j}).size(), size_t(1));
            QCOMPARE(t->flowsFrom(SliceRef{cpu, j})[0], uint32_t(f));
            QCOMPARE(t->flowsTo(SliceRef{gpu, j})[0], uint32_t(f));
            ++f;
        }
        bool warned = false;
        for (const auto& w : t->warnings())
            warned |= w == std::to_string(kN / 7) +
                               " flows were skipped: no slice encloses their start or end";
        QVERIFY(warned);
    }

    void denseCorrelationIndex() {
        // Launches on a thread, kernels on a stream; ids 1..3 each on both.
        TraceBuilder b;
        const TrackId cpu = b.threadTrack(1, 1);
        const TrackId gpu = b.gpuStreamTrack(0, 7, 0, 7);
        b.addSlice(cpu, slice(b, "launch1", 0, 10, 1));
        b.addSlice(cpu, slice(b, "launch2", 20, 10, 2));
        b.addSlice(cpu, slice(b, "launch3", 40, 10, 3));
        b.addSlice(gpu, slice(b, "k3", 100, 5, 3));
        b.addSlice(gpu, slice(b, "k1", 60, 5, 1));
        b.addSlice(gpu, slice(b, "k2", 80, 5, 2));
        auto t = b.build();
        for (int64_t id = 1; id <= 3; ++id) {
            const auto entries = t->byCorrelation(id);
            QCOMPARE(entries.size(), size_t(2));
            // (track, index) order: the thread (track 0) first, then the stream, where kernels
            // are in time order k1, k2, k3 = index id - 1.
            QCOMPARE(entries[0], (SliceRef{0, SliceIndex(id - 1)}));
            QCOMPARE(entries[1], (SliceRef{1, SliceIndex(id - 1)}));
        }
        QCOMPARE(t->byCorrelation(4).size(), size_t(0));
    }

    void denseIndexOnBothCoresMatchesBruteForce() {
        // Ids 1..40,000 over several 16 Ki-id windows, about 100,000 slices (both cores build).
        // Launches rise on a thread (none where id % 5 == 0); kernels on stream 7 rise too; one
        // more stream has a kernel where i % 3 != 0: with `falling`, stream 6, a track before
        // stream 7's, whose ids go back in time (so one walk cannot take only half of that
        // track, and its slices arrive after stream 7's of the same id), else stream 8, after
        // 7, rising. So an id has one, two (kept in place) or three slices (listed).
        for (bool falling : {false, true}) {
            TraceBuilder b;
            const TrackId cpu = b.threadTrack(1, 1);
            const TrackId s6 = falling ? b.gpuStreamTrack(0, 6, 0, 6) : 0;
            const TrackId s7 = b.gpuStreamTrack(0, 7, 0, 7);
            const TrackId s8 = falling ? s6 : b.gpuStreamTrack(0, 8, 0, 8);
            constexpr int64_t kN = 40'000;
            auto s8Id = [&](int64_t i) { return falling ? kN + 1 - i : i; };
            for (int64_t i = 1; i <= kN; ++i) {
                if (i % 5 != 0) b.addSlice(cpu, slice(b, "launch", i * 10, 5, i));
                b.addSlice(s7, slice(b, "k", i * 10 + 3, 5, i));
                if (i % 3 != 0) b.addSlice(s8, slice(b, "k", i * 10 + 4, 5, s8Id(i)));
            }
            auto t = b.build();
            // Every slice's (id, ref), gathered slice by slice and ordered by (id, ref).
            std::vector<std::pair<int64_t, SliceRef>> want;
            for (TrackId tr = 0; tr < t->tracks().size(); ++tr)
                for (SliceIndex k = 0; k < t->track(tr).slices.size(); ++k)
                    if (const SliceExtra* e = t->extra(SliceRef{tr, k}); e && e->correlation >= 0)
                        want.push_back({e->correlation, SliceRef{tr, k}});
            QCOMPARE(want.size(), size_t(32'000 + 40'000 + 26'667));
            std::sort(want.begin(), want.end());
            size_t at = 0;
            for (int64_t id = 1; id <= kN; ++id) {
                const int64_t i8 =
                    s8Id(id); // the i whose kernel on the other stream carries this id
                const size_t n = (id % 5 != 0) + 1 + (i8 % 3 != 0);
                const auto got = t->byCorrelation(id);
                QCOMPARE(got.size(), n);
                for (const SliceRef& r : got) {
                    QCOMPARE(want[at].first, id);
                    QCOMPARE(r, want[at].second);
                    ++at;
                }
            }
            // The falling stream's id 1 is its last slice; the others' id 1 their first.
            const auto one = t->byCorrelation(1);
            QCOMPARE(one.size(), size_t(3));
            QCOMPARE(one[falling ? 1 : 2], (SliceRef{s8, SliceIndex(falling ? 26'666 : 0)}));
            QCOMPARE(one[0], (SliceRef{cpu, 0}));
            const auto ten = t->byCorrelation(10); // no launch; stream 6 before 7 in ref order
            QCOMPARE(ten.size(), size_t(2));
            QCOMPARE(ten[falling ? 1 : 0], (SliceRef{s7, 9}));
            const auto five = t->byCorrelation(5); // no launch
            QCOMPARE(five.size(), falling ? size_t(1) : size_t(2));
            QCOMPARE(five[0], (SliceRef{s7, 4}));
        }
    }

    void denseExternalIdsKeepFourInPlace() {
        // External ids 1..100, each on a CPU op (thread 1), a runtime call (thread 2) and a
        // kernel (stream 7): three slices, kept in place (up to four are). Id 50 has three more
        // kernels: six slices, listed apart. Both come back in ref order.
        TraceBuilder b;
        const TrackId op = b.threadTrack(1, 1);
        const TrackId rt = b.threadTrack(1, 2);
        const TrackId k = b.gpuStreamTrack(0, 7, 0, 7);
        for (int64_t i = 1; i <= 100; ++i) {
            b.addSlice(k, slice(b, "kernel", i * 100 + 20, 5, -1, i));
            b.addSlice(rt, slice(b, "launch", i * 100 + 10, 5, -1, i));
            b.addSlice(op, slice(b, "op", i * 100, 50, -1, i));
        }
        for (int64_t j = 1; j <= 3; ++j)
            b.addSlice(k, slice(b, "kernel", 50 * 100 + 20 + j * 6, 5, -1, 50));
        auto t = b.build();
        const auto seven = t->byExternalId(7);
        QCOMPARE(seven.size(), size_t(3));
        QCOMPARE(seven[0], (SliceRef{op, 6}));
        QCOMPARE(seven[1], (SliceRef{rt, 6}));
        QCOMPARE(seven[2], (SliceRef{k, 6}));
        const auto fifty = t->byExternalId(50);
        QCOMPARE(fifty.size(), size_t(6));
        QCOMPARE(fifty[0], (SliceRef{op, 49}));
        QCOMPARE(fifty[1], (SliceRef{rt, 49}));
        for (SliceIndex j = 0; j < 4; ++j) QCOMPARE(fifty[2 + j], (SliceRef{k, 49 + j}));
        QCOMPARE(t->byExternalId(51)[2], (SliceRef{k, 53})); // after id 50's four kernels
        QCOMPARE(t->byExternalId(101).size(), size_t(0));
        QCOMPARE(t->byExternalId(0).size(), size_t(0));
    }

    void sparseExternalIds() {
        // External ids 10^15, 7 and 10^15 again: the span is far over 4x the count, so the
        // sorted path builds the index.
        TraceBuilder b;
        const TrackId cpu = b.threadTrack(1, 1);
        const TrackId other = b.threadTrack(1, 2);
        b.addSlice(cpu, slice(b, "a", 0, 10, -1, 1'000'000'000'000'000));
        b.addSlice(cpu, slice(b, "b", 20, 10, -1, 7));
        b.addSlice(other, slice(b, "c", 5, 10, -1, 1'000'000'000'000'000));
        auto t = b.build();
        const auto big = t->byExternalId(1'000'000'000'000'000);
        QCOMPARE(big.size(), size_t(2));
        QCOMPARE(big[0], (SliceRef{0, 0}));
        QCOMPARE(big[1], (SliceRef{1, 0}));
        QCOMPARE(t->byExternalId(7).size(), size_t(1));
        QCOMPARE(t->byExternalId(7)[0], (SliceRef{0, 1}));
        QCOMPARE(t->byCorrelation(7).size(), size_t(0));
    }

    void manyTracksNestOnBothCores() {
        // 40 threads x 2000 slices (80000 > the 50000 that engages the second thread). On each
        // thread, slice i starts at 100*i: even i last 150 (so the next, odd, slice starts inside
        // it and ends at 100*(i+1)+30 <= 100*i+150 -> nested), odd i last 30. Every 10th odd
        // slice (i = 1, 21, 41, ...) lasts 120 instead: it ends at 100*i+120, past its even
        // predecessor's end 100*i+50, so it overlaps without nesting and spills to lane 1.
        TraceBuilder b;
        constexpr int kThreads = 40, kSlices = 2000;
        for (int th = 0; th < kThreads; ++th) {
            const TrackId t = b.threadTrack(1, th);
            for (int i = 0; i < kSlices; ++i) {
                const bool odd = i % 2;
                const bool spill = odd && (i - 1) % 20 == 0;
                b.addSlice(t, slice(b, "s", 100 * i, odd ? (spill ? 120 : 30) : 150));
            }
        }
        auto t = b.build();
        // Per thread: 100 spilled (i = 1, 21, 41, ...: 2000 / 20), 1900 on the base lane.
        QCOMPARE(t->tracks().size(), size_t(2 * kThreads));
        QCOMPARE(t->sliceCount(), size_t(kThreads * kSlices));
        for (int th = 0; th < kThreads; ++th) {
            const Track& base = t->track(TrackId(th));
            QCOMPARE(base.tid, int64_t(th));
            QCOMPARE(base.lane, 0u);
            QCOMPARE(base.slices.size(), size_t(1900));
            QCOMPARE(base.maxDepth, uint16_t(2));
            // Slice 0 (start 0, 150) has no child (slice 1 spilled): self 150. Slice 2 (start
            // 200) holds slice 3 (start 300, dur 30): self 120; column index 3 = slice 3.
            QCOMPARE(base.slices.selfTime(0), TimeNs(150));
            QCOMPARE(base.slices.selfTime(1), TimeNs(120));
            QCOMPARE(base.slices.parent[2], SliceIndex(1));
            const Track& lane = t->track(TrackId(kThreads + th));
            QCOMPARE(lane.tid, int64_t(th));
            QCOMPARE(lane.lane, 1u);
            QCOMPARE(lane.slices.size(), size_t(100));
            QCOMPARE(lane.slices.start[1], TimeNs(2100));
        }
        bool warned = false;
        for (const auto& w : t->warnings()) warned |= w.rfind("4000 slices overlapped", 0) == 0;
        QVERIFY(warned);
    }

    void equalGpuActivitiesStoredOnce() {
        // Three kernels: k1 and k3 with the same launch configuration, k2 with another grid.
        TraceBuilder b;
        const TrackId st = b.gpuStreamTrack(0, 7, 0, 7);
        GpuActivity a;
        a.device = 0;
        a.stream = 7;
        a.grid = {128, 1, 1};
        a.block = {256, 1, 1};
        a.registersPerThread = 32;
        GpuActivity other = a;
        other.grid = {64, 1, 1};
        const GpuActivity* configs[] = {&a, &other, &a};
        for (int i = 0; i < 3; ++i) {
            SliceInput in = slice(b, "k", 100 * i, 10, i + 1);
            in.gpu = configs[i];
            b.addSlice(st, in);
        }
        auto t = b.build();
        QCOMPARE(t->gpuActivities().size(), size_t(2));
        QCOMPARE(t->gpu(SliceRef{0, 0})->grid[0], 128);
        QCOMPARE(t->gpu(SliceRef{0, 1})->grid[0], 64);
        QCOMPARE(t->gpu(SliceRef{0, 2})->grid[0], 128);
        QCOMPARE(t->gpu(SliceRef{0, 0}), t->gpu(SliceRef{0, 2}));
        QCOMPARE(t->extra(SliceRef{0, 2})->correlation, int64_t(3));
    }

    void releasePrefixKeepsTheRest() {
        // 3 MB of values; the first 2 MB given back; everything after them still reads right.
        PodVector<int64_t> v;
        constexpr size_t n = 3 << 17, released = 2 << 17;
        for (size_t i = 0; i < n; ++i) v.push_back(int64_t(i) * 3);
        v.release_prefix(released);
        QCOMPARE(v.size(), n);
        for (size_t i = released; i < n; ++i) QCOMPARE(v[i], int64_t(i) * 3);
    }
};

STRATA_TEST_APPLESS_MAIN(TestBuildSteps)
#include "tst_build_steps.moc"
