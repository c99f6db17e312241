#pragma once
// Build-time helper: runs items 0..n-1 on this thread and, when asked and the machine has more
// than one core, on one more thread (Strata's reference machine has two cores). Items are handed
// out in order from a shared counter, so callers put their largest items first. An exception
// thrown by any item is rethrown here after both threads stop.
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>

namespace strata {

// Below this many slices a build step stays on one thread: starting the second one costs more
// than it saves.
constexpr size_t kParallelBuildMinSlices = 50'000;

template <typename Item> void parallelFor(size_t n, bool parallel, Item&& item) {
    std::atomic<size_t> next{0};
    auto work = [&]() -> std::exception_ptr {
        try {
            for (size_t i; (i = next.fetch_add(1)) < n;) item(i);
        } catch (...) {
            next = n; // the other thread stops at its next item
            return std::current_exception();
        }
        return nullptr;
    };
    std::exception_ptr helperError;
    std::thread helper;
    if (parallel && n > 1 && std::thread::hardware_concurrency() > 1)
        helper = std::thread([&] { helperError = work(); });
    const std::exception_ptr mine = work();
    if (helper.joinable()) helper.join();
    if (mine) std::rethrow_exception(mine);
    if (helperError) std::rethrow_exception(helperError);
}

} // namespace strata
