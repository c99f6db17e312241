// Hostile model files (issue 42, point 7): a model file is all or nothing. Each case starts from a
// good model of a small trace written by TraceSnapshot::write, puts one fault in (model_file_
// fixture.h rebuilds the chunks' lengths and CRCs, so only that fault remains) and expects the
// load refused with an error naming the chunk, the byte offset and the array and element:
// parts that overlap, leave bytes out or follow the end; a Model record whose counts disagree,
// are out of range, nest too deep or claim more than the file's bytes (many empty tracks among
// them: refused before anything is sized); every slice's start, duration, parent and depth
// changed past what a build makes; counter and instant times; the flows' orders, the id indices,
// the header's per-track maxima and process order.
//
// With STRATA_WRITE_MODEL_CORPUS=DIR, the hostile files are also written to DIR (that is how
// tests/data/record/model-*.strata, seeds of fuzz_strata, were made).
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/model_file/trace_snapshot.h"
#include "io/trace_loader.h"
#include "model/trace.h"
#include "support/model_file_fixture.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace strata;
using namespace strata::snapshot;
using nlohmann::json;
using strata::test::ModelFile;

namespace {

// A small trace with what a model holds: nesting three deep, a slice that overlaps without
// nesting (an extra lane), GPU ops with correlation and External ids, two flows, counter samples
// and instants. Times in µs.
constexpr const char* kTrace = R"({"traceEvents":[
{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"app"}},
{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}},
{"ph":"X","cat":"cpu_op","name":"step","pid":1,"tid":1,"ts":0,"dur":100,"args":{"External id":1}},
{"ph":"X","cat":"cpu_op","name":"forward","pid":1,"tid":1,"ts":10,"dur":40,"args":{"External id":2}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":12,"dur":3,
 "args":{"External id":2,"correlation":7}},
{"ph":"X","cat":"cpu_op","name":"matmul","pid":1,"tid":1,"ts":20,"dur":20},
{"ph":"X","cat":"cpu_op","name":"add","pid":1,"tid":1,"ts":22,"dur":5},
{"ph":"X","cat":"cpu_op","name":"backward","pid":1,"tid":1,"ts":60,"dur":30},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":62,"dur":2,
 "args":{"correlation":8}},
{"ph":"X","cat":"cpu_op","name":"overlapping","pid":1,"tid":1,"ts":95,"dur":10},
{"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":16,"dur":10,
 "args":{"External id":2,"correlation":7,"device":0,"stream":7}},
{"ph":"X","cat":"gpu_memcpy","name":"copy","pid":0,"tid":7,"ts":66,"dur":5,
 "args":{"correlation":8,"device":0,"stream":7,"bytes":64}},
{"ph":"s","id":7,"cat":"ac2g","name":"ac2g","pid":1,"tid":1,"ts":12},
{"ph":"f","id":7,"cat":"ac2g","name":"ac2g","pid":0,"tid":7,"ts":16,"bp":"e"},
{"ph":"s","id":8,"cat":"ac2g","name":"ac2g","pid":1,"tid":1,"ts":62},
{"ph":"f","id":8,"cat":"ac2g","name":"ac2g","pid":0,"tid":7,"ts":66,"bp":"e"},
{"ph":"C","name":"memory","pid":1,"ts":5,"args":{"bytes":10}},
{"ph":"C","name":"memory","pid":1,"ts":50,"args":{"bytes":20}},
{"ph":"C","name":"memory","pid":1,"ts":95,"args":{"bytes":5}},
{"ph":"i","name":"mark","pid":1,"tid":1,"ts":55,"s":"t"},
{"ph":"i","name":"mark","pid":1,"tid":1,"ts":70,"s":"t"}
]})";

// The JSON's track fields (docs/strata-format.md: kind, pid, tid, device, lane, name, cookie,
// maxDepth, maxDuration, slices, counter samples, instants).
constexpr int kMaxDepthField = 7, kSlicesField = 9, kSamplesField = 10;

} // namespace

class TestSnapshotHostile : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::shared_ptr<const Trace> trace_;
    std::string good_;
    int written_ = 0;

    std::string path(const std::string& name) { return dir_.filePath(name.c_str()).toStdString(); }
    static void save(const std::string& p, const std::string& bytes) {
        std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
    }
    LoadResult load(const std::string& bytes) {
        save(path("hostile.strata"), bytes);
        return loadTrace(path("hostile.strata"));
    }
    // Empty when `bytes` is refused with an error holding "model file" and each of `words`, at
    // `offset` (UINT64_MAX: anywhere); else what happened. `corpus` names the file written to
    // STRATA_WRITE_MODEL_CORPUS.
    std::string refused(const std::string& bytes, std::initializer_list<std::string> words,
                        uint64_t offset = UINT64_MAX, const char* corpus = nullptr) {
        if (const char* dir = std::getenv("STRATA_WRITE_MODEL_CORPUS"); dir && corpus)
            save(std::string(dir) + "/model-" + corpus + ".strata", bytes);
        const LoadResult r = load(bytes);
        if (r.ok() || !r.error) return "loaded";
        const std::string text = r.error->toString();
        for (const std::string& w : words)
            if (text.find(w) == std::string::npos) return "no \"" + w + "\" in: " + text;
        if (text.find("model file") == std::string::npos) return "not a model file's: " + text;
        if (offset != UINT64_MAX && r.error->byteOffset != offset)
            return "at byte " + std::to_string(r.error->byteOffset) + ", not " +
                   std::to_string(offset) + ": " + text;
        return {};
    }
    // The error of a changed value: element `i` of array `id` of `owner`, at its byte.
    std::string valueRefused(const ModelFile& m, uint16_t id, uint32_t owner, size_t i,
                             size_t bytes, const std::string& words) {
        const std::string where = describeArray(id, owner) + ", element " + std::to_string(i);
        return refused(m.bytes(), {where, words}, m.elementOffset(id, owner, i, bytes));
    }
    ModelFile good() const { return ModelFile(good_); }
    // The (single) part of array `id` of `owner` cut into parts of 8 bytes, in order.
    static void splitInto8(ModelFile& m, uint16_t id, uint32_t owner) {
        const auto [c, r] = m.part(id, owner);
        const std::string bytes = m.chunks()[c][r].body.substr(ModelFile::kPartHead);
        std::vector<ModelFile::Record>& chunk = m.chunks()[c];
        chunk.erase(chunk.begin() + r);
        for (size_t at = bytes.size(); at > 0; at -= 8)
            chunk.insert(chunk.begin() + r,
                         ModelFile::partRecord(id, owner, at - 8, bytes.substr(at - 8, 8)));
    }
    // The main thread's track (lane 0): seven slices.
    uint32_t main() const { return slice("step").track; }
    // The (track, index) of the slice named `name`.
    SliceRef slice(std::string_view name) const {
        for (TrackId k = 0; k < trace_->tracks().size(); ++k)
            for (SliceIndex i = 0; i < trace_->track(k).slices.size(); ++i)
                if (trace_->name({k, i}) == name) return {k, i};
        return {};
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        save(path("small.json"), kTrace);
        const LoadResult a = loadTrace(path("small.json"));
        QVERIFY(a.ok());
        trace_ = a.trace;
        // What the cases below rely on, checked by hand against kTrace.
        QCOMPARE(trace_->sliceCount(), size_t(10)); // eight on the CPU, two on the GPU
        QCOMPARE(trace_->flows().size(), size_t(2));
        QCOMPARE(trace_->counterSampleCount(), size_t(3));
        QCOMPARE(trace_->instantCount(), size_t(2));
        QCOMPARE(trace_->track(slice("add").track).maxDepth, uint16_t(4));
        QVERIFY(trace_->track(slice("overlapping").track).lane > 0);
        QCOMPARE(TraceSnapshot::write(*trace_, path("good.strata"), {}), std::string());
        std::ifstream f(path("good.strata"), std::ios::binary);
        good_.assign(std::istreambuf_iterator<char>(f), {});
        if (const char* dir = std::getenv("STRATA_WRITE_MODEL_CORPUS"))
            save(std::string(dir) + "/model-good.strata", good_);
    }

    // The reference: the good file, and the same with an array cut into 8-byte parts.
    void goodFilesLoad() {
        QVERIFY(load(good_).ok());
        ModelFile m = good();
        const uint32_t k = main();
        splitInto8(m, SliceStart, k);
        const LoadResult back = load(m.bytes());
        QVERIFY2(back.ok(), back.error ? back.error->toString().c_str() : "");
        QVERIFY(back.trace->track(k).slices.start == trace_->track(k).slices.start);
    }

    // The file holds no stray bytes: the External-id index's places past each id's count (ids 1
    // and 2 of kTrace have 1 and 3 slices of 4 places) are written as SliceRef{}, not as whatever
    // memory held them.
    void unusedPlacesAreBlank() {
        const ModelFile m = good();
        const json x = m.header()["external_index"];
        QCOMPARE(x["places"].get<int>(), 4);
        QCOMPARE(x["dense"].get<int>(), 2);
        QCOMPARE(m.get<uint8_t>(ExternalDenseCount, 0, 0), uint8_t(1));
        QCOMPARE(m.get<uint8_t>(ExternalDenseCount, 0, 1), uint8_t(3));
        for (const size_t unused : {1, 2, 3, 7})
            QVERIFY(m.get<SliceRef>(ExternalDensePlaces, 0, unused) == SliceRef{});
    }

    // Every element filled exactly once: parts that overlap, leave bytes out, come after the end.
    void partsFillEachByteOnce() {
        const uint32_t k = main();
        const std::string starts = describeArray(SliceStart, k);
        auto cut = [&](uint64_t secondAt, bool dropSecond) {
            ModelFile m = good();
            const auto [c, r] = m.part(SliceStart, k);
            const std::string bytes = m.chunks()[c][r].body.substr(ModelFile::kPartHead);
            m.chunks()[c][r] = ModelFile::partRecord(SliceStart, k, 0, bytes.substr(0, 16));
            if (!dropSecond)
                m.chunks()[c].insert(
                    m.chunks()[c].begin() + r + 1,
                    ModelFile::partRecord(SliceStart, k, secondAt, bytes.substr(secondAt)));
            return std::pair{m, m.chunkOffset(c)};
        };
        { // The second part starting 8 bytes early: slice 1's start written twice.
            const auto [m, at] = cut(8, false);
            QVERIFY2(
                refused(m.bytes(), {starts, "overlaps the part before"}, at, "overlap").empty(),
                "");
        }
        { // Starting 8 bytes late: slice 2's start never written.
            const auto [m, at] = cut(24, false);
            const std::string e = refused(m.bytes(), {starts, "bytes left out"}, at, "gap");
            QVERIFY2(e.empty(), e.c_str());
        }
        { // The second part missing, its bytes made up by the durations cut into 8-byte parts
            // (so the file still holds what the header claims): found at the end.
            auto [m, at] = cut(16, true);
            splitInto8(m, SliceDur, k);
            const std::string e = refused(m.bytes(), {starts, "16 of its", "a part missing"},
                                          m.bytes().size(), "missing-part");
            QVERIFY2(e.empty(), e.c_str());
        }
        { // The same part twice.
            ModelFile m = good();
            const auto [c, r] = m.part(SliceDur, k);
            m.chunks()[c].insert(m.chunks()[c].begin() + r + 1, m.chunks()[c][r]);
            const std::string e = refused(m.bytes(), {describeArray(SliceDur, k), "overlaps"},
                                          m.chunkOffset(c), "repeated-part");
            QVERIFY2(e.empty(), e.c_str());
        }
        { // A part after the end-of-file record, and an empty part.
            ModelFile m = good();
            std::vector<ModelFile::Record>& last = m.chunks().back();
            QCOMPARE(last.back().type, ModelFile::kEndOfFile);
            last.push_back(ModelFile::partRecord(SliceStart, k, 0, "12345678"));
            std::string e = refused(m.bytes(), {"after the end-of-file record"},
                                    m.chunkOffset(m.chunks().size() - 1), "after-end");
            QVERIFY2(e.empty(), e.c_str());
            last.pop_back();
            last.insert(last.begin(), ModelFile::partRecord(SliceDur, k, 0, ""));
            e = refused(m.bytes(), {"an empty part"}, m.chunkOffset(m.chunks().size() - 1));
            QVERIFY2(e.empty(), e.c_str());
        }
    }

    // The Model record's counts and bounds checked before anything is sized.
    void headerChecked_data() {
        QTest::addColumn<QString>("change");
        QTest::addColumn<QString>("words");
        QTest::newRow("slice count") << "counts"
                                     << "count of slices is not its tracks' sum";
        QTest::newRow("track's slices") << "track-plus-one"
                                        << "more than the file's bytes";
        QTest::newRow("2^40 slices") << "huge-track"
                                     << "more than the file's bytes";
        QTest::newRow("negative count") << "negative"
                                        << "not a whole number";
        QTest::newRow("kind 256") << "kind256"
                                  << "not a whole number";
        QTest::newRow("kind 9") << "kind9"
                                << "unknown kind";
        QTest::newRow("bounds") << "bounds"
                                << "bounds out of order";
        QTest::newRow("a million flows") << "flows"
                                         << "more than the file's bytes";
        QTest::newRow("string bytes") << "strings"
                                      << "more than the file's bytes";
        QTest::newRow("deep") << "deep"
                              << "nested deeper";
        QTest::newRow("max depth") << "maxdepth"
                                   << "deepest depth";
        QTest::newRow("process order") << "processes"
                                       << "out of pid order";
        QTest::newRow("a track object") << "track-object"
                                        << "a track of the wrong shape";
        QTest::newRow("13 fields") << "track-fields"
                                   << "a track with more fields than it has";
        QTest::newRow("a warning number") << "warning"
                                          << "a warning that is not text";
        QTest::newRow("metadata array") << "metadata"
                                        << "metadata of the wrong shape";
        QTest::newRow("not an object") << "array"
                                       << "not an object";
    }
    void headerChecked() {
        QFETCH(QString, change);
        QFETCH(QString, words);
        ModelFile m = good();
        json j = m.header();
        json& track = j["tracks"][0];
        const auto add = [&](uint64_t n) {
            track[kSlicesField] = track[kSlicesField].get<uint64_t>() + n;
            j["counts"][0] = j["counts"][0].get<uint64_t>() + n;
        };
        if (change == "counts") j["counts"][0] = j["counts"][0].get<uint64_t>() + 1;
        if (change == "track-plus-one") add(1);
        if (change == "huge-track") add(uint64_t(1) << 40);
        if (change == "negative") track[kSamplesField] = -1;
        if (change == "kind256") track[0] = 256;
        if (change == "kind9") track[0] = 9;
        if (change == "bounds") j["bounds"] = {j["bounds"][1], j["bounds"][0].get<int64_t>() - 1};
        if (change == "flows") j["sizes"]["flows"] = 1000000;
        if (change == "strings") j["strings"]["bytes"] = j["strings"]["bytes"].get<size_t>() + 1;
        if (change == "maxdepth") track[kMaxDepthField] = track[kMaxDepthField].get<int>() + 1;
        if (change == "processes") std::swap(j["processes"][0], j["processes"][1]);
        if (change == "track-object") j["tracks"][0] = json::object();
        if (change == "track-fields") track.push_back(0);
        if (change == "warning") j["warnings"].push_back(5);
        if (change == "metadata") j["metadata"] = json::array();
        if (change == "array") j = json::array({j});
        m.setHeader(j);
        if (change == "deep")
            m.setHeaderText("{\"x\":" + std::string(1000, '[') + std::string(1000, ']') + "}");
        const std::string e = refused(m.bytes(), {words.toStdString()}, m.chunkOffset(0),
                                      qPrintable("header-" + change));
        QVERIFY2(e.empty(), e.c_str());
    }

    // A 67 MB file of 2.49 million empty tracks took 4.1 GB: now no track may be empty (build()
    // drops them; a written model has none) and each costs bytes in the file, so such a header is
    // refused before its tracks are sized. By construction, not by timing.
    void manyEmptyTracks() {
        ModelFile m = good();
        json j = m.header();
        json empty = j["tracks"][0];
        empty[kSlicesField] = 0, empty[kSamplesField] = 0, empty[11] = 0;
        empty[kMaxDepthField] = 0, empty[8] = 0;
        for (int i = 0; i < 100000; ++i) j["tracks"].push_back(empty);
        m.setHeader(j);
        std::string e = refused(
            m.bytes(), {"track " + std::to_string(trace_->tracks().size()), "holds nothing"},
            m.chunkOffset(0));
        QVERIFY2(e.empty(), e.c_str());
        // One counter sample each, the trace's count to match: each track's arrays cost bytes
        // the file does not have.
        json one = empty;
        one[kSamplesField] = 1;
        j["tracks"] = json::array();
        for (int i = 0; i < 100000; ++i) j["tracks"].push_back(one);
        j["counts"] = {0, 100000, 0};
        m.setHeader(j);
        e = refused(m.bytes(), {"more than the file's bytes"}, m.chunkOffset(0));
        QVERIFY2(e.empty(), e.c_str());
        // A few, for the fuzzers' corpus.
        j["tracks"] = json::array({empty, empty, empty});
        m.setHeader(j);
        e = refused(m.bytes(), {"holds nothing"}, m.chunkOffset(0), "empty-tracks");
        QVERIFY2(e.empty(), e.c_str());
    }

    // Every slice of every track, each of its start, duration, parent and depth changed to a value
    // no build makes: refused at that element.
    void sliceValuesChecked() {
        const TimeRange b = trace_->bounds();
        int cases = 0;
        for (uint32_t k = 0; k < trace_->tracks().size(); ++k) {
            const SliceColumns& s = trace_->track(k).slices;
            for (size_t i = 0; i < s.size(); ++i) {
                auto expect = [&](uint16_t id, size_t bytes, auto value, const char* words) {
                    ModelFile m = good();
                    m.set(id, k, i, value);
                    const std::string e = valueRefused(m, id, k, i, bytes, words);
                    QVERIFY2(
                        e.empty(),
                        qPrintable(QString("track %1 slice %2: %3").arg(k).arg(i).arg(e.c_str())));
                    ++cases;
                };
                expect(SliceStart, 8, TimeNs(b.end + 1), "outside the trace's bounds");
                if (i && s.start[i - 1] > b.start)
                    expect(SliceStart, 8, TimeNs(s.start[i - 1] - 1), "in start order");
                expect(SliceDur, 8, TimeNs(-1), "negative");
                expect(SliceDur, 8, TimeNs(b.end - s.start[i] + 1), "past the trace's end");
                const SliceIndex p = s.parent[i];
                if (p != kNoSlice && s.end(p) < b.end)
                    expect(SliceDur, 8, TimeNs(s.end(p) - s.start[i] + 1), "after its parent");
                expect(SliceParent, 4, p == kNoSlice ? SliceIndex(i) : kNoSlice, "parent");
                expect(SliceDepth, 2, uint16_t(s.depth[i] + 1), "depth");
            }
        }
        QVERIFY(cases >= 10 * 5);
        // One of each, for the fuzzers' corpus.
        const SliceRef add = slice("add");
        for (const auto& [id, name] : {std::pair{SliceStart, "start"},
                                       {SliceDur, "duration"},
                                       {SliceParent, "parent"},
                                       {SliceDepth, "depth"}}) {
            ModelFile m = good();
            if (id == SliceStart) m.set(id, add.track, add.index, TimeNs(0));
            if (id == SliceDur) m.set(id, add.track, add.index, TimeNs(-5));
            if (id == SliceParent) m.set(id, add.track, add.index, SliceIndex(0));
            if (id == SliceDepth) m.set(id, add.track, add.index, uint16_t(0));
            const std::string e = refused(m.bytes(), {describeArray(id, add.track)}, UINT64_MAX,
                                          (std::string("slice-") + name).c_str());
            QVERIFY2(e.empty(), e.c_str());
        }
    }

    // Counter samples and instants in time order within the bounds.
    void timesChecked() {
        const TimeRange b = trace_->bounds();
        int cases = 0;
        for (uint32_t k = 0; k < trace_->tracks().size(); ++k)
            for (const auto& [id, ts] : {std::pair{CounterTs, &trace_->track(k).counter.ts},
                                         std::pair{InstantTs, &trace_->track(k).instants.ts}})
                for (size_t i = 0; i < ts->size(); ++i) {
                    ModelFile m = good();
                    m.set(id, k, i, TimeNs(b.start - 1));
                    std::string e = valueRefused(m, id, k, i, 8, "outside the trace's bounds");
                    QVERIFY2(e.empty(), e.c_str());
                    if (i == 0) continue;
                    m.set(id, k, i, TimeNs((*ts)[i - 1] - 1));
                    e = valueRefused(m, id, k, i, 8, "time order");
                    QVERIFY2(e.empty(), e.c_str());
                    ++cases;
                }
        QCOMPARE(cases, 2 + 1);
    }

    // The flows' orders and the id indices: an entry moved is refused, not followed.
    void ordersAndIndicesChecked() {
        {
            ModelFile m = good();
            const auto first = m.get<uint32_t>(FlowsByFrom, 0, 0);
            m.set(FlowsByFrom, 0, 0, m.get<uint32_t>(FlowsByFrom, 0, 1));
            m.set(FlowsByFrom, 0, 1, first);
            const std::string e = valueRefused(m, FlowsByFrom, 0, 1, 4, "flow order");
            QVERIFY2(e.empty(), e.c_str());
        }
        { // The correlation index's first place (id 7's first slice) pointing at "step": the
          // slice it named, which carries id 7, is no longer found under it.
            ModelFile m = good();
            QCOMPARE(m.header()["correlation_index"]["dense_lo"].get<int64_t>(), int64_t(7));
            const auto lost = m.get<SliceRef>(CorrelationDensePlaces, 0, 0);
            QCOMPARE(trace_->extra(lost)->correlation, int64_t(7));
            m.set(CorrelationDensePlaces, 0, 0, slice("step"));
            const std::string e = valueRefused(m, SliceExtraColumn, lost.track, lost.index, 4,
                                               "correlation id 7, among whose slices the index");
            QVERIFY2(e.empty(), e.c_str());
            if (const char* dir = std::getenv("STRATA_WRITE_MODEL_CORPUS"))
                save(std::string(dir) + "/model-index.strata", m.bytes());
        }
        { // Id 8's count in place made 0: its two slices held nowhere.
            ModelFile m = good();
            QCOMPARE(m.get<uint8_t>(CorrelationDenseCount, 0, 1), uint8_t(2));
            m.set(CorrelationDenseCount, 0, 1, uint8_t(0));
            const SliceRef first = trace_->byCorrelation(8)[0];
            const std::string e = valueRefused(m, SliceExtraColumn, first.track, first.index, 4,
                                               "correlation id 8, among whose slices the index");
            QVERIFY2(e.empty(), e.c_str());
        }
    }
};

STRATA_TEST_GUILESS_MAIN(TestSnapshotHostile)
#include "tst_snapshot_hostile.moc"
