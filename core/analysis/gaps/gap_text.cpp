#include "analysis/gaps/gap_text.h"

#include "analysis/gaps/host_waits.h"
#include "model/names/time_text.h"

namespace strata {

namespace {

std::string cut(std::string_view s, size_t maxName) {
    if (maxName == 0 || s.size() <= maxName) return std::string(s);
    size_t n = maxName;
    while (n > 0 && (uint8_t(s[n]) & 0xC0) == 0x80) --n; // not inside a UTF-8 character
    return std::string(s.substr(0, n)) + "…";
}

std::string nameOf(const Trace& t, StringId id, size_t maxName) {
    return id == kNoName ? std::string() : cut(t.str(id), maxName);
}

} // namespace

std::string gapPartText(const Trace& t, const GapPart& p, size_t maxName) {
    const std::string name = nameOf(t, p.name, maxName);
    const std::string in = p.context == kNoName ? "" : " in " + nameOf(t, p.context, maxName);
    switch (p.kind) {
    case GapPartKind::Blocked:
        return "blocked in " + name + (isAsyncCopyName(t.str(p.name)) ? " (pageable memory)" : "") +
               in;
    case GapPartKind::Launch:
        return name + in + (p.warmUp ? " (first launch: module loading)" : "");
    case GapPartKind::Cpu:
        return name + in;
    case GapPartKind::Untraced:
        return p.name == kNoName ? "untraced, outside any traced slice"
                                 : "untraced, under " + name + in;
    case GapPartKind::Queued:
        return "queued after the launch returned";
    case GapPartKind::Other:
        return std::to_string(p.gathered) + " more";
    }
    return name;
}

namespace {

// The reason from the breakdown and the cause, before what the capture and the other threads add.
std::string causeReason(const Trace& t, const ExplainedGap& e, size_t maxName) {
    const GapBreakdown& b = e.breakdown;
    switch (e.cause) {
    case GapCause::LaunchBound: {
        std::string s;
        if (e.inputPipeline)
            s = "input pipeline: " + formatDuration(b.inputPipeline) + " under " +
                nameOf(t, b.inputSpan, maxName) + "; ";
        const GapPart* p = b.dominantCpu();
        if (p) s += "CPU busy: " + gapPartText(t, *p, maxName) + " " + formatDuration(p->time);
        return s;
    }
    case GapCause::LaunchOverhead: {
        for (const GapPart& p : b.parts)
            if (p.kind == GapPartKind::Launch) {
                std::string head = "launch calls: ";
                if (isModuleLoadingName(t.str(p.name)))
                    head = "module loading on a kernel's first launch (warm-up): ";
                else if (p.warmUp)
                    head = "warm-up (first launch: module loading): ";
                GapPart plain = p;
                plain.warmUp = false; // said in the head
                return head + gapPartText(t, plain, maxName) + " " + formatDuration(p.time) + " (" +
                       formatDuration(b.of(GapPartKind::Launch)) + " in all)";
            }
        return "launch latency: queued " + formatDuration(b.of(GapPartKind::Queued));
    }
    case GapCause::Synchronization: {
        const std::string call =
            e.blockingCall.valid() ? cut(t.name(e.blockingCall), maxName) : std::string();
        std::string s = "blocked in " + call +
                        (isAsyncCopyName(call) ? " (a copy to or from pageable memory)" : "") +
                        " " + formatDuration(b.of(GapPartKind::Blocked));
        if (e.unseenWait)
            s += ", with no GPU op recorded anywhere meanwhile: the GPU may be running work "
                 "outside the capture (launched before it began)";
        return s;
    }
    case GapCause::Dependency: {
        std::string s;
        if (e.waitedOn.valid())
            s = "waited on " + cut(t.name(e.waitedOn), maxName) + " (ended " +
                formatDuration(e.gap.end - (t.start(e.waitedOn) + t.duration(e.waitedOn))) +
                " before the next op)";
        else
            s = "waited on the device, not visible in the trace (a dependency inside a graph, a "
                "host callback, another process, work launched before the capture began)";
        if (e.waitCall.valid()) s += ", after " + cut(t.name(e.waitCall), maxName);
        return s;
    }
    case GapCause::Unattributed:
        return "no launch call in the trace for the op that ends it";
    }
    return {};
}

} // namespace

std::string gapReason(const Trace& t, const ExplainedGap& e, size_t maxName) {
    std::string s = causeReason(t, e, maxName);
    if (e.captured())
        s = "graph capture: the launches between BeginCapture and EndCapture are captured into "
            "a graph, not run (" +
            formatDuration(e.inCapture) + " of the gap); " + s;
    // Where nothing recorded explains the time, who else was blocked meanwhile.
    if (e.causeNotVisible() && !e.otherThreads.empty())
        s += "; meanwhile " + threadWaitText(t, e.otherThreads.front(), e.gap.duration(), maxName);
    return s;
}

std::string threadWaitText(const Trace& t, const ThreadWait& w, TimeNs gapLength, size_t maxName) {
    std::string who;
    if (w.launching) {
        who = "the launching thread, after its launch,";
    } else {
        const Thread* th = t.thread(w.pid, w.tid);
        who = "thread " + std::to_string(th ? th->shownTid() : w.tid);
        if (th && th->name != 0 && !t.str(th->name).empty())
            who += " (" + cut(t.str(th->name), maxName) + ")";
    }
    const std::string call = w.call.valid() ? cut(t.name(w.call), maxName) : std::string();
    return who + " was blocked in " + call + (isAsyncCopyName(call) ? " (pageable memory)" : "") +
           " " + formatDuration(w.overlap) + (w.overlap >= gapLength ? " (the whole gap)" : "");
}

bool isModuleLoadingName(std::string_view n) {
    return n.starts_with("cuLibraryLoad") || n.starts_with("cuModuleLoad") ||
           n.starts_with("hipModuleLoad") || n.starts_with("cudaLibraryLoad");
}

} // namespace strata
