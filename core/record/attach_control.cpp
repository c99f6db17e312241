#include "record/attach_control.h"

#include <chrono>
#include <cstdlib>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace strata {

namespace {

using attach::RunState;
using attach::WaitingRun;

bool readRun(const std::string& dir, int64_t pid, WaitingRun* run) {
    std::string text;
    return attach::readSmallFile(attach::runFilePath(dir, pid), &text) &&
           attach::parseRun(text, run) && run->pid == pid;
}

void removeEntry(const std::string& dir, int64_t pid) {
    unlink(attach::runFilePath(dir, pid).c_str());
    unlink(attach::controlFilePath(dir, pid).c_str());
}

std::string processText(int64_t pid) {
    return "process " + std::to_string(pid);
}

// The entry of a live waiting process, or an error reply saying why there is none.
bool findRun(const std::string& dir, int64_t pid, WaitingRun* run, AttachReply* reply) {
    std::string error;
    struct stat st {};
    if (lstat(dir.c_str(), &st) == 0 && !attach::checkRegistryDir(dir, false, &error)) {
        reply->error = error;
        return false;
    }
    if (!readRun(dir, pid, run)) {
        reply->error = attach::processStartTicks(pid) == 0
                           ? "no process " + std::to_string(pid) + " runs here"
                           : processText(pid) +
                                 " does not wait for attach (start it with strata-cli record "
                                 "--wait-for-attach; its entry would be in " +
                                 dir + ")";
        return false;
    }
    if (!attach::runAlive(*run)) {
        removeEntry(dir, pid);
        reply->error =
            processText(pid) + " has ended (its stale entry was removed); its trace: " + run->trace;
        return false;
    }
    return true;
}

} // namespace

bool listWaitingRuns(const std::string& dir, std::vector<WaitingRun>* runs, std::string* error) {
    struct stat st {};
    if (lstat(dir.c_str(), &st) == 0 && !attach::checkRegistryDir(dir, false, error)) return false;
    *runs = attach::listRuns(dir);
    return true;
}

AttachReply requestAttach(const std::string& dir, int64_t pid, attach::Request request,
                          int timeoutMs) {
    AttachReply reply;
    WaitingRun run;
    if (!findRun(dir, pid, &run, &reply)) return reply;
    const bool start = request == attach::Request::Start;
    const bool capturing = run.state == RunState::Capturing;
    if (start && capturing) {
        reply.exitCode = 0;
        run.note = "already capturing";
        reply.run = run;
        return reply;
    }
    if (!start && !capturing) {
        reply.error = processText(pid) + " is not capturing (it is " +
                      std::string(attach::stateName(run.state)) + "): nothing to stop";
        return reply;
    }
    attach::ControlRequest c;
    std::string text;
    attach::ControlRequest pending;
    if (attach::readSmallFile(attach::controlFilePath(dir, pid), &text) &&
        attach::parseControl(text, &pending))
        c.seq = pending.seq;
    c.seq = std::max(c.seq, run.served) + 1;
    c.request = request;
    if (!attach::writeFileAtomically(attach::controlFilePath(dir, pid), attach::formatControl(c),
                                     &reply.error))
        return reply;
    if (timeoutMs <= 0) timeoutMs = 10000 + 5 * std::max(run.flushMs, 1);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (;;) {
        WaitingRun now;
        if (readRun(dir, pid, &now) && now.served >= c.seq) {
            reply.exitCode = 0;
            reply.run = now;
            return reply;
        }
        if (!attach::runAlive(run)) {
            removeEntry(dir, pid);
            reply.error = processText(pid) + " ended before it acknowledged the " +
                          (start ? "start" : "stop") + "; its trace: " + run.trace;
            return reply;
        }
        if (std::chrono::steady_clock::now() >= until) {
            reply.error = processText(pid) + " did not acknowledge the " +
                          (start ? "start" : "stop") + " within " +
                          std::to_string((timeoutMs + 999) / 1000) +
                          " s (is it stopped, or blocked in a long call?); the request stays "
                          "and takes effect when it gets to it";
            return reply;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

nlohmann::json waitingRunJson(const WaitingRun& r) {
    nlohmann::json windows = nlohmann::json::array();
    std::string_view w = r.windows;
    while (!w.empty()) {
        const size_t comma = w.find(',');
        const std::string_view one = w.substr(0, comma);
        w = comma == std::string_view::npos ? std::string_view() : w.substr(comma + 1);
        const size_t dash = one.find('-');
        if (dash == std::string_view::npos) continue;
        const std::string a(one.substr(0, dash)), b(one.substr(dash + 1));
        windows.push_back({std::strtoll(a.c_str(), nullptr, 10),
                           b.empty() ? nlohmann::json(nullptr)
                                     : nlohmann::json(std::strtoll(b.c_str(), nullptr, 10))});
    }
    return {{"pid", r.pid},         {"state", std::string(attach::stateName(r.state))},
            {"command", r.command}, {"trace", r.trace},
            {"run_id", r.runId},    {"served_ns", r.servedNs},
            {"note", r.note},       {"windows", windows}};
}

bool waitingRunFromJson(const nlohmann::json& j, WaitingRun* out) {
    if (!j.is_object() || !j.contains("pid") || !j["pid"].is_number_integer()) return false;
    WaitingRun r;
    r.pid = j["pid"].get<int64_t>();
    const std::string state = j.value("state", "");
    r.state = state == "capturing" ? RunState::Capturing
              : state == "stopped" ? RunState::Stopped
                                   : RunState::Waiting;
    r.command = j.value("command", "");
    r.trace = j.value("trace", "");
    r.runId = j.value("run_id", "");
    r.servedNs = j.value("served_ns", int64_t(0));
    r.note = j.value("note", "");
    if (j.contains("windows") && j["windows"].is_array())
        for (const auto& w : j["windows"]) {
            if (!w.is_array() || w.size() != 2 || !w[0].is_number_integer()) continue;
            if (!r.windows.empty()) r.windows += ',';
            r.windows += std::to_string(w[0].get<int64_t>()) + "-";
            if (w[1].is_number_integer()) r.windows += std::to_string(w[1].get<int64_t>());
        }
    *out = std::move(r);
    return true;
}

} // namespace strata
