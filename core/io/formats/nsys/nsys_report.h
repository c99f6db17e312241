#pragma once
// An Nsight Systems report (.nsys-rep / .qdrep) made readable: its SQLite export, written by the
// `nsys` on PATH into the trace cache's folder (io/cache/trace_cache.h) and reused while the
// report is unchanged. Without `nsys`, the error names the command a user would run.
#include <string>

namespace strata {

// The SQLite export of `report` (made now, or the one made before for the same report: its path,
// size and modification time), or "" and *error.
std::string exportNsysReport(const std::string& report, std::string* error);

} // namespace strata
