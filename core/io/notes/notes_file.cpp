#include "io/notes/notes_file.h"

#include "util/output_file.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace strata {

namespace {

using nlohmann::json;

constexpr int kVersion = 1;
constexpr const char* kFormat = "strata-notes";
const char* const kKnownKeys[] = {"format", "version", "trace", "notes", "flags", "tracks"};

bool known(const std::string& key) {
    for (const char* k : kKnownKeys)
        if (key == k) return true;
    return false;
}

json keys(const std::vector<std::string>& v) {
    json a = json::array();
    for (const std::string& s : v) a.push_back(s);
    return a;
}

// A reason for a malformed sidecar, thrown while reading and caught in notesFromJson.
struct Bad {
    std::string what;
};

int64_t timeAt(const json& o, const char* key, const std::string& where) {
    const auto it = o.find(key);
    if (it == o.end()) throw Bad{where + ": no \"" + key + "\""};
    if (!it->is_number_integer())
        throw Bad{where + "." + key + ": not a whole number of nanoseconds"};
    return it->get<int64_t>();
}

std::string textAt(const json& o, const std::string& where) {
    const auto it = o.find("text");
    if (it == o.end()) return {};
    if (!it->is_string()) throw Bad{where + ".text: not a string"};
    return it->get<std::string>();
}

std::vector<std::string> keyList(const json& o, const char* key, const std::string& where) {
    std::vector<std::string> out;
    const auto it = o.find(key);
    if (it == o.end()) return out;
    if (!it->is_array()) throw Bad{where + "." + key + ": not a list"};
    for (size_t i = 0; i < it->size(); ++i) {
        if (!(*it)[i].is_string())
            throw Bad{where + "." + key + "[" + std::to_string(i) + "]: not a string"};
        out.push_back((*it)[i].get<std::string>());
    }
    return out;
}

const json* listAt(const json& doc, const char* key) {
    const auto it = doc.find(key);
    if (it == doc.end()) return nullptr;
    if (!it->is_array()) throw Bad{std::string(key) + ": not a list"};
    return &*it;
}

void readMarks(const json& doc, TimelineNotes& out) {
    if (const json* notes = listAt(doc, "notes"))
        for (size_t i = 0; i < notes->size(); ++i) {
            const std::string where = "notes[" + std::to_string(i) + "]";
            const json& n = (*notes)[i];
            if (!n.is_object()) throw Bad{where + ": not an object"};
            TimelineNote note;
            note.start = note.end = timeAt(n, "ts", where);
            note.text = textAt(n, where);
            out.notes.push_back(std::move(note));
        }
    if (const json* flags = listAt(doc, "flags"))
        for (size_t i = 0; i < flags->size(); ++i) {
            const std::string where = "flags[" + std::to_string(i) + "]";
            const json& f = (*flags)[i];
            if (!f.is_object()) throw Bad{where + ": not an object"};
            TimelineNote flag;
            flag.flag = true;
            flag.start = timeAt(f, "start", where);
            flag.end = timeAt(f, "end", where);
            if (flag.end < flag.start) throw Bad{where + ": \"end\" is before \"start\""};
            flag.text = textAt(f, where);
            out.notes.push_back(std::move(flag));
        }
}

void readTracks(const json& doc, TrackArrangement& out) {
    const auto it = doc.find("tracks");
    if (it == doc.end()) return;
    if (!it->is_object()) throw Bad{"tracks: not an object"};
    out.pinned = keyList(*it, "pinned", "tracks");
    out.hidden = keyList(*it, "hidden", "tracks");
    out.hiddenGroups = keyList(*it, "hiddenGroups", "tracks");
    const auto order = it->find("order");
    if (order == it->end()) return;
    if (!order->is_object()) throw Bad{"tracks.order: not an object"};
    for (const auto& [group, rows] : order->items())
        out.order.emplace_back(group, keyList(*order, group.c_str(), "tracks.order"));
}

} // namespace

std::string notesFilePath(const std::string& tracePath) {
    return tracePath + kNotesFileSuffix;
}

std::string notesToJson(const TimelineNotes& notes, const std::string& traceName) {
    json doc = json::object();
    if (!notes.otherKeys.empty()) {
        json other = json::parse(notes.otherKeys, nullptr, false);
        if (other.is_object()) doc = std::move(other);
    }
    doc["format"] = kFormat;
    doc["version"] = kVersion;
    if (!traceName.empty()) doc["trace"] = traceName;
    json ns = json::array(), fs = json::array();
    for (const TimelineNote& n : notes.notes) {
        if (n.flag)
            fs.push_back({{"start", n.start}, {"end", n.end}, {"text", n.text}});
        else
            ns.push_back({{"ts", n.start}, {"text", n.text}});
    }
    doc["notes"] = std::move(ns);
    doc["flags"] = std::move(fs);
    const TrackArrangement& a = notes.tracks;
    json tracks = {{"pinned", keys(a.pinned)},
                   {"hidden", keys(a.hidden)},
                   {"hiddenGroups", keys(a.hiddenGroups)}};
    json order = json::object();
    for (const auto& [group, rows] : a.order) order[group] = keys(rows);
    tracks["order"] = std::move(order);
    doc["tracks"] = std::move(tracks);
    // Invalid UTF-8 in a text (from a trace's names) written as U+FFFD rather than refused.
    return doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::optional<TimelineNotes> notesFromJson(const std::string& text, std::string* error) {
    json doc = json::parse(text, nullptr, false);
    auto fail = [&](const std::string& why) -> std::optional<TimelineNotes> {
        if (error) *error = why;
        return std::nullopt;
    };
    if (doc.is_discarded()) return fail("not JSON");
    if (!doc.is_object()) return fail("not a JSON object");
    const auto format = doc.find("format");
    if (format == doc.end() || !format->is_string() || format->get<std::string>() != kFormat)
        return fail("not a Strata notes file (no \"format\": \"strata-notes\")");
    const auto version = doc.find("version");
    if (version == doc.end() || !version->is_number_integer()) return fail("no \"version\" number");
    if (version->get<int64_t>() != kVersion)
        return fail("version " + version->dump() + " (this Strata reads version " +
                    std::to_string(kVersion) + ")");
    TimelineNotes out;
    try {
        readMarks(doc, out);
        readTracks(doc, out.tracks);
    } catch (const Bad& b) {
        return fail(b.what);
    }
    json other = json::object();
    for (const auto& [key, value] : doc.items())
        if (!known(key)) other[key] = value;
    if (!other.empty()) out.otherKeys = other.dump();
    return out;
}

NotesFileRead readNotesFile(const std::string& path) {
    NotesFileRead r;
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || status.type() == std::filesystem::file_type::not_found) return r;
    r.exists = true;
    if (status.type() != std::filesystem::file_type::regular) {
        r.error = path + ": not a regular file";
        return r;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        r.error = path + ": cannot be opened";
        return r;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
        r.error = path + ": cannot be read";
        return r;
    }
    std::string why;
    r.notes = notesFromJson(text.str(), &why);
    if (!r.notes) r.error = path + ": " + why;
    return r;
}

bool writeNotesFile(const std::string& path, const TimelineNotes& notes, std::string* error,
                    const std::string& traceName) {
    OutputOptions o;
    o.named = false; // a name Strata made: only a regular file there is replaced
    return writeWholeFile(path, notesToJson(notes, traceName), error, o);
}

} // namespace strata
