#pragma once
// The Gaps dock's table: every device gap over the threshold (core/analysis/gap_causes.h) with its
// start (from the trace start), length, cause, how late its launch was, why in a line (the
// dominant frame, the blocking call, what a dependency waited on), where the gap's time went
// on the launching thread (gap_breakdown.h) and what the process's threads were blocked in
// meanwhile (other_threads.h); a RowTableModel whose Qt::UserRole gives numbers
// (sorting, CSV) and Qt::ToolTipRole the gap's whole description.
#include "analysis/gaps/gap_causes.h"
#include "charts/row_table_model.h"

#include <memory>

namespace strata {

class GapsTableModel : public RowTableModel<const ExplainedGap*> {
public:
    enum Column { Start, Length, Cause, Late, Device, Because, CpuWork, OtherThreads, ColumnCount };
    explicit GapsTableModel(QObject* parent = nullptr);

    // The device gaps of `gaps` (which the model keeps, with the trace their names are in).
    void setGaps(std::shared_ptr<const Trace> trace, std::shared_ptr<const GapCauses> gaps);
    const ExplainedGap* gapAt(int row) const;

private:
    static std::vector<RowColumn<const ExplainedGap*>> columns(const GapsTableModel* self);
    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const GapCauses> gaps_;
};

} // namespace strata
