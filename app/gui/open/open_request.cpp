#include "open/open_request.h"

#include "io/digest_reader.h"
#include "io/trace_reader.h"
#include "workspace/rank_set.h"

#include <QDir>
#include <QFileInfo>

namespace strata {

namespace {

// The files a folder holds that a reader of whole traces recognises by name, by name.
QStringList traceFilesIn(const QString& folder) {
    QStringList globs;
    for (const TraceReader* r : traceReaders()) {
        if (r->kind == ReaderKind::Sections) continue;
        for (std::string_view e : r->extensions)
            globs << "*" + QString::fromUtf8(e.data(), qsizetype(e.size()));
    }
    QStringList out;
    const QDir dir(folder);
    for (const QString& name : dir.entryList(globs, QDir::Files, QDir::Name))
        out << dir.absoluteFilePath(name);
    return out;
}

QStringList expandFolders(const QStringList& paths) {
    QStringList files;
    for (const QString& p : paths) {
        if (QFileInfo(p).isDir())
            files << traceFilesIn(p);
        else
            files << QFileInfo(p).absoluteFilePath();
    }
    files.removeDuplicates();
    return files;
}

} // namespace

OpenRequest OpenRequest::trace(const QString& path, LoadOptions options) {
    return {Kind::Trace, {path}, std::move(options)};
}

OpenRequest OpenRequest::paths(const QStringList& paths) {
    return {Kind::Files, paths, {}};
}

OpenRequest OpenRequest::ranks(const QStringList& paths, bool add) {
    return {add ? Kind::AddRanks : Kind::Ranks, paths, {}};
}

OpenRequest OpenRequest::comparison(const QString& baseline, const QString& candidate) {
    return {Kind::Comparison, {baseline, candidate}, {}};
}

OpenRequest OpenRequest::resolved() const {
    OpenRequest r = *this;
    switch (kind) {
    case Kind::Trace:
    case Kind::Comparison:
        for (QString& f : r.files) f = QFileInfo(f).absoluteFilePath();
        return r;
    case Kind::Ranks:
    case Kind::AddRanks:
        r.files = expandFolders(files);
        return r;
    case Kind::Files:
        r.files = expandFolders(files);
        // A digest `strata-cli digest` wrote opens as a set of ranks even alone (told by its
        // first bytes, as the CLI tells it).
        r.kind = r.files.size() == 1 && !isDigestFile(r.files.front().toStdString()) ? Kind::Trace
                                                                                     : Kind::Ranks;
        return r;
    }
    return r;
}

QString OpenRequest::what() const {
    switch (kind) {
    case Kind::Ranks:
    case Kind::AddRanks:
        return rankCount(size_t(files.size()));
    case Kind::Comparison:
        return QObject::tr("%1 and %2")
            .arg(QFileInfo(files.value(0)).fileName(), QFileInfo(files.value(1)).fileName());
    default:
        return QFileInfo(files.value(0)).fileName();
    }
}

} // namespace strata
