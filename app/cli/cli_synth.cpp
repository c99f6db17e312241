// strata-cli synth --events N --seed S [--devices D --streams K] [--shape paced|queued] -o FILE
// Writes a deterministic Kineto-style trace (gzip if FILE ends in .gz) and prints the generator's
// own totals as one JSON object on stdout (kernel count, per-device kernel time, ...).
#include "cli_commands.h"
#include "cli_options.h"

#include "io/synthetic/synthetic_trace.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace {

const char* const kUsage =
    "usage: strata-cli synth --events N --seed S [--devices D] [--streams K] -o FILE\n"
    "  Writes a deterministic Kineto-style trace of exactly N events (.json, gzip\n"
    "  when FILE ends in .gz, a Strata recording of the same program when it ends in\n"
    "  .strata) and prints its totals as JSON.\n"
    "  --devices D   GPUs (default 1)      --streams K   streams per GPU (default 1)\n"
    "  --shape paced|queued  paced (default): the GPU keeps pace with the CPU as in a real\n"
    "                training loop (steps ending in a sync, a bounded launch queue);\n"
    "                queued: the first generator, whose GPU work queues up without bound\n";

} // namespace

int strata::cli::synth(const Args& args) {
    using namespace strata::cli;
    SynthOptions o;
    std::string path, shape = "paced";
    uint64_t events = 0, seed = 0, devices = 1, streams = 1;
    bool haveEvents = false, haveSeed = false;
    auto required = [](TakeValue take, bool* seen) {
        return [take, seen](const std::string& v) {
            *seen = true;
            return take(v);
        };
    };
    const uint64_t kMax = 9'999'999'999'999'999'999ull;
    CommandLine line("synth", kUsage);
    line.option("--events", required(wholeNumber("--events", kMax, &events), &haveEvents))
        .option("--seed", required(wholeNumber("--seed", kMax, &seed), &haveSeed))
        .option("--devices", wholeNumber("--devices", 1024, &devices))
        .option("--streams", wholeNumber("--streams", 1024, &streams))
        .option("-o", text(&path))
        .option("--shape", text(&shape));
    if (const auto exit = line.parse(args)) return *exit;
    if (shape != "paced" && shape != "queued")
        return line.usageError("--shape is paced or queued, not '" + shape + "'");
    o.shape = shape == "paced" ? SynthOptions::Shape::Paced : SynthOptions::Shape::Queued;
    if (!haveEvents || !haveSeed || path.empty())
        return line.usageError("--events, --seed and -o are required");
    o.events = events;
    o.seed = seed;
    o.devices = int(devices);
    o.streams = int(streams);
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
