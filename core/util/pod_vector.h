#pragma once
// An append-only array of trivially copyable values that grows with realloc(). For large arrays
// glibc's realloc moves pages with mremap: no copy, and no moment where the old and the new
// block are both resident, so growing a 100 MB column costs no 200 MB peak. Capacity that was
// never written is never touched, so it does not count in the resident set either.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#ifdef __linux__
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace strata {

template <typename T> class PodVector {
    static_assert(std::is_trivially_copyable_v<T>, "PodVector holds trivially copyable values");

public:
    PodVector() = default;
    ~PodVector() { std::free(data_); }
    // Copies are explicit in intent (a trace copied to amend it: Trace::withSectionsOf) and cost
    // one memcpy.
    PodVector(const PodVector& o) { append(o.data_, o.size_); }
    PodVector& operator=(const PodVector& o) {
        if (this != &o) {
            size_ = 0;
            append(o.data_, o.size_);
        }
        return *this;
    }
    PodVector(PodVector&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
          capacity_(std::exchange(o.capacity_, 0)) {}
    PodVector& operator=(PodVector&& o) noexcept {
        if (this != &o) {
            std::free(data_);
            data_ = std::exchange(o.data_, nullptr);
            size_ = std::exchange(o.size_, 0);
            capacity_ = std::exchange(o.capacity_, 0);
        }
        return *this;
    }

    void push_back(const T& v) {
        if (size_ == capacity_) grow(size_ + 1);
        data_[size_++] = v;
    }
    // Appends n values copied from p.
    void append(const T* p, size_t n) {
        if (size_ + n > capacity_) grow(size_ + n);
        if (n) std::memcpy(data_ + size_, p, n * sizeof(T));
        size_ += n;
    }
    void resize(size_t n) { // shrinking, or growing with zeroed values
        if (n > capacity_) grow(n);
        if (n > size_) std::memset(static_cast<void*>(data_ + size_), 0, (n - size_) * sizeof(T));
        size_ = n;
    }
    // Growing without zeroing, for values the caller writes next (pages are touched by whoever
    // writes them first, e.g. several threads filling their own parts).
    void resize_for_overwrite(size_t n) {
        if (n > capacity_) grow_exact(n);
        size_ = n;
    }
    // Hands the memory pages lying wholly inside the first n values back to the system, for a
    // large array consumed front to back (those values read as zero afterwards). Keeps the
    // resident set at what is still to be read.
    void release_prefix(size_t n) {
#ifdef __linux__
        const auto page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
        const uintptr_t lo = (reinterpret_cast<uintptr_t>(data_) + page - 1) / page * page;
        const uintptr_t hi = reinterpret_cast<uintptr_t>(data_ + std::min(n, size_)) / page * page;
        if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
#else
        (void)n;
#endif
    }
    void clear() {
        std::free(data_);
        data_ = nullptr;
        size_ = capacity_ = 0;
    }
    void shrink_to_fit() {
        if (size_ == capacity_) return;
        if (size_ == 0) return clear();
        if (void* p = std::realloc(data_, size_ * sizeof(T))) {
            data_ = static_cast<T*>(p);
            capacity_ = size_;
        }
    }

    T* data() {
        return data_;
    }
    const T* data() const {
        return data_;
    }
    size_t size() const {
        return size_;
    }
    size_t capacity() const {
        return capacity_;
    }
    bool empty() const {
        return size_ == 0;
    }
    T& operator[](size_t i) {
        return data_[i];
    }
    const T& operator[](size_t i) const {
        return data_[i];
    }
    T& back() {
        return data_[size_ - 1];
    }
    T* begin() {
        return data_;
    }
    T* end() {
        return data_ + size_;
    }
    const T* begin() const {
        return data_;
    }
    const T* end() const {
        return data_ + size_;
    }

private:
    T* data_ = nullptr;
    size_t size_ = 0;
    size_t capacity_ = 0;

    void grow_exact(size_t cap) {
        void* p = std::realloc(data_, cap * sizeof(T));
        if (!p) throw std::bad_alloc();
        data_ = static_cast<T*>(p);
        capacity_ = cap;
    }
    void grow(size_t need) {
        size_t cap = capacity_ ? capacity_ * 2 : 16;
        while (cap < need) cap *= 2;
        grow_exact(cap);
    }
};

} // namespace strata
