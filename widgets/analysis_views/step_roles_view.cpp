#include "step_roles_view.h"

#include "charts/chart_theme.h"
#include "charts/row_columns.h"
#include "charts/sortable_table.h"
#include "charts/stacked_bars.h"
#include "style/step_role_style.h"

#include <qcustomplot.h>

#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace strata {

namespace {

RowColumn<StepRoleTimes> roleColumn(int r) {
    return timeColumn<StepRoleTimes>(stepRoleText(StepRole(r)), [r](const StepRoleTimes& t) {
        return double(t.role[size_t(r)]);
    });
}

std::vector<RowColumn<StepRoleTimes>> columns() {
    std::vector<RowColumn<StepRoleTimes>> c{
        {"Step", [](const StepRoleTimes& t) { return QString::fromStdString(t.name); }, {}},
        timeColumn<StepRoleTimes>("Step time",
                                  [](const StepRoleTimes& t) { return double(t.duration()); })};
    for (int r = 0; r < kStepRoleCount; ++r) c.push_back(roleColumn(r));
    c.push_back(timeColumn<StepRoleTimes>(
        "Computation", [](const StepRoleTimes& t) { return double(t.computation); }));
    c.push_back(timeColumn<StepRoleTimes>(
        "Communication (all)", [](const StepRoleTimes& t) { return double(t.communication); }));
    c.push_back(timeColumn<StepRoleTimes>(
        "Overlap", [](const StepRoleTimes& t) { return double(t.overlap); }));
    return c;
}

constexpr int kChartSteps = 60; // the first steps in the chart; the table has them all

} // namespace

struct StepRolesView::Rows {
    RowTableModel<StepRoleTimes> model{columns()};
};

StepRolesView::StepRolesView(QWidget* parent)
    : QWidget(parent), chart_(new QCustomPlot(this)), rows_(std::make_unique<Rows>()),
      table_(makeSortableTable(&rows_->model, this, true)) {
    followTheme(chart_);
    chart_->setObjectName(QStringLiteral("step-time-by-role"));
    putLegendBelow(chart_, 4);
    setToolTip(tr("Each step's time by role as the TensorBoard profiler's Overview splits it: "
                  "every instant counted once, for the first role active then (kernel, memcpy, "
                  "memset, communication, runtime, data loading, CPU op); steps stretched to "
                  "the GPU work they launched."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(chart_);
    split->addWidget(table_);
    split->setSizes({1, 1});
    layout->addWidget(split, 1);
}

StepRolesView::~StepRolesView() = default;

QAbstractItemModel* StepRolesView::model() const {
    return &rows_->model;
}

void StepRolesView::show(const StepRoles* roles) {
    const std::vector<StepRoleTimes> steps = roles ? roles->steps : std::vector<StepRoleTimes>{};
    rows_->model.setRows(steps);
    table_->resizeColumnsToContents();
    chart_->clearPlottables();
    const int shown = std::min<int>(int(steps.size()), kChartSteps);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QCPBars* below = nullptr;
    double top = 0;
    for (int r = 0; r < kStepRoleCount; ++r) // a column per step
        below = addStackedLayer(
            chart_->xAxis, chart_->yAxis, stepRoleText(StepRole(r)), stepRoleColor(StepRole(r)),
            shown, [&](int k) { return double(steps[size_t(k)].role[size_t(r)]) / 1e6; }, below);
    for (int k = 0; k < shown; ++k) {
        // "ProfilerStep#12" as "12", as the plugin labels its columns.
        const QString name = QString::fromStdString(steps[size_t(k)].name);
        ticker->addTick(k, name.contains('#') ? name.section('#', -1) : name);
        top = std::max(top, double(steps[size_t(k)].duration()) / 1e6);
    }
    chart_->xAxis->setTicker(ticker);
    chart_->xAxis->setTickLabelRotation(shown > 6 ? 45 : 0);
    chart_->xAxis->setRange(-0.6, std::max(1, shown) - 0.4);
    chart_->yAxis->setRange(0, top > 0 ? top * 1.05 : 1);
    chart_->yAxis->setLabel(tr("step time (ms)"));
    chart_->xAxis->setLabel(tr("step"));
    chart_->legend->setVisible(!steps.empty());
    chart_->replot();
}

} // namespace strata
