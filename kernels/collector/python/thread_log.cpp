#include "python/thread_log.h"

namespace strata::python {

ThreadLog::ThreadLog(int64_t t) : tid(t) {
    tail_ = head_ = new Chunk;
}

ThreadLog::~ThreadLog() {
    while (head_) {
        Chunk* next = head_->next.load();
        delete head_;
        head_ = next;
    }
    for (Chunk* c : spares_) delete c;
}

void ThreadLog::giveBack(Chunk* c) {
    std::lock_guard lock(sparesMutex_);
    if (spares_.size() < 64) {
        spares_.push_back(c);
        return;
    }
    delete c;
}

void ThreadLog::grow() {
    Chunk* c = nullptr;
    {
        std::lock_guard lock(sparesMutex_);
        if (!spares_.empty()) {
            c = spares_.back();
            spares_.pop_back();
        }
    }
    if (c) {
        c->count.store(0, std::memory_order_relaxed);
        c->next.store(nullptr, std::memory_order_relaxed);
    } else {
        c = new Chunk;
    }
    tail_->next.store(c, std::memory_order_release);
    tail_ = c;
    written_ = 0;
}

} // namespace strata::python
