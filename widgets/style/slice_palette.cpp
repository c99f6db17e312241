#include "slice_palette.h"

namespace strata {

namespace {
// Material-like mid tones, chosen to be told apart next to each other and to carry dark text.
constexpr QRgb kMain[] = {
    0xff5c9bd6, 0xffe0795b, 0xff63b98a, 0xffc98bd8, 0xffe6b84f, 0xff4fb3bf,
    0xffd8707f, 0xff8fb35a, 0xff7d89d6, 0xffd99a5c, 0xff59a6a0, 0xffb37fb8,
    0xff9ac2e6, 0xffc7a26b, 0xff6fc7b0, 0xffe39ac0, 0xffa3a3e0, 0xffb5c862,
};
constexpr QRgb kMemcpy[] = {0xffc8862b, 0xffa86a22, 0xffd9a441, 0xff8f5b1f};
constexpr QRgb kMemset[] = {0xff8a7fb0, 0xff6f6a96, 0xffa39cc4};

int family(SliceKind k) {
    if (k == SliceKind::Memcpy) return 1;
    if (k == SliceKind::Memset) return 2;
    return 0;
}
} // namespace

uint32_t nameHash(std::string_view name) {
    uint32_t h = 2166136261u;
    for (unsigned char c : name) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}

QRgb sliceColor(std::string_view name, SliceKind kind) {
    const uint32_t h = nameHash(name);
    switch (family(kind)) {
    case 1:
        return kMemcpy[h % std::size(kMemcpy)];
    case 2:
        return kMemset[h % std::size(kMemset)];
    default:
        return kMain[h % std::size(kMain)];
    }
}

QRgb textColorOn(QRgb bg) {
    const int lum = (qRed(bg) * 299 + qGreen(bg) * 587 + qBlue(bg) * 114) / 1000;
    return lum > 140 ? 0xff202020 : 0xfff4f4f4;
}

QRgb mergedColor(QRgb c) {
    // Halfway to a neutral slate, then darker: clearly "several things here", still tinted.
    const int r = (qRed(c) + 0x60) / 2 * 4 / 5, g = (qGreen(c) + 0x68) / 2 * 4 / 5,
              b = (qBlue(c) + 0x70) / 2 * 4 / 5;
    return qRgb(r, g, b);
}

void SliceColorCache::reset(size_t stringCount) {
    for (auto& c : cache_) c.assign(stringCount, 0);
}

void SliceColorCache::setColor(uint32_t nameId, QRgb color) {
    for (auto& c : cache_)
        if (nameId < c.size()) c[nameId] = color | 0xff000000u;
}

QRgb SliceColorCache::get(uint32_t nameId, std::string_view name, SliceKind kind) {
    auto& c = cache_[family(kind)];
    if (nameId >= c.size()) return sliceColor(name, kind);
    QRgb& v = c[nameId];
    if (v == 0) v = sliceColor(name, kind);
    return v;
}

QRgb sectionColorRgb(size_t s) {
    static constexpr QRgb palette[] = {0x4e79a7, 0xf28e2b, 0x59a14f, 0xe15759, 0x76b7b2,
                                       0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
    return 0xff000000u | palette[s % (sizeof palette / sizeof palette[0])];
}

} // namespace strata
