#include "rank_roles_view.h"

#include "charts/chart_notice.h"
#include "charts/chart_theme.h"
#include "charts/row_columns.h"
#include "charts/sortable_table.h"
#include "charts/stacked_bars.h"
#include "model/names/time_text.h"
#include "style/step_role_style.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

namespace strata {

namespace {

using Row = RankRolesView::Row;

constexpr int kFirstRoleColumn = 3; // after the rank, its steps and their time

RowColumn<Row> sumColumn(const QString& header, TimeNs StepRoleSum::*field) {
    return timeColumn<Row>(header, [field](const Row& r) { return double(r.sum.*field); });
}

std::vector<RowColumn<Row>> columns() {
    std::vector<RowColumn<Row>> c{
        {QObject::tr("Rank"), [](const Row& r) { return r.rank; }, {}},
        {QObject::tr("Steps"), [](const Row& r) { return QString::number(r.sum.steps); },
         [](const Row& r) { return std::optional<double>(double(r.sum.steps)); }},
        sumColumn(QObject::tr("Step time"), &StepRoleSum::total)};
    for (int k = 0; k < kStepRoleCount; ++k) {
        RowColumn<Row> role = timeColumn<Row>(
            stepRoleText(StepRole(k)), [k](const Row& r) { return double(r.sum.role[size_t(k)]); });
        role.decoration = [k](const Row&) { return QVariant(stepRoleColor(StepRole(k))); };
        c.push_back(role);
    }
    c.push_back(sumColumn(QObject::tr("Computation"), &StepRoleSum::computation));
    c.push_back(sumColumn(QObject::tr("Communication (all)"), &StepRoleSum::communication));
    c.push_back(sumColumn(QObject::tr("Overlap"), &StepRoleSum::overlap));
    c.push_back(sumColumn(QObject::tr("Neither"), &StepRoleSum::otherThanBoth));
    return c;
}

// The plugin's Distributed view: what of the step was computation alone, computation and
// communication overlapping, communication alone, neither (they sum to the step).
struct OverlapPart {
    const char* name;
    QColor color;
    TimeNs (*of)(const StepRoleSum&);
};
const OverlapPart kOverlapParts[] = {
    {"computation alone", stepRoleColor(StepRole::Kernel),
     [](const StepRoleSum& s) { return s.computation - s.overlap; }},
    {"overlapping", QColor(0x9c, 0x75, 0x5f), [](const StepRoleSum& s) { return s.overlap; }},
    {"communication alone", stepRoleColor(StepRole::Communication),
     [](const StepRoleSum& s) { return s.communication - s.overlap; }},
    {"other", stepRoleColor(StepRole::Other), [](const StepRoleSum& s) { return s.otherThanBoth; }},
};

} // namespace

struct RankRolesView::Rows {
    RowTableModel<Row> model{columns()};
};

RankRolesView::RankRolesView(QWidget* parent)
    : QWidget(parent), step_(new QComboBox(this)), splitChoice_(new QComboBox(this)),
      chart_(new QCustomPlot(this)), rows_(std::make_unique<Rows>()),
      table_(makeSortableTable(&rows_->model, this, true)) {
    followTheme(chart_);
    chart_->setObjectName(QStringLiteral("rank-step-roles"));
    table_->setObjectName(QStringLiteral("rank-roles-table"));
    step_->setObjectName(QStringLiteral("rank-roles-step"));
    splitChoice_->setObjectName(QStringLiteral("rank-roles-split"));
    putLegendBelow(chart_, 4);
    // Compact, to fit one row across a wide, short dock; as tall as the text, so that the swatch
    // (two thirds of the icon, centred) sits on the text's line.
    chart_->legend->setIconSize(16, QFontMetrics(chart_->legend->font()).height());
    chart_->legend->setColumnSpacing(10);
    chart_->legend->setRowSpacing(0);
    chart_->xAxis->grid()->setVisible(false); // the columns are the ranks
    chart_->installEventFilter(this);         // its size: fitToSize
    step_->setToolTip(tr("Every step summed, or one step (each rank's own step of that name)."));
    splitChoice_->addItem(tr("by role"), int(Split::Roles));
    splitChoice_->addItem(tr("by comm/compute overlap"), int(Split::Overlap));
    splitChoice_->setToolTip(
        tr("By role, as the TensorBoard profiler's Overview splits a step (every instant counted "
           "once, for the first role active then: kernel, memcpy, memset, communication, "
           "runtime, data loading, CPU op); or by comm/compute overlap, as its Distributed view "
           "does (computation alone, both overlapping, communication alone, neither)."));
    auto* choices = new QHBoxLayout;
    choices->addWidget(new QLabel(tr("Steps:"), this));
    choices->addWidget(step_);
    choices->addWidget(new QLabel(tr("Split:"), this));
    choices->addWidget(splitChoice_);
    choices->addStretch(1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(chart_);
    split->addWidget(table_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 1);
    split->setSizes({2000, 1000});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(choices);
    layout->addWidget(split, 1);
    connect(chart_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) {
        const QString tip = tipAt(e->position().toPoint());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(e->globalPosition().toPoint(), tip, chart_);
    });
    connect(step_, &QComboBox::activated, this, [this] { refill(); });
    connect(splitChoice_, &QComboBox::activated, this, [this](int i) {
        if (i >= 0) setSplit(Split(splitChoice_->itemData(i).toInt()));
    });
}

RankRolesView::~RankRolesView() = default;

QAbstractItemModel* RankRolesView::model() const {
    return &rows_->model;
}

const std::vector<RankRolesView::Row>& RankRolesView::rows() const {
    return rows_->model.rows();
}

QString RankRolesView::step() const {
    return step_->currentData().toString();
}

void RankRolesView::setStep(const QString& name) {
    step_->setCurrentIndex(std::max(0, step_->findData(name)));
    refill();
}

void RankRolesView::setSplit(Split split) {
    split_ = split;
    splitChoice_->setCurrentIndex(std::max(0, splitChoice_->findData(int(split))));
    // The table's columns of what the chart shows first, after the step time: the roles, or the
    // overlap's four (the model's last columns, moved back to the end in order).
    QHeaderView* header = table_->horizontalHeader();
    const int columns = rows_->model.columnCount();
    for (int i = 0; i < 4; ++i)
        header->moveSection(header->visualIndex(columns - 4 + i),
                            split == Split::Overlap ? kFirstRoleColumn + i : columns - 1);
    plot();
}

void RankRolesView::show(std::vector<StepRoles> ranks, const QStringList& labels) {
    ranks_ = std::move(ranks);
    labels_ = labels;
    const QString chosen = step();
    step_->clear();
    step_->addItem(tr("all steps (summed)"), QString());
    std::vector<const StepRoles*> each;
    for (const StepRoles& r : ranks_) each.push_back(&r);
    for (const std::string& n : stepRoleNames(each))
        step_->addItem(QString::fromStdString(n), QString::fromStdString(n));
    step_->setCurrentIndex(std::max(0, step_->findData(chosen)));
    refill();
}

void RankRolesView::refill() {
    const std::string step = this->step().toStdString();
    std::vector<Row> rows;
    for (size_t i = 0; i < ranks_.size(); ++i)
        rows.push_back({i, labels_.value(qsizetype(i)), sumStepRoles(ranks_[i], step)});
    rows_->model.setRows(std::move(rows));
    table_->resizeColumnsToContents();
    plot();
}

QString RankRolesView::tipAt(const QPoint& pos) const {
    const std::vector<Row>& rows = this->rows();
    if (!chart_->axisRect()->rect().contains(pos)) return {};
    const double x = chart_->xAxis->pixelToCoord(pos.x());
    if (x < -0.5 || x >= double(rows.size()) - 0.5) return {};
    const Row& r = rows[size_t(std::lround(x))];
    if (r.sum.total <= 0) return {};
    auto line = [&](const QString& name, TimeNs t) {
        return QStringLiteral("\n%1: %2 (%3%)")
            .arg(name, QString::fromStdString(formatDuration(t)))
            .arg(100.0 * double(t) / double(r.sum.total), 0, 'f', 1);
    };
    QString tip = tr("%1: %2 over %n step(s)", nullptr, int(r.sum.steps))
                      .arg(r.rank, QString::fromStdString(formatDuration(r.sum.total)));
    if (split_ == Split::Roles) {
        for (int k = 0; k < kStepRoleCount; ++k)
            if (r.sum.role[size_t(k)] > 0)
                tip += line(stepRoleText(StepRole(k)), r.sum.role[size_t(k)]);
    } else {
        for (const OverlapPart& p : kOverlapParts) tip += line(tr(p.name), p.of(r.sum));
    }
    return tip;
}

void RankRolesView::plot() {
    chart_->clearPlottables();
    chart_->clearItems();
    const std::vector<Row>& rows = this->rows();
    const int n = int(rows.size());
    double top = 0;
    for (const Row& r : rows) top = std::max(top, double(r.sum.total) / 1e6);
    chart_->legend->setVisible(top > 0);
    if (top <= 0) {
        chart_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        return showChartNotice(
            chart_, ranks_.empty() ? tr("Open the ranks of a job together to see each rank's "
                                        "step time by role here.")
                                   : tr("No rank has a step (ProfilerStep#, or the step name "
                                        "chosen) with time to split."));
    }
    QCPBars* below = nullptr; // a column per rank, as the plugin's Distributed view draws them
    if (split_ == Split::Roles) {
        for (int k = 0; k < kStepRoleCount; ++k)
            below = addStackedLayer(
                chart_->xAxis, chart_->yAxis, stepRoleText(StepRole(k)), stepRoleColor(StepRole(k)),
                n, [&](int i) { return double(rows[size_t(i)].sum.role[size_t(k)]) / 1e6; }, below);
    } else {
        for (const OverlapPart& p : kOverlapParts)
            below = addStackedLayer(
                chart_->xAxis, chart_->yAxis, tr(p.name), p.color, n,
                [&](int i) { return double(p.of(rows[size_t(i)].sum)) / 1e6; }, below);
    }
    chart_->xAxis->setRange(-0.6, std::max(1, n) - 0.4);
    chart_->yAxis->setRange(0, top * 1.05);
    chart_->yAxis->setLabel(step().isEmpty() ? tr("all steps (ms)") : tr("%1 (ms)").arg(step()));
    fitToSize();
}

// What depends on the chart's size: a rank's label under every k-th column only, so that the
// labels never run into each other, and as many legend entries in a row as fit.
void RankRolesView::fitToSize() {
    const std::vector<Row>& rows = this->rows();
    const QFontMetrics fm(chart_->xAxis->tickLabelFont());
    int widest = 1;
    for (const Row& r : rows) widest = std::max(widest, fm.horizontalAdvance(r.rank) + 12);
    const int width = std::max(1, chart_->axisRect()->width());
    const int n = std::max<int>(1, int(rows.size()));
    const int every = std::max(1, (widest * n + width - 1) / width);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < int(rows.size()); i += every) ticker->addTick(i, rows[size_t(i)].rank);
    chart_->xAxis->setTicker(ticker);
    int entry = 1;
    for (int i = 0; i < chart_->legend->itemCount(); ++i)
        entry = std::max(entry, chart_->legend->item(i)->minimumOuterSizeHint().width() +
                                    chart_->legend->columnSpacing());
    const int items = std::max(1, chart_->legend->itemCount());
    const int fit = std::clamp((chart_->width() - 16) / entry, 1, items);
    const int lines = (items + fit - 1) / fit; // the rows filled evenly: 4 + 4, not 7 + 1
    chart_->legend->setWrap((items + lines - 1) / lines);
    chart_->legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    chart_->replot();
}

bool RankRolesView::eventFilter(QObject* watched, QEvent* e) {
    if (watched == chart_ && e->type() == QEvent::Resize) fitToSize();
    return QWidget::eventFilter(watched, e);
}

} // namespace strata
