// Every input a fuzzer ever broke a reader with, and the seed corpora, load or fail with an
// error, without crashing: the JSON reader's (tests/data/json/fuzz_regressions/, fuzz_corpus/),
// the .strata reader's (tests/data/record/fuzz_regressions/ and the .strata fixtures there, its
// seeds) and the timer-array imports' (tests/data/sections/fuzz_regressions/ named by format,
// fuzz_corpus/<format>/), whose sets then go through the section analyses as in the fuzzer.
// docs/fuzzing.md says how inputs get here.
#include "analysis/sections/section_lanes.h"
#include "analysis/sections/section_stats.h"
#include "io/json/chrome_json_reader.h"
#include "io/sections/sections_import.h"
#include "io/strata/read/strata_trace_reader.h"
#include "support/test_main.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QtTest>

using namespace strata;

class TestFuzzRegressions : public QObject {
    Q_OBJECT

private slots:
    void inputs_data();
    void inputs();
};

void TestFuzzRegressions::inputs_data() {
    QTest::addColumn<QString>("path");
    for (const char* sub :
         {"json/fuzz_regressions", "json/fuzz_corpus", "record/fuzz_regressions", "record"}) {
        const QDir dir(QString(STRATA_TEST_DATA) + "/" + sub);
        for (const QString& f : dir.entryList(QDir::Files)) {
            if (QString(sub).startsWith("record") && f.endsWith(".py")) continue;
            QTest::newRow(qPrintable(QString(sub) + "/" + f)) << dir.filePath(f);
        }
    }
    for (const char* format : {"npy", "csv", "json", "sections"}) {
        for (const QString& sub :
             {QString("sections/fuzz_corpus/") + format, QString("sections/fuzz_regressions")}) {
            const QDir dir(QString(STRATA_TEST_DATA) + "/" + sub);
            for (const QString& f : dir.entryList(QDir::Files)) {
                if (sub.endsWith("regressions") && !f.startsWith(QString(format) + "-")) continue;
                QTest::newRow(qPrintable(sub + "/" + f)) << dir.filePath(f);
            }
        }
    }
}

namespace {

// The timer-array import of `bytes` by the format its folder or name gives, then the analyses.
bool importAndAnalyse(const QString& path, std::string_view bytes) {
    const SectionsImportOptions o;
    const QString name = QFileInfo(path).fileName();
    auto is = [&](const char* format) {
        return path.contains(QString("/fuzz_corpus/") + format + "/") ||
               name.startsWith(QString(format) + "-");
    };
    const SectionsImport r = is("npy")    ? parseNpySections("fuzz.npy", bytes, o)
                             : is("csv")  ? parseCsvSections("fuzz.csv", bytes, o)
                             : is("json") ? parseJsonSections("fuzz.json", bytes, o)
                                          : parseSectionsFile("fuzz.sections", bytes, o);
    if (!r.ok()) return r.sets.empty();
    std::vector<const SectionSet*> all;
    for (const SectionSet& s : r.sets) {
        all.push_back(&s);
        const SectionColumns c = sectionColumns(s);
        const auto blocks = blockSections(s, c);
        if (iterationSections(s, c).size() > s.samples.size()) return false;
        if (s.hasTimes) (void)layoutSmLanes(blocks);
    }
    (void)sectionStats(all);
    return !r.sets.empty();
}

} // namespace

void TestFuzzRegressions::inputs() {
    QFETCH(QString, path);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    const std::string_view input(bytes.constData(), size_t(bytes.size()));
    if (path.contains("/sections/")) {
        QVERIFY(importAndAnalyse(path, input));
        return;
    }
    const LoadResult r = path.contains("/record/") ? readStrataBuffer(input, "fuzz")
                                                   : readChromeJsonBuffer(input, "fuzz");
    QVERIFY(r.ok() || (r.error && !r.error->message.empty()));
}

STRATA_TEST_GUILESS_MAIN(TestFuzzRegressions)
#include "tst_fuzz_regressions.moc"
