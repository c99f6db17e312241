#include "query_stream.h"

namespace strata {

QVariant queryCell(const QueryValue& v) {
    switch (v.type) {
    case QueryValue::Type::Int:
        return QVariant(qlonglong(v.i));
    case QueryValue::Type::Real:
        return QVariant(v.d);
    case QueryValue::Type::Text:
        return QVariant(QString::fromUtf8(v.text.data(), qsizetype(v.text.size())));
    default:
        return {};
    }
}

QueryStream::Batch QueryStream::take() {
    std::lock_guard lock(m_);
    Batch out = std::move(pending_);
    pending_ = Batch{};
    return out;
}

void QueryStream::columns(const std::vector<std::string>& names) {
    std::lock_guard lock(m_);
    pending_ = Batch{};
    pending_.reset = true;
    for (const std::string& n : names) pending_.columns << QString::fromStdString(n);
    kept_ = 0;
    total_.store(0, std::memory_order_relaxed);
}

void QueryStream::row(const std::vector<QueryValue>& values) {
    total_.fetch_add(1, std::memory_order_relaxed);
    if (kept_ >= held_) return; // counted, not held
    ++kept_;
    std::vector<QVariant> cells;
    cells.reserve(values.size());
    for (const QueryValue& v : values) cells.push_back(queryCell(v));
    std::lock_guard lock(m_);
    for (QVariant& c : cells) pending_.cells.push_back(std::move(c));
}

} // namespace strata
