#pragma once
// The command-line options of `strata --screenshot` (screenshot.h: ScreenshotOptions): declared
// on the GUI's parser and read back, each malformed value said on stderr.
#include "modes/screenshot.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

namespace strata {

class ScreenshotCommandLine {
public:
    ScreenshotCommandLine();
    void addTo(QCommandLineParser& parser) const;
    bool isSet(const QCommandLineParser& parser) const { return parser.isSet(shot); }
    // The options for one FILE; false (with a message on stderr) when something is malformed.
    bool read(const QCommandLineParser& parser, const QStringList& files,
              ScreenshotOptions* out) const;
    // Options that mean something only with --screenshot, set without it: their names.
    QStringList strayOptions(const QCommandLineParser& parser) const;

    const QCommandLineOption shot, size, range, selectRange, find, labels, sections, sectionsTab,
        sectionsChoice, selectBlock, expandSections, dock, utilisation, queues, foldRanks,
        whileLoading, frames, hoverGap, hoverIdleRow, hoverSample, shiftGpu, criticalPath, query,
        notes;
};

// "WxH" within 200x150 .. 10000x10000; false when malformed.
bool parseWindowSize(const QString& text, QSize* out);

} // namespace strata
