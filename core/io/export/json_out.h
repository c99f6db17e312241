#pragma once
// A streaming JSON text writer for large exports: bytes gathered in a buffer and handed to an
// ExportSink in ~1 MiB pieces; strings escaped per RFC 8259 with bytes that are not UTF-8
// replaced by U+FFFD (and counted); numbers never in exponent form (importers such as
// Perfetto's and some pandas readers choke on 1e+20 timestamps); times in microseconds as exact
// decimals of nanoseconds.
#include "io/export/export_sink.h"
#include "model/time.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace strata {

class JsonOut {
public:
    explicit JsonOut(ExportSink& sink) : sink_(sink) { buf_.reserve(kFlushAt + 4096); }

    void raw(std::string_view s) {
        buf_.append(s);
        maybeFlush();
    }
    void ch(char c) { buf_.push_back(c); }
    void str(std::string_view s); // quoted and escaped
    void i64(int64_t v);
    void u64(uint64_t v);
    // ns as microseconds: "1234.567", "-0.001", "12" (no trailing zeros, never an exponent).
    void micros(TimeNs ns);
    // Shortest text that reads back as `v`, expanded out of exponent form; NaN and infinities
    // (which JSON cannot hold) as null, counted.
    void dbl(double v);

    bool flush(); // hands the buffer to the sink; false once the sink failed
    bool failed() const { return failed_; }
    uint64_t bytes() const { return written_ + buf_.size(); }
    uint64_t replacedBytes() const { return replaced_; } // not UTF-8, written as U+FFFD
    uint64_t nonFinite() const { return nonFinite_; }

private:
    static constexpr size_t kFlushAt = 1u << 20;
    void maybeFlush() {
        if (buf_.size() >= kFlushAt) flush();
    }
    ExportSink& sink_;
    std::string buf_;
    uint64_t written_ = 0;
    uint64_t replaced_ = 0;
    uint64_t nonFinite_ = 0;
    bool failed_ = false;
};

// `v` as JSON number text without an exponent ("0.0001", "123000000000000000000").
std::string plainNumber(double v);

} // namespace strata
