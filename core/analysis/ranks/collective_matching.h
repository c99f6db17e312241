#pragma once
// Which collective kernels of different ranks are the same collective: the instances the clock
// alignment and the collective waits (analysis/cross_rank.h) compare. Within each process group
// (the "Process Group Name" the trace gives; for traces that name none, each stream, when the
// ranks run their collectives on the same stream ids, else all of a rank's collectives in one
// sequence, said in a warning) the ranks run the same collectives in the same order, so the n-th
// collective of a group on one rank is the n-th on every other (by PyTorch's "Seq" number
// instead when every kernel of the group carries one). An instance whose ranks disagree on what
// it is (AllReduce on most, AllGather on one) keeps the majority; the others are left out of it
// and a warning names them (their sequences differ: a capture window that starts or ends
// elsewhere).
#include "analysis/ranks/rank_digest.h"

#include <string>
#include <vector>

namespace strata {

struct CollectiveMember {
    size_t rank = 0;       // index of the digest in the set
    size_t collective = 0; // index into that digest's collectives
    friend bool operator==(const CollectiveMember&, const CollectiveMember&) = default;
};

struct MatchedCollective {
    std::string group;                     // "pg <name>", "stream <id>" or "all streams"
    int64_t index = 0;                     // position in the group's sequence (or its Seq number)
    std::string op;                        // what the members ran (collectiveOp)
    std::vector<CollectiveMember> members; // two or more, by rank index
};

struct CollectiveMatch {
    std::vector<MatchedCollective> instances; // by (group, index)
    std::vector<std::string> warnings;
};

CollectiveMatch matchCollectives(const std::vector<RankDigest>& ranks);

} // namespace strata
