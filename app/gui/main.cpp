// strata: the GUI. `strata [FILE...]` opens the first file here and each further file in a new
// window; `strata --screenshot OUT.png ... FILE` renders one window to a PNG and exits.
#include "launch_mode.h"
#include "main_window.h"
#include "model/time_text.h"
#include "quit_on_signal.h"
#include "screenshot.h"
#include "strata_resources.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <cstdio>
#include <cstring>

namespace {

const char* const kDescription =
    "Strata: a trace viewer for GPU programs (PyTorch profiler / Kineto and Chrome JSON, "
    ".json or .json.gz, and .strata traces).\n\n"
    "strata [FILE...]          open FILE (each further FILE in a new window)\n"
    "strata --screenshot OUT.png [--size WxH] [--range START:END] [--select-range START:END]\n"
    "                          [--find TEXT] [--print-track-labels] FILE\n"
    "                          render the main window with FILE to a PNG and exit\n"
    "strata --launch [--run] [-o OUT] [-C DIR] [-e NAME=VALUE] [-u NAME] [--capture LIST]\n"
    "                [--no-collector] [--screenshot OUT.png] -- CMD ARGS...\n"
    "                          profile CMD: the Launch dialog filled in, or (--run) at once;\n"
    "                          with --screenshot, render the window once its trace opened\n\n"
    "Times in --range and --select-range are relative to the start of the trace: a number with an "
    "optional\n"
    "unit ns, us, ms or s; a plain number is microseconds. Examples: --range 1.5ms:3ms,\n"
    "--range 200:450 (microseconds), --range 0.5s:0.75s.";

bool parseSize(const QString& s, QSize* out) {
    const QStringList parts = s.toLower().split(QLatin1Char('x'));
    if (parts.size() != 2) return false;
    bool okW = false, okH = false;
    const int w = parts[0].toInt(&okW), h = parts[1].toInt(&okH);
    if (!okW || !okH || w < 200 || h < 150 || w > 10000 || h > 10000) return false;
    *out = QSize(w, h);
    return true;
}

} // namespace

int main(int argc, char** argv) {
    // Everything after "--" is the command of --launch, kept from Qt: QApplication would take
    // its own options out of it (-name, -display, -style...).
    int qtArgc = argc;
    QStringList afterDashes;
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--") == 0) {
            qtArgc = i;
            for (int j = i + 1; j < argc; ++j) afterDashes << QString::fromLocal8Bit(argv[j]);
            break;
        }
    QApplication app(qtArgc, argv);
    QApplication::setOrganizationName(QStringLiteral("Strata"));
    QApplication::setApplicationName(QStringLiteral("strata"));
    QApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
    strata::initResources();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/strata/strata.png")));
    // SIGTERM, SIGINT, SIGHUP: close as File > Quit does, stopping a running program and keeping
    // its run record and console log, then exit with 128 + the signal.
    strata::quitOnSignals();

    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromLatin1(kDescription));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption shotOpt(QStringLiteral("screenshot"),
                                     QStringLiteral("Render the window to OUT.png and exit."),
                                     QStringLiteral("OUT.png"));
    const QCommandLineOption sizeOpt(
        QStringLiteral("size"), QStringLiteral("Window size for --screenshot (default 1600x1000)."),
        QStringLiteral("WxH"));
    const QCommandLineOption rangeOpt(
        QStringLiteral("range"),
        QStringLiteral("Visible time range for --screenshot, trace-relative (e.g. 1.5ms:3ms)."),
        QStringLiteral("START:END"));
    const QCommandLineOption labelsOpt(
        QStringLiteral("print-track-labels"),
        QStringLiteral("With --screenshot: print how many track labels are drawn."));
    const QCommandLineOption selRangeOpt(
        QStringLiteral("select-range"),
        QStringLiteral("With --screenshot: select this range (fills the Range table)."),
        QStringLiteral("START:END"));
    const QCommandLineOption findOpt(
        QStringLiteral("find"),
        QStringLiteral("With --screenshot: find slices named TEXT and select the first."),
        QStringLiteral("TEXT"));
    const QCommandLineOption sectionsOpt(
        QStringLiteral("sections"),
        QStringLiteral("With --screenshot: import this timer-sections file (.npy, .csv, .json, "
                       ".sections) into the Sections dock."),
        QStringLiteral("FILE"));
    const QCommandLineOption sectionsTabOpt(
        QStringLiteral("sections-tab"),
        QStringLiteral("With --screenshot: render the Sections dock on this tab (table, box, "
                       "iterations, heatmap, sm)."),
        QStringLiteral("TAB"));
    const QCommandLineOption sectionsChoiceOpt(
        QStringLiteral("sections-choice"),
        QStringLiteral("With --sections-tab: show the Sections dock's N-th choice (0 = first)."),
        QStringLiteral("N"));
    const QCommandLineOption selectBlockOpt(
        QStringLiteral("select-block"),
        QStringLiteral("With --sections-tab: select row N of the slowest blocks (0 = slowest)."),
        QStringLiteral("N"));
    const QCommandLineOption expandSectionsOpt(
        QStringLiteral("expand-sections"),
        QStringLiteral("With --screenshot: open the timeline's in-kernel section SM lanes."));
    const QCommandLineOption dockOpt(
        QStringLiteral("dock"),
        QStringLiteral("With --screenshot: render this analysis dock alone (gaps)."),
        QStringLiteral("NAME"));
    const QCommandLineOption utilOpt(
        QStringLiteral("utilisation"),
        QStringLiteral("With --screenshot: show the GPU utilisation rows."));
    parser.addOptions({shotOpt, sizeOpt, rangeOpt, selRangeOpt, findOpt, labelsOpt, sectionsOpt,
                       sectionsTabOpt, sectionsChoiceOpt, selectBlockOpt, expandSectionsOpt,
                       dockOpt, utilOpt});
    const strata::LaunchModeOptions launchOpts;
    parser.addOptions(launchOpts.all());
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Traces to open."),
                                 QStringLiteral("[FILE...]"));
    parser.process(app);
    const QStringList files = parser.positionalArguments() + afterDashes;

    if (parser.isSet(launchOpts.launch)) {
        QSize size(1600, 1000);
        if (parser.isSet(sizeOpt) && !parseSize(parser.value(sizeOpt), &size)) {
            std::fprintf(stderr, "strata: --size expects WxH (e.g. 1600x1000), got '%s'\n",
                         qPrintable(parser.value(sizeOpt)));
            return 2;
        }
        const int code =
            strata::runLaunchMode(parser, launchOpts, files, parser.value(shotOpt), size);
        return strata::quitSignal() ? 128 + strata::quitSignal() : code;
    }
    if (parser.isSet(launchOpts.run)) {
        std::fprintf(stderr, "strata: --run needs --launch\n");
        return 2;
    }
    if (parser.isSet(shotOpt)) {
        strata::ScreenshotOptions o;
        o.output = parser.value(shotOpt);
        if (files.size() != 1) {
            std::fprintf(stderr, "strata: --screenshot needs exactly one FILE (got %d)\n",
                         int(files.size()));
            return 2;
        }
        o.trace = files.front();
        if (parser.isSet(sizeOpt) && !parseSize(parser.value(sizeOpt), &o.size)) {
            std::fprintf(stderr, "strata: --size expects WxH (e.g. 1600x1000), got '%s'\n",
                         qPrintable(parser.value(sizeOpt)));
            return 2;
        }
        // Parses an optional START:END option into *out; false (with a message) if it is malformed.
        auto rangeOption = [&](const QCommandLineOption& opt, const char* name,
                               std::optional<strata::TimeRange>* out) {
            if (!parser.isSet(opt)) return true;
            std::string error;
            *out = strata::parseTimeRange(parser.value(opt).toStdString(), &error);
            if (!*out) std::fprintf(stderr, "strata: %s: %s\n", name, error.c_str());
            return out->has_value();
        };
        if (!rangeOption(rangeOpt, "--range", &o.range) ||
            !rangeOption(selRangeOpt, "--select-range", &o.selectRange))
            return 2;
        o.find = parser.value(findOpt);
        o.printTrackLabels = parser.isSet(labelsOpt);
        o.sections = parser.value(sectionsOpt);
        o.sectionsTab = parser.value(sectionsTabOpt);
        o.sectionsChoice =
            parser.isSet(sectionsChoiceOpt) ? parser.value(sectionsChoiceOpt).toInt() : -1;
        o.selectBlock = parser.isSet(selectBlockOpt) ? parser.value(selectBlockOpt).toInt() : -1;
        o.expandSections = parser.isSet(expandSectionsOpt);
        o.dock = parser.value(dockOpt);
        o.utilisation = parser.isSet(utilOpt);
        return strata::runScreenshot(o);
    }
    if (parser.isSet(sizeOpt) || parser.isSet(rangeOpt) || parser.isSet(labelsOpt)) {
        std::fprintf(stderr,
                     "strata: --size, --range and --print-track-labels need --screenshot\n");
        return 2;
    }

    auto* first = new strata::MainWindow;
    first->setAttribute(Qt::WA_DeleteOnClose);
    first->show();
    if (!files.isEmpty()) first->openFile(files.front());
    for (qsizetype i = 1; i < files.size(); ++i) {
        auto* w = new strata::MainWindow;
        w->setAttribute(Qt::WA_DeleteOnClose);
        w->show();
        w->openFile(files[i]);
    }
    const int code = app.exec();
    return strata::quitSignal() ? 128 + strata::quitSignal() : code;
}
