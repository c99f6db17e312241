#pragma once
// Stable slice colours: a hash of the name picks from a palette of distinguishable colours.
// Kernels and CPU slices share the main palette; memcpy (amber/brown) and memset (violet/slate)
// have their own small palettes so copies and sets stand apart from kernels.
#include "model/slice_kind.h"

#include <QColor>

#include <cstdint>
#include <string_view>
#include <vector>

namespace strata {

uint32_t nameHash(std::string_view name); // FNV-1a, stable across runs and platforms
QRgb sliceColor(std::string_view name, SliceKind kind);
QRgb textColorOn(QRgb background); // black or white, whichever reads better
QRgb mergedColor(QRgb sliceColor); // the darker, greyer tone of merged sub-pixel activity
// In-kernel section s's colour (opaque, qualitative): the same in the Sections dock's charts and
// the timeline's SM lanes.
QRgb sectionColorRgb(size_t s);

// Per-(name id, kind family) cache, filled on first use; no allocation per frame once warm.
class SliceColorCache {
public:
    void reset(size_t stringCount);
    // The colour a trace gives a name (opaque), in place of the palette's for every kind.
    void setColor(uint32_t nameId, QRgb color);
    QRgb get(uint32_t nameId, std::string_view name, SliceKind kind);

private:
    std::vector<QRgb> cache_[3]; // main, memcpy, memset; 0 = not computed yet
};

} // namespace strata
