#pragma once
// The Statistics dock's "GPU Time" tab: where each device's time went with overlap accounted
// (core/analysis/ops/gpu_time_breakdown.h, the rule TraceLens's GPU timeline uses). A stacked bar
// per device and per step: computation, exposed communication, exposed memcpy and idle, which
// sum to the span; and the table of every figure (communication and memcpy whole, busy too).
// Under that table, each stream's idle time as HTA splits it (host wait, kernel wait, other:
// core/analysis/gaps/idle_breakdown.h), and the GPU time under each GPU-side annotation
// (gpu_user_annotation, HTA's attribution: core/analysis/ops/gpu_annotations.h).
#include "analysis/gaps/idle_breakdown.h"
#include "analysis/ops/gpu_annotations.h"
#include "analysis/ops/gpu_time_breakdown.h"

#include <QWidget>

#include <memory>

class QAbstractItemModel;
class QCustomPlot;
class QTableView;

namespace strata {

class GpuTimeView : public QWidget {
    Q_OBJECT
public:
    explicit GpuTimeView(QWidget* parent = nullptr);
    ~GpuTimeView() override;
    // Null: nothing to show.
    void show(const GpuTimeBreakdown* breakdown, const IdleBreakdown* idle = nullptr,
              const GpuAnnotations* annotations = nullptr);
    QCustomPlot* chart() const { return chart_; }
    QAbstractItemModel* model() const;
    QAbstractItemModel* idleModel() const;
    QAbstractItemModel* annotationsModel() const;

private:
    struct Rows;
    QCustomPlot* chart_;
    std::unique_ptr<Rows> rows_;
    QTableView* table_;
    QTableView* idleTable_;
    QTableView* annotationsTable_;
};

} // namespace strata
