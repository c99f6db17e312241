#include "io/formats/amd/rocprofv3_csv.h"

#include "io/formats/amd/rocprofiler_names.h"
#include "model/names/cupti_names.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <unordered_map>
#include <vector>

namespace strata {

namespace {

namespace fs = std::filesystem;

enum class Kind { None, Kernels, Calls, Copies };

constexpr std::string_view kKernelHeader = "\"Kind\",\"Agent_Id\",\"Queue_Id\"";
constexpr std::string_view kCallHeader =
    "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\"";
constexpr std::string_view kCopyHeader = "\"Kind\",\"Direction\",\"Source_Agent_Id\"";

Kind kindOf(std::string_view head) {
    if (head.starts_with(kKernelHeader) && head.find("\"Kernel_Name\"") != std::string_view::npos)
        return Kind::Kernels;
    if (head.starts_with(kCallHeader)) return Kind::Calls;
    if (head.starts_with(kCopyHeader)) return Kind::Copies;
    return Kind::None;
}

// One CSV line's fields ("" quotes a quote inside a quoted field).
std::vector<std::string> fields(std::string_view line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                out.back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                out.back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else if (c != '\r') {
            out.back() += c;
        }
    }
    return out;
}

class CsvFile {
public:
    CsvFile(TraceBuilder& b, std::string name) : b_(b), name_(std::move(name)) {}

    // Reads the rows, each by column name; counts the rows that cannot be read.
    void read(std::istream& in, Kind kind) {
        std::string line;
        std::getline(in, line);
        const std::vector<std::string> header = fields(line);
        for (size_t i = 0; i < header.size(); ++i) column_[header[i]] = i;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            row_ = fields(line);
            const bool ok = kind == Kind::Kernels ? kernel()
                            : kind == Kind::Calls ? call()
                                                  : copy();
            if (!ok) ++skipped_;
        }
        if (skipped_)
            b_.addWarning("rocprofv3: " + std::to_string(skipped_) + " rows of " + name_ +
                          " skipped (a missing column or a value that is not a number)");
    }

private:
    bool text(const char* col, std::string* out) const {
        const auto it = column_.find(col);
        if (it == column_.end() || it->second >= row_.size()) return false;
        *out = row_[it->second];
        return true;
    }
    bool number(const char* col, int64_t* out) const {
        std::string t;
        if (!text(col, &t)) return false;
        const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), *out);
        return ec == std::errc() && p == t.data() + t.size();
    }
    bool span(SliceInput& in) const {
        int64_t start = 0, end = 0, corr = -1;
        if (!number("Start_Timestamp", &start) || !number("End_Timestamp", &end) || end < start)
            return false;
        in.start = start;
        in.dur = end - start;
        if (number("Correlation_Id", &corr) && corr > 0) in.correlation = corr;
        return true;
    }

    bool kernel() {
        SliceInput in;
        GpuActivity a;
        int64_t agent = 0, queue = 0;
        std::string name;
        if (!span(in) || !number("Agent_Id", &agent) || !number("Queue_Id", &queue) ||
            !text("Kernel_Name", &name))
            return false;
        a.device = int32_t(agent);
        a.stream = queue;
        static constexpr std::array<const char*, 3> kGroup = {
            "Workgroup_Size_X", "Workgroup_Size_Y", "Workgroup_Size_Z"};
        static constexpr std::array<const char*, 3> kGrid = {"Grid_Size_X", "Grid_Size_Y",
                                                             "Grid_Size_Z"};
        for (int d = 0; d < 3; ++d) {
            int64_t group = 0, items = 0;
            if (!number(kGroup[d], &group) || !number(kGrid[d], &items)) continue;
            a.block[d] = int32_t(group);
            a.grid[d] = workGroups(items, group);
        }
        in.name = b_.intern(name);
        in.category = b_.intern("kernel");
        in.kind = SliceKind::Kernel;
        in.gpu = &a;
        b_.addSlice(rocprofilerGpuLane(b_, a.device, a.stream), in);
        return true;
    }

    bool call() {
        SliceInput in;
        int64_t pid = 0, tid = 0;
        std::string domain, function;
        if (!span(in) || !number("Process_Id", &pid) || !number("Thread_Id", &tid) ||
            !text("Domain", &domain) || !text("Function", &function))
            return false;
        const TrackId track = b_.threadTrack(pid, tid);
        in.name = b_.intern(function);
        const RocprofilerDomain d = rocprofilerDomain(domain);
        in.kind = d.kind;
        in.category = b_.intern(d.category);
        if (in.kind == SliceKind::UserAnnotation && in.dur == 0) {
            b_.addInstant(track, in.start, in.name, in.category, kNoArgs);
            return true;
        }
        b_.addSlice(track, in);
        return true;
    }

    bool copy() {
        SliceInput in;
        GpuActivity a;
        int64_t src = 0, dst = 0;
        std::string direction;
        if (!span(in) || !number("Source_Agent_Id", &src) ||
            !number("Destination_Agent_Id", &dst) || !text("Direction", &direction))
            return false;
        a.copyKind = copyKindOfDirection(direction);
        a.device = int32_t(a.copyKind == 2 ? src : dst);
        a.stream = 0;
        in.name = b_.intern(memcpyName(a.copyKind, 0, 0));
        in.category = b_.intern("gpu_memcpy");
        in.kind = SliceKind::Memcpy;
        in.gpu = &a;
        b_.addSlice(rocprofilerGpuLane(b_, a.device, a.stream), in);
        return true;
    }

    TraceBuilder& b_;
    std::string name_;
    std::map<std::string, size_t> column_;
    std::vector<std::string> row_;
    uint64_t skipped_ = 0;
};

// Whether `name` is a trace file's ("<prefix>kernel_trace.csv", ...), and its prefix.
bool traceFileName(const std::string& name, std::string* prefix) {
    for (std::string_view suffix :
         {"kernel_trace.csv", "memory_copy_trace.csv", "hip_api_trace.csv", "hip_runtime_trace.csv",
          "hip_compile_trace.csv", "hsa_api_trace.csv", "marker_api_trace.csv",
          "rccl_api_trace.csv"}) {
        if (name.ends_with(suffix)) {
            *prefix = name.substr(0, name.size() - suffix.size());
            return true;
        }
    }
    return false;
}

} // namespace

bool isRocprofv3TraceCsv(std::string_view head) {
    return kindOf(head) != Kind::None;
}

bool readRocprofv3Csv(const std::string& path, TraceBuilder& builder, std::string* error) {
    const fs::path p(path);
    std::vector<fs::path> files{p};
    // The other trace files of the run: the same prefix, beside it.
    std::string prefix, other;
    if (traceFileName(p.filename().string(), &prefix)) {
        std::error_code ec;
        const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
        for (const auto& entry : fs::directory_iterator(dir, ec)) {
            const std::string name = entry.path().filename().string();
            if (entry.path().filename() != p.filename() && traceFileName(name, &other) &&
                other == prefix)
                files.push_back(entry.path());
        }
        std::sort(files.begin() + 1, files.end());
    }
    for (const fs::path& f : files) {
        std::ifstream in(f, std::ios::binary);
        std::string head;
        if (!in || !std::getline(in, head)) {
            if (f == p) {
                *error = "cannot be read";
                return false;
            }
            continue;
        }
        const Kind kind = kindOf(head);
        if (kind == Kind::None) {
            if (f == p) {
                *error = "not a rocprofv3 trace CSV: its header is " + head.substr(0, 80);
                return false;
            }
            continue;
        }
        in.seekg(0);
        CsvFile(builder, f.filename().string()).read(in, kind);
    }
    return true;
}

} // namespace strata
