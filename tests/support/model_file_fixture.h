#pragma once
// A model file (.strata 1.5, io/snapshot/trace_snapshot.h) taken apart into its chunks and
// records, to be edited and put together again with every chunk's length, sequence number, record
// count and CRC32C made right: hostile files whose only fault is the one a test put in. Parsed
// here from the format's description (docs/strata-format.md), not with the reader's code.
#include "io/strata/strata_crc32c.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace strata::test {

class ModelFile {
public:
    struct Record {
        uint8_t type = 0;
        std::string body;
    };
    static constexpr uint8_t kEndOfFile = 14, kModel = 20, kModelPart = 21;
    static constexpr size_t kFileHead = 8, kChunkHead = 20, kRecordHead = 5, kPartHead = 14;

    explicit ModelFile(const std::string& f) : head_(f.substr(0, kFileHead)) {
        for (size_t at = kFileHead; at + kChunkHead <= f.size();) {
            uint32_t payload, records;
            std::memcpy(&payload, f.data() + at + 8, 4);
            std::memcpy(&records, f.data() + at + 12, 4);
            std::vector<Record>& chunk = chunks_.emplace_back();
            size_t r = at + kChunkHead;
            for (uint32_t i = 0; i < records; ++i) {
                uint32_t n;
                std::memcpy(&n, f.data() + r + 1, 4);
                chunk.push_back({uint8_t(f[r]), f.substr(r + kRecordHead, n)});
                r += kRecordHead + n;
            }
            at += kChunkHead + payload;
        }
    }

    std::vector<std::vector<Record>>& chunks() { return chunks_; }

    // The file, every chunk header and CRC made for what it now holds.
    std::string bytes() const {
        std::string out = head_;
        for (uint32_t c = 0; c < chunks_.size(); ++c) {
            std::string payload;
            for (const Record& r : chunks_[c]) {
                const auto n = uint32_t(r.body.size());
                payload += char(r.type);
                payload.append(reinterpret_cast<const char*>(&n), 4);
                payload += r.body;
            }
            const uint32_t fields[4] = {0x4B4E4843, c, uint32_t(payload.size()),
                                        uint32_t(chunks_[c].size())};
            std::string header(reinterpret_cast<const char*>(fields), 16);
            const uint32_t crc =
                crc32c(crc32c(0, header.data(), 16), payload.data(), payload.size());
            header.append(reinterpret_cast<const char*>(&crc), 4);
            out += header + payload;
        }
        return out;
    }
    // Where chunk c's header, and record r's body in it, lie in bytes().
    size_t chunkOffset(size_t c) const {
        size_t at = kFileHead;
        for (size_t i = 0; i < c; ++i) at += kChunkHead + payloadOf(i);
        return at;
    }
    size_t bodyOffset(size_t c, size_t r) const {
        size_t at = chunkOffset(c) + kChunkHead;
        for (size_t i = 0; i < r; ++i) at += kRecordHead + chunks_[c][i].body.size();
        return at + kRecordHead;
    }

    // The Model record's JSON (after its u32 layout version).
    nlohmann::json header() const { return nlohmann::json::parse(chunks_[0][0].body.substr(4)); }
    void setHeader(const nlohmann::json& j) { setHeaderText(j.dump()); }
    void setHeaderText(const std::string& text) {
        chunks_[0][0].body = chunks_[0][0].body.substr(0, 4) + text;
    }

    // The (chunk, record) of the part of array `id` of `owner` holding its byte `at`.
    std::pair<size_t, size_t> part(uint16_t id, uint32_t owner, uint64_t at = 0) const {
        for (size_t c = 1; c < chunks_.size(); ++c)
            for (size_t r = 0; r < chunks_[c].size(); ++r) {
                const Record& rec = chunks_[c][r];
                if (rec.type != kModelPart) continue;
                uint16_t i;
                uint32_t o;
                uint64_t off;
                std::memcpy(&i, rec.body.data(), 2);
                std::memcpy(&o, rec.body.data() + 2, 4);
                std::memcpy(&off, rec.body.data() + 6, 8);
                if (i == id && o == owner && at >= off && at - off < rec.body.size() - kPartHead)
                    return {c, r};
            }
        throw std::runtime_error("no such part");
    }
    // Element `i` of array `id` of `owner` (T-sized elements, within its first part) and where
    // it lies in bytes().
    template <typename T> T get(uint16_t id, uint32_t owner, size_t i) const {
        const auto [c, r] = part(id, owner);
        T v;
        std::memcpy(&v, chunks_[c][r].body.data() + kPartHead + i * sizeof(T), sizeof(T));
        return v;
    }
    template <typename T> void set(uint16_t id, uint32_t owner, size_t i, T v) {
        const auto [c, r] = part(id, owner);
        std::memcpy(chunks_[c][r].body.data() + kPartHead + i * sizeof(T), &v, sizeof(T));
    }
    size_t elementOffset(uint16_t id, uint32_t owner, size_t i, size_t bytes) const {
        const auto [c, r] = part(id, owner);
        return bodyOffset(c, r) + kPartHead + i * bytes;
    }
    // A part record's head fields.
    static void setPartOffset(Record& r, uint64_t offset) {
        std::memcpy(r.body.data() + 6, &offset, 8);
    }
    static Record partRecord(uint16_t id, uint32_t owner, uint64_t offset, const std::string& b) {
        std::string body(kPartHead, '\0');
        std::memcpy(body.data(), &id, 2);
        std::memcpy(body.data() + 2, &owner, 4);
        std::memcpy(body.data() + 6, &offset, 8);
        return {kModelPart, body + b};
    }

private:
    std::string head_;
    std::vector<std::vector<Record>> chunks_;
    size_t payloadOf(size_t c) const {
        size_t n = 0;
        for (const Record& r : chunks_[c]) n += kRecordHead + r.body.size();
        return n;
    }
};

} // namespace strata::test
