#pragma once
// Output path templates: {time}, {pid}, {rank} and {host} in the path given to `strata-cli record
// -o` or the Launch dialog. The launcher fills in {time} (the run's start) before the target
// starts and passes the template to the target in STRATA_OUTPUT; the collector expands the rest
// in each process it is loaded into (so a target and its exec'd children write separate files),
// and the launcher matches the expanded names afterwards to list them.
// Plain std + POSIX (the collector may compile this file too).
#include <cstdint>
#include <ctime>
#include <functional>
#include <string>
#include <string_view>

namespace strata {

struct OutputPathValues {
    int64_t pid = 0;
    std::string rank = "0";
    std::string host;
};

// Replaces every {pid}, {rank} and {host}; other text (and unknown {names}) is kept as is. The
// rank and host come from the environment: they go through safePathValue(), so no value can
// climb out of the template's folder.
std::string expandOutputPath(std::string_view pathTemplate, const OutputPathValues& values);

// A value made safe to put into a path: only [A-Za-z0-9._-] (others become '_'), never "..",
// never empty or ".".
std::string safePathValue(std::string_view value);

// The first non-empty of RANK, OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK; "0" if none.
using GetEnv = std::function<const char*(const char*)>;
std::string rankFromEnvironment(const GetEnv& getenv);
std::string rankFromEnvironment(); // this process's environment
// The short host name (gethostname), "localhost" if it fails.
std::string hostName();
// Values for the calling process (getpid, its environment's rank, hostName()).
OutputPathValues currentProcessValues();

// True if `path` is what `pathTemplate` gives for some pid/rank/host: {pid} matches one or more
// digits, {rank} and {host} one or more of [A-Za-z0-9._-]. Linear in the path (an automaton
// over the template's tokens).
bool matchesOutputPath(std::string_view pathTemplate, std::string_view path);
bool hasPlaceholders(std::string_view pathTemplate);

// Every {time} replaced by `start` as local time, "YYYYmmdd-HHMMSS" (the same in every process
// of a run, so the launcher fills it in).
std::string expandStartTime(std::string_view pathTemplate, std::time_t start);

// The default when no output is given (strata-cli record, the Launch dialog):
// "<folder>/<program>-{time}-{host}-{pid}.strata"; no folder: the current directory; no program:
// "strata".
std::string defaultOutputTemplate(std::string_view folder = {}, std::string_view program = {});

} // namespace strata
