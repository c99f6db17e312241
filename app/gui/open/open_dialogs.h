#pragma once
// The file dialogs that make an OpenRequest (open_request.h): File ▸ Open (any file a reader
// reads; several files are the ranks of a job), Open Folder as Ranks, Add Ranks, Compare With,
// Import Timer Sections. Their file filters come from the reader registry (io/trace_reader.h),
// never written by hand. Each returns nothing when the user cancels.
#include "open/open_request.h"

#include <optional>

class QWidget;

namespace strata {

// The filters of the readers of `kinds` ("Chrome / Kineto trace JSON (plain or gzip) (*.json
// ...)"), led by one of all their files (`allName`), and "All files (*)".
enum class ReaderFiles { Any, WholeTraces, SectionsOnly };
QString readerFileFilters(ReaderFiles kinds, const QString& allName);

std::optional<OpenRequest> askToOpen(QWidget* parent, const QString& startFolder);
std::optional<OpenRequest> askForRanksFolder(QWidget* parent);
std::optional<OpenRequest> askForRanks(QWidget* parent, const QString& startFolder, bool add);
std::optional<OpenRequest> askToCompareWith(QWidget* parent, const QString& baseline);
// A timer array or .sections file, then its section names and clock rate (the import dialog,
// remembered per file when `remember`).
std::optional<OpenRequest> askForSections(QWidget* parent, bool remember);

} // namespace strata
