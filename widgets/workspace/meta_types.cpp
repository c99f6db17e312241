#include "meta_types.h"

#include "workspace.h"

namespace strata {

void registerMetaTypes() {
    qRegisterMetaType<strata::SliceRef>("strata::SliceRef");
    qRegisterMetaType<strata::InstantRef>("strata::InstantRef");
    qRegisterMetaType<strata::TimeRange>("strata::TimeRange");
    qRegisterMetaType<std::optional<strata::TimeRange>>("std::optional<strata::TimeRange>");
    qRegisterMetaType<strata::TraceSliceRef>("strata::TraceSliceRef");
    qRegisterMetaType<strata::TraceId>("strata::TraceId");
}

} // namespace strata
