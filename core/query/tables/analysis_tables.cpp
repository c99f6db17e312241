// The steps, gaps and sections tables (row_table.h): what Strata's analyses find, computed when
// a query first reads them (the analysis the views share where the engine was given one).
#include "analysis/trace_steps.h"
#include "query/tables/row_table.h"
#include "util/computed_once.h"

namespace strata {

namespace {

class StepsTable : public RowTable {
public:
    explicit StepsTable(const QuerySources& s)
        : RowTable(s, "steps",
                   "the loop's steps: ProfilerStep#N slices, else the analysis's step prefix",
                   {{"step", "INTEGER", "the step's number in its trace, from 0"},
                    {"name", "TEXT", "ProfilerStep#12, ..."},
                    {"ts", "INTEGER", "start, ns"},
                    {"dur", "INTEGER", "duration, ns"},
                    {"end", "INTEGER", "end, ns"},
                    {"slice_id", "INTEGER", "the step's slice (slices.id)"},
                    {"rank", "INTEGER", "the rank of a set's trace"}}) {}
    double rowEstimate() const override { return 100; }
    uint64_t rowCount() const override { return made().rows.total(); }
    void value(sqlite3_context* ctx, uint64_t row, int col) const override {
        size_t s, i;
        made().rows.locate(row, &s, &i);
        const TraceStep& st = made().steps[s][i];
        switch (col) {
        case 0:
            return resultInt(ctx, int64_t(i));
        case 1:
            return resultText(ctx, st.name);
        case 2:
            return resultInt(ctx, st.start);
        case 3:
            return resultInt(ctx, st.end - st.start);
        case 4:
            return resultInt(ctx, st.end);
        case 5:
            return st.slice.valid() ? resultInt(ctx, sources_.sliceId(s, st.slice))
                                    : resultNull(ctx);
        default:
            return resultId(ctx, sources_[s].rank);
        }
    }

private:
    struct Steps {
        std::vector<std::vector<TraceStep>> steps;
        PerSourceRows rows;
    };
    const Steps& made() const {
        return steps_.get([&] {
            Steps m;
            for (size_t k = 0; k < sources_.size(); ++k)
                m.steps.push_back(
                    findSteps(sources_.trace(k), sources_.analysis(k).settings().stepPrefix));
            m.rows.build(sources_, [&](size_t k) { return m.steps[k].size(); });
            return m;
        });
    }
    ComputedOnce<Steps> steps_;
};

class GapsTable : public RowTable {
public:
    explicit GapsTable(const QuerySources& s)
        : RowTable(s, "gaps",
                   "GPU idle gaps over the analysis's threshold (10 us by default), with their "
                   "cause and where the launching thread's time went (docs/analysis.md)",
                   {{"level", "TEXT", "device (all its streams idle) or stream"},
                    {"device", "INTEGER", "GPU device"},
                    {"stream", "INTEGER", "stream (NULL for a device gap)"},
                    {"ts", "INTEGER", "start: the previous op's end, ns"},
                    {"dur", "INTEGER", "length, ns"},
                    {"end", "INTEGER", "the next op's start, ns"},
                    {"cause", "TEXT",
                     "launch_bound, launch_overhead, synchronization, "
                     "dependency or unattributed"},
                    {"prev_id", "INTEGER", "the op before the gap (slices.id)"},
                    {"next_id", "INTEGER", "the op that ends it (slices.id)"},
                    {"launch_id", "INTEGER", "that op's launch call (slices.id)"},
                    {"late", "INTEGER", "launch start - gap start for a late launch, ns"},
                    {"blocked", "INTEGER", "the launching thread blocked in the gap, ns"},
                    {"launch", "INTEGER", "in launch calls, ns"},
                    {"cpu", "INTEGER", "in traced CPU work, ns"},
                    {"untraced", "INTEGER", "in untraced CPU time, ns"},
                    {"queued", "INTEGER", "launched, waiting for the GPU, ns"},
                    {"blocking_call_id", "INTEGER", "the blocking call with most of the gap"},
                    {"waited_on_id", "INTEGER", "dependency: the op of another stream waited on"},
                    {"rank", "INTEGER", "the rank of a set's trace"}}) {}
    double rowEstimate() const override { return 1000; }
    uint64_t rowCount() const override { return made().total(); }
    void value(sqlite3_context* ctx, uint64_t row, int col) const override {
        size_t s, i;
        made().locate(row, &s, &i);
        const GapCauses& gc = sources_.analysis(s).gapCauses();
        const bool device = i < gc.deviceGaps.size();
        const ExplainedGap& g = device ? gc.deviceGaps[i] : gc.streamGaps[i - gc.deviceGaps.size()];
        auto slice = [&](SliceRef r) {
            r.valid() ? resultInt(ctx, sources_.sliceId(s, r)) : resultNull(ctx);
        };
        auto part = [&](GapPartKind k) {
            g.breakdown.known ? resultInt(ctx, g.breakdown.of(k)) : resultNull(ctx);
        };
        switch (col) {
        case 0:
            return resultStaticText(ctx, device ? "device" : "stream");
        case 1:
            return resultInt(ctx, g.gap.device);
        case 2:
            return resultId(ctx, device ? -1 : g.gap.stream);
        case 3:
            return resultInt(ctx, g.gap.start);
        case 4:
            return resultInt(ctx, g.gap.duration());
        case 5:
            return resultInt(ctx, g.gap.end);
        case 6:
            return resultStaticText(ctx, gapCauseName(g.cause));
        case 7:
            return slice(g.gap.prev);
        case 8:
            return slice(g.gap.next);
        case 9:
            return slice(g.launch);
        case 10:
            return g.launchedLate ? resultInt(ctx, g.late) : resultNull(ctx);
        case 11:
            return part(GapPartKind::Blocked);
        case 12:
            return part(GapPartKind::Launch);
        case 13:
            return part(GapPartKind::Cpu);
        case 14:
            return part(GapPartKind::Untraced);
        case 15:
            return part(GapPartKind::Queued);
        case 16:
            return slice(g.blockingCall);
        case 17:
            return slice(g.waitedOn);
        default:
            return resultId(ctx, sources_[s].rank);
        }
    }

private:
    const PerSourceRows& made() const {
        return rows_.get([&] {
            PerSourceRows r;
            r.build(sources_, [&](size_t k) {
                const GapCauses& gc = sources_.analysis(k).gapCauses();
                return gc.deviceGaps.size() + gc.streamGaps.size();
            });
            return r;
        });
    }
    ComputedOnce<PerSourceRows> rows_;
};

class SectionsTable : public RowTable {
public:
    explicit SectionsTable(const QuerySources& s)
        : RowTable(s, "sections", "in-kernel timer sections: one row per section sample",
                   {{"kernel", "TEXT", "the kernel's name"},
                    {"correlation", "INTEGER", "its launch's correlation id"},
                    {"device", "INTEGER", "GPU device"},
                    {"section", "TEXT", "the section's name"},
                    {"block", "INTEGER", "linear block index"},
                    {"warp", "INTEGER", "warp in the block (0: one recorder per block)"},
                    {"sm", "INTEGER", "SM it ran on (NULL when not recorded)"},
                    {"iteration", "INTEGER", "the block's entries into the section before"},
                    {"ts", "INTEGER", "start, device ns (NULL when not recorded)"},
                    {"dur", "INTEGER", "length, ns (cycles / clock where only cycles)"},
                    {"cycles", "INTEGER", "length in clock64() cycles"},
                    {"rank", "INTEGER", "the rank of a set's trace"}}) {
        std::vector<std::vector<uint64_t>> counts;
        for (size_t k = 0; k < s.size(); ++k) {
            auto& c = counts.emplace_back();
            for (const SectionSet& set : s.trace(k).sections()) c.push_back(set.samples.size());
        }
        ids_ = QueryIdSpace(counts);
    }
    uint64_t rowCount() const override { return ids_.total(); }
    void value(sqlite3_context* ctx, uint64_t row, int col) const override {
        size_t s;
        uint32_t k, i;
        if (!ids_.locate(int64_t(row), &s, &k, &i)) return resultNull(ctx);
        const SectionSet& set = sources_.trace(s).sections()[k];
        const SectionSample& x = set.samples[i];
        switch (col) {
        case 0:
            return resultText(ctx, set.kernel);
        case 1:
            return resultId(ctx, set.correlation);
        case 2:
            return resultId(ctx, set.device);
        case 3:
            return resultText(ctx, set.nameOf(x.section));
        case 4:
            return resultInt(ctx, x.block);
        case 5:
            return resultInt(ctx, x.warp);
        case 6:
            return set.hasTimes ? resultInt(ctx, x.sm) : resultNull(ctx);
        case 7:
            return resultInt(ctx, x.iteration);
        case 8:
            return set.hasTimes ? resultInt(ctx, x.startNs) : resultNull(ctx);
        case 9:
            return resultInt(ctx, set.hasTimes ? x.endNs - x.startNs
                                               : int64_t(set.toNs(double(x.cycles))));
        case 10:
            return resultInt(ctx, x.cycles);
        default:
            return resultId(ctx, sources_[s].rank);
        }
    }

private:
    QueryIdSpace ids_;
};

} // namespace

std::unique_ptr<QueryTable> makeStepsTable(const QuerySources& s) {
    return std::make_unique<StepsTable>(s);
}
std::unique_ptr<QueryTable> makeGapsTable(const QuerySources& s) {
    return std::make_unique<GapsTable>(s);
}
std::unique_ptr<QueryTable> makeSectionsTable(const QuerySources& s) {
    return std::make_unique<SectionsTable>(s);
}

} // namespace strata
