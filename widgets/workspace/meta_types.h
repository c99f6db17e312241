#pragma once
// Qt meta-type declarations for the model types that the workspace's and the views' signals
// carry (queued connections, QVariant), and their one registration.
#include "model/time.h"
#include "model/trace.h"

#include <QMetaType>

#include <optional>

Q_DECLARE_METATYPE(strata::SliceRef)
Q_DECLARE_METATYPE(strata::InstantRef)
Q_DECLARE_METATYPE(strata::TimeRange)
Q_DECLARE_METATYPE(std::optional<strata::TimeRange>)

namespace strata {
// Registers the types above and the workspace's own (TraceSliceRef, TraceId); idempotent. The
// Workspace's constructor calls it, so every view made over a workspace finds them registered.
void registerMetaTypes();
} // namespace strata
