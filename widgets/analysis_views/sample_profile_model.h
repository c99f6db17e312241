#pragma once
// The top functions of the sampled stacks (core/analysis/samples/sample_profile.h, the numbers of
// `strata-cli samples`) as a table: function, self and total samples, their shares of every
// selected sample. The Call Tree dock shows it in its Samples mode.
#include "analysis/samples/sample_profile.h"
#include "charts/row_table_model.h"

#include <QString>

namespace strata {

struct SampleFunctionRow {
    QString name; // "file:line function"
    QString full; // the frame as recorded
    uint64_t self = 0, total = 0;
    double selfShare = 0, totalShare = 0;
};

class SampleProfileModel : public RowTableModel<SampleFunctionRow> {
public:
    enum Column { Function, Self, SelfShare, Total, TotalShare, ColumnCount };
    explicit SampleProfileModel(QObject* parent = nullptr);
    void setProfile(const Trace* trace, const SampleProfile* profile); // null: empty
};

} // namespace strata
