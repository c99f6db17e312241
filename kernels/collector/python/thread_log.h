#pragma once
// The calls of one Python thread, from the profile hook (the thread itself, holding the GIL) to
// the flush thread: a single-producer single-consumer log of fixed-size chunks. The producer
// never waits and never takes a lock: it writes an event and publishes the chunk's new count;
// a full chunk gets a successor, one the consumer gave back if there is one (its pages are
// warm), a new one otherwise. The consumer reads what was published and gives back the chunks
// it has read to the end.
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

namespace strata::python {

struct CallEvent {  // trivial: a chunk of them is not zeroed when allocated
    uint64_t ts;    // TickClock ticks
    uint32_t frame; // FrameTable id
    uint32_t what;  // kEnter or kLeave
};
inline constexpr uint32_t kEnter = 0;
inline constexpr uint32_t kLeave = 1;

class ThreadLog {
public:
    explicit ThreadLog(int64_t tid);
    ~ThreadLog();
    ThreadLog(const ThreadLog&) = delete;
    ThreadLog& operator=(const ThreadLog&) = delete;

    const int64_t tid;

    // Producer (the thread itself).
    void add(uint64_t ts, uint32_t frame, uint32_t what) {
        if (written_ == kChunkEvents) grow();
        tail_->events[written_] = {ts, frame, what};
        tail_->count.store(++written_, std::memory_order_release);
    }

    // Consumer (one thread at a time): calls f(const CallEvent&) for every event published
    // since the last call, in order; returns how many.
    template <typename F> uint64_t drain(F&& f) {
        uint64_t n = 0;
        for (;;) {
            const uint32_t count = head_->count.load(std::memory_order_acquire);
            for (; read_ < count; ++read_, ++n) f(head_->events[read_]);
            if (read_ < kChunkEvents) return n;
            Chunk* next = head_->next.load(std::memory_order_acquire);
            if (!next) return n;
            giveBack(head_);
            head_ = next;
            read_ = 0;
        }
    }

private:
    static constexpr uint32_t kChunkEvents = 8192; // 128 KiB
    struct Chunk {
        CallEvent events[kChunkEvents];
        std::atomic<uint32_t> count{0};
        std::atomic<Chunk*> next{nullptr};
    };
    void grow();
    void giveBack(Chunk* c);
    std::mutex sparesMutex_; // once per chunk, never per event
    std::vector<Chunk*> spares_;
    Chunk* tail_ = nullptr; // producer
    uint32_t written_ = 0;  // producer: events in tail_
    Chunk* head_ = nullptr; // consumer
    uint32_t read_ = 0;     // consumer: events of head_ read
};

} // namespace strata::python
