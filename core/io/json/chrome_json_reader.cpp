#include "io/json/chrome_json_reader.h"

#include "io/json/json_event_parser.h"
#include "io/json/json_event_splitter.h"
#include "io/json/json_input.h"
#include "io/load_preview.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace strata {
namespace {

constexpr size_t kBatchBytes = size_t(512) << 10;
constexpr size_t kChunkBytes = size_t(2) << 20;
constexpr size_t kMaxBatchesInFlight = kMaxBatchSlots;

// Hands batches from the splitter thread to the parse thread, with a bounded number in flight.
class BatchQueue {
public:
    std::unique_ptr<EventBatch> takeFree() {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return stop_ || !free_.empty() || allocated_ < kMaxBatchesInFlight; });
        if (stop_) return nullptr;
        if (!free_.empty()) {
            auto b = std::move(free_.back());
            free_.pop_back();
            return b;
        }
        auto b = std::make_unique<EventBatch>();
        b->slot = uint32_t(allocated_++);
        return b;
    }
    void pushFull(std::unique_ptr<EventBatch> b) {
        {
            std::lock_guard lock(m_);
            full_.push_back(std::move(b));
        }
        cv_.notify_all();
    }
    size_t fullCount() {
        std::lock_guard lock(m_);
        return full_.size();
    }
    std::unique_ptr<EventBatch> takeFull() {
        std::unique_lock lock(m_);
        cv_.wait(lock, [&] { return !full_.empty() || done_; });
        if (full_.empty()) return nullptr;
        auto b = std::move(full_.front());
        full_.pop_front();
        return b;
    }
    void giveBack(std::unique_ptr<EventBatch> b) {
        {
            std::lock_guard lock(m_);
            free_.push_back(std::move(b));
        }
        cv_.notify_all();
    }
    void setDone() {
        {
            std::lock_guard lock(m_);
            done_ = true;
        }
        cv_.notify_all();
    }
    void stop() {
        {
            std::lock_guard lock(m_);
            stop_ = true;
        }
        cv_.notify_all();
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::unique_ptr<EventBatch>> full_;
    std::vector<std::unique_ptr<EventBatch>> free_;
    size_t allocated_ = 0;
    bool done_ = false;
    bool stop_ = false;
};

// STRATA_JSON_PROFILE=1 prints the phases' wall time and the peak RSS so far to stderr.
struct PhaseLog {
    bool on = std::getenv("STRATA_JSON_PROFILE") != nullptr;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    void mark(const char* phase) {
        if (!on) return;
        rusage ru{};
        getrusage(RUSAGE_SELF, &ru);
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::fprintf(stderr, "strata-json: %-8s at %.3f s, peak RSS %.1f MB\n", phase, s,
                     double(ru.ru_maxrss) * 1024 / 1e6);
    }
};

LoadResult fail(const std::string& file, uint64_t offset, uint64_t line, std::string message) {
    LoadResult r;
    r.error = LoadError{file, offset, line, std::move(message)};
    return r;
}

bool cpuCanParse() {
#if defined(__x86_64__) && defined(__GNUC__)
    if (kJsonParserNeedsAvx2) {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
               __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("popcnt");
    }
#endif
    return true;
}

// Whether a gzip stream is damaged, reading the rest of it to find out (zlib may only say so at
// its end).
bool damagedGzip(JsonInput& in) {
    if (!in.gzip()) return false;
    std::vector<char> sink(size_t(1) << 20);
    while (!in.failed() && in.read(sink.data(), sink.size()) > 0) {
    }
    return in.failed();
}

// What reading read past or stopped at, as the trace's warnings: broken JSON read past, where a
// damaged gzip stream broke the JSON (`broke`: the break), the input's damage or truncation,
// bytes after the JSON or after the gzip data.
void addReadingWarnings(TraceBuilder& builder, const JsonEventSplitter& splitter,
                        const JsonInput& in, const std::string& name, const LoadError* broke,
                        uint64_t eventsParsed) {
    for (const auto& [why, n] : splitter.notes())
        builder.addWarning(why + ": " + std::to_string(n.count) +
                           (n.count == 1 ? " place" : " places") + " (first at byte " +
                           std::to_string(n.offset) + ", line " + std::to_string(n.line) +
                           "); the events around it were kept");
    if (broke) {
        builder.addWarning(
            name + ": " + in.error() + "; reading stopped at byte " +
            std::to_string(broke->byteOffset) + " (line " + std::to_string(broke->line) +
            ") of the decompressed JSON, where the damage broke it (" + broke->message +
            "): loaded the " + std::to_string(eventsParsed) + " events before it");
    } else if (!splitter.inputDamage().empty()) {
        builder.addWarning(splitter.inputDamage() + ": loaded the " +
                           std::to_string(splitter.eventsEmitted()) + " events before it");
    } else if (splitter.truncated()) {
        std::string w = "truncated at byte " + std::to_string(splitter.endOffset()) + " (line " +
                        std::to_string(splitter.endLine()) + "): loaded " +
                        std::to_string(splitter.eventsEmitted()) + " events";
        if (in.truncatedGzip()) w += " (the gzip stream ends early)";
        builder.addWarning(std::move(w));
    } else if (in.truncatedGzip()) {
        builder.addWarning("the gzip stream ends before its trailer (JSON was complete)");
    }
    if (const AfterEnd& after = splitter.afterEnd(); after.bytes > 0)
        builder.addWarning(name + ": " + std::to_string(after.bytes) +
                           " bytes after the end of the JSON (from byte " +
                           std::to_string(after.offset) + ", line " + std::to_string(after.line) +
                           ": " + after.found + ") were ignored; the trace before them loaded");
    if (in.trailingBytes())
        builder.addWarning(std::to_string(in.trailingBytes()) +
                           " bytes after the end of the gzip data were ignored");
}

LoadResult readStream(JsonInput& in, const std::string& name, const LoadOptions& options,
                      bool threaded, size_t chunkBytes = kChunkBytes,
                      size_t batchBytes = kBatchBytes) {
    if (!cpuCanParse())
        return fail(name, 0, 0, "this build of the JSON reader needs a CPU with AVX2 (x86-64-v3)");
    PhaseLog log;
    TraceBuilder builder;
    ChromeEventParser parser(builder);
    JsonEventSplitter splitter(in, batchBytes, chunkBytes);
    LoadError parseError;
    parseError.file = name;
    bool parseFailed = false, cancelled = false;
    std::atomic<uint64_t> rawConsumed{0};
    const double rawSize = double(std::max<uint64_t>(in.rawSize(), 1));

    auto progress = [&]() {
        if (!options.progress) return true;
        return options.progress(std::min(1.0, double(rawConsumed.load()) / rawSize));
    };
    // A first picture now and then (LoadOptions::preview): 0.3 s after the start, then every
    // 0.5 s, from this (the builder's) thread.
    LoadPreviewCollector previewCollector;
    if (options.preview) parser.setPreview(&previewCollector);
    auto nextPreview = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
    auto preview = [&]() {
        if (!options.preview) return;
        const auto now = std::chrono::steady_clock::now();
        if (now < nextPreview) return;
        nextPreview = now + std::chrono::milliseconds(500);
        options.preview(
            previewCollector.snapshot(std::min(1.0, double(rawConsumed.load()) / rawSize)));
    };

    if (threaded) {
        BatchQueue queue;
        uint64_t batchesSeen = 0;
        std::thread producer([&] {
            for (;;) {
                auto batch = queue.takeFree();
                if (!batch) break;
                const bool more = splitter.next(*batch);
                rawConsumed.store(in.rawConsumed());
                if (!more) break;
                // The walk of a batch's events goes to whichever thread has time: here while the
                // builder's thread has batches queued, there when it waits.
                parser.prepare(*batch, queue.fullCount() > 0);
                queue.pushFull(std::move(batch));
            }
            queue.setDone();
        });
        while (auto batch = queue.takeFull()) {
            if (log.on && batchesSeen++ == 0) log.mark("batch 1");
            if (!parseFailed && !cancelled) {
                parseFailed = !parser.parseBatch(*batch, &parseError);
                cancelled = !parseFailed && !progress();
                if (!parseFailed && !cancelled) preview();
                if (parseFailed || cancelled) queue.stop();
            }
            queue.giveBack(std::move(batch));
        }
        producer.join();
    } else {
        EventBatch batch;
        while (splitter.next(batch)) {
            rawConsumed.store(in.rawConsumed());
            if (!parser.parseBatch(batch, &parseError)) {
                parseFailed = true;
                break;
            }
            if (!progress()) {
                cancelled = true;
                break;
            }
            preview();
        }
    }

    if (cancelled) return fail(name, 0, 0, "cancelled");
    if (const SplitError* e = splitter.error(); e && !parseFailed)
        parseError = LoadError{name, e->offset, e->line, e->message};
    // The JSON broke past repair. In a damaged gzip stream (zlib often sees a flipped byte only at
    // the trailer's checksum, the garbage it decoded meanwhile breaking the JSON first), what was
    // read before the break is kept, as for a truncated file; else it is an error.
    const auto keptBeforeDamage = [&] { return parser.eventsParsed() > 0 && damagedGzip(in); };
    bool broke = parseFailed || splitter.error();
    if (broke && !keptBeforeDamage()) {
        LoadResult r;
        r.error = parseError;
        return r;
    }
    if (splitter.form() == JsonEventSplitter::Form::Object && !splitter.sawTraceEvents() &&
        !splitter.truncated() && !broke)
        return fail(name, splitter.endOffset(), splitter.endLine(),
                    "expected a \"traceEvents\" array in the top-level object, found none");
    if (LoadError topError = parseError; !parser.addTopLevel(splitter.topLevel(), &topError)) {
        if (!broke && !keptBeforeDamage()) {
            LoadResult r;
            r.error = topError;
            return r;
        }
        if (!broke) parseError = topError; // a value after the events, decoded from the damage
        broke = true;
    }
    parser.finish();
    addReadingWarnings(builder, splitter, in, name, broke ? &parseError : nullptr,
                       parser.eventsParsed());
    if (options.progress && !options.progress(1.0)) return fail(name, 0, 0, "cancelled");
    log.mark("parsed");
    if (log.on)
        std::fprintf(stderr, "strata-json: args %.1f MB, strings %.1f MB, %llu events\n",
                     double(builder.args().memoryBytes()) / 1e6,
                     double(builder.strings().memoryBytes()) / 1e6,
                     static_cast<unsigned long long>(parser.eventsParsed()));
    // The model's build is the peak of memory: the reading buffers go first.
    parser.releaseBuffers();
    splitter.releaseBuffers();
    LoadResult r;
    r.trace = builder.build();
    log.mark("built");
    return r;
}

} // namespace

LoadResult readChromeJson(const std::string& path, const LoadOptions& options) {
    JsonInput in;
    if (!in.openFile(path)) return fail(path, 0, 0, in.error());
    return readStream(in, path, options, /*threaded=*/!options.oneThread);
}

LoadResult readChromeJsonBuffer(std::string_view data, const std::string& name,
                                const LoadOptions& options) {
    JsonInput in;
    in.openBuffer(data);
    // Small inputs get small buffers (the fuzzer calls this millions of times).
    const size_t size = std::max<size_t>(data.size(), size_t(16) << 10);
    return readStream(in, name, options, /*threaded=*/false, std::min(size, kChunkBytes),
                      std::min(size, kBatchBytes));
}

} // namespace strata
