#pragma once
// strata-cli record --remote: the options of its own and the run (cli_record_remote.cpp).
#include "cli_options.h"
#include "record/record_options.h"
#include "record/remote_host.h"

#include <string>
#include <vector>

namespace strata::cli {

struct RemoteCommandLine {
    bool on = false;
    RemoteHost host; // --remote, with the --ssh-option values
    std::string dir; // --remote-dir (empty: ~/.cache/strata/remote)
    bool keep = false;
};

// The arguments of `record` to pass to the remote strata-cli record: all before the command but
// --remote, --remote-dir, --keep-remote, --ssh-option and -o/--output (local ones).
std::vector<std::string> remoteRecordArgs(const Args& args, size_t commandWords);

// Runs the recording there; the exit code (the command's, or 255 when ssh failed, 2 otherwise).
int recordRemote(const Args& args, const RemoteCommandLine& remote, const RecordOptions& options,
                 bool quiet);

} // namespace strata::cli
