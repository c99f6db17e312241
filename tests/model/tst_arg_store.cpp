// ArgStore and StringPool: compact args round-trip; interning is stable.
#include "model/arg_store.h"
#include "model/string_pool.h"
#include "support/test_main.h"

#include <QtTest>

#include <memory>

using namespace strata;

class TestArgStore : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        StringPool pool;
        ArgStore store;
        const StringId kInt = pool.intern("registers per thread");
        const StringId kNeg = pool.intern("neg");
        const StringId kStr = pool.intern("name");
        const StringId kDbl = pool.intern("occupancy");
        const StringId kJson = pool.intern("grid");
        const StringId kBig = pool.intern("big");
        store.begin();
        store.addInt(kInt, 32);
        store.addInt(kNeg, -5);
        store.addString(kStr, "ampere_sgemm");
        store.addDouble(kDbl, 12.5);
        store.addJson(kJson, "[80, 1, 1]");
        store.addUInt(kBig, 18446744073709551615ull);
        const ArgSetId id = store.finish();
        store.begin();
        const ArgSetId empty = store.finish();
        QCOMPARE(empty, kNoArgs);

        const auto args = store.decode(id);
        QCOMPARE(args.size(), size_t(6));
        QCOMPARE(args[0].key, kInt);
        QCOMPARE(args[0].value.i, int64_t(32));
        QCOMPARE(args[1].value.i, int64_t(-5));
        QCOMPARE(args[2].value.s, std::string("ampere_sgemm"));
        QCOMPARE(args[3].value.d, 12.5);
        QCOMPARE(args[4].value.type, ArgValue::Type::Json);
        QCOMPARE(args[4].value.s, std::string("[80, 1, 1]"));
        QCOMPARE(args[5].value.u, 18446744073709551615ull);
        ArgValue v;
        QVERIFY(store.find(id, kStr, &v));
        QCOMPARE(v.s, std::string("ampere_sgemm"));
        QVERIFY(!store.find(id, pool.intern("absent"), &v));
    }
    void secondSetIsSeparate() {
        StringPool pool;
        ArgStore store;
        const StringId k = pool.intern("k");
        store.begin();
        store.addInt(k, 1);
        const ArgSetId a = store.finish();
        store.begin();
        store.addInt(k, 2);
        store.addInt(k, 3);
        const ArgSetId b = store.finish();
        QCOMPARE(store.decode(a).size(), size_t(1));
        QCOMPARE(store.decode(b).size(), size_t(2));
        QCOMPARE(store.decode(b)[1].value.i, int64_t(3));
    }
    void internIsStable() {
        StringPool pool;
        QCOMPARE(pool.intern(""), StringPool::kEmpty);
        const StringId a = pool.intern("aten::mm");
        for (int i = 0; i < 100000; ++i) pool.intern("s" + std::to_string(i));
        QCOMPARE(pool.intern("aten::mm"), a);
        QCOMPARE(pool.view(a), std::string_view("aten::mm"));
        QCOMPARE(pool.find("s99999"), pool.intern("s99999"));
        QCOMPARE(pool.find("nope"), StringPool::kNotFound);
    }
    void copyOwnsItsText() {
        // A copy outlives its original with the same ids (Trace::withGpuTimeShifted copies one).
        auto original = std::make_unique<StringPool>();
        const StringId a = original->intern("aten::mm");
        const std::string big(100'000, 'x'); // a block of its own
        const StringId b = original->intern(big);
        StringPool copy(*original);
        original.reset();
        QCOMPARE(copy.view(a), std::string_view("aten::mm"));
        QCOMPARE(copy.view(b), std::string_view(big));
        QCOMPARE(copy.find("aten::mm"), a);
        QCOMPARE(copy.intern("new"), StringId(3));
    }
};

STRATA_TEST_GUILESS_MAIN(TestArgStore)
#include "tst_arg_store.moc"
