// strata-cli synth --events N --seed S [--devices D --streams K] -o FILE
// Writes a deterministic Kineto-style trace (gzip if FILE ends in .gz) and prints the generator's
// own totals as one JSON object on stdout (kernel count, per-device kernel time, ...).
#include "cli_commands.h"

#include "io/synthetic_trace.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void usage(FILE* out) {
    std::fprintf(
        out, "usage: strata-cli synth --events N --seed S [--devices D] [--streams K] -o FILE\n"
             "  Writes a deterministic Kineto-style trace of exactly N events (.json, gzip\n"
             "  when FILE ends in .gz, a Strata recording of the same program when it ends in\n"
             "  .strata) and prints its totals as JSON.\n"
             "  --devices D   GPUs (default 1)      --streams K   streams per GPU (default 1)\n");
}

bool parseNumber(const std::string& s, uint64_t* out) {
    if (s.empty() || s.size() > 19) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    *out = std::strtoull(s.c_str(), nullptr, 10);
    return true;
}

} // namespace

int strata::cli::synth(const Args& args) {
    SynthOptions o;
    std::string path;
    bool haveEvents = false, haveSeed = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        }
        if (i + 1 >= args.size()) {
            std::fprintf(stderr, "strata-cli synth: %s needs a value\n", a.c_str());
            usage(stderr);
            return 2;
        }
        const std::string& v = args[++i];
        uint64_t n = 0;
        if (a == "-o") {
            path = v;
            continue;
        }
        if (!parseNumber(v, &n)) {
            std::fprintf(stderr, "strata-cli synth: %s expects a non-negative integer, got '%s'\n",
                         a.c_str(), v.c_str());
            return 2;
        }
        if (a == "--events")
            o.events = n, haveEvents = true;
        else if (a == "--seed")
            o.seed = n, haveSeed = true;
        else if (a == "--devices")
            o.devices = n > 1024 ? 1025 : int(n);
        else if (a == "--streams")
            o.streams = n > 1024 ? 1025 : int(n);
        else {
            std::fprintf(stderr, "strata-cli synth: unknown option '%s'\n", a.c_str());
            usage(stderr);
            return 2;
        }
    }
    if (!haveEvents || !haveSeed || path.empty()) {
        std::fprintf(stderr, "strata-cli synth: --events, --seed and -o are required\n");
        usage(stderr);
        return 2;
    }
    SynthTotals t;
    std::string error;
    const auto t0 = std::chrono::steady_clock::now();
    if (!writeSyntheticTrace(o, path, &t, &error)) {
        std::fprintf(stderr, "strata-cli synth: %s\n", error.c_str());
        return 1;
    }
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("{\"file\": \"%s\", \"events\": %llu, \"json_bytes\": %llu, \"seconds\": %.2f, "
                "\"metadata_events\": %llu, \"cpu_slices\": %llu, \"kernels\": %llu, "
                "\"memcpys\": %llu, \"memsets\": %llu, \"flows\": %llu, \"first_ns\": %lld, "
                "\"last_ns\": %lld, \"devices\": [",
                path.c_str(), (unsigned long long)t.events, (unsigned long long)t.bytes, secs,
                (unsigned long long)t.metadataEvents, (unsigned long long)t.cpuSlices,
                (unsigned long long)t.kernels, (unsigned long long)t.memcpys,
                (unsigned long long)t.memsets, (unsigned long long)t.flowPairs,
                (long long)t.firstNs, (long long)t.lastNs);
    for (size_t d = 0; d < t.kernelsPerDevice.size(); ++d)
        std::printf("%s{\"device\": %zu, \"kernels\": %llu, \"kernel_ns\": %lld}", d ? ", " : "", d,
                    (unsigned long long)t.kernelsPerDevice[d],
                    (long long)t.kernelTimeNsPerDevice[d]);
    std::printf("]}\n");
    return 0;
}
