#pragma once
// What `strata-cli record --live` says once a second about a run in progress, from the records
// its trace file received (io/strata/read/strata_tail.h): the kernels that arrived in the last
// second, how busy the GPUs were over the last second of GPU time seen, the records CUPTI dropped
// so far, and the file's size. Qt-free.
#include "io/strata/strata_records.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace strata {

class LiveStatus {
public:
    // One record of the trace (StrataTail's callback).
    void record(format::RecordType type, const uint8_t* body, uint32_t bytes);

    struct Second {
        uint64_t kernels = 0;   // kernels that arrived since the last take()
        double busyPercent = 0; // time with a GPU op running over the last second of GPU time
                                // seen (mean over the devices seen in it); 0 before any op
        uint64_t dropped = 0;   // records CUPTI dropped so far (the collector's count)
    };
    // The figures since the last take(); starts the next second.
    Second take();

    // "1,234 kernels/s · GPU busy 87% · 0 dropped · 12.3 MB" (elapsedS: the wall time the
    // kernels arrived in, for the rate).
    static std::string line(const Second& s, double elapsedS, uint64_t fileBytes);

private:
    uint64_t kernels_ = 0;
    uint64_t dropped_ = 0;
    uint32_t droppedKey_ = 0; // the string id of the dropped count's metadata key (0: not seen)
    int64_t latestEnd_ = INT64_MIN;
    std::map<int32_t, std::vector<std::pair<int64_t, int64_t>>> recent_; // per device: ops ending
                                                                         // in the last second
};

} // namespace strata
