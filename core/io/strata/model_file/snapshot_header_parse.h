#pragma once
// The Model record's JSON parsed (io/snapshot/trace_snapshot.h) so that a hostile one costs no
// more memory than the model it describes: its lists (processes, threads, devices, metadata,
// warnings, slice colours, section sets) are read into the model element by element as the parser
// meets them and dropped from the parsed document; each track is checked the moment it is parsed
// (it holds something, and the tracks' arrays fit in the file's bytes); every element has the
// shape and no more fields than a writer writes; nothing nests deeper than a Model record does.
// Internal to io/snapshot.
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/strata_format.h"
#include "model/trace.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace strata::snapshot {

// A Model record's JSON that is not what a writer writes: a field out of its type's range, counts
// that disagree, sizes the file cannot hold, a shape no writer writes.
struct HeaderError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A header value that must be a whole number T holds (nlohmann's get<> would wrap or truncate);
// `what` names it, with %zu for `index`.
template <typename T> T whole(const nlohmann::json& v, const char* what, size_t index = 0) {
    using L = std::numeric_limits<T>;
    if (v.is_number_unsigned()) {
        const uint64_t x = v.get<uint64_t>();
        if (x <= uint64_t(L::max())) return T(x);
    } else if (v.is_number_integer()) {
        const int64_t x = v.get<int64_t>();
        if (x >= int64_t(L::min()) && (x < 0 || uint64_t(x) <= uint64_t(L::max()))) return T(x);
    }
    char name[96];
    std::snprintf(name, sizeof name, what, index);
    throw HeaderError(std::string(name) + ": " + v.dump().substr(0, 40) +
                      " is not a whole number in its range");
}

// The bytes an array of `count` elements of `bytes` each takes in the file at least: its elements
// and, when it has any, the heads of one ModelPart record. In doubles: hostile counts do not
// overflow.
inline double arrayCost(double count, double bytes) {
    return count > 0 ? count * bytes + double(format::kRecordHeaderBytes + kPartHeadBytes) : 0;
}

// Why arrays that take at least `least` bytes of parts do not fit the file's `partBytes`.
std::string moreThanTheFile(double least, size_t partBytes);

// The slice, counter-sample and instant counts of a track's JSON.
struct TrackCounts {
    size_t slices, samples, instants;
};
TrackCounts trackCounts(const nlohmann::json& track, size_t index);

// Where the lists go (the model's own), and each section set's sample count (its samples are
// sized once the file is known to hold them).
struct HeaderLists {
    std::vector<Process>& processes;
    std::vector<Thread>& threads;
    std::vector<DeviceInfo>& devices;
    std::map<std::string, std::string>& metadata;
    std::vector<std::string>& warnings;
    std::map<StringId, uint32_t>& nameColors;
    std::vector<SectionSet>& sections;
    std::vector<size_t> sectionSamples;
};

// Parses `text` (empty on JSON that does not parse), the lists into `lists`; the document left
// holds the rest (sizes, bounds, counts, source, strings, the indices, the tracks, the run). The
// tracks' arrays take at least *tracksBytes bytes of parts, at most `partBytes`. Throws
// HeaderError or nlohmann::json::exception.
nlohmann::json parseHeader(std::string_view text, size_t partBytes, HeaderLists& lists,
                           double* tracksBytes);

} // namespace strata::snapshot
