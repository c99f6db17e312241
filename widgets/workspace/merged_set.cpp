#include "merged_set.h"

#include "io/set/trace_set_loader.h"

namespace strata {

namespace {

struct Merged {
    LoadResult result;
    MergeLayout layout;
};

// The parts let go read again from their files, on all cores; false (and `error`) when one
// cannot be.
bool readAgain(std::vector<MergedPart>& parts, std::string* error) {
    std::vector<std::string> paths;
    std::vector<size_t> which;
    for (size_t i = 0; i < parts.size(); ++i)
        if (!parts[i].trace) {
            paths.push_back(parts[i].source);
            which.push_back(i);
        }
    if (paths.empty()) return true;
    std::vector<LoadResult> loaded = loadTraces(paths);
    for (size_t k = 0; k < loaded.size(); ++k) {
        if (!loaded[k].ok()) {
            *error = loaded[k].error ? loaded[k].error->toString() : paths[k] + ": cannot load";
            return false;
        }
        parts[which[k]].trace = std::move(loaded[k].trace);
    }
    return true;
}

} // namespace

void showMerged(JobRunner* runner, Workspace* workspace, std::vector<MergedPart> parts,
                MergedView view, std::function<void(MergeLayout)> done,
                std::function<void(QString)> failed) {
    runner->run(
        // The parts hold their traces alive while the work reads them.
        [parts = std::move(parts), name = view.name.toStdString()](JobControl&) mutable {
            Merged m;
            std::string error;
            if (!readAgain(parts, &error)) {
                m.result.error = LoadError{name, LoadError::kInMessage, 0,
                                           "the set could not be merged again: " + error};
                return m;
            }
            std::vector<TracePart> exported;
            for (const MergedPart& p : parts)
                exported.push_back({p.trace.get(), p.label, p.offset, p.source});
            m.result = mergeTraceSet(exported, name, &m.layout);
            return m;
        },
        [workspace, view = std::move(view), done = std::move(done),
         failed = std::move(failed)](Merged m) {
            if (!m.result.ok()) {
                if (failed && m.result.error)
                    failed(QString::fromStdString(m.result.error->toString()));
                return;
            }
            if (view.keepView && workspace->current())
                workspace->amendCurrent(m.result.trace);
            else
                workspace->showSet(view.what, m.result.trace, view.name, view.path, view.loadMs,
                                   view.format);
            done(std::move(m.layout));
        });
}

void showShifted(JobRunner* runner, Workspace* workspace, MergeLayout layout,
                 std::vector<TimeNs> shift, std::function<void(MergeLayout)> done) {
    if (!workspace->current()) return;
    runner->run(
        [merged = workspace->current(), layout = std::move(layout),
         shift = std::move(shift)](JobControl&) mutable {
            Merged m;
            m.result.trace = shiftMergedParts(*merged, layout, shift);
            m.layout = std::move(layout);
            return m;
        },
        [workspace, done = std::move(done)](Merged m) {
            workspace->amendCurrent(m.result.trace);
            done(std::move(m.layout));
        });
}

} // namespace strata
