// What both passes of a HalfLoader share: the walk over a chunk's records, progress and the
// hand-back of file pages.
#include "io/strata/read/strata_half_loader.h"

#include <string>

namespace strata::strata_reader {

// (this->*steps[type])(type, body, bytes) for each record of the chunk, until one returns false.
bool HalfLoader::eachRecord(size_t chunk, const Steps& steps) {
    const bool rowsLeftOut = chunk < rowsFrom;
    return forEachRecord(data_, chunks_[chunk],
                         [&](RT t, const uint8_t* p, uint32_t bytes) {
                             if (rowsLeftOut && rowsOnlyRecord(t)) return std::string();
                             return (this->*steps[uint8_t(t)])(t, p, bytes) ? std::string()
                                                                            : std::string("x");
                         })
        .empty();
}

void HalfLoader::startPass(double base, bool handsBack) {
    passBase_ = base;
    handsBack_ = handsBack;
    stepped_ = first_ < last_ ? chunks_[first_].offset : 0;
}

// Every 8 MiB: in pass 2, hands the bytes read back (pass 1 keeps them mapped for pass 2, which
// then needs no fault to read them, while the columns it writes are not backed yet) and, on the
// calling thread, reports progress (pass 1 is the first half of the work, pass 2 the second).
void HalfLoader::afterChunk(size_t chunk) {
    constexpr size_t kStep = 8u << 20;
    const size_t done = chunks_[chunk].end();
    if (done - stepped_ < kStep && chunk + 1 != last_) return;
    if (handsBack_ && hooks_->releaseBytes) hooks_->releaseBytes(stepped_, done);
    stepped_ = done;
    if (!reports_ || !hooks_->progress) return;
    const size_t from = chunks_[first_].offset;
    const double part = double(done - from) / double(chunks_[last_ - 1].end() - from);
    if (!hooks_->progress(passBase_ + 0.5 * part)) {
        cancelled = true;
        *stop_ = true;
    }
}

} // namespace strata::strata_reader
