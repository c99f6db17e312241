#pragma once
// Reads the events of an EventBatch into plain Event fields with simdjson On-Demand. One parser
// per batch slot, so a batch can be walked on the splitter's thread while the builder's thread
// dispatches an earlier one; the fields (views into the batch and the slot's parser) stay valid
// until the slot is prepared again.
#include "io/json/json_event_fields.h"
#include "io/json/json_event_splitter.h"

#include <memory>
#include <span>
#include <vector>

namespace strata {

class JsonBatchWalker {
public:
    JsonBatchWalker();
    ~JsonBatchWalker();

    // Runs stage 1 (structural indexing) over the batch and, with `walkNow`, the walk. Any
    // thread, for batches with distinct slots.
    void prepare(EventBatch& batch, bool walkNow);
    // The batch's events, walking them now if prepare() did not (and preparing if needed).
    // Fewer than batch.events.size() means the next one is malformed.
    std::span<const Event> events(EventBatch& batch);
    // Frees the parsers and event buffers.
    void release();

private:
    struct Slot;
    std::vector<std::unique_ptr<Slot>> slots_;
    Slot& slot(const EventBatch& batch);
};

} // namespace strata
