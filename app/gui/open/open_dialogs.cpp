#include "open/open_dialogs.h"

#include "io/trace_reader.h"
#include "open/sections_import_dialog.h"

#include <QDialog>
#include <QFileDialog>
#include <QFileInfo>
#include <QObject>

namespace strata {

QString readerFileFilters(ReaderFiles kinds, const QString& allName) {
    QStringList all, filters;
    for (const TraceReader* r : traceReaders()) {
        const bool sections = r->kind == ReaderKind::Sections;
        if ((kinds == ReaderFiles::WholeTraces && sections) ||
            (kinds == ReaderFiles::SectionsOnly && !sections))
            continue;
        QStringList globs;
        for (std::string_view e : r->extensions)
            globs << "*" + QString::fromUtf8(e.data(), qsizetype(e.size()));
        all << globs;
        filters << QStringLiteral("%1 (%2)").arg(
            QString::fromUtf8(r->description.data(), qsizetype(r->description.size())),
            globs.join(' '));
    }
    all.removeDuplicates();
    filters.prepend(QStringLiteral("%1 (%2)").arg(allName, all.join(' ')));
    filters << QObject::tr("All files (*)");
    return filters.join(QStringLiteral(";;"));
}

std::optional<OpenRequest> askToOpen(QWidget* parent, const QString& startFolder) {
    // Several files chosen at once open as the ranks of one job.
    const QStringList paths = QFileDialog::getOpenFileNames(
        parent, QObject::tr("Open Trace"), startFolder,
        readerFileFilters(ReaderFiles::Any, QObject::tr("Traces and timer sections")));
    if (paths.isEmpty()) return std::nullopt;
    return OpenRequest::paths(paths);
}

std::optional<OpenRequest> askForRanksFolder(QWidget* parent) {
    const QString dir =
        QFileDialog::getExistingDirectory(parent, QObject::tr("Open the Ranks of a Job"));
    if (dir.isEmpty()) return std::nullopt;
    return OpenRequest::ranks({dir});
}

std::optional<OpenRequest> askForRanks(QWidget* parent, const QString& startFolder, bool add) {
    const QStringList files = QFileDialog::getOpenFileNames(
        parent, add ? QObject::tr("Add Ranks") : QObject::tr("Open Ranks"), startFolder,
        readerFileFilters(ReaderFiles::WholeTraces, QObject::tr("Traces")));
    if (files.isEmpty()) return std::nullopt;
    return OpenRequest::ranks(files, add);
}

std::optional<OpenRequest> askToCompareWith(QWidget* parent, const QString& baseline) {
    const QString path = QFileDialog::getOpenFileName(
        parent, QObject::tr("Compare With"), QFileInfo(baseline).absolutePath(),
        readerFileFilters(ReaderFiles::WholeTraces, QObject::tr("Traces")));
    if (path.isEmpty()) return std::nullopt;
    return OpenRequest::comparison(baseline, path);
}

std::optional<OpenRequest> askForSections(QWidget* parent, bool remember) {
    const QString path = QFileDialog::getOpenFileName(
        parent, QObject::tr("Import Timer Sections"), {},
        readerFileFilters(ReaderFiles::SectionsOnly, QObject::tr("Timer sections")));
    if (path.isEmpty()) return std::nullopt;
    SectionsImportDialog ask(path, parent, remember);
    if (ask.exec() != QDialog::Accepted) return std::nullopt;
    return OpenRequest::trace(path, ask.options());
}

} // namespace strata
