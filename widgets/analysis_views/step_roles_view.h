#pragma once
// The Statistics dock's "Steps" tab: each step's time by role as the TensorBoard profiler's
// Overview splits it (core/analysis/ops/step_roles.h): a stacked bar per step (kernel, memcpy,
// memset, communication, runtime, data loading, CPU op, other: they sum to the step) beside the
// table of every figure with the comm/compute overlap.
#include "analysis/ops/step_roles.h"

#include <QWidget>

#include <memory>

class QAbstractItemModel;
class QCustomPlot;
class QTableView;

namespace strata {

class StepRolesView : public QWidget {
    Q_OBJECT
public:
    explicit StepRolesView(QWidget* parent = nullptr);
    ~StepRolesView() override;
    // Null: nothing to show.
    void show(const StepRoles* roles);
    QCustomPlot* chart() const { return chart_; }
    QAbstractItemModel* model() const;

private:
    struct Rows;
    QCustomPlot* chart_;
    std::unique_ptr<Rows> rows_;
    QTableView* table_;
};

} // namespace strata
