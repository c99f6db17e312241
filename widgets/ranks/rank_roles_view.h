#pragma once
// The Ranks dock's "Step roles" tab (issue 46): per rank of the set its step time by role, as the
// TensorBoard profiler's Overview splits it (core/analysis/ops/step_roles.h: each rank's own
// steps, every instant counted once for the first role active then), summed over the rank's steps
// or for the one step chosen (core/analysis/ranks/rank_step_roles.h). A stacked column per rank
// (their labels and the legend fitted to the chart's size), the split chosen above it: by role
// (kernel, memcpy, memset, communication, runtime, data loading, CPU op, other) or, as the plugin's
// "Distributed" view draws it, by comm/compute overlap (computation alone, overlapping,
// communication alone, other); the legend below; beside it the rank x role table with the overlap
// columns (first when the chart shows the overlap). The figures are those `strata-cli breakdown`
// prints for each rank alone (read from the ranks' digests: RankDigest::stepRoles): whole steps,
// whatever range is selected on the timeline.
#include "analysis/ranks/rank_step_roles.h"

#include <QStringList>
#include <QWidget>

#include <memory>
#include <vector>

class QAbstractItemModel;
class QComboBox;
class QCustomPlot;
class QTableView;

namespace strata {

class RankRolesView : public QWidget {
    Q_OBJECT
public:
    enum class Split { Roles, Overlap };
    struct Row {
        size_t index = 0; // the rank's position in the set
        QString rank;     // its label
        StepRoleSum sum;
    };

    explicit RankRolesView(QWidget* parent = nullptr);
    ~RankRolesView() override;
    // ranks[i] is labels[i]'s roles (no step: none known), in the set's order.
    void show(std::vector<StepRoles> ranks, const QStringList& labels);
    // The step summed ("" : every step); the same as choosing it above the chart.
    void setStep(const QString& name);
    QString step() const;
    void setSplit(Split split);
    Split split() const { return split_; }
    const std::vector<Row>& rows() const;
    QCustomPlot* chart() const { return chart_; }
    QComboBox* stepChoice() const { return step_; }
    QAbstractItemModel* model() const;
    // What the chart's tooltip says at `pos` (its pixels): the rank's roles and their shares.
    QString tipAt(const QPoint& pos) const;

protected:
    bool eventFilter(QObject* watched, QEvent* e) override; // the chart resized

private:
    struct Rows;
    void refill();
    void plot();
    void fitToSize();
    QComboBox* step_;
    QComboBox* splitChoice_;
    QCustomPlot* chart_;
    std::unique_ptr<Rows> rows_;
    QTableView* table_;
    std::vector<StepRoles> ranks_;
    QStringList labels_;
    Split split_ = Split::Roles;
};

} // namespace strata
