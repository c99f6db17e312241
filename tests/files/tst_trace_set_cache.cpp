// A set of traces read through the trace cache (io/set/trace_set_loader.h's TraceSetOptions::cache,
// issue 43): loaded twice with an empty cache folder, the second time every file is served from
// its entry (LoadResult::cacheFile); a caller that writes the entries itself gets each result's
// stamp; a folder that cannot hold entries is said and the set is read all the same; digestSet
// through the cache. Then strata-cli --cache ranks A B and diff A B with an empty XDG_CACHE_HOME:
// the first run writes an entry per file, the second reads them (each entry marked used: its
// modification time set anew) and prints exactly what a run without the cache prints.
#include "support/process_run.h"
#include "support/rank_set_fixture.h"
#include "support/test_main.h"

#include "io/cache/trace_cache.h"
#include "io/set/digest_set.h"
#include "io/set/trace_set_loader.h"

#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <filesystem>
#include <mutex>

using namespace strata;
using namespace strata::test;
namespace fs = std::filesystem;

namespace {

// Rank r's trace: r + 1 kernels.
std::vector<std::string> writeRanks(const QTemporaryDir& dir, int n) {
    std::vector<std::string> paths;
    for (int r = 0; r < n; ++r) {
        HandRank rank(r);
        for (int k = 0; k <= r; ++k) rank.kernel("k", 7, 10 * k, 5);
        paths.push_back(dir.filePath(QString("rank%1.json").arg(r)).toStdString());
        rank.write(paths.back());
    }
    return paths;
}

TraceCacheSettings emptyCache(const QTemporaryDir& dir, const char* sub) {
    TraceCacheSettings s;
    s.directory = dir.filePath(sub).toStdString();
    s.minFileBytes = 0; // every trace, for the test
    return s;
}

std::vector<fs::path> entries(const std::string& folder) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder, ec))
        if (e.path().extension() == ".strata") out.push_back(e.path());
    return out;
}

ProcessRun cli(const QStringList& args, const QString& xdg) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CACHE_HOME"), xdg);
    env.insert(QStringLiteral("STRATA_CACHE_MIN_BYTES"), QStringLiteral("0"));
    return runProcess(QStringLiteral(STRATA_CLI), args, env);
}

} // namespace

class TstTraceSetCache : public QObject {
    Q_OBJECT
private slots:
    void setServedFromCacheTheSecondTime_data();
    void setServedFromCacheTheSecondTime();
    void callerWritesTheEntries();
    void unusableFolderIsSaid();
    void digestSetThroughCache();
    void cliRanksAndDiffFromCache_data();
    void cliRanksAndDiffFromCache();
};

void TstTraceSetCache::setServedFromCacheTheSecondTime_data() {
    QTest::addColumn<unsigned>("threads");
    QTest::newRow("one at a time") << 1u;
    QTest::newRow("one per core") << 0u;
}

void TstTraceSetCache::setServedFromCacheTheSecondTime() {
    QFETCH(unsigned, threads);
    QTemporaryDir dir;
    const std::vector<std::string> paths = writeRanks(dir, 4);
    const TraceCache cache(emptyCache(dir, "cache"));
    TraceSetOptions o;
    o.threads = threads;
    o.cache = &cache;
    const std::vector<LoadResult> first = loadTraces(paths, o);
    for (const LoadResult& r : first) {
        QVERIFY(r.ok());
        QVERIFY(r.cacheFile.empty()); // read from the file, then kept
        QVERIFY(r.cacheSource);
    }
    QCOMPARE(entries(cache.directory()).size(), size_t(4));
    const std::vector<LoadResult> second = loadTraces(paths, o);
    for (size_t i = 0; i < second.size(); ++i) {
        QVERIFY(second[i].ok());
        QVERIFY2(!second[i].cacheFile.empty(), paths[i].c_str());
        QCOMPARE(second[i].trace->sliceCount(), i + 1); // its own file's kernels
        QCOMPARE(second[i].format, std::string("chrome-json"));
    }
    // Without the cache: from the files.
    for (const LoadResult& r : loadTraces(paths)) QVERIFY(r.ok() && r.cacheFile.empty());
}

// storeInCache false: nothing is written while loading; each result carries the stamp its entry
// goes under, and once the caller stores them the set is served from the cache.
void TstTraceSetCache::callerWritesTheEntries() {
    QTemporaryDir dir;
    const std::vector<std::string> paths = writeRanks(dir, 3);
    const TraceCache cache(emptyCache(dir, "cache"));
    TraceSetOptions o;
    o.cache = &cache;
    o.storeInCache = false;
    const std::vector<LoadResult> first = loadTraces(paths, o);
    QCOMPARE(entries(cache.directory()).size(), size_t(0));
    for (const LoadResult& r : first) {
        QVERIFY(r.ok() && r.cacheSource);
        QCOMPARE(cache.store(*r.cacheSource, *r.trace), std::string());
    }
    for (const LoadResult& r : loadTraces(paths, o)) QVERIFY(r.ok() && !r.cacheFile.empty());
}

// The cache's folder is a file: each trace is read all the same, and why it was not kept is told
// (once per file).
void TstTraceSetCache::unusableFolderIsSaid() {
    QTemporaryDir dir;
    const std::vector<std::string> paths = writeRanks(dir, 2);
    const TraceCacheSettings s = emptyCache(dir, "not-a-folder");
    { std::ofstream(s.directory) << "x"; }
    const TraceCache cache(s);
    std::mutex m;
    std::vector<std::string> told;
    TraceSetOptions o;
    o.cache = &cache;
    o.storeFailed = [&](const std::string& path, const std::string& why) {
        const std::lock_guard lock(m);
        told.push_back(path + ": " + why);
    };
    for (const LoadResult& r : loadTraces(paths, o)) QVERIFY(r.ok() && r.cacheFile.empty());
    QCOMPARE(told.size(), size_t(2));
    for (const std::string& t : told)
        QVERIFY2(t.find("not a folder") != std::string::npos, t.c_str());
}

// digestSet reads the traces through the cache: the second time from it (the entries marked used),
// with the same digests.
void TstTraceSetCache::digestSetThroughCache() {
    QTemporaryDir dir;
    const std::vector<std::string> paths = writeRanks(dir, 3);
    const TraceCache cache(emptyCache(dir, "cache"));
    DigestSetOptions o;
    o.load.cache = &cache;
    const std::vector<SetDigest> first = digestSet(paths, {}, o);
    const std::vector<fs::path> made = entries(cache.directory());
    QCOMPARE(made.size(), size_t(3));
    const auto old = fs::file_time_type::clock::now() - std::chrono::hours(24 * 365);
    for (const fs::path& e : made) fs::last_write_time(e, old);
    const std::vector<SetDigest> second = digestSet(paths, {}, o);
    for (const fs::path& e : made) QVERIFY(fs::last_write_time(e) > old + std::chrono::hours(24));
    for (size_t i = 0; i < paths.size(); ++i) {
        QVERIFY(first[i].outcome.digest && second[i].outcome.digest);
        QVERIFY(*first[i].outcome.digest == *second[i].outcome.digest);
        QCOMPARE(second[i].outcome.digest->kernels, uint64_t(i + 1));
    }
}

void TstTraceSetCache::cliRanksAndDiffFromCache_data() {
    QTest::addColumn<QString>("command");
    QTest::newRow("ranks") << QStringLiteral("ranks");
    QTest::newRow("diff") << QStringLiteral("diff");
}

void TstTraceSetCache::cliRanksAndDiffFromCache() {
    QFETCH(QString, command);
    QTemporaryDir dir;
    const std::vector<std::string> paths = writeRanks(dir, 2);
    const QString a = QString::fromStdString(paths[0]), b = QString::fromStdString(paths[1]);
    const QString xdg = dir.filePath(QStringLiteral("xdg"));
    const std::string folder = (xdg + QStringLiteral("/strata")).toStdString();
    // diff's JSON holds its analysis time: the tables are compared (without that line).
    const QStringList args = command == QStringLiteral("ranks")
                                 ? QStringList{command, QStringLiteral("--json"), a, b}
                                 : QStringList{command, a, b};
    auto withoutTime = [](QByteArray out) {
        const qsizetype at = out.lastIndexOf("(analysed in");
        return at < 0 ? out : out.left(at);
    };
    const ProcessRun plain = cli(args, xdg);
    QCOMPARE(plain.exitCode, 0);
    QCOMPARE(entries(folder).size(), size_t(0)); // no --cache: no entry

    const ProcessRun first = cli(QStringList{QStringLiteral("--cache")} + args, xdg);
    QVERIFY2(first.exitCode == 0, first.err.constData());
    const std::vector<fs::path> made = entries(folder);
    QCOMPARE(made.size(), size_t(2)); // an entry per file
    const auto old = fs::file_time_type::clock::now() - std::chrono::hours(24 * 365);
    for (const fs::path& e : made) fs::last_write_time(e, old);

    const ProcessRun second = cli(QStringList{QStringLiteral("--cache")} + args, xdg);
    QVERIFY2(second.exitCode == 0, second.err.constData());
    QCOMPARE(entries(folder).size(), size_t(2));
    for (const fs::path& e : made) // read from: marked used
        QVERIFY2(fs::last_write_time(e) > old + std::chrono::hours(24), e.c_str());
    QCOMPARE(withoutTime(first.out), withoutTime(plain.out));
    QCOMPARE(withoutTime(second.out), withoutTime(plain.out));
    QCOMPARE(second.err, plain.err);
}

STRATA_TEST_GUILESS_MAIN(TstTraceSetCache)
#include "tst_trace_set_cache.moc"
