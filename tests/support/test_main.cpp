// The main of every area's test program (test_main.h): runs the class named by the first
// argument with the arguments after it, or, with no class named, every class in a child process
// of its own (so that no class sees another's application object or global state), in name order.
#include "support/test_main.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

extern char** environ;

namespace strata::test {
namespace {

std::map<std::string, TestClassRunner>& registry() {
    static std::map<std::string, TestClassRunner> classes;
    return classes;
}

std::string baseName(const char* path) {
    std::string name(path);
    const size_t slash = name.find_last_of('/');
    if (slash != std::string::npos) name.erase(0, slash + 1);
    const size_t dot = name.find('.');
    if (dot != std::string::npos) name.erase(dot);
    return name;
}

void listClasses(FILE* to) {
    for (const auto& [name, run] : registry()) std::fprintf(to, "%s\n", name.c_str());
}

// Runs `self name args...` and waits for it; its exit status, or 128 + the signal that ended it.
int runChild(const char* self, const std::string& name, int argc, char** argv) {
    std::vector<char*> args{const_cast<char*>(self), const_cast<char*>(name.c_str())};
    for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
    args.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, args.data(), environ) != 0) {
        std::fprintf(stderr, "%s: cannot start %s: %s\n", self, name.c_str(), std::strerror(errno));
        return 127;
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace

bool registerTestClass(const char* sourceFile, TestClassRunner run) {
    const std::string name = baseName(sourceFile);
    if (!registry().emplace(name, run).second) {
        std::fprintf(stderr, "test class %s registered twice\n", name.c_str());
        std::abort();
    }
    return true;
}

} // namespace strata::test

int main(int argc, char** argv) {
    using namespace strata::test;
    if (argc >= 2 && (std::strcmp(argv[1], "--list") == 0)) {
        listClasses(stdout);
        return 0;
    }
    if (argc >= 2 && argv[1][0] != '-') {
        const auto it = registry().find(argv[1]);
        if (it == registry().end()) {
            std::fprintf(stderr, "%s: no test class %s here; the classes are:\n", argv[0], argv[1]);
            listClasses(stderr);
            return 2;
        }
        // Each class under its own application name: its QSettings and QStandardPaths (test
        // mode) are its own, so two classes of one program run side by side (ctest -j2) never
        // write the same settings file.
        QCoreApplication::setApplicationName(QString::fromLatin1(argv[1]));
        // The class sees the command line without its own name, as under QTEST_MAIN.
        std::vector<char*> args{argv[0]};
        for (int i = 2; i < argc; ++i) args.push_back(argv[i]);
        args.push_back(nullptr);
        return it->second(argc - 1, args.data());
    }
    int failed = 0;
    for (const auto& [name, run] : registry()) {
        const int status = runChild(argv[0], name, argc, argv);
        if (status != 0) {
            std::fprintf(stderr, "%s: %s exited with %d\n", argv[0], name.c_str(), status);
            ++failed;
        }
    }
    std::fprintf(stderr, "%s: %zu test classes, %d failed\n", argv[0], registry().size(), failed);
    return failed == 0 ? 0 : 1;
}
