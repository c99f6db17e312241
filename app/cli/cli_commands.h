#pragma once
// strata-cli subcommands. Each takes the arguments after the subcommand name and returns the
// process exit code. One file per subcommand: cli_<name>.cpp.
#include <string>
#include <vector>

namespace strata::cli {

using Args = std::vector<std::string>;

int summary(const Args& args);       // cli_summary.cpp
int synth(const Args& args);         // cli_synth.cpp
int record(const Args& args);        // cli_record.cpp
int attachCommand(const Args& args); // cli_attach.cpp
int info(const Args& args);          // cli_info.cpp
int exportTrace(const Args& args);   // cli_export.cpp
int gaps(const Args& args);          // cli_gaps.cpp
int sections(const Args& args);      // cli_sections.cpp
int synthSections(const Args& args); // cli_synth_sections.cpp
int stats(const Args& args);         // cli_stats.cpp
int advise(const Args& args);        // cli_advise.cpp
int diff(const Args& args);          // cli_diff.cpp
int digest(const Args& args);        // cli_digest.cpp
int ranks(const Args& args);         // cli_ranks.cpp
int convert(const Args& args);       // cli_convert.cpp
int samples(const Args& args);       // cli_samples.cpp
int graphs(const Args& args);        // cli_graphs.cpp
int roofline(const Args& args);      // cli_roofline.cpp
int breakdown(const Args& args);     // cli_breakdown.cpp
int idle(const Args& args);          // cli_idle.cpp
int criticalPath(const Args& args);  // cli_critical_path.cpp
int query(const Args& args);         // cli_query.cpp (a build with SQLite)

} // namespace strata::cli
