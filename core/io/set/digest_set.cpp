#include "io/set/digest_set.h"

#include "analysis/trace_analysis.h"
#include "io/digest_reader.h"
#include "util/parallel_for.h"

#include <atomic>
#include <exception>

namespace strata {

namespace {

// A set of more files than this has its heads read on two threads.
constexpr size_t kParallelHeads = 16;

std::string otherSettingsWarning(const std::string& file, const RankDigest& d) {
    return file + " was digested with a gap threshold of " + std::to_string(d.gapThreshold) +
           " ns and step name '" + (d.stepPrefix.empty() ? "ProfilerStep#" : d.stepPrefix) +
           "': its figures follow those, not the options given";
}

// The set's outcomes as they are made, from several threads (each file's by one of them).
class SetDigester {
public:
    SetDigester(const std::vector<std::string>& files, const AnalysisSettings& settings,
                const DigestSetOptions& options)
        : files_(files), settings_(settings), options_(options), out_(files.size()) {}

    bool cancelled() const { return options_.cancelled && options_.cancelled(); }

    // files[i]'s trace digested (or why not) into its outcome.
    void digest(size_t i, const std::shared_ptr<const Trace>& trace) {
        SetDigest& o = out_[i];
        o.outcome.file = files_[i];
        if (trace->sliceCount() == 0) { // truncated early, or not a profile
            o.outcome.error = files_[i] + ": no event could be read: nothing to digest";
            if (!trace->warnings().empty())
                o.outcome.error += " (" + trace->warnings().front() + ")";
        } else {
            try {
                o.outcome.digest =
                    digestTrace(TraceAnalysis(trace, settings_), files_[i], int64_t(i));
            } catch (const std::exception& e) {
                o.outcome.error = files_[i] + ": cannot digest: " + e.what();
            }
        }
        if (options_.keepTraces || (i < options_.traces.size() && options_.traces[i]))
            o.trace = trace;
        done();
    }

    // files[i] as its head says: a digest read, or the reader of its trace.
    const TraceReader* read(size_t i, SetFile file) {
        if (!file.digest) return file.reader;
        SetDigest& o = out_[i];
        o.outcome = std::move(*file.digest);
        o.fromDigestFile = true;
        if (o.outcome.file.empty()) o.outcome.file = files_[i];
        const std::optional<RankDigest>& d = o.outcome.digest;
        if (d &&
            (d->gapThreshold != settings_.gapThreshold || d->stepPrefix != settings_.stepPrefix))
            o.warning = otherSettingsWarning(files_[i], *d);
        done();
        return nullptr;
    }

    void loaded(size_t i, LoadResult& r) {
        if (r.ok()) {
            out_[i].cacheSource = r.cacheSource;
            out_[i].fromCache = !r.cacheFile.empty();
            digest(i, r.trace);
            r.trace.reset();
            return;
        }
        if (cancelled()) {
            out_[i].cancelled = true;
            return;
        }
        fail(i, r.error ? r.error->toString() : files_[i] + ": cannot load");
    }

    void fail(size_t i, std::string error) {
        out_[i].outcome.error = std::move(error);
        out_[i].outcome.file = files_[i];
        done();
    }

    std::vector<SetDigest> take() { return std::move(out_); }
    SetDigest& operator[](size_t i) { return out_[i]; }

private:
    void done() {
        const size_t n = ++done_;
        if (options_.progress) options_.progress(double(n) / double(files_.size()));
    }
    const std::vector<std::string>& files_;
    const AnalysisSettings& settings_;
    const DigestSetOptions& options_;
    std::vector<SetDigest> out_;
    std::atomic<size_t> done_{0};
};

bool finished(const SetDigest& o) {
    return o.outcome.digest || !o.outcome.error.empty();
}

} // namespace

std::vector<SetDigest> digestSet(const std::vector<std::string>& files,
                                 const AnalysisSettings& settings,
                                 const DigestSetOptions& options) {
    SetDigester set(files, settings, options);
    const bool parallel = options.load.threads != 1;
    // The traces in memory, digested as they are; every other file told by its head.
    std::vector<size_t> held, others;
    for (size_t i = 0; i < files.size(); ++i)
        (i < options.traces.size() && options.traces[i] ? held : others).push_back(i);
    parallelFor(held.size(), parallel, [&](size_t k) {
        if (!set.cancelled()) set.digest(held[k], options.traces[held[k]]);
    });
    std::vector<const TraceReader*> readers(files.size(), nullptr);
    parallelFor(others.size(), parallel && others.size() > kParallelHeads, [&](size_t k) {
        if (!set.cancelled())
            readers[others[k]] = set.read(others[k], recogniseSetFile(files[others[k]]));
    });
    // The traces loaded on all cores, each digested on the thread that loaded it.
    std::vector<std::string> traces;
    std::vector<size_t> which;
    TraceSetOptions load = options.load;
    load.readers.clear(); // of the traces' list
    for (size_t i : others) {
        if (finished(set[i])) continue;
        traces.push_back(files[i]);
        which.push_back(i);
        load.readers.push_back(readers[i]);
    }
    if (options.cancelled) {
        load.cancelled = [&set] { return set.cancelled(); };
        if (!load.load.progress) load.load.progress = [&set](double) { return !set.cancelled(); };
    }
    try {
        loadTraceSet(
            traces, [&](size_t k, LoadResult& r) { set.loaded(which[k], r); }, load);
    } catch (const std::exception& e) { // the loading threads have ended
        for (size_t k = 0; k < traces.size(); ++k)
            if (!finished(set[which[k]]) && !set[which[k]].cancelled)
                set.fail(which[k], traces[k] + ": cannot load: " + e.what());
    }
    std::vector<SetDigest> out = set.take();
    for (SetDigest& o : out)
        if (!finished(o)) o.cancelled = true; // never reached (only when cancelled)
    return out;
}

} // namespace strata
