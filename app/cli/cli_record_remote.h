#pragma once
// strata-cli record --remote: the options of its own and the run (cli_record_remote.cpp).
#include "cli_options.h"
#include "record/record_options.h"
#include "record/remote_host.h"

#include <string>
#include <vector>

namespace strata::cli {

struct RemoteCommandLine {
    RemoteHost host; // --remote, with the --ssh-option values
    std::string dir; // --remote-dir (empty: ~/.cache/strata/remote)
    bool keep = false;
    std::string fetchRun; // --fetch RUN: an earlier run's files, nothing run
};

// Runs the recording there; the exit code (the command's, or 255 when ssh failed, 2 otherwise).
int recordRemote(const RemoteCommandLine& remote, const RecordOptions& options, bool quiet);

} // namespace strata::cli
