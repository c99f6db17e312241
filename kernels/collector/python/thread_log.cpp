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
}

void ThreadLog::grow() {
    Chunk* c = new Chunk;
    tail_->next.store(c, std::memory_order_release);
    tail_ = c;
    written_ = 0;
}

} // namespace strata::python
