#include "analysis/ops/collectives.h"

#include "analysis/ops/kernel_category.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace strata {

namespace {

// Kineto's arg keys, as interned in this trace (kNotFound when no slice carries them).
struct CollectiveKeys {
    StringId group = StringPool::kNotFound;
    StringId seq = StringPool::kNotFound;
    StringId collective = StringPool::kNotFound; // "Collective name"
    StringId dst = StringPool::kNotFound;        // "Dst Rank" (a send's peer)
    StringId src = StringPool::kNotFound;        // "Src Rank" (a receive's peer)
    bool any() const {
        return group != StringPool::kNotFound || seq != StringPool::kNotFound ||
               collective != StringPool::kNotFound || dst != StringPool::kNotFound ||
               src != StringPool::kNotFound;
    }
};

std::string argText(const ArgValue& v) {
    switch (v.type) {
    case ArgValue::Type::String:
        return v.s;
    case ArgValue::Type::Int:
        return std::to_string(v.i);
    case ArgValue::Type::UInt:
        return std::to_string(v.u);
    default:
        return v.toString();
    }
}

int64_t argInt(const ArgValue& v) {
    if (v.type == ArgValue::Type::Int) return v.i;
    if (v.type == ArgValue::Type::UInt) return v.u <= uint64_t(INT64_MAX) ? int64_t(v.u) : -1;
    if (v.type == ArgValue::Type::Double && v.d >= 0 && v.d < 9e18 && std::floor(v.d) == v.d)
        return int64_t(v.d);
    if (v.type == ArgValue::Type::String && !v.s.empty() &&
        v.s.find_first_not_of("0123456789") == std::string::npos && v.s.size() < 19)
        return std::stoll(v.s);
    return -1;
}

// Fills group / seq / collective name / peer from slice `r`'s args where they are still unknown;
// true once all are known (the peer only for a send or a receive).
bool takeArgs(const Trace& t, SliceRef r, const CollectiveKeys& keys, CollectiveKernel& c) {
    const ArgSetId id = t.track(r.track).slices.args[r.index];
    if (id == kNoArgs) return false;
    ArgValue v;
    const auto has = [&](StringId key) {
        return key != StringPool::kNotFound && t.argStore().find(id, key, &v);
    };
    if (c.group.empty() && has(keys.group)) c.group = argText(v);
    if (c.seq < 0 && has(keys.seq)) c.seq = argInt(v);
    if (c.collective.empty() && has(keys.collective)) c.collective = argText(v);
    if (c.peer < 0 && (has(keys.dst) || has(keys.src))) c.peer = argInt(v);
    const bool p2p = c.collective == "send" || c.collective == "recv";
    return !c.group.empty() && c.seq >= 0 && !c.collective.empty() && (!p2p || c.peer >= 0);
}

} // namespace

std::string collectiveOp(std::string_view name) {
    static constexpr std::array<std::string_view, 3> kPrefixes = {"ncclKernel_", "ncclDevKernel_",
                                                                  "rcclKernel_"};
    for (std::string_view p : kPrefixes) {
        if (name.substr(0, p.size()) != p) continue;
        const std::string_view rest = name.substr(p.size());
        return std::string(rest.substr(0, rest.find_first_of("_(<")));
    }
    return std::string(name.substr(0, name.find_first_of("(<")));
}

std::vector<CollectiveKernel> findCollectives(const Trace& t, const GpuOpList& ops) {
    const CollectiveKeys keys{t.strings().find("Process Group Name"), t.strings().find("Seq"),
                              t.strings().find("Collective name"), t.strings().find("Dst Rank"),
                              t.strings().find("Src Rank")};
    const bool anyKeys = keys.any();
    std::vector<CollectiveKernel> out;
    for (const GpuOp& op : ops.ops) {
        if (op.kind != SliceKind::Kernel) continue;
        const std::string_view name = t.name(op.ref);
        if (kernelCategory(op.kind, name) != KernelCategory::Communication) continue;
        CollectiveKernel c;
        c.name = std::string(name);
        c.op = collectiveOp(name);
        c.device = op.device;
        c.stream = op.stream;
        c.start = op.start;
        c.end = op.end;
        // The kernel's own args, then its launch call and the CPU ops around it, innermost first.
        if (anyKeys && !takeArgs(t, op.ref, keys, c)) {
            const SliceRef launch = t.launchOf(op.ref);
            if (launch.valid() && !takeArgs(t, launch, keys, c)) {
                const std::vector<SliceRef> around = t.ancestors(launch);
                for (auto it = around.rbegin(); it != around.rend(); ++it)
                    if (takeArgs(t, *it, keys, c)) break;
            }
        }
        out.push_back(std::move(c));
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const CollectiveKernel& a, const CollectiveKernel& b) {
                         if (a.start != b.start) return a.start < b.start;
                         return a.device != b.device ? a.device < b.device : a.stream < b.stream;
                     });
    return out;
}

} // namespace strata
