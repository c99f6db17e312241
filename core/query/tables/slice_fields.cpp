#include "query/tables/slice_fields.h"

#include "model/names/cupti_names.h"

#include "query/tables/trace_text.h"

namespace strata {

namespace {

// The innermost cpu_op enclosing r on its track (r itself excluded), or an invalid ref.
SliceRef enclosingCpuOp(const Trace& trace, SliceRef r) {
    const SliceColumns& c = trace.track(r.track).slices;
    for (SliceIndex p = c.parent[r.index]; p != kNoSlice; p = c.parent[p])
        if (c.kind[p] == SliceKind::CpuOp) return {r.track, p};
    return {};
}

std::string_view trackKindText(TrackKind k) {
    switch (k) {
    case TrackKind::Thread:
        return "thread";
    case TrackKind::GpuStream:
        return "gpu";
    case TrackKind::Async:
        return "async";
    default:
        return "other";
    }
}

int64_t product(const std::array<int32_t, 3>& v) {
    return int64_t(std::max(v[0], 0)) * std::max(v[1], 0) * std::max(v[2], 0);
}

void gpuValue(sqlite3_context* ctx, const Trace& trace, const Track& track, const GpuActivity* g,
              SliceField field) {
    static const GpuActivity none;
    const GpuActivity& a = g ? *g : none;
    auto text = [&](std::string_view t) { t.empty() ? resultNull(ctx) : resultStaticText(ctx, t); };
    switch (field) {
    case SliceField::Device:
        return resultId(ctx, a.device >= 0 ? a.device : track.device);
    case SliceField::Stream:
        return resultId(ctx, a.stream >= 0                        ? a.stream
                             : track.kind == TrackKind::GpuStream ? track.tid
                                                                  : -1);
    case SliceField::Context:
        return resultId(ctx, a.context);
    case SliceField::GridX:
        return resultInt(ctx, a.grid[0]);
    case SliceField::GridY:
        return resultInt(ctx, a.grid[1]);
    case SliceField::GridZ:
        return resultInt(ctx, a.grid[2]);
    case SliceField::Grid:
        return resultInt(ctx, product(a.grid));
    case SliceField::BlockX:
        return resultInt(ctx, a.block[0]);
    case SliceField::BlockY:
        return resultInt(ctx, a.block[1]);
    case SliceField::BlockZ:
        return resultInt(ctx, a.block[2]);
    case SliceField::Block:
        return resultInt(ctx, product(a.block));
    case SliceField::Registers:
        return resultId(ctx, a.registersPerThread);
    case SliceField::StaticShared:
        return resultId(ctx, a.staticSharedBytes);
    case SliceField::DynamicShared:
        return resultId(ctx, a.dynamicSharedBytes);
    case SliceField::Bytes:
        return resultId(ctx, a.bytes);
    case SliceField::CopyKind:
        return text(copyKindName(a.copyKind));
    case SliceField::SrcMemory:
        return text(memoryKindName(a.srcMemory));
    case SliceField::DstMemory:
        return text(memoryKindName(a.dstMemory));
    case SliceField::GraphId:
        return resultId(ctx, a.graphId);
    case SliceField::GraphNodeId:
        return resultId(ctx, a.graphNodeId);
    default:
        return resultNull(ctx);
    }
    (void)trace;
}

} // namespace

void sliceFieldValue(sqlite3_context* ctx, const QuerySources& sources, size_t s, SliceRef r,
                     SliceField field) {
    const Trace& trace = sources.trace(s);
    const Track& track = trace.track(r.track);
    const SliceColumns& c = track.slices;
    const uint32_t i = r.index;
    auto name = [&](StringId id) { resultStaticText(ctx, trace.str(id)); };
    auto sliceId = [&](SliceRef x) {
        x.valid() ? resultInt(ctx, sources.sliceId(s, x)) : resultNull(ctx);
    };
    switch (field) {
    case SliceField::Id:
        return resultInt(ctx, sources.sliceId(s, r));
    case SliceField::Ts:
        return resultInt(ctx, c.start[i]);
    case SliceField::Dur:
        return resultInt(ctx, c.dur[i]);
    case SliceField::End:
        return resultInt(ctx, c.start[i] + c.dur[i]);
    case SliceField::Name:
        return name(c.name[i]);
    case SliceField::Category:
        return name(c.category[i]);
    case SliceField::Kind:
        return resultStaticText(ctx, sliceKindName(c.kind[i]));
    case SliceField::Depth:
        return resultInt(ctx, c.depth[i]);
    case SliceField::ParentId:
        return sliceId({r.track, c.parent[i]});
    case SliceField::Self:
        return resultInt(ctx, c.selfTime(i));
    case SliceField::Pid:
        return resultInt(ctx, track.pid);
    case SliceField::Tid:
        return resultInt(ctx, track.tid);
    case SliceField::Thread:
        return track.kind == TrackKind::Thread ? threadName(ctx, trace, track.pid, track.tid)
                                               : resultNull(ctx);
    case SliceField::Process:
        return processName(ctx, trace, track.pid);
    case SliceField::TrackKind:
        return resultStaticText(ctx, trackKindText(track.kind));
    case SliceField::Correlation: {
        const SliceExtra* x = trace.extra(r);
        return resultId(ctx, x ? x->correlation : -1);
    }
    case SliceField::ExternalId:
        return resultId(ctx, trace.externalId(r));
    case SliceField::Args:
        return argsValue(ctx, trace, c.args[i]);
    case SliceField::Rank:
        return resultId(ctx, sources[s].rank);
    case SliceField::LaunchId:
        return sliceId(trace.launchOf(r));
    case SliceField::Launch: {
        const SliceRef l = trace.launchOf(r);
        return l.valid() ? name(trace.track(l.track).slices.name[l.index]) : resultNull(ctx);
    }
    case SliceField::CpuOpId:
    case SliceField::CpuOp: {
        SliceRef call = isLaunchApiKind(c.kind[i]) ? r : trace.launchOf(r);
        const SliceRef op = call.valid() ? enclosingCpuOp(trace, call) : SliceRef{};
        if (field == SliceField::CpuOpId) return sliceId(op);
        return op.valid() ? name(trace.track(op.track).slices.name[op.index]) : resultNull(ctx);
    }
    case SliceField::GpuOpCount:
        return resultInt(ctx, int64_t(trace.gpuOpsOf(r).size()));
    default:
        return gpuValue(ctx, trace, track, trace.gpu(r), field);
    }
}

} // namespace strata
