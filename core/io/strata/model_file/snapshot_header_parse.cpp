// The Model record's JSON parsed with nlohmann's parser callback: each event is checked against
// the shape a writer writes (trace_snapshot_header.cpp, headerJson), and each list element, once
// parsed, goes into the model and out of the document (the callback's false).
#include "io/strata/model_file/snapshot_header_parse.h"
#include "io/strata/model_file/snapshot_arrays.h"
#include "io/strata/strata_format.h"

#include <algorithm>

namespace strata::snapshot {
namespace {

using nlohmann::json;
using Event = json::parse_event_t;

// Deeper than any Model record (a process's labels and a section set's names lie at 4).
constexpr int kMaxJsonDepth = 8;
// More than a writer writes: top-level keys; values in one of the top-level values that are no
// list (sizes, bounds, counts, source, strings, the indices, the run); entries of a nested list
// (a process's labels, a section set's names: section ids are 16-bit).
constexpr size_t kMaxTopKeys = 64, kMaxSmallValues = 64, kMaxNested = 65536;

enum class List { None, Tracks, Processes, Threads, Devices, Metadata, Warnings, Colors, Sections };

struct ListShape {
    const char* key;
    List list;
    const char* element; // for messages
    size_t fields;       // an element's most fields (array items, object keys)
};
constexpr ListShape kLists[] = {
    {"tracks", List::Tracks, "a track", 12},      {"processes", List::Processes, "a process", 6},
    {"threads", List::Threads, "a thread", 6},    {"devices", List::Devices, "a device", 8},
    {"metadata", List::Metadata, "metadata", 0},  {"warnings", List::Warnings, "a warning", 0},
    {"name_colors", List::Colors, "a colour", 2}, {"sections", List::Sections, "a section set", 10},
};

std::string text(json& v, const char* what) {
    if (!v.is_string()) throw HeaderError(std::string(what) + " that is not text");
    return std::move(v.get_ref<std::string&>());
}

std::optional<int64_t> optionalWhole(const json& v, const char* what) {
    if (v.is_null()) return std::nullopt;
    return whole<int64_t>(v, what);
}

Process readProcess(json& p) {
    Process q;
    q.pid = whole<int64_t>(p.at(0), "a process's pid");
    q.name = whole<StringId>(p.at(1), "a process's name");
    q.sortIndex = whole<int32_t>(p.at(2), "a process's sort index");
    q.hasSortIndex = p.at(3).get<bool>();
    for (const json& l : p.at(4)) q.labels.push_back(whole<StringId>(l, "a process label"));
    q.originalPid = optionalWhole(p.at(5), "a process's original pid");
    return q;
}

Thread readThread(json& h) {
    return {whole<int64_t>(h.at(0), "a thread's pid"),
            whole<int64_t>(h.at(1), "a thread's tid"),
            whole<StringId>(h.at(2), "a thread's name"),
            whole<int32_t>(h.at(3), "a thread's sort index"),
            h.at(4).get<bool>(),
            optionalWhole(h.at(5), "a thread's original tid")};
}

DeviceInfo readDevice(json& d) {
    return {whole<int32_t>(d.at(0), "a device's id"),
            text(d.at(1), "a device's name"),
            whole<int32_t>(d.at(2), "a device's SM count"),
            whole<int64_t>(d.at(3), "a device's memory"),
            whole<int32_t>(d.at(4), "a device's compute major"),
            whole<int32_t>(d.at(5), "a device's compute minor"),
            whole<int64_t>(d.at(6), "a device's clock"),
            whole<int64_t>(d.at(7), "a device's memory clock")};
}

SectionSet readSection(json& s) {
    SectionSet set;
    set.kernel = text(s.at("kernel"), "a section set's kernel");
    set.correlation = whole<int64_t>(s.at("correlation"), "a section set's correlation");
    set.device = whole<int32_t>(s.at("device"), "a section set's device");
    set.clockHz = s.at("clock_hz").get<double>();
    set.hasTimes = s.at("has_times").get<bool>();
    set.perWarp = s.at("per_warp").get<bool>();
    set.lost = whole<uint64_t>(s.at("lost"), "a section set's lost records");
    set.source = text(s.at("source"), "a section set's source");
    for (json& n : s.at("names")) set.names.push_back(text(n, "a section name"));
    return set;
}

// The bytes one track's arrays take at least (trace_snapshot_header.cpp, arrayCost).
double trackBytes(const TrackCounts& c) {
    const double s = double(c.slices), v = double(c.samples), in = double(c.instants);
    return 2 * arrayCost(s, 8) + 5 * arrayCost(s, 4) + arrayCost(s, 2) + 2 * arrayCost(s, 1) +
           2 * arrayCost(v, 8) + arrayCost(in, 8) + 3 * arrayCost(in, 4);
}

// The parser's callback: the depth and event of each piece of JSON, the piece itself.
class Reader {
public:
    Reader(size_t partBytes, HeaderLists& lists, double* tracksBytes)
        : partBytes_(partBytes), lists_(lists), tracksBytes_(tracksBytes) {}

    bool operator()(int depth, Event e, json& v) {
        if (depth > kMaxJsonDepth) throw HeaderError("nested deeper than a Model record is");
        if (depth == 0) {
            if (e == Event::array_start) throw HeaderError("not an object");
            return true;
        }
        if (depth == 1) return top(e, v);
        if (!shape_) {
            if (++values_ > kMaxSmallValues)
                throw HeaderError("a field larger than any a Model record has");
            return true;
        }
        if (shape_->list == List::Metadata || shape_->list == List::Warnings)
            return flat(depth, e, v);
        if (depth == 2) return element(e, v);
        return field(depth, e, v);
    }

private:
    size_t partBytes_;
    HeaderLists& lists_;
    double* tracksBytes_;
    const ListShape* shape_ = nullptr; // the list being read, if it is one
    size_t keys_ = 0, values_ = 0, index_ = 0, fields_ = 0, nested_ = 0;
    std::string key_; // a metadata entry's, or a section set's field being read

    // A top-level key, or the start or end of its value.
    bool top(Event e, json& v) {
        if (e == Event::key) {
            if (++keys_ > kMaxTopKeys) throw HeaderError("more keys than a Model record has");
            shape_ = nullptr;
            for (const ListShape& s : kLists)
                if (v == s.key) shape_ = &s;
            values_ = index_ = 0;
        } else if (shape_ && (e == Event::array_start || e == Event::object_start) &&
                   (e == Event::object_start) != (shape_->list == List::Metadata)) {
            throw HeaderError(std::string(shape_->key) + " of the wrong shape");
        }
        return true;
    }

    // A warning (text), or a metadata key or value (text): taken, not kept in the document.
    bool flat(int depth, Event e, json& v) {
        if (depth == 2 && e == Event::key) {
            key_ = v.get<std::string>();
            return false;
        }
        if (depth != 2 || e != Event::value)
            throw HeaderError(std::string(shape_->element) + " that is not text");
        if (shape_->list == List::Warnings) {
            lists_.warnings.push_back(text(v, "a warning"));
            return false;
        }
        lists_.metadata[key_] = text(v, "a metadata value");
        return true; // (its key was not kept: neither is it)
    }

    // The start or end of a list's element.
    bool element(Event e, json& v) {
        const bool object = shape_->list == List::Sections;
        if (e == (object ? Event::object_start : Event::array_start)) {
            fields_ = nested_ = 0;
            return true;
        }
        if (e != (object ? Event::object_end : Event::array_end))
            throw HeaderError(std::string(shape_->element) + " of the wrong shape");
        const size_t i = index_++;
        switch (shape_->list) {
        case List::Tracks:
            track(v, i);
            return true; // kept: sized once the whole is checked
        case List::Processes:
            lists_.processes.push_back(readProcess(v));
            break;
        case List::Threads:
            lists_.threads.push_back(readThread(v));
            break;
        case List::Devices:
            lists_.devices.push_back(readDevice(v));
            break;
        case List::Colors:
            lists_.nameColors[whole<StringId>(v.at(0), "a colour's name")] =
                whole<uint32_t>(v.at(1), "a colour");
            break;
        case List::Sections:
            lists_.sections.push_back(readSection(v));
            lists_.sectionSamples.push_back(
                whole<size_t>(v.at("samples"), "section set %zu's samples", i));
            break;
        default:
            break;
        }
        return false;
    }

    // Within a list's element: its fields, and the one list a process (labels) or section set
    // (names) holds.
    bool field(int depth, Event e, json& v) {
        const bool object = shape_->list == List::Sections;
        if (depth == 3 &&
            (object ? e == Event::key : e != Event::array_end && e != Event::object_end)) {
            if (++fields_ > shape_->fields)
                throw HeaderError(std::string(shape_->element) + " with more fields than it has");
            if (object) key_ = v.get<std::string>();
        }
        if (depth == 3 && (e == Event::array_start || e == Event::object_start)) {
            const bool listField =
                e == Event::array_start &&
                ((shape_->list == List::Processes && fields_ == 5) || (object && key_ == "names"));
            if (!listField)
                throw HeaderError(std::string(shape_->element) +
                                  " with a field of the wrong shape");
        }
        if (depth == 4 && ++nested_ > kMaxNested)
            throw HeaderError(std::string(shape_->element) +
                              " with a longer list than it may have");
        if (depth > 4) throw HeaderError(std::string(shape_->element) + " nested too deep");
        return true;
    }

    // A track parsed: it holds something (build() drops empty tracks: a written model has none,
    // and an empty track would cost memory and no bytes of the file), and the tracks' arrays so
    // far fit in the file.
    void track(const json& k, size_t i) {
        const TrackCounts c = trackCounts(k, i);
        if (c.slices + c.samples + c.instants == 0)
            throw HeaderError("track " + std::to_string(i) +
                              " holds nothing (a model has no empty track)");
        *tracksBytes_ += trackBytes(c);
        if (*tracksBytes_ > double(partBytes_))
            throw HeaderError(moreThanTheFile(*tracksBytes_, partBytes_));
    }
};

} // namespace

std::string moreThanTheFile(double least, size_t partBytes) {
    return "sizes that add up to more than the file's bytes: its arrays take at least " +
           std::to_string(uint64_t(std::min(least, 1e19))) + " bytes of parts, the file holds " +
           std::to_string(partBytes) + " bytes after the Model record";
}

TrackCounts trackCounts(const json& k, size_t i) {
    return {whole<size_t>(k.at(9), "track %zu's slice count", i),
            whole<size_t>(k.at(10), "track %zu's counter-sample count", i),
            whole<size_t>(k.at(11), "track %zu's instant count", i)};
}

json parseHeader(std::string_view text, size_t partBytes, HeaderLists& lists, double* tracksBytes) {
    Reader reader(partBytes, lists, tracksBytes);
    const json::parser_callback_t callback = [&](int depth, Event e, json& v) {
        return reader(depth, e, v);
    };
    return json::parse(text, callback, /*allow_exceptions=*/false);
}

} // namespace strata::snapshot
