#pragma once
// A check of an ArgStore arena read from outside (a model file, io/snapshot), beside the encoding
// it checks (arg_store.cpp).
#include "util/pod_vector.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace strata {

// Sets [first, last) of an arena (ArgStore's bytes and the offsets of its sets), entry by entry:
// empty when each entry lies within its set, has a type ArgStore writes and names a string id
// below `strings`; else which set is not.
std::string checkArgArena(const PodVector<uint8_t>& bytes, const PodVector<uint64_t>& offsets,
                          size_t strings, size_t first, size_t last);

} // namespace strata
