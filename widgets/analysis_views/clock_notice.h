#pragma once
// The status bar's word on the trace's clocks (core/analysis/clock_checks.h, issue 27): hidden
// while the GPU and CPU clocks agree; when the GPU ops start long after launches made on an idle
// device (a consistent offset) or kernels start before their launch, it says so and offers to
// shift every GPU op by the estimated offset (Trace::withGpuTimeShifted: the trace is amended,
// every view follows). Always over the whole trace, whatever range is selected.
//
// Once shifted, it says so for as long as the trace is shown ("GPU shifted by −150.0 ms", issue
// 44: the times on screen are then not the recorded ones) with Undo beside it, which shifts the
// GPU ops back. An amendment of the shifted trace (timer sections imported) keeps both; another
// trace shown forgets them.
#include "workspace/analysis_panel.h"

class QLabel;
class QToolButton;

namespace strata {

class ClockNotice : public AnalysisPanel {
    Q_OBJECT
public:
    ClockNotice(Workspace* workspace, Navigation* navigation, QWidget* parent = nullptr);

    QString text() const; // the clock warning (empty: none)
    TimeNs suggestedShift() const { return shift_; }
    void applyShift(); // what its button does
    // The shift applied to the trace shown, in all (0: none), what the notice says of it (empty:
    // nothing), and its Undo.
    TimeNs appliedShift() const { return applied_; }
    QString shiftText() const;
    void undoShift();

protected:
    Preparation preparation() const override;
    void present(const std::shared_ptr<const TraceAnalysis>& analysis) override;
    void traceChanged(const std::shared_ptr<const Trace>& trace) override;
    void selectedRangeChanged(std::optional<TimeRange> r) override; // ignored: the whole trace

private:
    void shiftBy(TimeNs shift);
    void showParts();

    QLabel* label_;
    QToolButton* apply_;
    QLabel* shifted_;
    QToolButton* undo_;
    TimeNs shift_ = 0;   // suggested by the clock check
    TimeNs applied_ = 0; // applied to the trace shown
    bool warning_ = false;
};

} // namespace strata
