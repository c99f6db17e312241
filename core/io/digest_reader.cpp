// A digest file told from a trace by its first bytes, then read whole from the same opening
// (io/digest_reader.h).
#include "io/digest_reader.h"

#include "analysis/json/rank_digest_json.h"
#include "io/trace_reader.h"
#include "util/input_file.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace strata {

using nlohmann::json;

namespace {

// Whether a JSON text is a digest's, from its top-level keys as far as the text goes: stops at
// the version key, at the older layout's first two keys, at the end of the top-level object, at
// a top-level array (a trace) or where the text ends.
class TopKeys : public nlohmann::json_sax<json> {
public:
    bool digest = false;

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override {
        ++depth_;
        return true;
    }
    bool end_object() override { return --depth_ > 0; }
    bool start_array(std::size_t) override { return ++depth_ > 1; } // a top-level array: a trace
    bool end_array() override {
        --depth_;
        return true;
    }
    bool key(string_t& k) override {
        if (depth_ != 1) return true;
        ++keys_;
        if (k == "strata_rank_digest") {
            digest = true;
            return false;
        }
        // Older digests: their keys sorted, "busy_ns" then "clock" first.
        if (keys_ == 1) olderLayout_ = k == "busy_ns";
        if (keys_ == 2 && olderLayout_ && k == "clock") {
            digest = true;
            return false;
        }
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
        return false; // the head ends (or the text is not JSON): what was seen decides
    }

private:
    int depth_ = 0;
    size_t keys_ = 0;
    bool olderLayout_ = false;
};

// Reads from `fd` until `out` holds `limit` bytes or the file ends; false and *error on a read
// error.
bool readUpTo(int fd, std::string& out, size_t limit, std::string* error) {
    char buf[1 << 16];
    while (out.size() < limit) {
        const size_t want = std::min(sizeof buf, limit - out.size());
        const ssize_t n = ::read(fd, buf, want);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            *error = std::string("cannot read: ") + std::strerror(errno);
            return false;
        }
        if (n == 0) break;
        out.append(buf, size_t(n));
    }
    return true;
}

DigestOutcome unreadable(const std::string& path, const std::string& why) {
    DigestOutcome o;
    o.error = path + ": not a digest this build reads: " + why;
    o.file = path;
    return o;
}

} // namespace

bool looksLikeDigest(std::string_view head) {
    TopKeys keys;
    json::sax_parse(head.begin(), head.end(), &keys, json::input_format_t::json, false);
    return keys.digest;
}

bool isDigestFile(const std::string& path) {
    std::string error, head;
    const FileDescriptor fd = openRegularFile(path, &error); // never blocks
    return fd.valid() && readUpTo(fd.get(), head, kDigestHeadBytes, &error) &&
           looksLikeDigest(head);
}

SetFile recogniseSetFile(const std::string& path) {
    SetFile file;
    std::string error, text;
    struct stat st {};
    const FileDescriptor fd = openRegularFile(path, &error, &st); // never blocks
    if (!fd.valid() || !readUpTo(fd.get(), text, kDigestHeadBytes, &error))
        return file; // what the trace loader will say it is
    if (!looksLikeDigest(text)) {
        // The same first bytes loadTrace's recogniseFile reads.
        file.reader = recogniseBytes(std::string_view(text).substr(0, kSniffBytes), path);
        return file;
    }
    // A digest: the rest of it, whatever its size.
    text.reserve(size_t(st.st_size) + 1);
    if (!readUpTo(fd.get(), text, SIZE_MAX, &error)) {
        file.digest = unreadable(path, error);
        return file;
    }
    const json j = json::parse(text, nullptr, false);
    if (!j.is_discarded()) {
        file.digest = digestOutcomeFromJson(j, path);
        return file;
    }
    rankDigestFromText(text, &error); // says where the syntax breaks
    file.digest = unreadable(path, error);
    return file;
}

std::optional<DigestOutcome> readDigestFile(const std::string& path) {
    return recogniseSetFile(path).digest;
}

} // namespace strata
