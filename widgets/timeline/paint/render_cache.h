#pragma once
// What the timeline's painter keeps between frames for one trace: the tracks' level-of-detail
// summaries (built ahead on a worker thread), slice colours, labels and their fitted (elided)
// text, counter maxima and, while "all flows" is on, the flow index. reset() builds what does
// not depend on the zoom when a trace is set, so a paint never scans the trace; the label and
// colour caches fill as names are first drawn (no allocation per frame once warm).
#include "model/trace.h"
#include "section_lanes.h"
#include "style/slice_palette.h"
#include "timeline/lod/flow_index.h"
#include "timeline/lod/lod_cache.h"

#include <QFontMetrics>
#include <QHash>
#include <QStaticText>
#include <QString>

#include <memory>
#include <vector>

namespace strata {

class TimelineRenderCache {
public:
    void reset(std::shared_ptr<const Trace> trace, bool withFlows);
    void buildFlows(); // when "all flows" is turned on
    const FlowIndex& flows() const { return flows_; }
    const SectionLanesCache& sections() const { return sections_; }
    // The time one stack sample stands for (analysis/samples/sample_period.h), 0 unknown.
    // The time a sample of `kind` (StackKind: a lane's thread's timeKind) stands for.
    TimeNs samplePeriod(uint8_t kind) const { return samplePeriods_[kind == 1 ? 1 : 0]; }
    // StackSamples::timeKind of the trace's sampled thread `t`, found once per trace (a lane is
    // painted and hovered often; the kind takes a scan of the thread's samples).
    uint8_t sampleTimeKind(const SampleThread& t) const;

    // A track's summary for the GUI thread: null while the worker builds it (a big track the
    // frame has no budget left for; lod/lod_cache.h). lodNow() builds it whatever its size.
    const TrackLod* lod(TrackId id) { return lods_.inlineOrRequest(id); }
    const TrackLod& lodNow(TrackId id) { return lods_.get(id); }
    LodCache& lods() { return lods_; }
    // The largest finite sample of a counter track (counter_scale.h), its row's full height.
    double counterMax(TrackId id) const { return id < counterMax_.size() ? counterMax_[id] : 0; }
    QRgb color(StringId name, SliceKind kind);

    // Label of a string id (its short display name, Trace::displayName), cached.
    const QString& label(StringId id);
    // The label as prepared text fitting `width` px (elided, widths quantized to 12 px so
    // panning reuses it), or null when not even an ellipsis fits. Cached across frames.
    const QStaticText* fittedLabel(StringId id, int width, const QFontMetrics& fm);
    size_t memoryBytes() const;

private:
    std::shared_ptr<const Trace> trace_;
    LodCache lods_;
    FlowIndex flows_;
    SectionLanesCache sections_;
    TimeNs samplePeriods_[2] = {0, 0}; // Python's, native's
    std::vector<uint8_t> sampleKinds_; // per sampled thread, its timeKind
    std::vector<double> counterMax_;
    SliceColorCache colors_;
    std::vector<QString> labels_;
    std::vector<uint8_t> labelDone_;
    std::vector<int> labelWidth_; // -1 until measured
    std::vector<QStaticText> fullLabel_;
    QHash<quint64, QStaticText> elided_;
};

} // namespace strata
