// core/record: output templates, options -> environment, the launcher (spawn, exit codes,
// errors, trace files) and `strata-cli record` end to end with a fake target that writes its
// own .strata file (tests/record_fake_target.cpp), so the whole path runs without a GPU.
#include "analysis/trace_info.h"
#include "contract/collector_env.h"
#include "contract/output_path.h"
#include "io/trace_loader.h"
#include "record/launcher.h"
#include "record/record_options.h"
#include "record/record_summary.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fstream>
#include <map>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace strata;

namespace {

const std::string kCli = STRATA_BINARY_DIR "/app/strata-cli";
const std::string kFakeTarget = STRATA_BINARY_DIR "/tests/record_fake_target";

// Reads two pipes to their ends without letting either fill up (poll on both).
std::pair<std::string, std::string> drainBoth(int outFd, int errFd) {
    std::string text[2];
    pollfd fds[2] = {{outFd, POLLIN, 0}, {errFd, POLLIN, 0}};
    int open = 2;
    char buf[4096];
    while (open > 0 && ::poll(fds, 2, 10'000) > 0) {
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || !fds[i].revents) continue;
            const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
            if (n > 0) {
                text[i].append(buf, size_t(n));
            } else {
                fds[i].fd = -1;
                --open;
            }
        }
    }
    return {text[0], text[1]};
}

std::string readAll(const std::string& path) {
    std::ifstream f(path);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

struct CliRun {
    int exitCode = -1;
    QString err;
};

CliRun runCli(const QStringList& args, const QProcessEnvironment& env) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QString::fromStdString(kCli), args);
    p.waitForFinished(60000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestLauncher : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string fakeCollector_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }
    std::string pathOf(const std::string& name) {
        return dir_.filePath(QString::fromStdString(name)).toStdString();
    }
    QProcessEnvironment cliEnv() {
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("STRATA_COLLECTOR", QString::fromStdString(fakeCollector_));
        return env;
    }
    RecordOptions options(std::vector<std::string> command) {
        RecordOptions o;
        o.command = std::move(command);
        o.collector = fakeCollector_;
        o.output = path("t-{pid}.strata");
        return o;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // The launcher only needs the collector to exist; the fake target never loads CUDA.
        fakeCollector_ = path("libstrata_collector.so");
        std::ofstream(fakeCollector_) << "not a real library\n";
        ::unsetenv("STRATA_COLLECTOR");
    }

    void expandTemplate_data() {
        QTest::addColumn<QString>("tmpl");
        QTest::addColumn<QString>("expected");
        QTest::newRow("all") << "/out/run_{pid}_{rank}_{host}.strata"
                             << "/out/run_4242_3_node7.strata";
        QTest::newRow("twice") << "{pid}-{pid}"
                               << "4242-4242";
        QTest::newRow("none") << "plain.strata"
                              << "plain.strata";
        QTest::newRow("unknown kept") << "{user}_{pid}"
                                      << "{user}_4242";
        QTest::newRow("unclosed") << "a{pid"
                                  << "a{pid";
    }

    void valuesFromTheEnvironmentStayInTheFolder_data() {
        QTest::addColumn<QString>("rank");
        QTest::addColumn<QString>("expected");
        QTest::newRow("climb") << "../../x"
                               << "out/.__.__x.strata";
        QTest::newRow("slash") << "a/b"
                               << "out/a_b.strata";
        QTest::newRow("dots") << ".."
                              << "out/._.strata";
        QTest::newRow("dot") << "."
                             << "out/_.strata";
        QTest::newRow("empty") << ""
                               << "out/_.strata";
        QTest::newRow("spaces and ctl") << "r 1\t$(x)"
                                        << "out/r_1___x_.strata";
        QTest::newRow("kept") << "node-7.a_b"
                              << "out/node-7.a_b.strata";
    }
    void valuesFromTheEnvironmentStayInTheFolder() {
        // Only [A-Za-z0-9._-] survive, a '.' after a '.' becomes '_': never "..", never '/'.
        QFETCH(QString, rank);
        QFETCH(QString, expected);
        const OutputPathValues v{1, rank.toStdString(), rank.toStdString()};
        QCOMPARE(QString::fromStdString(expandOutputPath("out/{rank}.strata", v)), expected);
        QCOMPARE(QString::fromStdString(expandOutputPath("out/{host}.strata", v)), expected);
    }

    void rankFromEnvironmentWritesInsideTheFolder() {
        // A real target with RANK=../../x and -o <dir>/out/{rank}.strata writes in out/.
        const QString out = dir_.filePath("out");
        QVERIFY(QDir().mkpath(out));
        auto env = cliEnv();
        env.insert("RANK", "../../x");
        const CliRun r = runCli(
            {"record", "-o", out + "/{rank}.strata", "--", QString::fromStdString(kFakeTarget)},
            env);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(QFile::exists(out + "/.__.__x.strata"), qPrintable(r.err));
        QVERIFY(!QFile::exists(dir_.filePath("x.strata")));
        QVERIFY2(r.err.contains("/out/.__.__x.strata"), qPrintable(r.err));
    }

    void existingOutputIsNotOverwritten() {
        const QString out = dir_.filePath("keep.strata");
        std::ofstream(out.toStdString()) << "an earlier recording\n";
        CliRun r =
            runCli({"record", "-o", out, "--", QString::fromStdString(kFakeTarget)}, cliEnv());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("keep.strata exists (an earlier recording?)") &&
                     r.err.contains("--force"),
                 qPrintable(r.err));
        QCOMPARE(readAll(out.toStdString()), std::string("an earlier recording\n"));
        r = runCli({"record", "--force", "-o", out, "--", QString::fromStdString(kFakeTarget)},
                   cliEnv());
        QCOMPARE(r.exitCode, 0);
        QVERIFY(readAll(out.toStdString()).substr(0, 6) != "an ear");
        // A template with {pid} is a new name per process: not an overwrite.
        std::ofstream(path("same-1.strata")) << "x\n";
        r = runCli({"record", "-o", dir_.filePath("same-{pid}.strata"), "--",
                    QString::fromStdString(kFakeTarget)},
                   cliEnv());
        QCOMPARE(r.exitCode, 0);
        // A folder that does not exist is refused before anything runs.
        r = runCli({"record", "-o", dir_.filePath("no/such/dir/t.strata"), "--",
                    QString::fromStdString(kFakeTarget)},
                   cliEnv());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no/such/dir does not exist"), qPrintable(r.err));
    }
    void expandTemplate() {
        QFETCH(QString, tmpl);
        QFETCH(QString, expected);
        const OutputPathValues v{4242, "3", "node7"};
        QCOMPARE(QString::fromStdString(expandOutputPath(tmpl.toStdString(), v)), expected);
    }

    void rankFromVariables() {
        std::map<std::string, std::string> env;
        auto get = [&](const char* n) -> const char* {
            auto it = env.find(n);
            return it == env.end() ? nullptr : it->second.c_str();
        };
        QCOMPARE(rankFromEnvironment(get), std::string("0"));
        env["PMI_RANK"] = "4";
        QCOMPARE(rankFromEnvironment(get), std::string("4"));
        env["SLURM_PROCID"] = "3";
        QCOMPARE(rankFromEnvironment(get), std::string("3"));
        env["OMPI_COMM_WORLD_RANK"] = "2";
        QCOMPARE(rankFromEnvironment(get), std::string("2"));
        env["RANK"] = "";
        QCOMPARE(rankFromEnvironment(get), std::string("2")); // empty is skipped
        env["RANK"] = "1";
        QCOMPARE(rankFromEnvironment(get), std::string("1"));
    }

    void matchTemplate() {
        QVERIFY(matchesOutputPath("run_{pid}.strata", "run_123.strata"));
        QVERIFY(!matchesOutputPath("run_{pid}.strata", "run_.strata"));
        QVERIFY(!matchesOutputPath("run_{pid}.strata", "run_12a.strata"));
        QVERIFY(matchesOutputPath("r{rank}-{host}-{pid}.strata", "r0-my-host-1-77.strata"));
        QVERIFY(!matchesOutputPath("r{rank}-{pid}.strata", "r0-77.json"));
        QVERIFY(matchesOutputPath("exact.strata", "exact.strata"));
        QVERIFY(matchesOutputPath("{host}", "a.b-c_d"));
        QVERIFY(!matchesOutputPath("{host}", "a/b"));
        QVERIFY(!matchesOutputPath("{host}", ""));
        // 30 {host} fields against a 2,000-character name that almost matches: exponential
        // with backtracking, a few ms as an automaton.
        std::string tmpl, name(2000, 'h');
        for (int i = 0; i < 30; ++i) tmpl += "{host}";
        tmpl += "!";
        QElapsedTimer t;
        t.start();
        QVERIFY(!matchesOutputPath(tmpl, name));
        QVERIFY(matchesOutputPath(tmpl, name + "!"));
        QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(hasPlaceholders("a{host}"));
        QVERIFY(!hasPlaceholders("a{hos}"));
    }

    void defaultTemplate() {
        // 2026-01-02 03:04:05 in local time.
        std::tm tm{};
        tm.tm_year = 126;
        tm.tm_mon = 0;
        tm.tm_mday = 2;
        tm.tm_hour = 3;
        tm.tm_min = 4;
        tm.tm_sec = 5;
        tm.tm_isdst = -1;
        QCOMPARE(expandStartTime(defaultOutputTemplate(), std::mktime(&tm)),
                 std::string("strata-20260102-030405-{host}-{pid}.strata"));
    }

    void captureList() {
        std::vector<std::string> out;
        std::string error;
        QVERIFY(parseCaptureList("kernels,api,kernels", &out, &error));
        QCOMPARE(out, (std::vector<std::string>{"kernels", "api"}));
        QVERIFY(parseCaptureList("all", &out, &error));
        QCOMPARE(out.size(), size_t(7));
        QVERIFY(!parseCaptureList("api,cuda", &out, &error));
        QVERIFY2(error.find("unknown capture group 'cuda'") == 0, error.c_str());
    }

    void optionsToEnvironment() {
        RecordOptions o;
        o.command = {"x"};
        o.capture = {"api", "kernels"};
        o.bufferSize = 8 << 20;
        o.wait = 1;
        o.active = 2;
        o.stepName = "train_step";
        o.captureRange = "profile";
        o.durationS = 2.5;
        o.flushMs = 100;
        const auto env = toCollectorEnvironment(o, "/o/{pid}.strata");
        const std::vector<std::pair<std::string, std::string>> expected = {
            {"STRATA_OUTPUT", "/o/{pid}.strata"},
            {"STRATA_CAPTURE", "api,kernels"},
            {"STRATA_BUFFER_SIZE", "8388608"},
            {"STRATA_SCHEDULE_WAIT", "1"},
            {"STRATA_SCHEDULE_WARMUP", "0"},
            {"STRATA_SCHEDULE_ACTIVE", "2"},
            {"STRATA_SCHEDULE_REPEAT", "0"},
            {"STRATA_STEP_NAME", "train_step"},
            {"STRATA_CAPTURE_RANGE", "profile"},
            {"STRATA_DURATION_S", "2.5"},
            {"STRATA_FLUSH_MS", "100"}};
        QCOMPARE(env, expected);
        QCOMPARE(toCollectorEnvironment(RecordOptions{}, "f").size(), size_t(1));
    }

    void validation() {
        std::string error;
        RecordOptions o;
        QVERIFY(!validateRecordOptions(o, &error));
        QVERIFY(error.find("no command") == 0);
        o.command = {"x"};
        QVERIFY(validateRecordOptions(o, &error));
        o.wait = 2;
        QVERIFY(!validateRecordOptions(o, &error));
        QVERIFY2(error.find("--active") != std::string::npos, error.c_str());
        o.active = 1;
        QVERIFY(!validateRecordOptions(o, &error));
        QVERIFY2(error.find("--step-name") != std::string::npos, error.c_str());
        o.stepName = "step";
        QVERIFY(validateRecordOptions(o, &error));
    }

    void targetEnvironment() {
        RecordOptions o;
        o.command = {"x"};
        o.capture = {"nvtx"};
        const char* base[] = {"PATH=/bin",
                              "STRATA_CAPTURE=api",
                              "STRATA_DURATION_S=9",
                              "CUDA_INJECTION64_PATH=/other/tool.so",
                              "STRATA_COLLECTOR=/c.so",
                              nullptr};
        const auto env = buildTargetEnvironment(o, "/lib/c.so", "/o/{pid}.strata", base);
        const std::string pid = std::to_string(getpid());
        const std::vector<std::string> expected = {
            "PATH=/bin",
            "STRATA_COLLECTOR=/c.so",
            "STRATA_OUTPUT=/o/{pid}.strata",
            "STRATA_CAPTURE=nvtx",
            "CUDA_INJECTION64_PATH=/lib/c.so",
            "NVTX_INJECTION64_PATH=/lib/c.so",
            "STRATA_LAUNCHER_PID=" + pid,
            "STRATA_REPLACED_INJECTION64_PATH=/other/tool.so"};
        QCOMPARE(env, expected);
    }

    void commandErrors() {
        std::string error;
        QVERIFY(resolveCommand("strata-no-such-command-xyz", "", &error).empty());
        QVERIFY2(error.find("strata-no-such-command-xyz: command not found in PATH") == 0,
                 error.c_str());
        QVERIFY(resolveCommand("/no/such/prog", "", &error).empty());
        QVERIFY2(error.find("/no/such/prog: command not found") == 0, error.c_str());
        const std::string plain = path("not_exec.sh");
        std::ofstream(plain) << "echo hi\n";
        ::chmod(plain.c_str(), 0644);
        QVERIFY(resolveCommand(plain, "", &error).empty());
        QVERIFY2(error.find(plain + ": not executable") == 0, error.c_str());
        QVERIFY(resolveCommand(dir_.path().toStdString(), "", &error).empty());
        QVERIFY2(error.find("is a directory") != std::string::npos, error.c_str());
        QCOMPARE(resolveCommand("sh", "", &error).substr(0, 1), std::string("/"));
    }

    void collectorErrors() {
        std::string error;
        RecordOptions o;
        o.collector = path("missing.so");
        QVERIFY(findCollector(o, &error).empty());
        QVERIFY2(error.find("--collector names " + o.collector) != std::string::npos,
                 error.c_str());
        o.collector.clear();
        ::setenv("STRATA_COLLECTOR", "/nowhere/lib.so", 1);
        QVERIFY(findCollector(o, &error).empty());
        QVERIFY2(error.find("$STRATA_COLLECTOR names /nowhere/lib.so") != std::string::npos,
                 error.c_str());
        ::unsetenv("STRATA_COLLECTOR");
        // The test binary lives in <build>/tests: the search ends in <build>/kernels/collector,
        // which holds the real collector only where CUDA was found.
        const std::string found = findCollector(o, &error);
        if (found.empty()) {
            QVERIFY2(error.find("collector not built") == 0, error.c_str());
            QVERIFY2(error.find("/../lib/strata/libstrata_collector.so") != std::string::npos,
                     error.c_str());
        } else {
            QVERIFY(found.find("libstrata_collector.so") != std::string::npos);
        }
        o.collector = fakeCollector_;
        QCOMPARE(findCollector(o, &error), fakeCollector_);
    }

    void exitCodes_data() {
        QTest::addColumn<QString>("script");
        QTest::addColumn<int>("code");
        QTest::newRow("0") << "exit 0" << 0;
        QTest::newRow("3") << "exit 3" << 3;
        QTest::newRow("SIGTERM") << "kill -TERM $$" << 143;
        QTest::newRow("SIGKILL") << "kill -KILL $$" << 137;
    }
    void exitCodes() {
        QFETCH(QString, script);
        QFETCH(int, code);
        Launcher l;
        std::string error;
        QVERIFY2(l.start(options({"sh", "-c", script.toStdString()}), &error), error.c_str());
        QVERIFY(l.pid() > 0);
        QCOMPARE(l.wait(), code);
        QCOMPARE(l.wait(), code); // again: the same answer
        int polled = -1;
        QVERIFY(l.poll(&polled));
        QCOMPARE(polled, code);
    }

    void relativeOutputFollowsWorkingDirectory() {
        const QString sub = dir_.filePath("wd");
        QVERIFY(QDir().mkpath(sub));
        RecordOptions o = options({kFakeTarget});
        o.output = "rel-{pid}.strata";
        o.workingDirectory = sub.toStdString();
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        QCOMPARE(l.outputTemplate(), sub.toStdString() + "/rel-{pid}.strata");
        QCOMPARE(l.wait(), 0);
        QCOMPARE(l.traceFiles(), std::vector<std::string>{sub.toStdString() + "/rel-" +
                                                          std::to_string(l.pid()) + ".strata"});
    }

    void killedTargetKeepsFlushedChunks() {
        // The target flushes its records, then is killed -9 before close(): the file loads with
        // everything flushed and says the writer never closed it.
        RecordOptions o = options({kFakeTarget, "--sleep-ms", "20000"});
        o.output = path("killed-{pid}.strata");
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        const std::string file = path("killed-") + std::to_string(l.pid()) + ".strata";
        for (int i = 0; i < 200 && summarizeTraceFile(file).slices < 4; ++i) QTest::qWait(25);
        l.sendSignal(SIGKILL);
        QCOMPARE(l.wait(), 137);
        QCOMPARE(l.traceFiles(), std::vector<std::string>{file});
        const TraceFileSummary s = summarizeTraceFile(file);
        QVERIFY2(s.loaded, s.error.c_str());
        QCOMPARE(s.slices, uint64_t(4));
        QCOMPARE(s.kernels, uint64_t(2));
        QCOMPARE(s.warnings.size(), size_t(1));
        QVERIFY2(s.warnings[0].find("no end-of-file record after 1 chunk(s)") != std::string::npos,
                 s.warnings[0].c_str());
    }

    void capturedOutput() {
        RecordOptions o = options({"sh", "-c", "echo out; echo err >&2; read x || echo eof"});
        o.captureOutput = true;
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        QVERIFY(l.outputFd() >= 0);
        QVERIFY(l.errorFd() >= 0);
        const auto [out, err] = drainBoth(l.outputFd(), l.errorFd());
        QCOMPARE(l.wait(), 0);
        QCOMPARE(out, std::string("out\neof\n")); // stdin was /dev/null
        QCOMPARE(err, std::string("err\n"));
    }

    void finishAppendsTheRunRecord() {
        RecordOptions o = options({kFakeTarget, "--exit", "3"});
        o.output = path("fin-{pid}.strata");
        o.extraEnvironment = {{"STRATA_TEST_MARK", "x y"}};
        o.removedEnvironment = {"HOME"};
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        QCOMPARE(l.wait(), 3);
        const RecordingResult r = l.finish();
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY(!r.runOnly);
        QCOMPARE(r.files,
                 std::vector<std::string>{pathOf("fin-" + std::to_string(l.pid()) + ".strata")});
        const LoadResult loaded = loadTrace(r.files[0]);
        QVERIFY(loaded.ok());
        const auto& run = loaded.trace->run();
        QVERIFY(run.has_value());
        QCOMPARE(run->argv, (std::vector<std::string>{kFakeTarget, "--exit", "3"}));
        QCOMPARE(run->exitCode, std::optional<int>(3));
        QCOMPARE(run->signal, std::optional<int>());
        QCOMPARE(run->pid, int64_t(l.pid()));
        QCOMPARE(run->envAdded.size(), size_t(1));
        QCOMPARE(run->envAdded[0].second, std::string("x y"));
        QCOMPARE(run->envRemoved, std::vector<std::string>{"HOME"});
        QCOMPARE(run->cwd, QDir::currentPath().toStdString());
        QVERIFY(run->captured);
        QVERIFY(run->durationNs > 0 && run->durationNs < 30'000'000'000);
        QCOMPARE(loaded.trace->sliceCount(), size_t(4)); // what the target wrote is all there
    }

    void finishWritesARunOnlyTrace() {
        // A target that wrote nothing (never initialised CUDA, died first): the run is kept.
        RecordOptions o = options({kFakeTarget, "--no-trace", "--exit", "0"});
        o.output = path("none-{pid}.strata");
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        QCOMPARE(l.wait(), 0);
        const RecordingResult r = l.finish();
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY(r.runOnly);
        QCOMPARE(r.files,
                 std::vector<std::string>{pathOf("none-" + std::to_string(l.pid()) + ".strata")});
        const LoadResult loaded = loadTrace(r.files[0]);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.trace->run()->exitCode, std::optional<int>(0));
        const std::string why = explainMissingGpuActivity(*loaded.trace);
        QVERIFY2(why.find("never initialised CUDA") != std::string::npos, why.c_str());
    }

    void runWithoutTheCollector() {
        RecordOptions o = options({"sh", "-c", "echo \"$CUDA_INJECTION64_PATH\""});
        o.output = path("nocap-{pid}.strata");
        o.collector = "/nonexistent/libstrata_collector.so"; // not needed without injection
        o.inject = false;
        o.captureOutput = true;
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        const auto [out, err] = drainBoth(l.outputFd(), l.errorFd());
        QCOMPARE(l.wait(), 0);
        QCOMPARE(out, std::string("\n")); // nothing injected
        const RecordingResult r = l.finish();
        QVERIFY(r.runOnly);
        const LoadResult loaded = loadTrace(r.files.at(0));
        QVERIFY(loaded.ok());
        QVERIFY(!loaded.trace->run()->captured);
        QCOMPARE(explainMissingGpuActivity(*loaded.trace),
                 std::string("run without capture: the collector was not injected"));
    }

    void killedTargetGetsItsRunRecordToo() {
        RecordOptions o = options({kFakeTarget, "--sleep-ms", "20000"});
        o.output = path("stopped-{pid}.strata");
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        // Wait for its first chunk, then stop it the hard way.
        const std::string file = pathOf("stopped-" + std::to_string(l.pid()) + ".strata");
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(QString::fromStdString(file)).size() > 8, 10000);
        l.sendSignal(SIGKILL);
        QCOMPARE(l.wait(), 137);
        const RecordingResult r = l.finish();
        QCOMPARE(r.files, std::vector<std::string>{file});
        const LoadResult loaded = loadTrace(file);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded.trace->run()->signal, std::optional<int>(SIGKILL));
        QCOMPARE(loaded.trace->run()->stopSignals, std::vector<std::string>{"SIGKILL"});
        QCOMPARE(loaded.trace->sliceCount(), size_t(4));
    }

    void survivorDoesNotHoldTheRunOpen() {
        // The target exits at once; a child it forked keeps stdout/stderr open for 3 s. The exit
        // is seen at once (the GUI reads the pipes without waiting for their end).
        RecordOptions o = options({kFakeTarget, "--no-trace", "--survivor-ms", "3000"});
        o.output = path("surv-{pid}.strata");
        o.captureOutput = true;
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        QElapsedTimer t;
        t.start();
        QCOMPARE(l.wait(), 0);
        QVERIFY(t.elapsed() < 2500);
        QVERIFY(l.finish().runOnly);
    }

    void environmentReachesTarget() {
        RecordOptions o = options({kFakeTarget, "--env-to", path("env.txt")});
        o.capture = {"kernels"};
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        QCOMPARE(l.wait(), 0);
        const std::string env = readAll(path("env.txt"));
        QVERIFY2(env.find("STRATA_OUTPUT=" + path("t-{pid}.strata") + "\n") != std::string::npos,
                 env.c_str());
        QVERIFY(env.find("CUDA_INJECTION64_PATH=" + fakeCollector_ + "\n") != std::string::npos);
        QVERIFY(env.find("NVTX_INJECTION64_PATH=" + fakeCollector_ + "\n") != std::string::npos);
        QVERIFY(env.find("STRATA_CAPTURE=kernels\n") != std::string::npos);
        // The target wrote t-<its pid>.strata; the launcher lists it.
        const std::string expected = path("t-") + std::to_string(l.pid()) + ".strata";
        QCOMPARE(l.traceFiles(), std::vector<std::string>{expected});
        const TraceFileSummary s = summarizeTraceFile(expected);
        QVERIFY2(s.loaded, s.error.c_str());
        QCOMPARE(s.slices, uint64_t(4));
        QCOMPARE(s.kernels, uint64_t(2));
        QCOMPARE(s.cudaInitialized, 1);
    }

    void childProcessesWriteTheirOwnFiles() {
        RecordOptions o = options({kFakeTarget, "--spawn-child"});
        o.output = path("fam-{host}-{pid}.strata");
        Launcher l;
        std::string error;
        QVERIFY2(l.start(o, &error), error.c_str());
        QCOMPARE(l.wait(), 0);
        const auto files = l.traceFiles();
        QCOMPARE(files.size(), size_t(2));
        const std::string mine = expandOutputPath(o.output, {int64_t(l.pid()), "0", hostName()});
        QVERIFY(files[0] == mine || files[1] == mine);
    }

    void cliRecordEndToEnd() {
        const QString out = QString::fromStdString(path("cli-{pid}.strata"));
        const CliRun r = runCli({"record", "-o", out, "--capture", "api,kernels", "--",
                                 QString::fromStdString(kFakeTarget), "--exit", "5"},
                                cliEnv());
        QCOMPARE(r.exitCode, 5);
        QVERIFY2(r.err.contains("exited with code 5"), qPrintable(r.err));
        QVERIFY2(r.err.contains("4 slices, 2 kernels, 2 GPU ops"), qPrintable(r.err));
        QVERIFY2(r.err.contains(dir_.filePath("cli-")), qPrintable(r.err));
    }

    void cliReportsNoCudaAndCuptiError() {
        const QString out = QString::fromStdString(path("nocuda-{pid}.strata"));
        const CliRun r =
            runCli({"record", "-o", out, "--", QString::fromStdString(kFakeTarget), "--no-cuda",
                    "--cupti-error", "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED held by nsys"},
                   cliEnv());
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("the target never initialized CUDA"), qPrintable(r.err));
        QVERIFY2(r.err.contains("CUPTI could not be used: "
                                "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED held by nsys"),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains("0 slices"), qPrintable(r.err)); // the trace is kept
    }

    void cliErrors() {
        CliRun r = runCli({"record", "--", "strata-no-such-command-xyz"}, cliEnv());
        QCOMPARE(r.exitCode, 127);
        QVERIFY2(r.err.contains("strata-no-such-command-xyz: command not found"),
                 qPrintable(r.err));
        const QString plain = dir_.filePath("plain.txt");
        std::ofstream(plain.toStdString()) << "x\n";
        r = runCli({"record", "--", plain}, cliEnv());
        QCOMPARE(r.exitCode, 126);
        QVERIFY2(r.err.contains("not executable"), qPrintable(r.err));
        auto env = cliEnv();
        env.insert("STRATA_COLLECTOR", dir_.filePath("gone.so"));
        r = runCli({"record", "--", "true"}, env);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("collector not found: $STRATA_COLLECTOR names"), qPrintable(r.err));
        r = runCli({"record", "--capture", "bogus", "--", "true"}, cliEnv());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown capture group 'bogus'"), qPrintable(r.err));
        r = runCli({"record"}, cliEnv());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("no command to run"), qPrintable(r.err));
    }

    void cliForwardsSigterm() {
        QProcess p;
        p.setProcessEnvironment(cliEnv());
        p.start(QString::fromStdString(kCli),
                {"record", "-q", "-o", dir_.filePath("sig-{pid}.strata"), "--",
                 QString::fromStdString(kFakeTarget), "--sleep-ms", "20000"});
        QVERIFY(p.waitForStarted());
        QTest::qWait(500); // let the launcher spawn the target and install its forwarder
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit); // the launcher itself survived
        QCOMPARE(p.exitCode(), 143);                    // and forwarded 128 + SIGTERM
    }
};

QTEST_GUILESS_MAIN(TestLauncher)
#include "tst_launcher.moc"
