#pragma once
// What the launcher tests share: a temporary folder, a stand-in collector file, strata-cli runs.
#include "analysis/trace_info.h"
#include "contract/collector_env.h"
#include "contract/output_path.h"
#include "io/trace_loader.h"
#include "record/launcher.h"
#include "record/record_options.h"
#include "record/record_summary.h"
#include "support/process_run.h"
#include "support/test_files.h"

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

inline const std::string kCli = STRATA_BINARY_DIR "/app/strata-cli";
inline const std::string kFakeTarget = STRATA_BINARY_DIR "/tests/record_fake_target";

// Reads two pipes to their ends without letting either fill up (poll on both).
inline std::pair<std::string, std::string> drainBoth(int outFd, int errFd) {
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

using strata::test::readAll;

using strata::test::CliRun;
using strata::test::runCli;

class LauncherFiles {
protected:
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

    void makeFakeCollector() {
        QVERIFY(dir_.isValid());
        // The launcher only needs the collector to exist; the fake target never loads CUDA.
        fakeCollector_ = path("libstrata_collector.so");
        std::ofstream(fakeCollector_) << "not a real library\n";
        ::unsetenv("STRATA_COLLECTOR");
    }
};
