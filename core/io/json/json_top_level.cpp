#include "io/json/json_top_level.h"

#include "model/run_info.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <type_traits>

namespace strata {

bool applyTopLevel(TraceBuilder& b, const std::vector<TopLevelValue>& values, LoadError* error) {
    std::string unread;
    for (const TopLevelValue& v : values) {
        if (v.raw.empty()) {
            if (topLevelKeepLimit(v.key) == kJsonMaxTopLevelValue) // one the reader uses
                b.addWarning("top-level key \"" + v.key + "\" (" + std::to_string(v.size) +
                             " bytes at byte " + std::to_string(v.offset) +
                             ") not kept: larger than 16 MiB");
            else // not used by Strata: read past, said in the metadata
                unread += (unread.empty() ? "" : ", ") + v.key + " (" + std::to_string(v.size) +
                          " bytes)";
            continue;
        }
        nlohmann::json j = nlohmann::json::parse(v.raw, nullptr, /*allow_exceptions=*/false);
        if (j.is_discarded()) {
            error->byteOffset = v.offset;
            error->line = v.line;
            error->message = "expected a valid JSON value for the top-level key \"" + v.key + "\"";
            return false;
        }
        if (v.key == "strata_run" && j.is_object()) {
            // What was run, as Strata's export writes it (io/export): back into the model.
            RunInfo run;
            auto num = [&](const char* key) -> std::optional<int64_t> {
                auto it = j.find(key);
                if (it == j.end() || !it->is_number_integer()) return std::nullopt;
                return it->get<int64_t>();
            };
            run.pid = num("pid").value_or(0);
            if (auto c = num("exit_code")) run.exitCode = int(*c);
            if (auto s = num("signal")) run.signal = int(*s);
            run.startUnixNs = num("start_unix_ns").value_or(0);
            run.durationNs = num("duration_ns").value_or(0);
            if (runInfoFromJson(v.raw, &run).empty()) {
                b.setRunInfo(run);
                continue;
            }
        }
        if (j.is_string())
            b.setMetadata(v.key, j.get<std::string>());
        else
            b.setMetadata(v.key, j.dump());
        if (v.key != "deviceProperties" || !j.is_array()) continue;
        for (const auto& dev : j) {
            if (!dev.is_object()) continue;
            DeviceInfo info;
            auto num = [&](const char* key, auto* out) {
                auto it = dev.find(key);
                if (it != dev.end() && it->is_number())
                    *out = static_cast<std::remove_reference_t<decltype(*out)>>(
                        it->template get<double>());
            };
            num("id", &info.id);
            num("numSms", &info.smCount);
            num("totalGlobalMem", &info.totalMemoryBytes);
            num("computeMajor", &info.computeMajor);
            num("computeMinor", &info.computeMinor);
            num("clockRate", &info.clockRateKHz);
            num("memoryClockRate", &info.memoryClockRateKHz);
            if (auto it = dev.find("name"); it != dev.end() && it->is_string())
                info.name = it->get<std::string>();
            b.addDevice(info);
        }
    }
    if (!unread.empty()) b.setMetadata("strata: top-level values not read", unread);
    return true;
}

} // namespace strata
