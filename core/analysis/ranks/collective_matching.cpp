#include "analysis/ranks/collective_matching.h"

#include <algorithm>
#include <map>
#include <set>

namespace strata {

namespace {

// The stream ids of the collectives that name no process group, per rank; true when every rank
// that has such collectives has the same set of streams (they can then be matched per stream).
bool sameUnnamedStreams(const std::vector<RankDigest>& ranks) {
    std::optional<std::set<int64_t>> first;
    for (const RankDigest& r : ranks) {
        std::set<int64_t> streams;
        for (const CollectiveKernel& c : r.collectives)
            if (c.group.empty()) streams.insert(c.stream);
        if (streams.empty()) continue;
        if (!first)
            first = std::move(streams);
        else if (*first != streams)
            return false;
    }
    return true;
}

// Per key, per rank: the rank's collectives of that key in start order.
using KeyedCollectives = std::map<std::string, std::vector<std::vector<size_t>>>;

// True when every collective of the key carries a Seq number, distinct within each rank.
bool usesSeq(const std::vector<RankDigest>& ranks, const std::vector<std::vector<size_t>>& lists) {
    for (size_t r = 0; r < lists.size(); ++r) {
        std::set<int64_t> seen;
        for (size_t k : lists[r]) {
            const int64_t seq = ranks[r].collectives[k].seq;
            if (seq < 0 || !seen.insert(seq).second) return false;
        }
    }
    return true;
}

// Keeps the members that ran what most of them ran; warns (once per rank and group) about the
// others.
void keepMajority(const std::vector<RankDigest>& ranks, MatchedCollective& m,
                  std::set<std::pair<size_t, std::string>>& warned,
                  std::vector<std::string>& warnings) {
    std::map<std::string, size_t> votes;
    for (const CollectiveMember& x : m.members) ++votes[ranks[x.rank].collectives[x.collective].op];
    m.op = ranks[m.members.front().rank].collectives[m.members.front().collective].op;
    for (const auto& [op, n] : votes)
        if (n > votes[m.op]) m.op = op;
    std::erase_if(m.members, [&](const CollectiveMember& x) {
        const std::string& op = ranks[x.rank].collectives[x.collective].op;
        if (op == m.op) return false;
        if (warned.insert({x.rank, m.group}).second)
            warnings.push_back("rank " + std::to_string(ranks[x.rank].identity.rank) +
                               ": collective #" + std::to_string(m.index) + " of " + m.group +
                               " is " + op + " where the others ran " + m.op +
                               ": left out of it (its sequence of collectives differs from the "
                               "others': a capture window that starts or ends elsewhere?)");
        return true;
    });
}

} // namespace

CollectiveMatch matchCollectives(const std::vector<RankDigest>& ranks) {
    CollectiveMatch out;
    const bool perStream = sameUnnamedStreams(ranks);
    KeyedCollectives keyed;
    bool anyUnnamed = false;
    for (size_t r = 0; r < ranks.size(); ++r) {
        const std::vector<CollectiveKernel>& cs = ranks[r].collectives;
        for (size_t k = 0; k < cs.size(); ++k) {
            anyUnnamed |= cs[k].group.empty();
            const std::string key = !cs[k].group.empty() ? "pg " + cs[k].group
                                    : perStream          ? "stream " + std::to_string(cs[k].stream)
                                                         : std::string("all streams");
            auto& lists = keyed[key];
            lists.resize(ranks.size());
            lists[r].push_back(k);
        }
    }
    if (anyUnnamed && !perStream)
        out.warnings.push_back("the ranks name no process group and run their collectives on "
                               "different streams: matched in order of start over all streams");
    std::set<std::pair<size_t, std::string>> warned;
    for (auto& [key, lists] : keyed) {
        const bool seq = usesSeq(ranks, lists);
        std::map<int64_t, MatchedCollective> byIndex;
        for (size_t r = 0; r < lists.size(); ++r)
            for (size_t n = 0; n < lists[r].size(); ++n) {
                const size_t k = lists[r][n];
                const int64_t index = seq ? ranks[r].collectives[k].seq : int64_t(n);
                MatchedCollective& m = byIndex[index];
                m.group = key;
                m.index = index;
                m.members.push_back({r, k});
            }
        for (auto& [index, m] : byIndex) {
            if (m.members.size() < 2) continue;
            keepMajority(ranks, m, warned, out.warnings);
            if (m.members.size() >= 2) out.instances.push_back(std::move(m));
        }
    }
    return out;
}

} // namespace strata
