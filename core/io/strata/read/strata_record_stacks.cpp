// RecordSink: the sampled-stack records (Callsite, StackSampleBlock) into the model's stack
// samples (model/stack_samples.h). Damage in them is skipped and counted, never fatal: the rest
// of the recording is worth more than one bad sample.
#include "io/strata/read/strata_record_sink.h"

#include <cinttypes>

namespace strata::strata_reader {

void RecordSink::noteStackProblem(uint64_t& counter, const std::string& what) {
    ++counter;
    if (stackProblems.size() >= kMaxStackProblems) return;
    const size_t at = fileStart_ && current_ >= fileStart_ + fmt::kRecordHeaderBytes
                          ? size_t(current_ - fileStart_) - fmt::kRecordHeaderBytes
                          : 0;
    stackProblems.push_back(sprint("record at byte %zu: ", at) + what);
}

std::string RecordSink::load(const fmt::CallsiteRecord& r) {
    const auto fail = [&](const std::string& why) {
        noteStackProblem(badCallsites, sprint("Callsite %" PRIu32 ": ", r.id) + why + "; skipped");
        return std::string();
    };
    if (r.id == 0) return fail("id 0 is reserved (the empty stack)");
    if (r.id > callsites_.size() + kMaxCallsiteIdGap)
        return fail(
            sprint("id jumps past the %zu callsites defined so far", callsites_.size() - 1));
    if (r.id < callsites_.size() && callsites_[r.id] != UINT32_MAX)
        return fail("defined a second time");
    if (r.parent == r.id) return fail("its own parent (a cycle)");
    if (r.parent >= callsites_.size() || callsites_[r.parent] == UINT32_MAX)
        return fail(sprint("parent %" PRIu32 " is not defined before it", r.parent));
    StringId frame;
    if (!str(r.frame, &frame)) return fail(bad_);
    if (r.id >= callsites_.size()) callsites_.resize(size_t(r.id) + 1, UINT32_MAX);
    callsites_[r.id] = b_.addCallsite(callsites_[r.parent], frame);
    return {};
}

std::string RecordSink::load(const fmt::StackSampleColumns& c) {
    for (uint32_t i = 0; i < c.rows; ++i) {
        const uint32_t site = fmt::cell<uint32_t>(c.callsite, i);
        const uint8_t kind = c.kind[i];
        if (site >= callsites_.size() || callsites_[site] == UINT32_MAX) {
            noteStackProblem(badStackSamples,
                             sprint("StackSampleBlock row %" PRIu32 ": callsite %" PRIu32
                                    " is not defined before it; skipped",
                                    i, site));
            continue;
        }
        if (kind > kMaxStackKind) {
            noteStackProblem(
                badStackSamples,
                sprint(
                    "StackSampleBlock row %" PRIu32
                    ": stack kind %u is not known (0 Python, 1 native, 2 at an API call); skipped",
                    i, unsigned(kind)));
            continue;
        }
        b_.addStackSample(c.pid, c.tid, fmt::cell<int64_t>(c.ts, i), callsites_[site], kind);
    }
    return {};
}

} // namespace strata::strata_reader
