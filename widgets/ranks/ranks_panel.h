#pragma once
// The Ranks dock (docs/ranks.md): the ranks of a job open in one window (workspace/rank_set.h),
// side by side. On top, how the clocks were aligned (the method, why, the matched collectives'
// spread, the warnings) with a choice of method; then three tabs:
//   Ranks        per rank its label, host, offset (double-click to set it by hand) and its
//                uncertainty, kernels, GPU busy and idle; a context menu removes a rank or
//                collapses / expands its tracks on the timeline;
//   Steps        the rank x step map (widgets/ranks/step_map.h: coloured by how late each
//                rank started the step, the wait it caused or its length, as chosen above it;
//                the straggler outlined; a cell's tooltip says it all), per step the straggler,
//                by how much and how it was found, and per rank and step its late start,
//                length, GPU busy, idle and idle by cause side by side;
//   Collectives  every matched collective instance: the late rank, by how much, the longest
//                wait; a click zooms every rank to that instance and shows per rank how long it
//                waited.
//   Step roles   per rank its step time by role and comm/compute overlap under the TensorBoard
//                plugin's rule, summed over its steps or for one step (rank_roles_view.h).
// With a range selected, Steps and Collectives list what lies in it. Every figure is the
// cross-rank report's (core/analysis/cross_rank.h), the one strata-cli ranks prints. For a set
// opened from digests (a cluster's job, RankSet::fromDigests) a double-click on a rank's row or
// on a cell of the map asks for that rank's trace (rankTraceRequested), as the rank's context
// menu does for any set.
#include "analysis/gaps/gap_causes.h"
#include "step_map.h"
#include "workspace/trace_panel.h"

#include <QStringList>

#include <array>
#include <vector>

class QComboBox;
class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableView;

namespace strata {

class RankRolesView;
class RankSet;
struct CrossRankCollective;
template <typename Row> class RowTableModel;

class RanksPanel : public TracePanel {
    Q_OBJECT
public:
    RanksPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);

    struct RankRow {
        size_t index = 0;
        QString label, host, file;
        std::optional<TimeNs> offset, uncertainty;
        uint64_t kernels = 0;
        TimeNs busy = 0, idle = 0;
    };
    struct StepRow {
        QString name, straggler, how;
        TimeNs delay = 0, median = 0;
        size_t collectives = 0;
    };
    // One rank in one step: what the map's cell summarises.
    struct RankStepRow {
        QString step, rank;
        TimeNs duration = 0, busy = 0, idle = 0, causedWait = 0;
        std::array<TimeNs, kGapCauseCount> idleByCause{};
        uint64_t kernels = 0;
        std::optional<TimeNs> lateStart; // none: not aligned
    };
    struct CollectiveRow {
        size_t index = 0; // into the report's collectives
        QString op, group, name, step, late;
        int64_t instance = 0;
        TimeNs lateBy = 0, maxWait = 0;
        size_t ranks = 0;
    };

    QString alignmentText() const;
    QTabWidget* tabs() const { return tabs_; }
    QCustomPlot* stepMap() const { return stepMap_; }
    // What the map's colour says (the choice above it); the same as choosing it there.
    StepMapColour mapColour() const { return mapColour_; }
    void setMapColour(StepMapColour colour);
    // The map's tooltip at `pos` (the plot's pixels), empty off the cells.
    QString mapTipAt(const QPoint& pos) const;
    QCustomPlot* arrivals() const { return arrivals_; }
    RankRolesView* rolesView() const { return roles_; }
    const std::vector<RankRow>& rankRows() const;
    const std::vector<StepRow>& stepRows() const;
    const std::vector<RankStepRow>& rankStepRows() const;
    const std::vector<CollectiveRow>& collectiveRows() const;
    // The same as a click on row `row` of the Collectives table (in the model's order): every
    // rank zooms to the instance, and the chart shows its waits.
    void showCollective(int row);
    // The offset of rank `index` set by hand (the same as editing it in the table).
    void setOffset(size_t index, TimeNs offset);
    // The rank the map's cell at `pos` (the plot's pixels) is the row of, if any.
    std::optional<size_t> mapRankAt(const QPoint& pos) const;
    // The step and the rank of the map's cell at `pos`, if any.
    std::optional<std::pair<size_t, size_t>> mapCellAt(const QPoint& pos) const;

signals:
    // The user asked to see rank `index`'s own trace (RankSet::ranks()[index].path).
    void rankTraceRequested(size_t index);

protected:
    void selectedRangeChanged(std::optional<TimeRange> r) override;

private:
    void refresh();
    QWidget* mapWithChoice(); // the colour choice over the map
    void fillAlignChoices();
    void chooseAlignment(int choice);
    void editOffset(int row); // a row of the rank model
    void rankMenu(const QPoint& at);
    bool inRange(TimeNs fromOrigin) const;

    RankSet* ranks_;
    QLabel* alignment_;
    QComboBox* align_;
    QComboBox* colour_;
    QTabWidget* tabs_;
    QTableView* rankTable_;
    QTableView* stepTable_;
    QTableView* rankStepTable_;
    QTableView* collectiveTable_;
    QCustomPlot* stepMap_;
    QCustomPlot* arrivals_;
    RankRolesView* roles_;
    RowTableModel<RankRow>* rankModel_;
    RowTableModel<StepRow>* stepModel_;
    RowTableModel<RankStepRow>* rankStepModel_;
    RowTableModel<CollectiveRow>* collectiveModel_;
    QStringList labels_;
    StepMapColour mapColour_ = StepMapColour::LateStart;
    bool filling_ = false;
};

} // namespace strata
