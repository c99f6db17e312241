#pragma once
// Values the query tables share: a thread's and a process's name, an arg set as JSON.
#include "model/trace.h"

#include <string>

struct sqlite3_context;

namespace strata {

void threadName(sqlite3_context* ctx, const Trace& trace, int64_t pid, int64_t tid);
void processName(sqlite3_context* ctx, const Trace& trace, int64_t pid);
// An arg set as a JSON object (NULL for none).
void argsValue(sqlite3_context* ctx, const Trace& trace, ArgSetId id);

} // namespace strata
