#include "io/strata/strata_run_json.h"

#include <nlohmann/json.hpp>

namespace strata::strata_reader {

std::string runInfoFromJson(std::string_view text, RunInfo* run) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) return "its JSON text is not valid JSON";
    if (!j.is_object()) return "its JSON text is not an object";
    std::string problem;
    auto wrong = [&](const char* key, const char* expected) {
        if (problem.empty()) problem = std::string("\"") + key + "\" is not " + expected;
    };
    auto str = [&](const char* key, std::string* out) {
        if (auto it = j.find(key); it != j.end()) {
            if (it->is_string())
                *out = it->get<std::string>();
            else
                wrong(key, "a string");
        }
    };
    auto strings = [&](const char* key, std::vector<std::string>* out) {
        if (auto it = j.find(key); it != j.end()) {
            if (!it->is_array()) return wrong(key, "an array of strings");
            out->clear();
            for (const auto& e : *it) {
                if (!e.is_string()) return wrong(key, "an array of strings");
                out->push_back(e.get<std::string>());
            }
        }
    };
    strings("argv", &run->argv);
    str("executable", &run->executable);
    str("cwd", &run->cwd);
    if (auto it = j.find("env_added"); it != j.end()) {
        if (!it->is_object()) {
            wrong("env_added", "an object of strings");
        } else {
            run->envAdded.clear();
            for (auto e = it->begin(); e != it->end(); ++e) {
                if (!e.value().is_string()) {
                    wrong("env_added", "an object of strings");
                    break;
                }
                run->envAdded.emplace_back(e.key(), e.value().get<std::string>());
            }
        }
    }
    strings("env_removed", &run->envRemoved);
    str("host", &run->host);
    str("strata_version", &run->strataVersion);
    str("no_trace_reason", &run->noTraceReason);
    strings("stop_signals", &run->stopSignals);
    if (auto it = j.find("captured"); it != j.end()) {
        if (it->is_boolean())
            run->captured = it->get<bool>();
        else
            wrong("captured", "true or false");
    }
    return problem;
}

} // namespace strata::strata_reader
