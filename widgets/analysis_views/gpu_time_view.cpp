#include "gpu_time_view.h"

#include "charts/chart_theme.h"
#include "charts/row_columns.h"
#include "charts/sortable_table.h"
#include "charts/stacked_bars.h"

#include <qcustomplot.h>

#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace strata {

namespace {

struct SplitRow {
    QString what; // "GPU 0" or a step's name
    int32_t device = -1;
    GpuTimeSplit split;
};

QString share(TimeNs part, TimeNs total) {
    return total > 0 ? QString::number(100.0 * double(part) / double(total), 'f', 1) + " %"
                     : QString("—");
}

RowColumn<SplitRow> timeOf(const QString& header, TimeNs GpuTimeSplit::*field) {
    return timeColumn<SplitRow>(header,
                                [field](const SplitRow& r) { return double(r.split.*field); });
}

// The stacks, bottom first: they sum to the span.
struct Stack {
    const char* name;
    TimeNs GpuTimeSplit::*field;
    QColor color;
};
const Stack kStacks[] = {
    {"computation", &GpuTimeSplit::computation, QColor(0x4e, 0x79, 0xa7)},
    {"exposed communication", &GpuTimeSplit::exposedComm, QColor(0xf2, 0x8e, 0x2b)},
    {"exposed memcpy", &GpuTimeSplit::exposedMemcpy, QColor(0x59, 0xa1, 0x4f)},
    {"idle", &GpuTimeSplit::idle, QColor(0xba, 0xb0, 0xac)},
};

constexpr int kChartRows = 40; // the first rows in the chart; the table has them all

RowColumn<StreamIdle> idleTime(const QString& header, TimeNs IdleSplit::*field) {
    return timeColumn<StreamIdle>(header,
                                  [field](const StreamIdle& r) { return double(r.split.*field); });
}

} // namespace

struct GpuTimeView::Rows {
    RowTableModel<SplitRow> model{{
        {"Device / step", [](const SplitRow& r) { return r.what; }, {}},
        {"Device", [](const SplitRow& r) { return QString::number(r.device); },
         [](const SplitRow& r) { return double(r.device); }},
        {"Ops", [](const SplitRow& r) { return QString::number(r.split.ops); },
         [](const SplitRow& r) { return double(r.split.ops); }},
        timeOf("Span", &GpuTimeSplit::total),
        timeOf("Computation", &GpuTimeSplit::computation),
        timeOf("Communication", &GpuTimeSplit::communication),
        timeOf("Exposed comm", &GpuTimeSplit::exposedComm),
        timeOf("Memcpy", &GpuTimeSplit::memcpy),
        timeOf("Exposed memcpy", &GpuTimeSplit::exposedMemcpy),
        timeOf("Busy", &GpuTimeSplit::busy),
        timeOf("Idle", &GpuTimeSplit::idle),
        {"Idle %", [](const SplitRow& r) { return share(r.split.idle, r.split.total); },
         [](const SplitRow& r) {
             return r.split.total > 0 ? double(r.split.idle) / double(r.split.total) : 0.0;
         }},
    }};
    RowTableModel<StreamIdle> idle{{
        {"Stream idle (HTA)",
         [](const StreamIdle& r) {
             return QStringLiteral("GPU %1 stream %2").arg(r.device).arg(r.stream);
         },
         {}},
        {"Ops", [](const StreamIdle& r) { return QString::number(r.ops); },
         [](const StreamIdle& r) { return double(r.ops); }},
        idleTime("Host wait", &IdleSplit::hostWait),
        idleTime("Kernel wait", &IdleSplit::kernelWait),
        idleTime("Other", &IdleSplit::other),
        {"Host wait %",
         [](const StreamIdle& r) { return share(r.split.hostWait, r.split.total()); },
         [](const StreamIdle& r) {
             return r.split.total() > 0 ? double(r.split.hostWait) / double(r.split.total()) : 0.0;
         }},
        {"No launch found", [](const StreamIdle& r) { return QString::number(r.withoutLaunch); },
         [](const StreamIdle& r) { return double(r.withoutLaunch); }},
    }};
    RowTableModel<GpuAnnotationRow> annotations{{
        {"GPU annotation",
         [](const GpuAnnotationRow& r) { return QString::fromStdString(r.name); },
         {}},
        {"Ops", [](const GpuAnnotationRow& r) { return QString::number(r.ops); },
         [](const GpuAnnotationRow& r) { return double(r.ops); }},
        timeColumn<GpuAnnotationRow>("GPU time",
                                     [](const GpuAnnotationRow& r) { return double(r.gpuTime); }),
        {"Share",
         [](const GpuAnnotationRow& r) { return QString::number(100.0 * r.share, 'f', 1) + " %"; },
         [](const GpuAnnotationRow& r) { return r.share; }},
        timeColumn<GpuAnnotationRow>(
            "Annotated", [](const GpuAnnotationRow& r) { return double(r.annotatedTime); }),
    }};
};

GpuTimeView::GpuTimeView(QWidget* parent)
    : QWidget(parent), chart_(new QCustomPlot(this)), rows_(std::make_unique<Rows>()),
      table_(makeSortableTable(&rows_->model, this, true)),
      idleTable_(makeSortableTable(&rows_->idle, this, true)),
      annotationsTable_(makeSortableTable(&rows_->annotations, this, true)) {
    annotationsTable_->setToolTip(
        tr("The GPU time of the kernels, copies and sets under each GPU-side annotation "
           "(gpu_user_annotation, record_function on the GPU), as HTA attributes them: an op "
           "belongs to the innermost annotation it overlaps on its own stream, whole."));
    idleTable_->setToolTip(
        tr("Each stream's idle time as HTA's idle breakdown splits it: host wait (the next op's "
           "launch came after the stream went idle), kernel wait (gaps under 30 µs between "
           "ops), other. Strata's own gap causes (Gaps dock) look at the whole device."));
    followTheme(chart_);
    chart_->setObjectName(QStringLiteral("gpu-time-breakdown"));
    putLegendBelow(chart_);
    setToolTip(tr("Each device's span split as TraceLens's GPU timeline splits it: computation, "
                  "communication not hidden under computation, copies hidden under neither, and "
                  "idle. A step holds the GPU work launched in it."));
    // Side by side, as the Overview tab: no taller than the other tabs of the dock.
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(chart_);
    auto* tables = new QSplitter(Qt::Vertical, this);
    tables->addWidget(table_);
    tables->addWidget(idleTable_);
    tables->addWidget(annotationsTable_);
    split->addWidget(tables);
    split->setSizes({1, 1}); // half each
    layout->addWidget(split, 1);
}

GpuTimeView::~GpuTimeView() = default;

QAbstractItemModel* GpuTimeView::model() const {
    return &rows_->model;
}

QAbstractItemModel* GpuTimeView::idleModel() const {
    return &rows_->idle;
}

QAbstractItemModel* GpuTimeView::annotationsModel() const {
    return &rows_->annotations;
}

void GpuTimeView::show(const GpuTimeBreakdown* b, const IdleBreakdown* idle,
                       const GpuAnnotations* annotations) {
    rows_->annotations.setRows(annotations ? annotations->rows : std::vector<GpuAnnotationRow>{});
    annotationsTable_->resizeColumnsToContents();
    annotationsTable_->setVisible(annotations && !annotations->rows.empty());
    rows_->idle.setRows(idle ? idle->streams : std::vector<StreamIdle>{});
    idleTable_->resizeColumnsToContents();
    std::vector<SplitRow> rows;
    if (b)
        for (const DeviceTimeBreakdown& d : b->devices) {
            rows.push_back({tr("GPU %1").arg(d.device), d.device, d.split});
            for (const StepTimeSplit& s : d.steps)
                rows.push_back({QString::fromStdString(s.step.name), d.device, s.split});
        }
    rows_->model.setRows(rows);
    table_->resizeColumnsToContents();
    chart_->clearPlottables();
    const int shown = std::min<int>(int(rows.size()), kChartRows);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    QCPBars* below = nullptr;
    double top = 0;
    for (const Stack& st : kStacks) // horizontal: a bar per row
        below = addStackedLayer(
            chart_->yAxis, chart_->xAxis, tr(st.name), st.color, shown,
            [&](int k) { return double(rows[size_t(k)].split.*st.field) / 1e6; }, below);
    for (int k = 0; k < shown; ++k) {
        const SplitRow& r = rows[size_t(k)];
        ticker->addTick(
            k, QStringLiteral("%1 (%2 idle)").arg(r.what, share(r.split.idle, r.split.total)));
        top = std::max(top, double(r.split.total) / 1e6);
    }
    chart_->yAxis->setTicker(ticker);
    chart_->yAxis->setRange(-0.6, std::max(1, shown) - 0.4);
    chart_->yAxis->setRangeReversed(true);
    chart_->xAxis->setRange(0, top > 0 ? top * 1.05 : 1);
    chart_->xAxis->setLabel(
        rows.size() > size_t(shown)
            ? tr("GPU time (ms); the first %1 of %2 rows").arg(shown).arg(rows.size())
            : tr("GPU time (ms)"));
    chart_->legend->setVisible(!rows.empty());
    chart_->replot();
}

} // namespace strata
