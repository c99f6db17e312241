#include "record/live_status.h"

#include "contract/collector_env.h"
#include "io/strata/strata_records.h"
#include "io/strata/strata_slice_rows.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace strata {

namespace fmt = format;

namespace {

constexpr int64_t kSecondNs = 1'000'000'000;

template <typename T> T cell(const uint8_t* column, size_t i) {
    T v;
    std::memcpy(&v, column + i * sizeof(T), sizeof(T));
    return v;
}

// The length of the union of `spans` within [from, to).
int64_t unionWithin(std::vector<std::pair<int64_t, int64_t>> s, int64_t from, int64_t to) {
    std::sort(s.begin(), s.end());
    int64_t covered = 0, reach = from;
    for (auto [a, b] : s) {
        a = std::max(a, reach);
        b = std::min(b, to);
        if (b > a) {
            covered += b - a;
            reach = b;
        }
    }
    return covered;
}

// 1234567 -> "1,234,567".
std::string grouped(uint64_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace

void LiveStatus::record(fmt::RecordType type, const uint8_t* body, uint32_t bytes) {
    switch (type) {
    case fmt::RecordType::String: {
        if (!fmt::StringRecord::Body::kShape.fits(body, bytes)) return;
        const auto s = fmt::StringRecord::Body::read(body, bytes);
        if (s.text == collector_env::kMetaDroppedRecords) droppedKey_ = s.id;
        return;
    }
    case fmt::RecordType::Metadata: {
        if (!fmt::MetadataRecord::Body::kShape.fits(body, bytes)) return;
        const auto m = fmt::MetadataRecord::Body::read(body, bytes);
        if (droppedKey_ != 0 && m.key == droppedKey_)
            dropped_ = std::strtoull(std::string(m.value).c_str(), nullptr, 10);
        return;
    }
    case fmt::RecordType::GpuOp:
    case fmt::RecordType::GpuOpBlock: {
        const bool block = type == fmt::RecordType::GpuOpBlock;
        const fmt::BodyShape shape =
            block ? fmt::GpuOpBlockRecord::Body::kShape : fmt::GpuOpRecord::Body::kShape;
        if (!shape.fits(body, bytes)) return;
        const fmt::GpuOpColumns c = block ? fmt::GpuOpBlockRecord::columns(body, bytes)
                                          : fmt::GpuOpRecord::columns(body, bytes);
        for (size_t i = 0; i < c.rows; ++i) {
            const auto start = cell<int64_t>(c.start, i), end = cell<int64_t>(c.end, i);
            int32_t device;
            std::memcpy(&device, c.activityOf(i), 4);
            if (SliceKind(c.kind[i]) == SliceKind::Kernel) ++kernels_;
            latestEnd_ = std::max(latestEnd_, end);
            if (end > start) recent_[device].emplace_back(start, end);
        }
        return;
    }
    default:
        return;
    }
}

LiveStatus::Second LiveStatus::take() {
    Second s;
    s.kernels = kernels_;
    s.dropped = dropped_;
    kernels_ = 0;
    const int64_t from = latestEnd_ - kSecondNs;
    double sum = 0;
    int devices = 0;
    for (auto it = recent_.begin(); it != recent_.end();) {
        auto& v = it->second;
        v.erase(std::remove_if(v.begin(), v.end(), [&](const auto& x) { return x.second <= from; }),
                v.end());
        if (v.empty()) {
            it = recent_.erase(it);
            continue;
        }
        sum += double(unionWithin(v, from, latestEnd_)) / double(kSecondNs);
        ++devices;
        ++it;
    }
    s.busyPercent = devices ? 100.0 * sum / devices : 0;
    return s;
}

std::string LiveStatus::line(const Second& s, double elapsedS, uint64_t fileBytes) {
    const double rate = elapsedS > 0 ? double(s.kernels) / elapsedS : 0;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s kernels/s · GPU busy %.0f%% · %s dropped · %.1f MB",
                  grouped(uint64_t(rate + 0.5)).c_str(), s.busyPercent, grouped(s.dropped).c_str(),
                  double(fileBytes) / 1e6);
    return buf;
}

} // namespace strata
