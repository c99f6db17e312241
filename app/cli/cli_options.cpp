#include "cli_options.h"

#include "io/cache/trace_cache.h"
#include "util/terminal_text.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace strata::cli {

namespace {
std::vector<std::string> splitNames(const std::string& names) {
    std::vector<std::string> out;
    size_t at = 0;
    for (size_t bar; (bar = names.find('|', at)) != std::string::npos; at = bar + 1)
        out.push_back(names.substr(at, bar - at));
    out.push_back(names.substr(at));
    return out;
}
} // namespace

CommandLine::CommandLine(std::string command, std::string usage, bool longUsage)
    : command_(std::move(command)), usage_(std::move(usage)), longUsage_(longUsage) {}

CommandLine& CommandLine::flag(const std::string& names, bool* on) {
    options_.push_back({splitNames(names), on, {}, std::nullopt});
    return *this;
}

CommandLine& CommandLine::option(const std::string& names, TakeValue take) {
    options_.push_back({splitNames(names), nullptr, std::move(take), std::nullopt});
    return *this;
}

CommandLine& CommandLine::optionalValue(const std::string& names, TakeValue take,
                                        std::string bare) {
    options_.push_back({splitNames(names), nullptr, std::move(take), std::move(bare)});
    return *this;
}

CommandLine& CommandLine::command(std::vector<std::string>* out) {
    commandOut_ = out;
    return *this;
}

const CommandLine::Option* CommandLine::find(const std::string& arg) const {
    for (const Option& o : options_)
        for (const std::string& n : o.names)
            if (n == arg) return &o;
    return nullptr;
}

const CommandLine::Option* CommandLine::findWithValue(const std::string& arg,
                                                      std::string* value) const {
    const size_t eq = arg.find('=');
    if (eq == std::string::npos || arg.size() < 2 || arg[0] != '-') return nullptr;
    const Option* o = find(arg.substr(0, eq));
    if (!o || !o->bare) return nullptr;
    *value = arg.substr(eq + 1);
    return o;
}

CommandLine& CommandLine::files(std::vector<std::string>* out, size_t min, size_t max,
                                std::string what) {
    files_ = out;
    minFiles_ = min;
    maxFiles_ = max;
    filesWhat_ = std::move(what);
    return *this;
}

int CommandLine::usageError(const std::string& message) const {
    if (longUsage_)
        std::fprintf(stderr, "strata-cli %s: %s\n(strata-cli %s --help for the options)\n",
                     command_.c_str(), terminalSafe(message).c_str(), command_.c_str());
    else
        std::fprintf(stderr, "strata-cli %s: %s\n\n%s", command_.c_str(),
                     terminalSafe(message).c_str(), usage_.c_str());
    return 2;
}

std::optional<int> CommandLine::parse(const Args& args) const {
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            std::fputs(usage_.c_str(), stdout);
            return 0;
        }
        if (commandOut_ && a == "--") {
            commandOut_->assign(args.begin() + long(i) + 1, args.end());
            break;
        }
        std::string inlineValue;
        const Option* o = find(a);
        if (const Option* withValue = o ? nullptr : findWithValue(a, &inlineValue)) {
            const std::string problem = withValue->take(inlineValue);
            if (!problem.empty()) return usageError(problem);
            continue;
        }
        if (commandOut_ && !o && (a.empty() || a[0] != '-')) { // the command starts here
            commandOut_->assign(args.begin() + long(i), args.end());
            break;
        }
        if (o && o->flag) {
            *o->flag = true;
        } else if (o && o->bare) {
            const std::string problem = o->take(*o->bare);
            if (!problem.empty()) return usageError(problem);
        } else if (o) {
            if (i + 1 >= args.size()) return usageError(a + " needs a value");
            const std::string problem = o->take(args[++i]);
            if (!problem.empty()) return usageError(problem);
        } else if (a.size() > 1 && a[0] == '-') {
            return usageError("unknown option '" + a + "'");
        } else if (!files_ || files_->size() >= maxFiles_) {
            return usageError(files_ && maxFiles_ == 1 ? "only one " + filesWhat_ + ", got '" +
                                                             files_->front() + "' and '" + a + "'"
                                                       : "unexpected argument '" + a + "'");
        } else {
            files_->push_back(a);
        }
    }
    if (files_ && files_->size() < minFiles_)
        return usageError(files_->empty() ? "missing " + filesWhat_ : "expected " + filesWhat_);
    return std::nullopt;
}

TakeValue nonNegativeNumber(const std::string& option, double* out) {
    return [option, out](const std::string& v) -> std::string {
        char* end = nullptr;
        const double x = std::strtod(v.c_str(), &end);
        if (v.empty() || *end || !std::isfinite(x) || x < 0)
            return option + " expects a non-negative number, got '" + v + "'";
        *out = x;
        return {};
    };
}

TakeValue wholeNumber(const std::string& option, uint64_t max, uint64_t* out) {
    return [option, max, out](const std::string& v) -> std::string {
        const bool digits =
            !v.empty() && v.size() <= 19 && v.find_first_not_of("0123456789") == std::string::npos;
        const uint64_t n = digits ? std::strtoull(v.c_str(), nullptr, 10) : 0;
        if (!digits || n > max)
            return option + " expects a whole number up to " + std::to_string(max) + ", got '" + v +
                   "'";
        *out = n;
        return {};
    };
}

TakeValue text(std::string* out) {
    return [out](const std::string& v) -> std::string {
        *out = v;
        return {};
    };
}

TakeValue rangeUs(const std::string& option, std::optional<std::pair<double, double>>* out) {
    return [option, out](const std::string& v) -> std::string {
        const size_t colon = v.find(':');
        double s = -1, e = -1;
        const std::string problem =
            option + " expects START:END with 0 <= START < END, got '" + v + "'";
        if (colon == std::string::npos ||
            !nonNegativeNumber(option, &s)(v.substr(0, colon)).empty() ||
            !nonNegativeNumber(option, &e)(v.substr(colon + 1)).empty() || !(e > s))
            return problem;
        *out = std::make_pair(s, e);
        return {};
    };
}

const char* const kAnalysisOptionsUsage =
    "  --gap-threshold-us N GPU idle gaps strictly longer than N microseconds (default 10)\n"
    "  --step-name PREFIX   steps are the slices named PREFIX... (default ProfilerStep#)\n"
    "  --range-us START:END only work that starts in [START, END) µs from the trace start\n"
    "  --gpu-shift-us N     move every GPU op by N µs (negative: earlier) against the CPU,\n"
    "                       to correct a clock offset the clock check reports\n";

void AnalysisArgs::declare(CommandLine& line) {
    declareSettings(line);
    line.option("--range-us", cli::rangeUs("--range-us", &rangeUs));
    line.option("--gpu-shift-us", [this](const std::string& v) -> std::string {
        char* end = nullptr;
        const double us = std::strtod(v.c_str(), &end);
        if (v.empty() || end != v.c_str() + v.size() || !std::isfinite(us) || std::fabs(us) > 1e12)
            return "--gpu-shift-us expects a number of microseconds (at most 1e12 either way), "
                   "got '" +
                   v + "'";
        gpuShift = TimeNs(std::llround(us * 1000.0));
        return {};
    });
}

void AnalysisArgs::declareSettings(CommandLine& line) {
    line.option("--gap-threshold-us", [this](const std::string& v) {
        std::string problem = nonNegativeNumber("--gap-threshold-us", &thresholdUs_)(v);
        if (problem.empty() && thresholdUs_ > 1e12)
            problem = "--gap-threshold-us expects at most 1e12 microseconds, got '" + v + "'";
        settings.gapThreshold = TimeNs(std::llround(thresholdUs_ * 1000.0));
        return problem;
    });
    line.option("--step-name", text(&settings.stepPrefix));
}

std::shared_ptr<const Trace> AnalysisArgs::shifted(std::shared_ptr<const Trace> trace) const {
    return trace && gpuShift ? trace->withGpuTimeShifted(gpuShift) : trace;
}

TimeRange AnalysisArgs::range(const Trace& trace) const {
    return rangeFromUs(trace, rangeUs);
}

namespace {
bool useCache = false;
}

void setUseCache(bool on) {
    useCache = on;
}

TraceSetOptions forCli(TraceSetOptions options) {
    if (!useCache) return options;
    static const TraceCache cache(TraceCacheSettings::fromEnvironment());
    options.cache = &cache;
    options.storeInCache = true;
    options.storeFailed = [](const std::string&, const std::string& why) {
        // The trace is read all the same; next time it is read again.
        std::fprintf(stderr, "strata-cli: not kept in the trace cache: %s\n",
                     terminalSafe(why).c_str());
    };
    return options;
}

LoadResult loadForCli(const std::string& file, const LoadOptions& options) {
    TraceSetOptions set;
    set.load = options;
    return loadSetFile(file, nullptr, forCli(std::move(set)));
}

std::vector<LoadResult> loadAllForCli(const std::vector<std::string>& files) {
    return loadTraces(files, forCli({}));
}

int forEachTrace(const char* command, const std::vector<std::string>& files, bool json,
                 const std::function<nlohmann::json(const std::string& file, const Trace& trace,
                                                    double loadMs)>& each,
                 const std::function<void(nlohmann::json&)>& finish) {
    nlohmann::json traces = nlohmann::json::array();
    int status = 0;
    bool printed = false;
    for (const std::string& file : files) {
        double loadMs = 0;
        const std::shared_ptr<const Trace> trace = loadTraceOrSay(command, file, &loadMs);
        if (!trace) {
            status = 1;
            continue;
        }
        if (!json && printed) std::printf("\n");
        printed = true;
        nlohmann::json j = each(file, *trace, loadMs);
        if (!json) continue;
        j["file"] = file;
        j["load_ms"] = loadMs;
        traces.push_back(std::move(j));
    }
    nlohmann::json doc;
    if (json && files.size() == 1 && !traces.empty()) doc = std::move(traces.front());
    if (json && files.size() > 1) doc = {{"traces", std::move(traces)}};
    if (finish) finish(doc);
    if (!doc.is_null()) printJson(doc);
    return status;
}

std::shared_ptr<const Trace> loadTraceOrSay(const char* command, const std::string& file,
                                            double* loadMs) {
    const auto t0 = std::chrono::steady_clock::now();
    const LoadResult loaded = loadForCli(file);
    if (loadMs)
        *loadMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                      .count();
    if (!loaded.ok()) {
        std::fprintf(stderr, "strata-cli %s: %s\n", command,
                     terminalSafe(loaded.error ? loaded.error->toString() : file).c_str());
        return nullptr;
    }
    return loaded.trace;
}

void printJson(const nlohmann::json& j) {
    std::printf("%s\n", j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
}

TimeRange rangeFromUs(const Trace& trace, const std::optional<std::pair<double, double>>& us) {
    if (!us) return wholeTrace();
    const TimeNs origin = trace.bounds().start;
    return {origin + TimeNs(std::llround(us->first * 1000)),
            origin + TimeNs(std::llround(us->second * 1000))};
}

} // namespace strata::cli
