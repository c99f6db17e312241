#include "cli_record_live.h"

#include "io/strata/read/strata_tail.h"
#include "record/launcher.h"
#include "record/live_status.h"
#include "util/terminal_text.h"

#include <chrono>
#include <memory>
#include <string>
#include <thread>

namespace strata::cli {

int waitPrintingLiveStatus(Launcher& launcher, std::FILE* out) {
    using Clock = std::chrono::steady_clock;
    std::unique_ptr<StrataTail> tail; // the target's file, once it has one
    LiveStatus status;
    auto secondStarted = Clock::now();
    int code = 0;
    while (!launcher.poll(&code)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const auto now = Clock::now();
        const double elapsed = std::chrono::duration<double>(now - secondStarted).count();
        if (elapsed < 1.0) continue;
        secondStarted = now;
        if (!tail) {
            const std::vector<std::string> files = launcher.traceFiles();
            if (files.empty()) {
                std::fputs("strata-cli record: live: no trace file yet\n", out);
                continue;
            }
            tail = std::make_unique<StrataTail>(files.front());
        }
        if (!tail->readNew(
                [&](auto type, auto* body, uint32_t bytes) { status.record(type, body, bytes); })) {
            std::fprintf(out, "strata-cli record: live: %s\n", terminalSafe(tail->error()).c_str());
            continue;
        }
        std::fprintf(out, "strata-cli record: live: %s\n",
                     LiveStatus::line(status.take(), elapsed, tail->bytesDelivered()).c_str());
        std::fflush(out);
    }
    return code;
}

} // namespace strata::cli
