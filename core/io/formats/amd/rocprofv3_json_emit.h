#pragma once
// rocprofv3 JSON records as Strata's slices (io/formats/amd/rocprofv3_json.h): kernels on a GPU
// lane per device and stream (the queue when the record has no stream), copies by direction with
// their bytes, API calls (HIP, HSA, roctx markers, RCCL, rocDecode, rocJPEG) on their threads,
// all linked by correlation_id.internal. A record that cannot be shown is counted per array.
#include "io/formats/amd/rocprofv3_json_tables.h"
#include "model/build/trace_builder.h"

#include <array>
#include <map>
#include <string_view>
#include <unordered_map>

namespace strata {

// The arrays of buffer_records Strata shows; `domain`: the kind's name when strings.buffer_records
// does not give it.
struct Rocprofv3Array {
    std::string_view name;
    Rocprofv3RecordShape shape;
    std::string_view domain;
};
extern const std::array<Rocprofv3Array, 8> kRocprofv3Arrays;

class Rocprofv3JsonEmitter {
public:
    explicit Rocprofv3JsonEmitter(TraceBuilder& b) : b_(b) {}

    // A process's tables are read (or its entry ended without some): its devices, its name, and
    // the lookups of its records. `index`: the process's place in the file (correlation ids of
    // the second and later processes are moved past the first's: `index` << 40 is added).
    void beginRecords(const Rocprofv3Process& p, size_t index);
    // One record of the process last begun: shown, or counted as skipped.
    void add(const Rocprofv3Record& r);
    // A record of an array Strata does not show ("memory_allocation", ...).
    void countNotShown(std::string_view array) { ++notShown_[std::string(array)]; }
    // An element of a shown array that is not a record's object.
    void countSkipped(uint8_t array) { ++skipped_[array]; }

    uint64_t recordsShown() const { return shown_; }
    // The counts as the trace's warnings.
    void finish();

private:
    bool valid(const Rocprofv3Record& r) const;
    const Rocprofv3Agent* agent(uint64_t handle) const;
    int32_t deviceOf(uint64_t handle);
    std::string_view kindName(const Rocprofv3Record& r) const;
    std::string_view operationName(const Rocprofv3Record& r) const;
    int64_t correlation(const Rocprofv3Record& r) const;
    void kernel(const Rocprofv3Record& r);
    void copy(const Rocprofv3Record& r);
    void call(const Rocprofv3Record& r);
    StringId kernelName(const Rocprofv3Record& r);

    TraceBuilder& b_;
    const Rocprofv3Process* p_ = nullptr;
    uint64_t correlationOffset_ = 0;
    std::unordered_map<uint64_t, const Rocprofv3Agent*> agents_;
    std::unordered_map<int64_t, const Rocprofv3Symbol*> symbols_;
    std::unordered_map<int64_t, StringId> kernelNames_;
    std::unordered_map<uint64_t, StringId> callNames_; // by kind << 32 | operation
    std::unordered_map<uint64_t, int32_t> unlistedAgents_;
    std::map<int32_t, bool> devices_; // the devices added
    uint64_t onUnlistedAgents_ = 0;
    uint64_t shown_ = 0;
    std::array<uint64_t, kRocprofv3Arrays.size()> skipped_{};
    std::map<std::string, uint64_t> notShown_;
};

} // namespace strata
