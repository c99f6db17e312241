// libfake_cupti.so: cuptiGetResultString, the names real CUPTI gives the results the collector
// meets (fake_cupti.cpp has the rest of the stand-in).
#include <cupti.h>

#include <utility>

extern "C" {

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char** str) {
    if (!str) return CUPTI_ERROR_INVALID_PARAMETER;
    static constexpr std::pair<CUptiResult, const char*> kNames[] = {
        {CUPTI_SUCCESS, "CUPTI_SUCCESS"},
        {CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED,
         "CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"},
        {CUPTI_ERROR_NOT_INITIALIZED, "CUPTI_ERROR_NOT_INITIALIZED"},
        {CUPTI_ERROR_INVALID_KIND, "CUPTI_ERROR_INVALID_KIND"},
        {CUPTI_ERROR_INVALID_PARAMETER, "CUPTI_ERROR_INVALID_PARAMETER"},
        {CUPTI_ERROR_INVALID_OPERATION, "CUPTI_ERROR_INVALID_OPERATION"},
        {CUPTI_ERROR_OUT_OF_MEMORY, "CUPTI_ERROR_OUT_OF_MEMORY"},
        {CUPTI_ERROR_INVALID_METRIC_NAME, "CUPTI_ERROR_INVALID_METRIC_NAME"},
        {CUPTI_ERROR_NOT_SUPPORTED, "CUPTI_ERROR_NOT_SUPPORTED"},
        {CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"},
    };
    *str = "CUPTI_ERROR_UNKNOWN";
    for (const auto& [r, name] : kNames)
        if (r == result) *str = name;
    return CUPTI_SUCCESS;
}

} // extern "C"
