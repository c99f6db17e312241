// What was run is part of the trace (issue 15): the Run record's JSON, its round trip through a
// .strata file, an older reader's view of it, appending it to finished, killed and still-written
// recordings, the run-only trace of a target that wrote none, and `strata-cli info`.
#include "analysis/trace_info.h"
#include "io/strata/strata_append.h"
#include "io/strata/strata_crc32c.h"
#include "io/strata/strata_trace_writer.h"
#include "io/trace_loader.h"
#include "model/run_info.h"
#include "model/trace.h"
#include "record/record_summary.h"
#include "support/test_files.h"
#include "support/test_main.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace strata;

namespace {

const QString kCli = STRATA_BINARY_DIR "/app/strata-cli";

RunInfo sampleRun() {
    RunInfo r;
    r.argv = {"python3", "train.py", "--name", "a b", "it's"};
    r.executable = "/usr/bin/python3";
    r.cwd = "/home/u/proj";
    r.envAdded = {{"CUDA_VISIBLE_DEVICES", "1"}, {"MSG", "tab\there \"q\""}};
    r.envRemoved = {"PYTHONPATH"};
    r.pid = 4242;
    r.exitCode = 3;
    r.startUnixNs = 1'795'000'000'123'456'789; // 2026-11-18T11:06:40.123Z
    r.durationNs = 2'500'000'000;
    r.host = "gpu-node-7";
    r.strataVersion = "0.4.0";
    r.captured = true;
    r.stopSignals = {"SIGINT", "SIGTERM"};
    return r;
}

using strata::test::readAll;

using strata::test::writeAll;

// A complete recording: one CPU launch and its kernel, then (if given) the run record.
void writeRecording(const std::string& path, const RunInfo* run) {
    StrataTraceWriter w;
    std::string error;
    QVERIFY2(w.open(path, &error), error.c_str());
    w.process(4242, "python3");
    w.thread(4242, 4242, "main");
    GpuActivity g;
    g.device = 0;
    g.stream = 7;
    w.cpuSlice(4242, 4242, 1000, 1500, w.string("cudaLaunchKernel"), SliceKind::CudaRuntime, 1, 0);
    w.gpuOp(3000, 6000, w.string("k"), SliceKind::Kernel, g, 1);
    if (run) w.run(*run);
    QVERIFY(w.close());
}

std::string joinedWarnings(const Trace& t) {
    std::string s;
    for (const auto& w : t.warnings()) s += w + "\n";
    return s;
}

std::shared_ptr<const Trace> load(const std::string& path) {
    LoadResult r = loadTrace(path);
    if (!r.ok()) qWarning("%s", r.error->toString().c_str());
    return r.trace;
}

} // namespace

class TestRunRecord : public QObject {
    Q_OBJECT
private:
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

private slots:
    void jsonByHand() {
        RunInfo r;
        r.argv = {"a b", "c\"d"};
        r.cwd = "/w";
        r.envAdded = {{"K", "v"}};
        r.pid = 7;
        r.signal = 9;
        r.startUnixNs = 1'500'000'000; // 1970-01-01T00:00:01.500Z
        r.durationNs = 1'234'567'890;
        r.host = "h";
        r.strataVersion = "1.0";
        r.captured = false;
        const std::string expected =
            "{\"argv\": [\"a b\", \"c\\\"d\"], \"executable\": \"\", \"cwd\": \"/w\", "
            "\"env_added\": {\"K\": \"v\"}, "
            "\"env_removed\": [], \"pid\": 7, \"exit_code\": null, \"signal\": 9, "
            "\"start_unix_ns\": 1500000000, \"start_time\": \"1970-01-01T00:00:01.500Z\", "
            "\"duration_ns\": 1234567890, "
            "\"duration_s\": 1.234567890, \"host\": \"h\", \"strata_version\": \"1.0\", "
            "\"captured\": false, \"no_trace_reason\": \"\", \"stop_signals\": []}";
        QCOMPARE(runInfoToJson(r), expected);
        QCOMPARE(describeExit(r), std::string("was killed by signal 9 (SIGKILL)"));
        r.signal.reset();
        r.exitCode = 3;
        QCOMPARE(describeExit(r), std::string("exited with code 3"));
        QCOMPARE(formatUtcTime(1'795'000'000'123'456'789), std::string("2026-11-18T11:06:40.123Z"));
    }

    void roundTrip() {
        const RunInfo run = sampleRun();
        writeRecording(path("rt.strata"), &run);
        const auto t = load(path("rt.strata"));
        QVERIFY(t);
        QVERIFY(t->run().has_value());
        QCOMPARE(*t->run(), run);
        QVERIFY2(t->warnings().empty(), joinedWarnings(*t).c_str());
        // Trace Info shows it: the command as a shell would take it back, the exit, the host.
        const TraceInfo info = traceInfo(*t, "rt.strata", "strata");
        const auto rows = traceInfoRows(info);
        auto row = [&](const std::string& label) {
            for (const auto& [l, v] : rows)
                if (l == label) return v;
            return std::string("<missing>");
        };
        QCOMPARE(row("Command"), std::string("python3 train.py --name 'a b' 'it'\\''s'"));
        QCOMPARE(row("Exit"), std::string("the program exited with code 3"));
        QCOMPARE(row("Duration"), std::string("2.500 s"));
        QCOMPARE(row("Started"), std::string("2026-11-18T11:06:40.123Z"));
        QCOMPARE(row("Stopped from Strata with"), std::string("SIGINT, then SIGTERM"));
        QCOMPARE(row("Environment added"),
                 std::string("CUDA_VISIBLE_DEVICES=1\nMSG=tab\there \"q\""));
        QCOMPARE(row("GPU activity"), std::string("<missing>")); // it has a kernel
    }

    void olderReaderSkipsIt() {
        // A reader that does not know type 18 sees an unknown type: give the Run record's chunk
        // a type byte no build knows (and a correct CRC) and the rest loads, the record counted.
        const RunInfo run = sampleRun();
        const std::string p = path("older.strata");
        {
            StrataTraceWriter w;
            std::string error;
            QVERIFY(w.open(p, &error));
            w.process(1, "p");
            QVERIFY(w.flush());
            const uint64_t runChunk = w.bytesWritten();
            w.run(run);
            QVERIFY(w.flush());
            QVERIFY(w.close());
            std::string b = readAll(p);
            QCOMPARE(uint8_t(b[runChunk + 20]), uint8_t(18));
            b[runChunk + 20] = char(250);
            uint32_t payload = 0;
            std::memcpy(&payload, b.data() + runChunk + 8, 4);
            uint32_t crc = crc32c(0, b.data() + runChunk, 16);
            crc = crc32c(crc, b.data() + runChunk + 20, payload);
            std::memcpy(b.data() + runChunk + 16, &crc, 4);
            writeAll(p, b);
        }
        const auto t = load(p);
        QVERIFY(t);
        QVERIFY(!t->run());
        QCOMPARE(t->warnings().size(), size_t(1));
        QVERIFY2(t->warnings()[0].find("skipped 1 record(s) of types this build does not know") !=
                     std::string::npos,
                 t->warnings()[0].c_str());
    }

    void appendToAFinishedRecording() {
        const std::string p = path("done.strata");
        writeRecording(p, nullptr);
        const size_t before = readAll(p).size();
        const AppendResult a = appendRunRecord(p, sampleRun());
        QVERIFY2(a.ok, a.note.c_str());
        QCOMPARE(a.note, std::string());
        QVERIFY(readAll(p).size() > before);
        const auto t = load(p);
        QVERIFY(t);
        QCOMPARE(*t->run(), sampleRun());
        QCOMPARE(t->sliceCount(), size_t(2)); // nothing lost
        QVERIFY2(t->warnings().empty(), joinedWarnings(*t).c_str());
    }

    void appendCutsATornTail() {
        const std::string p = path("torn.strata");
        writeRecording(p, nullptr);
        std::string b = readAll(p);
        // The target was killed while writing a chunk: 13 bytes of a chunk header.
        const size_t good = b.size();
        b += std::string("CHNK\x05\x00\x00\x00\xff\x00\x00\x00\x01", 13);
        writeAll(p, b);
        const AppendResult a = appendRunRecord(p, sampleRun());
        QVERIFY2(a.ok, a.note.c_str());
        QVERIFY2(a.note.find("cut a damaged tail of 13 bytes at byte " + std::to_string(good)) !=
                     std::string::npos,
                 a.note.c_str());
        const auto t = load(p);
        QVERIFY(t);
        QCOMPARE(*t->run(), sampleRun());
        QCOMPARE(t->sliceCount(), size_t(2));
        bool warned = false;
        for (const auto& w : t->warnings())
            warned |= w.find("cut a damaged tail") != std::string::npos;
        QVERIFY(warned);
    }

    void appendRefusesAFileStillBeingWritten() {
        const std::string p = path("live.strata");
        StrataTraceWriter w; // holds the lock and has written no end-of-file record
        std::string error;
        QVERIFY(w.open(p, &error));
        w.process(1, "p");
        QVERIFY(w.flush());
        const std::string before = readAll(p);
        const AppendResult a = appendRunRecord(p, sampleRun());
        QVERIFY(!a.ok);
        QVERIFY2(a.note.find("still being written by another process") != std::string::npos,
                 a.note.c_str());
        QCOMPARE(readAll(p), before); // untouched
    }

    void appendRefusesWhatIsNotAStrataFile() {
        const std::string p = path("notes.txt");
        writeAll(p, "hello, this is text and not a trace at all");
        const AppendResult a = appendRunRecord(p, sampleRun());
        QVERIFY(!a.ok);
        QVERIFY2(a.note.find("not a .strata") != std::string::npos, a.note.c_str());
        QCOMPARE(readAll(p), std::string("hello, this is text and not a trace at all"));
    }

    void runOnlyTrace() {
        RunInfo run = sampleRun();
        run.noTraceReason = "the program wrote no trace: it never initialised CUDA";
        const std::string p = path("runonly.strata");
        std::string error;
        QVERIFY2(writeRunOnlyTrace(p, run, &error), error.c_str());
        QVERIFY(!writeRunOnlyTrace(p, run, &error)); // never over an existing file
        QVERIFY2(error.find("exists") != std::string::npos, error.c_str());
        const auto t = load(p);
        QVERIFY(t);
        QCOMPARE(*t->run(), run);
        QCOMPARE(t->sliceCount(), size_t(0));
        QCOMPARE(explainMissingGpuActivity(*t), run.noTraceReason);
        QCOMPARE(t->metadata().at("no_trace_reason"), run.noTraceReason);
    }

    void cliInfoJson() {
        RunInfo run = sampleRun();
        run.noTraceReason = "no GPU";
        const std::string p = path("info.strata");
        std::string error;
        QVERIFY2(writeRunOnlyTrace(p, run, &error), error.c_str());
        QProcess cli;
        cli.start(kCli, {"info", "--json", QString::fromStdString(p)});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        const auto j = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
        QCOMPARE(j["file"].get<std::string>(), p);
        QCOMPARE(j["format"].get<std::string>(), std::string("strata"));
        QCOMPARE(j["run"]["argv"].get<std::vector<std::string>>(), run.argv);
        QCOMPARE(j["run"]["cwd"].get<std::string>(), run.cwd);
        QCOMPARE(j["run"]["exit_code"].get<int>(), 3);
        QVERIFY(j["run"]["signal"].is_null());
        QCOMPARE(j["run"]["start_time"].get<std::string>(),
                 std::string("2026-11-18T11:06:40.123Z"));
        QCOMPARE(j["run"]["duration_s"].get<double>(), 2.5);
        QCOMPARE(j["run"]["host"].get<std::string>(), std::string("gpu-node-7"));
        QCOMPARE(j["run"]["env_added"]["CUDA_VISIBLE_DEVICES"].get<std::string>(),
                 std::string("1"));
        QCOMPARE(j["metadata"]["no_trace_reason"].get<std::string>(), std::string("no GPU"));
        QCOMPARE(j["no_gpu_reason"].get<std::string>(), std::string("no GPU"));

        // A Kineto JSON trace: no run record, its top-level keys as metadata.
        const std::string json = path("k.json");
        writeAll(json, "{\"schemaVersion\": 1, \"distributedInfo\": {\"rank\": 0},"
                       " \"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1,"
                       " \"ts\": 1, \"dur\": 2}]}");
        cli.start(kCli, {"info", "--json", QString::fromStdString(json)});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        const auto k = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
        QCOMPARE(k["format"].get<std::string>(), std::string("chrome-json"));
        QVERIFY(k["run"].is_null());
        QCOMPARE(k["metadata"]["schemaVersion"].get<std::string>(), std::string("1"));
        QCOMPARE(k["metadata"]["distributedInfo"].get<std::string>(), std::string("{\"rank\":0}"));

        // Text form: one label per line.
        cli.start(kCli, {"info", QString::fromStdString(p)});
        QVERIFY(cli.waitForFinished(30000));
        const QString text = QString::fromUtf8(cli.readAllStandardOutput());
        QVERIFY2(text.contains(QRegularExpression("\nExit +the program exited with code 3\n")),
                 qPrintable(text));
        cli.start(kCli, {"info", "--nope"});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 2);
    }
};

STRATA_TEST_GUILESS_MAIN(TestRunRecord)
#include "tst_run_record.moc"
