// strata-cli onto and from what is not a regular file (issue 42): `convert` and `export` onto a
// device node write into it and leave it a device; onto a FIFO no program reads, they fail at
// once and leave it a FIFO; onto a link they write where it leads and leave it a link. `digest`
// never writes through a link or into a FIFO or a device planted under a digest's name. A FIFO
// given as the input of summary, convert or export is an error within a second, naming it. The
// expectations follow from util/output_file.h's and util/input_file.h's rules.
#include "support/process_run.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace fs = std::filesystem;

namespace {

const QString kCli = QStringLiteral(STRATA_CLI);
const QString kSample = QStringLiteral(STRATA_SOURCE_DIR "/resources/sample_trace.json");

struct Run {
    int exit = -1;
    QString err;
    qint64 ms = 0;
};

Run cli(const QStringList& args) {
    QElapsedTimer clock;
    clock.start();
    const strata::test::ProcessRun p =
        strata::test::runProcess(kCli, args, QProcessEnvironment::systemEnvironment(), 60000);
    Run r;
    if (p.exitCode == -1) {
        r.err = QStringLiteral("did not end within 60 s");
        return r;
    }
    r.ms = clock.elapsed();
    r.exit = p.exitCode;
    r.err = QString::fromUtf8(p.err);
    return r;
}

mode_t kindOf(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

using strata::test::readAll;

} // namespace

class TestCliOutputs : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }
    QString qpath(const char* name) const { return dir_.filePath(name); }

    // A character device that discards what it is given: a node of our own (1, 3: null) when we
    // may make one, else /dev/null itself (which a non-root process cannot replace anyway).
    std::string nullDevice() const {
        if (::geteuid() != 0) return "/dev/null";
        const std::string node = path("null-node");
        if (kindOf(node) == 0) ::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3));
        return node;
    }

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void convertAndExportIntoADevice() {
        const std::string device = nullDevice();
        for (const QStringList& args :
             {QStringList{QStringLiteral("convert"), kSample, QString::fromStdString(device)},
              QStringList{QStringLiteral("export"), QStringLiteral("--format"),
                          QStringLiteral("perfetto-json"), kSample,
                          QString::fromStdString(device)}}) {
            const Run r = cli(args);
            QVERIFY2(r.exit == 0, qPrintable(args.join(' ') + ": " + r.err));
            QCOMPARE(kindOf(device), mode_t(S_IFCHR)); // still the device
        }
    }

    void convertOntoAFifoNoOneReads() {
        const std::string fifo = path("out.fifo");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const Run r = cli({QStringLiteral("convert"), kSample, QString::fromStdString(fifo)});
        QCOMPARE(r.exit, 1);
        QVERIFY2(r.err.contains(QStringLiteral("FIFO")), qPrintable(r.err));
        QVERIFY2(r.ms < 10000, "convert waited for a reader");
        QCOMPARE(kindOf(fifo), mode_t(S_IFIFO));
    }

    void convertOntoALinkWritesWhereItLeads() {
        std::ofstream(path("target.strata")) << "old";
        fs::create_symlink(path("target.strata"), path("link.strata"));
        const Run r = cli({QStringLiteral("convert"), kSample, qpath("link.strata")});
        QVERIFY2(r.exit == 0, qPrintable(r.err));
        QCOMPARE(kindOf(path("link.strata")), mode_t(S_IFLNK));
        QCOMPARE(fs::read_symlink(path("link.strata")).string(), path("target.strata"));
        QCOMPARE(readAll(path("target.strata")).substr(0, 6), std::string("STRATA"));
        // Opens as the model file it now is, through the link.
        const Run summary = cli({QStringLiteral("summary"), qpath("link.strata")});
        QVERIFY2(summary.exit == 0, qPrintable(summary.err));
    }

    void digestNeverWritesThroughWhatWasPlanted() {
        const QString out = dir_.filePath(QStringLiteral("digests"));
        QVERIFY(QDir().mkpath(out));
        const std::string name =
            (out + QStringLiteral("/sample_trace.json.digest.json")).toStdString();
        std::ofstream(path("victim.txt")) << "untouched";
        struct Planted {
            const char* what;
            std::function<void()> plant;
            mode_t kind;
        };
        const std::vector<Planted> planted = {
            {"link", [&] { fs::create_symlink(path("victim.txt"), name); }, S_IFLNK},
            {"fifo", [&] { ::mkfifo(name.c_str(), 0600); }, S_IFIFO},
            {"device",
             [&] {
                 if (::geteuid() == 0)
                     ::mknod(name.c_str(), S_IFCHR | 0666, makedev(1, 3));
                 else
                     fs::create_symlink("/dev/null", name); // a link to one, then
             },
             ::geteuid() == 0 ? mode_t(S_IFCHR) : mode_t(S_IFLNK)},
        };
        for (const Planted& p : planted) {
            fs::remove(name);
            p.plant();
            const Run r = cli({QStringLiteral("digest"), QStringLiteral("-o"), out, kSample});
            QVERIFY2(r.exit == 1, qPrintable(QString::fromUtf8(p.what) + ": " + r.err));
            QVERIFY2(r.err.contains(QStringLiteral("not")), qPrintable(r.err));
            QVERIFY2(r.ms < 30000, p.what);
            QCOMPARE(kindOf(name), p.kind);
            QCOMPARE(readAll(path("victim.txt")), std::string("untouched"));
        }
        fs::remove(name);
        const Run ok = cli({QStringLiteral("digest"), QStringLiteral("-o"), out, kSample});
        QVERIFY2(ok.exit == 0, qPrintable(ok.err));
        QCOMPARE(kindOf(name), mode_t(S_IFREG));
    }

    void fifoInputsAreRefusedAtOnce() {
        const std::string fifo = path("in.fifo");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const QString in = QString::fromStdString(fifo);
        for (const QStringList& args :
             {QStringList{QStringLiteral("summary"), in},
              QStringList{QStringLiteral("convert"), in, qpath("from-fifo.strata")},
              QStringList{QStringLiteral("export"), QStringLiteral("--format"),
                          QStringLiteral("perfetto-json"), in, qpath("from-fifo.json")},
              QStringList{QStringLiteral("summary"), QStringLiteral("--cache"), in}}) {
            const Run r = cli(args);
            QVERIFY2(r.exit != 0, qPrintable(args.join(' ')));
            QVERIFY2(r.err.contains(QStringLiteral("FIFO")), qPrintable(r.err));
            QVERIFY2(r.ms < 10000, qPrintable(args.join(' ') + " waited on the FIFO"));
        }
        QVERIFY(!fs::exists(path("from-fifo.strata")) && !fs::exists(path("from-fifo.json")));
    }
};

STRATA_TEST_GUILESS_MAIN(TestCliOutputs)
#include "tst_cli_outputs.moc"
