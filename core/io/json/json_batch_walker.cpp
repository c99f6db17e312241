#include "io/json/json_simdjson.h" // first: sets the target for everything below

#include "io/json/json_batch_walker.h"

namespace strata {
namespace od = simdjson::ondemand;

struct JsonBatchWalker::Slot {
    od::parser parser;
    od::document doc;
    od::array arr;
    std::vector<Event> events; // reused batch after batch: no allocation once warm
    size_t walked = 0;         // events read
    bool iterated = false;     // stage 1 done and the array opened: ready to walk
    const EventBatch* batch = nullptr;
    Slot() {} // user-provided: compiled for the unit's target (see json_simdjson.h)

    // Reads the events into `events`, stopping at the first malformed one.
    void walk() {
        if (!iterated) return;
        iterated = false;
        if (events.size() < batch->events.size()) events.resize(batch->events.size());
        for (auto elem : arr) {
            if (walked == batch->events.size()) break; // more elements than the splitter saw
            Event& e = events[walked];
            e.reset();
            od::object obj;
            if (elem.get_object().get(obj) || readEvent(obj, e)) break;
            ++walked;
        }
    }
};

JsonBatchWalker::JsonBatchWalker() {
    release();
}
JsonBatchWalker::~JsonBatchWalker() = default;

JsonBatchWalker::Slot& JsonBatchWalker::slot(const EventBatch& batch) {
    return *slots_[batch.slot % kMaxBatchSlots];
}

void JsonBatchWalker::prepare(EventBatch& batch, bool walkNow) {
    Slot& s = slot(batch);
    s.batch = &batch;
    s.walked = 0;
    const simdjson::padded_string_view view(batch.data.data(), batch.data.size(),
                                            batch.data.capacity());
    s.iterated = !s.parser.iterate(view).get(s.doc) && !s.doc.get_array().get(s.arr);
    if (walkNow) s.walk();
}

std::span<const Event> JsonBatchWalker::events(EventBatch& batch) {
    Slot& s = slot(batch);
    if (s.batch != &batch) prepare(batch, false);
    s.walk(); // if prepare() did not
    s.batch = nullptr;
    return {s.events.data(), s.walked};
}

void JsonBatchWalker::release() {
    slots_.clear();
    for (uint32_t i = 0; i < kMaxBatchSlots; ++i) slots_.push_back(std::make_unique<Slot>());
}

} // namespace strata
