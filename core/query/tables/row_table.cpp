#include "query/tables/row_table.h"

namespace strata {

namespace {

class RowCursor : public QueryCursor {
public:
    explicit RowCursor(const RowTable& table) : table_(table) {}
    void filter(const QueryPlan& plan, sqlite3_value* v) override {
        list_ = plan.lookupColumn >= 0;
        rows_.clear();
        pos_ = 0;
        if (list_) {
            if (!valueIsNull(v)) table_.lookup(plan.lookupColumn, v, &rows_);
        } else {
            count_ = table_.rowCount();
        }
    }
    bool eof() const override { return list_ ? pos_ >= rows_.size() : pos_ >= count_; }
    void next() override { ++pos_; }
    void column(sqlite3_context* ctx, int col) const override { table_.value(ctx, row(), col); }
    int64_t rowid() const override { return int64_t(row()); }

private:
    uint64_t row() const { return list_ ? rows_[pos_] : pos_; }
    const RowTable& table_;
    bool list_ = false;
    std::vector<uint64_t> rows_;
    uint64_t pos_ = 0, count_ = 0;
};

} // namespace

std::unique_ptr<QueryCursor> RowTable::open() const {
    return std::make_unique<RowCursor>(*this);
}

} // namespace strata
