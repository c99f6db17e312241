#pragma once
// The "Warnings" dock: every warning a load produced (skipped events, truncation, repairs), one
// per row, never hidden; and, first and in bold, what the trace's analysis found that changes
// what the user should believe about its figures (core/analysis/gap_checks.h: kernel records
// lost, CPU and GPU clocks apart, a capture window that cuts a step). The window shows the count
// in its status bar and opens this list by itself only for the latter (beliefWarnings()).
#include "workspace/analysis_panel.h"

class QListWidget;
class QLabel;

namespace strata {

class WarningsPanel : public AnalysisPanel {
    Q_OBJECT
public:
    WarningsPanel(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);
    void setWarnings(const QStringList& warnings, const QStringList& belief = {});
    int count() const;
    int beliefCount() const { return belief_; }
    QStringList warnings() const;
    QListWidget* list() const { return list_; }

signals:
    void changed(int count);
    // The analysis of a newly opened trace found warnings that change what its figures mean.
    void beliefWarnings(int count);

protected:
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    Preparation preparation() const override;
    void present(const std::shared_ptr<const TraceAnalysis>& analysis) override;
    // Always the whole trace: a selected range changes nothing here.
    void selectedRangeChanged(std::optional<TimeRange>) override {}

private:
    QListWidget* list_;
    QLabel* header_;
    int belief_ = 0;
};

} // namespace strata
