// core/record: output templates ({pid} {rank} {host} {time}), the default template, capture lists,
// record options -> the collector's environment and their validation. Expected values by hand.
#include "support/launcher_fixture.h"
#include "support/test_main.h"

#include <algorithm>

class TestLauncherOptions : public QObject, public LauncherFiles {
    Q_OBJECT

private slots:
    void initTestCase() { makeFakeCollector(); }

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
        o.python = PythonRecording::Off; // pythonEnvironment() below
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
        RecordOptions none;
        none.python = PythonRecording::Off;
        QCOMPARE(toCollectorEnvironment(none, "f").size(), size_t(1));
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
        o.python = PythonRecording::Off; // pythonEnvironment() below
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

    // --wait-for-attach (issue 50): STRATA_WAIT_FOR_ATTACH=1 for the collector, the user's
    // STRATA_ATTACH_DIR kept (strata-cli attach reads the same), passed on by --remote; Python
    // and native sampling, which attach sessions do not gate, refused with it.
    void waitForAttachEnvironment() {
        RecordOptions o;
        o.command = {"x"};
        o.python = PythonRecording::Off;
        o.waitForAttach = true;
        const char* base[] = {"STRATA_ATTACH_DIR=/run/a", "STRATA_WAIT_FOR_ATTACH=0", nullptr};
        const auto env = buildTargetEnvironment(o, "/lib/c.so", "/o/t.strata", base);
        const std::vector<std::string> expected = {
            "STRATA_ATTACH_DIR=/run/a",        "STRATA_OUTPUT=/o/t.strata",
            "STRATA_WAIT_FOR_ATTACH=1",        "CUDA_INJECTION64_PATH=/lib/c.so",
            "NVTX_INJECTION64_PATH=/lib/c.so", "STRATA_LAUNCHER_PID=" + std::to_string(getpid())};
        QCOMPARE(env, expected);
        const auto args = recordArguments(o);
        QVERIFY(std::find(args.begin(), args.end(), "--wait-for-attach") != args.end());
        std::string error;
        QVERIFY(validateRecordOptions(o, &error));
        o.cpuSampleHz = 100;
        QVERIFY(!validateRecordOptions(o, &error));
        QVERIFY2(error.find("--wait-for-attach gates CUDA's records only") == 0, error.c_str());
        o.cpuSampleHz = 0;
        o.python = PythonRecording::Sample;
        QVERIFY(!validateRecordOptions(o, &error));
        o.python = PythonRecording::Off;
        o.inject = false;
        QVERIFY(!validateRecordOptions(o, &error));
        QVERIFY2(error.find("needs the collector") != std::string::npos, error.c_str());
    }

    // Python is sampled at 1 kHz unless told otherwise; the bootstrap beside the collector
    // comes first on PYTHONPATH, before the user's (theirs from -e before the launcher's).
    void pythonEnvironment() {
        RecordOptions o;
        o.command = {"x"};
        auto has = [](const std::vector<std::string>& env, const std::string& entry) {
            return std::find(env.begin(), env.end(), entry) != env.end();
        };
        const char* base[] = {"PATH=/bin", "PYTHONPATH=/mine", nullptr};
        auto env = buildTargetEnvironment(o, "/lib/strata/c.so", "o.strata", base);
        QVERIFY(has(env, "STRATA_PYTHON=sample=1000"));
        QVERIFY(has(env, "PYTHONPATH=/lib/strata/python:/mine"));
        QCOMPARE(std::count_if(env.begin(), env.end(),
                               [](const std::string& e) { return e.rfind("PYTHONPATH=", 0) == 0; }),
                 1l);
        std::string error;
        QVERIFY(parsePythonRecording("calls", &o, &error));
        o.extraEnvironment = {{"PYTHONPATH", "/theirs"}};
        env = buildTargetEnvironment(o, "/lib/strata/c.so", "o.strata", base);
        QVERIFY(has(env, "STRATA_PYTHON=calls"));
        QVERIFY(has(env, "PYTHONPATH=/lib/strata/python:/theirs"));
        QVERIFY(!has(env, "PYTHONPATH=/mine"));
        QVERIFY(parsePythonRecording("off", &o, &error));
        env = buildTargetEnvironment(o, "/lib/strata/c.so", "o.strata", base);
        QVERIFY(has(env, "PYTHONPATH=/theirs"));
        QVERIFY(!std::any_of(env.begin(), env.end(), [](const std::string& e) {
            return e.rfind("STRATA_PYTHON", 0) == 0;
        }));
        QVERIFY(parsePythonRecording("sample=250", &o, &error));
        QCOMPARE(o.pythonSampleHz, 250);
        QCOMPARE(pythonRecordingText(o), std::string("sample=250"));
        for (const char* bad : {"sample=0", "sample=10001", "sample=", "sampled", "Calls"}) {
            QVERIFY2(!parsePythonRecording(bad, &o, &error), bad);
            QVERIFY2(error.find(std::string("got '") + bad + "'") != std::string::npos,
                     error.c_str());
        }
    }

    // --cpu-sample: the collector first in LD_PRELOAD (it samples from the program's start),
    // before the user's own preloads; not there without it.
    void nativeSamplingPreloads() {
        RecordOptions o;
        o.command = {"x"};
        const char* base[] = {"PATH=/bin", "LD_PRELOAD=/mine.so", nullptr};
        auto env = buildTargetEnvironment(o, "/lib/strata/c.so", "o.strata", base);
        QVERIFY(std::find(env.begin(), env.end(), "LD_PRELOAD=/mine.so") != env.end());
        o.cpuSampleHz = 99;
        env = buildTargetEnvironment(o, "/lib/strata/c.so", "o.strata", base);
        QVERIFY(std::find(env.begin(), env.end(), "STRATA_CPU_SAMPLE=99") != env.end());
        QVERIFY(std::find(env.begin(), env.end(), "LD_PRELOAD=/lib/strata/c.so:/mine.so") !=
                env.end());
        QCOMPARE(std::count_if(env.begin(), env.end(),
                               [](const std::string& e) { return e.rfind("LD_PRELOAD=", 0) == 0; }),
                 1l);
        o.extraEnvironment = {{"LD_PRELOAD", "/theirs.so"}};
        env = buildTargetEnvironment(o, "/lib/strata/c.so", "o.strata", nullptr);
        QVERIFY(std::find(env.begin(), env.end(), "LD_PRELOAD=/lib/strata/c.so:/theirs.so") !=
                env.end());
    }
};

STRATA_TEST_GUILESS_MAIN(TestLauncherOptions)
#include "tst_launcher_options.moc"
