#pragma once
// Slice names for CUPTI activity records whose name is an enum value of CUPTI's: synchronization
// types ("Stream Sync") and overhead kinds ("CUPTI overhead: buffer flush"). Copy and memory kinds
// are named by the table shared with the readers, model/cupti_names.h.
#include <cstdint>

namespace strata {

// CUpti_ActivitySynchronizationType; "Sync" for any other value.
const char* syncName(uint32_t type);
// CUpti_ActivityOverheadKind; "CUPTI overhead" for any other value.
const char* overheadName(uint32_t kind);

} // namespace strata
