#pragma once
// The object form's other top-level keys (schemaVersion, deviceProperties, distributedInfo,
// baseTimeNanoseconds, ...): kept as trace metadata (strings unescaped, other values as compact
// JSON); deviceProperties also become DeviceInfo entries. Values too large to keep (see
// topLevelKeepLimit) are named in the metadata "strata: top-level values not read".
#include "io/json/json_event_splitter.h"
#include "io/load_result.h"
#include "model/build/trace_builder.h"

#include <vector>

namespace strata {

// False (and `error`: offset, line, message) if a kept value is not valid JSON.
bool applyTopLevel(TraceBuilder& b, const std::vector<TopLevelValue>& values, LoadError* error);

} // namespace strata
