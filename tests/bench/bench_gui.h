#pragma once
// What the GUI benchmarks share: FILE [--rounds N] and a QApplication on the offscreen platform.
#include "bench_commands.h"
#include "window/main_window.h"

#include <QApplication>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace strata::bench {

// FILE [--rounds N] into *file and *rounds; false after printing `usage` to stderr.
inline bool fileAndRounds(const Args& args, const char* usage, std::string* file, int* rounds) {
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--rounds" && i + 1 < args.size())
            *rounds = std::max(1, std::atoi(args[++i].c_str()));
        else if (file->empty() && !args[i].empty() && args[i][0] != '-')
            *file = args[i];
        else
            file->clear(), i = args.size();
    }
    if (file->empty()) std::fprintf(stderr, "%s", usage);
    return !file->empty();
}

// The application a GUI benchmark runs in (QT_QPA_PLATFORM offscreen unless set).
inline std::unique_ptr<QApplication> offscreenApp() {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "strata-bench";
    static char* argv[] = {name, nullptr};
    return std::make_unique<QApplication>(argc, argv);
}

// A main window as the GUI benchmarks time it: 1600x900, shown, settings not read or written.
struct BenchWindow {
    MainWindow window{MainWindow::Options{false}};
    BenchWindow() {
        window.resize(1600, 900);
        window.show();
        QApplication::processEvents();
    }
};

} // namespace strata::bench
