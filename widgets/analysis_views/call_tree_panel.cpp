#include "call_tree_panel.h"

#include "call_tree_model.h"
#include "charts/chart_export.h"
#include "flame_graph.h"
#include "model/names/track_names.h"
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
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

namespace strata {

CallTreePanel::CallTreePanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : AnalysisPanel(workspace, navigation, parent), thread_(new QComboBox(this)),
      direction_(new QComboBox(this)),
      gpu_(new QCheckBox(tr("Flame widths by GPU time launched"), this)),
      search_(new QLineEdit(this)), view_(new QTreeView(this)), model_(new CallTreeModel(this)),
      flame_(new FlameGraph(this)) {
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
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(view_);
    split->addWidget(flame_);
    split->setSizes({560, 840});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(split, 1);
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

void CallTreePanel::traceChanged(const std::shared_ptr<const Trace>& trace) {
    const QSignalBlocker b(thread_);
    thread_->clear();
    threads_.clear();
    thread_->addItem(tr("All threads"));
    if (trace)
        for (TrackId t = 0; t < trace->tracks().size(); ++t)
            if (trace->track(t).kind == TrackKind::Thread && trace->track(t).slices.size() > 0) {
                threads_.push_back(t);
                thread_->addItem(toQString(trackRowName(*trace, trace->track(t))));
            }
    AnalysisPanel::traceChanged(trace);
}

CallTreePanel::Choice CallTreePanel::choice() const {
    Choice c;
    const int t = thread_->currentIndex();
    if (t > 0 && size_t(t - 1) < threads_.size()) c.thread = threads_[size_t(t - 1)];
    c.bottomUp = direction_->currentIndex() == 1;
    c.withGpuTime = !c.bottomUp;
    return c;
}

AnalysisPanel::Preparation CallTreePanel::preparation() const {
    return
        [c = choice()](const TraceAnalysis& a) { a.callTree(c.thread, c.bottomUp, c.withGpuTime); };
}

void CallTreePanel::present(const std::shared_ptr<const TraceAnalysis>& a) {
    const Choice c = choice();
    tree_ =
        a ? std::shared_ptr<const CallTree>(a, &a->callTree(c.thread, c.bottomUp, c.withGpuTime))
          : nullptr;
    model_->setTree(a ? a->tracePtr() : nullptr, tree_);
    flame_->setTree(a ? a->tracePtr() : nullptr, tree_);
    if (!tree_) return;
    view_->header()->resizeSection(0, 300);
    for (int col = 1; col < CallTreeModel::ColumnCount; ++col) view_->resizeColumnToContents(col);
}

} // namespace strata
