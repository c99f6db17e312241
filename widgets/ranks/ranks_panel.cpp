#include "ranks_panel.h"

#include "charts/chart_theme.h"
#include "charts/row_columns.h"
#include "charts/sortable_table.h"
#include "model/names/time_text.h"
#include "rank_charts.h"
#include "rank_roles_view.h"
#include "style/gap_style.h"
#include "workspace/rank_set.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

#include <qcustomplot.h>

#include <cmath>

namespace strata {

namespace {

QString dur(TimeNs ns) {
    return QString::fromStdString(formatDuration(ns));
}

QString signedMicros(TimeNs ns) {
    return QString::number(double(ns) / 1000.0, 'f', 3);
}

template <typename Row> RowColumn<Row> textColumn(const QString& header, QString Row::*field) {
    return {header, [field](const Row& r) { return r.*field; }, {}};
}

template <typename Row> RowColumn<Row> countColumn(const QString& header, auto Row::*field) {
    return {header, [field](const Row& r) { return QString::number(r.*field); },
            [field](const Row& r) { return std::optional<double>(double(r.*field)); }};
}

std::vector<RowColumn<RanksPanel::RankRow>> rankColumns() {
    using R = RanksPanel::RankRow;
    RowColumn<R> offset{
        QObject::tr("Offset (µs)"),
        [](const R& r) { return r.offset ? signedMicros(*r.offset) : QObject::tr("not aligned"); },
        [](const R& r) {
            return r.offset ? std::optional<double>(double(*r.offset)) : std::nullopt;
        },
        [](const R&) {
            return QObject::tr("Added to the rank's timestamps to put it on the "
                               "reference rank's clock. Double-click to set it.");
        }};
    RowColumn<R> plusMinus{
        QObject::tr("± (spread)"),
        [](const R& r) { return r.uncertainty ? dur(*r.uncertainty) : QStringLiteral("—"); },
        [](const R& r) {
            return r.uncertainty ? std::optional<double>(double(*r.uncertainty)) : std::nullopt;
        },
        [](const R&) {
            return QObject::tr("The largest distance of one of the rank's aligned collective "
                               "ends from the median end of that collective.");
        }};
    return {textColumn<R>(QObject::tr("Rank"), &R::label),
            textColumn<R>(QObject::tr("Host"), &R::host),
            offset,
            plusMinus,
            countColumn<R>(QObject::tr("Kernels"), &R::kernels),
            timeColumn<R>(QObject::tr("GPU busy"), [](const R& r) { return double(r.busy); }),
            timeColumn<R>(QObject::tr("GPU idle"), [](const R& r) { return double(r.idle); }),
            textColumn<R>(QObject::tr("File"), &R::file)};
}

std::vector<RowColumn<RanksPanel::StepRow>> stepColumns() {
    using S = RanksPanel::StepRow;
    return {
        textColumn<S>(QObject::tr("Step"), &S::name),
        textColumn<S>(QObject::tr("Straggler"), &S::straggler),
        timeColumn<S>(QObject::tr("Delay"), [](const S& s) { return double(s.delay); }),
        textColumn<S>(QObject::tr("Found by"), &S::how),
        timeColumn<S>(QObject::tr("Median length"), [](const S& s) { return double(s.median); }),
        countColumn<S>(QObject::tr("Collectives"), &S::collectives)};
}

RowColumn<RanksPanel::RankStepRow> lateStartColumn() {
    using S = RanksPanel::RankStepRow;
    return {QObject::tr("Late start"),
            [](const S& s) { return s.lateStart ? dur(*s.lateStart) : QObject::tr("not aligned"); },
            [](const S& s) {
                return s.lateStart ? std::optional<double>(double(*s.lateStart)) : std::nullopt;
            },
            [](const S&) {
                return QObject::tr("How late the rank started the step, after the first rank to "
                                   "start it (on the aligned timeline).");
            }};
}

std::vector<RowColumn<RanksPanel::RankStepRow>> rankStepColumns() {
    using S = RanksPanel::RankStepRow;
    std::vector<RowColumn<S>> cols{
        textColumn<S>(QObject::tr("Step"), &S::step),
        textColumn<S>(QObject::tr("Rank"), &S::rank),
        lateStartColumn(),
        timeColumn<S>(QObject::tr("Length"), [](const S& s) { return double(s.duration); }),
        timeColumn<S>(QObject::tr("GPU busy"), [](const S& s) { return double(s.busy); }),
        timeColumn<S>(QObject::tr("GPU idle"), [](const S& s) { return double(s.idle); })};
    for (int c = 0; c < kGapCauseCount; ++c) {
        RowColumn<S> col =
            timeColumn<S>(QObject::tr("Idle: %1").arg(gapCauseText(GapCause(c))),
                          [c](const S& s) { return double(s.idleByCause[size_t(c)]); });
        col.decoration = [c](const S&) { return QVariant(QColor::fromRgb(gapCauseColor(c))); };
        cols.push_back(col);
    }
    cols.push_back(countColumn<S>(QObject::tr("Kernels"), &S::kernels));
    cols.push_back(timeColumn<S>(QObject::tr("Others waited for it"),
                                 [](const S& s) { return double(s.causedWait); }));
    return cols;
}

std::vector<RowColumn<RanksPanel::CollectiveRow>> collectiveColumns() {
    using C = RanksPanel::CollectiveRow;
    RowColumn<C> name = nameColumn<C>(
        QObject::tr("Collective"),
        [](const C& c) { return c.op + QStringLiteral(" #") + QString::number(c.instance); },
        [](const C& c) { return c.name; });
    return {
        name,
        textColumn<C>(QObject::tr("Group"), &C::group),
        textColumn<C>(QObject::tr("Step"), &C::step),
        textColumn<C>(QObject::tr("Late rank"), &C::late),
        timeColumn<C>(QObject::tr("Late by"), [](const C& c) { return double(c.lateBy); }),
        timeColumn<C>(QObject::tr("Longest wait"), [](const C& c) { return double(c.maxWait); }),
        countColumn<C>(QObject::tr("Ranks"), &C::ranks)};
}

} // namespace

RanksPanel::RanksPanel(Workspace* workspace, Navigation* navigation, QWidget* parent)
    : TracePanel(workspace, navigation, parent), ranks_(workspace->ranks()),
      alignment_(new QLabel(this)), align_(new QComboBox(this)), colour_(new QComboBox(this)),
      tabs_(new QTabWidget(this)), stepMap_(new QCustomPlot(this)),
      arrivals_(new QCustomPlot(this)), roles_(new RankRolesView(this)),
      rankModel_(new RowTableModel<RankRow>(rankColumns(), this)),
      stepModel_(new RowTableModel<StepRow>(stepColumns(), this)),
      rankStepModel_(new RowTableModel<RankStepRow>(rankStepColumns(), this)),
      collectiveModel_(new RowTableModel<CollectiveRow>(collectiveColumns(), this)) {
    followTheme(stepMap_);
    followTheme(arrivals_);
    alignment_->setWordWrap(true);
    alignment_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    align_->setToolTip(tr("How the ranks' clocks are aligned: auto (the common time base when "
                          "the collectives agree under it, else the collectives), the common "
                          "time base, the collective kernels' ends, or the start of a step."));
    rankTable_ = makeSortableTable(rankModel_, this, true);
    stepTable_ = makeSortableTable(stepModel_, this, true);
    rankStepTable_ = makeSortableTable(rankStepModel_, this, false);
    rankStepTable_->setObjectName("rank-step-table");
    collectiveTable_ = makeSortableTable(collectiveModel_, this, false);
    rankTable_->setObjectName("rank-table");
    stepTable_->setObjectName("step-table");
    collectiveTable_->setObjectName("collective-table");
    stepMap_->setObjectName("rank-step-map");
    arrivals_->setObjectName("collective-arrivals");
    rankTable_->setContextMenuPolicy(Qt::CustomContextMenu);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Align by:"), this), 0, Qt::AlignTop);
    top->addWidget(align_, 0, Qt::AlignTop);
    top->addWidget(alignment_, 1);
    auto* steps = new QSplitter(Qt::Horizontal, this);
    steps->addWidget(mapWithChoice());
    auto* stepTables = new QSplitter(Qt::Vertical, this);
    stepTables->addWidget(stepTable_);
    stepTables->addWidget(rankStepTable_);
    stepTables->setStretchFactor(0, 1);
    stepTables->setStretchFactor(1, 3);
    steps->addWidget(stepTables);
    steps->setStretchFactor(0, 3);
    steps->setStretchFactor(1, 2);
    auto* collectives = new QSplitter(Qt::Horizontal, this);
    collectives->addWidget(collectiveTable_);
    collectives->addWidget(arrivals_);
    collectives->setStretchFactor(0, 3);
    collectives->setStretchFactor(1, 2);
    tabs_->addTab(rankTable_, tr("Ranks"));
    tabs_->addTab(steps, tr("Steps"));
    tabs_->addTab(collectives, tr("Collectives"));
    tabs_->addTab(roles_, tr("Step roles"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(tabs_, 1);

    connect(ranks_, &RankSet::changed, this, &RanksPanel::refresh);
    connect(align_, &QComboBox::activated, this, &RanksPanel::chooseAlignment);
    connect(rankTable_, &QTableView::doubleClicked, this, [this](const QModelIndex& i) {
        if (!ranks_->fromDigests() && i.column() == 2) {
            editOffset(sourceRow(rankTable_, i));
        } else if (ranks_->fromDigests()) {
            if (const RankRow* r = rankModel_->rowAt(sourceRow(rankTable_, i)))
                emit rankTraceRequested(r->index);
        }
    });
    connect(stepMap_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const QString tip = mapTipAt(e->position().toPoint());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), tip, stepMap_);
    });
    connect(colour_, &QComboBox::activated, this, [this](int i) {
        if (i >= 0) setMapColour(StepMapColour(colour_->itemData(i).toInt()));
    });
    connect(stepMap_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent* e) {
        if (!ranks_->fromDigests()) return;
        if (const std::optional<size_t> rank = mapRankAt(e->pos())) emit rankTraceRequested(*rank);
    });
    connect(rankTable_, &QWidget::customContextMenuRequested, this, &RanksPanel::rankMenu);
    connect(collectiveTable_, &QTableView::clicked, this,
            [this](const QModelIndex& i) { showCollective(sourceRow(collectiveTable_, i)); });
    refresh();
}

const std::vector<RanksPanel::RankRow>& RanksPanel::rankRows() const {
    return rankModel_->rows();
}
const std::vector<RanksPanel::StepRow>& RanksPanel::stepRows() const {
    return stepModel_->rows();
}
const std::vector<RanksPanel::RankStepRow>& RanksPanel::rankStepRows() const {
    return rankStepModel_->rows();
}
const std::vector<RanksPanel::CollectiveRow>& RanksPanel::collectiveRows() const {
    return collectiveModel_->rows();
}

QString RanksPanel::alignmentText() const {
    return alignment_->text();
}

bool RanksPanel::inRange(TimeNs fromOrigin) const {
    const std::optional<TimeRange> r = navigation()->selectedRange();
    if (!r) return true;
    const TimeNs t = ranks_->traceTime(fromOrigin);
    return t >= r->start && t < r->end;
}

void RanksPanel::selectedRangeChanged(std::optional<TimeRange>) {
    refresh();
}

void RanksPanel::refresh() {
    const CrossRankReport& report = ranks_->report();
    labels_.clear();
    labels_ = ranks_->labels();
    if (ranks_->isEmpty()) {
        alignment_->setText(tr("Open the ranks of a job together (File ▸ Open Ranks…, several "
                               "files on the command line, or a folder) to see them here side "
                               "by side, their clocks aligned."));
    } else {
        const ClockAlignment& a = report.alignment;
        QString text;
        if (a.aligned()) {
            text = tr("<b>%1 ranks aligned</b> by %2.")
                       .arg(report.ranks.size())
                       .arg(QString::fromStdString(a.reason).toHtmlEscaped());
            if (a.spread)
                text += tr(" %1 matched collectives end within %2 of each other (median %3).")
                            .arg(a.matched)
                            .arg(dur(*a.spread), dur(a.medianSpread.value_or(0)));
        } else {
            text = tr("<b>Not aligned</b>: %1. Each rank is shown with its own timestamps.")
                       .arg(QString::fromStdString(a.reason).toHtmlEscaped());
        }
        for (const std::string& w : a.warnings)
            text += QStringLiteral("<br>⚠ ") + QString::fromStdString(w).toHtmlEscaped();
        for (const std::string& w : report.warnings)
            text += QStringLiteral("<br>⚠ ") + QString::fromStdString(w).toHtmlEscaped();
        if (ranks_->fromDigests())
            text += tr("<br>From the ranks' digests (strata-cli digest): no trace is loaded. "
                       "Double-click a rank or a cell of the step map to open that rank's trace.");
        alignment_->setText(text);
    }
    fillAlignChoices();

    std::vector<RankRow> rows;
    for (size_t i = 0; i < report.ranks.size(); ++i) {
        const CrossRankRow& r = report.ranks[i];
        rows.push_back({i, labels_[qsizetype(i)], QString::fromStdString(r.host),
                        QFileInfo(QString::fromStdString(r.file)).fileName(), r.offset,
                        r.uncertainty, r.kernels, r.busy, r.idle});
    }
    rankModel_->setRows(std::move(rows));

    std::vector<StepRow> steps;
    std::vector<RankStepRow> rankSteps;
    for (const CrossRankStep& s : report.steps) {
        std::optional<TimeNs> start;
        for (const RankStep& r : s.ranks)
            if (r.start) start = start ? std::min(*start, *r.start) : *r.start;
        if (start && !inRange(*start)) continue;
        for (const RankStep& r : s.ranks)
            rankSteps.push_back({QString::fromStdString(s.name), labels_.value(qsizetype(r.rank)),
                                 r.duration, r.busy, r.idle, r.causedWait, r.idleByCause, r.kernels,
                                 r.lateStart});
        StepRow row{
            QString::fromStdString(s.name), {}, {}, s.delay, s.medianDuration, s.collectives};
        if (s.straggler) {
            row.straggler = labels_[qsizetype(*s.straggler)];
            row.how = s.byCollectives ? tr("collective waits") : tr("step length");
        }
        steps.push_back(std::move(row));
    }
    stepModel_->setRows(std::move(steps));
    rankStepModel_->setRows(std::move(rankSteps));
    plotStepMap(stepMap_, report, labels_, mapColour_);

    std::vector<CollectiveRow> collectives;
    for (size_t i = 0; i < report.collectives.size(); ++i) {
        const CrossRankCollective& c = report.collectives[i];
        if (!c.arrival.empty() && !inRange(*std::min_element(c.arrival.begin(), c.arrival.end())))
            continue;
        collectives.push_back({i, QString::fromStdString(c.op), QString::fromStdString(c.group),
                               QString::fromStdString(c.name), QString::fromStdString(c.step),
                               labels_.value(qsizetype(c.lateRank)), c.index, c.lateBy, c.maxWait,
                               c.ranks.size()});
    }
    collectiveModel_->setRows(std::move(collectives));
    plotArrivals(arrivals_, report, labels_, nullptr);
    std::vector<StepRoles> roles;
    for (const SetRank& r : ranks_->ranks()) roles.push_back(r.digest.stepRoles);
    roles_->show(std::move(roles), labels_);
}

void RanksPanel::fillAlignChoices() {
    filling_ = true;
    align_->clear();
    align_->addItem(tr("auto"), QStringLiteral("auto"));
    align_->addItem(tr("common time base"), QStringLiteral("time"));
    align_->addItem(tr("collectives"), QStringLiteral("collectives"));
    QStringList names;
    for (const SetRank& r : ranks_->ranks())
        for (const DigestStep& s : r.digest.steps) names << QString::fromStdString(s.name);
    names.removeDuplicates();
    for (const QString& n : names) align_->addItem(tr("start of %1").arg(n), "step:" + n);
    const AlignRequest& req = ranks_->request();
    if (req.method == AlignMethod::Manual) align_->addItem(tr("offsets set by hand"), "manual");
    const QString current = req.method == AlignMethod::Step
                                ? "step:" + QString::fromStdString(req.stepName)
                                : QString::fromLatin1(alignMethodName(req.method));
    align_->setCurrentIndex(std::max(0, align_->findData(current)));
    align_->setEnabled(!ranks_->isEmpty());
    filling_ = false;
}

void RanksPanel::chooseAlignment(int choice) {
    if (filling_ || choice < 0) return;
    const QString data = align_->itemData(choice).toString();
    if (data == QLatin1String("manual")) return;
    std::optional<AlignRequest> r = parseAlignRequest(data.toStdString(), nullptr);
    if (r) ranks_->setAlignment(*r);
}

void RanksPanel::setOffset(size_t index, TimeNs offset) {
    ranks_->setOffset(index, offset);
}

void RanksPanel::editOffset(int row) {
    const RankRow* r = rankModel_->rowAt(row);
    if (!r) return;
    bool ok = false;
    const double us =
        QInputDialog::getDouble(this, tr("Clock offset of %1").arg(r->label),
                                tr("Offset added to %1's timestamps (µs):").arg(r->label),
                                r->offset ? double(*r->offset) / 1000.0 : 0.0, -1e12, 1e12, 3, &ok);
    if (ok) setOffset(r->index, TimeNs(std::llround(us * 1000.0)));
}

void RanksPanel::rankMenu(const QPoint& at) {
    const QModelIndex i = rankTable_->indexAt(at);
    if (!i.isValid()) return;
    const int row = sourceRow(rankTable_, i);
    const RankRow* r = rankModel_->rowAt(row);
    if (!r) return;
    const size_t index = r->index;
    QMenu menu(this);
    const bool onTimeline = !ranks_->fromDigests();
    menu.addAction(tr("Set Offset…"), this, [this, row] { editOffset(row); })
        ->setEnabled(onTimeline);
    menu.addAction(tr("Collapse on the Timeline"), this,
                   [this, index] { ranks_->requestCollapse(index, true); })
        ->setEnabled(onTimeline);
    menu.addAction(tr("Expand on the Timeline"), this,
                   [this, index] { ranks_->requestCollapse(index, false); })
        ->setEnabled(onTimeline);
    menu.addAction(tr("Open Its Trace in a New Window"), this,
                   [this, index] { emit rankTraceRequested(index); });
    menu.addSeparator();
    QAction* remove = menu.addAction(tr("Remove %1").arg(r->label), this,
                                     [this, index] { ranks_->removeRank(index); });
    remove->setEnabled(ranks_->ranks().size() > 1);
    menu.exec(rankTable_->viewport()->mapToGlobal(at));
}

std::optional<size_t> RanksPanel::mapRankAt(const QPoint& pos) const {
    const auto cell = mapCellAt(pos);
    return cell ? std::optional<size_t>(cell->second) : std::nullopt;
}

std::optional<std::pair<size_t, size_t>> RanksPanel::mapCellAt(const QPoint& pos) const {
    const CrossRankReport& report = ranks_->report();
    if (report.steps.empty() || !stepMap_->axisRect()->rect().contains(pos)) return std::nullopt;
    const double y = stepMap_->yAxis->pixelToCoord(pos.y());
    const double x = stepMap_->xAxis->pixelToCoord(pos.x());
    if (y < -0.5 || x < -0.5 || x >= double(report.steps.size()) - 0.5) return std::nullopt;
    const size_t rank = size_t(std::lround(y));
    if (rank >= report.ranks.size()) return std::nullopt;
    return std::pair<size_t, size_t>(size_t(std::lround(x)), rank);
}

QString RanksPanel::mapTipAt(const QPoint& pos) const {
    const auto cell = mapCellAt(pos);
    return cell ? stepMapTip(ranks_->report(), labels_, cell->first, cell->second) : QString();
}

void RanksPanel::setMapColour(StepMapColour colour) {
    mapColour_ = colour;
    colour_->setCurrentIndex(std::max(0, colour_->findData(int(colour))));
    plotStepMap(stepMap_, ranks_->report(), labels_, mapColour_);
}

QWidget* RanksPanel::mapWithChoice() {
    colour_->setObjectName("step-map-colour");
    for (StepMapColour c :
         {StepMapColour::LateStart, StepMapColour::CausedWait, StepMapColour::Length})
        colour_->addItem(stepMapColourName(c), int(c));
    colour_->setToolTip(tr("What the map's colour says: how late each rank started the step "
                           "(after the first rank to start it), how long the others waited for it "
                           "at the step's collectives, or its step length over the median "
                           "rank's."));
    auto* box = new QWidget(this);
    auto* choice = new QHBoxLayout;
    choice->addWidget(new QLabel(tr("Colour by:"), box));
    choice->addWidget(colour_);
    choice->addStretch(1);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(choice);
    layout->addWidget(stepMap_, 1);
    return box;
}

void RanksPanel::showCollective(int row) {
    const CollectiveRow* c = collectiveModel_->rowAt(row);
    const CrossRankReport& report = ranks_->report();
    if (!c || c->index >= report.collectives.size()) return;
    const CrossRankCollective& x = report.collectives[c->index];
    plotArrivals(arrivals_, report, labels_, &x);
    if (x.arrival.empty()) return;
    const TimeNs first = *std::min_element(x.arrival.begin(), x.arrival.end());
    const TimeNs last = *std::max_element(x.end.begin(), x.end.end());
    const TimeNs pad = std::max<TimeNs>((last - first) / 4, 1000);
    const TimeRange instance{ranks_->traceTime(first), ranks_->traceTime(last)};
    navigation()->setVisibleRange({instance.start - pad, instance.end + pad});
}

} // namespace strata
