// The JSON reader on the real traces in ../shared/traces, against numbers computed independently by
// tests/data/json/real_traces_expected.py (plain python json + decimal). Skips when the folder is
// absent.
#include "io/trace_loader.h"
#include "support/test_main.h"

#include <QDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

using namespace strata;

class TestJsonRealTraces : public QObject {
    Q_OBJECT

private slots:
    void traces_data();
    void traces();
};

void TestJsonRealTraces::traces_data() {
    QTest::addColumn<QString>("file");
    const QDir dir(QStringLiteral(STRATA_SHARED_TRACES));
    if (!dir.exists()) QSKIP("no ../shared/traces folder here");
    std::ifstream in(std::string(STRATA_TEST_DATA) + "/json/real_traces_expected.json");
    const nlohmann::json expected = nlohmann::json::parse(in);
    for (auto it = expected.begin(); it != expected.end(); ++it)
        QTest::newRow(it.key().c_str()) << QString::fromStdString(it.key());
}

void TestJsonRealTraces::traces() {
    QFETCH(QString, file);
    const QString path = QStringLiteral(STRATA_SHARED_TRACES) + "/" + file;
    if (!QFile::exists(path)) QSKIP("trace not present");
    std::ifstream in(std::string(STRATA_TEST_DATA) + "/json/real_traces_expected.json");
    const nlohmann::json e = nlohmann::json::parse(in)[file.toStdString()];

    const LoadResult r = loadTrace(path.toStdString());
    QVERIFY2(r.ok(), r.error ? r.error->toString().c_str() : "");
    const Trace& t = *r.trace;
    uint64_t x = 0, kernels = 0, copies = 0, sets = 0;
    int64_t kernelNs = 0;
    for (const Track& tr : t.tracks()) {
        const SliceColumns& s = tr.slices;
        for (SliceIndex i = 0; i < s.size(); ++i) {
            if (tr.kind == TrackKind::Async || (s.flags[i] & kSliceFromBE)) continue;
            ++x;
            if (s.kind[i] == SliceKind::Kernel) {
                ++kernels;
                kernelNs += s.dur[i];
            }
            copies += s.kind[i] == SliceKind::Memcpy;
            sets += s.kind[i] == SliceKind::Memset;
        }
    }
    QCOMPARE(x, e["x_events"].get<uint64_t>());
    QCOMPARE(kernels, e["kernel"].get<uint64_t>());
    QCOMPARE(copies, e["gpu_memcpy"].get<uint64_t>());
    QCOMPARE(sets, e["gpu_memset"].get<uint64_t>());
    QCOMPARE(kernelNs, e["kernel_ns"].get<int64_t>());
    QCOMPARE(uint64_t(t.devices().size()), e["devices"].get<uint64_t>());
}

STRATA_TEST_GUILESS_MAIN(TestJsonRealTraces)
#include "tst_json_real_traces.moc"
