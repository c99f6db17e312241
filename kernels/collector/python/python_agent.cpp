// The Python agent's C entry points, called by the bootstrap (sitecustomize.py, through ctypes)
// in every Python process of a run: start before the program's first line, the thread and fork
// hooks, the end. What it records goes through the process's collector (collector_instance.h):
// its file, its flush thread (Collector::beforeWrite drains the calls), its exit and signal
// rules. Nothing here may fail the target: every refusal becomes the "python" metadata and a
// warning in the trace, and the program runs on.
#include "collector_instance.h"
#include "contract/collector_env.h"
#include "process/process_info.h"
#include "python/call_recorder.h"
#include "python/python_api.h"
#include "python/python_frames.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unistd.h>

#define STRATA_EXPORT extern "C" __attribute__((visibility("default")))

namespace strata::python {
namespace {

struct Agent {
    std::string mode; // "calls" or "sample=HZ"
    FrameTable frames;
    std::unique_ptr<CallRecorder> calls;
    bool stopped = false;
};
Agent* g_agent = nullptr; // leaked on purpose, like the collector

// The threads threading named (strata_python_thread_names): their system names are not written
// over them.
std::mutex g_namedMutex;
std::set<int64_t> g_named;
bool named(int64_t tid) {
    std::lock_guard lock(g_namedMutex);
    return g_named.count(tid) > 0;
}

void drainCalls(bool final) {
    Agent* a = g_agent;
    Collector* c = g_collector;
    if (!a || !a->calls || !c) return;
    a->calls->drain(c->writer, getpid(), final, clockNs(), named);
    if (final) {
        const CallStats s = a->calls->stats();
        c->writer.metadata("python_slices", std::to_string(s.slices));
        c->writer.metadata("python_threads", std::to_string(s.threads));
        if (s.unmatched)
            c->writer.metadata("python_unmatched_returns", std::to_string(s.unmatched));
    }
}

void refuse(const std::string& why) {
    if (!recording()) return;
    g_collector->writer.metadata(collector_env::kMetaPython, "not recorded: " + why);
    g_collector->writer.warning("Python not recorded: " + why);
    std::fprintf(stderr, "[strata] Python not recorded: %s\n", why.c_str());
}

// With the GIL held, recording: the agent of `mode` installed in this process.
bool begin(const std::string& mode) {
    std::string why;
    if (!loadApi(&why)) {
        refuse(why);
        return false;
    }
    const Api& a = *api();
    auto* agent = new Agent;
    agent->mode = mode;
    if (mode == "calls") {
        agent->calls = std::make_unique<CallRecorder>(agent->frames);
        g_agent = agent;
        g_collector->beforeWrite = drainCalls;
        agent->calls->install(clockNs());
        const char* how = a.PyEval_SetProfileAllThreads
                              ? "PyEval_SetProfileAllThreads"
                              : "PyEval_SetProfile on each thread";
        g_collector->writer.metadata(collector_env::kMetaPython,
                                     "calls (CPython " + a.version + ", " + how + ")");
        return true;
    }
    delete agent;
    refuse("'" + mode + "' is not a mode this collector knows (calls, sample=HZ)");
    return false;
}

} // namespace
} // namespace strata::python

using namespace strata;
using namespace strata::python;

// From the bootstrap, with the GIL held (ctypes.PyDLL): `mode` is $STRATA_PYTHON ("calls",
// "sample=HZ"); `refusal`, when not empty, the bootstrap's own reason not to record (written
// as the python metadata). Returns 1 when recording.
STRATA_EXPORT int strata_python_start(const char* mode, const char* refusal) {
    collectorStart(StartedBy::Python);
    if (!recording() || g_agent) return 0;
    if (refusal && *refusal) {
        refuse(refusal);
        return 0;
    }
    return begin(mode ? mode : "") ? 1 : 0;
}

// 3.10/3.11: a thread started after the start (threading.setprofile's first call in it).
STRATA_EXPORT void strata_python_thread_started() {
    if (g_agent && g_agent->calls && !g_agent->stopped && recording())
        g_agent->calls->hookCurrentThread();
}

// os.register_at_fork(after_in_child=...): a recording of the child's own, with the GIL held.
STRATA_EXPORT int strata_python_forked() {
    if (!g_agent || !collectorRestartInForkedChild()) return 0;
    if (g_agent->calls) {
        g_agent->calls->restartInChild(clockNs());
        g_collector->beforeWrite = drainCalls;
    }
    {
        std::lock_guard lock(g_namedMutex);
        g_named.clear();
    }
    g_collector->writer.metadata(collector_env::kMetaPython,
                                 g_agent->mode + " (a child forked from " +
                                     std::to_string(getppid()) + ")");
    return 1;
}

// Names of Python threads, "TID\tNAME" lines (threading's names, from the bootstrap).
STRATA_EXPORT void strata_python_thread_names(const char* lines) {
    if (!recording() || !lines) return;
    const char* p = lines;
    while (*p) {
        const char* end = std::strchr(p, '\n');
        const std::string line(p, end ? size_t(end - p) : std::strlen(p));
        const size_t tab = line.find('\t');
        if (tab != std::string::npos) {
            const int64_t tid = std::atoll(line.c_str());
            {
                std::lock_guard lock(g_namedMutex);
                g_named.insert(tid);
            }
            g_collector->writer.thread(getpid(), tid, line.substr(tab + 1));
        }
        if (!end) break;
        p = end + 1;
    }
}

// A warning from the bootstrap (the target set its own profile function, ...).
STRATA_EXPORT void strata_python_warning(const char* text) {
    collectorWarning(text);
}

// os._exit (multiprocessing's children end by it): no atexit runs, so the file is closed now.
// Called without the GIL (ctypes.CDLL).
STRATA_EXPORT void strata_python_exit() {
    if (g_agent) g_agent->stopped = true;
    collectorShutdown();
}
