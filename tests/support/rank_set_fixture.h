#pragma once
// Sets of rank traces for the cross-rank tests: copies of real Kineto JSON ranks with their clock
// moved (every timestamp shifted) or time inserted (a planted straggler), hand-made Kineto JSON
// ranks whose every figure is worked out in the tests, and the digests of files.
#include "analysis/ranks/cross_rank.h"
#include "analysis/ranks/rank_digest.h"
#include "analysis/trace_analysis.h"
#include "io/trace_loader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace strata::test {

inline nlohmann::json readJson(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw std::runtime_error("cannot read " + path);
    return nlohmann::json::parse(f);
}

inline void writeJson(const nlohmann::json& j, const std::string& path) {
    std::ofstream f(path);
    f << j.dump();
    if (!f) throw std::runtime_error("cannot write " + path);
}

// Time inserted into a trace at `atUs`: events that start at or after it move by `us`, those
// that span it grow by it (what a rank that computed `us` longer before `atUs` records).
struct Insertion {
    int64_t atUs = 0;
    int64_t us = 0;
};

// A copy of Kineto JSON `in` with every timestamp moved by `shiftUs` (µs, whole) after the
// insertion, if any.
inline void writeShifted(const std::string& in, const std::string& out, int64_t shiftUs,
                         std::optional<Insertion> insert = std::nullopt) {
    nlohmann::json j = readJson(in);
    for (nlohmann::json& e : j["traceEvents"]) {
        if (!e.contains("ts") || !e["ts"].is_number_integer()) continue;
        int64_t ts = e["ts"].get<int64_t>();
        if (insert && e.value("ph", "") != "M") {
            const int64_t dur = e.contains("dur") ? e["dur"].get<int64_t>() : 0;
            if (ts >= insert->atUs)
                ts += insert->us;
            else if (ts + dur > insert->atUs)
                e["dur"] = dur + insert->us;
        }
        e["ts"] = ts + shiftUs;
    }
    writeJson(j, out);
}

// The eight PARAM DLRM ranks of ../shared/traces/multirank/param-dlrm, by name (none where the
// folder is absent).
inline std::vector<std::string> dlrmFiles() {
    const std::filesystem::path dir =
        std::filesystem::path(STRATA_SHARED_TRACES) / "multirank" / "param-dlrm";
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("worker", 0) == 0 && name.size() > 5 &&
            name.compare(name.size() - 5, 5, ".json") == 0)
            out.push_back(e.path().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// The test skips, saying so, where the eight DLRM ranks are absent; `files` holds their paths.
#define REQUIRE_DLRM_FILES(files)                                                                  \
    const std::vector<std::string> files = strata::test::dlrmFiles();                              \
    if (files.size() != 8) QSKIP("../shared/traces/multirank/param-dlrm is absent")

// The start and end (µs, as in the file) of the first NCCL kernel of a Kineto JSON rank.
inline std::pair<int64_t, int64_t> firstCollective(const std::string& path) {
    const nlohmann::json j = readJson(path);
    std::pair<int64_t, int64_t> best{INT64_MAX, 0};
    for (const nlohmann::json& e : j["traceEvents"])
        if (e.value("cat", "") == "kernel" && e["name"].get<std::string>().find("nccl") == 0 &&
            e["ts"].get<int64_t>() < best.first)
            best = {e["ts"].get<int64_t>(), e["ts"].get<int64_t>() + e["dur"].get<int64_t>()};
    return best;
}

// A hand-made Kineto JSON rank: kernels on its own device (= its rank), CPU annotations.
class HandRank {
public:
    explicit HandRank(int rank, bool distributedInfo = true) : rank_(rank) {
        doc_["traceEvents"] = nlohmann::json::array();
        if (distributedInfo)
            doc_["distributedInfo"] = {{"backend", "nccl"}, {"rank", rank}, {"world_size", 4}};
    }
    HandRank& kernel(const std::string& name, int64_t stream, int64_t tsUs, int64_t durUs,
                     const std::string& group = {}) {
        nlohmann::json args = {{"device", rank_}, {"stream", stream}};
        if (!group.empty()) args["Process Group Name"] = group;
        doc_["traceEvents"].push_back({{"ph", "X"},
                                       {"cat", "kernel"},
                                       {"name", name},
                                       {"pid", rank_},
                                       {"tid", stream},
                                       {"ts", tsUs},
                                       {"dur", durUs},
                                       {"args", args}});
        return *this;
    }
    // A kernel with the args given (Kineto's "Collective name", "Dst Rank", "Seq", ...), its
    // device and stream added.
    HandRank& kernelWith(const std::string& name, int64_t stream, int64_t tsUs, int64_t durUs,
                         nlohmann::json args) {
        args["device"] = rank_;
        args["stream"] = stream;
        doc_["traceEvents"].push_back({{"ph", "X"},
                                       {"cat", "kernel"},
                                       {"name", name},
                                       {"pid", rank_},
                                       {"tid", stream},
                                       {"ts", tsUs},
                                       {"dur", durUs},
                                       {"args", args}});
        return *this;
    }
    HandRank& worldSize(int n) {
        doc_["distributedInfo"]["world_size"] = n;
        return *this;
    }
    HandRank& annotation(const std::string& name, int64_t tsUs, int64_t durUs) {
        doc_["traceEvents"].push_back({{"ph", "X"},
                                       {"cat", "user_annotation"},
                                       {"name", name},
                                       {"pid", 1000 + rank_},
                                       {"tid", 1000 + rank_},
                                       {"ts", tsUs},
                                       {"dur", durUs}});
        return *this;
    }
    HandRank& baseTime(int64_t ns) {
        doc_["baseTimeNanoseconds"] = ns;
        return *this;
    }
    void write(const std::string& path) const { writeJson(doc_, path); }

private:
    int rank_;
    nlohmann::json doc_;
};

inline RankDigest digestFile(const std::string& path, int64_t index,
                             const AnalysisSettings& settings = {}) {
    const LoadResult r = loadTrace(path);
    if (!r.ok()) throw std::runtime_error("cannot load " + path);
    return digestTrace(TraceAnalysis(r.trace, settings), path, index);
}

inline std::vector<RankDigest> digestFiles(const std::vector<std::string>& paths) {
    std::vector<RankDigest> out;
    for (size_t i = 0; i < paths.size(); ++i) out.push_back(digestFile(paths[i], int64_t(i)));
    return out;
}

} // namespace strata::test
