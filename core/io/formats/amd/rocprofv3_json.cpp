#include "io/formats/amd/rocprofv3_json.h"

#include "io/formats/amd/rocprofv3_json_sax.h"
#include "util/input_file.h"

#include <algorithm>
#include <iterator>
#include <vector>

namespace strata {

namespace {

// The file in chunks, as the parser's input: one chunk in memory at a time.
class ChunkedInput {
public:
    ChunkedInput(std::FILE* f, uint64_t size, const LoadOptions& options)
        : f_(f), size_(size), options_(options), buf_(size_t(4) << 20) {
        refill();
    }

    // The parser's iterator over the bytes (an input iterator: copies share the position).
    struct Iterator {
        using iterator_category = std::input_iterator_tag;
        using value_type = char;
        using difference_type = std::ptrdiff_t;
        using pointer = const char*;
        using reference = const char&;
        ChunkedInput* in = nullptr;
        reference operator*() const { return in->buf_[in->pos_]; }
        Iterator& operator++() {
            if (++in->pos_ >= in->len_ && !in->refill()) in = nullptr;
            return *this;
        }
        bool operator==(const Iterator& o) const { return in == o.in; }
        bool operator!=(const Iterator& o) const { return in != o.in; }
    };
    Iterator begin() { return {len_ ? this : nullptr}; }
    Iterator end() { return {}; }

    bool cancelled() const { return cancelled_; }
    bool readFailed() const { return std::ferror(f_) != 0; }
    // The line of the byte read last (1-based).
    uint64_t line() const {
        return linesBefore_ +
               uint64_t(std::count(buf_.data(), buf_.data() + std::min(pos_, len_), '\n')) + 1;
    }

private:
    bool refill() {
        linesBefore_ += uint64_t(std::count(buf_.data(), buf_.data() + len_, '\n'));
        consumed_ += len_;
        if (options_.progress && size_ > 0 && !options_.progress(double(consumed_) / double(size_)))
            cancelled_ = true;
        len_ = cancelled_ ? 0 : std::fread(buf_.data(), 1, buf_.size(), f_);
        pos_ = 0;
        return len_ > 0;
    }

    std::FILE* f_;
    uint64_t size_;
    const LoadOptions& options_;
    std::vector<char> buf_;
    size_t pos_ = 0, len_ = 0;
    uint64_t consumed_ = 0, linesBefore_ = 0;
    bool cancelled_ = false;
};

uint64_t fileSize(std::FILE* f) {
    if (std::fseek(f, 0, SEEK_END) != 0) return 0;
    const long size = std::ftell(f);
    std::rewind(f);
    return size > 0 ? uint64_t(size) : 0;
}

} // namespace

bool isRocprofv3Json(std::string_view head) {
    if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);
    size_t at = head.find_first_not_of(" \t\r\n");
    if (at == std::string_view::npos || head[at] != '{') return false;
    at = head.find_first_not_of(" \t\r\n", at + 1);
    constexpr std::string_view kKey = "\"rocprofiler-sdk-tool\"";
    return at != std::string_view::npos && head.substr(at, kKey.size()) == kKey;
}

bool readRocprofv3Json(const std::string& path, const LoadOptions& options, TraceBuilder& builder,
                       LoadError* error) {
    std::string why;
    std::FILE* f = fopenRegularFile(path, &why);
    if (!f) {
        *error = LoadError{path, 0, 0, why};
        return false;
    }
    const uint64_t size = fileSize(f);
    ChunkedInput in(f, size, options);
    Rocprofv3JsonEmitter emitter(builder);
    Rocprofv3JsonSax sax(emitter);
    nlohmann::json::sax_parse(in.begin(), in.end(), &sax);
    const bool readFailed = in.readFailed();
    std::fclose(f);
    sax.finish();
    if (in.cancelled()) {
        *error = LoadError{path, 0, 0, "cancelled"};
        return false;
    }
    const std::string message =
        readFailed ? "the file could not be read to its end" : sax.errorMessage();
    // The parser counts the end of the input as a byte read: a file cut short breaks at its size.
    const uint64_t offset = std::min<uint64_t>(sax.errorOffset(), size);
    if (sax.failed() || readFailed) {
        if (emitter.recordsShown() == 0) {
            *error =
                LoadError{path, offset, in.line(),
                          "not a whole rocprofv3 JSON, and no record before the break: " + message};
            return false;
        }
        builder.addWarning(path + ": the JSON breaks at byte " + std::to_string(offset) +
                           " (line " + std::to_string(in.line()) + ": " + message +
                           "): loaded the " + std::to_string(emitter.recordsShown()) +
                           " records before it");
    } else if (sax.processes() == 0) {
        *error = LoadError{path, 0, 0,
                           "expected a top-level object whose \"rocprofiler-sdk-tool\" holds a "
                           "process's object, found none"};
        return false;
    }
    emitter.finish();
    return true;
}

} // namespace strata
