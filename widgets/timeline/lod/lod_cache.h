#pragma once
// The level-of-detail summaries of a trace's tracks. After reset (which takes any built ahead:
// lod_seeds.h), a worker thread builds the others ahead of time, the tracks asked for first
// (request: those the window shows, newest ask first). The GUI thread never waits for a big one:
// find() gives a summary only once built, and inlineOrRequest() builds a small track at once
// (within a budget of slices per frame) and otherwise asks the worker for it, which calls back when
// it is done (a repaint). Slots are published atomically; a builder that loses the race for a slot
// throws its copy away. The worker holds its own references, so resetting or destroying the cache
// only asks it to stop, and no callback of the old trace runs after reset() returns.
#include "model/lod_summary.h"
#include "model/trace.h"

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace strata {

class LodCache {
public:
    // Slices a frame may summarise on the GUI thread before the rest goes to the worker (about
    // 25 ns a slice: a few ms).
    static constexpr size_t kInlineSlicesPerFrame = 200'000;

    LodCache() = default;
    LodCache(const LodCache&) = delete;
    LodCache& operator=(const LodCache&) = delete;
    ~LodCache();

    void reset(std::shared_ptr<const Trace> trace); // stops the worker of the previous trace
    // Called from the worker once a requested track's summary is ready (post to the GUI thread).
    void setOnBuilt(std::function<void()> onBuilt);

    const TrackLod& get(TrackId id);        // built now if needed, whatever its size
    const TrackLod* find(TrackId id) const; // null until built
    // The summary, built now if it fits what is left of the frame's budget; else null, and the
    // worker builds it next.
    const TrackLod* inlineOrRequest(TrackId id);
    void beginFrame() { inlineBudget_ = kInlineSlicesPerFrame; }
    void prebuildInBackground(); // every track, on the Qt thread pool, requested ones first
    // Waits until every requested track is built (tests, screenshots).
    void waitForRequested() const;
    bool requestsPending() const; // some track asked for is not built yet
    size_t memoryBytes() const;

private:
    struct Slots;
    std::vector<TrackId> pendingRequests() const; // asked for and not built yet
    std::shared_ptr<Slots> slots_;
    size_t inlineBudget_ = kInlineSlicesPerFrame;
};

} // namespace strata
