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
#include "python/stack_sampler.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unistd.h>

#define STRATA_EXPORT extern "C" __attribute__((visibility("default")))

namespace strata::python {
namespace {

struct Agent {
    std::string mode; // "calls" or "sample=HZ"
    FrameTable frames;
    std::unique_ptr<CallRecorder> calls;
    std::unique_ptr<StackSampler> sampler;
    bool stopped = false;
};
Agent* g_agent = nullptr; // leaked on purpose, like the collector

// The threads threading named (strata_python_thread_names): their system names are not written
// over them.
bool named(int64_t tid) {
    return g_collector && g_collector->threadNamed(tid);
}

// Collector::beforeWrite: the calls logged since the last chunk; with the last chunk, what
// the agent counted.
void beforeWrite(bool final) {
    Agent* a = g_agent;
    Collector* c = g_collector;
    if (!a || !c) return;
    if (a->calls) a->calls->drain(c->writer, getpid(), final, clockNs(), named);
    if (!final) return;
    if (a->calls) {
        const CallStats s = a->calls->stats();
        c->writer.metadata("python_slices", std::to_string(s.slices));
        c->writer.metadata("python_threads", std::to_string(s.threads));
        if (s.unmatched)
            c->writer.metadata("python_unmatched_returns", std::to_string(s.unmatched));
    }
    if (a->sampler) {
        const SampleStats s = a->sampler->stats();
        c->writer.metadata("python_samples", std::to_string(s.samples));
        c->writer.metadata("python_sample_ticks", std::to_string(s.ticks));
        c->writer.metadata("python_sample_late", std::to_string(s.late));
        c->writer.metadata("python_samples_filled", std::to_string(s.filled));
        c->writer.metadata("python_sample_cpu_ticks", std::to_string(s.cpuTicks));
        c->writer.metadata("python_api_call_stacks", std::to_string(s.apiCalls));
    }
}

void refuse(const std::string& why) {
    if (!recording()) return;
    g_collector->writer.metadata(collector_env::kMetaPython, "not recorded: " + why);
    g_collector->writer.warning("Python not recorded: " + why);
    std::fprintf(stderr, "[strata] Python not recorded: %s\n", why.c_str());
}

// Collector::apiCallStack: a CUDA call begins on this thread; if it holds the GIL, the call
// came from its Python.
void apiCallStack() {
    Agent* a = g_agent;
    if (a && a->sampler && !a->stopped && api()->PyGILState_Check()) a->sampler->apiCallStack();
}

// "sample=HZ" -> HZ (1..10000), else 0.
int sampleRate(const std::string& mode) {
    if (mode.rfind("sample=", 0) != 0) return 0;
    const int hz = std::atoi(mode.c_str() + 7);
    return hz >= 1 && hz <= 10000 ? hz : 0;
}

// With the GIL held, recording: the agent of `mode` installed in this process. `threads`: the
// bootstrap's thread names for the sampler (stack_sampler.h).
bool begin(const std::string& mode, PyObject* threads) {
    std::string why;
    if (!loadApi(&why)) {
        refuse(why);
        return false;
    }
    const Api& a = *api();
    const int hz = sampleRate(mode);
    if (mode != "calls" && !hz) {
        refuse("'" + mode + "' is not a mode this collector knows (calls, sample=HZ)");
        return false;
    }
    auto* agent = new Agent;
    agent->mode = mode;
    g_agent = agent;
    g_collector->beforeWrite = beforeWrite;
    std::string what;
    if (hz) {
        agent->sampler = std::make_unique<StackSampler>(agent->frames, hz, threads);
        g_collector->writer.metadata("python_sample_hz", std::to_string(hz));
        agent->sampler->start();
        // Where each CUDA call came from: no python_function slice encloses it when sampling.
        g_collector->apiCallStack = apiCallStack;
        g_collector->enableApiCallStacks(); // when CUDA is up already; else as it comes up
        what = mode + " (CPython " + a.version + ", every thread's stack with the GIL held)";
    } else {
        agent->calls = std::make_unique<CallRecorder>(agent->frames);
        agent->calls->install();
        what = "calls (CPython " + a.version + ", " +
               (a.PyEval_SetProfileAllThreads ? "PyEval_SetProfileAllThreads"
                                              : "PyEval_SetProfile on each thread") +
               ")";
    }
    g_collector->writer.metadata(collector_env::kMetaPython, what);
    return true;
}

} // namespace
} // namespace strata::python

using namespace strata;
using namespace strata::python;

// From the bootstrap, with the GIL held (ctypes.PyDLL): `mode` is $STRATA_PYTHON ("calls",
// "sample=HZ"); `refusal`, when not empty, the bootstrap's own reason not to record (written
// as the python metadata); `threads` its thread-naming function (stack_sampler.h). Returns 1
// when recording.
STRATA_EXPORT int strata_python_start(const char* mode, const char* refusal, PyObject* threads) {
    collectorStart(StartedBy::Python);
    if (!recording() || g_agent) return 0;
    if (refusal && *refusal) {
        refuse(refusal);
        return 0;
    }
    return begin(mode ? mode : "", threads) ? 1 : 0;
}

// Sampling: the Python handler for the main thread's CPU-time ticks (a new reference), which
// the bootstrap sets for signal `simulated` before calling strata_python_cpu_ticks.
STRATA_EXPORT PyObject* strata_python_cpu_tick_handler() {
    if (!g_agent || !g_agent->sampler) {
        api()->Py_IncRef(api()->none);
        return api()->none;
    }
    return g_agent->sampler->cpuTickHandler();
}

// On the main thread, with the GIL: its CPU-time ticks (stack_sampler.h). Returns 1 when on;
// either way the python_cpu_ticks metadata says.
STRATA_EXPORT int strata_python_cpu_ticks(int simulated, int kernelSignal) {
    if (!g_agent || !g_agent->sampler || !recording()) return 0;
    std::string why;
    const bool on = g_agent->sampler->startCpuTicks(simulated, kernelSignal, &why);
    g_collector->writer.metadata("python_cpu_ticks", on ? "the main thread's CPU timer, signals " +
                                                              std::to_string(kernelSignal) +
                                                              " and " + std::to_string(simulated)
                                                        : "off: " + why);
    return on ? 1 : 0;
}

// 3.10/3.11: a thread started after the start (threading.setprofile's first call in it).
STRATA_EXPORT void strata_python_thread_started() {
    if (g_agent && g_agent->calls && !g_agent->stopped && recording())
        g_agent->calls->hookCurrentThread();
}

// os.register_at_fork(after_in_child=...): a recording of the child's own, with the GIL held.
STRATA_EXPORT int strata_python_forked() {
    if (!g_agent || !collectorRestartInForkedChild()) return 0;
    if (g_agent->calls) g_agent->calls->restartInChild();
    if (g_agent->sampler) g_agent->sampler->restartInChild();
    g_collector->beforeWrite = beforeWrite;
    g_collector->writer.metadata(collector_env::kMetaPython, g_agent->mode +
                                                                 " (a child forked from " +
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
            g_collector->markThreadNamed(tid);
            g_collector->writer.thread(getpid(), tid, line.substr(tab + 1));
        }
        if (!end) break;
        p = end + 1;
    }
}

// A warning from the bootstrap (the target set its own profile function, ...): in the trace's
// warnings, and as the metadata python_note that strata-cli info shows beside what was recorded.
STRATA_EXPORT void strata_python_warning(const char* text) {
    if (!recording() || !text) return;
    g_collector->writer.warning(text);
    g_collector->writer.metadata("python_note", text);
}

// The interpreter is ending (atexit): the sampler stops before Python is finalized. Called
// without the GIL (ctypes.CDLL): the sampler may be waiting for it.
STRATA_EXPORT void strata_python_stop() {
    if (!g_agent) return;
    g_agent->stopped = true;
    if (g_agent->sampler) g_agent->sampler->stop();
}

// os._exit (multiprocessing's children end by it): no atexit runs, so the file is closed now.
// Called without the GIL (ctypes.CDLL).
STRATA_EXPORT void strata_python_exit() {
    strata_python_stop();
    collectorShutdown();
}
