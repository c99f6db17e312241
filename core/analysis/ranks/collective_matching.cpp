#include "analysis/ranks/collective_matching.h"

#include <algorithm>
#include <map>
#include <set>

namespace strata {

namespace {

// How a collective kernel can be matched across ranks (collective_matching.h).
enum class Pairing : uint8_t {
    Sequence,  // a collective: the n-th of its group on every rank
    Peer,      // a send or a receive that names its peer
    Anonymous, // a SendRecv kernel the trace says nothing about
    None,      // a send or a receive that names no peer
};

Pairing pairingOf(const CollectiveKernel& c) {
    if (c.collective == "send" || c.collective == "recv")
        return c.peer >= 0 ? Pairing::Peer : Pairing::None;
    if (c.collective.empty() && (c.op == "SendRecv" || c.op == "Send" || c.op == "Recv"))
        return Pairing::Anonymous;
    return Pairing::Sequence;
}

// The stream ids of the collectives that name no process group, per rank; true when every rank
// that has such collectives has the same set of streams (they can then be matched per stream).
// The point-to-point kernels that pair by their peer (or not at all) do not count.
bool sameUnnamedStreams(const std::vector<RankDigest>& ranks) {
    std::optional<std::set<int64_t>> first;
    for (const RankDigest& r : ranks) {
        std::set<int64_t> streams;
        for (const CollectiveKernel& c : r.collectives) {
            const Pairing p = pairingOf(c);
            if (c.group.empty() && (p == Pairing::Sequence || p == Pairing::Anonymous))
                streams.insert(c.stream);
        }
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

std::vector<size_t>& listOf(KeyedCollectives& keyed, const std::string& key, size_t rank,
                            size_t ranks) {
    auto& lists = keyed[key];
    lists.resize(ranks);
    return lists[rank];
}

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

// The base key of a collective: its process group, else its stream or all streams.
std::string groupKey(const CollectiveKernel& c, bool perStream) {
    return !c.group.empty() ? "pg " + c.group
           : perStream      ? "stream " + std::to_string(c.stream)
                            : std::string("all streams");
}

// The key a send or a receive pairs under: "[pg G ]p2p rank FROM -> rank TO".
std::string peerKey(const CollectiveKernel& c, int64_t self) {
    const bool send = c.collective == "send";
    const int64_t from = send ? self : c.peer, to = send ? c.peer : self;
    return (c.group.empty() ? std::string() : "pg " + c.group + " ") + "p2p rank " +
           std::to_string(from) + " -> rank " + std::to_string(to);
}

// True when no rank says the job has more ranks than the set holds.
bool wholeJob(const std::vector<RankDigest>& ranks) {
    return std::none_of(ranks.begin(), ranks.end(), [&](const RankDigest& r) {
        return r.identity.worldSize > int64_t(ranks.size());
    });
}

// The SendRecv kernels that name nothing join their group's sequence where every rank has as
// many of them and the set is the whole job; the others are counted in `left`.
void placeAnonymous(const std::vector<RankDigest>& ranks, KeyedCollectives& anonymous,
                    KeyedCollectives& keyed, std::vector<size_t>& left) {
    const bool whole = wholeJob(ranks);
    for (auto& [key, lists] : anonymous) {
        const bool same = std::all_of(lists.begin(), lists.end(), [&](const auto& l) {
            return l.size() == lists.front().size();
        });
        for (size_t r = 0; r < lists.size(); ++r) {
            if (!whole || !same) {
                left[r] += lists[r].size();
                continue;
            }
            std::vector<size_t>& into = listOf(keyed, key, r, ranks.size());
            into.insert(into.end(), lists[r].begin(), lists[r].end());
            std::sort(into.begin(), into.end()); // a digest's collectives are by start
        }
    }
}

// The instances of one key: the n-th (or Seq number n) of every rank that has one.
void addInstances(const std::vector<RankDigest>& ranks, const std::string& key,
                  const std::vector<std::vector<size_t>>& lists, bool bySeq,
                  std::set<std::pair<size_t, std::string>>& warned, CollectiveMatch& out,
                  std::vector<size_t>* unpaired) {
    std::map<int64_t, MatchedCollective> byIndex;
    for (size_t r = 0; r < lists.size(); ++r)
        for (size_t n = 0; n < lists[r].size(); ++n) {
            const size_t k = lists[r][n];
            const int64_t index = bySeq ? ranks[r].collectives[k].seq : int64_t(n);
            MatchedCollective& m = byIndex[index];
            m.group = key;
            m.index = index;
            m.members.push_back({r, k});
        }
    for (auto& [index, m] : byIndex) {
        if (m.members.size() < 2) {
            if (unpaired)
                for (const CollectiveMember& x : m.members) ++(*unpaired)[x.rank];
            continue;
        }
        keepMajority(ranks, m, warned, out.warnings);
        if (m.members.size() >= 2) out.instances.push_back(std::move(m));
    }
}

std::string leftOutWarning(const std::vector<RankDigest>& ranks, const std::vector<size_t>& left) {
    std::string list;
    size_t named = 0, more = 0;
    for (size_t r = 0; r < ranks.size(); ++r) {
        if (left[r] == 0) continue;
        if (named == 8) {
            ++more;
            continue;
        }
        list += (named++ ? ", rank " : "rank ") + std::to_string(ranks[r].identity.rank) + ": " +
                std::to_string(left[r]);
    }
    if (more) list += " and " + std::to_string(more) + " more ranks";
    return "point-to-point kernels (send / receive, SendRecv) left out of the matching, as they "
           "pair with no kernel of another rank in the set (their peer is not in it, they name "
           "no peer, or the ranks have unequal numbers of them): " +
           list;
}

} // namespace

CollectiveMatch matchCollectives(const std::vector<RankDigest>& ranks) {
    CollectiveMatch out;
    const bool perStream = sameUnnamedStreams(ranks);
    KeyedCollectives keyed, anonymous, peers;
    std::vector<size_t> left(ranks.size(), 0);
    bool anyUnnamed = false;
    for (size_t r = 0; r < ranks.size(); ++r) {
        const std::vector<CollectiveKernel>& cs = ranks[r].collectives;
        for (size_t k = 0; k < cs.size(); ++k) {
            switch (pairingOf(cs[k])) {
            case Pairing::Sequence:
                anyUnnamed |= cs[k].group.empty();
                listOf(keyed, groupKey(cs[k], perStream), r, ranks.size()).push_back(k);
                break;
            case Pairing::Anonymous:
                anyUnnamed |= cs[k].group.empty();
                listOf(anonymous, groupKey(cs[k], perStream), r, ranks.size()).push_back(k);
                break;
            case Pairing::Peer:
                listOf(peers, peerKey(cs[k], ranks[r].identity.rank), r, ranks.size()).push_back(k);
                break;
            case Pairing::None:
                ++left[r];
                break;
            }
        }
    }
    placeAnonymous(ranks, anonymous, keyed, left);
    if (anyUnnamed && !perStream)
        out.warnings.push_back("the ranks name no process group and run their collectives on "
                               "different streams: matched in order of start over all streams");
    std::set<std::pair<size_t, std::string>> warned;
    for (auto& [key, lists] : keyed)
        addInstances(ranks, key, lists, usesSeq(ranks, lists), warned, out, nullptr);
    for (auto& [key, lists] : peers) addInstances(ranks, key, lists, false, warned, out, &left);
    if (std::any_of(left.begin(), left.end(), [](size_t n) { return n > 0; }))
        out.warnings.push_back(leftOutWarning(ranks, left));
    return out;
}

} // namespace strata
