// STRATA_WAIT_FOR_ATTACH (strata-cli record --wait-for-attach): the collector keeps nothing until
// an attach session starts capture, and keeps records only between each start and its stop. The
// process registers itself in the attach folder (contract/attach_registry.h) when it starts and
// leaves it when its file closes; its flush thread reads the control file each tick, opens or
// closes a capture window (CaptureSchedule::onAttachStart/Stop, so the parser keeps exactly the
// records inside), turns CUPTI's capture activities on and off, and acknowledges in its entry.
#include "collector_instance.h"
#include "contract/attach_registry.h"
#include "contract/collector_env.h"
#include "process/process_info.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace strata {

namespace env = collector_env;

namespace {

// "START-END,START-": the windows so far (an open one has no end).
std::string windowsText(const std::vector<CaptureWindow>& windows) {
    std::string s;
    for (const CaptureWindow& w : windows) {
        if (!s.empty()) s += ',';
        s += std::to_string(w.start) + "-";
        if (w.end != INT64_MAX) s += std::to_string(w.end);
    }
    return s;
}

} // namespace

void Collector::attachRegister() {
    if (!config.waitForAttach) return;
    writer.metadata(env::kMetaAttach, "wait-for-attach");
    writer.metadata(env::kMetaAttachWindows, "");
    std::string error;
    if (!attach::checkRegistryDir(config.attachDir, true, &error)) {
        const std::string text = "--wait-for-attach: " + error +
                                 "; no attach session can reach this process: nothing is recorded";
        writer.warning(text);
        std::fprintf(stderr, "[strata] %s\n", text.c_str());
        return;
    }
    attachRun.pid = getpid();
    attachRun.startTicks = attach::processStartTicks(attachRun.pid);
    if (const char* id = std::getenv(env::kRunId)) attachRun.runId = id;
    attachRun.command = commandLine();
    char* full = realpath(config.outputPath.c_str(), nullptr);
    attachRun.trace = full ? full : config.outputPath;
    std::free(full);
    attachRun.flushMs = config.flushMs;
    const std::string runPath = attach::runFilePath(config.attachDir, attachRun.pid);
    attachControlPath = attach::controlFilePath(config.attachDir, attachRun.pid);
    unlink(attachControlPath.c_str()); // an earlier process's request, had it this pid
    if (!attach::writeFileAtomically(runPath, attach::formatRun(attachRun), &error)) {
        writer.warning("--wait-for-attach: cannot register: " + error + "; nothing is recorded");
        std::fprintf(stderr, "[strata] --wait-for-attach: cannot register: %s\n", error.c_str());
        attachControlPath.clear();
        return;
    }
    attachRunPath = runPath;
}

bool Collector::attachServe() {
    if (attachRunPath.empty()) return false;
    std::string text;
    attach::ControlRequest req;
    if (!attach::readSmallFile(attachControlPath, &text) || !attach::parseControl(text, &req) ||
        req.seq <= attachRun.served)
        return false;
    const bool start = req.request == attach::Request::Start;
    const bool capturing = attachRun.state == attach::RunState::Capturing;
    attachRun.note.clear();
    bool flushed = false;
    if (start == capturing) {
        attachRun.note = start ? "already capturing" : "not capturing";
        attachRun.servedNs = int64_t(clockNs());
    } else {
        std::string windows;
        {
            // CUDA may be starting CUPTI on another thread (startCupti, under initMutex): the
            // activities end as the state says.
            std::lock_guard init(initMutex);
            if (start && !captureStopped.load()) enableCaptureActivities();
            attachRun.servedNs = int64_t(clockNs());
            attachCapturing.store(start);
            std::lock_guard s(scheduleMutex);
            if (start)
                schedule.onAttachStart(attachRun.servedNs);
            else
                schedule.onAttachStop(attachRun.servedNs);
            windows = windowsText(schedule.attachWindows());
        }
        attachRun.state = start ? attach::RunState::Capturing : attach::RunState::Stopped;
        attachRun.windows = windows;
        writer.metadata(env::kMetaAttachWindows, windows);
        if (!start) {
            // The window's records on disk before the acknowledgement; then CUPTI stops paying.
            flushOnce(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED, false);
            std::lock_guard init(initMutex);
            if (!attachCapturing.load()) disableCaptureActivities();
            flushed = true;
        }
    }
    attachRun.served = req.seq;
    std::string error;
    if (!attach::writeFileAtomically(attachRunPath, attach::formatRun(attachRun), &error))
        writer.warning("--wait-for-attach: cannot acknowledge a request: " + error);
    return flushed;
}

void Collector::attachUnregister() {
    if (attachRunPath.empty()) return;
    unlink(attachRunPath.c_str());
    unlink(attachControlPath.c_str());
}

} // namespace strata
