#pragma once
// What a window is asked to open: files and what to make of them. Every way of opening — File ▸
// Open, Open Recent, the sample, a drop, the command line, File ▸ Compare With / Add Ranks / Import
// Timer Sections, a recording that ended, --screenshot — makes one and hands it to the window's
// LoadController (load_controller.h), the one pipeline that loads it.
#include "io/load_result.h"

#include <QStringList>

namespace strata {

struct OpenRequest {
    enum class Kind {
        Files,      // what the files make (resolved(): one trace, or the ranks of a job)
        Trace,      // one file as one trace; timer sections alone attach to the trace shown
        Ranks,      // the files (and the trace files in folders) as the ranks of a job
        AddRanks,   // the same, joined to the ranks shown
        Comparison, // files[0] the baseline, files[1] the candidate
    };
    Kind kind = Kind::Files;
    QStringList files;
    LoadOptions options; // a timer array's section names and clock (Kind::Trace)

    static OpenRequest trace(const QString& path, LoadOptions options = {});
    // Files, folders: one trace when they are one file that is not a digest, else the ranks.
    static OpenRequest paths(const QStringList& paths);
    static OpenRequest ranks(const QStringList& paths, bool add = false);
    static OpenRequest comparison(const QString& baseline, const QString& candidate);

    // Kind::Files made Trace or Ranks, and every path absolute with the folders of a set replaced
    // by the trace files in them (by name: what a reader of whole traces takes). A set with no
    // file left has none (the controller says so).
    OpenRequest resolved() const;
    // What is loading, for the loading page and the status bar: "run.json", "8 ranks",
    // "a.json and b.json".
    QString what() const;
};

} // namespace strata
