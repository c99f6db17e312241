#pragma once
// Follows a .strata file while its writer appends to it (a live run: the collector writes a
// chunk every flush, contract/collector_env.h kLive). Each readNew() reads what was appended since
// the last call and walks the records of every chunk that is now whole, in file order; a chunk
// still being written is left for the next call, and a file not created yet is not an error.
// A chunk that is whole but damaged (CRC, sequence, records) stops the tail with an error naming
// the chunk and its byte offset; every record before it was delivered. Qt-free; one thread.
#include "io/strata/strata_records.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace strata {

class StrataTail {
public:
    // f(type, body, bodyBytes): one record of a whole chunk.
    using RecordFn = std::function<void(format::RecordType, const uint8_t*, uint32_t)>;

    explicit StrataTail(std::string path);
    ~StrataTail();
    StrataTail(const StrataTail&) = delete;
    StrataTail& operator=(const StrataTail&) = delete;

    // Reads what was appended and delivers the records of the chunks now whole. False once the
    // file is damaged (error() says where); true otherwise, also when nothing was new or the file
    // does not exist yet.
    bool readNew(const RecordFn& f);
    const std::string& error() const { return error_; }
    bool exists() const { return fd_ >= 0; }
    // The file's bytes delivered (whole chunks and the header).
    uint64_t bytesDelivered() const { return delivered_; }
    // The writer closed the file (its end-of-file record was read).
    bool ended() const { return ended_; }

private:
    bool fail(std::string why);
    std::string path_;
    int fd_ = -1;
    uint64_t readTo_ = 0;          // file bytes read into pending_ so far
    uint64_t delivered_ = 0;       // file offset of pending_[0]
    std::vector<uint8_t> pending_; // read, not yet delivered (a chunk's beginning)
    uint32_t chunks_ = 0;
    bool headerSeen_ = false;
    bool ended_ = false;
    std::string error_;
};

} // namespace strata
