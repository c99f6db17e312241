#pragma once
// Byte source for the JSON reader: a file read in chunks (never mapped whole) or a memory buffer,
// inflated on the fly when it starts with the gzip magic (1f 8b). Concatenated gzip members are
// read one after another; bytes after the last member that are not gzip are ignored and counted.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

namespace strata {

class JsonInput {
public:
    JsonInput();
    ~JsonInput();
    JsonInput(const JsonInput&) = delete;
    JsonInput& operator=(const JsonInput&) = delete;

    // Opens a file; false (and error()) if it cannot be opened.
    bool openFile(const std::string& path);
    // Reads from memory that outlives this object.
    void openBuffer(std::string_view data);

    // Appends up to `cap` decompressed bytes to dst; returns how many (0 at the end or on error).
    size_t read(char* dst, size_t cap);

    bool gzip() const { return gzip_; }
    // Set when the data is bad: a corrupt gzip stream or an I/O error. Not set for truncation.
    bool failed() const { return !error_.empty(); }
    const std::string& error() const { return error_; }
    // The gzip stream ended before its trailer (writer killed mid-way).
    bool truncatedGzip() const { return truncatedGzip_; }
    // Bytes after the end of the gzip data that do not start another member (ignored).
    uint64_t trailingBytes() const { return trailingBytes_; }
    // Raw (compressed) bytes consumed so far and the total raw size, for progress.
    uint64_t rawConsumed() const { return rawConsumed_; }
    uint64_t rawSize() const { return rawSize_; }

private:
    struct Inflater;
    size_t readRaw(char* dst, size_t cap);
    size_t readInflated(char* dst, size_t cap);
    bool memberFollows(); // after a member's end: the gzip magic comes next

    FILE* file_ = nullptr;
    std::string_view buffer_;
    size_t bufferPos_ = 0;
    bool fromBuffer_ = false;
    bool gzip_ = false;
    bool rawEof_ = false;
    bool truncatedGzip_ = false;
    std::string error_;
    uint64_t rawConsumed_ = 0;
    uint64_t rawSize_ = 0;
    uint64_t trailingBytes_ = 0;
    std::unique_ptr<Inflater> z_;
    // Raw bytes read ahead to sniff the gzip magic, handed out first.
    unsigned char head_[2] = {0, 0};
    size_t headLen_ = 0, headPos_ = 0;
};

} // namespace strata
