#pragma once
// The compiled-in resources (:/strata/sample_trace.json, :/strata/strata.png).
#include <QString>

namespace strata {

// Registers the .qrc data; call once from main() (a static library's resources are otherwise
// dropped by the linker).
void initResources();
// Resource path of the bundled sample trace.
inline QString sampleTraceResource() {
    return QStringLiteral(":/strata/sample_trace.json");
}
// A file-system copy of the sample trace (readers take paths), written to the cache dir on
// first use. Empty on failure, with *error set.
QString sampleTracePath(QString* error = nullptr);

} // namespace strata
