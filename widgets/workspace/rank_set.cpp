#include "rank_set.h"

#include "analyses.h"
#include "io/set/digest_set.h"
#include "merged_set.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>

namespace strata {

namespace {

std::vector<SetRank> inRankOrder(std::vector<SetRank> ranks) {
    std::vector<RankIdentity> ids;
    for (const SetRank& r : ranks) ids.push_back(r.digest.identity);
    std::vector<SetRank> out;
    for (size_t i : rankOrder(ids)) out.push_back(std::move(ranks[i]));
    return out;
}

// The trace a digest names: as written when it is there (an absolute path, or relative to where
// the digest was made and the window was started), else beside the digest file.
QString tracePathOf(const RankDigest& digest, const QString& digestPath) {
    const QString named = QString::fromStdString(digest.file);
    if (QFileInfo(named).isAbsolute() || QFileInfo::exists(named))
        return QFileInfo(named).absoluteFilePath();
    const QString beside = QFileInfo(digestPath).dir().filePath(named);
    return QFileInfo::exists(beside) ? QFileInfo(beside).absoluteFilePath()
                                     : QFileInfo(named).absoluteFilePath();
}

} // namespace

QString rankCount(size_t n) {
    return n == 1 ? QObject::tr("1 rank") : QObject::tr("%1 ranks").arg(n);
}

RankSetLoad loadRankSet(const QStringList& paths, const AnalysisSettings& settings,
                        JobControl& control, const TraceCache* cache) {
    QElapsedTimer clock;
    clock.start();
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    DigestSetOptions options; // io/set/digest_set.h: the CLI's policy, one implementation
    options.keepTraces = true;
    options.load.cache = cache;
    options.load.storeInCache = false; // the window writes in the background (RankSetLoad::keep)
    options.cancelled = [&control] { return control.cancelled(); };
    options.progress = [&control](double f) { control.setProgress(f); };
    std::vector<SetDigest> digests = digestSet(files, settings, options);
    RankSetLoad out;
    for (size_t i = 0; i < digests.size(); ++i) {
        SetDigest& d = digests[i];
        if (d.cancelled) continue;
        if (!d.outcome.digest) {
            out.errors << QString::fromStdString(d.outcome.error);
            continue;
        }
        SetRank rank;
        rank.fromDigest = d.fromDigestFile;
        rank.path = rank.fromDigest ? tracePathOf(*d.outcome.digest, paths[qsizetype(i)])
                                    : paths[qsizetype(i)];
        rank.digest = std::move(*d.outcome.digest);
        out.fromCache += d.fromCache ? 1 : 0;
        if (d.cacheSource && d.trace) out.keep.push_back({d.trace, {}, {}, {}, d.cacheSource});
        rank.trace = std::move(d.trace);
        out.ranks.push_back(std::move(rank));
    }
    out.ms = clock.elapsed();
    return out;
}

RankSet::RankSet(Workspace* workspace)
    : QObject(workspace), workspace_(workspace), merge_(new JobRunner(this)),
      digest_(new JobRunner(this)) {
    connect(workspace_->analyses(), &Analyses::settingsChanged, this, &RankSet::redigest);
}

bool RankSet::fromDigests() const {
    return std::any_of(ranks_.begin(), ranks_.end(), [](const SetRank& r) { return r.fromDigest; });
}

QStringList RankSet::labels() const {
    // Told apart from the others' (rankLabels), from the ranks as they are: no state to keep.
    std::vector<RankIdentity> ids;
    std::vector<std::string> files;
    for (const SetRank& r : ranks_) {
        ids.push_back(r.digest.identity);
        files.push_back(r.path.toStdString());
    }
    QStringList out;
    for (const std::string& l : rankLabels(ids, files)) out << QString::fromStdString(l);
    return out;
}

QString RankSet::label(size_t i) const {
    return i < ranks_.size() ? labels()[qsizetype(i)] : QString();
}

void RankSet::setRanks(std::vector<SetRank> ranks, qint64 loadMs) {
    ranks_ = inRankOrder(std::move(ranks));
    loadMs_ = loadMs;
    request_ = AlignRequest{};
    update(false);
}

void RankSet::addRanks(std::vector<SetRank> ranks) {
    // A rank known only by its place among the files added takes a number past the set's, so
    // that no two ranks read the same.
    int64_t next = 0;
    for (const SetRank& r : ranks_) next = std::max(next, r.digest.identity.rank + 1);
    for (SetRank& r : ranks)
        if (r.digest.identity.source == RankSource::FileIndex) r.digest.identity.rank = next++;
    for (SetRank& r : ranks) ranks_.push_back(std::move(r));
    ranks_ = inRankOrder(std::move(ranks_));
    // Offsets set by hand stay with their ranks; a new rank is aligned from scratch.
    if (request_.method == AlignMethod::Manual) request_ = AlignRequest{};
    update(false);
}

void RankSet::removeRank(size_t index) {
    if (index >= ranks_.size()) return;
    ranks_.erase(ranks_.begin() + std::ptrdiff_t(index));
    if (request_.method == AlignMethod::Manual && index < request_.offsets.size())
        request_.offsets.erase(request_.offsets.begin() + std::ptrdiff_t(index));
    update(false);
}

void RankSet::setAlignment(AlignRequest request) {
    request_ = std::move(request);
    update(true);
}

void RankSet::setOffset(size_t index, TimeNs offset) {
    if (index >= ranks_.size()) return;
    AlignRequest r = request_;
    r.method = AlignMethod::Manual;
    r.offsets = report_.alignment.offsets;
    r.offsets.resize(ranks_.size());
    r.offsets[index] = offset;
    setAlignment(std::move(r));
}

void RankSet::clear() {
    merge_->cancel();
    digest_->cancel();
    if (ranks_.empty()) return;
    ranks_.clear();
    report_ = CrossRankReport{};
    layout_ = MergeLayout{};
    shownOffsets_.clear();
    emit changed();
}

void RankSet::redigest() {
    if (ranks_.empty() || fromDigests()) return; // digests keep the settings they were made with
    struct Input {
        std::shared_ptr<const Trace> trace;
        QString path;
    };
    std::vector<Input> inputs;
    for (const SetRank& r : ranks_) inputs.push_back({r.trace, r.path});
    const AnalysisSettings settings = workspace_->analyses()->settings();
    digest_->run(
        [inputs, settings](JobControl& control) {
            // The ranks held digested as they are; those let go read again (on all cores, each
            // digested and let go there).
            std::vector<std::string> files;
            DigestSetOptions options;
            for (const Input& in : inputs) {
                files.push_back(in.path.toStdString());
                options.traces.push_back(in.trace);
            }
            options.cancelled = [&control] { return control.cancelled(); };
            std::pair<std::vector<RankDigest>, QString> result;
            for (SetDigest& d : digestSet(files, settings, options)) {
                if (d.outcome.digest)
                    result.first.push_back(std::move(*d.outcome.digest));
                else if (!d.cancelled && result.second.isEmpty())
                    result.second = QString::fromStdString(d.outcome.error);
            }
            return result;
        },
        [this](std::pair<std::vector<RankDigest>, QString> result) {
            // A file that could not be read again: the digests shown stay, and that is said.
            if (!result.second.isEmpty()) {
                emit mergeFailed(
                    tr("The ranks could not be analysed again: %1").arg(result.second));
                return;
            }
            std::vector<RankDigest>& digests = result.first;
            if (digests.size() != ranks_.size()) return;
            for (size_t i = 0; i < digests.size(); ++i) ranks_[i].digest = std::move(digests[i]);
            update(true);
        });
}

void RankSet::update(bool sameTracks) {
    std::vector<RankDigest> digests;
    for (const SetRank& r : ranks_) digests.push_back(r.digest);
    report_ = crossRank(digests, request_);
    emit changed();
    if (ranks_.empty() || fromDigests()) {
        merge_->cancel();
        // Digests alone: their report is what the window shows, no trace.
        if (!ranks_.empty()) workspace_->showRankReport();
        return;
    }
    std::vector<TimeNs> offsets;
    for (const auto& o : report_.alignment.offsets) offsets.push_back(o.value_or(0));
    emit mergeStarted();
    const auto current = workspace_->current();
    if (sameTracks && current && !shownOffsets_.empty() &&
        layout_.partOfTrack.size() == current->tracks().size() &&
        shownOffsets_.size() == offsets.size()) {
        // The same ranks at other offsets: the merged trace's parts moved.
        std::vector<TimeNs> shift(offsets.size());
        for (size_t i = 0; i < offsets.size(); ++i) shift[i] = offsets[i] - shownOffsets_[i];
        showShifted(merge_, workspace_, layout_, std::move(shift),
                    [this, offsets](MergeLayout layout) { mergedAs(std::move(layout), offsets); });
        return;
    }
    std::vector<MergedPart> parts;
    const QStringList labels = this->labels();
    for (size_t i = 0; i < ranks_.size(); ++i)
        parts.push_back({ranks_[i].trace, labels[qsizetype(i)].toStdString(), offsets[i],
                         ranks_[i].path.toStdString()});
    showMerged(
        merge_, workspace_, std::move(parts),
        {Shown::Ranks, rankCount(ranks_.size()), QFileInfo(ranks_.front().path).absolutePath(),
         QStringLiteral("ranks"), loadMs_, sameTracks},
        [this, offsets](MergeLayout layout) { mergedAs(std::move(layout), offsets); },
        [this](const QString& why) { emit mergeFailed(why); });
}

void RankSet::mergedAs(MergeLayout layout, std::vector<TimeNs> offsets) {
    layout_ = std::move(layout);
    shownOffsets_ = std::move(offsets);
    for (SetRank& r : ranks_) r.trace.reset(); // the merged trace holds the set now
    emit merged();
}

} // namespace strata
