#pragma once
// The storage of a track's columns: a std::vector whose resize() leaves new values of trivial
// types unwritten instead of zeroing them. Loaders size a column once and then write every value
// (from the thread that will use them next): the memory is first touched by that write, which
// keeps it in that core's cache, instead of by a zeroing pass that leaves it cold.
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace strata {

template <typename T> struct DefaultInitAllocator : std::allocator<T> {
    template <typename U> struct rebind { using other = DefaultInitAllocator<U>; };
    DefaultInitAllocator() = default;
    template <typename U> DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
    template <typename U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U; // default-initialized: no write for trivial types
    }
    template <typename U, typename... Args> void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

template <typename T> using Column = std::vector<T, DefaultInitAllocator<T>>;

} // namespace strata
