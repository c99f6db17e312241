// Nestable async events (Chrome trace format 'b'/'e'/'n') of one category, id and scope nest by
// time on one async track (issue 46; they were split into a track per name): a 'b' inside an
// open 'b' of the same id is its child, an 'e' closes the innermost open 'b' of its name (the
// innermost open one when it has no name), as Perfetto's JSON importer does. Every expected
// value is worked out by hand from tests/data/json/async_nested.json (microseconds x 1000).
#include "io/trace_loader.h"
#include "json_reader_fixture.h"
#include "support/test_main.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace strata;
using namespace strata::test;

class TestAsyncNesting : public QObject {
    Q_OBJECT

private slots:
    void sameIdNests();
    void otherIdsAndCategoriesApart();
    void unmatchedEndIsCounted();
};

namespace {

std::vector<TrackId> asyncTracksNamed(const Trace& t, std::string_view name) {
    std::vector<TrackId> out;
    for (TrackId i = 0; i < t.tracks().size(); ++i)
        if (t.track(i).kind == TrackKind::Async && t.str(t.track(i).name) == name) out.push_back(i);
    return out;
}

} // namespace

void TestAsyncNesting::sameIdNests() {
    const LoadResult r = loadTrace(dataPath("async_nested.json"));
    QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
    const Trace& t = *r.trace;
    // io/1 and io/2 are both named "request" (their first events); io/1 is the one with five.
    const std::vector<TrackId> requests = asyncTracksNamed(t, "request");
    QCOMPARE(requests.size(), size_t(2));
    const TrackId a = t.track(requests[0]).slices.size() == 5 ? requests[0] : requests[1];
    const SliceColumns& s = t.track(a).slices;
    QCOMPARE(s.size(), size_t(5));
    struct Expected {
        const char* name;
        TimeNs start, dur;
        uint16_t depth;
        SliceIndex parent;
    };
    const Expected expected[] = {
        {"request", 10000, 30000, 0, kNoSlice}, // b 10 .. e "request" 40
        {"parse", 12000, 8000, 1, 0},           // b 12 .. e "parse" 20 (the inner one closed)
        {"parse", 14000, 2000, 2, 1},           // b 14 .. e "parse" 16: the innermost "parse"
        {"decode", 17000, 2000, 2, 1},          // b 17 .. e without a name at 19: the innermost
        {"send", 25000, 10000, 1, 0},           // b 25 .. e "send" 35 (e "nosuch" 30 skipped)
    };
    for (SliceIndex i = 0; i < 5; ++i) {
        const Expected& e = expected[i];
        QCOMPARE(t.str(s.name[i]), std::string_view(e.name));
        QCOMPARE(s.start[i], e.start);
        QCOMPARE(s.dur[i], e.dur);
        QCOMPARE(s.depth[i], e.depth);
        QCOMPARE(s.parent[i], e.parent);
    }
    // The 'n' of the same id is on the same track.
    QCOMPARE(t.track(a).instants.size(), size_t(1));
    QCOMPARE(t.track(a).instants.ts[0], TimeNs(18000));
    // Nothing spilled to an extra lane: no other async track holds "parse", "decode" or "send".
    QVERIFY(asyncTracksNamed(t, "parse").empty());
    QVERIFY(asyncTracksNamed(t, "decode").empty());
    QVERIFY(asyncTracksNamed(t, "send").empty());
    QCOMPARE(t.track(a).lane, uint32_t(0));
}

void TestAsyncNesting::otherIdsAndCategoriesApart() {
    const LoadResult r = loadTrace(dataPath("async_nested.json"));
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    // io/2: one "request" [21, 38] us; other/1: one "elsewhere" [13, 22] us, both at depth 0.
    const std::vector<TrackId> requests = asyncTracksNamed(t, "request");
    QCOMPARE(requests.size(), size_t(2));
    const TrackId b = t.track(requests[0]).slices.size() == 1 ? requests[0] : requests[1];
    QCOMPARE(t.track(b).slices.size(), size_t(1));
    QCOMPARE(t.track(b).slices.start[0], TimeNs(21000));
    QCOMPARE(t.track(b).slices.dur[0], TimeNs(17000));
    QCOMPARE(t.track(b).slices.depth[0], uint16_t(0));
    const std::vector<TrackId> other = asyncTracksNamed(t, "elsewhere");
    QCOMPARE(other.size(), size_t(1));
    const SliceColumns& o = t.track(other[0]).slices;
    QCOMPARE(o.size(), size_t(1));
    QCOMPARE(o.start[0], TimeNs(13000));
    QCOMPARE(o.dur[0], TimeNs(9000));
    QCOMPARE(o.depth[0], uint16_t(0));
    size_t async = 0;
    for (const Track& tr : t.tracks()) async += tr.kind == TrackKind::Async;
    QCOMPARE(async, size_t(3));
}

void TestAsyncNesting::unmatchedEndIsCounted() {
    const LoadResult r = loadTrace(dataPath("async_nested.json"));
    QVERIFY(r.ok());
    const Trace& t = *r.trace;
    // The e "nosuch" at 30 us closes nothing; every b is ended.
    QCOMPARE(t.warnings().size(), size_t(1));
    QVERIFY2(hasWarning(t, "1 E (end) events had no matching B event and were skipped"),
             t.warnings()[0].c_str());
}

STRATA_TEST_GUILESS_MAIN(TestAsyncNesting)
#include "tst_async_nesting.moc"
