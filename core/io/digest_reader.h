#pragma once
// The rank digest's reader, beside the trace readers (io/trace_reader.h): a digest `strata-cli
// digest` wrote (analysis/ranks/rank_digest.h, as analysis/json/rank_digest_json.h writes it) is
// a file of a set like a trace, and is recognised like one, by its first bytes. What a file of a
// set is — a digest, a trace (and the reader that loads it) or neither — is told by one opening
// and one read of its head (recogniseSetFile); a digest is then read whole from that opening.
// Every file is opened without blocking, and only a regular file (util/input_file.h).
#include "analysis/ranks/rank_digest.h"

#include <optional>
#include <string>
#include <string_view>

namespace strata {

struct TraceReader; // io/trace_reader.h

// Whether `head`, the first bytes of a file (cut anywhere), begins a digest: a JSON object
// whose top-level keys, as far as the head reaches, include "strata_rank_digest" (written
// first since issue 42), or begin with "busy_ns", "clock" (older digests were written with
// their keys sorted, the version key after the collectives). Decided from the head alone, so
// that a trace of any size is never read to find out it is not a digest.
bool looksLikeDigest(std::string_view head);
constexpr size_t kDigestHeadBytes = 64 * 1024; // how much of a file looksLikeDigest is shown

// What one file of a set is, from one opening and one read of its first kDigestHeadBytes:
//   a digest   `digest` holds what it holds (its digest, or the error a digest of a file that
//              did not digest holds), or why it does not read (a newer version, a broken
//              document, a value out of range, naming the field): read whole, of any size;
//   a trace    `reader` is the reader that loads it (recogniseBytes on the same head: the
//              LoadOptions::reader to load it with, so that it is not recognised again);
//   neither    both empty: the file cannot be opened or read (a FIFO, a folder, absent); the
//              trace loader says why, as it says it for any file.
struct SetFile {
    std::optional<DigestOutcome> digest;
    const TraceReader* reader = nullptr;
};
SetFile recogniseSetFile(const std::string& path);

// Whether `path` is a regular file whose first kDigestHeadBytes look like a digest (never
// blocks); the one test of "is this a digest" for the window's Open.
bool isDigestFile(const std::string& path);

// What `path` holds when it is a digest file (recogniseSetFile's digest): nullopt for any other
// file (a trace, or a file that cannot be opened: the trace loader then says why).
std::optional<DigestOutcome> readDigestFile(const std::string& path);

} // namespace strata
