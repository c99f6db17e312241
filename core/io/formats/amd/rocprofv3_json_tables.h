#pragma once
// What rocprofv3's JSON holds for one process, as the reader collects it (io/formats/amd/
// rocprofv3_json.h): the tables that name things (agents, the kinds' and operations' names, kernel
// symbols, roctx messages, renamed kernels) and one record of buffer_records, reduced to the
// numbers Strata shows. The field names are rocprofiler-sdk's (source/include/rocprofiler-sdk/
// cxx/serialization/save.hpp, source/lib/output/generateJSON.cpp).
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace strata {

// An entry of "agents" (rocprofiler_agent_v0_t and the tool's gpu_index).
struct Rocprofv3Agent {
    uint64_t handle = 0;        // id.handle, as records name their agents
    int64_t type = 0;           // 1 CPU, 2 GPU
    int64_t logicalTypeId = -1; // logical_node_type_id: the index among agents of its type
    int64_t gpuIndex = -1;      // gpu_index (newer tools): the same for a GPU, -1 for a CPU
    int64_t cuCount = 0;
    std::string name, productName, modelName;
    bool gpu() const { return type == 2; }
    int32_t deviceIndex() const { return int32_t(gpuIndex >= 0 ? gpuIndex : logicalTypeId); }
};

// An entry of "kernel_symbols" (the code object's kernel symbol and the tool's names of it).
struct Rocprofv3Symbol {
    int64_t kernelId = -1;
    std::string kernelName, formattedName, demangledName;
    int64_t groupSegmentSize = -1; // static LDS, bytes
    int64_t archVgprs = -1, accumVgprs = -1;
    // The name rocprofv3's CSV shows: formatted, else demangled, else the symbol's own.
    const std::string& shownName() const {
        return !formattedName.empty()   ? formattedName
               : !demangledName.empty() ? demangledName
                                        : kernelName;
    }
};

// An entry of strings.buffer_records: a record kind's name and its operations' names, indexed by
// the numbers the records carry.
struct Rocprofv3KindNames {
    std::string kind;
    std::vector<std::string> operations;
};

// The arrays of buffer_records Strata shows, and how.
enum class Rocprofv3RecordShape : uint8_t { Kernel, Api, Copy };

// One record of buffer_records.kernel_dispatch, memory_copy or an API's array.
struct Rocprofv3Record {
    Rocprofv3RecordShape shape = Rocprofv3RecordShape::Api;
    uint8_t array = 0; // which array: the reader's index of its name
    bool bad = false;  // a field of the wrong type
    uint8_t have = 0;  // the kHas* bits of the fields read
    int64_t kind = -1, operation = -1, threadId = 0;
    int64_t correlation = -1, external = -1;
    int64_t start = 0, end = 0;
    uint64_t agent = 0, queue = 0, stream = 0, srcAgent = 0, dstAgent = 0;
    int64_t kernelId = -1, groupSegmentSize = -1, bytes = -1;
    std::array<int64_t, 3> workgroup{0, 0, 0}, grid{0, 0, 0};

    static constexpr uint8_t kHasStart = 1, kHasEnd = 2, kHasThread = 4, kHasAgent = 8,
                             kHasSrc = 16, kHasDst = 32;
};

// One process's entry of "rocprofiler-sdk-tool".
struct Rocprofv3Process {
    int64_t pid = 0;
    bool hasPid = false;
    std::string program; // metadata.command's first word
    std::vector<Rocprofv3Agent> agents;
    std::vector<Rocprofv3KindNames> kinds;
    std::vector<Rocprofv3Symbol> symbols;
    std::unordered_map<uint64_t, std::string> markerMessages; // by correlation_id.internal
    std::unordered_map<uint64_t, std::string> renamedKernels; // by correlation_id.external
    // The tables read whole (records that come before them wait for them).
    bool metadataDone = false, agentsDone = false, stringsDone = false, symbolsDone = false;
    bool tablesDone() const { return metadataDone && agentsDone && stringsDone && symbolsDone; }
};

} // namespace strata
