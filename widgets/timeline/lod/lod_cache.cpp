#include "lod_cache.h"
#include "lod_seeds.h"
#include "workspace/job_runner.h"

#include <QtConcurrent/QtConcurrentMap>
#include <QtConcurrent/QtConcurrentRun>

namespace strata {

struct LodCache::Slots {
    std::shared_ptr<const Trace> trace;
    std::vector<std::atomic<TrackLod*>> lods;
    std::atomic<bool> cancel{false};
    std::mutex mutex;              // guards what follows
    std::vector<TrackId> wanted;   // asked for, newest last (repeats allowed)
    std::vector<uint8_t> asked;    // per track: in `wanted` since it was last built
    std::function<void()> onBuilt; // cleared by reset(), under the mutex
    bool posted = false;           // a built track told and not yet seen by a frame
    TrackId cursor = 0;            // the worker's next track in id order

    explicit Slots(std::shared_ptr<const Trace> t)
        : trace(std::move(t)), lods(trace->tracks().size()), asked(lods.size(), 0) {
        LodSeed seed = takeLodSeed(trace.get()); // built ahead (a live run's next picture)
        for (size_t id = 0; id < seed.size() && id < lods.size(); ++id)
            lods[id].store(seed[id].release(), std::memory_order_release);
    }
    ~Slots() {
        for (auto& p : lods) delete p.load();
    }
    const TrackLod* find(TrackId id) const { return lods[id].load(std::memory_order_acquire); }
    const TrackLod& get(TrackId id) {
        if (const TrackLod* p = find(id)) return *p;
        auto built = std::make_unique<TrackLod>();
        built->build(trace->track(id), trace->bounds().start);
        TrackLod* expected = nullptr;
        if (lods[id].compare_exchange_strong(expected, built.get(), std::memory_order_acq_rel))
            return *built.release();
        return *expected; // someone else published first
    }
    // The worker's next track (the newest ask first), or false when every track is built.
    bool next(TrackId* id, bool* requested) {
        const std::lock_guard<std::mutex> lock(mutex);
        while (!wanted.empty()) {
            const TrackId w = wanted.back();
            wanted.pop_back();
            if (!find(w)) {
                *id = w;
                *requested = true;
                return true;
            }
        }
        while (cursor < lods.size() && find(cursor)) ++cursor;
        if (cursor == lods.size()) return false;
        *id = cursor++;
        *requested = false;
        return true;
    }
    void built(TrackId id, bool requested) {
        const std::lock_guard<std::mutex> lock(mutex);
        asked[id] = 0;
        if (!requested || posted || !onBuilt) return;
        posted = true;
        onBuilt();
    }
    void work() {
        TrackId id = 0;
        bool requested = false;
        while (!cancel.load() && next(&id, &requested)) {
            get(id);
            built(id, requested);
        }
    }
};

LodCache::~LodCache() {
    reset(nullptr);
}

void LodCache::reset(std::shared_ptr<const Trace> trace) {
    if (slots_) {
        slots_->cancel = true;
        const std::lock_guard<std::mutex> lock(slots_->mutex);
        slots_->onBuilt = nullptr; // no call for the old trace from here on
    }
    slots_ = trace ? std::make_shared<Slots>(std::move(trace)) : nullptr;
    inlineBudget_ = kInlineSlicesPerFrame;
}

void LodCache::setOnBuilt(std::function<void()> onBuilt) {
    if (!slots_) return;
    const std::lock_guard<std::mutex> lock(slots_->mutex);
    slots_->onBuilt = std::move(onBuilt);
}

const TrackLod& LodCache::get(TrackId id) {
    return slots_->get(id);
}

const TrackLod* LodCache::find(TrackId id) const {
    return slots_->find(id);
}

const TrackLod* LodCache::inlineOrRequest(TrackId id) {
    if (const TrackLod* p = slots_->find(id)) return p;
    const Track& t = slots_->trace->track(id);
    const size_t n = t.slices.size() + t.counter.size();
    if (n <= inlineBudget_) {
        inlineBudget_ -= n;
        return &slots_->get(id);
    }
    const std::lock_guard<std::mutex> lock(slots_->mutex);
    slots_->posted = false; // the next built track is told again
    if (!slots_->asked[id]) {
        slots_->asked[id] = 1;
        slots_->wanted.push_back(id);
    }
    return nullptr;
}

void LodCache::prebuildInBackground() {
    if (!slots_) return;
    std::shared_ptr<Slots> s = slots_;
    (void)QtConcurrent::run(JobRunner::pool(), [s] {
        yieldToGuiThread();
        s->work();
    });
}

std::vector<TrackId> LodCache::pendingRequests() const {
    std::vector<TrackId> ids;
    if (!slots_) return ids;
    const std::lock_guard<std::mutex> lock(slots_->mutex);
    for (TrackId id = 0; id < slots_->asked.size(); ++id) // being built: no longer in `wanted`
        if (slots_->asked[id] && !slots_->find(id)) ids.push_back(id);
    return ids;
}

void LodCache::waitForRequested() const {
    const std::vector<TrackId> ids = pendingRequests();
    std::shared_ptr<Slots> s = slots_;
    QtConcurrent::blockingMap(ids, [s](TrackId id) { s->get(id); });
}

bool LodCache::requestsPending() const {
    return !pendingRequests().empty();
}

size_t LodCache::memoryBytes() const {
    if (!slots_) return 0;
    size_t b = sizeof(Slots) + slots_->lods.capacity() * sizeof(void*) + slots_->asked.capacity();
    for (TrackId id = 0; id < slots_->lods.size(); ++id)
        if (const TrackLod* l = slots_->find(id)) b += l->memoryBytes();
    return b;
}

} // namespace strata
