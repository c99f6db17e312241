#pragma once
// Creating a recording's file so that two recordings never destroy each other (issue 42).
//
// The rule every process that makes a .strata file of a recording follows (the collector, the
// launcher's run-only trace, strata-cli's stand-ins): the file is created with
// O_CREAT|O_EXCL|O_NOFOLLOW, so an existing file (another recording's, an earlier one, a symbolic
// link) is never truncated or followed, and it is locked (flock LOCK_EX) before anything is
// written; the lock is held until the writer closes it. "Replace" (the user's --force) may remove
// an existing *regular* file first, but only one no live writer holds: it takes the file's lock
// itself (never waiting), checks that the name still names that file, unlinks it and creates a
// new one exclusively. A creator that finds its fresh file taken or replaced meanwhile (by such a
// remover) says so instead of writing into a file no name leads to.
#include <string>

namespace strata {

enum class CreateMode {
    Truncate,        // fopen "w": for files that belong to nobody else (tests, benchmarks)
    Exclusive,       // never over an existing name
    ReplaceFinished, // Exclusive, after removing a regular file no live writer holds
};

// Creates `path` as `mode` says and returns its descriptor (O_WRONLY, close-on-exec, holding the
// exclusive flock for Exclusive and ReplaceFinished), or -1 with the reason in *error: the name
// exists (and what to do about it), is a symbolic link or not a regular file, is held by a live
// recording, or the system's error ("cannot create: ...").
int createStrataFile(const std::string& path, CreateMode mode, std::string* error);

// Whether a process holds the writer's lock on `path` (a recording still writing it), asked
// without waiting and without taking the lock for longer than the question.
bool strataFileBeingWritten(const std::string& path);

} // namespace strata
