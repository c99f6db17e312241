#pragma once
// Pool of CUPTI activity buffers: `preallocate` buffers made up front, more made lazily up to
// `maxBuffers`, all of the same size and 8-byte aligned. CUPTI's request callback takes one
// (nullptr when the pool is exhausted: CUPTI then drops records and counts them, which CUDA 13's
// CUPTI supports); the completion callback gives it back after parsing. Buffers are reused,
// never freed while the process lives, so the hot path allocates nothing after warm-up.
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace strata {

class BufferPool {
public:
    BufferPool() = default;
    BufferPool(const BufferPool&) = delete;
    BufferPool& operator=(const BufferPool&) = delete;
    ~BufferPool();

    void configure(size_t bufferBytes, size_t maxBuffers, size_t preallocate);
    uint8_t* acquire(); // nullptr when exhausted
    void release(uint8_t* buffer);

    size_t bufferBytes() const { return bytes_; }
    size_t allocated() const;
    size_t inUse() const;
    size_t refusals() const; // acquire() calls that returned nullptr
    size_t highWater() const;

private:
    mutable std::mutex mutex_;
    size_t bytes_ = 0;
    size_t max_ = 0;
    std::vector<uint8_t*> free_;
    std::vector<uint8_t*> all_;
    size_t inUse_ = 0;
    size_t refusals_ = 0;
    size_t highWater_ = 0;
};

} // namespace strata
