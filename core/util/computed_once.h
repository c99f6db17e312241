#pragma once
// A value computed on first use and then shared, from any thread: the first caller computes it,
// callers meanwhile wait for it, later ones read it (std::call_once). A computation that throws
// leaves it uncomputed (the next caller tries again).
#include <mutex>
#include <optional>
#include <utility>

namespace strata {

template <typename T> class ComputedOnce {
public:
    template <typename Compute> const T& get(Compute&& compute) const {
        std::call_once(once_, [&] { value_.emplace(std::forward<Compute>(compute)()); });
        return *value_;
    }

private:
    mutable std::once_flag once_;
    mutable std::optional<T> value_;
};

} // namespace strata
