#include "buffer_pool.h"

#include <cstdlib>

namespace strata {

static uint8_t* allocateBuffer(size_t bytes) {
    void* p = nullptr;
    if (posix_memalign(&p, 8, bytes) != 0) return nullptr;
    return static_cast<uint8_t*>(p);
}

BufferPool::~BufferPool() {
    for (uint8_t* b : all_) std::free(b);
}

void BufferPool::configure(size_t bufferBytes, size_t maxBuffers, size_t preallocate) {
    std::lock_guard lock(mutex_);
    bytes_ = bufferBytes;
    max_ = maxBuffers;
    free_.reserve(maxBuffers);
    all_.reserve(maxBuffers);
    for (size_t i = 0; i < preallocate && all_.size() < max_; ++i) {
        uint8_t* b = allocateBuffer(bytes_);
        if (!b) break;
        all_.push_back(b);
        free_.push_back(b);
    }
}

uint8_t* BufferPool::acquire() {
    std::lock_guard lock(mutex_);
    uint8_t* b = nullptr;
    if (!free_.empty()) {
        b = free_.back();
        free_.pop_back();
    } else if (all_.size() < max_) {
        b = allocateBuffer(bytes_);
        if (b) all_.push_back(b);
    }
    if (!b) {
        ++refusals_;
        return nullptr;
    }
    ++inUse_;
    if (inUse_ > highWater_) highWater_ = inUse_;
    return b;
}

void BufferPool::release(uint8_t* buffer) {
    if (!buffer) return;
    std::lock_guard lock(mutex_);
    free_.push_back(buffer);
    if (inUse_ > 0) --inUse_;
}

size_t BufferPool::allocated() const {
    std::lock_guard lock(mutex_);
    return all_.size();
}
size_t BufferPool::inUse() const {
    std::lock_guard lock(mutex_);
    return inUse_;
}
size_t BufferPool::refusals() const {
    std::lock_guard lock(mutex_);
    return refusals_;
}
size_t BufferPool::highWater() const {
    std::lock_guard lock(mutex_);
    return highWater_;
}

} // namespace strata
