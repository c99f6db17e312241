#include "lod_seeds.h"

#include <mutex>

namespace strata {

namespace {

struct Offer {
    std::weak_ptr<const Trace> trace;
    const Trace* key = nullptr;
    LodSeed seed;
};

std::mutex& offerMutex() {
    static std::mutex m;
    return m;
}

Offer& offer() {
    static Offer o;
    return o;
}

} // namespace

LodSeed buildLodSeed(const Trace& trace) {
    LodSeed seed(trace.tracks().size());
    for (TrackId id = 0; id < seed.size(); ++id) {
        seed[id] = std::make_unique<TrackLod>();
        seed[id]->build(trace.track(id), trace.bounds().start);
    }
    return seed;
}

void offerLodSeed(const std::shared_ptr<const Trace>& trace, LodSeed seed) {
    const std::lock_guard<std::mutex> lock(offerMutex());
    offer() = Offer{trace, trace.get(), std::move(seed)};
}

LodSeed takeLodSeed(const Trace* trace) {
    const std::lock_guard<std::mutex> lock(offerMutex());
    Offer& o = offer();
    if (!trace || o.key != trace || o.trace.expired()) return {};
    LodSeed seed = std::move(o.seed);
    o = Offer{};
    return seed;
}

} // namespace strata
