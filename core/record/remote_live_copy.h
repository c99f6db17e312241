#pragma once
// A remote run's trace copied here while it runs (strata-cli record --remote --live), so the
// window can draw it live as it draws a run on this machine. A second ssh session waits in the
// run's folder there for its first trace file and streams it as it grows (tail -c +1 -f, ending
// when the remote record does) into a hidden file beside the final copy's place. The window finds
// that file in the line liveCopyLine() prints; when the run ends, the copy is removed and the
// run's final trace is copied back as for any remote run.
#include "record/remote_host.h"

#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace strata {

class RemoteLiveCopy {
public:
    RemoteLiveCopy() = default;
    ~RemoteLiveCopy(); // finish()
    RemoteLiveCopy(const RemoteLiveCopy&) = delete;
    RemoteLiveCopy& operator=(const RemoteLiveCopy&) = delete;

    // Starts copying the first trace file of the run folder `runFolder` there (a shell word
    // sequence that sets R, e.g. D=...; R="$D"/runs/ID) while `remotePid` lives, into
    // `localPath` (created here, never over an existing file). False and *error otherwise.
    bool start(const RemoteHost& host, const std::string& runFolder, long remotePid,
               const std::string& localPath, std::string* error);
    // Waits a moment for the copy to end (it does once the run has), ends it otherwise, and
    // removes the local file.
    void finish();

private:
    pid_t ssh_ = -1;
    std::string path_;
};

// "strata-cli record: live copy: PATH" (stderr), and PATH read back from such a line.
std::string liveCopyLine(const std::string& localPath);
std::optional<std::string> liveCopyPath(std::string_view line);

} // namespace strata
