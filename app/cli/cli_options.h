#pragma once
// What strata-cli's commands share: one option loop (CommandLine), the value parsers it checks
// options with, the analysis options (--gap-threshold-us, --step-name, --range-us) that summary,
// gaps, stats and advise take, and loading FILE with the error printed as "strata-cli CMD: ...".
#include "analysis/analysis_range.h"
#include "analysis/analysis_settings.h"
#include "io/load_result.h"
#include "io/set/trace_set_loader.h"
#include "model/trace.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace strata::cli {

using Args = std::vector<std::string>;
// Takes an option's value: "" when accepted (and stored), else what was expected.
using TakeValue = std::function<std::string(const std::string&)>;

// A command's options and FILEs, declared once; parse() walks the arguments in one loop. A
// problem prints "strata-cli CMD: problem", a blank line and the usage on stderr (exit 2; only a
// pointer to --help when the usage is long); --help or -h prints the usage on stdout (exit 0).
// A name may have aliases: "-o|--output".
class CommandLine {
public:
    CommandLine(std::string command, std::string usage, bool longUsage = false);

    CommandLine& flag(const std::string& names, bool* on);
    CommandLine& option(const std::string& names, TakeValue take);
    // An option whose value is optional and given as "--name=VALUE": "--name" alone takes `bare`.
    CommandLine& optionalValue(const std::string& names, TakeValue take, std::string bare);
    // FILEs: at least `min`, at most `max`; `what` names them in messages ("FILE", "IN and OUT").
    CommandLine& files(std::vector<std::string>* out, size_t min, size_t max,
                       std::string what = "FILE");
    // A command to run: everything after "--", or from the first argument that is not an option.
    CommandLine& command(std::vector<std::string>* out);
    // Empty: every argument was taken, go on; else the exit code to return now.
    std::optional<int> parse(const Args& args) const;
    int usageError(const std::string& message) const;

private:
    struct Option {
        std::vector<std::string> names;
        bool* flag = nullptr;
        TakeValue take;
        std::optional<std::string> bare; // optionalValue: the value of "--name" alone
    };
    // "--name=VALUE" of an optionalValue option: the option, and VALUE in *value.
    const Option* findWithValue(const std::string& arg, std::string* value) const;
    const Option* find(const std::string& arg) const;
    std::string command_, usage_;
    bool longUsage_ = false;
    std::vector<Option> options_;
    std::vector<std::string>* commandOut_ = nullptr;
    std::vector<std::string>* files_ = nullptr;
    size_t minFiles_ = 0, maxFiles_ = 0;
    std::string filesWhat_;
};

// Value parsers (TakeValue) for the options above.
TakeValue nonNegativeNumber(const std::string& option, double* out);
TakeValue wholeNumber(const std::string& option, uint64_t max, uint64_t* out);
TakeValue text(std::string* out);
// "START:END" in microseconds from the trace start, 0 <= START < END.
TakeValue rangeUs(const std::string& option, std::optional<std::pair<double, double>>* out);

// --gap-threshold-us N, --step-name PREFIX, --range-us START:END and --gpu-shift-us N, into
// settings, a range (resolved against the trace once it is loaded: range()) and a shift of the
// GPU clock against the CPU's (the one the clock check suggests: analysis/clock_checks.h).
struct AnalysisArgs {
    AnalysisSettings settings;
    std::optional<std::pair<double, double>> rangeUs;
    TimeNs gpuShift = 0;
    double thresholdUs() const { return double(settings.gapThreshold) / 1000.0; }
    TimeRange range(const Trace& trace) const;
    // The trace with its GPU ops moved by --gpu-shift-us (the trace itself when 0).
    std::shared_ptr<const Trace> shifted(std::shared_ptr<const Trace> trace) const;
    void declare(CommandLine& line);
    // --gap-threshold-us and --step-name only (commands over several traces: no --range-us).
    void declareSettings(CommandLine& line);

private:
    double thresholdUs_ = double(AnalysisSettings::kDefaultGapThreshold) / 1000.0;
};
// The lines of a usage text that describe them.
extern const char* const kAnalysisOptionsUsage;

// `strata-cli --cache COMMAND ...` (or --cache anywhere before "--"): traces are loaded through the
// trace cache (io/cache/trace_cache.h), which is written when a large JSON trace was read.
void setUseCache(bool on);
// `options` for a set of files under this command line: through the trace cache under --cache
// (written on the loading threads; a trace that cannot be kept is said on stderr).
TraceSetOptions forCli(TraceSetOptions options);
// loadTrace, or through the cache under --cache (io/set/trace_set_loader.h's loadSetFile with
// forCli's options): how every command loads a single trace.
LoadResult loadForCli(const std::string& file, const LoadOptions& options = {});
// Every file's result, loaded as a set (at once, on all cores; forCli).
std::vector<LoadResult> loadAllForCli(const std::vector<std::string>& files);

// The trace in `file`, or null after printing why to stderr; `loadMs`, when given, the time the
// load took (what --json prints as load_ms beside analysis_ms).
std::shared_ptr<const Trace> loadTraceOrSay(const char* command, const std::string& file,
                                            double* loadMs = nullptr);

// Each of `files` loaded in turn and handed to `each` with its load time; a file that cannot be
// loaded is said on stderr (loadTraceOrSay) and makes the result 1, the others go on. Text: a
// blank line between the traces `each` printed. --json: the object `each` returns, with "file"
// and "load_ms" added, printed alone for one file, as {"traces": [...]} for several.
// `finish`, when given, is called once after the last file with the document about to be printed
// (null without --json), so that a command adds what it made of all the traces.
int forEachTrace(const char* command, const std::vector<std::string>& files, bool json,
                 const std::function<nlohmann::json(const std::string& file, const Trace& trace,
                                                    double loadMs)>& each,
                 const std::function<void(nlohmann::json&)>& finish = {});

// What --json prints: `j` indented by one space, a byte that is not UTF-8 replaced, and a newline
// (the documents themselves are made in core/analysis/json/).
void printJson(const nlohmann::json& j);

// The range in trace time (whole trace when none).
TimeRange rangeFromUs(const Trace& trace, const std::optional<std::pair<double, double>>& us);

} // namespace strata::cli
