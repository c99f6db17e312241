#include "io/json/json_gpu_args.h"

#include "model/names/cupti_names.h"

namespace strata {

bool parseDim3(std::string_view json, std::array<int32_t, 3>* out) {
    size_t i = 0;
    while (i < json.size() && json[i] == ' ') ++i;
    if (i >= json.size() || json[i] != '[') return false;
    ++i;
    std::array<int32_t, 3> v{0, 0, 0};
    for (int k = 0; k < 3; ++k) {
        while (i < json.size() && (json[i] == ' ' || json[i] == '\n' || json[i] == '\t')) ++i;
        if (i < json.size() && json[i] == ']') break;
        bool neg = false;
        if (i < json.size() && json[i] == '-') neg = true, ++i;
        int64_t x = 0;
        const size_t start = i;
        while (i < json.size() && json[i] >= '0' && json[i] <= '9') {
            if (x < (int64_t(1) << 32)) x = x * 10 + (json[i] - '0');
            ++i;
        }
        if (i == start) return false;
        if (x > INT32_MAX) x = INT32_MAX;
        v[size_t(k)] = int32_t(neg ? -x : x);
        while (i < json.size() && (json[i] == ' ' || json[i] == '\n' || json[i] == '\t')) ++i;
        if (i < json.size() && json[i] == ',') ++i;
    }
    *out = v;
    return true;
}

void parseCopyName(std::string_view name, GpuActivity* gpu) {
    // The first copy kind named anywhere in the name ("Memcpy HtoD (...)").
    for (size_t k = 1; k < kCopyKindNames.size(); ++k) {
        if (name.find(kCopyKindNames[k]) != std::string_view::npos) {
            gpu->copyKind = uint8_t(k);
            break;
        }
    }
    // "(Pageable -> Device)" for copies, "(Device)" for sets.
    const size_t open = name.rfind('(');
    const size_t close = name.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return;
    const std::string_view inner = name.substr(open + 1, close - open - 1);
    const size_t arrow = inner.find(" -> ");
    if (arrow == std::string_view::npos) {
        gpu->dstMemory = memoryKindFromName(inner);
    } else {
        gpu->srcMemory = memoryKindFromName(inner.substr(0, arrow));
        gpu->dstMemory = memoryKindFromName(inner.substr(arrow + 4));
    }
}

} // namespace strata
