#pragma once
// The level-of-detail summaries of a trace's tracks, built on first use by whoever needs one (the
// painter, hit testing) and, after setTrace, by a worker thread ahead of time, so the first frames
// of a big trace do not wait for every track. Slots are published atomically; a worker that loses
// the race for a slot throws its copy away. The worker holds its own references, so resetting or
// destroying the cache only asks it to stop.
#include "model/lod_summary.h"
#include "model/trace.h"

#include <atomic>
#include <memory>
#include <vector>

namespace strata {

class LodCache {
public:
    LodCache() = default;
    LodCache(const LodCache&) = delete;
    LodCache& operator=(const LodCache&) = delete;
    ~LodCache();

    void reset(std::shared_ptr<const Trace> trace); // stops a running prebuild
    const TrackLod& get(TrackId id);                // builds the track's summary if needed
    void prebuildInBackground();                    // all tracks, on the Qt thread pool
    size_t memoryBytes() const;

private:
    struct Slots {
        std::shared_ptr<const Trace> trace;
        std::vector<std::atomic<TrackLod*>> lods;
        std::atomic<bool> cancel{false};
        explicit Slots(std::shared_ptr<const Trace> t);
        ~Slots();
        const TrackLod& get(TrackId id);
    };
    std::shared_ptr<Slots> slots_;
};

} // namespace strata
