#include "details_panel.h"

#include "analysis/correlation.h"
#include "analysis/graphs/graph_replays.h"
#include "analysis/ops/gpu_metric_means.h"
#include "analysis/ops/launch_sites.h"
#include "model/names/cupti_names.h"
#include "panels/graph_topology_rows.h"

#include "model/names/time_text.h"
#include "model/names/track_names.h"
#include "style/frame_text.h"
#include "style/qt_text.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace strata {

namespace {

constexpr int kLinkTrackRole = Qt::UserRole + 1;
constexpr int kLinkIndexRole = Qt::UserRole + 2;
constexpr size_t kMaxLinksPerGroup = 50;

QString dur(TimeNs t) {
    return QString::fromStdString(formatPreciseDuration(t));
}

QString dims(const std::array<int32_t, 3>& d) {
    return QStringLiteral("[%1, %2, %3]").arg(d[0]).arg(d[1]).arg(d[2]);
}

QString bytesText(int64_t b) {
    if (b < 1024) return QStringLiteral("%1 B").arg(b);
    if (b < 1024 * 1024) return QStringLiteral("%1 KiB (%2 B)").arg(b / 1024.0, 0, 'f', 1).arg(b);
    return QStringLiteral("%1 MiB (%2 B)").arg(b / (1024.0 * 1024.0), 0, 'f', 2).arg(b);
}

} // namespace

DetailsPanel::DetailsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), trace_(workspace->current()),
      title_(new QLabel(this)), tree_(new QTreeWidget(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    // The full name, wrapped: kernel names are long (templates) and the tree would elide them.
    title_->setObjectName(QStringLiteral("detailsTitle"));
    title_->setWordWrap(true);
    title_->setTextFormat(Qt::RichText);
    title_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    title_->setContentsMargins(6, 4, 6, 2);
    QFont tf = title_->font();
    tf.setBold(true);
    title_->setFont(tf);
    layout->addWidget(title_);
    // Right-click or Ctrl+C on the title copies the whole name (templated kernel names run to
    // hundreds of characters).
    auto* copy = new QAction(tr("Copy Name"), title_);
    copy->setObjectName(QStringLiteral("copySliceName"));
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, [this] {
        if (trace_ && slice_.valid())
            QGuiApplication::clipboard()->setText(toQString(trace_->name(slice_)));
    });
    title_->addAction(copy);
    title_->setContextMenuPolicy(Qt::ActionsContextMenu);
    layout->addWidget(tree_);
    tree_->setColumnCount(2);
    tree_->setHeaderLabels({tr("Field"), tr("Value")});
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(true);
    tree_->setRootIsDecorated(true);
    tree_->setAlternatingRowColors(true);
    tree_->setWordWrap(false); // long values elide at their end; the tooltip has them whole
    tree_->setTextElideMode(Qt::ElideRight);
    tree_->setSelectionMode(QAbstractItemView::SingleSelection);
    tree_->setMouseTracking(true);
    connect(tree_, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item, int) { activate(item); });
    connect(tree_, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item, int) { activate(item); });
    showSlice({});
}

void DetailsPanel::activate(QTreeWidgetItem* item) {
    const SliceRef target = linkTarget(item);
    if (!target.valid()) return;
    emit sliceActivated(target);
    navigation()->setSelectedSlice(workspace()->ref(target), true);
    showSlice(target); // also when it was selected already
}

void DetailsPanel::traceChanged(const std::shared_ptr<const Trace>& trace) {
    trace_ = trace;
    showSlice({});
}

void DetailsPanel::selectedSliceChanged(const TraceSliceRef& r) {
    showSlice(r.trace == workspace()->currentId() ? r.slice : SliceRef{});
}

QTreeWidgetItem* DetailsPanel::section(const QString& title) {
    auto* item = new QTreeWidgetItem(tree_, {title});
    QFont f = item->font(0);
    f.setBold(true);
    item->setFont(0, f);
    item->setFirstColumnSpanned(true);
    item->setExpanded(true);
    return item;
}

QTreeWidgetItem* DetailsPanel::row(QTreeWidgetItem* parent, const QString& field,
                                   const QString& value) {
    auto* item = new QTreeWidgetItem(parent, {field, value});
    item->setToolTip(1, value);
    return item;
}

QTreeWidgetItem* DetailsPanel::link(QTreeWidgetItem* parent, const QString& field,
                                    SliceRef target) {
    // The time first and whole, then the name (elided at its end when the dock is narrow: names
    // are elided, numbers never); the track is in the tooltip.
    const QString text = QStringLiteral("%1 \u00b7 %2")
                             .arg(dur(trace_->start(target) - trace_->bounds().start),
                                  toQString(trace_->name(target)));
    QTreeWidgetItem* item = row(parent, field, text);
    item->setData(1, kLinkTrackRole, target.track);
    item->setData(1, kLinkIndexRole, target.index);
    QFont f = item->font(1);
    f.setUnderline(true);
    item->setFont(1, f);
    item->setForeground(1, palette().brush(QPalette::Link));
    item->setToolTip(
        1,
        tr("Click to select: %1 (%2)").arg(text, toQString(trackFullName(*trace_, target.track))));
    return item;
}

SliceRef DetailsPanel::linkTarget(const QTreeWidgetItem* item) {
    if (!item) return {};
    const QVariant t = item->data(1, kLinkTrackRole), i = item->data(1, kLinkIndexRole);
    if (!t.isValid() || !i.isValid()) return {};
    return SliceRef{t.toUInt(), i.toUInt()};
}

void DetailsPanel::showSlice(SliceRef r) {
    tree_->clear();
    title_->clear();
    title_->hide();
    slice_ = {};
    if (!trace_ || !r.valid() || r.track >= trace_->tracks().size() ||
        r.index >= trace_->track(r.track).slices.size()) {
        auto* hint =
            new QTreeWidgetItem(tree_, {tr("Click a slice in the timeline to see its details.")});
        hint->setFirstColumnSpanned(true);
        hint->setDisabled(true);
        return;
    }
    slice_ = r;
    // Break opportunities (zero-width spaces) after "::", "<" and "," so that long template
    // names wrap inside the dock instead of widening it.
    QString title = toQString(trace_->name(r)).toHtmlEscaped();
    title.replace(QStringLiteral("::"), QStringLiteral("::\u200b"));
    title.replace(QStringLiteral("&lt;"), QStringLiteral("&lt;\u200b"));
    title.replace(QStringLiteral(","), QStringLiteral(",\u200b"));
    title_->setText(title);
    title_->setToolTip(toQString(trace_->name(r))); // the whole name, however long
    title_->show();
    addSliceRows(r);
    addLaunchRows(r);
    addCallSiteRow(r);
    addCorrelatedRows(r, addGraphReplayRows(r));
    addGpuMetricRows(r);
    tree_->expandAll();
}

void DetailsPanel::showSample(int thread, quint64 index) {
    showSlice({});
    if (!trace_) return;
    const StackSamples& ss = trace_->stackSamples();
    if (thread < 0 || size_t(thread) >= ss.threads.size() || index >= ss.threads[thread].count)
        return;
    tree_->clear();
    const SampleThread& th = ss.threads[size_t(thread)];
    const size_t at = th.first + index;
    title_->setText(tr("Stack sample"));
    title_->show();
    QTreeWidgetItem* s = section(tr("Sample"));
    row(s, tr("Thread"), toQString(threadRowName(*trace_, th.pid, th.tid)));
    row(s, tr("Time"), dur(ss.ts[at] - trace_->bounds().start));
    row(s, tr("Kind"), toQString(stackKindName(ss.kind[at])));
    const std::vector<StringId> stack = ss.stackAt(th, index);
    QTreeWidgetItem* frames = section(tr("Stack (innermost first)"));
    if (stack.empty()) row(frames, tr("Frame"), tr("(no frame)"));
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) // 0: the innermost
        row(frames, QString::number(it - stack.rbegin()), sampleFrameText(trace_->str(*it)));
    tree_->expandAll();
}

void DetailsPanel::addSliceRows(SliceRef r) {
    const Trace& t = *trace_;
    const SliceColumns& c = t.track(r.track).slices;
    QTreeWidgetItem* s = section(tr("Slice"));
    row(s, tr("Name"), toQString(t.name(r)));
    row(s, tr("Category"), toQString(t.str(c.category[r.index])));
    row(s, tr("Kind"), toQString(sliceKindName(c.kind[r.index])));
    row(s, tr("Track"), toQString(trackFullName(t, r.track)));
    row(s, tr("Start"), dur(c.start[r.index] - t.bounds().start));
    row(s, tr("Duration"), dur(c.dur[r.index]));
    row(s, tr("Self time"), dur(c.selfTime(r.index)));
    row(s, tr("Depth"), QString::number(c.depth[r.index]));
    if (c.flags[r.index] & kSliceClosedAtEnd)
        row(s, tr("Note"), tr("begin without end; closed at the trace end"));

    const std::vector<Arg> args = t.args(c.args[r.index]);
    if (!args.empty()) {
        QTreeWidgetItem* a = section(tr("Arguments"));
        for (const Arg& arg : args) {
            QString v;
            if (arg.value.type == ArgValue::Type::Double)
                v = QString::number(arg.value.d, 'g', 10);
            else if (arg.value.type == ArgValue::Type::Json)
                v = QString::fromStdString(arg.value.toString()).simplified(); // one line
            else
                v = QString::fromStdString(arg.value.toString());
            row(a, toQString(t.str(arg.key)), v);
        }
    }
}

void DetailsPanel::addLaunchRows(SliceRef r) {
    const Trace& t = *trace_;
    const GpuActivity* g = t.gpu(r);
    const SliceExtra* e = t.extra(r);
    if (!g && !e) return;
    QTreeWidgetItem* s = section(g ? tr("GPU activity") : tr("Correlation ids"));
    if (g) {
        row(s, tr("Device"), QString::number(g->device));
        row(s, tr("Stream"), QString::number(g->stream));
        if (g->context >= 0) row(s, tr("Context"), QString::number(g->context));
        const SliceKind k = t.kind(r);
        if (k == SliceKind::Kernel || g->grid[0] > 0) {
            // A launch configuration the trace does not carry is "not recorded", never zeros.
            const QString none = tr("\u2014 (not recorded)");
            const bool known = g->grid[0] > 0 && g->block[0] > 0;
            row(s, tr("Grid"), known ? dims(g->grid) : none);
            row(s, tr("Block"), known ? dims(g->block) : none);
            const int64_t threads = int64_t(g->grid[0]) * g->grid[1] * g->grid[2] * g->block[0] *
                                    g->block[1] * g->block[2];
            row(s, tr("Threads"), known ? QString::number(threads) : none);
            row(s, tr("Registers per thread"),
                g->registersPerThread >= 0 ? QString::number(g->registersPerThread) : none);
            // Kineto's "shared memory" is one number (kept as static); CUPTI gives both.
            if (g->staticSharedBytes >= 0)
                row(s,
                    g->dynamicSharedBytes >= 0 ? tr("Static shared memory") : tr("Shared memory"),
                    bytesText(g->staticSharedBytes));
            if (g->dynamicSharedBytes >= 0)
                row(s, tr("Dynamic shared memory"), bytesText(g->dynamicSharedBytes));
        }
        if (g->bytes >= 0) {
            row(s, tr("Bytes"), bytesText(g->bytes));
            const TimeNs d = t.duration(r);
            if (d > 0)
                row(s, tr("Bandwidth"),
                    QStringLiteral("%1 GB/s").arg(double(g->bytes) / double(d), 0, 'f', 2));
        }
        if (g->copyKind) {
            const std::string_view n = copyKindName(g->copyKind);
            row(s, tr("Copy kind"), n.empty() ? QStringLiteral("unknown") : toQString(n));
        }
        if (g->graphId >= 0) row(s, tr("CUDA graph"), QString::number(g->graphId));
        if (g->graphNodeId >= 0) row(s, tr("Graph node"), QString::number(g->graphNodeId));
    }
    if (e && e->correlation >= 0) row(s, tr("Correlation id"), QString::number(e->correlation));
    if (const int64_t x = t.externalId(r); x >= 0) row(s, tr("External id"), QString::number(x));
}

void DetailsPanel::addCallSiteRow(SliceRef r) {
    const Trace& t = *trace_;
    const bool gpuOp = t.track(r.track).kind == TrackKind::GpuStream;
    if (!gpuOp && !isLaunchApiKind(t.kind(r))) return;
    const SliceRef frame = pythonCallSiteOf(t, r);
    if (!frame.valid()) return;
    // "file:line function", a link to the frame (its full name and track in the tooltip).
    QTreeWidgetItem* item = row(section(tr("Python")), tr("Python call site"),
                                QString::fromStdString(callSiteText(t.name(frame))));
    item->setData(1, kLinkTrackRole, frame.track);
    item->setData(1, kLinkIndexRole, frame.index);
    QFont f = item->font(1);
    f.setUnderline(true);
    item->setFont(1, f);
    item->setForeground(1, palette().brush(QPalette::Link));
    item->setToolTip(1,
                     tr("%1: the innermost frame of the program's own code around %2. Click "
                        "to select it (%3).")
                         .arg(toQString(t.name(frame)), gpuOp ? tr("its launch") : tr("this call"),
                              toQString(trackFullName(t, frame.track))));
}

// What the GPU's counters said while a kernel, copy or set ran (analysis/ops/gpu_metric_means.h).
void DetailsPanel::addGpuMetricRows(SliceRef r) {
    const Trace& t = *trace_;
    if (!isGpuBusyKind(t.track(r.track).slices.kind[r.index])) return;
    const std::vector<GpuMetricRow> rows = gpuMetricRows(t); // a pass over the tracks
    if (rows.empty()) return;
    const std::vector<MetricMean> means = gpuMetricMeans(t, rows, r);
    QTreeWidgetItem* s = section(tr("GPU metrics while it ran (mean)"));
    if (means.empty()) row(s, tr("Metrics"), tr("no sample of its GPU while it ran"));
    const TimeNs d = t.duration(r);
    for (const MetricMean& m : means)
        row(s, toQString(m.metric),
            m.coveredNs < d ? tr("%1  (over %2 of its %3)")
                                  .arg(QString::number(m.mean, 'g', 4), dur(m.coveredNs), dur(d))
                            : QString::number(m.mean, 'g', 4));
}

std::vector<SliceRef> DetailsPanel::addGraphReplayRows(SliceRef r) {
    const Trace& t = *trace_;
    const std::optional<GraphReplay> g = graphReplayOf(t, r);
    if (!g) return {};
    QTreeWidgetItem* s = section(tr("CUDA graph replay"));
    row(s, tr("Graph"),
        g->graphId >= 0 ? QString::number(g->graphId) : tr("\u2014 (not recorded)"));
    std::vector<SliceRef> shown;
    if (g->launch != r) {
        link(s, tr("Launched by"), g->launch);
        shown.push_back(g->launch);
    }
    row(s, tr("Nodes"), QString::number(g->nodes.size()));
    if (g->nodes.empty()) return shown;
    row(s, tr("GPU span"), dur(g->span.duration()));
    row(s, tr("Launch to first node"), dur(g->span.start - t.start(g->launch)));
    // Each node in the order it ran: its id, and where it started in the replay.
    for (size_t i = 0; i < g->nodes.size() && i < kMaxLinksPerGroup; ++i) {
        const SliceRef n = g->nodes[i];
        const GpuActivity* a = t.gpu(n);
        const QString id = a && a->graphNodeId >= 0 ? QString::number(a->graphNodeId) : tr("?");
        QTreeWidgetItem* item =
            link(s, n == r ? tr("Node %1 (this one)").arg(id) : tr("Node %1").arg(id), n);
        item->setText(
            1, tr("+%1 \u00b7 %2 for %3")
                   .arg(dur(t.start(n) - g->span.start), toQString(t.name(n)), dur(t.duration(n))));
        shown.push_back(n);
    }
    if (g->nodes.size() > kMaxLinksPerGroup)
        row(s, tr("More nodes"), QString::number(g->nodes.size() - kMaxLinksPerGroup));
    const std::vector<DetailRow> topology = graphTopologyRows(t, *g, r, kMaxLinksPerGroup);
    QTreeWidgetItem* ts = topology.empty() ? nullptr : section(tr("Graph topology"));
    for (const DetailRow& x : topology) {
        if (x.target.valid())
            link(ts, x.field, x.target)->setText(1, x.value);
        else
            row(ts, x.field, x.value);
    }
    return shown;
}

void DetailsPanel::addCorrelatedRows(SliceRef r, std::vector<SliceRef> shown) {
    const Trace& t = *trace_;
    const SliceRelations rel = relationsOf(t, r, kMaxLinksPerGroup);
    QTreeWidgetItem* s = nullptr;
    auto sec = [&] { return s ? s : (s = section(tr("Correlated"))); };
    shown.push_back(r);
    auto once = [&](SliceRef x) {
        if (!x.valid() || std::find(shown.begin(), shown.end(), x) != shown.end()) return false;
        shown.push_back(x);
        return true;
    };
    if (once(rel.launchedBy)) link(sec(), tr("Launched by"), rel.launchedBy);
    for (SliceRef op : rel.launched)
        if (once(op)) link(sec(), tr("Launched"), op);
    for (SliceRef x : rel.sameExternalId)
        if (once(x)) link(sec(), tr("Same External id"), x);
    for (const FlowLink& f : rel.flows) {
        if (!once(f.other)) continue;
        const QString cat = toQString(t.str(f.category));
        link(sec(), f.outgoing ? tr("Flow to (%1)").arg(cat) : tr("Flow from (%1)").arg(cat),
             f.other);
    }
    // The innermost enclosing slice first: the one people want.
    for (size_t k = 0; k < rel.enclosing.size(); ++k)
        if (once(rel.enclosing[k]))
            link(sec(), k == 0 ? tr("Parent") : tr("Enclosing"), rel.enclosing[k]);
}

QString DetailsPanel::value(const QString& field, const QString& sectionTitle) const {
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* s = tree_->topLevelItem(i);
        if (!sectionTitle.isEmpty() && s->text(0) != sectionTitle) continue;
        for (int j = 0; j < s->childCount(); ++j) {
            if (s->child(j)->text(0) == field) return s->child(j)->text(1);
        }
    }
    return {};
}

QList<QTreeWidgetItem*> DetailsPanel::linkItems() const {
    QList<QTreeWidgetItem*> out;
    for (QTreeWidgetItemIterator it(tree_); *it; ++it) {
        if (linkTarget(*it).valid()) out << *it;
    }
    return out;
}

} // namespace strata
