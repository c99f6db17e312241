#pragma once
// The status bar's word on the trace's clocks (core/analysis/clock_checks.h, issue 27): hidden
// while the GPU and CPU clocks agree; when the GPU ops start long after launches made on an idle
// device (a consistent offset) or kernels start before their launch, it says so and offers to
// shift every GPU op by the estimated offset (Trace::withGpuTimeShifted: the trace is amended,
// every view follows). Always over the whole trace, whatever range is selected.
#include "workspace/analysis_panel.h"

class QLabel;
class QToolButton;

namespace strata {

class ClockNotice : public AnalysisPanel {
    Q_OBJECT
public:
    ClockNotice(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);

    QString text() const;           // what it says (empty: hidden)
    TimeNs suggestedShift() const { return shift_; }
    void applyShift();              // what its button does

protected:
    Preparation preparation() const override;
    void present(const std::shared_ptr<const TraceAnalysis>& analysis) override;
    void selectedRangeChanged(std::optional<TimeRange> r) override; // ignored: the whole trace

private:
    QLabel* label_;
    QToolButton* apply_;
    TimeNs shift_ = 0;
};

} // namespace strata
