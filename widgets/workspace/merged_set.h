#pragma once
// Several traces shown as one: the ranks of a job (rank_set.h), a baseline over a candidate
// (trace_comparison.h). The parts are merged off the GUI thread (core/io/set/trace_set_merge.h)
// and the result becomes what the workspace shows (Workspace::showSet): amended when `keepView`
// and a trace is shown (where the user is stays: another offset, another step), else shown as
// `what` under the view's name, file, format and load time.
#include "io/set/trace_set_merge.h"
#include "job_runner.h"
#include "workspace.h"

#include <QString>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace strata {

struct MergedPart {
    std::shared_ptr<const Trace> trace; // null: read from `source` first (a part let go)
    std::string label;                  // its groups' prefix: "rank 3", "candidate"
    TimeNs offset = 0;                  // added to its timestamps
    std::string source;
};

struct MergedView {
    Shown what = Shown::Ranks; // the content the merged trace is (Ranks, Comparison)
    QString name, path, format;
    qint64 loadMs = 0;
    bool keepView = false;
};

// Runs on `runner` (a newer run supersedes it); `done(layout)` after the workspace took the
// result, `failed(why)` when a part let go could not be read again.
void showMerged(JobRunner* runner, Workspace* workspace, std::vector<MergedPart> parts,
                MergedView view, std::function<void(MergeLayout)> done,
                std::function<void(QString)> failed = {});

// Another alignment of the merged trace the workspace shows, made from it alone
// (shiftMergedParts): part k moved by shift[k]. The view stays where it is.
void showShifted(JobRunner* runner, Workspace* workspace, MergeLayout layout,
                 std::vector<TimeNs> shift, std::function<void(MergeLayout)> done);

} // namespace strata
