#pragma once
// The .strata reader (format: io/strata/strata_format.h, io/strata/strata_records.h).
// readStrataTrace(path) is declared in io/trace_loader.h and reached through loadTrace; this adds
// the same load over bytes in memory (fuzzing, tests, a future network source).
#include "io/load_result.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace strata {

namespace strata_reader {
class RecordTable;
}

// How the records are read: Auto takes two threads for files of kParallelLoadMinBytes and more
// when the machine has two cores; Parallel takes them for any size (tests). A file that is
// damaged, or that the parallel load does not take, is read by the sequential reader whatever
// the choice.
enum class StrataLoadPath { Auto, Sequential, Parallel };
inline constexpr size_t kParallelLoadMinBytes = size_t(4) << 20;

// `name` stands for the file in messages. `records`: the record types to read (null: those of
// io/strata/strata_records.h; a test passes a table with types of its own,
// io/strata/strata_record_table.h).
LoadResult readStrataBuffer(std::string_view bytes, const std::string& name,
                            const LoadOptions& options = {},
                            StrataLoadPath path = StrataLoadPath::Auto,
                            const strata_reader::RecordTable* records = nullptr);

} // namespace strata
