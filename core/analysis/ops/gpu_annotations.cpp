#include "analysis/ops/gpu_annotations.h"

#include "analysis/analysis_range.h"
#include "analysis/intervals.h"
#include "analysis/ops/gpu_ops.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace strata {

namespace {

struct Annotation {
    int32_t device;
    int64_t stream;
    TimeNs start, end;
    uint32_t row;   // index into the rows
    uint64_t order; // place in the trace (track, index): the last tie-break
};

// Whether `a` lies inside `b` by the header's rule: shorter, or as long and starting later, or
// as long, starting together and later in the trace.
bool innerThan(const Annotation& a, const Annotation& b) {
    const TimeNs la = a.end - a.start, lb = b.end - b.start;
    if (la != lb) return la < lb;
    if (a.start != b.start) return a.start > b.start;
    return a.order > b.order;
}

// Every GPU annotation of the trace with its row (made here, one per name), sorted by (device,
// stream, start); the rows count the ones that start in `range`.
std::vector<Annotation> annotationsOf(const Trace& trace, TimeRange range, GpuAnnotations& out) {
    std::vector<Annotation> anns;
    std::unordered_map<StringId, uint32_t> rowOf;
    for (TrackId ti = 0; ti < trace.tracks().size(); ++ti) {
        const Track& track = trace.track(ti);
        if (track.kind != TrackKind::GpuStream) continue;
        const SliceColumns& c = track.slices;
        for (SliceIndex i = 0; i < c.size(); ++i) {
            if (c.kind[i] != SliceKind::GpuUserAnnotation) continue;
            auto [it, added] = rowOf.try_emplace(c.name[i], uint32_t(out.rows.size()));
            if (added) {
                GpuAnnotationRow r;
                r.nameId = c.name[i];
                r.name = std::string(trace.str(c.name[i]));
                out.rows.push_back(std::move(r));
            }
            if (startsIn(range, c.start[i])) {
                GpuAnnotationRow& r = out.rows[it->second];
                ++r.annotations;
                r.annotatedTime = addSaturating(r.annotatedTime, c.dur[i]);
                ++out.annotations;
            }
            anns.push_back({track.device, track.tid, c.start[i], c.end(i), it->second,
                            uint64_t(ti) << 32 | i});
        }
    }
    std::sort(anns.begin(), anns.end(), [](const Annotation& a, const Annotation& b) {
        return std::tie(a.device, a.stream, a.start, a.order) <
               std::tie(b.device, b.stream, b.start, b.order);
    });
    return anns;
}

// An attributed op's interval, for the union per name and device.
struct Piece {
    uint32_t row;
    int32_t device;
    TimeNs start, end;
};

} // namespace

GpuAnnotations attributeGpuAnnotations(const Trace& trace, const GpuOpList& list) {
    GpuAnnotations out;
    out.ops = list.ops.size();
    forEachBusySegment(list.ops, [&](const BusySegment& s) {
        out.busyTime = addSaturating(out.busyTime, s.end - s.start);
    });
    const std::vector<Annotation> anns = annotationsOf(trace, list.range, out);
    std::vector<Piece> pieces;
    if (!anns.empty()) {
        // Both lists sorted by (device, stream, start): one sweep, the annotations that may
        // still overlap the current op kept in `active`.
        auto key = [](const auto& x) { return std::tie(x.device, x.stream); };
        size_t next = 0;
        std::vector<size_t> active;
        for (size_t k = 0; k < list.ops.size(); ++k) {
            const GpuOp& op = list.ops[k];
            if (k == 0 || key(list.ops[k - 1]) != key(op)) {
                active.clear();
                while (next < anns.size() && key(anns[next]) < key(op)) ++next;
            }
            while (next < anns.size() && key(anns[next]) == key(op) && anns[next].start < op.end)
                active.push_back(next++);
            // Ops come by start: an annotation that ended by this one's start is done with.
            std::erase_if(active, [&](size_t a) { return anns[a].end <= op.start; });
            const Annotation* best = nullptr;
            for (size_t a : active) {
                const Annotation& x = anns[a];
                if (x.start < op.end && op.start < x.end && (!best || innerThan(x, *best)))
                    best = &x;
            }
            if (!best) continue;
            GpuAnnotationRow& r = out.rows[best->row];
            ++r.ops;
            if (op.kind == SliceKind::Kernel) ++r.kernels;
            ++out.attributedOps;
            pieces.push_back({best->row, op.device, op.start, op.end});
        }
    }
    std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
        return std::tie(a.row, a.device, a.start) < std::tie(b.row, b.device, b.start);
    });
    for (size_t i = 0; i < pieces.size();) {
        size_t j = i;
        Intervals v;
        while (j < pieces.size() && pieces[j].row == pieces[i].row &&
               pieces[j].device == pieces[i].device) {
            v.push_back({pieces[j].start, pieces[j].end});
            ++j;
        }
        GpuAnnotationRow& r = out.rows[pieces[i].row];
        r.gpuTime = addSaturating(r.gpuTime, lengthOf(unionOf(std::move(v))));
        i = j;
    }
    for (GpuAnnotationRow& r : out.rows)
        r.share = out.busyTime > 0 ? double(r.gpuTime) / double(out.busyTime) : 0.0;
    // Names with neither an annotation in the range nor an op left out.
    std::erase_if(out.rows, [](const GpuAnnotationRow& r) { return !r.ops && !r.annotations; });
    std::sort(out.rows.begin(), out.rows.end(),
              [](const GpuAnnotationRow& a, const GpuAnnotationRow& b) {
                  return std::tie(b.gpuTime, b.annotatedTime, a.name) <
                         std::tie(a.gpuTime, a.annotatedTime, b.name);
              });
    return out;
}

} // namespace strata
