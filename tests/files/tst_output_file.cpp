// How Strata writes and reads files (issue 42: util/output_file.h, util/input_file.h): an output
// replaces only a regular file or nothing, through a fresh temporary; a device or a FIFO with a
// reader is written into and stays what it was; a FIFO with no reader, a folder, a socket and a
// block device are refused at once; a link the user named is followed (the link stays a link),
// a name Strata made never is; an input is opened only when it is a regular file, never
// blocking. Each expectation follows from the rule stated in the headers.
#include "support/test_files.h"
#include "support/test_main.h"
#include "util/input_file.h"
#include "util/output_file.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

using namespace strata;
namespace fs = std::filesystem;

namespace {

using strata::test::readAll;

using strata::test::writeAll;

mode_t kindOf(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) return 0;
    return st.st_mode & S_IFMT;
}

// Everything in `dir` but the names given (leftover temporaries).
QStringList othersIn(const QString& dir, const QStringList& expected) {
    QStringList left = QDir(dir).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot);
    for (const QString& e : expected) left.removeAll(e);
    return left;
}

} // namespace

class TestOutputFile : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void newFileIsWrittenWhole() {
        std::string error;
        QVERIFY2(writeWholeFile(path("new.txt"), "hello", &error), error.c_str());
        QCOMPARE(readAll(path("new.txt")), std::string("hello"));
        QCOMPARE(kindOf(path("new.txt")), mode_t(S_IFREG));
    }

    void regularFileIsReplacedAndKeepsItsMode() {
        writeAll(path("old.txt"), "old contents, longer than the new");
        ::chmod(path("old.txt").c_str(), 0600);
        std::string error;
        auto out = OutputFile::open(path("old.txt"), &error);
        QVERIFY2(out, error.c_str());
        QVERIFY(!out->inPlace());
        // Nothing under the name changes until commit: the old file is still whole.
        std::fputs("new", out->stream());
        QCOMPARE(readAll(path("old.txt")), std::string("old contents, longer than the new"));
        QVERIFY2(out->commit(&error), error.c_str());
        QCOMPARE(readAll(path("old.txt")), std::string("new"));
        struct stat st {};
        QCOMPARE(::stat(path("old.txt").c_str(), &st), 0);
        QCOMPARE(st.st_mode & 0777, mode_t(0600)); // a private file stays private
    }

    void abortLeavesNothing() {
        const QString sub = dir_.filePath(QStringLiteral("abort"));
        QVERIFY(QDir().mkpath(sub));
        const std::string file = (sub + QStringLiteral("/x.json")).toStdString();
        writeAll(file, "kept");
        std::string error;
        {
            auto out = OutputFile::open(file, &error);
            QVERIFY2(out, error.c_str());
            std::fputs("dropped", out->stream());
            QCOMPARE(othersIn(sub, {QStringLiteral("x.json")}).size(), 1); // the temporary
        }                                                                  // not committed: dropped
        QCOMPARE(readAll(file), std::string("kept"));
        QCOMPARE(othersIn(sub, {QStringLiteral("x.json")}), QStringList());
    }

    void characterDeviceIsWrittenIntoNeverReplaced() {
        // /dev/null itself (as root a mistake would replace it: so a node of our own when we
        // may make one).
        std::string device = "/dev/null";
        if (::geteuid() == 0) {
            device = path("null-device");
            QCOMPARE(::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
        }
        std::string error;
        QVERIFY2(writeWholeFile(device, "into the device", &error), error.c_str());
        QCOMPARE(kindOf(device), mode_t(S_IFCHR));
        QCOMPARE(othersIn(dir_.path(), {QStringLiteral("null-device"), QStringLiteral("new.txt"),
                                        QStringLiteral("old.txt"), QStringLiteral("abort")}),
                 QStringList());
    }

    void fifoWithNoReaderIsRefusedAtOnce() {
        const std::string fifo = path("no-reader.fifo");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QElapsedTimer clock;
        clock.start();
        std::string error;
        QVERIFY(!writeWholeFile(fifo, "x", &error));
        QVERIFY2(clock.elapsed() < 5000, "it waited for a reader");
        QVERIFY2(error.find("FIFO") != std::string::npos, error.c_str());
        QCOMPARE(kindOf(fifo), mode_t(S_IFIFO)); // still a FIFO
    }

    void fifoWithAReaderIsWrittenInto() {
        const std::string fifo = path("reader.fifo");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        std::string got;
        std::thread reader([&] { got = readAll(fifo); }); // blocks until a writer opens it
        std::string error;
        bool ok = false;
        for (int i = 0; i < 500 && !ok; ++i) { // until the reader has the FIFO open
            ok = writeWholeFile(fifo, "through the pipe", &error);
            if (!ok) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        reader.join();
        QVERIFY2(ok, error.c_str());
        QCOMPARE(got, std::string("through the pipe"));
        QCOMPARE(kindOf(fifo), mode_t(S_IFIFO));
    }

    void folderAndSocketAreRefused() {
        std::string error;
        QVERIFY(!writeWholeFile(dir_.path().toStdString(), "x", &error));
        QVERIFY2(error.find("a folder") != std::string::npos, error.c_str());
    }

    void namedLinkIsFollowedAndStaysALink() {
        writeAll(path("target.txt"), "before");
        fs::create_symlink(path("target.txt"), path("link.txt"));
        std::string error;
        QVERIFY2(writeWholeFile(path("link.txt"), "after", &error), error.c_str());
        QCOMPARE(kindOf(path("link.txt")), mode_t(S_IFLNK));
        QCOMPARE(fs::read_symlink(path("link.txt")).string(), path("target.txt"));
        QCOMPARE(readAll(path("target.txt")), std::string("after"));
    }

    void madeNamesNeverGoThroughALinkNorIntoAFifo() {
        writeAll(path("victim.txt"), "untouched");
        fs::create_symlink(path("victim.txt"), path("planted.json"));
        OutputOptions made;
        made.named = false;
        std::string error;
        QVERIFY(!writeWholeFile(path("planted.json"), "x", &error, made));
        QVERIFY2(error.find("symbolic link") != std::string::npos, error.c_str());
        QCOMPARE(readAll(path("victim.txt")), std::string("untouched"));
        QCOMPARE(kindOf(path("planted.json")), mode_t(S_IFLNK));
        QCOMPARE(::mkfifo(path("planted.fifo").c_str(), 0600), 0);
        QVERIFY(!writeWholeFile(path("planted.fifo"), "x", &error, made));
        QCOMPARE(kindOf(path("planted.fifo")), mode_t(S_IFIFO));
    }

    void linkThatLeadsNowhereIsRefused() {
        fs::create_symlink(path("missing/nothing.txt"), path("dangling.txt"));
        std::string error;
        QVERIFY(!writeWholeFile(path("dangling.txt"), "x", &error));
        QCOMPARE(kindOf(path("dangling.txt")), mode_t(S_IFLNK));
    }

    void anotherUsersLinkInAStickyFolderIsNotFollowed() {
        if (::geteuid() != 0) QSKIP("needs root to make a link owned by another user");
        const QString shared = dir_.filePath(QStringLiteral("sticky"));
        QVERIFY(QDir().mkpath(shared));
        ::chmod(shared.toUtf8().constData(), 01777);
        const std::string link = (shared + QStringLiteral("/out.json")).toStdString();
        writeAll(path("root-only.txt"), "secret");
        fs::create_symlink(path("root-only.txt"), link);
        QCOMPARE(::lchown(link.c_str(), 65534, 65534), 0); // planted by "nobody"
        std::string error;
        QVERIFY(!writeWholeFile(link, "x", &error));
        QVERIFY2(error.find("another user") != std::string::npos, error.c_str());
        QCOMPARE(readAll(path("root-only.txt")), std::string("secret"));
    }

    void inputsAreRegularFilesOnly() {
        const std::string fifo = path("input.fifo");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        std::string error;
        QElapsedTimer clock;
        clock.start();
        QVERIFY(!openRegularFile(fifo, &error).valid()); // no writer: open() would block
        QVERIFY2(clock.elapsed() < 5000, "it waited for a writer");
        QVERIFY2(error.find("FIFO") != std::string::npos, error.c_str());
        QVERIFY(!openRegularFile("/dev/zero", &error).valid());
        QVERIFY2(error.find("character device") != std::string::npos, error.c_str());
        QVERIFY(!openRegularFile(dir_.path().toStdString(), &error).valid());
        QVERIFY2(error.find("folder") != std::string::npos, error.c_str());
        std::string text;
        QVERIFY(readRegularFile(path("target.txt"), &text, &error, 100));
        QCOMPARE(text, std::string("after"));
        QVERIFY(!readRegularFile(path("target.txt"), &text, &error, 2)); // over the bound
        InputOpen own;
        own.noFollow = true;
        QVERIFY(!openRegularFile(path("link.txt"), &error, nullptr, own).valid());
    }
};

STRATA_TEST_GUILESS_MAIN(TestOutputFile)
#include "tst_output_file.moc"
