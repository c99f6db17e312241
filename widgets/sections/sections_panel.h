#pragma once
// The Sections dock: in-kernel timer sections (kernels/include/strata/sections.cuh) of the
// current trace's kernel launches, and the timer arrays imported into it (File > Import Timer
// Sections…: they belong to the trace, Trace::sections(), with no launch). For the chosen launch,
// or all launches of a kernel: a table per section, the slowest blocks, a box plot per section
// across blocks, stacked bars per iteration, a block x section heatmap and the SM timeline. For an
// imported array times[section][iteration]: the table over iterations (as strata-cli sections),
// a box plot across iterations and the iterations' bars; the heatmap and SM timeline tabs are off
// (they need blocks and times) and say why. Selecting a kernel with sections on the timeline shows
// its launch; every table exports CSV and every chart PNG/SVG/PDF. Computed off the GUI thread.
#include "section_view_data.h"
#include "workspace/trace_panel.h"

class QComboBox;
class QCustomPlot;
class QLabel;
class QTabWidget;
class QTableView;

namespace strata {

class JobRunner;
class SectionStatsModel;
class SlowestBlocksModel;

class SectionsPanel : public TracePanel {
    Q_OBJECT
public:
    enum Tab { TableTab, BoxTab, IterationsTab, HeatmapTab, SmTimelineTab };
    SectionsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    ~SectionsPanel() override;

    int choiceCount() const;
    QString choiceLabel(int i) const;
    void setChoice(int i);
    void showTab(Tab t);
    void selectSlowestBlock(int row); // marks it on the charts
    void waitForJobs();               // screenshots, tests

    const SectionViewData* view() const { return view_.get(); }
    SectionStatsModel* statsModel() const { return stats_; }
    SlowestBlocksModel* slowestModel() const { return slowest_; }
    QCustomPlot* chart(Tab t) const;

signals:
    void importRequested(); // its Import… button: File > Import Timer Sections…

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void selectedSliceChanged(const TraceSliceRef& r) override;

private:
    struct Choice {
        QString label;
        std::vector<const SectionSet*> sets;
    };
    void rebuildChoices();
    void compute();
    void show(std::shared_ptr<SectionViewData> v);
    void redrawCharts();
    void exportCurrent();

    std::shared_ptr<const Trace> trace_;
    std::vector<Choice> choices_;
    std::shared_ptr<SectionViewData> view_;
    long highlight_ = -1;
    JobRunner* jobs_;
    QComboBox* choice_;
    QLabel* info_;
    QTabWidget* tabs_;
    QTableView* statsView_;
    QTableView* slowestView_;
    QWidget* slowestBox_ = nullptr;
    SectionStatsModel* stats_;
    SlowestBlocksModel* slowest_;
    QCustomPlot* charts_[4] = {};
};

} // namespace strata
