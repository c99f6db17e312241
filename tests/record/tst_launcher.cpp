// core/record: the launcher (spawn, exit codes,
// errors, trace files) and `strata-cli record` end to end with a fake target that writes its
// own .strata file (tests/record_fake_target.cpp), so the whole path runs without a GPU.
#include "support/launcher_fixture.h"
#include "support/test_main.h"

class TestLauncher : public QObject, public LauncherFiles {
    Q_OBJECT

private slots:
    void initTestCase() { makeFakeCollector(); }

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

STRATA_TEST_GUILESS_MAIN(TestLauncher)
#include "tst_launcher.moc"
