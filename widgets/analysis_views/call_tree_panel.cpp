#include "call_tree_panel.h"

#include "call_tree_model.h"
#include "charts/chart_export.h"
#include "flame_graph.h"
#include "model/names/time_text.h"
#include "model/names/track_names.h"
#include "sample_profile_model.h"
#include "style/qt_text.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace strata {

CallTreePanel::CallTreePanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : AnalysisPanel(workspace, navigation, parent), source_(new QComboBox(this)),
      thread_(new QComboBox(this)), direction_(new QComboBox(this)),
      gpu_(new QCheckBox(tr("Flame widths by GPU time launched"), this)),
      search_(new QLineEdit(this)), view_(new QTreeView(this)), model_(new CallTreeModel(this)),
      flame_(new FlameGraph(this)), tabs_(new QTabWidget(this)), functions_(new QTableView(this)),
      profile_(new SampleProfileModel(this)), sampleSummary_(new QLabel(this)) {
    source_->addItems({tr("Calls"), tr("Samples"), tr("Native samples")});
    source_->setToolTip(tr("Calls: the recorded calls (slices); Samples: the sampled stacks "
                           "(counts in samples, times = samples x the sampling period), a "
                           "Python thread's Python ones; Native samples: the native (C/C++) "
                           "stacks alone, where the trace has both"));
    direction_->addItems({tr("Top-down"), tr("Bottom-up")});
    search_->setPlaceholderText(tr("Highlight names containing…"));
    view_->setToolTip(tr("With a range selected: the CPU slices that start in it, counted whole."));
    search_->setClearButtonEnabled(true);
    search_->setToolTip(tr("Highlight the frames whose names contain this text"));
    thread_->setToolTip(tr("The thread whose call tree (or flame graph) is shown"));
    direction_->setToolTip(tr("Top-down: from the outermost frames; bottom-up: from where the "
                              "time was spent, to who called it"));
    gpu_->setToolTip(tr("Flame graph widths by the GPU time each frame launched instead of its "
                        "CPU time"));
    auto* top = new QHBoxLayout;
    top->addWidget(source_);
    top->addWidget(new QLabel(tr("Thread:"), this));
    top->addWidget(thread_, 1);
    top->addWidget(direction_);
    top->addWidget(gpu_);
    top->addWidget(search_, 1);
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export…"));
    exportButton->setToolTip(tr("Export the call tree as CSV or the flame graph as an image"));
    top->addWidget(exportButton);
    connect(exportButton, &QToolButton::clicked, this, [this] {
        QMenu menu(this);
        menu.addAction(tr("Call tree as CSV…"), this,
                       [this] { exportTreeInteractively(this, model_, "call-tree"); });
        menu.addAction(tr("Flame graph…"), this,
                       [this] { exportWidgetInteractively(this, flame_, "flame-graph"); });
        menu.exec(QCursor::pos());
    });
    auto* proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(model_);
    proxy->setSortRole(Qt::UserRole);
    view_->setModel(proxy);
    view_->setSortingEnabled(true);
    view_->sortByColumn(CallTreeModel::Total, Qt::DescendingOrder);
    view_->setUniformRowHeights(true);
    auto* functionsProxy = new QSortFilterProxyModel(this);
    functionsProxy->setSourceModel(profile_);
    functionsProxy->setSortRole(Qt::UserRole);
    functions_->setModel(functionsProxy);
    functions_->setSortingEnabled(true);
    functions_->sortByColumn(SampleProfileModel::Self, Qt::DescendingOrder);
    functions_->verticalHeader()->hide();
    functions_->setWordWrap(false);
    functions_->verticalHeader()->setDefaultSectionSize(functions_->fontMetrics().height() + 4);
    functions_->horizontalHeader()->setSectionResizeMode(SampleProfileModel::Function,
                                                         QHeaderView::Stretch);
    functions_->setTextElideMode(Qt::ElideLeft); // the function's name is at the end
    functions_->setSelectionBehavior(QAbstractItemView::SelectRows);
    functions_->setToolTip(tr("Per function: the samples it was the innermost frame of (self) and "
                              "those it was anywhere in the stack of (total)"));
    auto* functionsPage = new QWidget(this);
    auto* functionsLayout = new QVBoxLayout(functionsPage);
    functionsLayout->setContentsMargins(0, 0, 0, 0);
    functionsLayout->addWidget(sampleSummary_);
    functionsLayout->addWidget(functions_, 1);
    tabs_->addTab(view_, tr("Call tree"));
    tabs_->addTab(functionsPage, tr("Top functions"));
    tabs_->setTabVisible(1, false);
    tabs_->setDocumentMode(true);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(tabs_);
    split->addWidget(flame_);
    split->setSizes({560, 840});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(split, 1);
    connect(source_, &QComboBox::currentIndexChanged, this, [this] { showSource(); });
    connect(thread_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(direction_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(gpu_, &QCheckBox::toggled, this, [this](bool on) {
        flame_->setGpuWeight(on);
        refresh();
    });
    connect(search_, &QLineEdit::textChanged, flame_, &FlameGraph::setSearch);
    connect(flame_, &FlameGraph::nodeClicked, this, [this, proxy](uint32_t n) {
        const QModelIndex i = proxy->mapFromSource(model_->indexOf(n));
        if (i.isValid()) {
            view_->scrollTo(i);
            view_->setCurrentIndex(i);
        }
    });
    traceChanged(trace());
}

CallTreePanel::~CallTreePanel() = default;

void CallTreePanel::setBottomUp(bool on) {
    direction_->setCurrentIndex(on ? 1 : 0);
}
void CallTreePanel::setGpuWeight(bool on) {
    gpu_->setChecked(on);
}
void CallTreePanel::setSearch(const QString& text) {
    search_->setText(text);
}
void CallTreePanel::setFromSamples(bool on) {
    source_->setCurrentIndex(on ? 1 : 0);
}
void CallTreePanel::setNativeSamples() {
    if (auto* items = qobject_cast<QStandardItemModel*>(source_->model());
        items && items->item(2)->isEnabled())
        source_->setCurrentIndex(2);
}
bool CallTreePanel::fromSamples() const {
    return source_->currentIndex() >= 1;
}
bool CallTreePanel::samplesChoiceShown() const {
    return !source_->isHidden();
}
void CallTreePanel::setTopFunctionsShown(bool on) {
    tabs_->setCurrentIndex(on && fromSamples() ? 1 : 0);
}
void CallTreePanel::setThread(TrackId t) {
    const auto it = std::find(threads_.begin(), threads_.end(), t);
    thread_->setCurrentIndex(it == threads_.end() ? 0 : int(it - threads_.begin()) + 1);
}

void CallTreePanel::showSource() {
    const bool samples = fromSamples();
    gpu_->setVisible(!samples);
    tabs_->setTabVisible(1, samples);
    if (!samples) tabs_->setCurrentIndex(0);
    view_->setToolTip(samples ? tr("The sampled stacks at a time in the selected range (or the "
                                   "whole trace): counts in samples, times = samples x the period")
                              : tr("With a range selected: the CPU slices that start in it, "
                                   "counted whole."));
    refresh();
}

void CallTreePanel::traceChanged(const std::shared_ptr<const Trace>& trace) {
    const QSignalBlocker b(thread_);
    thread_->clear();
    threads_.clear();
    thread_->addItem(tr("All threads"));
    const bool samples = trace && !trace->stackSamples().empty();
    if (trace)
        for (TrackId t = 0; t < trace->tracks().size(); ++t) {
            const Track& track = trace->track(t);
            if (track.kind == TrackKind::Thread &&
                (track.slices.size() > 0 || trace->stackSamples().thread(track.pid, track.tid))) {
                threads_.push_back(t);
                thread_->addItem(toQString(trackRowName(*trace, track)));
            }
        }
    addSampleOnlyThreads(trace.get());
    {
        // "Native samples" where a Python thread has native samples too (else "Samples" are
        // the native ones already).
        const QSignalBlocker bs(source_);
        const auto& kinds = samples ? trace->stackSamples().kind : std::vector<uint8_t>();
        const bool both =
            std::find(kinds.begin(), kinds.end(), uint8_t(StackKind::Python)) != kinds.end() &&
            std::find(kinds.begin(), kinds.end(), uint8_t(StackKind::Native)) != kinds.end();
        auto* items = qobject_cast<QStandardItemModel*>(source_->model());
        if (items) items->item(2)->setEnabled(both);
        if (!both && source_->currentIndex() == 2) source_->setCurrentIndex(1);
        source_->setVisible(samples);
        if (!samples) source_->setCurrentIndex(0);
    }
    gpu_->setVisible(!fromSamples());
    tabs_->setTabVisible(1, fromSamples());
    AnalysisPanel::traceChanged(trace);
}

// Threads with samples and no track (a recording of native or Python stacks alone): chosen
// as the analysis knows them (trace_analysis.h), for the samples' trees only.
void CallTreePanel::addSampleOnlyThreads(const Trace* trace) {
    trackCount_ = trace ? TrackId(trace->tracks().size()) : 0;
    if (!trace) return;
    const auto& sampled = trace->stackSamples().threads;
    for (size_t i = 0; i < sampled.size(); ++i) {
        if (std::any_of(threads_.begin(), threads_.end(), [&](TrackId t) {
                return t < trackCount_ && trace->track(t).pid == sampled[i].pid &&
                       trace->track(t).tid == sampled[i].tid;
            }))
            continue;
        threads_.push_back(trackCount_ + TrackId(i));
        thread_->addItem(toQString(threadRowName(*trace, sampled[i].pid, sampled[i].tid)));
    }
}

CallTreePanel::Choice CallTreePanel::choice() const {
    Choice c;
    const int t = thread_->currentIndex();
    if (t > 0 && size_t(t - 1) < threads_.size()) c.thread = threads_[size_t(t - 1)];
    c.bottomUp = direction_->currentIndex() == 1;
    c.samples = fromSamples();
    c.native = source_->currentIndex() == 2;
    if (!c.samples && c.thread != UINT32_MAX && c.thread >= trackCount_)
        c.thread = UINT32_MAX; // a thread of samples alone has no calls: all threads' calls
    c.withGpuTime = !c.bottomUp && !c.samples;
    return c;
}

AnalysisPanel::Preparation CallTreePanel::preparation() const {
    return [c = choice()](const TraceAnalysis& a) {
        if (c.samples) {
            a.sampleCallTree(c.thread, c.bottomUp, c.native);
            a.sampleProfile(c.thread, c.native);
        } else {
            a.callTree(c.thread, c.bottomUp, c.withGpuTime);
        }
    };
}

void CallTreePanel::present(const std::shared_ptr<const TraceAnalysis>& a) {
    const Choice c = choice();
    const CallTree* tree = !a          ? nullptr
                           : c.samples ? &a->sampleCallTree(c.thread, c.bottomUp, c.native)
                                       : &a->callTree(c.thread, c.bottomUp, c.withGpuTime);
    tree_ = tree ? std::shared_ptr<const CallTree>(a, tree) : nullptr;
    model_->setSamples(c.samples);
    flame_->setSamples(c.samples);
    if (c.samples)
        flame_->setGpuWeight(false);
    else
        flame_->setGpuWeight(gpu_->isChecked());
    model_->setTree(a ? a->tracePtr() : nullptr, tree_);
    flame_->setTree(a ? a->tracePtr() : nullptr, tree_);
    view_->setColumnHidden(CallTreeModel::Gpu, c.samples);
    showProfile(c.samples && a ? &a->sampleProfile(c.thread, c.native) : nullptr,
                a ? &a->trace() : nullptr);
    if (!tree_) return;
    view_->header()->resizeSection(0, 300);
    for (int col = 1; col < CallTreeModel::ColumnCount; ++col) view_->resizeColumnToContents(col);
}

void CallTreePanel::showProfile(const SampleProfile* p, const Trace* trace) {
    profile_->setProfile(trace, p);
    if (!p) {
        sampleSummary_->clear();
        return;
    }
    QString text = tr("%1 stack sample%2 on %3 thread%4")
                       .arg(p->samples)
                       .arg(p->samples == 1 ? "" : "s")
                       .arg(p->threads)
                       .arg(p->threads == 1 ? "" : "s");
    if (p->emptySamples) text += tr(" (%1 with no frame)").arg(p->emptySamples);
    if (p->period > 0)
        text += tr(", one every %1").arg(QString::fromStdString(formatDuration(p->period)));
    sampleSummary_->setText(text);
    for (int col = 1; col < SampleProfileModel::ColumnCount; ++col)
        functions_->resizeColumnToContents(col);
}

} // namespace strata
