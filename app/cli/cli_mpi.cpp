// strata-cli ranks --mpi (cli_mpi.h): the files handed out by the first process, largest first,
// one at a time to whichever process asks; the digests gathered to the first.
//
// Messages on MPI_COMM_WORLD: a worker asks for a file (kAsk, empty), the first answers with the
// file's index in the list or -1 when none is left (kFile, one long long); once answered -1 a
// worker sends its share (kShare: a JSON array of {"index", "digest"}, each digest as
// digestOutcomeToJson writes it, so a file's error travels like its digest). The first process
// serves the asks on its main thread (the only one that calls MPI: MPI_THREAD_FUNNELED) while a
// thread of its own digests from the same list; it polls with a short sleep, so that serving
// costs no core.
#include "cli_mpi.h"

#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <thread>

namespace strata::cli {

namespace {

constexpr int kAsk = 1, kFile = 2, kShare = 3;

// What one process made: the outcomes of the files it was handed, by index.
class Share {
public:
    Share(const char* command, const std::vector<std::string>& files,
          const AnalysisSettings& settings, const TraceSetOptions& options)
        : command_(command), files_(files), settings_(settings), options_(options) {}

    void digest(size_t i) {
        DigestOutcome o;
        try {
            o = std::move(digestEach(command_, {files_[i]}, settings_, options_).front());
        } catch (const std::exception& e) {
            o.error = files_[i] + ": cannot digest: " + e.what();
        }
        made_.push_back({{"index", i}, {"digest", digestOutcomeToJson(o, files_[i])}});
    }
    size_t count() const { return made_.size(); }
    std::string text() const {
        return made_.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    const nlohmann::json& made() const { return made_; }

private:
    const char* command_;
    const std::vector<std::string>& files_;
    const AnalysisSettings& settings_;
    const TraceSetOptions& options_;
    nlohmann::json made_ = nlohmann::json::array();
};

// Puts a share's outcomes into `outcomes`; a share that does not parse is every file's error.
void unpack(const nlohmann::json& made, const std::vector<std::string>& files, int from,
            std::vector<DigestOutcome>& outcomes, std::vector<bool>& have) {
    for (const nlohmann::json& m : made) {
        const size_t i = m.value("index", files.size());
        if (i >= files.size()) continue;
        outcomes[i] = digestOutcomeFromJson(m["digest"], files[i] + " (from MPI rank " +
                                                             std::to_string(from) + ")");
        have[i] = true;
    }
}

// The first process: serves the asks of `workers` others while its own thread digests.
std::vector<DigestOutcome> lead(const std::vector<std::string>& files, Share& own, int workers) {
    const std::vector<size_t> order = largestFirst(files);
    std::atomic<size_t> next{0};
    std::thread digester([&] {
        for (size_t k; (k = next.fetch_add(1)) < order.size();) own.digest(order[k]);
    });
    std::vector<DigestOutcome> outcomes(files.size());
    std::vector<bool> have(files.size(), false);
    std::vector<int> handed(size_t(workers) + 1, 0);
    int asking = workers, sharing = workers;
    while (asking > 0 || sharing > 0) {
        MPI_Status status;
        int flag = 0;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);
        if (!flag) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
            continue;
        }
        if (status.MPI_TAG == kAsk) {
            MPI_Recv(nullptr, 0, MPI_BYTE, status.MPI_SOURCE, kAsk, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            const size_t k = next.fetch_add(1);
            const long long file = k < order.size() ? static_cast<long long>(order[k]) : -1;
            MPI_Send(&file, 1, MPI_LONG_LONG, status.MPI_SOURCE, kFile, MPI_COMM_WORLD);
            if (file < 0)
                --asking;
            else
                ++handed[size_t(status.MPI_SOURCE)];
            continue;
        }
        int bytes = 0;
        MPI_Get_count(&status, MPI_CHAR, &bytes);
        std::string text(size_t(std::max(bytes, 0)), '\0');
        MPI_Recv(text.data(), bytes, MPI_CHAR, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        if (status.MPI_TAG != kShare) continue;
        const nlohmann::json made = nlohmann::json::parse(text, nullptr, false);
        if (made.is_array()) unpack(made, files, status.MPI_SOURCE, outcomes, have);
        --sharing;
    }
    digester.join();
    handed[0] = int(own.count());
    unpack(own.made(), files, 0, outcomes, have);
    for (size_t i = 0; i < files.size(); ++i)
        if (!have[i]) outcomes[i].error = files[i] + ": no digest came back from the MPI job";
    std::fprintf(stderr, "strata-cli ranks --mpi: %zu files digested by %d process%s (",
                 files.size(), workers + 1, workers ? "es" : "");
    for (size_t p = 0; p < handed.size(); ++p)
        std::fprintf(stderr, "%s%d", p ? ", " : "", handed[p]);
    std::fprintf(stderr, " by MPI rank)\n");
    return outcomes;
}

// Any other process: asks for files until none is left, then sends what it made to the first.
void follow(Share& own) {
    for (;;) {
        long long file = -1;
        MPI_Send(nullptr, 0, MPI_BYTE, 0, kAsk, MPI_COMM_WORLD);
        MPI_Recv(&file, 1, MPI_LONG_LONG, 0, kFile, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (file < 0) break;
        own.digest(size_t(file));
    }
    std::string text = own.text();
    if (text.size() > size_t(std::numeric_limits<int>::max())) text = "[]"; // said as missing
    MPI_Send(text.data(), int(text.size()), MPI_CHAR, 0, kShare, MPI_COMM_WORLD);
}

} // namespace

bool mpiBuilt() {
    return true;
}

std::optional<std::vector<DigestOutcome>> mpiDigestEach(const char* command,
                                                        const std::vector<std::string>& files,
                                                        const AnalysisSettings& settings,
                                                        const TraceSetOptions& options) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    Share own(command, files, settings, options);
    std::optional<std::vector<DigestOutcome>> outcomes;
    if (rank == 0)
        outcomes = lead(files, own, size - 1);
    else
        follow(own);
    MPI_Finalize();
    return outcomes;
}

} // namespace strata::cli
