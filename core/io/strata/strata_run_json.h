#pragma once
// Reads the JSON object of a .strata Run record (model/run_info.h: runInfoToJson writes it).
// Internal to the reader.
#include "model/run_info.h"

#include <string>
#include <string_view>

namespace strata::strata_reader {

// Fills the members the object names (unknown keys are ignored, missing ones left as they are).
// Returns empty, or what is wrong with the text (then `run` keeps what was read before it).
std::string runInfoFromJson(std::string_view json, RunInfo* run);

} // namespace strata::strata_reader
