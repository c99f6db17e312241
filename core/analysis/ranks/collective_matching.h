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
// Point-to-point kernels are matched only with what they pair with (issue 44: unmatched SendRecv
// kernels taken as shared collectives moved a pair's clock by 332 µs and named a 311 ms
// straggler):
//   a send or a receive that names its peer (Kineto's "Collective name" send / recv with "Dst
//     Rank" / "Src Rank"): the n-th send of rank A to rank B is matched with the n-th receive of
//     rank B from rank A (per process group), as group "p2p rank A -> rank B" ("pg G p2p ..."
//     within a named group); with its peer not in the set, or past the other side's count, it
//     is left out;
//   a send or a receive that names no peer: left out;
//   a SendRecv kernel the trace says nothing about (PyTorch 2.0, the PARAM DLRM traces, whose
//     all-to-alls run as SendRecv kernels): kept in its group's sequence when the set is the whole
//     job (no rank's world size is larger than the set) and every rank has as many of them in the
//     group, else left out;
//   a SendRecv kernel that PyTorch names a collective ("all_to_all", ...) is a collective.
// One warning counts, per rank, the point-to-point kernels left out.
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
    // "pg <name>", "stream <id>", "all streams" or "[pg <name> ]p2p rank A -> rank B"
    std::string group;
    int64_t index = 0;                     // position in the group's sequence (or its Seq number)
    std::string op;                        // what the members ran (collectiveOp)
    std::vector<CollectiveMember> members; // two or more, by rank index
};

struct CollectiveMatch {
    std::vector<MatchedCollective> instances; // by (group, index), the point-to-point pairs last
    std::vector<std::string> warnings;
};

CollectiveMatch matchCollectives(const std::vector<RankDigest>& ranks);

} // namespace strata
