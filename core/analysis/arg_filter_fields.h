#pragma once
// The model's own fields that an ArgFilter (analysis/arg_filter.h) can name beside the events'
// args, and where a slice keeps them. A field is read from the model's columns; a slice without
// it there is looked for in its args under Kineto's name for it ("registers per thread"), so a
// value counts once whether it came from the args or the columns.
//
//   name                          the slice's or instant's name
//   cat, category                 its category
//   dur, duration                 duration in ns (a value may carry ns, us, µs, ms or s)
//   correlation                   correlation id (launch <-> GPU op)
//   external, External id         Kineto's External id
//   device, stream                the GPU op's device and stream
//   grid, block                   blocks in the grid, threads in a block (x*y*z; the text
//                                 "[x, y, z]" for = and ~); grid.x, grid.y, ... one dimension
//   registers (per thread), shared (memory: static + dynamic bytes), bytes (a copy's or set's)
//   kind, copy kind               a copy's kind: HtoD, DtoH, DtoD, ...
#include "analysis/arg_filter_value.h"
#include "model/trace.h"

#include <string>
#include <string_view>
#include <vector>

namespace strata {

enum class ModelField : unsigned char {
    None, // not a field of the model: an arg key
    Name,
    Category,
    Dur,
    Correlation,
    External,
    Device,
    Stream,
    Grid,
    GridX,
    GridY,
    GridZ,
    Block,
    BlockX,
    BlockY,
    BlockZ,
    Registers,
    Shared,
    Bytes,
    Kind,
};

// The field a key names (case does not matter), None for any other key.
ModelField modelFieldOf(std::string_view key);
// The arg key Kineto keeps the field under ("grid", "registers per thread"); "" for none.
std::string_view kinetoArgKey(ModelField f);
// Whether the field's values may carry a time unit (dur).
bool isTimeField(ModelField f);

// Slice `i` of `track`'s value of field `f` (not Name or Category) from the model's columns:
// not present where the slice has none. `scratch` holds any text it points into.
FilterValue sliceFieldValue(const Trace& trace, const Track& track, SliceIndex i, ModelField f,
                            std::string* scratch);
// An arg's value as field `f`'s (a "grid" arg's [x, y, z] as its product and text).
FilterValue argFieldValue(ModelField f, const ArgValue& v, std::string* scratch);

} // namespace strata
