// Step time by role per rank of a set (issue 46; analysis/ranks/rank_step_roles.h, the digest's
// stepRoles and their JSON): the sums worked out by hand; on the eight PARAM DLRM ranks
// (../shared/traces/multirank/param-dlrm), the roles each rank's digest carries (made by
// digestSet, as the window and strata-cli make them) equal stepRoles on that rank's trace opened
// alone, and survive the digest's JSON. The figures themselves are checked against the raw JSON by
// tests/data/analysis/expected_step_roles.py --ranks (CTest step_roles_ranks_param_dlrm).
#include "support/process_run.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"

#include "analysis/json/rank_digest_json.h"
#include "analysis/ranks/rank_step_roles.h"
#include "io/set/digest_set.h"

#include <QtTest>

using namespace strata;
using namespace strata::test;

namespace {

StepRoleTimes step(const char* name, TimeNs start, TimeNs end, std::array<TimeNs, 8> role,
                   TimeNs comp, TimeNs comm, TimeNs overlap) {
    StepRoleTimes t;
    t.name = name;
    t.start = start;
    t.end = end;
    t.role = role;
    t.computation = comp;
    t.communication = comm;
    t.overlap = overlap;
    t.otherThanBoth = (end - start) - comp - comm + overlap;
    return t;
}

// Rank A: step #1 [0, 100) kernel 60, runtime 30, other 10 (comp 60, comm 20, overlap 10);
//         step #2 [100, 300) kernel 150, communication 40, other 10 (comp 150, comm 50, 5).
// Rank B: step #2 [0, 50) kernel 50; step #3 [50, 80) CPU op 30.
StepRoles rankA() {
    StepRoles r;
    r.steps.push_back(step("ProfilerStep#1", 0, 100, {60, 0, 0, 0, 30, 0, 0, 10}, 60, 20, 10));
    r.steps.push_back(step("ProfilerStep#2", 100, 300, {150, 0, 0, 40, 0, 0, 0, 10}, 150, 50, 5));
    return r;
}
StepRoles rankB() {
    StepRoles r;
    r.steps.push_back(step("ProfilerStep#2", 0, 50, {50, 0, 0, 0, 0, 0, 0, 0}, 50, 0, 0));
    r.steps.push_back(step("ProfilerStep#3", 50, 80, {0, 0, 0, 0, 0, 0, 30, 0}, 30, 0, 0));
    return r;
}

} // namespace

class TstRankStepRoles : public QObject {
    Q_OBJECT
private slots:
    void sumsByHand();
    void stepNamesInOrder();
    void digestJsonRoundTrip();
    void dlrmRanksAsEachAlone();
    void cliRankTable();
};

void TstRankStepRoles::sumsByHand() {
    const StepRoleSum all = sumStepRoles(rankA());
    QCOMPARE(all.steps, size_t(2));
    QCOMPARE(all.total, TimeNs(300));
    QCOMPARE(all.role[size_t(StepRole::Kernel)], TimeNs(210));
    QCOMPARE(all.role[size_t(StepRole::Communication)], TimeNs(40));
    QCOMPARE(all.role[size_t(StepRole::Runtime)], TimeNs(30));
    QCOMPARE(all.role[size_t(StepRole::Other)], TimeNs(20));
    QCOMPARE(all.computation, TimeNs(210));
    QCOMPARE(all.communication, TimeNs(70));
    QCOMPARE(all.overlap, TimeNs(15));
    // 100 - 60 - 20 + 10 = 30; 200 - 150 - 50 + 5 = 5.
    QCOMPARE(all.otherThanBoth, TimeNs(35));

    const StepRoleSum two = sumStepRoles(rankA(), "ProfilerStep#2");
    QCOMPARE(two.steps, size_t(1));
    QCOMPARE(two.total, TimeNs(200));
    QCOMPARE(two.role[size_t(StepRole::Kernel)], TimeNs(150));
    QCOMPARE(two.overlap, TimeNs(5));
    QCOMPARE(sumStepRoles(rankA(), "ProfilerStep#3"), StepRoleSum{});

    // The whole of step #2 over both ranks: 200 + 50, kernel 150 + 50.
    StepRoleSum whole = two;
    whole += sumStepRoles(rankB(), "ProfilerStep#2");
    QCOMPARE(whole.steps, size_t(2));
    QCOMPARE(whole.total, TimeNs(250));
    QCOMPARE(whole.role[size_t(StepRole::Kernel)], TimeNs(200));
    QCOMPARE(whole.computation, TimeNs(200));
    QCOMPARE(whole.otherThanBoth, TimeNs(5));
}

void TstRankStepRoles::stepNamesInOrder() {
    const StepRoles a = rankA(), b = rankB();
    const std::vector<std::string> names = stepRoleNames({&a, nullptr, &b});
    QCOMPARE(names,
             (std::vector<std::string>{"ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3"}));
    QVERIFY(stepRoleNames({}).empty());
}

// The roles a digest carries read back exactly; a digest written before them (no "step_roles")
// reads with none; roles that do not sum to their step are refused, naming where.
void TstRankStepRoles::digestJsonRoundTrip() {
    RankDigest d;
    d.file = "r0.json";
    d.bounds = {0, 1000};
    d.stepRoles = rankA();
    d.stepRoles.tailStepsLeftOut = 2;
    std::string error;
    const std::optional<RankDigest> back = rankDigestFromText(rankDigestToText(d), &error);
    QVERIFY2(back, error.c_str());
    QVERIFY(back->stepRoles == d.stepRoles);

    nlohmann::json older = nlohmann::json::parse(rankDigestToText(d));
    older.erase("step_roles");
    const std::optional<RankDigest> old = rankDigestFromJson(older, &error);
    QVERIFY2(old, error.c_str());
    QVERIFY(old->stepRoles.steps.empty());

    nlohmann::json bad = nlohmann::json::parse(rankDigestToText(d));
    bad["step_roles"]["steps"][1]["roles_ns"]["kernel"] = 151;
    QVERIFY(!rankDigestFromJson(bad, &error));
    QCOMPARE(QString::fromStdString(error),
             QStringLiteral("step_roles.steps[1].roles_ns: the roles sum to 201 ns, not the "
                            "step's length 200 ns"));
}

// Each rank's roles as the set digests it (digestSet: the window's and strata-cli's one way)
// equal stepRoles on its trace loaded alone, step for step; the DLRM ranks have one step each.
void TstRankStepRoles::dlrmRanksAsEachAlone() {
    REQUIRE_DLRM_FILES(files);
    const std::vector<SetDigest> set = digestSet(files, AnalysisSettings{});
    QCOMPARE(set.size(), files.size());
    for (size_t i = 0; i < files.size(); ++i) {
        QVERIFY2(set[i].outcome.digest, set[i].outcome.error.c_str());
        const RankDigest& d = *set[i].outcome.digest;
        const LoadResult alone = loadTrace(files[i]);
        QVERIFY(alone.ok());
        const StepRoles own = stepRoles(*alone.trace);
        QCOMPARE(own.steps.size(), size_t(1));
        QVERIFY2(d.stepRoles == own, files[i].c_str());
        const StepRoleSum sum = sumStepRoles(d.stepRoles);
        QCOMPARE(sum.total, own.steps[0].duration());
        TimeNs roles = 0;
        for (TimeNs t : sum.role) roles += t;
        QCOMPARE(roles, sum.total);
        std::string error;
        const std::optional<RankDigest> back = rankDigestFromText(rankDigestToText(d), &error);
        QVERIFY2(back && *back == d, error.c_str());
    }
}

// strata-cli breakdown over the eight ranks: the rank x role table after each trace's own, and in
// the JSON a row per rank in rank order and the whole. The ranks' step times are those
// expected_step_roles.py computes from the raw JSON: 14.455, 18.584, 13.017, 18.711, 17.979,
// 17.797, 13.091 and 12.509 ms, 126.143 ms in all; --step sums one step (none such: nothing).
void TstRankStepRoles::cliRankTable() {
    REQUIRE_DLRM_FILES(files);
    QStringList paths;
    for (const std::string& f : files) paths << QString::fromStdString(f);
    const ProcessRun text = runStrataCli(QStringList{"breakdown"} + paths);
    QCOMPARE(text.exitCode, 0);
    const QString out = QString::fromUtf8(text.out);
    QVERIFY(out.contains("step time by role per rank (TensorBoard's Overview), summed over each "
                         "rank's steps"));
    QVERIFY2(out.contains(QRegularExpression(R"(\n +all +8 +126\.1 ms )")), qPrintable(out));

    const ProcessRun json =
        runStrataCli(QStringList{"breakdown", "--json", "--step", "ProfilerStep#10"} + paths);
    QCOMPARE(json.exitCode, 0);
    const nlohmann::json j = nlohmann::json::parse(json.out.toStdString());
    QCOMPARE(j["rank_step"].get<std::string>(), std::string("ProfilerStep#10"));
    QCOMPARE(j["ranks"].size(), size_t(8));
    const double totals[8] = {14455, 18584, 13017, 18711, 17979, 17797, 13091, 12509};
    for (size_t r = 0; r < 8; ++r) {
        const nlohmann::json& row = j["ranks"][r];
        QCOMPARE(row["rank"].get<int64_t>(), int64_t(r));
        QCOMPARE(row["step_roles"]["steps_summed"].get<size_t>(), size_t(1));
        QCOMPARE(row["step_roles"]["total_us"].get<double>(), totals[r]);
        QCOMPARE(row["step_roles"]["steps"][0]["step"].get<std::string>(),
                 std::string("ProfilerStep#10"));
    }
    QCOMPARE(j["whole"]["step_roles"]["steps_summed"].get<size_t>(), size_t(8));
    QCOMPARE(j["whole"]["step_roles"]["total_us"].get<double>(), 126143.0);

    const ProcessRun none =
        runStrataCli(QStringList{"breakdown", "--json", "--step", "ProfilerStep#3"} + paths);
    QCOMPARE(none.exitCode, 0);
    const nlohmann::json n = nlohmann::json::parse(none.out.toStdString());
    QCOMPARE(n["whole"]["step_roles"]["steps_summed"].get<size_t>(), size_t(0));
    QCOMPARE(n["whole"]["step_roles"]["total_us"].get<double>(), 0.0);
    QCOMPARE(n["ranks"][3]["step_roles"]["steps"].size(), size_t(1)); // its steps, all of them
}

STRATA_TEST_GUILESS_MAIN(TstRankStepRoles)
#include "tst_rank_step_roles.moc"
