#include "activities/activity_names.h"

#include "model/names/cupti_names.h"

#include <cupti_activity.h>

namespace strata {

// The shared table's numbers are CUPTI's: checked against the headers the collector builds with.
static_assert(copyKindName(CUPTI_ACTIVITY_MEMCPY_KIND_HTOD) == "HtoD");
static_assert(copyKindName(CUPTI_ACTIVITY_MEMCPY_KIND_DTOH) == "DtoH");
static_assert(copyKindName(CUPTI_ACTIVITY_MEMCPY_KIND_HTOA) == "HtoA");
static_assert(copyKindName(CUPTI_ACTIVITY_MEMCPY_KIND_ATOH) == "AtoH");
static_assert(copyKindName(CUPTI_ACTIVITY_MEMCPY_KIND_ATOA) == "AtoA");
static_assert(copyKindName(CUPTI_ACTIVITY_MEMCPY_KIND_ATOD) == "AtoD");
static_assert(copyKindName(CUPTI_ACTIVITY_MEMCPY_KIND_DTOA) == "DtoA");
static_assert(copyKindName(CUPTI_ACTIVITY_MEMCPY_KIND_DTOD) == "DtoD");
static_assert(copyKindName(CUPTI_ACTIVITY_MEMCPY_KIND_HTOH) == "HtoH");
static_assert(copyKindName(CUPTI_ACTIVITY_MEMCPY_KIND_PTOP) == "PtoP");
static_assert(memoryKindName(CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE) == "Pageable");
static_assert(memoryKindName(CUPTI_ACTIVITY_MEMORY_KIND_PINNED) == "Pinned");
static_assert(memoryKindName(CUPTI_ACTIVITY_MEMORY_KIND_DEVICE) == "Device");
static_assert(memoryKindName(CUPTI_ACTIVITY_MEMORY_KIND_ARRAY) == "Array");
static_assert(memoryKindName(CUPTI_ACTIVITY_MEMORY_KIND_MANAGED) == "Managed");
static_assert(memoryKindName(CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC) == "Device Static");
static_assert(memoryKindName(CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC) == "Managed Static");

const char* syncName(uint32_t type) {
    switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
        return "Event Sync";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
        return "Stream Wait Event";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
        return "Stream Sync";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
        return "Context Sync";
    default:
        return "Sync";
    }
}

const char* overheadName(uint32_t kind) {
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
        return "CUPTI overhead: driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
        return "CUPTI overhead: buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
        return "CUPTI overhead: instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
        return "CUPTI overhead: resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
        return "CUPTI overhead: module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
        return "CUPTI overhead: lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
        return "CUPTI overhead: command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
        return "CUPTI overhead: activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
        return "CUPTI overhead: UVM activity init";
    default:
        return "CUPTI overhead";
    }
}

} // namespace strata
