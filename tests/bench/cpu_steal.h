#pragma once
// The share of the machine's CPU time stolen by the hypervisor over a benchmark run (the
// "steal" column of /proc/stat): benchmarks print it so that a figure taken while the host was
// oversubscribed is seen for what it is. -1 where /proc/stat cannot be read.
#include <cstdio>

namespace strata::bench {

class CpuSteal {
public:
    CpuSteal() { read(steal0_, total0_); }
    double percent() const {
        unsigned long long steal = 0, total = 0;
        if (!read(steal, total) || total <= total0_) return -1;
        return 100.0 * double(steal - steal0_) / double(total - total0_);
    }

private:
    unsigned long long steal0_ = 0, total0_ = 0;
    static bool read(unsigned long long& steal, unsigned long long& total) {
        FILE* f = std::fopen("/proc/stat", "r");
        if (!f) return false;
        unsigned long long v[8] = {};
        const int n = std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                                  &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
        std::fclose(f);
        if (n != 8) return false;
        total = 0;
        for (unsigned long long x : v) total += x;
        steal = v[7];
        return true;
    }
};

} // namespace strata::bench
