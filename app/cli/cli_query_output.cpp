#include "cli_query_output.h"

#include "query/query_csv.h"
#include "util/json_text.h"
#include "util/terminal_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace strata::cli {

namespace {

// A table: the first kBuffered rows decide the widths; later rows print as they come.
class TableSink : public QuerySink {
public:
    explicit TableSink(std::FILE* out) : out_(out) {}
    void columns(const std::vector<std::string>& names) override {
        names_ = names;
        widths_.assign(names.size(), 0);
        for (size_t c = 0; c < names.size(); ++c) widths_[c] = names[c].size();
        buffered_.clear();
        streaming_ = false;
        rows_ = 0;
    }
    bool row(const std::vector<QueryValue>& values) override {
        std::vector<std::string> cells;
        for (const QueryValue& v : values) cells.push_back(terminalSafe(v.toString()));
        ++rows_;
        if (streaming_) {
            print(cells);
            return true;
        }
        for (size_t c = 0; c < cells.size(); ++c)
            widths_[c] = std::max(widths_[c], cells[c].size());
        buffered_.push_back(std::move(cells));
        if (buffered_.size() >= kBuffered) flushBuffered();
        return true;
    }
    void end() override {
        if (!streaming_) flushBuffered();
        std::fprintf(out_, "(%llu row%s)\n", static_cast<unsigned long long>(rows_),
                     rows_ == 1 ? "" : "s");
    }

private:
    static constexpr size_t kBuffered = 1000;
    void flushBuffered() {
        print(names_);
        std::vector<std::string> rule;
        for (size_t w : widths_) rule.push_back(std::string(w, '-'));
        print(rule);
        for (const auto& r : buffered_) print(r);
        buffered_.clear();
        streaming_ = true;
    }
    void print(const std::vector<std::string>& cells) {
        std::string l;
        for (size_t c = 0; c < cells.size(); ++c) {
            if (c) l += "  ";
            l += cells[c];
            if (c + 1 < cells.size() && cells[c].size() < widths_[c])
                l += std::string(widths_[c] - cells[c].size(), ' ');
        }
        std::fprintf(out_, "%s\n", l.c_str());
    }
    std::FILE* out_;
    std::vector<std::string> names_;
    std::vector<size_t> widths_;
    std::vector<std::vector<std::string>> buffered_;
    bool streaming_ = false;
    uint64_t rows_ = 0;
};

class JsonSink : public QuerySink {
public:
    explicit JsonSink(std::FILE* out) : out_(out) {}
    void columns(const std::vector<std::string>& names) override {
        keys_.clear();
        for (const std::string& n : names) {
            keys_.emplace_back();
            appendJsonString(keys_.back(), n);
        }
        std::fputs("[", out_);
        first_ = true;
    }
    bool row(const std::vector<QueryValue>& values) override {
        std::string l = first_ ? "\n{" : ",\n{";
        first_ = false;
        for (size_t c = 0; c < values.size(); ++c) {
            l += (c ? ", " : "") + keys_[c] + ": ";
            const QueryValue& v = values[c];
            if (v.type == QueryValue::Type::Text)
                appendJsonString(l, v.text);
            else if (v.type == QueryValue::Type::Null ||
                     (v.type == QueryValue::Type::Real && !std::isfinite(v.d)))
                l += "null";
            else
                l += v.toString();
        }
        l += "}";
        std::fputs(l.c_str(), out_);
        return true;
    }
    void end() override { std::fputs("\n]\n", out_); }

private:
    std::FILE* out_;
    std::vector<std::string> keys_;
    bool first_ = true;
};

} // namespace

std::unique_ptr<QuerySink> tableQuerySink(std::FILE* out) {
    return std::make_unique<TableSink>(out);
}
std::unique_ptr<QuerySink> jsonQuerySink(std::FILE* out) {
    return std::make_unique<JsonSink>(out);
}
std::unique_ptr<QuerySink> csvQuerySink(std::FILE* out) {
    return std::make_unique<QueryCsvSink>(out);
}

void printSchema(const QueryEngine& engine, bool json) {
    nlohmann::json tables = nlohmann::json::array();
    for (const auto& t : engine.tables()) {
        nlohmann::json cols = nlohmann::json::array();
        if (!json)
            std::printf("%s: %s\n", std::string(t->name()).c_str(), std::string(t->doc()).c_str());
        for (const QueryColumn& c : t->columns()) {
            cols.push_back({{"name", c.name}, {"type", c.type}, {"doc", c.doc}});
            if (!json)
                std::printf("  %-18s %-8s %s\n", c.name.c_str(), c.type.c_str(), c.doc.c_str());
        }
        tables.push_back({{"name", t->name()}, {"doc", t->doc()}, {"columns", cols}});
    }
    if (json) std::printf("%s\n", tables.dump(2).c_str());
}

} // namespace strata::cli
