// strata: the GUI. `strata [FILE...]` opens a file, or several (a folder) as the ranks of one job,
// in one window; `strata --screenshot OUT.png ... FILE...` renders one window to a PNG and exits.
#include "build_info.h"
#include "modes/attach_mode.h"
#include "modes/launch_mode.h"
#include "modes/quit_on_signal.h"
#include "modes/screenshot_options.h"
#include "strata_resources.h"
#include "style/theme.h"
#include "window/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QIcon>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>

namespace {

const char* const kDescription =
    "Strata: a trace viewer for GPU programs (PyTorch profiler / Kineto and Chrome JSON, "
    ".json or .json.gz, and .strata traces).\n\n"
    "strata [FILE...]          open FILE; several FILEs (or a folder) open as the ranks of one\n"
    "                          job in one window, their clocks aligned\n"
    "strata --compare BASELINE CANDIDATE\n"
    "                          compare two runs: the difference, and the two timelines\n"
    "strata --screenshot OUT.png [--size WxH] [--range START:END] [--select-range START:END]\n"
    "                          [--find TEXT] [--print-track-labels] FILE\n"
    "                          render the main window with FILE to a PNG and exit\n"
    "strata --launch [--run] [-o OUT] [-C DIR] [-e NAME=VALUE] [-u NAME] [--capture LIST]\n"
    "                [--no-collector] [--screenshot OUT.png] -- CMD ARGS...\n"
    "                          profile CMD: the Launch dialog filled in, or (--run) at once;\n"
    "                          with --screenshot, render the window once its trace opened\n"
    "strata --attach [--remote HOST [--ssh-option OPT]] [--screenshot OUT.png]\n"
    "                          Profile > Attach...: start and stop capturing in programs run\n"
    "                          with strata-cli record --wait-for-attach, here or on HOST\n\n"
    "Times in --range and --select-range are relative to the start of the trace: a number with an "
    "optional\n"
    "unit ns, us, ms or s; a plain number is microseconds. Examples: --range 1.5ms:3ms,\n"
    "--range 200:450 (microseconds), --range 0.5s:0.75s.";

// strata's command line: the options of every mode.
struct CommandLine {
    QCommandLineParser parser;
    const strata::ScreenshotCommandLine shot;
    const strata::LaunchModeOptions launchOpts;
    const QCommandLineOption compare{
        QStringLiteral("compare"),
        QStringLiteral("Compare two runs: the first FILE is the baseline, the second the "
                       "candidate (with --screenshot too).")};
    const QCommandLineOption attach{
        QStringLiteral("attach"),
        QStringLiteral("Profile > Attach...: the programs waiting for an attach session (here, or "
                       "on --remote HOST).")};
    const QCommandLineOption version{{QStringLiteral("v"), QStringLiteral("version")},
                                     QStringLiteral("Print the version and exit.")};
    const QCommandLineOption theme{
        QStringLiteral("theme"),
        QStringLiteral("system, light or dark for this run (View > Theme keeps one)."),
        QStringLiteral("THEME")};
    const QCommandLineOption verbose{
        QStringLiteral("verbose"),
        QStringLiteral("With --version: the versions of Qt, the CUDA toolkit (CUPTI), MPI and "
                       "the trace formats this build uses.")};

    CommandLine() {
        parser.setApplicationDescription(QString::fromLatin1(kDescription));
        parser.addHelpOption();
        parser.addOption(version);
        parser.addOption(verbose);
        parser.addOption(theme);
        shot.addTo(parser);
        parser.addOptions(launchOpts.all());
        parser.addOption(compare);
        parser.addOption(attach);
        parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Traces to open."),
                                     QStringLiteral("[FILE...]"));
    }
};

// --help and --version are answered without a display: before the QApplication (which needs a
// platform plugin) is made.
bool printsOnly(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        for (const char* o : {"-h", "--help", "-?", "--help-all", "-v", "--version"})
            if (std::strcmp(argv[i], o) == 0) return true;
    return false;
}

void nameApplication() {
    QCoreApplication::setOrganizationName(QStringLiteral("Strata"));
    QCoreApplication::setApplicationName(QStringLiteral("strata"));
    QCoreApplication::setApplicationVersion(QString::fromLatin1(strata::strataVersion()));
}

// Without a display (no DISPLAY, WAYLAND_DISPLAY or WAYLAND_SOCKET) Qt would abort in
// QApplication ("This application failed to start because no Qt platform plugin could be
// initialized"). So, unless a platform is chosen (QT_QPA_PLATFORM, -platform): --screenshot, which
// needs no screen, renders on the offscreen platform; the rest say so and return exit code 1.
// argv up to argc: strata's and Qt's arguments (not the command after "--").
std::optional<int> choosePlatform(int argc, char** argv) {
    auto set = [](const char* name) {
        const char* v = std::getenv(name);
        return v && *v;
    };
    if (set("QT_QPA_PLATFORM") || set("DISPLAY") || set("WAYLAND_DISPLAY") || set("WAYLAND_SOCKET"))
        return std::nullopt;
    bool screenshot = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "-platform" || a == "--platform") return std::nullopt; // Qt's own choice
        screenshot = screenshot || a == "--screenshot" || a.starts_with("--screenshot=");
    }
    if (screenshot) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        return std::nullopt;
    }
    std::fprintf(stderr, "strata: no display (DISPLAY and WAYLAND_DISPLAY are not set); run it in "
                         "a graphical session, or use --screenshot / strata-cli\n");
    return 1;
}

int printOnly(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    nameApplication();
    CommandLine line;
    line.parser.process(app); // --help prints and exits here
    std::printf("%s\n", strata::versionLine("strata").c_str());
    if (line.parser.isSet(line.verbose))
        std::printf("Qt %s (built with %s)\n%s", qVersion(), QT_VERSION_STR,
                    strata::buildDetails().c_str());
    return 0;
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
    if (printsOnly(qtArgc, argv)) return printOnly(qtArgc, argv);
    if (const std::optional<int> exit = choosePlatform(qtArgc, argv)) return *exit;
    QApplication app(qtArgc, argv);
    nameApplication();
    strata::initResources();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/strata/strata.png")));
    // SIGTERM, SIGINT, SIGHUP: close as File > Quit does, stopping a running program and keeping
    // its run record and console log, then exit with 128 + the signal.
    strata::quitOnSignals();

    CommandLine line;
    QCommandLineParser& parser = line.parser;
    const strata::ScreenshotCommandLine& shot = line.shot;
    const strata::LaunchModeOptions& launchOpts = line.launchOpts;
    const QCommandLineOption& compare = line.compare;
    parser.process(app);
    if (parser.isSet(line.verbose)) {
        std::fprintf(stderr, "strata: --verbose goes with --version\n");
        return 2;
    }
    strata::Theme theme = strata::savedTheme();
    if (parser.isSet(line.theme)) {
        bool ok = false;
        theme = strata::themeFromName(parser.value(line.theme), &ok);
        if (!ok) {
            std::fprintf(stderr, "strata: --theme expects system, light or dark, got '%s'\n",
                         qPrintable(parser.value(line.theme)));
            return 2;
        }
    }
    strata::applyTheme(theme);
    const QStringList files = parser.positionalArguments() + afterDashes;

    if (parser.isSet(launchOpts.launch)) {
        QSize size(1600, 1000);
        if (parser.isSet(shot.size) && !strata::parseWindowSize(parser.value(shot.size), &size)) {
            std::fprintf(stderr, "strata: --size expects WxH (e.g. 1600x1000), got '%s'\n",
                         qPrintable(parser.value(shot.size)));
            return 2;
        }
        const int code =
            strata::runLaunchMode(parser, launchOpts, files, parser.value(shot.shot), size);
        return strata::quitSignal() ? 128 + strata::quitSignal() : code;
    }
    if (parser.isSet(line.attach)) {
        const int code =
            strata::runAttachMode(parser.value(launchOpts.remote),
                                  parser.values(launchOpts.sshOption), parser.value(shot.shot));
        return strata::quitSignal() ? 128 + strata::quitSignal() : code;
    }
    if (parser.isSet(launchOpts.run)) {
        std::fprintf(stderr, "strata: --run needs --launch\n");
        return 2;
    }
    if (shot.isSet(parser)) {
        strata::ScreenshotOptions o;
        if (!shot.read(parser, files, &o)) return 2;
        o.compare = parser.isSet(compare);
        if (o.compare && files.size() != 2) {
            std::fprintf(stderr, "strata: --compare needs two FILEs (baseline, candidate)\n");
            return 2;
        }
        return strata::runScreenshot(o);
    }
    if (!shot.strayOptions(parser).isEmpty()) {
        std::fprintf(stderr,
                     "strata: --size, --range and --print-track-labels need --screenshot\n");
        return 2;
    }
    // One file, or several (a folder) as the ranks of one job, or two compared, in one window.
    if (parser.isSet(compare) && files.size() != 2) {
        std::fprintf(stderr, "strata: --compare needs two FILEs (baseline, candidate)\n");
        return 2;
    }
    strata::MainWindow::openWindow(parser.isSet(compare)
                                       ? strata::OpenRequest::comparison(files[0], files[1])
                                       : strata::OpenRequest::paths(files));
    const int code = app.exec();
    return strata::quitSignal() ? 128 + strata::quitSignal() : code;
}
