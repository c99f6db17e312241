#include "support/process_watch.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTest>

#include <fstream>
#include <iterator>
#include <string>

namespace strata::test {
namespace {

// The fields of /proc/<pid>/stat after the command's closing parenthesis; empty once gone.
std::string statAfterName(pid_t pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    const std::string text((std::istreambuf_iterator<char>(f)), {});
    const size_t paren = text.rfind(')');
    return paren == std::string::npos || paren + 2 >= text.size() ? std::string()
                                                                  : text.substr(paren + 2);
}

} // namespace

bool running(pid_t pid) {
    const std::string rest = statAfterName(pid);
    return !rest.empty() && rest[0] != 'Z';
}

pid_t parentOf(pid_t pid) {
    const std::string rest = statAfterName(pid); // "S 1234 ...": state, then the parent
    const size_t space = rest.find(' ');
    return space == std::string::npos ? -1 : pid_t(std::stol(rest.substr(space + 1)));
}

std::vector<pid_t> waitForPids(const QString& path, int count, int ms) {
    QElapsedTimer t;
    t.start();
    std::vector<pid_t> pids;
    while (t.elapsed() < ms) {
        pids.clear();
        QFile f(path);
        if (f.open(QIODevice::ReadOnly))
            for (const QByteArray& line : f.readAll().split('\n'))
                if (!line.trimmed().isEmpty()) pids.push_back(pid_t(line.trimmed().toLong()));
        if (int(pids.size()) >= count) return pids;
        QTest::qWait(20);
    }
    return pids;
}

bool allGoneWithin(const std::vector<pid_t>& pids, int ms) {
    QElapsedTimer t;
    t.start();
    do {
        bool any = false;
        for (pid_t p : pids) any = any || running(p);
        if (!any) return true;
        QTest::qWait(20);
    } while (t.elapsed() < ms);
    return false;
}

} // namespace strata::test
