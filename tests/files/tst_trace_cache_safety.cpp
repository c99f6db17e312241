// The trace cache never serves another file's model (issue 42): a trace rewritten in place with
// its size and modification time put back misses (its status-change time, and a hash of its
// first and last MiB, are in the key); a trace replaced while it loads is not kept under either
// stamp; the folder is private (made 0700, narrowed, refused when it is another user's or a link
// in a shared folder); a FIFO, a link or another user's file under an entry's name is neither
// read, followed nor replaced, and the load goes on from the trace itself. Expectations follow
// from those rules; the traces are copies of ../shared/traces, edited by hand where named.
#include "io/cache/trace_cache.h"
#include "io/synthetic/synthetic_trace.h"
#include "io/trace_loader.h"
#include "model/trace.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace strata;
namespace fs = std::filesystem;

namespace {

const std::string kDlrm =
    STRATA_SHARED_TRACES "/param-dlrm__worker0_step_12.1694128201545.pt.trace.json";
const std::string kHta = STRATA_SHARED_TRACES "/hta__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";

using strata::test::readAll;

// Rewrites `path` in place (same inode, same size) with every `from` replaced by `to` (same
// length), then puts its modification time back, as `cp -p` or `touch -d` would.
void rewriteKeepingMtime(const std::string& path, const std::string& from, const std::string& to) {
    struct stat st {};
    QCOMPARE(::stat(path.c_str(), &st), 0);
    std::string text = readAll(path);
    for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at))
        text.replace(at, from.size(), to);
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.write(text.data(), std::streamsize(text.size()));
    }
    const timespec times[2] = {st.st_atim, st.st_mtim};
    QCOMPARE(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
    struct stat after {};
    QCOMPARE(::stat(path.c_str(), &after), 0);
    QCOMPARE(after.st_size, st.st_size);
    QCOMPARE(after.st_ino, st.st_ino);
    QCOMPARE(after.st_mtim.tv_nsec, st.st_mtim.tv_nsec);
}

// One byte at `at` becomes `to`, the modification time put back.
void patchKeepingMtime(const std::string& path, size_t at, char to) {
    struct stat st {};
    QCOMPARE(::stat(path.c_str(), &st), 0);
    {
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(std::streamoff(at));
        f.put(to);
    }
    const timespec times[2] = {st.st_atim, st.st_mtim};
    QCOMPARE(::utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
}

bool holdsName(const Trace& t, const char* name) {
    return t.strings().find(name) != StringPool::kNotFound;
}

mode_t kindOf(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

} // namespace

class TestTraceCacheSafety : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const std::string& name) const {
        return dir_.filePath(QString::fromStdString(name)).toStdString();
    }
    TraceCacheSettings settings(const std::string& sub) const {
        TraceCacheSettings s;
        s.directory = path(sub);
        s.minFileBytes = 1;
        return s;
    }
    std::string copyOf(const std::string& from, const std::string& name) const {
        fs::copy_file(from, path(name), fs::copy_options::overwrite_existing);
        return path(name);
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // A same-size rewrite with its mtime put back: the names it now holds are shown, not the
    // cached ones.
    void sameSizeRewriteWithMtimeRestoredMisses() {
        const TraceCache cache(settings("c1"));
        const std::string trace = copyOf(kDlrm, "rewritten.json");
        QVERIFY(loadTraceCached(trace, cache).ok());
        QVERIFY(cache.open(trace).ok());
        rewriteKeepingMtime(trace, "aten::_local_scalar_dense", "aten::_local_scalar_DENSE");
        QVERIFY(!cache.open(trace).ok());
        const LoadResult again = loadTraceCached(trace, cache);
        QVERIFY(again.ok());
        QVERIFY(again.cacheFile.empty()); // read from the trace itself
        QVERIFY(holdsName(*again.trace, "aten::_local_scalar_DENSE"));
        QVERIFY(!holdsName(*again.trace, "aten::_local_scalar_dense"));
        const LoadResult third = loadTraceCached(trace, cache); // its new entry
        QVERIFY(!third.cacheFile.empty());
        QVERIFY(holdsName(*third.trace, "aten::_local_scalar_DENSE"));
    }

    // The same where the change lies past the hashed first and last MiB: the status-change time
    // tells.
    void rewriteInTheMiddleOfALargeTraceMisses() {
        const std::string trace = path("large.json");
        SynthOptions o;
        o.events = 40000; // about 9 MB of JSON
        std::string error;
        QVERIFY2(writeSyntheticTrace(o, trace, nullptr, &error), error.c_str());
        QVERIFY(fs::file_size(trace) > (uint64_t(4) << 20));
        const TraceCache cache(settings("c2"));
        QVERIFY(loadTraceCached(trace, cache).ok());
        QVERIFY(cache.open(trace).ok());
        // One digit of a timestamp in the middle becomes another, the modification time put
        // back: size, mtime, inode and the hashed ends are all as they were.
        const std::string text = readAll(trace);
        const size_t at = text.find("\"ts\": ", text.size() / 2) + 6;
        QVERIFY(at > (uint64_t(1) << 20) && at + (uint64_t(1) << 20) < text.size());
        QVERIFY(text[at] >= '0' && text[at] <= '9');
        const std::string digits = text.substr(at, 1);
        patchKeepingMtime(trace, at, digits == "1" ? '2' : '1');
        QVERIFY(!cache.open(trace).ok());
    }

    void stampsTellContentApart() {
        // Two files of the same size and modification time, different bytes.
        const std::string a = path("same-a.json"), b = path("same-b.json");
        std::ofstream(a) << "{\"traceEvents\": [1]}";
        std::ofstream(b) << "{\"traceEvents\": [2]}";
        const timespec times[2] = {{1700000000, 5}, {1700000000, 5}};
        QCOMPARE(::utimensat(AT_FDCWD, a.c_str(), times, 0), 0);
        QCOMPARE(::utimensat(AT_FDCWD, b.c_str(), times, 0), 0);
        const auto sa = TraceCache::stamp(a), sb = TraceCache::stamp(b);
        QVERIFY(sa && sb);
        QCOMPARE(sa->size, sb->size);
        QCOMPARE(sa->mtimeNs, sb->mtimeNs);
        QVERIFY(sa->contentHash != sb->contentHash);
        QVERIFY(!sa->sameFile(*sb));
    }

    // A new run moved onto the path while the old one loads: what was read is the old file,
    // kept under neither stamp; the next open reads the new one.
    void replacedWhileLoadingIsNotKept() {
        const TraceCache cache(settings("c3"));
        const std::string trace = copyOf(kHta, "run.json.gz");
        const std::string next = copyOf(kDlrm, "next.json");
        const size_t dlrmSlices = loadTrace(kDlrm).trace->sliceCount();
        const size_t htaSlices = loadTrace(kHta).trace->sliceCount();
        QVERIFY(dlrmSlices != htaSlices);
        LoadOptions options;
        bool moved = false;
        options.progress = [&](double) {
            if (!moved) moved = std::rename(next.c_str(), trace.c_str()) == 0;
            return true;
        };
        const LoadResult first = cache.load(trace, options);
        QVERIFY(moved);
        QVERIFY(first.ok());
        QCOMPARE(first.trace->sliceCount(), htaSlices); // the file as it was opened
        QVERIFY(!first.cacheSource.has_value());        // not to be kept
        QCOMPARE(cache.entryCount(), size_t(0));
        const LoadResult second = loadTraceCached(trace, cache);
        QVERIFY(second.ok() && second.cacheFile.empty());
        QCOMPARE(second.trace->sliceCount(), dlrmSlices);
        const LoadResult third = loadTraceCached(trace, cache);
        QVERIFY(!third.cacheFile.empty());
        QCOMPARE(third.trace->sliceCount(), dlrmSlices);
    }

    void folderIsMadePrivate() {
        const TraceCache cache(settings("c4/strata"));
        QCOMPARE(cache.prepareDirectory(), std::string());
        struct stat st {};
        QCOMPARE(::stat(path("c4/strata").c_str(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0700));
        ::chmod(path("c4/strata").c_str(), 0777); // one made open by hand: narrowed
        QCOMPARE(cache.prepareDirectory(), std::string());
        QCOMPARE(::stat(path("c4/strata").c_str(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0700));
    }

    // In a folder anyone may write to (as /tmp, where the cache goes without a home), a link
    // under the cache's name is another user's trap: not used.
    void linkInASharedFolderIsRefused() {
        QVERIFY(QDir().mkpath(QString::fromStdString(path("shared"))));
        ::chmod(path("shared").c_str(), 01777);
        QVERIFY(QDir().mkpath(QString::fromStdString(path("elsewhere"))));
        fs::create_symlink(path("elsewhere"), path("shared/strata-cache-0"));
        const TraceCache cache(settings("shared/strata-cache-0"));
        const std::string error = cache.prepareDirectory();
        QVERIFY2(error.find("symbolic link") != std::string::npos, error.c_str());
        const std::string trace = copyOf(kDlrm, "in-shared.json");
        std::string storeError;
        QVERIFY(loadTraceCached(trace, cache, {}, &storeError).ok()); // read all the same
        QVERIFY(!storeError.empty());
        QVERIFY(fs::is_empty(path("elsewhere"))); // nothing written through the link
    }

    void anotherUsersFolderIsRefused() {
        if (::geteuid() != 0) QSKIP("needs root to make a folder owned by another user");
        QVERIFY(QDir().mkpath(QString::fromStdString(path("shared2/strata-cache-0"))));
        ::chmod(path("shared2").c_str(), 01777);
        QCOMPARE(::chown(path("shared2/strata-cache-0").c_str(), 65534, 65534), 0);
        const TraceCache cache(settings("shared2/strata-cache-0"));
        const std::string error = cache.prepareDirectory();
        QVERIFY2(error.find("another user") != std::string::npos, error.c_str());
        QVERIFY(!cache.open(copyOf(kDlrm, "theirs.json")).ok());
    }

    // A FIFO under an entry's name: never opened (the load goes on at once from the trace), not
    // replaced, and the reason said.
    void fifoEntryNeitherHangsNorIsReplaced() {
        const TraceCache cache(settings("c5"));
        QCOMPARE(cache.prepareDirectory(), std::string());
        const std::string trace = copyOf(kDlrm, "fifo-entry.json");
        const std::string entry = cache.entryPath(*TraceCache::stamp(trace));
        QCOMPARE(::mkfifo(entry.c_str(), 0600), 0);
        QElapsedTimer clock;
        clock.start();
        std::string storeError;
        const LoadResult r = loadTraceCached(trace, cache, {}, &storeError);
        QVERIFY2(clock.elapsed() < 20000, "the load waited on the FIFO");
        QVERIFY(r.ok() && r.cacheFile.empty());
        QVERIFY2(storeError.find("FIFO") != std::string::npos, storeError.c_str());
        QCOMPARE(kindOf(entry), mode_t(S_IFIFO));
    }

    // A link under an entry's name, to a file of the user's: not read, not written through.
    void linkEntryIsNotFollowed() {
        const TraceCache cache(settings("c6"));
        QCOMPARE(cache.prepareDirectory(), std::string());
        const std::string trace = copyOf(kDlrm, "link-entry.json");
        const std::string entry = cache.entryPath(*TraceCache::stamp(trace));
        std::ofstream(path("precious.txt")) << "keep me";
        fs::create_symlink(path("precious.txt"), entry);
        std::string storeError;
        QVERIFY(loadTraceCached(trace, cache, {}, &storeError).ok());
        QVERIFY2(storeError.find("symbolic link") != std::string::npos, storeError.c_str());
        QCOMPARE(readAll(path("precious.txt")), std::string("keep me"));
        QCOMPARE(kindOf(entry), mode_t(S_IFLNK));
    }

    // Only files named as entries, of this user's, are the cache's: clear() leaves the rest.
    void clearTakesOnlyEntries() {
        const TraceCache cache(settings("c7"));
        const std::string trace = copyOf(kDlrm, "cleared.json");
        QVERIFY(loadTraceCached(trace, cache).ok());
        std::ofstream(path("c7/notes.strata")) << "not an entry's name";
        std::ofstream(path("c7/readme.txt")) << "mine";
        QCOMPARE(cache.entryCount(), size_t(1));
        QCOMPARE(cache.clear(), std::string());
        QCOMPARE(cache.entryCount(), size_t(0));
        QVERIFY(fs::exists(path("c7/notes.strata")) && fs::exists(path("c7/readme.txt")));
        if (::geteuid() ==
            0) { // another user's file under an entry's name: neither read nor removed
            QVERIFY(loadTraceCached(trace, cache).ok());
            const std::string entry = cache.entryPath(*TraceCache::stamp(trace));
            QCOMPARE(::chown(entry.c_str(), 65534, 65534), 0);
            QVERIFY(!cache.open(trace).ok());
            QCOMPARE(cache.clear(), std::string());
            QVERIFY(fs::exists(entry));
        }
    }
};

STRATA_TEST_GUILESS_MAIN(TestTraceCacheSafety)
#include "tst_trace_cache_safety.moc"
