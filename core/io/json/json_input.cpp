#include "io/json/json_input.h"
#include "util/input_file.h"

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace strata {

struct JsonInput::Inflater {
    z_stream zs{};
    std::vector<unsigned char> in;
    bool streamEnded = false; // the current member reached its trailer
    bool started = false;
    uint64_t memberStartRaw = 0;
    Inflater() : in(1 << 20) {
        // 15 + 16: gzip wrapper only (the caller sniffed the magic).
        inflateInit2(&zs, 15 + 16);
    }
    ~Inflater() { inflateEnd(&zs); }
};

JsonInput::JsonInput() = default;

JsonInput::~JsonInput() {
    if (file_) std::fclose(file_);
}

bool JsonInput::openFile(const std::string& path) {
    file_ = fopenRegularFile(path, &error_);
    if (!file_) return false;
    if (std::fseek(file_, 0, SEEK_END) == 0) {
        const long size = std::ftell(file_);
        rawSize_ = size > 0 ? uint64_t(size) : 0;
        std::fseek(file_, 0, SEEK_SET);
    }
    headLen_ = std::fread(head_, 1, 2, file_);
    if (headLen_ == 2 && head_[0] == 0x1f && head_[1] == 0x8b) {
        gzip_ = true;
        z_ = std::make_unique<Inflater>();
    }
    return true;
}

void JsonInput::openBuffer(std::string_view data) {
    fromBuffer_ = true;
    buffer_ = data;
    rawSize_ = data.size();
    if (data.size() >= 2 && uint8_t(data[0]) == 0x1f && uint8_t(data[1]) == 0x8b) {
        gzip_ = true;
        z_ = std::make_unique<Inflater>();
    }
}

size_t JsonInput::readRaw(char* dst, size_t cap) {
    size_t n = 0;
    while (headPos_ < headLen_ && n < cap) dst[n++] = char(head_[headPos_++]);
    if (fromBuffer_) {
        const size_t take = std::min(cap - n, buffer_.size() - bufferPos_);
        std::memcpy(dst + n, buffer_.data() + bufferPos_, take);
        bufferPos_ += take;
        n += take;
    } else if (n < cap && file_) {
        n += std::fread(dst + n, 1, cap - n, file_);
        if (std::ferror(file_)) error_ = std::string("read error: ") + std::strerror(errno);
    }
    if (n == 0) rawEof_ = true;
    rawConsumed_ += n;
    return n;
}

bool JsonInput::memberFollows() {
    Inflater& z = *z_;
    if (z.zs.avail_in < 2 && !rawEof_) {
        // Move what is left to the front and top the buffer up.
        std::memmove(z.in.data(), z.zs.next_in, z.zs.avail_in);
        const size_t n = readRaw(reinterpret_cast<char*>(z.in.data()) + z.zs.avail_in,
                                 z.in.size() - z.zs.avail_in);
        z.zs.next_in = z.in.data();
        z.zs.avail_in += uInt(n);
    }
    return z.zs.avail_in >= 2 && z.zs.next_in[0] == 0x1f && z.zs.next_in[1] == 0x8b;
}

size_t JsonInput::readInflated(char* dst, size_t cap) {
    Inflater& z = *z_;
    z.zs.next_out = reinterpret_cast<Bytef*>(dst);
    z.zs.avail_out = uInt(cap);
    while (z.zs.avail_out > 0) {
        if (z.zs.avail_in == 0) {
            if (rawEof_) break;
            const size_t n = readRaw(reinterpret_cast<char*>(z.in.data()), z.in.size());
            if (n == 0) break;
            z.zs.next_in = z.in.data();
            z.zs.avail_in = uInt(n);
        }
        if (z.streamEnded) {
            // Another gzip member follows, or bytes that are not gzip (garbage a writer
            // appended, padding): those end the data, counted, as gzip does.
            if (!memberFollows()) {
                trailingBytes_ =
                    z.zs.avail_in + (rawSize_ > rawConsumed_ ? rawSize_ - rawConsumed_ : 0);
                z.zs.avail_in = 0;
                rawEof_ = true;
                break;
            }
            inflateReset(&z.zs);
            z.streamEnded = false;
        }
        z.started = true;
        const int rc = inflate(&z.zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            z.streamEnded = true;
            if (z.zs.avail_in == 0 && rawEof_) break;
            continue;
        }
        if (rc == Z_BUF_ERROR) continue; // needs more input
        if (rc != Z_OK) {
            const uint64_t at = rawConsumed_ - z.zs.avail_in;
            error_ = "gzip stream damaged at compressed byte " + std::to_string(at) +
                     " (zlib: " + (z.zs.msg ? z.zs.msg : "inflate error " + std::to_string(rc)) +
                     ")";
            break;
        }
    }
    const size_t produced = cap - z.zs.avail_out;
    if (produced == 0 && error_.empty() && rawEof_ && z.zs.avail_in == 0 && !z.streamEnded &&
        z.started)
        truncatedGzip_ = true;
    return produced;
}

size_t JsonInput::read(char* dst, size_t cap) {
    if (!error_.empty() || cap == 0) return 0;
    return gzip_ ? readInflated(dst, cap) : readRaw(dst, cap);
}

} // namespace strata
