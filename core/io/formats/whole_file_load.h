#pragma once
// The one way the readers of whole-buffer formats (JAX's XSpace, Perfetto's .pftrace) load a
// file: its bytes read at once, `read` filling a builder, and a file that cannot be read or is
// not the reader's turned into a LoadError naming it; and the message of a build without the
// library such a format needs.
#include "io/load_result.h"
#include "model/build/trace_builder.h"

#include <functional>
#include <string>
#include <string_view>

namespace strata {

using BytesRead = std::function<bool(std::string_view bytes, TraceBuilder&, std::string* error)>;
LoadResult loadWholeFile(const std::string& path, const BytesRead& read);
// "<what>: this Strata was built without <library> (install <packages> and build again)".
LoadResult builtWithout(const std::string& path, const std::string& what,
                        const std::string& library, const std::string& packages);

} // namespace strata
