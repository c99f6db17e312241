#include "io/set/trace_set_loader.h"

#include "io/cache/trace_cache.h"
#include "io/trace_loader.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <mutex>
#include <numeric>
#include <thread>

namespace strata {

std::vector<size_t> largestFirst(const std::vector<std::string>& paths) {
    std::vector<uintmax_t> size(paths.size(), 0);
    for (size_t i = 0; i < paths.size(); ++i) {
        std::error_code ec;
        const uintmax_t s = std::filesystem::file_size(paths[i], ec);
        size[i] = ec ? 0 : s;
    }
    std::vector<size_t> order(paths.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return size[a] > size[b]; });
    return order;
}

LoadResult loadSetFile(const std::string& path, const TraceReader* reader,
                       const TraceSetOptions& options) {
    LoadOptions load = options.load;
    if (reader) load.reader = reader;
    if (!options.cache) return loadTrace(path, load);
    if (!options.storeInCache) return options.cache->load(path, load);
    std::string storeError;
    LoadResult r = loadTraceCached(path, *options.cache, load, &storeError);
    if (!storeError.empty() && options.storeFailed) options.storeFailed(path, storeError);
    return r;
}

void loadTraceSet(const std::vector<std::string>& paths,
                  const std::function<void(size_t, LoadResult&)>& use,
                  const TraceSetOptions& options) {
    const std::vector<size_t> order = largestFirst(paths);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const size_t threads =
        std::min<size_t>(paths.size(), options.threads ? options.threads : cores);
    std::atomic<size_t> next{0};
    std::mutex errorMutex;
    std::exception_ptr error;
    auto work = [&] {
        try {
            for (size_t n; (n = next.fetch_add(1)) < order.size();) {
                if (options.cancelled && options.cancelled()) {
                    next = order.size();
                    break;
                }
                const size_t i = order[n];
                LoadResult r = loadSetFile(
                    paths[i], i < options.readers.size() ? options.readers[i] : nullptr, options);
                try {
                    use(i, r);
                } catch (...) {
                    next = order.size(); // at once, before the unwinding below
                    throw;
                }
            }
        } catch (...) {
            next = order.size(); // the others stop at their next file
            const std::lock_guard<std::mutex> lock(errorMutex);
            if (!error) error = std::current_exception();
        }
    };
    std::vector<std::thread> helpers;
    for (size_t i = 1; i < threads; ++i) helpers.emplace_back(work);
    work();
    for (std::thread& t : helpers) t.join();
    if (error) std::rethrow_exception(error);
}

std::vector<LoadResult> loadTraces(const std::vector<std::string>& paths,
                                   const TraceSetOptions& options) {
    std::vector<LoadResult> out(paths.size());
    loadTraceSet(
        paths, [&](size_t i, LoadResult& r) { out[i] = std::move(r); }, options);
    return out;
}

} // namespace strata
