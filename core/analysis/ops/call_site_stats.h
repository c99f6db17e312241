#pragma once
// The kernels per Python call site (issue 45; launch_sites.h): for each site, the kernels that
// its launches ran, their count and GPU time (total, mean, share of all kernel time), the site's
// kernels by name below it. What `strata-cli stats --by call-site` lists; made from the kernel
// table grouped by call site (op_stats.h, TraceAnalysis::opStatsByCallSite), so the figures are
// that table's, summed.
#include "analysis/ops/op_stats.h"

#include <string>
#include <vector>

namespace strata {

struct CallSiteKernel {
    StringId nameId = 0;
    std::string name;
    uint64_t count = 0;
    TimeNs total = 0;
    double mean = 0; // ns
};

struct CallSiteRow {
    std::string site; // "path/file.py:LINE function"; "" for kernels launched outside Python
    uint64_t count = 0;
    TimeNs total = 0;
    double mean = 0;                     // ns
    double share = 0;                    // of all kernel time in the range
    std::vector<CallSiteKernel> kernels; // by total time descending
};

struct CallSiteStats {
    TimeNs kernelTime = 0;
    std::vector<CallSiteRow> sites; // by total time descending, then by site
};

// From kernel statistics grouped by call site (OpStatsOptions::callSites).
CallSiteStats callSiteStats(const OpStats& bySite);

} // namespace strata
