#include "merged_set.h"

#include "io/export/trace_set_merge.h"

namespace strata {

void showMerged(JobRunner* runner, Workspace* workspace, std::vector<MergedPart> parts,
                MergedView view, std::function<void()> done) {
    runner->run(
        // The parts hold their traces alive while the work reads them.
        [parts = std::move(parts), name = view.name.toStdString()](JobControl&) {
            std::vector<PerfettoExportPart> exported;
            for (const MergedPart& p : parts)
                exported.push_back({p.trace.get(), p.label, p.offset, p.source});
            return mergeTraceSet(exported, name);
        },
        [workspace, view = std::move(view), done = std::move(done)](LoadResult result) {
            if (!result.ok()) return;
            if (view.keepView && workspace->current())
                workspace->amendCurrent(result.trace);
            else
                workspace->replaceCurrent(result.trace, view.name, view.path, view.loadMs,
                                          view.format);
            done();
        });
}

} // namespace strata
