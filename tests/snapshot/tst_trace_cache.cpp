// The trace cache (issue 33: io/cache/trace_cache.h) and the first picture while loading
// (io/load_preview.h): an entry written, found again with the model equal and the original's
// format, missed once the file changes, refused when it names another file, removed when
// damaged, evicted least recently used first, cleared; loadTraceCached as strata-cli --cache
// uses it; the preview's bins computed by hand, and the JSON reader's previews adding up to the
// trace's own GPU busy time.
#include "io/cache/trace_cache.h"
#include "io/load_preview.h"
#include "io/load_preview_trace.h"
#include "io/trace_loader.h"
#include "model/trace.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

using namespace strata;
namespace fs = std::filesystem;

namespace {

const std::string kHta = STRATA_SHARED_TRACES "/hta__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";
const std::string kDlrm =
    STRATA_SHARED_TRACES "/param-dlrm__worker0_step_12.1694128201545.pt.trace.json";

void setMtime(const std::string& path, int secondsAgo) {
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(secondsAgo));
}

} // namespace

class TestTraceCache : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    TraceCacheSettings settings(const char* sub) {
        TraceCacheSettings s;
        s.directory = dir_.filePath(sub).toStdString();
        s.minFileBytes = 1; // every trace, for the tests
        return s;
    }
    std::string copyOf(const std::string& from, const char* name) {
        const std::string to = dir_.filePath(name).toStdString();
        fs::copy_file(from, to, fs::copy_options::overwrite_existing);
        return to;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void storeThenOpen() {
        const TraceCache cache(settings("c1"));
        const std::string trace = copyOf(kDlrm, "dlrm.json");
        QVERIFY(cache.wants(trace));
        QVERIFY(!cache.open(trace).ok()); // nothing yet
        const LoadResult first = loadTraceCached(trace, cache);
        QVERIFY(first.ok());
        QVERIFY(first.cacheFile.empty());
        QCOMPARE(cache.entryCount(), size_t(1));
        const LoadResult second = loadTraceCached(trace, cache);
        QVERIFY(second.ok());
        QVERIFY(!second.cacheFile.empty());
        QCOMPARE(second.format, first.format); // the original's reader, not "strata"
        QCOMPARE(second.trace->sliceCount(), first.trace->sliceCount());
        QCOMPARE(second.trace->flows().size(), first.trace->flows().size());
        QVERIFY(second.trace->bounds() == first.trace->bounds());
        // A .strata file is not cached (it loads as fast already); small files neither.
        QVERIFY(!cache.wants(second.cacheFile));
        TraceCacheSettings big = settings("c1");
        big.minFileBytes = uint64_t(1) << 40;
        QVERIFY(!TraceCache(big).wants(trace));
        LoadOptions sections;
        sections.clockHz = 1.5e9; // a timer array read with a clock: not cached
        QVERIFY(!cache.wants(trace, sections));
        QVERIFY(TraceCache::keeps("chrome-json") && TraceCache::keeps("chrome-json-gzip"));
        QVERIFY(!TraceCache::keeps("strata") && !TraceCache::keeps("npy-timer-array"));
        big = settings("c1");
        big.enabled = false;
        QVERIFY(!TraceCache(big).wants(trace));
        QVERIFY(!TraceCache(big).open(trace).ok());
    }

    void changedFileMisses() {
        const TraceCache cache(settings("c2"));
        const std::string trace = copyOf(kDlrm, "changing.json");
        QVERIFY(loadTraceCached(trace, cache).ok());
        QVERIFY(cache.open(trace).ok());
        setMtime(trace, 100); // touched: another modification time
        QVERIFY(!cache.open(trace).ok());
        // Written again under the new stamp; both entries are there until evicted.
        QVERIFY(loadTraceCached(trace, cache).ok());
        QVERIFY(cache.open(trace).ok());
        QCOMPARE(cache.entryCount(), size_t(2));
    }

    void damagedEntryIsRemoved() {
        const TraceCache cache(settings("c3"));
        const std::string trace = copyOf(kDlrm, "damaged.json");
        QVERIFY(loadTraceCached(trace, cache).ok());
        const std::string entry = cache.entryPath(*TraceCache::stamp(trace));
        QVERIFY(fs::exists(entry));
        fs::resize_file(entry, fs::file_size(entry) - 50);
        QVERIFY(!cache.open(trace).ok());
        QVERIFY(!fs::exists(entry));
        const LoadResult again = loadTraceCached(trace, cache); // falls back and writes anew
        QVERIFY(again.ok() && again.cacheFile.empty());
        QVERIFY(fs::exists(entry));
    }

    void otherFilesEntryIsNotUsed() {
        const TraceCache cache(settings("c4"));
        const std::string a = copyOf(kDlrm, "a.json"), b = copyOf(kHta, "b.json.gz");
        QVERIFY(loadTraceCached(a, cache).ok());
        // b's entry name holding a's model (a hash collision, or a file moved in by hand).
        fs::copy_file(cache.entryPath(*TraceCache::stamp(a)),
                      cache.entryPath(*TraceCache::stamp(b)));
        QVERIFY(!cache.open(b).ok());
    }

    void leastRecentlyUsedGoesFirst() {
        TraceCacheSettings s = settings("c5");
        const TraceCache unbounded(s);
        const std::string a = copyOf(kDlrm, "lru_a.json"), b = copyOf(kHta, "lru_b.json.gz"),
                          c = copyOf(STRATA_SHARED_TRACES "/catapult__x_event_trace.json",
                                     "lru_c.json");
        for (const std::string& f : {a, b, c}) QVERIFY(loadTraceCached(f, unbounded).ok());
        const std::string ea = unbounded.entryPath(*TraceCache::stamp(a)),
                          eb = unbounded.entryPath(*TraceCache::stamp(b)),
                          ec = unbounded.entryPath(*TraceCache::stamp(c));
        setMtime(ea, 300), setMtime(eb, 200), setMtime(ec, 100);
        QVERIFY(unbounded.open(a).ok()); // a used now: the most recent
        // Room for a and c but not b as well: b, the least recently used, goes.
        s.maxBytes = fs::file_size(ea) + fs::file_size(ec);
        const TraceCache bounded(s);
        QCOMPARE(bounded.evict(), uint64_t(fs::file_size(eb)));
        QVERIFY(fs::exists(ea) && !fs::exists(eb) && fs::exists(ec));
        QCOMPARE(bounded.totalBytes(), s.maxBytes);
        QCOMPARE(bounded.clear(), std::string());
        QCOMPARE(bounded.entryCount(), size_t(0));
    }

    void defaultFolderFollowsXdg() {
        qputenv("XDG_CACHE_HOME", "/x/cache");
        QCOMPARE(TraceCacheSettings::defaultDirectory(), std::string("/x/cache/strata"));
        qputenv("XDG_CACHE_HOME", "relative"); // not absolute: ignored, as the spec says
        qputenv("HOME", "/home/u");
        QCOMPARE(TraceCacheSettings::defaultDirectory(), std::string("/home/u/.cache/strata"));
    }

    // Bins by hand: width doubles to cover, busy shares capped at 1 on CPU lanes.
    void previewBins() {
        LoadPreviewCollector c;
        c.gpu(0, 7, 1000, 100);  // first event: width (100 / 2048) + 1 = 1 ns, start 1000
        c.gpu(0, 7, 1100, 1000); // ends at 2100: the axis must reach 2100 -> width 1 covers
                                 // [1000, 3048): no widening yet
        LoadPreview p = c.snapshot(0.5);
        QCOMPARE(p.binWidth, TimeNs(1));
        QCOMPARE(p.start, TimeNs(1000));
        QCOMPARE(p.first, TimeNs(1000));
        QCOMPARE(p.last, TimeNs(2100));
        QCOMPARE(p.lanes.size(), size_t(1));
        double busy = 0;
        for (float b : p.lanes[0].busy) busy += b;
        QCOMPARE(busy, 1100.0);
        c.gpu(0, 7, 5000, 2000); // ends at 7000: widened twice (1 -> 2 -> 4 ns, [1000, 9192))
        c.cpu(10, 11, 1000, 4096);
        c.cpu(10, 11, 1000, 8); // nested in the first: a share over 1 is capped
        p = c.snapshot(1.0);
        QCOMPARE(p.binWidth, TimeNs(4));
        QCOMPARE(p.start, TimeNs(1000));
        QCOMPARE(p.lanes.size(), size_t(2));
        QVERIFY(p.lanes[0].gpu && !p.lanes[1].gpu); // GPU lanes first
        busy = 0;
        for (float b : p.lanes[0].busy) busy += b * 4;
        QCOMPARE(busy, 3100.0);
        QCOMPARE(p.lanes[1].busy[0], 1.0f);
        QCOMPARE(p.lanes[1].busy[1023], 1.0f);
        QCOMPARE(p.lanes[1].busy[1024], 0.0f);
        QCOMPARE(p.slices, uint64_t(5));
        // Widening to the left: an event before the start.
        c.gpu(1, 3, 0, 10);
        p = c.snapshot(1.0);
        QVERIFY(p.start <= 0);
        QCOMPARE(p.first, TimeNs(0));
    }

    // A preview as the timeline's first frames (io/load_preview_trace.h), by hand: bins of
    // 1000 ns from 10'000. GPU 0 stream 7 busy 1, 1, 1, 0.5, 0, 0.25 -> [10'000, 13'500) (three
    // whole bins and half the fourth), [15'000, 15'250); thread (1, 2) busy 0.5, 1, 1 -> [10'000,
    // 10'500) (a part ends a run), [11'000, 13'000); the thread and its process named.
    void previewAsTrace() {
        LoadPreview p;
        p.start = 10'000, p.binWidth = 1000, p.first = 10'000, p.last = 15'250;
        p.fraction = 0.42, p.slices = 9;
        PreviewLane gpu;
        gpu.gpu = true, gpu.device = 0, gpu.stream = 7;
        gpu.busy = {1, 1, 1, 0.5f, 0, 0.25f};
        PreviewLane cpu;
        cpu.pid = 1, cpu.tid = 2;
        cpu.busy = {0.5f, 1, 1};
        p.lanes = {gpu, cpu};
        p.processNames = {{1, "python3"}, {5, "not drawn"}};
        p.threadNames = {{{1, 2}, "pt_main_thread"}, {{1, 3}, "not drawn"}};
        const std::shared_ptr<const Trace> t = previewTrace(p);
        // The names of what is drawn, and nothing else.
        QCOMPARE(t->threads().size(), size_t(1));
        QCOMPARE(t->str(t->threads()[0].name), std::string_view("pt_main_thread"));
        std::map<int64_t, std::string> processes; // pid 0: the GPU's (a Kineto GPU event's pid)
        for (const Process& pr : t->processes()) processes[pr.pid] = t->str(pr.name);
        QCOMPARE(processes, (std::map<int64_t, std::string>{{0, ""}, {1, "python3"}}));
        std::map<std::string, std::vector<std::pair<TimeNs, TimeNs>>> slices;
        for (const Track& tr : t->tracks()) {
            if (tr.slices.size() == 0) continue;
            const std::string lane =
                tr.kind == TrackKind::GpuStream
                    ? "gpu " + std::to_string(tr.device) + ":" + std::to_string(tr.tid)
                    : "thread " + std::to_string(tr.pid) + ":" + std::to_string(tr.tid);
            for (SliceIndex i = 0; i < tr.slices.size(); ++i) {
                QCOMPARE(tr.slices.kind[i],
                         tr.kind == TrackKind::GpuStream ? SliceKind::Kernel : SliceKind::Generic);
                QCOMPARE(tr.slices.extra[i], kNoExtra); // no correlation: no launch
                QCOMPARE(t->str(tr.slices.name[i]),
                         tr.kind == TrackKind::GpuStream ? kPreviewGpuName : kPreviewCpuName);
                slices[lane].push_back({tr.slices.start[i], tr.slices.end(i)});
            }
        }
        using Runs = std::vector<std::pair<TimeNs, TimeNs>>;
        QCOMPARE(slices.size(), size_t(2));
        QCOMPARE(slices["gpu 0:7"], (Runs{{10'000, 13'500}, {15'000, 15'250}}));
        QCOMPARE(slices["thread 1:2"], (Runs{{10'000, 10'500}, {11'000, 13'000}}));
        QCOMPARE(previewOf(*t), std::string("42 % of the file read, 9 slices"));
        QCOMPARE(t->contentBounds(), (TimeRange{10'000, 15'250}));
        QCOMPARE(previewOf(*previewTrace(LoadPreview{})),
                 std::string("0 % of the file read, 0 slices"));
    }

    // The JSON reader hands out previews while it reads (slowed here by a progress callback
    // that sleeps), growing; each lane is one of the trace's GPU streams or CPU threads.
    void readerHandsOutPreviews() {
        LoadOptions o;
        o.oneThread = true;
        o.progress = [](double) {
            std::this_thread::sleep_for(std::chrono::milliseconds(60));
            return true;
        };
        std::vector<LoadPreview> previews;
        o.preview = [&](const LoadPreview& p) { previews.push_back(p); };
        const LoadResult r = loadTrace(kHta, o);
        QVERIFY(r.ok());
        QVERIFY2(previews.size() >= 2, "fewer than two previews while loading");
        for (size_t i = 1; i < previews.size(); ++i) {
            QVERIFY(previews[i].slices >= previews[i - 1].slices);
            QVERIFY(previews[i].fraction >= previews[i - 1].fraction);
        }
        std::set<std::pair<int64_t, int64_t>> streams, threads;
        for (const Track& t : r.trace->tracks()) {
            if (t.kind == TrackKind::GpuStream) streams.insert({t.device, t.tid});
            if (t.kind == TrackKind::Thread) threads.insert({t.pid, t.tid});
        }
        const LoadPreview& last = previews.back();
        QVERIFY(last.fraction > 0 && last.fraction <= 1);
        QVERIFY(last.slices > 0);
        QVERIFY(last.first >= r.trace->bounds().start && last.last <= r.trace->bounds().end);
        for (const PreviewLane& l : last.lanes) {
            QVERIFY(l.gpu ? streams.count({l.device, l.stream}) : threads.count({l.pid, l.tid}));
            for (float b : l.busy) QVERIFY(b >= 0 && b <= 1);
        }
    }
};

STRATA_TEST_GUILESS_MAIN(TestTraceCache)
#include "tst_trace_cache.moc"
