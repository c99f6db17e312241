#include "lod_cache.h"
#include "workspace/job_runner.h"

#include <QtConcurrent/QtConcurrentRun>

namespace strata {

LodCache::Slots::Slots(std::shared_ptr<const Trace> t)
    : trace(std::move(t)), lods(trace->tracks().size()) {}

LodCache::Slots::~Slots() {
    for (auto& p : lods) delete p.load();
}

const TrackLod& LodCache::Slots::get(TrackId id) {
    if (TrackLod* p = lods[id].load(std::memory_order_acquire)) return *p;
    auto built = std::make_unique<TrackLod>();
    built->build(trace->track(id), trace->bounds().start);
    TrackLod* expected = nullptr;
    if (lods[id].compare_exchange_strong(expected, built.get(), std::memory_order_acq_rel))
        return *built.release();
    return *expected; // someone else published first
}

LodCache::~LodCache() {
    if (slots_) slots_->cancel = true;
}

void LodCache::reset(std::shared_ptr<const Trace> trace) {
    if (slots_) slots_->cancel = true;
    slots_ = trace ? std::make_shared<Slots>(std::move(trace)) : nullptr;
}

const TrackLod& LodCache::get(TrackId id) {
    return slots_->get(id);
}

void LodCache::prebuildInBackground() {
    if (!slots_) return;
    std::shared_ptr<Slots> s = slots_;
    (void)QtConcurrent::run(JobRunner::pool(), [s] {
        for (TrackId id = 0; id < s->lods.size() && !s->cancel.load(); ++id) s->get(id);
    });
}

size_t LodCache::memoryBytes() const {
    if (!slots_) return 0;
    size_t b = sizeof(Slots) + slots_->lods.capacity() * sizeof(void*);
    for (const auto& p : slots_->lods)
        if (const TrackLod* l = p.load(std::memory_order_acquire)) b += l->memoryBytes();
    return b;
}

} // namespace strata
