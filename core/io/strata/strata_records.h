#pragma once
// The .strata record types: for each, its id, its fields in body order and the shape of its body
// (fixed size, fields then a string, or a block of rows). Both readers (the sequential
// RecordSink and the two-thread load) and the writer take sizes, offsets, reads and writes from
// here; docs/strata-format.md describes the same records (a test compares its sizes with these).
// Plain std and the model's plain structs (the writer, and so the collector, includes it).
//
// Adding a record type:
//   1. its id in RecordType (a new id means a new minor version, format::kVersionMinor);
//   2. its struct below: kType, kName, kUse, its members, and Body (a shape of strata_fields.h
//      over Fields<Struct, &Struct::member, ...> in body order), and its name in StandardRecords;
//   3. what it means in the model: RecordSink::load(const NewRecord&) (strata_record_sink.cpp);
//      for kUse == TrackRows also HalfLoader::countRows and writeRows (strata_half_count.cpp,
//      strata_half_write.cpp): the compiler asks for each. A FileOrder type needs nothing more
//      in the two-thread load, which applies it through the RecordSink;
//   4. a StrataTraceWriter call that writes it (writeLocked(NewRecord{...})), and its row in
//      docs/strata-format.md.
// A reader that does not know a type skips its records (bodyBytes) and counts them.
#include "io/strata/strata_fields.h"
#include "io/strata/strata_slice_rows.h"

#include <cstdint>
#include <string_view>

namespace strata::format {

enum class RecordType : uint8_t {
    Invalid = 0,
    String = 1,
    Metadata = 2,
    Process = 3,
    Thread = 4,
    Device = 5,
    CpuSlice = 6,
    CpuBegin = 7,
    CpuEnd = 8,
    AsyncSlice = 9,
    Instant = 10,
    GpuOp = 11,
    Counter = 12,
    Warning = 13,
    EndOfFile = 14,
    CpuSliceBlock = 15, // 1.1
    GpuOpBlock = 16,    // 1.1
    NameColor = 17,     // 1.2
    Run = 18,           // 1.3
    Sections = 19,      // 1.4
    // 1.5: a whole model written by io/snapshot (strata-cli convert, the trace cache): a file
    // that starts with a Model record holds only these two types, read by that reader alone.
    Model = 20,            // what the model holds: counts, bounds, and its small parts as JSON
    ModelPart = 21,        // a piece of one of the model's arrays (a column, the args, the strings)
    Callsite = 22,         // 1.6: a frame of sampled stacks
    StackSampleBlock = 23, // 1.6: sampled stacks of one thread
    KernelMetrics = 24,    // 1.7: per-kernel metrics of one launch
};

// How a record reaches the model.
enum class RecordUse : uint8_t {
    // It adds rows to one track (slices, NVTX begin/end, instants, counter samples): the
    // two-thread load counts them, then writes them straight into the track's columns.
    TrackRows,
    // Anything else (strings, names, devices, metadata, warnings): applied through the
    // RecordSink in file order; the two-thread load does that on the calling thread between its
    // passes.
    FileOrder,
};

// 1: a string (UTF-8, no terminator) and the id records use for it; ids 1, 2, 3, ... in order.
struct StringRecord {
    static constexpr RecordType kType = RecordType::String;
    static constexpr const char* kName = "String";
    static constexpr const char* kPrefixName = "id";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    uint32_t id = 0;
    std::string_view text;
    using Body = PrefixedBody<Fields<StringRecord, &StringRecord::id>, &StringRecord::text>;
};

// 2: a metadata entry (command_line, host, rank, ...).
struct MetadataRecord {
    static constexpr RecordType kType = RecordType::Metadata;
    static constexpr const char* kName = "Metadata";
    static constexpr const char* kPrefixName = "key";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    uint32_t key = 0; // string id
    std::string_view value;
    using Body = PrefixedBody<Fields<MetadataRecord, &MetadataRecord::key>, &MetadataRecord::value>;
};

// 3: the name of a process.
struct ProcessRecord {
    static constexpr RecordType kType = RecordType::Process;
    static constexpr const char* kName = "Process";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    int64_t pid = 0;
    uint32_t name = 0; // string id
    using Body = FixedBody<Fields<ProcessRecord, &ProcessRecord::pid, &ProcessRecord::name>>;
};

// 4: the name of a thread.
struct ThreadRecord {
    static constexpr RecordType kType = RecordType::Thread;
    static constexpr const char* kName = "Thread";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    int64_t pid = 0;
    int64_t tid = 0;
    uint32_t name = 0; // string id
    using Body = FixedBody<
        Fields<ThreadRecord, &ThreadRecord::pid, &ThreadRecord::tid, &ThreadRecord::name>>;
};

// 5: a GPU.
struct DeviceRecord {
    static constexpr RecordType kType = RecordType::Device;
    static constexpr const char* kName = "Device";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    int32_t id = 0;
    uint32_t name = 0; // string id
    int32_t smCount = 0;
    int64_t totalMemoryBytes = 0;
    int32_t computeMajor = 0;
    int32_t computeMinor = 0;
    int64_t clockRateKHz = 0;
    int64_t memoryClockRateKHz = 0;
    using Body = FixedBody<Fields<DeviceRecord, &DeviceRecord::id, &DeviceRecord::name,
                                  &DeviceRecord::smCount, &DeviceRecord::totalMemoryBytes,
                                  &DeviceRecord::computeMajor, &DeviceRecord::computeMinor,
                                  &DeviceRecord::clockRateKHz, &DeviceRecord::memoryClockRateKHz>>;
};

// 6: one CPU slice of a thread (1.0; the writer now writes CpuSliceBlock). Readers take it as a
// block of one row.
struct CpuSliceRecord {
    static constexpr RecordType kType = RecordType::CpuSlice;
    static constexpr const char* kName = "CpuSlice";
    static constexpr RecordUse kUse = RecordUse::TrackRows;
    int64_t pid = 0;
    int64_t tid = 0;
    CpuSliceRow row;
    using Body = FixedBody<
        Fields<CpuSliceRecord, &CpuSliceRecord::pid, &CpuSliceRecord::tid, &CpuSliceRecord::row>>;
    static CpuSliceColumns columns(const uint8_t* body, uint32_t) {
        using F = Body::Layout;
        return {F::get<&CpuSliceRecord::pid>(body), F::get<&CpuSliceRecord::tid>(body),
                body + F::offsetOf<&CpuSliceRecord::row>(), 1, false};
    }
};

// 7: an NVTX push: a slice of a thread begins (kind: SliceKind).
struct CpuBeginRecord {
    static constexpr RecordType kType = RecordType::CpuBegin;
    static constexpr const char* kName = "CpuBegin";
    static constexpr RecordUse kUse = RecordUse::TrackRows;
    int64_t pid = 0;
    int64_t tid = 0;
    int64_t ts = 0;
    uint32_t name = 0; // string id
    uint8_t kind = 0;
    using Body =
        FixedBody<Fields<CpuBeginRecord, &CpuBeginRecord::pid, &CpuBeginRecord::tid,
                         &CpuBeginRecord::ts, &CpuBeginRecord::name, &CpuBeginRecord::kind>>;
};

// 8: an NVTX pop: the thread's innermost open slice ends.
struct CpuEndRecord {
    static constexpr RecordType kType = RecordType::CpuEnd;
    static constexpr const char* kName = "CpuEnd";
    static constexpr RecordUse kUse = RecordUse::TrackRows;
    int64_t pid = 0;
    int64_t tid = 0;
    int64_t ts = 0;
    using Body =
        FixedBody<Fields<CpuEndRecord, &CpuEndRecord::pid, &CpuEndRecord::tid, &CpuEndRecord::ts>>;
};

// 9: an NVTX start/end range, on the process's track of that name and id.
struct AsyncSliceRecord {
    static constexpr RecordType kType = RecordType::AsyncSlice;
    static constexpr const char* kName = "AsyncSlice";
    static constexpr RecordUse kUse = RecordUse::TrackRows;
    int64_t pid = 0;
    uint64_t id = 0;
    int64_t start = 0;
    int64_t end = 0;
    uint32_t name = 0; // string id
    using Body = FixedBody<
        Fields<AsyncSliceRecord, &AsyncSliceRecord::pid, &AsyncSliceRecord::id,
               &AsyncSliceRecord::start, &AsyncSliceRecord::end, &AsyncSliceRecord::name>>;
};

// 10: an NVTX mark on a thread.
struct InstantRecord {
    static constexpr RecordType kType = RecordType::Instant;
    static constexpr const char* kName = "Instant";
    static constexpr RecordUse kUse = RecordUse::TrackRows;
    int64_t pid = 0;
    int64_t tid = 0;
    int64_t ts = 0;
    uint32_t name = 0; // string id
    using Body = FixedBody<Fields<InstantRecord, &InstantRecord::pid, &InstantRecord::tid,
                                  &InstantRecord::ts, &InstantRecord::name>>;
};

// 11: one GPU op (1.0; the writer now writes GpuOpBlock). Readers take it as a block of one row.
struct GpuOpRecord {
    static constexpr RecordType kType = RecordType::GpuOp;
    static constexpr const char* kName = "GpuOp";
    static constexpr RecordUse kUse = RecordUse::TrackRows;
    GpuOpRow row;
    using Body = FixedBody<Fields<GpuOpRecord, &GpuOpRecord::row>>;
    static GpuOpColumns columns(const uint8_t* body, uint32_t) { return {body, 1, false}; }
};

// 12: a sample of a process's counter.
struct CounterRecord {
    static constexpr RecordType kType = RecordType::Counter;
    static constexpr const char* kName = "Counter";
    static constexpr RecordUse kUse = RecordUse::TrackRows;
    int64_t pid = 0;
    uint32_t name = 0; // string id
    int64_t ts = 0;
    double value = 0;
    using Body = FixedBody<Fields<CounterRecord, &CounterRecord::pid, &CounterRecord::name,
                                  &CounterRecord::ts, &CounterRecord::value>>;
};

// 13: a warning of the recording (the text fills the body).
struct WarningRecord {
    static constexpr RecordType kType = RecordType::Warning;
    static constexpr const char* kName = "Warning";
    static constexpr const char* kPrefixName = "";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    std::string_view text;
    using Body = PrefixedBody<Fields<WarningRecord>, &WarningRecord::text>;
};

// 14: the writer closed the file cleanly (empty body).
struct EndOfFileRecord {
    static constexpr RecordType kType = RecordType::EndOfFile;
    static constexpr const char* kName = "EndOfFile";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    using Body = FixedBody<Fields<EndOfFileRecord>>;
};

// 15 (1.1): consecutive CPU slices of one thread, as columns of CpuSliceRow fields.
struct CpuSliceBlockRecord {
    static constexpr RecordType kType = RecordType::CpuSliceBlock;
    static constexpr const char* kName = "CpuSliceBlock";
    static constexpr RecordUse kUse = RecordUse::TrackRows;
    int64_t pid = 0;
    int64_t tid = 0;
    uint32_t rows = 0;
    using Head = Fields<CpuSliceBlockRecord, &CpuSliceBlockRecord::pid, &CpuSliceBlockRecord::tid,
                        &CpuSliceBlockRecord::rows>;
    using Body = BlockBody<Head, CpuSliceRowFields>;
    static CpuSliceColumns columns(const uint8_t* body, uint32_t) {
        return {Head::get<&CpuSliceBlockRecord::pid>(body),
                Head::get<&CpuSliceBlockRecord::tid>(body), body + Head::kBytes,
                Head::get<&CpuSliceBlockRecord::rows>(body), true};
    }
};

// 16 (1.1): consecutive ops of one GPU stream, as columns of GpuOpRow fields.
struct GpuOpBlockRecord {
    static constexpr RecordType kType = RecordType::GpuOpBlock;
    static constexpr const char* kName = "GpuOpBlock";
    static constexpr RecordUse kUse = RecordUse::TrackRows;
    uint32_t rows = 0;
    using Head = Fields<GpuOpBlockRecord, &GpuOpBlockRecord::rows>;
    using Body = BlockBody<Head, GpuOpRowFields>;
    static GpuOpColumns columns(const uint8_t* body, uint32_t) {
        return {body + Head::kBytes, Head::get<&GpuOpBlockRecord::rows>(body), true};
    }
};

// A block's header ends with its row count (BodyShape::blockRows reads it there).
static_assert(CpuSliceBlockRecord::Head::offsetOf<&CpuSliceBlockRecord::rows>() + 4 ==
              CpuSliceBlockRecord::Head::kBytes);
static_assert(GpuOpBlockRecord::Head::offsetOf<&GpuOpBlockRecord::rows>() + 4 ==
              GpuOpBlockRecord::Head::kBytes);

// 17 (1.2): the colour the program gave the slices of a name (NVTX event attributes).
struct NameColorRecord {
    static constexpr RecordType kType = RecordType::NameColor;
    static constexpr const char* kName = "NameColor";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    uint32_t name = 0; // string id
    uint32_t argb = 0; // 0xAARRGGBB
    using Body = FixedBody<Fields<NameColorRecord, &NameColorRecord::name, &NameColorRecord::argb>>;
};

// 18 (1.3): what was run to make the recording (model/run_info.h), appended by the launcher
// when the target exited (in a chunk of its own, after the collector's last one), or the only
// record of substance in a file the launcher wrote because the target wrote none. The numbers
// in fixed fields, then the whole RunInfo as a JSON object (runInfoToJson) filling the body.
struct RunRecord {
    static constexpr RecordType kType = RecordType::Run;
    static constexpr const char* kName = "Run";
    static constexpr const char* kPrefixName = "start, duration, pid, exit code and signal";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    static constexpr int32_t kNone = INT32_MIN; // exitCode / signal not set
    int64_t startUnixNs = 0;
    int64_t durationNs = 0;
    int64_t pid = 0;
    int32_t exitCode = kNone;
    int32_t signal = kNone;
    std::string_view json;
    using Body = PrefixedBody<Fields<RunRecord, &RunRecord::startUnixNs, &RunRecord::durationNs,
                                     &RunRecord::pid, &RunRecord::exitCode, &RunRecord::signal>,
                              &RunRecord::json>;
};

// 19 (1.4): in-kernel timer sections of one kernel launch (model/kernel_sections.h), as the host
// helper handed them to the collector: the launch and how to read its records in fixed fields,
// then the 48-byte device records of kernels/include/strata/sections.cuh filling the body. A
// launch with many records comes in several Sections records with the same correlation id.
struct SectionsRecord {
    static constexpr RecordType kType = RecordType::Sections;
    static constexpr const char* kName = "Sections";
    static constexpr const char* kPrefixName = "launch fields";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    int64_t correlation = -1; // the launch's correlation id, -1 unknown
    uint32_t kernel = 0;      // string id: the kernel's name
    uint32_t names = 0;       // string id: the section names by id, joined by '\n'
    int32_t device = -1;
    uint8_t scope = 0;        // 0 one recorder per block, 1 per warp
    double clockHz = 0;       // SM clock rate, 0 unknown
    uint64_t attempted = 0;   // records the launch's kernel tried to write (all pieces)
    std::string_view records; // 48 bytes each
    using Body =
        PrefixedBody<Fields<SectionsRecord, &SectionsRecord::correlation, &SectionsRecord::kernel,
                            &SectionsRecord::names, &SectionsRecord::device, &SectionsRecord::scope,
                            &SectionsRecord::clockHz, &SectionsRecord::attempted>,
                     &SectionsRecord::records>;
};

// 22 (1.6): a callsite of sampled stacks: `frame` (a string id: "file.py(LINE): function",
// "<built-in method NAME of TYPE object>", "function (library.so)") called from callsite `parent`
// (0: the stack's outermost frame). Ids 1, 2, 3, ... chosen by the writer's caller, each defined
// once, before any sample or callsite names it (so a stack can hold no cycle).
struct CallsiteRecord {
    static constexpr RecordType kType = RecordType::Callsite;
    static constexpr const char* kName = "Callsite";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    uint32_t id = 0;
    uint32_t parent = 0;
    uint32_t frame = 0; // string id
    using Body = FixedBody<Fields<CallsiteRecord, &CallsiteRecord::id, &CallsiteRecord::parent,
                                  &CallsiteRecord::frame>>;
};

// One sampled stack: when, its innermost callsite (0: the thread had no frame), its kind (0 a
// Python stack, 1 a native one).
struct StackSampleRow {
    int64_t ts = 0;
    uint32_t callsite = 0;
    uint8_t kind = 0;
};
using StackSampleRowFields =
    Fields<StackSampleRow, &StackSampleRow::ts, &StackSampleRow::callsite, &StackSampleRow::kind>;

// A StackSampleBlock's rows as columns (readers read them through this).
struct StackSampleColumns {
    int64_t pid = 0, tid = 0;
    uint32_t rows = 0;
    const uint8_t *ts = nullptr, *callsite = nullptr, *kind = nullptr;
};

// 23 (1.6): consecutive stack samples of one thread, as columns of StackSampleRow fields (13
// bytes a sample). Applied in file order (after the callsites they name).
struct StackSampleBlockRecord {
    static constexpr RecordType kType = RecordType::StackSampleBlock;
    static constexpr const char* kName = "StackSampleBlock";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    int64_t pid = 0;
    int64_t tid = 0;
    uint32_t rows = 0;
    using Head = Fields<StackSampleBlockRecord, &StackSampleBlockRecord::pid,
                        &StackSampleBlockRecord::tid, &StackSampleBlockRecord::rows>;
    using Body = BlockBody<Head, StackSampleRowFields>;
    static StackSampleColumns columns(const uint8_t* body, uint32_t) {
        using R = StackSampleRowFields;
        StackSampleColumns c;
        c.pid = Head::get<&StackSampleBlockRecord::pid>(body);
        c.tid = Head::get<&StackSampleBlockRecord::tid>(body);
        c.rows = Head::get<&StackSampleBlockRecord::rows>(body);
        const uint8_t* first = body + Head::kBytes;
        c.ts = first + size_t(c.rows) * R::offsetOf<&StackSampleRow::ts>();
        c.callsite = first + size_t(c.rows) * R::offsetOf<&StackSampleRow::callsite>();
        c.kind = first + size_t(c.rows) * R::offsetOf<&StackSampleRow::kind>();
        return c;
    }
};
static_assert(StackSampleBlockRecord::Head::offsetOf<&StackSampleBlockRecord::rows>() + 4 ==
              StackSampleBlockRecord::Head::kBytes);

// 24 (1.7): the metrics CUPTI's range profiler measured on one kernel launch (--kernel-metrics):
// the launch's correlation id and device, its kernel's name and the metric names (string ids; the
// names joined by '\n') in fixed fields, then one f64 per name filling the body (NaN: not
// measured). Readers give each value to the kernel of the same correlation id as a numeric arg
// named after the metric; the record may come before or after the kernel's row.
struct KernelMetricsRecord {
    static constexpr RecordType kType = RecordType::KernelMetrics;
    static constexpr const char* kName = "KernelMetrics";
    static constexpr const char* kPrefixName = "launch fields";
    static constexpr RecordUse kUse = RecordUse::FileOrder;
    int64_t correlation = -1; // the launch's correlation id
    int32_t device = -1;
    uint32_t kernel = 0;     // string id: the kernel's (demangled) name
    uint32_t names = 0;      // string id: the metric names, joined by '\n'
    std::string_view values; // 8 bytes (an f64) per name
    using Body = PrefixedBody<
        Fields<KernelMetricsRecord, &KernelMetricsRecord::correlation, &KernelMetricsRecord::device,
               &KernelMetricsRecord::kernel, &KernelMetricsRecord::names>,
        &KernelMetricsRecord::values>;
};

template <typename... Records> struct RecordList {};

// Every record type this version reads and writes.
using StandardRecords =
    RecordList<StringRecord, MetadataRecord, ProcessRecord, ThreadRecord, DeviceRecord,
               CpuSliceRecord, CpuBeginRecord, CpuEndRecord, AsyncSliceRecord, InstantRecord,
               GpuOpRecord, CounterRecord, WarningRecord, EndOfFileRecord, CpuSliceBlockRecord,
               GpuOpBlockRecord, NameColorRecord, RunRecord, SectionsRecord, CallsiteRecord,
               StackSampleBlockRecord, KernelMetricsRecord>;

// f.template operator()<R>() for each record type R of the list, in order.
template <typename F, typename... Records>
constexpr void forEachRecordType(RecordList<Records...>, F&& f) {
    (f.template operator()<Records>(), ...);
}

// Each standard type has its own id.
static_assert([] {
    bool seen[256] = {}, distinct = true;
    forEachRecordType(StandardRecords{}, [&]<typename R>() {
        distinct = distinct && !seen[uint8_t(R::kType)];
        seen[uint8_t(R::kType)] = true;
    });
    return distinct;
}());

// What the readers take from a body of R whose size fits R::Body::kShape: R's fields, or, for the
// slice records (those with columns()), their rows as columns.
template <typename R> auto readRecord(const uint8_t* body, uint32_t bytes) {
    if constexpr (requires { R::columns(body, bytes); })
        return R::columns(body, bytes);
    else
        return R::Body::read(body, bytes);
}

// The shape of a standard type's body (kind Unknown for any other type).
constexpr BodyShape bodyShape(RecordType type) {
    BodyShape shape;
    forEachRecordType(StandardRecords{}, [&]<typename R>() {
        if (R::kType == type) shape = R::Body::kShape;
    });
    return shape;
}

// How a standard type reaches the model (FileOrder for any other type).
constexpr RecordUse recordUse(RecordType type) {
    RecordUse use = RecordUse::FileOrder;
    forEachRecordType(StandardRecords{}, [&]<typename R>() {
        if (R::kType == type) use = R::kUse;
    });
    return use;
}

// The body size of a fixed-size record type, or UINT32_MAX (variable size, or unknown).
constexpr uint32_t fixedBodyBytes(RecordType type) {
    const BodyShape shape = bodyShape(type);
    return shape.kind == BodyShape::Fixed ? shape.head : UINT32_MAX;
}

// Blocks: a header, then `rows` rows of these many bytes (all columns together).
inline constexpr uint32_t kCpuSliceBlockHead = CpuSliceBlockRecord::Body::kShape.head;
inline constexpr uint32_t kCpuSliceRow = CpuSliceBlockRecord::Body::kShape.row;
inline constexpr uint32_t kGpuOpBlockHead = GpuOpBlockRecord::Body::kShape.head;
inline constexpr uint32_t kGpuOpRow = GpuOpBlockRecord::Body::kShape.row;
inline constexpr uint32_t kStackSampleBlockHead = StackSampleBlockRecord::Body::kShape.head;
inline constexpr uint32_t kStackSampleRow = StackSampleBlockRecord::Body::kShape.row;
static_assert(kStackSampleBlockHead == 20 && kStackSampleRow == 13);

} // namespace strata::format
