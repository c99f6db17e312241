#include "analysis/json/trace_info_json.h"

#include "model/run_info.h"
#include "util/json_text.h"

namespace strata {

std::string traceInfoToJson(const TraceInfo& info) {
    std::string o = "{\"file\": ";
    appendJsonString(o, info.file);
    o += ", \"format\": ";
    appendJsonString(o, info.format);
    o += ", \"run\": ";
    o += info.run ? runInfoToJson(*info.run) : "null";
    o += ", \"metadata\": {";
    bool first = true;
    for (const auto& [k, v] : info.metadata) {
        if (!first) o += ", ";
        first = false;
        appendJsonString(o, k);
        o += ": ";
        appendJsonString(o, v);
    }
    o += "}, \"no_gpu_reason\": ";
    if (info.noGpuReason.empty())
        o += "null";
    else
        appendJsonString(o, info.noGpuReason);
    o += ", \"sections\": {\"launches\": " + std::to_string(info.sectionLaunches) +
         ", \"kernels\": " + std::to_string(info.sectionKernels) + ", \"imported\": [";
    for (size_t i = 0; i < info.importedSections.size(); ++i) {
        if (i) o += ", ";
        appendJsonString(o, info.importedSections[i]);
    }
    o += "]}";
    if (info.stackSamples) // (absent without: the document of a trace without samples as before)
        o += ", \"stack_samples\": {\"samples\": " + std::to_string(info.stackSamples) +
             ", \"threads\": " + std::to_string(info.stackSampleThreads) + "}";
    o += "}";
    return o;
}

} // namespace strata
