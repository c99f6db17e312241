// Anchors the resources library; the .qrc files beside it are compiled in by AUTORCC.
namespace strata {
const char* resourcesVersion() { return "1"; }
} // namespace strata
