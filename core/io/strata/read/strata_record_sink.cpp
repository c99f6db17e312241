#include "io/strata/read/strata_record_sink.h"

#include "model/run_info.h"

#include <cinttypes>
#include <cmath>

namespace strata::strata_reader {

std::string RecordSink::apply(fmt::RecordType type, const uint8_t* body, uint32_t bytes) {
    const RecordEntry& e = records_[type];
    if (!e.load) {
        ++unknownRecords; // a newer minor version's record: skipped, counted
        return {};
    }
    if (!e.shape.fits(body, bytes)) return bodySizeError(e, type, body, bytes);
    current_ = body;
    return e.load(*this, body, bytes);
}

std::string RecordSink::rowError(const fmt::SliceCells& c, uint32_t row) const {
    return c.block ? sprint("row %" PRIu32 " of the block: ", row) + bad_ : bad_;
}

// Row i's start, duration, name, kind, category and correlation; false: a bad name or kind.
bool RecordSink::rowInput(const fmt::SliceCells& c, uint32_t i, SliceInput& s) {
    s.start = fmt::cell<int64_t>(c.start, i);
    s.dur = duration(s.start, fmt::cell<int64_t>(c.end, i));
    if (!str(fmt::cell<uint32_t>(c.name, i), &s.name) || !kind(c.kind[i], &s.kind)) return false;
    s.category = kindCategory_[uint8_t(s.kind)];
    s.correlation = fmt::cell<int64_t>(c.correlation, i);
    return true;
}

std::string RecordSink::load(const fmt::StringRecord& r) {
    if (r.id == 0) return "String record redefines id 0 (reserved for \"\")";
    // Writers number strings 1, 2, 3, ...; a far jump is damage, not a reason to allocate.
    if (r.id > strings_.size() + kMaxStringIdGap)
        return sprint("String record id %" PRIu32 " jumps past the %zu strings defined so far",
                      r.id, strings_.size() - 1);
    if (r.id >= strings_.size()) strings_.resize(size_t(r.id) + 1, UINT32_MAX);
    strings_[r.id] = b_.intern(r.text);
    return {};
}

std::string RecordSink::load(const fmt::MetadataRecord& r) {
    StringId key;
    if (!str(r.key, &key)) return bad_;
    b_.setMetadata(std::string(b_.strings().view(key)), std::string(r.value));
    return {};
}

std::string RecordSink::load(const fmt::ProcessRecord& r) {
    StringId name;
    if (!str(r.name, &name)) return bad_;
    b_.setProcessName(r.pid, name);
    return {};
}

std::string RecordSink::load(const fmt::ThreadRecord& r) {
    StringId name;
    if (!str(r.name, &name)) return bad_;
    b_.setThreadName(r.pid, r.tid, name);
    return {};
}

std::string RecordSink::load(const fmt::DeviceRecord& r) {
    StringId name;
    if (!str(r.name, &name)) return bad_;
    DeviceInfo d;
    d.id = r.id;
    d.name = std::string(b_.strings().view(name));
    d.smCount = r.smCount;
    d.totalMemoryBytes = r.totalMemoryBytes;
    d.computeMajor = r.computeMajor;
    d.computeMinor = r.computeMinor;
    d.clockRateKHz = r.clockRateKHz;
    d.memoryClockRateKHz = r.memoryClockRateKHz;
    b_.addDevice(d);
    return {};
}

std::string RecordSink::load(const fmt::CpuSliceColumns& c) {
    const TrackId track = threadTrack(c.pid, c.tid);
    for (uint32_t i = 0; i < c.rows; ++i) {
        SliceInput s;
        if (!rowInput(c, i, s)) return rowError(c, i);
        if (const int32_t rc = fmt::cell<int32_t>(c.returnCode, i); rc != 0) {
            b_.args().begin();
            b_.args().addInt(returnCodeKey_, rc);
            s.args = b_.args().finish();
        }
        b_.addSlice(track, s);
    }
    return {};
}

std::string RecordSink::load(const fmt::CpuBeginRecord& r) {
    SliceInput s;
    s.start = r.ts;
    if (!str(r.name, &s.name) || !kind(r.kind, &s.kind)) return bad_;
    s.category = kindCategory_[uint8_t(s.kind)];
    b_.addBegin(threadTrack(r.pid, r.tid), s);
    return {};
}

std::string RecordSink::load(const fmt::CpuEndRecord& r) {
    b_.addEnd(threadTrack(r.pid, r.tid), r.ts, 0, kNoArgs);
    return {};
}

std::string RecordSink::load(const fmt::AsyncSliceRecord& r) {
    SliceInput s;
    s.start = r.start;
    s.dur = duration(r.start, r.end);
    if (!str(r.name, &s.name)) return bad_;
    s.kind = SliceKind::UserAnnotation;
    s.category = kindCategory_[uint8_t(s.kind)];
    b_.addSlice(b_.asyncTrack(r.pid, s.name, r.id), s);
    return {};
}

std::string RecordSink::load(const fmt::InstantRecord& r) {
    StringId name;
    if (!str(r.name, &name)) return bad_;
    b_.addInstant(threadTrack(r.pid, r.tid), r.ts, name, kindCategory_[uint8_t(SliceKind::Instant)],
                  kNoArgs);
    return {};
}

std::string RecordSink::load(const fmt::GpuOpColumns& c) {
    for (uint32_t i = 0; i < c.rows; ++i) {
        SliceInput s;
        if (!rowInput(c, i, s)) return rowError(c, i);
        const GpuActivity a = fmt::Codec<GpuActivity>::read(c.activityOf(i));
        s.gpu = &a;
        b_.addSlice(gpuTrack(a.device, a.stream), s);
    }
    return {};
}

std::string RecordSink::load(const fmt::CounterRecord& r) {
    StringId name;
    if (!str(r.name, &name)) return bad_;
    if (!std::isfinite(r.value)) { // skipped and counted (the parallel load: HalfLoader::writeRows)
        ++nonFiniteCounters;
        return {};
    }
    b_.addCounter(b_.counterTrack(r.pid, name), r.ts, r.value);
    return {};
}

std::string RecordSink::load(const fmt::WarningRecord& r) {
    b_.addWarning(std::string(r.text));
    return {};
}

std::string RecordSink::load(const fmt::EndOfFileRecord&) {
    ++endOfFileRecords;
    return {};
}

std::string RecordSink::load(const fmt::NameColorRecord& r) {
    StringId name;
    if (!str(r.name, &name)) return bad_;
    b_.setNameColor(name, r.argb);
    return {};
}

std::string RecordSink::load(const fmt::RunRecord& r) {
    // The fixed fields hold the numbers; the JSON object the rest. A JSON text this reader cannot
    // read keeps the numbers and says so.
    RunInfo run;
    run.startUnixNs = r.startUnixNs;
    run.durationNs = r.durationNs;
    run.pid = r.pid;
    if (r.exitCode != fmt::RunRecord::kNone) run.exitCode = r.exitCode;
    if (r.signal != fmt::RunRecord::kNone) run.signal = r.signal;
    if (const std::string problem = runInfoFromJson(r.json, &run); !problem.empty())
        b_.addWarning("run record: " + problem + "; its numbers are kept");
    b_.setRunInfo(std::move(run));
    return {};
}

std::string RecordSink::load(const fmt::SectionsRecord& r) {
    if (r.records.size() % kSectionRecordBytes != 0)
        return sprint("Sections record of %zu record bytes, not a multiple of %zu",
                      r.records.size(), kSectionRecordBytes);
    StringId kernel, names;
    if (!str(r.kernel, &kernel) || !str(r.names, &names)) return bad_;
    SectionSet& set = b_.sectionSet(r.correlation, b_.strings().view(kernel), r.device);
    if (set.names.empty()) set.names = splitSectionNames(b_.strings().view(names));
    set.clockHz = r.clockHz;
    set.perWarp = r.scope == 1;
    set.source = "collector";
    size_t bad = 0;
    appendSectionRecords(set, reinterpret_cast<const uint8_t*>(r.records.data()),
                         r.records.size() / kSectionRecordBytes, &bad);
    set.lost = r.attempted > set.samples.size() + bad ? r.attempted - set.samples.size() - bad : 0;
    if (bad)
        b_.addWarning(sprint("%zu section records of kernel %s end before they start; skipped", bad,
                             set.kernel.c_str()));
    return {};
}

} // namespace strata::strata_reader
