#include "analysis/arg_filter_fields.h"

#include "model/names/cupti_names.h"
#include "util/ascii_case.h"

#include <algorithm>
#include <array>
#include <charconv>

namespace strata {

namespace {

struct FieldName {
    std::string_view key; // lower case
    ModelField field;
};

constexpr FieldName kFieldNames[] = {
    {"name", ModelField::Name},
    {"cat", ModelField::Category},
    {"category", ModelField::Category},
    {"dur", ModelField::Dur},
    {"duration", ModelField::Dur},
    {"correlation", ModelField::Correlation},
    {"correlation id", ModelField::Correlation},
    {"external", ModelField::External},
    {"external id", ModelField::External},
    {"device", ModelField::Device},
    {"stream", ModelField::Stream},
    {"grid", ModelField::Grid},
    {"grid.x", ModelField::GridX},
    {"grid.y", ModelField::GridY},
    {"grid.z", ModelField::GridZ},
    {"block", ModelField::Block},
    {"block.x", ModelField::BlockX},
    {"block.y", ModelField::BlockY},
    {"block.z", ModelField::BlockZ},
    {"registers", ModelField::Registers},
    {"registers per thread", ModelField::Registers},
    {"shared", ModelField::Shared},
    {"shared memory", ModelField::Shared},
    {"bytes", ModelField::Bytes},
    {"kind", ModelField::Kind},
    {"copy kind", ModelField::Kind},
};

// "[x, y, z]" (spaces anywhere, fewer entries leave the rest 0): false for any other text.
bool dim3Of(std::string_view s, std::array<int64_t, 3>* out) {
    auto skip = [&] {
        while (!s.empty() &&
               (s.front() == ' ' || s.front() == '\n' || s.front() == '\t' || s.front() == '\r'))
            s.remove_prefix(1);
    };
    skip();
    if (s.empty() || s.front() != '[') return false;
    s.remove_prefix(1);
    *out = {0, 0, 0};
    for (size_t k = 0; k < 3; ++k) {
        skip();
        if (!s.empty() && s.front() == ']') return k > 0;
        const auto r = std::from_chars(s.data(), s.data() + s.size(), (*out)[k]);
        if (r.ec != std::errc()) return false;
        s.remove_prefix(size_t(r.ptr - s.data()));
        skip();
        if (!s.empty() && s.front() == ',') s.remove_prefix(1);
    }
    skip();
    return !s.empty() && s.front() == ']';
}

int dimIndex(ModelField f) {
    switch (f) {
    case ModelField::GridX:
    case ModelField::BlockX:
        return 0;
    case ModelField::GridY:
    case ModelField::BlockY:
        return 1;
    case ModelField::GridZ:
    case ModelField::BlockZ:
        return 2;
    default:
        return -1; // the product
    }
}

bool isGridField(ModelField f) {
    return f == ModelField::Grid || f == ModelField::GridX || f == ModelField::GridY ||
           f == ModelField::GridZ;
}

bool isBlockField(ModelField f) {
    return f == ModelField::Block || f == ModelField::BlockX || f == ModelField::BlockY ||
           f == ModelField::BlockZ;
}

// A dim3 as field `f`: one dimension, or the product with the text "[x, y, z]".
FilterValue dim3Value(ModelField f, const std::array<int64_t, 3>& d, std::string* scratch) {
    FilterValue v;
    v.present = true;
    const int k = dimIndex(f);
    if (k >= 0) {
        v.number = static_cast<long double>(d[size_t(k)]);
        return v;
    }
    v.number = static_cast<long double>(d[0]) * static_cast<long double>(d[1] ? d[1] : 1) *
               static_cast<long double>(d[2] ? d[2] : 1);
    *scratch = "[" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
               std::to_string(d[2]) + "]";
    v.text = *scratch;
    return v;
}

FilterValue number(int64_t n) {
    FilterValue v;
    v.present = true;
    v.number = static_cast<long double>(n);
    return v;
}

FilterValue gpuFieldValue(const GpuActivity& g, ModelField f, std::string* scratch) {
    switch (f) {
    case ModelField::Device:
        return g.device >= 0 ? number(g.device) : FilterValue{};
    case ModelField::Stream:
        return g.stream >= 0 ? number(g.stream) : FilterValue{};
    case ModelField::Registers:
        return g.registersPerThread >= 0 ? number(g.registersPerThread) : FilterValue{};
    case ModelField::Shared:
        if (g.staticSharedBytes < 0 && g.dynamicSharedBytes < 0) return {};
        return number(int64_t(std::max(0, g.staticSharedBytes)) +
                      std::max(0, g.dynamicSharedBytes));
    case ModelField::Bytes:
        return g.bytes >= 0 ? number(g.bytes) : FilterValue{};
    case ModelField::Kind: {
        const std::string_view name = copyKindName(g.copyKind);
        if (name.empty()) return {};
        FilterValue v;
        v.present = true;
        v.text = name;
        return v;
    }
    default:
        break;
    }
    const auto& dims = isGridField(f) ? g.grid : g.block;
    if ((isGridField(f) || isBlockField(f)) && dims[0] > 0)
        return dim3Value(f, {dims[0], dims[1], dims[2]}, scratch);
    return {};
}

} // namespace

ModelField modelFieldOf(std::string_view key) {
    for (const FieldName& n : kFieldNames)
        if (equalsIgnoreAsciiCase(key, n.key)) return n.field;
    return ModelField::None;
}

std::string_view kinetoArgKey(ModelField f) {
    switch (f) {
    case ModelField::Correlation:
        return "correlation";
    case ModelField::External:
        return "External id";
    case ModelField::Device:
        return "device";
    case ModelField::Stream:
        return "stream";
    case ModelField::Registers:
        return "registers per thread";
    case ModelField::Shared:
        return "shared memory";
    case ModelField::Bytes:
        return "bytes";
    default:
        if (isGridField(f)) return "grid";
        if (isBlockField(f)) return "block";
        return "";
    }
}

bool isTimeField(ModelField f) {
    return f == ModelField::Dur;
}

FilterValue sliceFieldValue(const Trace& trace, const Track& track, SliceIndex i, ModelField f,
                            std::string* scratch) {
    if (f == ModelField::Dur) return number(track.slices.dur[i]);
    const uint32_t e = track.slices.extra[i];
    if (e == kNoExtra) return {};
    const SliceExtra& x = trace.extras()[e];
    switch (f) {
    case ModelField::Correlation:
        return x.correlation >= 0 ? number(x.correlation) : FilterValue{};
    case ModelField::External:
        return x.external != SliceExtra::kNone ? number(trace.externalIds()[x.external])
                                               : FilterValue{};
    default:
        break;
    }
    if (x.gpu == SliceExtra::kNone) return {};
    return gpuFieldValue(trace.gpuActivities()[x.gpu], f, scratch);
}

FilterValue argFieldValue(ModelField f, const ArgValue& v, std::string* scratch) {
    std::array<int64_t, 3> d{};
    if ((isGridField(f) || isBlockField(f)) && v.type == ArgValue::Type::Json && dim3Of(v.s, &d))
        return dim3Value(f, d, scratch);
    return filterValueOf(v, scratch);
}

} // namespace strata
