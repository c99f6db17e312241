#include "modes/screenshot_options.h"

#include "model/names/time_text.h"

#include <cstdio>

namespace strata {

namespace {
QCommandLineOption valued(const char* name, const char* help, const char* value) {
    return QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help),
                              QString::fromLatin1(value));
}
QCommandLineOption flag(const char* name, const char* help) {
    return QCommandLineOption(QString::fromLatin1(name), QString::fromUtf8(help));
}
} // namespace

ScreenshotCommandLine::ScreenshotCommandLine()
    : shot(valued("screenshot", "Render the window to OUT.png and exit.", "OUT.png")),
      size(valued("size", "Window size for --screenshot (default 1600x1000).", "WxH")),
      range(valued("range", "Visible time range for --screenshot, trace-relative (e.g. 1.5ms:3ms).",
                   "START:END")),
      selectRange(valued("select-range",
                         "With --screenshot: select this range (fills the Range table).",
                         "START:END")),
      find(valued("find", "With --screenshot: find slices named TEXT and select the first.",
                  "TEXT")),
      labels(
          flag("print-track-labels", "With --screenshot: print how many track labels are drawn.")),
      sections(valued("sections",
                      "With --screenshot: import this timer-sections file (.npy, .csv, .json, "
                      ".sections) into the trace (the Sections dock).",
                      "FILE")),
      sectionsTab(valued("sections-tab",
                         "With --screenshot: render the Sections dock on this tab (table, box, "
                         "iterations, heatmap, sm).",
                         "TAB")),
      sectionsChoice(valued("sections-choice",
                            "With --sections-tab: show the Sections dock's N-th choice (0 = "
                            "first).",
                            "N")),
      selectBlock(valued("select-block",
                         "With --sections-tab: select row N of the slowest blocks (0 = slowest).",
                         "N")),
      expandSections(flag("expand-sections",
                          "With --screenshot: open the timeline's in-kernel section SM lanes.")),
      dock(valued("dock",
                  "With --screenshot: render this analysis dock alone (gaps, stats[:TAB], "
                  "roofline, calltree[:samples|:native[:functions]][:bottomup|:gpu], "
                  "ranks[:steps|:collectives|:roles[:overlap]], "
                  "compare[:ops|:copies|:sections|:gpus|:steps]).",
                  "NAME")),
      utilisation(flag("utilisation", "With --screenshot: show the GPU utilisation rows.")),
      queues(flag("queues", "With --screenshot: show the launch queue rows.")),
      foldRanks(valued("fold-ranks",
                       "With --screenshot of a set: fold these ranks (by position, 0 = the "
                       "first) into one summary row each.",
                       "N,N...")),
      whileLoading(flag("while-loading",
                        "With --screenshot: the window while the trace loads, when the "
                        "timeline draws its second picture of what has been read (a large "
                        "JSON trace), then quit.")),
      frames(flag("frames",
                  "With --screenshot: open FILE in the background as File > Open does and print "
                  "when the picture was painted and whole, the GUI thread's longest stall after "
                  "the first paint and the frame times of a zoom and pan sweep.")),
      hoverGap(flag("hover-gap",
                    "With --screenshot: hover the longest GPU gap in view and show its tooltip.")),
      hoverIdleRow(flag("hover-idle-row",
                        "With --screenshot: hover the first GPU idle row outside a gap and show "
                        "the device's GPU time breakdown in its tooltip.")),
      hoverSample(flag("hover-sample",
                       "With --screenshot: hover the first thread's sample lane 40 % across the "
                       "view and show the sampled stack's tooltip.")),
      shiftGpu(flag("shift-gpu",
                    "With --screenshot: shift the GPU by the clock offset the trace shows (the "
                    "status bar's \u201cShift the GPU by\u201d), then render.")),
      criticalPath(valued("critical-path",
                          "With --screenshot: the critical path (HTA's rule) of step N (0 = the "
                          "first), of the whole trace (trace) or of --select-range (range): the "
                          "Statistics dock on its Critical Path tab, the path highlighted on the "
                          "timeline, zoomed to its window unless --range says otherwise.",
                          "N|trace|range")),
      query(valued("query",
                   "With --screenshot: the Query dock under the timeline with the rows of SQL, "
                   "every row's slice highlighted on the timeline and the first row's selected.",
                   "SQL")),

      notes(
          valued("notes",
                 "With --screenshot: the notes, flags and track arrangement of this notes file "
                 "(FILE.strata-notes.json, docs/timeline.md) shown on the timeline (not written).",
                 "NOTES.json")) {}

void ScreenshotCommandLine::addTo(QCommandLineParser& parser) const {
    parser.addOptions({shot,           size,         range,       selectRange,    find,
                       labels,         sections,     sectionsTab, sectionsChoice, selectBlock,
                       expandSections, dock,         utilisation, queues,         foldRanks,
                       whileLoading,   frames,       hoverGap,    hoverIdleRow,   hoverSample,
                       shiftGpu,       criticalPath, query,       notes});
}

bool ScreenshotCommandLine::read(const QCommandLineParser& parser, const QStringList& files,
                                 ScreenshotOptions* o) const {
    o->output = parser.value(shot);
    if (files.isEmpty()) {
        std::fprintf(stderr, "strata: --screenshot needs a FILE (several: the ranks of a job)\n");
        return false;
    }
    o->trace = files.front();
    o->traces = files;
    if (parser.isSet(size) && !parseWindowSize(parser.value(size), &o->size)) {
        std::fprintf(stderr, "strata: --size expects WxH (e.g. 1600x1000), got '%s'\n",
                     qPrintable(parser.value(size)));
        return false;
    }
    // An optional START:END option into *out; false (with a message) if it is malformed.
    auto rangeOption = [&](const QCommandLineOption& opt, const char* name,
                           std::optional<TimeRange>* out) {
        if (!parser.isSet(opt)) return true;
        std::string error;
        *out = parseTimeRange(parser.value(opt).toStdString(), &error);
        if (!*out) std::fprintf(stderr, "strata: %s: %s\n", name, error.c_str());
        return out->has_value();
    };
    if (!rangeOption(range, "--range", &o->range) ||
        !rangeOption(selectRange, "--select-range", &o->selectRange))
        return false;
    o->find = parser.value(find);
    o->printTrackLabels = parser.isSet(labels);
    o->sections = parser.value(sections);
    o->sectionsTab = parser.value(sectionsTab);
    o->sectionsChoice = parser.isSet(sectionsChoice) ? parser.value(sectionsChoice).toInt() : -1;
    o->selectBlock = parser.isSet(selectBlock) ? parser.value(selectBlock).toInt() : -1;
    o->expandSections = parser.isSet(expandSections);
    o->dock = parser.value(dock);
    o->utilisation = parser.isSet(utilisation);
    o->queues = parser.isSet(queues);
    o->whileLoading = parser.isSet(whileLoading);
    o->frames = parser.isSet(frames);
    o->hoverGap = parser.isSet(hoverGap);
    o->hoverIdleRow = parser.isSet(hoverIdleRow);
    o->hoverSample = parser.isSet(hoverSample);
    o->shiftGpu = parser.isSet(shiftGpu);
    o->criticalPath = parser.value(criticalPath);
    o->query = parser.value(query);
    o->notes = parser.value(notes);
    for (const QString& n : parser.value(foldRanks).split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int rank = n.toInt(&ok);
        if (!ok || rank < 0) {
            std::fprintf(stderr, "strata: --fold-ranks: '%s' is not a rank position\n",
                         qPrintable(n));
            return false;
        }
        o->foldRanks.push_back(rank);
    }
    return true;
}

QStringList ScreenshotCommandLine::strayOptions(const QCommandLineParser& parser) const {
    QStringList stray;
    for (const QCommandLineOption* opt : {&size, &range, &labels})
        if (parser.isSet(*opt)) stray << "--" + opt->names().front();
    return stray;
}

bool parseWindowSize(const QString& s, QSize* out) {
    const QStringList parts = s.toLower().split(QLatin1Char('x'));
    if (parts.size() != 2) return false;
    bool okW = false, okH = false;
    const int w = parts[0].toInt(&okW), h = parts[1].toInt(&okH);
    if (!okW || !okH || w < 200 || h < 150 || w > 10000 || h > 10000) return false;
    *out = QSize(w, h);
    return true;
}

} // namespace strata
