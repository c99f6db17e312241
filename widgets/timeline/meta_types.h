#pragma once
// Qt meta-type declarations for the model types the timeline's signals carry.
#include "model/time.h"
#include "model/trace.h"

#include <QMetaType>

#include <optional>

Q_DECLARE_METATYPE(strata::SliceRef)
Q_DECLARE_METATYPE(strata::TimeRange)
Q_DECLARE_METATYPE(std::optional<strata::TimeRange>)

namespace strata {
// Registers the types above (idempotent); TimelineView's constructor calls it.
void registerTimelineMetaTypes();
} // namespace strata
