#pragma once
// Protocol buffers' wire format written by hand into a byte buffer (the Perfetto protobuf export:
// millions of small messages, where a generated class per packet would cost more than the bytes).
// Field numbers are the caller's; a nested message is written in place (begin/end) or from
// another ProtoOut (message).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace strata {

class ProtoOut {
public:
    void varint(uint64_t v) {
        char* p = room(10);
        while (v >= 0x80) {
            *p++ = char((v & 0x7F) | 0x80);
            v >>= 7;
        }
        *p++ = char(v);
        size_ = size_t(p - buf_.data());
    }
    void uint(uint32_t field, uint64_t v) {
        varint(uint64_t(field) << 3);
        varint(v);
    }
    void sint(uint32_t field, int64_t v) { uint(field, uint64_t(v)); } // int32/int64 fields
    void fixed64(uint32_t field, uint64_t v) {
        varint(uint64_t(field) << 3 | 1);
        std::memcpy(room(8), &v, 8);
        size_ += 8;
    }
    void real(uint32_t field, double v) {
        uint64_t u;
        std::memcpy(&u, &v, 8);
        fixed64(field, u);
    }
    void text(uint32_t field, std::string_view s) {
        varint(uint64_t(field) << 3 | 2);
        varint(s.size());
        std::memcpy(room(s.size()), s.data(), s.size());
        size_ += s.size();
    }
    void message(uint32_t field, const ProtoOut& m) { text(field, m.bytes()); }
    // A nested message written in place: begin() writes the tag and one byte for its length,
    // end() fills it in, moving the message when its length needs a longer varint (messages of
    // 128 bytes or more: few, and the move is of that message alone).
    size_t begin(uint32_t field) {
        varint(uint64_t(field) << 3 | 2);
        *room(1) = 0;
        return ++size_;
    }
    void end(size_t at) {
        const size_t length = size_ - at;
        if (length < 0x80) {
            buf_[at - 1] = char(length);
            return;
        }
        char head[10];
        size_t n = 0;
        for (uint64_t v = length;; v >>= 7) {
            head[n++] = char((v & 0x7F) | (v >= 0x80 ? 0x80 : 0));
            if (v < 0x80) break;
        }
        room(n - 1);
        std::memmove(buf_.data() + at + n - 1, buf_.data() + at, length);
        std::memcpy(buf_.data() + at - 1, head, n);
        size_ += n - 1;
    }
    std::string_view bytes() const { return {buf_.data(), size_}; }
    size_t size() const { return size_; }
    void clear() { size_ = 0; }

private:
    // Space for `n` more bytes at the end (not counted in size_ until the caller says).
    char* room(size_t n) {
        if (size_ + n > buf_.size()) [[unlikely]]
            grow(n);
        return buf_.data() + size_;
    }
    [[gnu::noinline]] void grow(size_t n) {
        buf_.resize(std::max(buf_.size() * 2, size_ + n + 256));
    }
    std::string buf_;
    size_t size_ = 0;
};

} // namespace strata
