#include "io/json/json_device_events.h"

namespace strata {

namespace {

bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

} // namespace

bool isQueueArgKey(std::string_view key) {
    return key == "stream" || key == "stream_id" || key == "queue" || key == "queue_id" ||
           key == "sqid";
}

DeviceKind deviceKindOf(SliceKind byCategory, std::string_view category, char ph, int64_t pid,
                        const DeviceArgs& args) {
    DeviceKind out;
    out.kind = byCategory;
    if (byCategory != SliceKind::Generic) return out;
    if (args.correlation && endsWith(category, "_runtime")) {
        out.kind = SliceKind::CudaRuntime;
        return out;
    }
    if (args.correlation && endsWith(category, "_driver")) {
        out.kind = SliceKind::CudaDriver;
        return out;
    }
    const bool onDeviceLane =
        args.device ? *args.device == pid : pid >= 0 && pid < kMaxDeviceLanePid;
    const bool looksLikeDeviceWork = args.queue || (args.device && *args.device == pid);
    if (!looksLikeDeviceWork) return out;
    if (ph == 'X' && args.queue && args.correlation && onDeviceLane) {
        out.kind = SliceKind::Kernel;
        return out;
    }
    out.notTakenWhy = category.empty() ? std::string("an event without \"cat\"")
                                       : "category '" + std::string(category) + "'";
    out.notTakenWhy += " looks like device work (";
    out.notTakenWhy += args.queue ? "its args name a stream or queue" : "its \"device\" is its pid";
    out.notTakenWhy += ") but ";
    if (ph != 'X')
        out.notTakenWhy += "is not an 'X' event";
    else if (!args.queue)
        out.notTakenWhy += "names no stream or queue";
    else if (!args.correlation)
        out.notTakenWhy += "carries no \"correlation\" to a runtime call";
    else
        out.notTakenWhy += "is not on a device lane (its pid is not its \"device\" or a device "
                           "index)";
    out.notTakenWhy += "; kept as a CPU slice";
    return out;
}

} // namespace strata
